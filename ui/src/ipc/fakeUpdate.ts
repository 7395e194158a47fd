// Development and tests: the self-update commands of the fake backend (see fake.ts), driven by a
// script. Each outcome the real updater has (src-tauri/src/update/) can be set up: what a check
// answers (a result or a failure with its code), what the automatic check left for the page,
// and how an install goes (its progress events, then success or a failure). `?update` in the
// development URL starts with a version on offer.
import type { UpdateCheck, UpdateProgress, UpdateSettings } from "./types";

type Failure = { code: string; message: string };
type Answer<T> = Promise<{ status: "ok"; data: T } | { status: "error"; error: Failure & { errors: never[] } }>;
/** How an install goes: emit progress as it likes, then resolve (installed) or reject with a Failure. */
export type FakeInstall = (emit: (p: UpdateProgress) => void) => Promise<void>;

export type UpdateScript = {
  /** What `checkForUpdate` answers: a result, or a failure (`{ code, message }`). */
  check: UpdateCheck | Failure;
  /** What `takeUpdateOffer` gives once (the automatic check at start). */
  offer: UpdateCheck | null;
  install: FakeInstall;
  settings: UpdateSettings;
  /** Set: `setUpdateSettings` with a non-empty feed answers this failure (a field error on feedUrl). */
  refuseFeed: string | null;
};

export const FAKE_CURRENT = "0.1.0";
export const FAKE_RELEASE_FEED = "https://github.com/kairos-scheduler/kairos/releases/latest/download/latest.json";

type Available = Extract<UpdateCheck, { kind: "available" }>;
export const availableUpdate = (version = "0.2.0", notes: string | null = "Fixes.\nFaster start."): Available => ({
  kind: "available",
  current: FAKE_CURRENT,
  version,
  notes,
  date: "2026-11-20T10:00:00Z",
});

/** Downloads in two steps, then stops the runner, installs and restarts. */
export const installsWell: FakeInstall = async (emit) => {
  emit({ phase: "download", received: 512_000, total: 1_024_000 });
  emit({ phase: "download", received: 1_024_000, total: 1_024_000 });
  emit({ phase: "stoppingRunner" });
  emit({ phase: "installing" });
  emit({ phase: "restarting" });
};

function initial(): UpdateScript {
  const offered = typeof location !== "undefined" && /[?&]update\b/.test(location.search);
  return {
    check: offered ? availableUpdate() : { kind: "upToDate", current: FAKE_CURRENT },
    offer: offered ? availableUpdate() : null,
    install: installsWell,
    settings: {
      autoCheck: true,
      feedUrl: "",
      effectiveFeed: FAKE_RELEASE_FEED,
      feedFromEnvironment: false,
      skipped: null,
      lastCheck: null,
      kind: "selfUpdating",
      current: FAKE_CURRENT,
    },
    refuseFeed: null,
  };
}

let script = initial();
const found = new Set<(e: { payload: UpdateCheck }) => void>();
const progress = new Set<(e: { payload: UpdateProgress }) => void>();
/** Every command call, in order, with its arguments (tests read it). */
export const updateCalls: { command: string; args: unknown[] }[] = [];

const ok = <T>(data: T): Answer<T> => Promise.resolve({ status: "ok", data: structuredClone(data) });
const failed = (f: Failure, errors: unknown[] = []): Answer<never> =>
  Promise.resolve({ status: "error", error: { ...f, errors: errors as never[] } });
const isFailure = (c: UpdateCheck | Failure): c is Failure => "code" in c;
const call = (command: string, ...args: unknown[]) => updateCalls.push({ command, args });

/** The test's (or the developer's) handle on the fake updater. */
export const fakeUpdate = {
  /** Changes the script (the rest stays); `settings` is merged. */
  script(change: Partial<Omit<UpdateScript, "settings">> & { settings?: Partial<UpdateSettings> }): void {
    const { settings, ...rest } = change;
    script = { ...script, ...rest, settings: { ...script.settings, ...settings } };
  },
  /** Back to the start: nothing on offer, up to date, no calls recorded. */
  reset(): void {
    script = initial();
    updateCalls.length = 0;
  },
  /** The automatic check found `check` (the `updateFound` event). */
  emitFound(check: UpdateCheck): void {
    for (const l of found) l({ payload: structuredClone(check) });
  },
  settings: (): UpdateSettings => structuredClone(script.settings),
};

export const fakeUpdateCommands = {
  checkForUpdate: (automatic: boolean) => {
    call("checkForUpdate", automatic);
    const answer = script.check;
    if (isFailure(answer)) return failed(answer);
    if (answer.kind !== "offline") script.settings.lastCheck = "2026-11-27T09:30:00Z";
    if (automatic && answer.kind === "available" && script.settings.skipped === answer.version)
      return ok<UpdateCheck>({ kind: "skipped", current: answer.current, version: answer.version });
    return ok(answer);
  },
  installUpdate: async () => {
    call("installUpdate");
    try {
      await script.install((p) => {
        for (const l of progress) l({ payload: structuredClone(p) });
      });
      return ok(null);
    } catch (e) {
      return failed(e as Failure);
    }
  },
  takeUpdateOffer: async () => {
    call("takeUpdateOffer");
    const offer = script.offer;
    script.offer = null;
    return offer ? structuredClone(offer) : null;
  },
  openReleasesPage: () => {
    call("openReleasesPage");
    return ok(null);
  },
  skipUpdate: (version: string) => {
    call("skipUpdate", version);
    script.settings.skipped = version;
    return ok(null);
  },
  getUpdateSettings: () => {
    call("getUpdateSettings");
    return ok(script.settings);
  },
  setUpdateSettings: (autoCheck: boolean, feedUrl: string) => {
    call("setUpdateSettings", autoCheck, feedUrl);
    const feed = feedUrl.trim();
    if (feed && (script.refuseFeed !== null || !/^https?:\/\/[^/\s]+/i.test(feed))) {
      const message = script.refuseFeed ?? `'${feed}' is not an http or https URL`;
      return failed({ code: "InvalidUpdateFeedUrl", message }, [
        { path: "feedUrl", code: "InvalidUpdateFeedUrl", message, rule: "update.feedUrl", args: {} },
      ]);
    }
    const s = script.settings;
    script.settings = {
      ...s,
      autoCheck,
      feedUrl: feed,
      effectiveFeed: s.feedFromEnvironment ? s.effectiveFeed : feed || FAKE_RELEASE_FEED,
    };
    return ok(script.settings);
  },
};

export const fakeUpdateEvents = {
  updateFound: {
    listen: async (cb: (e: { payload: UpdateCheck }) => void) => {
      found.add(cb);
      return () => {
        found.delete(cb);
      };
    },
  },
  updateProgress: {
    listen: async (cb: (e: { payload: UpdateProgress }) => void) => {
      progress.add(cb);
      return () => {
        progress.delete(cb);
      };
    },
  },
};
