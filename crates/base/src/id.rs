//! Candidate IDs: `c1`, `c2`, … assigned in arrival order, never reused within a session.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A candidate's ID, printed `c7`: dense, starting at 1, in order of first sighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CandidateId(pub u32);

impl fmt::Display for CandidateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

/// A string that does not name a candidate; holds the string as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a candidate ID (expected `c` followed by a number, like `c7`)")]
pub struct BadCandidateId(pub String);

impl FromStr for CandidateId {
    type Err = BadCandidateId;
    /// Accepts `c7`, and the label tool text prints, `[c7 3-9]` or `c7 3-9`: the range is
    /// the registry's, so it is checked for shape and otherwise ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bare = s.trim();
        let bare = bare
            .strip_prefix('[')
            .and_then(|b| b.strip_suffix(']'))
            .unwrap_or(bare);
        let mut tokens = bare.split_whitespace();
        let t = tokens.next().unwrap_or("");
        let range = tokens.next();
        let is_range = |r: &str| {
            r.split_once('-').is_some_and(|(a, b)| {
                [a, b]
                    .iter()
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
        };
        if tokens.next().is_some() || range.is_some_and(|r| !is_range(r)) {
            return Err(BadCandidateId(s.into()));
        }
        let digits = t
            .strip_prefix('c')
            .or_else(|| t.strip_prefix('C'))
            .ok_or_else(|| BadCandidateId(s.into()))?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BadCandidateId(s.into()));
        }
        digits
            .parse::<u32>()
            .map(CandidateId)
            .map_err(|_| BadCandidateId(s.into()))
    }
}

impl Serialize for CandidateId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CandidateId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for CandidateId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CandidateId".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^c[0-9]+$",
            "description": "A candidate ID shown in a tool result, like c7"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        assert_eq!("c7".parse::<CandidateId>(), Ok(CandidateId(7)));
        assert_eq!(CandidateId(12).to_string(), "c12");
        assert!("7".parse::<CandidateId>().is_err());
        assert!("c".parse::<CandidateId>().is_err());
        assert!("c-1".parse::<CandidateId>().is_err());
        assert!("c99999999999".parse::<CandidateId>().is_err());
    }

    #[test]
    fn accepts_the_printed_label_and_nothing_looser() {
        assert_eq!("[c58 97-285]".parse::<CandidateId>(), Ok(CandidateId(58)));
        assert_eq!("c58 97-285".parse::<CandidateId>(), Ok(CandidateId(58)));
        assert_eq!("[c4]".parse::<CandidateId>(), Ok(CandidateId(4)));
        assert!("c58 lines".parse::<CandidateId>().is_err());
        assert!("c58 1-2 3".parse::<CandidateId>().is_err());
        assert!("[c58 97-]".parse::<CandidateId>().is_err());
    }
}
