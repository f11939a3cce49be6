//! Hiding, searching and the stun attack out of combat, as scenarios (see `scenes`): the
//! text's E10, E11 and E13 with their numbers, our own vectors where it gives none, and what
//! each seat hears. The comment on each step gives its arithmetic.

use serde_json::json;

use crate::action::ArgValue;
use crate::ids::Seat;
use crate::testing::scene::{self, Played, S, Scene};

use super::super::Mist;
use super::scenes::{beatrix, markus, play, t, thug};
use super::{creature, with};

/// Nothing of the last command reaches `seat`: no sentence, no die, not even an empty event.
fn nothing_for(seat: &'static str) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let seen = p
            .last
            .iter()
            .filter_map(|e| e.view(&Seat::Player(seat.into())))
            .count();
        assert_eq!(seen, 0, "{}: {seat} sees {seen} events", p.at);
    }))
}

/// A watcher with E10's numbers: Senses 2 + Perception 3 = passive perception 5.
fn watcher(id: &str) -> serde_json::Value {
    with(thug(id), |v| {
        v["senses"] = json!(2);
        v["skills"] = json!({"perception": 3});
    })
}

#[test]
fn e10_a_hider_below_the_best_passive_perception_is_spotted_and_a_tie_stays_hidden() {
    // The watchers: E10's thug (2 + 3 = 5) and a duller one (1 + 1 = 2): the best counts.
    let cast = || {
        vec![
            beatrix(),
            watcher("thug-a"),
            with(thug("thug-b"), |v| {
                v["senses"] = json!(1);
                v["skills"] = json!({"perception": 1});
            }),
        ]
    };
    play(Scene {
        name: "E10 spotted",
        options: &[],
        cast: cast(),
        steps: vec![
            // Stealth (Body by default): 2 + Body 2 + Stealth 0 = 4 < 5: spotted, no mark.
            S::Gm("stealth", vec![("target", t("beatrix"))], &[2]),
            S::Lacks("beatrix", "ambusher"),
            // Her seat hears her total and that she was seen; the watchers' number is the GM's.
            S::PlayerHears("beatrix hides with a Stealth total of 4 and is spotted"),
            S::PlayerNeverHears("passive perception"),
            S::GmOnly(&["passive perception"]),
        ],
    });
    play(Scene {
        name: "E10 a tie stays hidden",
        options: &[],
        cast: cast(),
        steps: vec![
            // 3 + 2 + 0 = 5, not below 5: hidden, marked with her total.
            S::Gm("stealth", vec![("target", t("beatrix"))], &[3]),
            S::Magnitude("beatrix", "ambusher", 5),
            S::PlayerHears("and stays hidden"),
        ],
    });
    play(Scene {
        name: "E10 with Senses behind Stealth",
        options: &[("mist.stealth_attribute", "senses")],
        cast: cast(),
        steps: vec![
            // The same die 2 with Senses 3 in place of Body 2: 2 + 3 = 5: hidden.
            S::Gm("stealth", vec![("target", t("beatrix"))], &[2]),
            S::Magnitude("beatrix", "ambusher", 5),
        ],
    });
    play(Scene {
        name: "an NPC hides: the table hears nothing at all",
        options: &[],
        cast: vec![beatrix(), markus(), thug("thug-a")],
        steps: vec![
            // 1 + Body 2 = 3 against the players' best passive 0 + 0: hidden with 3.
            S::Gm("stealth", vec![("target", t("thug-a"))], &[1]),
            S::Magnitude("thug-a", "ambusher", 3),
            nothing_for("beatrix"),
            nothing_for("markus"),
        ],
    });
}

#[test]
fn e11_searchers_roll_perception_against_the_lowest_stealth() {
    let cast = || vec![beatrix(), markus(), thug("thug-a"), thug("thug-b")];
    let hide = || {
        vec![
            // E11, +3 for the dim alley: Beatrix 4 + Body 2 + 3 = 9, Markus 5 + Body 3 + 3 = 11;
            // the thugs' passive perception is 0: both hidden.
            S::Gm(
                "stealth",
                vec![("target", t("beatrix")), ("bonus", ArgValue::Int(3))],
                &[4],
            ),
            S::Gm(
                "stealth",
                vec![("target", t("markus")), ("bonus", ArgValue::Int(3))],
                &[5],
            ),
            S::Magnitude("beatrix", "ambusher", 9),
            S::Magnitude("markus", "ambusher", 11),
        ]
    };
    let mut steps = hide();
    steps.extend([
        // The thugs search actively: the difficulty is the lowest Stealth, 9. Thug-a 8 +
        // Senses 0 + Perception 0 = 8 < 9, thug-b 7: both fail (E11), the heroes stay hidden,
        // and the players hear nothing of an NPC's search.
        S::Gm("perception", vec![("target", t("thug-a"))], &[8]),
        nothing_for("beatrix"),
        S::Gm("perception", vec![("target", t("thug-b"))], &[7]),
        S::Magnitude("beatrix", "ambusher", 9),
        S::Magnitude("markus", "ambusher", 11),
        // A third look, 9: reaches 9 (a tie succeeds by `mist.check_ties`): both are found.
        S::Gm("perception", vec![("target", t("thug-a"))], &[9]),
        S::Lacks("beatrix", "ambusher"),
        S::Lacks("markus", "ambusher"),
        S::PlayerHears("thug-a searches and spots beatrix, markus"),
        // The spotter's total is the GM's.
        S::PlayerNeverHears("total"),
    ]);
    play(Scene {
        name: "E11",
        options: &[],
        cast: cast(),
        steps,
    });
    let mut steps = hide();
    steps.extend([
        // Body behind Perception: thug-a's 8 + Body 2 = 10 reaches 9 where Senses 0 did not.
        S::Gm("perception", vec![("target", t("thug-a"))], &[8]),
        S::Lacks("beatrix", "ambusher"),
    ]);
    play(Scene {
        name: "E11, Body behind Perception",
        options: &[("mist.perception_attribute", "body")],
        cast: cast(),
        steps,
    });
}

#[test]
fn a_players_search_reads_the_same_whether_anyone_hides_or_not() {
    let looking = |hidden: bool| {
        let mut steps = Vec::new();
        if hidden {
            // The thug hides: 6 + Body 2 = 8 against Beatrix's passive 0: hidden with 8.
            steps.push(S::Gm("stealth", vec![("target", t("thug-a"))], &[6]));
        }
        steps.extend([
            // Beatrix searches: 4 + Senses 3 + Perception 0 = 7 < 8, or nobody to find. One
            // die either way, and the same sentence.
            S::Gm("perception", vec![("target", t("beatrix"))], &[4]),
            S::PlayerHears("beatrix searches with a Perception total of 7 and finds nothing"),
            S::PlayerNeverHears("Stealth"),
            S::PlayerNeverHears("nobody"),
            S::PlayerNeverHears("thug-a"),
        ]);
        steps
    };
    for hidden in [true, false] {
        play(Scene {
            name: "a search that finds nothing",
            options: &[],
            cast: vec![beatrix(), thug("thug-a")],
            steps: looking(hidden),
        });
    }
}

#[test]
fn stealth_and_perception_refuse_bad_input_and_follow_the_gm_named_attribute() {
    play(Scene {
        name: "refusals",
        options: &[],
        cast: vec![beatrix(), thug("thug-a")],
        steps: vec![
            // The GM's calls, not a player's.
            S::Refused(
                "beatrix",
                "stealth",
                vec![("target", t("beatrix"))],
                "forbidden",
            ),
            S::GmRefused("stealth", vec![("target", t("nobody"))], "unknown_entity"),
            S::GmRefused(
                "stealth",
                vec![("target", t("beatrix")), ("bonus", ArgValue::Int(11))],
                "bad_request",
            ),
            // The table's option names the attribute: naming another is refused.
            S::GmRefused(
                "perception",
                vec![("target", t("beatrix")), ("attribute", t("body"))],
                "bad_request: only when that option is `gm`",
            ),
            S::GmRefused(
                "stealth",
                vec![("target", t("beatrix")), ("attribute", t("luck"))],
                "bad_request",
            ),
            // In a fight these rolls are not the ambush's: refused.
            S::Start(&[1, 9]),
            S::GmRefused("stealth", vec![("target", t("beatrix"))], "rule"),
            S::GmRefused("perception", vec![("target", t("thug-a"))], "rule"),
        ],
    });
    play(Scene {
        name: "the GM names the attribute",
        options: &[("mist.stealth_attribute", "gm")],
        cast: vec![beatrix(), watcher("thug-a")],
        steps: vec![
            S::GmRefused(
                "stealth",
                vec![("target", t("beatrix"))],
                "bad_request: the GM names it",
            ),
            // Senses named: 2 + 3 = 5, not below the watcher's 5: hidden.
            S::Gm(
                "stealth",
                vec![("target", t("beatrix")), ("attribute", t("senses"))],
                &[2],
            ),
            S::Magnitude("beatrix", "ambusher", 5),
        ],
    });
}

/// The mysterious woman of E13: Body 2, Stealth 2, a sap (D10/2, Stunning 2).
fn woman() -> serde_json::Value {
    with(creature("woman", "npc"), |v| {
        v["side"] = json!("strangers");
        v["body"] = json!(2);
        v["skills"] = json!({"stealth": 2});
        v["weapons"] = json!([{"id": "sap", "name": "sap", "damage": "d10/2", "traits": ["stunning"], "stunning": 2}]);
    })
}

/// Markus walking home: Senses 2, Perception 1, Willpower 2, Pain Resistance 2, Toughness 1,
/// Evade 7, Life 10 unless set.
fn walker(life: i64) -> serde_json::Value {
    with(markus(), |v| {
        v["senses"] = json!(2);
        v["skills"]["perception"] = json!(1);
        v["life"] = json!(life);
    })
}

fn stun(faces: &'static [u32]) -> S {
    S::Act(
        "woman",
        "stun",
        vec![("target", t("markus")), ("weapon", t("sap"))],
        faces,
    )
}

/// The woman hides (6 + Body 2 + Stealth 2 = 10, above Markus's passive 2 + 1 = 3).
fn she_hides() -> S {
    S::Gm("stealth", vec![("target", t("woman"))], &[6])
}

#[test]
fn e13_a_stun_attack_on_an_unaware_target_knocks_it_out_past_any_roll() {
    scene::play(
        &Mist,
        "markus",
        Scene {
            name: "E13",
            options: &[],
            // E9 left Markus at 2 Life.
            cast: vec![walker(2), woman()],
            steps: vec![
                she_hides(),
                S::Magnitude("woman", "ambusher", 10),
                nothing_for("markus"),
                // E13: Markus senses something: Perception 4 + Senses 2 + Perception 1 = 7
                // against her 10: nothing found, and his seat hears only that.
                S::Gm("perception", vec![("target", t("markus"))], &[4]),
                S::PlayerHears("markus searches with a Perception total of 7 and finds nothing"),
                S::PlayerNeverHears("woman"),
                // The stun: 5 + Body 2 + ambush 3 = 10 reaches Evade 7 (no dodge: he is
                // unaware). Sap 9 on D10/2 = 4 + Body 2 = 6, doubled 12, + Stunning 2 = 14,
                // less Toughness 1 = 13; Life 2 → 11 below 0: the check is 11 + 5 = 16 (E13).
                // 10 + Willpower 2 + Pain Resistance 2 = 14 < 16: even a 10 fails; he falls
                // unconscious, his Life untouched, 16 to revive, a Fatigue point.
                stun(&[5, 9, 10]),
                S::Prompt(false),
                S::Res("markus", "life", 2),
                S::Magnitude("markus", "unconscious", 16),
                S::Res("markus", "fatigue", 1),
                S::Lacks("woman", "ambusher"),
                S::Said("stun damage"),
                // He hears the check he failed and the damage he took, not her weapon or its
                // Stunning bonus.
                S::PlayerHears("16"),
                S::PlayerNeverHears("sap"),
                S::PlayerNeverHears("Stunning"),
                // Seen now, she cannot stun again; nor can anyone in a fight.
                S::Refused(
                    "woman",
                    "stun",
                    vec![("target", t("markus")), ("weapon", t("sap"))],
                    "rule: is not hidden",
                ),
            ],
        },
    );
}

#[test]
fn a_stun_that_does_not_reach_0_does_nothing_and_a_passed_check_costs_the_part_below_0() {
    play(Scene {
        name: "passed",
        options: &[],
        cast: vec![walker(10), woman()],
        steps: vec![
            she_hides(),
            // 5 + 2 + 3 = 10 hits; 13 stun damage as in E13 on Life 10: 3 below 0, check 8;
            // 9 + 2 + 2 = 13 >= 8: he stays up and loses the 3: Life 7, a Fatigue point.
            stun(&[5, 9, 9]),
            S::Res("markus", "life", 7),
            S::Lacks("markus", "unconscious"),
            S::Res("markus", "fatigue", 1),
        ],
    });
    play(Scene {
        name: "not enough",
        options: &[],
        cast: vec![walker(10), woman()],
        steps: vec![
            she_hides(),
            // Sap 3 → 2 + 2 = 4, doubled 8, + 2 = 10, less Toughness 1 = 9 < Life 10: no
            // damage and no check (no third die drawn).
            stun(&[5, 3]),
            S::Said("not enough to stun"),
            S::Res("markus", "life", 10),
            S::Res("markus", "fatigue", 0),
        ],
    });
    play(Scene {
        name: "Toughness ignored by option",
        options: &[("mist.stun_toughness", "ignores")],
        cast: vec![walker(10), woman()],
        steps: vec![
            she_hides(),
            // The same 10 with no Toughness off: Life 10 → 0 below, a check at 5: 1 + 4 = 5
            // passes (ties succeed), nothing below 0 to lose, but a Fatigue point.
            stun(&[5, 3, 1]),
            S::Res("markus", "life", 10),
            S::Res("markus", "fatigue", 1),
        ],
    });
    play(Scene {
        name: "a miss gives the attacker away",
        options: &[],
        cast: vec![walker(10), woman()],
        steps: vec![
            she_hides(),
            // 1 + 2 + 3 = 6 < 7: a miss, no damage die; her mark goes.
            stun(&[1]),
            S::Lacks("woman", "ambusher"),
            S::Res("markus", "life", 10),
        ],
    });
    play(Scene {
        name: "bare hands against armour",
        options: &[],
        cast: vec![
            with(beatrix(), |v| v["side"] = json!("players")),
            with(thug("guard"), |v| v["armoured"] = json!(true)),
        ],
        steps: vec![
            S::Give("beatrix", "ambusher", 0),
            // Fists: 8 + Body 2 − 2 (Brawl 0) + 3 = 11 hits Evade 7. D10/3 9 → 3 + Body 2 = 5,
            // doubled 10, halved against armour 5 < Life 6: not enough.
            S::Act("beatrix", "stun", vec![("target", t("guard"))], &[8, 9]),
            S::Said("not enough to stun"),
            S::Res("guard", "life", 6),
        ],
    });
}

#[test]
fn a_stun_attack_is_refused_in_a_fight_unhidden_or_on_the_unconscious() {
    play(Scene {
        name: "stun refusals",
        options: &[],
        cast: vec![beatrix(), thug("thug-a"), thug("thug-b")],
        steps: vec![
            S::Refused(
                "beatrix",
                "stun",
                vec![("target", t("thug-a"))],
                "rule: is not hidden",
            ),
            S::Give("beatrix", "ambusher", 0),
            S::Give("thug-b", "unconscious", 8),
            S::Refused(
                "beatrix",
                "stun",
                vec![("target", t("thug-b"))],
                "rule: unconscious already",
            ),
            S::Refused(
                "beatrix",
                "stun",
                vec![("target", t("thug-a")), ("weapon", t("axe"))],
                "bad_request",
            ),
            S::Refused(
                "beatrix",
                "stun",
                vec![("target", t("beatrix"))],
                "bad_request",
            ),
            S::Start(&[1, 9]),
            S::Refused(
                "beatrix",
                "stun",
                vec![("target", t("thug-a"))],
                "rule: out of combat",
            ),
        ],
    });
}

#[test]
fn hiding_marks_go_when_a_fight_starts_without_an_ambush_and_when_it_ends() {
    play(Scene {
        name: "marks cleared at start and end",
        options: &[],
        cast: vec![beatrix(), watcher("thug-a"), thug("thug-b")],
        steps: vec![
            // Beatrix 3 + 2 = 5 ties thug-a's 5: hidden, marked 5. Thug-b 1 + 2 = 3 against
            // Beatrix's 3 + 0 = 3: hidden, marked 3.
            S::Gm("stealth", vec![("target", t("beatrix"))], &[3]),
            S::Gm("stealth", vec![("target", t("thug-b"))], &[1]),
            S::Magnitude("beatrix", "ambusher", 5),
            S::Magnitude("thug-b", "ambusher", 3),
            // A normal start (enemies 1 + 2 = 3, players 9 + 2 + 3 = 14): no ambush, the
            // marks go, Beatrix's for her seat's eyes, the NPC's for the GM's only.
            S::Start(&[1, 9]),
            S::Lacks("beatrix", "ambusher"),
            S::Lacks("thug-b", "ambusher"),
            S::PlayerNeverHears(r#"EntityId("thug-b"), status: "ambusher""#),
            // Her knife, 3 + Senses 3 + Thrown 2 = 8, no +3 ambush: it hits Evade 7 but
            // without the mark's bonus.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("knife"))],
                &[3],
            ),
            S::PlayerNeverHears("ambush"),
            S::Answer("take", &[2]),
            // A mark the GM gives mid-fight goes with the fight.
            S::Give("thug-b", "ambusher", 4),
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("thug-b", "ambusher"),
        ],
    });
}

#[test]
fn a_mark_the_gm_set_by_ruling_is_not_searched_for() {
    play(Scene {
        name: "a GM's mark and a Stealth mark",
        options: &[],
        cast: vec![beatrix(), thug("thug-a"), thug("thug-b")],
        steps: vec![
            // The GM marks thug-a by ruling (magnitude 0); thug-b hides: 1 + 2 = 3 against
            // Beatrix's 3 + 0 = 3, hidden with 3.
            S::Give("thug-a", "ambusher", 0),
            S::Gm("stealth", vec![("target", t("thug-b"))], &[1]),
            // Beatrix searches: 1 + Senses 3 = 4 reaches thug-b's 3 (the GM's 0 is no
            // difficulty): she finds thug-b only; thug-a is found by the GM's word.
            S::Gm("perception", vec![("target", t("beatrix"))], &[1]),
            S::Lacks("thug-b", "ambusher"),
            S::Has("thug-a", "ambusher"),
            S::PlayerHears("beatrix searches with a Perception total of 4 and spots thug-b"),
            S::PlayerNeverHears("thug-a"),
        ],
    });
    play(Scene {
        name: "only a GM's mark",
        options: &[],
        cast: vec![beatrix(), thug("thug-a")],
        steps: vec![
            S::Give("thug-a", "ambusher", 0),
            S::Gm("perception", vec![("target", t("beatrix"))], &[1]),
            S::Has("thug-a", "ambusher"),
            S::PlayerHears("and finds nothing"),
        ],
    });
}

#[test]
fn a_spotted_npc_hider_is_told_to_the_seats_that_spot_it_only() {
    let keen = || {
        with(beatrix(), |v| {
            v["skills"]["perception"] = json!(2);
        })
    };
    // Thug-a 1 + Body 2 = 3: below Beatrix's 3 + 2 = 5, not Markus's 0 + 0: Beatrix spots it.
    let steps = |listener_hears: bool| {
        let mut s = vec![S::Gm("stealth", vec![("target", t("thug-a"))], &[1])];
        s.push(S::Lacks("thug-a", "ambusher"));
        s.push(S::Said("beatrix spots thug-a trying to hide"));
        if listener_hears {
            s.push(S::PlayerHears("beatrix spots thug-a trying to hide"));
        } else {
            s.push(nothing_for("markus"));
        }
        s
    };
    for (listener, hears) in [("beatrix", true), ("markus", false)] {
        scene::play(
            &Mist,
            listener,
            Scene {
                name: "a spotted NPC",
                options: &[],
                cast: vec![keen(), markus(), thug("thug-a")],
                steps: steps(hears),
            },
        );
    }
}

#[test]
fn reviving_or_waking_after_a_failed_stun_check_never_lowers_life() {
    // Markus at 8 Life: the stun's 13 (E13's numbers) goes 5 below 0, a check against 10;
    // 1 + Willpower 2 + Pain Resistance 2 = 5 fails: unconscious, Life 8 untouched.
    let stunned = || {
        vec![
            she_hides(),
            stun(&[5, 9, 1]),
            S::Magnitude("markus", "unconscious", 10),
            S::Res("markus", "life", 8),
        ]
    };
    let mut steps = stunned();
    steps.extend([
        // Beatrix revives him: 8 + Science 2 + Medicine 3 = 13 against 10 gives 3 Life, less
        // than his 8: he keeps 8.
        S::Act(
            "beatrix",
            "revive",
            vec![("target", t("markus")), ("skill", t("medicine"))],
            &[8],
        ),
        S::Lacks("markus", "unconscious"),
        S::Res("markus", "life", 8),
    ]);
    play(Scene {
        name: "revived after a stun",
        options: &[],
        cast: vec![beatrix(), walker(8), woman()],
        steps,
    });
    let mut steps = stunned();
    steps.extend([
        // A fight starts and ends around him (the woman's group 1 + 2 = 3, the players' 9 +
        // Beatrix's 2 + 3 = 14): he wakes with his 8, not 0.
        S::Start(&[1, 9]),
        S::Gm("end_encounter", vec![], &[]),
        S::Lacks("markus", "unconscious"),
        S::Res("markus", "life", 8),
        S::Said("markus wakes after the fight with 8 Life"),
    ]);
    play(Scene {
        name: "waking after a stun",
        options: &[],
        cast: vec![beatrix(), walker(8), woman()],
        steps,
    });
}

/// The stun damage a stun attack's account shows, step by step, as the GM holds it.
fn stun_told(steps: &'static [(&'static str, i64)], amount: i64) -> S {
    S::Check(Box::new(move |p: &crate::testing::scene::Played<'_>| {
        let effect = p
            .last
            .iter()
            .filter_map(|e| e.view(&crate::ids::Seat::Gm))
            .flat_map(|e| e.parts)
            .find_map(|part| match part.fact {
                crate::event::Fact::Told(a) => {
                    a.effects.iter().find(|e| e.what == "stun damage").cloned()
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("{}: no stun damage told", p.at));
        let got: Vec<(&str, i64)> = effect
            .steps
            .iter()
            .map(|m| (m.label.as_str(), m.value))
            .collect();
        assert_eq!(
            (got, effect.amount),
            (steps.to_vec(), Some(amount)),
            "{}",
            p.at
        );
    }))
}

/// The working a stun attack shows: the weapon die, the bonuses, the doubling, Stunning, the
/// half against armour and Toughness, each a step of the told damage; a gun's powder bound
/// by the mist as an attack's is.
#[test]
fn a_stun_attack_shows_its_working_step_by_step() {
    play(Scene {
        name: "E13's working",
        options: &[],
        cast: vec![walker(2), woman()],
        steps: vec![
            she_hides(),
            // E13: sap 9 on D10/2 = 4 + Body 2 = 6, doubled (+6) 12, Stunning +2 = 14,
            // Toughness −1 = 13.
            stun(&[5, 9, 10]),
            stun_told(
                &[
                    ("sap (D10/2)", 4),
                    ("Body", 2),
                    ("stun: doubled", 6),
                    ("Stunning", 2),
                    ("Toughness", -1),
                ],
                13,
            ),
        ],
    });
    let fists = |guard: serde_json::Value, faces: &'static [u32], told: S| {
        play(Scene {
            name: "fists",
            options: &[],
            cast: vec![with(beatrix(), |v| v["side"] = json!("players")), guard],
            steps: vec![
                S::Give("beatrix", "ambusher", 0),
                S::Act("beatrix", "stun", vec![("target", t("guard"))], faces),
                told,
            ],
        });
    };
    // Against armour and Toughness 1: D10/3 9 → 3 + Body 2 = 5, doubled 10, halved 5
    // (shown as −5 with Toughness added back), Toughness −1: 4 < Life 6, not enough.
    fists(
        with(thug("guard"), |v| {
            v["armoured"] = json!(true);
            v["toughness"] = json!(1);
        }),
        &[8, 9],
        stun_told(
            &[
                ("fists (D10/3)", 3),
                ("Body", 2),
                ("stun: doubled", 5),
                ("bare hands against armour: half", -5),
                ("Toughness", -1),
            ],
            4,
        ),
    );
    // Without armour the fists are not halved: 10 against Life 6, 4 below 0, a check at 9
    // that 1 fails.
    fists(
        thug("guard"),
        &[8, 9, 1],
        stun_told(
            &[("fists (D10/3)", 3), ("Body", 2), ("stun: doubled", 5)],
            10,
        ),
    );
    // A pistol's regular powder in the mist: the ball rolls out, nothing drawn, the mark gone.
    let pistol = with(beatrix(), |v| {
        v["side"] = json!("players");
        v["weapons"] = json!([
            {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}
        ]);
    });
    play(Scene {
        name: "a pistol in the mist",
        options: &[],
        cast: vec![pistol, thug("guard")],
        steps: vec![
            S::Give("beatrix", "ambusher", 0),
            S::Gm(
                "set_mist",
                vec![("on", crate::action::ArgValue::Flag(true))],
                &[],
            ),
            S::Act(
                "beatrix",
                "stun",
                vec![("target", t("guard")), ("weapon", t("pistol"))],
                &[],
            ),
            S::Said("rolls out"),
            S::Lacks("beatrix", "ambusher"),
            S::Res("guard", "life", 6),
        ],
    });
}
