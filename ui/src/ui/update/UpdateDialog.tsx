// "Kairos 0.2.0 is available": the release notes, Install / Later / Skip this version; then the
// install's progress (download, stopping the tray runner, installing, restarting), or why it
// failed (the catalog's sentence, the technical detail under it) with this version still running.
import { i18n, useI18n } from "../../i18n";
import { formatDate } from "../../i18n/format";
import { updateErrorText, updateProgressText } from "../../logic/updateMessages";
import { Button } from "../components/Button";
import { Dialog } from "../components/Dialog";
import {
  type UpdateFailure,
  closeUpdateDialog,
  installOfferedUpdate,
  skipOfferedUpdate,
  useUpdateState,
} from "./updates";
import "./update.css";

/** The one update dialog; the frame renders it, the update state opens it. */
export function UpdateDialog() {
  useI18n();
  const { offer, install } = useUpdateState();
  const open = offer !== null;
  return (
    <Dialog
      id="update-dialog"
      open={open}
      onClose={closeUpdateDialog}
      title={offer ? i18n._("Kairos {version} is available", { version: offer.version }) : ""}
    >
      {offer && (
        <div class="update-dialog" data-testid="update-dialog" data-version={offer.version}>
          <p>
            {i18n._("You have Kairos {current}; installing replaces it with Kairos {version}.", {
              current: offer.current,
              version: offer.version,
            })}
            {offer.date && <> {i18n._("Released on {date}.", { date: formatDate(offer.date) })}</>}
          </p>
          <h3 id="update-notes-title" class="update-notes-title">
            {i18n._("Release notes")}
          </h3>
          {offer.notes ? (
            // Focusable so the keyboard can scroll long notes.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (axe scrollable-region-focusable)
            <div class="update-notes" role="region" aria-labelledby="update-notes-title" tabIndex={0}>
              {offer.notes}
            </div>
          ) : (
            <p class="muted">{i18n._("This version came without release notes.")}</p>
          )}
          {install.step === "installing" && <Progress install={install} />}
          {install.step === "failed" && <UpdateError failure={install.failure} />}
          <footer class="dialog-actions">
            {install.step === "offer" && (
              <>
                <Button data-testid="update-skip" onClick={skipOfferedUpdate}>
                  {i18n._("Skip this version")}
                </Button>
                <Button data-testid="update-later" onClick={closeUpdateDialog}>
                  {i18n._({ id: "update.later", message: "Later" })}
                </Button>
                <Button variant="primary" data-testid="update-install" onClick={installOfferedUpdate}>
                  {i18n._("Install")}
                </Button>
              </>
            )}
            {install.step === "installing" && (
              <Button variant="primary" data-testid="update-install" disabled aria-busy="true">
                {i18n._("Install")}
              </Button>
            )}
            {install.step === "failed" && (
              <Button variant="primary" data-testid="update-close" onClick={closeUpdateDialog}>
                {i18n._("Close")}
              </Button>
            )}
          </footer>
        </div>
      )}
    </Dialog>
  );
}

function Progress({
  install,
}: {
  install: Extract<ReturnType<typeof useUpdateState>["install"], { step: "installing" }>;
}) {
  const p = install.progress;
  const text = updateProgressText(p);
  return (
    <div class="update-progress" data-testid="update-progress" data-phase={p.phase}>
      {p.phase === "download" && (
        <progress
          aria-label={i18n._("Download")}
          value={p.received !== null && p.total ? p.received : undefined}
          max={p.total ?? undefined}
        />
      )}
      <p role="status">{text}</p>
    </div>
  );
}

/**
 * A failure's sentence, with the backend's technical message folded under it. `announce`: read
 * out at once (in the dialog; Settings' status line repeats what the toast already said).
 */
export function UpdateError({ failure, announce = true }: { failure: UpdateFailure; announce?: boolean }) {
  return (
    <div class="update-error" data-testid="update-error" data-code={failure.code} role={announce ? "alert" : undefined}>
      <p class="error-text">{updateErrorText(failure.code)}</p>
      <details>
        <summary>{i18n._("Technical details")}</summary>
        <p class="update-error-detail">{failure.message}</p>
      </details>
    </div>
  );
}
