// @vitest-environment happy-dom
// The native menu's `menu-command` events, sent through @tauri-apps/api's event mock (the real
// `listen` code path), run the registry's commands.
import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { defineBuiltinCommands } from "./builtin";
import { MENU_COMMAND_IDS, MENU_EVENT, listenForMenuCommands } from "./menu";
import { commandById, registerHandler } from "./registry";
import { initTheme, themePreference } from "../ui/theme";
import { currentSurface, showSurface } from "./surfaces";

beforeAll(async () => {
  await import("../ipc/fake");
  defineBuiltinCommands();
});
let stop: () => void = () => {};
beforeEach(async () => {
  history.replaceState(null, "", "#/overview");
  mockIPC(() => {}, { shouldMockEvents: true });
  stop = await listenForMenuCommands();
});
afterEach(() => {
  stop();
  clearMocks();
  showSurface(null);
  vi.restoreAllMocks();
});

describe("the native menu's commands", () => {
  it("names only commands the registry defines", () => {
    expect(MENU_COMMAND_IDS.filter((id) => !commandById(id))).toEqual([]);
  });

  it("runs a global command: settings navigates, palette opens the palette", async () => {
    await emit(MENU_EVENT, "settings");
    await vi.waitFor(() => expect(location.hash).toBe("#/settings"));
    await emit(MENU_EVENT, "palette");
    await vi.waitFor(() => expect(currentSurface()).toEqual({ kind: "palette" }));
  });

  it("runs a view's command through its handler, and nothing once the view is gone", async () => {
    const ran = vi.fn();
    const unregister = registerHandler("run-now", ran);
    await emit(MENU_EVENT, "run-now");
    await vi.waitFor(() => expect(ran).toHaveBeenCalledTimes(1));
    unregister();
    await emit(MENU_EVENT, "run-now");
    await emit(MENU_EVENT, "settings");
    await vi.waitFor(() => expect(location.hash).toBe("#/settings"));
    expect(ran).toHaveBeenCalledTimes(1);
  });

  it("switches the theme: theme-dark pins dark, theme-system follows the system again", async () => {
    initTheme();
    await emit(MENU_EVENT, "theme-dark");
    await vi.waitFor(() => expect(document.documentElement.dataset.theme).toBe("dark"));
    expect(themePreference()).toBe("dark");
    await emit(MENU_EVENT, "theme-system");
    await vi.waitFor(() => expect(themePreference()).toBe("system"));
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("logs an id that is no command and runs nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await emit(MENU_EVENT, "format-disk");
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('menu-command: no command "format-disk"'));
    expect(location.hash).toBe("#/overview");
  });
});
