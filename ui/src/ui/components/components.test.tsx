// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/preact";
import { useState } from "preact/hooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOAST_MS, toast } from "../toast";
import { DataTable } from "./DataTable";
import { Menu } from "./Menu";
import { SegmentedControl } from "./SegmentedControl";
import { Toast } from "./Toast";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("Menu", () => {
  const items = (chosen: string[]) => [
    { id: "m-edit", label: "Edit…", onSelect: () => chosen.push("edit") },
    { id: "m-off", label: "Off", onSelect: () => chosen.push("off"), disabled: true },
    "separator" as const,
    { id: "m-delete", label: "Delete…", onSelect: () => chosen.push("delete"), danger: true },
  ];

  it("opens on the first item, skips disabled ones with the arrows, chooses with Enter and gives the focus back", () => {
    const chosen: string[] = [];
    render(<Menu id="more" label="More actions" items={items(chosen)} />);
    const trigger = screen.getByRole("button", { name: "More actions" });
    expect(trigger.getAttribute("aria-haspopup")).toBe("menu");
    fireEvent.click(trigger);
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(document.activeElement?.id).toBe("m-edit");
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement?.id).toBe("m-delete");
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement?.id).toBe("m-edit");
    fireEvent.keyDown(document.activeElement!, { key: "ArrowUp" });
    expect(document.activeElement?.id).toBe("m-delete");
    fireEvent.click(document.activeElement!);
    expect(chosen).toEqual(["delete"]);
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it("closes on Escape without choosing, and opens from the keyboard with ArrowDown", () => {
    const chosen: string[] = [];
    render(<Menu id="more" label="More actions" items={items(chosen)} />);
    const trigger = screen.getByRole("button", { name: "More actions" });
    trigger.focus();
    fireEvent.keyDown(trigger, { key: "ArrowDown" });
    expect(screen.getByRole("menu")).toBeTruthy();
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(chosen).toEqual([]);
  });
});

describe("DataTable", () => {
  type Row = { name: string };
  const rows: Row[] = [{ name: "a" }, { name: "b" }, { name: "c" }];
  function Harness({ onOpen }: { onOpen: (k: string) => void }) {
    const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
    return (
      <DataTable
        id="t"
        label="Things"
        rows={rows}
        rowKey={(r) => r.name}
        rowTestId={(r) => `row-${r.name}`}
        columns={[{ key: "name", header: "Name", cell: (r) => r.name, rowHeader: true }]}
        selected={selected}
        onSelectionChange={setSelected}
        onOpen={onOpen}
        checkboxes={{ row: (r) => `Select ${r.name}`, all: "Select all" }}
      />
    );
  }
  const selectedRows = () =>
    [...document.querySelectorAll('tr[aria-selected="true"]')].map((r) => r.getAttribute("data-key"));

  it("is a grid: a click selects one row, Ctrl+click adds, Shift+click adds the range", () => {
    const onOpen = vi.fn();
    render(<Harness onOpen={onOpen} />);
    expect(screen.getByRole("grid", { name: "Things" })).toBeTruthy();
    fireEvent.click(screen.getByTestId("row-a").querySelector("th")!);
    expect(selectedRows()).toEqual(["a"]);
    fireEvent.click(screen.getByTestId("row-b").querySelector("th")!);
    expect(selectedRows()).toEqual(["b"]);
    fireEvent.click(screen.getByTestId("row-a").querySelector("th")!, { ctrlKey: true });
    expect(selectedRows()).toEqual(["a", "b"]);
    fireEvent.click(screen.getByTestId("row-c").querySelector("th")!, { shiftKey: true });
    expect(selectedRows()).toEqual(["a", "b", "c"]);
    fireEvent.click(screen.getByLabelText("Select b"));
    expect(selectedRows()).toEqual(["a", "c"]);
    expect(onOpen).not.toHaveBeenCalled();
  });

  it("opens on double-click and on Enter, and moves with the arrows", () => {
    const onOpen = vi.fn();
    render(<Harness onOpen={onOpen} />);
    fireEvent.dblClick(screen.getByTestId("row-b").querySelector("th")!);
    expect(onOpen).toHaveBeenLastCalledWith("b");
    const a = screen.getByTestId("row-a");
    a.focus();
    fireEvent.keyDown(a, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByTestId("row-b"));
    fireEvent.keyDown(document.activeElement!, { key: "End" });
    expect(document.activeElement).toBe(screen.getByTestId("row-c"));
    fireEvent.keyDown(document.activeElement!, { key: " " });
    expect(selectedRows()).toEqual(["c"]);
    fireEvent.keyDown(document.activeElement!, { key: "Enter" });
    expect(onOpen).toHaveBeenLastCalledWith("c");
  });
});

describe("Toast", () => {
  it("shows an action that runs once, and stays at least 8 s when it has one", () => {
    vi.useFakeTimers();
    const undo = vi.fn();
    render(<Toast />);
    act(() => {
      toast("Deleted backup", "info", { label: "Undo", run: undo });
    });
    expect(TOAST_MS.withAction).toBeGreaterThanOrEqual(8000);
    act(() => {
      vi.advanceTimersByTime(7900);
    });
    const button = screen.getByRole("button", { name: "Undo" });
    fireEvent.click(button);
    expect(undo).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("button", { name: "Undo" })).toBeNull();
  });

  it("fades information without an action, keeps errors, and announces errors assertively", () => {
    vi.useFakeTimers();
    render(<Toast />);
    act(() => {
      toast("Saved");
    });
    expect(document.getElementById("toast")!.textContent).toContain("Saved");
    act(() => {
      vi.advanceTimersByTime(TOAST_MS.info + 10);
    });
    expect(document.getElementById("toast")!.textContent).toBe("");
    act(() => {
      toast("Could not save", "error");
    });
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    const region = document.getElementById("toast")!;
    expect(region.textContent).toContain("Could not save");
    expect(region.getAttribute("aria-live")).toBe("assertive");
  });
});

describe("SegmentedControl", () => {
  function Harness({ onChange }: { onChange: (v: string) => void }) {
    const [v, setV] = useState("week");
    return (
      <SegmentedControl
        label="View"
        value={v}
        options={[
          { value: "day", label: "Day", id: "v-day" },
          { value: "week", label: "Week", id: "v-week" },
          { value: "month", label: "Month", id: "v-month" },
        ]}
        onChange={(x) => {
          setV(x);
          onChange(x);
        }}
      />
    );
  }

  it("is a radio group: one Tab stop on the choice, click and arrows choose", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const group = screen.getByRole("radiogroup", { name: "View" });
    const radios = screen.getAllByRole("radio");
    expect(radios.map((r) => r.getAttribute("tabindex"))).toEqual(["-1", "0", "-1"]);
    expect(screen.getByRole("radio", { name: "Week" }).getAttribute("aria-checked")).toBe("true");
    fireEvent.click(screen.getByRole("radio", { name: "Month" }));
    expect(onChange).toHaveBeenLastCalledWith("month");
    fireEvent.keyDown(group, { key: "ArrowRight" });
    expect(onChange).toHaveBeenLastCalledWith("day");
    expect(document.activeElement?.id).toBe("v-day");
    expect(screen.getByRole("radio", { name: "Day" }).getAttribute("aria-checked")).toBe("true");
  });
});
