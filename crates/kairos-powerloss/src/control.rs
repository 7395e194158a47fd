//! The line protocol of the control socket (documented in the crate docs).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;

use crate::{Error, Handle, Loss};

/// What one command line gets: the answer line (without its newline), and whether the
/// program should now unmount and exit.
pub fn answer(handle: &Handle, line: &str) -> (String, bool) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let loss = match words.as_slice() {
        ["power-loss"] => Loss::Clean,
        ["power-loss", "tear", seed] => match seed.parse() {
            Ok(seed) => Loss::Tear { seed },
            Err(_) => return (format!("error seed {seed:?} is not a number"), false),
        },
        ["sync-all"] => return (result(handle.sync_all().map(|()| "ok".into())), false),
        ["status"] => {
            let s = handle.status();
            let line = format!(
                "ok dirty_files={} dirty_pages={} pending={}",
                s.dirty_files, s.dirty_pages, s.pending_namespace_changes
            );
            return (line, false);
        }
        // The caller unmounts (which syncs) after answering.
        ["unmount"] => return ("ok".into(), true),
        _ => return (format!("error unknown command {line:?}"), false),
    };
    let report = handle.power_loss(loss).map(|r| {
        format!(
            "ok files={} pages_dropped={} pages_kept={} undone={} undo_errors={}",
            r.files,
            r.pages_dropped,
            r.pages_kept,
            r.namespace_changes_undone,
            r.undo_errors.len()
        )
    });
    (result(report), false)
}

fn result(answer: Result<String, Error>) -> String {
    answer.unwrap_or_else(|e| format!("error {}", e.to_string().replace('\n', " ")))
}

/// Answers connections one at a time until an `unmount` command; the caller then unmounts.
pub fn serve(listener: &UnixListener, handle: &Handle) -> Result<(), Error> {
    for stream in listener.incoming() {
        let stream = stream.map_err(Error::Control)?;
        let mut writer = stream.try_clone().map_err(Error::Control)?;
        for line in BufReader::new(stream).lines() {
            // A client that goes away mid-line only ends its own connection.
            let Ok(line) = line else { break };
            let (reply, stop) = answer(handle, &line);
            let written = writeln!(writer, "{reply}");
            // An `unmount` counts even when its sender did not wait for the answer.
            if stop {
                return Ok(());
            }
            if written.is_err() {
                break;
            }
        }
    }
    Ok(())
}
