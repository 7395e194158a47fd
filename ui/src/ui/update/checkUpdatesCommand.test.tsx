// @vitest-environment happy-dom
// "check-updates": the native menu's Help → Check for Updates… (a `menu-command` event, through
// @tauri-apps/api's event mock) and the palette run the same check; a new version opens the
// dialog, anything else is a toast.
import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { act, cleanup, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defineBuiltinCommands } from "../../commands/builtin";
import { MENU_COMMAND_IDS, MENU_EVENT, listenForMenuCommands } from "../../commands/menu";
import { availableCommands, commandById, runCommand } from "../../commands/registry";
import { availableUpdate, fakeUpdate, updateCalls } from "../../ipc/fakeUpdate";
import { type ToastMessage, onToast } from "../toast";
import { UpdateDialog } from "./UpdateDialog";
import { resetUpdateState, updateState } from "./updates";

beforeAll(async () => {
  await import("../../ipc/fake");
  defineBuiltinCommands();
});
let toasts: ToastMessage[] = [];
let stop: () => void = () => {};
let stopToasts: () => void = () => {};
beforeEach(async () => {
  history.replaceState(null, "", "#/overview");
  toasts = [];
  stopToasts = onToast((m) => m && toasts.push(m));
  mockIPC(() => {}, { shouldMockEvents: true });
  stop = await listenForMenuCommands();
});
afterEach(() => {
  stop();
  stopToasts();
  clearMocks();
  cleanup();
  resetUpdateState();
  fakeUpdate.reset();
});

describe("the check-updates command", () => {
  it("is a menu command and listed in the palette", () => {
    expect(MENU_COMMAND_IDS).toContain("check-updates");
    expect(commandById("check-updates")).toMatchObject({ title: "Check for updates…", section: "Actions" });
    expect(availableCommands().map((c) => c.id)).toContain("check-updates");
  });

  it("from the menu: up to date is a toast", async () => {
    await emit(MENU_EVENT, "check-updates");
    await waitFor(() => expect(toasts.at(-1)).toMatchObject({ kind: "info", text: "Kairos 0.1.0 is up to date." }));
    expect(updateCalls).toEqual([{ command: "checkForUpdate", args: [false] }]);
    expect(updateState().outcome).toEqual({ check: { kind: "upToDate", current: "0.1.0" } });
  });

  it("from the menu: a new version opens the dialog, even one offered before and put off", async () => {
    fakeUpdate.script({ check: availableUpdate("0.2.0") });
    render(<UpdateDialog />);
    await emit(MENU_EVENT, "check-updates");
    expect((await screen.findByTestId("update-dialog")).dataset.version).toBe("0.2.0");
    act(() => screen.getByTestId("update-later").click());
    await waitFor(() => expect(screen.queryByTestId("update-dialog")).toBeNull());
    await emit(MENU_EVENT, "check-updates");
    expect((await screen.findByTestId("update-dialog")).dataset.version).toBe("0.2.0");
    expect(toasts).toEqual([]);
  });

  it("from the palette: a failure is an error toast in the catalog's words, with the way to its details", async () => {
    fakeUpdate.script({ check: { code: "UpdateFeedUnavailable", message: "cannot read the update feed: 503" } });
    expect(await runCommand("check-updates")).toBe(true);
    const last = toasts.at(-1)!;
    expect(last).toMatchObject({
      kind: "error",
      text: "The update feed could not be read. Try again later, or check the update feed address in Settings.",
    });
    last.action!.run();
    expect(location.hash).toBe("#/settings");
  });

  it("says an older version in the feed and a package manager's install plainly", async () => {
    fakeUpdate.script({ check: { kind: "older", current: "0.2.0", offered: "0.1.9" } });
    await runCommand("check-updates");
    expect(toasts.at(-1)?.text).toBe(
      "The update feed offers 0.1.9, older than this Kairos 0.2.0; it was not installed.",
    );
    fakeUpdate.script({ check: { kind: "packageManager", current: "0.2.0", releases: "https://example.invalid/r" } });
    await runCommand("check-updates");
    expect(toasts.at(-1)).toMatchObject({
      text: "Kairos was installed with your package manager (.rpm); it updates Kairos.",
      action: { label: "Show in Settings" },
    });
  });
});
