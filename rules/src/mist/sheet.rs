//! The mist character sheet (TOML, or the same schema as JSON) and its validation.
//!
//! The text has no creation chapter and no equipment chapter: it gives no ranges for
//! attributes or skills and no weapon list. So the sheet states the numbers directly and
//! validation checks what the text does fix: the shapes, that nothing counted is negative,
//! that Life sits within its maximum, the weapon dice the division table knows, that guns roll
//! 2D10 take higher and that bare hands deal D10/3 (brass knuckles D10/2).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::sheet::{Sheet as CoreSheet, SheetError};
use crate::state::{Combatant, Kind, Status};
use crate::toolkit::sheets::{self, Identity, SystemSheet};

use super::{ACTION, FATIGUE, LIFE, UNCONSCIOUS};

/// Bounds that keep one sheet from making an event too large or a sum absurd. The text's
/// numbers are single digits; these are far above them and only stop nonsense.
const MAX_SCORE: i64 = 100;
const MAX_LIFE: i64 = 10_000;
const MAX_WEAPONS: usize = 20;

/// Skills, 0 when not written (the text shows Speed 0 and Brawl 0 as real values).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skills {
    #[serde(default)]
    pub speed: i64,
    #[serde(default)]
    pub dodge: i64,
    #[serde(default)]
    pub pain_resistance: i64,
    #[serde(default)]
    pub medicine: i64,
    #[serde(default)]
    pub survival: i64,
    #[serde(default)]
    pub perception: i64,
    #[serde(default)]
    pub stealth: i64,
    #[serde(default)]
    pub athletics: i64,
    #[serde(default)]
    pub brawl: i64,
    #[serde(default)]
    pub craft: i64,
}

impl Skills {
    fn all(&self) -> [(&'static str, i64); 10] {
        [
            ("speed", self.speed),
            ("dodge", self.dodge),
            ("pain_resistance", self.pain_resistance),
            ("medicine", self.medicine),
            ("survival", self.survival),
            ("perception", self.perception),
            ("stealth", self.stealth),
            ("athletics", self.athletics),
            ("brawl", self.brawl),
            ("craft", self.craft),
        ]
    }
}

/// How a weapon is used: which attribute aims it and which adds to its damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    #[default]
    Melee,
    Ranged,
    /// Aimed with Senses like a ranged weapon, but its damage adds Body.
    Thrown,
    /// A black-powder gun: ranged, 2D10 take higher, jams on doubles.
    Gun,
    /// Fists or brass knuckles: Body, with Brawl added to hit.
    Unarmed,
}

impl WeaponKind {
    /// Whether the attack check adds Senses (ranged, thrown, guns) rather than Body.
    pub fn aims_with_senses(self) -> bool {
        matches!(
            self,
            WeaponKind::Ranged | WeaponKind::Thrown | WeaponKind::Gun
        )
    }
    /// Whether damage adds Senses (ranged weapons and guns); melee and thrown add Body.
    pub fn hits_with_senses(self) -> bool {
        matches!(self, WeaponKind::Ranged | WeaponKind::Gun)
    }
    /// Whether the weapon counts as ranged for the ranged modifier table and dodging.
    pub fn is_ranged(self) -> bool {
        self.aims_with_senses()
    }
}

/// The weapon die: a plain d10, a divided d10 read in the division table, or two d10 of which
/// the higher counts (the Deadly property).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum DamageDie {
    #[default]
    #[serde(rename = "d10")]
    D10,
    #[serde(rename = "d10/2")]
    Half,
    #[serde(rename = "d10/3")]
    Third,
    #[serde(rename = "d10/4")]
    Quarter,
    #[serde(rename = "2d10h")]
    Deadly,
}

impl DamageDie {
    /// The dice notation the core rolls.
    pub fn notation(self) -> &'static str {
        match self {
            DamageDie::D10 => "1d10",
            DamageDie::Half => "1d10/2",
            DamageDie::Third => "1d10/3",
            DamageDie::Quarter => "1d10/4",
            DamageDie::Deadly => "2d10kh1",
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            DamageDie::D10 => "D10",
            DamageDie::Half => "D10/2",
            DamageDie::Third => "D10/3",
            DamageDie::Quarter => "D10/4",
            DamageDie::Deadly => "2D10 take higher",
        }
    }
    pub fn is_divided(self) -> bool {
        matches!(
            self,
            DamageDie::Half | DamageDie::Third | DamageDie::Quarter
        )
    }
}

/// The properties the text names. Their magnitudes, where they have one, are on the weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    /// Made to be thrown: +2 to hit when thrown.
    Thrown,
    /// Not made to be thrown (an improvised missile): -4 to hit.
    Missing,
    Penetrating,
    Defensive,
    Stunning,
    Immobilizing,
}

/// Which powder a gun is loaded with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Powder {
    #[default]
    Regular,
    Hazeblast,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub kind: WeaponKind,
    #[serde(default)]
    pub damage: DamageDie,
    #[serde(default)]
    pub attack_bonus: i64,
    #[serde(default)]
    pub damage_bonus: i64,
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// The Stunning property's bonus, added after a stun attack's doubling.
    #[serde(default)]
    pub stunning: i64,
    /// The Immobilizing property's bonus to the Athletics check of a hold.
    #[serde(default)]
    pub immobilizing: i64,
    /// Guns: the three reload times, in rounds (0 is an immediate action), from the untrained
    /// hand to the practised one.
    #[serde(default)]
    pub reload: Vec<i64>,
    /// Guns: which of the three reload times this character has reached (1 the first, 3 the
    /// last), as the Gunslinger developments lower it.
    #[serde(default = "one")]
    pub reload_tier: i64,
    #[serde(default)]
    pub powder: Powder,
}

impl Weapon {
    /// Rounds this gun takes to reload at the sheet's tier (0: an immediate action); 0 for
    /// anything that is not a gun.
    pub fn reload_time(&self) -> i64 {
        usize::try_from(self.reload_tier - 1)
            .ok()
            .and_then(|i| self.reload.get(i))
            .copied()
            .unwrap_or(0)
    }

    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The group the combatant acts with: `players` for PCs unless written otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default)]
    pub body: i64,
    #[serde(default)]
    pub senses: i64,
    #[serde(default)]
    pub science: i64,
    #[serde(default)]
    pub willpower: i64,
    #[serde(default)]
    pub evade: i64,
    #[serde(default)]
    pub toughness: i64,
    #[serde(default)]
    pub skills: Skills,
    pub life_max: i64,
    /// Current Life; the maximum when not written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life: Option<i64>,
    #[serde(default)]
    pub fatigue: i64,
    /// Actions a round; one until developments give more.
    #[serde(default = "one")]
    pub actions: i64,
    /// Wearing armour: bare hands deal half damage against it.
    #[serde(default)]
    pub armoured: bool,
    /// A bonus to every attack check from abilities.
    #[serde(default)]
    pub attack_bonus: i64,
    /// A bonus to every damage roll from abilities (Markus's +1).
    #[serde(default)]
    pub damage_bonus: i64,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
}

fn one() -> i64 {
    1
}

fn in_range(field: &str, n: i64, min: i64, max: i64, rule: &str) -> Result<(), SheetError> {
    if (min..=max).contains(&n) {
        Ok(())
    } else {
        Err(SheetError::invalid(
            field,
            format!("must be {min} to {max} ({rule}), got {n}"),
        ))
    }
}

impl Sheet {
    /// The weapon `id`, or bare hands (D10/3) when none is named or the sheet has none.
    pub fn weapon(&self, id: Option<&str>) -> Option<Weapon> {
        match id {
            Some(id) if id != "fists" => self.weapons.iter().find(|w| w.id == id).cloned(),
            _ => Some(fists()),
        }
    }

    pub fn validate(&self) -> Result<(), SheetError> {
        if self.id.trim().is_empty() {
            return Err(SheetError::invalid("id", "must not be empty"));
        }
        if self.kind == Kind::Pc && self.owner.is_none() {
            return Err(SheetError::invalid(
                "owner",
                "a player character names the seat that plays it",
            ));
        }
        let counted = "the text has no negative attribute or skill";
        for (field, n) in [
            ("body", self.body),
            ("senses", self.senses),
            ("science", self.science),
            ("willpower", self.willpower),
            ("evade", self.evade),
            ("toughness", self.toughness),
            ("fatigue", self.fatigue),
        ] {
            in_range(field, n, 0, MAX_SCORE, counted)?;
        }
        for (skill, n) in self.skills.all() {
            in_range(&format!("skills.{skill}"), n, 0, MAX_SCORE, counted)?;
        }
        in_range(
            "actions",
            self.actions,
            1,
            10,
            "everyone has one action a round, developments add more",
        )?;
        in_range(
            "attack_bonus",
            self.attack_bonus,
            -MAX_SCORE,
            MAX_SCORE,
            "a bounded bonus",
        )?;
        in_range(
            "damage_bonus",
            self.damage_bonus,
            -MAX_SCORE,
            MAX_SCORE,
            "a bounded bonus",
        )?;
        in_range(
            "life_max",
            self.life_max,
            1,
            MAX_LIFE,
            "a creature has Life to lose",
        )?;
        if let Some(life) = self.life {
            // Below 0 only until the consciousness check; a sheet is written after it, at
            // most as far below 0 as a death blow would reach.
            in_range(
                "life",
                life,
                -self.life_max,
                self.life_max,
                "Life is at most its maximum",
            )?;
        }
        if self.weapons.len() > MAX_WEAPONS {
            return Err(SheetError::invalid(
                "weapons",
                "a sheet has at most 20 weapons",
            ));
        }
        let mut seen = Vec::new();
        for (i, w) in self.weapons.iter().enumerate() {
            let at = |f: &str| format!("weapons[{i}].{f}");
            if w.id.trim().is_empty() || w.id == "fists" {
                return Err(SheetError::invalid(
                    at("id"),
                    "must be non-empty and not `fists` (bare hands are always there)",
                ));
            }
            if seen.contains(&&w.id) {
                return Err(SheetError::invalid(at("id"), "weapon ids are unique"));
            }
            seen.push(&w.id);
            for (f, n) in [
                ("attack_bonus", w.attack_bonus),
                ("damage_bonus", w.damage_bonus),
            ] {
                in_range(&at(f), n, -MAX_SCORE, MAX_SCORE, "a bounded bonus")?;
            }
            for (f, n) in [("stunning", w.stunning), ("immobilizing", w.immobilizing)] {
                in_range(&at(f), n, 0, MAX_SCORE, "a property's bonus")?;
            }
            if w.kind == WeaponKind::Gun && w.damage != DamageDie::Deadly {
                return Err(SheetError::invalid(
                    at("damage"),
                    "guns deal 2D10 take higher (`2d10h`)",
                ));
            }
            if w.kind == WeaponKind::Unarmed
                && !matches!(w.damage, DamageDie::Third | DamageDie::Half)
            {
                return Err(SheetError::invalid(
                    at("damage"),
                    "fists deal D10/3 and brass knuckles D10/2",
                ));
            }
            if w.kind == WeaponKind::Gun {
                if w.reload.len() != 3 {
                    return Err(SheetError::invalid(
                        at("reload"),
                        "a gun lists three reload times",
                    ));
                }
                for (k, r) in w.reload.iter().enumerate() {
                    in_range(&at(&format!("reload[{k}]")), *r, 0, 20, "rounds to reload")?;
                }
                in_range(
                    &at("reload_tier"),
                    w.reload_tier,
                    1,
                    3,
                    "one of the gun's three reload times",
                )?;
            } else if !w.reload.is_empty() || w.powder != Powder::Regular || w.reload_tier != 1 {
                return Err(SheetError::invalid(
                    at("reload"),
                    "only guns reload and take powder",
                ));
            }
            if w.has(Trait::Thrown) && w.has(Trait::Missing) {
                return Err(SheetError::invalid(
                    at("traits"),
                    "a weapon is made to be thrown (Thrown) or not (Missing), not both",
                ));
            }
        }
        Ok(())
    }

    pub fn into_combatant(self) -> Result<Combatant, SheetError> {
        let life = self.life.unwrap_or(self.life_max);
        let resources = BTreeMap::from([
            (LIFE.to_owned(), life),
            (FATIGUE.to_owned(), self.fatigue),
            (ACTION.to_owned(), 0),
        ]);
        let mut statuses = BTreeMap::new();
        // A creature written below 0 Life has failed its check already: it comes unconscious.
        if life < 0 && self.kind != Kind::Object {
            statuses.insert(
                UNCONSCIOUS.to_owned(),
                Status {
                    source: "sheet".into(),
                    magnitude: 5 - life,
                    rounds_left: None,
                },
            );
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

/// Bare hands: D10/3, Body, with Brawl to hit.
pub fn fists() -> Weapon {
    Weapon {
        id: "fists".into(),
        name: "fists".into(),
        kind: WeaponKind::Unarmed,
        damage: DamageDie::Third,
        attack_bonus: 0,
        damage_bonus: 0,
        traits: Vec::new(),
        stunning: 0,
        immobilizing: 0,
        reload: Vec::new(),
        reload_tier: 1,
        powder: Powder::Regular,
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
