// Messages with elements inside (a <code>, a link, <strong>): the whole sentence stays one message,
// and the elements take the places of its placeholders.
//
//   fill(i18n._("Running at {url}.", slots("url")), { url: <code id="api-url">{info.url}</code> })
import type { ComponentChildren } from "preact";
import { Fragment } from "preact";

const OPEN = "\uE000";
const CLOSE = "\uE001";
const SLOT = new RegExp(`${OPEN}(\\w+)${CLOSE}`);

/** The values to pass to `i18n._` for placeholders that `fill` replaces with elements. */
export function slots<K extends string>(...names: K[]): Record<K, string> {
  return Object.fromEntries(names.map((n) => [n, `${OPEN}${n}${CLOSE}`])) as Record<K, string>;
}

/** The translated text with each slot replaced by its element (text around it kept as it is). */
export function fill(text: string, nodes: Record<string, ComponentChildren>): ComponentChildren[] {
  // split with one capture group: text, name, text, name, … text
  const parts = text.split(SLOT);
  return parts.map((part, i) => (i % 2 === 0 ? part : <Fragment key={`${part}-${i}`}>{nodes[part]}</Fragment>));
}
