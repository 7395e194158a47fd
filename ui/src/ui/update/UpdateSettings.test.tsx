// @vitest-environment happy-dom
// Settings → Updates against the fake backend's scripted updater: what it shows, saving, the
// feed's field error in the catalog's words, KAIROS_UPDATE_URL disabling the field, and
// "Check for updates" with each result in the status line.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UpdateCheck } from "../../ipc";
import { FAKE_RELEASE_FEED, availableUpdate, fakeUpdate, updateCalls } from "../../ipc/fakeUpdate";
import { type ToastMessage, onToast } from "../toast";
import { UpdateSettingsSection } from "./UpdateSettings";
import { resetUpdateState, updateState } from "./updates";

beforeAll(async () => {
  await import("../../ipc/fake");
});
let toasts: ToastMessage[] = [];
let stopToasts = () => {};
beforeEach(() => {
  toasts = [];
  stopToasts = onToast((m) => m && toasts.push(m));
});
afterEach(() => {
  stopToasts();
  cleanup();
  resetUpdateState();
  fakeUpdate.reset();
});

const feed = () => screen.getByTestId("update-feed-url") as HTMLInputElement;
const autoCheck = () => screen.getByTestId("update-auto-check") as HTMLInputElement;
const status = () => screen.getByTestId("update-status");

describe("Settings → Updates", () => {
  it("shows the version, how it was installed, the last check, the skipped version and the release feed", async () => {
    fakeUpdate.script({ settings: { lastCheck: "2026-11-27T09:30:00Z", skipped: "0.1.5" } });
    render(<UpdateSettingsSection />);
    await screen.findByTestId("update-feed-url");
    const section = screen.getByRole("group", { name: "Updates" });
    expect(section.textContent).toContain("Kairos 0.1.0");
    expect(section.textContent).toContain("Installed with the Kairos installer: Kairos updates itself.");
    // The window's date formatting (local time: only the date part is fixed across zones).
    expect(section.textContent).toMatch(/Last checked: Nov 2[78], 2026, \d/);
    expect(section.textContent).toContain("Skipped version: 0.1.5");
    expect(autoCheck().checked).toBe(true);
    expect(screen.getByLabelText("Check for updates automatically (at start and once a day)")).toBe(autoCheck());
    expect(screen.getByLabelText("Update feed (for mirrors)")).toBe(feed());
    expect(feed().placeholder).toBe(FAKE_RELEASE_FEED);
    expect(feed().disabled).toBe(false);
  });

  it("saves the automatic check and the mirror feed with the section's Save", async () => {
    render(<UpdateSettingsSection />);
    await screen.findByTestId("update-feed-url");
    fireEvent.click(autoCheck());
    fireEvent.input(feed(), { target: { value: "https://mirror.example/kairos/latest.json" } });
    fireEvent.click(screen.getByTestId("update-save"));
    await waitFor(() => expect(toasts.map((t) => t.text)).toContain("Settings saved"));
    expect(updateCalls.filter((c) => c.command === "setUpdateSettings")).toEqual([
      { command: "setUpdateSettings", args: [false, "https://mirror.example/kairos/latest.json"] },
    ]);
    expect(fakeUpdate.settings()).toMatchObject({
      autoCheck: false,
      feedUrl: "https://mirror.example/kairos/latest.json",
    });
    expect(autoCheck().checked).toBe(false);
    expect(feed().placeholder).toBe("https://mirror.example/kairos/latest.json");
  });

  it("puts a refused feed address's error next to the field, in the catalog's words", async () => {
    render(<UpdateSettingsSection />);
    await screen.findByTestId("update-feed-url");
    fireEvent.input(feed(), { target: { value: "ftp://mirror.example/latest.json" } });
    fireEvent.click(screen.getByTestId("update-save"));
    const sentence =
      "Enter an address starting with http:// or https://, or leave the field empty to use the release feed.";
    await waitFor(() => expect(document.getElementById("setting-update-feed-error")?.textContent).toBe(sentence));
    expect(feed().getAttribute("aria-invalid")).toBe("true");
    expect(feed().getAttribute("aria-describedby")).toContain("setting-update-feed-error");
    expect(toasts.at(-1)).toMatchObject({ kind: "error", text: `Settings not saved: ${sentence}` });
    expect(fakeUpdate.settings().feedUrl).toBe("");
    // Typing again clears it.
    fireEvent.input(feed(), { target: { value: "https://mirror.example/latest.json" } });
    expect(document.getElementById("setting-update-feed-error")).toBeNull();
  });

  it("disables the feed field and says so when KAIROS_UPDATE_URL overrides it", async () => {
    fakeUpdate.script({
      settings: { feedFromEnvironment: true, effectiveFeed: "http://127.0.0.1:8123/latest.json", feedUrl: "" },
    });
    render(<UpdateSettingsSection />);
    await screen.findByTestId("update-feed-url");
    expect(feed().disabled).toBe(true);
    expect(document.getElementById("setting-update-feed-hint")!.textContent).toBe(
      "The KAIROS_UPDATE_URL environment variable is set: checks read http://127.0.0.1:8123/latest.json.",
    );
    // The automatic check can still be saved.
    fireEvent.click(autoCheck());
    fireEvent.click(screen.getByTestId("update-save"));
    await waitFor(() => expect(fakeUpdate.settings().autoCheck).toBe(false));
  });

  const results: [UpdateCheck | { code: string; message: string }, string, string][] = [
    [{ kind: "upToDate", current: "0.1.0" }, "upToDate", "Kairos 0.1.0 is up to date."],
    [
      { kind: "older", current: "0.2.0", offered: "0.1.0" },
      "older",
      "The update feed offers 0.1.0, older than this Kairos 0.2.0; it was not installed.",
    ],
    [{ kind: "offline", current: "0.1.0" }, "offline", "You seem to be offline; try again later."],
    [
      { kind: "packageManager", current: "0.1.0", releases: "https://github.com/kairos-scheduler/kairos/releases" },
      "packageManager",
      "Kairos was installed with your package manager (.rpm); it updates Kairos. Kairos releases",
    ],
    [
      { kind: "fromSource", current: "0.1.0" },
      "fromSource",
      "This copy of Kairos was built from source; it does not update itself.",
    ],
    [
      { code: "UpdateFeedInvalid", message: "the update feed http://x/ is not JSON: expected value" },
      "UpdateFeedInvalid",
      "The update feed is not a Kairos update feed. Check the update feed address in Settings.Technical detailsthe update feed http://x/ is not JSON: expected value",
    ],
  ];
  for (const [answer, kind, text] of results) {
    it(`"Check for updates" shows ${kind} in the status line`, async () => {
      fakeUpdate.script({ check: answer });
      render(<UpdateSettingsSection />);
      fireEvent.click(await screen.findByTestId("check-updates"));
      await waitFor(() => expect(status().dataset.kind).toBe(kind));
      expect(status().textContent).toBe(text);
      expect(updateCalls.filter((c) => c.command === "checkForUpdate")).toEqual([
        { command: "checkForUpdate", args: [false] },
      ]);
      if (kind === "packageManager") {
        const link = status().querySelector("a")!;
        expect(link.getAttribute("href")).toBe("https://github.com/kairos-scheduler/kairos/releases");
        // The system's browser opens it (through Rust), not the webview.
        fireEvent.click(link);
        await waitFor(() => expect(updateCalls.some((c) => c.command === "openReleasesPage")).toBe(true));
      }
      if ("code" in answer) expect(screen.getByTestId("update-error").dataset.code).toBe(answer.code);
    });
  }

  it('"Check for updates" finding a version opens the dialog\'s offer and records when it checked', async () => {
    fakeUpdate.script({ check: availableUpdate("0.2.0") });
    render(<UpdateSettingsSection />);
    await screen.findByTestId("update-feed-url");
    expect(screen.getByRole("group", { name: "Updates" }).textContent).toContain("Not checked yet.");
    fireEvent.click(screen.getByTestId("check-updates"));
    await waitFor(() => expect(status().dataset.kind).toBe("available"));
    expect(status().textContent).toBe("Kairos 0.2.0 is available.");
    expect(updateState().offer?.version).toBe("0.2.0");
    await waitFor(() => expect(screen.getByRole("group", { name: "Updates" }).textContent).toContain("Last checked:"));
  });
});
