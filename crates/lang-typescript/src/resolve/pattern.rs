//! Key matching shared by tsconfig `paths`, package.json `exports` subpaths and
//! package.json `imports`: an exact key wins; otherwise the `*` pattern with the longest
//! prefix wins (TypeScript's `matchPatternOrExact`, Node's `PATTERN_KEY_COMPARE`).

use std::collections::HashMap;

/// An ordered list of `key → targets` rules, indexed so a lookup costs one hash probe per
/// prefix length of the specifier instead of a scan of every rule (a tsconfig with 25k
/// `paths` keys and 15k imports must not be 375M comparisons).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternMap {
    rules: Vec<(String, Vec<String>)>,
    /// Rule indices by exact key, in rule order.
    exact: HashMap<String, Vec<usize>>,
    /// Indices of pattern rules (`a*b`, or a folder key `a/`) by the text before the
    /// wildcard, in rule order.
    by_prefix: HashMap<String, Vec<usize>>,
}

impl PatternMap {
    pub fn new(rules: Vec<(String, Vec<String>)>) -> Self {
        let mut exact: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_prefix: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, (key, _)) in rules.iter().enumerate() {
            exact.entry(key.clone()).or_default().push(i);
            if let Some(prefix) = pattern_prefix(key) {
                by_prefix.entry(prefix.to_owned()).or_default().push(i);
            }
        }
        Self {
            rules,
            exact,
            by_prefix,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Pattern rules whose prefix is a prefix of `specifier`, longest prefix first, each
    /// group in rule order, with what their wildcard captured.
    fn patterns_for<'a, 's>(
        &'a self,
        specifier: &'s str,
    ) -> impl Iterator<Item = (usize, &'s str)> + use<'a, 's> {
        (0..=specifier.len())
            .rev()
            .filter(|&len| specifier.is_char_boundary(len))
            .filter_map(|len| self.by_prefix.get(&specifier[..len]))
            .flatten()
            .filter_map(|&i| capture(&self.rules[i].0, specifier).map(|c| (i, c)))
    }

    /// The targets of the best rule for `specifier`, with `*` replaced by the text the
    /// key's `*` matched. A key ending in `/` (legacy Node folder mapping) behaves like
    /// `key*`, and so does its target.
    pub fn lookup(&self, specifier: &str) -> Option<Vec<String>> {
        if let Some(&i) = self.exact.get(specifier).and_then(|v| v.first()) {
            return Some(self.rules[i].1.clone());
        }
        // The longest prefix wins; among rules with that prefix, the first in order.
        let (i, captured) = self.patterns_for(specifier).next()?;
        Some(
            self.rules[i]
                .1
                .iter()
                .map(|t| substitute(t, captured))
                .collect(),
        )
    }

    /// Whether an exact key, or a pattern with a non-empty prefix, matches `specifier`
    /// with a target outside `node_modules`. A catch-all such as `*` or `*.css`, or a
    /// redirect into installed packages, says nothing about whether the specifier
    /// belongs to the repository.
    pub fn matches_with_prefix(&self, specifier: &str) -> bool {
        let in_repo = |i: usize| self.rules[i].1.iter().any(|t| !t.contains("node_modules"));
        let exact = self.exact.get(specifier).into_iter().flatten().copied();
        let patterns = self
            .patterns_for(specifier)
            .map(|(i, _)| i)
            .filter(|&i| !self.rules[i].0.starts_with('*'));
        exact.chain(patterns).any(in_repo)
    }
}

/// The text before the wildcard of a pattern key (`a*b`, or a folder key `a/`), or `None`
/// for an exact key.
fn pattern_prefix(key: &str) -> Option<&str> {
    match key.split_once('*') {
        Some((p, _)) => Some(p),
        None if key.ends_with('/') => Some(key),
        None => None,
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
    use super::{PatternMap, capture, substitute};
    use proptest::prelude::*;

    /// The plain scan the index replaced: the reference it must agree with.
    fn linear_lookup(rules: &[(String, Vec<String>)], specifier: &str) -> Option<Vec<String>> {
        if let Some((_, targets)) = rules.iter().find(|(k, _)| k == specifier) {
            return Some(targets.clone());
        }
        let mut best: Option<(usize, &str, &[String])> = None;
        for (key, targets) in rules {
            let Some(captured) = capture(key, specifier) else {
                continue;
            };
            let prefix_len = key.find('*').unwrap_or(key.len());
            if best.is_none_or(|(len, _, _)| prefix_len > len) {
                best = Some((prefix_len, captured, targets));
            }
        }
        let (_, captured, targets) = best?;
        Some(targets.iter().map(|t| substitute(t, captured)).collect())
    }

    fn linear_matches(rules: &[(String, Vec<String>)], specifier: &str) -> bool {
        rules.iter().any(|(key, targets)| {
            let matched =
                key == specifier || (capture(key, specifier).is_some() && !key.starts_with('*'));
            matched && targets.iter().any(|t| !t.contains("node_modules"))
        })
    }

    proptest! {
        #[test]
        fn the_index_agrees_with_a_scan_of_every_rule(
            keys in proptest::collection::vec("[ab/@*]{0,5}", 0..12),
            specifiers in proptest::collection::vec("[ab/@]{0,6}", 1..8),
        ) {
            let rules: Vec<(String, Vec<String>)> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.clone(), vec![format!("t{i}/*"), "node_modules/x".into()]))
                .collect();
            let map = PatternMap::new(rules.clone());
            for s in &specifiers {
                prop_assert_eq!(map.lookup(s), linear_lookup(&rules, s));
                prop_assert_eq!(map.matches_with_prefix(s), linear_matches(&rules, s));
            }
        }
    }

    #[test]
    fn twenty_five_thousand_keys_resolve_to_their_own_targets() {
        let rules: Vec<(String, Vec<String>)> = (0..25_000)
            .map(|i| (format!("@pkg{i}/*"), vec![format!("packages/p{i}/src/*")]))
            .collect();
        let map = PatternMap::new(rules);
        for i in (0..25_000).step_by(997) {
            assert_eq!(
                map.lookup(&format!("@pkg{i}/util")),
                Some(vec![format!("packages/p{i}/src/util")])
            );
        }
        assert_eq!(map.lookup("@other/util"), None);
    }

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
