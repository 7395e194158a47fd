// Hash routes: #/c/<collection>, #/c/<collection>/new, #/c/<collection>/j/<job>[/history[/<start>]], #/settings,
// #/overview[?view=…&day=…&…] (every job's runs; what the overview shows is in the query, so Back
// and the sidebar's link return to it).
// <collection> is the collection's id (subscription/resourceGroup/name, what commands take),
// percent-encoded into one segment like every name.
export type Route =
  | { page: "home" }
  | { page: "settings" }
  | ({ page: "overview" } & OverviewState)
  | { page: "collection"; collection: string }
  | { page: "new"; collection: string }
  | { page: "job"; collection: string; job: string }
  /** `at`: the start (RFC 3339) of the run to open the history at (a past run in the overview). */
  | { page: "history"; collection: string; job: string; at?: string };

/** What the overview shows, as far as it differs from its defaults (this week, every job). */
export type OverviewState = {
  view?: string;
  /** The selected day, YYYY-MM-DD in the overview's zone. */
  day?: string;
  hour?: number;
  collection?: string;
  search?: string;
  state?: string;
  action?: string;
  zone?: string;
};
const OVERVIEW_KEYS = ["view", "day", "hour", "collection", "search", "state", "action", "zone"] as const;

function overviewState(query: string): OverviewState {
  const q = new URLSearchParams(query);
  const s: OverviewState = {};
  for (const k of OVERVIEW_KEYS) {
    const v = q.get(k);
    if (v === null || v === "") continue;
    if (k === "hour") {
      const h = Number(v);
      if (Number.isInteger(h) && h >= 0 && h < 24) s.hour = h;
    } else s[k] = v;
  }
  return s;
}

function overviewQuery(r: OverviewState): string {
  const q = new URLSearchParams();
  for (const k of OVERVIEW_KEYS) {
    const v = r[k];
    if (v !== undefined && v !== "") q.set(k, String(v));
  }
  const text = q.toString();
  return text ? `?${text}` : "";
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function parseRoute(full: string): Route {
  const [hash, query = ""] = full.split("?", 2);
  const parts = hash
    .replace(/^#\/?/, "")
    .split("/")
    .filter((p) => p !== "");
  const names = parts.map(decode);
  if (names.some((n) => n === null)) return { page: "home" };
  const [a, c, kind, job, tail, at] = names as string[];
  if (a === "settings" && parts.length === 1) return { page: "settings" };
  if (a === "overview" && parts.length === 1) return { page: "overview", ...overviewState(query) };
  if (a !== "c" || c === undefined) return { page: "home" };
  if (parts.length === 2) return { page: "collection", collection: c };
  if (kind === "new" && parts.length === 3) return { page: "new", collection: c };
  if (kind === "j" && job !== undefined && parts.length === 4) return { page: "job", collection: c, job };
  if (kind === "j" && job !== undefined && tail === "history" && parts.length === 5)
    return { page: "history", collection: c, job };
  if (kind === "j" && job !== undefined && tail === "history" && parts.length === 6)
    return { page: "history", collection: c, job, at };
  return { page: "home" };
}

export function routeHash(r: Route): string {
  const e = encodeURIComponent;
  switch (r.page) {
    case "home":
      return "#/";
    case "settings":
      return "#/settings";
    case "overview":
      return `#/overview${overviewQuery(r)}`;
    case "collection":
      return `#/c/${e(r.collection)}`;
    case "new":
      return `#/c/${e(r.collection)}/new`;
    case "job":
      return `#/c/${e(r.collection)}/j/${e(r.job)}`;
    case "history":
      return `#/c/${e(r.collection)}/j/${e(r.job)}/history${r.at ? `/${e(r.at)}` : ""}`;
  }
}

/** The collection a route is about (the sidebar highlights it), if any. */
export function routeCollection(r: Route): string | null {
  // The overview's `collection` is a filter, not the page's collection.
  return r.page !== "overview" && "collection" in r ? r.collection : null;
}
