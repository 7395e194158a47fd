// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, CommandFailure } from "./index";

// The development and test fake answers the undo commands as the engine does.
const job = { action: { type: "Http", request: { uri: "https://example.invalid/", method: "GET" } } };

async function collectionWithJobs(name: string, jobs: string[]): Promise<string> {
  const { id } = await api.createCollection(name);
  for (const n of jobs) await api.saveJob(id, n, job, true);
  return id;
}

async function failure(p: Promise<unknown>): Promise<CommandFailure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CommandFailure) return e;
  }
  throw new Error("expected a CommandFailure");
}

afterEach(() => vi.useRealTimers());

describe("undoable deletes in the fake backend", () => {
  it("hides a selection at once and brings it back with one token", async () => {
    const id = await collectionWithJobs("undo-selection", ["a", "b", "c"]);
    const ticket = await api.deleteJobs(id, ["a", "b"]);
    expect(ticket.undoSeconds).toBe(10);
    expect((await api.listJobs(id)).map((j) => j.name)).toEqual(["c"]);
    expect((await api.pendingDeletions()).map((d) => d.ticket.token)).toContain(ticket.token);
    const undone = await api.undoDeletion(ticket.token);
    expect(undone).toMatchObject({ collection: id, jobs: ["a", "b"], wholeCollection: false });
    expect((await api.listJobs(id)).map((j) => j.name).sort()).toEqual(["a", "b", "c"]);
    expect((await failure(api.undoDeletion(ticket.token))).code).toBe("UndoExpired");
  });

  it("brings a collection back with its jobs until the window ends", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-27T10:00:00Z"));
    const id = await collectionWithJobs("undo-collection", ["x"]);
    const first = await api.deleteCollection(id);
    expect(first.until).toBe("2026-11-27T10:00:10.000Z");
    expect((await api.listCollections()).map((c) => c.id)).not.toContain(id);
    vi.setSystemTime(new Date("2026-11-27T10:00:09.999Z"));
    await api.undoDeletion(first.token);
    expect((await api.listCollections()).find((c) => c.id === id)?.jobCount).toBe(1);

    const second = await api.deleteCollection(id);
    vi.setSystemTime(new Date("2026-11-27T10:00:20Z"));
    expect((await failure(api.undoDeletion(second.token))).code).toBe("UndoExpired");
    expect((await api.listCollections()).map((c) => c.id)).not.toContain(id);
  });

  it("deletes all or none, and refuses undo over a name taken meanwhile", async () => {
    const id = await collectionWithJobs("undo-conflict", ["a"]);
    expect((await failure(api.deleteJobs(id, ["a", "missing"]))).code).toBe("ResourceNotFound");
    expect((await api.listJobs(id)).length).toBe(1);
    const ticket = await api.deleteJob(id, "a");
    await api.saveJob(id, "a", job, true);
    expect((await failure(api.undoDeletion(ticket.token))).code).toBe("Conflict");
  });
});
