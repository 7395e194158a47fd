import { describe, expect, it } from "vitest";
import { inOrder } from "./inOrder";

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("inOrder", () => {
  it("drops an answer older than one already applied", async () => {
    const seen: string[] = [];
    const ask = inOrder<string>((v) => seen.push(v));
    const first = deferred<string>();
    const second = deferred<string>();
    const a = ask(first.promise);
    const b = ask(second.promise);
    second.resolve("newer");
    await b;
    first.resolve("older");
    await a;
    expect(seen).toEqual(["newer"]);
  });

  it("applies answers that come in order, and passes failures on", async () => {
    const seen: number[] = [];
    const ask = inOrder<number>((v) => seen.push(v));
    await ask(Promise.resolve(1));
    await ask(Promise.resolve(2));
    await expect(ask(Promise.reject(new Error("gone")))).rejects.toThrow("gone");
    await ask(Promise.resolve(3));
    expect(seen).toEqual([1, 2, 3]);
  });
});
