import type { ButtonHTMLAttributes, Ref } from "preact";
import type { IconNode } from "lucide";
import { Icon } from "./Icon";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
export type ButtonSize = "sm" | "md";

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "size" | "icon"> & {
  /** primary: the one main action of a view; secondary: the rest; ghost: toolbars; danger: destroys. */
  variant?: ButtonVariant;
  /** md is 32 px, sm 24 px: the window's only two button heights. */
  size?: ButtonSize;
  icon?: IconNode;
  ref?: Ref<HTMLButtonElement>;
};

export function buttonClass(variant: ButtonVariant = "secondary", size: ButtonSize = "md", extra?: unknown): string {
  return ["btn", `btn-${variant}`, size === "sm" ? "btn-sm" : "", typeof extra === "string" ? extra : ""]
    .filter(Boolean)
    .join(" ");
}

export function Button({
  variant = "secondary",
  size = "md",
  icon,
  class: cls,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  return (
    <button type={type} class={buttonClass(variant, size, cls)} {...rest}>
      {icon && <Icon icon={icon} size={size === "sm" ? 14 : 16} />}
      {children}
    </button>
  );
}
