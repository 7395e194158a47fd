import { afterEach, describe, expect, it } from "vitest";
import { type BenchMark, benchMark, benchNow, benchSince, benchTimed } from "./benchMarks";

const g = globalThis as { __KAIROS_BENCH__?: { marks: BenchMark[] } };

afterEach(() => {
  delete g.__KAIROS_BENCH__;
});

describe("the window benchmark's marks", () => {
  it("keep nothing and read no clock unless the benchmark set its flag", async () => {
    expect(benchNow()).toBe(0);
    benchMark("update");
    benchSince("update", 5);
    const p = Promise.resolve(1);
    expect(benchTimed("counts", "x", p)).toBe(p);
    expect(g.__KAIROS_BENCH__).toBeUndefined();
  });

  it("record marks in order once the flag is set", async () => {
    g.__KAIROS_BENCH__ = { marks: [] };
    const start = benchNow();
    expect(start).toBeGreaterThan(0);
    benchSince("update", start);
    expect(await benchTimed("counts", "2026-12-01", Promise.resolve(42))).toBe(42);
    const marks = g.__KAIROS_BENCH__.marks;
    expect(marks.map((m) => m.name)).toEqual(["update", "counts-sent", "counts-answer"]);
    expect(Number(marks[0].detail)).toBeGreaterThanOrEqual(0);
    expect(marks[1].detail).toBe("2026-12-01");
    expect(marks[2].at).toBeGreaterThanOrEqual(marks[1].at);
  });
});
