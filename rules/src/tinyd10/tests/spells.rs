//! The spells whose effects the server counts (`lasting`, `areas`, `imprint`), as scenes on the
//! shared runner. The casters: [`cleric`] (level 3 human: aspect 3, power 2, reflex 1, T6,
//! HP 9, MP 10, spell save 3 + 3 + 3 = 9) and [`wizard`] (level 3 human: intellect 2, reflex
//! 2, T6, HP 10, MP 12, spell save 3 + 2 + 3 = 8), both played by `p1`, Brenna's seat.
//! Goblins are power 1, T5, intellect 0 (`scenes::goblin`), here with 10 HP.

use serde_json::{Value, json};

use crate::action::ArgValue;
use crate::grid::Cell;
use crate::state::StateView;
use crate::testing::scene::{Played, S, Scene};

use super::scenes::{aldric, brenna, goblin, n, play, t};
use super::{dice_gm_alone, pc, with};

/// A level 3 human cleric (`p1`) knowing `spells`.
fn cleric(spells: &[&str]) -> Value {
    with(pc("cleric", "human"), |v| {
        v["id"] = json!("cleric");
        v["owner"] = json!("p1");
        v["level"] = json!(3);
        v["advance"] = json!([
            {"attribute": "aspect", "points": "mp", "extra": "spells"},
            {"attribute": "aspect", "points": "mp", "extra": "hp"}
        ]);
        v["skills"] = json!(["persuade", "spot", "listen", "survival"]);
        v["abilities"] = json!([
            "spell_casting_divine",
            "words_of_healing",
            "wrath",
            "counterattack"
        ]);
        v["spells"] = json!(spells);
    })
}

/// A level 3 human wizard (`p1`) knowing `spells`, with `ability` as its level 3 ability.
fn wizard_with(id: &str, ability: &str, spells: &[&str]) -> Value {
    with(pc("wizard", "human"), |v| {
        v["id"] = json!(id);
        v["name"] = json!(id);
        v["owner"] = json!("p1");
        v["level"] = json!(3);
        v["advance"] = json!([
            {"attribute": "intellect", "points": "mp", "extra": "spells"},
            {"attribute": "intellect", "points": "mp", "extra": "hp"}
        ]);
        v["skills"] = json!(["persuade", "spot", "listen", "craft"]);
        v["abilities"] = json!([
            "prestidigitation",
            "spell_casting_magical",
            "splash_effect",
            "swift",
            ability
        ]);
        v["spells"] = json!(spells);
    })
}

fn wizard(spells: &[&str]) -> Value {
    wizard_with("wizard", "war_mage", spells)
}

/// A goblin with 10 HP.
fn gob(id: &str, reflex: i64) -> Value {
    with(goblin(id, reflex), |v| v["stats"]["hp_max"] = json!(10))
}

/// An undead with 6 HP, aspect 0.
fn undead(id: &str, reflex: i64) -> Value {
    json!({
        "id": id, "name": id, "kind": "npc", "tags": ["undead", "unholy", "evil"],
        "stats": {"power": 2, "reflex": reflex, "toughness": 7, "hp_max": 6},
        "attacks": [{"id": "claw", "name": "claw", "kind": "melee"}]
    })
}

/// The GM's level 3 caster of `spells` (`casting`: divine or magical).
fn shaman(casting: &str, spells: &[&str]) -> Value {
    json!({
        "id": "shaman", "name": "shaman", "kind": "npc", "level": 3, "tags": ["goblin"],
        "spells": spells,
        "stats": {"intellect": 2, "aspect": 2, "reflex": 3, "toughness": 5, "hp_max": 5,
                  "mp_max": 12, "casting": casting}
    })
}

fn cast(spell: &'static str, target: &'static str) -> Vec<(&'static str, ArgValue)> {
    vec![("spell", t(spell)), ("target", t(target))]
}

fn cast_on(
    spell: &'static str,
    target: &'static str,
    targets: &'static str,
) -> Vec<(&'static str, ArgValue)> {
    vec![
        ("spell", t(spell)),
        ("target", t(target)),
        ("targets", t(targets)),
    ]
}

fn yes() -> ArgValue {
    ArgValue::Flag(true)
}

fn end(who: &'static [&'static str]) -> Vec<S> {
    who.iter()
        .map(|w| S::Act(w, "end_turn", vec![], &[]))
        .collect()
}

/// `who`'s `status` has `rounds` left.
fn rounds(who: &'static str, status: &'static str, rounds: u32) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let c = p.state.combatant(&who.into()).unwrap();
        let got = c.statuses.get(status).and_then(|s| s.rounds_left);
        assert_eq!(got, Some(rounds), "{}: {who} {status}", p.at);
    }))
}

/// The toughness an attack on `who` must reach.
fn toughness(who: &'static str, value: i64) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let c = p.state.combatant(&who.into()).unwrap();
        let (got, _) = super::super::round::toughness_of(c).unwrap();
        assert_eq!(got, value, "{}: {who}'s toughness", p.at);
    }))
}

#[test]
fn fear_of_god_takes_1_toughness_and_2_off_attacks_for_1d5_rounds() {
    let mut steps = vec![
        // Brenna and the cleric tie at reflex 1: 2 and 5, the cleric first.
        S::Start(&[2, 5]),
        S::Order(&["cleric", "brenna", "g1"]),
        // No save; 1d5 (2) rounds. 10 MP - 2.
        S::Act("cleric", "cast", cast("fear_of_god", "g1"), &[2]),
        S::Res("cleric", "mp", 8),
        S::Magnitude("g1", "frightened", -2),
        // What caused it, as the table reads the status: a player's spell is named.
        S::Check(Box::new(|p: &Played<'_>| {
            let c = p.state.combatant(&"g1".into()).unwrap();
            let source = &c.statuses["frightened"].source;
            assert!(source.starts_with("fear of god"), "{}: {source}", p.at);
        })),
        S::PlayerHears(
            "g1 is struck with fear of god: -1 toughness and -2 to attacks for 2 rounds",
        ),
        // T5 - 1 = 4.
        toughness("g1", 4),
        S::Act("cleric", "end_turn", vec![], &[]),
        // Brenna: 2 + power 2 = 4 reaches T4 (it would miss T5): flail 2 + 1 (dwarf).
        S::Act(
            "brenna",
            "attack",
            vec![("target", t("g1")), ("weapon", t("flail"))],
            &[2],
        ),
        S::Res("g1", "hp", 7),
        S::Act("brenna", "end_turn", vec![], &[]),
        // The goblin: 9 + power 1 - 2 = 8 misses Brenna's T9 (a 10 without the fear).
        S::Act("g1", "attack", vec![("target", t("brenna"))], &[9]),
        S::Said("fear of god"),
        S::Res("brenna", "hp", 10),
    ];
    // Round 1 ends: 1 round left; round 2 ends: gone.
    steps.extend(end(&["g1"]));
    steps.push(rounds("g1", "frightened", 1));
    steps.extend(end(&["cleric", "brenna", "g1"]));
    steps.push(S::Lacks("g1", "frightened"));
    steps.push(toughness("g1", 5));
    play(Scene {
        name: "fear of god",
        options: &[],
        cast: vec![cleric(&["fear_of_god"]), brenna(), gob("g1", -1)],
        steps,
    });
}

#[test]
fn holy_shield_gives_2_toughness_to_the_cleric_and_allies_within_10_ft() {
    let shield = || vec![("spell", t("holy_shield"))];
    play(Scene {
        name: "holy shield on the grid",
        options: &[],
        cast: vec![cleric(&["holy_shield"]), brenna(), aldric(), gob("g1", 0)],
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("brenna", 2, 0),
            S::Place("aldric", 3, 0),
            S::Place("g1", 1, 0),
            // Ties: the cleric and Brenna at reflex 1 (Brenna 2, the cleric 5), Aldric and the
            // goblin at 0 (6 and 3).
            S::Start(&[2, 5, 6, 3]),
            S::Order(&["cleric", "brenna", "aldric", "g1"]),
            // 1d5 (2) + level 3 = 5 rounds; Brenna 10 ft off, Aldric 15 ft; the goblin is no
            // ally.
            S::Act("cleric", "cast", shield(), &[2]),
            S::Res("cleric", "mp", 7),
            S::Magnitude("cleric", "holy_shield", 2),
            S::Magnitude("brenna", "holy_shield", 2),
            rounds("brenna", "holy_shield", 5),
            S::Lacks("aldric", "holy_shield"),
            S::Lacks("g1", "holy_shield"),
            S::PlayerHears("holy shield: +2 toughness for 5 rounds to brenna, cleric"),
            toughness("brenna", 11),
            // On the grid the area is measured, not named.
            S::Refused(
                "cleric",
                "cast",
                vec![("spell", t("holy_shield")), ("targets", t("aldric"))],
                "bad_request",
            ),
        ],
    });
    play(Scene {
        name: "holy shield off the grid",
        options: &[],
        cast: vec![cleric(&["holy_shield"]), brenna(), aldric()],
        steps: vec![
            // Brenna 2, the cleric 5; Aldric (reflex 0) last.
            S::Start(&[2, 5]),
            S::Order(&["cleric", "brenna", "aldric"]),
            // A player cannot vouch for distances the server cannot see.
            S::Refused(
                "cleric",
                "cast",
                vec![("spell", t("holy_shield")), ("targets", t("brenna"))],
                "rule: off the grid",
            ),
            S::Refused(
                "cleric",
                "cast",
                vec![
                    ("spell", t("holy_shield")),
                    ("targets", t("brenna")),
                    ("as_named", yes()),
                ],
                "forbidden",
            ),
            // The GM names Brenna as within 10 ft: 1d5 (4) + 3 rounds.
            S::GmAct(
                "cleric",
                "cast",
                vec![
                    ("spell", t("holy_shield")),
                    ("targets", t("brenna")),
                    ("as_named", yes()),
                ],
                &[4],
            ),
            S::Has("brenna", "holy_shield"),
            S::Has("cleric", "holy_shield"),
            S::Lacks("aldric", "holy_shield"),
            rounds("cleric", "holy_shield", 7),
        ],
    });
}

#[test]
fn mage_armour_adds_the_level_to_toughness_and_the_gms_caster_keeps_its_numbers() {
    play(Scene {
        name: "mage armour",
        options: &[],
        cast: vec![
            wizard(&["mage_armour"]),
            brenna(),
            shaman("magical", &["mage_armour"]),
        ],
        steps: vec![
            // Reflex: the shaman 3, the wizard 2, Brenna 1.
            S::Start(&[]),
            S::Order(&["shaman", "wizard", "brenna"]),
            S::Act("shaman", "end_turn", vec![], &[]),
            // On another: 3 MP of 12. +3 (level) toughness for 1d5 (1) + 3 rounds.
            S::Act("wizard", "cast", cast("mage_armour", "brenna"), &[1]),
            S::Res("wizard", "mp", 9),
            S::Magnitude("brenna", "mage_armour", 3),
            toughness("brenna", 12),
            S::PlayerHears("brenna is wrapped in mage armor: +3 toughness for 4 rounds"),
            S::Act("wizard", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            // The GM's shaman on itself: its level and its dice are the GM's.
            S::Act("shaman", "cast", vec![("spell", t("mage_armour"))], &[4]),
            dice_gm_alone("shaman", &[4]),
            S::Magnitude("shaman", "mage_armour", 3),
            rounds("shaman", "mage_armour", 7),
            S::GmOnly(&["+3 toughness for 7 rounds"]),
            S::PlayerNeverHears("rounds_left: Some(7)"),
            S::PlayerNeverHears("magnitude: 3"),
            S::PlayerNeverHears("armor"),
            toughness("shaman", 8),
        ],
    });
}

/// The wizard's Dumbstruck on a goblin, saved (8 + intellect 0 reaches spell save 8):
/// -1d5 (2) intellect for 1d10 (7) rounds, halved as the table rounds.
fn dumbstruck(options: &'static [(&'static str, &'static str)], left: u32) {
    play(Scene {
        name: "dumbstruck",
        options,
        cast: vec![wizard(&["dumbstruck"]), gob("g1", 0)],
        steps: vec![
            S::Start(&[]),
            S::Act("wizard", "cast", cast("dumbstruck", "g1"), &[8, 2, 7]),
            S::Magnitude("g1", "dumbstruck", -2),
            rounds("g1", "dumbstruck", left),
            S::Said("(saved: half the duration)"),
            // Its intellect rolls lose 2: 6 + 0 - 2 = 4 fails a T5 save.
            S::Gm(
                "save",
                vec![("target", t("g1")), ("attribute", t("intellect"))],
                &[6],
            ),
            S::Said("dumbstruck"),
            S::Said("fails to save"),
        ],
    });
}

/// A 1 on the rounds die: 1 round unsaved; saved, half of it rounds down to none at all.
#[test]
fn dumbstruck_for_1_round_lasts_it_and_a_save_halves_it_to_nothing() {
    for (save, lasts) in [(2, true), (8, false)] {
        let faces: &'static [u32] = if save == 2 { &[2, 3, 1] } else { &[8, 3, 1] };
        let mut steps = vec![
            S::Start(&[]),
            S::Act("wizard", "cast", cast("dumbstruck", "g1"), faces),
        ];
        if lasts {
            steps.push(rounds("g1", "dumbstruck", 1));
            steps.push(S::Said("g1 is dumbstruck: -3 intellect for 1 round"));
        } else {
            steps.push(S::Lacks("g1", "dumbstruck"));
            steps.push(S::Said(
                "g1 shakes off dumbstruck at once (saved: half the duration)",
            ));
        }
        play(Scene {
            name: "dumbstruck for 1 round",
            options: &[],
            cast: vec![wizard(&["dumbstruck"]), gob("g1", 0)],
            steps,
        });
    }
}

#[test]
fn a_dumbstruck_wizards_spell_save_drops_with_its_intellect() {
    play(Scene {
        name: "a dumbstruck caster",
        options: &[],
        cast: vec![wizard(&["dumbstruck"]), gob("g1", 0)],
        steps: vec![
            S::Start(&[]),
            // Intellect 2 - 2: the spell save 3 + 2 + 3 = 8 is 6.
            S::Give("wizard", "dumbstruck", -2),
            // g1's intellect save 6 + 0 reaches 6: half of 1d10 (7) rounds, 3.
            S::Act("wizard", "cast", cast("dumbstruck", "g1"), &[6, 2, 7]),
            S::Said("(saved: half the duration)"),
            rounds("g1", "dumbstruck", 3),
        ],
    });
}

#[test]
fn dumbstruck_takes_1d5_off_intellect_and_a_save_halves_its_rounds_down() {
    dumbstruck(&[], 3);
}

#[test]
fn option_halving_up_gives_a_saved_dumbstruck_4_of_7_rounds() {
    dumbstruck(&[("tinyd10.halving", "up")], 4);
}

#[test]
fn sunburst_blinds_every_creature_within_10_ft_of_its_target() {
    play(Scene {
        name: "sunburst",
        options: &[],
        cast: vec![
            cleric(&["sunburst"]),
            brenna(),
            gob("g1", 0),
            gob("g2", 0),
            gob("g3", 0),
        ],
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("g1", 3, 0),
            S::Place("g2", 5, 0),
            S::Place("g3", 6, 0),
            S::Place("brenna", 3, 2),
            // The cleric and Brenna tie at reflex 1 (5 and 2), the goblins at 0 (3, 2, 1).
            S::Start(&[2, 5, 3, 2, 1]),
            S::Order(&["cleric", "brenna", "g1", "g2", "g3"]),
            // Aspect save 3 + 0 against 9 fails: 1d10 (4) to g1; blinded 1d5 (2) rounds: g1,
            // Brenna and g2 (10 ft from g1), not g3 (15 ft) nor the cleric (15 ft).
            S::Act("cleric", "cast", cast("sunburst", "g1"), &[3, 4, 2]),
            S::Res("g1", "hp", 6),
            S::Res("cleric", "mp", 6),
            S::Magnitude("g1", "blinded", -2),
            S::Magnitude("g2", "blinded", -2),
            S::Magnitude("brenna", "blinded", -2),
            rounds("brenna", "blinded", 2),
            S::Lacks("g3", "blinded"),
            S::Lacks("cleric", "blinded"),
            S::PlayerHears("sunburst blinds brenna, g1, g2 for 2 rounds"),
        ],
    });
}

#[test]
fn turn_undead_hurts_the_undead_within_50_ft_that_fail_and_all_of_them_flee() {
    play(Scene {
        name: "turn undead",
        options: &[],
        cast: vec![
            cleric(&["turn_undead"]),
            undead("s1", -1),
            undead("s2", -2),
            undead("s3", -3),
            brenna(),
        ],
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("s1", 5, 0),
            S::Place("brenna", 6, 0),
            S::Place("s2", 9, 0),
            S::Place("s3", 11, 0),
            // Brenna and the cleric tie at reflex 1: 2 and 5, the cleric first.
            S::Start(&[2, 5]),
            // s1 (25 ft) saves 2 + 0 against 9: fails, 1 damage; s2 (45 ft) 9 + 0: saved. s3
            // is 55 ft off. Both flee 1d5 (3) rounds.
            S::Act("cleric", "cast", cast("turn_undead", "s1"), &[2, 9, 3]),
            S::Res("s1", "hp", 5),
            S::Res("s2", "hp", 6),
            rounds("s1", "fleeing", 3),
            rounds("s2", "fleeing", 3),
            S::Lacks("s3", "fleeing"),
            S::PlayerHears("s1, s2 flee cleric for 3 rounds"),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Refused(
                "s1",
                "attack",
                vec![("target", t("cleric"))],
                "rule: flees cleric",
            ),
            // Fleeing the cleric, it may still strike another: 1 + 2 misses Brenna's T9.
            S::Act("s1", "attack", vec![("target", t("brenna"))], &[1]),
            S::Res("brenna", "hp", 10),
        ],
    });
}

/// Who turn undead turns: on the grid the undead within 50 ft of the cleric, not a goblin
/// beside them, nor its own target when that stands farther; off it the target and the
/// undead the GM names.
#[test]
fn turn_undead_turns_the_undead_about_the_cleric_and_no_one_else() {
    let flee = |who: &'static str, yes: bool| {
        if yes {
            S::Has(who, "fleeing")
        } else {
            S::Lacks(who, "fleeing")
        }
    };
    let cast_list = vec![
        cleric(&["turn_undead"]),
        undead("s1", -1),
        undead("s2", -2),
        gob("g1", 0),
    ];
    // On the grid: s1 at 25 ft saves (9 + 0); the goblin at 15 ft is no undead; s2, the
    // target, 55 ft away, is out of it: 1d5 (3) rounds of flight for s1 alone.
    play(Scene {
        name: "turn undead on the grid",
        options: &[],
        cast: cast_list.clone(),
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("g1", 3, 0),
            S::Place("s1", 5, 0),
            S::Place("s2", 11, 0),
            S::Start(&[]),
            S::Act("cleric", "cast", cast("turn_undead", "s2"), &[9, 3]),
            flee("s1", true),
            flee("s2", false),
            flee("g1", false),
        ],
    });
    // Off the grid the GM names s2: s1, the target, and s2 both save and flee.
    play(Scene {
        name: "turn undead off the grid",
        options: &[],
        cast: cast_list,
        steps: vec![
            S::Start(&[]),
            S::GmAct(
                "cleric",
                "cast",
                vec![
                    ("spell", t("turn_undead")),
                    ("target", t("s1")),
                    ("targets", t("s2")),
                    ("as_named", yes()),
                ],
                &[9, 9, 3],
            ),
            flee("s1", true),
            flee("s2", true),
            flee("g1", false),
        ],
    });
}

/// The GM's evil shaman turns two undead of the party's; the one the cleric warded keeps its
/// ground, the other flees.
#[test]
fn a_ward_keeps_its_bearer_from_fleeing_turn_undead_and_not_the_others() {
    let ally = |id: &str, reflex: i64| with(undead(id, reflex), |v| v["side"] = json!("party"));
    play(Scene {
        name: "turn undead warded",
        options: &[],
        cast: vec![
            evil_shaman(&["turn_undead"]),
            cleric(&["ward_divine"]),
            ally("z1", -1),
            ally("z2", -2),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["shaman", "cleric", "z1", "z2"]),
            S::Act("shaman", "end_turn", vec![], &[]),
            S::Act("cleric", "cast", cast("ward_divine", "z1"), &[]),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("z1", "end_turn", vec![], &[]),
            S::Act("z2", "end_turn", vec![], &[]),
            // Both save (9 + 0 against 8); 1d5 (3) rounds of flight, for z2 alone.
            S::GmAct(
                "shaman",
                "cast",
                vec![
                    ("spell", t("turn_undead")),
                    ("target", t("z1")),
                    ("targets", t("z2")),
                    ("as_named", yes()),
                ],
                &[9, 9, 3],
            ),
            S::Lacks("z1", "fleeing"),
            S::Has("z2", "fleeing"),
        ],
    });
}

#[test]
fn holy_binds_take_the_turns_of_the_unholy_within_50_ft_for_the_level_in_rounds() {
    play(Scene {
        name: "holy binds",
        options: &[],
        cast: vec![cleric(&["holy_binds"]), gob("g1", 0), gob("g2", -1)],
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("g1", 10, 0),
            S::Place("g2", 11, 0),
            S::Start(&[]),
            // Goblins are evil: g1 (50 ft) bound for 3 rounds (level 3), g2 (55 ft) free.
            S::Act("cleric", "cast", vec![("spell", t("holy_binds"))], &[]),
            rounds("g1", "bound", 3),
            S::Lacks("g2", "bound"),
            S::Act("cleric", "end_turn", vec![], &[]),
            // g1's turn is passed over.
            S::Turn(Some("g2")),
        ],
    });
}

#[test]
fn time_stop_gives_the_wizard_alone_turns_for_1d5_rounds() {
    let mut steps = vec![
        S::Start(&[]),
        S::Order(&["wizard", "brenna", "g1"]),
        // 1d5 (2) rounds, this one counted.
        S::Act("wizard", "cast", vec![("spell", t("time_stop"))], &[2]),
        rounds("brenna", "time_stopped", 2),
        rounds("g1", "time_stopped", 2),
        S::Lacks("wizard", "time_stopped"),
        S::Act("wizard", "end_turn", vec![], &[]),
        S::Round(2),
        S::Turn(Some("wizard")),
    ];
    steps.extend(end(&["wizard"]));
    steps.extend([S::Round(3), S::Lacks("brenna", "time_stopped")]);
    steps.extend(end(&["wizard"]));
    steps.push(S::Turn(Some("brenna")));
    play(Scene {
        name: "time stop",
        options: &[],
        cast: vec![wizard(&["time_stop"]), brenna(), gob("g1", -1)],
        steps,
    });
}

#[test]
fn enchant_weapon_adds_1_to_attacks_and_2_to_damage_with_that_weapon_for_the_fight() {
    play(Scene {
        name: "enchant weapon",
        options: &[],
        cast: vec![wizard(&["enchant_weapon"]), brenna(), gob("g1", -1)],
        steps: vec![
            S::Start(&[]),
            S::Refused(
                "wizard",
                "cast",
                vec![
                    ("spell", t("enchant_weapon")),
                    ("target", t("brenna")),
                    ("weapon", t("longbow")),
                ],
                "bad_request",
            ),
            S::Act("wizard", "cast", cast("enchant_weapon", "brenna"), &[]),
            S::Res("wizard", "mp", 10),
            S::Act("wizard", "end_turn", vec![], &[]),
            // 2 + power 2 + 1 = 5 reaches T5 (4 would not); flail 2 + 1 (dwarf) + 2 = 5.
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[2],
            ),
            S::Said("enchant weapon"),
            S::Res("g1", "hp", 5),
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("brenna", "enchanted_weapon"),
        ],
    });
}

#[test]
fn ward_magical_keeps_a_foes_spell_effects_off_for_the_fight() {
    play(Scene {
        name: "ward",
        options: &[],
        cast: vec![
            wizard(&["ward_magical"]),
            brenna(),
            shaman("magical", &["dumbstruck"]),
        ],
        steps: vec![
            // Reflex: the shaman 3, the wizard 2, Brenna 1.
            S::Start(&[]),
            S::Act("shaman", "end_turn", vec![], &[]),
            // On another: 3 MP.
            S::Act("wizard", "cast", cast("ward_magical", "brenna"), &[]),
            S::Res("wizard", "mp", 9),
            S::Act("wizard", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            // No save is rolled: the ward turns the effect.
            S::Act("shaman", "cast", cast("dumbstruck", "brenna"), &[]),
            S::Said("resists the effects of a spell (ward)"),
            S::Lacks("brenna", "dumbstruck"),
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("brenna", "ward_magical"),
        ],
    });
}

#[test]
fn teleport_moves_the_wizard_up_to_200_ft_on_the_grid() {
    let to = |x| {
        vec![
            ("spell", t("teleport")),
            ("to", ArgValue::Cell(Cell::new(x, 0))),
        ]
    };
    play(Scene {
        name: "teleport",
        options: &[],
        cast: vec![wizard(&["teleport"])],
        steps: vec![
            S::Refused("wizard", "cast", to(4), "bad_request"),
            S::Place("wizard", 0, 0),
            S::Refused("wizard", "cast", to(41), "out_of_range"),
            S::Act("wizard", "cast", to(40), &[]),
            S::Check(Box::new(|p: &Played<'_>| {
                let c = p.state.combatant(&"wizard".into()).unwrap();
                assert_eq!(c.position, Some(Cell::new(40, 0)), "{}", p.at);
            })),
            S::Res("wizard", "mp", 10),
        ],
    });
}

#[test]
fn burning_touch_2_strikes_two_unholy_for_3_mp_each() {
    play(Scene {
        name: "burning touch ii",
        options: &[],
        cast: vec![
            cleric(&["burning_touch_2"]),
            gob("g1", 0),
            gob("g2", 0),
            gob("g3", 0),
        ],
        steps: vec![
            S::Refused(
                "cleric",
                "cast",
                cast_on("burning_touch_2", "g1", "g1,g2,g3"),
                "bad_request: at most 2",
            ),
            S::Refused(
                "cleric",
                "cast",
                cast_on("burning_touch_2", "g1", "g1,g1"),
                "bad_request",
            ),
            // 2 x 3 MP of 10; 1d5 + 3 each: 2 + 3 and 4 + 3.
            S::Act(
                "cleric",
                "cast",
                cast_on("burning_touch_2", "g1", "g1,g2"),
                &[2, 4],
            ),
            S::Res("cleric", "mp", 4),
            S::Res("g1", "hp", 5),
            S::Res("g2", "hp", 3),
            // 4 MP left, 6 needed.
            S::Refused(
                "cleric",
                "cast",
                cast_on("burning_touch_2", "g1", "g1,g3"),
                "insufficient_resource",
            ),
            // One target: 3 MP.
            S::Act("cleric", "cast", cast("burning_touch_2", "g3"), &[1]),
            S::Res("g3", "hp", 6),
            S::Res("cleric", "mp", 1),
        ],
    });
}

/// Healing wave on Brenna (5 of 10 HP) and Aldric (2 of 6), within 20 ft of the cleric.
fn wave(options: &'static [(&'static str, &'static str)], faces: &'static [u32], aldric_hp: i64) {
    play(Scene {
        name: "healing wave",
        options,
        cast: vec![
            cleric(&["healing_wave"]),
            with(brenna(), |v| v["hp"] = json!(5)),
            with(aldric(), |v| v["hp"] = json!(2)),
            gob("g1", 0),
            gob("g2", 0),
        ],
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("brenna", 4, 0),
            S::Place("aldric", 0, 4),
            S::Place("g1", 5, 0),
            S::Place("g2", 1, 1),
            // Brenna 25 ft off: too far.
            S::Refused(
                "cleric",
                "cast",
                cast_on("healing_wave", "brenna", "aldric,g1"),
                "out_of_range",
            ),
            // Level 3: at most three.
            S::Refused(
                "cleric",
                "cast",
                cast_on("healing_wave", "aldric", "aldric,g2,cleric,brenna"),
                "bad_request: at most 3",
            ),
            S::Place("brenna", 3, 0),
            S::Act(
                "cleric",
                "cast",
                cast_on("healing_wave", "brenna", "brenna,aldric"),
                faces,
            ),
            S::Res("brenna", "hp", 8),
            S::Res("aldric", "hp", aldric_hp),
            S::Res("cleric", "mp", 8),
        ],
    });
}

#[test]
fn healing_wave_heals_up_to_the_level_in_creatures_within_20_ft_with_one_roll() {
    // 1d5 (3) for both.
    wave(&[], &[3], 5);
}

#[test]
fn option_area_dice_each_rolls_healing_wave_for_each_creature() {
    wave(&[("tinyd10.area_dice", "each")], &[3, 1], 3);
}

/// Fireball II at g1 (25 ft off) on g1, g2 and g3 (10 ft from g1).
fn fireball(options: &'static [(&'static str, &'static str)], faces: &'static [u32], g3_hp: i64) {
    play(Scene {
        name: "fireball ii",
        options,
        cast: vec![
            wizard(&["fireball_2"]),
            gob("g1", 0),
            gob("g2", 0),
            gob("g3", 0),
            gob("g4", 0),
        ],
        steps: vec![
            S::Refused(
                "wizard",
                "cast",
                cast_on("fireball_2", "g1", "g1,g2"),
                "rule: off the grid",
            ),
            S::Place("wizard", 0, 0),
            S::Place("g1", 5, 0),
            S::Place("g2", 6, 0),
            S::Place("g3", 7, 0),
            S::Place("g4", 8, 0),
            // g4 is 15 ft from g1.
            S::Refused(
                "wizard",
                "cast",
                cast_on("fireball_2", "g1", "g1,g4"),
                "out_of_range",
            ),
            // An attack roll each, intellect 2 against T5: g1 3 hits, g2 1 misses, g3 6 hits.
            S::Act(
                "wizard",
                "cast",
                cast_on("fireball_2", "g1", "g1,g2,g3"),
                faces,
            ),
            S::Res("g1", "hp", 6),
            S::Res("g2", "hp", 10),
            S::Res("g3", "hp", g3_hp),
            S::Res("wizard", "mp", 10),
        ],
    });
}

#[test]
fn fireball_2_rolls_an_attack_for_each_of_up_to_five_creatures_near_its_target() {
    // 1d5 (4) for every creature struck.
    fireball(&[], &[3, 4, 1, 6], 6);
}

#[test]
fn option_area_dice_each_rolls_fireball_2_damage_for_each_creature_struck() {
    fireball(&[("tinyd10.area_dice", "each")], &[3, 4, 1, 6, 2], 8);
}

/// Off the grid a list of the area's creatures is the GM's word (`as_named`); without it the
/// refusal says how far the area reaches, about whom. A spell with no area takes no list.
#[test]
fn off_the_grid_an_areas_list_needs_the_gms_word_and_its_reach_is_said() {
    let cases: [(&str, &str); 7] = [
        (
            "holy_shield",
            "rule: off the grid the server cannot tell who is within 10 ft",
        ),
        (
            "holy_binds",
            "rule: off the grid the server cannot tell who is within 50 ft",
        ),
        (
            "turn_undead",
            "rule: off the grid the server cannot tell who is within 50 ft",
        ),
        (
            "sunburst",
            "rule: off the grid the server cannot tell who is within 10 ft",
        ),
        // 10 ft a level: the cleric is level 3.
        (
            "consecrate",
            "rule: off the grid the server cannot tell who is within 30 ft",
        ),
        (
            "cataclysm",
            "rule: off the grid the server cannot tell who is within 100 ft",
        ),
        (
            "fear_of_god",
            "bad_request: argument `targets` this spell names no creatures besides its target",
        ),
    ];
    for (spell, refusal) in cases {
        let mut args = vec![
            ("spell", t(spell)),
            ("target", t("g1")),
            ("targets", t("g2")),
        ];
        if spell == "cataclysm" {
            args.push(("kind", t("earthquake")));
        }
        play(Scene {
            name: spell,
            options: &[],
            cast: vec![cleric(&[spell]), gob("g1", 0), gob("g2", -1)],
            steps: vec![S::Start(&[]), S::Refused("cleric", "cast", args, refusal)],
        });
    }
}

#[test]
fn the_gm_names_an_areas_creatures_off_the_grid() {
    play(Scene {
        name: "fireball ii off the grid",
        options: &[],
        cast: vec![wizard(&["fireball_2"]), gob("g1", 0), gob("g2", 0)],
        steps: vec![
            S::GmAct(
                "wizard",
                "cast",
                vec![
                    ("spell", t("fireball_2")),
                    ("target", t("g1")),
                    ("targets", t("g1,g2")),
                    ("as_named", yes()),
                ],
                &[5, 2, 5],
            ),
            S::Res("g1", "hp", 8),
            S::Res("g2", "hp", 8),
        ],
    });
}

/// A wizard with or without Multi-cast casting Fireball I: the same 2 MP.
fn multi(ability: &'static str) {
    play(Scene {
        name: "multi-cast",
        options: &[],
        cast: vec![
            wizard_with("wizard", ability, &["fireball_1"]),
            gob("g1", 0),
        ],
        steps: vec![
            S::Act("wizard", "cast", cast("fireball_1", "g1"), &[1]),
            S::Res("wizard", "mp", 10),
        ],
    });
}

#[test]
fn multi_cast_changes_nothing_the_book_offers() {
    // The book has only divine and magical spells, and a wizard may not cast divine ones:
    // Multi-cast's "other types" are not in it.
    multi("multi_cast");
    multi("war_mage");
    let bad = with(wizard_with("wizard", "multi_cast", &[]), |v| {
        v["spells"] = json!(["heal", "divine_medicine"])
    });
    assert!(
        crate::system::RuleSystem::sheet_from_json(&super::super::TinyD10, &bad).is_err(),
        "a wizard knows no divine spell, Multi-cast or not"
    );
}

/// Two wizards: `wizard` casts Fireball I; `copier` imprints it and casts it.
fn imprint(options: &'static [(&'static str, &'static str)], mp_left: Option<i64>) {
    let imprint = |what: &'static str| vec![("spell", t("imprint_spell")), ("imprint", t(what))];
    let mut steps = vec![
        // Reflex 2 each: the tie-break 5 for the copier, 3 for the wizard.
        S::Start(&[5, 3]),
        S::Order(&["copier", "wizard", "g1", "shaman"]),
        S::Act("copier", "end_turn", vec![], &[]),
        // A miss (1 + 2 against T5) is still a spell cast this fight.
        S::Act("wizard", "cast", cast("fireball_1", "g1"), &[1]),
        S::Act("wizard", "end_turn", vec![], &[]),
        S::Act("g1", "end_turn", vec![], &[]),
        // The GM's shaman casts Heal: what it cast is the GM's.
        S::Act("shaman", "cast", cast("heal", "shaman"), &[1]),
        S::Act("shaman", "end_turn", vec![], &[]),
        S::Refused("copier", "cast", imprint("heal"), "rule"),
        S::Refused("copier", "cast", imprint("charm"), "rule: nobody"),
    ];
    match mp_left {
        None => steps.push(S::Refused(
            "copier",
            "cast",
            imprint("fireball_1"),
            "rule: tinyd10.imprint_cost",
        )),
        Some(left) => steps.extend([
            S::Act("copier", "cast", imprint("fireball_1"), &[]),
            S::Res("copier", "mp", left),
            S::Has("copier", "imprinted"),
            S::Act("copier", "end_turn", vec![], &[]),
            S::Act("wizard", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("shaman", "end_turn", vec![], &[]),
            // Cast at its cost, 2: 6 + 2 hits T5, 1d5 (1) + 1.
            S::Act("copier", "cast", cast("fireball_1", "g1"), &[6, 1]),
            S::Res("copier", "mp", left - 2),
            S::Res("g1", "hp", 8),
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("copier", "imprinted"),
        ]),
    }
    play(Scene {
        name: "imprint spell",
        options,
        cast: vec![
            wizard_with("copier", "war_mage", &["imprint_spell"]),
            wizard(&["fireball_1"]),
            gob("g1", 0),
            with(shaman("magical", &["heal"]), |v| {
                v["stats"]["reflex"] = json!(-1)
            }),
        ],
        steps,
    });
}

#[test]
fn imprint_spell_has_no_cost_in_the_text_and_is_refused_until_the_table_sets_one() {
    imprint(&[], None);
}

#[test]
fn option_imprint_cost_two_lets_a_wizard_learn_a_spell_cast_this_fight() {
    imprint(&[("tinyd10.imprint_cost", "two")], Some(10));
}

/// The copier's 12 MP: one costs 1, free costs nothing.
#[test]
fn option_imprint_cost_one_or_free_takes_that_much() {
    imprint(&[("tinyd10.imprint_cost", "one")], Some(11));
    imprint(&[("tinyd10.imprint_cost", "free")], Some(12));
}

/// What Imprint spell may copy: the magical spells cast in this fight, each remembered once.
#[test]
fn imprint_remembers_each_magical_spell_cast_in_the_fight_and_nothing_else() {
    let spells_cast = |want: &'static str| {
        S::Check(Box::new(move |p: &Played<'_>| {
            let c = p.state.combatant(&"wizard".into()).unwrap();
            let got = c.statuses.get("spells_cast").map(|s| s.source.as_str());
            assert_eq!(got, Some(want), "{}", p.at);
        }))
    };
    let mut steps = vec![
        // Before the fight: a miss (1 + 2 against T5) that is not remembered.
        S::Act("wizard", "cast", cast("fireball_1", "g1"), &[1]),
        S::Lacks("wizard", "spells_cast"),
        S::Start(&[5, 3]),
        S::Order(&["copier", "wizard", "cleric", "g1"]),
        S::Act("copier", "end_turn", vec![], &[]),
        S::Act("wizard", "cast", cast("fireball_1", "g1"), &[1]),
        S::Act("wizard", "end_turn", vec![], &[]),
        // A divine spell is not one to imprint: not remembered.
        S::Act("cleric", "cast", cast("fear_of_god", "g1"), &[2]),
        S::Lacks("cleric", "spells_cast"),
    ];
    steps.extend(end(&["cleric", "g1", "copier"]));
    steps.extend([
        S::Act("wizard", "cast", cast("magic_missile_1", "g1"), &[1]),
        spells_cast("fireball_1,magic_missile_1"),
    ]);
    steps.extend(end(&["wizard", "cleric", "g1"]));
    steps.extend([
        S::Act(
            "copier",
            "cast",
            vec![
                ("spell", t("imprint_spell")),
                ("imprint", t("magic_missile_1")),
            ],
            &[],
        ),
        S::Has("copier", "imprinted"),
    ]);
    play(Scene {
        name: "imprint: what is remembered",
        options: &[("tinyd10.imprint_cost", "free")],
        cast: vec![
            wizard_with("copier", "war_mage", &["imprint_spell"]),
            wizard(&["fireball_1", "magic_missile_1"]),
            cleric(&["fear_of_god"]),
            gob("g1", 0),
        ],
        steps,
    });
}

#[test]
fn the_gms_casters_rounds_and_level_sized_damage_are_rolled_for_the_gm_alone() {
    let mut steps = vec![
        // The shaman (reflex 3) first, then Brenna (1), then s1 (-1).
        S::Start(&[]),
        S::Order(&["shaman", "brenna", "s1"]),
        // Fear of God on Brenna: 1d5 (4) rounds, a length the GM keeps. Its face would be the
        // length itself: it reaches the GM alone (still committed to, as every hidden die).
        S::Act("shaman", "cast", cast("fear_of_god", "brenna"), &[4]),
        rounds("brenna", "frightened", 4),
        dice_gm_alone("shaman", &[4]),
        S::PlayerNeverHears("Some(4)"),
        S::Has("brenna", "frightened"),
    ];
    steps.extend(end(&["shaman", "brenna", "s1"]));
    steps.extend([
        // Burning touch II on the undead s1: 1d5 (2) + level 3 = 5 of its 6 HP. The total is
        // the damage's; the face beside it would give the level (5 - 2 = 3): the GM's alone.
        S::Act("shaman", "cast", cast("burning_touch_2", "s1"), &[2]),
        S::Res("s1", "hp", 1),
        dice_gm_alone("shaman", &[2]),
        // 12 MP - 2 - 3.
        S::Res("shaman", "mp", 7),
    ]);
    play(Scene {
        name: "the gm's caster's dice",
        options: &[],
        cast: vec![
            shaman("divine", &["fear_of_god", "burning_touch_2"]),
            brenna(),
            undead("s1", -1),
        ],
        steps,
    });
}

#[test]
fn lasting_spells_are_refused_out_of_a_fight_and_what_counts_rounds_goes_when_it_ends() {
    let spell = |id: &'static str| vec![("spell", t(id))];
    let mut steps = vec![
        // Out of a fight no round ends: a spell counted in rounds, or for the fight, is
        // refused (nothing spent), while one over at once is not.
        S::Refused(
            "wizard",
            "cast",
            spell("time_stop"),
            "rule: rounds are counted only in a fight",
        ),
        S::Refused(
            "wizard",
            "cast",
            cast("enchant_weapon", "brenna"),
            "rule: Enchant weapon lasts the fight",
        ),
        S::Place("wizard", 0, 0),
        S::Act(
            "wizard",
            "cast",
            vec![
                ("spell", t("teleport")),
                ("to", ArgValue::Cell(Cell::new(1, 0))),
            ],
            &[],
        ),
        // Reflex: the wizard 2, Brenna 1, g1 -1.
        S::Start(&[]),
        S::Order(&["wizard", "brenna", "g1"]),
        // Mage armor on itself: 2 MP, 1d5 (1) + 3 = 4 rounds.
        S::Act("wizard", "cast", spell("mage_armour"), &[1]),
        rounds("wizard", "mage_armour", 4),
    ];
    steps.extend(end(&["wizard", "brenna", "g1"]));
    steps.extend([
        // Round 2: Time stop, 4 MP, 1d5 (3) rounds on Brenna and g1.
        S::Act("wizard", "cast", spell("time_stop"), &[3]),
        rounds("brenna", "time_stopped", 3),
        rounds("g1", "time_stopped", 3),
        S::Give("g1", "dazed", -1),
        // 12 MP - 2 (teleport) - 2 - 4.
        S::Res("wizard", "mp", 4),
        // The fight ends with rounds left on all of them: they go with it.
        S::Gm("end_encounter", vec![], &[]),
        S::Lacks("wizard", "mage_armour"),
        S::Lacks("brenna", "time_stopped"),
        S::Lacks("g1", "time_stopped"),
        S::Lacks("g1", "dazed"),
        // The next fight: Brenna takes her turn.
        S::Start(&[]),
        S::Act("wizard", "end_turn", vec![], &[]),
        S::Turn(Some("brenna")),
    ]);
    play(Scene {
        name: "lasting spells and the fight",
        options: &[],
        cast: vec![
            wizard(&["time_stop", "mage_armour", "enchant_weapon", "teleport"]),
            brenna(),
            gob("g1", -1),
        ],
        steps,
    });
}

#[test]
fn wards_and_resist_magic_spare_each_creature_of_an_area_not_only_the_target() {
    let mut steps = vec![
        // Reflex: the shaman 3, the wizard 2, Brenna 1, Aldric 0.
        S::Start(&[]),
        S::Order(&["shaman", "wizard", "brenna", "aldric"]),
        S::Act("shaman", "end_turn", vec![], &[]),
        // Ward (magical) on Brenna: 3 MP on another.
        S::Act("wizard", "cast", cast("ward_magical", "brenna"), &[]),
    ];
    steps.extend(end(&["wizard", "brenna", "aldric"]));
    steps.extend([
        // The GM's Time stop: 1d5 (2) rounds. Brenna's ward keeps it off her; the wizard's
        // Resist magic is a challenge of its own, 6 + intellect 2 = 8 against the shaman's
        // 3 + 2 = 5: won, not frozen. Aldric has neither: frozen.
        S::Act(
            "shaman",
            "cast",
            vec![("spell", t("time_stop"))],
            &[2, 6, 3],
        ),
        S::Lacks("brenna", "time_stopped"),
        S::Lacks("wizard", "time_stopped"),
        S::Has("aldric", "time_stopped"),
        // The players' creatures resisting are told to the table, the spell as "a spell".
        S::PlayerHears("brenna resists the effects of a spell (ward)"),
        S::PlayerHears("wizard resists the effects of a spell (resist magic)"),
        S::PlayerNeverHears("ime stop"),
        // The wizard acts in its turn; Aldric's is passed over.
        S::Act("shaman", "end_turn", vec![], &[]),
        S::Turn(Some("wizard")),
    ]);
    play(Scene {
        name: "wards and resist magic in an area",
        options: &[],
        cast: vec![
            shaman("magical", &["time_stop"]),
            wizard_with("wizard", "resist_magic", &["ward_magical"]),
            brenna(),
            aldric(),
        ],
        steps,
    });
}

#[test]
fn a_players_enchant_weapon_cannot_probe_what_the_gms_creature_carries() {
    let enchant = |weapon: &'static str| {
        vec![
            ("spell", t("enchant_weapon")),
            ("target", t("g1")),
            ("weapon", t(weapon)),
        ]
    };
    play(Scene {
        name: "enchant weapon and the gm's creatures",
        options: &[],
        cast: vec![
            wizard(&["enchant_weapon"]),
            shaman("magical", &["enchant_weapon"]),
            gob("g1", -1),
        ],
        steps: vec![
            // Reflex: the shaman 3, the wizard 2, g1 -1.
            S::Start(&[]),
            S::Act("shaman", "end_turn", vec![], &[]),
            // The goblin carries a rusty blade and no longbow: the same refusal for both, and
            // for none named (no MP spent: the runner checks nothing changed).
            S::Refused(
                "wizard",
                "cast",
                enchant("rusty_blade"),
                "rule: what g1 carries is the GM's",
            ),
            S::Refused(
                "wizard",
                "cast",
                enchant("longbow"),
                "rule: what g1 carries is the GM's",
            ),
            S::Refused(
                "wizard",
                "cast",
                cast("enchant_weapon", "g1"),
                "rule: what g1 carries is the GM's",
            ),
            S::Act("wizard", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // The GM's shaman enchants its goblin's first weapon: the line naming it, and the
            // status, are the GM's alone.
            S::Act("shaman", "cast", cast("enchant_weapon", "g1"), &[]),
            S::Has("g1", "enchanted_weapon"),
            S::Said("g1's rusty_blade is enchanted"),
            S::PlayerNeverHears("rusty"),
            S::PlayerNeverHears("enchanted_weapon"),
        ],
    });
}

#[test]
fn by_will_alone_keeps_the_gms_list_of_an_areas_creatures() {
    play(Scene {
        name: "by will alone and an area off the grid",
        options: &[],
        cast: vec![
            shaman("divine", &["sunburst"]),
            // PP 8, HP 9.
            super::abilities::hero("warrior", "human", "power", "by_will_alone", &[]),
            brenna(),
        ],
        steps: vec![
            // The shaman (reflex 3) first.
            S::Start(&[2, 5]),
            // Off the grid the GM names Brenna as within 10 ft of the warrior.
            S::Act(
                "shaman",
                "cast",
                vec![
                    ("spell", t("sunburst")),
                    ("target", t("warrior")),
                    ("targets", t("brenna")),
                    ("as_named", yes()),
                ],
                &[],
            ),
            S::Asked("by will alone"),
            // The GM's list is not in what the warrior's seat is shown.
            S::PlayerNeverHears("brenna"),
            // Resisted (2 PP): the aspect save 1 + 0 misses the spell save 3 + 2 + 3 = 8, the
            // 1d10 (4) damage lands; the blinding, 1d5 (2) rounds, spares the warrior and
            // reaches Brenna, as the GM named her.
            S::Answer("resist", &[1, 4, 2]),
            S::Res("warrior", "pp", 6),
            S::Res("warrior", "hp", 5),
            S::Lacks("warrior", "blinded"),
            S::Has("brenna", "blinded"),
        ],
    });
}

#[test]
fn healing_wave_on_its_target_alone_off_the_grid_is_judged_as_heal_is() {
    play(Scene {
        name: "healing wave off the grid",
        options: &[],
        cast: vec![
            cleric(&["healing_wave"]),
            with(brenna(), |v| v["hp"] = json!(5)),
            aldric(),
        ],
        steps: vec![
            // No list: Brenna alone, 1d5 (3): 5 + 3 = 8 HP; 2 MP of 10.
            S::Act("cleric", "cast", cast("healing_wave", "brenna"), &[3]),
            S::Res("brenna", "hp", 8),
            S::Res("cleric", "mp", 8),
            // A player's list off the grid is still refused: the server cannot measure it.
            S::Refused(
                "cleric",
                "cast",
                cast_on("healing_wave", "brenna", "brenna,aldric"),
                "rule: off the grid",
            ),
        ],
    });
}

#[test]
fn time_stop_holds_a_dying_creatures_count_while_it_is_frozen() {
    let mut steps = vec![
        // Reflex: g1 3, the wizard 2, Aldric 0.
        S::Start(&[]),
        S::Order(&["g1", "wizard", "aldric"]),
        // 6 + 1 = 7 reaches Aldric's T7: 1 damage of his 1 HP, dying in round 1.
        S::Act(
            "g1",
            "attack",
            vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
            &[6],
        ),
        S::Has("aldric", "dying"),
        S::Act("g1", "end_turn", vec![], &[]),
        // Time stop, 1d5 (3) rounds: rounds 1 to 3.
        S::Act("wizard", "cast", vec![("spell", t("time_stop"))], &[3]),
        rounds("aldric", "time_stopped", 3),
        // Round 1, the drop's, does not count: 5 left.
        S::Act("wizard", "end_turn", vec![], &[]),
        rounds("aldric", "dying", 5),
    ];
    // Rounds 2 and 3: the wizard alone acts, and Aldric's count stands still.
    steps.extend(end(&["wizard", "wizard"]));
    steps.extend([
        rounds("aldric", "dying", 5),
        S::Lacks("aldric", "time_stopped"),
    ]);
    // Round 4: time runs again, and so does his count.
    steps.extend(end(&["g1", "wizard"]));
    steps.push(rounds("aldric", "dying", 4));
    play(Scene {
        name: "time stop and the dying",
        options: &[],
        cast: vec![
            wizard(&["time_stop"]),
            with(aldric(), |v| v["hp"] = json!(1)),
            gob("g1", 3),
        ],
        steps,
    });
}

#[test]
fn arcane_knowledge_takes_one_off_imprint_spells_table_set_cost() {
    play(Scene {
        name: "imprint spell and arcane knowledge",
        options: &[("tinyd10.imprint_cost", "two")],
        cast: vec![
            wizard_with("copier", "arcane_knowledge", &["imprint_spell"]),
            wizard(&["fireball_1"]),
            gob("g1", 0),
        ],
        steps: vec![
            // Reflex 2 each: the tie-break 5 for the copier, 3 for the wizard.
            S::Start(&[5, 3]),
            S::Order(&["copier", "wizard", "g1"]),
            S::Act("copier", "end_turn", vec![], &[]),
            // A miss (1 + 2 against T5) is still a spell cast this fight.
            S::Act("wizard", "cast", cast("fireball_1", "g1"), &[1]),
            S::Act("wizard", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // The table's 2, less 1 for Arcane knowledge: 12 - 1 = 11.
            S::Act(
                "copier",
                "cast",
                vec![("spell", t("imprint_spell")), ("imprint", t("fireball_1"))],
                &[],
            ),
            S::Res("copier", "mp", 11),
        ],
    });
}

fn kind_cast(
    spell: &'static str,
    target: &'static str,
    kind: &'static str,
) -> Vec<(&'static str, ArgValue)> {
    vec![
        ("spell", t(spell)),
        ("target", t(target)),
        ("kind", t(kind)),
    ]
}

fn moves(x: i32, y: i32) -> Vec<(&'static str, ArgValue)> {
    vec![("to", ArgValue::Cell(Cell::new(x, y)))]
}

#[test]
fn consecrate_burns_the_unholy_within_10_ft_a_level_each_round_at_1_off_attacks_and_toughness() {
    let mut steps = vec![
        // Level 3: 30 ft. g1 stands 30 ft off, g2 35 ft; Brenna is no unholy creature.
        S::Place("cleric", 0, 0),
        S::Place("brenna", 1, 0),
        S::Place("g1", 6, 0),
        S::Place("g2", 7, 0),
        // Brenna 2, the cleric 5: the cleric first; the goblins by reflex.
        S::Start(&[2, 5]),
        S::Order(&["cleric", "brenna", "g1", "g2"]),
        // 3 MP of 10; 1d5 (2) hours.
        S::Act("cleric", "cast", vec![("spell", t("consecrate"))], &[2]),
        S::Res("cleric", "mp", 7),
        S::Magnitude("g1", "holy_ground", -1),
        // The player's ground: her seat sees the GM's creature standing in it.
        S::Check(Box::new(|p: &Played<'_>| {
            let seen = p
                .last
                .iter()
                .filter_map(|e| e.view(&crate::ids::Seat::Player("p1".into())))
                .flat_map(|e| e.parts)
                .any(|part| matches!(part.fact, crate::event::Fact::StatusSet { ref entity, ref status, .. } if entity.0 == "g1" && status == "holy_ground"));
            assert!(seen, "{}", p.at);
        })),
        S::Lacks("g2", "holy_ground"),
        S::Lacks("brenna", "holy_ground"),
        S::Has("cleric", "consecrated_ground"),
        S::PlayerHears(
            "cleric consecrates the ground within 30 ft for 2 hours: the unholy in it (g1) take 1 damage each round, -1 to attacks and toughness",
        ),
        // T5 - 1 = 4; g2 keeps its 5.
        toughness("g1", 4),
        toughness("g2", 5),
        S::Act("cleric", "end_turn", vec![], &[]),
        S::Act("brenna", "end_turn", vec![], &[]),
        // g1: 8 + power 1 - 1 = 8 misses Brenna's T9 (a 9 without the ground).
        S::Act("g1", "attack", vec![("target", t("brenna"))], &[8]),
        S::Said("holy ground"),
        S::Res("brenna", "hp", 10),
        S::Act("g1", "end_turn", vec![], &[]),
        // The round ends: 1 damage to g1 (10 - 1), none to g2 outside; no die.
        S::Act("g2", "end_turn", vec![], &[]),
        S::Res("g1", "hp", 9),
        S::Res("g2", "hp", 10),
        S::Damage(&[("holy ground", 1)], 1),
        S::Round(2),
    ];
    steps.extend(end(&["cleric", "brenna"]));
    steps.extend([
        // g1 steps out (40 ft): the penalties go with it, and the round's end spares it.
        S::Act("g1", "move", moves(8, 0), &[]),
        S::Lacks("g1", "holy_ground"),
        toughness("g1", 5),
        S::Act("g1", "end_turn", vec![], &[]),
        S::Act("g2", "end_turn", vec![], &[]),
        S::Round(3),
        S::Res("g1", "hp", 9),
        // The hours outlast the fight: the ground stays on the cleric.
        S::Gm("end_encounter", vec![], &[]),
        S::Has("cleric", "consecrated_ground"),
    ]);
    play(Scene {
        name: "consecrate on the grid",
        options: &[],
        cast: vec![
            cleric(&["consecrate"]),
            brenna(),
            gob("g1", -1),
            gob("g2", -2),
        ],
        steps,
    });
}

#[test]
fn consecrate_off_the_grid_burns_the_unholy_the_gm_names_and_outlasts_a_fight() {
    let named = |as_named: bool| {
        let mut v = vec![("spell", t("consecrate")), ("targets", t("g1"))];
        if as_named {
            v.push(("as_named", yes()));
        }
        v
    };
    play(Scene {
        name: "consecrate off the grid",
        options: &[],
        cast: vec![cleric(&["consecrate"]), gob("g1", -1), gob("g2", -2)],
        steps: vec![
            // Hours, not rounds: cast before the fight. A player cannot say who is within.
            S::Refused("cleric", "cast", named(false), "rule: off the grid"),
            S::Refused("cleric", "cast", named(true), "forbidden"),
            // The GM names g1 within; 1d5 (3) hours.
            S::GmAct("cleric", "cast", named(true), &[3]),
            S::Has("g1", "holy_ground"),
            S::Lacks("g2", "holy_ground"),
            S::PlayerHears("for 3 hours"),
            // Reflex: the cleric 1, g1 -1, g2 -2. The first round's end burns g1 alone.
            S::Start(&[]),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("g2", "end_turn", vec![], &[]),
            S::Res("g1", "hp", 9),
            S::Res("g2", "hp", 10),
            // The fight over, time runs its hours down: 17 dungeon turns of 10 minutes leave
            // 10 of the 180 minutes; one more ends it, and g1 stands on common ground.
            S::Gm("end_encounter", vec![], &[]),
            S::Has("g1", "holy_ground"),
            S::Gm("advance_time", vec![("turns", n(17))], &[]),
            S::Magnitude("cleric", "consecrated_ground", 10),
            S::Gm("advance_time", vec![], &[]),
            S::Lacks("cleric", "consecrated_ground"),
            S::Lacks("g1", "holy_ground"),
            S::Said("the ground cleric consecrated is holy no more"),
        ],
    });
}

#[test]
fn cataclysm_earthquake_strikes_all_but_the_casters_side_within_100_ft_each_round() {
    let mut steps = vec![
        S::Place("cleric", 0, 0),
        S::Place("brenna", 1, 0),
        // g1 50 ft from the cleric; g2 100 ft from g1, g3 105 ft.
        S::Place("g1", 10, 0),
        S::Place("g2", 30, 0),
        S::Place("g3", 31, 0),
        S::Start(&[2, 5]),
        S::Order(&["cleric", "brenna", "g1", "g2", "g3"]),
        // Its kind is needed, one of the three, and taken by Cataclysm alone.
        S::Refused(
            "cleric",
            "cast",
            cast("cataclysm", "g1"),
            "bad_request: argument `kind` Cataclysm needs its kind",
        ),
        S::Refused(
            "cleric",
            "cast",
            kind_cast("cataclysm", "g1", "tsunami"),
            "bad_request: argument `kind` `tsunami` must be one of earthquake, firestorm, flooding",
        ),
        S::Refused(
            "cleric",
            "cast",
            kind_cast("fear_of_god", "g1", "earthquake"),
            "bad_request: only Cataclysm",
        ),
        // 5 MP of 10; 1d10 (2) + level 3 = 5 rounds. g1 and g2 are in it; g3 is not, nor
        // Brenna and the cleric (the caster's side is immune).
        S::Act(
            "cleric",
            "cast",
            kind_cast("cataclysm", "g1", "earthquake"),
            &[2],
        ),
        S::Res("cleric", "mp", 5),
        rounds("cleric", "cataclysm", 5),
        S::Magnitude("g1", "quaking", -1),
        S::Magnitude("g2", "quaking", -1),
        S::Lacks("g3", "quaking"),
        S::Lacks("brenna", "quaking"),
        S::Lacks("cleric", "quaking"),
        S::PlayerHears(
            "a cataclysm (earthquake) rages within 100 ft of g1 for 5 rounds: each round g1, g2 make a power save or take 1 damage; -1 to attacks and toughness",
        ),
        // T5 - 1.
        toughness("g1", 4),
        toughness("g3", 5),
        S::Act("cleric", "end_turn", vec![], &[]),
        S::Act("brenna", "end_turn", vec![], &[]),
        // g1 at the cleric: 5 + power 1 - 1 = 5 misses T6 (a 6 would hit without it).
        S::Act("g1", "attack", vec![("target", t("cleric"))], &[5]),
        S::Said("earthquake"),
        S::Res("cleric", "hp", 9),
        S::Act("g1", "end_turn", vec![], &[]),
        S::Act("g2", "end_turn", vec![], &[]),
        // The round's end: power saves against the spell save 9. g1 7 + 1 = 8 fails: 1
        // damage; g2 8 + 1 = 9 saves. g3 rolls nothing.
        S::Act("g3", "end_turn", vec![], &[7, 8]),
        // No firestorm step in an earthquake's damage.
        S::Damage(&[("cataclysm", 1)], 1),
        S::Res("g1", "hp", 9),
        S::Res("g2", "hp", 10),
        // Saved: no damage at all is told for g2, not even a 0.
        S::Check(Box::new(|p: &Played<'_>| {
            let hit = p
                .last
                .iter()
                .flat_map(crate::event::Event::facts)
                .any(|f| matches!(f, crate::event::Fact::DamageResolved { target, .. } if target.0 == "g2"));
            assert!(!hit, "{}", p.at);
        })),
        S::Res("g3", "hp", 10),
        rounds("cleric", "cataclysm", 4),
        S::Magnitude("cleric", "cataclysm", 1),
    ];
    // Round 2: g2 fails (1 + 1), g1 saves (9 + 1).
    steps.extend(end(&["cleric", "brenna", "g1", "g2"]));
    steps.extend([
        S::Act("g3", "end_turn", vec![], &[9, 1]),
        S::Res("g1", "hp", 9),
        S::Res("g2", "hp", 9),
        // The fight ends: the cataclysm and its penalties go.
        S::Gm("end_encounter", vec![], &[]),
        S::Lacks("cleric", "cataclysm"),
        S::Lacks("g1", "quaking"),
        toughness("g1", 5),
    ]);
    play(Scene {
        name: "cataclysm: earthquake",
        options: &[],
        cast: vec![
            cleric(&["cataclysm", "fear_of_god"]),
            brenna(),
            gob("g1", -1),
            gob("g2", -2),
            gob("g3", -3),
        ],
        steps,
    });
}

/// A firestorm about g1 (4 rounds): g1 fails its power save in round 1 (1 + 1 against 9) and
/// makes it in round 2 (9 + 1).
fn firestorm(
    options: &'static [(&'static str, &'static str)],
    second: &'static [(&'static str, i64)],
    hp: i64,
) {
    play(Scene {
        name: "cataclysm: firestorm",
        options,
        cast: vec![cleric(&["cataclysm"]), gob("g1", -1)],
        steps: vec![
            S::Place("cleric", 0, 0),
            S::Place("g1", 2, 0),
            S::Start(&[]),
            // 1d10 (1) + 3 = 4 rounds.
            S::Act(
                "cleric",
                "cast",
                kind_cast("cataclysm", "g1", "firestorm"),
                &[1],
            ),
            S::PlayerHears(
                "a cataclysm (firestorm) rages within 100 ft of g1 for 4 rounds: each round g1 make a power save or take 1 damage; 1 more damage each round, save or not",
            ),
            // A firestorm burns; it takes nothing off attacks or toughness (T5 stays).
            S::Magnitude("g1", "firestorm", 0),
            toughness("g1", 5),
            S::Act("cleric", "end_turn", vec![], &[]),
            // Round 1: 1 for the failed save, 1 for the firestorm's first round.
            S::Act("g1", "end_turn", vec![], &[1]),
            S::Damage(&[("cataclysm", 1), ("firestorm", 1)], 2),
            S::Res("g1", "hp", 8),
            S::Act("cleric", "end_turn", vec![], &[]),
            // Round 2: saved, the fire burns still, save or not.
            S::Act("g1", "end_turn", vec![], &[9]),
            S::Damage(second, 10 - 2 - hp),
            S::Res("g1", "hp", hp),
        ],
    });
}

#[test]
fn cataclysm_firestorm_adds_1_damage_every_round_save_or_not() {
    firestorm(&[], &[("firestorm", 1)], 7);
}

#[test]
fn option_firestorm_cumulative_burns_one_more_each_round() {
    firestorm(
        &[("tinyd10.firestorm", "cumulative")],
        &[("firestorm", 2)],
        6,
    );
}

/// The GM's evil shaman floods Brenna off the grid (warded or not by the cleric).
fn flood(warded: bool) {
    let shoot = || vec![("target", t("shaman")), ("weapon", t("shortbow"))];
    let mut steps = vec![
        // The shaman (reflex 3), then the cleric and Brenna (2 and 5: the cleric first).
        S::Start(&[2, 5]),
        S::Order(&["shaman", "cleric", "brenna"]),
        S::Act("shaman", "end_turn", vec![], &[]),
    ];
    if warded {
        steps.push(S::Act("cleric", "cast", cast("ward_divine", "brenna"), &[]));
    }
    steps.extend(end(&["cleric", "brenna"]));
    steps.extend([
        // 1d10 (4) + level 3 = 7 rounds: the GM's number, and its die the GM's alone.
        S::Act(
            "shaman",
            "cast",
            kind_cast("cataclysm", "brenna", "flooding"),
            &[4],
        ),
        dice_gm_alone("shaman", &[4]),
        rounds("shaman", "cataclysm", 7),
        S::GmOnly(&["for 7 rounds"]),
        // Off the grid the target alone is in it, unless the GM names others.
        S::Magnitude("brenna", "flooded", if warded { 0 } else { 1 }),
        S::Lacks("cleric", "flooded"),
        S::Act("shaman", "end_turn", vec![], &[]),
        S::Act("cleric", "end_turn", vec![], &[]),
    ]);
    if warded {
        // The ward spares the flood's effect: she shoots (1 + reflex 1 misses T5).
        steps.push(S::Act("brenna", "attack", shoot(), &[1]));
    } else {
        steps.push(S::Refused(
            "brenna",
            "attack",
            shoot(),
            "rule: no ranged attacks",
        ));
    }
    steps.extend([
        // The round's end: a power save, 3 + 2 = 5, against the GM's spell save (3 + 2 + 3 =
        // 8, hidden): failed, 1 damage, ward or not (the damage is not an effect).
        S::Act("brenna", "end_turn", vec![], &[3]),
        S::TargetSeen(false),
        S::Res("brenna", "hp", 9),
    ]);
    play(Scene {
        name: "cataclysm: flooding",
        options: &[],
        cast: vec![
            evil_shaman(&["cataclysm"]),
            cleric(&["ward_divine"]),
            brenna(),
        ],
        steps,
    });
}

#[test]
fn cataclysm_flooding_forbids_ranged_attacks_and_the_gms_caster_keeps_its_rounds() {
    flood(false);
}

#[test]
fn ward_divine_spares_an_unholy_casters_cataclysm_effect_not_its_damage() {
    flood(true);
}

fn evil_shaman(spells: &[&str]) -> Value {
    with(shaman("divine", spells), |v| {
        v["tags"] = json!(["goblin", "evil"])
    })
}

#[test]
fn an_earthquake_on_the_grid_shakes_any_foe_and_a_ward_spares_its_penalty_there() {
    play(Scene {
        name: "earthquake on the grid",
        options: &[],
        cast: vec![
            evil_shaman(&["cataclysm"]),
            cleric(&["ward_divine"]),
            brenna(),
        ],
        steps: vec![
            S::Place("shaman", 0, 0),
            S::Place("cleric", 5, 0),
            S::Place("brenna", 6, 0),
            S::Start(&[2, 5]),
            S::Order(&["shaman", "cleric", "brenna"]),
            S::Act("shaman", "end_turn", vec![], &[]),
            S::Act("cleric", "cast", cast("ward_divine", "brenna"), &[]),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            // 1d10 (4) + 3 = 7 rounds about the cleric.
            S::Act(
                "shaman",
                "cast",
                kind_cast("cataclysm", "cleric", "earthquake"),
                &[4],
            ),
            // The cleric is no unholy creature, yet a foe of the caster: it shakes (T6 - 1).
            // Brenna, 5 ft away, stands in it too, her ward keeping its penalty off.
            S::Magnitude("cleric", "quaking", -1),
            toughness("cleric", 5),
            S::Magnitude("brenna", "quaking", 0),
            S::Lacks("shaman", "quaking"),
        ],
    });
}

#[test]
fn by_will_alone_spares_an_earthquakes_penalty_not_its_damage() {
    play(Scene {
        name: "earthquake resisted by will alone",
        options: &[],
        cast: vec![
            evil_shaman(&["cataclysm"]),
            // PP 8, T8, HP 9, power 3.
            super::abilities::hero("warrior", "human", "power", "by_will_alone", &[]),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["shaman", "warrior"]),
            S::Act(
                "shaman",
                "cast",
                kind_cast("cataclysm", "warrior", "earthquake"),
                &[],
            ),
            S::Asked("by will alone"),
            // Resisted for 2 PP: 1d10 (4) + 3 = 7 rounds, the warrior in it, unshaken (T8).
            S::Answer("resist", &[4]),
            S::Res("warrior", "pp", 6),
            S::Magnitude("warrior", "quaking", 0),
            toughness("warrior", 8),
            S::Act("shaman", "end_turn", vec![], &[]),
            // The round's end: the power save 1 + 3 = 4 misses the spell save 3 + 2 + 3 = 8,
            // and the damage lands all the same.
            S::Act("warrior", "end_turn", vec![], &[1]),
            S::Res("warrior", "hp", 8),
        ],
    });
}

#[test]
fn to_serpents_bites_a_holder_that_holds_on_past_the_round_of_the_casting() {
    let mut steps = vec![
        // Its rounds are counted in a fight only.
        S::Refused(
            "cleric",
            "cast",
            cast("to_serpents", "g1"),
            "rule: To serpents lasts its rounds",
        ),
        S::Start(&[2, 5]),
        S::Order(&["cleric", "brenna", "g1"]),
        // 2 MP of 10; 1d10 (4) rounds. No save at the casting: the save is the bite's.
        S::Act("cleric", "cast", cast("to_serpents", "g1"), &[4]),
        S::Res("cleric", "mp", 8),
        rounds("g1", "serpents", 4),
        S::PlayerHears("g1's weapon writhes into serpents for 4 rounds"),
        // Brenna holds no serpents to let go.
        S::Act("cleric", "end_turn", vec![], &[]),
        S::Refused("brenna", "let_go", vec![], "rule: holds no serpents"),
    ];
    // Round 1 ends: held only in the round of the casting, no bite (no die drawn).
    steps.extend(end(&["brenna", "g1"]));
    steps.extend([S::Res("g1", "hp", 10), rounds("g1", "serpents", 3)]);
    steps.extend(end(&["cleric", "brenna"]));
    steps.extend([
        // Round 2 ends: held past a round. Reflex save 3 - 1 = 2 against 9 fails: 1 damage,
        // bitten for 1d5 (2) rounds from the next.
        S::Act("g1", "end_turn", vec![], &[3, 2]),
        S::Res("g1", "hp", 9),
        S::Magnitude("g1", "bitten", -1),
        rounds("g1", "bitten", 2),
        S::PlayerHears("g1 held on and is bitten: -1 to attacks for 2 rounds"),
    ]);
    steps.extend(end(&["cleric", "brenna"]));
    steps.extend([
        // Round 3: g1 at Brenna, 8 + power 1 - 1 = 8 misses T9 (9 without the bite).
        S::Act("g1", "attack", vec![("target", t("brenna"))], &[8]),
        S::Said("serpent's bite"),
        S::Res("brenna", "hp", 10),
        // It lets go: disarmed, and no bite at this round's end (no die).
        S::Act("g1", "let_go", vec![], &[]),
        S::Lacks("g1", "serpents"),
        S::Has("g1", "disarmed"),
        S::Act("g1", "end_turn", vec![], &[]),
        S::Res("g1", "hp", 9),
        rounds("g1", "bitten", 1),
    ]);
    play(Scene {
        name: "to serpents",
        options: &[],
        cast: vec![cleric(&["to_serpents"]), brenna(), gob("g1", -1)],
        steps,
    });
}

#[test]
fn reprisal_turns_a_blow_on_the_foe_that_struck_the_caster_last_before_it() {
    let hit = |who: &'static str| S::Act(who, "attack", vec![("target", t("wizard"))], &[6]);
    play(Scene {
        name: "reprisal",
        options: &[],
        cast: vec![wizard(&["reprisal"]), gob("g1", 3), gob("g2", 0)],
        steps: vec![
            // Reflex: g1 3, the wizard 2, g2 0.
            S::Start(&[]),
            S::Order(&["g1", "wizard", "g2"]),
            // Before the spell: 6 + power 1 = 7 reaches T6, 1 damage. Kept as the last blow.
            hit("g1"),
            S::Res("wizard", "hp", 9),
            S::Act("g1", "end_turn", vec![], &[]),
            // 3 MP of 12.
            S::Act("wizard", "cast", vec![("spell", t("reprisal"))], &[]),
            S::Res("wizard", "mp", 9),
            S::Has("wizard", "reprisal"),
            S::Act("wizard", "end_turn", vec![], &[]),
            // g2 strikes: g1 struck last before it, and takes the blow.
            hit("g2"),
            S::Res("wizard", "hp", 9),
            S::Res("g1", "hp", 9),
            S::PlayerHears("reprisal: the blow of g2 on wizard falls on g1 instead"),
            S::Act("g2", "end_turn", vec![], &[]),
            // g1 again: g2 struck last, and takes it.
            hit("g1"),
            S::Res("wizard", "hp", 9),
            S::Res("g2", "hp", 9),
            S::Res("g1", "hp", 9),
            S::Act("g1", "end_turn", vec![], &[]),
            // g1 falls (its side's morale holds: 10); its blow was the last before g2's:
            // nobody takes g2's next one for the wizard, who is hit (9 to 8).
            S::Gm(
                "rule.set-resource",
                vec![("target", t("g1")), ("resource", t("hp")), ("value", n(0))],
                &[10, 10],
            ),
            S::Has("g1", "dead"),
            S::Said("morale"),
            S::Act("wizard", "end_turn", vec![], &[]),
            hit("g2"),
            S::Res("wizard", "hp", 8),
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("wizard", "reprisal"),
        ],
    });
}

#[test]
fn ward_divine_keeps_an_unholy_attackers_effects_off_but_not_its_damage() {
    let brute = json!({
        "id": "brute", "name": "brute", "kind": "npc", "level": 3, "tags": ["evil"],
        "abilities": ["critical_strike", "stunning_blow"],
        "stats": {"power": 2, "reflex": 5, "toughness": 5, "hp_max": 10, "pp_max": 2},
        "attacks": [{"id": "club", "name": "club", "kind": "melee"}]
    });
    play(Scene {
        name: "ward (divine) against an attack",
        options: &[],
        cast: vec![cleric(&["ward_divine"]), wizard(&[]), aldric(), brute],
        steps: vec![
            // Reflex: the brute 5, the wizard 2, the cleric 1, Aldric 0.
            S::Start(&[]),
            S::Order(&["brute", "wizard", "cleric", "aldric"]),
            // Unwarded Aldric: 10 + 2 hits T7, 1 damage, and the 10 dazes him.
            S::Act("brute", "attack", vec![("target", t("aldric"))], &[10]),
            S::Res("aldric", "hp", 5),
            S::Has("aldric", "dazed"),
            S::Act("brute", "end_turn", vec![], &[]),
            S::Act("wizard", "end_turn", vec![], &[]),
            // On another: 1 MP of 10.
            S::Act("cleric", "cast", cast("ward_divine", "wizard"), &[]),
            S::Res("cleric", "mp", 9),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("aldric", "end_turn", vec![], &[]),
            // The warded wizard: 10 + 2 hits T6, its 1 damage lands, its daze does not.
            S::Act("brute", "attack", vec![("target", t("wizard"))], &[10]),
            S::Res("wizard", "hp", 9),
            S::Lacks("wizard", "dazed"),
            S::PlayerHears(
                "wizard resists the effects of brute's attack (ward): only its damage lands",
            ),
            S::Act("brute", "end_turn", vec![], &[]),
            S::Act("wizard", "end_turn", vec![], &[]),
            S::Act("cleric", "end_turn", vec![], &[]),
            S::Act("aldric", "end_turn", vec![], &[]),
            // A Stunning blow (2 PP): 5 + 2 + 1 hits T6 and its 2 damage lands (9 to 7); the
            // knock-out does not, so no power challenge is rolled.
            S::Act(
                "brute",
                "ability",
                vec![("name", t("stunning_blow")), ("target", t("wizard"))],
                &[5],
            ),
            S::Res("wizard", "hp", 7),
            S::Lacks("wizard", "unconscious"),
            S::Said("wizard's ward keeps the stunning blow's knock-out off"),
        ],
    });
}

// Where a casting's numbers turn. PP add to one roll: on Fireball II's two targets they are
// refused, on its one target allowed (4 + intellect 2 + 1 = 7 hits T5; 1d5 of 3, 10 to 7).
// Splash-effect's point is counted with the PP: with none left, refused.
#[test]
fn pp_on_a_spell_go_to_one_roll_and_splash_needs_its_point() {
    play(Scene {
        name: "a casting's pp",
        options: &[],
        cast: vec![
            wizard(&["fireball_2", "fireball_1"]),
            with(wizard_with("drained", "war_mage", &["fireball_1"]), |v| {
                v["pp"] = json!(0);
            }),
            gob("g1", 0),
            gob("g2", 0),
        ],
        steps: vec![
            S::Place("wizard", 0, 0),
            S::Place("drained", 0, 1),
            S::Place("g1", 5, 0),
            S::Place("g2", 6, 0),
            S::Refused(
                "wizard",
                "cast",
                {
                    let mut a = cast_on("fireball_2", "g1", "g1,g2");
                    a.push(("pp", n(1)));
                    a
                },
                "bad_request: pp",
            ),
            S::Act(
                "wizard",
                "cast",
                {
                    let mut a = cast("fireball_2", "g1");
                    a.push(("pp", n(1)));
                    a
                },
                &[4, 3],
            ),
            S::Res("g1", "hp", 7),
            S::Refused(
                "drained",
                "cast",
                {
                    let mut a = cast("fireball_1", "g1");
                    a.push(("splash", yes()));
                    a
                },
                "insufficient_resource: needs 1, has 0",
            ),
        ],
    });
}

// A shaman facing a commanding warrior must aim its attack spells at the warrior, not at an
// ally of the warrior's; a caster without Re-spell keeps no note of its last spell.
#[test]
fn a_commanding_warrior_draws_a_foes_attack_spells_and_only_re_spell_remembers_the_last() {
    play(Scene {
        name: "spells and a commanding warrior",
        options: &[],
        cast: vec![
            super::abilities::hero(
                "warrior",
                "human",
                "power",
                "commanding_presence",
                &["flail"],
            ),
            brenna(),
            shaman("magical", &["fireball_1"]),
        ],
        steps: vec![
            S::Place("warrior", 5, 5),
            S::Place("brenna", 4, 5),
            S::Place("shaman", 6, 5),
            S::Start(&[2, 8]),
            S::Order(&["shaman", "warrior", "brenna"]),
            S::Act("shaman", "end_turn", vec![], &[]),
            S::Act(
                "warrior",
                "ability",
                vec![("name", t("commanding_presence"))],
                &[],
            ),
            S::Act("warrior", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Refused(
                "shaman",
                "cast",
                cast("fireball_1", "brenna"),
                "rule: must attack warrior",
            ),
            // At the warrior: 1 + 2 misses T8 + 0 (one foe facing it).
            S::Act("shaman", "cast", cast("fireball_1", "warrior"), &[1]),
            S::Lacks("shaman", "last_spell"),
        ],
    });
}

// Charm, whose effect the GM plays: a made save (9 + 0 against the spell save 3 + 2 + 3 = 8)
// cancels it and the line says so, with nothing for the GM to apply; a failed one (1) leaves
// its effect to the GM. When the GM's shaman charms the wizard, the spell and its effect are
// the GM's to name.
#[test]
fn a_spell_the_gm_plays_is_told_as_saved_or_left_to_the_gm_and_the_gms_stays_the_gms() {
    play(Scene {
        name: "charm",
        options: &[],
        cast: vec![
            wizard(&["charm"]),
            gob("g1", 0),
            shaman("magical", &["charm"]),
        ],
        steps: vec![
            S::Act("wizard", "cast", cast("charm", "g1"), &[9]),
            S::Said("g1 saves: charm (person or animal) has no effect"),
            not_said_anywhere("the GM applies it by ruling"),
            S::Act("wizard", "cast", cast("charm", "g1"), &[1]),
            S::Said("the GM applies it by ruling"),
            // The shaman's spell save 3 + 2 + 3 = 8; the wizard's intellect 2 + 1 fails it.
            S::Act("shaman", "cast", cast("charm", "wizard"), &[1]),
            S::GmOnly(&["the GM applies it by ruling", "Charm"]),
        ],
    });
}

// Resist magic against a foe's spell that strikes and has an effect: won, the effect is
// cancelled and the line says the damage stands; Phantom hand's 1 lands (9 to 8). The
// hexer's 8 + 2 hits the wizard's T5 + 1; the challenge: wizard 9 + 3, hexer 1 + 2.
#[test]
fn resist_magic_cancels_a_damaging_spells_effect_and_says_the_damage_stands() {
    play(Scene {
        name: "resist magic and phantom hand",
        options: &[],
        cast: vec![
            wizard_with("wizard", "resist_magic", &[]),
            json!({
                "id": "hexer", "name": "goblin hexer", "kind": "npc", "tags": ["goblin"],
                "spells": ["phantom_hand"],
                "stats": {"intellect": 2, "reflex": 0, "toughness": 5, "hp_max": 4,
                          "mp_max": 6, "casting": "magical"}
            }),
        ],
        steps: vec![
            S::Act("hexer", "cast", cast("phantom_hand", "wizard"), &[8, 9, 1]),
            S::Said("(resist magic): the damage stands"),
            S::Res("wizard", "hp", 8),
        ],
    });
}

/// No event of the last action says `words`, for any seat.
fn not_said_anywhere(words: &'static str) -> S {
    S::Check(Box::new(move |p: &crate::testing::scene::Played<'_>| {
        let all = format!("{:?}", p.last);
        assert!(!all.contains(words), "{}: `{words}` in {all}", p.at);
    }))
}

/// Time stop freezes the living only, and names nobody: a list of creatures is refused.
#[test]
fn time_stop_passes_over_the_dead_and_takes_no_list() {
    play(Scene {
        name: "time stop and the dead",
        options: &[],
        cast: vec![
            wizard(&["time_stop"]),
            brenna(),
            gob("g1", -1),
            gob("g2", -2),
        ],
        steps: vec![
            S::Start(&[]),
            S::Give("g2", "dead", 0),
            // Only the spells it knows (or imprinted this fight).
            S::Refused(
                "wizard",
                "cast",
                vec![("spell", t("fireball_1")), ("target", t("g1"))],
                "rule: wizard does not know",
            ),
            S::Refused(
                "wizard",
                "cast",
                vec![("spell", t("time_stop")), ("targets", t("g1"))],
                "bad_request: this spell names no creatures besides its target",
            ),
            S::Act("wizard", "cast", vec![("spell", t("time_stop"))], &[2]),
            rounds("g1", "time_stopped", 2),
            S::Lacks("g2", "time_stopped"),
        ],
    });
}
