// Between the engine's instants and the wall-clock values of <input type="datetime-local">.
// The engine reads a time without offset as UTC; the form shows times on the wall clock of the
// job's time zone (recurrence.timeZone, empty = UTC), so the user types what the schedule means.

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Epoch ms of an engine date-time (the forms of semantics.md §Times), or null. */
export function parseInstant(text: string): number | null {
  const m = INSTANT.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", zone] = m;
  let ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  if (zone && zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
    ms -= sign * offsetMin * 60_000;
  }
  return Number.isNaN(ms) ? null : ms;
}

/** RFC 3339 in UTC, whole seconds, as the engine writes it. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of `ms` in `zone` as if they were UTC: the zone's offset is the difference. */
function wallAsUtc(ms: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
}

function isUtc(zone: string): boolean {
  return zone.trim() === "" || zone.trim().toUpperCase() === "UTC";
}

/** Whether the runtime knows `zone` (an unknown one is left for the engine to report). */
export function knownZone(zone: string): boolean {
  if (isUtc(zone)) return true;
  try {
    formatter(zone.trim());
    return true;
  } catch {
    return false;
  }
}

/** "YYYY-MM-DDTHH:mm[:ss]" on the wall clock of `zone` (UTC when empty or unknown). */
export function instantToWall(ms: number, zone: string): string {
  const wall = knownZone(zone) && !isUtc(zone) ? wallAsUtc(ms, zone.trim()) : ms;
  const iso = new Date(wall).toISOString();
  const seconds = iso.slice(17, 19);
  return seconds === "00" ? iso.slice(0, 16) : iso.slice(0, 19);
}

/**
 * The instant a wall-clock time in `zone` denotes, or null when `wall` is not a wall time.
 * A time in a spring gap resolves to the offset in force before the gap (the engine's own DST
 * policy applies to recurrences, not to this conversion).
 */
export function wallToInstant(wall: string, zone: string): number | null {
  const m = WALL.exec(wall.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "0"] = m;
  const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  if (Number.isNaN(asUtc)) return null;
  if (!knownZone(zone) || isUtc(zone)) return asUtc;
  const z = zone.trim();
  // Two passes: the offset at the first guess may differ from the offset at the answer (DST).
  let t = asUtc - (wallAsUtc(asUtc, z) - asUtc);
  t = asUtc - (wallAsUtc(t, z) - t);
  return t;
}

/** An engine date-time → the form's wall value; text that is not a date-time is kept as is. */
export function toWall(text: string | undefined, zone: string): string {
  if (!text) return "";
  const ms = parseInstant(text);
  return ms === null ? text : instantToWall(ms, zone);
}

/** The form's wall value → an engine date-time; text that is not a wall time passes through. */
export function fromWall(wall: string, zone: string): string | undefined {
  if (wall.trim() === "") return undefined;
  const ms = wallToInstant(wall, zone);
  return ms === null ? wall : formatInstant(ms);
}
