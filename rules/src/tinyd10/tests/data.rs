//! The shipped data loads, holds together, and says what the text says where a rule reads it.

use super::super::content::{Attribute, Content, Weight, content};

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

/// A table broken in one place is refused, the file and the row named: each case breaks the
/// shipped data one way.
#[test]
fn broken_data_is_refused_with_the_file_and_the_row_named() {
    type Break = fn(&mut Content);
    let cases: [(&str, Break, &str, &str); 19] = [
        (
            "a race twice",
            |c| c.races.push(c.races[0].clone()),
            "races.toml",
            "is listed twice",
        ),
        (
            "a class twice",
            |c| c.classes.push(c.classes[0].clone()),
            "classes.toml",
            "is listed twice",
        ),
        (
            "a weapon named as an armour",
            |c| c.weapons[0].id = c.armour[0].id.clone(),
            "equipment.toml",
            "is listed twice",
        ),
        (
            "an item named as a weapon",
            |c| c.items[0].id = c.weapons[0].id.clone(),
            "equipment.toml",
            "is listed twice",
        ),
        (
            "a spell twice",
            |c| c.spells.push(c.spells[3].clone()),
            "spells.toml",
            "is listed twice",
        ),
        (
            "an ability twice",
            |c| c.abilities.push(c.abilities[5].clone()),
            "abilities.toml",
            "is listed twice",
        ),
        (
            "a skill twice",
            |c| c.skills.push(c.skills[2].clone()),
            "tables.toml",
            "is listed twice",
        ),
        (
            "a race's unknown skill",
            |c| c.races[0].skills.push("juggling".into()),
            "races.toml",
            "names the unknown skill `juggling`",
        ),
        (
            "a class's unknown ability",
            |c| c.classes[0].abilities.push("juggling".into()),
            "classes.toml",
            "names the unknown ability `juggling`",
        ),
        (
            "another class's first ability",
            |c| {
                let other = c
                    .abilities
                    .iter()
                    .find(|a| a.start && a.class != c.classes[0].id)
                    .unwrap()
                    .id
                    .clone();
                c.classes[0].abilities.push(other);
            },
            "abilities.toml",
            "is not a level 1",
        ),
        (
            "a later ability at the start",
            |c| {
                let later = c
                    .abilities
                    .iter()
                    .find(|a| !a.start && a.class == c.classes[0].id)
                    .unwrap()
                    .id
                    .clone();
                c.classes[0].choose_one.push(later);
            },
            "abilities.toml",
            "is not a level 1",
        ),
        (
            "a caster without spells",
            |c| {
                let caster = c.classes.iter_mut().find(|k| k.casting.is_some()).unwrap();
                caster.spells = 0;
            },
            "classes.toml",
            "a caster starts with spells",
        ),
        (
            "a later ability of no class",
            |c| {
                let later = c.abilities.iter_mut().find(|a| !a.start).unwrap();
                later.class = "bard".into();
            },
            "abilities.toml",
            "the unknown class `bard`",
        ),
        (
            "a second cost for nothing",
            |c| {
                let s = c.spells.iter_mut().find(|s| s.mp_alt.is_some()).unwrap();
                s.alt = None;
            },
            "spells.toml",
            "a second cost says what it is for",
        ),
        (
            "a save that does nothing",
            |c| {
                let s = c.spells.iter_mut().find(|s| !s.save.is_empty()).unwrap();
                s.on_save = None;
            },
            "spells.toml",
            "a save says what it does",
        ),
        (
            "a gap in the MP roll",
            |c| c.mp_roll[1].low += 1,
            "tables.toml",
            "mp_roll: the band",
        ),
        (
            "a band ending before it starts",
            |c| {
                let b = &mut c.reaction[0];
                b.high = b.low - 1;
            },
            "tables.toml",
            "reaction: the band 1-0 does not follow face 0",
        ),
        (
            "a d10 table stopping short",
            |c| {
                c.reaction.pop();
            },
            "tables.toml",
            "reaction: the bands stop at",
        ),
        (
            "levels out of order",
            |c| c.levels.swap(0, 1),
            "tables.toml",
            "levels 2 to 5 in order",
        ),
    ];
    let shipped = content().unwrap();
    assert_eq!(shipped.check(), Ok(()));
    for (name, break_it, file, problem) in cases {
        let mut c = shipped.clone();
        break_it(&mut c);
        let e = c.check().expect_err(name);
        assert_eq!(e.file, file, "{name}: {e}");
        assert!(e.problem.contains(problem), "{name}: {e}");
    }
}
