//! Pure rules as tables of cases. The text has no worked example with numbers, so each row is
//! our own vector with its derivation from the rule beside it.

use crate::dice::ScriptedDice;

use super::super::cast::cost;
use super::super::checks::{
    MoraleEvent, TieRule, Winner, attack_hits, challenge, dying_tick, halve, healed,
    level_up_ready, morale_events, morale_falters, passes, take_damage,
};
use super::super::content::content;
use super::super::dice::{Amount, D5, Die, half_d10, roll_amount};
use super::super::sheet::{Sheet, spell_save};
use super::{pc, with};

#[test]
fn a_check_equal_to_its_toughness_succeeds_or_fails_as_the_table_rules() {
    // (total, toughness, ties succeed, passes)
    let cases = [
        (7, 6, true, true),
        (7, 6, false, true),
        (6, 6, true, true),
        (6, 6, false, false),
        (5, 6, true, false),
    ];
    for (total, t, ties, want) in cases {
        assert_eq!(passes(total, t, ties), want, "{total} vs T{t}, ties {ties}");
    }
}

#[test]
fn an_attack_hits_on_equal_or_higher() {
    // d10 6 + power 2 = 8 against a goblin's T8 hits; 7 misses. The text: "equal to or higher".
    for (total, t, hit) in [(8, 8, true), (9, 8, true), (7, 8, false)] {
        assert_eq!(attack_hits(total, t), hit, "{total} vs T{t}");
    }
}

#[test]
fn the_higher_wins_a_challenge_and_a_tie_goes_as_the_table_rules() {
    let cases = [
        (8, 5, TieRule::Resister, Some(Winner::Starter)),
        (5, 8, TieRule::Reroll, Some(Winner::Resister)),
        (6, 6, TieRule::Resister, Some(Winner::Resister)),
        (6, 6, TieRule::Reroll, None),
    ];
    for (a, b, ties, want) in cases {
        assert_eq!(challenge(a, b, ties), want, "{a} vs {b} {ties:?}");
    }
}

#[test]
fn halving_rounds_as_the_table_rules() {
    // A Ray of death of 7 saved against: 3 rounded down, 4 rounded up; even numbers agree.
    for (n, down, up) in [(7, 3, 4), (8, 4, 4), (1, 0, 1)] {
        assert_eq!((halve(n, false), halve(n, true)), (down, up), "{n}");
    }
}

#[test]
fn morale_falters_on_two_or_less() {
    let falters: Vec<u32> = (1..=10).filter(|f| morale_falters(*f)).collect();
    assert_eq!(falters, [1, 2]);
}

#[test]
fn morale_is_called_on_the_first_slain_and_on_more_than_half() {
    use MoraleEvent::{FirstSlain as F, MoreThanHalf as H};
    // (slain, size, of the others, had first, had half, events)
    // Four goblins. First dead: its allies are the 3 others, 1 of 3 is not more than half.
    // Second dead: 2 of the 3 others is more than half; of the whole 4, 2 is exactly half.
    // Third dead: 3 of 4 is more than half of the whole group.
    // All dead: nobody is left to falter.
    type Case = (i64, i64, bool, bool, bool, &'static [MoraleEvent]);
    let cases: [Case; 9] = [
        // A lone goblin slain: nobody is left to falter.
        (1, 1, true, false, false, &[]),
        // Three: the first dead is 1 of the 2 others, exactly half, not more.
        (1, 3, true, false, false, &[F]),
        (1, 4, true, false, false, &[F]),
        (2, 4, true, true, false, &[H]),
        (2, 4, false, true, false, &[]),
        (3, 4, false, true, false, &[H]),
        (3, 4, true, true, true, &[]),
        (4, 4, false, true, false, &[]),
        // Two bandits: the first slain is both the first and more than half of the survivor's
        // one ally: both events fire, each with its own roll (A13).
        (1, 2, true, false, false, &[F, H]),
    ];
    for (slain, size, others, first, half, want) in cases {
        assert_eq!(
            morale_events(slain, size, others, first, half),
            want,
            "{slain} of {size}, others {others}"
        );
    }
}

#[test]
fn a_dying_character_lasts_five_rounds_counted_as_the_table_rules() {
    // Dropped in round 1. `after_drop`: round 1's end does not count, rounds 2..6 do: dead at
    // the end of round 6. `drop_counts`: rounds 1..5: dead at the end of round 5.
    for (counts, dies_at) in [(false, 6), (true, 5)] {
        let mut left = 5;
        let mut died = None;
        for round in 1..=10 {
            match dying_tick(left, round == 1, counts) {
                Some(l) => left = l,
                None => {
                    died = Some(round);
                    break;
                }
            }
        }
        assert_eq!(died, Some(dies_at), "drop counts: {counts}");
    }
}

#[test]
fn healing_stops_at_the_maximum_and_damage_takes_temporary_hp_first() {
    // (hp, heal, max, after)
    for (hp, amount, max, after) in [(3, 2, 10, 5), (9, 2, 10, 10), (0, 1, 10, 1)] {
        assert_eq!(healed(hp, amount, max), after);
    }
    // (temp, hp, damage, (temp after, hp after)): 2 temporary HP soak the first 2.
    for (temp, hp, dmg, want) in [(2, 5, 3, (0, 4)), (2, 5, 1, (1, 5)), (0, 2, 5, (0, 0))] {
        assert_eq!(take_damage(temp, hp, dmg), want, "{temp} {hp} {dmg}");
    }
}

#[test]
fn amounts_read_as_the_text_writes_them() {
    let cases = [
        ("2", Amount::flat(2)),
        ("1d5", Amount::die(Die::D5)),
        (
            "1d5+1",
            Amount {
                die: Some(Die::D5),
                flat: 1,
                plus_level: false,
            },
        ),
        (
            "1d10+L",
            Amount {
                die: Some(Die::D10),
                flat: 0,
                plus_level: true,
            },
        ),
    ];
    for (text, want) in cases {
        assert_eq!(Amount::try_from(text.to_owned()), Ok(want), "{text}");
        assert_eq!(want.to_string(), text);
    }
    for bad in ["", "d5", "1d6", "1d5+L+L", "2+L+1", "1d5+1+2", "2+3"] {
        assert!(Amount::try_from(bad.to_owned()).is_err(), "{bad}");
    }
}

#[test]
fn a_d5_is_a_five_sided_draw_or_half_a_d10_rounded_up() {
    // Half a d10, up: 1-2 → 1, 3-4 → 2, ..., 9-10 → 5.
    let halves: Vec<i64> = (1..=10).map(half_d10).collect();
    assert_eq!(halves, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    // Fireball I, 1d5+1, at level 1: a d5 face 4 gives 5; a d10 face 7 read as a d5 gives 4+1.
    let fireball = Amount {
        die: Some(Die::D5),
        flat: 1,
        plus_level: false,
    };
    let r = roll_amount(fireball, 1, D5::Draw, &mut ScriptedDice::new(vec![4])).unwrap();
    assert_eq!(r.value, 5);
    let r = roll_amount(fireball, 1, D5::HalfD10, &mut ScriptedDice::new(vec![7])).unwrap();
    assert_eq!(r.value, 5);
    let r = roll_amount(fireball, 1, D5::HalfD10, &mut ScriptedDice::new(vec![8])).unwrap();
    assert_eq!(r.value, 5);
    // Burning touch II, 1d5+L, at level 3: face 2 + 3.
    let touch = Amount {
        die: Some(Die::D5),
        flat: 0,
        plus_level: true,
    };
    assert_eq!(
        roll_amount(touch, 3, D5::Draw, &mut ScriptedDice::new(vec![2]))
            .unwrap()
            .value,
        5
    );
}

#[test]
fn the_spell_save_is_level_plus_casting_attribute_plus_three() {
    // Level 1 cleric with aspect 3: 1 + 3 + 3 = 7. Level 5 wizard with intellect 6: 14.
    assert_eq!(spell_save(1, 3), 7);
    assert_eq!(spell_save(5, 6), 14);
}

#[test]
fn spell_costs_follow_the_skill_the_target_arcane_knowledge_and_the_sure_strike() {
    let data = content().unwrap();
    let stats = |edit: fn(&mut serde_json::Value)| {
        let s: Sheet = serde_json::from_value(with(pc("wizard", "human"), edit)).unwrap();
        s.stats().unwrap()
    };
    let plain = stats(|_| {});
    let healer = stats(|v| v["skills"] = serde_json::json!(["persuade", "heal"]));
    let spell = |id| data.spell(id).unwrap();
    // (spell, who, on another, sure, cost)
    let cases = [
        ("heal", &plain, false, false, 2),
        ("heal", &healer, false, false, 1),
        ("mage_armour", &plain, false, false, 2),
        ("mage_armour", &plain, true, false, 3),
        ("magic_missile_1", &plain, true, false, 0),
        ("magic_missile_1", &plain, true, true, 2),
    ];
    for (id, who, other, sure, want) in cases {
        assert_eq!(cost(spell(id), who, other, sure), Ok(want), "{id}");
    }
    // Arcane knowledge takes one off but never to 0 (a 1 stays 1, a 0 stays 0).
    let mut arcane = plain.clone();
    arcane.abilities.push("arcane_knowledge".into());
    for (id, want) in [
        ("fireball_1", 1),
        ("featherfall", 1),
        ("magic_missile_1", 0),
    ] {
        assert_eq!(cost(spell(id), &arcane, true, false), Ok(want), "{id}");
    }
    assert!(
        cost(spell("imprint_spell"), &plain, false, false).is_err(),
        "no cost given"
    );
    assert!(
        cost(spell("heal"), &plain, false, true).is_err(),
        "heal has no sure strike"
    );
}

#[test]
fn experience_reaches_the_next_level_at_its_threshold() {
    let data = content().unwrap();
    for (xp, next, ready) in [
        (49, Some(2), false),
        (50, Some(2), true),
        (400, None, false),
    ] {
        assert_eq!(
            level_up_ready(xp, next.and_then(|l| data.xp_for(l))),
            ready,
            "{xp}"
        );
    }
}
