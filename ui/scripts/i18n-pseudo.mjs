// Finishes the pseudo-locale after `lingui compile`: Lingui accents en-XA's text but neither
// brackets nor lengthens it. Brackets show a hard-coded (unbracketed) string at a glance and where
// a text was cut; ~40 % more characters show the labels that would overflow in German or French.
// Works on the compiled messages (text tokens only), so placeholders and plurals stay intact.
// Usage: node scripts/i18n-pseudo.mjs   (run by `npm run i18n:compile`)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PSEUDO = "en-XA";
const GROWTH = 0.4;
const FILLER = " ŀōřēɱ ıƥšũɱ ďōŀōř šıţ àɱēţ ćōńšēćţēţũŕ àďıƥıšćıńğ ēŀıţ";

/** The characters a reader sees: text tokens, and the "other" branch of a plural or select. */
function visibleLength(message) {
  if (typeof message === "string") return message.length;
  let length = 0;
  for (const token of message) {
    if (typeof token === "string") length += token.length;
    else if (token.length > 2 && typeof token[2] === "object") {
      const branches = token[2];
      const other = branches.other ?? Object.values(branches)[0] ?? [];
      length += visibleLength(other);
    } else length += 4; // a value such as a name or a number
  }
  return length;
}

/** "[Šàṽē ŀō]": the accented message, lengthened by ~40 % and bracketed. */
export function finishPseudo(message) {
  const tokens = typeof message === "string" ? [message] : [...message];
  const extra = Math.max(1, Math.ceil(visibleLength(message) * GROWTH));
  let padding = "";
  while (padding.length < extra) padding += FILLER;
  padding = padding.slice(0, extra);
  return ["[", ...tokens, `${padding}]`].reduce((out, token) => {
    const last = out.length - 1;
    if (typeof token === "string" && typeof out[last] === "string") out[last] += token;
    else out.push(token);
    return out;
  }, []);
}

function main() {
  const root = join(fileURLToPath(new URL("..", import.meta.url)), "src", "locales");
  for (const catalog of readdirSync(root)) {
    const file = join(root, catalog, `${PSEUDO}.json`);
    let compiled;
    try {
      compiled = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue; // this catalog has no compiled pseudo-locale (not compiled yet)
    }
    if (compiled.pseudoFinished) continue; // already done: running twice must not lengthen twice
    const messages = Object.fromEntries(
      Object.entries(compiled.messages).map(([id, message]) => [id, finishPseudo(message)]),
    );
    writeFileSync(file, JSON.stringify({ messages, pseudoFinished: true }));
  }
}

// Run as a script (not when a test imports finishPseudo).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
