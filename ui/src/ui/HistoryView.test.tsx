// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { endOfDay, startOfDay } from "date-fns";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { api, CommandFailure, type HistoryOccurrence, type HistoryPageRequest, type RunningRun } from "../ipc";
import { HISTORY_PAGE } from "../logic/historyFilter";
import { HistoryView } from "./HistoryView";

// The view reloads on engine changes; the test fires them.
const changes = vi.hoisted(() => ({ reload: null as null | (() => void) }));
vi.mock("./hooks", async (original) => ({
  ...(await original<typeof import("./hooks")>()),
  useEngineChanged: (reload: () => void) => {
    changes.reload = reload;
  },
}));

const RECORDS = 2_500;

/** 2,500 runs an hour apart, newest first, every tenth one failed. */
function history(): HistoryOccurrence[] {
  return Array.from({ length: RECORDS }, (_, i) => {
    const at = new Date(Date.UTC(2026, 10, 24, 23) - i * 3_600_000).toISOString();
    const failed = i % 10 === 0;
    const status = failed ? "Failed" : "Completed";
    const message = failed ? `run ${i}: connection refused` : `run ${i}: OK`;
    return {
      scheduledTime: at,
      status,
      attempts: [{ id: String(i), kind: "Attempt", status, startTime: at, endTime: at, retryCount: 0, message }],
    };
  });
}

/** The engine's paging and text filter over `all` (one record per run), and what is running. */
function engine(all: HistoryOccurrence[], running: () => RunningRun[] = () => []) {
  return vi.spyOn(api, "historyPage").mockImplementation(async (r: HistoryPageRequest) => {
    const text = r.query.text?.toLowerCase();
    const kept = text ? all.filter((o) => o.attempts[0].message.toLowerCase().includes(text)) : all;
    let skip = r.skip;
    let found = null;
    if (r.started) {
      skip = kept.findIndex((o) => o.attempts[0].startTime === r.started);
      found = kept[skip].scheduledTime;
    }
    const top = r.top ?? 100;
    const occurrences = kept.slice(skip, skip + top);
    const next = skip + top < kept.length ? skip + top : null;
    return { occurrences, skip, next, total: kept.length, found, running: running() };
  });
}

beforeAll(async () => {
  await import("../ipc/fake");
});
beforeEach(() => {
  changes.reload = null;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const runs = () => document.querySelectorAll("[data-testid=occurrence]").length;
const range = () => document.querySelector("#history-range")?.textContent;

describe("the history view", () => {
  // 25 pages rendered one after another: about 3 s alone, more on a busy machine.
  it("pages through 2,500 records from the engine, one page in the DOM at a time", { timeout: 20_000 }, async () => {
    const calls = engine(history());
    render(<HistoryView collection="local/desktop/default" collectionName="default" job="ping" />);
    await waitFor(() => expect(range()).toBe("Records 1–100 of 2,500"));
    expect(runs()).toBe(HISTORY_PAGE);
    expect(screen.getByRole("button", { name: "← Newer" })).toHaveProperty("disabled", true);
    for (let page = 2; page <= 25; page++) {
      fireEvent.click(screen.getByRole("button", { name: "Older →" }));
      await waitFor(() =>
        expect(range()).toBe(
          `Records ${((page - 1) * 100 + 1).toLocaleString("en-US")}–${(page * 100).toLocaleString("en-US")} of 2,500`,
        ),
      );
      expect(runs()).toBe(HISTORY_PAGE);
    }
    expect(screen.getByRole("button", { name: "Older →" })).toHaveProperty("disabled", true);
    expect(document.querySelector("[data-testid=occurrence]:last-child")?.textContent).toContain("run 2499: OK");
    fireEvent.click(screen.getByRole("button", { name: "← Newer" }));
    await waitFor(() => expect(range()).toBe("Records 2,301–2,400 of 2,500"));

    fireEvent.input(document.querySelector("#history-text")!, { target: { value: "REFUSED" } });
    await waitFor(() => expect(range()).toBe("Records 1–100 of 250"));
    expect(calls.mock.lastCall?.[0]).toMatchObject({ skip: 0, query: { text: "REFUSED" } });

    fireEvent.input(document.querySelector("#history-from")!, { target: { value: "2026-11-22" } });
    await waitFor(() => expect(calls.mock.lastCall?.[0].query.from).toBe(new Date(2026, 10, 22).toISOString()));

    fireEvent.input(document.querySelector("#history-to")!, { target: { value: "2026-11-01" } });
    await waitFor(() =>
      expect(document.querySelector("#history-to-error")?.textContent).toBe("must not be before the start date"),
    );
    expect(document.querySelector("#history-to")!.getAttribute("aria-invalid")).toBe("true");
  });

  it("opens at a run the overview names and marks it", async () => {
    const all = history();
    engine(all);
    const run = all[1234];
    render(
      <HistoryView
        collection="local/desktop/default"
        collectionName="default"
        job="ping"
        at={run.attempts[0].startTime}
      />,
    );
    await waitFor(() => expect(document.querySelector("#history-found")).not.toBeNull());
    expect(range()).toBe("Records 1,235–1,334 of 2,500");
    expect(document.querySelector("#history-found")?.getAttribute("aria-current")).toBe("true");
    expect(document.querySelector("#history-found")?.textContent).toContain("run 1234");
  });

  it("shows a run in progress, then its result on the next engine change", async () => {
    const all = history().slice(0, 3);
    const inFlight: RunningRun = {
      scheduledTime: "2026-11-25T00:00:00Z",
      kind: "Attempt",
      retryCount: 0,
      since: "2026-11-25T00:00:01Z",
    };
    let running = [inFlight];
    engine(all, () => running);
    render(<HistoryView collection="local/desktop/default" collectionName="default" job="ping" />);
    await waitFor(() => expect(document.querySelectorAll("[data-testid=running]").length).toBe(1));
    expect(document.querySelector("#history-running")?.textContent).toMatch(/Running\s*since/);
    expect(runs()).toBe(3);

    // The attempt ends: its record arrives and nothing is in flight.
    all.unshift({
      scheduledTime: inFlight.scheduledTime,
      status: "Completed",
      attempts: [
        {
          id: "new",
          kind: "Attempt",
          status: "Completed",
          startTime: inFlight.since,
          endTime: inFlight.since,
          retryCount: 0,
          message: "HTTP 200 OK",
        },
      ],
    });
    running = [];
    await act(() => changes.reload?.());
    await waitFor(() => expect(document.querySelector("#history-running")).toBeNull());
    expect(runs()).toBe(4);
    expect(document.querySelector("[data-testid=occurrence]")?.textContent).toContain("HTTP 200 OK");
  });

  it("exports what the view shows (status, dates, text) to CSV, errors next to the path", async () => {
    engine(history());
    const exported = vi.spyOn(api, "exportHistory").mockImplementation(async (r) => ({ path: r.path, records: 25 }));
    render(<HistoryView collection="local/desktop/default" collectionName="default" job="ping" />);
    await waitFor(() => expect(runs()).toBe(HISTORY_PAGE));
    fireEvent.change(document.querySelector("#history-filter")!, { target: { value: "Failed" } });
    fireEvent.input(document.querySelector("#history-from")!, { target: { value: "2026-11-01" } });
    fireEvent.input(document.querySelector("#history-to")!, { target: { value: "2026-11-20" } });
    fireEvent.input(document.querySelector("#history-text")!, { target: { value: " refused " } });
    fireEvent.click(document.querySelector("#history-export")!);
    expect(document.querySelector("#history-export-what")?.textContent).toBe(
      "Every Failed record from 2026-11-01 to 2026-11-20 containing “refused”, newest first, as CSV (one line per attempt).",
    );
    fireEvent.input(document.querySelector("#history-export-path")!, { target: { value: "/tmp/ping.csv" } });
    fireEvent.click(document.querySelector("#history-export-save")!);
    await waitFor(() =>
      expect(document.querySelector("#history-export-done")?.textContent).toBe("Wrote 25 records to /tmp/ping.csv."),
    );
    expect(exported).toHaveBeenCalledWith({
      collection: "local/desktop/default",
      job: "ping",
      status: "Failed",
      from: startOfDay(new Date(2026, 10, 1)).toISOString(),
      to: endOfDay(new Date(2026, 10, 20)).toISOString(),
      text: "refused",
      path: "/tmp/ping.csv",
    });

    exported.mockRejectedValueOnce(
      new CommandFailure("BadRequest", "give the full path", [
        { path: "path", code: "BadRequest", message: "give the full path (x.csv is relative)" },
      ]),
    );
    fireEvent.input(document.querySelector("#history-export-path")!, { target: { value: "x.csv" } });
    fireEvent.click(document.querySelector("#history-export-save")!);
    await waitFor(() =>
      expect(document.querySelector("#history-export-path-error")?.textContent).toContain("is relative"),
    );
  });
});
