//! Repository-root safety: turn a caller-supplied path into a location that is provably
//! inside the repository.
//!
//! Every tool takes paths from a model or a user, so the rules are deliberately strict and
//! simple to reason about: no absolute paths, no `..` at all (even ones that would stay
//! inside), no NUL bytes, and the fully symlink-resolved location must lie under the
//! canonical root. Only existing paths resolve, which lets the final check run on the
//! canonical path rather than on a lexical guess.

use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Why a repository root or a repository-relative path was refused.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// The root does not exist or cannot be canonicalized.
    #[error("repository root `{root}` cannot be opened: {source}")]
    RootUnavailable {
        /// The root as given.
        root: String,
        /// Why canonicalizing failed.
        #[source]
        source: io::Error,
    },
    /// The root exists but is a file or other non-directory.
    #[error("repository root `{root}` is not a directory")]
    RootNotADirectory {
        /// The root as given.
        root: String,
    },
    /// The path contains `\0`.
    #[error("path `{input}` contains a NUL byte")]
    NulByte {
        /// The path as given.
        input: String,
    },
    /// A Unix or Windows absolute path, UNC share or drive-letter path.
    #[error("path `{input}` is absolute; give a path relative to the repository root")]
    Absolute {
        /// The path as given.
        input: String,
    },
    /// The path has a `..` segment anywhere, even one that would stay inside the root.
    #[error(
        "path `{input}` contains a `..` component; parent components are never accepted, \
         give the path from the repository root"
    )]
    ParentComponent {
        /// The path as given.
        input: String,
    },
    /// A segment that is not one plain file name on this platform (e.g. `C:x`).
    #[error("path `{input}` contains the segment `{segment}`, which is not a plain file name")]
    InvalidSegment {
        /// The path as given.
        input: String,
        /// The offending segment.
        segment: String,
    },
    /// Nothing exists at the path (only existing paths resolve).
    #[error("path `{input}` does not exist in the repository")]
    NotFound {
        /// The path as given.
        input: String,
    },
    /// Resolving the path hit a symbolic link cycle.
    #[error("path `{input}` is a symbolic link loop")]
    SymlinkLoop {
        /// The path as given.
        input: String,
    },
    /// The path exists but a symbolic link takes it outside the canonical root.
    #[error("path `{input}` resolves outside the repository root through a symbolic link")]
    OutsideRoot {
        /// The path as given.
        input: String,
    },
    /// The resolved path lies inside `.git` or another VCS directory (`dir`).
    #[error(
        "path `{input}` is inside version-control metadata (`{dir}`), which the tools never \
         read: it can hold credentials and is not source"
    )]
    VcsInternal {
        /// The path as given.
        input: String,
        /// The version-control directory it is inside (`.git`, `.hg`, …).
        dir: String,
    },
    /// Any other operating-system error while canonicalizing (e.g. permission denied).
    #[error("path `{input}` cannot be resolved: {source}")]
    Unresolvable {
        /// The path as given.
        input: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
}

/// A canonical repository root directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoRoot {
    canonical: PathBuf,
    /// The languages whose directory rules the tools' walks follow.
    languages: sightline_lang::Languages,
}

/// A path that resolved to an existing location inside a [`RepoRoot`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoPath {
    /// Repository-relative, `/`-separated, symlinks resolved; empty for the root itself.
    rel: String,
    /// Canonical absolute path; always starts with the root's canonical path.
    abs: PathBuf,
}

impl RepoRoot {
    /// Canonicalizes `path` and checks that it is a directory.
    pub fn new(path: impl AsRef<Path>) -> Result<RepoRoot, PathError> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let canonical = path
            .canonicalize()
            .map_err(|source| PathError::RootUnavailable {
                root: shown.clone(),
                source,
            })?;
        if !canonical.is_dir() {
            return Err(PathError::RootNotADirectory { root: shown });
        }
        Ok(RepoRoot {
            canonical,
            languages: crate::LANGUAGES,
        })
    }

    /// This root, whose tools' walks prune what `languages` prune (the index's languages;
    /// [`crate::LANGUAGES`] by default).
    pub fn with_languages(mut self, languages: sightline_lang::Languages) -> RepoRoot {
        self.languages = languages;
        self
    }

    /// The languages whose directory rules the tools' walks follow.
    pub fn languages(&self) -> sightline_lang::Languages {
        self.languages
    }

    /// The canonical absolute path of the root.
    pub fn canonical(&self) -> &Path {
        &self.canonical
    }

    /// Resolves a repository-relative path (`/` or `\` separators, optional leading `./`,
    /// empty or `.` for the root) to an existing location inside the root.
    pub fn resolve(&self, user_path: &str) -> Result<RepoPath, PathError> {
        let segments = split_relative(user_path)?;
        let mut joined = self.canonical.clone();
        joined.extend(&segments);

        let abs = match joined.canonicalize() {
            Ok(abs) => abs,
            Err(source) => return Err(classify_resolve_error(user_path, source)),
        };
        // The decisive check: whatever symlinks were crossed, the final location must be
        // under the canonical root.
        let rel = to_rel(self, &abs).ok_or_else(|| PathError::OutsideRoot {
            input: user_path.to_string(),
        })?;
        // Checked on the resolved path, so a symlink into `.git` is refused too.
        if let Some(dir) = rel.split('/').find(|s| crate::walk::VCS_DIRS.contains(s)) {
            return Err(PathError::VcsInternal {
                input: user_path.to_string(),
                dir: dir.to_string(),
            });
        }
        Ok(RepoPath { rel, abs })
    }
}

impl RepoPath {
    /// Repository-relative path with `/` separators; empty for the root.
    pub fn rel(&self) -> &str {
        &self.rel
    }

    /// Canonical absolute path.
    pub fn abs(&self) -> &Path {
        &self.abs
    }

    /// Whether this is the repository root itself.
    pub fn is_root(&self) -> bool {
        self.rel.is_empty()
    }
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rel.is_empty() {
            f.write_str(".")
        } else {
            f.write_str(&self.rel)
        }
    }
}

/// Repository-relative `/`-separated form of `abs`, or `None` when `abs` is not under the
/// root or has a component that is not valid UTF-8. The root itself maps to `""`.
pub fn to_rel(root: &RepoRoot, abs: &Path) -> Option<String> {
    let rest = abs.strip_prefix(&root.canonical).ok()?;
    let mut parts = Vec::new();
    for component in rest.components() {
        match component {
            Component::Normal(name) => parts.push(name.to_str()?),
            Component::CurDir => {}
            // `strip_prefix` works lexically, so a `..` here could still point outside.
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// Validates the textual form and returns the plain name segments.
fn split_relative(input: &str) -> Result<Vec<&str>, PathError> {
    let owned = || input.to_string();
    if input.contains('\0') {
        return Err(PathError::NulByte { input: owned() });
    }
    if looks_absolute(input) {
        return Err(PathError::Absolute { input: owned() });
    }
    let mut segments = Vec::new();
    for segment in input.split(['/', '\\']) {
        match segment {
            "" | "." => continue,
            ".." => return Err(PathError::ParentComponent { input: owned() }),
            _ => {}
        }
        // A segment must be exactly one plain name on this platform (e.g. `C:x` is a
        // drive prefix on Windows and would replace the root when joined).
        let mut components = Path::new(segment).components();
        let plain =
            matches!(components.next(), Some(Component::Normal(_))) && components.next().is_none();
        if !plain {
            return Err(PathError::InvalidSegment {
                input: owned(),
                segment: segment.to_string(),
            });
        }
        segments.push(segment);
    }
    Ok(segments)
}

/// Unix roots, Windows roots, UNC shares and drive letters, whatever the host platform.
fn looks_absolute(input: &str) -> bool {
    let bytes = input.as_bytes();
    let rooted = matches!(bytes.first(), Some(b'/' | b'\\'));
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    rooted || drive || Path::new(input).is_absolute()
}

fn classify_resolve_error(input: &str, source: io::Error) -> PathError {
    let input = input.to_string();
    if source.kind() == io::ErrorKind::NotFound {
        return PathError::NotFound { input };
    }
    // `io::ErrorKind::FilesystemLoop` is not stable yet, so compare its name; the OS
    // reports ELOOP for cycles instead of hanging.
    if format!("{:?}", source.kind()) == "FilesystemLoop" {
        return PathError::SymlinkLoop { input };
    }
    PathError::Unresolvable { input, source }
}
