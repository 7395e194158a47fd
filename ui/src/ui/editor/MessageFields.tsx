import { i18n } from "@lingui/core";
import type { NotificationForm, QueueForm, ServiceBusForm } from "../../logic/actionForm";
import { KeyValueEditor } from "./KeyValueEditor";
import { type Option, SecretField, SelectField, TextArea, TextField, translated } from "./fields";

type Sub<T> = { prefix: string; value: T; onChange: (v: T) => void };

export function StorageQueueFields({ prefix: p, value, onChange, stored }: Sub<QueueForm> & { stored: boolean }) {
  const set = (patch: Partial<QueueForm>) => onChange({ ...value, ...patch });
  return (
    <>
      <div class="grid">
        <TextField
          id={`${p}sq-account`}
          label={i18n._("Storage account")}
          value={value.storageAccount}
          placeholder={i18n._("mystorageaccount")}
          onInput={(storageAccount) => set({ storageAccount })}
        />
        <TextField
          id={`${p}sq-queue`}
          label={i18n._("Queue")}
          value={value.queueName}
          onInput={(queueName) => set({ queueName })}
        />
      </div>
      <SecretField
        id={`${p}sq-sas`}
        label={i18n._("SAS token")}
        value={value.sasToken}
        stored={stored}
        hint={i18n._("A SAS query string that grants Add.")}
        onInput={(sasToken) => set({ sasToken })}
      />
      <TextArea
        id={`${p}sq-message`}
        label={i18n._("Message")}
        value={value.message}
        onInput={(message) => set({ message })}
      />
    </>
  );
}

const TRANSPORTS: Option[] = [
  ["", /*i18n*/ "Default"],
  ["NetMessaging", "NetMessaging"],
  ["AMQP", "AMQP"],
  ["NotSpecified", /*i18n*/ "Not specified"],
];

export function ServiceBusFields({
  prefix: p,
  value,
  onChange,
  stored,
  topic,
}: Sub<ServiceBusForm> & { stored: boolean; topic: boolean }) {
  const set = (patch: Partial<ServiceBusForm>) => onChange({ ...value, ...patch });
  return (
    <>
      <div class="grid">
        <TextField
          id={`${p}sb-namespace`}
          label={i18n._("Namespace")}
          value={value.namespace}
          placeholder={i18n._("my-namespace")}
          onInput={(namespace) => set({ namespace })}
        />
        {topic ? (
          <TextField
            id={`${p}sb-topic`}
            label={i18n._("Topic path")}
            value={value.topicPath}
            onInput={(topicPath) => set({ topicPath })}
          />
        ) : (
          <TextField
            id={`${p}sb-queue`}
            label={i18n._("Queue")}
            value={value.queueName}
            onInput={(queueName) => set({ queueName })}
          />
        )}
      </div>
      <div class="grid">
        <TextField
          id={`${p}sb-key-name`}
          label={i18n._("SAS key name")}
          value={value.keyName}
          placeholder={i18n._("RootManageSharedAccessKey")}
          onInput={(keyName) => set({ keyName })}
        />
        <SecretField
          id={`${p}sb-key`}
          label={i18n._("SAS key")}
          value={value.key}
          stored={stored}
          onInput={(key) => set({ key })}
        />
      </div>
      <SelectField
        id={`${p}sb-transport`}
        label={i18n._("Transport")}
        value={value.transportType}
        options={translated(TRANSPORTS)}
        onChange={(transportType) => set({ transportType })}
      />
      <TextArea
        id={`${p}sb-message`}
        label={i18n._("Message")}
        value={value.message}
        onInput={(message) => set({ message })}
      />
      <KeyValueEditor
        id={`${p}sb-custom`}
        legend={i18n._("Custom message properties")}
        labels={{
          name: (n) => i18n._("Property {n} name", { n }),
          value: (n) => i18n._("Property {n} value", { n }),
          remove: (which) => i18n._("Remove property {which}", { which }),
          add: i18n._("Add property"),
        }}
        rows={value.custom}
        onChange={(custom) => set({ custom })}
      />
      {value.brokered !== undefined && (
        <p class="muted">{i18n._("This message has brokered message properties; edit them in the JSON tab.")}</p>
      )}
    </>
  );
}

export function NotificationFields({ prefix: p, value, onChange }: Sub<NotificationForm>) {
  const set = (patch: Partial<NotificationForm>) => onChange({ ...value, ...patch });
  return (
    <>
      <TextField
        id={`${p}notify-title`}
        label={i18n._("Title")}
        value={value.title}
        placeholder={i18n._("Kairos")}
        onInput={(title) => set({ title })}
      />
      <TextArea id={`${p}notify-body`} label={i18n._("Text")} value={value.body} onInput={(body) => set({ body })} />
    </>
  );
}
