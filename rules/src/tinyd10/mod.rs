//! Tiny d10: Fantasy: checks of a d10 plus an attribute and a point per relevant skill against
//! a toughness; characters built from a race, a class and split points; power points added to
//! rolls and spent on class abilities; magic points spent on spells that hit unless they say
//! they roll; combat in reflex order, one attack, ability or spell and one move a turn; 0 HP
//! dying for five rounds; morale when a monster's allies fall.
//!
//! `docs/tinyd10.md` lists what the server automates and every table option where the text is
//! silent. Submodules own one rule area each; this file wires them to [`RuleSystem`].

pub mod checks;
pub mod content;
pub mod dice;
mod options;
pub mod sheet;

#[cfg(test)]
mod tests;

pub use sheet::Sheet;

pub const ID: &str = "tinyd10";

/// Resource keys.
pub const HP: &str = "hp";
pub const PP: &str = "pp";
pub const MP: &str = "mp";
pub const TEMP_HP: &str = "temp_hp";
