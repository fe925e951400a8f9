//! Which files of the layout the benchmark edits: indexable TypeScript sources of middling
//! size (neither a tiny file's cost nor the largest file's), primary (not tests, examples
//! or declaration files), spread evenly through the tree so every repository gets some.

use std::path::Path;

use sightline_observe::path_traits::PathTraits;

/// The extension of every file the benchmark edits or creates, so one probe syntax fits.
pub const EDITED_EXTENSION: &str = ".ts";

/// `count` files (repo-relative), deterministic for the same tree, spread through the
/// path order of the files in the middle size band.
pub fn pick(dir: &Path, count: usize) -> Vec<String> {
    // Stat only: a stamp check that always says "unchanged" lists files without reading.
    let walked =
        sightline_observe::walk::walk_changed(dir, sightline_observe::LANGUAGES, &|_, _| true);
    let mut sized: Vec<(u64, String)> = walked
        .unchanged
        .into_iter()
        .filter(|p| p.ends_with(EDITED_EXTENSION))
        .filter(|p| {
            let traits = PathTraits::of(p);
            !traits.is_secondary() && !traits.declaration_only
        })
        .filter_map(|p| Some((std::fs::metadata(dir.join(&p)).ok()?.len(), p)))
        .collect();
    sized.sort_unstable();
    // The middle 40% by size, then back in path order.
    let n = sized.len();
    let mut band: Vec<String> = sized
        .drain(n * 3 / 10..n * 7 / 10)
        .map(|(_, p)| p)
        .collect();
    band.sort_unstable();
    spread(&band, count)
}

/// `count` items of `items` at even steps (all of them when there are fewer).
fn spread(items: &[String], count: usize) -> Vec<String> {
    if items.len() <= count {
        return items.to_vec();
    }
    (0..count)
        .map(|i| items[i * items.len() / count].clone())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn spread_takes_even_steps_and_never_repeats() {
        let items: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        assert_eq!(super::spread(&items, 3), ["0", "3", "6"]);
        assert_eq!(super::spread(&items, 20).len(), 10);
        let picked = super::spread(&items, 10);
        let mut unique = picked.clone();
        unique.dedup();
        assert_eq!(picked, unique);
    }
}
