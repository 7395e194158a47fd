// The theme commands (palette and the native menu's View ▸ Theme): follow the system, or pin light
// or dark. The one already chosen is not offered.
import { i18n } from "../i18n";
import { type ThemePreference, setThemePreference, themePreference } from "../ui/theme";
import { type Command, defineCommands } from "./registry";

const THEMES: { preference: ThemePreference; title: () => string; keywords: string[] }[] = [
  {
    preference: "system",
    title: () => i18n._("Theme: follow the system"),
    keywords: ["automatic", "os", "appearance", "auto"],
  },
  { preference: "light", title: () => i18n._("Theme: light"), keywords: ["bright", "day", "appearance"] },
  { preference: "dark", title: () => i18n._("Theme: dark"), keywords: ["night", "dim", "appearance"] },
];

export function defineThemeCommands(): void {
  defineCommands(
    THEMES.map(
      ({ preference, title, keywords }): Command => ({
        id: `theme-${preference}`,
        title: title(),
        section: "Theme",
        keywords: ["theme", "colors", ...keywords],
        available: () => themePreference() !== preference,
        run: () => setThemePreference(preference),
      }),
    ),
  );
}
