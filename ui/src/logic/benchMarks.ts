// Timing marks for the window benchmark (scripts/overview-window-bench.sh): recorded only when the
// benchmark's driver has set `window.__KAIROS_BENCH__ = { marks: [] }` in the page; otherwise
// every function here returns at once and nothing is kept. Times are performance.now().

export type BenchMark = { name: string; at: number; detail: string };
type Bench = { marks: BenchMark[] };

function bench(): Bench | undefined {
  return (globalThis as { __KAIROS_BENCH__?: Bench }).__KAIROS_BENCH__;
}

/** performance.now() while the benchmark runs, else 0 (no clock read). */
export function benchNow(): number {
  return bench() ? performance.now() : 0;
}

export function benchMark(name: string, detail = ""): void {
  bench()?.marks.push({ name, at: performance.now(), detail });
}

/** A mark with how long since `start` (a benchNow()), in ms, as its detail. */
export function benchSince(name: string, start: number): void {
  const b = bench();
  if (b && start > 0) {
    const at = performance.now();
    b.marks.push({ name, at, detail: (at - start).toFixed(3) });
  }
}

/**
 * `name` once the frame holding what was just committed has been painted: a requestAnimationFrame
 * callback runs before that frame's style, layout and paint, and a message posted from it is
 * handled after them.
 */
export function benchPainted(name: string, detail = ""): void {
  if (!bench()) return;
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => benchMark(name, detail);
    channel.port2.postMessage(null);
  });
}

/** `promise`, with `${name}-sent` now and `${name}-answer` when it resolves. */
export function benchTimed<T>(name: string, detail: string, promise: Promise<T>): Promise<T> {
  if (!bench()) return promise;
  benchMark(`${name}-sent`, detail);
  return promise.then((value) => {
    benchMark(`${name}-answer`, detail);
    return value;
  });
}
