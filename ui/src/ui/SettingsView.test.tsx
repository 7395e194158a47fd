// @vitest-environment happy-dom
// The Language setting: "System default" and each language in its own name; choosing one saves it
// through setLanguage and shows the window in the language the backend answers, at once.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { i18n } from "../i18n";
import { api } from "../ipc";
import { SettingsView } from "./SettingsView";

// Compiled catalogs are build output: each language loads as an empty table here.
vi.mock("../i18n/catalogs", () => ({ loadMessages: async () => ({}) }));

type Info = { setting: string | null; resolved: string };
// Typed loosely on purpose: the test stands in for the commands whatever the bindings say of them.
const backend = api as unknown as {
  getLanguage?: () => Promise<Info>;
  setLanguage?: (setting: string | null) => Promise<Info>;
};
const original = { get: backend.getLanguage, set: backend.setLanguage };

beforeAll(async () => {
  await import("../ipc/fake");
});
afterEach(() => {
  cleanup();
  backend.getLanguage = original.get;
  backend.setLanguage = original.set;
  i18n.activate("en");
});

describe("the Language setting", () => {
  it("offers the system's language and each language in its own name, and applies a choice at once", async () => {
    const saved: (string | null)[] = [];
    backend.getLanguage = async () => ({ setting: null, resolved: "en" });
    backend.setLanguage = async (setting) => {
      saved.push(setting);
      return { setting, resolved: setting ?? "en" };
    };
    render(<SettingsView />);
    const select = (await screen.findByLabelText("Language")) as HTMLSelectElement;
    await waitFor(() => expect(select.disabled).toBe(false));
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["", "System default"],
      ["en", "English"],
      ["zh-TW", "繁體中文"],
      ["de", "Deutsch"],
      ["pt-BR", "Português (Brasil)"],
      ["fr", "Français"],
    ]);
    expect(select.value).toBe("");

    fireEvent.change(select, { target: { value: "de" } });
    await waitFor(() => expect(document.documentElement.lang).toBe("de"));
    expect(i18n.locale).toBe("de");
    expect(select.value).toBe("de");

    fireEvent.change(select, { target: { value: "" } });
    await waitFor(() => expect(document.documentElement.lang).toBe("en"));
    expect(saved).toEqual(["de", null]);
  });

  it("says why a choice was refused and keeps the language", async () => {
    backend.getLanguage = async () => ({ setting: "fr", resolved: "fr" });
    backend.setLanguage = async () => {
      throw new Error("the settings file is read-only");
    };
    render(<SettingsView />);
    const select = (await screen.findByLabelText("Language")) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe("fr"));
    fireEvent.change(select, { target: { value: "zh-TW" } });
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The language was not changed: the settings file is read-only",
    );
    expect(select.value).toBe("fr");
    expect(i18n.locale).toBe("en");
  });
});
