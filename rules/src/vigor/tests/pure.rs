//! Pure rules as tables: each row is a case with the text's numbers or a derivation beside it.

use crate::dice::{Primitive, ScriptedDice, roll};
use crate::event::Modifier;

use super::super::attack::defense_dice;
use super::super::bonus_dice::{Steps, action_roll, burst_in, damage_roll};
use super::super::damage::{After, Blow, Protection, Track, ignores_armour, take, through};
use super::super::guard::{Cover, Situation, guard};
use super::super::round::{move_feet, vigor_recovered};
use super::super::sheet::{DamageType, Quality};

#[test]
fn bonus_dice_step_by_charges_challenges_and_wounded_cancelling_first() {
    use Primitive::*;
    // (charges, challenges, wounded, die, why)
    let cases = [
        (0, 0, false, D10, "bonus dice are d10 by default"),
        (0, 1, false, D8, "one challenge: d10 to d8"),
        (0, 2, false, D6, "two: d8 to d6"),
        (0, 3, false, D4, "three: d6 to d4, 'particularly hindered'"),
        (0, 7, false, D4, "never below d4"),
        (1, 0, false, D12, "a charge: d10 to d12"),
        (2, 0, false, D20, "two: d12 to d20"),
        (6, 0, false, D20, "no rank above d20"),
        (1, 1, false, D10, "one for one they cancel"),
        (0, 0, true, D8, "Wounded moves bonus dice down one step"),
        (1, 0, true, D10, "a charge cancels Wounded"),
        (
            1,
            2,
            true,
            D6,
            "net two challenges after one charge cancels one",
        ),
        // Cancelling first: 5 charges and 3 challenges are 2 charges, d20. Stepping each in
        // turn with the clamp would stop at d20 and come back to d10.
        (5, 3, false, D20, "cancel first, then step once"),
        (3, 5, false, D6, "net two challenges"),
    ];
    for (charges, challenges, wounded, die, why) in cases {
        let s = Steps {
            charges,
            challenges,
            wounded,
        };
        assert_eq!(s.die(), die, "{why}: {s:?}");
    }
}

#[test]
fn a_rolls_label_names_the_charges_challenges_and_wounded_that_moved_its_dice() {
    // (charges, challenges, wounded, words)
    let cases = [
        (0, 0, false, ""),
        (1, 0, false, "1 charge"),
        (2, 0, false, "2 charges"),
        (0, 1, false, "1 challenge"),
        // The off-hand's two challenges on a wounded attacker.
        (0, 2, true, "2 challenges, wounded"),
        (0, 0, true, "wounded"),
        // Both are named even where they cancel: the label says what was on the roll.
        (1, 1, false, "1 charge, 1 challenge"),
    ];
    for (charges, challenges, wounded, words) in cases {
        let s = Steps {
            charges,
            challenges,
            wounded,
        };
        assert_eq!(s.describe(), words, "{s:?}");
    }
}

#[test]
fn action_rolls_add_bonus_dice_to_the_d20_and_bursts_follow_the_option() {
    use Primitive::*;
    // (bonus dice, die, bursting, faces, total, burst named, expression the table reads)
    type Case = (
        i64,
        Primitive,
        bool,
        &'static [u32],
        i64,
        bool,
        &'static str,
    );
    let cases: [Case; 7] = [
        // No bonus dice: the d20 alone, with no empty bonus term written.
        (0, D10, true, &[14], 14, false, "1d20"),
        (1, D10, true, &[9, 7], 16, false, "1d20+1d10!"),
        // 10 on a d10 bursts: another d10 (4) is added: 9 + 10 + 4.
        (1, D10, true, &[9, 10, 4], 23, true, "1d20+1d10!"),
        // A burst die that bursts again: 9 + 10 + 10 + 1.
        (1, D10, true, &[9, 10, 10, 1], 30, true, "1d20+1d10!"),
        // With bursts off the maximum is named but adds nothing: 9 + 10.
        (1, D10, false, &[9, 10], 19, true, "1d20+1d10"),
        // The d20 action die never bursts: a natural 20 is just 20.
        (1, D8, true, &[20, 3], 23, false, "1d20+1d8!"),
        // Two stepped-down d6 bonus dice, the first bursting: 5 + 6 + 2 + 3.
        (2, D6, true, &[5, 6, 2, 3], 16, true, "1d20+2d6!"),
    ];
    for (n, die, burst, faces, total, named, expr) in cases {
        let mut dice = ScriptedDice::new(faces.to_vec());
        let r = roll(&action_roll(n, die, burst), &mut dice).unwrap();
        assert_eq!(
            (r.total, burst_in(&r), r.expr.as_str()),
            (total, named, expr),
            "{faces:?}"
        );
        assert!(dice.unused().is_empty(), "{faces:?}");
    }
}

#[test]
fn damage_rolls_quality_dice_that_never_burst_plus_bonus_dice_that_do() {
    use Primitive::*;
    // (weapon dice, weapon die, bonus dice, bonus die, faces, total, critical)
    type Case = (i64, Primitive, i64, Primitive, &'static [u32], i64, bool);
    let cases: [Case; 4] = [
        // An ordinary sword, damage 1: 1d8, plus one Strength d10.
        (1, D8, 1, D10, &[5, 3], 8, false),
        // The quality die on its maximum does not burst and is no critical hit.
        (1, D8, 1, D10, &[8, 3], 11, false),
        // A heroic axe of damage 3: 3d10; the Strength die bursts: critical hit.
        (3, D10, 1, D10, &[1, 2, 3, 10, 5], 21, true),
        // No bonus dice: just the weapon.
        (2, D8, 0, D10, &[4, 4], 8, false),
    ];
    for (n, wd, b, bd, faces, total, critical) in cases {
        let mut dice = ScriptedDice::new(faces.to_vec());
        let r = roll(&damage_roll(n, wd, b, bd, true), &mut dice).unwrap();
        assert_eq!((r.total, burst_in(&r)), (total, critical), "{faces:?}");
        assert!(dice.unused().is_empty());
    }
}

#[test]
fn guard_is_halved_for_the_unaware_then_raised_by_size_and_cover() {
    let s = Situation::default;
    // (situation, guard, why)
    let cases = [
        (s(), 15, "15 plus nothing"),
        (
            Situation {
                behind_unaware: true,
                ..s()
            },
            8,
            "the text: a surprise attack from behind must beat 8, not 15",
        ),
        (
            Situation {
                size_over: 2,
                ..s()
            },
            25,
            "a human attacking a mouse: +10 for 2 sizes",
        ),
        (
            Situation {
                size_over: 4,
                ..s()
            },
            35,
            "colossal against medium: +20 for 4 sizes",
        ),
        (
            Situation {
                size_over: -2,
                ..s()
            },
            15,
            "only the larger attacking the smaller",
        ),
        (
            Situation {
                behind_unaware: true,
                size_over: 2,
                ..s()
            },
            18,
            "halved first (8), then +10",
        ),
        (
            Situation {
                cover: Some(Cover::Light),
                ranged: true,
                ..s()
            },
            25,
            "light cover +10 against a direct ranged attack",
        ),
        (
            Situation {
                cover: Some(Cover::Light),
                ranged: true,
                area: true,
                ..s()
            },
            15,
            "area attacks ignore light cover",
        ),
        (
            Situation {
                cover: Some(Cover::Partial),
                ranged: true,
                ..s()
            },
            18,
            "partial cover +3",
        ),
        (
            Situation {
                cover: Some(Cover::Full),
                ranged: true,
                ..s()
            },
            20,
            "full cover +5",
        ),
        (
            Situation {
                cover: Some(Cover::Full),
                ..s()
            },
            15,
            "cover counts against attackers at range only",
        ),
        (
            Situation {
                ranged: true,
                visibility: 5,
                ..s()
            },
            20,
            "reduced visibility: +5 to what a shot must beat",
        ),
        (
            Situation {
                cover: Some(Cover::Partial),
                ranged: true,
                visibility: 10,
                ..s()
            },
            28,
            "partial cover +3 and low visibility +10 both add",
        ),
    ];
    for (situation, expected, why) in cases {
        assert_eq!(guard(15, &situation).0, expected, "{why}");
    }
    // Cover's Armor Rank: light none, partial +5, full +10.
    let ar: Vec<i64> = [Cover::Light, Cover::Partial, Cover::Full]
        .into_iter()
        .map(Cover::armour)
        .collect();
    assert_eq!(ar, vec![0, 5, 10]);
}

#[test]
fn guard_tells_each_step_that_built_it() {
    let s = Situation::default;
    // (situation, steps as a player reads them for a player's character)
    let cases: [(Situation, &[(&str, i64)]); 5] = [
        // Nothing changes Guard: the base alone, so there is no "because" to tell.
        (s(), &[("Guard", 15)]),
        // Halved rounding up: 15 to 8 is 7 off.
        (
            Situation {
                behind_unaware: true,
                ..s()
            },
            &[("Guard", 15), ("unaware, from behind: halved", -7)],
        ),
        // Halved to 8 first, then +5 for each of 2 sizes.
        (
            Situation {
                behind_unaware: true,
                size_over: 2,
                ..s()
            },
            &[
                ("Guard", 15),
                ("unaware, from behind: halved", -7),
                ("smaller than the attacker", 10),
            ],
        ),
        // Partial cover +3 against a shot, reduced visibility +5.
        (
            Situation {
                cover: Some(Cover::Partial),
                ranged: true,
                visibility: 5,
                ..s()
            },
            &[("Guard", 15), ("partial cover", 3), ("poor visibility", 5)],
        ),
        // An area attack passes light cover: nothing added.
        (
            Situation {
                cover: Some(Cover::Light),
                ranged: true,
                area: true,
                ..s()
            },
            &[("Guard", 15)],
        ),
    ];
    for (situation, expected) in cases {
        let (_, steps) = guard(15, &situation);
        let got: Vec<(&str, i64)> = steps.iter().map(|m| (m.label.as_str(), m.value)).collect();
        assert_eq!(got, expected.to_vec(), "{situation:?}");
    }
}

#[test]
fn armour_rank_quality_energy_and_superior_durability_decide_what_gets_through() {
    use Quality::*;
    let blow = |rolled, weapon, kind| Blow {
        rolled,
        weapon,
        kind,
    };
    let worn = |ar, q| Protection {
        armour: Some((ar, q, true)),
        ..Protection::default()
    };
    // (blow, protection, any_superior, through, why)
    let cases = [
        (
            blow(9, Ordinary, DamageType::Kinetic),
            worn(3, Ordinary),
            false,
            6,
            "AR 3 off 9",
        ),
        (
            blow(2, Ordinary, DamageType::Kinetic),
            worn(3, Ordinary),
            false,
            0,
            "never below 0",
        ),
        (
            blow(9, Ordinary, DamageType::Thermal),
            worn(3, Ordinary),
            false,
            9,
            "normal armour stops no fire",
        ),
        (
            blow(9, Ordinary, DamageType::Thermal),
            Protection {
                armour: Some((3, Ordinary, false)),
                ..Protection::default()
            },
            false,
            6,
            "armour made to stop energy does",
        ),
        (
            blow(9, Epic, DamageType::Kinetic),
            worn(3, Feeble),
            false,
            9,
            "epic is three steps over feeble: ignored",
        ),
        (
            blow(9, Heroic, DamageType::Kinetic),
            worn(3, Ordinary),
            false,
            6,
            "heroic is one step over ordinary: not ignored",
        ),
        (
            blow(9, Heroic, DamageType::Kinetic),
            worn(3, Ordinary),
            true,
            9,
            "option: any superior weapon ignores armour",
        ),
        (
            blow(9, Ordinary, DamageType::Kinetic),
            worn(3, Ordinary),
            true,
            6,
            "option: a weapon of the armour's own quality is not superior: 9 - 3",
        ),
        (
            blow(9, Ordinary, DamageType::Kinetic),
            Protection {
                durability: Heroic,
                ..Protection::default()
            },
            false,
            0,
            "heroic Durability is harmed only by heroic weapons or better",
        ),
        (
            blow(9, Heroic, DamageType::Kinetic),
            Protection {
                durability: Heroic,
                ..Protection::default()
            },
            false,
            9,
            "a heroic weapon harms heroic Durability",
        ),
        (
            blow(9, Ordinary, DamageType::Kinetic),
            Protection {
                armour: Some((2, Ordinary, true)),
                cover: 5,
                ..Protection::default()
            },
            false,
            2,
            "partial cover's +5 AR on top of AR 2",
        ),
    ];
    let object = Protection {
        object: true,
        ..Protection::default()
    };
    let cases: Vec<_> = cases
        .into_iter()
        .chain([
            (
                blow(9, Ordinary, DamageType::Toxic),
                object,
                false,
                0,
                "toxic harms only the living",
            ),
            (
                blow(9, Ordinary, DamageType::Kinetic),
                object,
                false,
                9,
                "a blade harms a door",
            ),
            (
                blow(9, Ordinary, DamageType::Radiation),
                worn(3, Ordinary),
                false,
                9,
                "radiation passes normal armour",
            ),
        ])
        .collect();
    for (b, p, any, expected, why) in cases {
        let (amount, steps) = through(b, p, any);
        assert_eq!(amount, expected, "{why}");
        let sum: i64 = steps.iter().map(|m: &Modifier| m.value).sum();
        assert_eq!(sum, expected, "{why}: the steps add up to the amount");
    }
    // The three-step rule starts at heroic: legendary over ordinary is three, epic over
    // ordinary is two.
    assert!(ignores_armour(Legendary, Ordinary, false));
    assert!(!ignores_armour(Epic, Ordinary, false));
    assert!(!ignores_armour(Ordinary, Feeble, false));
    assert!(ignores_armour(Ordinary, Feeble, true));
}

#[test]
fn what_gets_through_is_told_step_by_step_naming_only_what_acted() {
    use Quality::*;
    let blow = |rolled, weapon, kind| Blow {
        rolled,
        weapon,
        kind,
    };
    let worn = |ar, q, cover| Protection {
        armour: Some((ar, q, true)),
        cover,
        ..Protection::default()
    };
    let kinetic = |rolled| blow(rolled, Ordinary, DamageType::Kinetic);
    // (blow, protection, the steps a player reads)
    type Case = (Blow, Protection, &'static [(&'static str, i64)]);
    let cases: [Case; 7] = [
        // Nothing worn, no cover: the roll alone.
        (kinetic(9), Protection::default(), &[("rolled", 9)]),
        // AR 2 then partial cover's 5: 9 - 2 - 5.
        (
            kinetic(9),
            worn(2, Ordinary, 5),
            &[("rolled", 9), ("Armor Rank", -2), ("cover", -5)],
        ),
        // AR 3 takes all of 2: cover has nothing left to stop and is not listed.
        (
            kinetic(2),
            worn(3, Ordinary, 5),
            &[("rolled", 2), ("Armor Rank", -2)],
        ),
        // Fire passes armour made for physical harm: nothing is cut, and the step says why.
        (
            blow(9, Ordinary, DamageType::Thermal),
            worn(3, Ordinary, 0),
            &[("rolled", 9), ("armour does not stop this damage", 0)],
        ),
        // Epic is three ranks over feeble: the armour is passed by, said as such.
        (
            blow(9, Epic, DamageType::Kinetic),
            worn(3, Feeble, 0),
            &[("rolled", 9), ("armour ignored by a superior weapon", 0)],
        ),
        // An ordinary blade cannot harm heroic Durability: all 9 taken off.
        (
            kinetic(9),
            Protection {
                durability: Heroic,
                ..Protection::default()
            },
            &[("rolled", 9), ("heroic Durability: immune", -9)],
        ),
        // Poison harms only what lives; a door takes none of the 9.
        (
            blow(9, Ordinary, DamageType::Toxic),
            Protection {
                object: true,
                ..Protection::default()
            },
            &[("rolled", 9), ("toxic: harms only the living", -9)],
        ),
    ];
    for (b, p, expected) in cases {
        let (_, steps) = through(b, p, false);
        let got: Vec<(&str, i64)> = steps.iter().map(|m| (m.label.as_str(), m.value)).collect();
        assert_eq!(got, expected.to_vec(), "{b:?} {p:?}");
    }
}

#[test]
fn durability_takes_damage_before_health_and_shock_makes_any_damage_deadly() {
    let t = |durability, health| Track {
        durability,
        health,
        object: false,
    };
    let after = |durability, health, killed| After {
        durability,
        health,
        killed,
    };
    // (before, amount, carry, after, why)
    let cases = [
        (t(10, 10), 4, false, after(6, 10, false), "Durability first"),
        (
            t(3, 10),
            7,
            false,
            after(0, 10, false),
            "the wounding hit stops at 0 (stop)",
        ),
        (
            t(3, 10),
            7,
            true,
            after(0, 6, false),
            "or carries 4 on to Health (carry)",
        ),
        (
            t(0, 10),
            4,
            false,
            after(0, 6, false),
            "once wounded, damage goes to Health",
        ),
        (
            t(0, 3),
            5,
            false,
            after(0, 0, false),
            "Health stops at 0: Shock",
        ),
        (
            t(0, 0),
            1,
            false,
            after(0, 0, true),
            "any damage in Shock kills",
        ),
        (t(0, 0), 0, false, after(0, 0, false), "no damage, no harm"),
    ];
    for (before, amount, carry, expected, why) in cases {
        assert_eq!(take(before, amount, carry), expected, "{why}");
    }
    let door = Track {
        durability: 5,
        health: 0,
        object: true,
    };
    assert_eq!(
        take(door, 5, false),
        after(0, 0, true),
        "an object at 0 is destroyed"
    );
}

#[test]
fn recovery_movement_and_defense_dice_follow_speed_and_stamina() {
    // Vigor recovered: one per full 5 Stamina.
    for (stamina, vigor) in [(0, 0), (4, 0), (5, 1), (9, 1), (10, 2), (23, 4), (25, 5)] {
        assert_eq!(vigor_recovered(stamina), vigor, "Stamina {stamina}");
    }
    // Feet a Move covers: Speed, a quarter of it (rounded down) when prone.
    for (speed, prone, feet) in [(30, false, 30), (30, true, 7), (3, true, 0)] {
        assert_eq!(move_feet(speed, prone), feet);
    }
    // Defense bonus dice: Speed's, a quarter (rounded down) when prone.
    for (dice, prone, expected) in [(2, false, 2), (4, true, 1), (3, true, 0)] {
        assert_eq!(defense_dice(dice, prone), expected);
    }
}
