//! The directories packaging configuration declares as holding packages (import roots):
//! `pyproject.toml` read as TOML, `setup.cfg` as INI. Only the keys that name a source
//! directory are read — setuptools `where` and `package-dir` (`package_dir`), poetry
//! `from`, and the `packages`/`include` paths of hatch and flit (`"src/pkg"` declares
//! `src`) — wherever they sit in the file; a file that does not parse declares nothing and
//! says why.

/// The roots a packaging file declares (relative to its directory), and the problem that
/// kept it from being read, if any.
pub(crate) fn declared_roots(file_name: &str, text: &str) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    let problem = match file_name.ends_with(".cfg") {
        true => setup_cfg_roots(text, &mut out),
        false => pyproject_roots(text, &mut out),
    };
    (out, problem)
}

/// The project's name: `[project] name` (or poetry's `[tool.poetry] name`) of a
/// `pyproject.toml`, `name` in the `[metadata]` section of a `setup.cfg`.
pub(crate) fn project_name(file_name: &str, text: &str) -> Option<String> {
    if file_name.ends_with(".cfg") {
        let mut in_metadata = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                in_metadata = line == "[metadata]";
            } else if in_metadata
                && let Some((key, value)) = line.split_once(['=', ':'])
                && key.trim() == "name"
            {
                return Some(value.trim().to_owned());
            }
        }
        return None;
    }
    let table = text.parse::<toml::Table>().ok()?;
    let name = |t: Option<&toml::Value>| t?.get("name")?.as_str().map(str::to_owned);
    name(table.get("project")).or_else(|| name(table.get("tool").and_then(|t| t.get("poetry"))))
}

/// The roots in a `pyproject.toml`; the parser's message when it is not TOML.
fn pyproject_roots(text: &str, out: &mut Vec<String>) -> Option<String> {
    match text.parse::<toml::Table>() {
        Ok(table) => {
            table_roots(&table, out);
            None
        }
        Err(e) => Some(format!("malformed TOML: {}", e.message())),
    }
}

/// Walks a TOML table for the keys that name source directories.
fn table_roots(table: &toml::Table, out: &mut Vec<String>) {
    for (key, value) in table {
        match (key.replace('_', "-").as_str(), value) {
            ("where", v) => strings(v).for_each(|d| push_dir(out, d)),
            ("from", toml::Value::String(dir)) => push_dir(out, dir),
            // setuptools: `package-dir = {"" = "src"}` maps the root package.
            ("package-dir", toml::Value::Table(map)) => {
                if let Some(toml::Value::String(dir)) = map.get("") {
                    push_dir(out, dir);
                }
            }
            // hatch and flit list package paths (`"src/pkg"`); poetry lists tables
            // (`{ include = "pkg", from = "src" }`).
            ("packages" | "include", v) => {
                for item in items(v) {
                    match item {
                        toml::Value::String(p) if p.contains('/') => {
                            push_dir(out, sightline_lang::path::parent(p.trim_end_matches('/')))
                        }
                        toml::Value::Table(t) => table_roots(t, out),
                        _ => {}
                    }
                }
            }
            (_, toml::Value::Table(t)) => table_roots(t, out),
            _ => {}
        }
    }
}

/// A value as a list: an array's items, or the value alone.
fn items(v: &toml::Value) -> Box<dyn Iterator<Item = &toml::Value> + '_> {
    match v {
        toml::Value::Array(a) => Box::new(a.iter()),
        other => Box::new(std::iter::once(other)),
    }
}

/// The strings of a value (a string, or an array's strings).
fn strings(v: &toml::Value) -> impl Iterator<Item = &str> {
    items(v).filter_map(toml::Value::as_str)
}

/// The roots in a `setup.cfg`: `where` and the root package's `package_dir` entry
/// (`package_dir = =src`, or `=src` on a continuation line). The first line that is
/// neither a section, an option, a continuation nor a comment is reported.
fn setup_cfg_roots(text: &str, out: &mut Vec<String>) -> Option<String> {
    let mut problem = None;
    // The option whose continuation lines follow, normalised.
    let mut option = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if raw.starts_with(char::is_whitespace) && !option.is_empty() {
            if option == "package-dir" {
                package_dir_entry(line, out);
            }
            continue;
        }
        if line.starts_with('[') {
            option.clear();
            if !line.ends_with(']') && problem.is_none() {
                problem = Some(format!("malformed INI at line {}: unclosed section", i + 1));
            }
            continue;
        }
        let Some((key, value)) = line.split_once(['=', ':']) else {
            option.clear();
            if problem.is_none() {
                problem = Some(format!("malformed INI at line {}: not an option", i + 1));
            }
            continue;
        };
        option = key.trim().replace('_', "-");
        let value = value.trim();
        match option.as_str() {
            "package-dir" => package_dir_entry(value, out),
            "where" => push_dir(out, value),
            _ => {}
        }
    }
    problem
}

/// One `package_dir` entry: `=dir` maps the root package to `dir`; `name = dir` maps one
/// package and declares no root.
fn package_dir_entry(entry: &str, out: &mut Vec<String>) {
    if let Some(dir) = entry.trim().strip_prefix('=') {
        push_dir(out, dir);
    }
}

fn push_dir(out: &mut Vec<String>, dir: &str) {
    let dir = dir.trim().trim_matches(['"', '\'']).trim_end_matches('/');
    let dir = dir.strip_prefix("./").unwrap_or(dir);
    if !dir.is_empty() && dir != "." && !out.iter().any(|d| d == dir) {
        out.push(dir.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_name_of_each_packaging_file() {
        let name = |file: &str, text: &str| project_name(file, text);
        assert_eq!(
            name("pyproject.toml", "[project]\nname = \"netclient\"\n").as_deref(),
            Some("netclient")
        );
        assert_eq!(
            name("pyproject.toml", "[tool.poetry]\nname = \"app\"\n").as_deref(),
            Some("app")
        );
        assert_eq!(
            name(
                "setup.cfg",
                "[options]\nname = no\n[metadata]\nname = Webapp\n"
            )
            .as_deref(),
            Some("Webapp")
        );
        assert_eq!(name("pyproject.toml", "[build-system]\n"), None);
        assert_eq!(name("pyproject.toml", "not toml ["), None);
    }

    fn roots(name: &str, text: &str) -> Vec<String> {
        let (roots, problem) = declared_roots(name, text);
        assert_eq!(problem, None, "{name}: {text}");
        roots
    }

    #[test]
    fn setuptools_where_and_package_dir_declare_roots() {
        let toml = "[tool.setuptools.packages.find]\nwhere = [\"src\"]  # sources\n";
        assert_eq!(roots("pyproject.toml", toml), ["src"]);
        let toml = "[tool.setuptools]\npackage-dir = {\"\" = \"lib\"}\n";
        assert_eq!(roots("pyproject.toml", toml), ["lib"]);
        let cfg = "[options]\npackage_dir =\n    =src\npackages = find:\n\n[options.packages.find]\nwhere = src\n";
        assert_eq!(roots("setup.cfg", cfg), ["src"]);
        assert_eq!(
            roots("setup.cfg", "[options]\npackage_dir = =code\n"),
            ["code"]
        );
        assert!(roots("setup.cfg", "[options]\npackage_dir =\n    pkg = lib\n").is_empty());
    }

    #[test]
    fn poetry_hatch_and_flit_package_paths_declare_roots() {
        let poetry = "[tool.poetry]\npackages = [{ include = \"pkg\", from = \"src\" }]\n";
        assert_eq!(roots("pyproject.toml", poetry), ["src"]);
        let hatch = "[tool.hatch.build.targets.wheel]\npackages = [\"src/pkg\"]\n";
        assert_eq!(roots("pyproject.toml", hatch), ["src"]);
        let multi =
            "[tool.hatch.build.targets.sdist]\ninclude = [\n  \"src/pkg\",\n  \"tests\",\n]\n";
        assert_eq!(roots("pyproject.toml", multi), ["src"]);
        let flit = "[project]\nname = \"pkg\"\ndependencies = [\"httpx>=0.2\"]\n";
        assert!(roots("pyproject.toml", flit).is_empty());
    }

    #[test]
    fn unreadable_files_declare_nothing_and_say_why() {
        let (found, problem) = declared_roots("pyproject.toml", "[tool.setuptools\nwhere = 1");
        assert!(found.is_empty());
        assert!(problem.unwrap().starts_with("malformed TOML"));
        let (found, problem) = declared_roots("setup.cfg", "[options]\nwhere = src\njunk\n");
        assert_eq!(
            found,
            ["src"],
            "what was read before the problem still counts"
        );
        assert!(problem.unwrap().contains("line 3"));
    }
}
