// How a click or a key changes a table's selection, as in desktop file lists.

/** only: a plain click (just this row); toggle: Ctrl/Cmd+click, Space or the checkbox; range: Shift. */
export type SelectMode = "only" | "toggle" | "range";

export function selectRow(
  selected: ReadonlySet<string>,
  keys: readonly string[],
  key: string,
  anchor: string | null,
  mode: SelectMode,
): Set<string> {
  if (mode === "range" && anchor !== null && keys.includes(anchor)) {
    const [a, b] = [keys.indexOf(anchor), keys.indexOf(key)].sort((x, y) => x - y);
    return new Set([...selected, ...keys.slice(a, b + 1)]);
  }
  if (mode === "only") return new Set([key]);
  const next = new Set(selected);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

/** All rows, or none when all are already selected (the header's checkbox). */
export function selectAll(selected: ReadonlySet<string>, keys: readonly string[]): Set<string> {
  return keys.length > 0 && keys.every((k) => selected.has(k)) ? new Set() : new Set(keys);
}

/** The row the focus moves to on a key (arrows, Home, End), or null when the key does not move it. */
export function rowAfterKey(keys: readonly string[], current: string, key: string): string | null {
  const i = keys.indexOf(current);
  if (keys.length === 0 || i < 0) return null;
  const to = {
    ArrowDown: Math.min(keys.length - 1, i + 1),
    ArrowUp: Math.max(0, i - 1),
    Home: 0,
    End: keys.length - 1,
  }[key];
  return to === undefined ? null : keys[to];
}
