//! Traits of a file derived from its path alone, from conventions that hold across
//! ecosystems (test directories and suffixes, vendored and build-output directories,
//! documentation and example trees, configuration files).

use crate::terms::term_words;

pub use sightline_base::PathTraits;

/// The normalised words ([`term_words`]) of a path's segments, the file's stem weighted apart from its
/// directories. A file named `index` takes its directory's name as its stem, since that is
/// the name it is imported by.
pub(crate) fn path_words(path: &str) -> (Vec<String>, Vec<String>) {
    let segments: Vec<&str> = path.split('/').collect();
    let Some((file, dirs)) = segments.split_last() else {
        return (Vec::new(), Vec::new());
    };
    let stem = file.split('.').next().unwrap_or(file);
    let (stem, dirs) = if stem == "index" && !dirs.is_empty() {
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
    PathTraits::of(file.path(db))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_files_take_their_directory_name() {
        let (stem, dirs) = path_words("src/middleware/trailing-slash/index.ts");
        assert_eq!(stem, ["trail", "slash"]);
        assert_eq!(dirs, ["src", "middlewar"]);
    }
}
