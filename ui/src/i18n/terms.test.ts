import { i18n } from "@lingui/core";
import { afterEach, describe, expect, it } from "vitest";
import { collectionStateLabel, everyLabel, frequencyLabel, jobStateLabel } from "./terms";

afterEach(() => i18n.activate("en"));

describe("the engine's words as people read them", () => {
  const cases: Array<[string, string]> = [
    [everyLabel("1 Minute"), "every minute"],
    [everyLabel("2 Hour"), "every 2 hours"],
    [everyLabel("30 Day"), "every 30 days"],
    [everyLabel("sometimes"), "sometimes"], // not the engine's form: as it came
    [jobStateLabel("Faulted"), "Faulted"],
    [jobStateLabel("Unknown"), "Unknown"],
    [collectionStateLabel("Suspended"), "Suspended"],
    [frequencyLabel("Week"), "Week"],
  ];
  it.each(cases)("%s", (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("reads the translation of the active language", () => {
    i18n.loadAndActivate({
      locale: "de",
      messages: {
        "state.suspended": "Ausgesetzt",
        "{count, plural, one {every hour} other {every # hours}}":
          "{count, plural, =1 {jede Stunde} other {alle # Stunden}}",
      },
    });
    expect(collectionStateLabel("Suspended")).toBe("Ausgesetzt");
    expect(everyLabel("1 Hour")).toBe("jede Stunde");
    expect(everyLabel("3 Hour")).toBe("alle 3 Stunden");
  });
});
