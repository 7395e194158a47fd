//! Tests only: a FUSE filesystem that passes everything through to a backing directory but
//! forgets, on a "power loss", whatever was not yet synced, the way LazyFS and ALICE simulate
//! power failures for databases.
//!
//! # What is modelled
//!
//! - **File data and size.** A write goes into an in-memory overlay of whole 4,096-byte pages
//!   for its file and is visible through the mount at once; `fsync`/`fdatasync` of the file
//!   writes its overlay (and truncations, `ftruncate` included) into the backing file. Writes
//!   through a shared `mmap` reach the filesystem when the kernel writes the pages back (on
//!   `msync`, `munmap`, `fsync`, close or its own writeback timer) and are then the same.
//! - **Directory entries.** create, mknod, mkdir, symlink, link, unlink, rmdir and rename are
//!   carried out in the backing directory at once, but are undone at a power loss unless the
//!   directory was fsynced since (open it, `fsync` the descriptor). A rename between two
//!   directories is durable once either is fsynced (one journal transaction, as on ext4). What
//!   an unlink, rmdir or a replacing rename removed waits in `.kairos-powerloss-trash` in the
//!   backing root (never shown through the mount) until then. So a new file that was fsynced
//!   but whose directory was not is gone after a power loss, and a rename over an old file
//!   without the directory fsync brings the old file back, as POSIX allows.
//! - **Power loss** ([`Handle::power_loss`]): every overlay is dropped (or, with [`Loss::Tear`],
//!   each unsynced page reaches the backing file or not by a coin flip from a seed: torn writes
//!   at page granularity, sizes not applied), then the pending namespace changes are undone
//!   newest first. Afterwards the backing directory holds exactly the synced state; it can be
//!   read directly, or through the same mount.
//!
//! # What is not modelled
//!
//! - Mode, owner and timestamps (chmod, chown, utimes) go straight to the backing files and
//!   survive a power loss. A directory's fsync commits only its names, not the data of the
//!   files in it.
//! - `sync(2)`, `syncfs(2)` and `sync_file_range(2)` sync nothing; `O_SYNC`/`O_DSYNC` writes
//!   are not synced either (the kernel does not tell FUSE about them). Only `fsync`/
//!   `fdatasync` of a file or directory count. Extended attributes, `fallocate` and
//!   `RENAME_EXCHANGE` are not supported (`ENOSYS`/`EINVAL`; SQLite needs none of them).
//! - Reordering: a power loss keeps all synced state and drops all unsynced state (or tears
//!   it); it never keeps a later unsynced write while dropping an earlier one, beyond tearing.
//! - The backing directory itself is assumed not to lose power: nothing is fsynced there.
//! - Files are owned by the user this filesystem runs as (root in the tests), not the caller.
//! - An fsync of a new file does not make its name durable (ext4 in practice commits it too;
//!   POSIX does not promise it, and the stricter rule is the one programs must be written for).
//! - FUSE `forget` is ignored: the inode table only shrinks at a power loss (fine for tests).
//!   Requests are served one at a time, by one thread.
//!
//! # Power loss and the kernel's caches
//!
//! Mount options: `fsname=kairos-powerloss`, `subtype=kairos-powerloss`, `default_permissions`
//! (the kernel checks modes) and `allow_other` (any user may use it). Entries and attributes are
//! not cached by the kernel (TTL 0); file pages are (`FOPEN_KEEP_CACHE` on every open, which a
//! shared `mmap` like SQLite's `-shm` needs: no `direct_io`). A power loss forgets every
//! inode, and later lookups hand out new inode numbers, so nothing the kernel cached before can
//! be seen after it. Kill every process that has files open on the mount **before** the power
//! loss: a descriptor opened before it refers to a forgotten inode and fails with `ESTALE`.
//! The mount can be used again right after, or unmounted and mounted afresh.
//!
//! # SQLite
//!
//! SQLite in WAL mode works on the mount unchanged, `-shm` mapping included (the tests run a
//! writer and a reader connection, and a writer process killed with SIGKILL). What it shows:
//! with `synchronous=FULL` every commit that returned survives a power loss, torn or not; with
//! `NORMAL` the commits since the last checkpoint are lost and `integrity_check` stays ok.
//! SQLite fsyncs the directory only when it first syncs a new rollback journal or WAL, never
//! for the database file itself: whatever else is in that directory becomes durable then too,
//! but a program (or test) that wants a new database to survive must fsync its directory. A
//! connection closed normally checkpoints and deletes its WAL; close it with
//! `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE` (or kill the process) to take the WAL into the loss.
//!
//! # Use
//!
//! As a library: [`PowerLossFs::mount`] returns a [`Handle`] with [`Handle::power_loss`],
//! [`Handle::sync_all`], [`Handle::status`] and [`Handle::unmount`]. Mounting needs root and
//! `/dev/fuse` (the pure-Rust mount calls mount(2) itself; no fusermount, no libfuse).
//!
//! As a program, for scripts and for tests of other programs:
//! `kairos-powerloss --backing DIR --mount DIR --control SOCKET` mounts, listens on the unix
//! stream socket `SOCKET`, and prints `ready` on standard output once both are up. Each line
//! sent on a connection is a command, answered with one line, `ok …` or `error MESSAGE`:
//!
//! | command | effect | answer |
//! | --- | --- | --- |
//! | `power-loss` | drop all unsynced state | `ok files=F pages_dropped=D pages_kept=0 undone=U undo_errors=E` |
//! | `power-loss tear SEED` | the same, keeping a seeded random half of the unsynced pages | as above, `pages_kept=K` |
//! | `sync-all` | make everything durable (a clean shutdown) | `ok` |
//! | `status` | what a power loss would take now | `ok dirty_files=F dirty_pages=P pending=N` |
//! | `unmount` | `sync-all`, answer, unmount and exit 0 | `ok` |
//!
//! SIGTERM and SIGINT do what `unmount` does. A program killed otherwise leaves a dead mount
//! ("Transport endpoint is not connected"): `umount -l MOUNT` removes it.
//!
//! Unmounting ([`Handle::unmount`], the `unmount` command, dropping the [`Handle`]) syncs
//! everything first, as a clean shutdown does; call `power_loss` before it to lose data.
#![cfg(target_os = "linux")]

mod control;
mod fs;
mod nodes;
mod overlay;
mod state;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use control::{answer, serve};
pub use overlay::PAGE;

use crate::fs::{lock, PowerLossFuse};
use crate::state::State;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("backing directory {path}: {source}")]
    Backing { path: PathBuf, source: io::Error },
    #[error("mounting on {path} (needs root and /dev/fuse): {source}")]
    Mount { path: PathBuf, source: io::Error },
    #[error("unmounting {path}: {source}")]
    Unmount { path: PathBuf, source: io::Error },
    #[error("applying the power loss to the backing directory: {0}")]
    PowerLoss(io::Error),
    #[error("syncing to the backing directory: {0}")]
    Sync(io::Error),
    #[error("control socket: {0}")]
    Control(io::Error),
}

/// How the power goes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Loss {
    /// Every unsynced write is lost.
    #[default]
    Clean,
    /// Each unsynced page of each file is written or lost by a coin flip from `seed` (and the
    /// file's path): the same seed and writes give the same torn result.
    Tear { seed: u64 },
}

/// What a power loss took.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LossReport {
    /// Files that had unsynced data.
    pub files: usize,
    pub pages_dropped: usize,
    /// Unsynced pages that reached the backing file anyway ([`Loss::Tear`]).
    pub pages_kept: usize,
    /// Namespace changes undone (entries made, removed or renamed since their directory's fsync).
    pub namespace_changes_undone: usize,
    /// Undos that failed, because a later change that was made durable stood in the way.
    pub undo_errors: Vec<String>,
}

/// What a power loss would take now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Status {
    pub dirty_files: usize,
    pub dirty_pages: usize,
    pub pending_namespace_changes: usize,
}

/// The filesystem; see the crate documentation.
#[derive(Debug)]
pub struct PowerLossFs;

impl PowerLossFs {
    /// Mounts a view of `backing` on `mountpoint` (both existing directories).
    pub fn mount(backing: &Path, mountpoint: &Path) -> Result<Handle, Error> {
        let state = State::new(backing).map_err(|source| Error::Backing {
            path: backing.to_owned(),
            source,
        })?;
        let state = Arc::new(Mutex::new(state));
        let mut config = fuser::Config::default();
        config.mount_options = vec![
            fuser::MountOption::FSName("kairos-powerloss".into()),
            fuser::MountOption::Subtype("kairos-powerloss".into()),
            // The kernel checks modes, so an owner-only file stays owner-only on the mount.
            fuser::MountOption::DefaultPermissions,
        ];
        // Any user may use the mount: a test may run the program under test as another user.
        config.acl = fuser::SessionACL::All;
        let fuse = PowerLossFuse {
            state: state.clone(),
        };
        let session =
            fuser::spawn_mount(fuse, mountpoint, &config).map_err(|source| Error::Mount {
                path: mountpoint.to_owned(),
                source,
            })?;
        Ok(Handle {
            state,
            session: Some(session),
            mountpoint: mountpoint.to_owned(),
        })
    }
}

/// A mounted [`PowerLossFs`]. Dropping it syncs everything and unmounts.
#[derive(Debug)]
pub struct Handle {
    state: Arc<Mutex<State>>,
    session: Option<fuser::BackgroundSession>,
    mountpoint: PathBuf,
}

impl Handle {
    pub fn mountpoint(&self) -> &Path {
        &self.mountpoint
    }

    /// The power goes out. Kill the processes using the mount first (see the crate docs).
    pub fn power_loss(&self, loss: Loss) -> Result<LossReport, Error> {
        lock(&self.state).power_loss(loss).map_err(Error::PowerLoss)
    }

    /// Makes every write and namespace change durable, as a clean shutdown would.
    pub fn sync_all(&self) -> Result<(), Error> {
        lock(&self.state).sync_all().map_err(Error::Sync)
    }

    pub fn status(&self) -> Status {
        lock(&self.state).status()
    }

    /// Syncs everything and unmounts. When the mount is busy, it is detached lazily (the kernel
    /// finishes the unmount when the last user goes).
    pub fn unmount(mut self) -> Result<(), Error> {
        self.finish()
    }

    fn finish(&mut self) -> Result<(), Error> {
        let Some(session) = self.session.take() else {
            return Ok(());
        };
        let synced = self.sync_all();
        let unmounted = match session.umount_and_join() {
            Err(e) if e.raw_os_error() == Some(nix::libc::EBUSY) => {
                nix::mount::umount2(&self.mountpoint, nix::mount::MntFlags::MNT_DETACH)
                    .map_err(io::Error::from)
            }
            other => other,
        };
        synced?;
        unmounted.map_err(|source| Error::Unmount {
            path: self.mountpoint.clone(),
            source,
        })
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        if let Err(e) = self.finish() {
            eprintln!("kairos-powerloss: {e}");
        }
    }
}
