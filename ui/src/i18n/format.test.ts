import { i18n } from "@lingui/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  FIRST_DAY_FALLBACK,
  firstDayOfWeek,
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelative,
  formatTime,
  weekdayColumn,
  weekdayNames,
} from "./format";
import { LOCALES, type Locale } from "./locales";

// A fixed instant (never today's date): 2026-03-01 is a Sunday; 20:05 UTC shows 12- vs 24-hour clocks.
const AT = Date.UTC(2026, 2, 1, 20, 5, 0);
const UTC = "UTC";

/** Intl separates "8:05" and "PM" with a narrow no-break space; tests compare with plain spaces. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

function check(actual: string, expected: string | RegExp) {
  if (typeof expected === "string") expect(plain(actual)).toBe(expected);
  else expect(plain(actual)).toMatch(expected);
}

afterEach(() => i18n.activate("en"));

describe("times and dates", () => {
  const times: Array<[Locale, string | RegExp]> = [
    ["en", "8:05 PM"],
    ["en-XA", "[8:05 ƤḾ]"], // the pseudo-locale brackets and accents what Intl writes too
    ["de", "20:05"],
    ["fr", "20:05"],
    ["pt-BR", "20:05"],
    ["zh-TW", /8:05/],
  ];
  it.each(times)("%s writes the time of day its own way", (locale, expected) => {
    check(formatTime(AT, locale, UTC), expected);
  });

  const dates: Array<[Locale, string | RegExp]> = [
    ["en", "Mar 1, 2026"],
    ["de", "01.03.2026"],
    ["fr", "1 mars 2026"],
    ["pt-BR", /1 de mar\.? de 2026/],
    ["zh-TW", "2026年3月1日"],
  ];
  it.each(dates)("%s writes the date in its own order", (locale, expected) => {
    check(formatDate(AT, locale, UTC), expected);
  });

  it("writes date and time together, and an unreadable value as it came", () => {
    check(formatDateTime(AT, "de", UTC), "01.03.2026, 20:05");
    expect(formatDate("not a date", "de")).toBe("not a date");
  });

  it("follows the active language when none is given", () => {
    i18n.loadAndActivate({ locale: "de", messages: {} });
    check(formatTime(AT, undefined, UTC), "20:05");
  });
});

describe("relative times", () => {
  const cases: Array<[Locale, number, string]> = [
    ["en", 5 * 60, "in 5 minutes"],
    ["en", -2 * 3600, "2 hours ago"],
    ["en", 24 * 3600, "tomorrow"],
    ["de", -2 * 3600, "vor 2 Stunden"],
    ["fr", 5 * 60, "dans 5 minutes"],
    ["pt-BR", 24 * 3600, "amanhã"],
    ["zh-TW", 5 * 60, "5 分鐘後"],
    ["en", 90 * 60, "in 2 hours"],
  ];
  it.each(cases)("%s: %i seconds from now", (locale, seconds, expected) => {
    check(formatRelative(AT + seconds * 1000, AT, locale), expected);
  });
});

describe("numbers", () => {
  const cases: Array<[Locale, string]> = [
    ["en", "1,234.5"],
    ["de", "1.234,5"],
    ["fr", "1 234,5"],
    ["pt-BR", "1.234,5"],
    ["zh-TW", "1,234.5"],
  ];
  it.each(cases)("%s groups and separates its own way", (locale, expected) => {
    check(formatNumber(1234.5, locale), expected);
  });
});

describe("plurals through ICU messages", () => {
  const message = "{count, plural, one {# job} other {# jobs}}";
  const translations: Record<string, string> = {
    en: message,
    fr: "{count, plural, one {# travail} other {# travaux}}",
    "pt-BR": "{count, plural, one {# trabalho} other {# trabalhos}}",
    "zh-TW": "{count, plural, other {# 個工作}}",
  };
  const cases: Array<[string, number, string]> = [
    ["en", 0, "0 jobs"],
    ["en", 1, "1 job"],
    ["fr", 0, "0 travail"], // fr puts 0 in "one"
    ["fr", 2, "2 travaux"],
    ["pt-BR", 0, "0 trabalho"], // so does pt-BR
    ["pt-BR", 1, "1 trabalho"],
    ["zh-TW", 1, "1 個工作"], // no plural forms
  ];
  it.each(cases)("%s, %i", (locale, count, expected) => {
    i18n.loadAndActivate({ locale, messages: { [message]: translations[locale] } });
    expect(i18n._(message, { count })).toBe(expected);
  });
});

describe("the first day of the week", () => {
  const cases: Array<[Locale, number]> = [
    ["en", 7],
    ["zh-TW", 7],
    ["de", 1],
    ["pt-BR", 7],
    ["fr", 1],
  ];
  it.each(cases)("%s starts on ISO day %i, and the fallback table agrees", (locale, day) => {
    expect(firstDayOfWeek(locale)).toBe(day);
    expect(FIRST_DAY_FALLBACK[locale]).toBe(day);
  });

  it("has a fallback for every locale", () => {
    for (const locale of LOCALES) expect(FIRST_DAY_FALLBACK[locale]).toBeGreaterThan(0);
  });

  it("names the weekdays in calendar order and places a date in its column", () => {
    expect(weekdayNames("de", "long").map((d) => d.name)).toEqual([
      "Montag",
      "Dienstag",
      "Mittwoch",
      "Donnerstag",
      "Freitag",
      "Samstag",
      "Sonntag",
    ]);
    expect(weekdayNames("en", "short")[0]).toEqual({ isoDay: 7, name: "Sun" });
    // Sunday (JS day 0): the last column in de, the first in en.
    expect(weekdayColumn(0, "de")).toBe(6);
    expect(weekdayColumn(0, "en")).toBe(0);
    expect(weekdayColumn(1, "fr")).toBe(0);
  });
});
