import { describe, expect, it } from "vitest";
import { coalesce } from "./timing";

type Step = { call: number } | { finish: number };

/** Calls and request completions in order; which requests were sent and which results shown. */
async function check(steps: Step[], sent: number[], delivered: number[]) {
  const pending = new Map<number, () => void>();
  const sentLog: number[] = [];
  const deliveredLog: number[] = [];
  const c = coalesce<number, number>(
    (n) => {
      sentLog.push(n);
      return new Promise((resolve) => pending.set(n, () => resolve(n)));
    },
    (r) => deliveredLog.push(r),
  );
  for (const s of steps) {
    if ("call" in s) c.run(s.call);
    else {
      pending.get(s.finish)!();
      await new Promise((r) => setTimeout(r, 0));
    }
  }
  expect(sentLog).toEqual(sent);
  expect(deliveredLog).toEqual(delivered);
}

describe("coalesce", () => {
  it("sends at once when idle", () => check([{ call: 1 }, { finish: 1 }, { call: 2 }, { finish: 2 }], [1, 2], [1, 2]));
  it("drops requests superseded while one is in flight", () =>
    check([{ call: 1 }, { call: 2 }, { call: 3 }, { call: 4 }, { finish: 1 }, { finish: 4 }], [1, 4], [1, 4]));
  it("keeps the newest waiting request only", () =>
    check(
      [{ call: 1 }, { call: 2 }, { finish: 1 }, { call: 3 }, { call: 5 }, { finish: 2 }, { finish: 5 }],
      [1, 2, 5],
      [1, 2, 5],
    ));
});
