//! /proc: CPU time, context switches and memory of the server process.

use super::*;

/// utime + stime of the whole process, in seconds.
pub(crate) fn proc_cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may contain blanks): state is field 3.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (ticks(11) + ticks(12)) as f64 / clock_ticks()
}

pub(crate) fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// CPU counters of a process at one instant.
pub(crate) struct CpuSnapshot {
    pub(crate) at: Instant,
    /// utime + stime, seconds (clock ticks: 10 ms resolution; includes threads that exited).
    pub(crate) cpu: f64,
    /// Per thread: nanoseconds on CPU (`/proc/PID/task/TID/schedstat`, exact) and context switches.
    pub(crate) threads: HashMap<String, (u64, u64)>,
}

impl CpuSnapshot {
    pub(crate) fn take(pid: u32) -> CpuSnapshot {
        let mut threads = HashMap::new();
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for task in tasks.flatten() {
                let run_ns = std::fs::read_to_string(task.path().join("schedstat"))
                    .ok()
                    .and_then(|s| s.split_whitespace().next()?.parse().ok())
                    .unwrap_or(0);
                let status = task.path().join("status");
                let status = status.to_string_lossy();
                let switches = status_field(&status, "voluntary_ctxt_switches")
                    + status_field(&status, "nonvoluntary_ctxt_switches");
                threads.insert(
                    task.file_name().to_string_lossy().into_owned(),
                    (run_ns, switches),
                );
            }
        }
        CpuSnapshot {
            at: Instant::now(),
            cpu: proc_cpu_seconds(pid),
            threads,
        }
    }

    /// (seconds elapsed, CPU seconds, ns on CPU, context switches) since `before`, over the
    /// threads alive now (a thread that exited in between is missing from the last two).
    pub(crate) fn since(&self, before: &CpuSnapshot) -> (f64, f64, u64, u64) {
        let (mut run_ns, mut switches) = (0, 0);
        for (tid, (ns, sw)) in &self.threads {
            let (ns0, sw0) = before.threads.get(tid).copied().unwrap_or((0, 0));
            run_ns += ns.saturating_sub(ns0);
            switches += sw.saturating_sub(sw0);
        }
        (
            (self.at - before.at).as_secs_f64(),
            self.cpu - before.cpu,
            run_ns,
            switches,
        )
    }
}

/// A `/proc/PID/status` field's number (kB for the Vm* fields).
pub(crate) fn proc_status_kb(pid: u32, field: &str) -> u64 {
    status_field(&format!("/proc/{pid}/status"), field)
}

pub(crate) fn status_field(path: &str, field: &str) -> u64 {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            (name == field).then(|| value.split_whitespace().next()?.parse().ok())?
        })
        .unwrap_or(0)
}
