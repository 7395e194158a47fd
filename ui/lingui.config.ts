// Lingui's configuration for the window's catalogs (docs/translating.md, "Window catalogs").
// Two catalogs split by source path, so the two halves of the UI never edit the same file:
// "jobs" (the job editor, jobs table, import/export, history, logic/*) and "app" (everything else).
// Messages are marked without macros (`i18n._("…")`, `/*i18n*/`), so no Babel runs in the build.
import type { LinguiConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

/** The source paths of the "jobs" catalog; the "app" catalog takes the rest of src/. */
const jobsPaths = [
  "src/ui/editor",
  "src/ui/jobs",
  "src/ui/transfer",
  "src/ui/HistoryView.tsx",
  "src/ui/HistoryExportDialog.tsx",
  "src/ui/Modal.tsx",
  "src/logic",
];

/** A path and, for a folder, everything under it (Lingui's `exclude` is a list of globs). */
const andBelow = (paths: string[]) => paths.flatMap((p) => [`<rootDir>/${p}`, `<rootDir>/${p}/**`]);

const notSources = [
  "<rootDir>/src/**/*.test.*",
  "<rootDir>/src/**/*.bench.ts",
  ...andBelow(["src/test", "src/locales"]),
];

const config: LinguiConfig = {
  sourceLocale: "en",
  locales: ["en", "zh-TW", "de", "pt-BR", "fr", "en-XA"],
  // Accented by Lingui; scripts/i18n-pseudo.mjs then brackets and lengthens it (~40 %) after compiling.
  pseudoLocale: "en-XA",
  fallbackLocales: { "en-XA": "en" },
  // No line numbers (a moved line would rewrite every catalog); the English text is the id.
  format: formatter({ lineNumbers: false, explicitIdAsDefault: true }),
  // Alphabetical by id: extraction runs files in parallel, so any other order changes from run to run.
  orderBy: "messageId",
  // Compiled catalogs are JSON beside the .po files (git-ignored; `npm run i18n:compile` writes them).
  compileNamespace: "json",
  catalogs: [
    {
      path: "<rootDir>/src/locales/jobs/{locale}",
      include: jobsPaths.map((p) => `<rootDir>/${p}`),
      exclude: notSources,
    },
    {
      path: "<rootDir>/src/locales/app/{locale}",
      include: ["<rootDir>/src"],
      exclude: [...andBelow(jobsPaths), ...notSources],
    },
  ],
};

export default config;
