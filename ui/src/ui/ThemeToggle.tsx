import { Moon, Sun } from "lucide";
import { useEffect, useState } from "preact/hooks";
import { i18n, useI18n } from "../i18n";
import { IconButton } from "./components/IconButton";
import { currentTheme, onThemeChange, setThemePreference } from "./theme";

/** The header's quick switch between light and dark (Settings also offers "System"). */
export function ThemeToggle() {
  useI18n();
  const [theme, set] = useState(currentTheme());
  useEffect(() => onThemeChange(() => set(currentTheme())), []);
  const dark = theme === "dark";
  return (
    <IconButton
      id="theme-toggle"
      icon={dark ? Moon : Sun}
      label={dark ? i18n._("Switch to the light theme") : i18n._("Switch to the dark theme")}
      onClick={() => setThemePreference(dark ? "light" : "dark")}
    />
  );
}
