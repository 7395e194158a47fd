// @vitest-environment happy-dom
// The update dialog against the fake backend's scripted updater: an offered version with its
// notes, Install through each progress phase, a sentence per failure code with the detail under
// it, Skip and Later, and the automatic offer shown once.
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import axe from "axe-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { UpdateProgress } from "../../ipc";
import { FAKE_CURRENT, availableUpdate, fakeUpdate, updateCalls } from "../../ipc/fakeUpdate";
import { UPDATE_ERROR_MESSAGES } from "../../logic/updateMessages";
import { UpdateDialog } from "./UpdateDialog";
import { type ToastMessage, onToast } from "../toast";
import { closeUpdateDialog, offerUpdate, resetUpdateState, watchForUpdates } from "./updates";

beforeAll(async () => {
  await import("../../ipc/fake");
});
afterEach(() => {
  cleanup();
  resetUpdateState();
  fakeUpdate.reset();
});

const dialog = () => screen.queryByTestId("update-dialog");
const button = (id: string) => screen.getByTestId(id) as HTMLButtonElement;

/** An install that waits at each step until the test says `next()`. */
function steppedInstall(steps: UpdateProgress[], end: { code: string; message: string } | null = null) {
  let release: () => void = () => {};
  const next = () => act(() => release());
  fakeUpdate.script({
    install: async (emit) => {
      for (const p of steps) {
        emit(p);
        await new Promise<void>((r) => {
          release = r;
        });
      }
      if (end) throw end;
    },
  });
  return next;
}

describe("the update dialog", () => {
  it("offers the version with its notes (line breaks kept) and date, and is axe-clean", async () => {
    render(<UpdateDialog />);
    expect(dialog()).toBeNull();
    act(() => offerUpdate(availableUpdate("0.2.0", "Fixes:\n- a crash\n- the tray icon"), true));
    expect(await screen.findByRole("heading", { name: "Kairos 0.2.0 is available" })).toBeTruthy();
    const d = dialog()!;
    expect(d.dataset.version).toBe("0.2.0");
    // The version is in the dialog's body too (the end-to-end test reads it there).
    expect(d.textContent).toContain(`You have Kairos ${FAKE_CURRENT}; installing replaces it with Kairos 0.2.0.`);
    expect(d.textContent).toContain("Released on Nov 20, 2026.");
    const notes = screen.getByRole("region", { name: "Release notes" });
    expect(notes.textContent).toBe("Fixes:\n- a crash\n- the tray icon");
    expect(["update-skip", "update-later", "update-install"].map((id) => button(id).textContent)).toEqual([
      "Skip this version",
      "Later",
      "Install",
    ]);
    const result = await axe.run(document.getElementById("update-dialog")!, {
      rules: { "color-contrast": { enabled: false } },
    });
    expect(result.passes.length).toBeGreaterThan(5);
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" ")}`)).toEqual([]);
  });

  it("says when a version comes without notes or date", async () => {
    render(<UpdateDialog />);
    act(() => offerUpdate({ ...availableUpdate("0.3.0", null), date: null }, true));
    await screen.findByTestId("update-dialog");
    expect(dialog()!.textContent).toContain("This version came without release notes.");
    expect(dialog()!.textContent).not.toContain("Released on");
  });

  it("installs: the download with its progress, then stopping the tray runner, installing, restarting", async () => {
    const next = steppedInstall([
      { phase: "download", received: 512_000, total: 2_048_000 },
      { phase: "download", received: 2_048_000, total: 2_048_000 },
      { phase: "stoppingRunner" },
      { phase: "installing" },
      { phase: "restarting" },
    ]);
    render(<UpdateDialog />);
    act(() => offerUpdate(availableUpdate(), false));
    fireEvent.click(await screen.findByTestId("update-install"));
    const progress = () => screen.getByTestId("update-progress");
    await waitFor(() => expect(progress().textContent).toBe("Downloading… 0.5 MB of 2.0 MB"));
    expect(progress().dataset.phase).toBe("download");
    const bar = progress().querySelector("progress")!;
    expect([bar.value, bar.max]).toEqual([512_000, 2_048_000]);
    expect(screen.queryByTestId("update-later")).toBeNull();
    expect(button("update-install").disabled).toBe(true);

    next();
    await waitFor(() => expect(progress().textContent).toBe("Downloading… 2.0 MB of 2.0 MB"));
    next();
    await waitFor(() => expect(progress().dataset.phase).toBe("stoppingRunner"));
    expect(progress().textContent).toBe("Stopping the tray runner…");
    expect(progress().querySelector("progress")).toBeNull();
    next();
    await waitFor(() => expect(progress().dataset.phase).toBe("installing"));
    expect(progress().textContent).toBe("Installing…");
    next();
    await waitFor(() => expect(progress().dataset.phase).toBe("restarting"));
    expect(progress().textContent).toBe("Restarting…");
    next();
    expect(updateCalls.filter((c) => c.command === "installUpdate")).toHaveLength(1);
    expect(screen.queryByTestId("update-error")).toBeNull();
  });

  it("shows an unknown total as an indeterminate bar", async () => {
    steppedInstall([{ phase: "download", received: 3_000_000, total: null }]);
    render(<UpdateDialog />);
    act(() => offerUpdate(availableUpdate(), false));
    fireEvent.click(await screen.findByTestId("update-install"));
    await waitFor(() => expect(screen.getByTestId("update-progress").textContent).toBe("Downloading… 3.0 MB"));
    expect(screen.getByTestId("update-progress").querySelector("progress")!.hasAttribute("value")).toBe(false);
  });

  const sentences: [string, string][] = [
    ["UpdateFeedInvalid", "The update feed is not a Kairos update feed."],
    ["UpdateFeedUnavailable", "The update feed could not be read."],
    ["UpdateNoBuildForThisSystem", "The update feed has no update for this system."],
    [
      "UpdateSignatureInvalid",
      "The download does not match its signature. Nothing was installed; this version keeps running.",
    ],
    ["UpdateDownloadFailed", "The download did not finish. Nothing was installed; this version keeps running."],
    ["UpdateInstallFailed", "The update could not be installed. This version is still installed and keeps running."],
    ["UpdateRunnerBusy", "The tray runner did not stop in time. Nothing was installed"],
    ["UpdateNotFound", "There is no update to install."],
    ["SomethingNew", "The update did not work. Nothing was installed; this version keeps running."],
  ];
  it("has a sentence for every failure code the backend names", () => {
    expect(Object.keys(UPDATE_ERROR_MESSAGES).sort()).toEqual(
      [...sentences.map(([code]) => code).filter((c) => c !== "SomethingNew"), "InvalidUpdateFeedUrl"].sort(),
    );
  });
  for (const [code, sentence] of sentences) {
    it(`says a failed install with ${code} in words, the detail under it, and closes`, async () => {
      const message = `technical detail of ${code}: 1234 of 5678 bytes`;
      const next = steppedInstall([{ phase: "download", received: 1234, total: 5678 }], { code, message });
      render(<UpdateDialog />);
      act(() => offerUpdate(availableUpdate(), false));
      fireEvent.click(await screen.findByTestId("update-install"));
      await screen.findByTestId("update-progress");
      next();
      const error = await screen.findByTestId("update-error");
      expect(error.dataset.code).toBe(code);
      expect(error.querySelector(".error-text")!.textContent).toContain(sentence);
      const details = error.querySelector("details")!;
      expect(details.querySelector("summary")!.textContent).toBe("Technical details");
      expect(details.textContent).toContain(message);
      expect(screen.queryByTestId("update-progress")).toBeNull();
      fireEvent.click(button("update-close"));
      await waitFor(() => expect(dialog()).toBeNull());
    });
  }

  it("still says a failure when the dialog was closed during the install (a toast)", async () => {
    const toasts: ToastMessage[] = [];
    const stopToasts = onToast((m) => m && toasts.push(m));
    const next = steppedInstall([{ phase: "download", received: 1, total: 2 }], {
      code: "UpdateInstallFailed",
      message: "dpkg: error",
    });
    render(<UpdateDialog />);
    act(() => offerUpdate(availableUpdate(), false));
    fireEvent.click(await screen.findByTestId("update-install"));
    await screen.findByTestId("update-progress");
    act(() => closeUpdateDialog());
    next();
    await waitFor(() =>
      expect(toasts.at(-1)).toMatchObject({
        kind: "error",
        text: "The update could not be installed. This version is still installed and keeps running.",
      }),
    );
    expect(dialog()).toBeNull();
    stopToasts();
  });

  it("Skip this version calls skipUpdate and closes; Later only closes", async () => {
    render(<UpdateDialog />);
    act(() => offerUpdate(availableUpdate("0.2.0"), false));
    fireEvent.click(await screen.findByTestId("update-later"));
    await waitFor(() => expect(dialog()).toBeNull());
    expect(updateCalls).toEqual([]);

    act(() => offerUpdate(availableUpdate("0.2.1"), false));
    fireEvent.click(await screen.findByTestId("update-skip"));
    await waitFor(() => expect(dialog()).toBeNull());
    expect(updateCalls).toEqual([{ command: "skipUpdate", args: ["0.2.1"] }]);
    expect(fakeUpdate.settings().skipped).toBe("0.2.1");
  });

  it("shows the automatic offer once: at start, and not again for the same version", async () => {
    fakeUpdate.script({ offer: availableUpdate("0.2.0") });
    render(<UpdateDialog />);
    const stop = watchForUpdates();
    await screen.findByTestId("update-dialog");
    expect(updateCalls.map((c) => c.command)).toEqual(["takeUpdateOffer"]);
    // The event for the same version while the dialog is open: still one dialog.
    act(() => fakeUpdate.emitFound(availableUpdate("0.2.0")));
    // Another version while it is open: never a second dialog, the first stays.
    act(() => fakeUpdate.emitFound(availableUpdate("0.4.0")));
    expect(screen.getAllByTestId("update-dialog")).toHaveLength(1);
    expect(dialog()!.dataset.version).toBe("0.2.0");

    fireEvent.click(button("update-later"));
    await waitFor(() => expect(dialog()).toBeNull());
    // The next day's check finds the same version: not offered again in this window.
    act(() => fakeUpdate.emitFound(availableUpdate("0.2.0")));
    expect(dialog()).toBeNull();
    // A newer one is.
    act(() => fakeUpdate.emitFound(availableUpdate("0.5.0")));
    await waitFor(() => expect(dialog()?.dataset.version).toBe("0.5.0"));
    stop();
  });
});
