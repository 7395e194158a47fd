import { describe, expect, it } from "vitest";
import { deleteQuestion, formOf, planOf } from "./collectionForm";

describe("collection plan form", () => {
  it("sends empty quota fields as null (the plan's limits)", () => {
    expect(planOf({ plan: "Standard", maxJobCount: " 5 ", frequency: "", interval: "" })).toEqual({
      plan: { plan: "Standard", maxJobCount: 5, maxRecurrenceFrequency: null, maxRecurrenceInterval: null },
      errors: [],
    });
  });
  it("leaves the engine to judge numbers, but refuses what is not one, on its field", () => {
    expect(planOf({ plan: "Free", maxJobCount: "0", frequency: "Hour", interval: "-2" }).plan).toEqual({
      plan: "Free",
      maxJobCount: 0,
      maxRecurrenceFrequency: "Hour",
      maxRecurrenceInterval: -2,
    });
    const { errors } = planOf({ plan: "Free", maxJobCount: "five", frequency: "", interval: "1.5" });
    expect(errors.map((e) => e.path)).toEqual(["maxJobCount", "maxRecurrenceInterval"]);
  });
  it("round-trips what the backend answers", () => {
    const p = { plan: "P10Premium", maxJobCount: 7, maxRecurrenceFrequency: "Day", maxRecurrenceInterval: 2 };
    expect(planOf(formOf(p)).plan).toEqual(p);
  });
  it("asks with the number of jobs that will go", () => {
    expect(deleteQuestion("ops", 12)).toBe("Delete 'ops' and its 12 jobs?");
    expect(deleteQuestion("ops", 1)).toBe("Delete 'ops' and its job?");
    expect(deleteQuestion("ops", 0)).toBe("Delete 'ops'? It has no jobs.");
    expect(deleteQuestion("big", 1500)).toBe("Delete 'big' and its 1,500 jobs?");
  });
});
