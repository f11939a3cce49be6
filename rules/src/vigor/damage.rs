//! What a hit does once its dice are rolled: superior Durability, armour by rank and quality,
//! cover, then Durability before Health, Wounded at 0 Durability, Shock at 0 Health, death for
//! any damage taken in Shock. Pure numbers here; `strike` turns them into events.

use crate::event::Modifier;

use super::sheet::{DamageType, Quality};

/// The blow as it lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blow {
    pub rolled: i64,
    pub weapon: Quality,
    pub kind: DamageType,
}

/// What stands between the blow and the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Protection {
    /// The highest Armor Rank worn, its quality, and whether it stops only physical damage.
    pub armour: Option<(i64, Quality, bool)>,
    /// Armor Rank that cover adds.
    pub cover: i64,
    pub durability: Quality,
    /// Objects are not alive: toxic damage does not harm them.
    pub object: bool,
}

/// Whether a weapon of quality `weapon` passes through armour of quality `armour`. The text
/// gives two readings; `three_steps` is the one that names a threshold.
pub fn ignores_armour(weapon: Quality, armour: Quality, any_superior: bool) -> bool {
    if any_superior {
        weapon > armour
    } else {
        weapon >= Quality::Heroic && weapon.rank() - armour.rank() >= 3
    }
}

/// The damage that gets through, with each step for the account.
pub fn through(blow: Blow, p: Protection, any_superior: bool) -> (i64, Vec<Modifier>) {
    let mut steps = vec![Modifier::new("rolled", blow.rolled)];
    if p.object && blow.kind == DamageType::Toxic {
        steps.push(Modifier::new("toxic: harms only the living", -blow.rolled));
        return (0, steps);
    }
    if p.durability > Quality::Ordinary && blow.weapon < p.durability {
        steps.push(Modifier::new(
            format!("{} Durability: immune", p.durability.word()),
            -blow.rolled,
        ));
        return (0, steps);
    }
    let mut rank = 0;
    if let Some((ar, quality, physical_only)) = p.armour {
        if physical_only && !blow.kind.is_physical() {
            steps.push(Modifier::new("armour does not stop this damage", 0));
        } else if ignores_armour(blow.weapon, quality, any_superior) {
            steps.push(Modifier::new("armour ignored by a superior weapon", 0));
        } else {
            rank = ar;
        }
    }
    let mut amount = blow.rolled;
    if rank > 0 {
        let cut = rank.min(amount);
        steps.push(Modifier::new("Armor Rank", -cut));
        amount -= cut;
    }
    if p.cover > 0 && amount > 0 {
        let cut = p.cover.min(amount);
        steps.push(Modifier::new("cover", -cut));
        amount -= cut;
    }
    (amount, steps)
}

/// A body's tracks before a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Track {
    pub durability: i64,
    pub health: i64,
    pub object: bool,
}

/// The tracks after a hit and what it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct After {
    pub durability: i64,
    pub health: i64,
    /// Killed outright (damage in Shock) or, for an object, destroyed.
    pub killed: bool,
}

/// Takes `amount` off `t`. `carry` sends what is left after the last point of Durability on to
/// Health in the same hit. Health already at 0 means the creature is in Shock (or stabilised
/// there): any damage then kills.
pub fn take(t: Track, amount: i64, carry: bool) -> After {
    let amount = amount.max(0);
    if t.object {
        let durability = (t.durability - amount).max(0);
        return After {
            durability,
            health: t.health,
            killed: durability == 0,
        };
    }
    if amount == 0 {
        return After {
            durability: t.durability,
            health: t.health,
            killed: false,
        };
    }
    if t.durability > 0 {
        let absorbed = amount.min(t.durability);
        let durability = t.durability - absorbed;
        let rest = if carry { amount - absorbed } else { 0 };
        return After {
            durability,
            health: (t.health - rest).max(0),
            killed: false,
        };
    }
    if t.health == 0 {
        return After {
            durability: 0,
            health: 0,
            killed: true,
        };
    }
    After {
        durability: 0,
        health: (t.health - amount).max(0),
        killed: false,
    }
}
