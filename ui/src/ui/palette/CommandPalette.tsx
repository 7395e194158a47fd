// The command palette (Ctrl/Cmd+K): a modal dialog with a search field that filters every
// command, collection and job, grouped by section. Keyboard first: the field keeps the focus,
// the arrows move the active row (aria-activedescendant, the combobox + listbox pattern), Enter
// runs it, Escape closes. It also hosts the dialog its Export command opens (CommandDialogs).
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { defineBuiltinCommands, refreshPaused } from "../../commands/builtin";
import { loadJumpTargets } from "../../commands/jumpTargets";
import { type Command, type Section, availableCommands, runCommand, useCommandsVersion } from "../../commands/registry";
import { shortcutLabel } from "../../commands/shortcuts";
import { closeSurface, useSurface } from "../../commands/surfaces";
import { i18n, useI18n } from "../../i18n";
import { messageOf } from "../../ipc";
import { toast } from "../toast";
import { CommandDialogs } from "./CommandDialogs";
import { flatten, searchCommands } from "./search";
import "./palette.css";

defineBuiltinCommands();

/** A section's heading in the palette. */
function sectionLabel(section: Section): string {
  switch (section) {
    case "Actions":
      return i18n._({ id: "palette.section.actions", message: "Actions" });
    case "Go to":
      return i18n._({ id: "palette.section.goTo", message: "Go to" });
    case "Collections":
      return i18n._({ id: "palette.section.collections", message: "Collections" });
    case "Jobs":
      return i18n._({ id: "palette.section.jobs", message: "Jobs" });
    case "Theme":
      return i18n._({ id: "palette.section.theme", message: "Theme" });
    case "Window":
      return i18n._({ id: "palette.section.window", message: "Window" });
  }
}

export function CommandPalette() {
  const surface = useSurface();
  return (
    <>
      <PaletteDialog open={surface?.kind === "palette"} />
      <CommandDialogs surface={surface} />
    </>
  );
}

const optionId = (i: number) => `palette-option-${i}`;

function PaletteDialog({ open }: { open: boolean }) {
  useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [loadError, setLoadError] = useState("");
  const version = useCommandsVersion();

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      returnFocus.current = document.activeElement;
      setQuery("");
      setActive(0);
      setLoadError("");
      d.showModal();
      input.current?.focus();
      loadJumpTargets().catch((e) =>
        setLoadError(i18n._("Could not list the collections and jobs: {reason}", { reason: messageOf(e) })),
      );
      refreshPaused();
    }
    if (!open && d.open) d.close();
  }, [open]);

  // `version` is there to list again when a view registers or drops a command while open.
  const groups = useMemo(() => (open ? searchCommands(query, availableCommands()) : []), [open, query, version]);
  const rows = flatten(groups);
  const current = rows.length ? Math.min(active, rows.length - 1) : -1;

  useEffect(() => {
    if (current < 0) return;
    document.getElementById(optionId(current))?.scrollIntoView?.({ block: "nearest" });
  }, [current]);

  const close = () => {
    closeSurface("palette");
    const back = returnFocus.current;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };

  const run = (c: Command) => {
    close();
    runCommand(c.id).catch((e) => toast(messageOf(e), "error"));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const last = rows.length - 1;
    const move: Record<string, number | undefined> = {
      ArrowDown: current >= last ? 0 : current + 1,
      ArrowUp: current <= 0 ? last : current - 1,
      PageDown: Math.min(last, current + 8),
      PageUp: Math.max(0, current - 8),
    };
    if (e.key in move && rows.length) {
      e.preventDefault();
      setActive(move[e.key]!);
    } else if (e.key === "Enter" && current >= 0) {
      e.preventDefault();
      run(rows[current]);
    }
  };

  let index = 0;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; the keyboard has Escape (the dialog's cancel).
    <dialog
      id="command-palette"
      class="palette"
      ref={ref}
      aria-label={i18n._("Command palette")}
      onClose={close}
      onClick={(e) => e.target === ref.current && close()}
    >
      {open && (
        <div class="palette-body">
          <input
            id="palette-input"
            ref={input}
            class="palette-input"
            type="text"
            role="combobox"
            aria-expanded="true"
            aria-controls="palette-list"
            aria-autocomplete="list"
            aria-activedescendant={current >= 0 ? optionId(current) : undefined}
            aria-label={i18n._("Search commands, collections and jobs")}
            placeholder={i18n._("Type a command, a collection or a job…")}
            autoComplete="off"
            spellcheck={false}
            value={query}
            onInput={(e) => {
              setQuery(e.currentTarget.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          <div id="palette-list" class="palette-list" role="listbox" aria-label={i18n._("Commands")}>
            {groups.map((g) => (
              <div key={g.section} role="group" aria-label={sectionLabel(g.section)} class="palette-group">
                <div class="palette-section" aria-hidden="true">
                  {sectionLabel(g.section)}
                </div>
                {g.commands.map((c) => {
                  const i = index++;
                  return (
                    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox field handles the keys (aria-activedescendant); a row never takes focus.
                    <div
                      key={c.id}
                      tabIndex={-1}
                      id={optionId(i)}
                      role="option"
                      aria-selected={i === current ? "true" : "false"}
                      data-command={c.id}
                      class="palette-option"
                      onMouseDown={(e) => e.preventDefault()}
                      onMouseMove={() => i !== current && setActive(i)}
                      onClick={() => run(c)}
                    >
                      {/* A collection's or a job's name is data, not a message (translate=false). */}
                      <span
                        class="palette-title"
                        translate={c.section === "Collections" || c.section === "Jobs" ? false : undefined}
                      >
                        {c.title}
                      </span>
                      {c.detail && (
                        <span class="palette-detail" translate={false}>
                          {c.detail}
                        </span>
                      )}
                      {c.shortcut && <kbd class="palette-shortcut">{shortcutLabel(c.shortcut)}</kbd>}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
          {rows.length === 0 && (
            <p class="palette-empty" role="status">
              {i18n._("No command, collection or job matches.")}
            </p>
          )}
          {loadError && (
            <p class="palette-error" role="alert">
              {loadError}
            </p>
          )}
          <p class="palette-hint" aria-hidden="true">
            {i18n._("↑ ↓ to move · Enter to run · Esc to close")}
          </p>
        </div>
      )}
    </dialog>
  );
}
