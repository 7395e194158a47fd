// The window's one way of writing dates and times (the audit found four): ISO-like, in the
// viewer's local time, so columns line up and read the same in every view.
import { format, parseISO } from "date-fns";

function parse(value: string | number | Date): Date {
  return typeof value === "string" ? parseISO(value) : new Date(value);
}

/** "2026-03-01 08:00:05"; "—" for none; the raw text when it is not a date-time. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const d = parse(value);
  return Number.isNaN(d.getTime()) ? String(value) : format(d, "yyyy-MM-dd HH:mm:ss");
}

/** "2026-03-01". */
export function formatDate(value: string | number | Date): string {
  const d = parse(value);
  return Number.isNaN(d.getTime()) ? String(value) : format(d, "yyyy-MM-dd");
}

/** "08:00". */
export function formatTimeOfDay(value: string | number | Date): string {
  const d = parse(value);
  return Number.isNaN(d.getTime()) ? String(value) : format(d, "HH:mm");
}

/** "2026-03-01 08:00" (a table's column); the seconds go in its title. */
export function formatDateTimeShort(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const d = parse(value);
  return Number.isNaN(d.getTime()) ? String(value) : format(d, "yyyy-MM-dd HH:mm");
}
