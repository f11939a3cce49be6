//! The registry of shipped rule systems.
//!
//! The rules crate's core defines what a system is ([`RuleSystem`]) and never names one; each
//! system lives in its own module. This crate sits above both and is the one place that lists
//! them, so the server, the client and the log tools reach a system only through an id read
//! from a table or a command line, and adding a system touches this file and nothing generic.

use std::fmt;
use std::str::FromStr;

use tablehold_rules::RuleSystem;

/// A shipped system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SystemId {
    Grimwire,
}

impl SystemId {
    pub const ALL: [SystemId; 1] = [SystemId::Grimwire];

    pub fn system(self) -> &'static dyn RuleSystem {
        match self {
            SystemId::Grimwire => &tablehold_rules::grimwire::Grimwire,
        }
    }

    pub fn as_str(self) -> &'static str {
        self.system().id()
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A system id that is not shipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rule system `{given}`; shipped: {}{}",
    shipped(),
    planned(given)
)]
pub struct UnknownSystem {
    pub given: String,
}

fn shipped() -> String {
    SystemId::ALL
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Systems that have an id but no implementation yet, so the error can say "not yet".
pub const PLANNED: [&str; 4] = ["tenacity", "vigor", "mist", "tinyd10"];

/// Every way a system is spelt: its id, shipped or planned, and the names its rule text goes
/// by. Code outside the rules crate and this one names none of them.
pub fn spellings() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = SystemId::ALL.iter().map(|s| s.as_str()).collect();
    all.extend(PLANNED);
    all.extend(["10acity", "tiny d10"]);
    all
}

fn planned(given: &str) -> &'static str {
    if PLANNED.contains(&given) {
        " (this one is planned but not implemented yet)"
    } else {
        ""
    }
}

impl FromStr for SystemId {
    type Err = UnknownSystem;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SystemId::ALL
            .into_iter()
            .find(|id| id.as_str() == s)
            .ok_or_else(|| UnknownSystem {
                given: s.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_id_reads_back_and_an_unknown_one_says_what_is_shipped() {
        for id in SystemId::ALL {
            assert_eq!(id.as_str().parse::<SystemId>(), Ok(id));
        }
        let err = "vigor".parse::<SystemId>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown rule system `vigor`; shipped: grimwire (this one is planned but not implemented yet)"
        );
        let err = "chess".parse::<SystemId>().unwrap_err().to_string();
        assert_eq!(err, "unknown rule system `chess`; shipped: grimwire");
    }
}
