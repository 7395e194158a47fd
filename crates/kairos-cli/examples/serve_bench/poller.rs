//! The database poller (read-only; WAL readers never block the server's writer).

use super::*;

#[derive(Clone, Copy)]
pub(crate) struct DbSample {
    pub(crate) at_us: i64,
    /// Enabled jobs whose occurrence is not yet promoted to an attempt.
    pub(crate) pending: i64,
    /// Attempt rows (promoted, not yet recorded).
    pub(crate) attempts: i64,
    /// History records (max id: records are only appended here).
    pub(crate) history: i64,
}

pub(crate) struct DbPoller {
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) latest: Arc<Mutex<i64>>,
    pub(crate) thread: std::thread::JoinHandle<Vec<DbSample>>,
}

impl DbPoller {
    pub(crate) fn start(database: &Path) -> DbPoller {
        let stop = Arc::new(AtomicBool::new(false));
        let latest = Arc::new(Mutex::new(0));
        let (s, l, path) = (stop.clone(), latest.clone(), database.to_path_buf());
        let thread = std::thread::spawn(move || {
            let db = open_read_only(&path);
            let mut samples = Vec::new();
            while !s.load(Ordering::Relaxed) {
                let sample = db
                    .query_row(
                        "SELECT (SELECT count(*) FROM jobs WHERE next_run IS NOT NULL AND state = 'Enabled'),
                                (SELECT count(*) FROM attempts),
                                (SELECT coalesce(max(id), 0) FROM history)",
                        [],
                        |r| {
                            Ok(DbSample {
                                at_us: chrono::Utc::now().timestamp_micros(),
                                pending: r.get(0)?,
                                attempts: r.get(1)?,
                                history: r.get(2)?,
                            })
                        },
                    )
                    .expect("poll the database");
                *l.lock().unwrap_or_else(|e| e.into_inner()) = sample.history;
                samples.push(sample);
                std::thread::sleep(Duration::from_millis(10));
            }
            samples
        });
        DbPoller {
            stop,
            latest,
            thread,
        }
    }

    pub(crate) fn latest_history(&self) -> i64 {
        *self.latest.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn stop(self) -> Vec<DbSample> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the poller")
    }
}

pub(crate) fn open_read_only(path: &Path) -> rusqlite::Connection {
    let db =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open the database read-only");
    db.busy_timeout(Duration::from_secs(5))
        .expect("busy timeout");
    db
}
