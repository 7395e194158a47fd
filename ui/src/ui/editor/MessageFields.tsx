import type { NotificationForm, QueueForm, ServiceBusForm } from "../../logic/actionForm";
import { KeyValueEditor } from "./KeyValueEditor";
import { type Option, SecretField, SelectField, TextArea, TextField } from "./fields";

type Sub<T> = { prefix: string; value: T; onChange: (v: T) => void };

export function StorageQueueFields({ prefix: p, value, onChange, stored }: Sub<QueueForm> & { stored: boolean }) {
  const set = (patch: Partial<QueueForm>) => onChange({ ...value, ...patch });
  return (
    <>
      <div class="grid">
        <TextField
          id={`${p}sq-account`}
          label="Storage account"
          value={value.storageAccount}
          placeholder="mystorageaccount"
          onInput={(storageAccount) => set({ storageAccount })}
        />
        <TextField
          id={`${p}sq-queue`}
          label="Queue"
          value={value.queueName}
          onInput={(queueName) => set({ queueName })}
        />
      </div>
      <SecretField
        id={`${p}sq-sas`}
        label="SAS token"
        value={value.sasToken}
        stored={stored}
        hint="A SAS query string that grants Add."
        onInput={(sasToken) => set({ sasToken })}
      />
      <TextArea id={`${p}sq-message`} label="Message" value={value.message} onInput={(message) => set({ message })} />
    </>
  );
}

const TRANSPORTS: Option[] = [
  ["", "Default"],
  ["NetMessaging", "NetMessaging"],
  ["AMQP", "AMQP"],
  ["NotSpecified", "Not specified"],
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
          label="Namespace"
          value={value.namespace}
          placeholder="my-namespace"
          onInput={(namespace) => set({ namespace })}
        />
        {topic ? (
          <TextField
            id={`${p}sb-topic`}
            label="Topic path"
            value={value.topicPath}
            onInput={(topicPath) => set({ topicPath })}
          />
        ) : (
          <TextField
            id={`${p}sb-queue`}
            label="Queue"
            value={value.queueName}
            onInput={(queueName) => set({ queueName })}
          />
        )}
      </div>
      <div class="grid">
        <TextField
          id={`${p}sb-key-name`}
          label="SAS key name"
          value={value.keyName}
          placeholder="RootManageSharedAccessKey"
          onInput={(keyName) => set({ keyName })}
        />
        <SecretField
          id={`${p}sb-key`}
          label="SAS key"
          value={value.key}
          stored={stored}
          onInput={(key) => set({ key })}
        />
      </div>
      <SelectField
        id={`${p}sb-transport`}
        label="Transport"
        value={value.transportType}
        options={TRANSPORTS}
        onChange={(transportType) => set({ transportType })}
      />
      <TextArea id={`${p}sb-message`} label="Message" value={value.message} onInput={(message) => set({ message })} />
      <KeyValueEditor
        id={`${p}sb-custom`}
        legend="Custom message properties"
        noun="Property"
        rows={value.custom}
        onChange={(custom) => set({ custom })}
      />
      {value.brokered !== undefined && (
        <p class="muted">This message has brokered message properties; edit them in the JSON tab.</p>
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
        label="Title"
        value={value.title}
        placeholder="Kairos"
        onInput={(title) => set({ title })}
      />
      <TextArea id={`${p}notify-body`} label="Text" value={value.body} onInput={(body) => set({ body })} />
    </>
  );
}
