// @vitest-environment happy-dom
// The palette over the real registry and the development fake backend (the collection `default`
// with the job `nightly-report`), with the global Ctrl+K shortcut installed as App installs it.
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { useState } from "preact/hooks";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useCommandHandler } from "../../commands/registry";
import { usePaletteShortcut } from "../../commands/shortcuts";
import { showSurface } from "../../commands/surfaces";
import { CommandPalette } from "./CommandPalette";

function Window({ children }: { children?: preact.ComponentChildren }) {
  usePaletteShortcut();
  return (
    <>
      <label>
        Somewhere to type
        <input id="elsewhere" />
      </label>
      {children}
      <CommandPalette />
    </>
  );
}

const dialog = () => document.querySelector<HTMLDialogElement>("#command-palette")!;
const field = () => document.querySelector<HTMLInputElement>("#palette-input")!;
const options = () => [...document.querySelectorAll<HTMLElement>("#palette-list [role=option]")];
const activeOption = () => document.getElementById(field().getAttribute("aria-activedescendant") ?? "");
const typeQuery = (text: string) => fireEvent.input(field(), { target: { value: text } });
const press = (key: string, init: KeyboardEventInit = {}) => fireEvent.keyDown(field(), { key, ...init });

function openWithCtrlK() {
  const elsewhere = document.querySelector<HTMLInputElement>("#elsewhere")!;
  elsewhere.focus();
  fireEvent.keyDown(elsewhere, { key: "k", ctrlKey: true });
}

const JOB = "go:#/c/local%2Fdesktop%2Fdefault/j/nightly-report";

beforeAll(async () => {
  await import("../../ipc/fake");
});
beforeEach(() => {
  history.replaceState(null, "", "#/overview");
});
afterEach(() => {
  act(() => showSurface(null));
  cleanup();
  vi.restoreAllMocks();
});

describe("the command palette", () => {
  it("opens with Ctrl+K from a text field, filters as you type, and Enter runs the active row", async () => {
    render(<Window />);
    expect(dialog().open).toBe(false);

    openWithCtrlK();
    await waitFor(() => expect(dialog().open).toBe(true));
    expect(document.activeElement).toBe(field());
    expect(field().getAttribute("role")).toBe("combobox");
    expect(field().getAttribute("aria-controls")).toBe("palette-list");

    typeQuery("setings");
    await waitFor(() => expect(options()[0]?.dataset.command).toBe("settings"));
    expect(activeOption()).toBe(options()[0]);
    expect(options()[0].getAttribute("aria-selected")).toBe("true");

    press("Enter");
    await waitFor(() => expect(location.hash).toBe("#/settings"));
    expect(dialog().open).toBe(false);
  });

  it("finds a job read from the engine, the arrows move to it and wrap, and Enter opens it", async () => {
    render(<Window />);
    openWithCtrlK();
    // Up from the first row wraps to the last; Down from there comes back to the first.
    await waitFor(() => expect(options().length).toBeGreaterThan(3));
    expect(activeOption()).toBe(options()[0]);
    press("ArrowUp");
    expect(activeOption()).toBe(options()[options().length - 1]);
    press("ArrowDown");
    expect(activeOption()).toBe(options()[0]);
    press("ArrowDown");
    expect(activeOption()).toBe(options()[1]);

    typeQuery("report");
    await waitFor(() => expect(options().some((o) => o.dataset.command === JOB)).toBe(true));
    expect(activeOption()).toBe(options()[0]);
    const at = options().findIndex((o) => o.dataset.command === JOB);
    const groupOf = (o: HTMLElement) => o.closest("[role=group]")?.getAttribute("aria-label");
    expect(groupOf(options()[at])).toBe("Jobs");
    for (let i = 0; i < at; i++) press("ArrowDown");
    expect(activeOption()?.dataset.command).toBe(JOB);

    press("Enter");
    await waitFor(() => expect(location.hash).toBe("#/c/local%2Fdesktop%2Fdefault/j/nightly-report"));
  });

  it("groups rows by section and says so when nothing matches; Escape's close gives the focus back", async () => {
    render(<Window />);
    openWithCtrlK();
    await waitFor(() => expect(options().length).toBeGreaterThan(0));
    const sections = [...document.querySelectorAll("#palette-list [role=group]")].map((g) =>
      g.getAttribute("aria-label"),
    );
    expect(sections.slice(0, 2)).toEqual(["Actions", "Go to"]);

    typeQuery("zzzzqqqq");
    await screen.findByText("No command, collection or job matches.");
    expect(field().hasAttribute("aria-activedescendant")).toBe(false);

    // The browser closes a modal dialog on Escape with a `close` event.
    act(() => {
      dialog().dispatchEvent(new Event("close"));
    });
    await waitFor(() => expect(document.activeElement?.id).toBe("elsewhere"));
  });

  it("lists a view's command only while the view has a handler for it", async () => {
    const ran = vi.fn();
    let setSelected: (on: boolean) => void = () => {};
    function JobsLikeView() {
      const [selected, select] = useState(false);
      setSelected = select;
      useCommandHandler("run-now", selected ? ran : undefined);
      return null;
    }
    function Page() {
      const [mounted, setMounted] = useState(true);
      return (
        <Window>
          {mounted && <JobsLikeView />}
          <button type="button" id="unmount" onClick={() => setMounted(false)}>
            leave the view
          </button>
        </Window>
      );
    }
    render(<Page />);
    const listed = () => options().some((o) => o.dataset.command === "run-now");

    openWithCtrlK();
    typeQuery("run now");
    await waitFor(() => expect(dialog().open).toBe(true));
    expect(listed()).toBe(false);

    act(() => setSelected(true));
    await waitFor(() => expect(listed()).toBe(true));
    expect(options()[0].dataset.command).toBe("run-now");
    press("Enter");
    await waitFor(() => expect(ran).toHaveBeenCalledTimes(1));

    openWithCtrlK();
    typeQuery("run now");
    await waitFor(() => expect(listed()).toBe(true));
    act(() => setSelected(false));
    await waitFor(() => expect(listed()).toBe(false));

    act(() => setSelected(true));
    await waitFor(() => expect(listed()).toBe(true));
    fireEvent.click(document.querySelector("#unmount")!);
    await waitFor(() => expect(listed()).toBe(false));
  });

  it("offers Export only on a collection's pages, and opens its dialog there", async () => {
    render(<Window />);
    openWithCtrlK();
    typeQuery("export collection");
    await screen.findByText("No command, collection or job matches.");
    expect(options().some((o) => o.dataset.command === "export")).toBe(false);
    press("Escape");
    act(() => showSurface(null));

    history.replaceState(null, "", "#/c/local%2Fdesktop%2Fdefault/j/nightly-report");
    openWithCtrlK();
    typeQuery("export collection");
    await waitFor(() => expect(options()[0]?.dataset.command).toBe("export"));
    press("Enter");
    await waitFor(() => expect(document.querySelector<HTMLDialogElement>("#export-dialog")?.open).toBe(true));
    expect(document.querySelector("#export-dialog")?.textContent).toContain("Export default");
    expect(dialog().open).toBe(false);
  });
});
