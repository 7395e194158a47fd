// Jump targets: one command per collection and per job, read from the engine each time the
// palette opens (so a job made meanwhile is there). A newer load replaces an older one, also
// when the older one answers last.
import { type CollectionSummary, type JobSummary, api } from "../ipc";
import { type Route, routeHash } from "../logic/routes";
import { navigate } from "../ui/hooks";
import { type Command, defineCommands } from "./registry";

let names = new Map<string, string>();
let undefine: (() => void) | null = null;
let asked = 0;

/** A collection's name from the last load (its id's last segment before one). */
export function collectionName(id: string): string {
  return names.get(id) ?? id.split("/").pop() ?? id;
}

function jumpTo(route: Route): Pick<Command, "id" | "run"> {
  return { id: `go:${routeHash(route)}`, run: () => navigate(route) };
}

function collectionCommand(c: CollectionSummary): Command {
  return {
    ...jumpTo({ page: "collection", collection: c.id }),
    title: c.name,
    section: "Collections",
    keywords: ["collection", c.plan, c.id],
  };
}

function jobCommand(j: JobSummary, collection: string): Command {
  return {
    ...jumpTo({ page: "job", collection: j.collection, job: j.name }),
    title: j.name,
    section: "Jobs",
    detail: collection,
    keywords: [collection, j.actionType, j.sentence],
  };
}

/** The commands for `collections` and their jobs (a collection whose jobs failed to load has none). */
export function jumpCommands(
  collections: readonly CollectionSummary[],
  jobs: readonly (readonly JobSummary[] | null)[],
): Command[] {
  const out = collections.map(collectionCommand);
  collections.forEach((c, i) => {
    for (const j of jobs[i] ?? []) out.push(jobCommand(j, c.name));
  });
  return out;
}

/** Reads every collection and its jobs and defines their jump commands. */
export async function loadJumpTargets(): Promise<void> {
  const mine = ++asked;
  const collections = await api.listCollections();
  const jobs = await Promise.all(collections.map((c) => api.listJobs(c.id).catch(() => null)));
  if (mine !== asked) return;
  names = new Map(collections.map((c) => [c.id, c.name]));
  undefine?.();
  undefine = defineCommands(jumpCommands(collections, jobs));
}
