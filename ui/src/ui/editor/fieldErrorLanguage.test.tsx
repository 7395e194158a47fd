// @vitest-environment happy-dom
import { readFileSync } from "node:fs";
import { i18n } from "@lingui/core";
import { cleanup, render, screen } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import type { FieldError } from "../../ipc";
import { ErrorsContext, TextField } from "./fields";

/** A PO file's translations by id (msgid → msgstr; multi-line strings joined, escapes read). */
function readPo(path: string): Record<string, string> {
  const text = readFileSync(new URL(path, import.meta.url), "utf8");
  const unquote = (s: string) => JSON.parse(s) as string;
  const out: Record<string, string> = {};
  for (const entry of text.split(/\n\n+/)) {
    const part = (key: string) => {
      const m = new RegExp(`^${key} ("(?:[^"\\\\]|\\\\.)*")\\n((?:"(?:[^"\\\\]|\\\\.)*"\\n?)*)`, "m").exec(
        `${entry}\n`,
      );
      return m ? [m[1], ...m[2].split("\n").filter(Boolean)].map(unquote).join("") : null;
    };
    const id = part("msgid");
    const translation = part("msgstr");
    if (id && translation) out[id] = translation;
  }
  return out;
}

const uriTooLong: FieldError = {
  path: "properties.action.request.uri",
  code: "BadRequest",
  message: "may be at most 2048 characters; got 3000",
  rule: "too_long",
  args: { max: 2048, got: 3000 },
};

function renderUriField() {
  render(
    <ErrorsContext.Provider value={{ "http-uri": [uriTooLong] }}>
      <TextField id="http-uri" label="URL" value="" onInput={() => {}} />
    </ErrorsContext.Provider>,
  );
  return document.querySelector('.field-error[data-path="properties.action.request.uri"]');
}

afterEach(() => {
  cleanup();
  i18n.activate("en");
});

describe("a field error in the window's language", () => {
  it("is said in German next to its field, from the jobs catalog, with German numbers", () => {
    i18n.load("de", readPo("../../locales/jobs/de.po"));
    i18n.activate("de");
    const error = renderUriField();
    expect(error?.textContent).toBe("Darf höchstens 2.048 Zeichen lang sein; die Eingabe hat 3.000.");
    // Next to its field: the input points at it and is marked invalid.
    const input = screen.getByLabelText("URL");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(input.getAttribute("aria-describedby") ?? "")?.contains(error as Node)).toBe(true);
  });

  it("is said in English by default, from the same rule", () => {
    expect(renderUriField()?.textContent).toBe("Can be at most 2,048 characters; this has 3,000.");
  });
});
