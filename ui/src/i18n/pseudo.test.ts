import { describe, expect, it } from "vitest";
import { finishPseudo } from "../../scripts/i18n-pseudo.mjs";

describe("finishPseudo (the en-XA catalog after lingui compile)", () => {
  it("brackets the whole message and lengthens it by about 40 %", () => {
    const out = finishPseudo(["Śàṽē ćĥàńğēś"]) as string[];
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\[Śàṽē ćĥàńğēś .+\]$/);
    const length = out[0].length - 2;
    expect(length / "Śàṽē ćĥàńğēś".length).toBeGreaterThanOrEqual(1.4);
    expect(length / "Śàṽē ćĥàńğēś".length).toBeLessThan(1.5);
  });

  it("keeps placeholders and plurals as tokens, outside the text it adds", () => {
    const plural = ["count", "plural", { one: ["#", " Ĵōƀ"], other: ["#", " Ĵōƀś"] }];
    const out = finishPseudo(["Ďēĺēţē ", ["name"], " àńď ", plural]);
    expect(out[0]).toBe("[Ďēĺēţē ");
    expect(out[1]).toEqual(["name"]);
    expect(out[2]).toBe(" àńď ");
    expect(out[3]).toEqual(plural);
    expect(out[4]).toMatch(/^ .*\]$/);
  });

  it("lengthens even a one-letter label", () => {
    expect(finishPseudo("X")).toEqual(["[X ]"]);
  });
});
