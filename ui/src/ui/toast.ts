// One status line for the whole window (#toast, aria-live): the latest message wins.
export type ToastMessage = { id: number; text: string; kind: "info" | "error" };

let current: ToastMessage | null = null;
let nextId = 1;
const listeners = new Set<(m: ToastMessage | null) => void>();

export function toast(text: string, kind: ToastMessage["kind"] = "info"): void {
  current = { id: nextId++, text, kind };
  for (const l of listeners) l(current);
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
