// The glossary (docs/glossary.md) is what every catalog says: the window's Lingui catalogs
// (src/locales/**.po) and the Rust Fluent catalogs (crates/kairos-i18n/i18n/**.ftl). For every
// message whose English names a glossary term, each translation holds that term's stem; no
// translation uses a word the glossary forbids.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const LOCALES = ["zh-TW", "de", "pt-BR", "fr"] as const;
type Locale = (typeof LOCALES)[number];

/** The rows of the markdown table between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
function table(markdown: string, name: string): string[][] {
  const start = markdown.indexOf(`<!-- ${name}:start -->`);
  const end = markdown.indexOf(`<!-- ${name}:end -->`);
  expect(start, `docs/glossary.md has the ${name} table`).toBeGreaterThan(-1);
  return markdown
    .slice(start, end)
    .split("\n")
    .filter((l) => l.startsWith("|") && !l.startsWith("|---"))
    .slice(1)
    .map((l) =>
      l
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

const glossary = readFileSync(join(ROOT, "docs/glossary.md"), "utf8");
const stems = table(glossary, "stems").map(([en, ...rest]) => ({
  en,
  stem: Object.fromEntries(LOCALES.map((l, i) => [l, rest[i]])) as Record<Locale, string>,
}));
const never = Object.fromEntries(
  table(glossary, "never").map(([locale, words]) => [locale, words.split(",").map((w) => w.trim())]),
) as Record<Locale, string[]>;

function files(dir: string, ext: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(files(path, ext));
    else if (name.endsWith(ext)) out.push(path);
  }
  return out;
}

/** PO entries: msgid → msgstr (multi-line strings joined). */
function readPo(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  let key: "msgid" | "msgstr" | null = null;
  let id = "";
  let str = "";
  const flush = () => {
    if (id) entries.set(id, str);
    id = "";
    str = "";
  };
  const unquote = (s: string) => JSON.parse(s) as string;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.startsWith("msgid ")) {
      flush();
      key = "msgid";
      id = unquote(line.slice(6));
    } else if (line.startsWith("msgstr ")) {
      key = "msgstr";
      str = unquote(line.slice(7));
    } else if (line.startsWith('"') && key) {
      if (key === "msgid") id += unquote(line);
      else str += unquote(line);
    } else if (!line.trim()) key = null;
  }
  flush();
  return entries;
}

/** Fluent messages: id → text (attributes and continuation lines joined). */
function readFtl(path: string): Map<string, string> {
  const messages = new Map<string, string>();
  let current = "";
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const m = /^([a-zA-Z][\w-]*)\s*=\s*(.*)$/.exec(line);
    if (m) {
      current = m[1];
      messages.set(current, m[2]);
    } else if (current && /^\s+\S/.test(line) && !line.trim().startsWith("#")) {
      messages.set(current, `${messages.get(current)} ${line.trim()}`);
    } else if (!line.trim() || line.startsWith("#")) current = current && line.trim() ? current : "";
  }
  return messages;
}

/** Every catalog as (where, English text, translation) triples per locale. */
function pairs(): Record<Locale, { where: string; en: string; text: string }[]> {
  const out = Object.fromEntries(LOCALES.map((l) => [l, []])) as unknown as Record<
    Locale,
    { where: string; en: string; text: string }[]
  >;
  // Lingui: src/locales/<catalog>/<locale>.po or src/locales/<locale>/<catalog>.po.
  const po = files(join(ROOT, "ui/src/locales"), ".po");
  const byCatalog = new Map<string, Map<string, string>>();
  for (const path of po) {
    const locale = [...LOCALES, "en"].find((l) => path.includes(`/${l}/`) || path.endsWith(`/${l}.po`));
    if (!locale) continue;
    const catalog = path.replace(`/${locale}/`, "/").replace(`/${locale}.po`, "/");
    byCatalog.set(`${catalog}|${locale}`, readPo(path));
  }
  for (const [key, entries] of byCatalog) {
    const [catalog, locale] = key.split("|");
    if (locale === "en") continue;
    const english = byCatalog.get(`${catalog}|en`);
    for (const [id, text] of entries) {
      const en = english?.get(id) || id;
      out[locale as Locale].push({ where: `${catalog} ${id}`, en, text });
    }
  }
  // Fluent: crates/kairos-i18n/i18n/<locale>/*.ftl.
  const ftlDir = join(ROOT, "crates/kairos-i18n/i18n");
  for (const enPath of files(join(ftlDir, "en"), ".ftl")) {
    const english = readFtl(enPath);
    for (const locale of LOCALES) {
      const translated = readFtl(enPath.replace("/en/", `/${locale}/`));
      for (const [id, en] of english) {
        out[locale].push({ where: `${enPath.slice(ROOT.length)} ${id}`, en, text: translated.get(id) ?? "" });
      }
    }
  }
  return out;
}

const catalogs = pairs();
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A message without its placeholders (`{ $job }`, `{name}`) and menu mnemonics (`&Jobs`). */
const words = (s: string) => s.replace(/\{\s*\$?[\w.-]+\s*\}/g, " ").replace(/&(?=\p{L})/gu, "");

describe("the glossary", () => {
  it("finds the catalogs", () => {
    for (const locale of LOCALES) expect(catalogs[locale].length, locale).toBeGreaterThan(50);
  });

  for (const locale of LOCALES) {
    it(`${locale} uses the glossary's terms`, () => {
      const wrong: string[] = [];
      for (const pair of catalogs[locale]) {
        const { where } = pair;
        const en = words(pair.en);
        const text = words(pair.text);
        if (!text) continue;
        for (const { en: term, stem } of stems) {
          const names = new RegExp(`\\b${escapeRegex(term)}s?\\b`, "i").test(en);
          if (names && !text.toLowerCase().includes(stem[locale].toLowerCase())) {
            wrong.push(`${where}: "${en}" → "${text}" lacks "${stem[locale]}" (${term})`);
          }
        }
        for (const word of never[locale] ?? []) {
          const found = /^[\p{Script=Han}]/u.test(word)
            ? text.includes(word)
            : new RegExp(`(^|[^\\p{L}])${escapeRegex(word)}([^\\p{L}]|$)`, "iu").test(text);
          if (found) wrong.push(`${where}: "${text}" uses "${word}", which the glossary forbids`);
        }
      }
      expect(wrong, wrong.join("\n")).toEqual([]);
    });
  }
});
