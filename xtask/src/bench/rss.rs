//! Peak resident set size of the current process. Each phase runs in its own child
//! process, so the high-water mark the kernel keeps is exactly that phase's peak.

/// `VmHWM` from `/proc/self/status`, in bytes; `None` off Linux.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

fn parse_vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_the_high_water_mark() {
        let status = "Name:\txtask\nVmPeak:\t  900 kB\nVmHWM:\t   2048 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(super::parse_vm_hwm(status), Some(2048 * 1024));
        assert_eq!(super::parse_vm_hwm("Name:\tx\n"), None);
    }
}
