"""The pseudo-locale walk (issue 31): the real window in en-XA (KAIROS_LANG=en-XA: every catalog
message accented, about 40 % longer and bracketed) walks every view and dialog of test_a11y and
fails on

- visible text without the brackets: a string that is not in the catalogs (hard-coded);
- a label whose text overflows its box (scrollWidth > clientWidth): text that will not fit in
  the longest language.

What is not a message is left out: the user's own data (collection and job names, URLs, JSON),
inputs' values, and what the page marks `translate="no"` (HTML's own attribute for "do not
translate": names, code, numbers and dates formatted by Intl). Run the module whole:
`bash scripts/desktop-e2e.sh tests/desktop/test_pseudo_locale.py`."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from conftest import wait_for
from test_a11y import DIALOGS, VIEWS, close_dialogs, go, settled
from test_a11y import test_c_data as _make_data

APP_ENV = {"KAIROS_LANG": "en-XA"}

# The user's data the walk creates (test_a11y's), which is never translated.
DATA = ("a11y", "http-job", "second-job", "127.0.0.1", "local/desktop")

# Text nodes: visible, outside inputs and translate="no", with a letter in them. A message of the
# pseudo-locale is bracketed as a whole; interpolated data sits inside the brackets.
_UNBRACKETED = r"""
const root = arguments[0] ? document.querySelector(arguments[0]) : document.body;
const data = arguments[1];
const skip = (el) => !el || el.closest('[translate="no"], code, pre, textarea, script, style, .cm-editor, [contenteditable]');
const visible = (el) => { const r = el.getClientRects(); if (!r.length) return false;
  const s = getComputedStyle(el); return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0; };
const out = [];
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const text = n.textContent.replace(/\s+/g, ' ').trim();
  if (!/\p{L}/u.test(text)) continue;
  const el = n.parentElement;
  if (skip(el) || !visible(el)) continue;
  if (data.some((d) => text.includes(d))) continue;
  const inBrackets = el.closest('*') && (() => {
    // The message may be split over several nodes (an element inside it): look at the nearest
    // block of text around it.
    const block = el.closest('p, li, label, button, th, td, h1, h2, h3, legend, [role=option], [role=menuitem], [role=tab], span, div') || el;
    const t = block.textContent.replace(/\s+/g, ' ').trim();
    return t.includes('[') && t.includes(']');
  })();
  if (!(text.startsWith('[') || text.endsWith(']') || inBrackets)) out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}: ${text.slice(0, 80)}`);
}
// Attributes a person reads or hears.
for (const el of root.querySelectorAll('[aria-label], [title], [placeholder]')) {
  if (skip(el)) continue;
  for (const a of ['aria-label', 'title', 'placeholder']) {
    const v = (el.getAttribute(a) || '').trim();
    if (!v || !/\p{L}/u.test(v) || data.some((d) => v.includes(d))) continue;
    if (!(v.startsWith('[') && v.endsWith(']'))) out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}[${a}]: ${v.slice(0, 80)}`);
  }
}
return [...new Set(out)];
"""

# Labels that must show their whole text: the box is at least as wide as what it holds.
_OVERFLOWING = r"""
const root = arguments[0] ? document.querySelector(arguments[0]) : document.body;
const out = [];
for (const el of root.querySelectorAll('label, button, th, legend, h1, h2, h3, [role=tab], [role=menuitem], [role=option], .field-label, summary')) {
  if (!el.getClientRects().length || el.closest('[translate="no"]')) continue;
  if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
    out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}: "${el.textContent.trim().slice(0, 60)}" ${el.scrollWidth} > ${el.clientWidth}`);
  }
}
return out;
"""


def check(driver, what: str, context: str | None = None) -> None:
    settled(driver)
    unbracketed = driver.execute_script(_UNBRACKETED, context, list(DATA))
    overflowing = driver.execute_script(_OVERFLOWING, context)
    problems = [f"not from the catalogs: {t}" for t in unbracketed] + [f"overflows: {t}" for t in overflowing]
    assert not problems, f"{what} in the pseudo-locale:\n  " + "\n  ".join(problems)


def test_a_the_window_speaks_the_pseudo_locale(driver, ui):
    wait_for(lambda: driver.execute_script("return document.documentElement.lang") == "en-XA", 20,
             "<html lang> to be en-XA (KAIROS_LANG=en-XA)",
             describe=lambda: driver.execute_script("return document.documentElement.lang"))
    ui.find("#create-default-collection")
    check(driver, "the first-run empty state")


def test_b_data(driver, ui):
    _make_data(driver, ui)


@pytest.mark.parametrize("name,route,ready", VIEWS, ids=[v[0] for v in VIEWS])
def test_c_view(driver, ui, name, route, ready):
    go(driver, ui, route, ready)
    check(driver, f"the {name} view")


@pytest.mark.parametrize("view", ["day", "week", "month", "agenda"])
def test_d_overview_views(driver, ui, view):
    go(driver, ui, "#/overview", "#overview-title")
    ui.click(f"#overview-view-{view}")
    check(driver, f"the overview's {view} view")


@pytest.mark.parametrize("name,route,ready,clicks,row", DIALOGS, ids=[d[0].replace(" ", "-") for d in DIALOGS])
def test_e_dialog(driver, ui, name, route, ready, clicks, row):
    go(driver, ui, route, ready)
    box = f'tr[data-testid="job-row-{row}"] input[data-select]' if row else None
    if box and not ui.find(box).is_selected():
        ui.click(box)
    for css in clicks:
        ui.click(css)
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "dialog[open]"), 10, f"the {name} dialog to open")
    try:
        check(driver, f"the {name} dialog", "dialog[open]")
    finally:
        close_dialogs(driver)
        if box and ui.find(box).is_selected():
            ui.click(box)


def test_f_every_action_type_in_the_editor(driver, ui):
    go(driver, ui, "#/c/local%2Fdesktop%2Fa11y/j/http-job", "#editor-title")
    kinds = driver.execute_script("return [...document.querySelector('#action-type').options].map((o) => o.value)")
    failures = []
    for kind in kinds:
        ui.select("#action-type", kind)
        try:
            check(driver, f"the job editor with a {kind} action")
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n\n".join(failures)
    print("pseudo-locale walk:", json.dumps({"action kinds": kinds}))
