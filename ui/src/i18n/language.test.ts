import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../ipc";
import { type LanguageInfo, languageSource, toLanguageInfo } from "./language";

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

describe("languageSource.get", () => {
  type Raw = { setting: string | null; resolved: string };
  const commands = api as unknown as { getLanguage?: () => Promise<Raw> };
  const original = commands.getLanguage;
  afterEach(() => {
    commands.getLanguage = original;
    vi.restoreAllMocks();
  });

  const cases: Array<[string, (() => Promise<Raw>) | undefined, LanguageInfo]> = [
    ["the backend's answer", async () => ({ setting: "de", resolved: "de" }), { setting: "de", resolved: "de" }],
    ["English without the command", undefined, { setting: null, resolved: "en" }],
    [
      "English when the command fails",
      async () => Promise.reject(new Error("no settings")),
      { setting: null, resolved: "en" },
    ],
    ["English when it does not answer in time", () => new Promise<Raw>(() => {}), { setting: null, resolved: "en" }],
  ];
  it.each(cases)("%s", async (_, getLanguage, expected) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    commands.getLanguage = getLanguage;
    expect(await languageSource.get(20)).toEqual(expected);
  });
});
