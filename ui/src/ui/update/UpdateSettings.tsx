// Settings → Updates: this version and how it was installed, the automatic check, the update
// feed for mirrors (KAIROS_UPDATE_URL wins over it), when the feed was last read, the skipped
// version, and "Check for updates" with its result.
import { useEffect, useRef, useState } from "preact/hooks";
import { i18n, useI18n } from "../../i18n";
import { formatDateTime } from "../../i18n/format";
import { type UpdateSettings, api, errorsOf, messageOf } from "../../ipc";
import { feedUrlErrorText, installKindText, updateCheckText } from "../../logic/updateMessages";
import { Button } from "../components/Button";
import { Field, fieldDescribedBy } from "../components/Field";
import { toast } from "../toast";
import { UpdateError } from "./UpdateDialog";
import { type CheckOutcome, checkForUpdates, useUpdateState } from "./updates";
import "./update.css";

export function UpdateSettingsSection() {
  useI18n();
  const [settings, setSettings] = useState<UpdateSettings | null>(null);
  const [autoCheck, setAutoCheck] = useState(true);
  const [feedUrl, setFeedUrl] = useState("");
  const [feedError, setFeedError] = useState("");
  const [problem, setProblem] = useState("");
  const [saving, setSaving] = useState(false);
  const { checking, outcome } = useUpdateState();
  // Save reads the controls themselves: a value typed just before the click counts even if
  // the page has not re-rendered since.
  const autoCheckInput = useRef<HTMLInputElement>(null);
  const feedInput = useRef<HTMLInputElement>(null);

  const show = (s: UpdateSettings) => {
    setSettings(s);
    setAutoCheck(s.autoCheck);
    setFeedUrl(s.feedUrl);
  };
  useEffect(() => {
    api.getUpdateSettings().then(show, (e) => setProblem(messageOf(e)));
  }, []);
  // A check records when it reached the feed: read it again after each.
  useEffect(() => {
    if (outcome) api.getUpdateSettings().then(setSettings, () => {});
  }, [outcome]);

  const save = async (e: Event) => {
    e.preventDefault();
    setSaving(true);
    try {
      const auto = autoCheckInput.current?.checked ?? autoCheck;
      const feed = feedInput.current?.value ?? feedUrl;
      show(await api.setUpdateSettings(auto, feed));
      setFeedError("");
      setProblem("");
      toast(i18n._("Settings saved"));
    } catch (err) {
      const onFeed = errorsOf(err).find((f) => f.path === "feedUrl");
      setFeedError(onFeed ? feedUrlErrorText(onFeed) : "");
      if (!onFeed) setProblem(messageOf(err));
      toast(
        i18n._("Settings not saved: {reason}", { reason: onFeed ? feedUrlErrorText(onFeed) : messageOf(err) }),
        "error",
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <fieldset class="settings-group" aria-busy={settings === null ? "true" : undefined}>
      <legend>{i18n._("Updates")}</legend>
      {settings && (
        <form onSubmit={save}>
          <div class="update-facts">
            <p id="update-version">{i18n._("Kairos {current}", { current: settings.current })}</p>
            <p class="muted">{installKindText(settings.kind)}</p>
            <p class="muted">
              {settings.lastCheck
                ? i18n._("Last checked: {when}", { when: formatDateTime(settings.lastCheck) })
                : i18n._("Not checked yet.")}
            </p>
            {settings.skipped && (
              <p class="muted">{i18n._("Skipped version: {version}", { version: settings.skipped })}</p>
            )}
          </div>
          <label>
            <input
              ref={autoCheckInput}
              id="setting-update-auto-check"
              data-testid="update-auto-check"
              type="checkbox"
              role="switch"
              checked={autoCheck}
              onChange={(e) => setAutoCheck(e.currentTarget.checked)}
            />
            {i18n._("Check for updates automatically (at start and once a day)")}
          </label>
          <Field
            id="setting-update-feed"
            label={i18n._("Update feed (for mirrors)")}
            hint={
              settings.feedFromEnvironment
                ? i18n._("The KAIROS_UPDATE_URL environment variable is set: checks read {feed}.", {
                    feed: settings.effectiveFeed,
                  })
                : i18n._("Leave empty to use the release feed.")
            }
            error={feedError}
          >
            <input
              ref={feedInput}
              id="setting-update-feed"
              data-testid="update-feed-url"
              type="url"
              class="mono"
              // A URL, in every language: its value and placeholder are data, not words.
              translate={false}
              value={feedUrl}
              placeholder={settings.feedFromEnvironment ? "" : settings.effectiveFeed}
              disabled={settings.feedFromEnvironment}
              aria-invalid={feedError ? "true" : undefined}
              aria-describedby={fieldDescribedBy("setting-update-feed", true, feedError)}
              onInput={(e) => {
                setFeedUrl(e.currentTarget.value);
                setFeedError("");
              }}
            />
          </Field>
          <div class="setting-row">
            <Button type="submit" data-testid="update-save" disabled={saving} aria-busy={saving || undefined}>
              {i18n._("Save")}
            </Button>
            <Button
              id="check-updates"
              data-testid="check-updates"
              disabled={checking}
              aria-busy={checking || undefined}
              onClick={() => checkForUpdates()}
            >
              {i18n._("Check for updates")}
            </Button>
          </div>
        </form>
      )}
      <UpdateStatus checking={checking} outcome={outcome} />
      {problem && (
        <p class="error-text" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

function openReleases(e: MouseEvent, url: string) {
  e.preventDefault();
  api
    .openReleasesPage()
    .catch(() => toast(i18n._("No browser could be opened. The releases are at {url}", { url }), "error"));
}

/** The last check's result (the toast said it too; this line stays). */
function UpdateStatus({ checking, outcome }: { checking: boolean; outcome: CheckOutcome | null }) {
  if (checking)
    return (
      <p class="update-status" data-testid="update-status" data-kind="checking" aria-busy="true">
        {i18n._("Checking for updates…")}
      </p>
    );
  if (!outcome) return null;
  if ("failure" in outcome)
    return (
      <div class="update-status" data-testid="update-status" data-kind={outcome.failure.code}>
        <UpdateError failure={outcome.failure} announce={false} />
      </div>
    );
  const check = outcome.check;
  return (
    <p class="update-status" data-testid="update-status" data-kind={check.kind}>
      {updateCheckText(check)}
      {check.kind === "packageManager" && (
        <>
          {" "}
          {/* The system's browser, not the webview: the window asks Rust to open this page. */}
          <a href={check.releases} onClick={(e) => openReleases(e, check.releases)}>
            {i18n._("Kairos releases")}
          </a>
        </>
      )}
    </p>
  );
}
