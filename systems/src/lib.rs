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
    Mist,
    Tenacity,
    TinyD10,
    Vigor,
}

impl SystemId {
    pub const ALL: [SystemId; 5] = [
        SystemId::Grimwire,
        SystemId::Mist,
        SystemId::Tenacity,
        SystemId::TinyD10,
        SystemId::Vigor,
    ];

    pub fn system(self) -> &'static dyn RuleSystem {
        match self {
            SystemId::Grimwire => &tablehold_rules::grimwire::Grimwire,
            SystemId::Mist => &tablehold_rules::mist::Mist,
            SystemId::Tenacity => &tablehold_rules::tenacity::Tenacity,
            SystemId::TinyD10 => &tablehold_rules::tinyd10::TinyD10,
            SystemId::Vigor => &tablehold_rules::vigor::Vigor,
        }
    }

    pub fn as_str(self) -> &'static str {
        self.system().id()
    }

    /// The example sheets shipped with the system (docs/examples/ID/): each file's name and
    /// its TOML, player characters and NPCs alike (a sheet's `kind` says which). `tablehold
    /// demo` seats them at a table so that one person can try the system alone.
    pub fn examples(self) -> &'static [(&'static str, &'static str)] {
        match self {
            SystemId::Grimwire => &[
                (
                    "aune.toml",
                    include_str!("../../docs/examples/grimwire/aune.toml"),
                ),
                (
                    "goblin-1.toml",
                    include_str!("../../docs/examples/grimwire/goblin-1.toml"),
                ),
                (
                    "goblin-2.toml",
                    include_str!("../../docs/examples/grimwire/goblin-2.toml"),
                ),
                (
                    "goblin-3.toml",
                    include_str!("../../docs/examples/grimwire/goblin-3.toml"),
                ),
                (
                    "mara.toml",
                    include_str!("../../docs/examples/grimwire/mara.toml"),
                ),
                (
                    "warden.toml",
                    include_str!("../../docs/examples/grimwire/warden.toml"),
                ),
            ],
            SystemId::Mist => &[
                (
                    "beatrix.toml",
                    include_str!("../../docs/examples/mist/beatrix.toml"),
                ),
                (
                    "brute.toml",
                    include_str!("../../docs/examples/mist/brute.toml"),
                ),
                (
                    "gunman.toml",
                    include_str!("../../docs/examples/mist/gunman.toml"),
                ),
                (
                    "markus.toml",
                    include_str!("../../docs/examples/mist/markus.toml"),
                ),
                (
                    "masked-thug.toml",
                    include_str!("../../docs/examples/mist/masked-thug.toml"),
                ),
            ],
            SystemId::Tenacity => &[
                (
                    "aune.toml",
                    include_str!("../../docs/examples/tenacity/aune.toml"),
                ),
                (
                    "dragon.toml",
                    include_str!("../../docs/examples/tenacity/dragon.toml"),
                ),
                (
                    "missa.toml",
                    include_str!("../../docs/examples/tenacity/missa.toml"),
                ),
                (
                    "monkey.toml",
                    include_str!("../../docs/examples/tenacity/monkey.toml"),
                ),
                (
                    "pirate.toml",
                    include_str!("../../docs/examples/tenacity/pirate.toml"),
                ),
            ],
            SystemId::Vigor => &[
                (
                    "aune.toml",
                    include_str!("../../docs/examples/vigor/aune.toml"),
                ),
                (
                    "bryn.toml",
                    include_str!("../../docs/examples/vigor/bryn.toml"),
                ),
                (
                    "raider.toml",
                    include_str!("../../docs/examples/vigor/raider.toml"),
                ),
                (
                    "warden.toml",
                    include_str!("../../docs/examples/vigor/warden.toml"),
                ),
                (
                    "wolf.toml",
                    include_str!("../../docs/examples/vigor/wolf.toml"),
                ),
            ],
            SystemId::TinyD10 => &[
                (
                    "aldric.toml",
                    include_str!("../../docs/examples/tinyd10/aldric.toml"),
                ),
                (
                    "brenna.toml",
                    include_str!("../../docs/examples/tinyd10/brenna.toml"),
                ),
                (
                    "goblin-archer.toml",
                    include_str!("../../docs/examples/tinyd10/goblin-archer.toml"),
                ),
                (
                    "goblin.toml",
                    include_str!("../../docs/examples/tinyd10/goblin.toml"),
                ),
                (
                    "skeleton.toml",
                    include_str!("../../docs/examples/tinyd10/skeleton.toml"),
                ),
                (
                    "torvald.toml",
                    include_str!("../../docs/examples/tinyd10/torvald.toml"),
                ),
            ],
        }
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

/// Systems that have an id but no implementation yet, so the error can say "not yet". Every
/// system of RULES.md is shipped now; the list stays so the next one can be announced.
pub const PLANNED: [&str; 0] = [];

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

/// The systems a host offers: the shipped ones, and for a test host also systems built
/// elsewhere (the toy systems that prove the core's shapes run through the server). A table
/// records its system's id; the host finds it here when the table is created and again each
/// time it is loaded.
#[derive(Clone)]
pub struct Catalogue {
    systems: Vec<&'static dyn RuleSystem>,
}

impl Catalogue {
    /// What a real server offers.
    pub fn shipped() -> Catalogue {
        Catalogue {
            systems: SystemId::ALL.iter().map(|s| s.system()).collect(),
        }
    }

    /// This catalogue and `extra`; an id already offered keeps its first system.
    #[must_use]
    pub fn with(mut self, extra: &'static dyn RuleSystem) -> Catalogue {
        if self.find(extra.id()).is_err() {
            self.systems.push(extra);
        }
        self
    }

    pub fn find(&self, id: &str) -> Result<&'static dyn RuleSystem, UnknownSystem> {
        self.systems
            .iter()
            .copied()
            .find(|s| s.id() == id)
            .ok_or_else(|| UnknownSystem {
                given: id.to_owned(),
            })
    }
}

impl Default for Catalogue {
    fn default() -> Self {
        Catalogue::shipped()
    }
}

impl fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.systems.iter().map(|s| s.id()))
            .finish()
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
        let err = "chess".parse::<SystemId>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown rule system `chess`; shipped: grimwire, mist, tenacity, tinyd10, vigor"
        );
        assert!(PLANNED.is_empty(), "every system of RULES.md is shipped");
    }

    // `tablehold demo` seats these: every example file of every system, each a valid sheet
    // of its system, with a character to play.
    #[test]
    fn every_system_ships_its_example_sheets_and_they_are_valid() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
        for id in SystemId::ALL {
            let mut on_disk: Vec<String> = std::fs::read_dir(root.join(id.as_str()))
                .expect("the system's examples folder")
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".toml"))
                .collect();
            on_disk.sort();
            let shipped: Vec<String> = id.examples().iter().map(|(n, _)| (*n).into()).collect();
            assert_eq!(shipped, on_disk, "{id}");
            let mut pcs = 0;
            for (name, text) in id.examples() {
                let c = id
                    .system()
                    .sheet_from_toml(text)
                    .unwrap_or_else(|e| panic!("{id} {name}: {e}"));
                pcs += usize::from(c.kind == tablehold_rules::state::Kind::Pc);
            }
            assert!(pcs > 0, "{id} ships a character to play");
        }
    }

    #[test]
    fn a_catalogue_finds_what_it_offers_and_nothing_else() {
        let shipped = Catalogue::shipped();
        for id in SystemId::ALL {
            assert_eq!(shipped.find(id.as_str()).map(|s| s.id()), Ok(id.as_str()));
        }
        assert_eq!(
            shipped
                .find("chess")
                .map(|s| s.id())
                .unwrap_err()
                .to_string(),
            "unknown rule system `chess`; shipped: grimwire, mist, tenacity, tinyd10, vigor"
        );
        // A second system under an id already offered does not replace the first.
        let grimwire = SystemId::Grimwire.system();
        let twice = Catalogue::shipped().with(grimwire);
        assert_eq!(
            format!("{twice:?}"),
            "[\"grimwire\", \"mist\", \"tenacity\", \"tinyd10\", \"vigor\"]"
        );
    }
}
