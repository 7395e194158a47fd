// @vitest-environment happy-dom
// A language switch repaints the whole window at once, in place: the frame, the sidebar and the
// page, without a reload or a remount, and records how long it took.
import { act, cleanup, render, screen } from "@testing-library/preact";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { i18n, showLocale } from "../i18n";
import { App } from "./App";

// Compiled catalogs are build output; a few German messages stand in (compiled at run time).
vi.mock("../i18n/catalogs", () => ({
  loadMessages: async () => ({
    Overview: "Übersicht",
    Collections: "Auftragssammlungen",
    "Skip to content": "Zum Inhalt springen",
  }),
}));

beforeAll(async () => {
  await import("../ipc/fake");
});
afterEach(() => {
  cleanup();
  i18n.activate("en");
});

describe("switching the window's language", () => {
  it("repaints the frame and the sidebar in place and records the time it took", async () => {
    history.replaceState(null, "", "#/settings");
    render(<App />);
    const overview = await screen.findByText("Overview");
    const heading = screen.getByText("Collections");
    const switched: { ms: number | null } = { ms: null };
    await act(async () => {
      switched.ms = await showLocale("de");
    });
    expect(overview.textContent).toBe("Übersicht");
    expect(heading.textContent).toBe("Auftragssammlungen");
    expect(screen.getByText("Zum Inhalt springen")).toBeTruthy();
    expect(document.documentElement.lang).toBe("de");
    expect(switched.ms).toBeGreaterThanOrEqual(0);
    expect(document.documentElement.dataset.langSwitchMs).toBe(switched.ms?.toFixed(1));
  });
});
