//! Key matching shared by tsconfig `paths`, package.json `exports` subpaths and
//! package.json `imports`: an exact key wins; otherwise the `*` pattern with the longest
//! prefix wins (TypeScript's `matchPatternOrExact`, Node's `PATTERN_KEY_COMPARE`).

/// An ordered list of `key → targets` rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternMap {
    rules: Vec<(String, Vec<String>)>,
}

impl PatternMap {
    pub fn new(rules: Vec<(String, Vec<String>)>) -> Self {
        Self { rules }
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The targets of the best rule for `specifier`, with `*` replaced by the text the
    /// key's `*` matched. A key ending in `/` (legacy Node folder mapping) behaves like
    /// `key*`, and so does its target.
    pub fn lookup(&self, specifier: &str) -> Option<Vec<String>> {
        if let Some((_, targets)) = self.rules.iter().find(|(k, _)| k == specifier) {
            return Some(targets.clone());
        }
        let mut best: Option<(usize, &str, &[String])> = None;
        for (key, targets) in &self.rules {
            let Some(captured) = capture(key, specifier) else {
                continue;
            };
            let prefix_len = key.find('*').unwrap_or(key.len());
            // Strictly longer prefix wins, so the first of equally good rules is kept.
            if best.is_none_or(|(len, _, _)| prefix_len > len) {
                best = Some((prefix_len, captured, targets));
            }
        }
        let (_, captured, targets) = best?;
        Some(targets.iter().map(|t| substitute(t, captured)).collect())
    }

    /// Whether an exact key, or a pattern with a non-empty prefix, matches `specifier`
    /// with a target outside `node_modules`. A catch-all such as `*` or `*.css`, or a
    /// redirect into installed packages, says nothing about whether the specifier
    /// belongs to the repository.
    pub fn matches_with_prefix(&self, specifier: &str) -> bool {
        self.rules.iter().any(|(key, targets)| {
            let matched =
                key == specifier || (capture(key, specifier).is_some() && !key.starts_with('*'));
            matched && targets.iter().any(|t| !t.contains("node_modules"))
        })
    }
}

/// What `key`'s wildcard matches in `specifier`, if `key` is a pattern that matches.
fn capture<'s>(key: &str, specifier: &'s str) -> Option<&'s str> {
    let (prefix, suffix) = match key.split_once('*') {
        Some((p, s)) => (p, s),
        None if key.ends_with('/') => (key, ""),
        None => return None,
    };
    if specifier.len() < prefix.len() + suffix.len() {
        return None;
    }
    let rest = specifier.strip_prefix(prefix)?;
    rest.strip_suffix(suffix)
}

fn substitute(target: &str, captured: &str) -> String {
    if target.contains('*') {
        target.replace('*', captured)
    } else if target.ends_with('/') {
        format!("{target}{captured}")
    } else {
        target.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::PatternMap;

    fn map(rules: &[(&str, &[&str])]) -> PatternMap {
        PatternMap::new(
            rules
                .iter()
                .map(|(k, ts)| (k.to_string(), ts.iter().map(|t| t.to_string()).collect()))
                .collect(),
        )
    }

    #[test]
    fn exact_key_beats_patterns() {
        let m = map(&[("@x/*", &["a/*"]), ("@x/core", &["core/index"])]);
        assert_eq!(m.lookup("@x/core"), Some(vec!["core/index".to_string()]));
        assert_eq!(m.lookup("@x/util"), Some(vec!["a/util".to_string()]));
    }

    #[test]
    fn longest_prefix_wins_regardless_of_order() {
        let m = map(&[
            ("*", &["any/*"]),
            ("@x/*", &["x/*"]),
            ("@x/deep/*", &["deep/*"]),
        ]);
        assert_eq!(m.lookup("@x/deep/y"), Some(vec!["deep/y".to_string()]));
        assert_eq!(m.lookup("@x/y"), Some(vec!["x/y".to_string()]));
        assert_eq!(m.lookup("other"), Some(vec!["any/other".to_string()]));
    }

    #[test]
    fn suffix_must_match_too() {
        let m = map(&[("./*.js", &["./src/*.ts"])]);
        assert_eq!(m.lookup("./a/b.js"), Some(vec!["./src/a/b.ts".to_string()]));
        assert_eq!(m.lookup("./a/b.css"), None);
    }

    #[test]
    fn folder_keys_map_the_rest() {
        let m = map(&[("./lib/", &["./src/"])]);
        assert_eq!(m.lookup("./lib/a"), Some(vec!["./src/a".to_string()]));
    }

    #[test]
    fn only_prefixed_in_repo_rules_claim_a_specifier() {
        let m = map(&[
            ("*", &["types/*"]),
            ("@x/*", &["src/*"]),
            ("r", &["node_modules/r"]),
        ]);
        assert!(m.matches_with_prefix("@x/a"));
        assert!(!m.matches_with_prefix("react"));
        assert!(!m.matches_with_prefix("r"));
    }

    #[test]
    fn overlapping_prefix_and_suffix_do_not_match() {
        // "ab*ba" must not match "aba": the prefix and suffix would share the middle "b".
        let m = map(&[("ab*ba", &["x"])]);
        assert_eq!(m.lookup("aba"), None);
    }
}
