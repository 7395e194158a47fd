import { X } from "lucide";
import { useEffect, useRef, useState } from "preact/hooks";
import { i18n } from "../../i18n";
import { TOAST_MS, type ToastMessage, clearToast, onToast } from "../toast";
import { Button } from "./Button";
import { IconButton } from "./IconButton";

/**
 * The window's status line (#toast), always rendered so screen readers hear each message: errors
 * assertively, the rest politely. Information fades (after 5 s, or 10 s when it has an action
 * such as Undo; never while the pointer or the focus is on it); errors stay until dismissed.
 */
export function Toast() {
  const [msg, setMsg] = useState<ToastMessage | null>(null);
  const [held, setHeld] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => onToast(setMsg), []);
  useEffect(() => {
    if (!msg || msg.kind === "error" || held) return;
    const t = setTimeout(() => clearToast(msg.id), msg.action ? TOAST_MS.withAction : TOAST_MS.info);
    return () => clearTimeout(t);
  }, [msg, held]);
  return (
    <div
      id="toast"
      ref={ref}
      role={msg?.kind === "error" ? "alert" : "status"}
      aria-live={msg?.kind === "error" ? "assertive" : "polite"}
      class={msg ? `toast ${msg.kind}` : "toast empty"}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocusIn={() => setHeld(true)}
      onFocusOut={(e) => {
        if (!ref.current?.contains(e.relatedTarget as Node | null)) setHeld(false);
      }}
    >
      {msg && (
        <>
          <span class="toast-text">{msg.text}</span>
          {msg.action && (
            <Button
              id="toast-action"
              size="sm"
              variant="secondary"
              onClick={() => {
                clearToast(msg.id);
                msg.action!.run();
              }}
            >
              {msg.action.label}
            </Button>
          )}
          <IconButton
            icon={X}
            size="sm"
            label={i18n._("Dismiss")}
            class="toast-close"
            onClick={() => clearToast(msg.id)}
          />
        </>
      )}
    </div>
  );
}
