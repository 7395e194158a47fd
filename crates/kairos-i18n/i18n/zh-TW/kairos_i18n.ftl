# Kairos：Rust 端顯示的文字（背景執行器、通知、功能表）。全形標點。

## 背景執行器的功能表與工具提示

tray-open = 開啟 Kairos
tray-pause-all = 暫停所有工作
tray-resume-all = 繼續所有工作
tray-quit = 結束 Kairos
tray-next-run = 下次執行：{ $job }，{ $date } { $time }
tray-paused = 已暫停：不會執行任何工作
tray-no-run = 沒有已排程的執行
tray-last-failure = 上次失敗：{ $job }，{ $date } { $time }（{ $message }）
tray-no-failures = 沒有失敗
tray-tooltip =
    Kairos
    { $next }

## 通知

note-fault-title = Kairos：工作集合「{ $collection }」中的工作「{ $job }」發生錯誤
note-test-title = Kairos 測試通知
note-test-body = Kairos 的通知會像這樣顯示。
note-action-title = Kairos：工作集合「{ $collection }」中的工作「{ $job }」
note-action-failed-title = Kairos：工作集合「{ $collection }」中的工作「{ $job }」執行失敗
note-action-body = 預定於 { $date } { $time } 的執行（執行識別碼 { $execution }）
note-action-failed-body = 預定於 { $date } { $time } 的執行失敗（執行識別碼 { $execution }）：{ $failure }

## 視窗的功能表列

menu-file = 檔案(&F)
menu-edit = 編輯(&E)
menu-view = 檢視(&V)
menu-theme = 佈景主題(&T)
menu-jobs = 工作(&J)
menu-window = 視窗(&W)
menu-help = 說明(&H)
menu-new-job = 新增工作
menu-new-collection = 新增工作集合…
menu-import = 匯入…
menu-export = 匯出…
menu-settings = 設定…
menu-find = 尋找工作
menu-palette = 命令面板…
menu-back = 上一頁
menu-forward = 下一頁
menu-theme-system = 跟隨系統
menu-theme-light = 淺色
menu-theme-dark = 深色
menu-run-now = 立即執行
menu-delete = 刪除
menu-pause-all = 暫停所有工作
menu-undo = 復原
menu-redo = 重做
menu-cut = 剪下
menu-copy = 複製
menu-paste = 貼上
menu-select-all = 全選
menu-full-screen = 全螢幕
menu-enter-full-screen = 進入全螢幕
menu-minimize = 最小化
menu-maximize = 最大化
menu-zoom = 縮放
menu-close-window = 關閉視窗
menu-bring-all-to-front = 將全部移至最前
menu-quit = 結束
menu-exit = 結束(&X)
menu-quit-app = 結束 Kairos
menu-hide-app = 隱藏 Kairos
menu-hide-others = 隱藏其他
menu-show-all = 全部顯示
menu-services = 服務
menu-about = 關於 Kairos
menu-check-updates = 檢查更新…
about-comments = 使用 Azure Scheduler API 的桌面工作排程器。
about-license = Kairos 是依 MIT 授權條款發布的自由軟體。

## 背景執行器無法自行解決的問題（顯示於視窗的設定中）

problem-no-icon = 沒有系統匣圖示：{ $reason }。工作仍會繼續執行。
problem-no-bus = 沒有系統匣圖示：沒有 D-Bus 工作階段匯流排（{ $reason }）。{ problem-host-how }
problem-bus-silent = 沒有系統匣圖示：D-Bus 工作階段匯流排沒有回應。{ problem-host-how }
problem-no-host = 沒有系統匣圖示：這個桌面環境沒有系統匣主機（{ $watcher } 不在工作階段匯流排上）。{ problem-host-how }
problem-host-how = 工作仍會繼續執行。在 GNOME 上，請安裝並啟用「AppIndicator and KStatusNotifierItem Support」擴充功能；KDE、Xfce、Cinnamon 和大多數其他桌面環境都內建系統匣主機。

## The window cannot open its database at start (a native message box)

refusal-title = Kairos 無法啟動
refusal-too-new = 這個資料庫是由較新版本的 Kairos 寫入的（結構描述 { $found }；此版本最多只認得 { $supported }）。Kairos 可能已降級。請重新安裝較新的版本以開啟它。{ $path } 中沒有任何變更。
refusal-other = Kairos 無法開啟其資料庫：{ $reason }
