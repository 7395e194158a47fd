// The language setting as the backend reports it: `getLanguage()`, `setLanguage(setting)` and the
// `languageChanged` event (the saved setting, or null for the OS language; `resolved`, the language
// to show). Until the backend offers them (older builds, the development fake without them), the
// window speaks English and the setting cannot be changed.
import * as ipc from "../ipc";
import { isLocale, type Locale, SOURCE_LOCALE } from "./locales";

export type LanguageInfo = { setting: string | null; resolved: Locale };

type LanguageCommands = {
  getLanguage?: () => Promise<{ setting: string | null; resolved: string }>;
  setLanguage?: (setting: string | null) => Promise<{ setting: string | null; resolved: string }>;
};
type LanguageEvents = {
  onLanguageChanged?: (cb: (info: { setting: string | null; resolved: string }) => void) => () => void;
};

// Read loosely: these work with ipc modules that have the language commands and with older ones.
const commands = ipc.api as unknown as LanguageCommands;
const events = ipc as unknown as LanguageEvents;

const ENGLISH: LanguageInfo = { setting: null, resolved: SOURCE_LOCALE };

/** A backend answer with a language the window has no catalog for reads as English. */
export function toLanguageInfo(raw: { setting: string | null; resolved: string }): LanguageInfo {
  return { setting: raw.setting, resolved: isLocale(raw.resolved) ? raw.resolved : SOURCE_LOCALE };
}

export const languageSource = {
  /** Whether Settings can offer the choice (the backend has the commands). */
  canChoose: (): boolean => typeof commands.setLanguage === "function",
  /** Never rejects, and answers English after `waitMs` at most: the first paint waits for it. */
  async get(waitMs = 3000): Promise<LanguageInfo> {
    if (typeof commands.getLanguage !== "function") return ENGLISH;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<LanguageInfo>((resolve) => {
      timer = setTimeout(() => {
        console.error(`getLanguage did not answer within ${waitMs} ms; showing English`);
        resolve(ENGLISH);
      }, waitMs);
    });
    try {
      return await Promise.race([commands.getLanguage().then(toLanguageInfo), late]);
    } catch (e) {
      console.error("getLanguage failed; showing English", e);
      return ENGLISH;
    } finally {
      clearTimeout(timer);
    }
  },
  /** Saves the setting (null: follow the OS); the backend answers with the language to show. */
  async set(setting: string | null): Promise<LanguageInfo> {
    if (typeof commands.setLanguage !== "function") return ENGLISH;
    return toLanguageInfo(await commands.setLanguage(setting));
  },
  /** Calls `cb` on every change of the setting (from Settings, or another window); returns the unsubscribe. */
  onChange(cb: (info: LanguageInfo) => void): () => void {
    if (typeof events.onLanguageChanged !== "function") return () => {};
    return events.onLanguageChanged((raw) => cb(toLanguageInfo(raw)));
  },
};
