# Kairos : ce que le côté Rust affiche (exécuteur en arrière-plan, notifications, menus).

## Menu et info-bulle de l’exécuteur en arrière-plan

tray-open = Ouvrir Kairos
tray-pause-all = Suspendre tous les travaux
tray-resume-all = Reprendre tous les travaux
tray-quit = Quitter Kairos
tray-next-run = Prochaine exécution : { $job } le { $date } à { $time }
tray-paused = Suspendu : aucun travail n’est exécuté
tray-no-run = Aucune exécution planifiée
tray-last-failure = Dernier échec : { $job } le { $date } à { $time } — { $message }
tray-no-failures = Aucun échec
tray-tooltip =
    Kairos
    { $next }

## Notifications

note-fault-title = Kairos : le travail « { $job } » de « { $collection } » est en erreur
note-test-title = Notification de test de Kairos
note-test-body = Les notifications de Kairos ressembleront à ceci.
note-action-title = Kairos : travail « { $job } » de « { $collection } »
note-action-failed-title = Kairos : le travail « { $job } » de « { $collection } » a échoué
note-action-body = Exécution prévue le { $date } à { $time } (identifiant { $execution })
note-action-failed-body = L’exécution prévue le { $date } à { $time } a échoué (identifiant { $execution }) : { $failure }

## Barre de menus de la fenêtre

menu-file = &Fichier
menu-edit = &Édition
menu-view = &Affichage
menu-theme = &Thème
menu-jobs = T&ravaux
menu-window = Fe&nêtre
menu-help = A&ide
menu-new-job = Nouveau travail
menu-new-collection = Nouvelle collection de travaux…
menu-import = Importer…
menu-export = Exporter…
menu-settings = Paramètres…
menu-find = Rechercher des travaux
menu-palette = Palette de commandes…
menu-back = Précédent
menu-forward = Suivant
menu-theme-system = Suivre le système
menu-theme-light = Clair
menu-theme-dark = Sombre
menu-run-now = Exécuter maintenant
menu-delete = Supprimer
menu-pause-all = Suspendre tous les travaux
menu-undo = Annuler
menu-redo = Rétablir
menu-cut = Couper
menu-copy = Copier
menu-paste = Coller
menu-select-all = Tout sélectionner
menu-full-screen = Plein écran
menu-enter-full-screen = Passer en plein écran
menu-minimize = Réduire
menu-maximize = Agrandir
menu-zoom = Zoom
menu-close-window = Fermer la fenêtre
menu-bring-all-to-front = Tout ramener au premier plan
menu-quit = Quitter
menu-exit = &Quitter
menu-quit-app = Quitter Kairos
menu-hide-app = Masquer Kairos
menu-hide-others = Masquer les autres
menu-show-all = Tout afficher
menu-services = Services
menu-about = À propos de Kairos
menu-check-updates = Rechercher des mises à jour…
about-comments = Un planificateur de travaux pour le bureau, qui parle l’API Azure Scheduler.
about-license = Kairos est un logiciel libre sous licence MIT.

## Ce que l’exécuteur en arrière-plan ne peut pas corriger seul (dans les paramètres de la fenêtre)

problem-no-icon = Pas d’icône dans la zone de notification : { $reason }. Les travaux continuent de s’exécuter.
problem-no-bus = Pas d’icône dans la zone de notification : il n’y a pas de bus de session D-Bus ({ $reason }). { problem-host-how }
problem-bus-silent = Pas d’icône dans la zone de notification : le bus de session D-Bus n’a pas répondu. { problem-host-how }
problem-no-host = Pas d’icône dans la zone de notification : ce bureau n’a pas de zone de notification ({ $watcher } n’est pas sur le bus de session). { problem-host-how }
problem-host-how = Les travaux continuent de s’exécuter. Sous GNOME, installez et activez l’extension « AppIndicator and KStatusNotifierItem Support » ; KDE, Xfce, Cinnamon et la plupart des autres bureaux ont une zone de notification intégrée.

## The window cannot open its database at start (a native message box)

refusal-title = Kairos ne peut pas démarrer
refusal-too-new = Cette base de données a été écrite par une version plus récente de Kairos (schéma { $found } ; cette version connaît jusqu’au { $supported }). Kairos a sans doute été rétrogradé. Réinstallez la version plus récente pour l’ouvrir. Rien n’a été modifié dans { $path }.
refusal-other = Kairos ne peut pas ouvrir sa base de données : { $reason }
