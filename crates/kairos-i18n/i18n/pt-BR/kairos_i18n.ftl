# Kairos: o que o lado Rust mostra (executor em segundo plano, notificações, menus).

## Menu e dica do executor em segundo plano

tray-open = Abrir o Kairos
tray-pause-all = Pausar todos os trabalhos
tray-resume-all = Retomar todos os trabalhos
tray-quit = Sair do Kairos
tray-next-run = Próxima execução: { $job } em { $date } às { $time }
tray-paused = Pausado: nenhum trabalho é executado
tray-no-run = Nenhuma execução agendada
tray-last-failure = Última falha: { $job } em { $date } às { $time } — { $message }
tray-no-failures = Nenhuma falha
tray-tooltip =
    Kairos
    { $next }

## Notificações

note-fault-title = Kairos: o trabalho “{ $job }” em “{ $collection }” está com falha
note-test-title = Notificação de teste do Kairos
note-test-body = As notificações do Kairos terão esta aparência.
note-action-title = Kairos: trabalho “{ $job }” em “{ $collection }”
note-action-failed-title = Kairos: o trabalho “{ $job }” em “{ $collection }” falhou
note-action-body = Execução prevista para { $date } às { $time } (identificador { $execution })
note-action-failed-body = A execução prevista para { $date } às { $time } falhou (identificador { $execution }): { $failure }

## Barra de menus da janela

menu-file = &Arquivo
menu-edit = &Editar
menu-view = E&xibir
menu-theme = &Tema
menu-jobs = T&rabalhos
menu-window = &Janela
menu-help = Aj&uda
menu-new-job = Novo trabalho
menu-new-collection = Nova coleção de trabalhos…
menu-import = Importar…
menu-export = Exportar…
menu-settings = Configurações…
menu-find = Localizar trabalhos
menu-palette = Paleta de comandos…
menu-back = Voltar
menu-forward = Avançar
menu-theme-system = Seguir o sistema
menu-theme-light = Claro
menu-theme-dark = Escuro
menu-run-now = Executar agora
menu-delete = Excluir
menu-pause-all = Pausar todos os trabalhos
menu-undo = Desfazer
menu-redo = Refazer
menu-cut = Recortar
menu-copy = Copiar
menu-paste = Colar
menu-select-all = Selecionar tudo
menu-full-screen = Tela cheia
menu-enter-full-screen = Entrar em tela cheia
menu-minimize = Minimizar
menu-maximize = Maximizar
menu-zoom = Zoom
menu-close-window = Fechar janela
menu-bring-all-to-front = Trazer tudo para a frente
menu-quit = Sair
menu-exit = Sai&r
menu-quit-app = Sair do Kairos
menu-hide-app = Ocultar o Kairos
menu-hide-others = Ocultar outros
menu-show-all = Mostrar tudo
menu-services = Serviços
menu-about = Sobre o Kairos
menu-check-updates = Procurar atualizações…
about-comments = Um agendador de trabalhos para desktop que fala a API do Azure Scheduler.
about-license = O Kairos é software livre sob a licença MIT.

## O que o executor em segundo plano não consegue resolver sozinho (nas configurações da janela)

problem-no-icon = Sem ícone na bandeja: { $reason }. Os trabalhos continuam sendo executados mesmo assim.
problem-no-bus = Sem ícone na bandeja: não há barramento de sessão D-Bus ({ $reason }). { problem-host-how }
problem-bus-silent = Sem ícone na bandeja: o barramento de sessão D-Bus não respondeu. { problem-host-how }
problem-no-host = Sem ícone na bandeja: este ambiente de trabalho não tem uma bandeja do sistema ({ $watcher } não está no barramento de sessão). { problem-host-how }
problem-host-how = Os trabalhos continuam sendo executados mesmo assim. No GNOME, instale e ative a extensão “AppIndicator and KStatusNotifierItem Support”; KDE, Xfce, Cinnamon e a maioria dos outros ambientes já têm uma bandeja do sistema.

## The window cannot open its database at start (a native message box)

refusal-title = O Kairos não pode iniciar
refusal-too-new = Este banco de dados foi gravado por uma versão mais nova do Kairos (esquema { $found }; esta versão conhece até o { $supported }). Provavelmente o Kairos voltou para uma versão anterior. Instale a versão mais nova novamente para abri-lo. Nada foi alterado em { $path }.
refusal-other = O Kairos não pode abrir o banco de dados: { $reason }
