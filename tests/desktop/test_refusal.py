"""A downgraded Kairos meets a database a newer Kairos wrote: the window refuses it in a native
message box, in the person's language, says what to do, starts no tray runner and changes no byte
of the database (kairos-engine's EngineError::TooNew, src-tauri refusal.rs)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess

from conftest import APP_BIN, OUT, REFUSAL_BOX, TEST_NOW, atspi_or_none, refusal_box, stop_pid, tray_runner_pids

TITLE = "Kairos kann nicht starten"


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_database_from_a_newer_kairos_is_refused_with_a_message_and_left_as_it_was(tmp_path):
    database = tmp_path / "kairos.db"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO settings VALUES ('desktop.language', 'de')")
        db.execute("PRAGMA user_version = 9999")
    before = digest(database)
    log = OUT / "refusal.log"
    env = dict(os.environ, KAIROS_DATA_DIR=str(tmp_path), KAIROS_LANG="de", KAIROS_TEST_NOW=TEST_NOW)
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(APP_BIN)], env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
    try:
        texts = refusal_box(proc.pid, TITLE)
        assert "neueren Version von Kairos" in texts and "9999" in texts, texts
        assert str(database) in texts, f"the box names the file: {texts}"
        assert not tray_runner_pids(tmp_path), "a refused database must not start the tray runner"
        assert atspi_or_none("press", proc.pid, REFUSAL_BOX, "OK") is not None, "no OK button in the box"
        assert proc.wait(20) == 1, "the window ends with status 1 once the box is closed"
    finally:
        if proc.poll() is None:
            stop_pid(proc.pid)
    assert "newer version of Kairos" in log.read_text(errors="replace"), "stderr says it too"
    assert digest(database) == before, "the refused database was changed"
