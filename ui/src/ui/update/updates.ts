// The window's self-update state: the version on offer (one dialog at most), the result of the
// last check the person asked for (Settings shows it), and how an install goes. The automatic
// check's offer comes once at start (takeUpdateOffer, in case it was found before the page
// listened) and then as `updateFound` events; a version already offered is not offered again.
import { useEffect, useState } from "preact/hooks";
import { i18n } from "../../i18n";
import {
  CommandFailure,
  type UpdateCheck,
  type UpdateProgress,
  api,
  messageOf,
  onUpdateFound,
  onUpdateProgress,
} from "../../ipc";
import { updateCheckText, updateErrorText } from "../../logic/updateMessages";
import { navigate } from "../hooks";
import { toast } from "../toast";

export type AvailableUpdate = Extract<UpdateCheck, { kind: "available" }>;
export type UpdateFailure = { code: string; message: string };
/** What a check the person asked for found: a result, or a failure with its code. */
export type CheckOutcome = { check: UpdateCheck } | { failure: UpdateFailure };

export type InstallState =
  | { step: "offer" }
  | { step: "installing"; progress: UpdateProgress }
  | { step: "failed"; failure: UpdateFailure };

export type UpdateState = {
  /** The version the dialog offers; null: no dialog. */
  offer: AvailableUpdate | null;
  install: InstallState;
  /** A check the person asked for is running. */
  checking: boolean;
  /** What the last check the person asked for found. */
  outcome: CheckOutcome | null;
};

let state: UpdateState = { offer: null, install: { step: "offer" }, checking: false, outcome: null };
const listeners = new Set<() => void>();
/** Versions the automatic check already offered in this window. */
const offered = new Set<string>();

function set(change: Partial<UpdateState>): void {
  state = { ...state, ...change };
  for (const l of listeners) l();
}

export function updateState(): UpdateState {
  return state;
}

/** The update state, re-rendering the caller when it changes. */
export function useUpdateState(): UpdateState {
  const [now, setNow] = useState(state);
  useEffect(() => {
    const l = () => setNow(state);
    listeners.add(l);
    l();
    return () => {
      listeners.delete(l);
    };
  }, []);
  return now;
}

function failureOf(e: unknown): UpdateFailure {
  return e instanceof CommandFailure ? { code: e.code, message: e.message } : { code: "Error", message: messageOf(e) };
}

/**
 * Offers `check` in the dialog when it is a new version. Never two dialogs: while one is open,
 * another offer is left out. `automatic`: a version offered before in this window is not again.
 */
export function offerUpdate(check: UpdateCheck | null, automatic: boolean): void {
  if (check?.kind !== "available") return;
  if (state.offer) return;
  if (automatic && offered.has(check.version)) return;
  offered.add(check.version);
  set({ offer: check, install: { step: "offer" } });
}

/** Later (or Close after a failure): the dialog goes; an install under way goes on. */
export function closeUpdateDialog(): void {
  set({ offer: null, install: { step: "offer" } });
}

/** Skip this version: automatic checks no longer offer it. */
export async function skipOfferedUpdate(): Promise<void> {
  const offer = state.offer;
  if (!offer) return;
  try {
    await api.skipUpdate(offer.version);
    closeUpdateDialog();
  } catch (e) {
    set({ install: { step: "failed", failure: failureOf(e) } });
  }
}

/** The toast's way to the whole result (the details, the releases link). */
const showInSettings = () => ({ label: i18n._("Show in Settings"), run: () => navigate({ page: "settings" }) });

/** Install: follows the progress events; on success the window restarts (so this never ends well). */
export async function installOfferedUpdate(): Promise<void> {
  if (!state.offer || state.install.step === "installing") return;
  set({ install: { step: "installing", progress: { phase: "download", received: null, total: null } } });
  const stop = onUpdateProgress((progress) => {
    if (state.install.step === "installing") set({ install: { step: "installing", progress } });
  });
  try {
    await api.installUpdate();
  } catch (e) {
    const failure = failureOf(e);
    // Closed meanwhile (Escape): the failure is still said, as a toast.
    if (state.offer) set({ install: { step: "failed", failure } });
    else toast(updateErrorText(failure.code), "error", showInSettings());
  } finally {
    stop();
  }
}

/** The frame's part: the automatic check's offer, at start and as it comes. Returns the stop. */
export function watchForUpdates(): () => void {
  let gone = false;
  api.takeUpdateOffer().then(
    (offer) => !gone && offerUpdate(offer, true),
    () => {},
  );
  const stop = onUpdateFound((check) => offerUpdate(check, true));
  return () => {
    gone = true;
    stop();
  };
}

/**
 * "Check for updates" (the menu, the palette, Settings): asks the feed now and shows what it
 * found; a new version opens the dialog, anything else is a toast (and Settings' status line).
 */
export async function checkForUpdates(): Promise<CheckOutcome | null> {
  if (state.checking) return null;
  set({ checking: true });
  let outcome: CheckOutcome;
  try {
    outcome = { check: await api.checkForUpdate(false) };
  } catch (e) {
    outcome = { failure: failureOf(e) };
  }
  set({ checking: false, outcome });
  if ("failure" in outcome) {
    toast(updateErrorText(outcome.failure.code), "error", showInSettings());
  } else if (outcome.check.kind === "available") {
    offerUpdate(outcome.check, false);
  } else if (outcome.check.kind === "packageManager") {
    toast(updateCheckText(outcome.check), "info", showInSettings());
  } else {
    toast(updateCheckText(outcome.check), outcome.check.kind === "older" ? "error" : "info");
  }
  return outcome;
}

/** For tests: as a new window. */
export function resetUpdateState(): void {
  offered.clear();
  state = { offer: null, install: { step: "offer" }, checking: false, outcome: null };
  for (const l of listeners) l();
}
