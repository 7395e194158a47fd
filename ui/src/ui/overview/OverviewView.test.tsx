// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type OverviewCountsRequest, type OverviewResult, api } from "../../ipc";
import { KIND_BLACKED_OUT, KIND_MOVED, KIND_PAST, KIND_PLANNED, toColumns } from "../../logic/overview";
import { COUNT_BUCKET_SECONDS, countRuns } from "../../logic/overviewCounts";
import { OverviewView } from "./OverviewView";

// The development fake announces its own writes as engine changes, which make the view ask
// again at moments of their own; these tests count what the view asks, so it hears none.
vi.mock("../hooks", async (original) => ({
  ...(await original<typeof import("../hooks")>()),
  useEngineChanged: () => {},
}));

const NOW = Date.UTC(2026, 10, 25, 12, 0); // Wednesday 25 November 2026, 12:00 UTC
const collections = [
  {
    id: "local/desktop/default",
    name: "default",
    subscription: "local",
    resourceGroup: "desktop",
    state: "Enabled",
    plan: "P20Premium",
    maxJobCount: 1000,
    jobCount: 2,
    minRecurrence: "1 Minute",
  },
  {
    id: "local/desktop/other",
    name: "other",
    subscription: "local",
    resourceGroup: "desktop",
    state: "Enabled",
    plan: "P20Premium",
    maxJobCount: 1000,
    jobCount: 1,
    minRecurrence: "1 Minute",
  },
];
const run = (
  job: number,
  at: string,
  kind: number,
  over: { status?: string; action?: string; calendar?: string } = {},
) => ({ job, at: Date.parse(at), kind, status: null, action: null, calendar: null, ...over });
const FROM = "2026-11-23T00:00:00Z";
const RUNS = [
  run(0, "2026-11-24T09:00:00Z", KIND_PAST, { status: "Failed", action: "MainAction" }),
  run(1, "2026-11-24T09:10:00Z", KIND_PAST, { status: "Completed", action: "MainAction" }),
  run(0, "2026-11-26T09:00:00Z", KIND_PLANNED),
  run(2, "2026-11-26T09:00:00Z", KIND_BLACKED_OUT, { calendar: "holidays" }),
  run(1, "2026-11-27T02:00:00Z", KIND_MOVED),
];
const answer: OverviewResult = {
  now: "2026-11-25T12:00:00Z",
  from: FROM,
  jobs: [
    { collection: "local/desktop/default", name: "report", state: "Enabled", action: "Http", truncated: false },
    { collection: "local/desktop/default", name: "backup", state: "Enabled", action: "Http", truncated: false },
    { collection: "local/desktop/other", name: "sync", state: "Enabled", action: "Http", truncated: false },
  ],
  runs: toColumns(FROM, RUNS),
  busyMinutes: [{ minute: "2026-11-26T09:00:00Z", host: "api.example.com", jobs: 12 }],
  busyHosts: [{ host: "api.example.com", minutes: 1 }],
  computeMicros: 1,
};

/** The engine's counts of the same runs, filtered as asked. */
async function countsOf(r: OverviewCountsRequest) {
  const data = { ...answer, from: r.from, runs: toColumns(r.from, RUNS) };
  const filter = {
    collections: r.collections && new Set(r.collections),
    search: r.search,
    state: r.state ?? "",
    action: r.action ?? "",
  };
  const counts = countRuns(data, r.to, filter);
  return { ...answer, from: r.from, bucketSeconds: COUNT_BUCKET_SECONDS, counts };
}

// Outside Tauri the ipc layer loads the development fake on first use (events included): load it
// before the tests, not while the environment is torn down after them.
beforeAll(async () => {
  await import("../../ipc/fake");
});

beforeEach(() => {
  location.hash = "#/overview";
  vi.spyOn(api, "overview").mockResolvedValue(answer);
  vi.spyOn(api, "overviewCounts").mockImplementation(countsOf);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function show() {
  return render(<OverviewView collections={collections} initialZone="UTC" clock={() => NOW} />);
}

describe("the overview", () => {
  it("asks for the shown week in the chosen zone and counts runs per hour", async () => {
    show();
    await screen.findByTestId("overview-day-2026-11-24");
    expect(api.overview).toHaveBeenCalledWith("2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z", null);
    const tuesday = document.querySelector('[data-day="2026-11-24"]')!;
    const nine = tuesday.querySelector('.hour-cell[data-hour="9"]')!;
    expect(nine.getAttribute("data-count")).toBe("2");
    expect(nine.className).toContain("cat-failed");
    const thursday = document.querySelector('[data-day="2026-11-26"] .hour-cell[data-hour="9"]')!;
    expect(thursday.className).toContain("cat-blackedOut");
    // The now line sits in today's column, half way down.
    const now = document.querySelector('[data-day="2026-11-25"] #overview-now') as HTMLElement;
    expect(now.style.top).toBe("50.00%");
    // 7 days × 24 hours in the heat strip; the busiest hour is 2.
    expect(document.querySelectorAll("#overview-heat .heat")).toHaveLength(168);
    expect(document.querySelectorAll("#overview-heat .heat-4")).toHaveLength(2);
  });

  it("warns about busy minutes", async () => {
    show();
    const note = await screen.findByRole("note");
    expect(note.textContent).toContain("api.example.com: 12 jobs at 09:00 on Thu 26 Nov");
  });

  it("lists a day's runs; a past run opens the history, a coming one the job", async () => {
    show();
    fireEvent.click(await screen.findByTestId("overview-day-2026-11-24"));
    const runs = () => [...document.querySelectorAll<HTMLButtonElement>('[data-testid="overview-run"]')];
    await waitFor(() => expect(runs().map((r) => r.dataset.job)).toEqual(["report", "backup"]));
    expect(runs()[0].dataset.category).toBe("failed");
    fireEvent.click(runs()[0]);
    expect(location.hash).toBe("#/c/local%2Fdesktop%2Fdefault/j/report/history/2026-11-24T09%3A00%3A00.000Z");
    fireEvent.click(screen.getByTestId("overview-day-2026-11-26"));
    await waitFor(() => expect(runs().map((r) => r.dataset.category)).toEqual(["planned", "blackedOut"]));
    fireEvent.click(runs()[0]);
    expect(location.hash).toBe("#/c/local%2Fdesktop%2Fdefault/j/report");
  });

  it("filters by name and collection", async () => {
    show();
    await screen.findByTestId("overview-day-2026-11-24");
    const count = () =>
      document.querySelector('[data-day="2026-11-24"] .hour-cell[data-hour="9"]')!.getAttribute("data-count");
    fireEvent.input(screen.getByLabelText("Search jobs by name"), { target: { value: "back" } });
    await waitFor(() => expect(count()).toBe("1"));
    fireEvent.input(screen.getByLabelText("Search jobs by name"), { target: { value: "" } });
    fireEvent.change(screen.getByLabelText("Collection"), { target: { value: "local/desktop/other" } });
    await waitFor(() => expect(count()).toBe("0"));
    expect(document.querySelector('[data-day="2026-11-26"] .hour-cell[data-hour="9"]')!.className).toContain(
      "cat-blackedOut",
    );
  });

  it("moves between days with the arrow keys, into the next week", async () => {
    show();
    await screen.findByTestId("overview-day-2026-11-24");
    const calendar = document.getElementById("overview-calendar")!;
    fireEvent.keyDown(calendar, { key: "ArrowRight" });
    await waitFor(() =>
      expect(screen.getByTestId("overview-day-2026-11-26").getAttribute("aria-selected")).toBe("true"),
    );
    for (let i = 0; i < 4; i++) fireEvent.keyDown(calendar, { key: "ArrowRight" });
    await waitFor(() =>
      expect(api.overview).toHaveBeenLastCalledWith("2026-11-30T00:00:00Z", "2026-12-07T00:00:00Z", null),
    );
  });

  it("shows a month from the engine's counts, filtered there, and lists a clicked day's runs", async () => {
    show();
    await screen.findByTestId("overview-day-2026-11-24");
    fireEvent.click(screen.getByText("Month"));
    await waitFor(() =>
      expect(api.overviewCounts).toHaveBeenLastCalledWith({
        from: "2026-11-01T00:00:00Z",
        to: "2026-12-01T00:00:00Z",
        collections: null,
        search: "",
        state: null,
        action: null,
      }),
    );
    // Runs are asked for the selected day only (today), never for the month.
    await waitFor(() =>
      expect(api.overview).toHaveBeenLastCalledWith("2026-11-25T00:00:00Z", "2026-11-26T00:00:00Z", null),
    );
    expect(api.overview).not.toHaveBeenCalledWith("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z", null);
    const cell = (day: string) => screen.getByTestId(`overview-day-${day}`);
    await waitFor(() => expect(cell("2026-11-24").className).toContain("cat-failed"));
    expect(document.querySelectorAll(".month-day")).toHaveLength(30);
    expect(cell("2026-11-24").textContent).toBe("242");
    expect(cell("2026-11-26").title).toBe("1 planned, 1 blacked out");
    expect(document.querySelectorAll("#overview-heat .heat")).toHaveLength(30 * 24);
    expect(document.querySelector('#overview-heat .heat[data-count="2"]')!.getAttribute("title")).toBe(
      "Tue 24 Nov 09:00 · 2 runs",
    );
    expect((await screen.findByRole("note")).textContent).toContain("api.example.com");

    fireEvent.click(cell("2026-11-24"));
    await waitFor(() =>
      expect(api.overview).toHaveBeenLastCalledWith("2026-11-24T00:00:00Z", "2026-11-25T00:00:00Z", null),
    );
    const runs = () => [...document.querySelectorAll<HTMLElement>('[data-testid="overview-run"]')];
    await waitFor(() => expect(runs().map((r) => r.dataset.job)).toEqual(["report", "backup"]));

    // The filters go to the engine; the day's list is filtered alike.
    fireEvent.input(screen.getByLabelText("Search jobs by name"), { target: { value: "back" } });
    await waitFor(() => expect(cell("2026-11-24").textContent).toBe("241"));
    expect(api.overviewCounts).toHaveBeenLastCalledWith(expect.objectContaining({ search: "back" }));
    expect(runs().map((r) => r.dataset.job)).toEqual(["backup"]);
    fireEvent.change(screen.getByLabelText("Collection"), { target: { value: "local/desktop/other" } });
    await waitFor(() =>
      expect(api.overviewCounts).toHaveBeenLastCalledWith(
        expect.objectContaining({ collections: ["local/desktop/other"], search: "back" }),
      ),
    );
    await waitFor(() => expect(cell("2026-11-24").textContent).toBe("24"));
    fireEvent.change(screen.getByLabelText("Collection"), { target: { value: "" } });
    fireEvent.input(screen.getByLabelText("Search jobs by name"), { target: { value: "" } });

    fireEvent.click(screen.getByText("Agenda"));
    await screen.findByTestId("agenda-2026-11-26");
    expect(document.querySelectorAll('[data-testid="agenda-2026-11-26"] [data-testid="overview-run"]')).toHaveLength(2);
  });

  it("keeps the listed rows while another day's runs load, then rewrites them in place", async () => {
    show();
    await screen.findByTestId("overview-day-2026-11-24");
    fireEvent.click(screen.getByText("Month"));
    fireEvent.click(await screen.findByTestId("overview-day-2026-11-24"));
    const runs = () => [...document.querySelectorAll<HTMLElement>('[data-testid="overview-run"]')];
    await waitFor(() => expect(runs().map((r) => r.dataset.job)).toEqual(["report", "backup"]));
    const status = document.getElementById("overview-selection-status")!;
    expect(status.getAttribute("role")).toBe("status");
    expect(status.textContent).toBe("Tue 24 Nov: 2 runs");
    // Only that short status is announced, not the list.
    expect(document.querySelector("#overview-selection [aria-live]")).toBeNull();
    expect(document.getElementById("overview-selection")!.getAttribute("aria-live")).toBeNull();
    const before = runs();

    let answerNow!: () => void;
    vi.mocked(api.overview).mockImplementation(() => new Promise((r) => (answerNow = () => r(answer))));
    fireEvent.click(screen.getByTestId("overview-day-2026-11-26"));
    // Asked, not answered yet: the rows stay, marked busy, and nothing is announced.
    expect(api.overview).toHaveBeenLastCalledWith("2026-11-26T00:00:00Z", "2026-11-27T00:00:00Z", null);
    const list = document.querySelector(".overview-runs")!;
    expect(list.getAttribute("aria-busy")).toBe("true");
    expect(runs()).toEqual(before);
    expect(status.textContent).toBe("");
    // Dimmed only once the answer is slow (0.3 s).
    expect(list.className).not.toContain("stale");
    await waitFor(() => expect(list.className).toContain("stale"), { timeout: 2000 });

    answerNow();
    await waitFor(() => expect(runs().map((r) => r.dataset.category)).toEqual(["planned", "blackedOut"]));
    // The same nodes, now telling the 26th's runs.
    expect(runs()).toEqual(before);
    expect(runs().map((r) => r.dataset.job)).toEqual(["report", "sync"]);
    expect(list.getAttribute("aria-busy")).toBe("false");
    expect(list.className).not.toContain("stale");
    expect(status.textContent).toBe("Thu 26 Nov: 2 runs");
  });

  it("asks for the next month while one paged to is shown, and pages back to a month it has", async () => {
    show();
    await screen.findByTestId("overview-day-2026-11-24");
    fireEvent.click(screen.getByText("Month"));
    await screen.findByTestId("overview-day-2026-11-30");
    const asked = (from: string) => vi.mocked(api.overviewCounts).mock.calls.filter(([r]) => r.from === from).length;
    // Not before the user pages: a month shown on its own asks for nothing more.
    expect(asked("2026-12-01T00:00:00Z")).toBe(0);
    fireEvent.click(screen.getByLabelText("Later"));
    await screen.findByTestId("overview-day-2026-12-31");
    await waitFor(() => expect(asked("2027-01-01T00:00:00Z")).toBe(1));
    fireEvent.click(screen.getByLabelText("Later"));
    await screen.findByTestId("overview-day-2027-01-31");
    expect(asked("2027-01-01T00:00:00Z")).toBe(1);
    fireEvent.click(screen.getByLabelText("Earlier"));
    await screen.findByTestId("overview-day-2026-12-31");
    expect(asked("2026-12-01T00:00:00Z")).toBe(1);
    // A month kept is drawn with its counts in the render the click makes (no empty month first).
    fireEvent.click(screen.getByLabelText("Earlier"));
    expect(screen.getByTestId("overview-day-2026-11-24").textContent).toBe("242");
    expect(asked("2026-11-01T00:00:00Z")).toBe(1);
  });
});
