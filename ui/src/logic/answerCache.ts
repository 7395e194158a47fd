// Backend answers kept by key, as promises, so that a request already under way (a prefetch) is
// shared by whoever asks next, and an answer already here is used at once. Bounded: the least
// recently asked key goes first. A failed answer is not kept.

export class AnswerCache<T> {
  private readonly answers = new Map<string, Promise<T>>();
  /** The answers that have come, for `peek`. */
  private readonly settled = new WeakMap<Promise<T>, T>();

  constructor(private readonly size: number) {}

  /** The answer kept for `key`, else `ask()`'s, kept. */
  get(key: string, ask: () => Promise<T>): Promise<T> {
    const kept = this.answers.get(key);
    if (kept) {
      this.answers.delete(key);
      this.answers.set(key, kept);
      return kept;
    }
    const asked = ask();
    this.answers.set(key, asked);
    asked.then(
      (value) => this.settled.set(asked, value),
      () => {
        if (this.answers.get(key) === asked) this.answers.delete(key);
      },
    );
    for (const oldest of this.answers.keys()) {
      if (this.answers.size <= this.size) break;
      this.answers.delete(oldest);
    }
    return asked;
  }

  /** The answer kept for `key` if it has come (no waiting for a promise), else undefined. */
  peek(key: string): T | undefined {
    const kept = this.answers.get(key);
    return kept && this.settled.get(kept);
  }

  has(key: string): boolean {
    return this.answers.has(key);
  }

  /** Forget every answer (the data changed, or time moved on). */
  clear(): void {
    this.answers.clear();
  }
}
