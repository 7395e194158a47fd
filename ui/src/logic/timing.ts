// Keeping the window responsive while the backend works: at most one request in flight, and
// requests superseded while it runs are dropped (only the newest waiting one is sent next).

export type Coalescer<A> = { run(arg: A): void };

/**
 * `send(arg)` for the newest `arg` only. While a request is in flight, newer calls replace each
 * other; when it finishes the newest is sent. `deliver` gets every finished result in order,
 * each newer than the last, so the screen never goes back to an older answer.
 */
export function coalesce<A, R>(
  send: (arg: A) => Promise<R>,
  deliver: (result: R, arg: A) => void,
  fail: (error: unknown, arg: A) => void = () => {},
): Coalescer<A> {
  let busy = false;
  let waiting: { arg: A } | null = null;
  const start = (arg: A) => {
    busy = true;
    send(arg)
      .then(
        (r) => deliver(r, arg),
        (e) => fail(e, arg),
      )
      .finally(() => {
        busy = false;
        const next = waiting;
        waiting = null;
        if (next) start(next.arg);
      });
  };
  return {
    run(arg: A) {
      if (busy) waiting = { arg };
      else start(arg);
    },
  };
}

/** Calls `fn` at most once per `ms`, always with the last arguments (a trailing call). */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
): ((...args: A) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = -Infinity;
  let pending: A | null = null;
  const fire = () => {
    timer = null;
    last = Date.now();
    const args = pending!;
    pending = null;
    fn(...args);
  };
  const throttled = (...args: A) => {
    pending = args;
    if (timer) return;
    timer = setTimeout(fire, Math.max(0, last + ms - Date.now()));
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return throttled;
}
