// Loading a language's compiled catalogs on demand: one dynamic import per catalog ("app", "jobs"),
// so a language the person never picks is never downloaded or parsed.
import type { Messages } from "@lingui/core";
import type { Locale } from "./locales";

/** A compiled catalog's module (`lingui compile` with compileNamespace "json"). */
export type CatalogModule = { messages: Messages };
export type CatalogLoaders = Record<string, () => Promise<CatalogModule>>;

/** Every compiled catalog, keyed "../locales/<catalog>/<locale>.json"; nothing is loaded until called. */
const compiledCatalogs: CatalogLoaders = import.meta.glob<CatalogModule>("../locales/*/*.json");

/** The catalogs of `locale` merged into one message table. */
export async function loadMessages(locale: Locale, loaders: CatalogLoaders = compiledCatalogs): Promise<Messages> {
  const mine = Object.entries(loaders).filter(([path]) => path.endsWith(`/${locale}.json`));
  if (mine.length === 0) throw new Error(`no compiled catalog for ${locale} (run npm run i18n:compile)`);
  const modules = await Promise.all(mine.map(([, load]) => load()));
  return Object.assign({}, ...modules.map((m) => m.messages));
}
