"""The tray runner speaks the chosen language, read from its menu over D-Bus (com.canonical.dbusmenu,
as a tray host reads it): German through KAIROS_LANG, the pseudo-locale en-XA (every label
bracketed: an unbracketed one would be hard-coded), and a language saved in the settings while it
runs, which relabels the menu at once, without a restart.

Only the tray runner (kairos-tray) runs here: no window. Run the module whole through
`bash scripts/desktop-e2e.sh tests/desktop/test_tray_language.py`.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

from conftest import OUT, TEST_NOW, TRAY_BIN, stop_process, tray_bus_name, tray_click, tray_menu, wait_for

# What each language's menu shows on an empty database: open, next run, last failure, pause, quit.
GERMAN = ["Kairos öffnen", "Keine Ausführung geplant", "Keine Fehler", "Alle Aufträge anhalten", "Kairos beenden"]
ENGLISH = ["Open Kairos", "No run scheduled", "No failures", "Pause all jobs", "Quit Kairos"]


@contextmanager
def tray_runner(data_dir: Path, language: str | None):
    """kairos-tray on `data_dir`, with KAIROS_LANG=`language` (None: unset) and an OS language of
    `C` (English), until the block ends."""
    env = {k: v for k, v in os.environ.items() if k not in ("KAIROS_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(KAIROS_DATA_DIR=str(data_dir), KAIROS_TEST_NOW=TEST_NOW, LANG="C")
    if language:
        env["KAIROS_LANG"] = language
    log = open(OUT / f"tray-language-{data_dir.name}.log", "wb")
    proc = subprocess.Popen([str(TRAY_BIN)], env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    log.close()
    try:
        yield proc
    finally:
        stop_process(proc)


def labels(name: str) -> list[str]:
    return [label for _, label, _ in tray_menu(name)]


def menu_becomes(name: str, want: list[str], what: str) -> list[str]:
    return wait_for(lambda: labels(name) == want and want, 20, what, describe=lambda: labels(name))


def test_kairos_lang_gives_a_german_menu_whose_commands_work(tmp_path, sni_watcher):
    with tray_runner(tmp_path, "de") as proc:
        name = tray_bus_name(proc.pid, sni_watcher)
        menu_becomes(name, GERMAN, "the tray menu in German")
        tray_click(name, "Alle Aufträge anhalten")
        wait_for(lambda: "Alle Aufträge fortsetzen" in labels(name), 15,
                 "the German menu to offer Resume after Pause", describe=lambda: labels(name))
        assert "Angehalten: Es wird kein Auftrag ausgeführt" in labels(name)


def test_the_pseudo_locale_brackets_every_label(tmp_path, sni_watcher):
    with tray_runner(tmp_path, "en-XA") as proc:
        name = tray_bus_name(proc.pid, sni_watcher)
        shown = wait_for(lambda: (ls := labels(name)) and all(l.startswith("[") for l in ls) and ls, 20,
                         "the pseudo-locale's labels", describe=lambda: labels(name))
        assert len(shown) == 5, shown
        for label in shown:
            assert label.endswith("]") and "~" in label, f"not a whole pseudo-locale label: {label!r}"
            assert not any(word in label for word in ("Open", "Quit", "Pause")), f"English left: {label!r}"


def test_a_saved_language_relabels_the_running_tray_at_once(tmp_path, sni_watcher):
    with tray_runner(tmp_path, None) as proc:
        name = tray_bus_name(proc.pid, sni_watcher)
        menu_becomes(name, ENGLISH, "the tray menu in English (LANG=C)")
        # What the window's Settings saves (kairos_local::settings::set_language), written by
        # another process as the window is one.
        with sqlite3.connect(tmp_path / "kairos.db") as db:
            db.execute("INSERT INTO settings (key, value) VALUES ('desktop.language', 'de') "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        menu_becomes(name, GERMAN, "the running tray runner to relabel its menu in German")
        assert proc.poll() is None, "relabelled without a restart"
