// An action's form state (main action or error action) and its JSON (spec §5.1–§5.4, §7, §8,
// plus the Kairos `Notification` and `Command` actions and `Exponential` retries).
import { ACTION_TYPES, AUTH_TYPES, HTTP_METHODS, RETRY_TYPES, SB_AUTH_TYPES, TRANSPORT_TYPES, canon } from "./enums";
import { type JsonObject, type JsonValue, type KeyValue, fromPairs, num, obj, put, rest, str, toPairs } from "./json";
import { secretOut } from "./secrets";

export type AuthForm = {
  /** "" = no `authentication` object. */
  type: string;
  username: string;
  password: string;
  pfx: string;
  certPassword: string;
  tenant: string;
  audience: string;
  clientId: string;
  secret: string;
  /** What the engine reports about a stored certificate (read-only, never sent back). */
  certInfo: { thumbprint: string; subject: string; expires: string };
  extra: JsonObject;
};

export type HttpForm = {
  method: string;
  uri: string;
  body: string;
  headers: KeyValue[];
  auth: AuthForm;
  extra: JsonObject;
};
export type QueueForm = {
  storageAccount: string;
  queueName: string;
  sasToken: string;
  message: string;
  extra: JsonObject;
};
export type ServiceBusForm = {
  namespace: string;
  queueName: string;
  topicPath: string;
  transportType: string;
  keyName: string;
  key: string;
  authType: string;
  message: string;
  custom: KeyValue[];
  /** Edited in the JSON tab only; kept as given. */
  brokered: JsonValue | undefined;
  authExtra: JsonObject;
  extra: JsonObject;
};
export type NotificationForm = { title: string; body: string; extra: JsonObject };
/**
 * The Command action, as text a person edits: `arguments` one per line, `environment` as
 * NAME=value lines, `successExitCodes` as "0, 3". The engine checks the values and reports
 * errors on their field path.
 */
export type CommandForm = {
  program: string;
  arguments: string;
  shell: boolean;
  workingDirectory: string;
  environment: string;
  timeout: string;
  successExitCodes: string;
  extra: JsonObject;
};
export type RetryForm = {
  /** "" = no `retryPolicy` (the engine's default: Fixed, PT30S, 4 retries). */
  type: string;
  interval: string;
  count: number | null;
  multiplier: number | null;
  maxInterval: string;
  extra: JsonObject;
};
export type ActionForm = {
  type: string;
  http: HttpForm;
  queue: QueueForm;
  serviceBus: ServiceBusForm;
  notification: NotificationForm;
  command: CommandForm;
  retry: RetryForm;
  extra: JsonObject;
};

const KNOWN_ACTION = [
  "type",
  "request",
  "queueMessage",
  "serviceBusQueueMessage",
  "serviceBusTopicMessage",
  "notification",
  "command",
  "retryPolicy",
  "errorAction",
];
const KNOWN_COMMAND = [
  "program",
  "arguments",
  "shell",
  "workingDirectory",
  "environment",
  "timeout",
  "successExitCodes",
];
const KNOWN_AUTH = [
  "type",
  "username",
  "password",
  "pfx",
  "tenant",
  "audience",
  "clientId",
  "secret",
  "certificateThumbprint",
  "certificateSubjectName",
  "certificateExpiration",
  "certificateExpirationDate",
];

export function emptyAction(): ActionForm {
  return fromAction({ type: "Http", request: { method: "GET" } });
}

function fromAuth(v: JsonValue | undefined): AuthForm {
  const a = obj(v);
  const type = v === undefined || v === null ? "" : canon(str(a.type) || "NotSpecified", AUTH_TYPES);
  // `password` is Basic's password or the certificate's: one JSON field, two inputs.
  const cert = type === "ClientCertificate";
  return {
    type,
    username: str(a.username),
    password: cert ? "" : str(a.password),
    pfx: str(a.pfx),
    certPassword: cert ? str(a.password) : "",
    tenant: str(a.tenant),
    audience: str(a.audience),
    clientId: str(a.clientId),
    secret: str(a.secret),
    certInfo: {
      thumbprint: str(a.certificateThumbprint),
      subject: str(a.certificateSubjectName),
      expires: str(a.certificateExpirationDate ?? a.certificateExpiration),
    },
    extra: rest(a, KNOWN_AUTH),
  };
}

/** Only the fields of the chosen kind are sent, so switching kinds leaves nothing behind. */
function toAuth(f: AuthForm): JsonObject | undefined {
  if (f.type === "") return undefined;
  const out: JsonObject = { ...f.extra, type: f.type };
  if (f.type === "Basic") {
    put(out, "username", f.username);
    put(out, "password", secretOut(f.password));
  } else if (f.type === "ClientCertificate") {
    put(out, "pfx", secretOut(f.pfx));
    put(out, "password", secretOut(f.certPassword));
  } else if (f.type === "ActiveDirectoryOAuth") {
    put(out, "tenant", f.tenant);
    put(out, "audience", f.audience);
    put(out, "clientId", f.clientId);
    put(out, "secret", secretOut(f.secret));
  }
  return out;
}

function fromRetry(v: JsonValue | undefined): RetryForm {
  const r = obj(v);
  const present = v !== undefined && v !== null;
  return {
    type: present ? canon(str(r.retryType), RETRY_TYPES) : "",
    interval: str(r.retryInterval),
    count: num(r.retryCount),
    multiplier: num(r.retryMultiplier),
    maxInterval: str(r.maxRetryInterval),
    extra: rest(r, ["retryType", "retryInterval", "retryCount", "retryMultiplier", "maxRetryInterval"]),
  };
}

function toRetry(f: RetryForm): JsonObject | undefined {
  if (f.type === "") return undefined;
  const out: JsonObject = { ...f.extra, retryType: f.type };
  if (f.type === "None") return out;
  put(out, "retryInterval", f.interval.trim());
  put(out, "retryCount", f.count);
  if (f.type === "Exponential") {
    put(out, "retryMultiplier", f.multiplier);
    put(out, "maxRetryInterval", f.maxInterval.trim());
  }
  return out;
}

function fromServiceBus(v: JsonValue | undefined): ServiceBusForm {
  const m = obj(v);
  const a = obj(m.authentication);
  return {
    namespace: str(m.namespace),
    queueName: str(m.queueName),
    topicPath: str(m.topicPath),
    transportType: str(m.transportType) ? canon(str(m.transportType), TRANSPORT_TYPES) : "",
    keyName: str(a.sasKeyName),
    key: str(a.sasKey),
    authType: str(a.type) ? canon(str(a.type), SB_AUTH_TYPES) : m.authentication ? "" : "SharedAccessKey",
    message: str(m.message),
    custom: toPairs(m.customMessageProperties),
    brokered: m.brokeredMessageProperties,
    authExtra: rest(a, ["sasKeyName", "sasKey", "type"]),
    extra: rest(m, [
      "namespace",
      "queueName",
      "topicPath",
      "transportType",
      "authentication",
      "message",
      "brokeredMessageProperties",
      "customMessageProperties",
    ]),
  };
}

function toServiceBus(f: ServiceBusForm, topic: boolean): JsonObject {
  const out: JsonObject = { ...f.extra };
  put(out, "namespace", f.namespace.trim());
  if (topic) put(out, "topicPath", f.topicPath.trim());
  else put(out, "queueName", f.queueName.trim());
  put(out, "transportType", f.transportType);
  const auth: JsonObject = { ...f.authExtra };
  put(auth, "sasKeyName", f.keyName.trim());
  put(auth, "sasKey", secretOut(f.key));
  if (Object.keys(auth).length) put(auth, "type", f.authType);
  if (Object.keys(auth).length) out.authentication = auth;
  put(out, "message", f.message);
  if (f.brokered !== undefined) out.brokeredMessageProperties = f.brokered;
  put(out, "customMessageProperties", fromPairs(f.custom));
  return out;
}

export function fromCommand(v: JsonValue | undefined): CommandForm {
  const c = obj(v);
  const codes = Array.isArray(c.successExitCodes) ? c.successExitCodes.map((x) => String(x)).join(", ") : "";
  return {
    program: str(c.program),
    arguments: Array.isArray(c.arguments) ? c.arguments.map((x) => str(x)).join("\n") : "",
    shell: c.shell === true,
    workingDirectory: str(c.workingDirectory),
    environment: Object.entries(obj(c.environment))
      .map(([k, x]) => `${k}=${str(x)}`)
      .join("\n"),
    timeout: str(c.timeout),
    successExitCodes: codes,
    extra: rest(c, KNOWN_COMMAND),
  };
}

/** Lines without their line ends; empty lines are dropped (an empty argument needs the JSON tab). */
function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => l !== "");
}

export function toCommand(f: CommandForm): JsonObject {
  const out: JsonObject = { ...f.extra };
  put(out, "program", f.program.trim());
  if (!f.shell) put(out, "arguments", lines(f.arguments));
  if (f.shell) out.shell = true;
  put(out, "workingDirectory", f.workingDirectory.trim());
  const env: JsonObject = {};
  for (const line of lines(f.environment)) {
    // Split at the first "=": a value may contain "="; a line without one is a name with an
    // empty value (the engine refuses a bad name on the environment field).
    const at = line.indexOf("=");
    if (at < 0) env[line.trim()] = "";
    else env[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  if (Object.keys(env).length) out.environment = env;
  put(out, "timeout", f.timeout.trim());
  const codes = f.successExitCodes
    .split(/[\s,]+/)
    .filter((t) => t !== "")
    .map((t): JsonValue => (/^-?\d+$/.test(t) ? Number(t) : t));
  put(out, "successExitCodes", codes);
  return out;
}

export function fromAction(json: JsonValue | undefined): ActionForm {
  const a = obj(json);
  const type = str(a.type) ? canon(str(a.type), ACTION_TYPES) : "Http";
  const req = obj(a.request);
  const q = obj(a.queueMessage);
  const n = obj(a.notification);
  const sbSource =
    type === "ServiceBusTopic"
      ? (a.serviceBusTopicMessage ?? a.serviceBusQueueMessage)
      : (a.serviceBusQueueMessage ?? a.serviceBusTopicMessage);
  return {
    type,
    http: {
      method: str(req.method) ? canon(str(req.method).toUpperCase(), HTTP_METHODS) : "GET",
      uri: str(req.uri),
      body: str(req.body),
      headers: toPairs(req.headers),
      auth: fromAuth(req.authentication),
      extra: rest(req, ["method", "uri", "body", "headers", "authentication"]),
    },
    queue: {
      storageAccount: str(q.storageAccount),
      queueName: str(q.queueName),
      sasToken: str(q.sasToken),
      message: str(q.message),
      extra: rest(q, ["storageAccount", "queueName", "sasToken", "message"]),
    },
    serviceBus: fromServiceBus(sbSource),
    notification: { title: str(n.title), body: str(n.body), extra: rest(n, ["title", "body"]) },
    command: fromCommand(a.command),
    retry: fromRetry(a.retryPolicy),
    extra: rest(a, KNOWN_ACTION),
  };
}

/** The action JSON: the chosen type's payload only (the form keeps the others for switching back). */
export function toAction(f: ActionForm): JsonObject {
  const out: JsonObject = { ...f.extra, type: f.type };
  if (f.type === "Http" || f.type === "Https") {
    const req: JsonObject = { ...f.http.extra };
    put(req, "uri", f.http.uri.trim());
    put(req, "method", f.http.method.trim().toUpperCase());
    put(req, "body", f.http.body);
    put(req, "headers", fromPairs(f.http.headers));
    put(req, "authentication", toAuth(f.http.auth));
    out.request = req;
  } else if (f.type === "StorageQueue") {
    const q: JsonObject = { ...f.queue.extra };
    put(q, "storageAccount", f.queue.storageAccount.trim());
    put(q, "queueName", f.queue.queueName.trim());
    put(q, "sasToken", secretOut(f.queue.sasToken));
    put(q, "message", f.queue.message);
    out.queueMessage = q;
  } else if (f.type === "ServiceBusQueue") {
    out.serviceBusQueueMessage = toServiceBus(f.serviceBus, false);
  } else if (f.type === "ServiceBusTopic") {
    out.serviceBusTopicMessage = toServiceBus(f.serviceBus, true);
  } else if (f.type === "Notification") {
    const n: JsonObject = { ...f.notification.extra };
    put(n, "title", f.notification.title);
    put(n, "body", f.notification.body);
    if (Object.keys(n).length) out.notification = n;
  } else if (f.type === "Command") {
    out.command = toCommand(f.command);
  }
  put(out, "retryPolicy", toRetry(f.retry));
  return out;
}
