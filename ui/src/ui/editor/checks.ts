// The editor's live checks: the preview (one animation frame after an edit) and validation
// (a moment after typing stops). Both keep one request in flight and drop superseded ones,
// so typing never waits on the backend.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type FieldError, type PreviewRequest, type PreviewResult, api, messageOf } from "../../ipc";
import type { JsonObject } from "../../logic/json";
import { nextShown } from "../../logic/previewState";
import { withoutStoredSecretErrors } from "../../logic/secrets";
import { coalesce } from "../../logic/timing";

function useMounted() {
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  return mounted;
}

/**
 * A job that is not Enabled has no runs; the builder previews what its schedule will do once
 * it is (the panel says so).
 */
function previewable(properties: JsonObject): JsonObject {
  return properties.state === "Enabled" ? properties : { ...properties, state: "Enabled" };
}

export type Preview = ReturnType<typeof usePreview>;

/** `collection`: the job's, whose calendars its blackouts may name (resolved by the engine). */
export function usePreview(properties: JsonObject, secretsSet: readonly string[], collection: string | null) {
  const mounted = useMounted();
  const [count, setCount] = useState(10);
  const [month, setMonth] = useState<string | null>(null);
  const [latest, setLatest] = useState<PreviewResult | null>(null);
  const [good, setGood] = useState<PreviewResult | null>(null);
  const [failure, setFailure] = useState("");
  const [pending, setPending] = useState(false);
  const newest = useRef<PreviewRequest | null>(null);

  const runner = useMemo(
    () =>
      coalesce(
        (req: PreviewRequest) => api.previewJob(req),
        (r, req) => {
          if (!mounted.current) return;
          setLatest(r);
          setGood((good) => nextShown(r, good));
          setFailure("");
          if (req === newest.current) setPending(false);
        },
        (e, req) => {
          if (!mounted.current) return;
          setFailure(messageOf(e));
          if (req === newest.current) setPending(false);
        },
      ),
    [],
  );

  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const req: PreviewRequest = { properties: previewable(properties), count, month, collection };
      newest.current = req;
      setPending(true);
      runner.run(req);
    });
    return () => cancelAnimationFrame(frame);
  }, [properties, count, month, collection]);

  const errors = useMemo(
    () => (latest ? withoutStoredSecretErrors(latest.errors, secretsSet, properties) : []),
    [latest, secretsSet, properties],
  );
  return {
    count,
    setCount,
    month,
    setMonth,
    latest,
    good,
    failure,
    pending,
    errors,
    disabled: properties.state !== "Enabled",
  };
}

/**
 * validateJob a short pause after the last edit, as saving into `collection` would judge it;
 * `[]` while `active` is false.
 */
export function useValidation(
  properties: JsonObject,
  active: boolean,
  secretsSet: readonly string[],
  collection: string | null,
  pauseMs = 300,
): FieldError[] {
  const mounted = useMounted();
  const [errors, setErrors] = useState<{ for: JsonObject; errors: FieldError[] } | null>(null);
  const runner = useMemo(
    () =>
      coalesce(
        (p: { collection: string | null; properties: JsonObject }) => api.validateJob(p.collection, p.properties),
        (errs, p) => {
          if (mounted.current) setErrors({ for: p.properties, errors: errs });
        },
        () => {
          /* the preview and Save report what matters; a failed check is not news */
        },
      ),
    [],
  );
  useEffect(() => {
    if (!active) return;
    const t = setTimeout(() => runner.run({ collection, properties }), pauseMs);
    return () => clearTimeout(t);
  }, [properties, active, collection]);
  return useMemo(
    () => (active && errors ? withoutStoredSecretErrors(errors.errors, secretsSet, errors.for) : []),
    [active, errors, secretsSet],
  );
}
