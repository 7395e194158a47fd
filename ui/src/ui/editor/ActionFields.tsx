// The action sub-form, used twice: the main action (ids as given) and the error action (ids
// prefixed "err-"). Only the chosen type's fields are shown; the others keep their values.
import type { ActionForm } from "../../logic/actionForm";
import { isStored } from "../../logic/secrets";
import { CommandFields } from "./CommandFields";
import { HttpFields } from "./HttpFields";
import { NotificationFields, ServiceBusFields, StorageQueueFields } from "./MessageFields";
import { i18n } from "@lingui/core";
import { type Option, SelectField, translated } from "./fields";

const TYPES: Option[] = [
  ["Http", /*i18n*/ "HTTP request"],
  ["Https", /*i18n*/ "HTTPS request (https:// only)"],
  ["StorageQueue", /*i18n*/ "Storage queue message"],
  ["ServiceBusQueue", /*i18n*/ "Service Bus queue message"],
  ["ServiceBusTopic", /*i18n*/ "Service Bus topic message"],
  ["Notification", /*i18n*/ "Desktop notification"],
  ["Command", /*i18n*/ "Run a program on this computer"],
];

export type ActionProps = {
  /** "" for the main action, "err-" for the error action. */
  prefix: string;
  /** Where the action sits in the properties: "action" or "action.errorAction". */
  base: string;
  value: ActionForm;
  onChange: (v: ActionForm) => void;
  secretsSet: readonly string[];
};

export function ActionFields({ prefix, base, value, onChange, secretsSet }: ActionProps) {
  const set = (patch: Partial<ActionForm>) => onChange({ ...value, ...patch });
  const stored = (path: string) => isStored(secretsSet, `${base}.${path}`);
  const t = value.type;
  return (
    <>
      <SelectField
        id={`${prefix}action-type`}
        label={i18n._("Type")}
        value={t}
        options={translated(TYPES)}
        onChange={(type) => set({ type })}
      />
      {(t === "Http" || t === "Https") && (
        <HttpFields prefix={prefix} value={value.http} onChange={(http) => set({ http })} stored={stored} />
      )}
      {t === "StorageQueue" && (
        <StorageQueueFields
          prefix={prefix}
          value={value.queue}
          onChange={(queue) => set({ queue })}
          stored={stored("queueMessage.sasToken")}
        />
      )}
      {(t === "ServiceBusQueue" || t === "ServiceBusTopic") && (
        <ServiceBusFields
          prefix={prefix}
          topic={t === "ServiceBusTopic"}
          value={value.serviceBus}
          onChange={(serviceBus) => set({ serviceBus })}
          stored={stored(
            t === "ServiceBusTopic"
              ? "serviceBusTopicMessage.authentication.sasKey"
              : "serviceBusQueueMessage.authentication.sasKey",
          )}
        />
      )}
      {t === "Notification" && (
        <NotificationFields
          prefix={prefix}
          value={value.notification}
          onChange={(notification) => set({ notification })}
        />
      )}
      {t === "Command" && (
        <CommandFields prefix={prefix} value={value.command} onChange={(command) => set({ command })} />
      )}
    </>
  );
}
