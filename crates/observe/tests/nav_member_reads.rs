//! `references` of a field lists exactly the lines that read it as `obj.field`: the facts
//! record no member reads, so the text is their only source, and none may be missed,
//! invented or listed twice.

mod common;

use proptest::prelude::*;
use sightline_observe::tools::nav::references::{self, ReferencesArgs};

const FIELDS: &[&str] = &["alpha_limit", "beta_width", "gamma_total"];

/// A class with the three fields and one method per entry of `reads`, each returning
/// `self.<field>` for the fields its entry names; returns the source and, per field, the
/// lines reading it.
fn source(reads: &[Vec<usize>]) -> (String, Vec<Vec<u32>>) {
    let mut lines = vec!["class Meter:".to_owned()];
    for f in FIELDS {
        lines.push(format!("    {f} = 0"));
    }
    let mut read_at = vec![Vec::new(); FIELDS.len()];
    for (m, fields) in reads.iter().enumerate() {
        lines.push(String::new());
        lines.push(format!("    def method_{m}(self):"));
        if fields.is_empty() {
            lines.push("        return None".to_owned());
        }
        for &f in fields {
            lines.push(format!("        print(self.{})", FIELDS[f]));
            read_at[f].push(lines.len() as u32);
        }
    }
    (lines.join("\n") + "\n", read_at)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn a_fields_uses_are_the_lines_reading_it(
        reads in proptest::collection::vec(proptest::collection::vec(0..FIELDS.len(), 0..3), 1..5),
    ) {
        let (text, read_at) = source(&reads);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("meter.py"), &text).unwrap();
        let index = common::open_uncached(dir.path());
        let (db, ws) = (index.db(), index.workspace());
        for (f, name) in FIELDS.iter().enumerate() {
            let r = references::run(db, ws, &ReferencesArgs::new(format!("Meter.{name}"))).unwrap();
            let mut listed: Vec<u32> = r.uses.iter().map(|u| u.line).collect();
            let count = listed.len();
            listed.sort_unstable();
            listed.dedup();
            prop_assert_eq!(listed.len(), count, "a line listed twice: {:?}", r.uses);
            let mut expected = read_at[f].clone();
            expected.dedup();
            prop_assert_eq!(listed, expected, "{}", text);
        }
    }
}
