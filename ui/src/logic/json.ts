// Small helpers for the untyped JSON the engine speaks (job properties are JsonValue).
import type { JsonValue } from "../ipc/types";

export type { JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The object at `v`, or an empty one: forms read optional sub-objects without null checks. */
export function obj(v: JsonValue | undefined): JsonObject {
  return isObject(v) ? v : {};
}

export function str(v: JsonValue | undefined): string {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
}

/** A number from a number or numeric string (the engine accepts both); null when absent. */
export function num(v: JsonValue | undefined): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** A list, accepting a single value where the docs allow one (`"hours": 5`). */
export function list(v: JsonValue | undefined): JsonValue[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** The fields of `o` a form does not edit, so they survive a round trip untouched. */
export function rest(o: JsonObject, known: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (!known.includes(k)) out[k] = v;
  return out;
}

/** Sets `key` only when `value` is meaningful, so empty inputs are omitted, not sent as "". */
export function put(o: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value === undefined || value === null || value === "") return;
  if (Array.isArray(value) && value.length === 0) return;
  o[key] = value;
}

export type KeyValue = { key: string; value: string };

export function toPairs(v: JsonValue | undefined): KeyValue[] {
  return Object.entries(obj(v)).map(([key, value]) => ({ key, value: str(value) }));
}

/** Rows with an empty name are half-typed rows: skipped rather than sent. */
export function fromPairs(rows: KeyValue[]): JsonObject | undefined {
  const out: JsonObject = {};
  for (const r of rows) if (r.key.trim() !== "") out[r.key.trim()] = r.value;
  return Object.keys(out).length ? out : undefined;
}
