// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type Calendar, CommandFailure, type CollectionSummary, type JobSummary, api } from "../../ipc";
import { CalendarsDialog } from "./CalendarsDialog";

const collection: CollectionSummary = {
  id: "local/desktop/ops",
  name: "ops",
  subscription: "local",
  resourceGroup: "desktop",
  state: "Enabled",
  plan: "P20Premium",
  maxJobCount: 1000,
  jobCount: 1,
  minRecurrence: "1 Minute",
};

/** Daily 08:00 runs from 24 Nov; a day listed in a calendar's dates is removed by it. */
async function preview(_c: string, calendars: Calendar[], job: string | null) {
  const runs = ["2026-11-24", "2026-11-25", "2026-11-26"].map((day) => {
    const by = calendars.find((c) => c.dates.includes(day))?.name ?? null;
    return { at: `${day}T08:00:00Z`, local: `${day} 08:00`, removedBy: by, skipped: by ? 1 : null, until: null };
  });
  return [{ name: job ?? "daily", state: "Enabled", timeZone: "UTC", runs, problem: null }];
}

const input = (id: string) => document.querySelector<HTMLInputElement>(`#${id}`)!;
const type = (id: string, value: string) => fireEvent.input(input(id), { target: { value } });

beforeAll(async () => {
  await import("../../ipc/fake");
});
beforeEach(() => {
  vi.spyOn(api, "getCalendars").mockResolvedValue([]);
  vi.spyOn(api, "listJobs").mockResolvedValue([{ name: "daily" } as JobSummary]);
  vi.spyOn(api, "previewCalendars").mockImplementation(preview);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("the calendar editor", () => {
  it("builds a calendar, previews the runs it removes, and shows a refusal on its field", async () => {
    const saved = vi.fn();
    const closed = vi.fn();
    const save = vi.spyOn(api, "saveCalendars");
    render(<CalendarsDialog open collection={collection} onClose={closed} onSaved={saved} />);
    await screen.findByText("No calendars yet: add one.");

    fireEvent.click(screen.getByRole("button", { name: "Add calendar" }));
    expect(input("calendars-name").value).toBe("calendar 1");
    type("calendars-name", "holidays");
    fireEvent.click(screen.getByRole("button", { name: "Add date" }));
    type("calendars-date-0", "2026-11-25");
    await waitFor(() => expect(document.querySelector("[data-removed=holidays]")).not.toBeNull());
    expect(document.querySelector("[data-removed=holidays]")!.textContent).toBe(
      "2026-11-25 08:00: removed by 'holidays' (1 run, from then on)",
    );
    expect(document.querySelectorAll("[data-testid=calendar-run]:not([data-removed])").length).toBe(2);

    fireEvent.click(screen.getByRole("button", { name: "Add weekly window" }));
    fireEvent.click(screen.getByRole("button", { name: "Sat" }));
    fireEvent.click(screen.getByRole("button", { name: "Fri" }));
    expect(screen.getByRole("button", { name: "Fri" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("button", { name: "Sat" }).getAttribute("aria-pressed")).toBe("false");
    type("calendars-window-0-start", "22:00");
    type("calendars-window-0-end", "06:00");
    expect(document.querySelector("#calendars-window-0-hint")!.textContent).toBe(
      "crosses midnight: from 22:00 until 06:00 the next day",
    );

    save.mockRejectedValueOnce(
      new CommandFailure("BadRequest", "bad date", [
        { path: "calendars[0].dates[0]", code: "BadRequest", message: "'2026-02-30' is not a date" },
      ]),
    );
    type("calendars-date-0", "2026-02-30");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(document.querySelector("#calendars-date-0-error")?.textContent).toBe("'2026-02-30' is not a date"),
    );
    expect(input("calendars-date-0").getAttribute("aria-invalid")).toBe("true");
    expect(saved).not.toHaveBeenCalled();

    save.mockImplementationOnce(async (_c, cals) => cals);
    type("calendars-date-0", "2026-11-25");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(closed).toHaveBeenCalled();
    expect(save.mock.calls[1][1]).toEqual([
      {
        name: "holidays",
        dates: ["2026-11-25"],
        ranges: [],
        weekly: [{ days: ["Friday", "Sunday"], start: "22:00", end: "06:00" }],
      },
    ]);
  });

  it("shows an error on no field above the buttons, and one on a calendar's name on that calendar", async () => {
    vi.spyOn(api, "getCalendars").mockResolvedValue([
      { name: "holidays", dates: [], ranges: [], weekly: [] },
      { name: "Holidays", dates: [], ranges: [], weekly: [] },
    ]);
    vi.spyOn(api, "saveCalendars").mockRejectedValue(
      new CommandFailure("BadRequest", "case", [
        { path: "calendars[1].name", code: "BadRequest", message: "differs only in case" },
        { path: "", code: "Conflict", message: "calendar 'night' is used by job 'daily'" },
      ]),
    );
    render(<CalendarsDialog open collection={collection} onClose={() => {}} onSaved={() => {}} />);
    await waitFor(() => expect(input("calendars-name")?.value).toBe("holidays"));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(document.querySelector("#calendars-name-error")?.textContent).toBe("differs only in case"),
    );
    expect(input("calendars-name").value).toBe("Holidays");
    expect(document.querySelector("#calendars-item-1")!.getAttribute("aria-invalid")).toBe("true");
    expect(document.querySelector("#calendars-error")!.textContent).toBe("calendar 'night' is used by job 'daily'");
  });

  it("adds nothing before the stored calendars are in, so none is lost or saved without them", async () => {
    let answer: (c: Calendar[]) => void = () => {};
    vi.spyOn(api, "getCalendars").mockReturnValue(new Promise((resolve) => (answer = resolve)));
    render(<CalendarsDialog open collection={collection} onClose={() => {}} onSaved={() => {}} />);
    const add = screen.getByRole("button", { name: "Add calendar" }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);

    answer([{ name: "holidays", dates: ["2026-12-25"], ranges: [], weekly: [] }]);
    await waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);
    expect(input("calendars-name").value).toBe("calendar 1");
    expect(document.querySelector("#calendars-item-0")!.textContent).toBe("holidays");
    expect(document.querySelector("#calendars-item-1")!.textContent).toBe("calendar 1");
  });

  it("drops an answer that lands after the dialog closed", async () => {
    let answer: (c: Calendar[]) => void = () => {};
    const get = vi.spyOn(api, "getCalendars").mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const view = render(<CalendarsDialog open collection={collection} onClose={() => {}} onSaved={() => {}} />);
    view.rerender(<CalendarsDialog open={false} collection={collection} onClose={() => {}} onSaved={() => {}} />);
    get.mockResolvedValueOnce([]);
    view.rerender(<CalendarsDialog open collection={collection} onClose={() => {}} onSaved={() => {}} />);
    await screen.findByText("No calendars yet: add one.");
    answer([{ name: "stale", dates: [], ranges: [], weekly: [] }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByText("stale")).toBeNull();
    expect(screen.getByText("No calendars yet: add one.")).toBeTruthy();
  });
});
