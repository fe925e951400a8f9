//! File systems whose changes a local watcher cannot see: on a network or user-space
//! file system another machine (or the remote side) changes files without a local event,
//! so watching would silently miss changes. There the index keeps re-statting the tree.

use std::path::Path;

/// The kind of file system `path` is on, when it is one a watcher cannot be trusted on.
#[cfg(target_os = "linux")]
pub(crate) fn unwatchable(path: &Path) -> Option<&'static str> {
    use std::os::unix::ffi::OsStrExt as _;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `statfs` fills the plain-data struct it is given for a NUL-terminated path.
    let mut info: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(c_path.as_ptr(), &mut info) } != 0 {
        return None;
    }
    // The magic numbers of `statfs(2)`; the type's width differs by architecture.
    #[allow(clippy::unnecessary_cast)]
    match info.f_type as i64 {
        0x6969 => Some("NFS"),
        0x517B | 0xFF53_4D42 | 0xFE53_4D42 => Some("SMB/CIFS"),
        0x6573_5546 => Some("FUSE"),
        0x0102_1997 => Some("9P"),
        0x5346_414F => Some("AFS"),
        0x00C3_6400 => Some("Ceph"),
        0x0BD0_0BD0 => Some("Lustre"),
        _ => None,
    }
}

/// Elsewhere the platform's watcher is trusted.
#[cfg(not(target_os = "linux"))]
pub(crate) fn unwatchable(_path: &Path) -> Option<&'static str> {
    None
}
