import type { IconNode } from "lucide";
import { Button, type ButtonProps } from "./Button";

type Props = Omit<ButtonProps, "icon" | "children"> & {
  icon: IconNode;
  /** The button's name for screen readers, also its tooltip. */
  label: string;
};

/** A square button with only an icon: `label` names it (aria-label and title). */
export function IconButton({ icon, label, variant = "ghost", class: cls, ...rest }: Props) {
  return (
    <Button
      variant={variant}
      icon={icon}
      aria-label={label}
      title={label}
      class={typeof cls === "string" ? `btn-icon ${cls}` : "btn-icon"}
      {...rest}
    />
  );
}
