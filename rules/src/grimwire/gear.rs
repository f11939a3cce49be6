//! The example gear Tablehold made up for GRIMWIRE (the text gives no weapon or armour tables),
//! parsed from `rules/content/grimwire/example_gear.toml` and checked with the sheet's own
//! validation.

use serde::Deserialize;

use super::content::ContentError;
use super::sheet::{Armour, Weapon};

const EXAMPLE_GEAR: &str = include_str!("../../content/grimwire/example_gear.toml");

/// Example gear: weapons and armour Tablehold made up, marked as such in the file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleGear {
    pub format: u32,
    pub example: bool,
    pub weapons: Vec<Weapon>,
    pub armour: Vec<NamedArmour>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedArmour {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub armour: Armour,
}

impl ExampleGear {
    pub fn parse(text: &str) -> Result<ExampleGear, ContentError> {
        let err = |problem: String| ContentError {
            file: "grimwire/example_gear.toml",
            problem,
        };
        let g: ExampleGear = toml::from_str(text).map_err(|e| err(e.to_string()))?;
        if !g.example {
            return Err(err("example gear must say `example = true`".into()));
        }
        for (i, w) in g.weapons.iter().enumerate() {
            w.validate(&format!("weapons[{i}]"))
                .map_err(|e| err(e.to_string()))?;
        }
        Ok(g)
    }
}

pub fn example_gear() -> Result<ExampleGear, ContentError> {
    ExampleGear::parse(EXAMPLE_GEAR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_gear_parses_and_validates() {
        let gear = example_gear().unwrap();
        assert!(gear.weapons.len() >= 5);
        assert!(!gear.armour.is_empty());
    }
}
