//! Generic path kinds: the role a file's path suggests, from directory and file-name
//! conventions shared across ecosystems. Open strings in reports; informational for the
//! model, and matched against the query's own terms when ranking.

use serde::{Deserialize, Serialize};
use sightline_observe::path_traits::{PathTraits, path_words};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathKind {
    Route,
    Component,
    Hook,
    Service,
    Api,
    Store,
    Type,
    Config,
    Test,
}

impl PathKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PathKind::Route => "route",
            PathKind::Component => "component",
            PathKind::Hook => "hook",
            PathKind::Service => "service",
            PathKind::Api => "api",
            PathKind::Store => "store",
            PathKind::Type => "type",
            PathKind::Config => "config",
            PathKind::Test => "test",
        }
    }

    /// The path words that signal each kind (singular and plural directory names).
    fn words(self) -> &'static [&'static str] {
        match self {
            PathKind::Route => &["route", "routes", "router", "routing", "pages", "endpoints"],
            PathKind::Component => &["component", "components", "views", "widgets", "ui"],
            PathKind::Hook => &["hook", "hooks"],
            PathKind::Service => &["service", "services"],
            PathKind::Api => &["api", "apis", "client", "clients"],
            PathKind::Store => &["store", "stores", "state", "reducers", "slices"],
            PathKind::Type => &["type", "types", "typings", "interfaces", "models"],
            PathKind::Config => &["config", "configs", "settings"],
            PathKind::Test => &[],
        }
    }

    const ALL: [PathKind; 9] = [
        PathKind::Route,
        PathKind::Component,
        PathKind::Hook,
        PathKind::Service,
        PathKind::Api,
        PathKind::Store,
        PathKind::Type,
        PathKind::Config,
        PathKind::Test,
    ];

    /// The kinds a path suggests.
    pub fn of(path: &str, traits: &PathTraits) -> Vec<PathKind> {
        let (stem, dirs) = path_words(path);
        let file = path.rsplit('/').next().unwrap_or(path);
        let mut kinds = Vec::new();
        for kind in Self::ALL {
            let by_words = stem
                .iter()
                .chain(dirs.iter())
                .any(|w| kind.words().contains(&w.as_str()));
            let by_convention = match kind {
                PathKind::Test => traits.test,
                PathKind::Config => traits.config,
                PathKind::Type => traits.declaration_only,
                // `useThing.ts` is the hook naming convention; `.tsx`/`.jsx` files with a
                // capitalised stem are components by convention.
                PathKind::Hook => {
                    file.starts_with("use")
                        && file[3..].starts_with(|c: char| c.is_ascii_uppercase())
                }
                PathKind::Component => {
                    (file.ends_with(".tsx") || file.ends_with(".jsx"))
                        && file.starts_with(|c: char| c.is_ascii_uppercase())
                }
                _ => false,
            };
            if by_words || by_convention {
                kinds.push(kind);
            }
        }
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_conventions() {
        let k = |p: &str| PathKind::of(p, &PathTraits::of(p));
        assert!(k("src/hooks/useThing.ts").contains(&PathKind::Hook));
        assert!(k("src/components/Panel.tsx").contains(&PathKind::Component));
        assert!(k("src/state/recordStore.ts").contains(&PathKind::Store));
        assert!(k("src/a.test.ts").contains(&PathKind::Test));
        assert!(k("src/user.ts").is_empty());
    }
}
