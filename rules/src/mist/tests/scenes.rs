//! Encounter rules as scenarios: each is a cast, table options and a list of steps (commands
//! with the exact dice faces they draw, and what must hold after), played by [`play`] through
//! the real `decide` and `apply`. The comment on each step gives its arithmetic.

use serde_json::{Value, json};

use crate::action::ArgValue;
use crate::state::StateView;
use crate::testing::scene::{self, Pairs, Played, S, Scene};

use super::super::Mist;
use super::{creature, with};

/// Plays a scenario; the hearing steps read the player `beatrix`'s copy.
pub(super) fn play(s: Scene) {
    scene::play(&Mist, "beatrix", s);
}

/// The group whose turn it is and who of it may still act.
pub(super) fn acting(group: &'static str, now: &'static [&'static str]) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let t = &p.state.encounter().turns;
        let got: Vec<&str> = t.now.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(
            (t.group.as_deref(), got),
            (Some(group), now.to_vec()),
            "{}",
            p.at
        );
    }))
}

pub(super) fn t(s: &str) -> ArgValue {
    ArgValue::Text(s.into())
}

/// Beatrix of the delayed-action and dodge examples: Body 2, Senses 3, Speed 3, Dodge 3,
/// Science 2, Medicine 3, a knife made to be thrown (D10/2).
pub(super) fn beatrix() -> Value {
    with(creature("beatrix", "pc"), |v| {
        v["body"] = json!(2);
        v["senses"] = json!(3);
        v["science"] = json!(2);
        v["skills"] = json!({"speed": 3, "dodge": 3, "medicine": 3});
        v["weapons"] = json!([{"id": "knife", "name": "knife", "kind": "thrown", "damage": "d10/2", "traits": ["thrown"]}]);
    })
}

/// Markus: Body 3, Willpower 2, Pain Resistance 2, Toughness 1, +1 damage from an ability,
/// a club (D10).
pub(super) fn markus() -> Value {
    with(creature("markus", "pc"), |v| {
        v["body"] = json!(3);
        v["willpower"] = json!(2);
        v["toughness"] = json!(1);
        v["damage_bonus"] = json!(1);
        v["evade"] = json!(7);
        v["skills"] = json!({"pain_resistance": 2, "speed": 1});
        v["weapons"] = json!([{"id": "club", "name": "club", "damage": "d10"}]);
    })
}

/// A masked thug: Body 2, Speed 0, Evade 7, Life 6, a cudgel (D10).
pub(super) fn thug(id: &str) -> Value {
    with(creature(id, "npc"), |v| {
        v["body"] = json!(2);
        v["evade"] = json!(7);
        v["life_max"] = json!(6);
        v["weapons"] = json!([{"id": "cudgel", "name": "cudgel", "damage": "d10"}]);
    })
}

#[test]
fn group_initiative_one_speed_check_for_the_players_groups_in_any_order_kept_every_round() {
    play(Scene {
        name: "E1 initiative",
        options: &[],
        cast: vec![
            // E1's Beatrix: Body 3, Speed 2. Markus has Body 4 here, so she rolls.
            with(beatrix(), |v| {
                v["body"] = json!(3);
                v["skills"]["speed"] = json!(2);
            }),
            with(markus(), |v| v["body"] = json!(4)),
            thug("thug-a"),
            with(thug("thug-b"), |v| v["body"] = json!(3)),
        ],
        steps: vec![
            // Groups roll in name order: enemies (thug-a, the lowest Body: 5 + 2 + 0 = 7),
            // then players (Beatrix: 4 + 3 + 2 = 9). 9 > 7: the players go first.
            S::Start(&[5, 4]),
            S::Res("beatrix", "initiative", 9),
            S::Res("markus", "initiative", 9),
            S::Res("thug-b", "initiative", 7),
            S::Order(&["beatrix", "markus", "thug-a", "thug-b"]),
            S::Round(1),
            acting("players", &["beatrix", "markus"]),
            // Any order inside the group: Markus first.
            S::Act("markus", "act", vec![("what", t("draws his club"))], &[]),
            acting("players", &["beatrix"]),
            // One action a round: Markus again is out of turn.
            S::Refused("markus", "act", vec![("what", t("again"))], "not_your_turn"),
            // The enemies may not act in the players' turn.
            S::Refused("thug-a", "act", vec![("what", t("shout"))], "not_your_turn"),
            S::Act("beatrix", "act", vec![("what", t("looks around"))], &[]),
            acting("enemies", &["thug-a", "thug-b"]),
            S::Act("thug-b", "act", vec![("what", t("spreads out"))], &[]),
            S::Act("thug-a", "act", vec![("what", t("spreads out"))], &[]),
            // Round 2, same order, nothing rolled again.
            S::Round(2),
            acting("players", &["beatrix", "markus"]),
            S::Res("markus", "action", 1),
            // The GM ends the players' turn: both lose the round's action.
            S::Gm("end_group_turn", vec![], &[]),
            S::Res("markus", "action", 0),
            acting("enemies", &["thug-a", "thug-b"]),
        ],
    });
}

#[test]
fn group_ties_and_the_enemies_initiative_follow_the_table_options() {
    let cast = || vec![beatrix(), thug("thug-a")];
    // Enemies 5 + 2 + 0 = 7, players 2 + 2 + 3 = 7: a tie.
    play(Scene {
        name: "tie, players first (default)",
        options: &[],
        cast: cast(),
        steps: vec![S::Start(&[5, 2]), S::Order(&["beatrix", "thug-a"])],
    });
    play(Scene {
        name: "tie, enemies first",
        options: &[("mist.group_ties", "enemies_first")],
        cast: cast(),
        steps: vec![S::Start(&[5, 2]), S::Order(&["thug-a", "beatrix"])],
    });
    // A bare d10 for the enemies: 7 alone, against the players' 2 + 2 + 3 = 7... and with
    // the d10 at 8, the enemies lead.
    play(Scene {
        name: "plain d10 for the enemies",
        options: &[("mist.enemy_initiative", "plain_d10")],
        cast: cast(),
        steps: vec![
            S::Start(&[8, 2]),
            S::Res("thug-a", "initiative", 8),
            S::Order(&["thug-a", "beatrix"]),
        ],
    });
}

#[test]
fn a_new_group_joins_the_order_at_the_start_of_the_next_round() {
    play(Scene {
        name: "joining",
        options: &[],
        cast: vec![beatrix(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]), // enemies 1 + 2 = 3; players 9 + 2 + 3 = 14
            S::Act("beatrix", "act", vec![("what", t("waits"))], &[]),
            S::Order(&["beatrix", "thug-a"]),
            acting("enemies", &["thug-a"]),
            // Mid-round, a champion group and one more thug arrive: nothing rolls yet.
            S::Join(with(thug("boss"), |v| {
                v["side"] = json!("champions");
                v["body"] = json!(4);
                v["skills"] = json!({"speed": 2});
            })),
            S::Join(thug("thug-b")),
            S::Act("thug-a", "act", vec![("what", t("waits"))], &[6]),
            // Round 2 begins: the champions roll 6 + 4 + 2 = 12 and sit between the players
            // (14) and the enemies (3); thug-b joins its own group's place, unrolled.
            S::Round(2),
            S::Res("boss", "initiative", 12),
            S::Res("thug-b", "initiative", 3),
            S::Order(&["beatrix", "boss", "thug-a", "thug-b"]),
            acting("players", &["beatrix"]),
            S::Act("beatrix", "act", vec![("what", t("waits"))], &[]),
            acting("champions", &["boss"]),
        ],
    });
}

#[test]
fn attack_damage_and_the_consciousness_check_with_the_texts_numbers() {
    play(Scene {
        name: "E3 and E8",
        options: &[],
        cast: vec![markus(), thug("thug-a")],
        steps: vec![
            // Enemies 9 + 2 = 11; players (Markus) 1 + 3 + 1 = 5: the thug goes first.
            S::Start(&[9, 1]),
            acting("enemies", &["thug-a"]),
            // E8: the thug hits Markus (8 + 2 = 10 >= Evade 7); Markus still has his action,
            // so he is asked whether to dodge.
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("markus")), ("weapon", t("cudgel"))],
                &[8],
            ),
            S::Prompt(true),
            // He takes it: cudgel 6 + Body 2 = 8 damage, less Toughness 1: 7. Life 10 → 3.
            S::Answer("take", &[6]),
            S::Damage(&[("cudgel (D10)", 6), ("Body", 2), ("Toughness", -1)], 7),
            S::Said("\"hurt\""),
            S::Res("markus", "life", 3),
            acting("players", &["markus"]),
            // E3: 4 + Body 3 = 7 reaches Evade 7; the thug has acted: no dodge.
            // Damage: 5 + Body 3 + ability 1 = 9; Life 6 → -3, check at 3 + 5 = 8;
            // 2 + Willpower 0 = 2: unconscious, 1 Fatigue, revive difficulty 8.
            S::Act(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[4, 5, 2],
            ),
            S::Res("thug-a", "life", -3),
            S::Magnitude("thug-a", "unconscious", 8),
            S::Res("thug-a", "fatigue", 1),
            S::Said("below 0 Life"),
        ],
    });
    play(Scene {
        name: "an NPC ally's hit on an NPC: the table hears that it took damage, not how much",
        options: &[],
        cast: vec![
            markus(),
            with(thug("ally"), |v| v["side"] = json!("players")),
            thug("thug-a"),
        ],
        steps: vec![
            // Enemies 9 + 2 = 11; players (the ally, lowest Body 2) 1 + 2 = 3.
            S::Start(&[9, 1]),
            S::Act("thug-a", "act", vec![("what", t("waits"))], &[]),
            // 8 + Body 2 = 10 hits Evade 7; the thug has acted: no dodge. Cudgel 4 + 2 = 6:
            // Life 6 → 0.
            S::Act(
                "ally",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("cudgel"))],
                &[8, 4],
            ),
            S::Res("thug-a", "life", 0),
            // At exactly 0 it is hurt, not below 0: no consciousness check.
            S::Said("\"hurt\""),
            S::PlayerHears("thug-a takes damage"),
            S::PlayerNeverHears("amount: 6"),
            S::GmOnly(&["\"amount\":6"]),
        ],
    });
    play(Scene {
        name: "E8 on Markus",
        options: &[],
        cast: vec![with(markus(), |v| v["life"] = json!(4)), thug("thug-a")],
        steps: vec![
            S::Start(&[9, 1]),
            // 8 raw damage (6 + 2) on Life 4, Toughness 1: 7 taken, Life -3, difficulty 8;
            // E8: 3 + Willpower 2 + Pain Resistance 2 = 7 < 8: unconscious.
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("markus")), ("weapon", t("cudgel"))],
                &[8],
            ),
            S::Answer("take", &[6, 3]),
            S::Res("markus", "life", -3),
            S::Magnitude("markus", "unconscious", 8),
            S::Res("markus", "fatigue", 1),
            // Unconscious: no action, and his group's turn passes by itself into round 2.
            S::Round(2),
            acting("enemies", &["thug-a"]),
            S::Refused("markus", "act", vec![("what", t("get up"))], "cannot_act"),
            // Beaten again while down, for at least his whole Life (10): dead.
            // 10 + 2 = 12 hits; damage 9 + 2 = 11, less Toughness 1 = 10 >= 10.
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("markus")), ("weapon", t("cudgel"))],
                &[10, 9],
            ),
            S::Magnitude("markus", "dead", 0),
        ],
    });
    play(Scene {
        name: "passing the check",
        options: &[],
        cast: vec![with(markus(), |v| v["life"] = json!(4)), thug("thug-a")],
        steps: vec![
            S::Start(&[9, 1]),
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("markus")), ("weapon", t("cudgel"))],
                &[8],
            ),
            // 9 + 2 + 2 = 13 >= 8: he stays up, Life back to 0, 1 Fatigue all the same.
            S::Answer("take", &[6, 9]),
            S::Res("markus", "life", 0),
            S::Lacks("markus", "unconscious"),
            S::Res("markus", "fatigue", 1),
        ],
    });
}

#[test]
fn a_critical_rolls_the_attack_again_for_a_second_weapon_die() {
    // E6 leaves out Markus's +1: here he has no ability bonus.
    let cast = || {
        vec![
            with(markus(), |v| v["damage_bonus"] = json!(0)),
            with(thug("thug-a"), |v| v["life_max"] = json!(30)),
        ]
    };
    play(Scene {
        name: "E6 critical",
        options: &[],
        cast: cast(),
        steps: vec![
            S::Start(&[1, 9]), // enemies 3, players 13
            // Attack 5 + 3 = 8 hits Evade 7; the thug may dodge (its action is still to come).
            S::Act(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[5],
            ),
            // Taken: damage die 10 → critical; the attack again 5 + 3 = 8 hits; the second die 6.
            // 10 + 6 + Body 3 = 19 (E6); Life 30 → 11.
            S::Answer("take", &[10, 5, 6]),
            S::Res("thug-a", "life", 11),
        ],
    });
    play(Scene {
        name: "the critical attack misses",
        options: &[],
        cast: cast(),
        steps: vec![
            S::Start(&[1, 9]),
            S::Act(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[5],
            ),
            // 10 on damage; the critical attack 2 + 3 = 5 < 7: only 10 + 3 = 13; 30 → 17.
            S::Answer("take", &[10, 2]),
            S::Res("thug-a", "life", 17),
        ],
    });
    // An NPC's damage 10 asks for no critical by default; with `everyone` it does.
    let npc_cast = || {
        vec![
            with(markus(), |v| v["life_max"] = json!(40)),
            thug("thug-a"),
        ]
    };
    play(Scene {
        name: "NPC criticals off",
        options: &[],
        cast: npc_cast(),
        steps: vec![
            S::Start(&[9, 1]),
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("markus")), ("weapon", t("cudgel"))],
                &[8],
            ),
            // 10 + 2 = 12, less Toughness 1: 11; Life 40 → 29.
            S::Answer("take", &[10]),
            S::Res("markus", "life", 29),
        ],
    });
    play(Scene {
        name: "NPC criticals on",
        options: &[("mist.criticals", "everyone")],
        cast: npc_cast(),
        steps: vec![
            S::Start(&[9, 1]),
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("markus")), ("weapon", t("cudgel"))],
                &[8],
            ),
            // 10, critical attack 8 + 2 = 10 hits Evade 7, second die 4: 10 + 4 + 2 - 1 = 15.
            S::Answer("take", &[10, 8, 4]),
            S::Res("markus", "life", 25),
        ],
    });
}

#[test]
fn a_natural_10_hits_any_evade_for_players_and_for_npcs_only_by_option() {
    let cast = || {
        vec![
            with(beatrix(), |v| v["evade"] = json!(30)),
            with(thug("thug-a"), |v| v["evade"] = json!(30)),
        ]
    };
    play(Scene {
        name: "natural 10, players",
        options: &[],
        cast: cast(),
        steps: vec![
            S::Start(&[1, 9]),
            // 10 + 3 + 2 = 15 < 30, but a natural 10: a hit; the thug takes it.
            // Knife D10/2 on a 3: 2 + Body 2 = 4. Life 6 → 2.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("knife"))],
                &[10],
            ),
            S::Said("natural 10"),
            S::Answer("take", &[3]),
            S::Res("thug-a", "life", 2),
            // The thug's natural 10 (12 < 30) misses by default: nothing more is drawn.
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
                &[10],
            ),
            S::Prompt(false),
            S::Res("beatrix", "life", 10),
        ],
    });
    play(Scene {
        name: "natural 10, everyone",
        options: &[("mist.natural_ten", "everyone")],
        cast: cast(),
        steps: vec![
            S::Start(&[9, 1]),
            // Now it hits; Beatrix may dodge (her action is to come): she takes 4 + 2 = 6.
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
                &[10],
            ),
            S::Answer("take", &[4]),
            S::Res("beatrix", "life", 4),
        ],
    });
}

#[test]
fn dodging_spends_the_action_and_a_success_takes_no_damage() {
    let cast = || vec![beatrix(), thug("thug-a")];
    play(Scene {
        name: "E5 dodge",
        options: &[],
        // A second thug keeps the enemies' turn open after the first has attacked.
        cast: vec![beatrix(), thug("thug-a"), thug("thug-b")],
        steps: vec![
            S::Start(&[1, 9]), // players first
            S::Act("beatrix", "delay", vec![], &[]),
            S::Magnitude("beatrix", "delayed", 0),
            acting("enemies", &["thug-a", "thug-b"]),
            // The thug declares its attack: Beatrix, holding, is asked first (nothing drawn);
            // she passes, keeping her action for the dodge.
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
                &[],
            ),
            S::Asked("thug-a is about to attack beatrix with a melee weapon"),
            // E5: the attack is 7 + 2 = 9 against Evade 5: a hit. Beatrix dodges with her held
            // action: 5 + Body 2 + Dodge 3 = 10 >= 9 (melee): no damage; the action is spent.
            S::Answer("pass", &[7]),
            // She chooses without the total, and the thug's weapon and bonus are the GM's:
            // she is told what kind of weapon it is (a melee one: no +3 or +5 to beat).
            S::GmOnly(&["attack_total", "cudgel", "\"total\":9"]),
            S::Asked("thug-a hits beatrix with a melee weapon: dodge"),
            S::Answer("dodge", &[5]),
            // Her own roll she sees; the thug's total it beat stays the GM's, or its bonus
            // would show in every attack after this one.
            S::TargetSeen(false),
            S::Res("beatrix", "life", 10),
            S::Lacks("beatrix", "delayed"),
            S::Res("beatrix", "action", 0),
        ],
    });
    play(Scene {
        name: "nobody answers: the hit is taken",
        options: &[],
        cast: cast(),
        steps: vec![
            S::Start(&[9, 1]),
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
                &[7],
            ),
            // The default is to take it: 5 + 2 = 7 damage, Life 3, and the action is kept.
            S::TimeOut(&[5]),
            S::Res("beatrix", "life", 3),
            S::Res("beatrix", "action", 1),
        ],
    });
    play(Scene {
        name: "a failed dodge takes the damage",
        options: &[],
        cast: cast(),
        steps: vec![
            S::Start(&[9, 1]), // enemies first: Beatrix's action is still to come
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
                &[7],
            ),
            // 2 + 2 + 3 = 7 < 9: 5 + 2 = 7 damage, Life 3; her action is spent, so her group's
            // turn passes with nobody to act and round 2 begins.
            S::Answer("dodge", &[2, 5]),
            S::GmOnly(&["cudgel"]),
            S::Res("beatrix", "life", 3),
            S::Round(2),
            acting("enemies", &["thug-a"]),
        ],
    });
    play(Scene {
        name: "a successful dodge keeps the action by option",
        options: &[("mist.dodge_spends", "no")],
        cast: cast(),
        steps: vec![
            S::Start(&[9, 1]),
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
                &[7],
            ),
            S::Answer("dodge", &[5]),
            S::Res("beatrix", "action", 1),
            acting("players", &["beatrix"]),
        ],
    });
    // Against a gun the difficulty is the attack + 5 (in place of +3), or + 8 by option.
    let gun = |id: &str| {
        with(thug(id), |v| {
            v["senses"] = json!(2);
            v["weapons"] = json!([{"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}]);
        })
    };
    play(Scene {
        name: "dodging a gun",
        options: &[],
        cast: vec![beatrix(), gun("gunman")],
        steps: vec![
            S::Start(&[9, 1]),
            // 5 + Senses 2 = 7 hits Evade 5; dodge difficulty 7 + 5 = 12: 9 + 2 + 3 = 14 dodges.
            S::Act(
                "gunman",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("pistol"))],
                &[5],
            ),
            S::Answer("dodge", &[9]),
            S::Res("beatrix", "life", 10),
        ],
    });
    play(Scene {
        name: "dodging a gun, adds",
        options: &[("mist.gun_dodge", "adds")],
        cast: vec![beatrix(), gun("gunman")],
        steps: vec![
            S::Start(&[9, 1]),
            // Difficulty 7 + 8 = 15: 14 fails; damage 2D10 higher (3, 6) 6 + Senses 2 = 8.
            S::Act(
                "gunman",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("pistol"))],
                &[5],
            ),
            S::Answer("dodge", &[9, 3, 6]),
            S::Res("beatrix", "life", 2),
        ],
    });
}

#[test]
fn a_delayed_action_wins_its_speed_contest_and_goes_before_the_enemy() {
    play(Scene {
        name: "E2 delayed action",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act("beatrix", "delay", vec![], &[]),
            acting("enemies", &["gunman"]),
            // E2: Speed 6 + 2 + 3 = 11 against the gunman's 9 + 2 + 0 = 11; Speed skill 3 > 0:
            // Beatrix first. Attack 10 + Senses 3 + Thrown 2 = 15 hits Evade 7; the gunman
            // has his action, declines to dodge; knife 8 on D10/2 = 4 + Body 2 = 6, Life 0.
            S::Act(
                "beatrix",
                "attack",
                vec![
                    ("target", t("gunman")),
                    ("weapon", t("knife")),
                    ("interrupt", t("gunman")),
                ],
                &[6, 9, 10],
            ),
            S::Said("is quicker than gunman"),
            S::Answer("take", &[8]),
            S::Res("gunman", "life", 0),
            S::Lacks("beatrix", "delayed"),
            S::Res("beatrix", "action", 0),
        ],
    });
    play(Scene {
        name: "losing the contest",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act("beatrix", "delay", vec![], &[]),
            // 1 + 5 = 6 against 9 + 2 = 11: the gunman first; the action stays held.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("gunman")), ("interrupt", t("gunman"))],
                &[1, 9],
            ),
            S::Said("stays held"),
            S::Magnitude("beatrix", "delayed", 0),
            S::Res("beatrix", "action", 1),
        ],
    });
}

#[test]
fn guns_jam_on_doubles_and_powder_follows_the_mist() {
    let gunner = || {
        with(beatrix(), |v| {
            v["weapons"] = json!([
                {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]},
                {"id": "haze", "name": "haze pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0], "powder": "hazeblast"}
            ]);
        })
    };
    play(Scene {
        name: "doubles jam",
        options: &[],
        cast: vec![
            gunner(),
            with(thug("thug-a"), |v| v["life_max"] = json!(30)),
        ],
        steps: vec![
            S::Start(&[1, 9]),
            // 6 + 3 = 9 hits Evade 7; taken; damage 4 and 4: doubles, jam table 6 (minor
            // jam): the shot is lost and the pistol is jammed.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("pistol"))],
                &[6],
            ),
            S::Answer("take", &[4, 4, 6]),
            S::Said("minor jam"),
            S::Res("thug-a", "life", 30),
            S::Magnitude("beatrix", "jam.pistol", 6),
            S::Act("thug-a", "act", vec![("what", t("waits"))], &[]),
            // Round 2: a minor jam clears itself within the round, but the pistol, fired,
            // waits for its reload.
            S::Round(2),
            S::Lacks("beatrix", "jam.pistol"),
            S::Refused(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("pistol"))],
                "rule: pistol is not loaded",
            ),
        ],
    });
}

#[test]
fn the_gm_runs_the_craft_check_that_clears_a_jam_in_a_fight_or_after_it() {
    let clear = |face: &'static str| -> Pairs {
        vec![
            ("target", t("beatrix")),
            ("weapon", t("pistol")),
            ("difficulty", ArgValue::Int(8)),
            ("attribute", t(face)),
        ]
    };
    let gunner = || {
        with(beatrix(), |v| {
            v["skills"]["craft"] = json!(2);
            v["weapons"] = json!([
                {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}
            ]);
        })
    };
    let fire_and_jam = |jam: &'static [u32]| {
        vec![
            S::Start(&[1, 9]),
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("pistol"))],
                &[6],
            ),
            S::Answer("take", jam),
        ]
    };
    // A major jam (4): the Craft check takes her action; 3 + Science 2 + Craft 2 = 7 misses 8,
    // 5 + 4 = 9 clears it, and the pistol still waits for its reload.
    let mut steps = fire_and_jam(&[5, 5, 4]);
    steps.extend([
        S::Magnitude("beatrix", "jam.pistol", 4),
        S::Act("thug-a", "act", vec![("what", t("waits"))], &[]),
        S::Round(2),
        S::Refused(
            "beatrix",
            "attack",
            vec![("target", t("thug-a")), ("weapon", t("pistol"))],
            "rule: pistol cannot fire: jammed (jam table 4) until fixed",
        ),
        S::Refused("beatrix", "clear_jam", clear("science"), "forbidden"),
        S::Gm("clear_jam", clear("science"), &[3]),
        S::Said("fails to clear the jam"),
        S::Magnitude("beatrix", "jam.pistol", 4),
        S::Res("beatrix", "action", 0),
        S::Act("thug-a", "act", vec![("what", t("waits"))], &[]),
        S::Round(3),
        S::Gm("clear_jam", clear("science"), &[5]),
        S::Said("clears the jam"),
        S::Lacks("beatrix", "jam.pistol"),
        S::Magnitude("beatrix", "unloaded.pistol", 2),
        S::GmRefused("clear_jam", clear("science"), "rule: pistol is not jammed"),
    ]);
    play(Scene {
        name: "major jam",
        options: &[],
        cast: vec![
            gunner(),
            with(thug("thug-a"), |v| v["life_max"] = json!(30)),
        ],
        steps,
    });
    // A severe malfunction (3) is out for the fight; after it, the check clears it
    // (8 + Body 2 + Craft 2 = 12 against 8).
    let mut steps = fire_and_jam(&[2, 2, 3]);
    steps.extend([
        S::Magnitude("beatrix", "jam.pistol", 3),
        S::GmRefused(
            "clear_jam",
            clear("body"),
            "rule: pistol: out for this fight",
        ),
        S::Gm("end_encounter", vec![], &[]),
        S::Gm("clear_jam", clear("body"), &[8]),
        S::Lacks("beatrix", "jam.pistol"),
    ]);
    play(Scene {
        name: "severe malfunction",
        options: &[],
        cast: vec![
            gunner(),
            with(thug("thug-a"), |v| v["life_max"] = json!(30)),
        ],
        steps,
    });
}

#[test]
fn a_fired_gun_is_reloaded_a_round_of_work_at_a_time_and_at_once_out_of_the_fight() {
    play(Scene {
        name: "reloading",
        options: &[],
        cast: vec![
            // The pistol's tier is the first of its three times (2 rounds); the snap pistol's
            // the third (0: an immediate action, folded into the shot).
            with(beatrix(), |v| {
                v["weapons"] = json!([
                    {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]},
                    {"id": "snap", "name": "snap pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0], "reload_tier": 3}
                ]);
            }),
            with(thug("thug-a"), |v| {
                v["life_max"] = json!(30);
                v["weapons"] = json!([
                    {"id": "musket", "name": "musket", "kind": "gun", "damage": "2d10h", "reload": [3, 2, 1]}
                ]);
            }),
        ],
        steps: vec![
            S::Start(&[1, 9]),
            // Round 1: the pistol fires (3 + 6 = 9 hits Evade 7; 4 and 5, no doubles) and is
            // left with 2 rounds of reloading.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("pistol"))],
                &[6],
            ),
            S::Answer("take", &[4, 5]),
            S::Magnitude("beatrix", "unloaded.pistol", 2),
            // The thug's musket too; whether it is loaded is the GM's to know.
            S::Act(
                "thug-a",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("musket"))],
                &[1],
            ),
            S::Magnitude("thug-a", "unloaded.musket", 3),
            S::GmOnly(&["unloaded.musket"]),
            // Round 2: the empty pistol cannot fire; a round of reloading leaves one more.
            S::Round(2),
            S::Refused(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("pistol"))],
                "rule: pistol is not loaded: reload it first (`reload --weapon pistol`, 2 rounds)",
            ),
            S::Refused(
                "beatrix",
                "reload",
                vec![("weapon", t("knife"))],
                "bad_request",
            ),
            S::Act("beatrix", "reload", vec![("weapon", t("pistol"))], &[]),
            S::Magnitude("beatrix", "unloaded.pistol", 1),
            S::Said("works at reloading the pistol: 1 round more"),
            S::Act("thug-a", "act", vec![("what", t("waits"))], &[]),
            // Round 3: the second round loads it.
            S::Round(3),
            S::Act("beatrix", "reload", vec![("weapon", t("pistol"))], &[]),
            S::Lacks("beatrix", "unloaded.pistol"),
            S::Said("reloads the pistol: loaded"),
            S::Act("thug-a", "act", vec![("what", t("waits"))], &[]),
            // Round 4: nothing to reload; the snap pistol reloads as it fires.
            S::Round(4),
            S::Refused(
                "beatrix",
                "reload",
                vec![("weapon", t("pistol"))],
                "rule: pistol is loaded already",
            ),
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("snap"))],
                &[1],
            ),
            S::Lacks("beatrix", "unloaded.snap"),
            // After the fight there is time to reload the musket at once.
            S::Gm("end_encounter", vec![], &[]),
            S::Act("thug-a", "reload", vec![("weapon", t("musket"))], &[]),
            S::Lacks("thug-a", "unloaded.musket"),
        ],
    });
    // A fouled bullet (jam table 7) jams nothing: the ball is gone and the gun, fired, waits
    // for its reload like any other.
    play(Scene {
        name: "fouled bullet",
        options: &[],
        cast: vec![
            with(beatrix(), |v| {
                v["weapons"] = json!([
                    {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0], "reload_tier": 2}
                ]);
            }),
            with(thug("thug-a"), |v| v["life_max"] = json!(30)),
        ],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("pistol"))],
                &[6],
            ),
            S::Answer("take", &[4, 4, 7]),
            S::Said("fouled bullet"),
            S::Res("thug-a", "life", 30),
            S::Lacks("beatrix", "jam.pistol"),
            S::Magnitude("beatrix", "unloaded.pistol", 1),
        ],
    });
}

#[test]
fn hazeblast_outside_the_mist_rolls_on_the_jam_table_and_regular_powder_fails_in_it() {
    let gunner = || {
        with(beatrix(), |v| {
            v["weapons"] = json!([
                {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]},
                {"id": "haze", "name": "haze pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0], "powder": "hazeblast"}
            ]);
        })
    };
    play(Scene {
        name: "hazeblast outside",
        options: &[],
        cast: vec![
            gunner(),
            with(thug("thug-a"), |v| v["life_max"] = json!(30)),
        ],
        steps: vec![
            S::Start(&[1, 9]),
            // Jam table at once: 10, a normal shot; 6 + 3 = 9 hits; taken; damage 10 and 10:
            // doubles, jam table 10 again, the shot lands; 10 asks for a critical: 8 + 3 = 11
            // hits; second pair 2 and 5: 10 + 5 + Senses 3 = 18; Life 30 → 12.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("haze"))],
                &[10, 6],
            ),
            S::Answer("take", &[10, 10, 10, 8, 2, 5]),
            S::Res("thug-a", "life", 12),
        ],
    });
    play(Scene {
        name: "regular powder in the mist",
        options: &[],
        cast: vec![gunner(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Gm("set_mist", vec![("on", ArgValue::Flag(true))], &[]),
            // The ball rolls out: nothing drawn, the action spent.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("pistol"))],
                &[],
            ),
            S::Said("rolls out"),
            S::Res("beatrix", "action", 0),
        ],
    });
}

#[test]
fn an_aimed_attack_fires_with_3_after_the_targets_group_or_is_wasted() {
    play(Scene {
        name: "aimed",
        options: &[],
        cast: vec![beatrix(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            // Declared in the players' turn: nothing rolled yet.
            S::Act(
                "beatrix",
                "aim",
                vec![("target", t("thug-a")), ("weapon", t("knife"))],
                &[],
            ),
            acting("enemies", &["thug-a"]),
            // When the thug's group has acted: 2 + Senses 3 + Thrown 2 + aimed 3 = 10 >= 7;
            // the thug has no action left: knife 6 → 3 + Body 2 = 5; Life 6 → 1.
            S::Act(
                "thug-a",
                "act",
                vec![("what", t("looks for cover"))],
                &[2, 6],
            ),
            S::Res("thug-a", "life", 1),
            S::Round(2),
        ],
    });
    play(Scene {
        name: "aimed, wasted",
        options: &[],
        cast: vec![beatrix(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act("beatrix", "aim", vec![("target", t("thug-a"))], &[]),
            S::Give("thug-a", "out_of_sight", 0),
            S::Act(
                "thug-a",
                "act",
                vec![("what", t("runs round the corner"))],
                &[],
            ),
            S::Said("wasted"),
        ],
    });
    // Whatever else wastes it: no die is drawn and the thug keeps its Life.
    let wasted = [
        ("thug-a", "unconscious", "wasted: the target is down"),
        ("thug-a", "dead", "wasted: the target is down"),
        ("beatrix", "unconscious", "wasted: the shooter is down"),
    ];
    for (who, status, said) in wasted {
        play(Scene {
            name: "aimed, wasted by who is down",
            options: &[],
            cast: vec![beatrix(), thug("thug-a")],
            steps: vec![
                S::Start(&[1, 9]),
                S::Act("beatrix", "aim", vec![("target", t("thug-a"))], &[]),
                S::Give(who, status, 8),
                // The GM closes the enemies' turn (a downed thug cannot act to end it).
                S::Gm("end_group_turn", vec![], &[]),
                S::Said(said),
                S::Res("thug-a", "life", 6),
            ],
        });
    }
}

#[test]
fn an_immobile_target_is_easier_to_hit_and_bare_hands_halve_against_armour() {
    // Fists: 1 + Body 3 + Brawl 1 + immobile 3 = 8 >= 7; taken; D10/3 on a 9 is 3, + Body 3
    // + ability 1 = 7, halved against armour (down) = 3, shown as -4; then Toughness.
    let fists = |toughness: i64, damage: &'static [(&'static str, i64)], amount: i64| {
        play(Scene {
            name: "immobile and armour",
            options: &[],
            cast: vec![
                with(markus(), |v| v["skills"]["brawl"] = json!(1)),
                with(thug("thug-a"), |v| {
                    v["armoured"] = json!(true);
                    v["toughness"] = json!(toughness);
                    v["life_max"] = json!(20);
                }),
            ],
            steps: vec![
                S::Start(&[1, 9]),
                S::Give("thug-a", "immobile", 0),
                S::Act("markus", "attack", vec![("target", t("thug-a"))], &[1]),
                S::Answer("take", &[9]),
                S::Damage(damage, amount),
                S::Res("thug-a", "life", 20 - amount),
            ],
        });
    };
    const HALVED: [(&str, i64); 4] = [
        ("fists (D10/3)", 3),
        ("Body", 3),
        ("ability", 1),
        ("bare hands against armour: half", -4),
    ];
    // No Toughness: 3, Life 20 → 17.
    fists(0, &HALVED, 3);
    // Toughness 2 after the half: 3 - 2 = 1, Life 19.
    const TOUGH: [(&str, i64); 5] = [
        HALVED[0],
        HALVED[1],
        HALVED[2],
        HALVED[3],
        ("Toughness", -2),
    ];
    fists(2, &TOUGH, 1);
    play(Scene {
        name: "ambusher",
        options: &[],
        cast: vec![markus(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Give("markus", "ambusher", 0),
            // Club: 1 + Body 3 + ambush 3 = 7 >= 7; without the +3 it would miss.
            S::Act(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[1],
            ),
            S::Prompt(true),
        ],
    });
}

#[test]
fn what_a_hit_does_depends_on_the_weapon_armour_toughness_and_the_target() {
    // Markus's club: 5 + Body 3 = 8 hits Evade 7; damage 5 + Body 3 + ability 1 = 9.
    let club_at = |target: &'static str| {
        S::Act(
            "markus",
            "attack",
            vec![("target", t(target)), ("weapon", t("club"))],
            &[5],
        )
    };
    let scenes = [
        (
            "armour halves bare hands only: a club's 9 goes through whole",
            with(thug("plated"), |v| {
                v["armoured"] = json!(true);
                v["life_max"] = json!(20);
            }),
            vec![
                club_at("plated"),
                S::Answer("take", &[5]),
                S::Damage(&[("club (D10)", 5), ("Body", 3), ("ability", 1)], 9),
                S::Res("plated", "life", 11),
            ],
        ),
        (
            "Toughness 20 leaves a 9 harmless",
            with(thug("rock"), |v| v["toughness"] = json!(20)),
            vec![
                club_at("rock"),
                S::Answer("take", &[5]),
                S::Damage(
                    &[
                        ("club (D10)", 5),
                        ("Body", 3),
                        ("ability", 1),
                        ("Toughness", -20),
                    ],
                    0,
                ),
                S::Said("\"unharmed\""),
                S::Res("rock", "life", 6),
            ],
        ),
        (
            "an object below 0 Life makes no consciousness check",
            with(creature("crate", "object"), |v| {
                v["life_max"] = json!(3);
                v["evade"] = json!(7);
            }),
            vec![
                // An object rolls no initiative; no dodge for it, and no die drawn after the
                // damage.
                S::Start(&[9]),
                S::Act(
                    "markus",
                    "attack",
                    vec![("target", t("crate")), ("weapon", t("club"))],
                    &[5, 5],
                ),
                S::Prompt(false),
                S::Res("crate", "life", -6),
            ],
        ),
    ];
    for (name, target, steps) in scenes {
        let mut all = Vec::new();
        if !matches!(steps.first(), Some(S::Start(_))) {
            // Enemies 1, players 9: Markus acts first.
            all.push(S::Start(&[1, 9]));
        }
        all.extend(steps);
        play(Scene {
            name,
            options: &[],
            cast: vec![markus(), target],
            steps: all,
        });
    }
    play(Scene {
        name: "an unconscious creature hit for less than its whole Life is hurt, not killed",
        options: &[],
        cast: vec![beatrix(), with(thug("down"), |v| v["life"] = json!(-2))],
        steps: vec![
            S::Start(&[1, 9]),
            // Knife 9 + Senses 3 = 12 hits; D10/2 on a 2 is 1, + Body 2 = 3 < Life max 6:
            // Life -2 → -5, no consciousness check (it is down already).
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("down")), ("weapon", t("knife"))],
                &[9, 2],
            ),
            S::Said("\"hurt\""),
            S::Res("down", "life", -5),
            S::Lacks("down", "dead"),
        ],
    });
}

#[test]
fn rests_after_the_fight_give_divided_dice_plus_body_up_to_the_maximum() {
    play(Scene {
        name: "rests",
        options: &[],
        cast: vec![with(beatrix(), |v| v["life"] = json!(2))],
        steps: vec![
            // Short: D10/3 on a 9 is 3, + Body 2: Life 2 → 7.
            S::Gm("rest", vec![("kind", t("short"))], &[9]),
            S::Res("beatrix", "life", 7),
            // Long: D10/2 on a 9 is 4 (the table's odd entry), + Body 2 = 6: 13, capped at 10.
            S::Gm("rest", vec![("kind", t("long"))], &[9]),
            S::Res("beatrix", "life", 10),
            // Not during a fight.
        ],
    });
}

#[test]
fn reviving_and_waking_after_the_fight() {
    play(Scene {
        name: "E9 revive",
        options: &[],
        cast: vec![
            beatrix(),
            with(markus(), |v| v["life"] = json!(-3)),
            thug("thug-a"),
        ],
        steps: vec![
            S::Magnitude("markus", "unconscious", 8),
            S::Start(&[1, 9]),
            acting("players", &["beatrix"]),
            // E9: 5 + Science 2 + Medicine 3 = 10 against 8: Markus back with 2 Life.
            S::Act(
                "beatrix",
                "revive",
                vec![("target", t("markus")), ("skill", t("medicine"))],
                &[5],
            ),
            S::Lacks("markus", "unconscious"),
            S::Res("markus", "life", 2),
        ],
    });
    play(Scene {
        name: "survival and waking",
        options: &[],
        cast: vec![
            beatrix(),
            with(markus(), |v| v["life"] = json!(-3)),
            with(creature("julia", "pc"), |v| v["life"] = json!(-1)),
            with(thug("thug-a"), |v| v["life"] = json!(-2)),
        ],
        steps: vec![
            S::Start(&[1, 9]),
            // Survival names its attribute (the GM's ruling): without one it is refused.
            S::Refused(
                "beatrix",
                "revive",
                vec![("target", t("markus")), ("skill", t("survival"))],
                "bad_request",
            ),
            // 9 + Senses 3 + Survival 0 = 12 >= 8: back at 0 Life.
            S::Act(
                "beatrix",
                "revive",
                vec![
                    ("target", t("markus")),
                    ("skill", t("survival")),
                    ("attribute", t("senses")),
                ],
                &[9],
            ),
            S::Res("markus", "life", 0),
            // The fight ends: Julia, unconscious and not revived, wakes with 0 Life; the
            // unconscious thug does not.
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("julia", "unconscious"),
            S::Res("julia", "life", 0),
            S::Magnitude("thug-a", "unconscious", 7),
            // Out of combat: Medicine heals a point per point over 10: 8 + 2 + 3 = 13 → 3.
            S::Act(
                "beatrix",
                "medicine_heal",
                vec![("target", t("markus"))],
                &[8],
            ),
            S::Res("markus", "life", 3),
            // A night's sleep: half of 10 + Body 2 = 7 for Beatrix (capped at 10), 5 + 3 = 8
            // for Markus (3 → 10, capped), 5 + 0 for Julia (0 → 5).
            S::Gm("rest", vec![("kind", t("sleep"))], &[]),
            S::Res("markus", "life", 10),
            S::Res("julia", "life", 5),
        ],
    });
}

#[test]
fn an_npcs_evade_stays_the_gms_and_bad_input_changes_nothing() {
    play(Scene {
        name: "hidden evade and refusals",
        options: &[],
        cast: vec![beatrix(), markus(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            // Beatrix's attack on the thug: she sees whether it hit, not the Evade it reached.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("knife"))],
                &[1],
            ),
            S::TargetSeen(false),
            S::Refused(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("axe"))],
                "bad_request",
            ),
            S::Refused(
                "markus",
                "attack",
                vec![("target", t("markus"))],
                "bad_request",
            ),
            S::Refused(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("running", ArgValue::Flag(true))],
                "bad_request",
            ),
            S::Refused(
                "markus",
                "attack",
                vec![("target", t("nobody"))],
                "unknown_entity",
            ),
            S::Refused(
                "markus",
                "revive",
                vec![("target", t("thug-a")), ("skill", t("medicine"))],
                "rule",
            ),
            S::RefusedFrom(
                "beatrix",
                "markus",
                "act",
                vec![("what", t("wave"))],
                "forbidden",
            ),
            S::Refused("markus", "fly", vec![], "unknown_action"),
            // Markus on Beatrix (a PC): Evade 6 is open to her. 2 + 3 = 5 < 5? 5 >= 5 hits.
            S::Act(
                "markus",
                "attack",
                vec![("target", t("beatrix")), ("weapon", t("club"))],
                &[1],
            ),
            S::TargetSeen(true),
        ],
    });
}

#[test]
fn an_ambush_gives_the_marked_a_free_turn_with_3_before_initiative() {
    play(Scene {
        name: "ambush",
        options: &[],
        cast: vec![beatrix(), markus(), thug("thug-a"), thug("thug-b")],
        steps: vec![
            // Nobody marked: refused.
            S::GmRefused("ambush", vec![], "rule"),
            S::Give("beatrix", "ambusher", 0),
            S::Give("markus", "ambusher", 0),
            S::Gm("ambush", vec![], &[]),
            S::Round(0),
            acting("ambush", &["beatrix", "markus"]),
            S::Refused(
                "thug-a",
                "act",
                vec![("what", t("look round"))],
                "not_your_turn",
            ),
            // 2 + Senses 3 + Thrown 2 + ambush 3 = 10 >= 7; the surprised thug has no action to
            // dodge with; knife 8 → 4 + Body 2 = 6: Life 6 → 0.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("knife"))],
                &[2, 8],
            ),
            S::Res("thug-a", "life", 0),
            // The free turn over, initiative: enemies 3 + 2 + 0 = 5, players (Beatrix, Body 2)
            // 4 + 2 + 3 = 9; the mark is gone.
            S::Act("markus", "act", vec![("what", t("jumps out"))], &[3, 4]),
            S::Round(1),
            S::Lacks("beatrix", "ambusher"),
            S::Order(&["beatrix", "markus", "thug-a", "thug-b"]),
            acting("players", &["beatrix", "markus"]),
        ],
    });
}

#[test]
fn an_opportunity_attack_is_the_gms_call_with_a_melee_weapon_and_must_hit() {
    play(Scene {
        name: "opportunity",
        options: &[],
        cast: vec![
            beatrix(),
            thug("thug-a"),
            with(thug("gunman"), |v| {
                v["weapons"] = json!([{"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}]);
            }),
        ],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act(
                "beatrix",
                "act",
                vec![("what", t("runs past the thugs"))],
                &[],
            ),
            // The GM rules it provokes: 7 + Body 2 = 9 >= Evade 5; Beatrix has acted, so no
            // dodge; cudgel 4 + 2 = 6: Life 10 → 4. The thug keeps its own action.
            S::Gm(
                "opportunity_attack",
                vec![
                    ("attacker", t("thug-a")),
                    ("target", t("beatrix")),
                    ("weapon", t("cudgel")),
                ],
                &[7, 4],
            ),
            S::Res("beatrix", "life", 4),
            S::Res("thug-a", "action", 1),
            // Not with a gun.
            S::GmRefused(
                "opportunity_attack",
                vec![
                    ("attacker", t("gunman")),
                    ("target", t("beatrix")),
                    ("weapon", t("pistol")),
                ],
                "rule",
            ),
        ],
    });
}

#[test]
fn a_grab_that_hits_and_wins_the_contest_holds_both_immobile_until_broken_or_released() {
    let cast = || {
        vec![
            beatrix(),
            with(markus(), |v| v["skills"]["athletics"] = json!(2)),
            thug("thug-a"),
            thug("thug-b"),
        ]
    };
    play(Scene {
        name: "E12 hold",
        options: &[],
        cast: cast(),
        steps: vec![
            S::Start(&[1, 9]),
            // E12: 6 + Body 3 = 9 hits Evade 7; taken; contest 3 + Body 3 + Athletics 2 = 8
            // against 3 + Body 2 = 5: caught, both immobile.
            S::Act(
                "markus",
                "grab",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[6],
            ),
            S::Answer("take", &[3, 3]),
            S::Magnitude("thug-a", "held", 0),
            S::Magnitude("thug-a", "immobile", 0),
            S::Magnitude("markus", "immobile", 0),
            S::Res("thug-a", "life", 6),
            // Beatrix gets +3 on the immobile thug: 2 + 3 + 2 + 3 = 10 >= 7; knife 4 → 2 + 2.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("knife"))],
                &[2],
            ),
            S::Answer("take", &[4]),
            S::Res("thug-a", "life", 2),
            S::Act("thug-a", "act", vec![("what", t("struggles"))], &[]),
            // Round 2 starts with the contest again: 1 + 3 + 2 = 6 against 9 + 2 = 11: free.
            S::Act("thug-b", "act", vec![("what", t("shouts"))], &[1, 9]),
            S::Round(2),
            S::Lacks("thug-a", "held"),
            S::Lacks("thug-a", "immobile"),
            S::Lacks("markus", "holding"),
        ],
    });
    // Without Body in the contest (the option): 5 + 2 = 7 against 7 + 0 = 7, a tie: no catch;
    // with Body it would be 10 against 9.
    play(Scene {
        name: "hold attribute none",
        options: &[("mist.hold_attribute", "none")],
        cast: cast(),
        steps: vec![
            S::Start(&[1, 9]),
            S::Act(
                "markus",
                "grab",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[6],
            ),
            S::Answer("take", &[5, 7]),
            S::Lacks("thug-a", "held"),
        ],
    });
    // A device's Immobilizing adds to the captor's side: with a net of 3, 2 + 3 + 2 + 3 = 10
    // against 7 + 2 = 9 catches; without it 7 would not.
    play(Scene {
        name: "immobilizing net",
        options: &[],
        cast: vec![
            with(markus(), |v| {
                v["skills"]["athletics"] = json!(2);
                v["weapons"] = json!([{"id": "net", "name": "net", "immobilizing": 3}]);
            }),
            thug("thug-a"),
        ],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act(
                "markus",
                "grab",
                vec![("target", t("thug-a")), ("weapon", t("net"))],
                &[6],
            ),
            S::Answer("take", &[2, 7]),
            S::Magnitude("thug-a", "held", 0),
        ],
    });
    // Each round's contest after the catch: Markus holds with 1 + Body 3 + Athletics 2 = 6.
    // (name, the captive's Brawl, a ruling before round 2, the round's faces, still held)
    type Round = (
        &'static str,
        i64,
        Option<(&'static str, &'static str)>,
        &'static [u32],
        bool,
    );
    let rounds: [Round; 4] = [
        // 4 + Body 2 + Athletics 0 = 6: a tie keeps the hold.
        ("a tie keeps the hold", 0, None, &[1, 4], true),
        // A captive struggles with Brawl when it is the better skill: 2 + 2 + Brawl 3 = 7
        // beats 6 (with Athletics 0 it would be 4).
        ("the captive's Brawl", 3, None, &[1, 2], false),
        // Athletics 3 against Brawl 0: 2 + 2 + 3 = 7 beats 6 (with Brawl it would be 4). A
        // negative entry stands for that much Athletics instead of Brawl.
        (
            "the captive's Athletics when Brawl is no better",
            -3,
            None,
            &[1, 2],
            false,
        ),
        // A captor who cannot act lets go at once: no contest is rolled.
        (
            "a downed captor lets go",
            0,
            Some(("markus", "unconscious")),
            &[],
            false,
        ),
    ];
    for (name, brawl, ruling, faces, held) in rounds {
        let mut steps = vec![
            S::Start(&[1, 9]),
            S::Act(
                "markus",
                "grab",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[6],
            ),
            // Caught: 6 + 3 + 2 = 11 against at most 1 + 2 + 3 = 6.
            S::Answer("take", &[6, 1]),
            S::Magnitude("thug-a", "held", 0),
            S::Act("beatrix", "act", vec![("what", t("watches"))], &[]),
            S::Act("thug-a", "act", vec![("what", t("struggles"))], &[]),
        ];
        if let Some((who, status)) = ruling {
            steps.push(S::Give(who, status, 8));
        }
        steps.push(S::Act("thug-b", "act", vec![("what", t("shouts"))], faces));
        steps.push(S::Round(2));
        steps.push(if held {
            S::Magnitude("thug-a", "held", 0)
        } else {
            S::Lacks("thug-a", "held")
        });
        play(Scene {
            name,
            options: &[],
            cast: vec![
                beatrix(),
                with(markus(), |v| v["skills"]["athletics"] = json!(2)),
                with(thug("thug-a"), |v| {
                    v["skills"] = if brawl < 0 {
                        json!({ "athletics": -brawl })
                    } else {
                        json!({ "brawl": brawl })
                    }
                }),
                thug("thug-b"),
            ],
            steps,
        });
    }
    play(Scene {
        name: "release",
        options: &[],
        cast: cast(),
        steps: vec![
            S::Start(&[1, 9]),
            S::Act(
                "markus",
                "grab",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[6],
            ),
            S::Answer("take", &[5, 7]),
            S::Magnitude("markus", "holding", 0),
            S::Act("markus", "release", vec![], &[]),
            S::Lacks("thug-a", "held"),
            S::Lacks("markus", "immobile"),
        ],
    });
}

#[test]
fn a_sheet_with_two_actions_acts_twice_a_round_and_holds_one_at_most_as_delayed() {
    // Our own vector (no development is in the text): the sheet's `actions` is the number of
    // actions a round. Markus with `actions = 2` takes one in his turn and still acts there;
    // the second may be held as the delayed action (the text: a character with several
    // actions turns only one into a delayed action, and never holds more than one).
    play(Scene {
        name: "two actions",
        options: &[],
        cast: vec![with(markus(), |v| v["actions"] = json!(2)), thug("thug-a")],
        steps: vec![
            // Enemies 1 + 2 + 0 = 3; players (Markus) 9 + 3 + 1 = 13: players first.
            S::Start(&[1, 9]),
            S::Res("markus", "action", 2),
            // First action: 1 + Body 3 = 4 < Evade 7, a miss; he is still in his turn.
            S::Act(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[1],
            ),
            S::Res("markus", "action", 1),
            acting("players", &["markus"]),
            // Second action held: his turn is over, the enemies' opens.
            S::Act("markus", "delay", vec![], &[]),
            S::Magnitude("markus", "delayed", 0),
            acting("enemies", &["thug-a"]),
            S::Act(
                "markus",
                "act",
                vec![("what", t("kicks the lamp over"))],
                &[],
            ),
            S::Res("markus", "action", 0),
            S::Act("thug-a", "act", vec![("what", t("curses"))], &[]),
            // Round 2: two actions again. Holding one, then a second hold, is refused.
            S::Round(2),
            S::Res("markus", "action", 2),
            S::Act("markus", "delay", vec![], &[]),
            acting("players", &["markus"]),
            S::Refused("markus", "delay", vec![], "rule: one at most"),
            // His other action in the turn: the held one remains for later.
            S::Act("markus", "act", vec![("what", t("steps back"))], &[]),
            S::Res("markus", "action", 1),
            S::Magnitude("markus", "delayed", 0),
            acting("enemies", &["thug-a"]),
        ],
    });
    play(Scene {
        name: "one action (the default)",
        options: &[],
        cast: vec![markus(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Res("markus", "action", 1),
            // The same miss ends his turn at once.
            S::Act(
                "markus",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("club"))],
                &[1],
            ),
            S::Res("markus", "action", 0),
            acting("enemies", &["thug-a"]),
        ],
    });
}

/// An aimed pistol shot, fired when the target's group is done or at once as the delayed
/// action: regular powder fires outside the mist and rolls out in it, nothing drawn.
#[test]
fn an_aimed_shot_is_bound_by_the_powder_like_any_other() {
    let gunner = || {
        with(beatrix(), |v| {
            v["weapons"] = json!([
                {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}
            ]);
        })
    };
    let big = || with(thug("thug-a"), |v| v["life_max"] = json!(30));
    let aim = || vec![("target", t("thug-a")), ("weapon", t("pistol"))];
    let mist = || S::Gm("set_mist", vec![("on", ArgValue::Flag(true))], &[]);
    let looks = |faces: &'static [u32]| {
        S::Act("thug-a", "act", vec![("what", t("looks for cover"))], faces)
    };
    // Fired after the thug's group: 2 + Senses 3 + aimed 3 = 8 >= 7; he has acted, no
    // dodge; 2D10 take higher 3 and 5 = 5 + Senses 3 = 8; Life 30 → 22.
    play(Scene {
        name: "aimed pistol, clear air",
        options: &[],
        cast: vec![gunner(), big()],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act("beatrix", "aim", aim(), &[]),
            looks(&[2, 3, 5]),
            S::Res("thug-a", "life", 22),
        ],
    });
    play(Scene {
        name: "aimed pistol, in the mist",
        options: &[],
        cast: vec![gunner(), big()],
        steps: vec![
            S::Start(&[1, 9]),
            mist(),
            S::Act("beatrix", "aim", aim(), &[]),
            looks(&[]),
            S::Said("rolls out"),
            S::Res("thug-a", "life", 30),
        ],
    });
    // As the held action, at once: 2 + 3 + 3 = 8 hits; the thug, with his action, rolls
    // Speed first: 9 + 2 + 0 = 11 against her 1 + 2 + 3 = 6, and may dodge.
    let holding = |more: Vec<S>| {
        let mut steps = vec![
            S::Start(&[1, 9]),
            S::Act("beatrix", "delay", vec![], &[]),
            acting("enemies", &["thug-a"]),
        ];
        steps.extend(more);
        steps
    };
    play(Scene {
        name: "aimed pistol as the delayed action, clear air",
        options: &[],
        cast: vec![gunner(), big()],
        steps: holding(vec![
            S::Act("beatrix", "aim", aim(), &[2, 9, 1]),
            S::Said("thug-a is quicker than beatrix's aimed attack and may dodge it"),
        ]),
    });
    play(Scene {
        name: "aimed pistol as the delayed action, in the mist",
        options: &[],
        cast: vec![gunner(), big()],
        steps: holding(vec![
            mist(),
            S::Act("beatrix", "aim", aim(), &[]),
            S::Said("rolls out"),
            S::Lacks("beatrix", "delayed"),
            S::Prompt(false),
        ]),
    });
}

/// Among players tied for the lowest Body the first by id rolls the group's Speed: Beatrix
/// and Markus both have Body 2; her 4 + 2 + Speed 3 = 9 sets the players' total (his would
/// be 4 + 2 + 1 = 7).
#[test]
fn the_first_by_id_of_the_lowest_body_rolls_for_the_group() {
    play(Scene {
        name: "tied for the lowest Body",
        options: &[],
        cast: vec![
            beatrix(),
            with(markus(), |v| v["body"] = json!(2)),
            thug("thug-a"),
        ],
        steps: vec![
            // Enemies first by name: thug-a 5 + 2 + 0 = 7; then the players' 9.
            S::Start(&[5, 4]),
            S::Res("markus", "initiative", 9),
            acting("players", &["beatrix", "markus"]),
        ],
    });
}

/// Jams no Craft check clears: a burst gun (1), one only a workshop mends (2), a minor jam (6)
/// that clears itself. Each refused with its reason, nothing drawn.
#[test]
fn the_jams_no_craft_check_clears_are_refused_with_their_reason() {
    let gunner = with(beatrix(), |v| {
        v["weapons"] = json!([
            {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}
        ]);
    });
    let clear = || -> Pairs {
        vec![
            ("target", t("beatrix")),
            ("weapon", t("pistol")),
            ("difficulty", ArgValue::Int(8)),
            ("attribute", t("science")),
        ]
    };
    let rows = [
        (1, "rule: pistol: it burst; nothing is left to clear"),
        (2, "rule: pistol: only a workshop mends it"),
        (
            6,
            "rule: pistol: a minor jam clears itself within the round",
        ),
    ];
    for (face, refusal) in rows {
        play(Scene {
            name: "a jam no check clears",
            options: &[],
            cast: vec![gunner.clone()],
            steps: vec![
                S::Give("beatrix", "jam.pistol", face),
                S::GmRefused("clear_jam", clear(), refusal),
                S::Magnitude("beatrix", "jam.pistol", face),
            ],
        });
    }
}
