//! Module resolution as tracked queries, split so that adding or removing a file
//! re-resolves only the imports that could see it: the configuration (manifests alone),
//! the Python resolver (Python paths alone), and the file set one directory at a time.
//! A file's resolutions read the directories their candidate paths fall in, so a new file
//! re-runs the resolutions that probed its directory and no others.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::db::{Db, SourceFile, Workspace};
use crate::facts::Lang;
use crate::resolve::{FileSet, PythonResolver, Resolution, ResolverConfig};
use crate::walk::FileRole;

/// The workspace's configuration files, sorted by path: a firewall that stays equal (and
/// so is not propagated) when a source file comes or goes.
#[salsa::tracked(returns(clone))]
pub fn manifest_files(db: &dyn Db, ws: Workspace) -> Arc<Vec<SourceFile>> {
    Arc::new(
        ws.files(db)
            .iter()
            .filter(|f| f.role(db) == FileRole::Manifest)
            .copied()
            .collect(),
    )
}

/// The text of each configuration file by path, for the builders that read them.
fn manifest_texts(db: &dyn Db, ws: Workspace) -> HashMap<String, SourceFile> {
    manifest_files(db, ws)
        .iter()
        .map(|f| (f.path(db).clone(), *f))
        .collect()
}

/// What resolution reads of `package.json` and `tsconfig` files. Depends on the manifests
/// alone (high-durability inputs), so neither editing nor adding a source file changes it.
#[salsa::tracked(returns(clone))]
pub fn resolver_config(db: &dyn Db, ws: Workspace) -> Arc<ResolverConfig> {
    let manifests = manifest_texts(db, ws);
    let paths: Vec<&str> = manifests.keys().map(String::as_str).collect();
    let read = |p: &str| manifests.get(p).map(|f| f.text(db).to_string());
    Arc::new(ResolverConfig::new(&paths, &read))
}

/// The paths of the workspace's Python files, sorted: a firewall that stays equal when a
/// file of another language comes or goes.
#[salsa::tracked(returns(clone))]
pub fn python_paths(db: &dyn Db, ws: Workspace) -> Arc<Vec<String>> {
    Arc::new(
        ws.files(db)
            .iter()
            .filter(|f| f.role(db) == FileRole::Source(Lang::Python))
            .map(|f| f.path(db).clone())
            .collect(),
    )
}

/// The Python import resolver: import roots, top-level module names and the directories
/// holding Python files, from the Python files and their packaging configuration.
///
/// Hazard for Python: built from every Python path, so it re-runs when a Python file is
/// added or removed. It backdates unless that changed a directory, a root or a top-level
/// name (which files exist is asked of [`directory_files`]), so a Python file added to a
/// directory that already held one runs again only the [`python_import`]s that probed that
/// directory; one that changes the layout runs every one of them again (imports of other
/// languages never read it).
#[salsa::tracked(returns(clone))]
pub fn python_resolver(db: &dyn Db, ws: Workspace) -> Arc<PythonResolver> {
    let manifests = manifest_texts(db, ws);
    let python = python_paths(db, ws);
    let mut paths: Vec<&str> = python.iter().map(String::as_str).collect();
    paths.extend(manifests.keys().map(String::as_str));
    paths.sort_unstable();
    let read = |p: &str| manifests.get(p).map(|f| f.text(db).to_string());
    Arc::new(PythonResolver::new(&paths, &read))
}

/// How one Python import resolves, shared by every file of its directory that writes it.
/// A firewall between the listings it probed ([`directory_files`]) and the files'
/// resolutions: a file added to a directory many imports probe (a package's own) runs
/// these again, once per directory and specifier, and a resolution that comes out equal
/// re-resolves no file.
#[salsa::tracked(returns(clone))]
pub fn python_import<'db>(db: &'db dyn Db, import: PythonImport<'db>) -> Resolution {
    let ws = import.workspace(db);
    let files = TrackedFiles::new(db, ws);
    python_resolver(db, ws).resolve_in(&files, import.dir(db), import.specifier(db))
}

/// The files directly in one directory, as (name, file), sorted by name.
pub type DirectoryFiles = Arc<[(String, SourceFile)]>;

/// One part of the [`directory_table`]: the directories whose paths hash to it, with
/// their files.
pub type DirectoryPart = Arc<FxHashMap<String, DirectoryFiles>>;

/// How many parts the [`directory_table`] is split into: a new file changes one part, so
/// only the listings of that part's directories are compared again.
const DIRECTORY_PARTS: u32 = 64;

/// Every directory's files, in [`DIRECTORY_PARTS`] parts by a hash of the directory's path.
///
/// Workspace-wide hazard: reads the whole file list, so it re-executes whenever a file is
/// added or removed (a pass splitting every path); resolutions read it only through
/// [`directory_part`] and [`directory_files`], which backdate for every part and
/// directory whose files did not change.
#[salsa::tracked(returns(clone))]
pub fn directory_table(db: &dyn Db, ws: Workspace) -> Arc<Vec<DirectoryPart>> {
    let mut table: FxHashMap<&str, Vec<(String, SourceFile)>> = FxHashMap::default();
    for f in ws.files(db) {
        let path = f.path(db).as_str();
        let (dir, name) = split_dir(path);
        table.entry(dir).or_default().push((name.to_owned(), *f));
    }
    let mut parts: Vec<FxHashMap<String, DirectoryFiles>> =
        vec![FxHashMap::default(); DIRECTORY_PARTS as usize];
    for (dir, mut files) in table {
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let part = crate::db::term_chunk_of(dir, DIRECTORY_PARTS) as usize;
        parts[part].insert(dir.to_owned(), Arc::from(files));
    }
    Arc::new(parts.into_iter().map(Arc::new).collect())
}

pub use interned::{Directory, DirectoryChunk, PythonImport};

/// See `db::inputs`: salsa generates the constructor without docs.
#[allow(missing_docs)]
mod interned {
    /// A repo-relative directory path ("" for the root), as a key of [`super::directory_files`].
    #[salsa::interned(debug)]
    pub struct Directory<'db> {
        #[returns(ref)]
        pub path: String,
    }

    /// A Python import as written in a file of one directory (a resolution depends on
    /// the importing file's directory alone), as a key of [`super::python_import`].
    #[salsa::interned(debug)]
    pub struct PythonImport<'db> {
        #[returns(copy)]
        pub workspace: super::Workspace,
        #[returns(ref)]
        pub dir: String,
        #[returns(ref)]
        pub specifier: String,
    }

    /// The number of one part of the [`super::directory_table`], as a key of
    /// [`super::directory_part`].
    #[salsa::interned(debug)]
    pub struct DirectoryChunk<'db> {
        pub index: u32,
    }
}

/// One part of the [`directory_table`]: a firewall between the workspace's file list and
/// the [`directory_files`] of its directories, equal unless a file of one of them came or
/// went.
#[salsa::tracked(returns(clone))]
pub fn directory_part<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: DirectoryChunk<'db>,
) -> DirectoryPart {
    crate::db::nth_part(&directory_table(db, ws), *chunk.index(db))
}

/// The files directly in `dir`: a firewall between its [`directory_part`] and the
/// resolutions that probed this directory, equal unless a file of it came or went.
#[salsa::tracked(returns(clone))]
pub fn directory_files<'db>(db: &'db dyn Db, ws: Workspace, dir: Directory<'db>) -> DirectoryFiles {
    let path = dir.path(db).as_str();
    let chunk = DirectoryChunk::new(db, crate::db::term_chunk_of(path, DIRECTORY_PARTS));
    directory_part(db, ws, chunk)
        .get(path)
        .cloned()
        .unwrap_or_else(|| Arc::from(Vec::new()))
}

/// `path` split at its last `/` into (directory, name); the root's directory is "".
fn split_dir(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

/// The file set as resolution sees it from inside a query: each lookup reads its
/// directory's [`directory_files`], remembered for the rest of the query.
pub(crate) struct TrackedFiles<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    seen: RefCell<FxHashMap<String, DirectoryFiles>>,
}

impl<'a> TrackedFiles<'a> {
    pub(crate) fn new(db: &'a dyn Db, ws: Workspace) -> TrackedFiles<'a> {
        TrackedFiles {
            db,
            ws,
            seen: RefCell::default(),
        }
    }

    /// The indexed file at `path`, if there is one.
    pub(crate) fn get(&self, path: &str) -> Option<SourceFile> {
        let (dir, name) = split_dir(path);
        let listing = {
            let mut seen = self.seen.borrow_mut();
            match seen.get(dir) {
                Some(listing) => listing.clone(),
                None => {
                    let key = Directory::new(self.db, dir);
                    let listing = directory_files(self.db, self.ws, key);
                    seen.insert(dir.to_owned(), listing.clone());
                    listing
                }
            }
        };
        let i = listing
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()?;
        Some(listing[i].1)
    }
}

impl FileSet for TrackedFiles<'_> {
    fn contains(&self, path: &str) -> bool {
        self.get(path).is_some()
    }
}
