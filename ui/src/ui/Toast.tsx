import { useEffect, useState } from "preact/hooks";
import { type ToastMessage, clearToast, onToast } from "./toast";

/** Always rendered, so screen readers hear each new message in the live region. */
export function Toast() {
  const [msg, setMsg] = useState<ToastMessage | null>(null);
  useEffect(() => onToast(setMsg), []);
  useEffect(() => {
    if (!msg) return;
    // Errors stay until dismissed; information fades.
    if (msg.kind === "error") return;
    const t = setTimeout(() => clearToast(msg.id), 4000);
    return () => clearTimeout(t);
  }, [msg]);
  return (
    <div id="toast" role="status" aria-live="polite" class={msg ? `toast ${msg.kind}` : "toast empty"}>
      {msg && (
        <>
          <span>{msg.text}</span>
          <button type="button" class="toast-close" aria-label="Dismiss" onClick={() => clearToast(msg.id)}>
            ×
          </button>
        </>
      )}
    </div>
  );
}
