"""D-Bus calls for the desktop tests, run with Debian's /usr/bin/python3 (python3-dbus comes with
python3-dbusmock; the test venv's Python may be another build that cannot import it).

    dbus_tool.py names                          the session bus's names, as JSON
    dbus_tool.py sni-watcher-setup              give the bare dbusmock object the watcher API
    dbus_tool.py emit-action ID ACTION          ActionInvoked(ID, ACTION) from the notification mock
    dbus_tool.py menu-layout BUS [PATH]         the dbusmenu items: [[id, label, enabled], ...]
    dbus_tool.py menu-click BUS LABEL [PATH]    Event(id, "clicked") on the item with that label

Everything prints JSON on stdout; errors go to stderr with exit status 1.
"""

import json
import sys
import time

import dbus

WATCHER = "org.kde.StatusNotifierWatcher"
MOCK = "org.freedesktop.DBus.Mock"
NOTIFICATIONS = "org.freedesktop.Notifications"
DBUSMENU = "com.canonical.dbusmenu"
MENU_PATH = "/MenuBar"  # ksni 0.3 (dbus_interface.rs MENU_PATH)


def bus():
    return dbus.SessionBus()


def names():
    return [str(n) for n in bus().list_names()]


def sni_watcher_setup():
    obj = bus().get_object(WATCHER, "/StatusNotifierWatcher")
    mock = dbus.Interface(obj, MOCK)
    mock.AddMethod(WATCHER, "RegisterStatusNotifierItem", "s", "", "")
    mock.AddMethod(WATCHER, "RegisterStatusNotifierHost", "s", "", "")
    mock.AddProperty(WATCHER, "IsStatusNotifierHostRegistered", dbus.Boolean(True))
    mock.AddProperty(WATCHER, "ProtocolVersion", dbus.Int32(0))
    mock.AddProperty(WATCHER, "RegisteredStatusNotifierItems", dbus.Array([], signature="s"))
    return True


def emit_action(notification_id, action):
    obj = bus().get_object(NOTIFICATIONS, "/org/freedesktop/Notifications")
    mock = dbus.Interface(obj, MOCK)
    mock.EmitSignal(NOTIFICATIONS, "ActionInvoked", "us",
                    [dbus.UInt32(notification_id), dbus.String(action)])
    return True


def _items(layout):
    """Flatten a dbusmenu layout (id, props, children) into [id, label, enabled] rows."""
    item_id, props, children = layout
    rows = []
    if item_id != 0:
        label = str(props.get("label", ""))
        enabled = bool(props.get("enabled", True))
        kind = str(props.get("type", "standard"))
        if kind != "separator":
            rows.append([int(item_id), label, enabled])
    for child in children:
        rows.extend(_items(child))
    return rows


def menu_layout(name, path=MENU_PATH):
    menu = dbus.Interface(bus().get_object(name, path), DBUSMENU)
    _revision, layout = menu.GetLayout(0, -1, dbus.Array([], signature="s"))
    return _items(layout)


def menu_click(name, label, path=MENU_PATH):
    rows = menu_layout(name, path)
    matches = [r for r in rows if r[1].replace("_", "") == label]
    if not matches:
        raise SystemExit(f"no menu item {label!r} in {rows}")
    item_id = matches[0][0]
    menu = dbus.Interface(bus().get_object(name, path), DBUSMENU)
    try:
        menu.Event(dbus.Int32(item_id), "clicked", dbus.Int32(0, variant_level=1),
                   dbus.UInt32(int(time.time()) & 0xFFFFFFFF))
    except dbus.exceptions.DBusException as e:
        # "Quit" may end the program before its answer to the click goes out; the caller
        # checks the effect (the process exits) rather than the answer.
        if e.get_dbus_name() != "org.freedesktop.DBus.Error.NoReply":
            raise
        return {"clicked": item_id, "label": matches[0][1], "menu": rows, "answered": False}
    return {"clicked": item_id, "label": matches[0][1], "menu": rows, "answered": True}


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    cmd, args = argv[0], argv[1:]
    if cmd == "names":
        out = names()
    elif cmd == "sni-watcher-setup":
        out = sni_watcher_setup()
    elif cmd == "emit-action":
        out = emit_action(int(args[0]), args[1])
    elif cmd == "menu-layout":
        out = menu_layout(*args)
    elif cmd == "menu-click":
        out = menu_click(*args)
    else:
        raise SystemExit(f"unknown command {cmd!r}\n{__doc__}")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except dbus.exceptions.DBusException as e:
        print(f"dbus_tool: {e.get_dbus_name()}: {e.get_dbus_message()}", file=sys.stderr)
        sys.exit(1)
