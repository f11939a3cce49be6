//! GRIMWIRE's character sheet: the TOML (or JSON) schema documented in `docs/SHEETS.md`, and
//! its validation. The text has no creation rules, so validation checks what it does state:
//! attributes at most 10, level matching XP, active techniques within half max Focus, and the
//! shape of gear.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::dice::{DiceExpr, DieKind, TermKind};
use crate::grimwire::content::tables;
use crate::sheet::{Sheet as CoreSheet, SheetError};
use crate::state::{Combatant, Kind, Status};
use crate::toolkit::sheets::{self, Identity, SystemSheet};

/// The six attributes the text defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Attribute {
    TOG,
    AGL,
    COR,
    MND,
    PER,
    RSN,
}

impl Attribute {
    pub const ALL: [Attribute; 6] = [
        Attribute::TOG,
        Attribute::AGL,
        Attribute::COR,
        Attribute::MND,
        Attribute::PER,
        Attribute::RSN,
    ];
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl FromStr for Attribute {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Attribute::ALL
            .into_iter()
            .find(|a| a.to_string().eq_ignore_ascii_case(s))
            .ok_or(())
    }
}

/// The eleven damage types, grouped as the text groups them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    Bullets,
    Edged,
    Blunt,
    Explosions,
    Heat,
    Cold,
    Electricity,
    Radiation,
    Chemical,
    Biological,
    Supernatural,
}

impl DamageType {
    pub const PHYSICAL: [DamageType; 4] = [
        DamageType::Bullets,
        DamageType::Edged,
        DamageType::Blunt,
        DamageType::Explosions,
    ];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponClass {
    Light,
    Heavy,
    Ranged,
    Thrown,
    Unarmed,
    Supernatural,
}

impl WeaponClass {
    /// Melee and thrown attacks add TOG to damage; ranged and supernatural ones do not.
    pub fn adds_tog(self) -> bool {
        matches!(
            self,
            WeaponClass::Light | WeaponClass::Heavy | WeaponClass::Thrown | WeaponClass::Unarmed
        )
    }
    /// Light weapons (unarmed included) get several attacks per turn by COR.
    pub fn is_light(self) -> bool {
        matches!(self, WeaponClass::Light | WeaponClass::Unarmed)
    }
    pub fn is_melee(self) -> bool {
        matches!(
            self,
            WeaponClass::Light | WeaponClass::Heavy | WeaponClass::Unarmed
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub id: String,
    pub name: String,
    pub class: WeaponClass,
    /// Damage dice, e.g. `2d6`. Unarmed attacks have none: their damage is TOG.
    #[serde(default)]
    pub damage: Option<String>,
    #[serde(default = "default_damage_type")]
    pub damage_type: DamageType,
    /// TOG needed to wield it without a TOG roll; light weapons have none.
    #[serde(default)]
    pub tog_req: i64,
    /// Range in metres for ranged weapons (beyond it the attack takes -5 or -10) and thrown
    /// weapons (9 m when absent).
    #[serde(default)]
    pub range_m: Option<i64>,
    /// What raising it adds to a failed AGL evasion (a shield, a large weapon); 0: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shielding: i64,
    /// Sides of the die rolled when it takes a blow for its bearer (d20 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instability: Option<u32>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

fn default_damage_type() -> DamageType {
    DamageType::Blunt
}

impl Weapon {
    pub fn validate(&self, field: &str) -> Result<(), SheetError> {
        if self.id.trim().is_empty() {
            return Err(SheetError::invalid(
                format!("{field}.id"),
                "must not be empty",
            ));
        }
        match (&self.damage, self.class) {
            (None, WeaponClass::Unarmed) => {}
            (None, _) => {
                return Err(SheetError::invalid(
                    format!("{field}.damage"),
                    "is required (e.g. \"1d6\") for every weapon except unarmed",
                ));
            }
            (Some(d), _) => {
                let expr = DiceExpr::parse(d)
                    .map_err(|e| SheetError::invalid(format!("{field}.damage"), e.to_string()))?;
                let simple = expr.terms.iter().all(|t| match &t.kind {
                    TermKind::Flat(_) => true,
                    TermKind::Dice(dt) => {
                        dt.keep.is_none() && !dt.burst && matches!(dt.die, DieKind::Plain(_))
                    }
                });
                if !simple {
                    return Err(SheetError::invalid(
                        format!("{field}.damage"),
                        "GRIMWIRE uses plain dice sums only (no keep, burst, stepped or divided dice)",
                    ));
                }
            }
        }
        if !(0..=20).contains(&self.shielding) {
            return Err(SheetError::invalid(
                format!("{field}.shielding"),
                "must be 0 to 20",
            ));
        }
        if self.instability.is_some_and(|d| !(4..=100).contains(&d)) {
            return Err(SheetError::invalid(
                format!("{field}.instability"),
                "must be the sides of a die, 4 to 100",
            ));
        }
        if self.class.is_light() && self.tog_req != 0 {
            return Err(SheetError::invalid(
                format!("{field}.tog_req"),
                "light weapons have no TOG requirement",
            ));
        }
        if !(0..=10).contains(&self.tog_req) {
            return Err(SheetError::invalid(
                format!("{field}.tog_req"),
                "must be 0..=10 (attributes stop at 10)",
            ));
        }
        match (self.class, self.range_m) {
            (WeaponClass::Ranged, None) => {
                return Err(SheetError::invalid(
                    format!("{field}.range_m"),
                    "ranged weapons need a range in metres",
                ));
            }
            (_, Some(r)) if r < 1 => {
                return Err(SheetError::invalid(
                    format!("{field}.range_m"),
                    "must be at least 1 m",
                ));
            }
            _ => {}
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    pub value: i64,
    /// Damage types it reduces; physical ones when absent.
    #[serde(default = "physical")]
    pub types: Vec<DamageType>,
    #[serde(default)]
    pub tog_req: i64,
}

fn physical() -> Vec<DamageType> {
    DamageType::PHYSICAL.to_vec()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    Action,
    Reaction,
    AuxReaction,
    Free,
    Passive,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Technique {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub focus_cost: i64,
    pub timing: Timing,
    /// Counted against the active limit of floor(max Focus / 2).
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

/// The target numbers the GM keeps for an NPC (the text has NPCs' numbers set by the GM; the
/// sheet records them so the server can use them without asking each time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NpcNumbers {
    /// What an attacker's COR roll must reach to hit this NPC.
    pub defence_tn: i64,
    /// What an attacker's roll must reach with a supernatural attack; `defence_tn` if absent.
    #[serde(default)]
    pub supernatural_defence_tn: Option<i64>,
    /// What a PC's evade roll must reach when this NPC attacks.
    pub attack_tn: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    #[default]
    Biological,
    Mechanical,
}

/// A GRIMWIRE sheet as written in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    #[serde(default)]
    pub body: Body,
    /// Allegiance; `players` for PCs and `enemies` for NPCs when absent.
    #[serde(default)]
    pub side: Option<String>,
    /// The seat that plays it (PCs); set by the server when a player adds the sheet.
    #[serde(default)]
    pub owner: Option<String>,
    pub level: i64,
    #[serde(default)]
    pub xp: i64,
    pub attributes: BTreeMap<String, i64>,
    pub condition_max: i64,
    #[serde(default)]
    pub condition: Option<i64>,
    pub focus_max: i64,
    #[serde(default)]
    pub focus: Option<i64>,
    #[serde(default)]
    pub burnout: i64,
    /// Base movement per turn in metres before AGL; the table's default when absent.
    #[serde(default)]
    pub move_base_m: Option<i64>,
    #[serde(default)]
    pub armour: Option<Armour>,
    #[serde(default)]
    pub weak: Vec<DamageType>,
    #[serde(default)]
    pub resist: Vec<DamageType>,
    #[serde(default)]
    pub immune: Vec<DamageType>,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    #[serde(default)]
    pub techniques: Vec<Technique>,
    #[serde(default)]
    pub npc: Option<NpcNumbers>,
}

/// The lowest attribute value accepted. The text allows negatives but gives no floor; -10
/// mirrors the maximum of 10 and catches typos such as -40.
pub const ATTRIBUTE_MIN: i64 = -10;
pub const ATTRIBUTE_MAX: i64 = 10;

/// The largest maximum Condition or Focus a sheet may give. Far above any character of the
/// levels table (+5 at most per level), and small enough that no rule's arithmetic on it
/// can overflow.
pub const RESOURCE_MAX: i64 = 10_000;

impl Sheet {
    pub fn attribute(&self, a: Attribute) -> i64 {
        self.attributes.get(&a.to_string()).copied().unwrap_or(0)
    }

    pub fn weapon(&self, id: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.id == id)
    }

    pub fn technique(&self, id: &str) -> Option<&Technique> {
        self.techniques.iter().find(|t| t.id == id)
    }

    /// Checks every rule the text states about a sheet. The error names the field.
    pub fn validate(&self) -> Result<(), SheetError> {
        // Ids and names travel in every event about the character: keep them short, and the
        // lists bounded, so no sheet makes an event too large to send.
        for (field, text, max) in [("id", &self.id, 40), ("name", &self.name, 80)] {
            if text.chars().count() > max {
                return Err(SheetError::invalid(
                    field,
                    format!("must be at most {max} characters"),
                ));
            }
        }
        if self.weapons.len() > 50 || self.techniques.len() > 50 {
            return Err(SheetError::invalid(
                "weapons",
                "a sheet has at most 50 weapons and 50 techniques",
            ));
        }
        let names = self
            .weapons
            .iter()
            .map(|w| (&w.id, &w.name))
            .chain(self.techniques.iter().map(|t| (&t.id, &t.name)));
        for (id, name) in names {
            if id.chars().count() > 40 || name.chars().count() > 80 {
                return Err(SheetError::invalid(
                    "weapons",
                    format!(
                        "`{}`: ids have at most 40 characters and names 80",
                        id.chars().take(40).collect::<String>()
                    ),
                ));
            }
        }
        if self.id.trim().is_empty() || self.id.chars().any(char::is_whitespace) {
            return Err(SheetError::invalid(
                "id",
                "must be a non-empty name without spaces, e.g. goblin-1",
            ));
        }
        if self.kind == Kind::Object {
            return Err(SheetError::invalid("kind", "must be pc or npc"));
        }
        for key in self.attributes.keys() {
            if key.parse::<Attribute>().is_err() {
                return Err(SheetError::invalid(
                    format!("attributes.{key}"),
                    "is not a GRIMWIRE attribute; use TOG AGL COR MND PER RSN (INT, STR and SOC are table options mapping onto these)",
                ));
            }
        }
        for a in Attribute::ALL {
            let Some(v) = self.attributes.get(&a.to_string()) else {
                return Err(SheetError::invalid(
                    format!("attributes.{a}"),
                    "is missing; every sheet gives all six attributes",
                ));
            };
            if *v > ATTRIBUTE_MAX {
                return Err(SheetError::invalid(
                    format!("attributes.{a}"),
                    format!("is {v}, but 10 is the maximum for any attribute"),
                ));
            }
            if *v < ATTRIBUTE_MIN {
                return Err(SheetError::invalid(
                    format!("attributes.{a}"),
                    format!("is {v}, below the floor of {ATTRIBUTE_MIN}"),
                ));
            }
        }
        if !(1..=10).contains(&self.level) {
            return Err(SheetError::invalid("level", "must be 1..=10"));
        }
        if self.xp < 0 {
            return Err(SheetError::invalid("xp", "must be 0 or more"));
        }
        let earned = tables().level_for_xp(self.xp);
        if earned != self.level {
            return Err(SheetError::invalid(
                "level",
                format!("is {}, but {} XP makes level {earned}", self.level, self.xp),
            ));
        }
        if !(1..=RESOURCE_MAX).contains(&self.condition_max) {
            return Err(SheetError::invalid(
                "condition_max",
                format!("must be 1..={RESOURCE_MAX}"),
            ));
        }
        if !(0..=RESOURCE_MAX).contains(&self.focus_max) {
            return Err(SheetError::invalid(
                "focus_max",
                format!("must be 0..={RESOURCE_MAX}"),
            ));
        }
        if !(0..=4).contains(&self.burnout) {
            return Err(SheetError::invalid("burnout", "must be 0..=4"));
        }
        let cap = super::burnout_levels::condition_cap(self.condition_max, self.burnout);
        if let Some(c) = self.condition {
            if c > cap {
                return Err(SheetError::invalid(
                    "condition",
                    format!(
                        "is {c}, above the maximum of {cap} at burnout {}",
                        self.burnout
                    ),
                ));
            }
            if c < super::DEAD_BELOW {
                return Err(SheetError::invalid(
                    "condition",
                    format!("is {c}: below {} the character is dead", super::DEAD_BELOW),
                ));
            }
        }
        if let Some(f) = self.focus
            && !(-RESOURCE_MAX..=self.focus_max).contains(&f)
        {
            return Err(SheetError::invalid(
                "focus",
                format!("is {f}, above focus_max {}", self.focus_max),
            ));
        }
        if let Some(m) = self.move_base_m
            && !(0..=100).contains(&m)
        {
            return Err(SheetError::invalid("move_base_m", "must be 0..=100 metres"));
        }
        if let Some(a) = &self.armour
            && !(0..=100).contains(&a.value)
        {
            return Err(SheetError::invalid("armour.value", "must be 0..=100"));
        }
        let mut seen = BTreeSet::new();
        for (list, name) in [
            (&self.weak, "weak"),
            (&self.resist, "resist"),
            (&self.immune, "immune"),
        ] {
            for t in list {
                if !seen.insert(*t) {
                    return Err(SheetError::invalid(
                        name,
                        format!(
                            "{t:?} appears in more than one of weak, resist, immune (or twice)"
                        )
                        .to_lowercase(),
                    ));
                }
            }
        }
        let mut ids = BTreeSet::new();
        for (i, w) in self.weapons.iter().enumerate() {
            w.validate(&format!("weapons[{i}]"))?;
            if !ids.insert(w.id.as_str()) {
                return Err(SheetError::invalid(
                    format!("weapons[{i}].id"),
                    format!("`{}` is used twice", w.id),
                ));
            }
        }
        let active = self.techniques.iter().filter(|t| t.active).count();
        let limit = self.focus_max / 2;
        if i64::try_from(active).unwrap_or(i64::MAX) > limit {
            return Err(SheetError::invalid(
                "techniques",
                format!(
                    "{active} active techniques, but max Focus {} allows floor({}/2) = {limit}",
                    self.focus_max, self.focus_max
                ),
            ));
        }
        for (i, t) in self.techniques.iter().enumerate() {
            if t.focus_cost < 0 {
                return Err(SheetError::invalid(
                    format!("techniques[{i}].focus_cost"),
                    "must be 0 or more",
                ));
            }
        }
        match (self.kind, &self.npc) {
            (Kind::Npc, None) => {
                return Err(SheetError::invalid(
                    "npc",
                    "NPC sheets need [npc] with defence_tn and attack_tn",
                ));
            }
            (Kind::Pc, Some(_)) => {
                return Err(SheetError::invalid(
                    "npc",
                    "only NPC sheets have target numbers",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// The combatant this sheet puts on the table, at full (or the given) Condition and Focus.
    /// A sheet written at 0 Condition or less, or at burnout 4, puts a dying character on the
    /// table, exactly as if play had brought them there.
    pub fn into_combatant(self) -> Result<Combatant, SheetError> {
        let mut resources = BTreeMap::new();
        let cap = super::burnout_levels::condition_cap(self.condition_max, self.burnout);
        let mut condition = self.condition.unwrap_or(cap);
        if self.burnout >= 4 {
            condition = condition.min(0);
        }
        resources.insert(super::CONDITION.to_owned(), condition);
        let mut statuses = BTreeMap::new();
        if condition <= 0 {
            let status = Status {
                source: "sheet: Condition at 0 or below".into(),
                magnitude: 0,
                rounds_left: None,
            };
            statuses.insert(super::DYING.to_owned(), status.clone());
            statuses.insert(super::OUT_COLD.to_owned(), status);
        }
        resources.insert(
            super::FOCUS.to_owned(),
            self.focus.unwrap_or(self.focus_max),
        );
        resources.insert(super::BURNOUT.to_owned(), self.burnout);
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

pub fn from_toml(text: &str) -> Result<Combatant, SheetError> {
    sheets::from_toml::<Sheet>(text)
}

pub fn from_json(value: &serde_json::Value) -> Result<Combatant, SheetError> {
    sheets::from_json::<Sheet>(value)
}

/// Hours of learning a technique of `effort` takes for a character whose governing attribute
/// is `attribute`: each hour is worth the attribute's value in effort (COR 3, effort 15: 5 hours).
/// Attributes below 1 count as 1.
pub fn learning_hours(effort: i64, attribute: i64) -> i64 {
    let per_hour = attribute.max(1);
    (effort + per_hour - 1) / per_hour
}

impl SystemSheet for Sheet {
    fn validate(&self) -> Result<(), SheetError> {
        Sheet::validate(self)
    }

    fn into_combatant(self) -> Result<Combatant, SheetError> {
        Sheet::into_combatant(self)
    }
}
