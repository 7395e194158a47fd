import type { TargetedEvent } from "preact";

/** `lang`: the option is written in that language (a language's own name), not translated. */
export type Option = { value: string; label: string; lang?: string };

type Props = {
  id?: string;
  value: string;
  onChange: (e: TargetedEvent<HTMLSelectElement>) => void;
  "aria-label"?: string;
  "aria-invalid"?: "true";
  "aria-describedby"?: string;
  disabled?: boolean;
  class?: string;
  options: Option[];
  /** sm: 24 px, for toolbars; md: 32 px. */
  size?: "sm" | "md";
  /** Inline: as wide as its longest option, not the whole row. */
  inline?: boolean;
};

/** A native <select> on the tokens (one height with inputs and buttons). */
export function Select({ options, size = "md", inline = false, class: cls, ...rest }: Props) {
  const classes = ["select", size === "sm" ? "select-sm" : "", inline ? "select-inline" : "", cls ?? ""];
  return (
    <select class={classes.filter(Boolean).join(" ")} {...rest}>
      {options.map((o) => (
        <option key={o.value} value={o.value} lang={o.lang} translate={o.lang ? false : undefined}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
