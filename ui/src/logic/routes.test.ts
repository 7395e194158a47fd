import { describe, expect, it } from "vitest";
import { type Route, parseRoute, routeHash } from "./routes";

/** `canonical` false = the hash parses to `route` but is not how the app writes it. */
function check(hash: string, route: Route, canonical = true) {
  expect(parseRoute(hash)).toEqual(route);
  if (canonical) expect(routeHash(route)).toBe(hash);
  expect(parseRoute(routeHash(route))).toEqual(route);
}

const table: [string, Route, boolean?][] = [
  ["#/", { page: "home" }],
  ["", { page: "home" }, false],
  ["#/settings", { page: "settings" }],
  ["#/overview", { page: "overview" }],
  [
    "#/overview?view=month&day=2026-11-27&hour=5&collection=local%2Fdesktop%2Fdefault&search=a+b&zone=Europe%2FBerlin",
    {
      page: "overview",
      view: "month",
      day: "2026-11-27",
      hour: 5,
      collection: "local/desktop/default",
      search: "a b",
      zone: "Europe/Berlin",
    },
  ],
  // Empty and impossible values are left out.
  ["#/overview?view=&hour=24&state=Enabled", { page: "overview", state: "Enabled" }, false],
  ["#/c/default", { page: "collection", collection: "default" }],
  ["#/c/default/new", { page: "new", collection: "default" }],
  ["#/c/default/j/nightly", { page: "job", collection: "default", job: "nightly" }],
  ["#/c/default/j/nightly/history", { page: "history", collection: "default", job: "nightly" }],
  [
    "#/c/default/j/nightly/history/2026-11-20T05%3A15%3A00.000Z",
    { page: "history", collection: "default", job: "nightly", at: "2026-11-20T05:15:00.000Z" },
  ],
  ["#/c/my%20jobs/j/a%2Fb", { page: "job", collection: "my jobs", job: "a/b" }],
  // Commands name a collection by its id, subscription/resourceGroup/name: one route segment.
  [
    "#/c/local%2Fdesktop%2Fdefault/j/nightly/history",
    { page: "history", collection: "local/desktop/default", job: "nightly" },
  ],
  ["#/c/x/j/new", { page: "job", collection: "x", job: "new" }],
  ["#/c/x/unknown", { page: "home" }, false],
  ["#/c/%E0%A4%A", { page: "home" }, false],
];

describe("routes", () => {
  for (const [hash, route, canonical] of table) it(hash || "(empty)", () => check(hash, route, canonical));
});
