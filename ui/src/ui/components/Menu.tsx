import type { IconNode } from "lucide";
import { Ellipsis } from "lucide";
import { useCallback, useRef, useState } from "preact/hooks";
import { Button, type ButtonVariant } from "./Button";
import { type MenuEntry, MenuList } from "./MenuList";

type Props = {
  /** The trigger button's id; the menu's is `${id}-menu`. */
  id: string;
  /** The trigger's accessible name (and tooltip). */
  label: string;
  items: MenuEntry[];
  /** Text on the trigger; without it the trigger is an icon ("…" by default). */
  text?: string;
  icon?: IconNode;
  variant?: ButtonVariant;
};

/** A button that opens a menu under it (aria-haspopup); Escape or choosing gives the focus back to it. */
export function Menu({ id, label, items, text, icon, variant = "secondary" }: Props) {
  const trigger = useRef<HTMLButtonElement>(null);
  const [at, setAt] = useState<{ x: number; y: number; alignRight: boolean } | null>(null);
  const open = () => {
    const r = trigger.current!.getBoundingClientRect();
    setAt({ x: r.right, y: r.bottom + 4, alignRight: true });
  };
  const close = useCallback((restore: boolean) => {
    setAt(null);
    if (restore) trigger.current?.focus();
  }, []);
  return (
    <>
      <Button
        ref={trigger}
        id={id}
        variant={variant}
        icon={icon ?? (text ? undefined : Ellipsis)}
        class={text ? undefined : "btn-icon"}
        aria-label={text ? undefined : label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={at !== null}
        aria-controls={at ? `${id}-menu` : undefined}
        onClick={() => (at ? close(false) : open())}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && !at) {
            e.preventDefault();
            open();
          }
        }}
      >
        {text}
      </Button>
      {at && <MenuList id={`${id}-menu`} label={label} items={items} at={at} onClose={close} />}
    </>
  );
}
