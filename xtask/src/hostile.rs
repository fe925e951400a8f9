//! `cargo xtask hostile`: writes a repository shaped to hurt an indexer, to measure what it
//! costs (`/usr/bin/time -v sightline index --no-cache DIR`). Each shape reproduces a
//! reliability defect with a size knob, so before/after figures can be rerun:
//! - `nested-objects`: one file of object literals nested `depth` deep;
//! - `nested-functions`: one file of functions nested `depth` deep;
//! - `extends-chain`: `depth` tsconfig files, each extending the next.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, ValueEnum};

#[derive(Clone, Copy, ValueEnum)]
enum Shape {
    NestedObjects,
    NestedFunctions,
    ExtendsChain,
}

#[derive(Args)]
pub struct HostileArgs {
    #[arg(value_enum)]
    shape: Shape,
    /// Nesting depth, or chain length.
    #[arg(long)]
    depth: usize,
    /// Directory to create (must not exist).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: HostileArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        !args.out.exists(),
        "{} exists; give a new directory",
        args.out.display()
    );
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let files = match args.shape {
        Shape::NestedObjects => vec![("nested.ts".to_owned(), nested_objects(args.depth))],
        Shape::NestedFunctions => vec![("nested.ts".to_owned(), nested_functions(args.depth))],
        Shape::ExtendsChain => extends_chain(args.depth),
    };
    let mut bytes = 0;
    for (name, text) in &files {
        bytes += text.len();
        std::fs::write(args.out.join(name), text).with_context(|| format!("writing {name}"))?;
    }
    println!(
        "wrote {} files, {bytes} bytes, to {}",
        files.len(),
        args.out.display()
    );
    Ok(())
}

/// `export const o = {a:\n{a:\n…1}\n}…;`
fn nested_objects(depth: usize) -> String {
    let mut text = String::from("export const o = ");
    text.push_str(&"{a:\n".repeat(depth));
    text.push('1');
    text.push_str(&"}\n".repeat(depth));
    text.push_str(";\n");
    text
}

/// `export function f0() {\nfunction f1() {\n…}\n}`
fn nested_functions(depth: usize) -> String {
    let mut text = String::from("export ");
    for i in 0..depth {
        let _ = writeln!(text, "function f{i}() {{");
    }
    text.push_str(&"}\n".repeat(depth));
    text
}

/// `tsconfig.json` extends `tsconfig.1.json` … extends `tsconfig.{depth}.json`, plus one
/// source file so the resolver has something to resolve.
fn extends_chain(depth: usize) -> Vec<(String, String)> {
    let name = |i: usize| {
        if i == 0 {
            "tsconfig.json".to_owned()
        } else {
            format!("tsconfig.{i}.json")
        }
    };
    let mut files: Vec<(String, String)> = (0..depth)
        .map(|i| (name(i), format!("{{\"extends\": \"./{}\"}}\n", name(i + 1))))
        .collect();
    files.push((
        name(depth),
        "{\"compilerOptions\": {\"baseUrl\": \".\"}}\n".to_owned(),
    ));
    files.push((
        "main.ts".to_owned(),
        "import { x } from './other';\nexport const y = x;\n".to_owned(),
    ));
    files.push(("other.ts".to_owned(), "export const x = 1;\n".to_owned()));
    files
}
