import { useEffect, useRef, useState } from "preact/hooks";
import { onEngineChanged } from "../ipc";
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
