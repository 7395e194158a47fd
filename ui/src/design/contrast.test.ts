import { describe, expect, it } from "vitest";
import { contrast, mix } from "./contrast";
import { readFileSync } from "node:fs";

const tokens = readFileSync(new URL("./tokens.css", import.meta.url), "utf8");

type Palette = Record<string, string>;

/** The colour blocks of tokens.css in order: light, dark, high-contrast light, high-contrast dark. */
function palettes(): Record<"light" | "dark" | "hcLight" | "hcDark", Palette> {
  const blocks = [...tokens.matchAll(/([^{}]+)\{([^{}]*)\}/g)]
    .map((m) =>
      Object.fromEntries(
        [...m[2].matchAll(/(--(?:color|cat)-[\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((d) => [d[1], d[2]]),
      ),
    )
    .filter((p) => "--color-text" in p);
  expect(blocks).toHaveLength(4);
  const [light, dark, hcLight, hcDark] = blocks;
  return {
    light,
    dark: { ...light, ...dark },
    hcLight: { ...light, ...hcLight },
    hcDark: { ...light, ...dark, ...hcDark },
  };
}

const TEXT = ["text", "muted", "accent", "success", "warning", "danger"];
const CATEGORIES = ["completed", "failed", "faulted", "skipped", "planned", "moved", "dstSkipped", "blackedOut"];

describe("token contrast (WCAG)", () => {
  for (const [name, p] of Object.entries(palettes())) {
    const c = (k: string) => p[`--color-${k}`];
    const backgrounds: Record<string, string> = {
      bg: c("bg"),
      surface: c("surface"),
      // The selection: the accent at 14 % (a selected row; the current collection in the sidebar).
      selection: mix(c("accent"), c("bg"), 0.14),
      "selection-surface": mix(c("accent"), c("surface"), 0.14),
    };
    describe(name, () => {
      for (const [where, bg] of Object.entries(backgrounds)) {
        for (const fg of TEXT)
          it(`${fg} text on ${where} is at least 4.5:1`, () => expect(contrast(c(fg), bg)).toBeGreaterThanOrEqual(4.5));
        it(`the focus ring on ${where} is at least 3:1`, () =>
          expect(contrast(c("focus"), bg)).toBeGreaterThanOrEqual(3));
      }
      it("text on filled buttons is at least 4.5:1", () => {
        expect(contrast(c("on-accent"), c("accent"))).toBeGreaterThanOrEqual(4.5);
        expect(contrast(c("on-accent"), c("accent-hover"))).toBeGreaterThanOrEqual(4.5);
        expect(contrast(c("on-danger"), c("danger"))).toBeGreaterThanOrEqual(4.5);
      });
      it("control borders are at least 3:1", () => {
        expect(contrast(c("border-strong"), c("bg"))).toBeGreaterThanOrEqual(3);
        expect(contrast(c("border-strong"), c("surface"))).toBeGreaterThanOrEqual(3);
      });
      for (const cat of CATEGORIES)
        it(`category ${cat} is at least 3:1 on the page`, () => {
          expect(contrast(p[`--cat-${cat}`], c("bg"))).toBeGreaterThanOrEqual(3);
          expect(contrast(p[`--cat-${cat}`], c("surface"))).toBeGreaterThanOrEqual(3);
        });
      it("the now line is not the Failed red", () => {
        expect(c("now")).not.toBe(p["--cat-failed"]);
        expect(contrast(c("now"), c("bg"))).toBeGreaterThanOrEqual(3);
      });
    });
  }
});
