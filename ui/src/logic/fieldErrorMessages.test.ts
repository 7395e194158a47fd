import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FieldError } from "../ipc/types";
import { fieldErrorText, RULE_MESSAGES } from "./fieldErrorMessages";

/** The ids of the core's `FieldRule` enum (`Variant => "id",`), read from its source. */
function coreRuleIds(): string[] {
  const url = new URL("../../../crates/kairos-core/src/validate/rule.rs", import.meta.url);
  const source = readFileSync(url, "utf8");
  // A line of the `rules!` table: `    Variant { … } => "id",` or a multi-line variant's `    } => "id",`.
  return [...source.matchAll(/^ {4}(?:[A-Z]\w*(?: \{[^}\n]*\})?|\}) => "([a-z0-9_]+)",$/gm)].map((m) => m[1]);
}

function check(
  error: Partial<FieldError> & { rule?: string | null; args?: Record<string, string | number> },
  text: string,
) {
  const e = { path: "properties.x", code: "BadRequest", message: "the engine's English", ...error } as FieldError;
  expect(fieldErrorText(e)).toBe(text);
}

describe("field errors", () => {
  it("have one message per rule the core names, and none for a rule it does not", () => {
    const ids = coreRuleIds();
    expect(ids.length).toBeGreaterThan(70);
    expect(Object.keys(RULE_MESSAGES).sort()).toEqual([...ids].sort());
  });

  it("say the rule from the catalog with its arguments, or the engine's English without one", () => {
    check({ rule: "too_long", args: { max: 2048, got: 3000 } }, "Can be at most 2,048 characters; this has 3,000.");
    check({ rule: "required", args: {} }, "This field is required.");
    check(
      { rule: "required_one_of", args: { expected: "None, Fixed, Exponential" } },
      "Choose one of None, Fixed, or Exponential.",
    );
    check(
      { rule: "unknown_calendar", args: { name: "Feiertage", known: "", known_count: 0 } },
      "The job collection has no calendar named “Feiertage”. It defines none.",
    );
    check(
      { rule: "unknown_calendar", args: { name: "x", known: "Holidays, Weekends", known_count: 2 } },
      "The job collection has no calendar named “x”. It defines Holidays and Weekends.",
    );
    check(
      {
        rule: "never_runs_day_of_month",
        args: { frequency: "Month", interval: 12, from_month: "2030-02", months: "2", month_count: 1, day: 30 },
      },
      "This schedule never runs: from February 2030 it reaches only February, and that month has no day 30.",
    );
    check(
      {
        rule: "start_time_too_far",
        args: { max_months: 18, latest: "2031-07-01T00:00:00Z", got: "2032-01-01T00:00:00Z" },
      },
      "The start time can be at most 18 months ahead, no later than Jul 1, 2031, 12:00 AM.",
    );
    // A rule this window does not know (a newer engine), or none: the engine's sentence.
    check({ rule: "some_future_rule", args: { max: 1 } }, "the engine's English");
    check({ rule: null, args: {} }, "the engine's English");
    check({}, "the engine's English");
    check({ rule: "constructor" }, "the engine's English");
  });
});
