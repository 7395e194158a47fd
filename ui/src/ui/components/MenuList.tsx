import type { IconNode } from "lucide";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { Icon } from "./Icon";

export type MenuAction = {
  /** The item's element id (tests and the palette find items by it). */
  id?: string;
  label: string;
  onSelect: () => void;
  icon?: IconNode;
  danger?: boolean;
  disabled?: boolean;
};
export type MenuEntry = MenuAction | "separator";

type Props = {
  id?: string;
  label: string;
  items: MenuEntry[];
  /** Where the menu's top-left corner goes (viewport pixels); it is kept inside the window. */
  at: { x: number; y: number; alignRight?: boolean };
  /** `restoreFocus` false when the focus already moved on (a click elsewhere, Tab). */
  onClose: (restoreFocus: boolean) => void;
};

/** The item a key moves to from `from` among the enabled ones (wrapping), or null for other keys. */
export function nextItem(enabled: number[], from: number, key: string): number | null {
  if (enabled.length === 0) return null;
  const at = enabled.indexOf(from);
  switch (key) {
    case "ArrowDown":
      return enabled[(at + 1) % enabled.length];
    case "ArrowUp":
      return enabled[at <= 0 ? enabled.length - 1 : at - 1];
    case "Home":
      return enabled[0];
    case "End":
      return enabled[enabled.length - 1];
    default:
      return null;
  }
}

/**
 * An open menu (role="menu"): focus starts on the first item; arrows, Home and End move; Enter
 * or Space chooses; Escape closes and gives the focus back; Tab or a click outside closes.
 */
export function MenuList({ id, label, items, at, onClose }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  const enabled = items.flatMap((e, i) => (e !== "separator" && !e.disabled ? [i] : []));
  const focusItem = (i: number) => ref.current?.querySelector<HTMLElement>(`[data-index="${i}"]`)?.focus();

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    const left = at.alignRight ? at.x - r.width : at.x;
    setPos({
      left: Math.max(4, Math.min(left, innerWidth - r.width - 4)),
      top: Math.max(4, at.y + r.height > innerHeight - 4 ? innerHeight - r.height - 4 : at.y),
    });
    if (enabled.length) focusItem(enabled[0]);
  }, []);

  useEffect(() => {
    const outside = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) onClose(false);
    };
    const blur = () => onClose(false);
    document.addEventListener("pointerdown", outside, true);
    addEventListener("blur", blur);
    addEventListener("resize", blur);
    return () => {
      document.removeEventListener("pointerdown", outside, true);
      removeEventListener("blur", blur);
      removeEventListener("resize", blur);
    };
  }, [onClose]);

  return (
    <div
      id={id}
      ref={ref}
      role="menu"
      aria-label={label}
      class="menu"
      tabIndex={-1}
      style={pos ? { left: `${pos.left}px`, top: `${pos.top}px` } : { left: "0px", top: "0px", visibility: "hidden" }}
      onKeyDown={(e) => {
        const current = Number((document.activeElement as HTMLElement | null)?.dataset.index ?? -1);
        const next = nextItem(enabled, current, e.key);
        if (next !== null) {
          e.preventDefault();
          focusItem(next);
        } else if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onClose(true);
        } else if (e.key === "Tab") {
          e.preventDefault();
          onClose(true);
        }
      }}
    >
      {items.map((item, i) =>
        item === "separator" ? (
          <div key={`sep-${i}`} role="separator" class="menu-separator" />
        ) : (
          <button
            key={item.id ?? item.label}
            id={item.id}
            type="button"
            role="menuitem"
            data-index={i}
            tabIndex={-1}
            class={item.danger ? "menu-item danger" : "menu-item"}
            disabled={item.disabled}
            aria-disabled={item.disabled ? "true" : undefined}
            onClick={() => {
              onClose(true);
              item.onSelect();
            }}
          >
            <span class="menu-icon">{item.icon && <Icon icon={item.icon} />}</span>
            <span class="menu-label">{item.label}</span>
          </button>
        ),
      )}
    </div>
  );
}
