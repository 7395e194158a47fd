import { useRef } from "preact/hooks";

export type Segment<V extends string> = { value: V; label: string; id?: string; title?: string };

type Props<V extends string> = {
  /** The group's accessible name. */
  label: string;
  value: V;
  options: Segment<V>[];
  onChange: (value: V) => void;
  id?: string;
  size?: "sm" | "md";
};

/**
 * One choice out of a few, side by side (a radio group): the chosen segment is the Tab stop,
 * arrows move the choice, as for radio buttons.
 */
export function SegmentedControl<V extends string>({ label, value, options, onChange, id, size = "md" }: Props<V>) {
  const ref = useRef<HTMLDivElement>(null);
  const choose = (i: number) => {
    const o = options[(i + options.length) % options.length];
    onChange(o.value);
    ref.current?.querySelectorAll<HTMLElement>("[role=radio]")[(i + options.length) % options.length]?.focus();
  };
  const at = options.findIndex((o) => o.value === value);
  return (
    <div
      id={id}
      ref={ref}
      role="radiogroup"
      aria-label={label}
      class={size === "sm" ? "segmented segmented-sm" : "segmented"}
      onKeyDown={(e) => {
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
        if (step === undefined) return;
        e.preventDefault();
        choose(at + step);
      }}
    >
      {options.map((o) => (
        <button
          key={o.value}
          id={o.id}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          title={o.title}
          tabIndex={o.value === value || (at < 0 && o === options[0]) ? 0 : -1}
          class="segment"
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
