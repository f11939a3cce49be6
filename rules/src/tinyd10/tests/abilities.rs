//! The level 2-4 class abilities the server counts, as scenarios on the shared runner: the
//! exceptions to one attack, ability or spell and one movement a turn (Call to battle, One man
//! army, Battle lock, Sudden strike, Tactical retreat, Haste), and the abilities that change a
//! fight's numbers. Every hero is built by [`hero`]: a level 2 character of the `pc` shape
//! (power 2, reflex 1, HP 5, PP 5 split) who raised one attribute at level 2 and took +2 PP and
//! +1 toughness, so (elf rogue) T 6 + 1 = 7, HP 5 + 1 + 2 = 8, PP 5 + 2 + 2 = 9; (human
//! warrior) T 7 + 1 = 8, HP 5 + 2 + 2 = 9, PP 5 + 1 + 2 = 8; (human cleric) T 6 + 1 = 7,
//! HP 5 + 2 = 7, PP 5 + 2 + 2 = 9. Goblins are power 1, T5 (see `scenes::goblin`).

use serde_json::{Value, json};

use crate::action::ArgValue;
use crate::grid::Cell;
use crate::testing::scene::{Played, S, Scene};

use super::scenes::{brenna, goblin, n, play, t};
use super::{dice_gm_alone, pc, with};

/// A level 2 `class` of `race` with the id `class`, played by `p1`, who raised `raise` at
/// level 2 and took `ability` as its class ability for that level, carrying `weapons`.
pub(super) fn hero(class: &str, race: &str, raise: &str, ability: &str, weapons: &[&str]) -> Value {
    with(pc(class, race), |v| {
        v["level"] = json!(2);
        v["owner"] = json!("p1");
        v["advance"] = json!([{"attribute": raise, "points": "pp", "extra": "toughness"}]);
        v["abilities"].as_array_mut().unwrap().push(json!(ability));
        v["skills"].as_array_mut().unwrap().push(json!("listen"));
        v["weapons"] = json!(weapons);
    })
}

/// A goblin with `hp` HP.
pub(super) fn goblin_hp(id: &str, reflex: i64, hp: i64) -> Value {
    with(goblin(id, reflex), |v| v["stats"]["hp_max"] = json!(hp))
}

pub(super) fn to(x: i32, y: i32) -> ArgValue {
    ArgValue::Cell(Cell::new(x, y))
}

pub(super) fn yes() -> ArgValue {
    ArgValue::Flag(true)
}

/// Whether the catalogue of `who`'s seat (`p1`) offers `action` for `who` now.
fn offered(who: &'static str, action: &'static str, yes: bool) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let seat = crate::ids::Seat::Player("p1".into());
        let found = crate::system::RuleSystem::actions(&super::super::TinyD10, p.state, &seat)
            .iter()
            .any(|a| a.name == action && a.actor.as_ref().is_some_and(|x| x.0 == who));
        assert_eq!(found, yes, "{}: {action} for {who}", p.at);
    }))
}

#[test]
fn call_to_battle_gives_allies_who_roll_6_an_extra_attack_on_their_next_turn() {
    play(Scene {
        name: "call to battle",
        options: &[],
        cast: vec![
            // Reflex 1 + 1 raised = 2: the cleric goes first, then Brenna (1), Aldric (0) and
            // the goblin (-1).
            hero("cleric", "human", "reflex", "call_to_battle", &[]),
            brenna(),
            super::scenes::aldric(),
            goblin_hp("g1", -1, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["cleric", "brenna", "aldric", "g1"]),
            // 2 PP of 9. Each ally rolls a d10, in id order: Aldric 5 (not enough), Brenna 6.
            // The cleric, who calls, rolls nothing (two faces, both used).
            S::Act(
                "cleric",
                "ability",
                vec![("name", t("call_to_battle"))],
                &[5, 6],
            ),
            S::Res("cleric", "pp", 7),
            S::Has("brenna", "called_to_battle"),
            S::Lacks("aldric", "called_to_battle"),
            S::Lacks("cleric", "called_to_battle"),
            S::PlayerHears("call to battle: 6 or more"),
            // The call was the cleric's ability for the turn.
            S::Refused("cleric", "attack", vec![("target", t("g1"))], "none_left"),
            S::Act("cleric", "end_turn", vec![], &[]),
            // Brenna's turn opens with the extra attack.
            S::Has("brenna", "extra_attack"),
            S::Lacks("brenna", "called_to_battle"),
            // 3 + power 2 = 5 reaches T5: flail 2 + 1 against goblins, 10 to 7.
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[3],
            ),
            S::Res("g1", "hp", 7),
            S::Has("brenna", "extra_attack"),
            offered("brenna", "attack", true),
            // The extra attack: 4 + 2 = 6, 3 more, 7 to 4.
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[4],
            ),
            S::Res("g1", "hp", 4),
            S::Said("takes the extra attack of the call to battle"),
            S::Lacks("brenna", "extra_attack"),
            offered("brenna", "attack", false),
            // One extra attack, no more.
            S::Refused("brenna", "attack", vec![("target", t("g1"))], "none_left"),
            // Aldric did not answer: one attack only. 1 + power 1 = 2 misses T5.
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act(
                "aldric",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[1],
            ),
            S::Refused("aldric", "attack", vec![("target", t("g1"))], "none_left"),
        ],
    });
}

fn call_unused(
    options: &'static [(&'static str, &'static str)],
    faces: &'static [u32],
    cleric_called: bool,
) {
    play(Scene {
        name: "call to battle unused",
        options,
        cast: vec![
            hero("cleric", "human", "reflex", "call_to_battle", &[]),
            brenna(),
            goblin_hp("g1", -1, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // Brenna rolls 9 (and the cleric, when the table counts it in, 7 before her).
            S::Act(
                "cleric",
                "ability",
                vec![("name", t("call_to_battle"))],
                faces,
            ),
            if cleric_called {
                S::Has("cleric", "called_to_battle")
            } else {
                S::Lacks("cleric", "called_to_battle")
            },
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Has("brenna", "extra_attack"),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Lacks("brenna", "extra_attack"),
            // Round 2: Brenna's turn gives her one attack, the call long spent; the cleric's
            // own extra attack, if it had one, opens now.
            S::Act("g1", "end_turn", vec![], &[]),
            if cleric_called {
                S::Has("cleric", "extra_attack")
            } else {
                S::Lacks("cleric", "extra_attack")
            },
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Lacks("brenna", "extra_attack"),
        ],
    });
}

#[test]
fn an_extra_attack_left_unused_goes_with_the_turn() {
    // By default the caller rolls nothing: Brenna's 9 only.
    call_unused(&[], &[9], false);
}

#[test]
fn option_call_to_battle_with_caller_lets_the_cleric_roll_too() {
    // Ids in order: brenna 9, cleric 7.
    call_unused(&[("tinyd10.call_to_battle", "with_caller")], &[9, 7], true);
}

#[test]
fn an_npcs_call_to_battle_and_the_extra_attack_it_gives_are_the_gms() {
    play(Scene {
        name: "npc call to battle",
        options: &[],
        cast: vec![
            json!({
                "id": "shaman", "name": "goblin shaman", "kind": "npc", "tags": ["goblin"],
                "abilities": ["call_to_battle"],
                "stats": {"power": 0, "reflex": 3, "toughness": 5, "hp_max": 4, "pp_max": 2},
                "attacks": [{"id": "staff", "name": "staff", "kind": "melee"}]
            }),
            goblin("g1", 2),
            brenna(),
        ],
        steps: vec![
            S::Start(&[]),
            // The goblin rolls 7: an extra attack. None of it reaches the table.
            S::Act(
                "shaman",
                "ability",
                vec![("name", t("call_to_battle"))],
                &[7],
            ),
            S::Has("g1", "called_to_battle"),
            S::PlayerNeverHears("called_to_battle"),
            S::PlayerNeverHears("answers the call"),
            // Not even that something was rolled.
            S::PlayerNeverHears("a roll that"),
            S::Act("shaman", "end_turn", vec![], &[]),
            S::PlayerNeverHears("extra_attack"),
            // Two attacks on Brenna (1 + 1 and 2 + 1 miss her T9), no third.
            attacks("g1", "brenna", &[1]),
            attacks("g1", "brenna", &[2]),
            S::PlayerNeverHears("extra attack"),
            S::Refused("g1", "attack", vec![("target", t("brenna"))], "none_left"),
        ],
    });
}

// No class holds One man army with Feint or Blessed, but an NPC may: each alone is refused
// with it, as Power strike is.
#[test]
fn one_man_army_is_not_taken_with_feint_or_blessed_even_by_an_npc_that_has_them() {
    let champion = json!({
        "id": "champion", "name": "champion", "kind": "npc",
        "abilities": ["one_man_army", "feint", "blessed"],
        "stats": {"power": 2, "reflex": 5, "toughness": 5, "hp_max": 10, "pp_max": 8},
        "attacks": [{"id": "axe", "name": "axe", "kind": "melee"}]
    });
    let with_flag = |flag: &'static str| {
        S::Refused(
            "champion",
            "attack",
            vec![("target", t("g1")), ("also", t("g2")), (flag, yes())],
            "bad_request: power strike, feint or blessed",
        )
    };
    play(Scene {
        name: "one man army and a reroll",
        options: &[],
        cast: vec![
            champion,
            with(goblin("g1", -1), |v| v["side"] = json!("heroes")),
            with(goblin("g2", -2), |v| v["side"] = json!("heroes")),
        ],
        steps: vec![
            S::Start(&[]),
            S::Place("champion", 5, 5),
            S::Place("g1", 6, 5),
            S::Place("g2", 4, 5),
            with_flag("feint"),
            with_flag("blessed"),
        ],
    });
}

#[test]
fn one_man_army_attacks_each_opponent_within_reach_for_a_point_each() {
    play(Scene {
        name: "one man army",
        options: &[],
        cast: vec![
            // Power 2 + 1 raised = 3, a flail dealing 2, PP 8.
            hero("warrior", "human", "power", "one_man_army", &["flail"]),
            goblin("g1", -1),
            goblin("g2", -2),
            goblin("g3", -3),
            brenna(),
        ],
        steps: vec![
            // Reflex: the warrior and Brenna 1 (tie-break 7 and 2: the warrior first).
            S::Start(&[2, 7]),
            S::Place("warrior", 5, 5),
            S::Place("g1", 6, 5),
            S::Place("g2", 4, 4),
            S::Place("g3", 8, 5),
            S::Place("brenna", 5, 6),
            // g3 is 3 cells (15 ft) away: out of striking range.
            S::Refused(
                "warrior",
                "attack",
                vec![("target", t("g1")), ("also", t("g2, g3"))],
                "out_of_range",
            ),
            S::Refused(
                "warrior",
                "attack",
                vec![("target", t("g1")), ("also", t("g1"))],
                "bad_request: twice",
            ),
            S::Refused(
                "warrior",
                "attack",
                vec![("target", t("g1")), ("also", t("brenna"))],
                "bad_request: opponents",
            ),
            S::Refused(
                "warrior",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("also", t("g2")),
                    ("power_strike", n(1)),
                ],
                "bad_request: power strike",
            ),
            // Two targets, 2 PP of 8, a roll each: g1 2 + 3 = 5 reaches T5, flail 2, 3 to 1;
            // g2 1 + 3 = 4 misses.
            S::Act(
                "warrior",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("weapon", t("flail")),
                    ("also", t("g2")),
                ],
                &[2, 1],
            ),
            S::Res("warrior", "pp", 6),
            S::Res("g1", "hp", 1),
            S::Res("g2", "hp", 3),
            // The sweep was the turn's attack.
            S::Refused("warrior", "attack", vec![("target", t("g3"))], "none_left"),
            S::Act("warrior", "end_turn", vec![], &[]),
            // Brenna has no such ability.
            S::Refused(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("also", t("g2"))],
                "rule: does not have one_man_army",
            ),
        ],
    });
}

#[test]
fn battle_lock_strikes_a_foe_that_leaves_the_warriors_side() {
    play(Scene {
        name: "battle lock",
        options: &[],
        cast: vec![
            hero("warrior", "human", "power", "battle_lock", &["flail"]),
            goblin_hp("g1", 2, 10),
            goblin_hp("g2", 3, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["g2", "g1", "warrior"]),
            S::Place("warrior", 5, 5),
            S::Place("g1", 6, 5),
            S::Place("g2", 4, 5),
            // From one cell next to the warrior to another: still in its area.
            S::Act("g2", "move", vec![("to", to(4, 6))], &[]),
            S::Prompt(false),
            S::Act("g2", "end_turn", vec![], &[]),
            // Out of its area: the warrior's seat is asked.
            S::Act("g1", "move", vec![("to", to(9, 5))], &[]),
            S::Prompt(true),
            S::Asked("battle lock"),
            // 4 + power 3 = 7 reaches T5: flail 2, 10 to 8. Nothing spent.
            S::Answer("strike", &[4]),
            S::Res("g1", "hp", 8),
            S::Res("warrior", "pp", 8),
            S::Said("as it leaves (battle lock)"),
            // Let go: nothing rolled.
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("warrior", "end_turn", vec![], &[]),
            S::Act("g2", "move", vec![("to", to(2, 6))], &[]),
            S::Answer("let", &[]),
            S::Res("g2", "hp", 10),
        ],
    });
    // Dropped in its own turn by the warrior's blow, the goblin cannot end that turn, and
    // nobody else may: it passes on by itself.
    play(Scene {
        name: "battle lock drops the mover",
        options: &[],
        cast: vec![
            hero("warrior", "human", "power", "battle_lock", &["flail"]),
            goblin_hp("g1", 2, 2),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["g1", "warrior"]),
            S::Place("warrior", 5, 5),
            S::Place("g1", 6, 5),
            S::Act("g1", "move", vec![("to", to(9, 5))], &[]),
            S::Answer("strike", &[4]),
            S::Res("g1", "hp", 0),
            S::Turn(Some("warrior")),
        ],
    });
}

#[test]
fn sudden_strike_answers_a_10_in_melee_with_the_rogues_attack_first() {
    play(Scene {
        name: "sudden strike",
        options: &[],
        cast: vec![
            // Power 3, a shortsword dealing 1 (+1 elf against evil), T7, HP 8.
            hero("rogue", "elf", "power", "sudden_strike", &["shortsword"]),
            goblin_hp("g1", 2, 10),
            goblin_hp("g2", 3, 2),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["g2", "g1", "rogue"]),
            // g2 rolls a 10: the rogue strikes first, 4 + 3 = 7 reaches T5, 2 damage kills g2
            // (2 HP) before its blow lands; its side's two morale rolls (9 and 9). Its turn
            // passes on.
            S::Act(
                "g2",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("rusty_blade"))],
                &[10, 4, 9, 9],
            ),
            S::Has("g2", "dead"),
            S::Res("rogue", "hp", 8),
            S::Prompt(false),
            S::Said("strikes first (sudden strike)"),
            // The goblin's 10 may be its total (`tinyd10.natural = total`): the GM's to know.
            S::PlayerNeverHears("rolls a 10"),
            S::Turn(Some("g1")),
            // A 9 sets nothing off: 9 + 1 = 10 hits T7; the rogue takes it rather than evade.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("rusty_blade"))],
                &[9],
            ),
            S::Answer("take", &[]),
            S::Res("rogue", "hp", 7),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("rogue", "end_turn", vec![], &[]),
            // Round 2. A 10: the rogue strikes first (2 + 3 = 5, 2 damage, 10 to 8), then the
            // goblin's blow lands (11 against T7).
            S::Act(
                "g1",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("rusty_blade"))],
                &[10, 2],
            ),
            S::Res("g1", "hp", 8),
            S::Answer("take", &[]),
            S::Res("rogue", "hp", 6),
        ],
    });
}

#[test]
fn tactical_retreat_after_a_melee_hit_steps_just_outside_the_foes_reach_for_1_pp() {
    play(Scene {
        name: "tactical retreat",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "tactical_retreat", &["shortsword"]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Place("rogue", 0, 0),
            S::Place("g1", 2, 0),
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(15, 0)), ("retreat", yes())],
                "rule: no tactical retreat",
            ),
            // The turn's movement first.
            S::Act("rogue", "move", vec![("to", to(1, 0))], &[]),
            // 5 + 3 = 8 reaches T5: 2 damage.
            S::Act(
                "rogue",
                "attack",
                vec![("target", t("g1")), ("weapon", t("shortsword"))],
                &[5],
            ),
            S::Res("g1", "hp", 8),
            S::Has("rogue", "tactical_retreat"),
            offered("rogue", "move", true),
            // The goblin moves 60 ft: 12 cells from (2, 0) is still within it.
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(14, 0)), ("retreat", yes())],
                "rule: just outside",
            ),
            // The goblin's speed is the GM's: the refusal does not give it.
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(16, 0)), ("retreat", yes())],
                "rule: 70 ft from it is not there; the GM knows its speed",
            ),
            // 13 cells: 65 ft, just outside. 1 PP of 9.
            S::Act(
                "rogue",
                "move",
                vec![("to", to(15, 0)), ("retreat", yes())],
                &[],
            ),
            S::Res("rogue", "pp", 8),
            S::Lacks("rogue", "tactical_retreat"),
            offered("rogue", "move", false),
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(15, 1)), ("retreat", yes())],
                "rule",
            ),
            S::Refused("rogue", "move", vec![("to", to(15, 1))], "none_left"),
        ],
    });
}

#[test]
fn haste_gives_up_the_attack_to_move_double_the_speed() {
    play(Scene {
        name: "haste",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "haste", &["shortsword"]),
            goblin_hp("g1", 0, 10),
            brenna(),
        ],
        steps: vec![
            // The rogue and Brenna tie at reflex 1: 8 and 3, the rogue first.
            S::Start(&[3, 8]),
            S::Order(&["rogue", "brenna", "g1"]),
            S::Place("rogue", 0, 0),
            S::Place("brenna", 0, 2),
            // 60 ft doubled: 24 cells, not 25.
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(25, 0)), ("haste", yes())],
                "out_of_range",
            ),
            S::Act(
                "rogue",
                "move",
                vec![("to", to(24, 0)), ("haste", yes())],
                &[],
            ),
            S::Res("rogue", "action", 0),
            S::Res("rogue", "move", 0),
            S::Refused("rogue", "attack", vec![("target", t("g1"))], "none_left"),
            S::Act("rogue", "end_turn", vec![], &[]),
            S::Refused(
                "brenna",
                "move",
                vec![("to", to(13, 2)), ("haste", yes())],
                "rule: does not have haste",
            ),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // Round 2: after the attack (1 + 3 misses) there is none to give up.
            S::Act(
                "rogue",
                "attack",
                vec![("target", t("g1")), ("weapon", t("shortsword"))],
                &[1],
            ),
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(0, 0)), ("haste", yes())],
                "none_left",
            ),
        ],
    });
}

/// A goblin archer: reflex 3, a sling.
fn archer() -> Value {
    with(goblin("archer", 3), |v| {
        v["attacks"] = json!([{"id": "sling", "name": "sling", "kind": "ranged", "range_ft": 100}]);
    })
}

/// `who` attacks `target` with the first attack on its sheet, drawing `faces`.
pub(super) fn attacks(who: &'static str, target: &'static str, faces: &'static [u32]) -> S {
    S::Act(who, "attack", vec![("target", t(target))], faces)
}

#[test]
fn counterattack_knocks_prone_a_foe_who_rolls_a_1_in_melee() {
    play(Scene {
        name: "counterattack",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "counterattack", &[]),
            goblin("g1", 2),
            archer(),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["archer", "g1", "cleric"]),
            // A 1 from the sling (1 + 3 = 4 misses T7): not melee, nothing happens.
            attacks("archer", "cleric", &[1]),
            S::Lacks("archer", "prone"),
            S::Act("archer", "end_turn", vec![], &[]),
            // A 2 in melee (3 misses): nothing either.
            attacks("g1", "cleric", &[2]),
            S::Lacks("g1", "prone"),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("archer", "end_turn", vec![], &[]),
            // A 1 in melee: the goblin lies prone.
            attacks("g1", "cleric", &[1]),
            S::Has("g1", "prone"),
            S::Magnitude("g1", "prone", -1),
            // The goblin's die is the GM's: the table sees it fall, not the 1.
            S::Said("counterattacks and knocks it prone"),
            S::PlayerNeverHears("rolls a 1"),
        ],
    });
}

// Counterattack answers a foe: an ally's clumsy 1 (Brenna's flail, 1 + 2 = 3 misses T7) and a
// foe's 1 on a paralyzed cleric knock nobody down.
#[test]
fn counterattack_answers_only_a_foe_and_only_when_the_cleric_can() {
    play(Scene {
        name: "counterattack spared",
        options: &[],
        cast: vec![
            // Reflex 1 + 1 raised = 2 goes before Brenna's 1.
            hero("cleric", "human", "reflex", "counterattack", &[]),
            super::scenes::brenna(),
            goblin("g1", -5),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["cleric", "brenna", "g1"]),
            S::Act("cleric", "end_turn", vec![], &[]),
            attacks("brenna", "cleric", &[1]),
            S::Lacks("brenna", "prone"),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Give("cleric", "paralyzed", 0),
            attacks("g1", "cleric", &[1]),
            S::Lacks("g1", "prone"),
        ],
    });
}

// An NPC's daze lasts its level, a number of the GM's: the players hear that the cleric is
// dazed and by how much, never for how long; the GM's state counts the rounds down.
#[test]
fn an_npcs_critical_strike_dazes_for_rounds_only_the_gm_knows() {
    play(Scene {
        name: "npc critical strike",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "wrath", &[]),
            json!({
                "id": "brute", "name": "brute", "kind": "npc", "level": 3,
                "abilities": ["critical_strike"],
                "stats": {"power": 2, "reflex": 5, "toughness": 5, "hp_max": 10},
                "attacks": [{"id": "club", "name": "club", "kind": "melee"}]
            }),
        ],
        steps: vec![
            S::Start(&[]),
            attacks("brute", "cleric", &[10]),
            S::Magnitude("cleric", "dazed", -1),
            player_read("cleric", "dazed", Some(None)),
            S::PlayerHears("dazed"),
            S::PlayerNeverHears("rounds_left: Some"),
            S::PlayerNeverHears("for 3 rounds"),
            dazed_for(3),
            // A round later (2 left) a second daze of 3 rounds outlasts it and takes its place;
            // a shorter one would not.
            S::Act("brute", "end_turn", vec![], &[]),
            S::Act("cleric", "end_turn", vec![], &[]),
            dazed_for(2),
            attacks("brute", "cleric", &[10]),
            dazed_for(3),
        ],
    });
}

/// What the player's seat read of `who`'s `status` in the last action: the rounds left it was
/// told (`Some(None)`: set without its rounds), `None` when it read no such status set.
fn player_read(who: &'static str, status: &'static str, rounds: Option<Option<u32>>) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let seat = crate::ids::Seat::Player("p1".into());
        let read = p
            .last
            .iter()
            .filter_map(|e| e.view(&seat))
            .flat_map(|e| e.parts)
            .find_map(|part| match part.fact {
                crate::event::Fact::StatusSet {
                    entity,
                    status: s,
                    to: Some(to),
                    ..
                } if entity.0 == who && s == status => Some(to.rounds_left),
                _ => None,
            });
        assert_eq!(read, rounds, "{}: the player reads {who} {status}", p.at);
    }))
}

/// The rounds left of the cleric's daze, as the GM's state counts them.
fn dazed_for(rounds: u32) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let c = crate::state::StateView::combatant(p.state, &"cleric".into()).expect("cleric");
        assert_eq!(
            c.statuses.get("dazed").and_then(|s| s.rounds_left),
            Some(rounds)
        );
    }))
}

#[test]
fn critical_strike_dazes_on_a_10_taking_1_off_every_roll_for_the_level_in_rounds() {
    play(Scene {
        name: "critical strike",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "critical_strike", &["shortsword"]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // 10 + 3 hits: shortsword 1 + 1 elf against evil, 10 to 8; dazed for level 2 rounds.
            attacks("rogue", "g1", &[10]),
            S::Res("g1", "hp", 8),
            S::Magnitude("g1", "dazed", -1),
            // The rogue's level is no secret: the table reads the 2 rounds.
            player_read("g1", "dazed", Some(Some(2))),
            S::Act("rogue", "end_turn", vec![], &[]),
            // Its attack: 6 + power 1 - 1 = 6 misses T7 (7 would hit).
            attacks("g1", "rogue", &[6]),
            S::Prompt(false),
            S::Res("rogue", "hp", 8),
            S::Said("label: \"dazed\", value: -1"),
            // Its save: 5 + reflex 0 - 1 = 4 fails T5.
            S::Gm(
                "save",
                vec![("target", t("g1")), ("attribute", t("reflex"))],
                &[5],
            ),
            S::Said("result: \"fails to save\""),
            // A round ends: one left; another: gone.
            S::Act("g1", "end_turn", vec![], &[]),
            S::Has("g1", "dazed"),
            S::Act("rogue", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Lacks("g1", "dazed"),
            // A 9 dazes nobody: 9 + 3 hits, 8 to 6.
            attacks("rogue", "g1", &[9]),
            S::Res("g1", "hp", 6),
            S::Lacks("g1", "dazed"),
        ],
    });
}

#[test]
fn radiant_strike_blinds_on_a_melee_10_taking_2_off_attacks_and_reflex_for_a_round() {
    play(Scene {
        name: "radiant strike",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "radiant_strike", &[]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // Bare hands: 10 + 3 hits for 1, 10 to 9; blinded.
            attacks("cleric", "g1", &[10]),
            S::Res("g1", "hp", 9),
            S::Magnitude("g1", "blinded", -2),
            S::Act("cleric", "end_turn", vec![], &[]),
            // 7 + 1 - 2 = 6 misses T7 (8 would hit).
            attacks("g1", "cleric", &[7]),
            S::Res("cleric", "hp", 7),
            // A reflex save: 6 + 0 - 2 = 4 fails; a power save is untouched: 4 + 1 = 5.
            S::Gm(
                "save",
                vec![("target", t("g1")), ("attribute", t("reflex"))],
                &[6],
            ),
            S::Said("result: \"fails to save\""),
            S::Gm(
                "save",
                vec![("target", t("g1")), ("attribute", t("power"))],
                &[4],
            ),
            S::Said("result: \"saves\""),
            // One round.
            S::Act("g1", "end_turn", vec![], &[]),
            S::Lacks("g1", "blinded"),
        ],
    });
}

#[test]
fn supernatural_vitality_adds_2_toughness_at_1_hp() {
    play(Scene {
        name: "supernatural vitality",
        options: &[],
        cast: vec![
            with(
                hero("cleric", "human", "power", "supernatural_vitality", &[]),
                |v| v["hp"] = json!(2),
            ),
            goblin("g1", 3),
            goblin("g2", 2),
        ],
        steps: vec![
            S::Start(&[]),
            // At 2 HP the toughness is 7: 6 + 1 hits, 2 to 1.
            attacks("g1", "cleric", &[6]),
            S::Res("cleric", "hp", 1),
            S::Act("g1", "end_turn", vec![], &[]),
            // At 1 HP it is 9: 7 + 1 = 8 misses.
            attacks("g2", "cleric", &[7]),
            S::Res("cleric", "hp", 1),
            S::Said("name: \"toughness\", value: Some(9)"),
            S::Act("g2", "end_turn", vec![], &[]),
            S::Act("cleric", "end_turn", vec![], &[]),
            // 8 + 1 = 9 reaches it: 0 HP, dying.
            attacks("g1", "cleric", &[8]),
            S::Has("cleric", "dying"),
        ],
    });
}

#[test]
fn deathless_at_1_hp_makes_a_hit_win_a_power_challenge_against_the_warriors_plus_1() {
    play(Scene {
        name: "deathless",
        options: &[],
        cast: vec![
            with(hero("warrior", "human", "power", "deathless", &[]), |v| {
                v["hp"] = json!(1)
            }),
            goblin("g1", 3),
            goblin("g2", 2),
        ],
        steps: vec![
            S::Start(&[]),
            // 9 + 1 hits T8; the challenge: goblin 7 + 1 = 8, warrior 4 + power 3 + 1 = 8, a
            // tie the warrior holds (without the +1 the goblin would win).
            attacks("g1", "warrior", &[9, 7, 4]),
            S::Res("warrior", "hp", 1),
            S::Said("deals no damage (deathless)"),
            S::Act("g1", "end_turn", vec![], &[]),
            // Goblin 9 + 1 = 10, warrior 5 + 3 + 1 = 9: the blow lands, 1 to 0.
            attacks("g2", "warrior", &[9, 9, 5]),
            S::Res("warrior", "hp", 0),
            S::Has("warrior", "dying"),
        ],
    });
}

// An NPC's Deathless is rolled only when it stands at 1 HP: the challenge, who won it and the
// ability's name are the GM's, or the table would learn the NPC's HP.
#[test]
fn an_npcs_deathless_challenge_is_the_gms_alone() {
    play(Scene {
        name: "npc deathless",
        options: &[],
        cast: vec![
            hero("warrior", "human", "power", "deathless", &[]),
            json!({
                "id": "captain", "name": "captain", "kind": "npc", "abilities": ["deathless"],
                "stats": {"power": 2, "reflex": -2, "toughness": 5, "hp_max": 1}
            }),
        ],
        steps: vec![
            S::Start(&[]),
            // 9 hits T5; the challenge: warrior 8 + 3 = 11 against 1 + 2 + 1 = 4: through.
            attacks("warrior", "captain", &[9, 8, 1]),
            S::Res("captain", "hp", 0),
            S::PlayerNeverHears("deathless"),
        ],
    });
}

#[test]
fn wrath_adds_1_damage_against_the_unholy_only() {
    play(Scene {
        name: "wrath",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "wrath", &[]),
            goblin_hp("g1", 0, 10),
            json!({
                "id": "wolf", "name": "wolf", "kind": "npc", "tags": ["animal"],
                "stats": {"power": 1, "reflex": -1, "toughness": 5, "hp_max": 10},
            }),
        ],
        steps: vec![
            S::Start(&[]),
            // Bare hands 1 + wrath 1 on the evil goblin.
            attacks("cleric", "g1", &[5]),
            S::Damage(&[("bare hands", 1), ("wrath", 1)], 2),
            S::Res("g1", "hp", 8),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("wolf", "end_turn", vec![], &[]),
            // The wolf is not unholy: 1.
            attacks("cleric", "wolf", &[5]),
            S::Res("wolf", "hp", 9),
        ],
    });
}

#[test]
fn bloody_slash_doubles_a_bladed_melee_hit_on_a_d10_of_6_or_more() {
    let rounds = |faces: &'static [u32], weapon: &'static str, hp: i64| {
        vec![
            S::Act(
                "rogue",
                "attack",
                vec![("target", t("g1")), ("weapon", t(weapon))],
                faces,
            ),
            S::Res("g1", "hp", hp),
            S::Act("rogue", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
        ]
    };
    let mut steps = vec![S::Start(&[])];
    // 5 + 3 hits: shortsword 1 + 1 elf against evil = 2; the d10 6 doubles it to 4.
    steps.extend(rounds(&[5, 6], "shortsword", 6));
    // The d10 5 does not: 2.
    steps.extend(rounds(&[5, 5], "shortsword", 4));
    // Bare hands have no blade: no d10, 2.
    steps.extend(rounds(&[5], "unarmed", 2));
    play(Scene {
        name: "bloody slash",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "bloody_slash", &["shortsword"]),
            goblin_hp("g1", 0, 10),
        ],
        steps,
    });
}

#[test]
fn favored_weapon_deals_1d5_in_place_of_the_1_on_a_10_with_its_type() {
    play(Scene {
        name: "favored weapon",
        options: &[],
        cast: vec![
            with(
                hero("cleric", "human", "power", "favored_weapon", &["flail"]),
                |v| v["favored_weapon"] = json!("flail"),
            ),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // 10 + 3 hits: 1d5 (4) in place of the 1, + the flail's 1 = 5, 10 to 5.
            attacks("cleric", "g1", &[10, 4]),
            S::Damage(&[("flail", 5)], 5),
            S::Res("g1", "hp", 5),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // A 9: the flail's 2, no die.
            attacks("cleric", "g1", &[9]),
            S::Res("g1", "hp", 3),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // A 10 with bare hands, not the favoured type: 1.
            S::Act(
                "cleric",
                "attack",
                vec![("target", t("g1")), ("weapon", t("unarmed"))],
                &[10],
            ),
            S::Res("g1", "hp", 2),
        ],
    });
}

#[test]
fn weapon_proficiency_adds_1_to_attack_or_damage_with_the_chosen_type() {
    let hard = |id| {
        with(goblin_hp(id, 0, 10), |v| {
            v["stats"]["toughness"] = json!(8);
        })
    };
    play(Scene {
        name: "weapon proficiency",
        options: &[],
        cast: vec![
            with(
                hero(
                    "warrior",
                    "human",
                    "power",
                    "weapon_proficiency",
                    &["greatsword", "flail"],
                ),
                |v| v["proficiency"] = json!({"weapon": "sword", "bonus": "attack"}),
            ),
            with(
                hero(
                    "warrior",
                    "human",
                    "power",
                    "weapon_proficiency",
                    &["shortsword"],
                ),
                |v| {
                    v["id"] = json!("ward");
                    v["proficiency"] = json!({"weapon": "sword", "bonus": "damage"});
                },
            ),
            hard("g1"),
        ],
        steps: vec![
            // The two warriors tie at reflex 1: 9 and 4, Ward first.
            S::Start(&[9, 4]),
            S::Order(&["ward", "warrior", "g1"]),
            // 5 + 3 = 8 reaches T8: shortsword 1 + 1 proficiency (damage), 10 to 8.
            S::Act(
                "ward",
                "attack",
                vec![("target", t("g1")), ("weapon", t("shortsword"))],
                &[5],
            ),
            S::Damage(&[("shortsword", 1), ("weapon proficiency", 1)], 2),
            S::Act("ward", "end_turn", vec![], &[]),
            // A greatsword is a sword: 3 + power 3 + 1 greatsword + 1 proficiency = 8 hits T8
            // (7 would miss); damage 1 + 1 = 2, 8 to 6.
            S::Act(
                "warrior",
                "attack",
                vec![("target", t("g1")), ("weapon", t("greatsword"))],
                &[3],
            ),
            S::Res("g1", "hp", 6),
            S::Act("warrior", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("ward", "end_turn", vec![], &[]),
            // A flail is not: 4 + 3 + 0 = 7 misses T8.
            S::Act(
                "warrior",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[4],
            ),
            S::Res("g1", "hp", 6),
        ],
    });
}

#[test]
fn paralyzing_strike_paralyzes_on_a_melee_10_for_the_level_or_one_round_on_a_t5_aspect_save() {
    let round = |faces: &'static [u32]| {
        vec![
            attacks("rogue", "g1", faces),
            S::Has("g1", "paralyzed"),
            S::Act("rogue", "end_turn", vec![], &[]),
        ]
    };
    let mut steps = vec![S::Start(&[])];
    // 10 + 3 hits; the goblin's aspect save 3 + 0 fails T5: paralyzed for 2 rounds (level 2);
    // 2 damage. Its turn is passed over, twice. The rogue's level is no secret.
    steps.push(attacks("rogue", "g1", &[10, 3]));
    steps.push(player_read("g1", "paralyzed", Some(Some(2))));
    steps.push(S::Act("rogue", "end_turn", vec![], &[]));
    steps.extend([S::Round(2), S::Turn(Some("rogue")), S::Res("g1", "hp", 8)]);
    steps.extend([S::Act("rogue", "end_turn", vec![], &[]), S::Round(3)]);
    steps.push(S::Lacks("g1", "paralyzed"));
    // Saved (5 reaches T5): one round only.
    steps.push(attacks("rogue", "g1", &[10, 5]));
    steps.push(player_read("g1", "paralyzed", Some(Some(1))));
    steps.extend(round(&[]).into_iter().skip(1));
    steps.extend([
        S::Round(4),
        S::Lacks("g1", "paralyzed"),
        S::Act("rogue", "end_turn", vec![], &[]),
        S::Turn(Some("g1")),
    ]);
    play(Scene {
        name: "paralyzing strike",
        options: &[],
        cast: vec![
            hero(
                "rogue",
                "elf",
                "power",
                "paralyzing_strike",
                &["shortsword"],
            ),
            goblin_hp("g1", 0, 10),
        ],
        steps,
    });
}

// The GM's paralyzing brute (level 3): unsaved, the players read that the rogue is paralyzed
// but not for how long; saved, the one round is no secret.
#[test]
fn an_npcs_paralyzing_strike_keeps_its_rounds_from_the_players_unless_saved() {
    play(Scene {
        name: "npc paralyzing strike",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "critical_strike", &["shortsword"]),
            json!({
                "id": "brute", "name": "brute", "kind": "npc", "level": 3,
                "abilities": ["paralyzing_strike"],
                "stats": {"power": 2, "reflex": 5, "toughness": 5, "hp_max": 10},
                "attacks": [{"id": "club", "name": "club", "kind": "melee"}]
            }),
        ],
        steps: vec![
            S::Start(&[]),
            // 10 + 2 hits T7; the rogue's aspect save 3 + 0 fails T5.
            attacks("brute", "rogue", &[10, 3]),
            S::Has("rogue", "paralyzed"),
            player_read("rogue", "paralyzed", Some(None)),
        ],
    });
}

// A ranged 10 feeds no Fanged strike: 10 + 1 reflex hits with the shortbow for 1 + 1 elf
// against evil = 2, and heals nothing.
#[test]
fn fanged_strike_needs_melee() {
    play(Scene {
        name: "fanged strike at range",
        options: &[],
        cast: vec![
            with(
                hero("rogue", "elf", "power", "fanged_strike", &["shortbow"]),
                |v| v["hp"] = json!(4),
            ),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            attacks("rogue", "g1", &[10]),
            S::Res("g1", "hp", 8),
            S::Res("rogue", "hp", 4),
            S::Lacks("rogue", "fanged_strike"),
        ],
    });
}

#[test]
fn disarm_on_a_melee_10_wins_a_power_challenge_and_leaves_the_foe_bare_handed() {
    play(Scene {
        name: "disarm",
        options: &[],
        cast: vec![
            hero("warrior", "human", "power", "disarm", &["flail"]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // 10 + 3 hits; the challenge: warrior 5 + 3 = 8, goblin 6 + 1 = 7; flail 2.
            attacks("warrior", "g1", &[10, 5, 6]),
            S::Has("g1", "disarmed"),
            S::PlayerHears("warrior disarms g1"),
            S::Res("g1", "hp", 8),
            S::Act("warrior", "end_turn", vec![], &[]),
            S::Refused(
                "g1",
                "attack",
                vec![("target", t("warrior")), ("weapon", t("rusty_blade"))],
                "rule: disarmed",
            ),
            // Bare hands: 7 + 1 = 8 reaches T8, 1 damage.
            attacks("g1", "warrior", &[7]),
            S::Damage(&[("bare hands", 1)], 1),
            S::Res("warrior", "hp", 8),
        ],
    });
}

/// A goblin with toughness `t` and 10 HP.
fn tough_goblin(id: &str, reflex: i64, t: i64) -> Value {
    with(goblin_hp(id, reflex, 10), |v| {
        v["stats"]["toughness"] = json!(t)
    })
}

#[test]
fn thunderous_blow_doubles_the_melee_bonuses_for_the_round_and_may_knock_prone() {
    play(Scene {
        name: "thunderous blow",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "thunderous_blow", &["flail"]),
            tough_goblin("g1", 0, 8),
        ],
        steps: vec![
            S::Start(&[]),
            // 2 + power 3 + the same again = 8 reaches T8 (5 would not). The d10 6 knocks it
            // prone. Damage: 1 + the flail's 1, its bonus doubled: 3, 10 to 7. 2 PP of 9.
            S::Act(
                "cleric",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("weapon", t("flail")),
                    ("thunderous", yes()),
                ],
                &[2, 6],
            ),
            S::Res("g1", "hp", 7),
            S::Has("g1", "prone"),
            S::Res("cleric", "pp", 7),
            S::Damage(&[("flail", 2), ("thunderous blow: bonus doubled", 1)], 3),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // One round: gone. 4 + 3 = 7 reaches the prone goblin's T7, no d10, flail 2.
            S::Lacks("cleric", "thunderous_blow"),
            attacks("cleric", "g1", &[4]),
            S::Res("g1", "hp", 5),
        ],
    });
}

#[test]
fn magical_power_turns_pp_into_temporary_mp_and_adds_1_toughness() {
    play(Scene {
        name: "magical power",
        options: &[],
        cast: vec![
            // PP 5 + 2 = 7, MP 3 + 5 = 8, T 5 + 1 = 6, HP 5 + 2 = 7.
            hero("wizard", "human", "intellect", "magical_power", &[]),
            goblin("g1", 0),
        ],
        steps: vec![
            S::Start(&[]),
            // 1d5: 3 rounds.
            S::Act(
                "wizard",
                "ability",
                vec![("name", t("magical_power"))],
                &[3],
            ),
            S::Res("wizard", "pp", 0),
            S::Res("wizard", "mp", 15),
            S::Magnitude("wizard", "magical_power", 1),
            S::Act("wizard", "end_turn", vec![], &[]),
            // 5 + 1 = 6 misses T7 (it would reach T6).
            attacks("g1", "wizard", &[5]),
            S::Res("wizard", "hp", 7),
            // The fight ends: the MP past the maximum go.
            S::Gm("end_encounter", vec![], &[]),
            S::Res("wizard", "mp", 8),
        ],
    });
}

#[test]
fn the_gms_magical_power_rolls_its_rounds_for_the_gm_alone() {
    play(Scene {
        name: "the gm's magical power",
        options: &[],
        cast: vec![
            json!({
                "id": "hexer", "name": "goblin hexer", "kind": "npc", "tags": ["goblin"],
                "abilities": ["magical_power"],
                "stats": {"intellect": 2, "reflex": 3, "toughness": 5, "hp_max": 4,
                          "mp_max": 6, "pp_max": 2, "casting": "magical"}
            }),
            brenna(),
        ],
        steps: vec![
            S::Start(&[]),
            // 1d5 (3) rounds: Rounds::Gms keeps them from the players, and so the face.
            S::Act("hexer", "ability", vec![("name", t("magical_power"))], &[3]),
            dice_gm_alone("hexer", &[3]),
            S::Has("hexer", "magical_power"),
        ],
    });
}

#[test]
fn prying_eye_takes_2_off_a_foes_toughness_for_the_round() {
    play(Scene {
        name: "prying eye",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "prying_eye", &["shortsword"]),
            brenna(),
            tough_goblin("g1", 0, 8),
        ],
        steps: vec![
            // Brenna 3, the rogue 8: the rogue first.
            S::Start(&[3, 8]),
            S::Act(
                "rogue",
                "ability",
                vec![("name", t("prying_eye")), ("target", t("g1"))],
                &[],
            ),
            S::Res("rogue", "pp", 7),
            S::Magnitude("g1", "prying_eye", -2),
            S::PlayerHears("finds g1's weak spot"),
            // The turn's ability: no attack left.
            S::Refused("rogue", "attack", vec![("target", t("g1"))], "none_left"),
            S::Act("rogue", "end_turn", vec![], &[]),
            // 4 + power 2 = 6 reaches T8 - 2 = 6: flail 2 + 1 against goblins.
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[4],
            ),
            S::Res("g1", "hp", 7),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Lacks("g1", "prying_eye"),
        ],
    });
}

// An NPC's blessed weapon is named in its status: the status is the GM's.
#[test]
fn an_npcs_blessed_weapon_is_the_gms_to_know() {
    play(Scene {
        name: "npc bless weapon",
        options: &[],
        cast: vec![
            hero("warrior", "human", "power", "battle_lock", &[]),
            json!({
                "id": "acolyte", "name": "acolyte", "kind": "npc", "abilities": ["bless_weapon"],
                "stats": {"power": 1, "reflex": 5, "toughness": 5, "hp_max": 6, "pp_max": 6},
                "attacks": [{"id": "secret-mace", "name": "secret mace", "kind": "melee"}]
            }),
        ],
        steps: vec![
            S::Start(&[]),
            S::Act(
                "acolyte",
                "ability",
                vec![("name", t("bless_weapon")), ("weapon", t("secret-mace"))],
                &[],
            ),
            S::Has("acolyte", "bless_weapon"),
            S::PlayerNeverHears("secret"),
        ],
    });
}

#[test]
fn bless_weapon_adds_1_damage_and_1d5_against_the_unholy_for_the_fight() {
    play(Scene {
        name: "bless weapon",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "bless_weapon", &["flail"]),
            goblin_hp("g1", 0, 10),
            json!({
                "id": "wolf", "name": "wolf", "kind": "npc", "tags": ["animal"],
                "stats": {"power": 1, "reflex": -1, "toughness": 5, "hp_max": 10},
            }),
        ],
        steps: vec![
            S::Start(&[]),
            S::Act(
                "cleric",
                "ability",
                vec![("name", t("bless_weapon")), ("weapon", t("flail"))],
                &[],
            ),
            S::Res("cleric", "pp", 7),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("wolf", "end_turn", vec![], &[]),
            // The evil goblin: 1d5 (3) in place of the 1, + the flail's 1, + 1 blessed: 5.
            attacks("cleric", "g1", &[5, 3]),
            S::Damage(&[("flail", 4), ("bless weapon", 1)], 5),
            // Whether the goblin counts as unholy is the GM's: the roll's label does not say.
            S::PlayerNeverHears("unholy"),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("wolf", "end_turn", vec![], &[]),
            // The wolf: 1 + 1 + 1 = 3, no die.
            attacks("cleric", "wolf", &[5]),
            S::Res("wolf", "hp", 7),
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("cleric", "bless_weapon"),
        ],
    });
}

#[test]
fn appeal_to_heaven_at_half_hp_gives_1_attack_and_damage_and_no_damage_for_the_level_in_rounds() {
    let next_round = || {
        vec![
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
        ]
    };
    let mut steps = vec![
        S::Start(&[]),
        // 4 of 7 HP is more than half.
        S::Refused(
            "cleric",
            "ability",
            vec![("name", t("appeal_to_heaven"))],
            "rule: half",
        ),
        S::Act("cleric", "end_turn", vec![], &[]),
        // 6 + 1 = 7 reaches T7: 4 to 3.
        attacks("g1", "cleric", &[6]),
        S::Res("cleric", "hp", 3),
        S::Act("g1", "end_turn", vec![], &[]),
        // Round 2: 3 of 7 is half or less. 2 PP of 9.
        S::Act(
            "cleric",
            "ability",
            vec![("name", t("appeal_to_heaven"))],
            &[],
        ),
        S::Res("cleric", "pp", 7),
        S::Act("cleric", "end_turn", vec![], &[]),
        // A hit deals nothing.
        attacks("g1", "cleric", &[9]),
        S::Res("cleric", "hp", 3),
        S::Said("appeal to heaven: no damage"),
        S::Damage(
            &[("rusty blade", 1), ("appeal to heaven: no damage", -1)],
            0,
        ),
        S::Act("g1", "end_turn", vec![], &[]),
        // Round 3: 1 + 3 + 1 = 5 reaches T5; bare hands 1 + 1.
        attacks("cleric", "g1", &[1]),
        S::Res("g1", "hp", 8),
    ];
    // Two rounds (level 2): gone at the end of round 3.
    steps.extend(next_round());
    steps.push(S::Lacks("cleric", "appeal_to_heaven"));
    play(Scene {
        name: "appeal to heaven",
        options: &[],
        cast: vec![
            with(
                hero("cleric", "human", "power", "appeal_to_heaven", &[]),
                |v| v["hp"] = json!(4),
            ),
            goblin_hp("g1", 0, 10),
        ],
        steps,
    });
}

// Exactly half and exactly the cost are enough: a cleric of 6 HP and 4 PP split has 6 + 2 =
// 8 HP and 4 + 2 + 2 = 8 PP at level 2; at 4 of 8 HP (half) with 2 PP left it appeals, and
// its PP fall to 0.
#[test]
fn appeal_to_heaven_at_exactly_half_with_exactly_its_2_pp() {
    play(Scene {
        name: "appeal to heaven at the edge",
        options: &[],
        cast: vec![
            with(
                hero("cleric", "human", "power", "appeal_to_heaven", &[]),
                |v| {
                    v["points"]["hp"] = json!(6);
                    v["points"]["pp"] = json!(4);
                    v["hp"] = json!(4);
                    v["pp"] = json!(2);
                },
            ),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Act(
                "cleric",
                "ability",
                vec![("name", t("appeal_to_heaven"))],
                &[],
            ),
            S::Res("cleric", "pp", 0),
            S::Has("cleric", "appeal_to_heaven"),
        ],
    });
}

#[test]
fn blessed_rolls_a_missed_attack_again_for_3_pp_spent_only_on_the_miss() {
    let blessed = |faces: &'static [u32]| {
        S::Act(
            "cleric",
            "attack",
            vec![("target", t("g1")), ("blessed", yes())],
            faces,
        )
    };
    play(Scene {
        name: "blessed",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "blessed", &[]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // Bare hands: 1 + 3 = 4 misses T5; 3 PP of 9 and again, 2 + 3 = 5: 1 damage.
            blessed(&[1, 2]),
            S::Said("blessed: attack again"),
            S::Res("cleric", "pp", 6),
            S::Res("g1", "hp", 9),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // A hit the first time costs nothing.
            blessed(&[5]),
            S::Res("cleric", "pp", 6),
            S::Res("g1", "hp", 8),
        ],
    });
}

#[test]
fn overpower_rolls_a_lost_power_challenge_of_the_attack_again_for_1_pp() {
    let subdue = |faces: &'static [u32], overpower: bool| {
        S::Act(
            "warrior",
            "attack",
            vec![
                ("target", t("g1")),
                ("nonlethal", yes()),
                ("overpower", ArgValue::Flag(overpower)),
            ],
            faces,
        )
    };
    play(Scene {
        name: "overpower",
        options: &[],
        cast: vec![
            hero("warrior", "human", "power", "overpower", &[]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // 3 + 3 hits T5; the power challenge: 1 + 3 = 4 against 5 + 1 = 6, lost; again for
            // 1 PP of 8: 6 + 3 = 9 against 2 + 1 = 3, won: 1 damage.
            subdue(&[3, 1, 5, 6, 2], true),
            S::Res("warrior", "pp", 7),
            S::Res("g1", "hp", 9),
            S::Said("the non-lethal blow challenge again"),
            S::Act("warrior", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // Undeclared, a lost challenge stands: struck, not hurt.
            subdue(&[3, 1, 5], false),
            S::Res("warrior", "pp", 7),
            S::Res("g1", "hp", 9),
        ],
    });
}

#[test]
fn fanged_strike_heals_the_rogue_by_the_damage_a_melee_10_deals() {
    play(Scene {
        name: "fanged strike",
        options: &[],
        cast: vec![
            with(
                hero("rogue", "elf", "power", "fanged_strike", &["shortsword"]),
                |v| v["hp"] = json!(4),
            ),
            goblin_hp("g1", 0, 10),
            // A foe the GM may have evade a hit.
            json!({
                "id": "duelist", "name": "duelist", "kind": "npc", "abilities": ["evade"],
                "stats": {"power": 1, "reflex": -1, "toughness": 5, "hp_max": 10, "pp_max": 2},
                "attacks": [{"id": "rapier", "name": "rapier", "kind": "melee"}]
            }),
        ],
        steps: vec![
            S::Start(&[]),
            // 10 + 3 hits: shortsword 1 + 1 elf against evil = 2 dealt, 2 healed (4 to 6).
            attacks("rogue", "g1", &[10]),
            S::Res("g1", "hp", 8),
            S::Res("rogue", "hp", 6),
            S::Lacks("rogue", "fanged_strike"),
            S::Act("rogue", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("duelist", "end_turn", vec![], &[]),
            // A 9 feeds nothing.
            attacks("rogue", "g1", &[9]),
            S::Res("g1", "hp", 6),
            S::Res("rogue", "hp", 6),
            S::Act("rogue", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("duelist", "end_turn", vec![], &[]),
            // A 10 the GM answers: evaded, nothing dealt, nothing healed.
            attacks("rogue", "duelist", &[10]),
            S::Answer("evade", &[]),
            S::Res("rogue", "hp", 6),
            S::Act("rogue", "end_turn", vec![], &[]),
            S::Lacks("rogue", "fanged_strike"),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("duelist", "end_turn", vec![], &[]),
            // Taken: the shortsword's 1 heals 1 once the answer lands.
            attacks("rogue", "duelist", &[10]),
            S::Answer("take", &[]),
            S::Res("duelist", "hp", 9),
            S::Res("rogue", "hp", 7),
        ],
    });
}

#[test]
fn a_fanged_blow_evaded_feeds_no_later_attack_of_the_turn() {
    play(Scene {
        name: "fanged strike and an extra attack",
        options: &[],
        cast: vec![
            with(
                hero("rogue", "elf", "power", "fanged_strike", &["shortsword"]),
                |v| v["hp"] = json!(4),
            ),
            hero("cleric", "human", "reflex", "call_to_battle", &[]),
            json!({
                "id": "duelist", "name": "duelist", "kind": "npc", "abilities": ["evade"],
                "stats": {"power": 1, "reflex": -1, "toughness": 5, "hp_max": 10, "pp_max": 2},
                "attacks": [{"id": "rapier", "name": "rapier", "kind": "melee"}]
            }),
        ],
        steps: vec![
            S::Start(&[]),
            // The cleric (reflex 2) calls; the rogue rolls 6.
            S::Act(
                "cleric",
                "ability",
                vec![("name", t("call_to_battle"))],
                &[6],
            ),
            S::Act("cleric", "end_turn", vec![], &[]),
            // A 10, evaded by the GM's duelist.
            attacks("rogue", "duelist", &[10]),
            S::Answer("evade", &[]),
            // The extra attack, a 5 (8 hits T5), taken: 1 damage, and no healing.
            attacks("rogue", "duelist", &[5]),
            S::Answer("take", &[]),
            S::Res("duelist", "hp", 9),
            S::Res("rogue", "hp", 4),
        ],
    });
}

#[test]
fn commanding_presence_draws_near_foes_attacks_and_adds_toughness_for_those_it_faces() {
    let e = |who| S::Act(who, "end_turn", vec![], &[]);
    play(Scene {
        name: "commanding presence",
        options: &[],
        cast: vec![
            // T8, HP 9, PP 8.
            hero(
                "warrior",
                "human",
                "power",
                "commanding_presence",
                &["flail"],
            ),
            super::scenes::aldric(),
            goblin("g1", -1),
            goblin("g2", -2),
            goblin("g3", -3),
            goblin("g4", -4),
            goblin("g5", -5),
        ],
        steps: vec![
            S::Start(&[]),
            S::Place("warrior", 5, 5),
            S::Place("aldric", 0, 0),
            S::Place("g1", 6, 5),
            S::Place("g2", 5, 6),
            S::Place("g3", 4, 4),
            S::Place("g4", 6, 6),
            S::Place("g5", 20, 20),
            S::Act(
                "warrior",
                "ability",
                vec![("name", t("commanding_presence"))],
                &[],
            ),
            S::Res("warrior", "pp", 5),
            e("warrior"),
            e("aldric"),
            // Within 30 ft, g1 must attack the warrior.
            S::Refused(
                "g1",
                "attack",
                vec![("target", t("aldric"))],
                "rule: must attack warrior",
            ),
            // Four foes near: T8 + 2. 8 + 1 = 9 misses.
            attacks("g1", "warrior", &[8]),
            S::Res("warrior", "hp", 9),
            e("g1"),
            e("g2"),
            e("g3"),
            // g4 steps out to 35 ft.
            S::Act("g4", "move", vec![("to", to(12, 12))], &[]),
            e("g4"),
            // g5, far off, may attack Aldric: 6 + 1 hits T7 (the warrior lets it land).
            attacks("g5", "aldric", &[6]),
            S::Answer("let", &[]),
            S::Res("aldric", "hp", 5),
            e("g5"),
            e("warrior"),
            e("aldric"),
            // Three near: T8 + 1 = 9, reached by 8 + 1.
            attacks("g1", "warrior", &[8]),
            S::Res("warrior", "hp", 8),
        ],
    });
}

#[test]
fn re_spell_casts_last_rounds_spell_again_for_half_its_cost_rounded_up() {
    let armour = S::Act(
        "wizard",
        "cast",
        vec![("spell", t("mage_armour")), ("target", t("aldric"))],
        // Its rounds: 1d5 (2) + level 2 (lasting.rs counts them).
        &[2],
    );
    let round = |v: &mut Vec<S>| {
        v.extend(
            ["wizard", "aldric", "g1"]
                .into_iter()
                .map(|who| S::Act(who, "end_turn", vec![], &[])),
        )
    };
    let mut steps = vec![S::Start(&[])];
    // Round 1: Mage armour on another costs 3 of 8.
    steps.push(armour);
    steps.push(S::Res("wizard", "mp", 5));
    round(&mut steps);
    // Round 2: cast last round, half of 3 rounded up: 2.
    steps.push(S::Act(
        "wizard",
        "cast",
        vec![("spell", t("mage_armour")), ("target", t("aldric"))],
        &[2],
    ));
    steps.push(S::Res("wizard", "mp", 3));
    steps.push(S::Said("re-spell: half the cost"));
    round(&mut steps);
    // Round 3 passes; in round 4 the last casting is two rounds old: 3 again.
    round(&mut steps);
    steps.push(S::Act(
        "wizard",
        "cast",
        vec![("spell", t("mage_armour")), ("target", t("aldric"))],
        &[2],
    ));
    steps.push(S::Res("wizard", "mp", 0));
    play(Scene {
        name: "re-spell",
        options: &[],
        cast: vec![
            with(hero("wizard", "human", "intellect", "re_spell", &[]), |v| {
                v["spells"] = json!(["fireball_1", "magic_missile_1", "mage_armour"])
            }),
            super::scenes::aldric(),
            goblin("g1", -1),
        ],
        steps,
    });
}

#[test]
fn healing_sacrifice_heals_allies_within_50_ft_to_full_for_1_hp_and_2_pp_each() {
    let sacrifice = |also: &'static str| {
        vec![
            ("name", t("healing_sacrifice")),
            ("target", t("brenna")),
            ("also", t(also)),
        ]
    };
    play(Scene {
        name: "healing sacrifice",
        options: &[],
        cast: vec![
            // HP 3 of 7, PP 9.
            with(
                hero("cleric", "human", "power", "healing_sacrifice", &[]),
                |v| v["hp"] = json!(3),
            ),
            with(brenna(), |v| v["hp"] = json!(3)),
            with(super::scenes::aldric(), |v| v["hp"] = json!(2)),
            goblin("g1", 0),
        ],
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("brenna", 5, 0),
            S::Place("aldric", 11, 0),
            // 55 ft: too far.
            S::Refused("cleric", "ability", sacrifice("aldric"), "out_of_range"),
            S::Place("aldric", 10, 0),
            S::Refused("cleric", "ability", sacrifice("g1"), "rule: is not one"),
            // Two allies: 2 HP and 4 PP; Brenna 3 to 10, Aldric 2 to 6.
            S::Act("cleric", "ability", sacrifice("aldric"), &[]),
            S::Res("cleric", "hp", 1),
            S::Res("cleric", "pp", 5),
            S::Res("brenna", "hp", 10),
            S::Res("aldric", "hp", 6),
            // Its last HP is not given.
            S::Refused(
                "cleric",
                "ability",
                vec![("name", t("healing_sacrifice")), ("target", t("brenna"))],
                "insufficient_resource: hit points",
            ),
        ],
    });
}

/// Healing sacrifice on three allies costs 3 HP and 6 PP, the last HP kept: (the cleric's HP,
/// its PP, a fourth ally who is dead, the refusal or `None` when it heals). Brenna 3 of 10
/// and Aldric 2 of 6 (as above), an elf rogue 1 of 5 + 1 = 6.
#[test]
fn healing_sacrifice_counts_its_price_per_ally() {
    let cases: [(i64, i64, bool, Option<&'static str>); 4] = [
        (4, 6, false, None),
        (4, 5, false, Some("insufficient_resource: needs 6, has 5")),
        (3, 6, false, Some("insufficient_resource: needs 4, has 3")),
        (7, 9, true, Some("rule: is not one")),
    ];
    for (hp, pp, dead, refusal) in cases {
        let also = if dead {
            "aldric,rogue,ghost"
        } else {
            "aldric,rogue"
        };
        let act = vec![
            ("name", t("healing_sacrifice")),
            ("target", t("brenna")),
            ("also", t(also)),
        ];
        let steps = match refusal {
            Some(why) => vec![S::Refused("cleric", "ability", act, why)],
            None => vec![
                S::Act("cleric", "ability", act, &[]),
                S::Said("gives 3 HP and 6 PP to heal 3 allies fully"),
                S::Said("label: \"healing sacrifice: to full\", value: 7"),
                S::Said("label: \"healing sacrifice: to full\", value: 5"),
                S::Res("cleric", "hp", 1),
                S::Res("cleric", "pp", 0),
                S::Res("brenna", "hp", 10),
                S::Res("aldric", "hp", 6),
                S::Res("rogue", "hp", 6),
            ],
        };
        let ghost = with(pc("warrior", "dwarf"), |v| {
            v["id"] = json!("ghost");
            v["owner"] = json!("p1");
        });
        let mut cast = vec![
            with(
                hero("cleric", "human", "power", "healing_sacrifice", &[]),
                |v| {
                    v["hp"] = json!(hp);
                    v["pp"] = json!(pp);
                },
            ),
            with(brenna(), |v| v["hp"] = json!(3)),
            with(super::scenes::aldric(), |v| v["hp"] = json!(2)),
            with(pc("rogue", "elf"), |v| {
                v["owner"] = json!("p1");
                v["hp"] = json!(1);
            }),
            ghost,
        ];
        if !dead {
            cast.pop();
        }
        let mut all = Vec::new();
        if dead {
            all.push(S::Give("ghost", "dead", 0));
        }
        all.extend(steps);
        play(Scene {
            name: "healing sacrifice's price",
            options: &[],
            cast,
            steps: all,
        });
    }
}

fn enchanted(options: &'static [(&'static str, &'static str)], refused: bool) {
    let heal = || {
        vec![
            ("name", t("enchanted_healing")),
            ("target", t("brenna")),
            ("mp", n(3)),
        ]
    };
    let steps = if refused {
        vec![S::Refused("wizard", "ability", heal(), "rule: no rate")]
    } else {
        // 3 of 8 MP: 3 HP, Brenna 5 to 8.
        vec![
            S::Act("wizard", "ability", heal(), &[]),
            S::Res("wizard", "mp", 5),
            S::Res("brenna", "hp", 8),
        ]
    };
    play(Scene {
        name: "enchanted healing",
        options,
        cast: vec![
            hero("wizard", "human", "intellect", "enchanted_healing", &[]),
            with(brenna(), |v| v["hp"] = json!(5)),
        ],
        steps,
    });
}

#[test]
fn enchanted_healing_has_no_rate_so_the_gm_rules_it_by_default() {
    enchanted(&[], true);
}

#[test]
fn option_enchanted_healing_one_each_turns_each_mp_into_1_hp() {
    enchanted(&[("tinyd10.enchanted_healing", "one_each")], false);
}

#[test]
fn resist_magic_wins_an_intellect_challenge_to_cancel_a_spells_effects() {
    let hex_with = |faces: &'static [u32]| {
        S::Act(
            "hexer",
            "cast",
            vec![("spell", t("dumbstruck")), ("target", t("wizard"))],
            faces,
        )
    };
    play(Scene {
        name: "resist magic",
        options: &[],
        cast: vec![
            // Intellect 1 (raised at level 2).
            hero("wizard", "human", "intellect", "resist_magic", &[]),
            json!({
                "id": "hexer", "name": "goblin hexer", "kind": "npc", "tags": ["goblin"],
                "spells": ["dumbstruck"],
                "stats": {"intellect": 2, "reflex": 0, "toughness": 5, "hp_max": 4,
                          "mp_max": 6, "casting": "magical"}
            }),
        ],
        steps: vec![
            // Dumbstruck is cast in a fight (its rounds are counted there only): the wizard
            // (reflex 1) first, the hexer (0) next.
            S::Start(&[]),
            S::Order(&["wizard", "hexer"]),
            S::Act("wizard", "end_turn", vec![], &[]),
            // Wizard 6 + 1 = 7 against the hexer's 3 + 2 = 5: the effects are cancelled, and no
            // save is rolled.
            hex_with(&[6, 3]),
            // The hexer's spell is the GM's to name.
            S::Said("resists the effects of a spell"),
            S::PlayerNeverHears("Dumbstruck"),
            S::Act("hexer", "end_turn", vec![], &[]),
            S::Act("wizard", "end_turn", vec![], &[]),
            // Lost (2 + 1 against 5 + 2): the intellect save, 1 + 1 against the hexer's spell
            // save 1 + 2 + 3 = 6, fails; the GM applies the effect.
            // -1d5 (2) intellect for 1d10 (6) rounds.
            hex_with(&[2, 5, 1, 2, 6]),
            S::Said("is dumbstruck: -2 intellect for 6 rounds"),
            S::Res("hexer", "mp", 2),
        ],
    });
    // An ally's spell is no attack to resist: no challenge, only the save (1 + 1 against the
    // ally's spell save 1 + 1 + 3 = 5).
    play(Scene {
        name: "resist magic and an ally",
        options: &[],
        cast: vec![
            hero("wizard", "human", "intellect", "resist_magic", &[]),
            with(
                hero("wizard", "human", "intellect", "arcane_knowledge", &[]),
                |v| {
                    v["id"] = json!("ally");
                    v["name"] = json!("ally");
                    v["spells"] = json!(["dumbstruck"]);
                },
            ),
        ],
        steps: vec![
            // Both at reflex 1: the ally 5, the wizard 2.
            S::Start(&[5, 2]),
            S::Act(
                "ally",
                "cast",
                // The save fails; -1d5 (2) intellect for 1d10 (4) rounds.
                vec![("spell", t("dumbstruck")), ("target", t("wizard"))],
                &[1, 2, 4],
            ),
            S::PlayerNeverHears("resist magic"),
        ],
    });
}

#[test]
fn by_will_alone_asks_the_warrior_to_resist_a_foes_spell_effects_for_2_pp() {
    let hex = |spell: &'static str, faces: &'static [u32]| {
        S::Act(
            "hexer",
            "cast",
            vec![("spell", t(spell)), ("target", t("warrior"))],
            faces,
        )
    };
    play(Scene {
        name: "by will alone",
        options: &[],
        cast: vec![
            // PP 8, T8, HP 9.
            hero("warrior", "human", "power", "by_will_alone", &[]),
            json!({
                "id": "hexer", "name": "goblin hexer", "kind": "npc", "tags": ["goblin"],
                "spells": ["dumbstruck", "fireball_1"],
                "stats": {"intellect": 2, "reflex": 0, "toughness": 5, "hp_max": 4,
                          "mp_max": 10, "casting": "magical"}
            }),
            json!({
                "id": "priest", "name": "goblin priest", "kind": "npc", "tags": ["goblin"],
                "spells": ["turn_undead"],
                "stats": {"aspect": 2, "reflex": 0, "toughness": 5, "hp_max": 4,
                          "mp_max": 10, "casting": "divine"}
            }),
        ],
        steps: vec![
            // The warrior (reflex 1) first; the hexer and the priest tie at 0 (5 and 2).
            S::Start(&[5, 2]),
            S::Order(&["warrior", "hexer", "priest"]),
            S::Act("warrior", "end_turn", vec![], &[]),
            hex("dumbstruck", &[]),
            S::Asked("by will alone"),
            S::PlayerNeverHears("Dumbstruck"),
            // Resisted for 2 PP: no save is rolled.
            S::Answer("resist", &[]),
            S::Res("warrior", "pp", 6),
            // Neither the question nor the line names the hexer's spell.
            S::Said("resists the effects of a spell (by will alone)"),
            S::PlayerNeverHears("Dumbstruck"),
            S::Act("hexer", "end_turn", vec![], &[]),
            S::Act("priest", "end_turn", vec![], &[]),
            S::Act("warrior", "end_turn", vec![], &[]),
            hex("dumbstruck", &[]),
            // Let through: the intellect save, 1 + 0 against 6, fails: -1d5 (3) intellect for
            // 1d10 (4) rounds, the GM's to know (the hexer's dice).
            S::Answer("let", &[1, 3, 4]),
            S::Said("warrior is dumbstruck: -3 intellect for 4 rounds"),
            S::PlayerNeverHears("4 rounds"),
            S::Res("warrior", "pp", 6),
            S::Act("hexer", "end_turn", vec![], &[]),
            S::Act("priest", "end_turn", vec![], &[]),
            S::Act("warrior", "end_turn", vec![], &[]),
            // Damage alone asks nothing: 6 + 2 reaches T8, 1d5 (2) + 1.
            hex("fireball_1", &[6, 2]),
            S::Prompt(false),
            S::Res("warrior", "hp", 6),
            S::Act("hexer", "end_turn", vec![], &[]),
            // A spell that does nothing to the warrior (only the undead) asks nothing: no 2 PP
            // paid against nothing.
            S::Act(
                "priest",
                "cast",
                vec![("spell", t("turn_undead")), ("target", t("warrior"))],
                &[],
            ),
            S::Prompt(false),
            S::Res("warrior", "pp", 6),
        ],
    });
}
