import { useMemo } from "preact/hooks";
import { currentLocale, i18n, useI18n } from "../../i18n";
import { type DayBucket, heatLevel, heatStrip } from "../../logic/overview";
import { dayLabel } from "./DayColumns";

/**
 * Runs per hour over the shown days, one cell per hour, shaded by how busy it is. A month is 744
 * cells: they are worked out once per set of buckets, and the overview renders this only when
 * its buckets change (not when the selection moves).
 */
export function HeatStrip({ buckets }: { buckets: readonly DayBucket[] }) {
  useI18n();
  const locale = currentLocale();
  const { cells, max } = useMemo(() => {
    const { counts, max } = heatStrip(buckets);
    const cells = counts.map((count, i) => ({
      count,
      level: heatLevel(count, max),
      title: i18n._("{day} {hour}:00 · {count, plural, one {# run} other {# runs}}", {
        day: dayLabel(buckets[Math.floor(i / 24)].day),
        hour: HOURS[i % 24],
        count,
      }),
    }));
    return { cells, max };
  }, [buckets, locale]);
  return (
    <div
      id="overview-heat"
      class="heat-strip"
      role="img"
      aria-label={i18n._("Runs per hour; the busiest hour has {max}", { max })}
    >
      {cells.map((c, i) => (
        <span key={i} class={LEVEL_CLASSES[c.level]} data-count={c.count} title={c.title} />
      ))}
    </div>
  );
}

const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"));
const LEVEL_CLASSES = [0, 1, 2, 3, 4].map((level) => `heat heat-${level}`);
