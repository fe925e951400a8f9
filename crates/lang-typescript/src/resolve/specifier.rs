//! Classifying an import specifier by how it must be resolved.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specifier<'s> {
    /// `./x`, `../x`, `.`, `..`: relative to the importing file.
    Relative(&'s str),
    /// `#x`: the nearest `package.json`'s `imports` map.
    PackageImport(&'s str),
    /// `name`, `@scope/name/sub`: tsconfig `paths`, `baseUrl`, then packages.
    Bare(&'s str),
    /// `node:fs`, `https://…`: never a file of the repository.
    Scheme,
    /// Absolute paths and empty strings: nothing in a repo-relative index can match.
    Invalid,
}

/// Classifies `raw`, dropping a bundler query (`./icon.svg?raw`) first.
pub fn classify(raw: &str) -> Specifier<'_> {
    let spec = raw.split_once('?').map_or(raw, |(s, _)| s);
    if spec.is_empty() || spec.starts_with('/') || spec.starts_with('\\') {
        return Specifier::Invalid;
    }
    if spec == "." || spec == ".." || spec.starts_with("./") || spec.starts_with("../") {
        return Specifier::Relative(spec);
    }
    if spec.starts_with('#') {
        return Specifier::PackageImport(spec);
    }
    // A scheme is letters before `:` with no `/` earlier (`node:fs`, `https://x`); a
    // Windows drive (`C:`) is absolute and cannot be in the index either way.
    if let Some((scheme, _)) = spec.split_once(':')
        && !scheme.contains('/')
    {
        return Specifier::Scheme;
    }
    Specifier::Bare(spec)
}

/// Splits a bare specifier into its package name and the subpath after it
/// (`@scope/name/a/b` → (`@scope/name`, `a/b`)). `None` for a lone `@scope`.
pub fn split_package(spec: &str) -> Option<(&str, &str)> {
    let name_segments = if spec.starts_with('@') { 2 } else { 1 };
    let mut end = 0;
    for _ in 0..name_segments {
        let rest = &spec[end..];
        if rest.is_empty() {
            return None;
        }
        end += rest.find('/').unwrap_or(rest.len());
        if end < spec.len() {
            end += 1;
        }
    }
    let (name, sub) = spec.split_at(end);
    let name = name.trim_end_matches('/');
    if name.is_empty() || (spec.starts_with('@') && !name.contains('/')) {
        return None;
    }
    Some((name, sub))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_each_kind() {
        assert_eq!(classify("./a"), Specifier::Relative("./a"));
        assert_eq!(classify(".."), Specifier::Relative(".."));
        assert_eq!(
            classify("./icon.svg?raw"),
            Specifier::Relative("./icon.svg")
        );
        assert_eq!(classify("#lib/a"), Specifier::PackageImport("#lib/a"));
        assert_eq!(classify("react"), Specifier::Bare("react"));
        assert_eq!(classify(".hidden"), Specifier::Bare(".hidden"));
        assert_eq!(classify("node:fs"), Specifier::Scheme);
        assert_eq!(classify("https://x/y"), Specifier::Scheme);
        assert_eq!(classify("/abs"), Specifier::Invalid);
        assert_eq!(classify(""), Specifier::Invalid);
        assert_eq!(classify("?x"), Specifier::Invalid);
    }

    #[test]
    fn splits_package_names() {
        assert_eq!(split_package("lodash"), Some(("lodash", "")));
        assert_eq!(split_package("lodash/fp/map"), Some(("lodash", "fp/map")));
        assert_eq!(split_package("@s/x"), Some(("@s/x", "")));
        assert_eq!(split_package("@s/x/a/b"), Some(("@s/x", "a/b")));
        assert_eq!(split_package("@s"), None);
        assert_eq!(split_package("@s/"), None);
        assert_eq!(split_package("@"), None);
        assert_eq!(split_package("a/"), Some(("a", "")));
    }
}
