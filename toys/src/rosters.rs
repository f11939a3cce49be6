//! The casts of the toy tables: who sits where, with which numbers. The rules' tests, the
//! server's table task and the calculator all seat the same people, so a sequence means the
//! same thing on every host. Seats are `p1`, `p2`, `p3`; a combatant with no owner is the GM's.

use crate::prelude::*;

/// A combatant with a generic sheet of `stats`, starting with `resources`.
pub fn combatant(
    who: &str,
    owner: Option<&str>,
    side: &str,
    at: Option<Cell>,
    stats: &[(&str, i64)],
    resources: &[(&str, i64)],
) -> Combatant {
    let named = |pairs: &[(&str, i64)]| pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect();
    Combatant {
        id: EntityId::from(who),
        name: who.to_owned(),
        kind: if owner.is_some() { Kind::Pc } else { Kind::Npc },
        owner: owner.map(SeatId::from),
        side: side.to_owned(),
        position: at,
        sheet: Sheet::generic(named(stats)),
        resources: named(resources),
        statuses: BTreeMap::new(),
        turn: BTreeMap::new(),
    }
}

/// A raider (GM) attacks Aune (seat p1); Bram (seat p2) is at the table but not attacked.
pub fn vigor_roster(aune_vigor: i64) -> Vec<Combatant> {
    vec![
        combatant(
            "raider",
            None,
            "enemies",
            None,
            &[("guard", 12), ("damage", 3)],
            &[],
        ),
        combatant(
            "aune",
            Some("p1"),
            "players",
            None,
            &[("guard", 15)],
            &[("vigor", aune_vigor), ("durability", 10)],
        ),
        combatant(
            "bram",
            Some("p2"),
            "players",
            None,
            &[("guard", 14)],
            &[("vigor", 9)],
        ),
    ]
}

/// The raider (durability 10) against Aune, Bram and Cato (damage 2, 3 and 4), played from
/// seats p1, p2 and p3.
pub fn opening_roster() -> Vec<Combatant> {
    let pc = |who: &str, seat: &str, damage: i64| {
        combatant(
            who,
            Some(seat),
            "players",
            None,
            &[("guard", 14), ("damage", damage)],
            &[("vigor", 10)],
        )
    };
    vec![
        combatant(
            "raider",
            None,
            "enemies",
            None,
            &[("guard", 12), ("damage", 3)],
            &[("durability", 10)],
        ),
        pc("aune", "p1", 2),
        pc("bram", "p2", 3),
        pc("cato", "p3", 4),
    ]
}

/// A raider (reach: the next cell, damage 3, Morale 6) beside Aune (p1); Bram (p2) far off.
pub fn reach_roster() -> Vec<Combatant> {
    vec![
        combatant(
            "raider",
            None,
            "enemies",
            Some(Cell::new(1, 0)),
            &[("guard", 12), ("damage", 3), ("morale", 6)],
            &[("durability", 10)],
        ),
        combatant(
            "aune",
            Some("p1"),
            "players",
            Some(Cell::new(0, 0)),
            &[("guard", 15), ("damage", 2)],
            &[("vigor", 12), ("durability", 10)],
        ),
        combatant(
            "bram",
            Some("p2"),
            "players",
            Some(Cell::new(8, 8)),
            &[("guard", 14), ("damage", 3)],
            &[("vigor", 9), ("durability", 10)],
        ),
    ]
}

/// Beatrix (p1) and Markus (p2) against a thug; the players' side is acting.
pub fn mist_roster() -> Vec<Combatant> {
    vec![
        combatant(
            "beatrix",
            Some("p1"),
            "players",
            Some(Cell::new(0, 0)),
            &[("senses", 3), ("range", 10), ("evade", 7)],
            &[],
        ),
        combatant(
            "markus",
            Some("p2"),
            "players",
            Some(Cell::new(0, 2)),
            &[("senses", 2), ("range", 10), ("evade", 6)],
            &[],
        ),
        combatant(
            "thug",
            None,
            "enemies",
            Some(Cell::new(5, 0)),
            &[("senses", 1), ("range", 1), ("evade", 9)],
            &[],
        ),
    ]
}

/// 10acity's investigator: 3 Awareness hero dice, Investigation rank 5 (so 2d4 impact),
/// played from p1.
fn missa(resources: &[(&str, i64)]) -> Combatant {
    combatant(
        "missa",
        Some("p1"),
        "players",
        None,
        &[("awareness", 3), ("investigation", 5)],
        resources,
    )
}

/// Her companion, played from p2.
fn tomas() -> Combatant {
    combatant(
        "tomas",
        Some("p2"),
        "players",
        None,
        &[("awareness", 2), ("investigation", 1)],
        &[],
    )
}

/// Missa (p1) and Tomas (p2).
pub fn tenacity_roster() -> Vec<Combatant> {
    vec![missa(&[]), tomas()]
}

/// Missa (seat p1, 3 hero points) before a door whose challenge, 9, is the GM's.
pub fn push_roster() -> Vec<Combatant> {
    let mut door = combatant("door", None, "scene", None, &[("challenge", 9)], &[]);
    door.kind = Kind::Object;
    vec![missa(&[("hero_points", 3)]), door]
}

/// Missa (p1), Tomas (p2) and a cultist (the GM's); Missa holds the spotlight in round 1.
pub fn spotlight_roster() -> Vec<Combatant> {
    vec![
        missa(&[]),
        tomas(),
        combatant("cultist", None, "enemies", None, &[("awareness", 2)], &[]),
    ]
}
