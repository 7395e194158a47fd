"""Reads and drives a GTK window's native widgets (menu bar, dialogs) through AT-SPI, the desktop's
accessibility bus: what a screen reader sees, so the menu read here is the one on screen. Run by
Debian's /usr/bin/python3 (python3-gi and gir1.2-atspi-2.0; the test venv has no gi), as
dbus_tool.py is. Prints JSON.

  atspi_tool.py menus PID              the menu bar of the window of process PID
  atspi_tool.py activate PID MENU ITEM choose MENU > ITEM (e.g. Help "About Kairos")
  atspi_tool.py windows PID            the titles of the process's windows and dialogs
  atspi_tool.py texts PID TITLE        the names and texts in the window or dialog titled TITLE
  atspi_tool.py press PID TITLE BUTTON press BUTTON in the window or dialog titled TITLE
"""

from __future__ import annotations

import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

MENU_ROLES = {"menu", "menu item", "check menu item", "radio menu item", "separator"}
# The page's own accessibility tree is big and not what we read: do not go into it.
SKIP_ROLES = {"document web", "document frame"}


def application(pid: int):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_process_id() == pid:
            return app
    raise SystemExit(f"no accessible application with pid {pid}")


def children(acc):
    for i in range(acc.get_child_count()):
        child = acc.get_child_at_index(i)
        if child is not None:
            yield child


def find(acc, predicate, depth: int = 0, max_depth: int = 12):
    if predicate(acc):
        return acc
    if depth >= max_depth or acc.get_role_name() in SKIP_ROLES:
        return None
    for child in children(acc):
        found = find(child, predicate, depth + 1, max_depth)
        if found is not None:
            return found
    return None


def key_binding(acc) -> str:
    """The accelerator GTK shows beside an item ("<Primary>comma"), from "mnemonic;;accelerator"."""
    action = acc.get_action_iface()
    if action is None or action.get_n_actions() == 0:
        return ""
    return (action.get_key_binding(0) or "").split(";")[-1]


def menu_entries(menu) -> list[dict]:
    entries = []
    for child in children(menu):
        role = child.get_role_name()
        if role not in MENU_ROLES:
            continue
        entry = {"name": child.get_name(), "role": role, "keys": key_binding(child),
                 "enabled": child.get_state_set().contains(Atspi.StateType.ENABLED)}
        if role == "menu":
            entry["items"] = menu_entries(child)
        entries.append(entry)
    return entries


def menu_bar(pid: int):
    bar = find(application(pid), lambda a: a.get_role_name() == "menu bar")
    if bar is None:
        raise SystemExit(f"the application with pid {pid} has no menu bar")
    return bar


def titled(pid: int, title: str):
    app = application(pid)
    for window in children(app):
        if window.get_name() == title:
            return window
    raise SystemExit(f"no window titled {title!r} in pid {pid}: "
                     f"{[w.get_name() for w in children(app)]}")


def texts(acc, out: list[str], depth: int = 0) -> list[str]:
    if acc.get_name():
        out.append(acc.get_name())
    text = acc.get_text_iface()
    if text is not None:
        content = text.get_text(0, text.get_character_count())
        if content and content != acc.get_name():
            out.append(content)
    if depth < 15 and acc.get_role_name() not in SKIP_ROLES:
        for child in children(acc):
            texts(child, out, depth + 1)
    return out


def do_action(acc) -> None:
    action = acc.get_action_iface()
    if action is None or not action.do_action(0):
        raise SystemExit(f"{acc.get_role_name()} {acc.get_name()!r} did not take its action")


def main(argv: list[str]) -> object:
    command, pid = argv[0], int(argv[1])
    if command == "menus":
        return menu_entries(menu_bar(pid))
    if command == "activate":
        bar = menu_bar(pid)
        menu = next((m for m in children(bar) if m.get_name() == argv[2]), None)
        if menu is None:
            raise SystemExit(f"no menu {argv[2]!r}")
        item = find(menu, lambda a: a.get_role_name() in MENU_ROLES - {"menu"} and a.get_name() == argv[3])
        if item is None:
            raise SystemExit(f"no item {argv[3]!r} in {argv[2]!r}")
        do_action(item)
        return True
    if command == "windows":
        return [w.get_name() for w in children(application(pid))]
    if command == "texts":
        return texts(titled(pid, argv[2]), [])
    if command == "press":
        button = find(titled(pid, argv[2]),
                      lambda a: a.get_role_name() in ("push button", "toggle button") and a.get_name() == argv[3])
        if button is None:
            raise SystemExit(f"no button {argv[3]!r} in {argv[2]!r}")
        do_action(button)
        return True
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
