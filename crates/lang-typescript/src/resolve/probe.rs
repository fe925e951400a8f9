//! Turning a candidate path into a file of the index: extension probing, directory
//! `index` files and directory `package.json` entries. Only the in-memory file set is
//! consulted, so this is cheap enough to run for every import of every file.

use super::package::PackageJson;
use sightline_lang::FileSet;
use sightline_lang::path;
use std::collections::HashMap;

/// Extensions appended to an extensionless specifier, in TypeScript's preference order
/// (sources before declarations before JavaScript).
const EXTENSIONS: [&str; 9] = [
    ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs",
];

/// ESM TypeScript imports its own sources by their *output* name (`./a.js` for
/// `a.ts`); these are the sources each output extension can come from.
const OUTPUT_TO_SOURCE: [(&str, &[&str]); 4] = [
    (".js", &[".ts", ".tsx", ".d.ts"]),
    (".jsx", &[".tsx", ".d.ts"]),
    (".mjs", &[".mts", ".d.mts"]),
    (".cjs", &[".cts", ".d.cts"]),
];

/// Build-output directories that a package's `main`/`exports` commonly point into while
/// the index only holds the sources under `src/` (the usual `outDir`/`rootDir` split).
const OUTPUT_DIRS: [&str; 6] = ["dist", "lib", "build", "out", "esm", "cjs"];

/// How many directory → package.json entry → directory hops are followed.
const MAX_DIR_HOPS: usize = 4;

/// Candidate paths checked against a file set, with the workspace's packages.
pub struct Probe<'a> {
    files: &'a dyn FileSet,
    /// Parsed `package.json` files by the directory that holds them.
    packages: &'a HashMap<String, PackageJson>,
}

impl<'a> Probe<'a> {
    pub fn new(files: &'a dyn FileSet, packages: &'a HashMap<String, PackageJson>) -> Self {
        Self { files, packages }
    }

    pub fn package(&self, dir: &str) -> Option<&'a PackageJson> {
        self.packages.get(dir)
    }

    /// `base` as a file, else as a directory.
    pub fn file_or_dir(&self, base: &str) -> Option<String> {
        self.file(base).or_else(|| self.dir(base, MAX_DIR_HOPS))
    }

    /// `base` as a file: its TypeScript source when written with an output extension,
    /// itself, or itself plus one of the probed extensions.
    pub fn file(&self, base: &str) -> Option<String> {
        for (output, sources) in OUTPUT_TO_SOURCE {
            if let Some(stem) = base.strip_suffix(output)
                && let Some(hit) = self.first_with_ext(stem, sources)
            {
                return Some(hit);
            }
        }
        if self.files.contains(base) {
            return Some(base.to_string());
        }
        self.first_with_ext(base, &EXTENSIONS)
    }

    /// `dir` as a directory: its `package.json` entries, then `index.*`.
    pub fn dir(&self, dir: &str, hops: usize) -> Option<String> {
        if let Some(pkg) = self.packages.get(dir) {
            for entry in &pkg.entries {
                if let Some(hit) = self.package_target(dir, entry, hops) {
                    return Some(hit);
                }
            }
        }
        self.first_with_ext(&path::join(dir, "index")?, &EXTENSIONS)
    }

    /// A workspace package's own entry: as a directory, then `src/index.*`.
    pub fn package_entry(&self, dir: &str) -> Option<String> {
        self.dir(dir, MAX_DIR_HOPS)
            .or_else(|| self.first_with_ext(&path::join(dir, "src/index")?, &EXTENSIONS))
    }

    /// One `main`/`exports` target of the package in `dir`. A target inside a build
    /// directory that is not indexed is retried under `src/`.
    pub fn package_target(&self, dir: &str, target: &str, hops: usize) -> Option<String> {
        let full = path::join(dir, target)?;
        if let Some(hit) = self.file(&full) {
            return Some(hit);
        }
        // `full != dir` stops `"main": "."` from looping back to this package.json.
        if hops > 0
            && full != dir
            && let Some(hit) = self.dir(&full, hops - 1)
        {
            return Some(hit);
        }
        let inside = path::join("", target)?;
        let (first, rest) = inside.split_once('/')?;
        if !OUTPUT_DIRS.contains(&first) {
            return None;
        }
        // A declaration in the build directory stands for the source beside it.
        let rest = rest.strip_suffix(".d.ts").unwrap_or(rest);
        let src = path::join(dir, &format!("src/{rest}"))?;
        self.file(&src).or_else(|| {
            if hops > 0 {
                self.dir(&src, hops - 1)
            } else {
                None
            }
        })
    }

    fn first_with_ext(&self, stem: &str, exts: &[&str]) -> Option<String> {
        exts.iter()
            .map(|ext| format!("{stem}{ext}"))
            .find(|p| self.files.contains(p))
    }
}
