import type { KeyValue } from "../../logic/json";
import { FieldGroup } from "./fields";
import { Button } from "../components/Button";

type Props = { id: string; legend: string; noun: string; rows: KeyValue[]; onChange: (rows: KeyValue[]) => void };

/** Name/value rows (HTTP headers, custom message properties); rows without a name are not sent. */
export function KeyValueEditor({ id, legend, noun, rows, onChange }: Props) {
  const setRow = (i: number, row: KeyValue) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <FieldGroup id={id} legend={legend}>
      {rows.map((r, i) => (
        <div class="kv-row" key={i}>
          <input
            id={`${id}-key-${i}`}
            aria-label={`${noun} ${i + 1} name`}
            placeholder="Name"
            value={r.key}
            spellcheck={false}
            onInput={(e) => setRow(i, { ...r, key: e.currentTarget.value })}
          />
          <input
            id={`${id}-value-${i}`}
            aria-label={`${noun} ${i + 1} value`}
            placeholder="Value"
            value={r.value}
            spellcheck={false}
            onInput={(e) => setRow(i, { ...r, value: e.currentTarget.value })}
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove ${noun.toLowerCase()} ${r.key || i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            ×
          </Button>
        </div>
      ))}
      <Button size="sm" id={`${id}-add`} onClick={() => onChange([...rows, { key: "", value: "" }])}>
        Add {noun.toLowerCase()}
      </Button>
    </FieldGroup>
  );
}
