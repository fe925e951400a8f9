use super::extract_facts;
use crate::facts::*;

#[test]
fn syntax_dump_sample() {
    let src = r#"import D, { b as c } from "y";
@dec()
export class C<T> extends Base<T> implements I, ns.J<T> {
  @f()
  m(a: number) { this.store.save(a); helper(); }
  x = () => new Thing();
}
export default { methods: { a() {} }, b: () => 1 } as const;
const handlers = { onSave() {}, onLoad: () => {} };
export { handlers };
interface I2 extends J, K.L<T> { p: string; m(): void }
"#;
    let facts = extract_facts(Lang::Tsx, src);
    for d in &facts.decls {
        eprintln!("{d:?}");
    }
    for d in &facts.imports {
        eprintln!("{d:?}");
    }
    for d in &facts.usages {
        eprintln!("{d:?}");
    }
    for d in &facts.heritage {
        eprintln!("{d:?}");
    }
    eprintln!(
        "{} {:?} {}",
        facts.parse_errors, facts.error_lines, facts.line_count
    );
}
