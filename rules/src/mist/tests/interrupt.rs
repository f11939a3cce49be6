//! The delayed action through the interrupt window: asked when an enemy declares, a Speed
//! contest before the held action goes first, the combined action of several players (all
//! must be quicker), and the aimed attack executed as a delayed action (the target's Speed
//! contest before its dodge). Numbers are the text's E2 where it gives them.

use crate::ids::Seat;
use crate::testing::scene::{S, Scene};

use super::scenes::{acting, beatrix, markus, play, t, thug};

/// Beatrix holds her action; the gunman's group is acting.
fn beatrix_holds() -> Vec<S> {
    vec![
        S::Start(&[1, 9]), // enemies 1 + 2 = 3, players 9 + 2 + 3 = 14: players first
        S::Act("beatrix", "delay", vec![], &[]),
        acting("enemies", &["gunman"]),
    ]
}

fn gunman_attacks_beatrix() -> S {
    S::Act(
        "gunman",
        "attack",
        vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
        &[],
    )
}

#[test]
fn an_enemys_declaration_asks_the_holder_first_and_the_quicker_goes_first() {
    let mut steps = beatrix_holds();
    steps.extend([
        // The declaration draws nothing: Beatrix's seat is asked first. She learns what comes
        // (a melee weapon), not the NPC's weapon, which stays in the GM's secret.
        gunman_attacks_beatrix(),
        S::Prompt(true),
        S::Asked("gunman is about to attack beatrix with a melee weapon"),
        S::GmOnly(&["cudgel"]),
        S::Res("gunman", "life", 6),
        // E2 through the window: Speed 6 + 2 + 3 = 11 against the gunman's 9 + 2 + 0 = 11;
        // Speed skill 3 > 0, Beatrix first. Her knife: 10 + Senses 3 + Thrown 2 = 15 hits
        // Evade 7; the gunman, with his action, is asked to dodge.
        S::AnswerWith(
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("gunman")),
                ("weapon", t("knife")),
            ],
            &[6, 9, 10],
        ),
        S::Said("beatrix is quicker than gunman and acts first"),
        S::Lacks("beatrix", "delayed"),
        // He takes it: D10/2 of 8 = 4 + Body 2 = 6, Life 0. Then his declared attack goes on:
        // 3 + Body 2 = 5 reaches Evade 5; Beatrix's action is spent (no dodge): d10 4 + 2 = 6,
        // Life 10 → 4. The enemies have acted: round 2.
        S::Answer("take", &[8, 3, 4]),
        S::Res("gunman", "life", 0),
        S::Res("beatrix", "life", 4),
        S::Round(2),
        acting("players", &["beatrix"]),
    ]);
    play(Scene {
        name: "the window, E2",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });

    let mut steps = beatrix_holds();
    steps.extend([
        gunman_attacks_beatrix(),
        // 1 + 5 = 6 against 9 + 2 = 11: the gunman first; Beatrix's action stays held. His
        // attack: 3 + 2 = 5 hits Evade 5, and she, still holding, is asked to dodge.
        S::AnswerWith(
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("gunman")),
                ("weapon", t("knife")),
            ],
            &[1, 9, 3],
        ),
        S::Said(
            "beatrix is not quicker than gunman: its action goes first and beatrix's stays held",
        ),
        S::Magnitude("beatrix", "delayed", 0),
        S::Asked("gunman hits beatrix with a melee weapon: dodge"),
        // She takes it: 4 + 2 = 6, Life 4.
        S::Answer("take", &[4]),
        S::Res("beatrix", "life", 4),
    ]);
    play(Scene {
        name: "the window, the contest lost",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });

    let mut steps = beatrix_holds();
    steps.extend([
        gunman_attacks_beatrix(),
        // A stalled seat passes (the default): no contest, the attack is rolled, 3 + 2 = 5
        // hits, and she is asked to dodge with the action she still holds.
        S::TimeOut(&[3]),
        S::Magnitude("beatrix", "delayed", 0),
        S::Asked("dodge"),
    ]);
    play(Scene {
        name: "the window times out",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });

    let mut steps = beatrix_holds();
    steps.extend([
        // `never`: no window; the attack is rolled at once (3 + 2 = 5 hits), the dodge asked.
        S::Act(
            "gunman",
            "attack",
            vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
            &[3],
        ),
        S::Asked("gunman hits beatrix with a melee weapon: dodge"),
    ]);
    play(Scene {
        name: "no window by option",
        options: &[("mist.interrupt_window", "never")],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });
}

#[test]
fn answers_and_declarations_that_do_not_fit_are_refused_and_change_nothing() {
    let knife = |k: &'static str| {
        vec![
            ("action", t("attack")),
            ("target", t("gunman")),
            ("weapon", t(k)),
        ]
    };
    let mut steps = beatrix_holds();
    steps.extend([
        // A declaration that would be refused opens no window.
        S::Refused(
            "gunman",
            "attack",
            vec![("target", t("beatrix")), ("weapon", t("axe"))],
            "bad_request: not a weapon on this sheet",
        ),
        S::Prompt(false),
        gunman_attacks_beatrix(),
        S::AnswerRefused(None, "act", vec![], "bad_request: is required to act"),
        S::AnswerRefused(None, "act", knife("axe"), "bad_request: not a weapon"),
        S::AnswerRefused(None, "act", vec![("action", t("delay"))], "bad_request"),
        S::AnswerRefused(
            None,
            "act",
            vec![("action", t("attack")), ("weapon", t("knife"))],
            "bad_request: target",
        ),
        S::AnswerRefused(None, "act", vec![("action", t("act"))], "bad_request: what"),
        S::AnswerRefused(
            None,
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("gunman")),
                ("interrupt", t("gunman")),
            ],
            "bad_request: not an argument",
        ),
        S::AnswerRefused(None, "pass", knife("knife"), "bad_request: only `act`"),
        S::AnswerRefused(
            None,
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("gunman")),
                ("who", t("gunman")),
            ],
            "bad_request: who",
        ),
        S::AnswerRefused(
            Some(Seat::Player("markus".into())),
            "pass",
            vec![],
            "forbidden",
        ),
        S::Prompt(true),
        S::Res("gunman", "life", 6),
    ]);
    play(Scene {
        name: "refusals",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });
}

/// Beatrix and Markus both hold; the gunman declares he blows a horn.
fn both_hold_and_the_horn() -> Vec<S> {
    vec![
        S::Start(&[1, 9]),
        S::Act("beatrix", "delay", vec![], &[]),
        S::Act("markus", "delay", vec![], &[]),
        // A second thug keeps the enemies' turn open after the gunman's.
        acting("enemies", &["gunman", "thug-b"]),
        S::Act("gunman", "act", vec![("what", t("raises a horn"))], &[]),
        S::Asked("gunman is about to act: raises a horn"),
    ]
}

fn grab_the_horn() -> S {
    // Recorded, not yet judged: the window waits for Markus.
    S::AnswerAs(
        "beatrix",
        "act",
        vec![
            ("action", t("act")),
            ("what", t("snatches the horn")),
            ("together", crate::action::ArgValue::Flag(true)),
        ],
        &[],
    )
}

fn markus_swings(faces: &'static [u32]) -> S {
    S::AnswerAs(
        "markus",
        "act",
        vec![
            ("action", t("attack")),
            ("target", t("gunman")),
            ("weapon", t("club")),
            ("together", crate::action::ArgValue::Flag(true)),
        ],
        faces,
    )
}

#[test]
fn a_combined_delayed_action_goes_first_only_if_every_player_is_quicker() {
    let mut steps = both_hold_and_the_horn();
    steps.extend([
        grab_the_horn(),
        S::Prompt(true),
        // Beatrix 6 + 2 + 3 = 11 and Markus 2 + 3 + 1 = 6 against the gunman's one Speed
        // check, 5 + 2 + 0 = 7: Markus is not quicker, so the combined action does not go
        // first; the horn sounds, and both actions stay held.
        markus_swings(&[6, 2, 5]),
        S::Said("but the combined action of beatrix and markus needs all of them to be"),
        S::Said("markus is not quicker than gunman"),
        S::Said("gunman spends the action: raises a horn"),
        // The NPC's Speed total is the GM's: the players see its die, not the 7.
        S::GmOnly(&["\"total\":7"]),
        S::Magnitude("beatrix", "delayed", 0),
        S::Magnitude("markus", "delayed", 0),
        acting("enemies", &["thug-b"]),
    ]);
    play(Scene {
        name: "combined, one slower",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman"), thug("thug-b")],
        steps,
    });

    let mut steps = both_hold_and_the_horn();
    steps.extend([
        grab_the_horn(),
        // Markus 5 + 3 + 1 = 9 > 7 and Beatrix 11 > 7: both go first. Beatrix snatches the
        // horn; Markus's club: 7 + Body 3 = 10 hits Evade 7, and the gunman may dodge.
        markus_swings(&[6, 5, 5, 7]),
        S::Said("beatrix is quicker than gunman and acts first"),
        S::Said("markus is quicker than gunman and acts first"),
        S::Said("beatrix spends the action: snatches the horn"),
        S::Lacks("beatrix", "delayed"),
        S::Lacks("markus", "delayed"),
        S::Asked("markus hits gunman with club: dodge"),
        // He takes it: club 4 + Body 3 + ability 1 = 8, Life 6 → -2: consciousness against
        // 2 + 5 = 7, 3 + 0 + 0 = 3 fails. Down, his horn does not sound.
        S::Answer("take", &[4, 3]),
        S::Has("gunman", "unconscious"),
        S::Said("gunman's act does not happen: it can no longer act"),
    ]);
    play(Scene {
        name: "combined, all quicker",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman"), thug("thug-b")],
        steps,
    });

    let mut steps = both_hold_and_the_horn();
    steps.extend([
        // Alone (no `together`), each is judged on its own: Beatrix 11 > 7 acts, Markus 6
        // does not and keeps his action held.
        S::AnswerAs(
            "beatrix",
            "act",
            vec![("action", t("act")), ("what", t("snatches the horn"))],
            &[],
        ),
        S::AnswerAs(
            "markus",
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("gunman")),
                ("weapon", t("club")),
            ],
            &[6, 2, 5],
        ),
        S::Said("beatrix spends the action: snatches the horn"),
        S::Lacks("beatrix", "delayed"),
        S::Magnitude("markus", "delayed", 0),
    ]);
    play(Scene {
        name: "each alone",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman"), thug("thug-b")],
        steps,
    });
}

/// Both hold; the gunman declares; Beatrix and Markus both answer with an attack on him.
/// Beatrix 6 + 2 + 3 = 11 and Markus 5 + 3 + 1 = 9 against the gunman's 5 + 2 + 0 = 7: both go
/// first, Beatrix first. Her knife: 10 + Senses 3 + Thrown 2 = 15 hits Evade 7 and the gunman
/// is asked to dodge. Markus's club is not drawn yet: four faces only.
fn both_attack_the_gunman() -> Vec<S> {
    let mut steps = both_hold_and_the_horn();
    let attack = |weapon: &str| {
        vec![
            ("action", t("attack")),
            ("target", t("gunman")),
            ("weapon", t(weapon)),
        ]
    };
    steps.extend([
        S::AnswerAs("beatrix", "act", attack("knife"), &[]),
        S::AnswerAs("markus", "act", attack("club"), &[6, 5, 5, 10]),
        S::Asked("beatrix hits gunman with knife: dodge"),
    ]);
    steps
}

#[test]
fn two_quicker_attacks_go_one_after_another_each_after_its_dodge_is_answered() {
    let mut steps = both_attack_the_gunman();
    steps.extend([
        S::Lacks("beatrix", "delayed"),
        S::Magnitude("markus", "delayed", 0),
        // He takes it: D10/2 of 8 = 4 + Body 2 = 6, Life 6 → 0. Only now Markus's club:
        // 7 + Body 3 = 10 hits Evade 7, and the gunman is asked again.
        S::Answer("take", &[8, 7]),
        S::Res("gunman", "life", 0),
        S::Asked("markus hits gunman with club: dodge"),
        // Club 4 + Body 3 + ability 1 = 8, Life 0 → -8: consciousness against 8 + 5 = 13,
        // 3 + 0 + 0 = 3 fails. His horn never sounds.
        S::Answer("take", &[4, 3]),
        S::Lacks("markus", "delayed"),
        S::Has("gunman", "unconscious"),
        S::Said("gunman's act does not happen: it can no longer act"),
    ]);
    play(Scene {
        name: "two interrupters, one dodge at a time",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman"), thug("thug-b")],
        steps,
    });
}

#[test]
fn an_aimed_attack_as_a_delayed_action_gives_the_target_a_speed_contest_before_its_dodge() {
    let knife_aim = || vec![("target", t("gunman")), ("weapon", t("knife"))];
    let mut steps = beatrix_holds();
    steps.extend([
        // Beatrix fires her aimed knife at once with her held action: 2 + Senses 3 + Thrown 2
        // + aimed 3 = 10 hits Evade 7. The gunman, with his action, must first be quicker:
        // his 9 + 2 + 0 = 11 against her 1 + 2 + 3 = 6 is, so he is asked to dodge.
        S::Act("beatrix", "aim", knife_aim(), &[2, 9, 1]),
        S::Said("gunman is quicker than beatrix's aimed attack and may dodge it"),
        S::Lacks("beatrix", "delayed"),
        S::Res("beatrix", "action", 0),
        // He dodges: 8 + Body 2 + Dodge 0 = 10 against 10 + 3 (thrown) = 13 fails; knife 6 →
        // D10/2 3 + Body 2 = 5, Life 1.
        S::Answer("dodge", &[8, 6]),
        S::Res("gunman", "life", 1),
    ]);
    play(Scene {
        name: "aimed, delayed, target quicker",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });

    let mut steps = beatrix_holds();
    steps.extend([
        // E2's Speed numbers: his 9 + 2 + 0 = 11 and her 6 + 2 + 3 = 11; her Speed skill 3 >
        // 0, so he is not quicker: no dodge. 10 + 3 + 2 + 3 = 18 hits; knife 8 → 4 + 2 = 6.
        S::Act("beatrix", "aim", knife_aim(), &[10, 9, 6, 8]),
        S::Said("gunman is not quicker than beatrix's aimed attack: no dodge"),
        S::Prompt(false),
        S::Res("gunman", "life", 0),
        acting("enemies", &["gunman"]),
    ]);
    play(Scene {
        name: "aimed, delayed, E2 tie",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });

    let mut steps = beatrix_holds();
    steps.extend([
        // Through the window: the interrupt contest first (E2: 11 against 11, Beatrix by
        // skill), then the aimed knife 10 + 8 = 18 hits, then the dodge contest (E2 again,
        // 9 and 6: not quicker), knife 8 → 6, Life 0; then his attack, 3 + 2 = 5, hits her
        // (no action left): 4 + 2 = 6, Life 4.
        gunman_attacks_beatrix(),
        S::AnswerWith(
            "act",
            vec![
                ("action", t("aim")),
                ("target", t("gunman")),
                ("weapon", t("knife")),
            ],
            &[6, 9, 10, 9, 6, 8, 3, 4],
        ),
        S::Said("no dodge"),
        S::Res("gunman", "life", 0),
        S::Res("beatrix", "life", 4),
    ]);
    play(Scene {
        name: "aimed through the window",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });
}

/// Beatrix's recorded `act` at thug-b, then the GM's ruling before Markus answers.
fn beatrix_answers_then_a_ruling(ruling: (&'static str, &'static str, &'static str)) -> Vec<S> {
    let (command, target, status) = ruling;
    let mut steps = both_hold_and_the_horn();
    steps.extend([
        S::AnswerAs(
            "beatrix",
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("thug-b")),
                ("weapon", t("knife")),
            ],
            &[],
        ),
        S::Gm(
            command,
            vec![("target", t(target)), ("status", t(status))],
            &[],
        ),
        S::Prompt(true),
    ]);
    steps
}

#[test]
fn a_recorded_answer_the_gm_ruled_away_is_skipped_and_the_window_still_closes() {
    use crate::testing::scene;
    let closes = |close: S, listener: &'static str, name: &'static str, ruling| {
        let mut steps = beatrix_answers_then_a_ruling(ruling);
        steps.extend([
            // The last answer (or the time, or the GM's word) closes the window: Beatrix's
            // answer no longer stands and is skipped, no Speed is drawn, the horn sounds.
            close,
            S::Prompt(false),
            S::Said("beatrix's answer to act first no longer stands"),
            S::Said("gunman spends the action: raises a horn"),
        ]);
        if listener == "markus" {
            // Markus never reads Beatrix's answer nor why it fell.
            steps.extend([
                S::PlayerNeverHears("beatrix's answer"),
                S::PlayerNeverHears("knife"),
            ]);
        } else {
            steps.push(S::PlayerHears(
                "beatrix's answer to act first no longer stands",
            ));
        }
        // The table goes on: the fight can be ended.
        steps.push(S::Gm("end_encounter", vec![], &[]));
        scene::play(
            &super::super::Mist,
            listener,
            Scene {
                name,
                options: &[],
                cast: vec![beatrix(), markus(), thug("gunman"), thug("thug-b")],
                steps,
            },
        );
    };
    let dead = ("rule.set-status", "thug-b", "dead");
    let cleared = ("rule.clear-status", "beatrix", "delayed");
    closes(
        S::AnswerAs("markus", "pass", vec![], &[]),
        "markus",
        "target ruled dead, the other passes",
        dead,
    );
    closes(
        S::TimeOut(&[]),
        "markus",
        "target ruled dead, time out",
        dead,
    );
    closes(
        S::AnswerAs("gunman", "pass", vec![], &[]),
        "beatrix",
        "target ruled dead, the GM closes",
        dead,
    );
    closes(
        S::AnswerAs("markus", "pass", vec![], &[]),
        "markus",
        "holder's delay cleared",
        cleared,
    );
}

#[test]
fn an_npc_interrupters_action_that_no_longer_stands_is_said_to_the_gm_only() {
    use serde_json::json;
    // Markus's hound, an NPC: its numbers and choices are the GM's.
    let hound = super::with(super::creature("hound", "npc"), |v| {
        v["owner"] = json!("markus");
        v["side"] = json!("players");
        v["weapons"] = json!([{"id": "fangs", "name": "fangs", "damage": "d10"}]);
    });
    let steps = vec![
        S::Start(&[1, 9]),
        S::Act("beatrix", "delay", vec![], &[]),
        S::Act("hound", "delay", vec![], &[]),
        acting("enemies", &["gunman", "thug-b"]),
        S::Give("thug-b", "unconscious", 0),
        gunman_attacks_beatrix(),
        S::AnswerAs(
            "beatrix",
            "act",
            vec![
                ("action", t("aim")),
                ("target", t("thug-b")),
                ("weapon", t("knife")),
            ],
            &[],
        ),
        // Speed: Beatrix 6 + 2 + 3 = 11, the hound 9, the gunman 1 + 2 = 3: both first.
        // Beatrix's aimed knife 9 + 3 + 2 + 3 = 17 hits the unconscious thug-b: 8 → 4 + 2 =
        // 6, his Life 6 over, killed. The hound's bite at him no longer stands. Then the
        // gunman's attack: 3 + 2 = 5 hits Evade 5, 4 + 2 = 6.
        S::AnswerAs(
            "hound",
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("thug-b")),
                ("weapon", t("fangs")),
            ],
            &[6, 9, 1, 9, 8, 3, 4],
        ),
        S::Has("thug-b", "dead"),
        S::Said("hound's attack no longer stands (thug-b is dead)"),
        S::PlayerNeverHears("hound's attack"),
    ];
    play(Scene {
        name: "an NPC interrupter's action falls",
        options: &[],
        cast: vec![beatrix(), hound, thug("gunman"), thug("thug-b")],
        steps,
    });
}

#[test]
fn an_aimed_attack_as_the_delayed_action_at_a_target_out_of_sight_is_wasted() {
    let mut steps = beatrix_holds();
    steps.extend([
        S::Give("gunman", "out_of_sight", 0),
        // As a deferred aimed attack would be: the held action goes, nothing is thrown or
        // drawn, and it is said.
        S::Act(
            "beatrix",
            "aim",
            vec![("target", t("gunman")), ("weapon", t("knife"))],
            &[],
        ),
        S::PlayerHears(
            "beatrix's aimed attack at gunman is wasted: the target is out of range or sight",
        ),
        S::Lacks("beatrix", "delayed"),
        S::Res("beatrix", "action", 0),
        S::Res("gunman", "life", 6),
        S::Prompt(false),
    ]);
    play(Scene {
        name: "aimed, delayed, out of sight",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });
}

/// The gunman holds; Beatrix declares in the players' turn, the GM passes for him, and her
/// action goes on with every argument she declared (a flag, a number, a grab's own rules).
#[test]
fn a_declared_action_goes_on_after_the_window_with_every_argument_it_was_declared_with() {
    let gunman_holds = |declared: S, faces: &'static [u32], then: Vec<S>| {
        let mut steps = vec![
            // Enemies 9 + 2 = 11, players 1 + 2 + 3 = 6: the gunman's group first.
            S::Start(&[9, 1]),
            S::Act("gunman", "delay", vec![], &[]),
            acting("players", &["beatrix"]),
            declared,
            S::Asked("beatrix is about to"),
            S::Answer("pass", faces),
        ];
        steps.extend(then);
        play(Scene {
            name: "declared, then passed",
            options: &[],
            cast: vec![beatrix(), thug("gunman")],
            steps,
        });
    };
    // The knife thrown far in the rain: Evade 7 + far 3 + weather 2 = 12; 6 + Senses 3 +
    // Thrown 2 = 11 misses it (it would hit the bare 7).
    gunman_holds(
        S::Act(
            "beatrix",
            "attack",
            vec![
                ("target", t("gunman")),
                ("weapon", t("knife")),
                ("far", crate::action::ArgValue::Flag(true)),
                ("weather", crate::action::ArgValue::Int(2)),
            ],
            &[],
        ),
        &[6],
        vec![S::Said("misses"), S::Prompt(false)],
    );
    // A grab with bare hands: 1 + Body 2 + Brawl 0 − 2 (Inaccurate) = 1 misses Evade 7.
    gunman_holds(
        S::Act("beatrix", "grab", vec![("target", t("gunman"))], &[]),
        &[1],
        vec![S::Said("misses"), S::Lacks("gunman", "immobile")],
    );
}

/// What a declaration or an answer carries is checked before anything is asked or recorded:
/// a row of the other modifier table, an aimed attack at one's own side.
#[test]
fn a_modifier_of_the_other_table_or_an_aim_at_an_ally_is_refused_at_the_window() {
    let mut steps = beatrix_holds();
    steps.extend([
        // The cudgel is a melee weapon: far range is a row of the ranged table.
        S::Refused(
            "gunman",
            "attack",
            vec![
                ("target", t("beatrix")),
                ("weapon", t("cudgel")),
                ("far", crate::action::ArgValue::Flag(true)),
            ],
            "bad_request",
        ),
        S::Prompt(false),
    ]);
    play(Scene {
        name: "the other table",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });
    let mut steps = both_hold_and_the_horn();
    steps.push(S::AnswerRefused(
        Some(Seat::Player("beatrix".into())),
        "act",
        vec![
            ("action", t("aim")),
            ("target", t("markus")),
            ("weapon", t("knife")),
        ],
        "bad_request: argument `target` is on the attacker's side",
    ));
    play(Scene {
        name: "aim at an ally",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman"), thug("thug-b")],
        steps,
    });
}

/// The window's prompt passes by default after the table's decision time (a minute unless
/// set), and a holder may name itself with `who`. A delayed action used on its own, outside
/// a group's turn, asks nobody, even with a holder on the other side.
#[test]
fn the_window_passes_by_default_and_a_held_action_used_on_its_own_asks_nobody() {
    let mut steps = beatrix_holds();
    steps.extend([
        gunman_attacks_beatrix(),
        S::Check(Box::new(|p: &crate::testing::scene::Played<'_>| {
            let step = crate::state::StateView::encounter(p.state)
                .pending
                .last()
                .unwrap();
            assert_eq!(
                (step.default.as_str(), step.timeout_ms),
                ("pass", 60_000),
                "{}",
                p.at
            );
        })),
        // E2's numbers again, Beatrix naming herself: 11 against 11, hers by skill.
        S::AnswerWith(
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("gunman")),
                ("weapon", t("knife")),
                ("who", t("beatrix")),
            ],
            &[6, 9, 10],
        ),
        S::Said("beatrix is quicker than gunman and acts first"),
    ]);
    play(Scene {
        name: "the window's default, a holder named",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });
    play(Scene {
        name: "both sides hold",
        options: &[],
        cast: vec![beatrix(), thug("gunman"), thug("thug-b")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act("beatrix", "delay", vec![], &[]),
            S::Act("gunman", "delay", vec![], &[]),
            acting("enemies", &["thug-b"]),
            // Her held knife, at once: 10 + 3 + 2 = 15 hits; the gunman, holding, may dodge.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("gunman")), ("weapon", t("knife"))],
                &[10],
            ),
            S::Asked("beatrix hits gunman with knife: dodge"),
            S::Lacks("beatrix", "delayed"),
        ],
    });
}

/// An interrupter's hit that the declarer dodges spends its action: the declared attack does
/// not happen. E2's window (11 against 11, Beatrix by skill), her knife 15; his dodge 10 +
/// Body 2 = 12 against 15 + 3 (thrown) = 18 fails, knife 2 → D10/2 1 + 2 = 3, Life 3.
#[test]
fn a_declarer_whose_dodge_spent_its_action_does_not_go_on() {
    let mut steps = beatrix_holds();
    steps.extend([
        gunman_attacks_beatrix(),
        S::AnswerWith(
            "act",
            vec![
                ("action", t("attack")),
                ("target", t("gunman")),
                ("weapon", t("knife")),
            ],
            &[6, 9, 10],
        ),
        S::Answer("dodge", &[10, 2]),
        S::Res("gunman", "life", 3),
        S::Said("gunman's attack does not happen: it can no longer act"),
        S::Res("beatrix", "life", 10),
    ]);
    play(Scene {
        name: "the declarer dodged",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps,
    });
}

/// Beside a combined action that fails (Markus too slow), Julia, answering alone and quicker,
/// still goes first: only those who answered `together` wait for each other.
#[test]
fn one_who_answers_alone_is_not_held_back_by_a_combined_action_that_fails() {
    let julia = super::with(super::creature("julia", "pc"), |v| {
        v["body"] = serde_json::json!(2);
        v["skills"] = serde_json::json!({"speed": 2});
    });
    let steps = vec![
        S::Start(&[1, 9]),
        S::Act("beatrix", "delay", vec![], &[]),
        S::Act("julia", "delay", vec![], &[]),
        S::Act("markus", "delay", vec![], &[]),
        acting("enemies", &["gunman", "thug-b"]),
        S::Act("gunman", "act", vec![("what", t("raises a horn"))], &[]),
        grab_the_horn(),
        S::AnswerAs(
            "julia",
            "act",
            vec![("action", t("act")), ("what", t("shouts a warning"))],
            &[],
        ),
        // Beatrix 6 + 2 + 3 = 11, Julia 5 + 2 + 2 = 9, Markus 2 + 3 + 1 = 6 against the
        // gunman's 5 + 2 + 0 = 7: the pair fails on Markus; Julia, alone, is quicker.
        markus_swings(&[6, 5, 2, 5]),
        S::Said("but the combined action of beatrix and markus needs all of them to be"),
        S::Said("julia is quicker than gunman and acts first"),
        S::Said("julia spends the action: shouts a warning"),
        S::Lacks("julia", "delayed"),
        S::Magnitude("beatrix", "delayed", 0),
        S::Magnitude("markus", "delayed", 0),
    ];
    play(Scene {
        name: "one alone beside a pair",
        options: &[],
        cast: vec![beatrix(), julia, markus(), thug("gunman"), thug("thug-b")],
        steps,
    });
}

/// A quicker interrupter whose held action a ruling cleared while the first one's dodge was
/// open loses it when its turn comes: nothing of it is drawn.
#[test]
fn a_waiting_interrupter_whose_held_action_was_ruled_away_loses_it() {
    let mut steps = both_attack_the_gunman();
    steps.extend([
        S::Gm(
            "rule.clear-status",
            vec![("target", t("markus")), ("status", t("delayed"))],
            &[],
        ),
        // He takes the knife (6, Life 0); Markus's turn comes with nothing held.
        S::Answer("take", &[8]),
        S::Said("markus's delayed action is lost: it can no longer act"),
        S::Res("gunman", "life", 0),
    ]);
    play(Scene {
        name: "a waiting interrupter ruled away",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman"), thug("thug-b")],
        steps,
    });
}
