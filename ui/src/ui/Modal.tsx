import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

type Props = { id: string; open: boolean; onClose: () => void; title: string; children: ComponentChildren };

/** A native modal <dialog>: it traps focus, and Escape closes it (the browser's `cancel`). */
export function Modal({ id, open, onClose, title, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog id={id} ref={ref} aria-labelledby={`${id}-title`} onClose={onClose}>
      {open && (
        <article>
          <header>
            <button type="button" aria-label="Close" class="close" onClick={onClose} />
            <h3 id={`${id}-title`}>{title}</h3>
          </header>
          {children}
        </article>
      )}
    </dialog>
  );
}
