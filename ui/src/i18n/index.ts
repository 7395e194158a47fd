// The window's translations (Lingui core, without its React bindings: Preact has no React compat
// here). Mark a string with `i18n._("Delete {name}?", { name })` (this module's `i18n`);
// `lingui extract` finds every `i18n._(…)` call and every `/*i18n*/ "…"` literal. A component that
// shows text calls `useI18n()` once (no need to keep its result), which re-renders it when the
// language changes; the App root calls it, so a switch repaints the whole window without a reload.
import { type I18n, i18n } from "@lingui/core";
import { useEffect, useState } from "preact/hooks";
import { loadMessages } from "./catalogs";
import { languageSource } from "./language";
import { type Locale, SOURCE_LOCALE } from "./locales";

export { i18n };

// Lingui throws when no language is active, and some text is translated at import (the palette's
// commands, which are defined again in the new language on every change): until startI18n has
// loaded a catalog, messages read as their English ids.
if (!i18n.locale) i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages: {} });
export type { Locale } from "./locales";
export { currentLocale, LANGUAGE_NAMES, LOCALES } from "./locales";

/** Re-renders the calling component whenever the language changes; returns the shared `i18n`. */
export function useI18n(): I18n {
  const [, setVersion] = useState(0);
  useEffect(() => i18n.on("change", () => setVersion((v) => v + 1)), []);
  return i18n;
}

const loaded = new Set<Locale>();
let latestRequest = 0;

/** Until the next task: Preact renders state changes in a microtask, so they are on screen by then. */
const afterRender = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Shows the window in `locale`: loads its catalogs once (a dynamic import), activates it, sets `<html lang>`, and records how long the whole switch took — from the
 * call to the repainted window, loading included — in `<html data-lang-switch-ms>` (the e2e and
 * docs/benchmarks.md read it; `data-lang-render-ms` is the repaint alone). Returns the whole
 * time in ms, or null when a later call overtook this one while its catalogs were loading.
 */
export async function showLocale(locale: Locale, load = loadMessages): Promise<number | null> {
  const start = performance.now();
  const request = ++latestRequest;
  if (!loaded.has(locale)) {
    const messages = await load(locale);
    i18n.load(locale, messages);
    loaded.add(locale);
  }
  if (request !== latestRequest) return null;
  const renderStart = performance.now();
  i18n.activate(locale);
  const root = document.documentElement;
  root.lang = locale;
  await afterRender();
  const end = performance.now();
  root.dataset.langRenderMs = (end - renderStart).toFixed(1);
  root.dataset.langSwitchMs = (end - start).toFixed(1);
  return end - start;
}

/**
 * Before the first render: the language the backend resolved (the saved setting, else the OS
 * language, else English), then follow `languageChanged` for the life of the window.
 * A catalog that fails to load leaves the window in English rather than blank.
 */
export async function startI18n(): Promise<void> {
  if (import.meta.env.DEV) {
    // During development a message added since the last compile still shows (in English, formatted).
    const { compileMessage } = await import("@lingui/message-utils/compileMessage");
    i18n.setMessagesCompiler(compileMessage);
  }
  const show = async (locale: Locale) => {
    try {
      await showLocale(locale);
    } catch (e) {
      console.error(`cannot show the window in ${locale}`, e);
      if (locale !== SOURCE_LOCALE) await showLocale(SOURCE_LOCALE).catch(() => i18n.activate(SOURCE_LOCALE));
      else i18n.activate(SOURCE_LOCALE);
    }
  };
  const info = await languageSource.get();
  await show(info.resolved);
  languageSource.onChange((next) => void show(next.resolved));
}
