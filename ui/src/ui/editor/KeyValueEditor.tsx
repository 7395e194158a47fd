import { i18n } from "@lingui/core";
import type { KeyValue } from "../../logic/json";
import { FieldGroup } from "./fields";
import { Button } from "../components/Button";

/** What a row's controls say, whole phrases per kind of row (a header, a property). */
export type KeyValueLabels = {
  /** The name input of row `n` (1-based), e.g. "Header 1 name". */
  name: (n: number) => string;
  value: (n: number) => string;
  /** The remove button of the row named `which` (its name, or its number). */
  remove: (which: string) => string;
  add: string;
};

type Props = {
  id: string;
  legend: string;
  labels: KeyValueLabels;
  rows: KeyValue[];
  onChange: (rows: KeyValue[]) => void;
};

/** Name/value rows (HTTP headers, custom message properties); rows without a name are not sent. */
export function KeyValueEditor({ id, legend, labels, rows, onChange }: Props) {
  const setRow = (i: number, row: KeyValue) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <FieldGroup id={id} legend={legend}>
      {rows.map((r, i) => (
        <div class="kv-row" key={i}>
          <input
            id={`${id}-key-${i}`}
            aria-label={labels.name(i + 1)}
            placeholder={i18n._("Name")}
            value={r.key}
            spellcheck={false}
            onInput={(e) => setRow(i, { ...r, key: e.currentTarget.value })}
          />
          <input
            id={`${id}-value-${i}`}
            aria-label={labels.value(i + 1)}
            placeholder={i18n._("Value")}
            value={r.value}
            spellcheck={false}
            onInput={(e) => setRow(i, { ...r, value: e.currentTarget.value })}
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={labels.remove(r.key || String(i + 1))}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            ×
          </Button>
        </div>
      ))}
      <Button size="sm" id={`${id}-add`} onClick={() => onChange([...rows, { key: "", value: "" }])}>
        {labels.add}
      </Button>
    </FieldGroup>
  );
}
