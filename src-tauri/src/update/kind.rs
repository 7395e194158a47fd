//! How this copy of Kairos was installed, which decides who updates it: the bundler marks each
//! program it packs with its installer's kind (`tauri::utils::platform::bundle_type`), and an
//! AppImage is known by the `APPIMAGE` variable its runtime sets.

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::utils::config::BundleType;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub enum InstallKind {
    /// Windows NSIS, the macOS app bundle, a Linux AppImage or .deb: Kairos updates itself.
    SelfUpdating,
    /// An .rpm: the system's package manager owns the files and updates them.
    PackageManager,
    /// Built from source or unpacked by hand: no installer to update from.
    FromSource,
}

impl InstallKind {
    pub fn here() -> InstallKind {
        let appimage = cfg!(target_os = "linux") && std::env::var_os("APPIMAGE").is_some();
        InstallKind::of(tauri::utils::platform::bundle_type(), appimage)
    }

    fn of(bundle: Option<BundleType>, appimage: bool) -> InstallKind {
        if appimage {
            return InstallKind::SelfUpdating;
        }
        match bundle {
            Some(BundleType::Rpm) => InstallKind::PackageManager,
            // The MSI is not built (NSIS is the Windows installer), but it updates itself too.
            Some(
                BundleType::Deb
                | BundleType::AppImage
                | BundleType::Nsis
                | BundleType::Msi
                | BundleType::App
                | BundleType::Dmg,
            ) => InstallKind::SelfUpdating,
            None => InstallKind::FromSource,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_installer_says_who_updates_it() {
        let check = |bundle: Option<BundleType>, appimage, want| {
            let seen = format!("{bundle:?}, APPIMAGE={appimage}");
            assert_eq!(InstallKind::of(bundle, appimage), want, "{seen}");
        };
        check(Some(BundleType::Deb), false, InstallKind::SelfUpdating);
        check(Some(BundleType::Nsis), false, InstallKind::SelfUpdating);
        check(Some(BundleType::App), false, InstallKind::SelfUpdating);
        check(Some(BundleType::Rpm), false, InstallKind::PackageManager);
        check(None, false, InstallKind::FromSource);
        // The AppImage runtime's variable wins: its programs carry no mark of their own.
        check(None, true, InstallKind::SelfUpdating);
    }
}
