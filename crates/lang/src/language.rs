//! The [`Language`] trait: everything the pipeline knows about one source language, and
//! [`Languages`], the registration list a pipeline reads.

use crate::config::{ConfigInput, LanguageConfig, NoConfig};
use crate::facts::FileFacts;
use crate::resolve::{Resolution, ResolveCx};

/// A grammar variant of one language, chosen by file name (TypeScript and TSX, say).
/// Languages with one grammar use 0.
pub type Dialect = u8;

/// A source file's language: its position in the [`Languages`] it was registered in, and
/// the dialect that language chose for the file's name. Not a closed list of names: a
/// language added to the registration list gets the next position.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct LangId {
    /// Position in the registration list.
    pub language: u8,
    /// The language's dialect for the file.
    pub dialect: Dialect,
}

/// One source language. A language crate implements this once; the pipeline asks it
/// which files are its sources and manifests, extracts their facts, configures and
/// resolves their imports, and asks how its files see each other and what their paths
/// mean. Every method but the identity, the file choice, extraction and resolution has a
/// default that suits a language without that feature.
///
/// Every method must be total: no panic on any input (file text, manifest text,
/// specifier), since every input comes from the repository. Everything a language returns
/// is a pure function of its arguments: the pipeline memoizes it.
pub trait Language: Send + Sync + 'static {
    // ---- identity ----

    /// A short lowercase name, stable across versions: the key of the language's cached
    /// facts, and what reports print.
    fn name(&self) -> &'static str;

    /// The version of the facts this language's extractor produces (its grammars and its
    /// extraction rules); part of the cached facts' key, so bump it whenever either
    /// changes what a file yields.
    fn facts_version(&self) -> u32;

    // ---- files ----

    /// The dialect of a source file of this language, by its file name (not its path);
    /// `None` when the file is not one of this language's sources.
    fn dialect(&self, file_name: &str) -> Option<Dialect>;

    /// Whether a file name (not a path) is configuration that [`Language::configure`]
    /// reads (package manifests, compiler settings).
    fn is_manifest(&self, _file_name: &str) -> bool {
        false
    }

    /// The name a manifest of this language (a file [`Language::is_manifest`] accepts)
    /// gives its project or package: `package.json`'s `name`, `go.mod`'s module path. What
    /// a directory's outline says the directory is; `None` when the file names none or is
    /// not this language's.
    fn project_name(&self, _file_name: &str, _text: &str) -> Option<String> {
        None
    }

    // ---- facts ----

    /// The facts of one file of `dialect`. Never panics: text the grammar cannot parse
    /// yields facts with `parse_errors` counted (and at least `line_count`).
    fn extract(&self, dialect: Dialect, text: &str) -> FileFacts;

    /// The tree-sitter grammar [`Language::extract`] parses `dialect` with, for tools
    /// that time or inspect the parse apart from extraction; `None` for a language that
    /// does not parse with tree-sitter.
    fn grammar(&self, _dialect: Dialect) -> Option<tree_sitter::Language> {
        None
    }

    // ---- configuration ----

    /// Whether [`Language::configure`] reads the paths of this language's sources as well
    /// as its manifests. A configuration that does is built again whenever one of this
    /// language's files is added or removed (it should come out equal unless the layout it
    /// reads changed), so say yes only when the manifests alone cannot say it.
    fn configure_reads_sources(&self) -> bool {
        false
    }

    /// This language's configuration: what resolution reads of its manifests (and, when
    /// [`Language::configure_reads_sources`], of its source paths). Problems become the
    /// configuration's diagnostics, never failures.
    fn configure(&self, _input: &ConfigInput<'_>) -> Box<dyn LanguageConfig> {
        Box::new(NoConfig)
    }

    // ---- resolution ----

    /// What besides its specifier the resolution of an import written in `importer` (a
    /// repo-relative path) depends on: the importing file's directory by default, so the
    /// files of one directory share each resolution. A language whose resolution depends
    /// on the file itself (a module declared relative to its file) returns the path.
    fn import_scope<'p>(&self, importer: &'p str) -> &'p str {
        crate::path::parent(importer)
    }

    /// Resolves `specifier` as written in a file of import scope `scope` (see
    /// [`Language::import_scope`]): a file, a package (a set of files), something outside
    /// the repository, or nothing. Reads this language's configuration and the file set
    /// through `cx`; never leaves the repository root.
    fn resolve(&self, cx: &ResolveCx<'_>, scope: &str, specifier: &str) -> Resolution;

    // ---- binding and visibility ----

    /// Whether a call receiver names the instance or type of the enclosing declaration
    /// (`this`, `self`): its member is then looked up in that declaration.
    fn is_self_receiver(&self, _receiver: &str) -> bool {
        false
    }

    /// Whether a call receiver's text is a literal of the language (`"".join`,
    /// `[1, 2].map`): a literal's methods are the language's own, so such a call is never
    /// guessed by its name onto a declaration of the repository. Had it been, a method
    /// name the repository declares once would be a certain callee of every function that
    /// joins a string.
    fn is_literal_receiver(&self, _receiver: &str) -> bool {
        false
    }

    /// Whether a bare name inside a type's body reaches the type's members (an implicit
    /// receiver, as in Java). Where it does not (`self.save()`, `this.save()`), a member
    /// is reached only through its owner, and a bare name the same as a member's is
    /// something else: a local variable, a parameter, a module-level declaration.
    fn bare_names_reach_members(&self) -> bool {
        false
    }

    /// Whether a member named `member` of a type runs when the type is instantiated (its
    /// constructor), so that a call chain goes on through it after an instantiation. A
    /// language whose constructors are ordinary functions called by name (`new`) has none.
    fn is_constructor(&self, _member: &str) -> bool {
        false
    }

    /// The name an import uses for a module's default export, when the language has one:
    /// importing it binds the module's first declaration marked `default_export`.
    fn default_export_name(&self) -> Option<&'static str> {
        None
    }

    /// The package a file belongs to, as a key (its directory, for a language whose
    /// packages are directories): files of this language with the same key see each
    /// other's top-level declarations without importing them (every one, exported or not),
    /// and a declaration `attached_to` a type finds it among them. `None` (the default)
    /// when files see only what they import. A pure function of the path, so the pipeline
    /// groups files by it without reading any configuration.
    fn package_scope(&self, _path: &str) -> Option<String> {
        None
    }

    // ---- path conventions ----

    /// Whether a file of this language is a test by the language's own conventions (a
    /// name suffix or prefix, a file its test runner reserves). Directory conventions that
    /// hold across ecosystems (`tests/`, `__tests__/`) are applied to every file already.
    fn is_test_file(&self, _path: &str) -> bool {
        false
    }

    /// Whether a file of this language only declares what is implemented elsewhere (type
    /// declarations, stubs).
    fn is_declaration_only(&self, _path: &str) -> bool {
        false
    }

    /// Whether a file with this stem (its name before the first `.`) is named by its
    /// directory: the module a directory is imported as. Its path's words then take the
    /// directory's name as the file's.
    fn is_directory_module_stem(&self, _stem: &str) -> bool {
        false
    }

    /// Whether a source file's text says it was generated (a header in its first lines);
    /// such files are skipped and counted. The default is the common header check
    /// ([`crate::conventions::has_generated_header`]).
    fn is_generated(&self, text: &str) -> bool {
        crate::conventions::has_generated_header(text)
    }

    /// Whether a directory name holds installed third-party code or caches that are never
    /// indexed, wherever it appears.
    fn is_dependency_dir(&self, _dir_name: &str) -> bool {
        false
    }

    /// Whether this language's own tools skip a directory of this name wherever it appears
    /// (data and fixtures its toolchain never builds, even when they hold its sources):
    /// pruned from the walk and counted apart from installed code.
    fn is_ignored_dir(&self, _dir_name: &str) -> bool {
        false
    }

    /// File names whose presence marks a directory as installed code whatever its name (an
    /// environment's marker file). Looked for only near the top of the tree.
    fn dependency_dir_markers(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether a directory name is where this language's build tools write output, pruned
    /// only when the directory beside it holds one of [`Language::packaging_manifests`].
    fn is_build_output_dir(&self, _dir_name: &str) -> bool {
        false
    }

    /// File names that mark a directory as a package's root for its build tools (only then
    /// is an output-named directory beside them output rather than source).
    fn packaging_manifests(&self) -> &'static [&'static str] {
        &[]
    }
}

/// The longest project name [`Languages::project_name`] returns.
pub const MAX_PROJECT_NAME_CHARS: usize = 100;

/// The languages a pipeline reads, in registration order: a file belongs to the first
/// whose [`Language::dialect`] accepts its name, and a [`LangId`] is a position here.
#[derive(Clone, Copy)]
pub struct Languages(&'static [&'static dyn Language]);

impl Languages {
    /// The list `languages`, which must hold at most 256 languages (positions are bytes).
    pub const fn new(languages: &'static [&'static dyn Language]) -> Languages {
        assert!(
            languages.len() <= 256,
            "a LangId holds a position below 256"
        );
        Languages(languages)
    }

    /// Every registered language, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'static dyn Language> + use<> {
        self.0.iter().copied()
    }

    /// How many languages are registered.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The language at a position; `None` past the list (an id from another list).
    pub fn get(&self, language: u8) -> Option<&'static dyn Language> {
        self.0.get(usize::from(language)).copied()
    }

    /// The language of a [`LangId`].
    pub fn of(&self, id: LangId) -> Option<&'static dyn Language> {
        self.get(id.language)
    }

    /// The language and dialect of a repo-relative path, by its file name.
    pub fn of_path(&self, path: &str) -> Option<LangId> {
        let name = crate::path::file_name(path);
        self.0.iter().enumerate().find_map(|(i, l)| {
            l.dialect(name).map(|dialect| LangId {
                language: i as u8,
                dialect,
            })
        })
    }

    /// The language whose [`Language::name`] is `name`.
    pub fn by_name(&self, name: &str) -> Option<(u8, &'static dyn Language)> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, l)| l.name() == name)
            .map(|(i, l)| (i as u8, *l))
    }

    /// The project name the first language reading `file_name` as its manifest finds in
    /// `text` ([`Language::project_name`]).
    pub fn project_name(&self, file_name: &str, text: &str) -> Option<String> {
        self.iter()
            .filter(|l| l.is_manifest(file_name))
            .find_map(|l| l.project_name(file_name, text))
            .map(|name| name.trim().to_owned())
            // A name is a word or a path, never a paragraph: a longer one is not a name.
            .filter(|name| !name.is_empty() && name.chars().count() <= MAX_PROJECT_NAME_CHARS)
    }

    /// Whether any language reads a file name as configuration.
    pub fn is_manifest(&self, file_name: &str) -> bool {
        self.0.iter().any(|l| l.is_manifest(file_name))
    }

    /// Whether any language treats a directory name as installed code or caches.
    pub fn is_dependency_dir(&self, dir_name: &str) -> bool {
        self.0.iter().any(|l| l.is_dependency_dir(dir_name))
    }

    /// Whether any language's tools skip a directory of this name wherever it appears.
    pub fn is_ignored_dir(&self, dir_name: &str) -> bool {
        self.0.iter().any(|l| l.is_ignored_dir(dir_name))
    }

    /// Whether any language marks installed-code directories with this file name.
    pub fn is_dependency_dir_marker(&self, file_name: &str) -> bool {
        self.0
            .iter()
            .any(|l| l.dependency_dir_markers().contains(&file_name))
    }

    /// Whether `dir` holds a marker file of installed code of any language.
    pub fn has_dependency_dir_marker(&self, dir: &std::path::Path) -> bool {
        self.0.iter().any(|l| {
            l.dependency_dir_markers()
                .iter()
                .any(|name| dir.join(name).is_file())
        })
    }

    /// Whether `dir_name`, inside `parent`, is build output of a language whose packaging
    /// manifest `parent` holds.
    pub fn is_build_output(&self, parent: &std::path::Path, dir_name: &str) -> bool {
        self.0.iter().any(|l| {
            l.is_build_output_dir(dir_name)
                && l.packaging_manifests()
                    .iter()
                    .any(|name| parent.join(name).is_file())
        })
    }

    /// Whether any language with build-output directories reads this file name as
    /// packaging configuration.
    pub fn is_packaging_manifest(&self, file_name: &str) -> bool {
        self.0
            .iter()
            .any(|l| l.packaging_manifests().contains(&file_name))
    }
}

impl PartialEq for Languages {
    /// The same registration list (by address): two lists with the same languages in the
    /// same order built apart compare unequal, which only costs a recomputation.
    fn eq(&self, other: &Languages) -> bool {
        std::ptr::addr_eq(self.0, other.0)
    }
}

impl Eq for Languages {}

impl std::fmt::Debug for Languages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|l| l.name()))
            .finish()
    }
}
