import { X } from "lucide";
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { i18n } from "../../i18n";
import { IconButton } from "./IconButton";

type Props = {
  /** The <dialog>'s id: tests and styles look for `#id[open]`. */
  id: string;
  open: boolean;
  onClose: () => void;
  title: string;
  children: ComponentChildren;
  /** wide: import, export, calendars (tables and columns inside). */
  size?: "normal" | "wide";
};

/**
 * A native modal <dialog>: it traps focus, Escape closes it (the browser's `cancel`), and the
 * focus goes back to what opened it. Put the buttons in a `<footer class="dialog-actions">`.
 */
export function Dialog({ id, open, onClose, title, children, size = "normal" }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement as HTMLElement | null;
      d.showModal();
    }
    if (!open && d.open) d.close();
    if (!open && opener.current) {
      // The opener may be gone (a menu item): then the focus stays where the browser puts it.
      if (opener.current.isConnected) opener.current.focus();
      opener.current = null;
    }
  }, [open]);
  return (
    <dialog id={id} ref={ref} class={`dialog dialog-${size}`} aria-labelledby={`${id}-title`} onClose={onClose}>
      {open && (
        <article>
          <header class="dialog-header">
            <h2 id={`${id}-title`}>{title}</h2>
            <IconButton icon={X} label={i18n._("Close")} class="close" onClick={onClose} />
          </header>
          {children}
        </article>
      )}
    </dialog>
  );
}
