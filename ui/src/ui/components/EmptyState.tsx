import type { IconNode } from "lucide";
import type { ComponentChildren } from "preact";
import { Icon } from "./Icon";

type Props = { title: string; icon?: IconNode; children?: ComponentChildren; actions?: ComponentChildren; id?: string };

/** What a view shows when it has nothing yet: an h2 (smaller than the page's h1), a line or two, the next step. */
export function EmptyState({ title, icon, children, actions, id }: Props) {
  return (
    <section class="empty-state" id={id} aria-label={title}>
      {icon && <Icon icon={icon} size={24} class="empty-state-icon" />}
      <h2>{title}</h2>
      {children}
      {actions && <div class="empty-state-actions">{actions}</div>}
    </section>
  );
}
