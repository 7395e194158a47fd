// Keyboard shortcuts the page handles itself, and how shortcuts are written on screen. The native
// menu carries the other accelerators (Ctrl+, Ctrl+N, F5, …) and sends their ids as
// `menu-command` events (menu.ts); the page binds only what the menu does not have. Every binding
// has a modifier, so no single key fires a command while someone types.
import { useEffect } from "preact/hooks";
import { i18n } from "../i18n";
import { runCommand } from "./registry";

export const isMac =
  typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** "Mod+K" and the command id it runs. Listened to in the capture phase: also inside text fields. */
const BINDINGS: { shortcut: string; command: string }[] = [{ shortcut: "Mod+K", command: "palette" }];

const MAC_SYMBOLS: Record<string, string> = { Mod: "⌘", Alt: "⌥", Shift: "⇧", Ctrl: "⌃" };
const KEY_NAMES: Record<string, string> = { ArrowLeft: "←", ArrowRight: "→", ArrowUp: "↑", ArrowDown: "↓" };

/** The names printed on keyboards in the window's language (German keyboards say Strg, Entf). */
function keyName(key: string): string {
  switch (key) {
    case "Ctrl":
      return i18n._({ id: "key.ctrl", message: "Ctrl" });
    case "Shift":
      return i18n._({ id: "key.shift", message: "Shift" });
    case "Delete":
      return i18n._({ id: "key.delete", message: "Delete" });
    default:
      return key;
  }
}

/** "Mod+Shift+K" as the platform writes it: "Ctrl+Shift+K" ("Strg+Umschalt+K"), or "⌘⇧K" on macOS. */
export function shortcutLabel(shortcut: string, mac = isMac): string {
  const parts = shortcut.split(/\+(?!$)/);
  const key = parts.pop() ?? "";
  const shownKey = KEY_NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : mac ? key : keyName(key));
  if (mac) return parts.map((m) => MAC_SYMBOLS[m] ?? m).join("") + shownKey;
  return [...parts.map((m) => keyName(m === "Mod" ? "Ctrl" : m)), shownKey].join("+");
}

/** Whether `e` is exactly `shortcut` ("Mod" is ⌘ on macOS and Ctrl elsewhere; no other modifier). */
export function matchesShortcut(e: KeyboardEvent, shortcut: string, mac = isMac): boolean {
  const parts = shortcut.split(/\+(?!$)/);
  const key = parts.pop() ?? "";
  const want = new Set(parts.map((m) => (m === "Mod" ? (mac ? "Meta" : "Ctrl") : m)));
  const held = { Ctrl: e.ctrlKey, Meta: e.metaKey, Alt: e.altKey, Shift: e.shiftKey };
  for (const [m, down] of Object.entries(held)) if (down !== want.has(m)) return false;
  return e.key.length === 1 ? e.key.toLowerCase() === key.toLowerCase() : e.key === key;
}

function onKeyDown(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.repeat) return;
  const bound = BINDINGS.find((b) => matchesShortcut(e, b.shortcut));
  if (!bound) return;
  e.preventDefault();
  e.stopPropagation();
  runCommand(bound.command).catch((err) => console.error(`shortcut ${bound.shortcut}:`, err));
}

/** Installs the page's shortcuts on `target`; returns the function that removes them. */
export function installShortcuts(target: Window = window): () => void {
  target.addEventListener("keydown", onKeyDown, true);
  return () => target.removeEventListener("keydown", onKeyDown, true);
}

/** Ctrl/Cmd+K opens the palette from anywhere while the calling component (App) is mounted. */
export function usePaletteShortcut(): void {
  useEffect(() => installShortcuts(), []);
}
