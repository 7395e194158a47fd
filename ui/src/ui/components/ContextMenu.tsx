import type { TargetedKeyboardEvent, TargetedMouseEvent } from "preact";
import { useCallback, useRef, useState } from "preact/hooks";
import { type MenuEntry, MenuList } from "./MenuList";

/**
 * A right-click menu: spread `onContextMenu` (and `onKeyDown`, for Shift+F10 and the Menu key)
 * on the element it belongs to and render `menu`. The focus goes back to that element after.
 */
export function useContextMenu(id: string, label: string, items: () => MenuEntry[]) {
  const [at, setAt] = useState<{ x: number; y: number } | null>(null);
  const owner = useRef<HTMLElement | null>(null);
  const close = useCallback((restore: boolean) => {
    setAt(null);
    if (restore) owner.current?.focus();
  }, []);
  const onContextMenu = (e: TargetedMouseEvent<HTMLElement>) => {
    e.preventDefault();
    owner.current = e.currentTarget;
    setAt({ x: e.clientX, y: e.clientY });
  };
  const onKeyDown = (e: TargetedKeyboardEvent<HTMLElement>) => {
    if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
      e.preventDefault();
      owner.current = e.currentTarget;
      const r = e.currentTarget.getBoundingClientRect();
      setAt({ x: r.left + 8, y: r.bottom });
    }
  };
  const menu = at ? <MenuList id={id} label={label} items={items()} at={at} onClose={close} /> : null;
  return { onContextMenu, onKeyDown, menu, open: at !== null };
}
