// What a global command opens on top of the page: the palette itself, or the export dialog the
// palette's host renders (ui/palette/CommandDialogs.tsx). One at a time; commands call show(),
// the host reads the current one through useSurface().
import { useEffect, useState } from "preact/hooks";

export type Surface = { kind: "palette" } | { kind: "export"; collection: string; name: string };

let current: Surface | null = null;
const listeners = new Set<(s: Surface | null) => void>();

export function showSurface(s: Surface | null): void {
  current = s;
  for (const l of listeners) l(current);
}

export function currentSurface(): Surface | null {
  return current;
}

/** Closes `kind` if it is the one shown (a late close of another surface changes nothing). */
export function closeSurface(kind: Surface["kind"]): void {
  if (current?.kind === kind) showSurface(null);
}

export function useSurface(): Surface | null {
  const [s, set] = useState(current);
  useEffect(() => {
    set(current);
    listeners.add(set);
    return () => {
      listeners.delete(set);
    };
  }, []);
  return s;
}
