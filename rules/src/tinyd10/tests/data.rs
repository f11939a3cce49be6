//! The shipped data loads, holds together, and says what the text says where a rule reads it.

use super::super::content::{Attribute, Weight, content};

#[test]
fn the_data_tables_load_and_hold_together() {
    let c = content().unwrap();
    assert_eq!(c.races.len(), 4);
    assert_eq!(c.classes.len(), 4);
    assert_eq!(c.skills.len(), 21);
    // 10 divine, 15 magical, 10 advanced divine, 15 advanced magical.
    assert_eq!(c.spells.len(), 50);
    assert_eq!(c.spells.iter().filter(|s| s.advanced).count(), 25);
    // 12 starting abilities and 15 + 15 + 14 + 15 later (cleric, rogue, warrior, wizard) ones.
    assert_eq!(c.abilities.iter().filter(|a| a.start).count(), 12);
    assert_eq!(c.abilities.len(), 12 + 15 + 15 + 14 + 15);
    assert!(
        !c.skills.iter().any(|s| s.attribute == Attribute::Power),
        "no power skills"
    );
}

#[test]
fn the_d10_tables_read_as_the_text_prints_them() {
    let c = content().unwrap();
    let mp: Vec<i64> = (1..=10).map(|f| c.mp_for_roll(f).unwrap()).collect();
    assert_eq!(mp, [4, 4, 4, 4, 4, 5, 5, 5, 5, 6]);
    let reaction: Vec<&str> = (1..=10)
        .map(|f| c.reaction_for(f).unwrap().id.as_str())
        .collect();
    assert_eq!(
        reaction,
        [
            "hostile_attacks",
            "hostile_attacks",
            "hostile_attacks",
            "hostile_attacks",
            "hostile",
            "hostile",
            "unfriendly",
            "unfriendly",
            "neutral",
            "friendly"
        ]
    );
    let xp: Vec<i64> = (2..=5).map(|l| c.xp_for(l).unwrap()).collect();
    assert_eq!(xp, [50, 100, 200, 400]);
}

#[test]
fn class_numbers_and_limits_are_the_texts() {
    let c = content().unwrap();
    // (class, T, HP, PP, MP, weapons, armour)
    let want = [
        ("cleric", 6, 0, 2, 1, Weight::Mw, Weight::Mw),
        ("rogue", 6, 1, 2, 0, Weight::Mw, Weight::Lw),
        ("warrior", 7, 2, 1, 0, Weight::Hw, Weight::Hw),
        ("wizard", 5, 0, 0, 3, Weight::Lw, Weight::Fw),
    ];
    for (id, t, hp, pp, mp, w, a) in want {
        let k = c.class(id).unwrap();
        assert_eq!(
            (k.toughness, k.hp, k.pp, k.mp, k.weapons, k.armour),
            (t, hp, pp, mp, w, a),
            "{id}"
        );
    }
    // Spell costs the rules read.
    for (id, mp) in [
        ("sword_of_the_spirit", 1),
        ("fireball_1", 2),
        ("magic_missile_1", 0),
        ("ray_of_death", 4),
        ("resurrection", 6),
    ] {
        assert_eq!(c.spell(id).unwrap().mp, Some(mp), "{id}");
    }
    assert_eq!(
        c.spell("imprint_spell").unwrap().mp,
        None,
        "the text gives Imprint spell no cost"
    );
}
