// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from "vitest";

/** A matchMedia whose dark setting the test flips, as the OS would. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, l: () => void) => listeners.add(l),
  };
  vi.stubGlobal("matchMedia", () => query);
  return (next: boolean) => {
    dark = next;
    for (const l of listeners) l();
  };
}

beforeEach(() => {
  localStorage.clear();
  vi.resetModules();
});

describe("the theme", () => {
  it("follows the system live on System, and stays put on Light or Dark", async () => {
    const setSystemDark = fakeSystem(false);
    const theme = await import("./theme");
    theme.initTheme();
    expect(theme.themePreference()).toBe("system");
    expect(document.documentElement.dataset.theme).toBe("light");
    setSystemDark(true);
    expect(document.documentElement.dataset.theme).toBe("dark");

    theme.setThemePreference("light");
    expect(document.documentElement.dataset.theme).toBe("light");
    setSystemDark(false);
    setSystemDark(true);
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(localStorage.getItem("kairos.theme")).toBe("light");

    theme.setThemePreference("system");
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(localStorage.getItem("kairos.theme")).toBeNull();
  });

  it("remembers a pinned choice across launches", async () => {
    fakeSystem(false);
    localStorage.setItem("kairos.theme", "dark");
    const theme = await import("./theme");
    theme.initTheme();
    expect(theme.themePreference()).toBe("dark");
    expect(theme.currentTheme()).toBe("dark");
  });
});
