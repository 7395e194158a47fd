import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { messageOf, onEngineChanged } from "../ipc";
import { type Route, parseRoute, routeHash } from "../logic/routes";
import { throttle } from "../logic/timing";

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}

/**
 * Back and Forward through the hash history: Alt+Left/Right, and the mouse's back and forward
 * buttons (3 and 4). Not while a modal dialog is open (its page is not the one to leave).
 */
export function useBackForward(): void {
  useEffect(() => {
    const go = (step: -1 | 1, e: Event) => {
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      if (step < 0) history.back();
      else history.forward();
    };
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (e.key === "ArrowLeft") go(-1, e);
      else if (e.key === "ArrowRight") go(1, e);
    };
    const onMouse = (e: MouseEvent) => {
      if (e.button === 3) go(-1, e);
      else if (e.button === 4) go(1, e);
    };
    // mousedown too: some engines act on the press; the step itself is on the release only.
    const stop = (e: MouseEvent) => {
      if (e.button === 3 || e.button === 4) e.preventDefault();
    };
    addEventListener("keydown", onKey);
    addEventListener("mouseup", onMouse);
    addEventListener("mousedown", stop);
    return () => {
      removeEventListener("keydown", onKey);
      removeEventListener("mouseup", onMouse);
      removeEventListener("mousedown", stop);
    };
  }, []);
}

/**
 * Writes `route` into the address without a new history entry or a hashchange (the view that
 * calls it already shows it): Back and the links that read `lastRoute` return to it.
 */
export function recordRoute(route: Route): void {
  const hash = routeHash(route);
  if (route.page === "overview") lastOverview = hash;
  if (location.hash !== hash) history.replaceState(history.state, "", hash);
}

let lastOverview = routeHash({ page: "overview" });

/** The overview as it was last shown (its view, day and filters), for the sidebar's link. */
export function lastOverviewHash(): string {
  return lastOverview;
}

export function navigate(route: Route, replace = false): void {
  const hash = routeHash(route);
  if (replace) history.replaceState(null, "", hash);
  else location.hash = hash;
  if (replace) dispatchEvent(new HashChangeEvent("hashchange"));
}

/**
 * Calls `reload` when the engine reports a change, at most every `ms`: a burst of runs
 * becomes one reload. Callers keep showing their old data until the new data arrives.
 */
export function useEngineChanged(reload: () => void, ms = 500): void {
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    const throttled = throttle(() => latest.current(), ms);
    const stop = onEngineChanged(() => throttled());
    return () => {
      stop();
      throttled.cancel();
    };
  }, [ms]);
}

/**
 * The backend's answer for `key` (null: nothing to ask), asked again when the key changes or
 * `reload` is called. An answer to an older key is dropped when it arrives late. The last answer
 * stays in `value` while the next one loads (the view keeps its nodes and its focus); `fresh`
 * says whether it answers the current key. `peek` gives an answer already at hand for a key (a
 * cache's): it is shown in the render that changes the key, not one render later.
 */
export function useAnswer<T>(
  key: string | null,
  load: () => Promise<T>,
  peek?: (key: string) => T | undefined,
): { value: T | null; fresh: boolean; error: string; reload: () => void } {
  const [answer, setAnswer] = useState<{ key: string; value: T } | null>(null);
  const [error, setError] = useState<{ key: string; message: string } | null>(null);
  const latest = useRef({ key, load });
  latest.current = { key, load };
  const reload = useCallback(() => {
    const { key: asked, load: ask } = latest.current;
    if (asked === null) return;
    ask().then(
      (value) => {
        if (latest.current.key !== asked) return;
        setAnswer({ key: asked, value });
        setError(null);
      },
      (e) => {
        if (latest.current.key === asked) setError({ key: asked, message: messageOf(e) });
      },
    );
  }, []);
  // Asked as soon as the key is committed, not after the frame is painted (as useEffect would):
  // the answer is what the user waits for, so the request should not wait for a paint.
  useLayoutEffect(() => {
    if (key !== null) reload();
  }, [key, reload]);
  const held = answer !== null && answer.key === key;
  const peeked = !held && key !== null && peek ? peek(key) : undefined;
  return {
    value: peeked ?? answer?.value ?? null,
    fresh: held || peeked !== undefined,
    error: error !== null && error.key === key ? error.message : "",
    reload,
  };
}
