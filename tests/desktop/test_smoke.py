"""The harness itself: the real window opens through tauri-driver, and the tray runner it starts
puts its icon on the (mock) tray. And what the X server shows is what the page painted."""

import os
import subprocess

from conftest import paint_soon, tray_bus_name, tray_menu, wait_for


def test_window_opens_with_title(driver, ui):
    wait_for(lambda: driver.title == "Kairos", 15, "the page title to be 'Kairos'")
    assert driver.execute_script("return '__TAURI_INTERNALS__' in window"), "the page runs inside Tauri"
    # The sidebar and the header render from the real backend (no "development fake backend" note).
    ui.find("#collections")
    ui.find("#open-settings")
    assert "development fake backend" not in driver.find_element("css selector", "header").text


def test_tray_runner_starts_with_its_tray_icon(driver, app, sni_watcher):
    pid = app.wait_tray_runner()
    name = tray_bus_name(pid, sni_watcher)
    labels = [label for _, label, _ in tray_menu(name)]
    for expected in ("Open Kairos", "Pause all jobs", "Quit Kairos"):
        assert expected in labels, f"tray menu {labels} lacks {expected!r}"


def test_the_tray_runner_does_not_inherit_the_windows_webview_settings(app):
    """The window sets these for its own webview; the tray runner it starts passes its environment
    on to the programs of Command jobs, where they would take GL away from a job's program."""
    pid = app.wait_tray_runner()
    environ = dict(v.split(b"=", 1) for v in open(f"/proc/{pid}/environ", "rb").read().split(b"\0") if b"=" in v)
    for name in ("WEBKIT_SKIA_ENABLE_CPU_RENDERING", "GDK_GL", "__EGL_VENDOR_LIBRARY_DIRS"):
        if name not in os.environ:
            assert name.encode() not in environ, (
                f"the tray runner {pid} inherited {name}={environ[name.encode()].decode()} from the window")


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry))
    return found


def test_only_the_web_process_loads_a_gl_driver_and_the_screen_shows_the_page(driver, ui, app, tmp_path):
    """The window's process opens no EGL driver (docs/benchmarks.md "The window's process without
    EGL": Mesa there cost about 50 MB), the web process it starts does (WebKit aborts without one),
    and what the X server shows in the window is what the page painted."""
    ui.find("#collections")
    [window] = wait_for(app.window_pids, 15, "the kairos-desktop process")
    gl = [line.split()[-1] for line in open(f"/proc/{window}/maps")
          if any(lib in line for lib in ("libLLVM", "libgallium", "_dri.so", "libEGL_mesa"))]
    assert not gl, f"the window's process {window} loaded a GL driver: {sorted(set(gl))}"
    web = [p for p in _children(window) if open(f"/proc/{p}/cmdline", "rb").read().split(b"\0")[0]
           .endswith(b"WebKitWebProcess")]
    assert web, f"no WebKitWebProcess among the children of {window}"
    for pid in web:
        environ = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
        leaked = [v for v in environ if v.startswith(b"__EGL_VENDOR_LIBRARY_DIRS=/nonexistent/kairos")]
        assert not leaked, f"the web process {pid} inherited the window's no-EGL setting: {leaked}"

    # The page's own picture (WebDriver asks the web process) against the X server's.
    page = tmp_path / "page.png"
    screen = tmp_path / "screen.png"
    paint_soon(driver)
    assert driver.get_screenshot_as_file(str(page))
    x, y, width, height, outer_height = driver.execute_script(
        "return [window.screenX, window.screenY, window.innerWidth, window.innerHeight, window.outerHeight]")
    # The page starts below the window's menu bar (src-tauri/src/menu.rs; no window manager, so no
    # title bar): screenY is the window's top, the menu bar takes the rest of outerHeight.
    y += outer_height - height
    subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage",
                    str(screen)], check=True, timeout=30)
    compared = subprocess.run(["compare", "-metric", "AE", "-fuzz", "5%", str(page), str(screen), "null:"],
                              capture_output=True, text=True, timeout=30)
    differing = float(compared.stderr.split()[0])
    assert differing <= 0.01 * width * height, (
        f"{differing:.0f} of {width * height} pixels on screen differ from the page's own picture "
        f"(kept in {tmp_path})")
