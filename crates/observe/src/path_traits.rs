//! What a file's path says about it: the conventions that hold across ecosystems
//! ([`PathTraits::of`], in the base crate) and those of the file's own language (its test
//! and declaration-only files, the module file a directory is named by), asked of the
//! registered languages.

use sightline_lang::Languages;

use crate::terms::term_words;

pub use sightline_base::PathTraits;

/// The traits of a repo-relative path: the cross-ecosystem conventions, then those of the
/// language whose source the file is (tests, declaration-only files) and of any language
/// (a directory of installed code makes a file vendored).
pub fn path_traits(languages: Languages, path: &str) -> PathTraits {
    let mut traits = PathTraits::of(path);
    if let Some(language) = languages.of_path(path).and_then(|id| languages.of(id)) {
        traits.test |= language.is_test_file(path);
        traits.declaration_only |= language.is_declaration_only(path);
    }
    let dirs = path.rsplit_once('/').map_or("", |(dirs, _)| dirs);
    traits.vendored |= dirs
        .split('/')
        .any(|segment| languages.is_dependency_dir(segment));
    traits
}

/// The normalised words ([`term_words`]) of a path's segments, the file's stem weighted
/// apart from its directories. A file whose language names it by its directory (its
/// stem is the language's directory module, like an `index` file) takes its directory's
/// name as its stem, since that is the name it is imported by.
pub(crate) fn path_words(languages: Languages, path: &str) -> (Vec<String>, Vec<String>) {
    let segments: Vec<&str> = path.split('/').collect();
    let Some((file, dirs)) = segments.split_last() else {
        return (Vec::new(), Vec::new());
    };
    let stem = file.split('.').next().unwrap_or(file);
    let named_by_dir = !dirs.is_empty()
        && languages
            .of_path(path)
            .and_then(|id| languages.of(id))
            .is_some_and(|l| l.is_directory_module_stem(stem));
    let (stem, dirs) = if named_by_dir {
        (dirs[dirs.len() - 1], &dirs[..dirs.len() - 1])
    } else {
        (stem, dirs)
    };
    let stem_words = term_words(stem);
    let dir_words = dirs.iter().flat_map(|d| term_words(d)).collect();
    (stem_words, dir_words)
}

/// The traits of a file's path, once per file: a path never changes, and the search
/// needs them for every file it scores on every query.
#[salsa::tracked]
pub fn file_traits(db: &dyn crate::db::Db, file: crate::db::SourceFile) -> PathTraits {
    path_traits(db.languages(), file.path(db))
}

/// Every file's [`file_traits`] by its position in the workspace's file list, `None` for a
/// file no language reads as source (a manifest). The search reads the traits of every
/// file it scores, thousands per query on a large workspace: one table read per query
/// costs less than a memo lookup per file.
///
/// Workspace-wide hazard: re-runs when a file is added or removed (positions shift then),
/// reading each file's traits from its memo. Paths and roles never change, so nothing
/// else re-runs it.
#[salsa::tracked(returns(clone))]
pub fn source_traits(
    db: &dyn crate::db::Db,
    ws: crate::db::Workspace,
) -> std::sync::Arc<[Option<PathTraits>]> {
    ws.files(db)
        .iter()
        .map(|&f| match f.role(db) {
            crate::walk::FileRole::Source(_) => Some(*file_traits(db, f)),
            crate::walk::FileRole::Manifest => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LANGUAGES;

    #[test]
    fn a_directory_module_takes_its_directory_name() {
        let (stem, dirs) = path_words(LANGUAGES, "src/middleware/trailing-slash/index.ts");
        assert_eq!(stem, ["trail", "slash"]);
        assert_eq!(dirs, ["src", "middlewar"]);
        // Only a file of a language that names modules so.
        let (stem, _) = path_words(LANGUAGES, "src/pages/index.md");
        assert_eq!(stem, ["index"]);
    }

    #[test]
    fn language_conventions_join_the_cross_ecosystem_ones() {
        assert!(path_traits(LANGUAGES, "types/index.d.ts").declaration_only);
        assert!(path_traits(LANGUAGES, "pkg/core.pyi").declaration_only);
        assert!(!path_traits(LANGUAGES, "pkg/core.py").declaration_only);
        assert!(path_traits(LANGUAGES, "pkg/test_core.py").test);
        assert!(path_traits(LANGUAGES, "src/a_test.ts").test);
        assert!(!path_traits(LANGUAGES, "src/a_test.md").test);
        assert!(path_traits(LANGUAGES, "node_modules/x/i.js").vendored);
        assert!(path_traits(LANGUAGES, "src/a.test.ts").test);
    }
}
