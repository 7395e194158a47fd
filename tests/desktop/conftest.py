"""Fixtures for the desktop end-to-end tests: the real `kairos-desktop` debug binary driven through
tauri-driver (WebKitWebDriver) under Xvfb, on a private session bus with a mock notification
daemon and a mock StatusNotifierWatcher. Run through scripts/desktop-e2e.sh, which provides the
display and the bus; see README.md.

Every wait has a deadline and says what it waited for; nothing sleeps to synchronise.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.remote.client_config import ClientConfig

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SYSTEM_PYTHON = os.environ.get("KAIROS_SYSTEM_PYTHON", "/usr/bin/python3")
DBUS_TOOL = HERE / "dbus_tool.py"
ATSPI_TOOL = HERE / "atspi_tool.py"
TARGET_DIR = Path(os.environ.get("CARGO_TARGET_DIR") or Path.home() / ".cache/kairos-target")
APP_BIN = Path(os.environ.get("KAIROS_DESKTOP_BIN") or TARGET_DIR / "debug/kairos-desktop")
TRAY_BIN = APP_BIN.with_name("kairos-tray")  # the window starts the tray runner from next to itself
# Screenshots go to docs/screenshots only when asked (KAIROS_SCREENSHOTS_DIR=docs/screenshots), so
# a local run leaves the tree clean; otherwise to a temporary directory (still taken and checked).
SCREENSHOTS = Path(os.environ.get("KAIROS_SCREENSHOTS_DIR") or tempfile.mkdtemp(prefix="kairos-screenshots-"))
OUT = Path(os.environ.get("KAIROS_DESKTOP_E2E_OUT") or tempfile.mkdtemp(prefix="kairos-desktop-e2e-"))
OUT.mkdir(parents=True, exist_ok=True)


# ---------------------------------------------------------------------------------------------
# The clock. The window and the tray runner read KAIROS_TEST_NOW (kairos_local::test_clock): the
# instant the suite starts at, anchored to the real time it stands for, so they and these tests
# read one "now" and every expectation is computed from it. KAIROS_E2E_NOW chooses the instant
# (an awkward one: the last day of a month after its last run, 29 February, a DST change, New
# Year's Eve); by default it is the real time. Time flows from there, so due jobs still fire.
_ANCHOR = time.time()
_REAL_START = datetime.fromtimestamp(_ANCHOR, timezone.utc)
_START = (datetime.fromisoformat(os.environ["KAIROS_E2E_NOW"].replace("Z", "+00:00")).astimezone(timezone.utc)
          if os.environ.get("KAIROS_E2E_NOW") else _REAL_START)
CLOCK_SHIFT: timedelta = _START - _REAL_START
TEST_NOW = f"{_START.isoformat()}@{_ANCHOR:.6f}"


def now() -> datetime:
    """What the window and the tray runner read as now (UTC)."""
    return datetime.now(timezone.utc) + CLOCK_SHIFT


def _find_tauri_driver() -> str:
    given = os.environ.get("KAIROS_TAURI_DRIVER")
    if given:
        return given
    cached = Path.home() / ".cache/kairos-tools/bin/tauri-driver"
    if cached.is_file():
        return str(cached)
    return shutil.which("tauri-driver") or str(cached)


TAURI_DRIVER = _find_tauri_driver()
NATIVE_DRIVER = os.environ.get("KAIROS_NATIVE_DRIVER") or shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"


# ---------------------------------------------------------------------------------------------
# Waiting


def wait_for(condition, timeout: float, what: str, interval: float = 0.1, describe=None):
    """Poll `condition()` until it returns something truthy (returned) or `timeout` seconds pass
    (AssertionError naming `what` and the last value or exception seen, or what `describe()`
    says about the state then)."""
    deadline = time.monotonic() + timeout
    last: object = None
    while True:
        try:
            value = condition()
            if value:
                return value
            last = value
        except (WebDriverException, OSError, ValueError, subprocess.SubprocessError) as e:
            last = f"{type(e).__name__}: {e}".strip()
        if time.monotonic() >= deadline:
            if describe is not None:
                try:
                    last = describe()
                except Exception as e:  # noqa: BLE001 - only for the message
                    last = f"(could not describe: {e})"
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}; last seen: {last!r}")
        time.sleep(interval)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


# ---------------------------------------------------------------------------------------------
# Processes


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def pid_alive(pid: int) -> bool:
    """Running and not a zombie."""
    stat = _read(f"/proc/{pid}/stat").decode(errors="replace")
    if not stat:
        return False
    state = stat.rsplit(")", 1)[-1].split()[0]
    return state not in ("Z", "X")


WINDOW_PROGRAM = "kairos-desktop"
TRAY_PROGRAM = "kairos-tray"  # started by the window, found next to it (kairos-tray launch.rs)


def kairos_processes(data_dir: Path) -> list[tuple[int, list[str]]]:
    """kairos-desktop and kairos-tray processes whose KAIROS_DATA_DIR is `data_dir`: (pid, argv)."""
    wanted = f"KAIROS_DATA_DIR={data_dir}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        argv = [a.decode(errors="replace") for a in _read(f"/proc/{entry}/cmdline").split(b"\0") if a]
        if not argv or Path(argv[0]).name not in (WINDOW_PROGRAM, TRAY_PROGRAM):
            continue
        if wanted in _read(f"/proc/{entry}/environ").split(b"\0") and pid_alive(int(entry)):
            found.append((int(entry), argv))
    return found


def tray_runner_pids(data_dir: Path) -> list[int]:
    return [pid for pid, argv in kairos_processes(data_dir) if Path(argv[0]).name == TRAY_PROGRAM]


def window_pids(data_dir: Path) -> list[int]:
    """The window process (and a short-lived `--open-job` second launch, if one is running)."""
    return [pid for pid, argv in kairos_processes(data_dir) if Path(argv[0]).name == WINDOW_PROGRAM]


def stop_pid(pid: int, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if it is still there after `timeout` seconds."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not pid_alive(pid):
                return
            time.sleep(0.1)


def stop_kairos(data_dir: Path) -> list[int]:
    """End every kairos-desktop and kairos-tray process of this data directory; returns the pids
    it had to end."""
    pids = [pid for pid, _ in kairos_processes(data_dir)]
    for pid in pids:
        stop_pid(pid)
    return pids


def stop_process(proc: subprocess.Popen, timeout: float = 10, group: bool = False) -> None:
    if proc.poll() is not None:
        return
    send = (lambda s: os.killpg(proc.pid, s)) if group else proc.send_signal
    try:
        send(signal.SIGTERM)
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        proc.wait(timeout=timeout)
    except ProcessLookupError:
        pass


# ---------------------------------------------------------------------------------------------
# D-Bus (through /usr/bin/python3 and python3-dbus; see dbus_tool.py)


def dbus_tool(*args: str, timeout: float = 15):
    r = subprocess.run([SYSTEM_PYTHON, str(DBUS_TOOL), *map(str, args)],
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise subprocess.SubprocessError(f"dbus_tool {' '.join(map(str, args))}: {r.stderr.strip() or r.stdout.strip()}")
    return json.loads(r.stdout)


def atspi_or_none(*args: object, timeout: float = 30):
    """atspi_tool.py's answer (JSON), or None when it found nothing (yet): for waiting on a
    native window or dialog of the app."""
    r = subprocess.run([SYSTEM_PYTHON, str(ATSPI_TOOL), *map(str, args)],
                       capture_output=True, text=True, timeout=timeout)
    return json.loads(r.stdout) if r.returncode == 0 else None


# GTK names a message dialog for screen readers by its kind ("Error", in the C locale the tests
# run in), not by its window title; the title is its first line of text.
REFUSAL_BOX = "Error"


def refusal_box(pid: int, title: str) -> str:
    """Wait for the window process `pid` to show its native message box (the database cannot be
    opened: src-tauri refusal.rs) with `title` as its first line, and return its texts. Close it
    with `atspi_or_none("press", pid, REFUSAL_BOX, "OK")`."""
    seen: list = []

    def shown():
        seen[:] = [atspi_or_none("windows", pid)]
        return seen[0] is not None and REFUSAL_BOX in seen[0]
    wait_for(shown, 60, f"the message box of process {pid}",
             describe=lambda: f"its windows: {seen[0] if seen else None!r}")
    texts = " ".join(atspi_or_none("texts", pid, REFUSAL_BOX) or [])
    assert title in texts, f"the box's texts lack its title {title!r}: {texts}"
    return texts


def bus_names() -> list[str]:
    return dbus_tool("names")


@dataclass
class MockService:
    """A dbusmock process on the session bus and its call log."""
    name: str
    log: Path
    proc: subprocess.Popen

    def text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""


@dataclass
class Notification:
    id: int
    app_name: str
    summary: str
    body: str
    actions: list[str]
    line: str


# 1795386181.764 Notify "Kairos" 0 "" "summary" "body" ["default", "Open history"] {} -1
_STR = r'"((?:[^"\\]|\\.)*)"'
_NOTIFY = re.compile(rf'^\S+ Notify {_STR} (\d+) {_STR} {_STR} {_STR} \[(.*?)\] ')


def _unquote(s: str) -> str:
    return s.encode().decode("unicode_escape") if "\\" in s else s


def notifications(daemon: MockService) -> list[Notification]:
    """The Notify calls in the mock daemon's log, with the id the template answered. The
    notification_daemon template numbers new notifications 1, 2, 3, … in call order (a call with
    a non-zero replaces_id gets that id back)."""
    out = []
    next_id = 1
    for line in daemon.text().splitlines():
        m = _NOTIFY.match(line)
        if not m:
            continue
        app, replaces, _icon, summary, body, actions = m.groups()
        if int(replaces):
            nid = int(replaces)
        else:
            nid, next_id = next_id, next_id + 1
        out.append(Notification(nid, _unquote(app), _unquote(summary), _unquote(body),
                                re.findall(_STR, actions), line))
    return out


def emit_action_invoked(notification_id: int, action: str = "default") -> None:
    """The user clicked the notification: ActionInvoked(id, action) from the mock daemon."""
    dbus_tool("emit-action", notification_id, action)


def tray_bus_name(pid: int, watcher: MockService, timeout: float = 30) -> str:
    """The ksni StatusNotifierItem name of the tray runner `pid`, once it registered with the
    watcher mock (`org.kde.StatusNotifierItem-<pid>-<n>`, ksni 0.3 service.rs)."""
    prefix = f"org.kde.StatusNotifierItem-{pid}-"

    def registered():
        m = re.search(rf'RegisterStatusNotifierItem "({re.escape(prefix)}\d+)"', watcher.text())
        return m and m.group(1) in bus_names() and m.group(1)

    return wait_for(registered, timeout,
                    f"tray runner {pid} to register its StatusNotifierItem with the watcher mock "
                    f"(log {watcher.log})")


def tray_menu(bus_name: str) -> list[list]:
    """The tray menu (com.canonical.dbusmenu at /MenuBar): [[id, label, enabled], …]."""
    return dbus_tool("menu-layout", bus_name)


def tray_click(bus_name: str, label: str) -> dict:
    """Click a tray menu item by its label, as a tray host would (Event(id, "clicked"))."""
    return dbus_tool("menu-click", bus_name, label)


def _start_mock(args: list[str], name: str, log: Path) -> MockService:
    if name in bus_names():
        pytest.exit(f"{name} is already on this session bus: run the desktop tests on a private bus "
                    "(bash scripts/desktop-e2e.sh)", returncode=2)
    log.unlink(missing_ok=True)
    err = open(OUT / f"{log.stem}.stderr", "wb")
    proc = subprocess.Popen([SYSTEM_PYTHON, "-m", "dbusmock", *args, "-l", str(log)],
                            stdout=err, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    err.close()
    try:
        wait_for(lambda: proc.poll() is None and name in bus_names(), 20, f"dbusmock to own {name}")
    except AssertionError:
        stop_process(proc)
        raise
    return MockService(name, log, proc)


@pytest.fixture(scope="session")
def notification_daemon():
    """org.freedesktop.Notifications (dbusmock notification_daemon template), logging its calls."""
    d = _start_mock(["--template", "notification_daemon"], "org.freedesktop.Notifications",
                    OUT / "notifications.log")
    yield d
    stop_process(d.proc)


@pytest.fixture(scope="session")
def sni_watcher():
    """A StatusNotifierWatcher, so ksni registers the tray item (the log shows the call)."""
    w = _start_mock(["--session", "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                     "org.kde.StatusNotifierWatcher"], "org.kde.StatusNotifierWatcher", OUT / "sni-watcher.log")
    dbus_tool("sni-watcher-setup")
    yield w
    stop_process(w.proc)


@pytest.fixture(scope="session", autouse=True)
def desktop_session(request):
    """Checks the environment, then starts the D-Bus mocks before any app runs."""
    missing = [v for v in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS") if not os.environ.get(v)]
    if missing:
        pytest.exit(f"{', '.join(missing)} not set: run through bash scripts/desktop-e2e.sh", returncode=2)
    for path, what in ((APP_BIN, "the kairos-desktop binary (KAIROS_DESKTOP_BIN)"),
                       (TRAY_BIN, "the kairos-tray binary, next to kairos-desktop"),
                       (Path(TAURI_DRIVER), "tauri-driver (KAIROS_TAURI_DRIVER)"),
                       (Path(NATIVE_DRIVER), "WebKitWebDriver (apt webkit2gtk-driver)"),
                       (Path(SYSTEM_PYTHON), "Debian's python3 with python3-dbusmock")):
        if not path.is_file():
            pytest.exit(f"missing {what}: {path}", returncode=2)
    request.getfixturevalue("notification_daemon")
    request.getfixturevalue("sni_watcher")
    print(f"\ndesktop e2e: logs in {OUT}; the clock starts at {_START.isoformat()}", file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# The loopback HTTP target


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    at: float  # time.time() when it arrived

    @property
    def job(self) -> str | None:
        return self.headers.get("x-ms-scheduler-jobid")


@dataclass
class Target:
    """An HTTP server on 127.0.0.1 that answers every request with `status` and records it; a
    request to a path given to `hold` is recorded at once and answered only once released."""
    url: str
    status: int = 200
    requests: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    holds: dict[str, threading.Event] = field(default_factory=dict)

    def hold(self, path: str) -> threading.Event:
        """Hold the answers to `path` until the returned event is set (at most 120 s)."""
        gate = threading.Event()
        with self.lock:
            self.holds[path] = gate
        return gate

    def received(self, job: str | None = None, method: str | None = None, after: float = 0) -> list[Request]:
        with self.lock:
            return [r for r in self.requests
                    if (job is None or r.job == job) and (method is None or r.method == method) and r.at > after]


@pytest.fixture(scope="module")
def target():
    state: Target

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _handle(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with state.lock:
                state.requests.append(Request(self.command, self.path,
                                              {k.lower(): v for k, v in self.headers.items()}, body, time.time()))
                status = state.status
                gate = state.holds.get(self.path)
            if gate is not None:
                gate.wait(120)
            reply = f"status {status}\n".encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _handle

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = Target(url=f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, name="target", daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


# ---------------------------------------------------------------------------------------------
# The app under test


@dataclass
class App:
    """One data directory and the kairos-desktop processes using it."""
    data_dir: Path
    log: Path

    def tray_runner_pids(self) -> list[int]:
        return tray_runner_pids(self.data_dir)

    def window_pids(self) -> list[int]:
        return window_pids(self.data_dir)

    def wait_tray_runner(self, timeout: float = 30) -> int:
        pids = wait_for(self.tray_runner_pids, timeout,
                        f"a kairos-tray process for {self.data_dir} (app log {self.log})")
        assert len(pids) == 1, f"one tray runner per data directory, found {pids}"
        return pids[0]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """A fresh KAIROS_DATA_DIR for each test module."""
    return tmp_path_factory.mktemp("kairos-data")


@contextmanager
def running_tauri_driver(name: str, data_dir: Path, extra_env: dict[str, str] | None = None):
    """tauri-driver on a free port (it starts WebKitWebDriver, which starts the app). The app
    inherits its environment, so KAIROS_DATA_DIR is set here. Yields (url, App); afterwards ends
    tauri-driver and every Kairos process of `data_dir`."""
    port, native_port = free_port(), free_port()
    log = OUT / f"tauri-driver-{name}.log"
    env = dict(os.environ, KAIROS_DATA_DIR=str(data_dir), KAIROS_TEST_NOW=TEST_NOW,
               RUST_LOG=os.environ.get("RUST_LOG", "info"))
    env.update(extra_env or {})
    with open(log, "wb") as out:
        proc = subprocess.Popen([TAURI_DRIVER, "--port", str(port), "--native-port", str(native_port),
                                 "--native-driver", NATIVE_DRIVER],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True)
    try:
        # Both: tauri-driver answers a new session by connecting to WebKitWebDriver, which it
        # starts itself and which may not listen yet.
        wait_for(lambda: proc.poll() is None and port_open(port) and port_open(native_port), 30,
                 f"tauri-driver to listen on port {port} and WebKitWebDriver on {native_port} (log {log})")
        yield f"http://127.0.0.1:{port}", App(data_dir, log)
    finally:
        stop_process(proc, group=True)
        ended = stop_kairos(data_dir)
        if ended:
            print(f"desktop e2e: ended leftover Kairos processes {ended}", file=sys.stderr)


@pytest.fixture(scope="module")
def tauri_driver(request, data_dir):
    """tauri-driver for this module's data directory. Yields (url, App). A module's `APP_ENV`
    (a dict) is added to the app's environment, e.g. `{"KAIROS_LANG": "en-XA"}`."""
    extra = getattr(request.module, "APP_ENV", None)
    with running_tauri_driver(request.module.__name__, data_dir, extra) as started:
        yield started


@pytest.fixture(scope="module")
def app(tauri_driver) -> App:
    return tauri_driver[1]


def new_session(url: str) -> webdriver.Remote:
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(APP_BIN)})
    # A WebDriver call that hangs fails after two minutes instead of waiting forever.
    return webdriver.Remote(command_executor=url, options=options,
                            client_config=ClientConfig(remote_server_addr=url, timeout=120))


@contextmanager
def window_session(url: str, app: App):
    """A WebDriver session on a fresh `kairos-desktop` window, once the page has rendered; ended
    afterwards (a test may close the window itself), waiting for the window process to exit."""
    drv = new_session(url)
    try:
        wait_for(lambda: drv.execute_script("return document.readyState") == "complete"
                 and drv.find_elements(By.CSS_SELECTOR, "#app > *"), 30,
                 f"the Kairos page to render (app log {app.log})")
        yield drv
    finally:
        try:
            drv.quit()
        except Exception as e:  # noqa: BLE001 - the window may be gone already (a test closed it)
            print(f"desktop e2e: ending the WebDriver session: {type(e).__name__}: {e}", file=sys.stderr)
        wait_for(lambda: not app.window_pids(), 20, "the window process to exit after the session ended")


@pytest.fixture(scope="module")
def driver(tauri_driver):
    """A WebDriver session on a fresh `kairos-desktop` window (ended after the module)."""
    url, app = tauri_driver
    with window_session(url, app) as drv:
        yield drv


# ---------------------------------------------------------------------------------------------
# DOM helpers


# Resolves true when the element's box is the same 50 ms later (a timer, not animation frames:
# those can pause in a window the compositor thinks hidden).
STILL_FOR_A_MOMENT = """
const [el, done] = arguments;
const box = () => JSON.stringify(el.getBoundingClientRect());
const first = box();
setTimeout(() => done(box() === first), 50);
"""


class UI:
    """Small conveniences over a selenium driver; every wait has a deadline."""

    def __init__(self, driver: webdriver.Remote, timeout: float = 15):
        self.driver = driver
        self.timeout = timeout

    def all(self, css: str):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def find(self, css: str, timeout: float | None = None, visible: bool = True):
        def present():
            els = self.all(css)
            return next((e for e in els if not visible or e.is_displayed()), None)
        return wait_for(present, timeout or self.timeout, f"element {css!r}" + (" to be visible" if visible else ""))

    def gone(self, css: str, timeout: float | None = None) -> None:
        wait_for(lambda: not any(e.is_displayed() for e in self.all(css)), timeout or self.timeout,
                 f"element {css!r} to disappear")

    def click(self, css: str, timeout: float | None = None):
        el = wait_for(lambda: (e := self.find(css, timeout)) and e.is_enabled() and e, timeout or self.timeout,
                      f"element {css!r} to be enabled")

        def clicked():
            # A modal closing (its state update lands a frame later) leaves the page inert for a
            # moment: WebDriver then says "not interactable" and nothing was clicked, so try again.
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
            # WebDriver clicks at the point where the element was: a dialog that grows as its
            # content loads re-centres, and the click lands beside the button (a CI check failed
            # so in test_calendars a). Click only once it stays in place for a moment.
            if not self.driver.execute_async_script(STILL_FOR_A_MOMENT, el):
                return None
            el.click()
            return el
        return wait_for(clicked, timeout or self.timeout, f"element {css!r} to take a click")

    def text(self, css: str) -> str:
        return self.find(css).text

    def wait_text(self, css: str, predicate, what: str, timeout: float | None = None) -> str:
        return wait_for(lambda: (t := self.find(css, timeout).text) and predicate(t) and t,
                        timeout or self.timeout, f"{css!r} text {what}")

    def type(self, css: str, text: str):
        """Replace an input's value the way a user does (select all, type), so Preact sees input events."""
        el = self.find(css)
        el.click()
        el.send_keys("\ue009a")  # Ctrl+A
        el.send_keys("\ue017")   # Delete
        if text:
            el.send_keys(text)
        wait_for(lambda: el.get_property("value") == text, self.timeout, f"{css!r} to hold {text!r}")
        return el

    def select(self, css: str, value: str):
        """Choose an option by its value *property* (Preact may leave the attribute out when the
        value is the option's text, so selenium's Select.select_by_value cannot find it)."""
        el = self.find(css)
        options = el.find_elements(By.TAG_NAME, "option")
        option = next((o for o in options if o.get_property("value") == value), None)
        assert option is not None, f"{css!r} has no option {value!r}: {[o.get_property('value') for o in options]}"
        if not option.is_selected():
            option.click()
        wait_for(lambda: el.get_property("value") == value, self.timeout, f"{css!r} to select {value!r}")
        return el

    def hash(self) -> str:
        return self.driver.execute_script("return location.hash")


@pytest.fixture(scope="module")
def ui(driver) -> UI:
    return UI(driver)


def invoke(driver, command: str, args: dict):
    """Call a Tauri command from the page, as the UI does; returns its answer or raises."""
    out = driver.execute_async_script(
        "const [cmd, args, done] = arguments;"
        "window.__TAURI_INTERNALS__.invoke(cmd, args).then(r => done({ok: r}), e => done({err: e}));",
        command, args)
    if "err" in out:
        raise AssertionError(f"{command} failed: {out['err']}")
    return out["ok"]


def paint_soon(driver: webdriver.Remote) -> None:
    """WebKitGTK with compositing off (the window's setting) answers a screenshot only after its
    next paint, and a page with nothing to repaint does not paint again: the request then hangs
    (a still page, such as the first-run screen, did). So a paint is scheduled: the page's opacity
    at 0.999 for two frames, which no screenshot comparison can tell from 1."""
    driver.execute_script(
        "const s = document.documentElement.style;"
        "setTimeout(() => { s.opacity = '0.999';"
        " requestAnimationFrame(() => requestAnimationFrame(() => { s.opacity = ''; })); }, 50);")


def screenshot(driver: webdriver.Remote, name: str) -> Path:
    """Save the window as <name> (a PNG) in SCREENSHOTS."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    # Not mid-transition (a card fading in, a toast sliding): finite animations finish first.
    wait_for(lambda: driver.execute_script(
        "return document.getAnimations().filter(a => a.playState === 'running'"
        " && a.effect && a.effect.getComputedTiming().iterations !== Infinity).length === 0"),
        10, f"animations to finish before the screenshot {name}")
    paint_soon(driver)
    assert driver.get_screenshot_as_file(str(path)), f"could not save the screenshot {path}"
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000, f"{path} is not a PNG of the window"
    return path


# ---------------------------------------------------------------------------------------------
# Steps of one scenario: a failed step marks the later ones xfail instead of piling up errors.


def pytest_runtest_makereport(item, call):
    failed = call.excinfo is not None and not call.excinfo.errisinstance(pytest.skip.Exception)
    if "incremental" in item.keywords and failed:
        item.parent._kairos_failed = item
    if failed and call.when == "call":
        _keep_failure_state(item)


def _keep_failure_state(item) -> None:
    """What the window showed when a step failed: the screen and the page's route in OUT, named
    for the test (a failure that happens once in a while is otherwise gone). The picture comes
    from the X server, not WebDriver: a webview that stopped answering must not stall the run
    (a WebDriver screenshot once hung here until pytest's timeout); the route is asked for with
    a deadline."""
    driver = item.funcargs.get("driver")
    if driver is None:
        return
    stem = OUT / f"failed-{item.name}"
    try:
        subprocess.run(["import", "-window", "root", f"{stem}.png"], timeout=20, check=True,
                       capture_output=True)
        sys.stderr.write(f"desktop e2e: the screen at the failure is in {stem}.png\n")
    except (OSError, subprocess.SubprocessError) as e:
        sys.stderr.write(f"desktop e2e: could not keep the screen at the failure: {e}\n")
    route: list[str] = []

    def ask():
        try:
            route.append(driver.execute_script(
                "return location.hash + '\\n' + (document.activeElement && document.activeElement.outerHTML.slice(0, 300))"))
        except Exception as e:  # noqa: BLE001 - only for the record
            route.append(f"(the page did not answer: {type(e).__name__}: {e})")
    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(15)
    stem.with_suffix(".txt").write_text(route[0] if route else "(the page did not answer within 15 s)")


def pytest_runtest_setup(item):
    if "incremental" in item.keywords:
        failed = getattr(item.parent, "_kairos_failed", None)
        if failed is not None:
            pytest.xfail(f"an earlier step failed: {failed.name}")
