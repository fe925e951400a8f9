//! The persistent per-file cache: `FileIndex` values keyed by what they were computed from
//! (the file's language, dialect and facts version, and a hash of its text: [`facts_key`]),
//! so a fresh process on an unchanged tree starts warm. A cache that cannot be read, is corrupt
//! (its blake3 checksum does not match), is not a regular file, or was written by another
//! engine version is ignored and rewritten, never trusted.
//!
//! Layout: magic, engine version (bincode string), blake3 of the payload (32 bytes), payload
//! (bincode entries). Writes go to an unpredictable temp file created exclusively in the
//! same directory, then renamed over the cache; a failed rename removes the temp file.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sightline_lang::Languages;

use crate::db::FileIndex;
use crate::walk::FileRole;

/// Bumped whenever `FileIndex` (the shared facts, the term counts) changes shape or
/// meaning; a language's own extraction changes are its `facts_version`.
pub(crate) const FACTS_SCHEMA: u32 = 8;
const MAGIC: &[u8; 8] = b"SLFACTS\0";

/// The cache key of one file's [`FileIndex`]: blake3 over what the value is computed from,
/// so a renamed or touched file stays warm and nothing else shares its entry.
pub(crate) type FactsKey = [u8; 32];

/// The [`FactsKey`] of a file of `role` holding `text`: the language's name, the dialect
/// and the language's facts version (the same bytes in two languages, or two dialects,
/// are two entries), then the text.
pub(crate) fn facts_key(languages: Languages, role: FileRole, text: &str) -> FactsKey {
    let mut hasher = blake3::Hasher::new();
    match role {
        FileRole::Source(id) => {
            let (name, version) = languages
                .of(id)
                .map_or(("", 0), |l| (l.name(), l.facts_version()));
            hasher.update(b"source\0");
            hasher.update(name.as_bytes());
            hasher.update(&[0, id.dialect]);
            hasher.update(&version.to_le_bytes());
        }
        FileRole::Manifest => {
            hasher.update(b"manifest\0");
        }
    }
    hasher.update(&[0]);
    hasher.update(text.as_bytes());
    *hasher.finalize().as_bytes()
}

/// The engine version a cache must match: crate version and schema.
fn engine_version() -> String {
    format!("{}+{}", env!("CARGO_PKG_VERSION"), FACTS_SCHEMA)
}

/// Why a cache file was not used or not written. Callers treat every variant as a cold
/// start, never as a failure of indexing.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// Reading or writing the file failed (including a non-regular file at the path).
    #[error("cache file {path}: {source}")]
    Io {
        /// The cache file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// Bad magic, truncation, a checksum mismatch or undecodable entries.
    #[error("cache file {path} is not a facts cache or is corrupt: {reason}")]
    Corrupt {
        /// The cache file.
        path: PathBuf,
        /// What check failed.
        reason: String,
    },
    /// Written by another crate version or the facts schema.
    #[error("cache file {path} was written by engine {found}, this is {expected}")]
    VersionMismatch {
        /// The cache file.
        path: PathBuf,
        /// The engine version recorded in the file.
        found: String,
        /// This build's engine version.
        expected: String,
    },
}

/// Where the cache for `root` lives inside `cache_dir`: one file per indexed root.
pub fn cache_file(cache_dir: &Path, root: &Path) -> PathBuf {
    let key = blake3::hash(root.to_string_lossy().as_bytes()).to_hex();
    cache_dir.join(format!("facts-{}.bin", &key[..16]))
}

/// The default cache directory: the user's cache dir, never inside the indexed tree.
pub(crate) fn default_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("sightline"))
}

/// Per-file index values by content hash, loaded from and saved to one cache file.
#[derive(Default)]
pub(crate) struct FactsCache {
    /// The cached values, keyed by what they were computed from ([`facts_key`]).
    pub entries: HashMap<FactsKey, Arc<FileIndex>>,
}

/// Opens the cache file for reading without blocking and without following a symlink:
/// a FIFO or device planted at the path must not hang the process.
fn open_regular(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(Some(file))
}

impl FactsCache {
    /// Reads a cache file. A missing file is an empty cache, not an error.
    pub fn load(path: &Path) -> Result<FactsCache, CacheError> {
        let io = |source| CacheError::Io {
            path: path.into(),
            source,
        };
        let Some(mut file) = open_regular(path).map_err(io)? else {
            return Ok(FactsCache::default());
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let corrupt = |reason: String| CacheError::Corrupt {
            path: path.into(),
            reason,
        };
        let rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| corrupt("bad magic".into()))?;
        let cfg = bincode::config::standard().with_limit::<{ 1 << 30 }>();
        let (version, used): (String, usize) =
            bincode::serde::decode_from_slice(rest, cfg).map_err(|e| corrupt(e.to_string()))?;
        if version != engine_version() {
            return Err(CacheError::VersionMismatch {
                path: path.into(),
                found: version,
                expected: engine_version(),
            });
        }
        let rest = &rest[used..];
        if rest.len() < 32 {
            return Err(corrupt("truncated before its checksum".into()));
        }
        let (sum, payload) = rest.split_at(32);
        if blake3::hash(payload).as_bytes().as_slice() != sum {
            return Err(corrupt("checksum mismatch".into()));
        }
        let (entries, _): (Vec<(FactsKey, FileIndex)>, usize) =
            bincode::serde::decode_from_slice(payload, cfg).map_err(|e| corrupt(e.to_string()))?;
        Ok(FactsCache {
            entries: entries.into_iter().map(|(h, f)| (h, Arc::new(f))).collect(),
        })
    }

    /// Writes the cache atomically (exclusive temp file + rename), so a crash never leaves
    /// half a file and a link planted in the directory is never followed.
    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        let io = |source| CacheError::Io {
            path: path.into(),
            source,
        };
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(io)?;
        let cfg = bincode::config::standard();
        let corrupt = |e: bincode::error::EncodeError| CacheError::Corrupt {
            path: path.into(),
            reason: e.to_string(),
        };
        let mut entries: Vec<(&FactsKey, &FileIndex)> =
            self.entries.iter().map(|(h, f)| (h, f.as_ref())).collect();
        entries.sort_by_key(|(h, _)| **h);
        let payload = bincode::serde::encode_to_vec(&entries, cfg).map_err(corrupt)?;
        let version = bincode::serde::encode_to_vec(engine_version(), cfg).map_err(corrupt)?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
        tmp.write_all(MAGIC).map_err(io)?;
        tmp.write_all(&version).map_err(io)?;
        tmp.write_all(blake3::hash(&payload).as_bytes())
            .map_err(io)?;
        tmp.write_all(&payload).map_err(io)?;
        tmp.flush().map_err(io)?;
        // On failure the temp file comes back inside the error and is removed when dropped.
        tmp.persist(path).map_err(|e| io(e.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_entry() -> FactsCache {
        let mut cache = FactsCache::default();
        let role = FileRole::of(crate::LANGUAGES, "a.ts").unwrap();
        let text = "export function f() {}";
        cache.entries.insert(
            facts_key(crate::LANGUAGES, role, text),
            Arc::new(FileIndex::build(crate::LANGUAGES, role, text)),
        );
        cache
    }

    #[test]
    fn the_key_tells_languages_dialects_and_roles_apart() {
        let langs = crate::LANGUAGES;
        let role = |p: &str| FileRole::of(langs, p).unwrap();
        let text = "x = 1\n";
        let keys = [
            facts_key(langs, role("a.py"), text),
            facts_key(langs, role("a.js"), text),
            facts_key(langs, role("a.ts"), text),
            facts_key(langs, FileRole::Manifest, text),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(keys[0], facts_key(langs, role("b/c.py"), text), "path-free");
        assert_ne!(keys[0], facts_key(langs, role("a.py"), "x = 2\n"));
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_flipped_payload_byte_is_detected_even_when_it_still_decodes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.bin");
        one_entry().save(&path).unwrap();
        assert_eq!(FactsCache::load(&path).unwrap().entries.len(), 1);
        let mut bytes = std::fs::read(&path).unwrap();
        // The last byte is inside the payload (a line count or term count).
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = FactsCache::load(&path).err().unwrap();
        assert!(err.to_string().contains("checksum mismatch"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_cache_path_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.bin");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a file system node.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = FactsCache::load(&path).err().unwrap();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_at_the_cache_path_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let path = dir.path().join("facts.bin");
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        assert!(FactsCache::load(&path).is_err());
        // Saving replaces the link itself; the file it pointed to is untouched.
        one_entry().save(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(!std::fs::symlink_metadata(&path).unwrap().is_symlink());
    }

    #[test]
    fn saving_leaves_no_temp_file_behind_even_when_the_rename_fails() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.bin");
        one_entry().save(&path).unwrap();
        assert_eq!(files_in(dir.path()), ["facts.bin"]);
        // A non-empty directory at the target makes the rename fail.
        let blocked = dir.path().join("blocked.bin");
        std::fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(one_entry().save(&blocked).is_err());
        assert_eq!(files_in(dir.path()), ["blocked.bin", "facts.bin"]);
    }
}
