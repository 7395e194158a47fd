"""The native shell around the page, in the real window: the application menu bar (read through
AT-SPI, as a screen reader sees it), its accelerators pressed as real X key events (xdotool)
reaching the page as `menu-command` events, what those keys do in a text field, the About box
with the version from Cargo.toml, and the window's size, position and maximized state kept
across a clean quit (Ctrl+Q) and a new launch, in the test's own data directory.

A window manager (openbox) runs for this module only: maximizing needs one, and windows are
placed and framed the way they are on a desktop. Keys go through the X server (XTEST) to the
focused window, so GTK sees them as it sees a keyboard's, accelerators first.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from contextlib import ExitStack

import pytest

from conftest import HERE, OUT, ROOT, SYSTEM_PYTHON, UI, stop_process, wait_for, window_session

pytestmark = pytest.mark.incremental

ATSPI_TOOL = HERE / "atspi_tool.py"
VERSION = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["version"]
STATE_FILE = "window-state.json"  # src-tauri/src/app.rs WINDOW_STATE_FILE

# The menu bar on Linux (src-tauri/src/menu.rs and menu_linux.rs): menu, then (item, key shown)
# with GTK's accelerator names; separators left out.
EXPECTED_MENUS = {
    "File": [("New Job", "<Primary>n"), ("New Collection…", "<Primary><Shift>n"), ("Import…", "<Primary>o"),
             ("Export…", "<Primary>e"), ("Settings…", "<Primary>comma"), ("Quit", "<Primary>q")],
    "Edit": [("Undo", "<Primary>z"), ("Redo", "<Primary><Shift>z"), ("Cut", "<Primary>x"),
             ("Copy", "<Primary>c"), ("Paste", "<Primary>v"), ("Select All", "<Primary>a"),
             ("Find Jobs", "<Primary>f")],
    "View": [("Command Palette…", "<Primary>k"), ("Back", "<Alt>Left"), ("Forward", "<Alt>Right"),
             ("Theme", ""), ("Full Screen", "F11")],
    "Jobs": [("Run Now", "F5"), ("Delete", "Delete"), ("Pause All Jobs", "")],
    "Window": [("Minimize", ""), ("Maximize", ""), ("Close Window", "<Primary>w")],
    "Help": [("Check for Updates…", ""), ("About Kairos", "")],
}
THEME_ITEMS = ["Follow the System", "Light", "Dark"]

# Accelerators pressed as X key events and the `menu-command` each must send to the page.
ACCELERATORS = [
    ("ctrl+n", "new-job"), ("ctrl+shift+n", "new-collection"), ("ctrl+o", "import"),
    ("ctrl+e", "export"), ("ctrl+f", "find"), ("F5", "run-now"), ("ctrl+k", "palette"),
    ("alt+Left", "back"), ("alt+Right", "forward"),
]

# Collects the `menu-command` events the page receives, through the page's own Tauri event API
# (the listener the UI uses is the same call).
LISTEN = """
const done = arguments[arguments.length - 1];
window.__menuCommands = [];
const t = window.__TAURI_INTERNALS__;
t.invoke('plugin:event|listen', {
  event: 'menu-command', target: {kind: 'Any'},
  handler: t.transformCallback((e) => window.__menuCommands.push(e.payload)),
}).then(() => done(true), (e) => done(String(e)));
"""

SEARCH = 'input[aria-label="Search jobs by name"]'


def run(*argv: str, timeout: float = 20) -> str:
    r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise subprocess.SubprocessError(f"{' '.join(argv)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def atspi(*args: object, timeout: float = 30):
    return json.loads(run(SYSTEM_PYTHON, str(ATSPI_TOOL), *map(str, args), timeout=timeout))


def xdotool(*args: object) -> str:
    return run("xdotool", *map(str, args))


def wm_running() -> bool:
    return "window id #" in run("xprop", "-root", "_NET_SUPPORTING_WM_CHECK")


@pytest.fixture(scope="module", autouse=True)
def window_manager():
    """openbox on the test display for this module (started before the app)."""
    log = open(OUT / "openbox.log", "wb")
    proc = subprocess.Popen(["openbox", "--sm-disable"], stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: proc.poll() is None and wm_running(), 20, f"openbox to manage the display (log {log.name})")
        yield proc
    finally:
        stop_process(proc)
        log.close()


class Shell:
    """One launch of the window at a time, on the module's data directory."""

    def __init__(self, url, app):
        self.url, self.app = url, app
        self.stack: ExitStack | None = None

    def start(self) -> None:
        self.stack = ExitStack()
        self.driver = self.stack.enter_context(window_session(self.url, self.app))
        self.ui = UI(self.driver)
        self.pid = wait_for(lambda: len(p := self.app.window_pids()) == 1 and p[0], 20, "one window process")
        self.xid = wait_for(self._find_xid, 20, "the Kairos X window")
        assert self.driver.execute_async_script(LISTEN) is True, "could not listen for menu-command"

    def _find_xid(self) -> str | None:
        try:
            found = xdotool("search", "--onlyvisible", "--pid", self.pid, "--name", "^Kairos$").split()
        except subprocess.SubprocessError:  # exit 1: none yet
            return None
        return found[0] if len(found) == 1 else None

    def stop(self) -> None:
        if self.stack is not None:
            self.stack.close()
            self.stack = None

    def keys(self, *keys: str) -> None:
        """Real key presses to the window (it is activated first, as a click on it would)."""
        xdotool("windowactivate", "--sync", self.xid)
        xdotool("key", "--clearmodifiers", *keys)

    def type(self, text: str) -> None:
        xdotool("windowactivate", "--sync", self.xid)
        xdotool("type", "--delay", "20", text)

    def commands(self) -> list[str]:
        return self.driver.execute_script("return window.__menuCommands || []")

    def geometry(self) -> tuple[int, int, int, int]:
        """x, y, width, height of the window's client area on the screen, as the X server has it."""
        out = xdotool("getwindowgeometry", "--shell", self.xid)
        g = dict(line.split("=", 1) for line in out.split())
        return int(g["X"]), int(g["Y"]), int(g["WIDTH"]), int(g["HEIGHT"])

    def maximized(self) -> bool:
        state = run("xprop", "-id", self.xid, "_NET_WM_STATE")
        return "_NET_WM_STATE_MAXIMIZED_VERT" in state and "_NET_WM_STATE_MAXIMIZED_HORZ" in state

    def quit_with_ctrl_q(self) -> None:
        """File > Quit by its accelerator; the process ends by itself (a clean exit)."""
        pid = self.pid
        self.keys("ctrl+q")
        wait_for(lambda: pid not in self.app.window_pids(), 20, "the window process to quit after Ctrl+Q")
        self.stop()

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="module")
def shell(tauri_driver):
    url, app = tauri_driver
    s = Shell(url, app)
    s.start()
    yield s
    s.stop()


def menu_named(menus: list[dict], name: str) -> dict:
    found = [m for m in menus if m["name"] == name]
    assert found, f"no menu {name!r} in {[m['name'] for m in menus]}"
    return found[0]


def test_a_menu_bar_has_the_menus_items_and_keys(shell):
    menus = wait_for(lambda: atspi("menus", shell.pid), 30, "the window's menu bar over AT-SPI")
    assert [m["name"] for m in menus] == list(EXPECTED_MENUS), menus
    for name, expected in EXPECTED_MENUS.items():
        items = [(i["name"], i["keys"]) for i in menu_named(menus, name)["items"] if i["role"] != "separator"]
        assert items == expected, f"menu {name}: {items}"
        disabled = [i["name"] for i in menu_named(menus, name)["items"] if not i["enabled"]]
        assert not disabled, f"disabled items in {name}: {disabled}"
    theme = next(i for i in menu_named(menus, "View")["items"] if i["name"] == "Theme")
    assert [i["name"] for i in theme["items"]] == THEME_ITEMS


def test_b_about_shows_the_version_from_cargo_toml(shell):
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", VERSION), VERSION
    atspi("activate", shell.pid, "Help", "About Kairos")
    texts = wait_for(lambda: atspi("texts", shell.pid, "About Kairos"), 20, "the About box")
    assert "Kairos" in texts, texts
    assert VERSION in texts, f"the About box does not show {VERSION}: {texts}"
    assert "A desktop job scheduler that speaks the Azure Scheduler API." in texts, texts
    # The licence is behind the dialog's License button (src-tauri/src/menu.rs ABOUT_LICENSE).
    atspi("press", shell.pid, "About Kairos", "License")
    wait_for(lambda: any("MIT licence" in t for t in atspi("texts", shell.pid, "About Kairos")), 20,
             "the About box's licence text")
    atspi("press", shell.pid, "About Kairos", "Close")
    wait_for(lambda: "About Kairos" not in atspi("windows", shell.pid), 20, "the About box to close")


def _ui_runs_menu_commands() -> bool:
    """Whether the page listens for menu commands itself (ui/src/commands/menu.ts, used outside
    the commands module): then Ctrl+, must open the settings."""
    for path in (ROOT / "ui/src").rglob("*.tsx"):
        if "commands" not in path.parts and "useMenuCommands" in path.read_text():
            return True
    return False


def test_c_settings_accelerator_reaches_the_page(shell):
    shell.driver.execute_script("location.hash = '#/'")
    shell.keys("ctrl+comma")
    wait_for(lambda: "settings" in shell.commands(), 15, "the menu-command 'settings' after Ctrl+,",
             describe=shell.commands)
    if _ui_runs_menu_commands():
        wait_for(lambda: shell.ui.hash() == "#/settings", 15, "Ctrl+, to open the settings",
                 describe=shell.ui.hash)
        shell.ui.find("#settings-title")


@pytest.mark.parametrize("keys,command", ACCELERATORS, ids=[c for _, c in ACCELERATORS])
def test_d_accelerator_sends_its_command(shell, keys, command):
    before = len(shell.commands())
    shell.keys(keys)
    wait_for(lambda: shell.commands()[before:] == [command], 15, f"{keys} to send {command!r} (once)",
             describe=lambda: shell.commands()[before:])
    # Whatever the command opened (a dialog, the palette), it is closed for the next key.
    shell.keys("Escape")


def test_e_editing_keys_stay_with_a_text_field(shell):
    """The editing keys are not menu accelerators: in a text field they edit as always, and the
    bare Delete key deletes a character instead of sending the menu's Delete."""
    shell.driver.execute_script("location.hash = '#/overview'")
    field = shell.ui.find(SEARCH)
    field.click()
    wait_for(lambda: shell.driver.execute_script("return document.activeElement === arguments[0]", field),
             10, "the search field to have the focus")
    value = lambda: field.get_property("value")  # noqa: E731
    before = list(shell.commands())

    shell.type("alpha")
    wait_for(lambda: value() == "alpha", 10, "typed text in the field", describe=value)
    shell.keys("ctrl+a")
    shell.type("xyz")
    wait_for(lambda: value() == "xyz", 10, "Ctrl+A then typing to replace the text", describe=value)
    shell.keys("Home", "Delete")
    wait_for(lambda: value() == "yz", 10, "Delete to delete the character after the caret", describe=value)
    shell.keys("ctrl+a", "ctrl+c", "End", "ctrl+v")
    wait_for(lambda: value() == "yzyz", 10, "Ctrl+C then Ctrl+V to copy the text", describe=value)
    assert shell.commands() == before, f"editing keys sent menu commands: {shell.commands()[len(before):]}"

    # The Edit menu's items act on the focused field too (WebKit's editing commands).
    atspi("activate", shell.pid, "Edit", "Select All")
    shell.type("q")
    wait_for(lambda: value() == "q", 10, "Edit > Select All then typing to replace the text", describe=value)
    atspi("activate", shell.pid, "Edit", "Undo")
    wait_for(lambda: value() == "yzyz", 10, "Edit > Undo to bring the text back", describe=value)


def _saved_state(shell) -> dict:
    return json.loads((shell.app.data_dir / STATE_FILE).read_text())["main"]


def test_f_size_and_position_are_kept_across_a_restart(shell):
    xdotool("windowsize", "--sync", shell.xid, 900, 640)
    xdotool("windowmove", "--sync", shell.xid, 140, 90)
    placed = wait_for(lambda: (g := shell.geometry())[2:] == (900, 640) and g, 10, "the window at 900x640",
                      describe=shell.geometry)
    state_file = shell.app.data_dir / STATE_FILE
    state_file.unlink(missing_ok=True)

    shell.quit_with_ctrl_q()
    saved = _saved_state(shell)
    assert (saved["width"], saved["height"], saved["maximized"]) == (900, 640, False), saved

    shell.start()
    wait_for(lambda: shell.geometry() == placed, 15, f"the window back at {placed}", describe=shell.geometry)


def test_g_maximized_is_kept_and_the_size_under_it(shell):
    placed = shell.geometry()
    atspi("activate", shell.pid, "Window", "Maximize")
    wait_for(shell.maximized, 15, "Window > Maximize to maximize the window")
    wait_for(lambda: shell.geometry()[2] > placed[2], 10, "the maximized window to be wider", describe=shell.geometry)

    shell.quit_with_ctrl_q()
    saved = _saved_state(shell)
    assert saved["maximized"] is True, saved
    assert (saved["width"], saved["height"]) == placed[2:], f"the size under the maximized window: {saved}"

    shell.start()
    wait_for(shell.maximized, 15, "the window to open maximized")
    atspi("activate", shell.pid, "Window", "Maximize")
    wait_for(lambda: not shell.maximized() and shell.geometry()[2:] == placed[2:], 15,
             f"Window > Maximize again to restore {placed[2:]}", describe=shell.geometry)


def test_h_the_state_file_is_in_the_data_directory(shell):
    """Each data directory keeps its own window state, so no test reads another's (nor the
    user's): the file is beside the database."""
    path = shell.app.data_dir / STATE_FILE
    assert path.is_file(), f"no {path}"
    assert (shell.app.data_dir / "kairos.db").is_file()
    assert set(json.loads(path.read_text())) == {"main"}
