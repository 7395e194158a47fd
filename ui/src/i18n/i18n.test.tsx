// @vitest-environment happy-dom
import { act, cleanup, render, screen } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import type { CatalogLoaders } from "./catalogs";
import { loadMessages } from "./catalogs";
import { i18n, showLocale, useI18n } from "./index";
import type { Locale } from "./locales";

// Catalogs as `lingui compile` writes them (compiled messages), one module per catalog and locale.
const compiled: Record<string, Record<string, unknown>> = {
  "../locales/app/de.json": { Save: ["Speichern"], "Delete {name}?": [["name"], " löschen?"] },
  "../locales/jobs/de.json": { "Run now": ["Jetzt ausführen"] },
  "../locales/app/fr.json": { Save: ["Enregistrer"] },
  "../locales/jobs/fr.json": { "Run now": ["Exécuter maintenant"] },
};

/** Loaders over `compiled` that count which modules were imported. */
function fakeLoaders() {
  const imported: string[] = [];
  const loaders: CatalogLoaders = Object.fromEntries(
    Object.entries(compiled).map(([path, messages]) => [
      path,
      async () => {
        imported.push(path);
        return { messages: messages as never };
      },
    ]),
  );
  const load = (locale: Locale) => loadMessages(locale, loaders);
  return { imported, load };
}

function Label() {
  const t = useI18n();
  return (
    <p>
      {t._("Save")} · {t._("Delete {name}?", { name: "nightly" })} · {t._("Run now")}
    </p>
  );
}

afterEach(async () => {
  cleanup();
  i18n.activate("en");
});

describe("useI18n", () => {
  it("re-renders a component in the new language at once, without remounting it", async () => {
    const { load } = fakeLoaders();
    render(<Label />);
    const before = screen.getByText(/Save/);
    expect(before.textContent).toBe("Save · Delete nightly? · Run now");
    await act(async () => {
      await showLocale("de", load);
    });
    const after = screen.getByText(/Speichern/);
    expect(after.textContent).toBe("Speichern · nightly löschen? · Jetzt ausführen");
    expect(after).toBe(before); // same element: the component kept its state
  });

  it("stops re-rendering once the component is gone", async () => {
    let renders = 0;
    function Counting() {
      useI18n();
      renders++;
      return <p>{i18n._("Save")}</p>;
    }
    const flush = () => act(async () => {});
    const { unmount } = render(<Counting />);
    await flush();
    await act(async () => i18n.activate("en"));
    const seen = renders;
    expect(seen).toBeGreaterThan(1);
    unmount();
    await flush();
    await act(async () => i18n.activate("en"));
    expect(renders).toBe(seen);
  });
});

describe("showLocale", () => {
  it("sets <html lang> and records the switch time for the e2e", async () => {
    const { load } = fakeLoaders();
    const ms = await showLocale("fr", load);
    expect(document.documentElement.lang).toBe("fr");
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(Number(document.documentElement.dataset.langSwitchMs)).toBeCloseTo(ms!, 0);
  });

  it("a later switch wins over one still loading its catalogs", async () => {
    let release: () => void = () => {};
    const slow = (locale: Locale) =>
      new Promise<never>((resolve) => {
        release = () => resolve({ Save: [`slow ${locale}`] } as never);
      });
    const first = showLocale("pt-BR", slow);
    const { load } = fakeLoaders();
    await showLocale("fr", load);
    release();
    expect(await first).toBeNull();
    expect(i18n.locale).toBe("fr");
  });
});

describe("loadMessages", () => {
  it("imports only the asked language's catalogs, once each, and merges them", async () => {
    const { imported, load } = fakeLoaders();
    const messages = await load("de");
    expect(imported.sort()).toEqual(["../locales/app/de.json", "../locales/jobs/de.json"]);
    expect(Object.keys(messages).sort()).toEqual(["Delete {name}?", "Run now", "Save"]);
  });

  it("fails naming the language when it has no compiled catalog", async () => {
    const { load } = fakeLoaders();
    await expect(load("zh-TW")).rejects.toThrow(/zh-TW.*i18n:compile/);
  });
});
