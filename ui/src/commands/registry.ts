// The window's commands: what the palette lists, the native menu and the keyboard run. One list
// of definitions (id, title, section, keywords, shortcut label) and, per id, how it runs now:
// - a global command runs its own `run()` whenever `available()` says so;
// - a context command (run now, delete, new job, find, …) has no `run()`: a mounted view carries
//   it out through `useCommandHandler(id, handler)`, and it is offered only while one is there.
// A registered handler also takes precedence over a global command's own `run()` (the frame may
// open its own dialog for "new-collection"). The newest handler for an id wins; when it goes,
// the one before it is back.
import { useEffect, useRef, useState } from "preact/hooks";
import type { BuiltinCommandId } from "./builtin";

/** Where a command is listed in the palette, in this order when nothing is typed. */
export const SECTIONS = ["Actions", "Go to", "Collections", "Jobs", "Theme", "Window"] as const;
export type Section = (typeof SECTIONS)[number];

export type Command = {
  /** Stable: the native menu's `menu-command` payloads are ids (menu.ts). */
  id: string;
  title: string;
  section: Section;
  /** A second line of plain data (a job's collection), shown dimmed beside the title. */
  detail?: string;
  /** More words the fuzzy search matches (synonyms, the collection of a job, …). */
  keywords?: readonly string[];
  /** The accelerator to show, as "Mod+," ("Mod" is Ctrl, or ⌘ on macOS); see shortcutLabel. */
  shortcut?: string;
  /** Whether it can run now (default: yes). Read when the palette lists and before running. */
  available?: () => boolean;
  /** Absent for context commands: those run only through a view's handler. */
  run?: () => void | Promise<void>;
};

export type Handler = () => void | Promise<void>;

const definitions = new Map<string, Command>();
const handlers = new Map<string, Handler[]>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const l of listeners) l();
}

/** Adds (or replaces) command definitions; the returned function removes them again. */
export function defineCommands(commands: readonly Command[]): () => void {
  for (const c of commands) definitions.set(c.id, c);
  changed();
  return () => {
    for (const c of commands) if (definitions.get(c.id) === c) definitions.delete(c.id);
    changed();
  };
}

export function commandById(id: string): Command | undefined {
  return definitions.get(id);
}

/** A view's way to carry out `id` (see useCommandHandler); returns the unregister function. */
export function registerHandler(id: string, handler: Handler): () => void {
  const stack = handlers.get(id) ?? [];
  stack.push(handler);
  handlers.set(id, stack);
  changed();
  return () => {
    const now = handlers.get(id) ?? [];
    const at = now.lastIndexOf(handler);
    if (at >= 0) now.splice(at, 1);
    if (now.length === 0) handlers.delete(id);
    changed();
  };
}

function handlerOf(id: string): Handler | undefined {
  const stack = handlers.get(id);
  return stack?.[stack.length - 1];
}

/** What runs for `c` now: its newest handler, else its own run when available, else nothing. */
function runnerOf(c: Command): Handler | undefined {
  const handler = handlerOf(c.id);
  if (handler) return handler;
  if (c.run && (c.available?.() ?? true)) return c.run;
  return undefined;
}

/** Every command that can run now, in definition order. */
export function availableCommands(): Command[] {
  return [...definitions.values()].filter((c) => runnerOf(c) !== undefined);
}

export function isAvailable(id: string): boolean {
  const c = definitions.get(id);
  return c !== undefined && runnerOf(c) !== undefined;
}

/**
 * Runs `id` if it can run now; false when it is unknown or unavailable (nothing happens then).
 * A rejected run is passed on to the caller.
 */
export async function runCommand(id: string): Promise<boolean> {
  const c = definitions.get(id);
  const run = c && runnerOf(c);
  if (!run) return false;
  await run();
  return true;
}

/** Called after every change of definitions or handlers; returns the unsubscribe function. */
export function onCommandsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Registers `handler` for the command `id` while the calling component is mounted and `handler`
 * is defined: the command shows in the palette (and the native menu's item runs it) only then.
 * The newest handler function is called, so passing a fresh closure on every render is fine.
 * `id` is one of the built-in commands' ids (a typo does not compile).
 *
 *   useCommandHandler("run-now", selected ? () => runNow(selected) : undefined);
 */
export function useCommandHandler(id: BuiltinCommandId, handler: Handler | undefined): void {
  const latest = useRef(handler);
  latest.current = handler;
  const active = handler !== undefined;
  useEffect(() => {
    if (!active) return;
    return registerHandler(id, () => latest.current?.());
  }, [id, active]);
}

/** Re-renders the caller whenever commands or handlers change (the open palette). */
export function useCommandsVersion(): number {
  const [seen, setSeen] = useState(version);
  useEffect(() => {
    setSeen(version);
    return onCommandsChanged(() => setSeen(version));
  }, []);
  return seen;
}
