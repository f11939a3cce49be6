//! What a process costs, read from Linux's `/proc`: CPU time, resident memory and the bytes it
//! caused to be written to storage. Elsewhere the figures are simply absent.

use std::fs;

/// Clock ticks per second of `/proc/<pid>/stat`'s times: 100 on every Linux this runs on
/// (`getconf CLK_TCK`); the crate avoids a libc call for one constant.
const TICKS_PER_SECOND: f64 = 100.0;

/// One reading of a process.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reading {
    /// User plus system CPU seconds since the process started.
    pub cpu_seconds: f64,
    /// Resident set size, in KiB.
    pub rss_kib: u64,
    /// Bytes the process caused to be sent to the storage layer (`write_bytes`): the WAL,
    /// checkpoints and the main file together.
    pub write_bytes: u64,
}

/// Reads `pid` now; `None` when `/proc` does not have it (another OS, or it has exited).
pub fn read(pid: u32) -> Option<Reading> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; the fields after its `)` are fixed.
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the `)`.
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    let cpu_seconds = (ticks(11)? + ticks(12)?) / TICKS_PER_SECOND;
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())?;
    let io = fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
    let write_bytes = io
        .lines()
        .find_map(|l| l.strip_prefix("write_bytes:"))
        .and_then(|v| v.trim().parse().ok())?;
    Some(Reading {
        cpu_seconds,
        rss_kib,
        write_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_reads_as_a_process_that_has_run() {
        let Some(r) = read(std::process::id()) else {
            eprintln!("no /proc here: nothing to check");
            return;
        };
        assert!(r.rss_kib > 0, "{r:?}");
        assert!(r.cpu_seconds >= 0.0, "{r:?}");
        assert_eq!(read(u32::MAX), None, "no such process");
    }
}
