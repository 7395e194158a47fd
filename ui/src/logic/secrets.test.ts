import { describe, expect, it } from "vitest";
import type { FieldError } from "../ipc/types";
import { type JsonValue, isObject } from "./json";
import { type JobForm, fromProperties, toProperties } from "./jobForm";
import { STORED_PLACEHOLDER, secretPlaceholder, withoutStoredSecretErrors } from "./secrets";

type Case = {
  name: string;
  /** A saved job's properties as the backend returns them: never with a secret. */
  saved: JsonValue;
  secretsSet: string[];
  edit?: (f: JobForm) => JobForm;
  /** Paths (from properties) that must / must not be in what is sent. */
  sent: string[];
  omitted: string[];
  /** Placeholder expected on the input of each path. */
  placeholders?: Record<string, string>;
  /** Engine errors about the sent properties, and the paths that must remain after filtering. */
  errors?: { all: string[]; kept: string[] };
};

function has(root: JsonValue, path: string): boolean {
  let cur: JsonValue | undefined = root;
  for (const k of path.split(".")) cur = isObject(cur) ? cur[k] : undefined;
  return cur !== undefined;
}

function check(c: Case) {
  const form = (c.edit ?? ((f) => f))(fromProperties(c.saved));
  const sent = toProperties(form);
  for (const p of c.sent) expect(has(sent, p), `${p} sent`).toBe(true);
  for (const p of c.omitted) expect(has(sent, p), `${p} omitted`).toBe(false);
  for (const [p, text] of Object.entries(c.placeholders ?? {})) expect(secretPlaceholder(c.secretsSet, p)).toBe(text);
  if (c.errors) {
    const errors: FieldError[] = c.errors.all.map((path) => ({ path, code: "BadRequest", message: "required" }));
    expect(withoutStoredSecretErrors(errors, c.secretsSet, sent).map((e) => e.path)).toEqual(c.errors.kept);
  }
}

const basic = {
  state: "Enabled",
  action: {
    type: "Http",
    request: { uri: "https://a.invalid", method: "GET", authentication: { type: "Basic", username: "ops" } },
  },
};
const PW = "action.request.authentication.password";

const cases: Case[] = [
  {
    name: "a stored password left empty is omitted, and its input says it is stored",
    saved: basic,
    secretsSet: [`properties.${PW}`],
    sent: ["action.request.authentication.username"],
    omitted: [PW],
    placeholders: { [PW]: STORED_PLACEHOLDER, [`properties.${PW}`]: STORED_PLACEHOLDER },
    errors: { all: [`properties.${PW}`, "properties.action.request.uri"], kept: ["properties.action.request.uri"] },
  },
  {
    name: "a typed password replaces the stored one, and its errors are real",
    saved: basic,
    secretsSet: [PW],
    edit: (f) => ({
      ...f,
      action: { ...f.action, http: { ...f.action.http, auth: { ...f.action.http.auth, password: "new" } } },
    }),
    sent: [PW],
    omitted: [],
    errors: { all: [`properties.${PW}`], kept: [`properties.${PW}`] },
  },
  {
    name: "no stored secret: no placeholder, and a missing one is reported",
    saved: basic,
    secretsSet: [],
    sent: [],
    omitted: [PW],
    placeholders: { [PW]: "" },
    errors: { all: [`properties.${PW}`], kept: [`properties.${PW}`] },
  },
  {
    name: "storage queue SAS token and the error action's Service Bus key",
    saved: {
      state: "Enabled",
      action: {
        type: "StorageQueue",
        queueMessage: { storageAccount: "acct", queueName: "q" },
        errorAction: {
          type: "ServiceBusQueue",
          serviceBusQueueMessage: {
            namespace: "ns",
            queueName: "q",
            authentication: { sasKeyName: "k", type: "SharedAccessKey" },
          },
        },
      },
    },
    secretsSet: ["action.queueMessage.sasToken", "action.errorAction.serviceBusQueueMessage.authentication.sasKey"],
    sent: ["action.queueMessage.storageAccount", "action.errorAction.serviceBusQueueMessage.authentication.sasKeyName"],
    omitted: ["action.queueMessage.sasToken", "action.errorAction.serviceBusQueueMessage.authentication.sasKey"],
    placeholders: {
      "action.queueMessage.sasToken": STORED_PLACEHOLDER,
      "action.errorAction.serviceBusQueueMessage.authentication.sasKey": STORED_PLACEHOLDER,
    },
    errors: {
      all: [
        "properties.action.queueMessage.sasToken",
        "properties.action.errorAction.serviceBusQueueMessage.authentication.sasKey",
      ],
      kept: [],
    },
  },
  {
    name: "an empty certificate and its password are omitted",
    saved: {
      state: "Enabled",
      action: {
        type: "Http",
        request: {
          uri: "https://a.invalid",
          method: "GET",
          authentication: { type: "ClientCertificate", certificateThumbprint: "AB" },
        },
      },
    },
    secretsSet: ["action.request.authentication.pfx", PW],
    sent: ["action.request.authentication.type"],
    omitted: ["action.request.authentication.pfx", PW, "action.request.authentication.certificateThumbprint"],
  },
];

describe("secrets", () => {
  for (const c of cases) it(c.name, () => check(c));
});
