//! Pure rules as tables: each row is a case with the text's numbers (E1..E13 are the worked
//! examples as rules/mist.md numbers them) or a derivation beside it.

use crate::dice::{DiceExpr, ScriptedDice, roll};
use crate::event::Modifier;

use super::super::checks::{
    Situation, Speed, ambush_difficulty, attack_hits, attack_modifiers, consciousness_difficulty,
    damage_modifiers, damage_taken, damage_value, dodge_difficulty, doubles, interrupts,
    medicine_heal, passes, passive_perception, revived_life, sleep_heal, spotted, stun_below_zero,
    stun_damage,
};
use super::super::jam;
use super::super::sheet::{DamageDie, Sheet, Trait, Weapon, WeaponKind, fists};
use super::{creature, with};

fn sheet(edit: impl FnOnce(&mut serde_json::Value)) -> Sheet {
    serde_json::from_value(with(creature("x", "npc"), edit)).unwrap()
}

fn weapon(kind: WeaponKind, damage: DamageDie, traits: &[Trait], bonus: i64) -> Weapon {
    Weapon {
        id: "w".into(),
        name: "w".into(),
        kind,
        damage,
        attack_bonus: bonus,
        traits: traits.to_vec(),
        ..fists()
    }
}

#[test]
fn the_division_table_is_looked_up_with_a_nine_on_d10_2_giving_4() {
    // Face: (D10/2, D10/3, D10/4), as printed; rolled through the core's divided dice too.
    let table = [
        (1, 1, 1, 1),
        (2, 1, 1, 1),
        (3, 2, 1, 1),
        (4, 2, 2, 1),
        (5, 3, 2, 2),
        (6, 3, 2, 2),
        (7, 4, 3, 2),
        (8, 4, 3, 2),
        (9, 4, 3, 3),
        (10, 5, 4, 3),
    ];
    for (face, half, third, quarter) in table {
        for (die, want) in [
            (DamageDie::Half, half),
            (DamageDie::Third, third),
            (DamageDie::Quarter, quarter),
            (DamageDie::D10, i64::from(face)),
        ] {
            assert_eq!(damage_value(die, &[face], true).0, want, "{die:?} {face}");
            let expr = DiceExpr::parse(die.notation()).unwrap();
            let r = roll(&expr, &mut ScriptedDice::new(vec![face])).unwrap();
            assert_eq!(r.total, want, "{die:?} {face} rolled");
        }
    }
}

#[test]
fn damage_dice_and_when_they_ask_for_a_critical() {
    // (die, faces, divided crits allowed, value, critical)
    let cases = [
        (DamageDie::D10, &[10][..], true, 10, true),
        // The table's word on divided dice leaves an undivided 10 a critical.
        (DamageDie::D10, &[10][..], false, 10, true),
        (DamageDie::Deadly, &[10, 2][..], false, 10, true),
        (DamageDie::D10, &[9][..], true, 9, false),
        // Deadly: 2D10 take higher; the kept die decides the critical.
        (DamageDie::Deadly, &[3, 10][..], true, 10, true),
        (DamageDie::Deadly, &[7, 4][..], true, 7, false),
        // A raw 10 on D10/2 is 5, a critical unless the table says divided dice never crit.
        (DamageDie::Half, &[10][..], true, 5, true),
        (DamageDie::Half, &[10][..], false, 5, false),
        (DamageDie::Quarter, &[10][..], true, 3, true),
    ];
    for (die, faces, divided, value, crit) in cases {
        assert_eq!(
            damage_value(die, faces, divided),
            (value, crit),
            "{die:?} {faces:?}"
        );
    }
    // Guns jam on a double of the two damage dice, whatever the face.
    for (faces, jams) in [
        (&[1, 1][..], true),
        (&[10, 10][..], true),
        (&[4, 5][..], false),
    ] {
        assert_eq!(doubles(faces), jams, "{faces:?}");
    }
}

#[test]
fn an_attack_hits_when_it_reaches_evade_or_on_a_natural_10() {
    // (total, natural, difficulty, natural 10 applies, hits, by the 10 alone)
    let cases = [
        // E4: Evade 7 needs 7 or more.
        (7, 4, 7, true, true, false),
        (6, 3, 7, true, false, false),
        // E3: 4 + Body 3 = 7 hits (the thug's Evade is at most 7).
        (7, 4, 7, true, true, false),
        // E2: 10 + Senses 3 + knife 2 = 15; and a natural 10 hits whatever the Evade.
        (15, 10, 20, true, true, true),
        // The natural 10 does not cover this attacker (an NPC, by default): a miss.
        (15, 10, 20, false, false, false),
    ];
    for (total, natural, difficulty, ten, hits, by_ten) in cases {
        assert_eq!(
            attack_hits(total, natural, difficulty, ten),
            (hits, by_ten),
            "{total} vs {difficulty}"
        );
    }
}

#[test]
fn attack_bonuses_follow_the_weapon_and_the_fist_and_thrown_rules() {
    let m = |l: &str, v: i64| Modifier::new(l, v);
    let beatrix = sheet(|v| {
        v["body"] = 2.into();
        v["senses"] = 3.into();
    });
    let brawler = sheet(|v| {
        v["body"] = 3.into();
        v["skills"] = serde_json::json!({"brawl": 2});
    });
    type Case<'a> = (&'a Sheet, Weapon, Vec<(&'static str, i64)>, Vec<Modifier>);
    let cases: Vec<Case> = vec![
        // E2: a knife made to be thrown aims with Senses 3 and gets +2: 10 + 3 + 2 = 15.
        (
            &beatrix,
            weapon(WeaponKind::Thrown, DamageDie::Half, &[Trait::Thrown], 0),
            vec![],
            vec![m("Senses", 3), m("Thrown", 2)],
        ),
        // An object not made to be throw: Missing, -4.
        (
            &beatrix,
            weapon(WeaponKind::Thrown, DamageDie::Third, &[Trait::Missing], 0),
            vec![],
            vec![m("Senses", 3), m("Missing", -4)],
        ),
        // Fists at Brawl 0 are Inaccurate: Body 2, -2.
        (
            &beatrix,
            fists(),
            vec![],
            vec![m("Body", 2), m("Inaccurate (Brawl 0)", -2)],
        ),
        // With Brawl, it adds to the attack: Body 3 + Brawl 2.
        (&brawler, fists(), vec![], vec![m("Body", 3), m("Brawl", 2)]),
        // A melee weapon with its bonus, aimed (+3) at an immobile target (+3).
        (
            &brawler,
            weapon(WeaponKind::Melee, DamageDie::D10, &[], 1),
            vec![("aimed", 3), ("immobile target", 3)],
            vec![
                m("Body", 3),
                m("w", 1),
                m("aimed", 3),
                m("immobile target", 3),
            ],
        ),
        // A gun aims with Senses.
        (
            &beatrix,
            weapon(WeaponKind::Gun, DamageDie::Deadly, &[], 0),
            vec![],
            vec![m("Senses", 3)],
        ),
    ];
    for (s, w, extra, want) in cases {
        assert_eq!(attack_modifiers(s, &w, &extra), want, "{:?}", w.kind);
    }
}

#[test]
fn the_modifier_tables_raise_evade_and_refuse_the_other_tables_rows() {
    let sum = |s: Situation, ranged: bool| {
        s.modifiers(ranged)
            .map(|v| v.iter().map(|m| m.value).sum::<i64>())
    };
    // (situation, ranged, what Evade rises by)
    let cases = [
        (
            Situation {
                body_part: 5,
                ..Situation::default()
            },
            false,
            Ok(5),
        ),
        (
            Situation {
                body_part: 3,
                terrain: 2,
                elevation: -2,
                crowd: 4,
                ..Situation::default()
            },
            false,
            Ok(7),
        ),
        (
            Situation {
                ally_engaged: true,
                ..Situation::default()
            },
            true,
            Ok(3),
        ),
        (
            Situation {
                running: true,
                half_cover: true,
                ..Situation::default()
            },
            true,
            Ok(4),
        ),
        (
            Situation {
                barely_visible: true,
                far: true,
                ..Situation::default()
            },
            true,
            Ok(7),
        ),
        (
            Situation {
                beyond: true,
                weather: 1,
                ..Situation::default()
            },
            true,
            Ok(6),
        ),
        // A ranged row on a melee attack, and a melee row on a ranged one, are refused.
        (
            Situation {
                running: true,
                ..Situation::default()
            },
            false,
            Err("running"),
        ),
        (
            Situation {
                body_part: 3,
                ..Situation::default()
            },
            true,
            Err("body part"),
        ),
    ];
    for (s, ranged, want) in cases {
        assert_eq!(sum(s, ranged), want, "{s:?}");
    }
}

#[test]
fn dodging_is_against_the_attack_total_raised_for_ranged_weapons_and_guns() {
    // (attack total, weapon, gun adds the ranged 3, difficulty)
    let cases = [
        // E5: a total of 9 in melee; Beatrix's 5 + 2 + 3 = 10 dodges it.
        (9, WeaponKind::Melee, false, 9),
        (9, WeaponKind::Ranged, false, 12),
        (9, WeaponKind::Thrown, false, 12),
        (9, WeaponKind::Gun, false, 14),
        (9, WeaponKind::Gun, true, 17),
    ];
    for (total, kind, adds, want) in cases {
        assert_eq!(dodge_difficulty(total, kind, adds), want, "{kind:?}");
    }
    assert!(passes(10, 9, true), "E5: 10 against 9 dodges");
    assert!(!passes(10, 12, true), "E5 against a ranged attack fails");
}

#[test]
fn a_speed_contest_goes_to_the_higher_total_then_the_higher_speed_skill() {
    let s = |total, skill| Speed { total, skill };
    // (interrupter, interrupted, interrupter goes first)
    let cases = [
        // E2: 6 + Body 2 + Speed 3 = 11 against 9 + Body 2 + Speed 0 = 11; skill 3 > 0.
        (s(11, 3), s(11, 0), true),
        (s(12, 0), s(11, 3), true),
        (s(10, 5), s(11, 0), false),
        // Equal on both: the interrupter is not quicker.
        (s(11, 2), s(11, 2), false),
    ];
    for (quick, slow, first) in cases {
        assert_eq!(interrupts(quick, slow), first, "{quick:?} {slow:?}");
    }
}

#[test]
fn damage_taken_is_less_toughness_not_body_and_bare_hands_halve_against_armour() {
    // (damage, Toughness, halve (None: no; Some(round up)), taken)
    let cases = [
        // E8: 8 damage on Toughness 1: 7 taken (Markus's Body 3 is not subtracted).
        (8, 1, None, 7),
        (3, 5, None, 0),
        // Bare hands on armour: half of 9 is 4 (down) or 5 (up), then Toughness 1.
        (9, 1, Some(false), 3),
        (9, 1, Some(true), 4),
    ];
    for (damage, toughness, halve, taken) in cases {
        assert_eq!(damage_taken(damage, toughness, halve), taken, "{damage}");
    }
}

#[test]
fn the_consciousness_difficulty_is_the_points_below_0_plus_5() {
    // (Life, difficulty)
    let cases = [
        (-6, Some(11)), // E7
        (-3, Some(8)),  // E8: 4 Life - 7 taken
        (-1, Some(6)),
        (0, None), // at 0 no check: only below it
        (3, None),
    ];
    for (life, want) in cases {
        assert_eq!(consciousness_difficulty(life), want, "{life}");
    }
    // E8: 3 + Willpower 2 + Pain Resistance 2 = 7 (the text prints 6) against 8: unconscious.
    assert!(!passes(7, 8, true) && !passes(6, 8, true));
    // E13: Willpower 2 + Pain Resistance 2 reach 14 at most, under 16: no 10 saves it.
    assert!(!passes(10 + 2 + 2, 16, true));
    // Ties as the table rules them.
    assert!(passes(8, 8, true) && !passes(8, 8, false));
}

#[test]
fn stun_perception_and_healing_arithmetic() {
    // Stun: (5 + Body 3 + 0) x 2, then Stunning 2 after the doubling.
    assert_eq!(stun_damage(8, 2), 18);
    assert_eq!(stun_damage(8, 0), 16);
    // E10: Senses 2 + Perception 3 = 5; a hider rolling 4 is spotted, 5 is not.
    assert_eq!(passive_perception(&[(2, 3), (1, 1)]), 5);
    assert!(spotted(4, 5) && !spotted(5, 5));
    // E11: Stealth 9 and 11: the searchers' Perception difficulty is 9.
    assert_eq!(ambush_difficulty(&[9, 11]), Some(9));
    // Medicine out of combat: a point per point over 10; exactly 10 heals nothing.
    for (total, life) in [(10, 0), (13, 3), (7, 0)] {
        assert_eq!(medicine_heal(total), life, "{total}");
    }
    // E9: Medicine 5 + Science 2 + Medicine 3 = 10 on difficulty 8: back with 2 Life;
    // Survival would leave 0.
    assert_eq!(revived_life(10, 8, true), 2);
    assert_eq!(revived_life(10, 8, false), 0);
    // Sleep: half of 9 Life rounded down (4) + Body 2.
    assert_eq!(sleep_heal(9, 2), 6);
}

#[test]
fn the_jam_table_data_has_ten_rows_and_only_a_10_still_shoots() {
    let rows = jam::table().unwrap();
    assert_eq!(rows.len(), 10);
    let shooting: Vec<u32> = rows.iter().filter(|r| r.shot).map(|r| r.face).collect();
    assert_eq!(shooting, vec![10]);
    assert_eq!(jam::row(1).unwrap().out, jam::After::Destroyed);
    assert_eq!(jam::row(7).unwrap().out, jam::After::Reload);
    assert_eq!(jam::row(9).unwrap().out, jam::After::Fine);
}

#[test]
fn penetrating_and_defensive_are_recorded_and_change_nothing_computed() {
    // The text names both (guns are Penetrating) and leaves their meaning to an equipment
    // chapter it does not hold: a weapon carrying them aims, hits and stuns exactly as the
    // same weapon without them; the GM rules what they do.
    let markus = sheet(|v| v["body"] = 3.into());
    for kind in [WeaponKind::Melee, WeaponKind::Gun] {
        let die = if kind == WeaponKind::Gun {
            DamageDie::Deadly
        } else {
            DamageDie::D10
        };
        let plain = weapon(kind, die, &[], 1);
        let marked = weapon(kind, die, &[Trait::Penetrating, Trait::Defensive], 1);
        assert_eq!(
            attack_modifiers(&markus, &plain, &[]),
            attack_modifiers(&markus, &marked, &[])
        );
        assert_eq!(
            damage_modifiers(&markus, &plain),
            damage_modifiers(&markus, &marked)
        );
    }
}

#[test]
fn a_stun_reaches_its_check_at_0_life_or_below() {
    // (taken, Life) → points below 0 for the consciousness check, or no effect at all:
    // E13's 13 on Life 2 is 11 below (check 16); 9 on Life 10 does nothing; exactly 10 on
    // Life 10 brings it to 0: a check at 0 + 5.
    for (taken, life, below) in [(13, 2, Some(11)), (9, 10, None), (10, 10, Some(0))] {
        assert_eq!(stun_below_zero(taken, life), below, "{taken} on {life}");
    }
}

/// A table whose options predate one of mist's reads that option's documented default.
#[test]
fn a_table_without_an_option_reads_its_default() {
    use super::super::options::{INTERRUPT_WINDOW, STUN_TOUGHNESS, choice_of, is};
    let old = crate::options::TableOptions::default();
    assert_eq!(choice_of(&old, INTERRUPT_WINDOW), "offer");
    assert_eq!(choice_of(&old, STUN_TOUGHNESS), "subtracts");
    assert!(is(&old, INTERRUPT_WINDOW, "offer"));
    assert!(!is(&old, INTERRUPT_WINDOW, "never"));
}

/// A held action is not one to take in the group's turn: one action held leaves none, two
/// with one held leave one.
#[test]
fn a_held_action_is_not_one_left_for_the_turn() {
    use super::super::round::turn_actions;
    let held = |actions: i64, delayed: bool| {
        let mut c = crate::testing::combatant("beatrix", "pc", None, &[("action", actions)]);
        if delayed {
            c.statuses.insert(
                super::super::DELAYED.into(),
                crate::state::Status {
                    source: "delay".into(),
                    magnitude: 0,
                    rounds_left: None,
                },
            );
        }
        turn_actions(&c)
    };
    assert_eq!(
        [held(1, false), held(1, true), held(2, true), held(0, false)],
        [1, 0, 1, 0]
    );
}
