import { endOfDay, startOfDay } from "date-fns";
import { describe, expect, it } from "vitest";
import { engineQuery, NO_QUERY, pageLabel, queryErrors, queryWords } from "./historyFilter";

describe("engineQuery", () => {
  it("sends local days as instants, inclusive of the last day", () => {
    const q = engineQuery("Failed", { from: "2026-11-21", to: "2026-11-22", text: "  refused " });
    expect(q).toEqual({
      status: "Failed",
      from: startOfDay(new Date(2026, 10, 21)).toISOString(),
      to: endOfDay(new Date(2026, 10, 22)).toISOString(),
      text: "refused",
    });
  });

  it("leaves out what is empty or invalid (its error is shown instead)", () => {
    expect(engineQuery("", NO_QUERY)).toEqual({ status: null, from: null, to: null, text: null });
    const q = engineQuery("", { from: "2026-13-01", to: "2026-11-22", text: "   " });
    expect(q.from).toBeNull();
    expect(q.to).toBe(endOfDay(new Date(2026, 10, 22)).toISOString());
    expect(q.text).toBeNull();
    expect(engineQuery("", { from: "2026-11-22", to: "2026-11-21", text: "" }).to).toBeNull();
  });
});

describe("queryErrors", () => {
  it("names the field and the rule", () => {
    expect(queryErrors(NO_QUERY)).toEqual({});
    expect(queryErrors({ ...NO_QUERY, from: "2026-02-30" })).toEqual({ from: "not a date" });
    expect(queryErrors({ ...NO_QUERY, to: "yesterday" })).toEqual({ to: "not a date" });
    expect(queryErrors({ ...NO_QUERY, from: "2026-11-22", to: "2026-11-21" })).toEqual({
      to: "must not be before the start date",
    });
    expect(queryErrors({ ...NO_QUERY, from: "2026-11-22", to: "2026-11-22" })).toEqual({});
  });
});

describe("queryWords", () => {
  it("says what an export of the view holds, leaving out what the view leaves out", () => {
    expect(queryWords("", NO_QUERY)).toBe("Every record");
    expect(queryWords("Failed", { from: "2026-11-01", to: "2026-11-20", text: " timeout " })).toBe(
      "Every Failed record from 2026-11-01 to 2026-11-20 containing “timeout”",
    );
    expect(queryWords("", { ...NO_QUERY, from: "2026-11-01" })).toBe("Every record from 2026-11-01 on");
    expect(queryWords("", { ...NO_QUERY, to: "2026-11-20" })).toBe("Every record up to 2026-11-20");
    expect(queryWords("", { from: "2026-02-30", to: "2026-11-20", text: "" })).toBe("Every record up to 2026-11-20");
  });
});

describe("pageLabel", () => {
  it("says which records the page holds", () => {
    expect(pageLabel(0, 100, 2500)).toBe("Records 1–100 of 2,500");
    expect(pageLabel(2400, 100, 2500)).toBe("Records 2,401–2,500 of 2,500");
    expect(pageLabel(0, 0, 0)).toBe("No records of 0");
  });
});
