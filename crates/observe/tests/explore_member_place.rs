//! A hit on a one-line data member is shown as the short data declaration that holds it
//! (a record type's field as the type, an enum's variant as the enum), so the reader sees
//! what the member belongs to; a field of a class with methods stays a line of its own.

mod common;

use sightline_observe::tools::explore_code::{self, ExploreArgs};

const STYLES: &str = "\
export interface Emphasis {
  bold: boolean;
  italic: boolean;
  underlineWidth: number;
  color: string;
}

export class Painter {
  strikethroughWidth = 2;
  constructor() {}
  paint(): void {}
  clear(): void {}
}
";

/// The windows' line ranges of `path` in the exploration of `query`.
fn windows(root: &std::path::Path, query: &str) -> Vec<(u32, u32)> {
    let index = common::open_uncached(root);
    let result =
        explore_code::run(index.db(), index.workspace(), &ExploreArgs::new(query)).unwrap();
    result
        .files
        .iter()
        .filter(|f| f.path == "src/styles.ts")
        .flat_map(|f| f.windows.iter().map(|w| (w.lines.start, w.lines.end)))
        .collect()
}

#[test]
fn a_record_types_field_is_shown_as_the_type_and_a_class_field_as_a_line() {
    let dir = tempfile::tempdir().unwrap();
    common::create_file(dir.path(), "src/styles.ts", STYLES);
    common::create_file(
        dir.path(),
        "src/other.ts",
        "export function render(): number {\n  return 1;\n}\n",
    );
    let variant = windows(dir.path(), "underlineWidth");
    assert!(variant.contains(&(1, 6)), "{variant:?}");
    let field = windows(dir.path(), "strikethroughWidth");
    assert!(field.contains(&(9, 9)), "{field:?}");
    assert!(field.iter().all(|&(s, e)| e - s < 5), "{field:?}");
}
