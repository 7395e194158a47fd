import { describe, expect, it } from "vitest";
import type { Command } from "../../commands/registry";
import { shortcutLabel } from "../../commands/shortcuts";
import { MAX_ROWS, flatten, searchCommands } from "./search";

const cmd = (id: string, title: string, section: Command["section"], keywords: string[] = []): Command => ({
  id,
  title,
  section,
  keywords,
  run: () => {},
});

const COMMANDS: Command[] = [
  cmd("theme-dark", "Theme: dark", "Theme", ["night"]),
  cmd("pause-all", "Pause all jobs", "Actions", ["resume", "stop"]),
  cmd("settings", "Settings", "Go to", ["preferences"]),
  cmd("go:ops", "ops", "Collections", ["collection"]),
  ...Array.from({ length: 30 }, (_, i) => cmd(`go:job-${i}`, `report-${i}`, "Jobs", ["ops"])),
];

describe("the palette's search", () => {
  it("keeps the fixed section order with nothing typed, and at most ten jobs", () => {
    const groups = searchCommands("", COMMANDS);
    expect(groups.map((g) => g.section)).toEqual(["Actions", "Go to", "Collections", "Jobs", "Theme"]);
    expect(groups.find((g) => g.section === "Jobs")!.commands).toHaveLength(10);
  });

  it("puts the section of the best match first and matches keywords", () => {
    expect(flatten(searchCommands("dark", COMMANDS))[0].id).toBe("theme-dark");
    expect(flatten(searchCommands("night", COMMANDS))[0].id).toBe("theme-dark");
    expect(flatten(searchCommands("resume", COMMANDS))[0].id).toBe("pause-all");
    const prefs = searchCommands("prefs", COMMANDS);
    expect(prefs[0].section).toBe("Go to");
  });

  it("lists at most MAX_ROWS rows and none for a query nothing matches", () => {
    const many = Array.from({ length: 200 }, (_, i) => cmd(`go:j${i}`, `job-${i}`, "Jobs"));
    expect(flatten(searchCommands("job", many)).length).toBe(MAX_ROWS);
    expect(searchCommands("qqqzzz", COMMANDS)).toEqual([]);
  });
});

describe("shortcut labels", () => {
  it("writes Ctrl on Linux and Windows and symbols on macOS", () => {
    expect(shortcutLabel("Mod+K", false)).toBe("Ctrl+K");
    expect(shortcutLabel("Mod+,", false)).toBe("Ctrl+,");
    expect(shortcutLabel("Alt+ArrowLeft", false)).toBe("Alt+←");
    expect(shortcutLabel("Mod+Shift+K", true)).toBe("⌘⇧K");
    expect(shortcutLabel("F5", true)).toBe("F5");
  });
});
