//! What the filesystem remembers: the nodes with their unsynced data, and the namespace
//! changes not yet made durable by an fsync of their directory, with how to undo each.
//!
//! Namespace changes go to the backing directory at once (so the mount needs no view of its
//! own); what they removed or replaced is moved into a trash directory instead of deleted. A
//! power loss undoes the pending changes newest first, which puts every directory back as it was
//! at its last fsync.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use fuser::FileAttr;

use crate::nodes::{is_dir, Nodes, ROOT, TRASH_PARENT};
use crate::overlay::SplitMix64;
use crate::{Loss, LossReport, Status};

#[derive(Debug)]
struct Pending {
    /// The directories whose fsync makes the change durable: any one of them (a rename between
    /// two directories is one journal transaction on ext4, so either fsync commits it whole).
    dirs: Vec<u64>,
    undo: Undo,
}

#[derive(Debug)]
enum Undo {
    /// A new entry (create, mkdir, mknod, symlink, link): remove it, with what it holds.
    Remove(PathBuf),
    /// A removed entry (unlink, rmdir), kept in the trash: move it back.
    Restore { trash: PathBuf, path: PathBuf },
    /// A rename: move it back, then bring back what it replaced.
    Rename {
        from: PathBuf,
        to: PathBuf,
        replaced: Option<PathBuf>,
    },
}

#[derive(Debug)]
pub(crate) struct State {
    pub(crate) nodes: Nodes,
    pending: Vec<Pending>,
    trash_seq: u64,
}

impl State {
    pub(crate) fn new(backing: &Path) -> io::Result<State> {
        let backing = backing.canonicalize()?;
        let nodes = Nodes::new(backing)?;
        // A trash left by a filesystem process that died holds removals nobody can undo now.
        remove_all(&nodes.trash_dir())?;
        Ok(State {
            nodes,
            pending: Vec::new(),
            trash_seq: 0,
        })
    }

    pub(crate) fn lookup(&mut self, parent: u64, name: &OsStr) -> io::Result<FileAttr> {
        let path = self.nodes.child(parent, name).map_err(|_| enoent())?;
        let meta = fs::symlink_metadata(&path)?;
        let ino = self.nodes.entry(parent, name, &meta);
        self.nodes.attr(ino)
    }

    pub(crate) fn readdir(
        &mut self,
        ino: u64,
    ) -> io::Result<Vec<(u64, fuser::FileType, std::ffi::OsString)>> {
        let path = self.nodes.path(ino)?;
        let parent = self.nodes.get(ino)?.parent;
        let mut entries = vec![
            (ino, fuser::FileType::Directory, ".".into()),
            (
                if ino == ROOT { ROOT } else { parent },
                fuser::FileType::Directory,
                "..".into(),
            ),
        ];
        for entry in fs::read_dir(&path)? {
            let entry = entry?;
            let name = entry.file_name();
            if ino == ROOT && name == crate::nodes::TRASH_NAME {
                continue;
            }
            let meta = entry.metadata()?;
            let kind =
                fuser::FileType::from_std(meta.file_type()).unwrap_or(fuser::FileType::RegularFile);
            let child = self.nodes.entry(ino, &name, &meta);
            entries.push((child, kind, name));
        }
        Ok(entries)
    }

    /// After making `path` in `parent`: its node, and the pending change.
    fn made(&mut self, parent: u64, name: &OsStr, path: PathBuf) -> io::Result<u64> {
        let meta = fs::symlink_metadata(&path)?;
        let ino = self.nodes.entry(parent, name, &meta);
        self.pending.push(Pending {
            dirs: vec![parent],
            undo: Undo::Remove(path),
        });
        Ok(ino)
    }

    /// create(2) with O_CREAT: returns the node, opened.
    pub(crate) fn create(
        &mut self,
        parent: u64,
        name: &OsStr,
        mode: u32,
        exclusive: bool,
    ) -> io::Result<FileAttr> {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let path = self.nodes.child(parent, name)?;
        let mut options = fs::OpenOptions::new();
        options.read(true).write(true).mode(mode & 0o7777);
        let (file, new) = match options.clone().create_new(true).open(&path) {
            Ok(file) => (file, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && !exclusive => {
                (options.open(&path)?, false)
            }
            Err(e) => return Err(e),
        };
        let ino = if new {
            // The process umask of this filesystem must not narrow the mode the caller asked for.
            file.set_permissions(fs::Permissions::from_mode(mode & 0o7777))?;
            self.made(parent, name, path)?
        } else {
            let meta = file.metadata()?;
            self.nodes.entry(parent, name, &meta)
        };
        let node = self.nodes.get_mut(ino)?;
        if node.file.is_none() {
            node.file = Some(file);
        }
        node.opens += 1;
        self.nodes.attr(ino)
    }

    pub(crate) fn mkdir(&mut self, parent: u64, name: &OsStr, mode: u32) -> io::Result<FileAttr> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        let path = self.nodes.child(parent, name)?;
        fs::DirBuilder::new().mode(mode & 0o7777).create(&path)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(mode & 0o7777))?;
        let ino = self.made(parent, name, path)?;
        self.nodes.attr(ino)
    }

    pub(crate) fn mknod(
        &mut self,
        parent: u64,
        name: &OsStr,
        mode: u32,
        rdev: u32,
    ) -> io::Result<FileAttr> {
        use nix::sys::stat::{Mode, SFlag};
        let path = self.nodes.child(parent, name)?;
        let kind = SFlag::from_bits_truncate(mode & nix::libc::S_IFMT);
        let perm = Mode::from_bits_truncate(mode & 0o7777);
        nix::sys::stat::mknod(&path, kind, perm, u64::from(rdev))?;
        let ino = self.made(parent, name, path)?;
        self.nodes.attr(ino)
    }

    pub(crate) fn symlink(
        &mut self,
        parent: u64,
        name: &OsStr,
        target: &Path,
    ) -> io::Result<FileAttr> {
        let path = self.nodes.child(parent, name)?;
        std::os::unix::fs::symlink(target, &path)?;
        let ino = self.made(parent, name, path)?;
        self.nodes.attr(ino)
    }

    pub(crate) fn link(&mut self, ino: u64, parent: u64, name: &OsStr) -> io::Result<FileAttr> {
        let path = self.nodes.child(parent, name)?;
        fs::hard_link(self.nodes.path(ino)?, &path)?;
        let linked = self.made(parent, name, path)?;
        self.nodes.attr(linked)
    }

    /// Moves an entry into the trash, the node following it; returns its trash path.
    fn trash(&mut self, parent: u64, name: &OsStr, path: &Path) -> io::Result<PathBuf> {
        let meta = fs::symlink_metadata(path)?;
        let trash_dir = self.nodes.trash_dir();
        match fs::create_dir(&trash_dir) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
        self.trash_seq += 1;
        let trash_name = std::ffi::OsString::from(self.trash_seq.to_string());
        let trash = trash_dir.join(&trash_name);
        fs::rename(path, &trash)?;
        self.nodes
            .moved(meta.ino(), parent, name, TRASH_PARENT, &trash_name);
        Ok(trash)
    }

    pub(crate) fn unlink(&mut self, parent: u64, name: &OsStr) -> io::Result<()> {
        let path = self.nodes.child(parent, name)?;
        if is_dir(&path)? {
            return Err(io::Error::from_raw_os_error(nix::libc::EISDIR));
        }
        let trash = self.trash(parent, name, &path)?;
        self.pending.push(Pending {
            dirs: vec![parent],
            undo: Undo::Restore { trash, path },
        });
        Ok(())
    }

    pub(crate) fn rmdir(&mut self, parent: u64, name: &OsStr) -> io::Result<()> {
        let path = self.nodes.child(parent, name)?;
        if !is_dir(&path)? {
            return Err(io::Error::from_raw_os_error(nix::libc::ENOTDIR));
        }
        // rename(2) would move a full directory; rmdir(2) must refuse it.
        if fs::read_dir(&path)?.next().is_some() {
            return Err(io::Error::from_raw_os_error(nix::libc::ENOTEMPTY));
        }
        let trash = self.trash(parent, name, &path)?;
        self.pending.push(Pending {
            dirs: vec![parent],
            undo: Undo::Restore { trash, path },
        });
        Ok(())
    }

    pub(crate) fn rename(
        &mut self,
        parent: u64,
        name: &OsStr,
        new_parent: u64,
        new_name: &OsStr,
        flags: fuser::RenameFlags,
    ) -> io::Result<()> {
        use nix::libc::{EEXIST, EINVAL, EISDIR, ENOTDIR, ENOTEMPTY};
        let error = io::Error::from_raw_os_error;
        if !(flags - fuser::RenameFlags::RENAME_NOREPLACE).is_empty() {
            // RENAME_EXCHANGE and RENAME_WHITEOUT are not modelled.
            return Err(error(EINVAL));
        }
        let from = self.nodes.child(parent, name)?;
        let to = self.nodes.child(new_parent, new_name)?;
        let from_meta = fs::symlink_metadata(&from)?;
        let replaced = match fs::symlink_metadata(&to) {
            Ok(to_meta) if to_meta.ino() == from_meta.ino() => return Ok(()),
            Ok(_) if flags.contains(fuser::RenameFlags::RENAME_NOREPLACE) => {
                return Err(error(EEXIST))
            }
            Ok(to_meta) => {
                match (from_meta.is_dir(), to_meta.is_dir()) {
                    (true, false) => return Err(error(ENOTDIR)),
                    (false, true) => return Err(error(EISDIR)),
                    (true, true) if fs::read_dir(&to)?.next().is_some() => {
                        return Err(error(ENOTEMPTY))
                    }
                    _ => {}
                }
                Some(self.trash(new_parent, new_name, &to)?)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        if let Err(e) = fs::rename(&from, &to) {
            if let Some(trash) = &replaced {
                fs::rename(trash, &to)?;
            }
            return Err(e);
        }
        self.nodes
            .moved(from_meta.ino(), parent, name, new_parent, new_name);
        let mut dirs = vec![parent];
        if new_parent != parent {
            dirs.push(new_parent);
        }
        self.pending.push(Pending {
            dirs,
            undo: Undo::Rename { from, to, replaced },
        });
        Ok(())
    }

    pub(crate) fn open(&mut self, ino: u64) -> io::Result<()> {
        self.nodes.file(ino)?;
        self.nodes.get_mut(ino)?.opens += 1;
        Ok(())
    }

    pub(crate) fn release(&mut self, ino: u64) -> io::Result<()> {
        let node = self.nodes.get_mut(ino)?;
        node.opens = node.opens.saturating_sub(1);
        // Closing a clean file frees its backing fd; one with unsynced data keeps it for a
        // later fsync or the power loss.
        if node.opens == 0 && node.overlay.is_clean() {
            node.file = None;
        }
        Ok(())
    }

    pub(crate) fn read(&mut self, ino: u64, offset: u64, size: u32) -> io::Result<Vec<u8>> {
        self.nodes.file(ino)?;
        let node = self.nodes.get(ino)?;
        node.overlay
            .read(node.file.as_ref().expect("opened"), offset, size)
    }

    pub(crate) fn write(&mut self, ino: u64, offset: u64, data: &[u8]) -> io::Result<()> {
        self.nodes.file(ino)?;
        let node = self.nodes.get_mut(ino)?;
        node.overlay
            .write(node.file.as_ref().expect("opened"), offset, data)
    }

    /// Mode, owner and times go straight to the backing file (not modelled as unsynced); the
    /// size goes into the overlay like a write.
    pub(crate) fn setattr(&mut self, ino: u64, change: Setattr) -> io::Result<FileAttr> {
        use std::os::unix::fs::PermissionsExt;
        let path = self.nodes.path(ino)?;
        if let Some(mode) = change.mode {
            fs::set_permissions(&path, fs::Permissions::from_mode(mode & 0o7777))?;
        }
        if change.uid.is_some() || change.gid.is_some() {
            std::os::unix::fs::lchown(&path, change.uid, change.gid)?;
        }
        if change.atime.is_some() || change.mtime.is_some() {
            let omit = nix::sys::time::TimeSpec::UTIME_OMIT;
            nix::sys::stat::utimensat(
                nix::fcntl::AT_FDCWD,
                &path,
                &change.atime.unwrap_or(omit),
                &change.mtime.unwrap_or(omit),
                nix::sys::stat::UtimensatFlags::NoFollowSymlink,
            )?;
        }
        if let Some(size) = change.size {
            let backing_len = self.nodes.file(ino)?.metadata()?.len();
            self.nodes.get_mut(ino)?.overlay.truncate(backing_len, size);
        }
        self.nodes.attr(ino)
    }

    pub(crate) fn readlink(&self, ino: u64) -> io::Result<Vec<u8>> {
        use std::os::unix::ffi::OsStringExt;
        Ok(fs::read_link(self.nodes.path(ino)?)?
            .into_os_string()
            .into_vec())
    }

    /// fsync/fdatasync of a file: its data and size become durable (not its name).
    pub(crate) fn fsync(&mut self, ino: u64) -> io::Result<()> {
        self.nodes.file(ino)?;
        let node = self.nodes.get_mut(ino)?;
        node.overlay.apply(node.file.as_ref().expect("opened"))?;
        if node.opens == 0 {
            node.file = None;
        }
        Ok(())
    }

    /// fsync of a directory: every pending change in it becomes durable.
    pub(crate) fn fsyncdir(&mut self, ino: u64) -> io::Result<()> {
        let (done, pending): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|p| p.dirs.contains(&ino));
        self.pending = pending;
        for change in done {
            self.commit(change.undo)?;
        }
        Ok(())
    }

    /// A durable change: what it removed or replaced is gone for good.
    fn commit(&mut self, undo: Undo) -> io::Result<()> {
        let trash = match undo {
            Undo::Restore { trash, .. }
            | Undo::Rename {
                replaced: Some(trash),
                ..
            } => trash,
            Undo::Remove(_) | Undo::Rename { replaced: None, .. } => return Ok(()),
        };
        if let Ok(meta) = fs::symlink_metadata(&trash) {
            if meta.nlink() <= 1 || meta.is_dir() {
                self.nodes.forget_backing(meta.ino());
            }
        }
        remove_all(&trash)
    }

    pub(crate) fn status(&self) -> Status {
        let dirty = self.nodes.map.values().filter(|n| !n.overlay.is_clean());
        Status {
            dirty_files: dirty.clone().count(),
            dirty_pages: dirty.map(|n| n.overlay.page_count()).sum(),
            pending_namespace_changes: self.pending.len(),
        }
    }

    /// Makes everything durable, as a clean shutdown would.
    pub(crate) fn sync_all(&mut self) -> io::Result<()> {
        let inos: Vec<u64> = self
            .nodes
            .map
            .iter()
            .filter(|(_, n)| !n.overlay.is_clean())
            .map(|(i, _)| *i)
            .collect();
        for ino in inos {
            self.fsync(ino)?;
        }
        for change in std::mem::take(&mut self.pending) {
            self.commit(change.undo)?;
        }
        remove_all(&self.nodes.trash_dir())
    }

    /// The power goes out: unsynced data is dropped (or torn), pending namespace changes are
    /// undone, and every node is forgotten.
    pub(crate) fn power_loss(&mut self, loss: Loss) -> io::Result<LossReport> {
        let mut report = LossReport::default();
        let mut inos: Vec<u64> = self
            .nodes
            .map
            .iter()
            .filter(|(_, n)| !n.overlay.is_clean())
            .map(|(i, _)| *i)
            .collect();
        inos.sort_unstable();
        for ino in inos {
            // The seed of each file's coin flips depends on its path, not on lookup order, so a
            // seed replays the same loss.
            let path = self.nodes.path(ino).unwrap_or_default();
            let path = path
                .strip_prefix(&self.nodes.backing)
                .unwrap_or(&path)
                .to_owned();
            let node = self.nodes.get_mut(ino)?;
            report.files += 1;
            let pages = node.overlay.page_count();
            let kept = match (loss, &node.file) {
                (Loss::Tear { seed }, Some(file)) => {
                    let mut rng =
                        SplitMix64::new(seed ^ fnv1a(path.as_os_str().as_encoded_bytes()));
                    node.overlay.tear(file, &mut rng)?
                }
                _ => 0,
            };
            node.overlay = Default::default();
            report.pages_kept += kept;
            report.pages_dropped += pages - kept;
        }
        for change in std::mem::take(&mut self.pending).into_iter().rev() {
            report.namespace_changes_undone += 1;
            if let Err(e) = undo(&change.undo) {
                // A later change that was made durable can stand in the way (a rename chain
                // across directories synced in between); the rest is still undone.
                report.undo_errors.push(format!("{:?}: {e}", change.undo));
            }
        }
        remove_all(&self.nodes.trash_dir())?;
        self.nodes.reset()?;
        Ok(report)
    }
}

/// The attribute changes of a setattr that this filesystem carries out.
#[derive(Debug, Default)]
pub(crate) struct Setattr {
    pub(crate) mode: Option<u32>,
    pub(crate) uid: Option<u32>,
    pub(crate) gid: Option<u32>,
    pub(crate) size: Option<u64>,
    pub(crate) atime: Option<nix::sys::time::TimeSpec>,
    pub(crate) mtime: Option<nix::sys::time::TimeSpec>,
}

fn undo(undo: &Undo) -> io::Result<()> {
    match undo {
        Undo::Remove(path) => remove_all(path),
        Undo::Restore { trash, path } => fs::rename(trash, path),
        Undo::Rename { from, to, replaced } => {
            fs::rename(to, from)?;
            if let Some(trash) = replaced {
                fs::rename(trash, to)?;
            }
            Ok(())
        }
    }
}

/// Removes a file, symlink or directory tree; a missing one is fine.
fn remove_all(path: &Path) -> io::Result<()> {
    let result = match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) => Err(e),
    };
    match result {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

fn enoent() -> io::Error {
    io::Error::from_raw_os_error(nix::libc::ENOENT)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}
