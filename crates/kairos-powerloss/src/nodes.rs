//! The inode table: FUSE inode numbers for backing files, where each one lives, its open file
//! and its unsynced data.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs::{File, Metadata};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use fuser::{FileAttr, FileType, INodeNo};

use crate::overlay::Overlay;

/// FUSE's root inode.
pub(crate) const ROOT: u64 = 1;
/// The parent of nodes moved into the trash directory (no FUSE inode has number 0).
pub(crate) const TRASH_PARENT: u64 = 0;
/// Where removed and replaced entries wait, in the backing root, until their removal is durable
/// or undone. The mount never shows it.
pub(crate) const TRASH_NAME: &str = ".kairos-powerloss-trash";

#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) parent: u64,
    pub(crate) name: OsString,
    /// Opened at the first open and kept while the file is open or has unsynced data, so that
    /// an unlinked file keeps its data and `fsync` after a rename still finds it.
    pub(crate) file: Option<File>,
    pub(crate) opens: u32,
    pub(crate) overlay: Overlay,
}

#[derive(Debug)]
pub(crate) struct Nodes {
    pub(crate) backing: PathBuf,
    pub(crate) map: HashMap<u64, Node>,
    /// Backing inode number -> FUSE inode number, so hard links and repeated lookups agree.
    by_backing: HashMap<u64, u64>,
    /// Never reused, also not across power losses: a FUSE inode number the kernel still
    /// remembers from before one must never name another file (its page cache would show).
    next: u64,
}

impl Nodes {
    pub(crate) fn new(backing: PathBuf) -> io::Result<Nodes> {
        let mut nodes = Nodes {
            backing,
            map: HashMap::new(),
            by_backing: HashMap::new(),
            next: ROOT + 1,
        };
        nodes.reset()?;
        Ok(nodes)
    }

    /// Forgets every node but the root (after a power loss: the files the kernel knew are gone
    /// or changed, and new lookups get new numbers).
    pub(crate) fn reset(&mut self) -> io::Result<()> {
        let root_ino = std::fs::metadata(&self.backing)?.ino();
        self.map.clear();
        self.by_backing.clear();
        self.map.insert(
            ROOT,
            Node {
                parent: ROOT,
                name: OsString::new(),
                file: None,
                opens: 0,
                overlay: Overlay::default(),
            },
        );
        self.by_backing.insert(root_ino, ROOT);
        Ok(())
    }

    pub(crate) fn trash_dir(&self) -> PathBuf {
        self.backing.join(TRASH_NAME)
    }

    pub(crate) fn get(&self, ino: u64) -> io::Result<&Node> {
        self.map.get(&ino).ok_or_else(stale)
    }

    pub(crate) fn get_mut(&mut self, ino: u64) -> io::Result<&mut Node> {
        self.map.get_mut(&ino).ok_or_else(stale)
    }

    /// The backing path of a node, from its parents.
    pub(crate) fn path(&self, ino: u64) -> io::Result<PathBuf> {
        let mut parts = Vec::new();
        let mut at = ino;
        while at != ROOT {
            let node = self.get(at)?;
            parts.push(node.name.as_os_str());
            if node.parent == TRASH_PARENT {
                parts.push(OsStr::new(TRASH_NAME));
                break;
            }
            at = node.parent;
            if parts.len() > 4096 {
                return Err(io::Error::from_raw_os_error(nix::libc::ELOOP));
            }
        }
        let mut path = self.backing.clone();
        path.extend(parts.iter().rev());
        Ok(path)
    }

    /// The path of `name` in directory `parent`; the trash is not visible in the root.
    pub(crate) fn child(&self, parent: u64, name: &OsStr) -> io::Result<PathBuf> {
        if parent == ROOT && name == TRASH_NAME {
            return Err(io::Error::from_raw_os_error(nix::libc::EPERM));
        }
        Ok(self.path(parent)?.join(name))
    }

    /// The node for the entry `name` of `parent` whose metadata is `meta`, made if new.
    pub(crate) fn entry(&mut self, parent: u64, name: &OsStr, meta: &Metadata) -> u64 {
        if let Some(ino) = self.by_backing.get(&meta.ino()) {
            return *ino;
        }
        let ino = self.next;
        self.next += 1;
        self.by_backing.insert(meta.ino(), ino);
        let node = Node {
            parent,
            name: name.to_owned(),
            file: None,
            opens: 0,
            overlay: Overlay::default(),
        };
        self.map.insert(ino, node);
        ino
    }

    /// Records that the entry at `from` (of `from_parent`/`from_name`) now lives at
    /// `to_parent`/`to_name`, when the node lived under that name.
    pub(crate) fn moved(
        &mut self,
        backing_ino: u64,
        from_parent: u64,
        from_name: &OsStr,
        to_parent: u64,
        to_name: &OsStr,
    ) {
        let Some(ino) = self.by_backing.get(&backing_ino) else {
            return;
        };
        let Some(node) = self.map.get_mut(ino) else {
            return;
        };
        if node.parent == from_parent && node.name == from_name {
            node.parent = to_parent;
            node.name = to_name.to_owned();
        }
    }

    /// The backing inode is about to be freed: a later file may get its number.
    pub(crate) fn forget_backing(&mut self, backing_ino: u64) {
        self.by_backing.remove(&backing_ino);
    }

    /// Opens the backing file of a node if it is not open yet.
    pub(crate) fn file(&mut self, ino: u64) -> io::Result<&File> {
        if self.get(ino)?.file.is_none() {
            let path = self.path(ino)?;
            let file = match std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(&path)
            {
                Ok(file) => file,
                // Not writable by this process (when not run as root): reads still work.
                Err(e) if e.kind() == io::ErrorKind::PermissionDenied => File::open(&path)?,
                Err(e) => return Err(e),
            };
            self.get_mut(ino)?.file = Some(file);
        }
        Ok(self.get(ino)?.file.as_ref().expect("opened above"))
    }

    /// The attributes the mount shows: the backing file's, with the unsynced size.
    pub(crate) fn attr(&self, ino: u64) -> io::Result<FileAttr> {
        let node = self.get(ino)?;
        let meta = match &node.file {
            // fstat: also right for an open file whose name was removed.
            Some(file) => file.metadata()?,
            None => std::fs::symlink_metadata(self.path(ino)?)?,
        };
        let size = node.overlay.size(meta.len());
        Ok(file_attr(ino, &meta, size))
    }
}

fn stale() -> io::Error {
    io::Error::from_raw_os_error(nix::libc::ESTALE)
}

pub(crate) fn file_attr(ino: u64, meta: &Metadata, size: u64) -> FileAttr {
    let time = |secs: i64, nsecs: i64| {
        let secs = u64::try_from(secs).unwrap_or(0);
        UNIX_EPOCH + Duration::new(secs, u32::try_from(nsecs).unwrap_or(0))
    };
    FileAttr {
        ino: INodeNo(ino),
        size,
        blocks: meta.blocks().max(size.div_ceil(512)),
        atime: time(meta.atime(), meta.atime_nsec()),
        mtime: time(meta.mtime(), meta.mtime_nsec()),
        ctime: time(meta.ctime(), meta.ctime_nsec()),
        crtime: UNIX_EPOCH,
        kind: FileType::from_std(meta.file_type()).unwrap_or(FileType::RegularFile),
        perm: (meta.mode() & 0o7777) as u16,
        nlink: u32::try_from(meta.nlink()).unwrap_or(u32::MAX),
        uid: meta.uid(),
        gid: meta.gid(),
        rdev: meta.rdev() as u32,
        blksize: 4096,
        flags: 0,
    }
}

/// Whether a backing path names a directory (without following a symlink).
pub(crate) fn is_dir(path: &Path) -> io::Result<bool> {
    Ok(std::fs::symlink_metadata(path)?.is_dir())
}
