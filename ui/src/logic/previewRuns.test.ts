import { describe, expect, it } from "vitest";
import { shownRuns, utcText, wallText } from "./previewRuns";

const at = (text: string) => Date.parse(text) / 1000;

describe("the preview's runs", () => {
  it("writes UTC and wall-clock times as the engine did", () => {
    expect(utcText(at("2026-11-27T05:15:00Z"))).toBe("2026-11-27T05:15:00Z");
    expect(wallText(at("2026-11-27T05:15:00Z"), 0)).toBe("Fri 27 Nov 2026 05:15:00");
    expect(wallText(at("2026-11-27T23:30:07Z"), 3600)).toBe("Sat 28 Nov 2026 00:30:07");
    expect(wallText(at("2026-01-01T03:00:00Z"), -5 * 3600 - 1800)).toBe("Wed 31 Dec 2025 21:30:00");
    expect(utcText(at("0900-03-01T00:00:00Z"))).toBe("0900-03-01T00:00:00Z");
  });

  it("applies each offset from its run on, and the notes to their runs", () => {
    const runs = ["2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z"].map(at);
    const shown = shownRuns({
      runs,
      offsets: [
        [0, 3600],
        [1, 7200],
      ],
      runNotes: [[1, "moved: this wall-clock time does not exist (daylight saving)"]],
    });
    expect(shown).toEqual([
      { at: "2027-03-27T01:30:00Z", local: "Sat 27 Mar 2027 02:30:00", note: null },
      {
        at: "2027-03-28T01:30:00Z",
        local: "Sun 28 Mar 2027 03:30:00",
        note: "moved: this wall-clock time does not exist (daylight saving)",
      },
      { at: "2027-03-29T00:30:00Z", local: "Mon 29 Mar 2027 02:30:00", note: null },
    ]);
    expect(shownRuns({ runs: [], offsets: [], runNotes: [] })).toEqual([]);
  });
});
