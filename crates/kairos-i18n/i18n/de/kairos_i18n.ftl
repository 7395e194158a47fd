# Kairos – was die Rust-Seite zeigt (Hintergrund-Runner, Benachrichtigungen, Menüs). Sie-Form.

## Menü und Tooltip des Hintergrund-Runners

tray-open = Kairos öffnen
tray-pause-all = Alle Aufträge anhalten
tray-resume-all = Alle Aufträge fortsetzen
tray-quit = Kairos beenden
tray-next-run = Nächste Ausführung: { $job } am { $date } um { $time } Uhr
tray-paused = Angehalten: Es wird kein Auftrag ausgeführt
tray-no-run = Keine Ausführung geplant
tray-last-failure = Letzter Fehler: { $job } am { $date } um { $time } Uhr – { $message }
tray-no-failures = Keine Fehler
tray-tooltip =
    Kairos
    { $next }

## Benachrichtigungen

note-fault-title = Kairos: Auftrag „{ $job }“ in „{ $collection }“ ist fehlerhaft
note-test-title = Kairos-Testbenachrichtigung
note-test-body = So sehen Benachrichtigungen von Kairos aus.
note-action-title = Kairos: Auftrag „{ $job }“ in „{ $collection }“
note-action-failed-title = Kairos: Auftrag „{ $job }“ in „{ $collection }“ ist fehlgeschlagen
note-action-body = Fällige Ausführung am { $date } um { $time } Uhr (Kennung { $execution })
note-action-failed-body = Die am { $date } um { $time } Uhr fällige Ausführung ist fehlgeschlagen (Kennung { $execution }): { $failure }

## Menüleiste des Fensters

menu-file = &Datei
menu-edit = &Bearbeiten
menu-view = &Ansicht
menu-theme = &Farbschema
menu-jobs = A&ufträge
menu-window = &Fenster
menu-help = &Hilfe
menu-new-job = Neuer Auftrag
menu-new-collection = Neue Auftragssammlung…
menu-import = Importieren…
menu-export = Exportieren…
menu-settings = Einstellungen…
menu-find = Aufträge suchen
menu-palette = Befehlspalette…
menu-back = Zurück
menu-forward = Vorwärts
menu-theme-system = Wie das System
menu-theme-light = Hell
menu-theme-dark = Dunkel
menu-run-now = Jetzt ausführen
menu-delete = Löschen
menu-pause-all = Alle Aufträge anhalten
menu-undo = Rückgängig
menu-redo = Wiederherstellen
menu-cut = Ausschneiden
menu-copy = Kopieren
menu-paste = Einfügen
menu-select-all = Alles auswählen
menu-full-screen = Vollbild
menu-enter-full-screen = Vollbildmodus aktivieren
menu-minimize = Minimieren
menu-maximize = Maximieren
menu-zoom = Zoomen
menu-close-window = Fenster schließen
menu-bring-all-to-front = Alle nach vorne bringen
menu-quit = Beenden
menu-exit = &Beenden
menu-quit-app = Kairos beenden
menu-hide-app = Kairos ausblenden
menu-hide-others = Andere ausblenden
menu-show-all = Alle einblenden
menu-services = Dienste
menu-about = Über Kairos
menu-check-updates = Nach Updates suchen…
about-comments = Ein Auftragsplaner für den Desktop, der die Azure Scheduler-API spricht.
about-license = Kairos ist freie Software unter der MIT-Lizenz.

## Was der Hintergrund-Runner nicht selbst beheben kann (in den Einstellungen des Fensters)

problem-no-icon = Kein Symbol im Infobereich: { $reason }. Aufträge werden trotzdem weiter ausgeführt.
problem-no-bus = Kein Symbol im Infobereich: Es gibt keinen D-Bus-Sitzungsbus ({ $reason }). { problem-host-how }
problem-bus-silent = Kein Symbol im Infobereich: Der D-Bus-Sitzungsbus hat nicht geantwortet. { problem-host-how }
problem-no-host = Kein Symbol im Infobereich: Diese Arbeitsumgebung hat keinen Infobereich ({ $watcher } ist nicht am Sitzungsbus). { problem-host-how }
problem-host-how = Aufträge werden trotzdem weiter ausgeführt. Installieren und aktivieren Sie unter GNOME die Erweiterung „AppIndicator and KStatusNotifierItem Support“; KDE, Xfce, Cinnamon und die meisten anderen Arbeitsumgebungen haben einen Infobereich eingebaut.

## The window cannot open its database at start (a native message box)

refusal-title = Kairos kann nicht starten
refusal-too-new = Diese Datenbank wurde von einer neueren Version von Kairos geschrieben (Schema { $found }; diese Version kennt bis { $supported }). Vermutlich wurde Kairos auf eine ältere Version zurückgesetzt. Installieren Sie die neuere Version wieder, um sie zu öffnen. An { $path } wurde nichts geändert.
refusal-other = Kairos kann seine Datenbank nicht öffnen: { $reason }
