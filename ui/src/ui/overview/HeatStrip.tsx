import { type DayBucket, heatLevel, heatStrip } from "../../logic/overview";

/** Runs per hour over the shown days, one cell per hour, shaded by how busy it is. */
export function HeatStrip({ buckets }: { buckets: readonly DayBucket[] }) {
  const { counts, max } = heatStrip(buckets);
  return (
    <div id="overview-heat" class="heat-strip" role="img" aria-label={`Runs per hour; the busiest hour has ${max}`}>
      {counts.map((c, i) => (
        <span
          key={i}
          class={`heat heat-${heatLevel(c, max)}`}
          data-count={c}
          title={`${buckets[Math.floor(i / 24)].day} ${String(i % 24).padStart(2, "0")}:00 · ${c} runs`}
        />
      ))}
    </div>
  );
}
