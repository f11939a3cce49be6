//! The vigor character sheet (TOML, or the same schema as JSON) and its validation.
//!
//! The text gives no creation rules: no score ranges, no formula from a score to a number of
//! bonus dice, no maxima for Vigor, Durability or Health. So the sheet states those numbers
//! directly and validation checks what the text does fix: the shapes, that nothing counted is
//! negative, that current values sit within their maxima, the seven sizes, the five quality
//! ranks and the thirteen damage types.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::sheet::{Sheet as CoreSheet, SheetError};
use crate::state::{Combatant, Kind, Status};
use crate::toolkit::sheets::{self, Identity, SystemSheet};

use super::{
    ACTIONS, DEAD, DURABILITY, HEALTH, MANA, SHOCK, SHOCK_ROUNDS, UNCONSCIOUS, VIGOR, WINDED,
    WOUNDED,
};

/// Guard before armour and abilities.
pub const BASE_GUARD: i64 = 15;
/// Actions a creature begins with before talents.
pub const BASE_ACTIONS: i64 = 2;
/// Bounds that keep one sheet from making an event too large or a roll too long.
const MAX_DICE: i64 = 20;
const MAX_NUMBER: i64 = 10_000;

/// The seven size categories, smallest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    Tiny,
    Small,
    #[default]
    Medium,
    Large,
    Huge,
    Massive,
    Colossal,
}

impl Size {
    /// Its place in the order of sizes, so that two sizes subtract to a number of categories.
    pub fn rank(self) -> i64 {
        self as i64
    }
}

/// The quality ranks of weapons, armour and Durability, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    Feeble,
    #[default]
    Ordinary,
    Heroic,
    Epic,
    Legendary,
}

impl Quality {
    pub fn rank(self) -> i64 {
        self as i64
    }
    pub fn word(self) -> &'static str {
        match self {
            Quality::Feeble => "feeble",
            Quality::Ordinary => "ordinary",
            Quality::Heroic => "heroic",
            Quality::Epic => "epic",
            Quality::Legendary => "legendary",
        }
    }
}

/// The thirteen damage types of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    #[default]
    Kinetic,
    Thermal,
    Cold,
    Electrical,
    Radiation,
    Chemical,
    Sonic,
    Toxic,
    Umbral,
    Entropic,
    Crystal,
    Aetheric,
    Lucent,
}

impl DamageType {
    /// Normal armour stops physical harm only; of the thirteen, kinetic is the physical one.
    pub fn is_physical(self) -> bool {
        self == DamageType::Kinetic
    }
}

/// Which ability's bonus dice an attack rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AttackAbility {
    #[default]
    Agility,
    Soul,
    Speed,
}

/// Which bonus dice a hit adds to damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DamageBonus {
    /// Unarmed, melee weapons, pull bows.
    #[default]
    Strength,
    /// Crossbows, modern weapons, magic projectiles.
    Skill,
    None,
}

/// Bonus dice counts, entered directly since the text gives no formula from scores.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusDice {
    #[serde(default)]
    pub agility: i64,
    #[serde(default)]
    pub speed: i64,
    #[serde(default)]
    pub strength: i64,
    #[serde(default)]
    pub soul: i64,
    #[serde(default)]
    pub reason: i64,
    #[serde(default)]
    pub resolve: i64,
    #[serde(default)]
    pub stamina: i64,
    /// The "Skill bonus dice" crossbows, modern weapons and magic projectiles add to damage.
    #[serde(default)]
    pub skill: i64,
    /// From talents or skills: the text gives initiative no dice from scores.
    #[serde(default)]
    pub initiative: i64,
    /// General Resistance bonus, added to every Resistance check.
    #[serde(default)]
    pub resistance: i64,
}

/// Ability scores. Speed is feet per Move; Stamina drives recovery and the Shock countdown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Abilities {
    #[serde(default)]
    pub agility: i64,
    #[serde(default)]
    pub speed: i64,
    #[serde(default)]
    pub strength: i64,
    #[serde(default)]
    pub stamina: i64,
    #[serde(default)]
    pub soul: i64,
    #[serde(default)]
    pub reason: i64,
    #[serde(default)]
    pub resolve: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    pub name: String,
    /// Armor Rank: taken off each incoming hit.
    pub rank: i64,
    #[serde(default)]
    pub quality: Quality,
    /// Normal armour does not stop energy damage.
    #[serde(default = "yes")]
    pub physical_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub id: String,
    pub name: String,
    /// Damage value: the number of quality dice rolled.
    pub damage: i64,
    #[serde(default)]
    pub quality: Quality,
    #[serde(default)]
    pub attack_ability: AttackAbility,
    #[serde(default)]
    pub damage_bonus: DamageBonus,
    #[serde(default)]
    pub damage_type: DamageType,
    #[serde(default)]
    pub ranged: bool,
    /// Melee reach in feet; 6 unless a polearm or chain changes it.
    #[serde(default = "default_reach")]
    pub reach_ft: i64,
    /// Harms Health directly, past Durability (poisons and other special attacks).
    #[serde(default)]
    pub to_health: bool,
}

/// A technique, spell or talent the creature can activate. The text lists none, so its effect
/// is the GM's to rule; the server keeps its costs: actions (carried into later turns when
/// there are not enough), Vigor and Mana.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub id: String,
    pub name: String,
    #[serde(default = "one")]
    pub actions: i64,
    #[serde(default)]
    pub vigor: i64,
    #[serde(default)]
    pub mana: i64,
    /// Using it exposes the user: foes within reach may take the opening.
    #[serde(default)]
    pub opens: bool,
    /// An attacking technique strikes with this weapon (`unarmed` for bare hands).
    #[serde(default)]
    pub weapon: Option<String>,
    /// The ability its attack rolls bonus dice of (Speed for many techniques); the weapon's
    /// when left out.
    #[serde(default)]
    pub attack_ability: Option<AttackAbility>,
    /// A light-weapon technique, which an off-hand attack may ride on.
    #[serde(default)]
    pub light_weapon: bool,
}

fn one() -> i64 {
    1
}

/// Something carried that can be used in a fight: a potion, a detonator, a magic item. The
/// text gives no items, so what it does is the GM's to rule; the server counts the uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub id: String,
    pub name: String,
    #[serde(default = "one")]
    pub count: i64,
}

/// What a creature recovers each Recovery phase beyond Vigor, from special abilities.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recovery {
    #[serde(default)]
    pub durability: i64,
    #[serde(default)]
    pub mana: i64,
    #[serde(default)]
    pub health: i64,
}

/// A vigor character sheet.
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
    #[serde(default)]
    pub size: Size,
    #[serde(default)]
    pub abilities: Abilities,
    #[serde(default)]
    pub bonus_dice: BonusDice,
    /// Skill name to bonus dice, e.g. `medicine = 2`.
    #[serde(default)]
    pub skills: BTreeMap<String, i64>,
    #[serde(default = "base_actions")]
    pub actions: i64,
    /// Guard from armour and abilities, on top of the base 15.
    #[serde(default)]
    pub guard_bonus: i64,
    pub vigor_max: i64,
    #[serde(default)]
    pub vigor: Option<i64>,
    pub durability_max: i64,
    #[serde(default)]
    pub durability: Option<i64>,
    #[serde(default)]
    pub durability_rank: Quality,
    pub health_max: i64,
    #[serde(default)]
    pub health: Option<i64>,
    #[serde(default)]
    pub mana_max: i64,
    #[serde(default)]
    pub mana: Option<i64>,
    /// "Most creatures" recover Vigor each round; an NPC may not.
    #[serde(default = "yes")]
    pub recovers_vigor: bool,
    #[serde(default)]
    pub recovery: Recovery,
    #[serde(default)]
    pub martial_arts: bool,
    #[serde(default)]
    pub armour: Vec<Armour>,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    #[serde(default)]
    pub abilities_list: Vec<Ability>,
    #[serde(default)]
    pub items: Vec<Item>,
}

fn yes() -> bool {
    true
}
fn default_reach() -> i64 {
    6
}
fn base_actions() -> i64 {
    BASE_ACTIONS
}

impl Sheet {
    pub fn guard(&self) -> i64 {
        BASE_GUARD + self.guard_bonus
    }

    /// The weapon with `id`, or the bare hands every creature has: one feeble kinetic die.
    pub fn weapon(&self, id: Option<&str>) -> Option<Weapon> {
        match id {
            None | Some("unarmed") => Some(
                self.weapons
                    .iter()
                    .find(|w| w.id == "unarmed")
                    .cloned()
                    .unwrap_or_else(unarmed),
            ),
            Some(id) => self.weapons.iter().find(|w| w.id == id).cloned(),
        }
    }

    /// The armour that protects: the highest Armor Rank worn.
    pub fn best_armour(&self) -> Option<&Armour> {
        self.armour.iter().max_by_key(|a| a.rank)
    }

    /// Bonus dice of a skill (0 for one the sheet does not have).
    pub fn skill(&self, name: &str) -> i64 {
        self.skills.get(name).copied().unwrap_or(0)
    }

    pub fn attack_dice(&self, ability: AttackAbility) -> i64 {
        match ability {
            AttackAbility::Agility => self.bonus_dice.agility,
            AttackAbility::Soul => self.bonus_dice.soul,
            AttackAbility::Speed => self.bonus_dice.speed,
        }
    }

    pub fn damage_dice(&self, bonus: DamageBonus) -> i64 {
        match bonus {
            DamageBonus::Strength => self.bonus_dice.strength,
            DamageBonus::Skill => self.bonus_dice.skill,
            DamageBonus::None => 0,
        }
    }

    pub fn validate(&self) -> Result<(), SheetError> {
        for (field, text, max) in [("id", &self.id, 40), ("name", &self.name, 80)] {
            if text.trim().is_empty() || text.chars().count() > max {
                return Err(SheetError::invalid(
                    field,
                    format!("must be 1 to {max} characters"),
                ));
            }
        }
        if self.weapons.len() > 50 || self.armour.len() > 20 || self.skills.len() > 100 {
            return Err(SheetError::invalid(
                "weapons",
                "a sheet has at most 50 weapons, 20 pieces of armour and 100 skills",
            ));
        }
        let b = &self.bonus_dice;
        let dice = [
            ("bonus_dice.agility", b.agility),
            ("bonus_dice.speed", b.speed),
            ("bonus_dice.strength", b.strength),
            ("bonus_dice.soul", b.soul),
            ("bonus_dice.reason", b.reason),
            ("bonus_dice.resolve", b.resolve),
            ("bonus_dice.stamina", b.stamina),
            ("bonus_dice.skill", b.skill),
            ("bonus_dice.initiative", b.initiative),
            ("bonus_dice.resistance", b.resistance),
        ];
        for (field, n) in dice {
            in_range(field, n, 0, MAX_DICE, "a count of bonus dice")?;
        }
        for (name, n) in &self.skills {
            in_range(
                &format!("skills.{name}"),
                *n,
                0,
                MAX_DICE,
                "a count of bonus dice",
            )?;
        }
        let a = &self.abilities;
        for (field, n) in [
            ("abilities.agility", a.agility),
            ("abilities.speed", a.speed),
            ("abilities.strength", a.strength),
            ("abilities.stamina", a.stamina),
            ("abilities.soul", a.soul),
            ("abilities.reason", a.reason),
            ("abilities.resolve", a.resolve),
        ] {
            in_range(field, n, 0, MAX_NUMBER, "an ability score, never negative")?;
        }
        in_range(
            "actions",
            self.actions,
            1,
            10,
            "actions a turn: 2 to begin with, more from talents",
        )?;
        in_range(
            "guard_bonus",
            self.guard_bonus,
            0,
            100,
            "Guard from armour and abilities",
        )?;
        for (max_field, max, cur_field, cur) in [
            ("vigor_max", self.vigor_max, "vigor", self.vigor),
            (
                "durability_max",
                self.durability_max,
                "durability",
                self.durability,
            ),
            ("health_max", self.health_max, "health", self.health),
            ("mana_max", self.mana_max, "mana", self.mana),
        ] {
            in_range(max_field, max, 0, MAX_NUMBER, "a maximum, never negative")?;
            if let Some(cur) = cur {
                in_range(
                    cur_field,
                    cur,
                    0,
                    max,
                    &format!("between 0 and {max_field}"),
                )?;
            }
        }
        let r = &self.recovery;
        for (field, n) in [
            ("recovery.durability", r.durability),
            ("recovery.mana", r.mana),
            ("recovery.health", r.health),
        ] {
            in_range(
                field,
                n,
                0,
                MAX_NUMBER,
                "recovered each round by a special ability",
            )?;
        }
        for (i, a) in self.armour.iter().enumerate() {
            in_range(
                &format!("armour[{i}].rank"),
                a.rank,
                0,
                100,
                "an Armor Rank",
            )?;
        }
        for (i, w) in self.weapons.iter().enumerate() {
            if w.id.trim().is_empty() || w.id.chars().count() > 40 || w.name.chars().count() > 80 {
                return Err(SheetError::invalid(
                    format!("weapons[{i}].id"),
                    "must be 1 to 40 characters (name at most 80)",
                ));
            }
            if self.weapons[..i].iter().any(|o| o.id == w.id) {
                return Err(SheetError::invalid(
                    format!("weapons[{i}].id"),
                    "must be unique on the sheet",
                ));
            }
            in_range(
                &format!("weapons[{i}].damage"),
                w.damage,
                1,
                MAX_DICE,
                "a damage value: the number of quality dice",
            )?;
            in_range(
                &format!("weapons[{i}].reach_ft"),
                w.reach_ft,
                1,
                1000,
                "reach in feet",
            )?;
        }
        if self.items.len() > 50 {
            return Err(SheetError::invalid("items", "a sheet has at most 50 items"));
        }
        for (i, it) in self.items.iter().enumerate() {
            if it.id.trim().is_empty() || it.id.chars().count() > 40 || it.name.chars().count() > 80
            {
                return Err(SheetError::invalid(
                    format!("items[{i}].id"),
                    "must be 1 to 40 characters (name at most 80)",
                ));
            }
            in_range(
                &format!("items[{i}].count"),
                it.count,
                0,
                1000,
                "how many are carried",
            )?;
        }
        if self.abilities_list.len() > 50 {
            return Err(SheetError::invalid(
                "abilities_list",
                "a sheet has at most 50 abilities",
            ));
        }
        for (i, a) in self.abilities_list.iter().enumerate() {
            if a.id.trim().is_empty() || a.id.chars().count() > 40 || a.name.chars().count() > 80 {
                return Err(SheetError::invalid(
                    format!("abilities_list[{i}].id"),
                    "must be 1 to 40 characters (name at most 80)",
                ));
            }
            in_range(
                &format!("abilities_list[{i}].actions"),
                a.actions,
                1,
                20,
                "actions it takes",
            )?;
            in_range(
                &format!("abilities_list[{i}].vigor"),
                a.vigor,
                0,
                MAX_NUMBER,
                "Vigor it costs",
            )?;
            in_range(
                &format!("abilities_list[{i}].mana"),
                a.mana,
                0,
                MAX_NUMBER,
                "Mana it costs",
            )?;
            if let Some(w) = &a.weapon
                && w != "unarmed"
                && !self.weapons.iter().any(|x| &x.id == w)
            {
                return Err(SheetError::invalid(
                    format!("abilities_list[{i}].weapon"),
                    "must be a weapon id on the sheet or `unarmed`",
                ));
            }
        }
        Ok(())
    }

    pub fn into_combatant(self) -> Result<Combatant, SheetError> {
        let vigor = self.vigor.unwrap_or(self.vigor_max);
        let durability = self.durability.unwrap_or(self.durability_max);
        let health = self.health.unwrap_or(self.health_max);
        let resources = BTreeMap::from([
            (VIGOR.to_owned(), vigor),
            (DURABILITY.to_owned(), durability),
            (HEALTH.to_owned(), health),
            (MANA.to_owned(), self.mana.unwrap_or(self.mana_max)),
            (ACTIONS.to_owned(), 0),
        ]);
        let mut resources = resources;
        for it in &self.items {
            resources.insert(item_key(&it.id), it.count);
        }
        let mut statuses = BTreeMap::new();
        let from_sheet = |rounds_left| Status {
            source: "sheet".into(),
            magnitude: 0,
            rounds_left,
        };
        // A creature is written down as it stands: the conditions its numbers imply come with it.
        if durability == 0 && self.kind != Kind::Object {
            statuses.insert(WOUNDED.to_owned(), from_sheet(None));
        }
        if vigor == 0 && self.kind != Kind::Object {
            statuses.insert(WINDED.to_owned(), from_sheet(None));
        }
        if self.kind == Kind::Object && durability == 0 {
            statuses.insert(DEAD.to_owned(), from_sheet(None));
        } else if health == 0 && self.kind != Kind::Object {
            resources.insert(SHOCK_ROUNDS.to_owned(), self.abilities.stamina.max(0));
            statuses.insert(SHOCK.to_owned(), from_sheet(None));
            statuses.insert(UNCONSCIOUS.to_owned(), from_sheet(None));
        }
        let who = Identity {
            id: self.id.clone(),
            name: self.name.clone(),
            kind: self.kind,
            owner: self.owner.clone(),
            side: self.side.clone(),
        };
        Ok(who.arrive(CoreSheet::new(super::ID, self)?, resources, statuses))
    }
}

/// The resource that counts what is left of an item.
pub fn item_key(id: &str) -> String {
    format!("item.{id}")
}

fn unarmed() -> Weapon {
    Weapon {
        id: "unarmed".into(),
        name: "bare hands".into(),
        damage: 1,
        quality: Quality::Feeble,
        attack_ability: AttackAbility::Agility,
        damage_bonus: DamageBonus::Strength,
        damage_type: DamageType::Kinetic,
        ranged: false,
        reach_ft: 6,
        to_health: false,
    }
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
