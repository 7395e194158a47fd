import { i18n } from "@lingui/core";
import { useMemo } from "preact/hooks";
import { TextField } from "./fields";
import { Button } from "../components/Button";

const COMMON = [
  "UTC",
  "Europe/London",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Madrid",
  "Europe/Moscow",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "America/Sao_Paulo",
  "Asia/Kolkata",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Asia/Singapore",
  "Australia/Sydney",
  "Pacific/Auckland",
];

/** Every zone the platform knows when it can list them (Safari 15.4+), else the common ones. */
function zones(): string[] {
  const all = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  return [...new Set([...COMMON, ...all])];
}

function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return "";
  }
}

export function TimeZoneField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const list = useMemo(zones, []);
  const here = localZone();
  return (
    <div class="tz-row">
      <TextField
        id="time-zone"
        label={i18n._("Time zone")}
        list="time-zone-list"
        value={value}
        placeholder={i18n._("UTC")}
        hint={i18n._("Times are on this zone's clock, daylight saving included. Empty: UTC, as Azure did.")}
        onInput={onChange}
      />
      <datalist id="time-zone-list">
        {list.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      {here && here !== value && !(here === "UTC" && value === "") && (
        <Button size="sm" id="time-zone-local" onClick={() => onChange(here)}>
          {i18n._("Use {zone}", { zone: here })}
        </Button>
      )}
    </div>
  );
}
