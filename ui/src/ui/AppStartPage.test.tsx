// @vitest-environment happy-dom
// The start page is the first collection, but only while the address says home: a page asked
// for while the collections were loading (its hashchange not yet handled) is kept. The desktop
// e2e once went to Settings right after creating a collection and was sent back to it.
import { act, cleanup, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { App } from "./App";

beforeAll(async () => {
  await import("../ipc/fake");
});
afterEach(cleanup);

describe("the start page", () => {
  it("opens the first collection from home", async () => {
    history.replaceState(null, "", "#/");
    render(<App />);
    await waitFor(() => expect(location.hash).toBe("#/c/local%2Fdesktop%2Fdefault"));
  });

  it("keeps a page asked for while the collections were loading", async () => {
    history.replaceState(null, "", "#/");
    render(<App />);
    // The address changes before the collections arrive; its hashchange comes later.
    history.replaceState(null, "", "#/settings");
    await screen.findAllByText("default"); // the collections arrived
    await act(async () => {});
    expect(location.hash).toBe("#/settings");
    await act(async () => {
      dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeTruthy();
  });
});
