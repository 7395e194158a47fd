// Secrets in the editor. The engine never returns a stored secret (JobDetail.properties has
// none; `secretsSet` names the stored ones), so for a saved job a secret input starts empty with
// a "stored" placeholder, and an input left empty is omitted from what is saved: the backend then
// keeps the stored value. Typing a value replaces it.
import { i18n } from "@lingui/core";
import type { FieldError } from "../ipc/types";
import type { JsonValue } from "./json";
import { isObject } from "./json";

/** A catalog id: show it through `i18n._` (as `secretPlaceholder` does). */
export const STORED_PLACEHOLDER = /*i18n*/ "•••••• (stored)";

/** Every secret field, relative to an action (the main one or its errorAction). */
export const SECRET_FIELDS = [
  "request.authentication.password",
  "request.authentication.pfx",
  "request.authentication.secret",
  "queueMessage.sasToken",
  "serviceBusQueueMessage.authentication.sasKey",
  "serviceBusTopicMessage.authentication.sasKey",
] as const;

/** The value to send for a secret input: nothing when empty. */
export function secretOut(value: string): string | undefined {
  return value === "" ? undefined : value;
}

/** Paths may come rooted at `properties.` (like FieldError paths) or not. */
export function normalizePath(path: string): string {
  return path.replace(/^properties\./, "");
}

export function isStored(secretsSet: readonly string[], path: string): boolean {
  const p = normalizePath(path);
  return secretsSet.some((s) => normalizePath(s) === p);
}

export function secretPlaceholder(secretsSet: readonly string[], path: string): string {
  return isStored(secretsSet, path) ? i18n._(STORED_PLACEHOLDER) : "";
}

function valueAt(root: JsonValue, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = root;
  for (const key of normalizePath(path).split(".")) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/**
 * Drops the "required" errors of secrets that are stored but were (rightly) not sent:
 * validateJob and previewJob see only the properties, not what the backend keeps.
 */
export function withoutStoredSecretErrors(
  errors: FieldError[],
  secretsSet: readonly string[],
  sent: JsonValue,
): FieldError[] {
  return errors.filter((e) => !(isStored(secretsSet, e.path) && valueAt(sent, e.path) === undefined));
}
