/** Saves `text` as a file through a Blob link (the window has no file dialog of its own). */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The click starts the download asynchronously; revoke only after it has the data.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

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
