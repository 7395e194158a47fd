// One status line for the whole window (#toast, a live region): the latest message wins.
// A message may carry one action (say "Undo"); it then stays long enough to reach it.
export type ToastAction = { label: string; run: () => void };
export type ToastMessage = { id: number; text: string; kind: "info" | "error"; action?: ToastAction };

/** How long a message stays: errors until dismissed, one with an action at least 8 s. */
export const TOAST_MS = { info: 5000, withAction: 10000 } as const;

let current: ToastMessage | null = null;
let nextId = 1;
const listeners = new Set<(m: ToastMessage | null) => void>();

export function toast(text: string, kind: ToastMessage["kind"] = "info", action?: ToastAction): number {
  current = { id: nextId++, text, kind, action };
  for (const l of listeners) l(current);
  return current.id;
}

export function clearToast(id: number): void {
  if (current?.id !== id) return;
  current = null;
  for (const l of listeners) l(null);
}

export function onToast(l: (m: ToastMessage | null) => void): () => void {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}
