/**
 * Answers of a repeated request, applied in the order they were asked: an answer older than one
 * already applied is dropped. Reloads run side by side (each `engine-changed` event asks again,
 * and the backend answers on a pool of threads), so they may answer out of order, and an older
 * list must not replace a newer one — a collection created a moment ago would vanish from the
 * sidebar, and the dialogs open on it would close with what was typed in them.
 */
export function inOrder<T>(apply: (value: T) => void): (answer: Promise<T>) => Promise<void> {
  let asked = 0;
  let applied = 0;
  return (answer) => {
    const n = ++asked;
    return answer.then((value) => {
      if (n > applied) {
        applied = n;
        apply(value);
      }
    });
  };
}
