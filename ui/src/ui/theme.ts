// Light/dark: Pico follows prefers-color-scheme until the user picks one with the toggle, which
// sets data-theme on <html> (remembered across launches).
const KEY = "kairos.theme";

export type Theme = "light" | "dark";

export function initTheme(): void {
  const saved = localStorage.getItem(KEY);
  if (saved === "light" || saved === "dark") document.documentElement.dataset.theme = saved;
}

export function currentTheme(): Theme {
  const set = document.documentElement.dataset.theme;
  if (set === "light" || set === "dark") return set;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function setTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem(KEY, theme);
}
