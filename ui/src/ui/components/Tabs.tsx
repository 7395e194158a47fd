import { useRef } from "preact/hooks";

export type Tab<V extends string> = { value: V; label: string; id: string; panel: string };

type Props<V extends string> = { label: string; tabs: Tab<V>[]; value: V; onChange: (value: V) => void };

/** A tab list (role=tablist): the chosen tab is the Tab stop, Left/Right/Home/End move between tabs. */
export function Tabs<V extends string>({ label, tabs, value, onChange }: Props<V>) {
  const ref = useRef<HTMLDivElement>(null);
  const at = tabs.findIndex((t) => t.value === value);
  const go = (i: number) => {
    const n = (i + tabs.length) % tabs.length;
    onChange(tabs[n].value);
    ref.current?.querySelectorAll<HTMLElement>("[role=tab]")[n]?.focus();
  };
  return (
    <div
      ref={ref}
      class="tabs"
      role="tablist"
      aria-label={label}
      onKeyDown={(e) => {
        const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        go(to);
      }}
    >
      {tabs.map((t) => (
        <button
          key={t.value}
          id={t.id}
          type="button"
          role="tab"
          class="tab"
          aria-selected={t.value === value}
          aria-controls={t.panel}
          tabIndex={t.value === value ? 0 : -1}
          onClick={() => onChange(t.value)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
