import { describe, expect, it } from "vitest";
import type { JsonValue } from "./json";
import { type JobForm, emptyJob, fromProperties, newJob, toProperties } from "./jobForm";

type Case = {
  name: string;
  /** Job properties to load, or edits made on a new job. */
  from: JsonValue | ((f: JobForm) => JobForm);
  /** The properties the editor sends. */
  json: JsonValue;
  form?: Partial<JobForm>;
};

function check(c: Case) {
  const form = typeof c.from === "function" ? c.from(emptyJob()) : fromProperties(c.from);
  if (c.form) expect(form).toMatchObject(c.form);
  expect(toProperties(form)).toEqual(c.json);
  expect(toProperties(fromProperties(c.json))).toEqual(c.json);
}

const http = (extra: object = {}) => ({
  type: "Http",
  request: { uri: "https://example.invalid/x", method: "POST" },
  ...extra,
});

const cases: Case[] = [
  {
    name: "examples/last-friday.json",
    from: {
      startTime: "2026-01-01T00:00:00Z",
      action: {
        type: "Http",
        request: {
          uri: "https://example.invalid/report",
          method: "POST",
          authentication: { type: "Basic", username: "ops", password: "never-printed" },
        },
        retryPolicy: { retryType: "Fixed", retryInterval: "00:01:00", retryCount: 2 },
      },
      recurrence: {
        frequency: "Month",
        schedule: { minutes: [15], hours: [5], monthlyOccurrences: [{ day: "Friday", Occurrence: -1 }] },
      },
      state: "Enabled",
    },
    json: {
      startTime: "2026-01-01T00:00:00Z",
      state: "Enabled",
      action: {
        type: "Http",
        request: {
          uri: "https://example.invalid/report",
          method: "POST",
          authentication: { type: "Basic", username: "ops", password: "never-printed" },
        },
        retryPolicy: { retryType: "Fixed", retryInterval: "00:01:00", retryCount: 2 },
      },
      recurrence: {
        frequency: "Month",
        schedule: { minutes: [15], hours: [5], monthlyOccurrences: [{ day: "Friday", occurrence: -1 }] },
      },
    },
    form: { startTime: "2026-01-01T00:00", recurrenceEnabled: true, errorActionEnabled: false },
  },
  {
    name: "a one-time job; lower-case state and method; status is not sent back",
    from: {
      startTime: "2030-08-04T00:00Z",
      state: "disabled",
      action: { type: "https", request: { uri: "https://a.invalid", method: "post", body: "hi" } },
      status: { executionCount: 3 },
    },
    json: {
      startTime: "2030-08-04T00:00:00Z",
      state: "Disabled",
      action: { type: "Https", request: { uri: "https://a.invalid", method: "POST", body: "hi" } },
    },
    form: { recurrenceEnabled: false },
  },
  {
    name: "start time with an offset becomes UTC",
    from: { startTime: "2026-01-01T09:00:00-05:00", state: "Enabled", action: http() },
    json: { startTime: "2026-01-01T14:00:00Z", state: "Enabled", action: http() },
  },
  {
    name: "start time is shown on the job's time-zone clock",
    from: {
      startTime: "2026-01-01T14:00:00Z",
      state: "Enabled",
      action: http(),
      recurrence: { frequency: "Day", timeZone: "America/New_York" },
    },
    json: {
      startTime: "2026-01-01T14:00:00Z",
      state: "Enabled",
      action: http(),
      recurrence: { frequency: "Day", timeZone: "America/New_York" },
    },
    form: { startTime: "2026-01-01T09:00" },
  },
  {
    name: "headers and every authentication kind's fields",
    from: {
      state: "Enabled",
      action: {
        type: "Http",
        request: {
          uri: "https://a.invalid",
          method: "GET",
          headers: { "X-A": "1", Accept: "text/plain" },
          authentication: {
            type: "activedirectoryoauth",
            tenant: "t.example",
            audience: "https://management.core.windows.net/",
            clientId: "c",
            secret: "s",
          },
        },
      },
    },
    json: {
      state: "Enabled",
      action: {
        type: "Http",
        request: {
          uri: "https://a.invalid",
          method: "GET",
          headers: { "X-A": "1", Accept: "text/plain" },
          authentication: {
            type: "ActiveDirectoryOAuth",
            tenant: "t.example",
            audience: "https://management.core.windows.net/",
            clientId: "c",
            secret: "s",
          },
        },
      },
    },
  },
  {
    name: "client certificate: its password is the certificate's; engine-reported facts are not sent",
    from: {
      state: "Enabled",
      action: {
        type: "Http",
        request: {
          uri: "https://a.invalid",
          method: "GET",
          authentication: {
            type: "ClientCertificate",
            pfx: "MIIK",
            password: "pw",
            certificateThumbprint: "AB12",
            certificateSubjectName: "CN=x",
          },
        },
      },
    },
    json: {
      state: "Enabled",
      action: {
        type: "Http",
        request: {
          uri: "https://a.invalid",
          method: "GET",
          authentication: { type: "ClientCertificate", pfx: "MIIK", password: "pw" },
        },
      },
    },
    form: {
      action: {
        http: {
          auth: { certPassword: "pw", password: "", certInfo: { thumbprint: "AB12", subject: "CN=x", expires: "" } },
        },
      },
    } as Partial<JobForm>,
  },
  {
    name: "storage queue with an HTTP error action; unknown fields kept at every level",
    from: {
      state: "Enabled",
      "x-note": "keep",
      action: {
        type: "StorageQueue",
        foo: 1,
        queueMessage: { storageAccount: "acct", queueName: "q1", sasToken: "?sv=1", message: "hello", encoding: "Raw" },
        errorAction: {
          type: "Http",
          request: { uri: "https://fallback.invalid", method: "PUT" },
          retryPolicy: { retryType: "None" },
        },
      },
    },
    json: {
      state: "Enabled",
      "x-note": "keep",
      action: {
        type: "StorageQueue",
        foo: 1,
        queueMessage: { storageAccount: "acct", queueName: "q1", sasToken: "?sv=1", message: "hello", encoding: "Raw" },
        errorAction: {
          type: "Http",
          request: { uri: "https://fallback.invalid", method: "PUT" },
          retryPolicy: { retryType: "None" },
        },
      },
    },
    form: { errorActionEnabled: true },
  },
  {
    name: "service bus topic: enums in any case, brokered and custom properties",
    from: {
      state: "Enabled",
      action: {
        type: "serviceBusTopic",
        serviceBusTopicMessage: {
          namespace: "ns1",
          topicPath: "t/1",
          transportType: "netMessaging",
          message: "m",
          authentication: { sasKeyName: "RootManageSharedAccessKey", sasKey: "k", type: "sharedAccessKey" },
          brokeredMessageProperties: { label: "L", forcePersistence: true },
          customMessageProperties: { a: "b" },
        },
      },
    },
    json: {
      state: "Enabled",
      action: {
        type: "ServiceBusTopic",
        serviceBusTopicMessage: {
          namespace: "ns1",
          topicPath: "t/1",
          transportType: "NetMessaging",
          message: "m",
          authentication: { sasKeyName: "RootManageSharedAccessKey", sasKey: "k", type: "SharedAccessKey" },
          brokeredMessageProperties: { label: "L", forcePersistence: true },
          customMessageProperties: { a: "b" },
        },
      },
    },
  },
  {
    name: "notification with exponential retries",
    from: {
      state: "Enabled",
      action: {
        type: "Notification",
        notification: { title: "Backup failed" },
        retryPolicy: {
          retryType: "exponential",
          retryInterval: "PT1M",
          retryMultiplier: 3,
          maxRetryInterval: "PT5M",
          retryCount: 4,
        },
      },
    },
    json: {
      state: "Enabled",
      action: {
        type: "Notification",
        notification: { title: "Backup failed" },
        retryPolicy: {
          retryType: "Exponential",
          retryInterval: "PT1M",
          retryMultiplier: 3,
          maxRetryInterval: "PT5M",
          retryCount: 4,
        },
      },
    },
  },
  {
    name: "a new job",
    from: (f) => f,
    json: {
      state: "Enabled",
      action: { type: "Http", request: { method: "GET" } },
      recurrence: { frequency: "Day", interval: 1 },
    },
  },
  {
    name: "switching the action type sends only the new type's payload",
    from: (f) => {
      const http = { ...f.action.http, uri: "https://a.invalid" };
      return {
        ...f,
        recurrenceEnabled: false,
        action: {
          ...f.action,
          http,
          type: "ServiceBusQueue",
          serviceBus: { ...f.action.serviceBus, namespace: "ns", queueName: "q", topicPath: "ignored", keyName: "k" },
        },
      };
    },
    json: {
      state: "Enabled",
      action: {
        type: "ServiceBusQueue",
        serviceBusQueueMessage: {
          namespace: "ns",
          queueName: "q",
          authentication: { sasKeyName: "k", type: "SharedAccessKey" },
        },
      },
    },
  },
  {
    name: "switching the authentication kind leaves the old kind's fields behind",
    from: (f) => ({
      ...f,
      recurrenceEnabled: false,
      action: {
        ...f.action,
        http: {
          ...f.action.http,
          uri: "https://a.invalid",
          auth: {
            ...f.action.http.auth,
            type: "ClientCertificate",
            username: "left-behind",
            password: "left-behind",
            pfx: "MIIK",
          },
        },
      },
    }),
    json: {
      state: "Enabled",
      action: {
        type: "Http",
        request: {
          uri: "https://a.invalid",
          method: "GET",
          authentication: { type: "ClientCertificate", pfx: "MIIK" },
        },
      },
    },
  },
  {
    name: "a disabled error action and a Default retry policy are not sent; half-typed headers are skipped",
    from: (f) => ({
      ...f,
      recurrenceEnabled: false,
      errorActionEnabled: false,
      errorAction: { ...f.errorAction, type: "Notification" },
      action: {
        ...f.action,
        http: {
          ...f.action.http,
          uri: "https://a.invalid",
          headers: [
            { key: "", value: "x" },
            { key: "A", value: "1" },
          ],
        },
      },
    }),
    json: {
      state: "Enabled",
      action: { type: "Http", request: { uri: "https://a.invalid", method: "GET", headers: { A: "1" } } },
    },
  },
];

describe("jobForm", () => {
  for (const c of cases) it(c.name, () => check(c));
});

describe("newJob", () => {
  it("starts now, to the minute, on the UTC clock", () => {
    const form = newJob(Date.UTC(2026, 10, 23, 10, 7, 42, 500));
    expect(form.startTime).toBe("2026-11-23T10:07");
    expect(toProperties(form).startTime).toBe("2026-11-23T10:07:00Z");
  });
});
