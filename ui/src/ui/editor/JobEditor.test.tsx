// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type PreviewRequest, type PreviewResult, api } from "../../ipc";
import { job } from "../../test/jobs";
import { JobEditor } from "./JobEditor";

const C = "local/desktop/ops";
const properties = {
  startTime: "2026-11-24T08:00:00Z",
  state: "Enabled",
  action: { type: "Http", request: { uri: "http://127.0.0.1:9/hook", method: "GET" } },
  recurrence: { frequency: "Day", interval: 1, blackout: ["Holidays"] },
};

/**
 * The backend's answer for daily 08:00 runs from 24 Nov: the calendar 'holidays' (25 Nov) is the
 * collection's, so a schedule naming it resolves only when the request names that collection;
 * without it the name is an error on its field.
 */
async function preview(req: PreviewRequest): Promise<PreviewResult> {
  const base = { timeZone: "UTC", month: "2026-11", computeMicros: 1, notes: [] as string[], errors: [] };
  const names = JSON.stringify(req.properties).includes('"blackout":["Holidays"]');
  if (names && req.collection !== C) {
    const message = "names the calendar 'Holidays', but only a job in a job collection can refer to a calendar";
    return {
      ...base,
      sentence: "",
      runs: [],
      offsets: [],
      runNotes: [],
      monthDays: [],
      errors: [{ path: "properties.recurrence.blackout[0]", code: "BadRequest", message }],
      scheduleValid: false,
    };
  }
  const days = names ? ["24", "26", "27"] : ["24", "25", "26"];
  return {
    ...base,
    sentence: "Every day at 08:00 UTC",
    runs: days.map((d) => Date.parse(`2026-11-${d}T08:00:00Z`) / 1000),
    offsets: [[0, 0]],
    runNotes: [],
    monthDays: days.map(Number),
    notes: names ? ["Blackout 'holidays' skips 1 run from Wed 25 Nov 2026 08:00 until Thu 26 Nov 2026 00:00"] : [],
    scheduleValid: true,
  };
}

beforeAll(async () => {
  await import("../../ipc/fake");
});
beforeEach(() => {
  vi.spyOn(api, "getJob").mockResolvedValue({ summary: job("daily"), properties, secretsSet: [] });
  vi.spyOn(api, "previewJob").mockImplementation(preview);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("the job editor", () => {
  it("previews a schedule that names the collection's calendar, with the runs it removes noted", async () => {
    const validate = vi.spyOn(api, "validateJob").mockResolvedValue([]);
    render(<JobEditor collection={C} collectionName="default" job="daily" />);
    const note = await screen.findByText(/^Blackout 'holidays' skips 1 run/);
    expect(note.closest("#preview-notes")).not.toBeNull();
    const runs = [...document.querySelectorAll("#preview-runs time")].map((t) => t.getAttribute("datetime"));
    expect(runs).toEqual(["2026-11-24T08:00:00Z", "2026-11-26T08:00:00Z", "2026-11-27T08:00:00Z"]);
    expect(document.querySelector("#preview-fix")).toBeNull();
    const asked = vi.mocked(api.previewJob).mock.calls.map(([r]) => r);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((r) => r.collection === C)).toBe(true);
    // The live validation asks about the same collection, so the name is no error there either.
    await waitFor(() => expect(validate).toHaveBeenCalled());
    expect(validate.mock.calls.every(([c]) => c === C)).toBe(true);
  });
});
