// The clipboard, where the platform allows it (a job's export now goes through the export dialog
// and the system's save dialog, not a blob download).
/** Copies to the clipboard when the platform allows it; false otherwise. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
