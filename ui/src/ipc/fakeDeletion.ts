// The fake backend's undoable deletes, as the engine makes them (docs/semantics.md "Undoable
// deletion"): what a delete removes is set aside for UNDO_SECONDS, hidden from every read;
// undo puts it back as it was, or fails with the engine's codes (`UndoExpired`, `Conflict`).
// Time is the page's clock (`Date.now`), which tests can fake.
import type { CommandError_Serialize } from "./bindings";
import type { Calendar, CollectionPlan, CollectionSummary, Deletion, FieldError, Result, UndoTicket } from "./types";

export const UNDO_SECONDS = 10;

type Stored<J> = {
  collections: Map<string, CollectionSummary>;
  /** Keyed `collection|name`. */
  jobs: Map<string, J>;
  plans: Map<string, CollectionPlan>;
  calendarsOf: Map<string, Calendar[]>;
};

type SetAside<J> = {
  deletion: Deletion;
  untilMs: number;
  jobs: [string, J][];
  collection: { summary: CollectionSummary; plan?: CollectionPlan; calendars?: Calendar[] } | null;
};

type Answer<T> = Promise<Result<T, CommandError_Serialize>>;

/** `ok` and `fail` are the fake's own (copies, as IPC makes); `changed` tells listeners. */
export function fakeDeletions<J>(
  s: Stored<J>,
  ok: <T>(data: T) => Answer<T>,
  fail: (code: string, message: string, errors?: FieldError[]) => Answer<never>,
  changed: () => void,
) {
  const aside = new Map<string, SetAside<J>>();
  let nextToken = 1;
  const countJobs = (collection: string) => [...s.jobs.keys()].filter((k) => k.startsWith(`${collection}|`)).length;
  const recount = (collection: string) => {
    const c = s.collections.get(collection);
    if (c) c.jobCount = countJobs(collection);
  };

  function setAside(collection: string, names: string[], wholeCollection: boolean): Answer<UndoTicket> {
    const now = Date.now();
    for (const [token, a] of aside) if (a.untilMs <= now) aside.delete(token);
    const ticket: UndoTicket = {
      token: String(nextToken++),
      until: new Date(now + UNDO_SECONDS * 1000).toISOString(),
      undoSeconds: UNDO_SECONDS,
    };
    const jobs = [...new Set(names)].map((n): [string, J] => [`${collection}|${n}`, s.jobs.get(`${collection}|${n}`)!]);
    let kept: SetAside<J>["collection"] = null;
    if (wholeCollection) {
      kept = {
        summary: s.collections.get(collection)!,
        plan: s.plans.get(collection),
        calendars: s.calendarsOf.get(collection),
      };
      s.collections.delete(collection);
      s.plans.delete(collection);
      s.calendarsOf.delete(collection);
    }
    for (const [k] of jobs) s.jobs.delete(k);
    recount(collection);
    const jobNames = jobs.map(([k]) => k.slice(collection.length + 1)).sort();
    aside.set(ticket.token, {
      deletion: { ticket, wholeCollection, collection, jobs: jobNames },
      untilMs: now + UNDO_SECONDS * 1000,
      jobs,
      collection: kept,
    });
    changed();
    return ok(ticket);
  }

  const noCollection = () => fail("ResourceNotFound", "no such collection");

  return {
    deleteJobs: (collection: string, names: string[]): Answer<UndoTicket> => {
      if (!s.collections.has(collection)) return noCollection();
      if (names.length === 0)
        return fail("BadRequest", "name at least one job to delete", [
          { path: "names", code: "BadRequest", message: "name at least one job to delete" },
        ]);
      const missing = names.find((n) => !s.jobs.has(`${collection}|${n}`));
      if (missing !== undefined) return fail("ResourceNotFound", `the job '${missing}' was not found`);
      return setAside(collection, names, false);
    },
    deleteCollection: (collection: string): Answer<UndoTicket> => {
      if (!s.collections.has(collection)) return noCollection();
      const names = [...s.jobs.keys()]
        .filter((k) => k.startsWith(`${collection}|`))
        .map((k) => k.slice(collection.length + 1));
      return setAside(collection, names, true);
    },
    undoDeletion: (token: string): Answer<Deletion> => {
      const a = aside.get(token);
      if (!a || a.untilMs <= Date.now())
        return fail("UndoExpired", `deletion ${token} can no longer be undone: its undo window has ended`);
      const { collection } = a.deletion;
      if (a.collection && s.collections.has(collection))
        return fail("Conflict", `a job collection named '${a.collection.summary.name}' was created since`);
      if (!a.collection && !s.collections.has(collection))
        return fail("Conflict", "the job collection was deleted since these jobs were; nothing was restored");
      const taken = a.jobs.filter(([k]) => s.jobs.has(k));
      if (taken.length) return fail("Conflict", `a job named '${taken[0][0].split("|")[1]}' was created since`);
      if (a.collection) {
        s.collections.set(collection, a.collection.summary);
        if (a.collection.plan) s.plans.set(collection, a.collection.plan);
        if (a.collection.calendars) s.calendarsOf.set(collection, a.collection.calendars);
      }
      for (const [k, j] of a.jobs) s.jobs.set(k, j);
      recount(collection);
      aside.delete(token);
      changed();
      return ok(a.deletion);
    },
    pendingDeletions: (): Answer<Deletion[]> =>
      ok([...aside.values()].filter((a) => a.untilMs > Date.now()).map((a) => a.deletion)),
  };
}
