//! Where an ability's numbers turn: exactly enough and one short, the one foe that is not
//! several, the ally that is not a foe, the blow that is not 2. Each case here is a point
//! where a rule could be off by one (or read `and` for `or`) and the other tests would not
//! see it. Heroes are `abilities::hero`'s level 2 characters.

use serde_json::json;

use crate::testing::scene::{Played, S, Scene};

use super::abilities::{attacks, goblin_hp, hero, to, yes};
use super::edges::prompt_defaults_to;
use super::scenes::{brenna, goblin, n, play, t};
use super::{pc, with};

/// No event of the last action says `words` (in its debug form).
fn not_said(words: &'static str) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let all = format!("{:?}", p.last);
        assert!(!all.contains(words), "{}: `{words}` in {all}", p.at);
    }))
}

// Bloody slash doubles the blow itself: a shortsword's 1 on a goblin that is not evil (no elf
// bonus) becomes 2, not 1 + 2.
#[test]
fn bloody_slash_doubles_a_blow_of_1_to_2() {
    play(Scene {
        name: "bloody slash on 1",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "bloody_slash", &["shortsword"]),
            with(goblin_hp("g1", 0, 10), |v| v["tags"] = json!([])),
        ],
        steps: vec![
            S::Start(&[]),
            // 5 + 3 hits T5; the d10 6 doubles: 10 to 8.
            S::Act(
                "rogue",
                "attack",
                vec![("target", t("g1")), ("weapon", t("shortsword"))],
                &[5, 6],
            ),
            S::Res("g1", "hp", 8),
            S::Damage(&[("shortsword", 1), ("bloody slash: double", 1)], 2),
        ],
    });
}

// Commanding presence facing one foe adds nothing: its 7 + 1 = 8 reaches the warrior's T8,
// and no "commanding presence" step of 0 is shown.
#[test]
fn commanding_presence_adds_nothing_against_one_foe() {
    play(Scene {
        name: "commanding presence, one foe",
        options: &[],
        cast: vec![
            hero(
                "warrior",
                "human",
                "power",
                "commanding_presence",
                &["flail"],
            ),
            goblin("g1", -1),
        ],
        steps: vec![
            S::Start(&[]),
            S::Place("warrior", 5, 5),
            S::Place("g1", 6, 5),
            S::Act(
                "warrior",
                "ability",
                vec![("name", t("commanding_presence"))],
                &[],
            ),
            S::Act("warrior", "end_turn", vec![], &[]),
            attacks("g1", "warrior", &[7]),
            S::Said("name: \"toughness\", value: Some(8)"),
            not_said("commanding presence"),
        ],
    });
}

/// Enchanted healing (one MP a HP): every MP the wizard holds may go, not one more, and only
/// to a living ally: (target, MP, refusal or `None`). The wizard has 8 MP; Brenna 5 of 10.
#[test]
fn enchanted_healing_spends_up_to_every_mp_on_a_living_ally() {
    let cases: [(&str, i64, Option<&'static str>); 4] = [
        ("brenna", 8, None),
        ("brenna", 9, Some("insufficient_resource: needs 9, has 8")),
        ("g1", 1, Some("rule: is not one")),
        ("fallen", 1, Some("rule: is not one")),
    ];
    for (target, mp, refusal) in cases {
        let act = vec![
            ("name", t("enchanted_healing")),
            ("target", t(target)),
            ("mp", n(mp)),
        ];
        let steps = match refusal {
            Some(why) => vec![
                S::Give("fallen", "dead", 0),
                S::Refused("wizard", "ability", act, why),
            ],
            // 8 MP: 5 + 8 caps at 10.
            None => vec![
                S::Act("wizard", "ability", act, &[]),
                S::Res("wizard", "mp", 0),
                S::Res("brenna", "hp", 10),
            ],
        };
        play(Scene {
            name: "enchanted healing's limits",
            options: &[("tinyd10.enchanted_healing", "one_each")],
            cast: vec![
                hero("wizard", "human", "intellect", "enchanted_healing", &[]),
                with(brenna(), |v| v["hp"] = json!(5)),
                with(pc("rogue", "elf"), |v| {
                    v["id"] = json!("fallen");
                    v["owner"] = json!("p1");
                }),
                goblin("g1", 0),
            ],
            steps,
        });
    }
}

// Splash-effect needs an attack spell that deals damage: a level 3 wizard's Ray of death
// deals damage with no attack roll, so it takes no splash.
#[test]
fn splash_effect_refuses_a_damage_spell_with_no_attack_roll() {
    let wizard = with(pc("wizard", "human"), |v| {
        v["owner"] = json!("p1");
        v["level"] = json!(3);
        v["advance"] = json!([
            {"attribute": "intellect", "points": "mp", "extra": "spells", "ability": "arcane_knowledge"},
            {"attribute": "intellect", "points": "mp", "extra": "hp", "ability": "resist_magic"}
        ]);
        for a in ["arcane_knowledge", "resist_magic"] {
            v["abilities"].as_array_mut().unwrap().push(json!(a));
        }
        for s in ["listen", "craft"] {
            v["skills"].as_array_mut().unwrap().push(json!(s));
        }
        for s in ["magic_missile_2", "dumbstruck", "ray_of_death"] {
            v["spells"].as_array_mut().unwrap().push(json!(s));
        }
    });
    play(Scene {
        name: "splash on ray of death",
        options: &[],
        cast: vec![wizard, goblin("g1", 0)],
        steps: vec![S::Refused(
            "wizard",
            "cast",
            vec![
                ("spell", t("ray_of_death")),
                ("target", t("g1")),
                ("splash", yes()),
            ],
            "bad_request: splash",
        )],
    });
}

/// By will alone asks the warrior only about a foe's spell and only with its 2 PP there:
/// (the warrior's PP, who casts, whether the seat is asked). The hexer's Dumbstruck and the
/// ally wizard's are the same spell.
#[test]
fn by_will_alone_is_asked_with_exactly_2_pp_and_never_of_an_ally() {
    let cases: [(i64, &str, bool); 3] =
        [(2, "hexer", true), (1, "hexer", false), (8, "ally", false)];
    for (pp, caster, asked) in cases {
        // Dumbstruck counts rounds, so it is cast in a fight: the hexer (reflex 9) first, then
        // the ally and the warrior, tied at reflex 1 and sorted by their d10s (8 and 3).
        let mut steps = vec![S::Start(&[8, 3]), S::Order(&["hexer", "ally", "warrior"])];
        if caster == "ally" {
            steps.push(S::Act("hexer", "end_turn", vec![], &[]));
        }
        steps.push(S::Act(
            caster,
            "cast",
            vec![("spell", t("dumbstruck")), ("target", t("warrior"))],
            if asked { &[] } else { &[1, 3, 4] },
        ));
        steps.push(S::Prompt(asked));
        if asked {
            steps.push(prompt_defaults_to("let"));
        }
        play(Scene {
            name: "by will alone's question",
            options: &[],
            cast: vec![
                with(
                    hero("warrior", "human", "power", "by_will_alone", &[]),
                    |v| v["pp"] = json!(pp),
                ),
                json!({
                    "id": "hexer", "name": "goblin hexer", "kind": "npc", "tags": ["goblin"],
                    "spells": ["dumbstruck"],
                    "stats": {"intellect": 2, "reflex": 9, "toughness": 5, "hp_max": 4,
                              "mp_max": 10, "casting": "magical"}
                }),
                with(pc("wizard", "human"), |v| {
                    v["id"] = json!("ally");
                    v["owner"] = json!("p1");
                    v["spells"] = json!(["fireball_1", "magic_missile_1", "dumbstruck"]);
                }),
            ],
            steps,
        });
    }
}

// Standing from prone halves the move (60 to 30 ft: 6 cells, not 7) and the rogue is up after.
#[test]
fn standing_up_from_prone_halves_the_move() {
    play(Scene {
        name: "standing up",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "haste", &["shortsword"]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Place("rogue", 0, 0),
            S::Give("rogue", "prone", -1),
            S::Refused("rogue", "move", vec![("to", to(7, 0))], "out_of_range"),
            S::Act("rogue", "move", vec![("to", to(6, 0))], &[]),
            S::Lacks("rogue", "prone"),
            S::Said("stands up: half movement"),
        ],
    });
}

// Haste gives up an attack still to make: after the attack there is none to give.
#[test]
fn haste_after_the_attack_is_refused() {
    play(Scene {
        name: "haste after attacking",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "haste", &["shortsword"]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Place("rogue", 0, 0),
            S::Place("g1", 1, 0),
            // 1 + 3 misses T5.
            attacks("rogue", "g1", &[1]),
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(20, 0)), ("haste", yes())],
                "none_left",
            ),
        ],
    });
}

/// Tactical retreat costs 1 PP: with exactly 1 the rogue steps away (65 ft from the goblin
/// at (2, 0), as in the main scene), with none it cannot.
#[test]
fn tactical_retreat_with_exactly_its_1_pp() {
    for (pp, ok) in [(1, true), (0, false)] {
        let retreat = vec![("to", to(15, 0)), ("retreat", yes())];
        let last = if ok {
            S::Act("rogue", "move", retreat, &[])
        } else {
            S::Refused("rogue", "move", retreat, "insufficient_resource")
        };
        play(Scene {
            name: "tactical retreat's point",
            options: &[],
            cast: vec![
                with(
                    hero("rogue", "elf", "power", "tactical_retreat", &["shortsword"]),
                    |v| v["pp"] = json!(pp),
                ),
                goblin_hp("g1", 0, 10),
            ],
            steps: vec![
                S::Start(&[]),
                S::Place("rogue", 0, 0),
                S::Place("g1", 2, 0),
                S::Act("rogue", "move", vec![("to", to(1, 0))], &[]),
                // 5 + 3 = 8 reaches T5.
                S::Act(
                    "rogue",
                    "attack",
                    vec![("target", t("g1")), ("weapon", t("shortsword"))],
                    &[5],
                ),
                last,
            ],
        });
    }
}

// Battle lock asks with the table's timeout and "let" as the default; a foe already dead when
// the warrior answers "strike" is not struck (no die is drawn).
#[test]
fn battle_lock_waits_as_the_table_does_and_strikes_no_dead_foe() {
    play(Scene {
        name: "battle lock's question",
        options: &[],
        cast: vec![
            hero("warrior", "human", "power", "battle_lock", &["flail"]),
            goblin_hp("g1", 2, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["g1", "warrior"]),
            S::Place("warrior", 5, 5),
            S::Place("g1", 6, 5),
            S::Act("g1", "move", vec![("to", to(9, 5))], &[]),
            S::Prompt(true),
            prompt_defaults_to("let"),
            S::Give("g1", "dead", 0),
            S::Answer("strike", &[]),
            S::Res("g1", "hp", 10),
        ],
    });
}

// What an attack may cost is counted whole before any roll: PP on the roll, Power strike and
// Feint's 2 PP in reserve, Blessed's 3 and Overpower's 1 together. (who, PP held, what is
// declared); each is one point short and refused with no die drawn.
#[test]
fn an_attacks_reserves_are_added_up_before_any_roll() {
    let feint = vec![("target", t("g1")), ("pp", n(1)), ("feint", yes())];
    let both = vec![
        ("target", t("g1")),
        ("blessed", yes()),
        ("overpower", yes()),
    ];
    play(Scene {
        name: "an attack's reserves",
        options: &[],
        cast: vec![
            // The rogue: 1 on the roll + Feint's 2 = 3 PP, with 2.
            with(pc("rogue", "elf"), |v| {
                v["owner"] = json!("p1");
                v["pp"] = json!(2);
            }),
            // The GM's champion: Blessed's 3 + Overpower's 1 = 4 PP, with 3.
            json!({
                "id": "champion", "name": "champion", "kind": "npc",
                "abilities": ["blessed", "overpower"],
                "stats": {"power": 2, "reflex": 5, "toughness": 6, "hp_max": 10, "pp_max": 3},
                "attacks": [{"id": "mace", "name": "mace", "kind": "melee"}]
            }),
            goblin("g1", 0),
        ],
        steps: vec![
            S::Refused(
                "rogue",
                "attack",
                feint,
                "insufficient_resource: needs 3, has 2",
            ),
            S::Refused(
                "champion",
                "attack",
                both,
                "insufficient_resource: needs 4, has 3",
            ),
        ],
    });
}

// Thunderous blow doubles the attack's bonus, the weapon's included: with a shield (+1 to
// attack) the cleric's power 3 + 1 is added again, 4.
#[test]
fn thunderous_blow_doubles_a_weapons_attack_bonus_too() {
    play(Scene {
        name: "thunderous greatsword",
        options: &[],
        cast: vec![
            hero("cleric", "human", "power", "thunderous_blow", &["shield"]),
            goblin_hp("g1", 0, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Act(
                "cleric",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("weapon", t("shield")),
                    ("thunderous", yes()),
                ],
                &[2, 1],
            ),
            S::Said("label: \"thunderous blow: bonus doubled\", value: 4"),
        ],
    });
}

// Explosive power keeps what the attack declared: Bruna's Power strike of 1 is paid and dealt
// when her 1 + 3 = 4 is raised to 5 by one PP: flail 2 + 1 against goblins + 1 = 4, 10 to 6;
// PP 7 - 1 - 1 = 5.
#[test]
fn explosive_power_keeps_the_power_strike_declared() {
    let warrior = with(super::scenes::bruna(), |v| {
        v["abilities"] = json!(["defensive_rush", "power_strike", "explosive_power"]);
    });
    play(Scene {
        name: "explosive power strike",
        options: &[],
        cast: vec![
            warrior,
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[]),
            S::Act(
                "bruna",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("weapon", t("flail")),
                    ("power_strike", n(1)),
                ],
                &[1],
            ),
            S::AnswerWith("add", vec![("points", n(1))], &[]),
            S::Res("g1", "hp", 6),
            S::Res("bruna", "pp", 5),
        ],
    });
}

// The favored weapon's 10 says why the damage is 1d5, and a blessed weapon against an unholy
// character whose numbers the table sees says it is unholy.
#[test]
fn a_special_damage_die_says_why_it_is_rolled() {
    play(Scene {
        name: "damage labels",
        options: &[],
        cast: vec![
            with(
                hero("cleric", "human", "reflex", "favored_weapon", &["flail"]),
                |v| v["favored_weapon"] = json!("flail"),
            ),
            goblin_hp("g1", -2, 10),
        ],
        steps: vec![
            S::Start(&[]),
            // 10 hits; 1d5 (3) + the flail's 1.
            S::Act(
                "cleric",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[10, 3],
            ),
            S::Said("damage: a 10 with the favored weapon"),
        ],
    });
    play(Scene {
        name: "blessed against an unholy character",
        options: &[],
        cast: vec![
            hero("cleric", "human", "reflex", "bless_weapon", &["flail"]),
            with(pc("rogue", "elf"), |v| {
                v["owner"] = json!("p1");
                v["tags"] = json!(["unholy"]);
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
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("rogue", "end_turn", vec![], &[]),
            // 9 + 1 reaches the rogue's T6; 1d5 (2) against the unholy.
            S::Act(
                "cleric",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("flail"))],
                &[9, 2],
            ),
            S::Said("damage: a blessed weapon against the unholy"),
        ],
    });
}

// Enchant weapon's +2 damage stands on its own: the GM's hexer enchants a goblin's rusty
// blade (1, no bonus of its own): 3 damage, not 1.
#[test]
fn enchant_weapon_adds_2_to_a_blow_with_no_bonus_of_its_own() {
    play(Scene {
        name: "enchanted blade",
        options: &[],
        cast: vec![
            json!({
                "id": "hexer", "name": "goblin hexer", "kind": "npc", "tags": ["goblin"],
                "level": 3, "spells": ["enchant_weapon"],
                "stats": {"intellect": 2, "reflex": 9, "toughness": 5, "hp_max": 4,
                          "mp_max": 10, "casting": "magical"}
            }),
            goblin("g1", 5),
            with(brenna(), |v| v["hp"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["hexer", "g1", "brenna"]),
            S::Act(
                "hexer",
                "cast",
                vec![
                    ("spell", t("enchant_weapon")),
                    ("target", t("g1")),
                    ("weapon", t("rusty_blade")),
                ],
                &[],
            ),
            S::Act("hexer", "end_turn", vec![], &[]),
            // 9 + 1 + 1 reaches Brenna's T8; the blade's 1 + 2 = 3: 10 to 7.
            attacks("g1", "brenna", &[9]),
            S::Res("brenna", "hp", 7),
        ],
    });
}

// Standard healing in a fight takes the healer's whole turn (the action and the move) and
// restores HP, MP and PP alike by the roll: Aldric (heal skill) at 3 HP, 2 MP and 2 PP heals
// himself for a d2 of 2: 5, 4 and 4.
#[test]
fn standard_healing_in_a_fight_restores_hp_mp_and_pp_by_the_roll() {
    play(Scene {
        name: "healing in a fight",
        options: &[],
        cast: vec![
            with(super::scenes::aldric(), |v| {
                v["hp"] = json!(3);
                v["mp"] = json!(2);
                v["pp"] = json!(2);
            }),
            goblin("g1", -5),
        ],
        steps: vec![
            S::Start(&[]),
            S::Act("aldric", "heal", vec![], &[2]),
            S::Res("aldric", "hp", 5),
            S::Res("aldric", "mp", 4),
            S::Res("aldric", "pp", 4),
            S::Res("aldric", "action", 0),
            S::Res("aldric", "move", 0),
        ],
    });
}

/// Words of strength cost 2 PP: with exactly 2 they are spoken, with 1 refused.
#[test]
fn words_of_strength_with_exactly_their_2_pp() {
    for (pp, ok) in [(2, true), (1, false)] {
        let words = vec![("of", t("strength"))];
        let step = if ok {
            S::Act("aldric", "words", words, &[2])
        } else {
            S::Refused(
                "aldric",
                "words",
                words,
                "insufficient_resource: needs 2, has 1",
            )
        };
        play(Scene {
            name: "words of strength's price",
            options: &[],
            cast: vec![with(super::scenes::aldric(), |v| {
                v["abilities"] = json!(["spell_casting_divine", "words_of_strength"]);
                v["pp"] = json!(pp);
            })],
            steps: vec![step, S::Res("aldric", "pp", if ok { 0 } else { 1 })],
        });
    }
}

// The GM's vampire (Fanged strike and Rapid regeneration, 2 of 10 HP) bites Brenna with a
// 10: 1 damage, healed 1 doubled = 2 (2 to 4). A blow that deals nothing heals nothing and
// says nothing of fangs.
#[test]
fn fanged_strike_doubled_by_rapid_regeneration_and_nothing_for_nothing() {
    play(Scene {
        name: "vampire",
        options: &[],
        cast: vec![
            json!({
                "id": "vampire", "name": "vampire", "kind": "npc", "tags": ["undead"],
                "abilities": ["fanged_strike", "rapid_regeneration"],
                "stats": {"power": 0, "reflex": 9, "toughness": 5, "hp_max": 10},
                "hp": 2,
                "attacks": [{"id": "bite", "name": "bite", "kind": "melee"}]
            }),
            with(brenna(), |v| v["pp"] = json!(0)),
        ],
        steps: vec![
            S::Start(&[]),
            attacks("vampire", "brenna", &[10]),
            S::Res("brenna", "hp", 9),
            S::Res("vampire", "hp", 4),
        ],
    });
}

// A goblin knocked out (a Stunning blow's rounds) and then struck to 0 by a lethal blow dies
// like any monster (`tinyd10.npc_at_zero` = dies): Brenna's 8 + 2 hits T5 - 1 (prone) for
// flail 2 + 1 against goblins = 3 of its 3 HP.
#[test]
fn a_knocked_out_monster_struck_to_0_dies() {
    play(Scene {
        name: "knocked out, then slain",
        options: &[],
        cast: vec![brenna(), goblin("g1", -3)],
        steps: vec![
            S::Start(&[]),
            S::Give("g1", "unconscious", 0),
            S::Give("g1", "prone", -1),
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[8],
            ),
            S::Res("g1", "hp", 0),
            S::Has("g1", "dead"),
        ],
    });
}

// The GM's rulings on HP follow the rules of 0 HP: 10 to 5 is only a wound, 5 to 0 is dying,
// 0 to 3 is no longer dying. A ruling names a pool or slot of the system, within its bounds.
#[test]
fn the_gms_hp_rulings_bring_dying_and_its_end() {
    let to = |resource: &'static str, value: i64| {
        vec![
            ("target", t("brenna")),
            ("resource", t(resource)),
            ("value", n(value)),
        ]
    };
    let set = |hp: i64| S::Gm("rule.set-resource", to("hp", hp), &[]);
    play(Scene {
        name: "hp by ruling",
        options: &[],
        cast: vec![brenna(), goblin("g1", -3)],
        steps: vec![
            S::Start(&[]),
            S::GmRefused(
                "rule.set-resource",
                to("mana", 3),
                "unknown_name: `mana` is not a resource of tinyd10",
            ),
            S::GmRefused(
                "rule.set-resource",
                to("hp", -1),
                "bad_request: argument `value` hp must be in 0..=10000",
            ),
            S::GmRefused(
                "rule.set-resource",
                to("action", 2),
                "bad_request: argument `value` action must be in 0..=1",
            ),
            S::Res("brenna", "hp", 10),
            set(5),
            S::Lacks("brenna", "dying"),
            set(0),
            S::Has("brenna", "dying"),
            set(3),
            S::Lacks("brenna", "dying"),
        ],
    });
}

// A challenge's lines say what a tie did and which roll came again: Brenna's non-lethal
// bare hands (3 + 2 hits T5), then the power challenge 4 + 2 against 5 + 1, a tie; rolled
// again under `tinyd10.challenge_ties` = reroll (6 + 2 against 1 + 1).
fn tied(
    options: &'static [(&'static str, &'static str)],
    faces: &'static [u32],
    said: &'static str,
) {
    play(Scene {
        name: "a tied challenge",
        options,
        cast: vec![brenna(), goblin("g1", 0)],
        steps: vec![
            S::Start(&[]),
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("nonlethal", yes())],
                faces,
            ),
            S::Said(said),
        ],
    });
}

#[test]
fn a_tied_challenge_says_so_and_a_second_roll_says_again() {
    tied(&[], &[3, 4, 5], "(a tie: the resister holds)");
    tied(
        &[("tinyd10.challenge_ties", "reroll")],
        &[3, 4, 5, 6, 1],
        "(again)",
    );
}

// A check equal to its toughness says the table's tie rule decided it (4 + 1 against 5); an
// elf's perception bonus goes to perception checks only; a check the GM makes for a character
// without `--hidden` keeps its toughness in the open.
#[test]
fn a_checks_tie_its_race_bonus_and_its_openness() {
    play(Scene {
        name: "checks",
        options: &[],
        cast: vec![with(pc("rogue", "elf"), |v| v["owner"] = json!("p1"))],
        steps: vec![
            S::Act(
                "rogue",
                "check",
                vec![("attribute", t("intellect")), ("toughness", n(5))],
                &[4],
            ),
            S::Said("equal to the toughness: the table rules ties succeed"),
            not_said("race: perception"),
            S::GmAct(
                "rogue",
                "check",
                vec![("attribute", t("intellect")), ("toughness", n(7))],
                &[2],
            ),
            S::TargetSeen(true),
        ],
    });
}

// With `tinyd10.natural` = total, "a 10" is the total: a pummelling warrior's 5 + 2 = 7 is no
// 10 (a product of 5 and 2 would be), so the goblin stays up.
#[test]
fn option_natural_total_adds_the_bonus_to_the_face() {
    play(Scene {
        name: "natural total",
        options: &[("tinyd10.natural", "total")],
        cast: vec![
            hero("warrior", "human", "reflex", "pummel", &["flail"]),
            goblin_hp("g1", -3, 10),
        ],
        steps: vec![
            S::Start(&[]),
            attacks("warrior", "g1", &[5]),
            S::Res("g1", "hp", 8),
            S::Lacks("g1", "prone"),
        ],
    });
}

// Morale: a 2 falters (the GM's line says so); a monster slain outside a fight calls none
// (no die is drawn).
#[test]
fn morale_falters_on_2_and_is_not_called_outside_a_fight() {
    play(Scene {
        name: "morale",
        options: &[],
        cast: vec![brenna(), goblin("g1", 0), goblin("g2", 0)],
        steps: vec![
            S::Gm(
                "rule.set-resource",
                vec![("target", t("g1")), ("resource", t("hp")), ("value", n(0))],
                &[],
            ),
            S::Has("g1", "dead"),
            S::Start(&[]),
            S::Gm("morale", vec![("of", t("g2"))], &[2]),
            S::Said("falters: they may flee"),
        ],
    });
}

// Reaching level 4 brings Champion's resolve, and the advance says so: Torvald (level 3) with
// the 200 XP level 4 needs.
#[test]
fn level_4_brings_champions_resolve_and_says_so() {
    let torvald: serde_json::Value = toml::from_str(include_str!(
        "../../../../docs/examples/tinyd10/torvald.toml"
    ))
    .unwrap();
    play(Scene {
        name: "level 4",
        options: &[],
        cast: vec![with(torvald, |v| v["owner"] = json!("p1"))],
        steps: vec![
            S::Gm(
                "award_xp",
                vec![("target", t("torvald")), ("xp", n(200))],
                &[],
            ),
            S::Act(
                "torvald",
                "level_up",
                vec![
                    ("extra", t("attribute")),
                    ("attribute", t("power")),
                    ("ability", t("disarm")),
                    ("skill", t("craft")),
                ],
                &[],
            ),
            S::Said("champion's resolve"),
        ],
    });
}

// Ties for the combat order are rolled again, but not forever: after ten tied rolls in a row
// (twenty faces of 5 for two creatures) the order stays as the sheets came, and no eleventh
// pair is drawn.
#[test]
fn the_combat_order_stops_rolling_ties_after_ten() {
    play(Scene {
        name: "endless ties",
        options: &[],
        cast: vec![brenna(), with(brenna(), |v| v["id"] = json!("twin"))],
        steps: vec![S::Start(&[5; 20]), S::Order(&["brenna", "twin"])],
    });
}

// A turn's spent slot is named in its refusal: the attack, ability or spell, or the movement.
#[test]
fn a_spent_slot_is_named() {
    play(Scene {
        name: "spent slots",
        options: &[],
        cast: vec![
            hero("rogue", "elf", "power", "haste", &["shortsword"]),
            goblin_hp("g1", -3, 10),
        ],
        steps: vec![
            S::Start(&[]),
            S::Place("rogue", 0, 0),
            S::Place("g1", 1, 0),
            attacks("rogue", "g1", &[1]),
            S::Refused(
                "rogue",
                "attack",
                vec![("target", t("g1"))],
                "none_left: attack, ability or spell",
            ),
            S::Act("rogue", "move", vec![("to", to(0, 1))], &[]),
            S::Refused(
                "rogue",
                "move",
                vec![("to", to(0, 2))],
                "none_left: movement",
            ),
        ],
    });
}

// A Stunning blow: its +1 is shown as its own step, its PP and any PP on the roll are counted
// whole (2 + 1 with 2 is one short), and the prone it leaves lasts until the creature stands,
// not the knock-out's rounds. Bruna: power 3, PP 7.
#[test]
fn a_stunning_blows_step_its_price_and_its_prone() {
    let warrior = with(super::scenes::bruna(), |v| {
        v["abilities"] = json!(["defensive_rush", "power_strike", "stunning_blow"]);
    });
    let poor = with(warrior.clone(), |v| {
        v["id"] = json!("poor");
        v["pp"] = json!(2);
    });
    play(Scene {
        name: "stunning blow's numbers",
        options: &[],
        cast: vec![
            warrior,
            poor,
            with(goblin("g1", -3), |v| v["stats"]["hp_max"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[8, 2]),
            S::Order(&["bruna", "poor", "g1"]),
            // 2 + 3 + 1 = 6 hits T5: 2 damage; challenge 5 + 3 against 1 + 1, lost; 2 rounds.
            S::Act(
                "bruna",
                "ability",
                vec![("name", t("stunning_blow")), ("target", t("g1"))],
                &[2, 5, 1, 2],
            ),
            S::Said("label: \"stunning blow\", value: 1"),
            S::Check(Box::new(|p: &Played<'_>| {
                let g = crate::state::StateView::combatant(p.state, &"g1".into()).expect("g1");
                assert_eq!(
                    g.statuses.get("prone").map(|s| s.rounds_left),
                    Some(None),
                    "{}",
                    p.at
                );
            })),
            S::Act("bruna", "end_turn", vec![], &[]),
            S::Refused(
                "poor",
                "ability",
                vec![
                    ("name", t("stunning_blow")),
                    ("target", t("g1")),
                    ("pp", n(1)),
                ],
                "insufficient_resource: needs 3, has 2",
            ),
        ],
    });
}

// Defensive rush asks Brenna with the blow's numbers and "let" as the default, on the table's
// timeout: the goblin's 6 + 1 hits Aldric's T7.
#[test]
fn defensive_rush_asks_with_its_question_and_default() {
    play(Scene {
        name: "defensive rush's question",
        options: &[],
        cast: vec![brenna(), super::scenes::aldric(), goblin("g1", 2)],
        steps: vec![
            S::Start(&[]),
            S::Act(
                "g1",
                "attack",
                vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
                &[6],
            ),
            S::Asked("rush in (2 PP"),
            prompt_defaults_to("let"),
        ],
    });
}
