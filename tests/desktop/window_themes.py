"""The window's themes for test_a11y.py and test_visual.py: light and dark as the window draws them
(data-theme on <html>, which ui/src/ui/theme.ts sets and ui/src/design/tokens.css reads), and high
contrast, which tokens.css keys on `@media (prefers-contrast: more)`.

WebKitGTK has no WebDriver command to emulate a media feature, so high contrast is switched on in
the page's CSSOM: every `@media (prefers-contrast: more)` rule gets the media text `all` (and its
own text back afterwards). The rules are then exactly what a system set to more contrast gets."""

from __future__ import annotations

from conftest import wait_for

# light and dark, then high contrast over each.
THEMES = ("light", "dark", "contrast-light", "contrast-dark")

# The theme through the app's own path when it has one: the native menu's `menu-command` event
# (ui/src/commands/menu.ts runs theme-light/theme-dark, theme.ts redraws and every control
# showing the theme follows). Resolves to whether the page drew it within 3 s.
_VIA_MENU = """
const [wanted, done] = arguments;
const root = document.documentElement;
if (root.dataset.theme === wanted) { done(true); return; }
window.__TAURI_INTERNALS__.invoke('plugin:event|emit', {event: 'menu-command', payload: 'theme-' + wanted})
  .catch(() => {});
const until = Date.now() + 3000;
const poll = () => root.dataset.theme === wanted ? done(true) : Date.now() > until ? done(false) : setTimeout(poll, 50);
poll();
"""

_APPLY = """
const [theme] = arguments;
const root = document.documentElement;
// Without the menu's path (an older window), the attribute theme.ts would set.
root.dataset.theme = theme.endsWith('dark') ? 'dark' : 'light';
const more = theme.startsWith('contrast');
// The rules keyed on more contrast, with their own media text (kept across calls: a rule
// switched on reads 'all' afterwards).
const kept = window.__kairosContrastRules = window.__kairosContrastRules || [];
const walk = (rules) => {
  for (const r of rules) {
    if (r.media && /prefers-contrast:\\s*more/.test(r.media.mediaText) && !kept.some(([k]) => k === r))
      kept.push([r, r.media.mediaText]);
    if (r.cssRules) walk(r.cssRules);
  }
};
for (const s of document.styleSheets) {
  try { walk(s.cssRules); } catch (e) { /* another origin's sheet: none here */ }
}
for (const [rule, own] of kept) rule.media.mediaText = more ? 'all' : own;
const css = getComputedStyle(root);
return {
  rules: kept.length,
  native: matchMedia('(prefers-contrast: more)').matches,
  bg: css.getPropertyValue('--color-bg').trim(),
  text: css.getPropertyValue('--color-text').trim(),
  drawn: root.dataset.theme,
};
"""

NO_RUNNING_ANIMATIONS = (
    "return document.getAnimations().filter(a => a.playState === 'running'"
    " && a.effect && a.effect.getComputedTiming().iterations !== Infinity).length === 0")


_menu_works: dict[str, bool] = {}


def apply_theme(driver, theme: str) -> dict:
    """Draw the window in `theme` (one of THEMES); returns what the page reports: how many
    high-contrast rules it found, whether the system itself asks for more contrast, and the
    token colours now in force, and whether the menu's theme command drew it. Waits for colour
    transitions to end."""
    assert theme in THEMES, f"unknown theme {theme!r}"
    # Once the menu's path did not draw a theme in a session, it is not waited for again.
    via_menu = False
    if _menu_works.get(driver.session_id, True):
        via_menu = driver.execute_async_script(_VIA_MENU, "dark" if theme.endswith("dark") else "light")
        _menu_works[driver.session_id] = via_menu
    state = driver.execute_script(_APPLY, theme)
    state["via_menu"] = via_menu
    wait_for(lambda: driver.execute_script(NO_RUNNING_ANIMATIONS), 10, f"transitions to end after the {theme} theme")
    return state


def tokens_by_theme(driver) -> dict[str, dict]:
    """Each theme's state, then light again: to check that the themes really differ."""
    out = {t: apply_theme(driver, t) for t in THEMES}
    apply_theme(driver, "light")
    return out


def forget_theme_choice(driver) -> None:
    """Back to following the system, as a fresh install: the menu's theme commands store the
    choice in the webview's localStorage, which outlives this data directory (WebKit keeps it
    per app), and a later window must not start in the theme a test left."""
    driver.execute_script("localStorage.removeItem('kairos.theme')")
