//! The 10acity Tactics sheet (TOML, or the same schema as JSON) and its validation.
//!
//! Character creation is not in the rule text, so there are no budgets to enforce. What the
//! text does fix is checked: six attributes of at least one hero die, four skills under each,
//! ranks that are not negative, Spin never below -10, stress and wounds within their limits,
//! sizes that double from one step to the next, a challenge bonus of +1 to +3. Other bounds
//! are the server's, to keep one sheet from making a roll or an event unreasonably large.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::sheet::{Sheet as CoreSheet, SheetError};
use crate::state::{Combatant, Kind};
use crate::toolkit::sheets::{self, Identity, SystemSheet};

use super::{RECOVERY, SPIN, STRESS, TENACITY, WOUNDS};

/// The text gives six attributes, each holding four skills.
pub const ATTRIBUTES: usize = 6;
pub const SKILLS_PER_ATTRIBUTE: usize = 4;
/// The deepest negative Spin may go.
pub const SPIN_FLOOR: i64 = -10;
/// Server bounds, not rules of the text.
pub const MAX_DICE: i64 = 10;
pub const MAX_RANK: i64 = 20;
const MAX_NUMBER: i64 = 10_000;

/// One attribute: its hero dice and the ranks of its four skills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attribute {
    pub dice: i64,
    pub skills: BTreeMap<String, i64>,
}

/// A piece of equipment: what it adds to impact (a weapon's damage) and its properties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub impact_bonus: i64,
    /// `grappling`, `locking`.
    #[serde(default)]
    pub properties: Vec<String>,
}

/// A special ability (a Talent): activated for one 10acity point or one Spin, adds its bonus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub id: String,
    #[serde(default)]
    pub name: String,
    pub bonus: i64,
}

/// The narrator's challenge for an NPC that does not roll hero dice: d6s plus +0..+3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    pub dice: i64,
    #[serde(default)]
    pub bonus: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub side: Option<String>,
    pub attributes: BTreeMap<String, Attribute>,
    #[serde(default)]
    pub tenacity: i64,
    #[serde(default)]
    pub spin: i64,
    pub max_stress: i64,
    #[serde(default)]
    pub stress: i64,
    #[serde(default)]
    pub wound_capacity: i64,
    #[serde(default)]
    pub wounds: i64,
    #[serde(default)]
    pub recovery: i64,
    #[serde(default)]
    pub movement: i64,
    /// Side length in spaces: 1, 2, 4, 8 ... (each doubling is one size step).
    #[serde(default = "one")]
    pub size: i64,
    #[serde(default)]
    pub resistances: BTreeMap<String, i64>,
    #[serde(default)]
    pub equipment: Vec<Item>,
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// An NPC may be written as challenge dice instead of (or besides) hero dice.
    #[serde(default)]
    pub challenge: Option<Challenge>,
    /// A solo opponent's reaction ability: responds out of turn without paying.
    #[serde(default)]
    pub free_response: bool,
}

fn one() -> i64 {
    1
}

fn in_range(field: &str, n: i64, min: i64, max: i64, what: &str) -> Result<(), SheetError> {
    if (min..=max).contains(&n) {
        Ok(())
    } else {
        Err(SheetError::invalid(
            field,
            format!("must be {min} to {max} ({what}), got {n}"),
        ))
    }
}

impl Sheet {
    /// The attribute holding `skill` and the skill's rank, if the sheet has the skill.
    pub fn skill(&self, skill: &str) -> Option<(&str, i64, i64)> {
        self.attributes.iter().find_map(|(name, a)| {
            a.skills
                .get(skill)
                .map(|rank| (name.as_str(), a.dice, *rank))
        })
    }

    pub fn validate(&self) -> Result<(), SheetError> {
        if self.id.trim().is_empty() {
            return Err(SheetError::invalid("id", "must not be empty"));
        }
        if self.attributes.len() != ATTRIBUTES {
            return Err(SheetError::invalid(
                "attributes",
                format!(
                    "10acity has exactly {ATTRIBUTES} attributes, got {}",
                    self.attributes.len()
                ),
            ));
        }
        let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
        for (name, a) in &self.attributes {
            let field = format!("attributes.{name}");
            in_range(
                &format!("{field}.dice"),
                a.dice,
                1,
                MAX_DICE,
                "hero dice: with none no check can be rolled",
            )?;
            if a.skills.len() != SKILLS_PER_ATTRIBUTE {
                return Err(SheetError::invalid(
                    format!("{field}.skills"),
                    format!(
                        "each attribute holds exactly {SKILLS_PER_ATTRIBUTE} skills, got {}",
                        a.skills.len()
                    ),
                ));
            }
            for (skill, rank) in &a.skills {
                in_range(
                    &format!("{field}.skills.{skill}"),
                    *rank,
                    0,
                    MAX_RANK,
                    "skill rank: 0 is untrained",
                )?;
                if let Some(other) = seen.insert(skill, name) {
                    return Err(SheetError::invalid(
                        format!("{field}.skills.{skill}"),
                        format!("the skill is also under `{other}`: a skill has one attribute"),
                    ));
                }
            }
        }
        in_range("tenacity", self.tenacity, 0, MAX_NUMBER, "10acity points")?;
        in_range(
            "spin",
            self.spin,
            SPIN_FLOOR,
            MAX_NUMBER,
            "Spin never goes below -10",
        )?;
        in_range(
            "max_stress",
            self.max_stress,
            1,
            MAX_NUMBER,
            "maximum stress",
        )?;
        in_range(
            "stress",
            self.stress,
            0,
            self.max_stress,
            "stress above the maximum is resolved at once",
        )?;
        in_range("wound_capacity", self.wound_capacity, 0, 100, "wounds")?;
        in_range(
            "wounds",
            self.wounds,
            0,
            self.wound_capacity,
            "wounds marked",
        )?;
        in_range("recovery", self.recovery, 0, MAX_NUMBER, "healing progress")?;
        in_range("movement", self.movement, 0, 1_000, "spaces a turn")?;
        if !(1..=64).contains(&self.size) || self.size.count_ones() != 1 {
            return Err(SheetError::invalid(
                "size",
                format!(
                    "size steps double: 1, 2, 4, 8, 16, 32 or 64 spaces a side, got {}",
                    self.size
                ),
            ));
        }
        for (kind, n) in &self.resistances {
            in_range(&format!("resistances.{kind}"), *n, 0, MAX_NUMBER, "ignored")?;
        }
        for (i, it) in self.equipment.iter().enumerate() {
            in_range(
                &format!("equipment[{i}].impact_bonus"),
                it.impact_bonus,
                -MAX_NUMBER,
                MAX_NUMBER,
                "added to impact",
            )?;
        }
        for (i, ab) in self.abilities.iter().enumerate() {
            in_range(
                &format!("abilities[{i}].bonus"),
                ab.bonus,
                0,
                MAX_NUMBER,
                "added to a result",
            )?;
        }
        if let Some(c) = self.challenge {
            in_range("challenge.dice", c.dice, 0, MAX_DICE, "challenge d6s")?;
            in_range(
                "challenge.bonus",
                c.bonus,
                0,
                3,
                "between two challenge levels the narrator adds +1 to +3",
            )?;
        }
        Ok(())
    }

    pub fn into_combatant(self) -> Result<Combatant, SheetError> {
        let resources = BTreeMap::from([
            (TENACITY.to_owned(), self.tenacity),
            (SPIN.to_owned(), self.spin),
            (STRESS.to_owned(), self.stress),
            (WOUNDS.to_owned(), self.wounds),
            (RECOVERY.to_owned(), self.recovery),
        ]);
        let who = Identity {
            id: self.id.clone(),
            name: self.name.clone(),
            kind: self.kind,
            owner: self.owner.clone(),
            side: self.side.clone(),
        };
        Ok(who.arrive(CoreSheet::new(super::ID, self)?, resources, BTreeMap::new()))
    }
}

pub fn from_toml(text: &str) -> Result<Combatant, SheetError> {
    sheets::from_toml::<Sheet>(text)
}

pub fn from_json(value: &serde_json::Value) -> Result<Combatant, SheetError> {
    sheets::from_json::<Sheet>(value)
}

impl SystemSheet for Sheet {
    fn validate(&self) -> Result<(), SheetError> {
        Sheet::validate(self)
    }

    fn into_combatant(self) -> Result<Combatant, SheetError> {
        Sheet::into_combatant(self)
    }
}
