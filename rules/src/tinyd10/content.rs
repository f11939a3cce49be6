//! The text's tables as data (`data/*.toml`): races, classes, equipment, spells, abilities,
//! skills, the magic point roll, the reaction table and the level thresholds. They are read
//! once, checked against each other (every id a class or a table names exists, every band of a
//! d10 table covers the faces once), and shared. Rules read numbers from here, never from
//! literals, so a correction to the data is a correction to the game.

use std::sync::OnceLock;

use serde::Deserialize;

use super::dice::Amount;

const RACES: &str = include_str!("data/races.toml");
const CLASSES: &str = include_str!("data/classes.toml");
const EQUIPMENT: &str = include_str!("data/equipment.toml");
const SPELLS: &str = include_str!("data/spells.toml");
const ABILITIES: &str = include_str!("data/abilities.toml");
const TABLES: &str = include_str!("data/tables.toml");

/// The four attributes, in the order sheets list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Attribute {
    Aspect,
    Intellect,
    Power,
    Reflex,
}

impl Attribute {
    pub const ALL: [Attribute; 4] = [
        Attribute::Aspect,
        Attribute::Intellect,
        Attribute::Power,
        Attribute::Reflex,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Attribute::Aspect => "aspect",
            Attribute::Intellect => "intellect",
            Attribute::Power => "power",
            Attribute::Reflex => "reflex",
        }
    }

    pub fn parse(s: &str) -> Option<Attribute> {
        Attribute::ALL.into_iter().find(|a| a.word() == s)
    }
}

/// Equipment weight, lightest first: the class limits compare these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weight {
    Fw,
    Lw,
    Mw,
    Hw,
}

impl Weight {
    pub fn word(self) -> &'static str {
        match self {
            Weight::Fw => "featherweight",
            Weight::Lw => "lightweight",
            Weight::Mw => "middleweight",
            Weight::Hw => "heavyweight",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub attribute: Option<Attribute>,
    #[serde(default)]
    pub hp_per_level: i64,
    #[serde(default)]
    pub pp_per_level: i64,
    #[serde(default)]
    pub skills: Vec<String>,
    #[serde(default)]
    pub free_skills: usize,
    #[serde(default)]
    pub damage_vs: Option<String>,
    #[serde(default)]
    pub ranged_against: i64,
    #[serde(default)]
    pub magic_against: i64,
    #[serde(default)]
    pub perception: i64,
    #[serde(default)]
    pub poison_immune: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    pub id: String,
    pub name: String,
    pub toughness: i64,
    #[serde(default)]
    pub hp: i64,
    #[serde(default)]
    pub pp: i64,
    #[serde(default)]
    pub mp: i64,
    pub weapons: Weight,
    #[serde(default)]
    pub weapons_exact: bool,
    pub armour: Weight,
    #[serde(default)]
    pub armour_exact: bool,
    #[serde(default)]
    pub casting: Option<SpellKind>,
    #[serde(default)]
    pub spells: usize,
    pub abilities: Vec<String>,
    #[serde(default)]
    pub choose_one: Vec<String>,
}

impl Class {
    /// Whether the class may carry a weapon (or wear armour) of `weight`: at most its limit,
    /// or exactly it where the text says "only".
    pub fn allows(limit: Weight, exact: bool, weight: Weight) -> bool {
        if exact {
            weight == limit
        } else {
            weight <= limit
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellKind {
    Divine,
    Magical,
}

impl SpellKind {
    /// The attribute a spell of this kind is cast with (and its spell save built from).
    pub fn attribute(self) -> Attribute {
        match self {
            SpellKind::Divine => Attribute::Aspect,
            SpellKind::Magical => Attribute::Intellect,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    Melee,
    Ranged,
    /// A melee weapon aimed with reflex (the text's daggers).
    Small,
    Shield,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    pub id: String,
    pub name: String,
    pub weight: Weight,
    #[serde(default)]
    pub hp: i64,
    #[serde(default)]
    pub toughness: i64,
    #[serde(default)]
    pub slow: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub id: String,
    pub name: String,
    pub weight: Weight,
    pub kind: WeaponKind,
    #[serde(default)]
    pub attack: i64,
    #[serde(default)]
    pub damage: i64,
    #[serde(default)]
    pub toughness: i64,
    #[serde(default)]
    pub range_ft: Option<i64>,
    /// A sword, for Raised by the sword.
    #[serde(default)]
    pub sword: bool,
    /// An edged weapon, for Bloody slash.
    #[serde(default)]
    pub bladed: bool,
    /// Not in the text: example content.
    #[serde(default)]
    pub example: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub heals: Option<Amount>,
    #[serde(default)]
    pub power: i64,
    #[serde(default)]
    pub lasts: Option<Amount>,
    #[serde(default)]
    pub trap_perception: i64,
}

/// What the second cost of a spell is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AltCost {
    HealSkill,
    Other,
    Sure,
    Permanent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnSave {
    Negates,
    Halves,
    HalvesDuration,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    pub id: String,
    pub name: String,
    pub kind: SpellKind,
    #[serde(default)]
    pub advanced: bool,
    /// `None` where the text gives no cost (Imprint spell): the GM rules one.
    #[serde(default)]
    pub mp: Option<i64>,
    #[serde(default)]
    pub mp_alt: Option<i64>,
    #[serde(default)]
    pub alt: Option<AltCost>,
    #[serde(default)]
    pub attack: bool,
    #[serde(default)]
    pub attack_bonus: i64,
    #[serde(default)]
    pub damage: Option<Amount>,
    #[serde(default)]
    pub heals: Option<Amount>,
    #[serde(default)]
    pub restores_pp_mp: bool,
    #[serde(default)]
    pub only_vs: Option<String>,
    #[serde(default)]
    pub save: Vec<Attribute>,
    #[serde(default)]
    pub on_save: Option<OnSave>,
    #[serde(default)]
    pub range_ft: Option<i64>,
    #[serde(default)]
    pub effect: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Per {
    Point,
    Target,
    Ally,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub id: String,
    pub name: String,
    pub class: String,
    #[serde(default)]
    pub start: bool,
    #[serde(default)]
    pub pp: Option<i64>,
    #[serde(default)]
    pub per: Option<Per>,
    #[serde(default)]
    pub pp_ally: Option<i64>,
    pub effect: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    pub id: String,
    pub attribute: Attribute,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MpBand {
    pub low: u32,
    pub high: u32,
    pub mp: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    pub low: u32,
    pub high: u32,
    pub id: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRow {
    pub level: u8,
    pub xp: i64,
}

#[derive(Deserialize)]
struct RacesFile {
    race: Vec<Race>,
}
#[derive(Deserialize)]
struct ClassesFile {
    class: Vec<Class>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EquipmentFile {
    armour: Vec<Armour>,
    weapon: Vec<Weapon>,
    item: Vec<Item>,
}
#[derive(Deserialize)]
struct SpellsFile {
    spell: Vec<Spell>,
}
#[derive(Deserialize)]
struct AbilitiesFile {
    ability: Vec<Ability>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    skill: Vec<Skill>,
    mp_roll: Vec<MpBand>,
    reaction: Vec<Reaction>,
    level: Vec<LevelRow>,
}

/// Every table, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    pub races: Vec<Race>,
    pub classes: Vec<Class>,
    pub armour: Vec<Armour>,
    pub weapons: Vec<Weapon>,
    pub items: Vec<Item>,
    pub spells: Vec<Spell>,
    pub abilities: Vec<Ability>,
    pub skills: Vec<Skill>,
    pub mp_roll: Vec<MpBand>,
    pub reaction: Vec<Reaction>,
    pub levels: Vec<LevelRow>,
}

/// Why the shipped data does not hold together: a bug in `data/`, found by its test.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tinyd10 data, {file}: {problem}")]
pub struct ContentError {
    pub file: &'static str,
    pub problem: String,
}

fn parse<T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &str,
) -> Result<T, ContentError> {
    toml::from_str(text).map_err(|e| ContentError {
        file,
        problem: e.to_string(),
    })
}

/// The shared, checked content.
///
/// # Errors
///
/// The shipped data is inconsistent; the crate's tests load it, so this is never seen in a
/// build that passed them.
pub fn content() -> Result<&'static Content, ContentError> {
    static CONTENT: OnceLock<Result<Content, ContentError>> = OnceLock::new();
    CONTENT.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Content, ContentError> {
    let races: RacesFile = parse("races.toml", RACES)?;
    let classes: ClassesFile = parse("classes.toml", CLASSES)?;
    let equipment: EquipmentFile = parse("equipment.toml", EQUIPMENT)?;
    let spells: SpellsFile = parse("spells.toml", SPELLS)?;
    let abilities: AbilitiesFile = parse("abilities.toml", ABILITIES)?;
    let tables: TablesFile = parse("tables.toml", TABLES)?;
    let c = Content {
        races: races.race,
        classes: classes.class,
        armour: equipment.armour,
        weapons: equipment.weapon,
        items: equipment.item,
        spells: spells.spell,
        abilities: abilities.ability,
        skills: tables.skill,
        mp_roll: tables.mp_roll,
        reaction: tables.reaction,
        levels: tables.level,
    };
    c.check()?;
    Ok(c)
}

fn unique<'a>(file: &'static str, ids: impl Iterator<Item = &'a str>) -> Result<(), ContentError> {
    let mut seen = std::collections::BTreeSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(ContentError {
                file,
                problem: format!("`{id}` is listed twice"),
            });
        }
    }
    Ok(())
}

/// A d10 table's bands cover faces 1 to 10, each once, in order.
fn covers_d10(file: &'static str, what: &str, bands: &[(u32, u32)]) -> Result<(), ContentError> {
    let mut next = 1;
    for (low, high) in bands {
        if *low != next || high < low {
            return Err(ContentError {
                file,
                problem: format!(
                    "{what}: the band {low}-{high} does not follow face {}",
                    next - 1
                ),
            });
        }
        next = high + 1;
    }
    if next != 11 {
        return Err(ContentError {
            file,
            problem: format!("{what}: the bands stop at {}", next - 1),
        });
    }
    Ok(())
}

impl Content {
    pub(super) fn check(&self) -> Result<(), ContentError> {
        unique("races.toml", self.races.iter().map(|r| r.id.as_str()))?;
        unique("classes.toml", self.classes.iter().map(|r| r.id.as_str()))?;
        unique(
            "equipment.toml",
            self.armour
                .iter()
                .map(|r| r.id.as_str())
                .chain(self.weapons.iter().map(|r| r.id.as_str()))
                .chain(self.items.iter().map(|r| r.id.as_str())),
        )?;
        unique("spells.toml", self.spells.iter().map(|r| r.id.as_str()))?;
        unique(
            "abilities.toml",
            self.abilities.iter().map(|r| r.id.as_str()),
        )?;
        unique("tables.toml", self.skills.iter().map(|r| r.id.as_str()))?;
        for race in &self.races {
            for s in &race.skills {
                self.skill(s).ok_or_else(|| ContentError {
                    file: "races.toml",
                    problem: format!("{} names the unknown skill `{s}`", race.id),
                })?;
            }
        }
        for class in &self.classes {
            for a in class.abilities.iter().chain(&class.choose_one) {
                let ability = self.ability(a).ok_or_else(|| ContentError {
                    file: "classes.toml",
                    problem: format!("{} names the unknown ability `{a}`", class.id),
                })?;
                if ability.class != class.id || !ability.start {
                    return Err(ContentError {
                        file: "abilities.toml",
                        problem: format!("`{a}` is not a level 1 {} ability", class.id),
                    });
                }
            }
            if class.casting.is_some() != (class.spells > 0) {
                return Err(ContentError {
                    file: "classes.toml",
                    problem: format!(
                        "{}: a caster starts with spells, others with none",
                        class.id
                    ),
                });
            }
        }
        for a in &self.abilities {
            if self.class(&a.class).is_none() {
                return Err(ContentError {
                    file: "abilities.toml",
                    problem: format!("`{}` belongs to the unknown class `{}`", a.id, a.class),
                });
            }
        }
        for s in &self.spells {
            if s.mp_alt.is_some() != s.alt.is_some() {
                return Err(ContentError {
                    file: "spells.toml",
                    problem: format!("`{}`: a second cost says what it is for", s.id),
                });
            }
            if s.save.is_empty() != s.on_save.is_none() {
                return Err(ContentError {
                    file: "spells.toml",
                    problem: format!("`{}`: a save says what it does", s.id),
                });
            }
        }
        let mp: Vec<(u32, u32)> = self.mp_roll.iter().map(|b| (b.low, b.high)).collect();
        covers_d10("tables.toml", "mp_roll", &mp)?;
        let reaction: Vec<(u32, u32)> = self.reaction.iter().map(|b| (b.low, b.high)).collect();
        covers_d10("tables.toml", "reaction", &reaction)?;
        let levels: Vec<u8> = self.levels.iter().map(|l| l.level).collect();
        if levels != [2, 3, 4, 5] {
            return Err(ContentError {
                file: "tables.toml",
                problem: format!("levels 2 to 5 in order, got {levels:?}"),
            });
        }
        Ok(())
    }

    pub fn race(&self, id: &str) -> Option<&Race> {
        self.races.iter().find(|r| r.id == id)
    }
    pub fn class(&self, id: &str) -> Option<&Class> {
        self.classes.iter().find(|r| r.id == id)
    }
    pub fn armour(&self, id: &str) -> Option<&Armour> {
        self.armour.iter().find(|r| r.id == id)
    }
    pub fn weapon(&self, id: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|r| r.id == id)
    }
    pub fn item(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|r| r.id == id)
    }
    pub fn spell(&self, id: &str) -> Option<&Spell> {
        self.spells.iter().find(|r| r.id == id)
    }
    pub fn ability(&self, id: &str) -> Option<&Ability> {
        self.abilities.iter().find(|r| r.id == id)
    }
    pub fn skill(&self, id: &str) -> Option<&Skill> {
        self.skills.iter().find(|r| r.id == id)
    }

    /// The MP the creation roll's `face` gives.
    pub fn mp_for_roll(&self, face: u32) -> Option<i64> {
        self.mp_roll
            .iter()
            .find(|b| (b.low..=b.high).contains(&face))
            .map(|b| b.mp)
    }

    /// The wandering monster reaction for `face`.
    pub fn reaction_for(&self, face: u32) -> Option<&Reaction> {
        self.reaction
            .iter()
            .find(|b| (b.low..=b.high).contains(&face))
    }

    /// The XP that reaches `level` (2 to 5).
    pub fn xp_for(&self, level: u8) -> Option<i64> {
        self.levels.iter().find(|l| l.level == level).map(|l| l.xp)
    }
}
