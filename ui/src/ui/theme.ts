// The window's theme: "system" follows the OS's light/dark setting live (matchMedia), "light" and
// "dark" pin one. The choice is remembered across launches; the theme drawn is data-theme on <html>
// ("light" or "dark"), which tokens.css reads.
const KEY = "kairos.theme";
const DARK = "(prefers-color-scheme: dark)";

export type ThemePreference = "system" | "light" | "dark";
export type Theme = "light" | "dark";

let preference: ThemePreference = "system";
let media: MediaQueryList | null = null;
const listeners = new Set<() => void>();

function systemTheme(): Theme {
  return media?.matches ? "dark" : "light";
}

function apply(): void {
  document.documentElement.dataset.theme = preference === "system" ? systemTheme() : preference;
  for (const l of listeners) l();
}

export function initTheme(): void {
  const saved = localStorage.getItem(KEY);
  preference = saved === "light" || saved === "dark" ? saved : "system";
  media = typeof matchMedia === "function" ? matchMedia(DARK) : null;
  // The OS changing its setting redraws at once, while the preference is "system".
  media?.addEventListener("change", () => {
    if (preference === "system") apply();
  });
  apply();
}

export function themePreference(): ThemePreference {
  return preference;
}

export function setThemePreference(p: ThemePreference): void {
  preference = p;
  if (p === "system") localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, p);
  apply();
}

/** The theme drawn now. */
export function currentTheme(): Theme {
  const set = document.documentElement.dataset.theme;
  return set === "dark" ? "dark" : "light";
}

/** Called after every change of preference or of the drawn theme. */
export function onThemeChange(l: () => void): () => void {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}
