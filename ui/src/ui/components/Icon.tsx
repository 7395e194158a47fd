import type { IconNode } from "lucide";

type Props = { icon: IconNode; size?: number; class?: string };

/**
 * A lucide icon from its data (`import { Trash2 } from "lucide"`): lucide-preact wants Preact 10,
 * so the SVG is drawn here. Decorative: the button or text beside it carries the name.
 */
export function Icon({ icon, size = 16, class: cls }: Props) {
  return (
    <svg
      class={cls ? `icon ${cls}` : "icon"}
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {icon.map(([tag, attrs], i) => {
        const Tag = tag as "path";
        return <Tag key={i} {...(attrs as Record<string, string>)} />;
      })}
    </svg>
  );
}
