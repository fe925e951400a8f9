//! What the kernel knows about the current process: peak RSS and CPU time. Each phase runs
//! in its own child process, so the kernel's high-water mark is exactly that phase's peak,
//! and CPU time next to wall time shows how well a phase used the cores (and, on a busy
//! machine, how much of the wall time was waiting for them).

/// `VmHWM` from `/proc/self/status`, in bytes; `None` off Linux.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

/// `VmRSS` from `/proc/self/status` (resident now, not the peak), in bytes.
pub fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_status_kb(&status, "VmRSS:")
}

/// `VmHWM` and `VmRSS` (peak and current resident memory) of process `pid`, in bytes.
pub fn rss_of(pid: u32) -> (Option<u64>, Option<u64>) {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return (None, None);
    };
    (
        parse_status_kb(&status, "VmHWM:"),
        parse_status_kb(&status, "VmRSS:"),
    )
}

/// CPU time of every thread of process `pid` so far, in ns, from the scheduler's own
/// accounting (`/proc/<pid>/task/*/schedstat`): nanosecond resolution, so a call of a few
/// ms is measured, and time spent waiting for a core on a loaded machine is not counted.
pub fn cpu_ns_of(pid: u32) -> Option<u64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = 0;
    for task in tasks.flatten() {
        // A thread that ended since the listing counts no more.
        if let Ok(stat) = std::fs::read_to_string(task.path().join("schedstat")) {
            total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
        }
    }
    Some(total)
}

/// User plus system CPU time of all threads so far, in ms (10 ms resolution on the
/// usual 100 Hz clock); `None` off Linux.
pub fn cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    parse_cpu_ticks(&stat).map(|ticks| ticks as f64 * 1000.0 / CLOCK_TICKS_PER_S)
}

/// The 1-minute load average, to tell a quiet machine's numbers from a busy one's.
pub fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// `USER_HZ`: 100 on every mainstream Linux architecture, and fixed by the ABI.
const CLOCK_TICKS_PER_S: f64 = 100.0;

fn parse_vm_hwm(status: &str) -> Option<u64> {
    parse_status_kb(status, "VmHWM:")
}

fn parse_status_kb(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// utime + stime: fields 14 and 15 of `/proc/self/stat`, counted after the `)` that ends
/// the command name (which may itself contain spaces).
fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_the_high_water_mark() {
        let status = "Name:\txtask\nVmPeak:\t  900 kB\nVmHWM:\t   2048 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(super::parse_vm_hwm(status), Some(2048 * 1024));
        assert_eq!(super::parse_vm_hwm("Name:\tx\n"), None);
    }

    #[test]
    fn parses_cpu_ticks_past_a_name_with_spaces() {
        let stat = "42 (x task) R 1 42 42 0 -1 4194560 100 0 0 0 37 5 0 0 20 0 3 0";
        assert_eq!(super::parse_cpu_ticks(stat), Some(42));
    }
}
