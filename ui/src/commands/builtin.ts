// The window's own commands: their titles (translated when defined, and defined again when the
// language changes), sections, keywords and shortcut labels, and how the global ones run. The ids are the native
// menu's `menu-command` payloads (menu.ts); jump targets to collections and jobs are added by
// jumpTargets.ts, the theme's by theme.ts.
import { i18n } from "../i18n";
import { api, messageOf } from "../ipc";
import { parseRoute, routeCollection } from "../logic/routes";
import { navigate } from "../ui/hooks";
import { toast } from "../ui/toast";
import { checkForUpdates } from "../ui/update/updates";
import { collectionName } from "./jumpTargets";
import { type Command, defineCommands } from "./registry";
import { currentSurface, showSurface } from "./surfaces";
import { defineThemeCommands } from "./theme";

/**
 * Ids of the commands a view or the frame carries out (useCommandHandler); they have no run of
 * their own. The sidebar, always there, opens its New collection and Import dialogs.
 */
export const CONTEXT_COMMANDS = ["about", "new-collection", "import", "new-job", "run-now", "delete", "find"] as const;
export type ContextCommandId = (typeof CONTEXT_COMMANDS)[number];
/** Every built-in command's id (jump targets, `go:<route>`, are not among them). */
export type BuiltinCommandId =
  | ContextCommandId
  | (typeof GLOBAL_IDS)[number]
  | "pause-all"
  | "theme-system"
  | "theme-light"
  | "theme-dark";
const GLOBAL_IDS = ["overview", "settings", "export", "palette", "back", "forward", "check-updates"] as const;

function routeNow() {
  return parseRoute(location.hash);
}

/** The collection the page shows (its jobs, a job, its history), if any. */
function shownCollection(): string | null {
  return routeCollection(routeNow());
}

let paused: boolean | null = null;

async function togglePaused(): Promise<void> {
  try {
    const now = await api.setPaused(!(await api.getPaused()));
    setPausedShown(now);
    toast(now ? i18n._("Paused: no job fires until you resume") : i18n._("Resumed: jobs fire again"));
  } catch (e) {
    toast(messageOf(e), "error");
  }
}

const pauseCommand = (isPaused: boolean | null): Command => ({
  id: "pause-all",
  title: isPaused ? i18n._("Resume all jobs") : i18n._("Pause all jobs"),
  section: "Actions",
  keywords: ["pause", "resume", "stop", "suspend", "all jobs", "tray"],
  run: togglePaused,
});

function setPausedShown(now: boolean): void {
  if (paused === now) return;
  paused = now;
  defineCommands([pauseCommand(now)]);
}

/** Reads whether every job is paused, so "pause-all" is titled Pause or Resume (palette open). */
export async function refreshPaused(): Promise<void> {
  try {
    setPausedShown(await api.getPaused());
  } catch {
    // The title stays as it was; running the command reads the state again anyway.
  }
}

const globalCommands = (): (Command & { id: (typeof GLOBAL_IDS)[number] })[] => [
  {
    id: "overview",
    title: i18n._("Go to Overview"),
    section: "Go to",
    keywords: ["calendar", "week", "month", "day", "runs", "schedule"],
    run: () => navigate({ page: "overview" }),
  },
  {
    id: "settings",
    title: i18n._("Settings"),
    section: "Go to",
    keywords: ["preferences", "options", "api", "port", "token"],
    shortcut: "Mod+,",
    run: () => navigate({ page: "settings" }),
  },
  {
    id: "export",
    title: i18n._("Export collection…"),
    section: "Actions",
    keywords: ["save", "bundle", "arm", "template", "crontab", "file", "backup"],
    available: () => shownCollection() !== null,
    run: () => {
      const collection = shownCollection();
      if (collection) showSurface({ kind: "export", collection, name: collectionName(collection) });
    },
  },
  {
    id: "palette",
    title: i18n._("Command palette"),
    section: "Window",
    keywords: ["commands", "search", "jump"],
    shortcut: "Mod+K",
    // Not listed inside the palette itself.
    available: () => currentSurface()?.kind !== "palette",
    run: () => showSurface({ kind: "palette" }),
  },
  {
    id: "back",
    title: i18n._({ id: "command.back", message: "Back" }),
    section: "Window",
    keywords: ["previous", "history"],
    shortcut: "Alt+ArrowLeft",
    run: () => history.back(),
  },
  {
    id: "forward",
    title: i18n._({ id: "command.forward", message: "Forward" }),
    section: "Window",
    keywords: ["next", "history"],
    shortcut: "Alt+ArrowRight",
    run: () => history.forward(),
  },
  {
    id: "check-updates",
    title: i18n._("Check for updates…"),
    section: "Actions",
    keywords: ["update", "upgrade", "new version", "release", "install"],
    run: async () => {
      await checkForUpdates();
    },
  },
];

const contextDefinitions = (): Record<ContextCommandId, Omit<Command, "id">> => ({
  about: { title: i18n._("About Kairos"), section: "Window", keywords: ["version", "license"] },
  "new-collection": {
    title: i18n._("New collection…"),
    section: "Actions",
    keywords: ["create", "add", "plan", "quota"],
  },
  import: {
    title: i18n._("Import…"),
    section: "Actions",
    keywords: ["bundle", "arm", "template", "crontab", "file", "open"],
  },
  "new-job": { title: i18n._("New job"), section: "Actions", keywords: ["create", "add"], shortcut: "Mod+N" },
  "run-now": {
    title: i18n._("Run now"),
    section: "Actions",
    keywords: ["start", "fire", "trigger"],
    shortcut: "F5",
  },
  delete: { title: i18n._("Delete…"), section: "Actions", keywords: ["remove", "trash"], shortcut: "Delete" },
  find: { title: i18n._("Find"), section: "Actions", keywords: ["search", "filter"], shortcut: "Mod+F" },
});

let followsLanguage = false;

/**
 * Defines the built-in commands (idempotent: a second call replaces the same definitions), in the
 * window's language, and again whenever the language changes.
 */
export function defineBuiltinCommands(): void {
  const definitions = contextDefinitions();
  defineCommands([...globalCommands(), pauseCommand(paused)]);
  defineCommands(CONTEXT_COMMANDS.map((id) => ({ id, ...definitions[id] })));
  defineThemeCommands();
  if (!followsLanguage) {
    followsLanguage = true;
    i18n.on("change", defineBuiltinCommands);
  }
}
