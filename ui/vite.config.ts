import { defineConfig } from "vitest/config";

// The Tauri window loads dist/ from disk, so every URL must be relative ("./").
// WebKit (macOS, Linux) is the oldest engine the window runs on: target Safari 15.
export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, target: "safari15" },
  server: { port: 5173, strictPort: true },
  // Logic tests run in Node; component tests (*.test.tsx) ask for happy-dom in their first line.
  // Every test reads the window in English (src/i18n/testSetup.ts).
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
    setupFiles: ["src/i18n/testSetup.ts"],
  },
});
