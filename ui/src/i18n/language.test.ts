import { describe, expect, it } from "vitest";
import { toLanguageInfo } from "./language";

describe("toLanguageInfo", () => {
  const cases: Array<[{ setting: string | null; resolved: string }, { setting: string | null; resolved: string }]> = [
    [
      { setting: "de", resolved: "de" },
      { setting: "de", resolved: "de" },
    ],
    [
      { setting: null, resolved: "zh-TW" },
      { setting: null, resolved: "zh-TW" },
    ],
    [
      { setting: null, resolved: "en-XA" },
      { setting: null, resolved: "en-XA" },
    ],
    // A language this window has no catalog for (a newer backend): English, the setting kept.
    [
      { setting: "ja", resolved: "ja" },
      { setting: "ja", resolved: "en" },
    ],
  ];
  it.each(cases)("%o reads as %o", (raw, expected) => {
    expect(toLanguageInfo(raw)).toEqual(expected);
  });
});
