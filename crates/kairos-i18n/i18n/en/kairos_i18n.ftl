# Kairos: what the Rust side shows a person (tray runner, notifications, native menus).
# Every language has exactly these ids and, per message, the same variables (tests/catalogs.rs).
# Terms: docs/glossary.md. Menu titles keep one "&" before their access key.

## The tray runner's menu and tooltip

tray-open = Open Kairos
tray-pause-all = Pause all jobs
tray-resume-all = Resume all jobs
tray-quit = Quit Kairos
# $job: the job's name; $date and $time: when, in local time ("Fri 27 Nov", "05:15").
tray-next-run = Next: { $job } at { $date } { $time }
tray-paused = Paused: no job fires
tray-no-run = No run scheduled
# $message: the first line of the failure as the job's history has it (not translated).
tray-last-failure = Last failure: { $job } at { $date } { $time } — { $message }
tray-no-failures = No failures
# The tooltip: the app's name, then the next run (tray-next-run, tray-paused or tray-no-run).
tray-tooltip =
    Kairos
    { $next }

## Notifications

# A job's occurrence faulted (no retry left, no error action) with "notify on fault" on.
note-fault-title = Kairos: job '{ $job }' in '{ $collection }' faulted
note-test-title = Kairos test notification
note-test-body = Notifications from Kairos will look like this.
# A job's Notification action that names no title or no body. $date and $time: when the
# occurrence was due (local time); $execution: its tag in the history; $failure: the first line
# of the main action's last failure (not translated).
note-action-title = Kairos: job '{ $job }' in '{ $collection }'
note-action-failed-title = Kairos: job '{ $job }' in '{ $collection }' failed
note-action-body = Occurrence due { $date } { $time } (execution { $execution })
note-action-failed-body = The occurrence due { $date } { $time } failed (execution { $execution }): { $failure }

## The window's menu bar (Linux, Windows, macOS)

menu-file = &File
menu-edit = &Edit
menu-view = &View
menu-theme = &Theme
menu-jobs = &Jobs
menu-window = &Window
menu-help = &Help
menu-new-job = New Job
menu-new-collection = New Collection…
menu-import = Import…
menu-export = Export…
menu-settings = Settings…
menu-find = Find Jobs
menu-palette = Command Palette…
menu-back = Back
menu-forward = Forward
menu-theme-system = Follow the System
menu-theme-light = Light
menu-theme-dark = Dark
menu-run-now = Run Now
menu-delete = Delete
menu-pause-all = Pause All Jobs
menu-undo = Undo
menu-redo = Redo
menu-cut = Cut
menu-copy = Copy
menu-paste = Paste
menu-select-all = Select All
menu-full-screen = Full Screen
menu-enter-full-screen = Enter Full Screen
menu-minimize = Minimize
menu-maximize = Maximize
menu-zoom = Zoom
menu-close-window = Close Window
menu-bring-all-to-front = Bring All to Front
# Linux's File menu.
menu-quit = Quit
# Windows' File menu.
menu-exit = E&xit
# macOS's application menu.
menu-quit-app = Quit Kairos
menu-hide-app = Hide Kairos
menu-hide-others = Hide Others
menu-show-all = Show All
menu-services = Services
menu-about = About Kairos
menu-check-updates = Check for Updates…
about-comments = A desktop job scheduler that speaks the Azure Scheduler API.
about-license = Kairos is free software under the MIT licence.

## What the tray runner cannot fix itself, shown in the window's Settings

# $reason: the system's own words (not translated).
problem-no-icon = No tray icon: { $reason }. Jobs keep running without it.
problem-no-bus = No tray icon: there is no D-Bus session bus ({ $reason }). { problem-host-how }
problem-bus-silent = No tray icon: the D-Bus session bus did not answer. { problem-host-how }
# $watcher: the D-Bus name a tray host owns.
problem-no-host = No tray icon: this desktop has no tray host ({ $watcher } is not on the session bus). { problem-host-how }
problem-host-how = Jobs keep running without it. On GNOME, install and turn on the "AppIndicator and KStatusNotifierItem Support" extension; KDE, Xfce, Cinnamon and most other desktops have a tray host built in.

## The window cannot open its database at start (a native message box)

refusal-title = Kairos cannot start
# $found, $supported: schema numbers; $path: the database file.
refusal-too-new = This database was written by a newer version of Kairos (schema { $found }; this version knows up to { $supported }). Kairos was probably downgraded. Install the newer version again to open it. Nothing was changed in { $path }.
# $reason: the engine's own words (not translated).
refusal-other = Kairos cannot open its database: { $reason }
