import { describe, expect, it, vi } from "vitest";
import { AnswerCache } from "./answerCache";

describe("AnswerCache", () => {
  it("asks once per key, shares a request under way, and forgets on clear", async () => {
    const cache = new AnswerCache<number>(4);
    let resolve!: (n: number) => void;
    const ask = vi.fn(() => new Promise<number>((r) => (resolve = r)));
    const first = cache.get("dec", ask);
    const second = cache.get("dec", ask);
    expect(second).toBe(first);
    resolve(42);
    expect(await second).toBe(42);
    expect(ask).toHaveBeenCalledTimes(1);
    cache.clear();
    expect(cache.has("dec")).toBe(false);
    cache.get("dec", () => Promise.resolve(43));
    expect(await cache.get("dec", ask)).toBe(43);
  });

  it("keeps at most `size` answers, the least recently asked going first", () => {
    const cache = new AnswerCache<string>(2);
    const ask = (v: string) => () => Promise.resolve(v);
    cache.get("a", ask("a"));
    cache.get("b", ask("b"));
    cache.get("a", ask("a again"));
    cache.get("c", ask("c"));
    expect([cache.has("a"), cache.has("b"), cache.has("c")]).toEqual([true, false, true]);
  });

  it("peeks at an answer only once it has come", async () => {
    const cache = new AnswerCache<number>(2);
    let resolve!: (n: number) => void;
    const asked = cache.get("dec", () => new Promise<number>((r) => (resolve = r)));
    expect(cache.peek("dec")).toBeUndefined();
    resolve(42);
    await asked;
    expect(cache.peek("dec")).toBe(42);
    expect(cache.peek("jan")).toBeUndefined();
    cache.clear();
    expect(cache.peek("dec")).toBeUndefined();
  });

  it("does not keep a failed answer", async () => {
    const cache = new AnswerCache<string>(2);
    await expect(cache.get("x", () => Promise.reject(new Error("engine busy")))).rejects.toThrow("engine busy");
    expect(cache.has("x")).toBe(false);
  });
});
