import { useEffect, useState } from "preact/hooks";
import { i18n, LANGUAGE_NAMES, showLocale, useI18n } from "../i18n";
import { languageSource } from "../i18n/language";
import { Select } from "./components/Select";
import { fill, slots } from "../i18n/rich";
import { type ApiInfo, type DesktopProblems, type Settings, api, messageOf, onEngineChanged } from "../ipc";
import { copyText } from "./jobs/download";
import { toast } from "./toast";
import { Button } from "./components/Button";
import { PageHeader } from "./components/PageHeader";
import { type Segment, SegmentedControl } from "./components/SegmentedControl";
import { type ThemePreference, onThemeChange, setThemePreference, themePreference } from "./theme";
import { UpdateSettingsSection } from "./update/UpdateSettings";

/** Each change is saved at once (setSettings answers with what was stored). */
export function SettingsView() {
  useI18n();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [info, setInfo] = useState<ApiInfo | null>(null);
  const [port, setPort] = useState("");
  const [error, setError] = useState("");
  const [problems, setProblems] = useState<DesktopProblems>({ tray: null, notifications: null });
  const [testing, setTesting] = useState(false);
  // The port field is marked invalid while the error is about it.
  const [portInvalid, setPortInvalid] = useState(false);

  const refreshInfo = () => api.apiInfo().then(setInfo, () => setInfo(null));
  const refreshProblems = () => api.desktopProblems().then(setProblems, () => {});
  useEffect(() => {
    api.getSettings().then(
      (s) => {
        setSettings(s);
        setPort(String(s.apiPort));
      },
      (e) => setError(messageOf(e)),
    );
    refreshInfo();
    refreshProblems();
    // The tray runner records problems as it finds (or loses) them; show them as they come.
    return onEngineChanged(() => refreshProblems());
  }, []);

  const sendTest = async () => {
    setTesting(true);
    try {
      await api.sendTestNotification();
      toast(i18n._("Test notification sent"));
    } catch (e) {
      toast(i18n._("No notification: {reason}", { reason: messageOf(e) }), "error");
    } finally {
      setTesting(false);
      refreshProblems();
    }
  };

  const save = async (patch: Partial<Settings>) => {
    if (!settings) return;
    try {
      const saved = await api.setSettings({ ...settings, ...patch });
      setSettings(saved);
      setPort(String(saved.apiPort));
      setError("");
      setPortInvalid(false);
      toast(i18n._("Settings saved"));
      // The server starts or stops in the background; ask again a moment later.
      refreshInfo();
      setTimeout(refreshInfo, 1500);
    } catch (e) {
      setError(messageOf(e));
      toast(i18n._("Settings not saved: {reason}", { reason: messageOf(e) }), "error");
    }
  };

  const commitPort = () => {
    const n = Number(port);
    if (!settings || n === settings.apiPort) return;
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      setError(i18n._("The port is a number from 1 to 65535."));
      setPortInvalid(true);
      return;
    }
    save({ apiPort: n });
  };

  if (!settings)
    return error ? (
      <p class="error-text" role="alert">
        {error}
      </p>
    ) : (
      <p aria-busy="true">{i18n._("Loading settings…")}</p>
    );
  return (
    <section aria-labelledby="settings-title" class="settings">
      <PageHeader titleId="settings-title" title={i18n._("Settings")} />
      <fieldset class="settings-group">
        <legend>{i18n._("Appearance")}</legend>
        <LanguageChoice />
        <ThemeChoice />
      </fieldset>
      <fieldset class="settings-group">
        <legend>{i18n._("Azure Scheduler REST API")}</legend>
        <label>
          <input
            id="setting-serve-api"
            type="checkbox"
            role="switch"
            checked={settings.serveApi}
            onChange={(e) => save({ serveApi: e.currentTarget.checked })}
          />
          {i18n._("Serve the Azure-compatible REST API on this computer (loopback only)")}
        </label>
        <label for="setting-api-port">{i18n._("Port")}</label>
        <input
          class="port-input"
          id="setting-api-port"
          type="number"
          min={1}
          max={65535}
          value={port}
          aria-invalid={portInvalid || /port/i.test(error) ? "true" : undefined}
          onInput={(e) => setPort(e.currentTarget.value)}
          onChange={commitPort}
          onKeyDown={(e) => e.key === "Enter" && commitPort()}
        />
        {info?.running ? (
          <div class="api-info">
            <p>
              {fill(i18n._("Running at {url}. Clients send {header}.", slots("url", "header")), {
                url: <code id="api-url">{info.url}</code>,
                header: <code>Authorization: Bearer &lt;token&gt;</code>,
              })}
            </p>
            <label for="api-token">{i18n._("Token")}</label>
            <div class="token-row">
              <input
                id="api-token"
                readOnly
                value={info.token}
                class="mono"
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button
                id="copy-api-token"
                onClick={async () =>
                  toast(
                    (await copyText(info.token))
                      ? i18n._("Token copied")
                      : i18n._("Copy it from the field (select, then copy)"),
                  )
                }
              >
                {i18n._("Copy")}
              </Button>
            </div>
          </div>
        ) : settings.serveApi ? (
          <p class="muted">{i18n._("Starting…")}</p>
        ) : (
          <p class="muted">{i18n._("Not serving.")}</p>
        )}
        <label>
          <input
            id="setting-allow-commands"
            type="checkbox"
            role="switch"
            checked={settings.allowCommands}
            onChange={(e) => save({ allowCommands: e.currentTarget.checked })}
          />
          {i18n._("Allow Command jobs over the API")}
        </label>
        <p class="muted">
          {i18n._(
            "A Command job runs a program as you, so anyone holding the API token could run programs on this computer; this window creates Command jobs either way.",
          )}
        </p>
      </fieldset>
      <fieldset class="settings-group">
        <legend>{i18n._("Notifications and start-up")}</legend>
        <label>
          <input
            id="setting-notify-fault"
            type="checkbox"
            role="switch"
            checked={settings.notifyOnFault}
            onChange={(e) => save({ notifyOnFault: e.currentTarget.checked })}
          />
          {i18n._("Notify me when any job faults")}
        </label>
        <label>
          <input
            id="setting-start-login"
            type="checkbox"
            role="switch"
            checked={settings.startAtLogin}
            onChange={(e) => save({ startAtLogin: e.currentTarget.checked })}
          />
          {i18n._("Start Kairos at login")}
        </label>
        <Button id="send-test-notification" disabled={testing} onClick={sendTest}>
          {i18n._("Send a test notification")}
        </Button>
        {problems.notifications && (
          <p id="notification-problem" class="error-text" role="alert">
            {problems.notifications}
          </p>
        )}
        {problems.tray && (
          <p id="tray-problem" class="error-text" role="alert">
            {problems.tray}
          </p>
        )}
      </fieldset>
      <UpdateSettingsSection />
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

const themeOptions = (): Segment<ThemePreference>[] => [
  {
    value: "system",
    label: i18n._({ id: "theme.system", message: "System" }),
    id: "theme-system",
    title: i18n._("Follow the system's light or dark setting"),
  },
  { value: "light", label: i18n._({ id: "theme.light", message: "Light" }), id: "theme-light" },
  { value: "dark", label: i18n._({ id: "theme.dark", message: "Dark" }), id: "theme-dark" },
];

/**
 * "System default" (the OS language) or one of the languages, each in its own name. Applies at
 * once: the backend saves it, tells the tray runner, and answers with the language to show.
 */
function LanguageChoice() {
  const [setting, setSetting] = useState<string | null | undefined>(undefined);
  const [problem, setProblem] = useState("");
  useEffect(() => {
    languageSource.get().then((info) => setSetting(info.setting));
    return languageSource.onChange((info) => setSetting(info.setting));
  }, []);
  const choose = async (value: string) => {
    const before = setting;
    const next = value === "" ? null : value;
    setSetting(next);
    try {
      const info = await languageSource.set(next);
      setProblem("");
      setSetting(info.setting);
      await showLocale(info.resolved);
    } catch (e) {
      setSetting(before);
      setProblem(messageOf(e));
    }
  };
  return (
    <div class="setting-row">
      <label for="setting-language">{i18n._("Language")}</label>
      <Select
        id="setting-language"
        inline
        value={setting ?? ""}
        disabled={setting === undefined || !languageSource.canChoose()}
        aria-describedby={problem ? "setting-language-error" : undefined}
        onChange={(e) => choose(e.currentTarget.value)}
        options={[
          { value: "", label: i18n._("System default") },
          // Each language in its own name, never translated.
          ...LANGUAGE_NAMES.map((l) => ({ value: l.locale, label: l.name, lang: l.locale })),
        ]}
      />
      {problem && (
        <p id="setting-language-error" class="error-text" role="alert">
          {i18n._("The language was not changed: {reason}", { reason: problem })}
        </p>
      )}
    </div>
  );
}

/** System / Light / Dark; "System" follows the OS as it changes. */
function ThemeChoice() {
  const [preference, setPreference] = useState(themePreference());
  useEffect(() => onThemeChange(() => setPreference(themePreference())), []);
  return (
    <div class="setting-row">
      <span id="theme-label">{i18n._("Theme")}</span>
      <SegmentedControl
        id="theme-choice"
        label={i18n._("Theme")}
        value={preference}
        options={themeOptions()}
        onChange={setThemePreference}
      />
    </div>
  );
}
