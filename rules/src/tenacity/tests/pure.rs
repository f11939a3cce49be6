//! Pure rules as tables: each row is a case with the text's numbers (W1..W10 of
//! rules/tenacity.md) or a derivation beside it.

use std::collections::BTreeMap;

use crate::options::{OptionValue, TableOptions};
use crate::system::RuleSystem;

use super::super::Tenacity;
use super::super::options;
use super::super::rules::*;

fn opts(pairs: &[(&str, &str)]) -> TableOptions {
    let given: BTreeMap<String, OptionValue> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), OptionValue::Choice((*v).to_owned())))
        .collect();
    TableOptions::resolve(&Tenacity.options(), &given).unwrap()
}

#[test]
fn worked_example_w1_investigation_keeps_the_six_and_adds_rank_two() {
    // Awareness 2 dice show 3 and 6: keep 6, + Investigation 2 = 8. CR 7 or less succeeds,
    // 8 or more fails (the result must beat the challenge).
    let r = read_pool(&[3, 6]);
    let total = r.highest + 2;
    assert_eq!(total, 8);
    for (cr, ok) in [(6, true), (7, true), (8, false), (9, false)] {
        assert_eq!(beats(total, cr), ok, "8 against {cr}");
    }
    // Rank 2 gives one impact d4.
    assert_eq!(impact_dice(2), 1);
}

#[test]
fn pools_read_highest_tens_doubles_and_fumbles() {
    // (faces, highest, tens, doubles, fumble, why)
    let cases: [(&[i64], i64, i64, bool, bool, &str); 8] = [
        (&[4], 4, 0, false, false, "one die: no doubles possible"),
        (&[3, 6], 6, 0, false, false, "W1"),
        (&[5, 5], 5, 0, true, false, "two alike: doubles"),
        (&[10, 2], 10, 1, false, false, "a natural 10 is a critical"),
        (
            &[10, 10, 3],
            10,
            2,
            true,
            false,
            "two 10s: doubles and two tens",
        ),
        (&[1], 1, 0, false, true, "highest die 1: fumble"),
        (
            &[1, 1],
            1,
            0,
            true,
            true,
            "all 1s: a fumble (and doubles, which earn nothing)",
        ),
        (
            &[1, 7, 7, 2],
            7,
            0,
            true,
            false,
            "a 1 that is not highest is no fumble",
        ),
    ];
    for (faces, highest, tens, doubles, fumble, why) in cases {
        let r = read_pool(faces);
        assert_eq!(
            (r.highest, r.tens, r.doubles, r.fumble),
            (highest, tens, doubles, fumble),
            "{why}"
        );
    }
}

#[test]
fn impact_dice_are_half_the_rank_rounded_down() {
    for (rank, dice) in [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (7, 3), (10, 5)] {
        assert_eq!(impact_dice(rank), dice, "rank {rank}");
    }
}

#[test]
fn challenge_dice_combine_by_the_table_option() {
    // Faces 2, 5, 4 with +1 between levels: sum 11+1 = 12; highest 5+1 = 6.
    let faces = [2, 5, 4];
    let sum = options::combine(&opts(&[]));
    let high = options::combine(&opts(&[(options::CHALLENGE_DICE, "highest")]));
    assert_eq!(challenge_total(&faces, 1, sum), 12);
    assert_eq!(challenge_total(&faces, 1, high), 6);
    // W10: between levels the narrator adds +1 to +3.
    assert_eq!(challenge_total(&[3, 3], 3, sum), 9);
}

#[test]
fn spin_moves_on_failure_doubles_and_fumbles() {
    let one = options::spin_gain(&opts(&[]));
    let each = options::spin_gain(&opts(&[(options::SPIN_GAIN, "each")]));
    // (faces, succeeded, own action, gain, change, why)
    let cases: [(&[i64], bool, bool, SpinGain, i64, &str); 9] = [
        (
            &[3, 6],
            true,
            true,
            one,
            0,
            "success without doubles earns nothing",
        ),
        (&[3, 6], false, true, one, 1, "a failed action earns 1"),
        (&[5, 5], true, true, one, 1, "doubles on an action earn 1"),
        (
            &[5, 5],
            false,
            true,
            one,
            1,
            "failure and doubles: 1 by default",
        ),
        (&[5, 5], false, true, each, 2, "option each: 1 + 1"),
        (&[5, 5], false, false, one, 0, "reactions earn no Spin"),
        (
            &[1, 1],
            false,
            true,
            one,
            -1,
            "a fumble: -1, and no Spin for failing or doubles",
        ),
        (
            &[1],
            true,
            true,
            one,
            -1,
            "a fumble that still succeeds: -1",
        ),
        (
            &[1],
            false,
            false,
            one,
            -1,
            "a fumbled reaction still costs 1",
        ),
    ];
    for (faces, ok, own, gain, change, why) in cases {
        assert_eq!(
            spin_change(read_pool(faces), ok, own, gain),
            change,
            "{why}"
        );
    }
    // The floor: -10 is as low as Spin goes.
    assert_eq!(add_spin(-10, -1), -10);
    assert_eq!(add_spin(-9, -3), -10);
    assert_eq!(add_spin(-3, 2), -1, "positive gains climb back towards 0");
    // Negative Spin cannot be spent: none is spendable until it is back above 0.
    assert_eq!(spendable_spin(-2), 0);
    assert_eq!(spendable_spin(3), 3);
}

#[test]
fn a_push_pays_points_and_spin_then_exactly_the_negative_spin_still_needed() {
    // (result, CR, offered (points, spin), held (points, spin), at cost, paid or error, why)
    type Case = (
        i64,
        i64,
        (i64, i64),
        (i64, i64),
        bool,
        Result<(i64, i64, i64), PushError>,
        &'static str,
    );
    let cases: [Case; 11] = [
        (
            8,
            9,
            (2, 0),
            (3, 0),
            false,
            Ok((2, 0, 0)),
            "8 + 2 = 10 beats 9",
        ),
        (
            8,
            9,
            (1, 0),
            (3, 0),
            false,
            Err(PushError::Short),
            "8 + 1 = 9 ties: still a fail",
        ),
        (
            8,
            9,
            (0, 2),
            (0, 2),
            false,
            Ok((0, 2, 0)),
            "Spin counts +1 each too",
        ),
        (
            8,
            11,
            (1, 0),
            (1, 0),
            true,
            Ok((1, 0, 3)),
            "9 is 3 short of 12: 3 negative Spin",
        ),
        (
            5,
            9,
            (0, 0),
            (0, 0),
            true,
            Ok((0, 0, 5)),
            "nothing held: 5 negative Spin make 10",
        ),
        (
            2,
            14,
            (0, 0),
            (0, -2),
            true,
            Err(PushError::Short),
            "13 needed but only 8 to the floor",
        ),
        (
            2,
            9,
            (0, 0),
            (0, -2),
            true,
            Ok((0, 0, 8)),
            "-2 - 8 = -10, at the floor exactly",
        ),
        (
            8,
            9,
            (4, 0),
            (3, 0),
            false,
            Err(PushError::NotHeld),
            "4 points offered, 3 held",
        ),
        (
            1,
            15,
            (0, 2),
            (0, 2),
            true,
            Err(PushError::Short),
            "3 pushed, 13 short: the 2 Spin spent and 13 negative would end at -13",
        ),
        (
            8,
            9,
            (-1, 0),
            (3, 0),
            false,
            Err(PushError::NotHeld),
            "a negative offer is no offer",
        ),
        (
            8,
            9,
            (0, -1),
            (0, 3),
            false,
            Err(PushError::NotHeld),
            "negative Spin offered is no offer",
        ),
    ];
    for (result, cr, offered, held, cost, want, why) in cases {
        let got = push(result, cr, offered, held, cost).map(|p| (p.points, p.spin, p.negative));
        assert_eq!(got, want, "{why}");
    }
    // Spin offered while negative is not held: it cannot be spent.
    assert_eq!(
        push(8, 9, (0, 1), (0, -1), false).map(|p| p.spin),
        Err(PushError::NotHeld)
    );
}

#[test]
fn create_an_advantage_gives_one_spin_per_two_impact_at_least_one() {
    for (impact, spin) in [(0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (7, 3), (10, 5)] {
        assert_eq!(advantage_spin(impact), spin, "impact {impact}");
    }
}

#[test]
fn worked_example_w9_size_steps_double_and_favour_the_right_side() {
    // W9: 1x1 against 2x2 is one step, 2x2 against 4x4 one step, 1 against 16 four.
    for (from, to, steps) in [(1, 2, 1), (2, 4, 1), (1, 16, 4), (4, 1, -2), (2, 2, 0)] {
        assert_eq!(size_steps(from, to), steps, "{from} -> {to}");
    }
    // Larger target: attacker +1 advantage die and +1 per step; smaller: the defender's.
    assert_eq!(size_edge(2), (2, 2, 0, 0));
    assert_eq!(size_edge(-1), (0, 0, 1, 1));
    // Damage 7: one step larger halves (3 down, 4 up), two steps quarter (1 / 2);
    // smaller doubles per step: 14, 28.
    let down = options::size_rounding(&opts(&[]));
    let up = options::size_rounding(&opts(&[(options::SIZE_ROUNDING, "up")]));
    for (steps, r, dmg) in [
        (1, down, 3),
        (1, up, 4),
        (2, down, 1),
        (2, up, 2),
        (-1, down, 14),
        (-2, down, 28),
    ] {
        assert_eq!(size_damage(7, steps, r), dmg, "{steps} steps");
    }
}

#[test]
fn worked_examples_w6_w7_pilot_bonus_and_the_reading_option() {
    let diff = options::pilot_bonus(&opts(&[]));
    let high = options::pilot_bonus(&opts(&[(options::PILOT_BONUS, "higher")]));
    // W6: pilot 1, ship 3: lower 1 + one for two ranks above = +2.
    assert_eq!(pilot_bonus(1, 3, diff), 2);
    assert_eq!(pilot_bonus(1, 3, high), 2);
    // W7: pilot 3, ship 1: +2 both ways.
    assert_eq!(pilot_bonus(3, 1, diff), 2);
    // A8: pilot 4, ship 2: difference reading 2 + 1 = 3; higher reading 2 + 2 = 4.
    assert_eq!(pilot_bonus(4, 2, diff), 3);
    assert_eq!(pilot_bonus(4, 2, high), 4);
    // Pilot 2, ship 6: 2 + (6 - 2) / 2 = 4; the higher reading 2 + 6 / 2 = 5.
    assert_eq!(pilot_bonus(2, 6, diff), 4);
    assert_eq!(pilot_bonus(2, 6, high), 5);
    // No pilot rank: 0 + 4 / 2 = 2.
    assert_eq!(pilot_bonus(0, 4, diff), 2);
}

#[test]
fn worked_example_w5_three_wounds_heal_with_fifteen_ten_five() {
    assert_eq!(
        [3, 2, 1].map(wound_cost),
        [15, 10, 5],
        "5 x the current wounds each"
    );
    let carry = options::carry_recovery(&opts(&[]));
    let lose = options::carry_recovery(&opts(&[(options::RECOVERY_SURPLUS, "lose")]));
    // (wounds, recovery, added, carry, after, why)
    let cases = [
        (3, 0, 30, carry, (0, 0), "W5: 30 in total heals all three"),
        (3, 0, 14, carry, (3, 14), "14 is short of 15"),
        (3, 14, 1, carry, (2, 0), "15 reached: one wound healed"),
        (
            3,
            0,
            20,
            carry,
            (2, 5),
            "15 heals one, 5 carries towards the 10",
        ),
        (3, 0, 20, lose, (2, 0), "option lose: the 5 is lost"),
        (3, 0, 25, carry, (1, 0), "15 + 10"),
    ];
    for (w, r, added, carry, after, why) in cases {
        assert_eq!(heal(w, r, added, carry), after, "{why}");
    }
}

#[test]
fn stress_over_the_maximum_asks_a_wound_or_unconsciousness_and_hardcore_kills() {
    let hc = options::hardcore(&opts(&[(options::HARDCORE, "on")]));
    assert!(!options::hardcore(&opts(&[])));
    // (stress, max, wounds, capacity, hardcore, outcome, why)
    let cases = [
        (
            10,
            10,
            0,
            2,
            false,
            Overflow::Holds,
            "exactly the maximum is not over",
        ),
        (
            11,
            10,
            0,
            2,
            false,
            Overflow::Choose { wound_left: true },
            "over: the bearer chooses",
        ),
        (
            11,
            10,
            2,
            2,
            false,
            Overflow::Choose { wound_left: false },
            "no wound left: unconscious",
        ),
        (
            11,
            10,
            1,
            2,
            hc,
            Overflow::Wound,
            "hardcore: always a wound",
        ),
        (
            11,
            10,
            2,
            2,
            hc,
            Overflow::Perish,
            "hardcore with no wound left: perishes",
        ),
    ];
    for (s, m, w, cap, hard, want, why) in cases {
        assert_eq!(overflow(s, m, w, cap, hard), want, "{why}");
    }
}

#[test]
fn smaller_rules_with_their_numbers() {
    // Resistance 2 against 5 damage: 3 stress; against 1: none.
    assert_eq!(after_resistance(5, 2), 3);
    assert_eq!(after_resistance(1, 2), 0);
    // Hinders do not stack: the larger stays.
    assert_eq!(hinder(3, 2), 3);
    assert_eq!(hinder(2, 4), 4);
    // Unconscious recovery: 2d6 plus 1d6 per wound.
    assert_eq!(unconscious_dice(0), 2);
    assert_eq!(unconscious_dice(3), 5);
    // Grappled movement: 9 against the grappler's 6 moves 3, capped at movement 2.
    assert_eq!(grappled_move(9, 6, 5), 3);
    assert_eq!(grappled_move(9, 6, 2), 2);
    assert_eq!(grappled_move(5, 6, 5), 0);
    // W8: a blind attack finds the target on 6 or more.
    assert!(!blind_finds(5, BLIND_FIND));
    assert!(blind_finds(6, BLIND_FIND));
    // Social standing: 5 + 3 = 8; 2 - 4 stops at 0; 9 + 3 stops at 10.
    assert_eq!(standing(5, 3, 10), 8);
    assert_eq!(standing(2, -4, 10), 0);
    assert_eq!(standing(9, 3, 10), 10);
    // Generate Spin and Recover 10acity: only at exactly 0, and only 1.
    assert_eq!(generate_spin(0), Some(1));
    assert_eq!(generate_spin(-1), None, "negative Spin is not no Spin");
    assert_eq!(generate_spin(2), None);
    assert_eq!(recover_tenacity(0), Some(1));
    assert_eq!(recover_tenacity(1), None);
}

#[test]
fn worked_examples_w3_w4_impact_pools_and_task_completion() {
    // W4: Missa's 3 and a teammate's 2 make a pool of 5; options cost 1, 1, 2, 4.
    let pool = 3 + 2;
    assert_eq!(
        spend_pool(pool, &[4, 1]),
        Some(0),
        "the 4 option and a 1 option"
    );
    assert_eq!(
        spend_pool(pool, &[1, 1, 2]),
        Some(1),
        "both 1s and the 2: 1 left"
    );
    assert_eq!(spend_pool(pool, &[4, 2]), None, "6 is more than the pool");
    // W3: a requirement of 5 within 3 rounds. With the default `over`, 5 is not yet done
    // (crafting's wording: over the requirement); with `reach`, 5 completes.
    let over = options::task_over(&opts(&[]));
    let reach = options::task_over(&opts(&[(options::TASK_DONE, "reach")]));
    assert!(!task_done(5, 5, over));
    assert!(task_done(6, 5, over));
    assert!(task_done(5, 5, reach));
}

#[test]
fn the_situation_gives_advantage_dice_and_bonuses_to_the_right_side() {
    use super::super::defence::{Edge, edge};
    use crate::action::{ArgValue, Args};
    use crate::state::Status;
    let status = |m| Status {
        source: "ruling".into(),
        magnitude: m,
        rounds_left: None,
    };
    let sized = |id: &str, size: i64| {
        Tenacity
            .sheet_from_json(&super::with(super::character(id, "npc"), |v| {
                v["size"] = serde_json::json!(size)
            }))
            .unwrap()
    };
    let flags = |f: &[&str]| {
        let mut a = Args::default();
        for k in f {
            a = a.with(k, ArgValue::Flag(true));
        }
        a
    };
    let edge_of = |d, b, dd, db| Edge {
        attack_dice: d,
        attack_bonus: b,
        defence_dice: dd,
        defence_bonus: db,
    };
    // (attacker size, target size, target status (key, magnitude), flags, edge, why)
    let cases: [(i64, i64, Option<(&str, i64)>, &[&str], Edge, &str); 9] = [
        (
            1,
            1,
            None,
            &["physical"],
            edge_of(0, 0, 0, 0),
            "same size: nothing",
        ),
        (
            1,
            4,
            None,
            &["physical"],
            edge_of(2, 2, 0, 0),
            "two steps larger: +2 dice, +2",
        ),
        (
            4,
            1,
            None,
            &["physical"],
            edge_of(0, 0, 2, 2),
            "two steps smaller: the defender's",
        ),
        (
            1,
            4,
            None,
            &[],
            edge_of(0, 0, 0, 0),
            "size counts only for physical attacks",
        ),
        (
            1,
            1,
            Some(("full_defence", 0)),
            &[],
            edge_of(0, 0, 1, 0),
            "full defence: one die",
        ),
        (
            1,
            1,
            Some(("cover", 1)),
            &[],
            edge_of(0, 0, 1, 1),
            "partial hard cover: a step smaller",
        ),
        (
            1,
            1,
            Some(("prone", 0)),
            &["ranged"],
            edge_of(0, 0, 1, 0),
            "prone against distance",
        ),
        (
            1,
            1,
            Some(("prone", 0)),
            &[],
            edge_of(1, 0, 0, 0),
            "prone, attacker adjacent",
        ),
        (
            1,
            1,
            Some(("cover", 2)),
            &[],
            edge_of(0, 0, 0, 0),
            "full cover: no direct attack (GM)",
        ),
    ];
    for (a, t, st, f, want, why) in cases {
        let attacker = sized("a", a);
        let mut target = sized("t", t);
        if let Some((k, m)) = st {
            target.statuses.insert(k.into(), status(m));
        }
        assert_eq!(
            edge(&attacker, Some(&target), &flags(f)).unwrap(),
            want,
            "{why}"
        );
    }
    // A hinder applies when the action is one it affects: -3.
    let mut hindered = sized("a", 1);
    hindered.statuses.insert("hinder".into(), status(3));
    let e = edge(&hindered, None, &flags(&["hindered"])).unwrap();
    assert_eq!(e.attack_bonus, -3);
    // Grappled for 5 as well: the larger, 5, counts (they do not add up to 8).
    hindered.statuses.insert("grappled".into(), status(5));
    let e = edge(&hindered, None, &flags(&["hindered"])).unwrap();
    assert_eq!(e.attack_bonus, -5);
    // Not an action the hinder affects: nothing.
    assert_eq!(edge(&hindered, None, &flags(&[])).unwrap().attack_bonus, 0);
}
