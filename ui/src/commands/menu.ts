// The native menu (src-tauri) sends the command a menu item stands for as the Tauri event
// `menu-command` with the command's id as its payload; the page runs it through the registry, so
// a menu item, its accelerator and the palette do the same thing.
import { listen } from "@tauri-apps/api/event";
import { useEffect } from "preact/hooks";
import { inTauri, messageOf } from "../ipc";
import { toast } from "../ui/toast";
import { commandById, runCommand } from "./registry";

export const MENU_EVENT = "menu-command";

/** Every payload the native menu sends; each is a command id in the registry. */
export const MENU_COMMAND_IDS = [
  "about",
  "settings",
  "new-job",
  "new-collection",
  "import",
  "export",
  "find",
  "run-now",
  "delete",
  "pause-all",
  "palette",
  "back",
  "forward",
  "theme-system",
  "theme-light",
  "theme-dark",
  "check-updates",
] as const;
export type MenuCommandId = (typeof MENU_COMMAND_IDS)[number];

/**
 * Runs the command a menu item sent. An id that is not a command is logged; a command that
 * cannot run here (Run now with no job open) does nothing, as a disabled menu item would.
 * Resolves to whether it ran.
 */
export async function runMenuCommand(id: unknown): Promise<boolean> {
  if (typeof id !== "string" || !commandById(id)) {
    console.warn(`${MENU_EVENT}: no command ${JSON.stringify(id)}`);
    return false;
  }
  try {
    return await runCommand(id);
  } catch (e) {
    toast(messageOf(e), "error");
    return false;
  }
}

/** Listens for the native menu's commands; resolves to the function that stops listening. */
export function listenForMenuCommands(): Promise<() => void> {
  return listen<string>(MENU_EVENT, (e) => {
    runMenuCommand(e.payload);
  });
}

/** In the Tauri window, runs the native menu's commands while the caller is mounted. */
export function useMenuCommands(): void {
  useEffect(() => {
    if (!inTauri) return;
    let stop: (() => void) | null = null;
    let gone = false;
    listenForMenuCommands().then(
      (unlisten) => (gone ? unlisten() : (stop = unlisten)),
      (e) => console.error(`cannot listen for ${MENU_EVENT}:`, e),
    );
    return () => {
      gone = true;
      stop?.();
    };
  }, []);
}
