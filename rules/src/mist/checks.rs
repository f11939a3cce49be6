//! mist's arithmetic, kept apart from the encounter so each rule is a function a table of
//! cases can prove: what a check adds, what a hit must reach, who wins a Speed contest, what
//! damage gets through Toughness, what a consciousness check must reach, what healing gives.

use std::cmp::Ordering;

use crate::event::Modifier;

use super::sheet::{DamageDie, Sheet, Trait, Weapon, WeaponKind};

/// Added to the roll by an aimed attack, an attack on an immobile target, an attack in the
/// ambushers' free turn and a stun attack.
pub const AIMED: i64 = 3;
pub const IMMOBILE: i64 = 3;
pub const AMBUSH: i64 = 3;
/// Bare hands with Brawl 0 are Inaccurate.
pub const INACCURATE: i64 = -2;
/// An object not made to be thrown has the Missing property.
pub const MISSING: i64 = -4;
/// An object made to be thrown is accurate when thrown.
pub const THROWN: i64 = 2;
/// A consciousness check must reach the points below 0 plus this.
pub const CONSCIOUSNESS_BASE: i64 = 5;
/// The difficulty of healing with Medicine out of combat.
pub const MEDICINE_HEAL: i64 = 10;
/// Dodging a ranged weapon and a gun is harder by this much.
pub const DODGE_RANGED: i64 = 3;
pub const DODGE_GUN: i64 = 5;

/// What raises the target's Evade for one attack: the two modifier tables. Each field is
/// the number the table gives (or the GM's X); the melee ones apply to melee and bare hands,
/// the ranged ones to ranged, thrown and guns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Situation {
    /// Melee: a particular body part, +3 or +5.
    pub body_part: i64,
    /// Melee: difficult terrain, +X.
    pub terrain: i64,
    /// Melee: an enemy on a horse, a vehicle or high ground, +2 or -2.
    pub elevation: i64,
    /// Melee: fighting more than two enemies, the GM's X per enemy, summed.
    pub crowd: i64,
    /// Ranged: the target is in combat with an ally, +3.
    pub ally_engaged: bool,
    /// Ranged: running, +2.
    pub running: bool,
    /// Ranged: half covered, +2.
    pub half_cover: bool,
    /// Ranged: barely visible, +4.
    pub barely_visible: bool,
    /// Ranged: far range +3; beyond range +5.
    pub far: bool,
    pub beyond: bool,
    /// Ranged: weather, +X.
    pub weather: i64,
}

impl Situation {
    /// The modifiers this situation adds to Evade for an attack made `ranged` or not, or the
    /// name of the first one that belongs to the other table.
    pub fn modifiers(&self, ranged: bool) -> Result<Vec<Modifier>, &'static str> {
        let melee = [
            ("body part", self.body_part),
            ("difficult terrain", self.terrain),
            ("elevation", self.elevation),
            ("more than two enemies", self.crowd),
        ];
        let far = [
            (
                "in combat with an ally",
                if self.ally_engaged { 3 } else { 0 },
            ),
            ("running", if self.running { 2 } else { 0 }),
            ("half covered", if self.half_cover { 2 } else { 0 }),
            ("barely visible", if self.barely_visible { 4 } else { 0 }),
            ("far range", if self.far { 3 } else { 0 }),
            ("beyond range", if self.beyond { 5 } else { 0 }),
            ("weather", self.weather),
        ];
        let (used, other) = if ranged {
            (&far[..], &melee[..])
        } else {
            (&melee[..], &far[..])
        };
        if let Some((name, _)) = other.iter().find(|(_, v)| *v != 0) {
            return Err(name);
        }
        Ok(used
            .iter()
            .filter(|(_, v)| *v != 0)
            .map(|(n, v)| Modifier::new(*n, *v))
            .collect())
    }
}

/// The attack's own bonuses (besides the die): the attribute that aims the weapon, the
/// weapon's and the sheet's bonuses, Brawl for bare hands (or Inaccurate at Brawl 0), the
/// Thrown or Missing property, and the situational +3s.
pub fn attack_modifiers(sheet: &Sheet, w: &Weapon, extra: &[(&'static str, i64)]) -> Vec<Modifier> {
    let mut out = vec![if w.kind.aims_with_senses() {
        Modifier::new("Senses", sheet.senses)
    } else {
        Modifier::new("Body", sheet.body)
    }];
    let mut push = |label: &str, v: i64| {
        if v != 0 {
            out.push(Modifier::new(label, v));
        }
    };
    push(&w.name, w.attack_bonus);
    push("ability", sheet.attack_bonus);
    if w.kind == WeaponKind::Unarmed {
        if sheet.skills.brawl == 0 {
            push("Inaccurate (Brawl 0)", INACCURATE);
        } else {
            push("Brawl", sheet.skills.brawl);
        }
    }
    if w.kind == WeaponKind::Thrown {
        if w.has(Trait::Thrown) {
            push("Thrown", THROWN);
        } else if w.has(Trait::Missing) {
            push("Missing", MISSING);
        }
    }
    for (label, v) in extra {
        push(label, *v);
    }
    out
}

/// Whether an attack hits: its total reaches the difficulty, or its die shows a natural 10
/// where that rule applies. The second value says the 10 alone made it hit.
pub fn attack_hits(total: i64, natural: u32, difficulty: i64, natural_ten: bool) -> (bool, bool) {
    let reaches = total >= difficulty;
    let by_ten = natural_ten && natural == 10 && !reaches;
    (reaches || by_ten, by_ten)
}

/// Whether a non-attack check with `total` against `difficulty` succeeds, ties as the table
/// rules them.
pub fn passes(total: i64, difficulty: i64, ties_succeed: bool) -> bool {
    match total.cmp(&difficulty) {
        Ordering::Greater => true,
        Ordering::Equal => ties_succeed,
        Ordering::Less => false,
    }
}

/// The dodge difficulty against an attack total: +3 against ranged weapons and thrown ones,
/// +5 against guns (in place of the +3, or on top of it when `gun_adds`).
pub fn dodge_difficulty(attack_total: i64, kind: WeaponKind, gun_adds: bool) -> i64 {
    attack_total
        + match kind {
            WeaponKind::Gun if gun_adds => DODGE_RANGED + DODGE_GUN,
            WeaponKind::Gun => DODGE_GUN,
            WeaponKind::Ranged | WeaponKind::Thrown => DODGE_RANGED,
            WeaponKind::Melee | WeaponKind::Unarmed => 0,
        }
}

/// One side of a Speed contest: its total and its Speed skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Speed {
    pub total: i64,
    pub skill: i64,
}

/// Whether the interrupter (`quick`) goes before the one it interrupts (`slow`): a higher
/// total, or on equal totals a higher Speed skill. Equal on both, the interrupter is not
/// quicker and the action it meant to beat goes first.
pub fn interrupts(quick: Speed, slow: Speed) -> bool {
    (quick.total, quick.skill) > (slow.total, slow.skill)
}

/// The damage die's value and whether it asks for a critical: a 10 on the die (for a divided
/// die its raw face, when the table allows it; for 2D10 take higher, the kept die).
pub fn damage_value(die: DamageDie, faces: &[u32], divided_crit: bool) -> (i64, bool) {
    let kept = faces.iter().copied().max().unwrap_or(0);
    let value = match die {
        DamageDie::D10 | DamageDie::Deadly => i64::from(kept),
        DamageDie::Half => crate::dice::DieKind::divided_value(2, kept).unwrap_or(0),
        DamageDie::Third => crate::dice::DieKind::divided_value(3, kept).unwrap_or(0),
        DamageDie::Quarter => crate::dice::DieKind::divided_value(4, kept).unwrap_or(0),
    };
    let crit = kept == 10 && (!die.is_divided() || divided_crit);
    (value, crit)
}

/// Whether two d10 of a gun's damage show a double: the gun jams.
pub fn doubles(faces: &[u32]) -> bool {
    matches!(faces, [a, b] if a == b)
}

/// The damage a hit deals: the weapon dice (one or two instances, a critical adding the
/// second) plus the attribute that drives the weapon, its bonus and the attacker's.
pub fn damage_modifiers(sheet: &Sheet, w: &Weapon) -> Vec<Modifier> {
    let mut out = vec![if w.kind.hits_with_senses() {
        Modifier::new("Senses", sheet.senses)
    } else {
        Modifier::new("Body", sheet.body)
    }];
    if w.damage_bonus != 0 {
        out.push(Modifier::new(&w.name, w.damage_bonus));
    }
    if sheet.damage_bonus != 0 {
        out.push(Modifier::new("ability", sheet.damage_bonus));
    }
    out
}

/// What a hit of `damage` takes off Life: less Toughness, never below 0. Bare hands against
/// armour deal half first, rounded down or up as the table rules.
pub fn damage_taken(damage: i64, toughness: i64, halve: Option<bool>) -> i64 {
    let dealt = match halve {
        Some(round_up) => {
            if round_up {
                (damage + 1) / 2
            } else {
                damage / 2
            }
        }
        None => damage,
    };
    (dealt - toughness).max(0)
}

/// The difficulty of the consciousness check at `life` below 0: the points below 0, plus 5.
/// `None` at 0 or more: no check.
pub fn consciousness_difficulty(life: i64) -> Option<i64> {
    (life < 0).then(|| -life + CONSCIOUSNESS_BASE)
}

/// A stun attack's damage: the ordinary damage doubled, then the Stunning bonus.
pub fn stun_damage(damage: i64, stunning: i64) -> i64 {
    damage * 2 + stunning
}

/// How far below 0 a stun attack's damage (after Toughness) takes `life`: `None` when Life
/// stays above 0 (no effect at all); at exactly 0, 0 (the check is made at 0 or below).
pub fn stun_below_zero(taken: i64, life: i64) -> Option<i64> {
    (taken >= life).then(|| taken - life)
}

/// Passive perception of a group: the best Senses + Perception of one character in it.
pub fn passive_perception(members: &[(i64, i64)]) -> i64 {
    members.iter().map(|(s, p)| s + p).max().unwrap_or(0)
}

/// Whether a hider with `stealth` is spotted by a passive perception: only below it.
pub fn spotted(stealth: i64, perception: i64) -> bool {
    stealth < perception
}

/// The difficulty an alert group's Perception check must reach: the lowest Stealth.
pub fn ambush_difficulty(stealth: &[i64]) -> Option<i64> {
    stealth.iter().copied().min()
}

/// Life a Medicine heal out of combat gives: a point for each point over 10.
pub fn medicine_heal(total: i64) -> i64 {
    (total - MEDICINE_HEAL).max(0)
}

/// Life a successful revive leaves: 0 with Survival; with Medicine, a point for each point
/// over the difficulty.
pub fn revived_life(total: i64, difficulty: i64, medicine: bool) -> i64 {
    if medicine {
        (total - difficulty).max(0)
    } else {
        0
    }
}

/// Life back from a night's sleep: half the maximum (rounded down) plus Body.
pub fn sleep_heal(life_max: i64, body: i64) -> i64 {
    life_max / 2 + body
}
