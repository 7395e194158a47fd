// The languages the window speaks, and how each maps onto the browser's Intl formatters.
import { i18n } from "@lingui/core";

/** The five languages, then the pseudo-locale the e2e walks (accented, bracketed, ~40 % longer). */
export const LOCALES = ["en", "zh-TW", "de", "pt-BR", "fr", "en-XA"] as const;
export type Locale = (typeof LOCALES)[number];

export const SOURCE_LOCALE: Locale = "en";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The language the window shows now. */
export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : SOURCE_LOCALE;
}

/** The locale Intl formats dates and numbers in: the pseudo-locale formats as English. */
export function intlLocale(locale: Locale): string {
  return locale === "en-XA" ? "en" : locale;
}

/**
 * Each language in its own name, for the Settings select (never translated: a person looking for
 * their language must recognise it whatever the window speaks now).
 */
export const LANGUAGE_NAMES: ReadonlyArray<{ locale: Exclude<Locale, "en-XA">; name: string }> = [
  { locale: "en", name: "English" },
  { locale: "zh-TW", name: "繁體中文" },
  { locale: "de", name: "Deutsch" },
  { locale: "pt-BR", name: "Português (Brasil)" },
  { locale: "fr", name: "Français" },
];

const ACCENTED: Record<string, string> = Object.fromEntries(
  [..."abcdefghijklmnopqrstuvwxyz"].map((c, i) => [c, [..."àƀçďēƒĝĥĩĵķĺḿńōƥʠŕśţũṽŵẋŷź"][i]]),
);

/**
 * Text Intl wrote (a date, a weekday) as the pseudo-locale shows text: accented and bracketed,
 * so the pseudo-locale walk tells it from a hard-coded string. Other locales: as it is.
 */
export function pseudoIntl(text: string, locale: Locale): string {
  if (locale !== "en-XA") return text;
  const accented = [...text]
    .map((c) => {
      const lower = ACCENTED[c.toLowerCase()];
      return lower === undefined ? c : c === c.toLowerCase() ? lower : lower.toUpperCase();
    })
    .join("");
  return `[${accented}]`;
}
