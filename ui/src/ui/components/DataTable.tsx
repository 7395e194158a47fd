import type { ComponentChildren, TargetedKeyboardEvent } from "preact";
import { useRef } from "preact/hooks";
import { type SelectMode, rowAfterKey, selectAll, selectRow } from "./selection";

export type Column<T> = {
  /** The cells' class (tests read `.next-run`, `.executions`…). */
  key: string;
  header: ComponentChildren;
  cell: (row: T) => ComponentChildren;
  /** The row's name cell: a <th scope="row">, one line with an ellipsis. */
  rowHeader?: boolean;
  /** Numbers: right-aligned, tabular. */
  numeric?: boolean;
  sort?: "ascending" | "descending" | "none";
  /** A fixed width (CSS), for short columns; the rest share what is left. */
  width?: string;
};

type Props<T> = {
  id: string;
  /** The grid's accessible name. */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** The row's data-testid. */
  rowTestId?: (row: T) => string;
  columns: Column<T>[];
  selected: ReadonlySet<string>;
  onSelectionChange: (next: Set<string>) => void;
  /** Double-click or Enter on a row. */
  onOpen: (key: string) => void;
  /** Other keys on a focused row (Delete…); return true when handled. */
  onRowKey?: (key: string, e: TargetedKeyboardEvent<HTMLTableRowElement>) => boolean;
  /** A checkbox column: the accessible name of each row's box and of the header's. */
  checkboxes?: { row: (row: T) => string; all: string; allId?: string };
};

/**
 * A table of rows to select and open (role=grid, aria-multiselectable): a click selects the row,
 * Ctrl/Cmd+click adds or removes it, Shift+click adds the range; double-click or Enter opens it.
 * Up/Down, Home and End move between rows; Space toggles; the checkboxes select without the keyboard.
 */
export function DataTable<T>(p: Props<T>) {
  const keys = p.rows.map(p.rowKey);
  const anchor = useRef<string | null>(null);
  const table = useRef<HTMLTableElement>(null);
  const select = (key: string, mode: SelectMode) => {
    p.onSelectionChange(selectRow(p.selected, keys, key, anchor.current, mode));
    if (mode !== "range") anchor.current = key;
  };
  const focusRow = (key: string) =>
    [...(table.current?.querySelectorAll<HTMLElement>("tbody > tr") ?? [])].find((r) => r.dataset.key === key)?.focus();
  const all = keys.length > 0 && keys.every((k) => p.selected.has(k));
  return (
    <div class="table-scroll">
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table of selectable rows is an ARIA grid (APG "Data Grid"). */}
      <table id={p.id} ref={table} role="grid" aria-label={p.label} aria-multiselectable="true" class="data-table">
        <colgroup>
          {p.checkboxes && <col style={{ width: "36px" }} />}
          {p.columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {p.checkboxes && (
              <th scope="col" class="select-cell">
                <input
                  type="checkbox"
                  id={p.checkboxes.allId}
                  aria-label={p.checkboxes.all}
                  checked={all}
                  onChange={() => p.onSelectionChange(selectAll(p.selected, keys))}
                />
              </th>
            )}
            {p.columns.map((c) => (
              <th key={c.key} scope="col" class={c.numeric ? `${c.key} num` : c.key} aria-sort={c.sort}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.rows.map((row) => {
            const key = p.rowKey(row);
            const on = p.selected.has(key);
            return (
              <tr
                key={key}
                data-key={key}
                data-testid={p.rowTestId?.(row)}
                tabIndex={0}
                aria-selected={on}
                class={on ? "selected" : undefined}
                onClick={(e) => {
                  const t = e.target as HTMLElement;
                  if (t.closest("a, button, input:not([data-select])")) return;
                  if (t.closest(".select-cell")) {
                    // The whole checkbox cell toggles: a click just beside the box never selects only this row.
                    if (!t.matches("input")) select(key, e.shiftKey ? "range" : "toggle");
                    return;
                  }
                  select(key, e.shiftKey ? "range" : e.ctrlKey || e.metaKey ? "toggle" : "only");
                }}
                onDblClick={(e) => {
                  if ((e.target as HTMLElement).closest(".select-cell, a, button, input")) return;
                  p.onOpen(key);
                }}
                onKeyDown={(e) => {
                  if (e.target !== e.currentTarget) return;
                  const next = rowAfterKey(keys, key, e.key);
                  if (next !== null) {
                    e.preventDefault();
                    focusRow(next);
                  } else if (e.key === "Enter") {
                    e.preventDefault();
                    p.onOpen(key);
                  } else if (e.key === " ") {
                    e.preventDefault();
                    select(key, e.shiftKey ? "range" : "toggle");
                  } else if (p.onRowKey?.(key, e)) {
                    e.preventDefault();
                  }
                }}
              >
                {p.checkboxes && (
                  <td class="select-cell">
                    <input
                      type="checkbox"
                      data-select
                      tabIndex={-1}
                      aria-label={p.checkboxes.row(row)}
                      checked={on}
                      onClick={(e) => select(key, e.shiftKey ? "range" : "toggle")}
                    />
                  </td>
                )}
                {p.columns.map((c) =>
                  c.rowHeader ? (
                    <th key={c.key} scope="row" class={`${c.key} cell-name`}>
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={c.key} class={c.numeric ? `${c.key} num` : c.key}>
                      {c.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
