import type { ComponentChildren } from "preact";
import { Menu } from "./Menu";
import type { MenuEntry } from "./MenuList";
import { i18n } from "../../i18n";

export type Crumb = { label: string; href: string };

type Props = {
  /** The h1's id (tests and aria-labelledby use it). */
  titleId: string;
  title: ComponentChildren;
  /** The trail above the title, outermost first; the current page is the title itself. */
  breadcrumbs?: Crumb[];
  /** The page's buttons: one primary at most. */
  actions?: ComponentChildren;
  /** The "…" menu's items, and its trigger's id and accessible name. */
  menu?: { id: string; label: string; items: MenuEntry[] };
  /** Under the title (a status line). */
  children?: ComponentChildren;
};

/** The top of every page: breadcrumbs, the title, its actions and a "…" menu for the rest. */
export function PageHeader({ titleId, title, breadcrumbs, actions, menu, children }: Props) {
  return (
    <header class="page-header">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <nav aria-label={i18n._("Breadcrumb")} class="breadcrumbs">
          <ol>
            {breadcrumbs.map((c) => (
              <li key={c.href}>
                <a href={c.href}>{c.label}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div class="page-header-row">
        <h1 id={titleId} class="page-title">
          {title}
        </h1>
        {(actions || menu) && (
          <div class="page-actions">
            {actions}
            {menu && <Menu id={menu.id} label={menu.label} items={menu.items} />}
          </div>
        )}
      </div>
      {children}
    </header>
  );
}
