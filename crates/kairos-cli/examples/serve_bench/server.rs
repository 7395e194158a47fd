//! The server process: a real `kairos serve` in a scratch directory.

use super::*;

pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) stopped: bool,
    pub(crate) _stdout: BufReader<ChildStdout>,
    pub(crate) base: String,
    pub(crate) pid: u32,
    pub(crate) data: PathBuf,
    pub(crate) spawned: Instant,
    pub(crate) ready_line: Duration,
}

impl Server {
    /// `kairos serve` on a free loopback port, with `DIR/data` as data directory, `--sqlite-sync
    /// SYNC`, and its log (default filter, `info`) in `DIR/server.log`.
    pub(crate) fn start(kairos: &Path, dir: &Path, sync: &str) -> Server {
        let data = dir.join("data");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("server.log"))
            .expect("the server log");
        let spawned = Instant::now();
        let mut child = Command::new(kairos)
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(&data)
            .args(["--sqlite-sync", sync])
            .env("KAIROS_API_TOKEN", TOKEN)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("kairos serve starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the first line");
        let ready_line = spawned.elapsed();
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}; see {}", dir.display()))
            .to_string();
        let pid = child.id();
        Server {
            child,
            stopped: false,
            _stdout: stdout,
            base,
            pid,
            data,
            spawned,
            ready_line,
        }
    }

    pub(crate) fn database(&self) -> PathBuf {
        self.data.join("kairos.db")
    }

    /// SIGTERM, then wait for the exit (SIGKILL after 20 s).
    pub(crate) fn stop(mut self) {
        self.terminate();
    }

    pub(crate) fn terminate(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    if !status.success() {
                        println!("warning: kairos serve exited with {status}");
                    }
                    return;
                }
                _ if Instant::now() > deadline => {
                    println!("warning: kairos serve did not stop in 20 s; killing it");
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return;
                }
                _ => std::thread::sleep(Duration::from_millis(10)),
            }
        }
    }
}

/// A temporary directory for one server, removed at the end unless `keep`.
pub(crate) struct Scratch {
    pub(crate) _dir: Option<tempfile::TempDir>,
    pub(crate) path: PathBuf,
}

impl Scratch {
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// A panicking benchmark leaves no server behind.
impl Drop for Server {
    fn drop(&mut self) {
        if !self.stopped {
            self.stopped = true;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub(crate) fn scratch(keep: bool) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix("serve-bench-")
        .tempdir()
        .expect("a temporary directory");
    let path = dir.path().to_path_buf();
    if keep {
        println!("data: {}", path.display());
        std::mem::forget(dir);
        Scratch { _dir: None, path }
    } else {
        Scratch {
            _dir: Some(dir),
            path,
        }
    }
}
