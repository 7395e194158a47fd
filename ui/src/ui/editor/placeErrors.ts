import { useLayoutEffect, useState } from "preact/hooks";
import type { FieldError } from "../../ipc";

/**
 * Errors whose field is not on screen (another tab, a hidden sub-form) would vanish; after each
 * render they are moved to the summary instead, and a collapsed section holding one is opened.
 */
export function useUnplacedErrors(byField: Record<string, FieldError[]>): FieldError[] {
  const [unplaced, setUnplaced] = useState<FieldError[]>([]);
  useLayoutEffect(() => {
    for (const id of Object.keys(byField)) {
      const details = document.getElementById(id)?.closest("details");
      if (details && !details.open) details.open = true;
    }
    const missing = Object.entries(byField)
      .filter(([id]) => !document.getElementById(id))
      .flatMap(([, errs]) => errs);
    const key = (l: FieldError[]) => l.map((e) => e.path + e.message).join("\n");
    if (key(missing) !== key(unplaced)) setUnplaced(missing);
  });
  return unplaced;
}
