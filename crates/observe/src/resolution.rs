//! Module resolution as tracked queries, the same for every language, split so that
//! adding or removing a file re-resolves only the imports that could see it: each
//! language's configuration (its manifests and, if it asks, its source paths:
//! [`language_config`]), one resolution per language, import scope and specifier
//! ([`import_resolution`]), and the file set one directory at a time
//! ([`directory_files`]). A resolution reads the directories its candidate paths fall in,
//! so a new file re-runs the resolutions that probed its directory and no others.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use sightline_lang::{ConfigInput, Language, LanguageConfig, ResolveCx};

use crate::db::{Db, SourceFile, Workspace};
use crate::resolve::{FileSet, Resolution};
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

/// The registered language at position `language`, with the key its queries take.
pub struct ConfiguredLanguage<'db> {
    /// The language.
    pub language: &'static dyn Language,
    /// Its interned key.
    pub key: LanguageKey<'db>,
}

impl<'db> ConfiguredLanguage<'db> {
    /// The language at position `language` of the database's languages, if any.
    pub fn new(db: &'db dyn Db, language: u8) -> Option<ConfiguredLanguage<'db>> {
        let found = db.languages().get(language)?;
        Some(ConfiguredLanguage {
            language: found,
            key: LanguageKey::new(db, language),
        })
    }
}

/// The paths of one language's source files, sorted: a firewall that stays equal when a
/// file of another language (or a manifest) comes or goes. Read only by a configuration
/// that reads sources ([`sightline_lang::Language::configure_reads_sources`]).
#[salsa::tracked(returns(clone))]
pub fn language_sources<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    language: LanguageKey<'db>,
) -> Arc<Vec<String>> {
    let index = language.index(db);
    Arc::new(
        ws.files(db)
            .iter()
            .filter(|f| matches!(f.role(db), FileRole::Source(id) if id.language == index))
            .map(|f| f.path(db).clone())
            .collect(),
    )
}

/// One language's configuration, compared by value: equal configurations backdate, so a
/// manifest edit that changes nothing resolution reads re-resolves nothing.
#[derive(Clone, Debug)]
pub struct LanguageConfigHandle(pub Arc<dyn LanguageConfig>);

impl PartialEq for LanguageConfigHandle {
    fn eq(&self, other: &LanguageConfigHandle) -> bool {
        *self.0 == *other.0
    }
}

impl Eq for LanguageConfigHandle {}

/// One language's configuration ([`sightline_lang::Language::configure`]): built from
/// its manifests alone (high-durability inputs), so neither editing nor adding a source
/// file changes it, unless the language reads its source paths too
/// ([`language_sources`]; it is then built again when one of its files comes or goes, and
/// backdates unless what it read of them changed).
#[salsa::tracked(returns(clone))]
pub fn language_config<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    language: LanguageKey<'db>,
) -> LanguageConfigHandle {
    let Some(lang) = db.languages().get(language.index(db)) else {
        return LanguageConfigHandle(Arc::new(sightline_lang::NoConfig));
    };
    let manifests = manifest_texts(db, ws);
    let mut own: Vec<&str> = manifests
        .keys()
        .map(String::as_str)
        .filter(|p| lang.is_manifest(sightline_lang::path::file_name(p)))
        .collect();
    own.sort_unstable();
    let read = |p: &str| manifests.get(p).map(|f| f.text(db).to_string());
    let sources = match lang.configure_reads_sources() {
        true => language_sources(db, ws, language),
        false => Arc::default(),
    };
    let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
    let input = ConfigInput {
        manifests: &own,
        sources: &sources,
        read: &read,
    };
    LanguageConfigHandle(Arc::from(lang.configure(&input)))
}

/// How one import resolves, shared by every file of its import scope that writes it
/// ([`sightline_lang::Language::import_scope`]: the importing directory by default). A
/// firewall between what the resolution read (its language's [`language_config`], the
/// listings it probed through [`directory_files`]) and the files' resolutions: a file
/// added to a directory many imports probe runs these again, once per scope and
/// specifier, and a resolution that comes out equal re-resolves no file.
#[salsa::tracked(returns(clone))]
pub fn import_resolution<'db>(db: &'db dyn Db, import: ImportKey<'db>) -> Resolution {
    let ws = import.workspace(db);
    let index = import.language(db);
    let Some(lang) = db.languages().get(index) else {
        return Resolution::Unresolved;
    };
    let config = language_config(db, ws, LanguageKey::new(db, index));
    let files = TrackedFiles::new(db, ws);
    let cx = ResolveCx::new(&*config.0, &files);
    lang.resolve(&cx, import.scope(db), import.specifier(db))
}

/// The files of each package of one language ([`sightline_lang::Language::package_scope`]),
/// by package key, in path order; empty for a language without packages.
///
/// Hazard for the language: reads the whole file list, so it re-runs whenever a file is
/// added or removed; each package reads its own files through [`package_files`], which
/// backdates unless a file of that package came or went.
#[salsa::tracked(returns(clone))]
pub fn package_table<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    language: LanguageKey<'db>,
) -> Arc<FxHashMap<String, Arc<[SourceFile]>>> {
    let index = language.index(db);
    let Some(lang) = db.languages().get(index) else {
        return Arc::default();
    };
    let mut table: FxHashMap<String, Vec<SourceFile>> = FxHashMap::default();
    for f in ws.files(db) {
        if !matches!(f.role(db), FileRole::Source(id) if id.language == index) {
            continue;
        }
        if let Some(key) = lang.package_scope(f.path(db)) {
            table.entry(key).or_default().push(*f);
        }
    }
    Arc::new(table.into_iter().map(|(k, v)| (k, Arc::from(v))).collect())
}

/// The files of one package, in path order: a firewall between the language's
/// [`package_table`] and the edges of the package's files, equal unless a file of this
/// package came or went.
#[salsa::tracked(returns(clone))]
pub fn package_files<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    package: PackageKey<'db>,
) -> Arc<[SourceFile]> {
    let language = LanguageKey::new(db, package.language(db));
    package_table(db, ws, language)
        .get(package.key(db).as_str())
        .cloned()
        .unwrap_or_else(|| Arc::from(Vec::new()))
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

pub use interned::{Directory, DirectoryChunk, ImportKey, LanguageKey, PackageKey};

/// See `db::inputs`: salsa generates the constructor without docs.
#[allow(missing_docs)]
mod interned {
    /// A repo-relative directory path ("" for the root), as a key of [`super::directory_files`].
    #[salsa::interned(debug)]
    pub struct Directory<'db> {
        #[returns(ref)]
        pub path: String,
    }

    /// An import as written in a file of one import scope of one language (a resolution
    /// depends on the scope alone), as a key of [`super::import_resolution`].
    #[salsa::interned(debug)]
    pub struct ImportKey<'db> {
        #[returns(copy)]
        pub workspace: super::Workspace,
        /// The language's position in the database's languages.
        #[returns(copy)]
        pub language: u8,
        #[returns(ref)]
        pub scope: String,
        #[returns(ref)]
        pub specifier: String,
    }

    /// A package of one language (its position and its package key), as a key of
    /// [`super::package_files`].
    #[salsa::interned(debug)]
    pub struct PackageKey<'db> {
        #[returns(copy)]
        pub language: u8,
        #[returns(ref)]
        pub key: String,
    }

    /// A language's position in the database's languages, as a key of its queries.
    #[salsa::interned(debug)]
    pub struct LanguageKey<'db> {
        #[returns(copy)]
        pub index: u8,
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

    /// The files directly in `dir`, read through its [`directory_files`] once per query.
    fn listing(&self, dir: &str) -> DirectoryFiles {
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
    }

    /// The indexed file at `path`, if there is one.
    pub(crate) fn get(&self, path: &str) -> Option<SourceFile> {
        let (dir, name) = split_dir(path);
        let listing = self.listing(dir);
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

    fn list(&self, dir: &str) -> Vec<String> {
        self.listing(dir)
            .iter()
            .map(|(name, _)| name.clone())
            .collect()
    }
}
