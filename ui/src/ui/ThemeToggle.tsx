import { useState } from "preact/hooks";
import { currentTheme, setTheme } from "./theme";

export function ThemeToggle() {
  const [theme, set] = useState(currentTheme());
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      id="theme-toggle"
      type="button"
      class="secondary outline"
      aria-pressed={theme === "dark"}
      title={`Switch to the ${next} theme`}
      onClick={() => {
        setTheme(next);
        set(next);
      }}
    >
      {theme === "dark" ? "☾ Dark" : "☀ Light"}
    </button>
  );
}
