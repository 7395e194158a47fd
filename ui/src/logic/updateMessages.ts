// Self-update in words: one catalog sentence per result of a check and per failure code
// (src-tauri/src/update/failure.rs, `code`). The backend's English `message` is the technical
// detail shown under the sentence, never the sentence itself. A code this table does not know (a
// newer backend) reads as the general sentence.
import { i18n } from "@lingui/core";
import { formatNumber } from "../i18n/format";
import type { FieldError, InstallKind, UpdateCheck, UpdateProgress } from "../ipc/types";
import { fieldErrorText } from "./fieldErrorMessages";

/** Failure code → its sentence (the English text is the catalog id). */
export const UPDATE_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  UpdateFeedInvalid: /*i18n*/ "The update feed is not a Kairos update feed. Check the update feed address in Settings.",
  UpdateFeedUnavailable:
    /*i18n*/ "The update feed could not be read. Try again later, or check the update feed address in Settings.",
  UpdateNoBuildForThisSystem: /*i18n*/ "The update feed has no update for this system.",
  UpdateSignatureInvalid:
    /*i18n*/ "The download does not match its signature. Nothing was installed; this version keeps running.",
  UpdateDownloadFailed: /*i18n*/ "The download did not finish. Nothing was installed; this version keeps running.",
  UpdateInstallFailed: /*i18n*/ "The update could not be installed. This version is still installed and keeps running.",
  UpdateRunnerBusy:
    /*i18n*/ "The tray runner did not stop in time. Nothing was installed; try again when no job is running.",
  UpdateNotFound: /*i18n*/ "There is no update to install. Check for updates first.",
  InvalidUpdateFeedUrl:
    /*i18n*/ "Enter an address starting with http:// or https://, or leave the field empty to use the release feed.",
};

const UNKNOWN_FAILURE = /*i18n*/ "The update did not work. Nothing was installed; this version keeps running.";

/** The sentence for a failure `code`. */
export function updateErrorText(code: string): string {
  return i18n._(Object.hasOwn(UPDATE_ERROR_MESSAGES, code) ? UPDATE_ERROR_MESSAGES[code] : UNKNOWN_FAILURE);
}

/** The field error on the feed address: the catalog's sentence for the updater's rule. */
export function feedUrlErrorText(e: FieldError): string {
  return e.rule === "update.feedUrl" || e.code === "InvalidUpdateFeedUrl"
    ? updateErrorText("InvalidUpdateFeedUrl")
    : fieldErrorText(e);
}

/** What a check found, as one sentence ("available" too: the dialog says more). */
export function updateCheckText(check: UpdateCheck): string {
  switch (check.kind) {
    case "upToDate":
      return i18n._("Kairos {current} is up to date.", { current: check.current });
    case "available":
      return i18n._("Kairos {version} is available.", { version: check.version });
    case "older":
      return i18n._("The update feed offers {offered}, older than this Kairos {current}; it was not installed.", {
        offered: check.offered,
        current: check.current,
      });
    case "skipped":
      return i18n._("Kairos {version} is available; you chose to skip this version.", { version: check.version });
    case "offline":
      return i18n._("You seem to be offline; try again later.");
    case "packageManager":
      return i18n._("Kairos was installed with your package manager (.rpm); it updates Kairos.");
    case "fromSource":
      return i18n._("This copy of Kairos was built from source; it does not update itself.");
  }
}

/** How this copy of Kairos was installed, for Settings. */
export function installKindText(kind: InstallKind): string {
  switch (kind) {
    case "selfUpdating":
      return i18n._("Installed with the Kairos installer: Kairos updates itself.");
    case "packageManager":
      return i18n._("Installed with a package manager (.rpm): the package manager updates Kairos.");
    case "fromSource":
      return i18n._("Built from source: Kairos does not update itself.");
  }
}

/** "12.3 MB" in the window's language. */
export function formatMegabytes(bytes: number): string {
  return formatNumber(bytes / 1_000_000, undefined, {
    style: "unit",
    unit: "megabyte",
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  });
}

/** What an install is doing now. */
export function updateProgressText(p: UpdateProgress): string {
  switch (p.phase) {
    case "download":
      if (p.received === null) return i18n._("Downloading…");
      return p.total
        ? i18n._("Downloading… {received} of {total}", {
            received: formatMegabytes(p.received),
            total: formatMegabytes(p.total),
          })
        : i18n._("Downloading… {received}", { received: formatMegabytes(p.received) });
    case "stoppingRunner":
      return i18n._("Stopping the tray runner…");
    case "installing":
      return i18n._("Installing…");
    case "restarting":
      return i18n._("Restarting…");
  }
}
