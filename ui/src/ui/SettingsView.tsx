import { useEffect, useState } from "preact/hooks";
import { type ApiInfo, type DesktopProblems, type Settings, api, messageOf, onEngineChanged } from "../ipc";
import { copyText } from "./jobs/download";
import { toast } from "./toast";
import { Button } from "./components/Button";
import { PageHeader } from "./components/PageHeader";
import { type Segment, SegmentedControl } from "./components/SegmentedControl";
import { type ThemePreference, onThemeChange, setThemePreference, themePreference } from "./theme";

/** Each change is saved at once (setSettings answers with what was stored). */
export function SettingsView() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [info, setInfo] = useState<ApiInfo | null>(null);
  const [port, setPort] = useState("");
  const [error, setError] = useState("");
  const [problems, setProblems] = useState<DesktopProblems>({ tray: null, notifications: null });
  const [testing, setTesting] = useState(false);

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
      toast("Test notification sent");
    } catch (e) {
      toast(`No notification: ${messageOf(e)}`, "error");
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
      toast("Settings saved");
      // The server starts or stops in the background; ask again a moment later.
      refreshInfo();
      setTimeout(refreshInfo, 1500);
    } catch (e) {
      setError(messageOf(e));
      toast(`Settings not saved: ${messageOf(e)}`, "error");
    }
  };

  const commitPort = () => {
    const n = Number(port);
    if (!settings || n === settings.apiPort) return;
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      setError("The port is a number from 1 to 65535.");
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
      <p aria-busy="true">Loading settings…</p>
    );
  return (
    <section aria-labelledby="settings-title" class="settings">
      <PageHeader titleId="settings-title" title="Settings" />
      <fieldset class="settings-group">
        <legend>Appearance</legend>
        <ThemeChoice />
      </fieldset>
      <fieldset class="settings-group">
        <legend>Azure Scheduler REST API</legend>
        <label>
          <input
            id="setting-serve-api"
            type="checkbox"
            role="switch"
            checked={settings.serveApi}
            onChange={(e) => save({ serveApi: e.currentTarget.checked })}
          />
          Serve the Azure-compatible REST API on this computer (loopback only)
        </label>
        <label for="setting-api-port">Port</label>
        <input
          class="port-input"
          id="setting-api-port"
          type="number"
          min={1}
          max={65535}
          value={port}
          aria-invalid={error.includes("port") ? "true" : undefined}
          onInput={(e) => setPort(e.currentTarget.value)}
          onChange={commitPort}
          onKeyDown={(e) => e.key === "Enter" && commitPort()}
        />
        {info?.running ? (
          <div class="api-info">
            <p>
              Running at <code id="api-url">{info.url}</code>. Clients send{" "}
              <code>Authorization: Bearer &lt;token&gt;</code>.
            </p>
            <label for="api-token">Token</label>
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
                  toast((await copyText(info.token)) ? "Token copied" : "Copy it from the field (select, then copy)")
                }
              >
                Copy
              </Button>
            </div>
          </div>
        ) : settings.serveApi ? (
          <p class="muted">Starting…</p>
        ) : (
          <p class="muted">Not serving.</p>
        )}
        <label>
          <input
            id="setting-allow-commands"
            type="checkbox"
            role="switch"
            checked={settings.allowCommands}
            onChange={(e) => save({ allowCommands: e.currentTarget.checked })}
          />
          Allow Command jobs over the API
        </label>
        <p class="muted">
          A Command job runs a program as you, so anyone holding the API token could run programs on this computer; this
          window creates Command jobs either way.
        </p>
      </fieldset>
      <fieldset class="settings-group">
        <legend>Notifications and start-up</legend>
        <label>
          <input
            id="setting-notify-fault"
            type="checkbox"
            role="switch"
            checked={settings.notifyOnFault}
            onChange={(e) => save({ notifyOnFault: e.currentTarget.checked })}
          />
          Notify me when any job faults
        </label>
        <label>
          <input
            id="setting-start-login"
            type="checkbox"
            role="switch"
            checked={settings.startAtLogin}
            onChange={(e) => save({ startAtLogin: e.currentTarget.checked })}
          />
          Start Kairos at login
        </label>
        <Button id="send-test-notification" disabled={testing} onClick={sendTest}>
          Send a test notification
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
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

const THEME_OPTIONS: Segment<ThemePreference>[] = [
  { value: "system", label: "System", id: "theme-system", title: "Follow the system's light or dark setting" },
  { value: "light", label: "Light", id: "theme-light" },
  { value: "dark", label: "Dark", id: "theme-dark" },
];

/** System / Light / Dark; "System" follows the OS as it changes. */
function ThemeChoice() {
  const [preference, setPreference] = useState(themePreference());
  useEffect(() => onThemeChange(() => setPreference(themePreference())), []);
  return (
    <div class="setting-row">
      <span id="theme-label">Theme</span>
      <SegmentedControl
        id="theme-choice"
        label="Theme"
        value={preference}
        options={THEME_OPTIONS}
        onChange={setThemePreference}
      />
    </div>
  );
}
