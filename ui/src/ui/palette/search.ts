// What the palette lists for a query: the commands that match it fuzzily (fuzzysort over the
// title and the keywords), grouped by section. With a query the section of the best match comes
// first and each section keeps its best matches first, so Enter on the first row runs the best
// match; with none the sections keep their fixed order.
import fuzzysort from "fuzzysort";
import { type Command, SECTIONS, type Section } from "../../commands/registry";

export type Group = { section: Section; commands: Command[] };

/** At most this many rows, so a window with thousands of jobs keeps a short list. */
export const MAX_ROWS = 50;
/** With nothing typed, at most this many jobs (the collections and commands come first). */
const MAX_JOBS_UNFILTERED = 10;

function grouped(commands: readonly Command[], order: readonly Section[]): Group[] {
  const by = new Map<Section, Command[]>();
  for (const c of commands) {
    const list = by.get(c.section) ?? [];
    list.push(c);
    by.set(c.section, list);
  }
  return order.filter((s) => by.has(s)).map((section) => ({ section, commands: by.get(section)! }));
}

const keywordsOf = (c: Command) => (c.keywords ?? []).join(" ");

export function searchCommands(query: string, commands: readonly Command[], limit = MAX_ROWS): Group[] {
  const q = query.trim();
  if (!q) {
    let jobs = 0;
    const shown = commands.filter((c) => c.section !== "Jobs" || jobs++ < MAX_JOBS_UNFILTERED).slice(0, limit);
    return grouped(shown, SECTIONS);
  }
  const found = fuzzysort.go(q, commands, { keys: ["title", keywordsOf], limit, threshold: 0.3 });
  const ranked = found.map((r) => r.obj);
  const order: Section[] = [];
  for (const c of ranked) if (!order.includes(c.section)) order.push(c.section);
  return grouped(ranked, order);
}

/** The groups' commands in the order the rows show them (arrow keys walk this list). */
export function flatten(groups: readonly Group[]): Command[] {
  return groups.flatMap((g) => g.commands);
}
