//! The Tiny d10 sheet (TOML, or the same schema as JSON), checked against the creation and
//! levelling rules, and the numbers the rules play with ([`Stats`]) derived from it.
//!
//! A player's character is written as its choices, not its totals: the race, the class, how
//! the 3 attribute points and the 10 HP/PP points were split, the magic point roll, what each
//! level from 2 on was spent on, and the lists (skills, abilities, spells, equipment) the
//! choices fill. The totals (attributes, HP, PP, MP, toughness, spell save) are derived, so
//! they cannot disagree with the choices; every list is checked against what the choices
//! allow. A monster or NPC has no creation rules in the text: its sheet states its numbers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::sheet::{Sheet as CoreSheet, SheetError};
use crate::state::{Combatant, Kind};
use crate::toolkit::sheets::{self, Identity, SystemSheet};

use super::content::{Attribute, Content, SpellKind, WeaponKind, Weight, content};
use super::dice::Amount;
use super::{HP, MP, PP, TEMP_HP};

/// The attribute points of creation, and the hit and power points.
pub const ATTRIBUTE_POINTS: i64 = 3;
pub const HP_PP_POINTS: i64 = 10;
/// Speeds in feet a round: the top of each band of the movement table, and the Fast ability.
pub const SLOW_FT: i64 = 40;
pub const MODERATE_FT: i64 = 60;
pub const FAST_FT: i64 = 80;
/// Bounds that only stop nonsense in an NPC's numbers (the text's highest T is 15, HP 30+).
const MAX_SCORE: i64 = 100;
const MAX_POOL: i64 = 10_000;
const MAX_LEVEL: i64 = 5;

/// The creation split: attribute points and HP/PP points, and the MP roll of a caster.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Points {
    #[serde(default)]
    pub aspect: i64,
    #[serde(default)]
    pub intellect: i64,
    #[serde(default)]
    pub power: i64,
    #[serde(default)]
    pub reflex: i64,
    pub hp: i64,
    pub pp: i64,
    /// The d10 face of the magic point roll (casters only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp_roll: Option<u32>,
}

/// What one level from 2 on was spent on, where the text gives a choice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Advance {
    /// The attribute raised (+1 at levels 2 to 4, +2 at level 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Attribute>,
    /// `pp` or `mp` (levels 2 and 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<String>,
    /// Level 2: `toughness` or `spells`; level 3: `hp` or `toughness`; level 4: `attribute`
    /// or `spell`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<String>,
    /// The class ability taken at this level (levels 2 to 4), written where it matters which:
    /// Prodigious casting counts its MP from the level it was taken at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<String>,
}

/// An NPC's or monster's own numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NpcStats {
    #[serde(default)]
    pub aspect: i64,
    #[serde(default)]
    pub intellect: i64,
    #[serde(default)]
    pub power: i64,
    #[serde(default)]
    pub reflex: i64,
    pub toughness: i64,
    pub hp_max: i64,
    #[serde(default)]
    pub pp_max: i64,
    #[serde(default)]
    pub mp_max: i64,
    /// The spell type it casts, if it casts (its spell save is built as a caster's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub casting: Option<SpellKind>,
    #[serde(default = "moderate")]
    pub speed_ft: i64,
}

fn moderate() -> i64 {
    MODERATE_FT
}

/// An NPC's own attack, where the equipment list has nothing like it (claws, a goblin's
/// rusty blade). Damage is an amount, 1 when not written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NpcAttack {
    pub id: String,
    pub name: String,
    pub kind: AttackKind,
    #[serde(default)]
    pub attack: i64,
    #[serde(default = "one", with = "amount_text")]
    pub damage: Amount,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_ft: Option<i64>,
    /// An edged attack (a blade, claws that cut), for Bloody slash.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bladed: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

fn one() -> Amount {
    Amount::flat(1)
}

mod amount_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Amount;

    pub fn serialize<S: Serializer>(a: &Amount, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&a.to_string())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Amount, D::Error> {
        let text = String::deserialize(d)?;
        Amount::try_from(text).map_err(serde::de::Error::custom)
    }
}

/// How an attack is aimed: melee with power, ranged and small weapons with reflex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Melee,
    Ranged,
    Small,
}

impl AttackKind {
    pub fn attribute(self) -> Attribute {
        match self {
            AttackKind::Melee => Attribute::Power,
            AttackKind::Ranged | AttackKind::Small => Attribute::Reflex,
        }
    }
    pub fn is_melee(self) -> bool {
        matches!(self, AttackKind::Melee | AttackKind::Small)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wealth {
    #[serde(default)]
    pub gp: i64,
    #[serde(default)]
    pub sp: i64,
    #[serde(default)]
    pub cp: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default = "level_one")]
    pub level: i64,
    #[serde(default)]
    pub xp: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// A character's creation split.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Points>,
    /// One entry for each level from 2 up to `level`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advance: Vec<Advance>,
    /// An NPC's or monster's numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<NpcStats>,
    #[serde(default)]
    pub skills: Vec<String>,
    #[serde(default)]
    pub abilities: Vec<String>,
    #[serde(default)]
    pub spells: Vec<String>,
    /// Equipment ids from the weapons table (the shield counts as one).
    #[serde(default)]
    pub weapons: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armour: Option<String>,
    #[serde(default)]
    pub items: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wealth: Option<Wealth>,
    /// An NPC's own attacks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacks: Vec<NpcAttack>,
    /// What rules key on: `goblin`, `evil`, `undead`, `unholy`, `natural_beast`, `sword`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Current values; the maximum when not written (temporary HP: 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pp: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_hp: Option<i64>,
    /// The weapon type Favored weapon names (with that ability only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub favored_weapon: Option<String>,
    /// The weapon type Weapon proficiency names, and what it adds (with that ability only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proficiency: Option<Proficiency>,
}

/// Weapon proficiency's choice: a weapon type and the bonus it gives with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proficiency {
    /// A weapon type: a weapon's id, or the word its name ends with (`sword`, `bow`, `axe`).
    pub weapon: String,
    pub bonus: ProficiencyBonus,
}

/// "+1 attack or damage": which one the character chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProficiencyBonus {
    Attack,
    Damage,
}

/// Whether `w` is of the weapon type `kind`: its id, or the last word of its name ending in it
/// (a greatsword and a shortsword are swords, a hand-axe an axe, a shortbow a bow).
pub fn of_type(w: &AttackStats, kind: &str) -> bool {
    w.id == kind
        || w.name
            .rsplit([' ', '-'])
            .next()
            .is_some_and(|last| last.ends_with(kind))
}

fn level_one() -> i64 {
    1
}

/// One attack a creature can make, with everything the sheet adds to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackStats {
    pub id: String,
    pub name: String,
    pub kind: AttackKind,
    pub attack: i64,
    pub damage: Amount,
    pub range_ft: Option<i64>,
    pub sword: bool,
    pub bladed: bool,
}

/// The numbers the rules read, derived from a checked sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    pub level: i64,
    pub attributes: BTreeMap<Attribute, i64>,
    pub hp_max: i64,
    pub pp_max: i64,
    pub mp_max: i64,
    pub toughness: i64,
    pub casting: Option<SpellKind>,
    pub spell_save: Option<i64>,
    pub speed_ft: i64,
    pub skills: Vec<String>,
    pub abilities: Vec<String>,
    pub spells: Vec<String>,
    pub attacks: Vec<AttackStats>,
    pub tags: Vec<String>,
    /// Race traits: the tag it deals +1 damage to, what attacks on it suffer.
    pub damage_vs: Option<String>,
    pub ranged_against: i64,
    pub magic_against: i64,
    pub perception: i64,
    pub poison_immune: bool,
    pub champions_resolve: bool,
    pub legendary_presence: bool,
    /// Favored weapon's and Weapon proficiency's choices.
    pub favored_weapon: Option<String>,
    pub proficiency: Option<Proficiency>,
}

impl Stats {
    pub fn attribute(&self, a: Attribute) -> i64 {
        self.attributes.get(&a).copied().unwrap_or(0)
    }
    pub fn has_ability(&self, id: &str) -> bool {
        self.abilities.iter().any(|a| a == id)
    }
    pub fn has_skill(&self, id: &str) -> bool {
        self.skills.iter().any(|a| a == id)
    }
    pub fn knows_spell(&self, id: &str) -> bool {
        self.spells.iter().any(|a| a == id)
    }
    pub fn attack(&self, id: &str) -> Option<&AttackStats> {
        self.attacks.iter().find(|a| a.id == id)
    }
}

fn bad(field: impl Into<String>, rule: impl Into<String>) -> SheetError {
    SheetError::invalid(field, rule)
}

fn in_range(field: &str, n: i64, min: i64, max: i64, rule: &str) -> Result<(), SheetError> {
    if (min..=max).contains(&n) {
        Ok(())
    } else {
        Err(bad(
            field,
            format!("must be {min} to {max} ({rule}), got {n}"),
        ))
    }
}

fn unique(field: &str, list: &[String]) -> Result<(), SheetError> {
    for (i, x) in list.iter().enumerate() {
        if list[..i].contains(x) {
            return Err(bad(
                format!("{field}[{i}]"),
                format!("`{x}` is listed twice"),
            ));
        }
    }
    Ok(())
}

/// The totals one level's choices add.
#[derive(Default)]
struct Gains {
    hp: i64,
    pp: i64,
    mp: i64,
    toughness: i64,
    spells: usize,
    abilities: usize,
    skills: usize,
}

impl Sheet {
    /// Checks the sheet and derives its numbers.
    ///
    /// # Errors
    ///
    /// The first field that breaks a rule, named with the rule.
    pub fn stats(&self) -> Result<Stats, SheetError> {
        let content = content().map_err(|e| SheetError::Syntax(e.to_string()))?;
        if self.id.trim().is_empty() {
            return Err(bad("id", "must not be empty"));
        }
        in_range(
            "level",
            self.level,
            1,
            MAX_LEVEL,
            "characters go from level 1 to 5",
        )?;
        unique("skills", &self.skills)?;
        unique("abilities", &self.abilities)?;
        unique("spells", &self.spells)?;
        for t in &self.tags {
            if t.trim().is_empty() {
                return Err(bad("tags", "a tag is a word"));
            }
        }
        let mut stats = match self.kind {
            Kind::Pc => self.character(content)?,
            Kind::Npc | Kind::Object => self.npc(content)?,
        };
        stats.tags.clone_from(&self.tags);
        self.weapon_choices(&mut stats)?;
        self.check_current(&stats)?;
        Ok(stats)
    }

    /// Favored weapon and Weapon proficiency each name a weapon type: written with the
    /// ability, and only with it.
    fn weapon_choices(&self, stats: &mut Stats) -> Result<(), SheetError> {
        let type_word = |field: &str, kind: &str| {
            if kind.is_empty() || !kind.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                Err(bad(
                    field,
                    "a weapon type is one lowercase word (`sword`, `bow`, `flail`)",
                ))
            } else {
                Ok(())
            }
        };
        match (stats.has_ability("favored_weapon"), &self.favored_weapon) {
            (true, Some(kind)) => type_word("favored_weapon", kind)?,
            (true, None) => {
                return Err(bad(
                    "favored_weapon",
                    "Favored weapon names the weapon type it favours",
                ));
            }
            (false, Some(_)) => {
                return Err(bad(
                    "favored_weapon",
                    "only a character with Favored weapon names a favoured weapon",
                ));
            }
            (false, None) => {}
        }
        match (stats.has_ability("weapon_proficiency"), &self.proficiency) {
            (true, Some(p)) => type_word("proficiency.weapon", &p.weapon)?,
            (true, None) => {
                return Err(bad(
                    "proficiency",
                    "Weapon proficiency names a weapon type and its bonus (attack or damage)",
                ));
            }
            (false, Some(_)) => {
                return Err(bad(
                    "proficiency",
                    "only a character with Weapon proficiency names a proficiency",
                ));
            }
            (false, None) => {}
        }
        stats.favored_weapon.clone_from(&self.favored_weapon);
        stats.proficiency.clone_from(&self.proficiency);
        Ok(())
    }

    fn check_current(&self, s: &Stats) -> Result<(), SheetError> {
        for (field, now, max) in [
            ("hp", self.hp, s.hp_max),
            ("pp", self.pp, s.pp_max),
            ("mp", self.mp, s.mp_max),
        ] {
            if let Some(n) = now {
                in_range(
                    field,
                    n,
                    0,
                    max,
                    "between 0 and the maximum the sheet gives",
                )?;
            }
        }
        if let Some(t) = self.temp_hp {
            in_range(
                "temp_hp",
                t,
                0,
                MAX_POOL,
                "temporary hit points are not negative",
            )?;
        }
        Ok(())
    }

    fn npc(&self, content: &Content) -> Result<Stats, SheetError> {
        if self.points.is_some() || !self.advance.is_empty() {
            return Err(bad(
                "points",
                "only a player's character is built from creation points; an NPC states `stats`",
            ));
        }
        if self.race.is_some() || self.class.is_some() {
            return Err(bad(
                "race",
                "an NPC states its numbers in `stats`; races and classes are for characters",
            ));
        }
        let n = self
            .stats
            .as_ref()
            .ok_or_else(|| bad("stats", "an NPC or monster states its numbers"))?;
        for (f, v) in [
            ("stats.aspect", n.aspect),
            ("stats.intellect", n.intellect),
            ("stats.power", n.power),
            ("stats.reflex", n.reflex),
        ] {
            in_range(f, v, -MAX_SCORE, MAX_SCORE, "a bounded attribute")?;
        }
        in_range(
            "stats.toughness",
            n.toughness,
            0,
            MAX_SCORE,
            "a bounded toughness",
        )?;
        in_range(
            "stats.hp_max",
            n.hp_max,
            1,
            MAX_POOL,
            "a creature has hit points to lose",
        )?;
        in_range(
            "stats.pp_max",
            n.pp_max,
            0,
            MAX_POOL,
            "power points are not negative",
        )?;
        in_range(
            "stats.mp_max",
            n.mp_max,
            0,
            MAX_POOL,
            "magic points are not negative",
        )?;
        in_range("stats.speed_ft", n.speed_ft, 0, 1_000, "a bounded speed")?;
        for (i, a) in self.abilities.iter().enumerate() {
            content
                .ability(a)
                .ok_or_else(|| bad(format!("abilities[{i}]"), format!("no ability `{a}`")))?;
        }
        for (i, s) in self.skills.iter().enumerate() {
            content
                .skill(s)
                .ok_or_else(|| bad(format!("skills[{i}]"), format!("no skill `{s}`")))?;
        }
        for (i, s) in self.spells.iter().enumerate() {
            let spell = content
                .spell(s)
                .ok_or_else(|| bad(format!("spells[{i}]"), format!("no spell `{s}`")))?;
            if n.casting.is_none() {
                return Err(bad(
                    format!("spells[{i}]"),
                    "only a caster (`stats.casting`) knows spells",
                ));
            }
            if spell.advanced && self.level < 3 {
                return Err(bad(format!("spells[{i}]"), "advanced spells need level 3"));
            }
        }
        let mut attributes = BTreeMap::new();
        attributes.insert(Attribute::Aspect, n.aspect);
        attributes.insert(Attribute::Intellect, n.intellect);
        attributes.insert(Attribute::Power, n.power);
        attributes.insert(Attribute::Reflex, n.reflex);
        let mut attacks = self.equipment_attacks(content, None)?;
        let mut seen: Vec<String> = attacks.iter().map(|a| a.id.clone()).collect();
        for (i, a) in self.attacks.iter().enumerate() {
            let at = |f: &str| format!("attacks[{i}].{f}");
            if a.id.trim().is_empty() || seen.contains(&a.id) || a.id == UNARMED {
                return Err(bad(
                    at("id"),
                    "attack ids are unique, non-empty and not `unarmed`",
                ));
            }
            in_range(
                &at("attack"),
                a.attack,
                -MAX_SCORE,
                MAX_SCORE,
                "a bounded bonus",
            )?;
            in_range(
                &at("damage"),
                a.damage.flat,
                0,
                MAX_SCORE,
                "a bounded damage",
            )?;
            seen.push(a.id.clone());
            attacks.push(AttackStats {
                id: a.id.clone(),
                name: a.name.clone(),
                kind: a.kind,
                attack: a.attack,
                damage: a.damage,
                range_ft: a.range_ft,
                sword: false,
                bladed: a.bladed,
            });
        }
        attacks.push(unarmed());
        let spell_save = n.casting.map(|k| {
            spell_save(
                self.level,
                attributes.get(&k.attribute()).copied().unwrap_or(0),
            )
        });
        Ok(Stats {
            level: self.level,
            attributes,
            hp_max: n.hp_max,
            pp_max: n.pp_max,
            mp_max: n.mp_max,
            toughness: n.toughness,
            casting: n.casting,
            spell_save,
            speed_ft: n.speed_ft,
            skills: self.skills.clone(),
            abilities: self.abilities.clone(),
            spells: self.spells.clone(),
            attacks,
            tags: Vec::new(),
            damage_vs: None,
            ranged_against: 0,
            magic_against: 0,
            perception: 0,
            poison_immune: false,
            champions_resolve: false,
            legendary_presence: false,
            favored_weapon: None,
            proficiency: None,
        })
    }

    /// The attacks the listed weapons give, checked against the class's weight limit.
    fn equipment_attacks(
        &self,
        content: &Content,
        limit: Option<(Weight, bool, &str)>,
    ) -> Result<Vec<AttackStats>, SheetError> {
        unique("weapons", &self.weapons)?;
        let mut out = Vec::new();
        for (i, id) in self.weapons.iter().enumerate() {
            let w = content
                .weapon(id)
                .ok_or_else(|| bad(format!("weapons[{i}]"), format!("no weapon `{id}`")))?;
            if let Some((max, exact, class)) = limit
                && !super::content::Class::allows(max, exact, w.weight)
            {
                let only = if exact { "only" } else { "and lighter" };
                return Err(bad(
                    format!("weapons[{i}]"),
                    format!(
                        "a {class} uses {} weapons {only}; the {} is {}",
                        max.word(),
                        w.name,
                        w.weight.word()
                    ),
                ));
            }
            let kind = match w.kind {
                WeaponKind::Melee | WeaponKind::Shield => AttackKind::Melee,
                WeaponKind::Ranged => AttackKind::Ranged,
                WeaponKind::Small => AttackKind::Small,
            };
            out.push(AttackStats {
                id: w.id.clone(),
                name: w.name.clone(),
                kind,
                attack: w.attack,
                damage: Amount::flat(1 + w.damage),
                range_ft: w.range_ft,
                sword: w.sword,
                bladed: w.bladed,
            });
        }
        Ok(out)
    }

    fn character(&self, content: &Content) -> Result<Stats, SheetError> {
        if self.owner.is_none() {
            return Err(bad(
                "owner",
                "a player character names the seat that plays it",
            ));
        }
        if self.stats.is_some() || !self.attacks.is_empty() {
            return Err(bad(
                "stats",
                "a character's numbers come from its choices, not from `stats` or `attacks`",
            ));
        }
        let race_id = self
            .race
            .as_deref()
            .ok_or_else(|| bad("race", "a character has a race (step 1)"))?;
        let race = content.race(race_id).ok_or_else(|| {
            bad(
                "race",
                format!("`{race_id}` is not a race: dwarf, elf, halfling or human"),
            )
        })?;
        let class_id = self
            .class
            .as_deref()
            .ok_or_else(|| bad("class", "a character has a class (step 2)"))?;
        let class = content.class(class_id).ok_or_else(|| {
            bad(
                "class",
                format!("`{class_id}` is not a class: cleric, rogue, warrior or wizard"),
            )
        })?;
        let p = self.points.as_ref().ok_or_else(|| {
            bad(
                "points",
                "a character splits its creation points (steps 3 to 5)",
            )
        })?;
        for (f, v) in [
            ("points.aspect", p.aspect),
            ("points.intellect", p.intellect),
            ("points.power", p.power),
            ("points.reflex", p.reflex),
        ] {
            in_range(
                f,
                v,
                0,
                ATTRIBUTE_POINTS,
                "the 3 attribute points are split, none negative",
            )?;
        }
        let split = p.aspect + p.intellect + p.power + p.reflex;
        if split != ATTRIBUTE_POINTS {
            return Err(bad(
                "points",
                format!(
                    "the attribute points add up to 3 (step 3), got {split}; race bonuses come on top"
                ),
            ));
        }
        in_range(
            "points.hp",
            p.hp,
            0,
            HP_PP_POINTS,
            "the 10 points are split between HP and PP",
        )?;
        in_range(
            "points.pp",
            p.pp,
            0,
            HP_PP_POINTS,
            "the 10 points are split between HP and PP",
        )?;
        if p.hp + p.pp != HP_PP_POINTS {
            return Err(bad(
                "points",
                format!("HP and PP add up to 10 (step 4), got {}", p.hp + p.pp),
            ));
        }
        let caster = class.casting;
        let roll_mp = match (caster, p.mp_roll) {
            (Some(_), Some(face)) => content.mp_for_roll(face).ok_or_else(|| {
                bad(
                    "points.mp_roll",
                    format!("the MP roll is a d10 face, 1 to 10, got {face}"),
                )
            })?,
            (Some(_), None) => {
                return Err(bad(
                    "points.mp_roll",
                    format!("a {} rolls 1d10 for magic points (step 5)", class.id),
                ));
            }
            (None, Some(_)) => {
                return Err(bad(
                    "points.mp_roll",
                    format!(
                        "only magic-users roll for magic points; a {} does not",
                        class.id
                    ),
                ));
            }
            (None, None) => 0,
        };
        self.check_wealth()?;
        let level = self.level;
        if let Some(next) = u8::try_from(level + 1).ok().and_then(|l| content.xp_for(l)) {
            in_range(
                "xp",
                self.xp,
                0,
                next - 1,
                "XP starts again at 0 on each level and reaching the next threshold means advancing",
            )?;
        } else {
            in_range("xp", self.xp, 0, MAX_POOL, "XP is not negative")?;
        }

        // Attributes: the split, the race, the levels, the abilities that raise one.
        let mut attributes = BTreeMap::from([
            (Attribute::Aspect, p.aspect),
            (Attribute::Intellect, p.intellect),
            (Attribute::Power, p.power),
            (Attribute::Reflex, p.reflex),
        ]);
        if let Some(a) = race.attribute {
            *attributes.entry(a).or_default() += 1;
        }
        let gains = self.advances(caster.is_some(), &mut attributes)?;
        for (ability, a) in [
            ("righteous_anger", Attribute::Power),
            ("charismatic", Attribute::Aspect),
            ("swift", Attribute::Reflex),
        ] {
            if self.abilities.iter().any(|x| x == ability) {
                *attributes.entry(a).or_default() += 1;
            }
        }
        let war_mage = i64::from(self.abilities.iter().any(|x| x == "war_mage"));

        // Skills: those of the race, then the free ones and one per level 2 to 4.
        for (i, s) in self.skills.iter().enumerate() {
            content
                .skill(s)
                .ok_or_else(|| bad(format!("skills[{i}]"), format!("no skill `{s}`")))?;
        }
        for s in &race.skills {
            if !self.skills.contains(s) {
                return Err(bad("skills", format!("a {} has the {s} skill", race.id)));
            }
        }
        let free = race.free_skills + gains.skills;
        let chosen = self.skills.len().saturating_sub(race.skills.len());
        if chosen != free {
            return Err(bad(
                "skills",
                format!(
                    "a level {level} {} {} has {} skill(s) besides the race's, got {chosen}",
                    race.id, class.id, free
                ),
            ));
        }

        // Abilities: the class's level 1 set, one of its pair, one more per level 2 to 4.
        for a in &class.abilities {
            if !self.abilities.contains(a) {
                return Err(bad("abilities", format!("a {} starts with {a}", class.id)));
            }
        }
        if !class.choose_one.is_empty() {
            let picked = class
                .choose_one
                .iter()
                .filter(|a| self.abilities.contains(a))
                .count();
            if picked != 1 {
                return Err(bad(
                    "abilities",
                    format!(
                        "a {} takes exactly one of {}",
                        class.id,
                        class.choose_one.join(" or ")
                    ),
                ));
            }
        }
        let mut later = 0;
        for (i, a) in self.abilities.iter().enumerate() {
            let ability = content
                .ability(a)
                .ok_or_else(|| bad(format!("abilities[{i}]"), format!("no ability `{a}`")))?;
            if ability.class != class.id {
                return Err(bad(
                    format!("abilities[{i}]"),
                    format!("{} is a {} ability", ability.name, ability.class),
                ));
            }
            if !ability.start {
                later += 1;
            }
        }
        if later != gains.abilities {
            return Err(bad(
                "abilities",
                format!(
                    "a level {level} character has {} class abilities past level 1, got {later}",
                    gains.abilities
                ),
            ));
        }

        // Spells: of the class's type, advanced ones from level 3, no more than gained.
        let gained = class.spells + gains.spells;
        if self.spells.len() > gained {
            return Err(bad(
                "spells",
                format!(
                    "a level {level} {} knows at most {gained} spells, got {}",
                    class.id,
                    self.spells.len()
                ),
            ));
        }
        for (i, s) in self.spells.iter().enumerate() {
            let spell = content
                .spell(s)
                .ok_or_else(|| bad(format!("spells[{i}]"), format!("no spell `{s}`")))?;
            match caster {
                None => {
                    return Err(bad(
                        format!("spells[{i}]"),
                        format!("a {} casts no spells", class.id),
                    ));
                }
                Some(k) if k != spell.kind => {
                    return Err(bad(
                        format!("spells[{i}]"),
                        format!(
                            "a {} casts {:?} spells, and {} is not one",
                            class.id, k, spell.name
                        )
                        .to_lowercase(),
                    ));
                }
                Some(_) => {}
            }
            if spell.advanced && level < 3 {
                return Err(bad(
                    format!("spells[{i}]"),
                    format!("{} is an advanced spell, for level 3 and up", spell.name),
                ));
            }
        }

        // Equipment within the class's limits.
        let mut attacks = self.equipment_attacks(
            content,
            Some((class.weapons, class.weapons_exact, &class.id)),
        )?;
        attacks.push(unarmed());
        let mut toughness = class.toughness + gains.toughness + war_mage;
        let mut armour_hp = 0;
        let mut speed = MODERATE_FT;
        if let Some(id) = &self.armour {
            let a = content
                .armour(id)
                .ok_or_else(|| bad("armour", format!("no armour `{id}`")))?;
            if !super::content::Class::allows(class.armour, class.armour_exact, a.weight) {
                let only = if class.armour_exact {
                    "only"
                } else {
                    "and lighter"
                };
                return Err(bad(
                    "armour",
                    format!(
                        "a {} wears {} armour {only}; {} is {}",
                        class.id,
                        class.armour.word(),
                        a.name,
                        a.weight.word()
                    ),
                ));
            }
            toughness += a.toughness;
            armour_hp = a.hp;
            if a.slow {
                speed = SLOW_FT;
            }
        }
        for id in &self.weapons {
            if let Some(w) = content.weapon(id) {
                toughness += w.toughness;
            }
        }
        if self.abilities.iter().any(|a| a == "fast") {
            speed = FAST_FT;
        }
        for (i, id) in self.items.iter().enumerate() {
            content
                .item(id)
                .ok_or_else(|| bad(format!("items[{i}]"), format!("no item `{id}`")))?;
        }
        let hp_max = p.hp + class.hp + race.hp_per_level * level + armour_hp + gains.hp + war_mage;
        if hp_max < 1 {
            return Err(bad(
                "points.hp",
                "with 0 HP from the split, the class, race and armour must still give at least 1 hit point",
            ));
        }
        let pp_max = p.pp + class.pp + race.pp_per_level * level + gains.pp + war_mage;
        let mp_max = if caster.is_some() {
            class.mp + roll_mp + gains.mp + self.prodigious()?
        } else {
            0
        };
        let spell_save =
            caster.map(|k| spell_save(level, attributes.get(&k.attribute()).copied().unwrap_or(0)));
        Ok(Stats {
            level,
            attributes,
            hp_max,
            pp_max,
            mp_max,
            toughness,
            casting: caster,
            spell_save,
            speed_ft: speed,
            skills: self.skills.clone(),
            abilities: self.abilities.clone(),
            spells: self.spells.clone(),
            attacks,
            tags: Vec::new(),
            damage_vs: race.damage_vs.clone(),
            ranged_against: race.ranged_against,
            magic_against: race.magic_against,
            perception: race.perception,
            poison_immune: race.poison_immune,
            champions_resolve: level >= 4,
            legendary_presence: level >= 5,
            favored_weapon: None,
            proficiency: None,
        })
    }

    /// Prodigious casting's MP: one for the level it was taken at and one for each level
    /// since. Checks every advance's `ability` names a later ability of the sheet's.
    fn prodigious(&self) -> Result<i64, SheetError> {
        let mut taken_at = None;
        for (i, a) in self.advance.iter().enumerate() {
            let Some(id) = &a.ability else {
                continue;
            };
            let level = i64::try_from(i).unwrap_or(0) + 2;
            let field = format!("advance[{i}].ability");
            if level > 4 || !self.abilities.contains(id) {
                return Err(bad(
                    field,
                    format!(
                        "levels 2 to 4 each take a class ability the sheet lists; `{id}` at level {level} is not one"
                    ),
                ));
            }
            if self.advance[..i]
                .iter()
                .any(|b| b.ability.as_ref() == Some(id))
            {
                return Err(bad(field, format!("`{id}` is taken at two levels")));
            }
            if id == "prodigious_casting" {
                taken_at = Some(level);
            }
        }
        if !self.abilities.iter().any(|a| a == "prodigious_casting") {
            return Ok(0);
        }
        let at = taken_at.ok_or_else(|| {
            bad(
                "advance",
                "Prodigious casting gives 1 MP a level from the one it was taken at: name it as that level's `ability`",
            )
        })?;
        Ok(self.level - at + 1)
    }

    fn check_wealth(&self) -> Result<(), SheetError> {
        let Some(w) = &self.wealth else {
            return Ok(());
        };
        for (f, v) in [
            ("wealth.gp", w.gp),
            ("wealth.sp", w.sp),
            ("wealth.cp", w.cp),
        ] {
            if self.level == 1 && self.xp == 0 {
                if !(10..=100).contains(&v) || v % 10 != 0 {
                    return Err(bad(
                        f,
                        format!(
                            "a new character rolls 1d10 x 10 for each coin (step 6): 10, 20 ... 100, got {v}"
                        ),
                    ));
                }
            } else {
                in_range(f, v, 0, 1_000_000, "coins are not negative")?;
            }
        }
        Ok(())
    }

    /// Checks each level's choices and applies their attribute raises; returns what the
    /// levels add to the totals and how many picks of each list they give.
    fn advances(
        &self,
        caster: bool,
        attributes: &mut BTreeMap<Attribute, i64>,
    ) -> Result<Gains, SheetError> {
        let wanted = usize::try_from(self.level - 1).unwrap_or(0);
        if self.advance.len() != wanted {
            return Err(bad(
                "advance",
                format!(
                    "one entry for each level from 2 to {}: {wanted}, got {}",
                    self.level,
                    self.advance.len()
                ),
            ));
        }
        let mut g = Gains::default();
        for (i, a) in self.advance.iter().enumerate() {
            let level = i + 2;
            let at = |f: &str| format!("advance[{i}].{f}");
            let raise = |a: &Advance, by: i64, attributes: &mut BTreeMap<Attribute, i64>| {
                let attr = a.attribute.ok_or_else(|| {
                    bad(
                        at("attribute"),
                        format!("level {level} raises an attribute"),
                    )
                })?;
                *attributes.entry(attr).or_default() += by;
                Ok::<(), SheetError>(())
            };
            let points = |a: &Advance, pp: i64, mp: i64| -> Result<(i64, i64), SheetError> {
                match a.points.as_deref() {
                    Some("pp") => Ok((pp, 0)),
                    Some("mp") if caster => Ok((0, mp)),
                    Some("mp") => Err(bad(at("points"), "only magic-users take magic points")),
                    _ => Err(bad(
                        at("points"),
                        format!("level {level} gives +{pp} PP (`pp`) or +{mp} MP (`mp`)"),
                    )),
                }
            };
            let no_attribute = |a: &Advance| match a.attribute {
                Some(_) => Err(bad(
                    at("attribute"),
                    format!("level {level} raises no attribute here"),
                )),
                None => Ok(()),
            };
            match level {
                2 => {
                    raise(a, 1, attributes)?;
                    let (pp, mp) = points(a, 2, 2)?;
                    g.pp += pp;
                    g.mp += mp;
                    g.hp += 2;
                    match a.extra.as_deref() {
                        Some("toughness") => g.toughness += 1,
                        Some("spells") if caster => g.spells += 2,
                        _ => {
                            return Err(bad(
                                at("extra"),
                                "level 2 gives +1 toughness (`toughness`) or, to a caster, 2 spells (`spells`)",
                            ));
                        }
                    }
                }
                3 => {
                    raise(a, 1, attributes)?;
                    let (pp, mp) = points(a, 1, 2)?;
                    g.pp += pp;
                    g.mp += mp;
                    match a.extra.as_deref() {
                        Some("hp") => g.hp += 2,
                        Some("toughness") => g.toughness += 1,
                        _ => {
                            return Err(bad(
                                at("extra"),
                                "level 3 gives +2 HP (`hp`) or +1 toughness (`toughness`)",
                            ));
                        }
                    }
                    if caster {
                        g.spells += 1;
                    }
                }
                4 => {
                    g.hp += 2;
                    g.toughness += 1;
                    if a.points.is_some() {
                        return Err(bad(at("points"), "level 4 gives no PP or MP"));
                    }
                    match a.extra.as_deref() {
                        Some("attribute") => raise(a, 1, attributes)?,
                        Some("spell") if caster => {
                            no_attribute(a)?;
                            g.spells += 1;
                        }
                        _ => {
                            return Err(bad(
                                at("extra"),
                                "level 4 gives +1 to an attribute (`attribute`) or, to a caster, a spell (`spell`)",
                            ));
                        }
                    }
                }
                _ => {
                    if a.points.is_some() || a.extra.is_some() {
                        return Err(bad(
                            at("extra"),
                            "level 5 gives +2 to an attribute and nothing to choose besides",
                        ));
                    }
                    raise(a, 2, attributes)?;
                }
            }
            if level <= 4 {
                g.abilities += 1;
                g.skills += 1;
            }
        }
        Ok(g)
    }
}

impl SystemSheet for Sheet {
    fn validate(&self) -> Result<(), SheetError> {
        self.stats().map(drop)
    }

    fn into_combatant(self) -> Result<Combatant, SheetError> {
        let stats = self.stats()?;
        let mut resources = BTreeMap::from([
            (HP.to_owned(), self.hp.unwrap_or(stats.hp_max)),
            (PP.to_owned(), self.pp.unwrap_or(stats.pp_max)),
            (MP.to_owned(), self.mp.unwrap_or(stats.mp_max)),
            (TEMP_HP.to_owned(), self.temp_hp.unwrap_or(0)),
        ]);
        // A character's experience is counted by the table from here on (`award_xp`), so that
        // a player's own sheet edit, which keeps the resources, cannot raise it.
        if self.kind == Kind::Pc {
            resources.insert(super::levelling::XP.to_owned(), self.xp);
        }
        let identity = Identity {
            id: self.id.clone(),
            name: self.name.clone(),
            kind: self.kind,
            owner: self.owner.clone(),
            side: self.side.clone(),
        };
        Ok(identity.arrive(CoreSheet::new(super::ID, self)?, resources, BTreeMap::new()))
    }
}

/// The id of the bare-handed attack every creature has.
pub const UNARMED: &str = "unarmed";

fn unarmed() -> AttackStats {
    AttackStats {
        id: UNARMED.into(),
        name: "bare hands".into(),
        kind: AttackKind::Melee,
        attack: 0,
        damage: Amount::flat(1),
        range_ft: None,
        sword: false,
        bladed: false,
    }
}

/// A caster's spell save: level + casting attribute + 3.
pub fn spell_save(level: i64, attribute: i64) -> i64 {
    level + attribute + 3
}

pub fn from_toml(text: &str) -> Result<Combatant, SheetError> {
    sheets::from_toml::<Sheet>(text)
}

pub fn from_json(value: &serde_json::Value) -> Result<Combatant, SheetError> {
    sheets::from_json::<Sheet>(value)
}
