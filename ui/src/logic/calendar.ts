// The preview's month calendar: weeks × 7 days, from the first day of the week of the window's
// language (Monday in de and fr, Sunday in en, zh-TW and pt-BR); Monday when not told.
import {
  addDays,
  addMonths,
  endOfMonth,
  endOfWeek,
  format,
  getDate,
  isSameMonth,
  startOfMonth,
  startOfWeek,
} from "date-fns";
import { formatMonthYear } from "../i18n/format";

export type CalendarCell = { date: string; day: number; inMonth: boolean; marked: boolean };
export type MonthGrid = { month: string; title: string; weeks: CalendarCell[][] };

const MONTH = /^(\d{4})-(\d{2})$/;

/** Local-time dates: date-fns steps days by calendar (setDate), so DST changes do not shift them. */
function firstOfMonth(month: string): Date {
  const m = MONTH.exec(month);
  if (!m) throw new Error(`not a month (YYYY-MM): ${month}`);
  return new Date(Number(m[1]), Number(m[2]) - 1, 1);
}

/** `firstDay`: the week's first day, ISO-numbered (1 Monday … 7 Sunday). */
export function monthGrid(month: string, markedDays: readonly number[], firstDay = 1): MonthGrid {
  const first = firstOfMonth(month);
  const weekStartsOn = (firstDay % 7) as 0 | 1 | 2 | 3 | 4 | 5 | 6;
  const start = startOfWeek(startOfMonth(first), { weekStartsOn });
  const end = endOfWeek(endOfMonth(first), { weekStartsOn });
  const marked = new Set(markedDays);
  const weeks: CalendarCell[][] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) {
    if (weeks.length === 0 || weeks[weeks.length - 1].length === 7) weeks.push([]);
    const inMonth = isSameMonth(d, first);
    weeks[weeks.length - 1].push({
      date: format(d, "yyyy-MM-dd"),
      day: getDate(d),
      inMonth,
      marked: inMonth && marked.has(getDate(d)),
    });
  }
  return { month, title: formatMonthYear(first), weeks };
}

/** "2026-12" + 1 → "2027-01". */
export function shiftMonth(month: string, by: number): string {
  return format(addMonths(firstOfMonth(month), by), "yyyy-MM");
}
