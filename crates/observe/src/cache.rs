//! The persistent per-file cache: `FileIndex` values keyed by a hash of the file's text, so a
//! fresh process on an unchanged tree starts warm. A cache that cannot be read, is corrupt or
//! was written by another engine version is ignored and rewritten, never trusted.

use std::collections::HashMap;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::db::FileIndex;

/// Bumped whenever `FileIndex` or the extraction behind it changes meaning.
pub const FACTS_SCHEMA: u32 = 2;
const MAGIC: &[u8; 8] = b"SLFACTS\0";

pub type ContentHash = [u8; 32];

pub fn content_hash(text: &str) -> ContentHash {
    *blake3::hash(text.as_bytes()).as_bytes()
}

/// The engine version a cache must match: crate version and schema.
fn engine_version() -> String {
    format!("{}+{}", env!("CARGO_PKG_VERSION"), FACTS_SCHEMA)
}

#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cache file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cache file {path} is not a facts cache or is corrupt: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error("cache file {path} was written by engine {found}, this is {expected}")]
    VersionMismatch {
        path: PathBuf,
        found: String,
        expected: String,
    },
}

/// Where the cache for `root` lives inside `cache_dir`: one file per indexed root.
pub fn cache_file(cache_dir: &Path, root: &Path) -> PathBuf {
    let key = blake3::hash(root.to_string_lossy().as_bytes()).to_hex();
    cache_dir.join(format!("facts-{}.bin", &key[..16]))
}

/// The default cache directory: the user's cache dir, never inside the indexed tree.
pub fn default_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("sightline"))
}

#[derive(Default)]
pub struct FactsCache {
    pub entries: HashMap<ContentHash, Arc<FileIndex>>,
}

impl FactsCache {
    /// Reads a cache file. A missing file is an empty cache, not an error.
    pub fn load(path: &Path) -> Result<FactsCache, CacheError> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(FactsCache::default()),
            Err(source) => {
                return Err(CacheError::Io {
                    path: path.into(),
                    source,
                });
            }
        };
        let mut reader = BufReader::new(file);
        let corrupt = |reason: String| CacheError::Corrupt {
            path: path.into(),
            reason,
        };
        let mut magic = [0u8; 8];
        reader
            .read_exact(&mut magic)
            .map_err(|e| corrupt(e.to_string()))?;
        if &magic != MAGIC {
            return Err(corrupt("bad magic".into()));
        }
        let cfg = bincode::config::standard().with_limit::<{ 1 << 30 }>();
        let version: String = bincode::serde::decode_from_std_read(&mut reader, cfg)
            .map_err(|e| corrupt(e.to_string()))?;
        if version != engine_version() {
            return Err(CacheError::VersionMismatch {
                path: path.into(),
                found: version,
                expected: engine_version(),
            });
        }
        let entries: Vec<(ContentHash, FileIndex)> =
            bincode::serde::decode_from_std_read(&mut reader, cfg)
                .map_err(|e| corrupt(e.to_string()))?;
        Ok(FactsCache {
            entries: entries.into_iter().map(|(h, f)| (h, Arc::new(f))).collect(),
        })
    }

    /// Writes the cache atomically (temp file + rename), so a crash never leaves half a file.
    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        let io = |source| CacheError::Io {
            path: path.into(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let file = std::fs::File::create(&tmp).map_err(io)?;
        let mut w = BufWriter::new(file);
        w.write_all(MAGIC).map_err(io)?;
        let cfg = bincode::config::standard();
        let corrupt = |e: bincode::error::EncodeError| CacheError::Corrupt {
            path: path.into(),
            reason: e.to_string(),
        };
        bincode::serde::encode_into_std_write(engine_version(), &mut w, cfg).map_err(corrupt)?;
        let mut entries: Vec<(&ContentHash, &FileIndex)> =
            self.entries.iter().map(|(h, f)| (h, f.as_ref())).collect();
        entries.sort_by_key(|(h, _)| **h);
        bincode::serde::encode_into_std_write(&entries, &mut w, cfg).map_err(corrupt)?;
        w.flush().map_err(io)?;
        drop(w);
        std::fs::rename(&tmp, path).map_err(io)
    }
}
