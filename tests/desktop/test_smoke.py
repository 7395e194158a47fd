"""The harness itself: the real window opens through tauri-driver, and the tray runner it starts
puts its icon on the (mock) tray."""

from conftest import tray_bus_name, tray_menu, wait_for


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
