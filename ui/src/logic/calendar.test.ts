import { describe, expect, it } from "vitest";
import { monthGrid, shiftMonth } from "./calendar";

type Case = {
  month: string;
  marked: number[];
  /** The cells drawn as run days (marked days that exist in the month), in order. */
  runs: number[];
  title: string;
  /** Day numbers per week, Monday first; null = a cell outside the month. */
  weeks: (number | null)[][];
  prev: string;
  next: string;
};

function check(c: Case) {
  const grid = monthGrid(c.month, c.marked);
  expect(grid.title).toBe(c.title);
  expect(grid.weeks.map((w) => w.map((cell) => (cell.inMonth ? cell.day : null)))).toEqual(c.weeks);
  const marked = grid.weeks
    .flat()
    .filter((cell) => cell.marked)
    .map((cell) => cell.day);
  expect(marked).toEqual(c.runs);
  for (const w of grid.weeks) expect(w).toHaveLength(7);
  expect(shiftMonth(c.month, -1)).toBe(c.prev);
  expect(shiftMonth(c.month, 1)).toBe(c.next);
}

const _ = null;
const cases: Case[] = [
  {
    month: "2026-02",
    marked: [27, 1],
    runs: [1, 27],
    title: "February 2026",
    prev: "2026-01",
    next: "2026-03",
    weeks: [
      [_, _, _, _, _, _, 1],
      [2, 3, 4, 5, 6, 7, 8],
      [9, 10, 11, 12, 13, 14, 15],
      [16, 17, 18, 19, 20, 21, 22],
      [23, 24, 25, 26, 27, 28, _],
    ],
  },
  {
    month: "2026-11",
    marked: [30, 2, 99],
    runs: [2, 30],
    title: "November 2026",
    prev: "2026-10",
    next: "2026-12",
    weeks: [
      [_, _, _, _, _, _, 1],
      [2, 3, 4, 5, 6, 7, 8],
      [9, 10, 11, 12, 13, 14, 15],
      [16, 17, 18, 19, 20, 21, 22],
      [23, 24, 25, 26, 27, 28, 29],
      [30, _, _, _, _, _, _],
    ],
  },
  {
    month: "2027-02",
    marked: [],
    runs: [],
    title: "February 2027",
    prev: "2027-01",
    next: "2027-03",
    weeks: [
      [1, 2, 3, 4, 5, 6, 7],
      [8, 9, 10, 11, 12, 13, 14],
      [15, 16, 17, 18, 19, 20, 21],
      [22, 23, 24, 25, 26, 27, 28],
    ],
  },
  {
    month: "2026-12",
    marked: [31],
    runs: [31],
    title: "December 2026",
    prev: "2026-11",
    next: "2027-01",
    weeks: [
      [_, 1, 2, 3, 4, 5, 6],
      [7, 8, 9, 10, 11, 12, 13],
      [14, 15, 16, 17, 18, 19, 20],
      [21, 22, 23, 24, 25, 26, 27],
      [28, 29, 30, 31, _, _, _],
    ],
  },
];

describe("calendar", () => {
  for (const c of cases) it(c.month, () => check(c));
  it("rejects a malformed month", () => expect(() => monthGrid("2026-2", [])).toThrow());
});
