//! Encounter rules as scenarios on the shared runner (`crate::testing::scene`): a cast, table
//! options and steps with the exact dice faces each draws. The comment on each step gives its
//! arithmetic. Brenna (dwarf warrior: power 2, reflex 1, T9, HP 10, PP 5, a flail dealing 2)
//! and Aldric (human cleric: aspect 3, power 1, reflex 0, T7, HP 6, PP 7, MP 6, spell save 7)
//! are the example sheets; goblins are T5 with 3 HP unless a scene says otherwise.

use serde_json::{Value, json};

use crate::action::ArgValue;
use crate::state::StateView;
use crate::testing::scene::{self, Played, S, Scene};

use super::super::TinyD10;
use super::{pc, with};

/// Plays a scenario; the hearing steps read the player `p1`'s copy (Brenna's seat).
pub(super) fn play(s: Scene) {
    scene::play(&TinyD10, "p1", s);
}

pub(super) fn t(s: &str) -> ArgValue {
    ArgValue::Text(s.into())
}
pub(super) fn n(i: i64) -> ArgValue {
    ArgValue::Int(i)
}

pub(super) fn brenna() -> Value {
    toml::from_str(include_str!(
        "../../../../docs/examples/tinyd10/brenna.toml"
    ))
    .unwrap()
}
pub(super) fn aldric() -> Value {
    toml::from_str(include_str!(
        "../../../../docs/examples/tinyd10/aldric.toml"
    ))
    .unwrap()
}
fn skeleton(reflex: i64) -> Value {
    let mut v: Value = toml::from_str(include_str!(
        "../../../../docs/examples/tinyd10/skeleton.toml"
    ))
    .unwrap();
    v["stats"]["reflex"] = json!(reflex);
    v
}

/// A goblin: power 1, T5, 3 HP, a rusty blade dealing 1, and the reflex given.
pub(super) fn goblin(id: &str, reflex: i64) -> Value {
    json!({
        "id": id, "name": id, "kind": "npc", "tags": ["goblin", "evil"],
        "stats": {"power": 1, "reflex": reflex, "toughness": 5, "hp_max": 3},
        "attacks": [{"id": "rusty_blade", "name": "rusty blade", "kind": "melee"}]
    })
}

/// A level 2 dwarf warrior with Pummel: power 2 + 1 (level 2) = 3, a flail.
pub(super) fn bruna() -> Value {
    json!({
        "id": "bruna", "name": "Bruna", "kind": "pc", "owner": "p1",
        "race": "dwarf", "class": "warrior", "level": 2,
        "points": {"power": 2, "reflex": 1, "hp": 6, "pp": 4},
        "advance": [{"attribute": "power", "points": "pp", "extra": "toughness"}],
        "skills": ["craft", "spot"],
        "abilities": ["defensive_rush", "power_strike", "pummel"],
        "weapons": ["flail"]
    })
}

/// A level 3 dwarf wizard: intellect 4, reflex 2 (Swift), spell save 3 + 4 + 3 = 10, MP 13.
fn mira() -> Value {
    json!({
        "id": "mira", "name": "Mira", "kind": "pc", "owner": "p1",
        "race": "dwarf", "class": "wizard", "level": 3,
        "points": {"intellect": 3, "hp": 6, "pp": 4, "mp_roll": 10},
        "advance": [
            {"attribute": "intellect", "points": "mp", "extra": "spells"},
            {"attribute": "reflex", "points": "mp", "extra": "toughness"}
        ],
        "skills": ["craft", "spot", "listen"],
        "abilities": ["prestidigitation", "spell_casting_magical", "splash_effect", "swift", "arcane_knowledge"],
        "spells": ["fireball_1", "magic_missile_1", "heal", "charm", "teleport", "ray_of_death"]
    })
}

fn initiative(
    options: &'static [(&'static str, &'static str)],
    faces: &'static [u32],
    order: &'static [&'static str],
) {
    play(Scene {
        name: "initiative",
        options,
        cast: vec![brenna(), goblin("goblin", 1), aldric(), goblin("archer", 2)],
        steps: vec![
            // Reflex: archer 2; Brenna and the goblin 1 (tied: a d10 each, Brenna first by
            // id); Aldric 0.
            S::Start(faces),
            S::Order(order),
            S::Turn(Some("archer")),
            S::Round(1),
        ],
    });
}

#[test]
fn combat_order_is_by_reflex_highest_first_with_ties_rolled() {
    // Brenna 3, goblin 7: the higher goes first.
    initiative(&[], &[3, 7], &["archer", "goblin", "brenna", "aldric"]);
    // Tied again on 5 and 5: rolled again, Brenna 2, goblin 8.
    initiative(
        &[],
        &[5, 5, 2, 8],
        &["archer", "goblin", "brenna", "aldric"],
    );
}

#[test]
fn option_initiative_ties_lower_first_puts_the_lower_tie_break_first() {
    initiative(
        &[("tinyd10.initiative_ties", "lower_first")],
        &[3, 7],
        &["archer", "brenna", "goblin", "aldric"],
    );
}

fn power_strike(options: &'static [(&'static str, &'static str)], pp_after: i64) {
    play(Scene {
        name: "power strike",
        options,
        cast: vec![brenna(), goblin("g1", 0), goblin("g2", 0)],
        steps: vec![
            // Brenna reflex 1 first; g1 and g2 tie at 0: 6 and 2, g1 first.
            S::Start(&[6, 2]),
            S::Order(&["brenna", "g1", "g2"]),
            // d10 2 + power 2 + 1 PP declared = 5 against g1's T5: a hit. Damage: flail 2,
            // +1 dwarf against goblins, +1 power strike = 4: g1 (3 HP) dies at 0. Its side's
            // first slain, and 1 of g2's 1 ally: both morale checks, 1 (falters) and 9
            // (holds), the GM's alone.
            S::Act(
                "brenna",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("weapon", t("flail")),
                    ("pp", n(1)),
                    ("power_strike", n(1)),
                ],
                &[2, 1, 9],
            ),
            S::Res("g1", "hp", 0),
            S::Has("g1", "dead"),
            S::HiddenFromPlayers("g1", "hp"),
            // The GM's sentence: Brenna dealt the goblin all 4, from 3 HP to 0; the player's
            // copy holds no such number.
            S::Said("verb: \"deals damage to\""),
            S::Said("amount: Some(4)"),
            S::Said("before: Some(3)"),
            S::PlayerNeverHears("before: Some(3)"),
            S::Res("brenna", "pp", pp_after),
            S::TargetSeen(false),
            S::Said("morale of enemies (its first ally slain)"),
            S::Said("morale of enemies (more than half its allies slain)"),
            // The table knows a check was due (the flag that it was rolled is public); the
            // roll and its result are the GM's.
            S::PlayerNeverHears("morale of"),
            S::PlayerNeverHears("falters"),
            // One attack a turn.
            S::Refused("brenna", "attack", vec![("target", t("g2"))], "none_left"),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Refused(
                "brenna",
                "attack",
                vec![("target", t("g2"))],
                "not_your_turn",
            ),
        ],
    });
}

#[test]
fn a_warrior_adds_pp_before_the_roll_and_power_strike_kills_a_goblin_and_its_side_checks_morale() {
    // 5 PP - 1 added to the roll - 1 for power strike.
    power_strike(&[], 3);
}

#[test]
fn option_pp_spent_kept_leaves_the_pp_added_to_a_roll_in_the_pool() {
    // Only power strike's point is spent.
    power_strike(&[("tinyd10.pp_spent", "kept")], 4);
}

#[test]
fn pp_beyond_the_pool_are_refused_before_any_roll() {
    play(Scene {
        name: "pp refused",
        options: &[],
        cast: vec![brenna(), goblin("g1", 0)],
        steps: vec![
            S::Start(&[]),
            // 5 PP: 4 on the roll and 2 on power strike is 6.
            S::Refused(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("pp", n(4)), ("power_strike", n(2))],
                "insufficient_resource",
            ),
            // Power strike is a warrior's; Brenna has it, feint she has not.
            S::Refused(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("feint", ArgValue::Flag(true))],
                "rule",
            ),
            S::Refused(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("longbow"))],
                "bad_request",
            ),
        ],
    });
}

fn check_tie(options: &'static [(&'static str, &'static str)], word: &'static str) {
    play(Scene {
        name: "check tie",
        options,
        cast: vec![brenna()],
        steps: vec![
            // d10 3 + power 2 = 5 against T5: a tie.
            S::Act(
                "brenna",
                "check",
                vec![("attribute", t("power")), ("toughness", n(5))],
                &[3],
            ),
            S::Said(word),
        ],
    });
}

#[test]
fn a_check_equal_to_its_toughness_succeeds_by_default() {
    check_tie(&[], "result: \"succeeds\"");
}

#[test]
fn option_check_ties_fails_makes_a_tied_check_fail() {
    check_tie(&[("tinyd10.check_ties", "fails")], "result: \"fails\"");
}

#[test]
fn a_check_adds_one_per_skill_the_character_has_and_refuses_one_it_lacks() {
    play(Scene {
        name: "skills",
        options: &[],
        cast: vec![aldric()],
        steps: vec![
            // d10 2 + aspect 3 + persuade 1 = 6 against T6.
            S::Act(
                "aldric",
                "check",
                vec![
                    ("attribute", t("aspect")),
                    ("skills", t("persuade")),
                    ("toughness", n(6)),
                ],
                &[2],
            ),
            S::Said("result: \"succeeds\""),
            S::Refused(
                "aldric",
                "check",
                vec![("attribute", t("aspect")), ("skills", t("intimidate"))],
                "rule",
            ),
        ],
    });
}

fn nonlethal(options: &'static [(&'static str, &'static str)], faces: &'static [u32], hp: i64) {
    play(Scene {
        name: "non-lethal",
        options,
        cast: vec![brenna(), goblin("g1", 0)],
        steps: vec![
            S::Start(&[]),
            // Bare hands: d10 3 + power 2 = 5 against T5, a hit. Power challenge: Brenna 4 + 2,
            // the goblin 5 + 1: 6 and 6.
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("nonlethal", ArgValue::Flag(true))],
                faces,
            ),
            S::Res("g1", "hp", hp),
        ],
    });
}

#[test]
fn a_non_lethal_blow_needs_the_power_challenge_too_and_a_tie_leaves_the_target_unhurt() {
    nonlethal(&[], &[3, 4, 5], 3);
}

#[test]
fn option_challenge_ties_reroll_rolls_a_tied_challenge_again() {
    // Again: Brenna 6 + 2 = 8, the goblin 1 + 1 = 2: she wins, 1 damage.
    nonlethal(&[("tinyd10.challenge_ties", "reroll")], &[3, 4, 5, 6, 1], 2);
}

#[test]
fn the_gm_calls_an_opposed_challenge_and_the_higher_total_wins() {
    let challenge = |args: Vec<(&'static str, ArgValue)>| {
        let mut v = vec![("starter", t("brenna")), ("resister", t("g1"))];
        v.extend(args);
        v
    };
    play(Scene {
        name: "the GM's challenge",
        options: &[],
        cast: vec![brenna(), goblin("g1", 0)],
        steps: vec![
            S::Refused(
                "brenna",
                "challenge",
                challenge(vec![("attribute", t("power"))]),
                "forbidden",
            ),
            // Brenna adds 1 PP: 3 + power 2 + 1 = 6 against the goblin's 5 + power 1 = 6, a
            // tie the goblin holds. The PP are spent all the same (5 to 4).
            S::Gm(
                "challenge",
                challenge(vec![
                    ("attribute", t("power")),
                    ("pp", n(1)),
                    ("what", t("arm wrestle")),
                ]),
                &[3, 5],
            ),
            S::Said("g1 wins the arm wrestle challenge against brenna (a tie: the resister holds)"),
            S::Res("brenna", "pp", 4),
            // Each side with its own attribute: Brenna's power 4 + 2 = 6 against the goblin's
            // reflex 5 + 0 = 5: hers.
            S::Gm(
                "challenge",
                challenge(vec![
                    ("attribute", t("power")),
                    ("resister_attribute", t("reflex")),
                ]),
                &[4, 5],
            ),
            S::Said("reflex challenge: contest"),
            S::Said("brenna wins the contest challenge against g1"),
            S::Res("brenna", "pp", 4),
        ],
    });
}

#[test]
fn a_non_lethal_blow_to_0_hp_knocks_out_rather_than_kills() {
    play(Scene {
        name: "knocked out",
        options: &[],
        cast: vec![
            brenna(),
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(1)),
        ],
        steps: vec![
            S::Start(&[]),
            // Hit 3 + 2 = 5; challenge 6 + 2 = 8 against 1 + 1 = 2: 1 damage, 1 HP to 0.
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("nonlethal", ArgValue::Flag(true))],
                &[3, 6, 1],
            ),
            S::Has("g1", "unconscious"),
            S::Lacks("g1", "dead"),
        ],
    });
}

fn dying(options: &'static [(&'static str, &'static str)], alive_rounds: usize) {
    let mut steps = vec![
        S::Start(&[]),
        // Goblin: d10 6 + power 1 = 7 against Aldric's T7: 1 damage, 1 HP to 0.
        S::Act(
            "g1",
            "attack",
            vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
            &[6],
        ),
        S::Res("aldric", "hp", 0),
        S::Has("aldric", "dying"),
        S::Magnitude("aldric", "dying", 1),
        S::Refused("aldric", "end_turn", vec![], "cannot_act"),
    ];
    // Each goblin end of turn ends a round (Aldric's turns pass: he is immobilized).
    for _ in 0..alive_rounds {
        steps.push(S::Act("g1", "end_turn", vec![], &[]));
        steps.push(S::Has("aldric", "dying"));
    }
    steps.push(S::Act("g1", "end_turn", vec![], &[]));
    steps.push(S::Has("aldric", "dead"));
    steps.push(S::Lacks("aldric", "dying"));
    play(Scene {
        name: "dying",
        options,
        cast: vec![with(aldric(), |v| v["hp"] = json!(1)), goblin("g1", 1)],
        steps,
    });
}

#[test]
fn a_character_at_0_hp_is_dying_and_dies_after_five_full_rounds() {
    // Dropped in round 1, which does not count; rounds 2 to 6 do: dead at the end of round 6.
    dying(&[], 5);
}

#[test]
fn option_dying_count_drop_counts_makes_the_round_of_the_drop_the_first() {
    // Rounds 1 to 5: dead at the end of round 5.
    dying(&[("tinyd10.dying_count", "drop_counts")], 4);
}

fn potion(options: &'static [(&'static str, &'static str)], hp: i64, step: &'static str) {
    play(Scene {
        name: "healed before death",
        options,
        cast: vec![
            brenna(),
            with(aldric(), |v| v["hp"] = json!(1)),
            goblin("g1", 2),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["g1", "brenna", "aldric"]),
            S::Act(
                "g1",
                "attack",
                vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
                &[6],
            ),
            // Brenna could rush in (Defensive rush); she lets it land.
            S::Answer("let", &[]),
            S::Has("aldric", "dying"),
            S::Act("g1", "end_turn", vec![], &[]),
            // Brenna gives Aldric her healing potion: 1d5, a face of 3.
            S::Act("brenna", "potion", vec![("target", t("aldric"))], &[3]),
            S::Res("aldric", "hp", hp),
            S::Said(step),
            S::Lacks("aldric", "dying"),
            // She carried one.
            S::Refused("brenna", "potion", vec![], "insufficient_resource"),
        ],
    });
}

#[test]
fn a_dying_character_healed_before_the_fifth_round_lives() {
    potion(&[], 3, "label: \"1d5\", value: 3");
}

#[test]
fn option_d5_half_d10_reads_a_d10_face_as_half_rounded_up() {
    // A d10 face 3 read as a d5: 2.
    // The step says what the reading took off: 2 - 3 = -1.
    potion(
        &[("tinyd10.d5", "half_d10")],
        2,
        "label: \"d10 read as d5 (half, up)\", value: -1",
    );
}

fn npc_at_zero(
    options: &'static [(&'static str, &'static str)],
    faces: &'static [u32],
    status: &'static str,
) {
    play(Scene {
        name: "npc at zero",
        options,
        cast: vec![brenna(), goblin("g1", 0)],
        steps: vec![
            S::Start(&[]),
            // 8 + 2 = 10 hits T5; flail 2 + 1 against goblins = 3: 0 HP.
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                faces,
            ),
            S::Has("g1", status),
        ],
    });
}

#[test]
fn a_monster_dies_at_0_hp_by_default() {
    // The lone goblin leaves no side to test morale: no roll.
    npc_at_zero(&[], &[8], "dead");
}

#[test]
fn option_npc_at_zero_dying_leaves_a_monster_dying_like_a_character() {
    npc_at_zero(&[("tinyd10.npc_at_zero", "dying")], &[8], "dying");
}

fn pummel(options: &'static [(&'static str, &'static str)], prone: bool) {
    play(Scene {
        name: "pummel",
        options,
        cast: vec![
            bruna(),
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[]),
            // A d10 of 10 + power 3 = 13: a hit; flail 2 + 1 against goblins.
            S::Act(
                "bruna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[10],
            ),
            S::Res("g1", "hp", 7),
            if prone {
                S::Has("g1", "prone")
            } else {
                S::Lacks("g1", "prone")
            },
        ],
    });
}

#[test]
fn pummel_knocks_prone_on_a_face_of_10() {
    pummel(&[], true);
}

#[test]
fn option_natural_total_reads_a_10_as_the_total_so_13_does_not_pummel() {
    pummel(&[("tinyd10.natural", "total")], false);
}

/// Mira's ray at the skeleton (6 HP), saved: `steps` are the damage's, `hp` what is left.
fn ray(
    options: &'static [(&'static str, &'static str)],
    steps: &'static [(&'static str, i64)],
    hp: i64,
) {
    play(Scene {
        name: "ray of death",
        options,
        cast: vec![mira(), skeleton(1)],
        steps: vec![
            S::Start(&[]),
            // No attack roll. The skeleton saves with its better of aspect 0 and reflex 1:
            // 9 + 1 = 10 against Mira's spell save 10: saved. Damage 1d10, a 7, halved.
            S::Act(
                "mira",
                "cast",
                vec![("spell", t("ray_of_death")), ("target", t("skeleton"))],
                &[9, 7],
            ),
            S::Damage(steps, 6 - hp),
            S::Res("skeleton", "hp", hp),
            // 13 MP - 4, less 1 for Arcane knowledge.
            S::Res("mira", "mp", 10),
            // Next round, the save failed (1 + 1): the whole 1d10, a 3.
            S::Act("mira", "end_turn", vec![], &[]),
            S::Act("skeleton", "end_turn", vec![], &[]),
            S::Act(
                "mira",
                "cast",
                vec![("spell", t("ray_of_death")), ("target", t("skeleton"))],
                &[1, 3],
            ),
            S::Damage(&[("Ray of death", 3)], 3),
        ],
    });
}

#[test]
fn a_save_against_ray_of_death_halves_it_rounded_down() {
    // 7 halved down: 3, a step of -4.
    ray(&[], &[("Ray of death", 7), ("saved: half", -4)], 3);
}

#[test]
fn option_halving_up_rounds_a_halved_7_to_4() {
    ray(
        &[("tinyd10.halving", "up")],
        &[("Ray of death", 7), ("saved: half", -3)],
        2,
    );
}

#[test]
fn a_cleric_spends_mp_on_turn_undead_and_the_undead_fails_its_save() {
    play(Scene {
        name: "turn undead",
        options: &[],
        cast: vec![
            with(aldric(), |v| {
                v["spells"] = json!(["turn_undead", "divine_medicine"])
            }),
            skeleton(-1),
            goblin("g1", -2),
        ],
        steps: vec![
            S::Start(&[]),
            // Aspect save: 4 + 0 = 4 against Aldric's spell save 7: failed, 1 damage; then it
            // flees Aldric for 1d5 (3) rounds.
            S::Act(
                "aldric",
                "cast",
                vec![("spell", t("turn_undead")), ("target", t("skeleton"))],
                &[4, 3],
            ),
            S::Res("skeleton", "hp", 5),
            S::Res("aldric", "mp", 4),
            S::Said("flee"),
            // What the save was against is named as such (the GM's copy; the players get the
            // skeleton's die alone, as for any NPC roll that changes nothing itself).
            S::Said("name: \"spell save\", value: Some(7)"),
            S::Said("verb: \"resists the turn undead of\", target: Some(EntityId(\"aldric\"))"),
            S::Said("casts turn undead on"),
            S::Refused(
                "aldric",
                "cast",
                vec![("spell", t("turn_undead")), ("target", t("skeleton"))],
                "none_left",
            ),
            S::Act("aldric", "end_turn", vec![], &[]),
            S::Act("skeleton", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // A goblin is not undead: the MP go, nothing happens to it.
            S::Act(
                "aldric",
                "cast",
                vec![("spell", t("turn_undead")), ("target", t("g1"))],
                &[],
            ),
            S::Res("g1", "hp", 3),
            S::Res("aldric", "mp", 2),
            S::Act("aldric", "end_turn", vec![], &[]),
            S::Act("skeleton", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // 2 MP left, 2 needed: one more; then none.
            S::Act(
                "aldric",
                "cast",
                vec![("spell", t("turn_undead")), ("target", t("skeleton"))],
                &[9, 2],
            ),
            S::Act("aldric", "end_turn", vec![], &[]),
            S::Act("skeleton", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Refused(
                "aldric",
                "cast",
                vec![("spell", t("turn_undead")), ("target", t("skeleton"))],
                "insufficient_resource",
            ),
            S::Refused(
                "aldric",
                "cast",
                vec![("spell", t("fireball_1")), ("target", t("skeleton"))],
                "rule",
            ),
        ],
    });
}

#[test]
fn sword_of_the_spirit_rolls_an_attack_with_its_bonus() {
    play(Scene {
        name: "sword of the spirit",
        options: &[],
        cast: vec![aldric(), skeleton(-1)],
        steps: vec![
            S::Start(&[]),
            // 3 + aspect 3 + 1 (the spell) = 7 against T7: a hit, 2 damage.
            S::Act(
                "aldric",
                "cast",
                vec![
                    ("spell", t("sword_of_the_spirit")),
                    ("target", t("skeleton")),
                ],
                &[3],
            ),
            S::Res("skeleton", "hp", 4),
            S::Res("aldric", "mp", 5),
        ],
    });
}

fn standard_heal(
    options: &'static [(&'static str, &'static str)],
    faces: &'static [u32],
    brenna_hp: i64,
) {
    play(Scene {
        name: "standard healing",
        options,
        cast: vec![
            with(brenna(), |v| v["hp"] = json!(5)),
            with(aldric(), |v| v["hp"] = json!(3)),
        ],
        steps: vec![
            // Aldric has the heal skill: it succeeds without a roll.
            S::Act("aldric", "heal", vec![("target", t("brenna"))], faces),
            S::Res("brenna", "hp", brenna_hp),
        ],
    });
}

#[test]
fn standard_healing_with_the_heal_skill_restores_a_rolled_1_to_2() {
    standard_heal(&[], &[2], 7);
}

#[test]
fn option_standard_heal_one_restores_exactly_1() {
    standard_heal(&[("tinyd10.standard_heal", "one")], &[], 6);
}

#[test]
fn standard_healing_without_the_skill_is_a_t6_intellect_check() {
    play(Scene {
        name: "heal check",
        options: &[],
        cast: vec![brenna(), with(aldric(), |v| v["hp"] = json!(3))],
        steps: vec![
            // d10 6 + intellect 0 = 6 against T6: success; a d2 of 1.
            S::Act("brenna", "heal", vec![("target", t("aldric"))], &[6, 1]),
            S::Res("aldric", "hp", 4),
            // A 5 fails: nothing restored.
            S::Act("brenna", "heal", vec![("target", t("aldric"))], &[5]),
            S::Res("aldric", "hp", 4),
        ],
    });
}

fn morale_count(
    options: &'static [(&'static str, &'static str)],
    faces: &'static [u32],
    rolled: bool,
) {
    let kill = |id: &'static str| vec![("target", t(id)), ("resource", t("hp")), ("value", n(0))];
    play(Scene {
        name: "morale count",
        options,
        cast: vec![
            brenna(),
            goblin("g1", 0),
            goblin("g2", 0),
            goblin("g3", 0),
            goblin("g4", 0),
        ],
        steps: vec![
            S::Start(&[4, 3, 2, 1]),
            // The GM rules g1 to 0 HP: it dies, the first slain: a roll (5, holds).
            S::Gm("rule.set-resource", kill("g1"), &[5]),
            S::Has("g1", "dead"),
            // g2: 2 slain. Of a survivor's 3 allies that is more than half; of the 4 in the
            // group it is exactly half.
            S::Gm("rule.set-resource", kill("g2"), faces),
            if rolled {
                S::Said("more than half")
            } else {
                S::Has("g2", "dead")
            },
        ],
    });
}

#[test]
fn more_than_half_of_its_allies_counts_the_others_by_default() {
    morale_count(&[], &[5], true);
}

#[test]
fn option_morale_count_whole_needs_more_than_half_of_the_whole_group() {
    morale_count(&[("tinyd10.morale_count", "whole")], &[], false);
}

fn words(options: &'static [(&'static str, &'static str)], own: i64) {
    play(Scene {
        name: "words of healing",
        options,
        cast: vec![brenna(), aldric(), goblin("g1", -1)],
        steps: vec![
            S::Start(&[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("aldric", "words", vec![("of", t("healing"))], &[]),
            S::Res("aldric", "pp", 6),
            S::Res("brenna", "temp_hp", 2),
            S::Res("g1", "temp_hp", 0),
            S::Res("aldric", "temp_hp", own),
            S::Refused("aldric", "words", vec![("of", t("strength"))], "rule"),
        ],
    });
}

#[test]
fn words_of_healing_give_two_temporary_hp_to_the_side_speaker_included() {
    words(&[], 2);
}

#[test]
fn option_earshot_allies_only_leaves_the_speaker_out() {
    words(&[("tinyd10.earshot", "allies_only")], 0);
}

#[test]
fn temporary_hp_are_lost_first() {
    play(Scene {
        name: "temporary hp",
        options: &[],
        cast: vec![with(brenna(), |v| v["temp_hp"] = json!(2)), goblin("g1", 2)],
        steps: vec![
            S::Start(&[]),
            // 9 + 1 = 10 against Brenna's T9: 1 damage, from the temporary HP.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("brenna")), ("weapon", t("rusty_blade"))],
                &[9],
            ),
            S::Res("brenna", "temp_hp", 1),
            S::Res("brenna", "hp", 10),
        ],
    });
}

#[test]
fn a_rogue_evades_a_hit_for_1_pp_and_a_warrior_withstands_a_point() {
    let rogue = pc("rogue", "elf");
    let warrior = with(pc("warrior", "human"), |v| {
        v["abilities"] = json!(["defensive_rush", "withstand"]);
        v["owner"] = json!("p1");
    });
    play(Scene {
        name: "evade and withstand",
        options: &[],
        cast: vec![rogue, warrior, goblin("g1", 3)],
        steps: vec![
            S::Start(&[7, 2]),
            S::Turn(Some("g1")),
            // A player acts only for the character its seat plays.
            S::RefusedFrom("warrior", "rogue", "end_turn", vec![], "forbidden"),
            // 8 + 1 = 9 against the rogue's T6: a hit; the rogue's seat decides.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("rusty_blade"))],
                &[8],
            ),
            S::Prompt(true),
            S::Refused("g1", "end_turn", vec![], "awaiting_decision"),
            // The warrior could rush in first; it lets the rogue deal with it.
            S::Answer("let", &[]),
            S::Answer("evade", &[]),
            S::Res("rogue", "pp", 6),
            S::Res("rogue", "hp", 6),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("rogue", "end_turn", vec![], &[]),
            S::Act("warrior", "end_turn", vec![], &[]),
            // 9 + 1 = 10 against the warrior's T7: a hit for 1; withstood for 1 PP.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("warrior")), ("weapon", t("rusty_blade"))],
                &[9],
            ),
            S::AnswerWith("withstand", vec![("points", n(1))], &[]),
            S::Res("warrior", "pp", 5),
            S::Res("warrior", "hp", 7),
        ],
    });
}

#[test]
fn moving_spends_the_movement_and_is_bounded_by_the_speed() {
    play(Scene {
        name: "move",
        options: &[],
        cast: vec![brenna(), goblin("g1", 0)],
        steps: vec![
            S::Start(&[]),
            S::Place("brenna", 0, 0),
            // Moderate speed, 60 ft: 12 cells of 5 ft.
            S::Refused(
                "brenna",
                "move",
                vec![("to", ArgValue::Cell(crate::grid::Cell::new(13, 0)))],
                "out_of_range",
            ),
            S::Act(
                "brenna",
                "move",
                vec![("to", ArgValue::Cell(crate::grid::Cell::new(12, 0)))],
                &[],
            ),
            S::Refused(
                "brenna",
                "move",
                vec![("to", ArgValue::Cell(crate::grid::Cell::new(11, 0)))],
                "none_left",
            ),
            // The move leaves the attack.
            S::Res("brenna", "action", 1),
        ],
    });
}

#[test]
fn feint_rolls_a_missed_melee_attack_again_against_one_less_toughness() {
    let rogue = with(pc("rogue", "elf"), |v| v["weapons"] = json!(["shortsword"]));
    play(Scene {
        name: "feint",
        options: &[],
        cast: vec![rogue, goblin("g1", 0)],
        steps: vec![
            S::Start(&[]),
            // 1 + power 2 = 3 misses T5; feint (2 PP): 2 + 2 = 4 against T4, a hit. Damage:
            // shortsword 1, +1 elf against an evil creature.
            S::Act(
                "rogue",
                "attack",
                vec![
                    ("target", t("g1")),
                    ("weapon", t("shortsword")),
                    ("feint", ArgValue::Flag(true)),
                ],
                &[1, 2],
            ),
            S::Res("rogue", "pp", 5),
            S::Res("g1", "hp", 1),
            S::Said("feint: attack again"),
        ],
    });
}

#[test]
fn words_of_strength_add_one_power_to_melee_attacks_for_1d5_rounds() {
    play(Scene {
        name: "words of strength",
        options: &[],
        cast: vec![
            brenna(),
            with(aldric(), |v| {
                v["abilities"] = json!(["spell_casting_divine", "words_of_strength"])
            }),
            goblin("g1", -1),
        ],
        steps: vec![
            S::Start(&[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            // 2 PP; the d5 says 2 rounds.
            S::Act("aldric", "words", vec![("of", t("strength"))], &[2]),
            S::Res("aldric", "pp", 5),
            S::Magnitude("brenna", "words_of_strength", 1),
            S::Act("aldric", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            // Round 2: 2 + power 2 + 1 = 5 reaches T5 (4 would not); flail 2 + 1 = 3 kills
            // the lone goblin (no morale roll: nobody is left).
            S::Act(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[2],
            ),
            S::Has("g1", "dead"),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("aldric", "end_turn", vec![], &[]),
            // Two round ends: the words are spent.
            S::Lacks("brenna", "words_of_strength"),
        ],
    });
}

#[test]
fn a_monsters_toughness_and_a_secret_toughness_are_the_gms() {
    play(Scene {
        name: "who sees toughness",
        options: &[],
        cast: vec![brenna(), goblin("g1", 0)],
        steps: vec![
            // A check against a toughness said aloud: Brenna's player sees it.
            S::Act(
                "brenna",
                "check",
                vec![("attribute", t("reflex")), ("toughness", n(6))],
                &[4],
            ),
            S::TargetSeen(true),
            // The GM rolls it against a secret toughness: the player sees only the outcome.
            S::GmAct(
                "brenna",
                "check",
                vec![
                    ("attribute", t("reflex")),
                    ("toughness", n(6)),
                    ("hidden", ArgValue::Flag(true)),
                ],
                &[4],
            ),
            S::TargetSeen(false),
            S::PlayerHears("fails"),
            S::Start(&[]),
            // Brenna attacks the goblin: its T5 stays the GM's.
            S::Act("brenna", "attack", vec![("target", t("g1"))], &[1]),
            S::TargetSeen(false),
            // A player cannot hide a toughness.
            S::Refused(
                "brenna",
                "check",
                vec![("attribute", t("reflex")), ("hidden", ArgValue::Flag(true))],
                "forbidden",
            ),
        ],
    });
}

#[test]
fn divine_medicine_restores_hp_mp_and_pp_and_costs_1_with_the_heal_skill() {
    play(Scene {
        name: "divine medicine",
        options: &[],
        cast: vec![
            with(brenna(), |v| {
                v["hp"] = json!(4);
                v["pp"] = json!(1);
            }),
            aldric(),
        ],
        steps: vec![
            // 1d5 + 1: a 2, so 3 of HP and PP (Brenna has no MP). Aldric's heal skill: 1 MP.
            S::Act(
                "aldric",
                "cast",
                vec![("spell", t("divine_medicine")), ("target", t("brenna"))],
                &[2],
            ),
            S::Res("brenna", "hp", 7),
            S::Res("brenna", "pp", 4),
            S::Res("aldric", "mp", 5),
        ],
    });
}

#[test]
fn deflect_projectiles_makes_a_ranged_hit_a_reflex_challenge_the_rogue_may_win() {
    // The rogue has no PP left, so no Evade prompt comes after.
    let rogue = with(pc("rogue", "elf"), |v| v["pp"] = json!(0));
    let archer = json!({
        "id": "archer", "name": "archer", "kind": "npc", "tags": ["goblin"],
        "weapons": ["shortbow"], "stats": {"reflex": 2, "toughness": 4, "hp_max": 2}
    });
    play(Scene {
        name: "deflect projectiles",
        options: &[],
        cast: vec![rogue, archer],
        steps: vec![
            S::Start(&[]),
            // 5 + reflex 2 = 7 hits the rogue's T6; the challenge: archer 3 + 2 = 5, the
            // rogue 6 + 1 = 7: deflected.
            S::Act(
                "archer",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("shortbow"))],
                &[5, 3, 6],
            ),
            S::Res("rogue", "hp", 6),
            S::Said("deflects the projectile"),
            S::Act("archer", "end_turn", vec![], &[]),
            S::Act("rogue", "end_turn", vec![], &[]),
            // Again: the archer's 9 + 2 = 11 beats the rogue's 1 + 1: the arrow's 1 lands.
            S::Act(
                "archer",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("shortbow"))],
                &[5, 9, 1],
            ),
            S::Res("rogue", "hp", 5),
        ],
    });
}

#[test]
fn a_champion_rolls_a_1_again_once() {
    let champion = json!({
        "id": "hild", "name": "Hild", "kind": "pc", "owner": "p1",
        "race": "dwarf", "class": "warrior", "level": 4,
        "points": {"power": 2, "reflex": 1, "hp": 6, "pp": 4},
        "advance": [
            {"attribute": "power", "points": "pp", "extra": "toughness"},
            {"attribute": "reflex", "points": "pp", "extra": "hp"},
            {"attribute": "power", "extra": "attribute"}
        ],
        "skills": ["craft", "spot", "listen", "survival"],
        "abilities": ["defensive_rush", "power_strike", "pummel", "brawl", "heroics"]
    });
    play(Scene {
        name: "champion's resolve",
        options: &[],
        cast: vec![champion],
        steps: vec![
            // A 1, rolled again: 7 + power 4 = 11 against T10.
            S::Act(
                "hild",
                "check",
                vec![("attribute", t("power")), ("toughness", n(10))],
                &[1, 7],
            ),
            S::Said("champion's resolve"),
            S::Said("result: \"succeeds\""),
        ],
    });
}

#[test]
fn a_dwarf_is_harder_to_hit_with_magic_and_a_halfling_with_arrows() {
    let caster = json!({
        "id": "shaman", "name": "shaman", "kind": "npc",
        "spells": ["fireball_1"], "weapons": ["shortbow"],
        "stats": {"intellect": 2, "reflex": 3, "toughness": 5, "hp_max": 5, "mp_max": 6, "casting": "magical"}
    });
    let halfling = with(pc("rogue", "halfling"), |v| {
        v["pp"] = json!(0);
        v["abilities"] = json!(["deflect_projectiles", "evade", "feint"]);
    });
    play(Scene {
        name: "race defences",
        options: &[],
        cast: vec![brenna(), caster, halfling],
        steps: vec![
            // Brenna and the halfling tie at reflex 1: 5 and 2.
            S::Start(&[5, 2]),
            S::Order(&["shaman", "brenna", "rogue"]),
            S::Turn(Some("shaman")),
            // Fireball I at Brenna: 8 + intellect 2 - 1 (dwarf) = 9 against T9: a hit; 1d5 2 + 1.
            S::Act(
                "shaman",
                "cast",
                vec![("spell", t("fireball_1")), ("target", t("brenna"))],
                &[8, 2],
            ),
            S::Said("target's race: magic"),
            // What the NPC cast is the GM's: the table hears "casts a spell on brenna".
            S::Said("verb: \"casts a spell on\""),
            S::PlayerNeverHears("ireball"),
            S::Res("brenna", "hp", 7),
            S::Res("shaman", "mp", 4),
            S::Act("shaman", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("rogue", "end_turn", vec![], &[]),
            // An arrow at the halfling: 3 + reflex 3 - 1 (halfling) = 5 misses its T6.
            S::Act(
                "shaman",
                "attack",
                vec![("target", t("rogue")), ("weapon", t("shortbow"))],
                &[3],
            ),
            S::Said("target's race: ranged"),
            S::Res("rogue", "hp", 6),
        ],
    });
}

#[test]
fn a_perception_check_is_intellect_with_the_elfs_bonus_and_the_skills() {
    let elf = with(pc("wizard", "elf"), |v| {
        v["points"] = json!({"intellect": 3, "hp": 5, "pp": 5, "mp_roll": 7});
    });
    play(Scene {
        name: "perception",
        options: &[],
        cast: vec![elf],
        steps: vec![
            // 4 + intellect 4 (3 points + 1 for an elf) + 1 (an elf's perception) = 9
            // against T9.
            S::Act(
                "wizard",
                "check",
                vec![("perception", ArgValue::Flag(true)), ("toughness", n(9))],
                &[4],
            ),
            S::Said("race: perception"),
            S::Said("result: \"succeeds\""),
        ],
    });
}

#[test]
fn the_gm_grants_combat_advantage_and_rolls_reactions_alone_and_a_days_rest_heals() {
    play(Scene {
        name: "gm tools",
        options: &[],
        cast: vec![
            with(brenna(), |v| v["hp"] = json!(3)),
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(9)),
        ],
        steps: vec![
            // A wandering monster's reaction: 6, hostile, may attack; the GM's alone.
            S::Gm("reaction", vec![], &[6]),
            S::Said("hostile: it may attack"),
            S::PlayerNeverHears("hostile"),
            S::Start(&[]),
            // 2 + power 2 + 1 (the GM's advantage) = 5 reaches T5 (4 would not).
            S::GmAct(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("advantage", n(1))],
                &[2],
            ),
            S::Said("combat advantage"),
            // No weapon named: her first, the flail: 1 + 1 (flail) + 1 (a dwarf against a
            // goblin) = 3 off 9.
            S::Said("instrument: Some(\"flail\")"),
            S::Res("g1", "hp", 6),
            S::Refused(
                "brenna",
                "attack",
                vec![("target", t("g1")), ("advantage", n(1))],
                "forbidden",
            ),
            S::Gm("end_encounter", vec![], &[]),
            // A day's rest: 1d5 (3) + 2 = 5 HP for Brenna, capped at her 10 HP; the goblin is
            // not a character.
            S::Gm("rest", vec![], &[3]),
            S::Res("brenna", "hp", 8),
            S::Res("g1", "hp", 6),
        ],
    });
}

#[test]
fn explosive_power_adds_pp_to_a_failed_melee_roll_after_it() {
    let warrior = with(bruna(), |v| {
        v["abilities"] = json!(["defensive_rush", "power_strike", "explosive_power"]);
    });
    play(Scene {
        name: "explosive power",
        options: &[],
        cast: vec![
            warrior,
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[]),
            // 1 + power 3 = 4 misses T5: Bruna's seat may add PP (she has 4 + 1 + 2 = 7).
            S::Act(
                "bruna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[1],
            ),
            S::Prompt(true),
            // The goblin's toughness is the GM's, not in what her seat is asked.
            S::Check(Box::new(|p: &Played<'_>| {
                let step = p.state.encounter().pending.last().expect(p.at);
                assert_eq!(step.secret_int("toughness"), Some(5), "{}", p.at);
            })),
            S::PlayerNeverHears("\"toughness\": Int(5)"),
            // One PP: 5 reaches T5; flail 2 + 1 against goblins.
            S::AnswerWith("add", vec![("points", n(1))], &[]),
            S::Res("bruna", "pp", 6),
            S::Res("g1", "hp", 7),
            S::Act("bruna", "end_turn", vec![], &[]),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act(
                "bruna",
                "attack",
                vec![("target", t("g1")), ("weapon", t("flail"))],
                &[1],
            ),
            S::Answer("keep", &[]),
            S::Res("bruna", "pp", 6),
            S::Res("g1", "hp", 7),
        ],
    });
}

#[test]
fn smite_rolls_an_attack_and_deals_1d10_only_to_the_unholy() {
    let cleric = json!({
        "id": "osric", "name": "Osric", "kind": "pc", "owner": "p1",
        "race": "human", "class": "cleric", "level": 2,
        "points": {"aspect": 2, "power": 1, "hp": 5, "pp": 5, "mp_roll": 7},
        "advance": [{"attribute": "aspect", "points": "pp", "extra": "toughness"}],
        "skills": ["persuade", "heal", "spot"],
        "abilities": ["spell_casting_divine", "words_of_healing", "smite"],
        "spells": ["sword_of_the_spirit", "divine_medicine"]
    });
    let beast = with(goblin("wolf", -2), |v| v["tags"] = json!(["natural_beast"]));
    play(Scene {
        name: "smite",
        options: &[],
        cast: vec![cleric, skeleton(-1), beast],
        steps: vec![
            S::Start(&[]),
            // Aspect 2 + 1 (human) + 1 (level 2) = 4: 3 + 4 = 7 reaches the skeleton's T7;
            // 1d10 a 4. PP 5 + 2 + 2 = 9, less 3.
            S::Act(
                "osric",
                "ability",
                vec![("name", t("smite")), ("target", t("skeleton"))],
                &[3, 4],
            ),
            S::Res("skeleton", "hp", 2),
            S::Res("osric", "pp", 6),
            S::Act("osric", "end_turn", vec![], &[]),
            S::Act("skeleton", "end_turn", vec![], &[]),
            S::Act("wolf", "end_turn", vec![], &[]),
            // A wolf is no unholy thing: hit, but unharmed.
            S::Act(
                "osric",
                "ability",
                vec![("name", t("smite")), ("target", t("wolf"))],
                &[5],
            ),
            S::Res("wolf", "hp", 3),
            S::Res("osric", "pp", 3),
            S::Act("osric", "end_turn", vec![], &[]),
            S::Act("skeleton", "end_turn", vec![], &[]),
            S::Act("wolf", "end_turn", vec![], &[]),
            S::Act(
                "osric",
                "ability",
                vec![("name", t("smite")), ("target", t("wolf"))],
                &[5],
            ),
            S::Act("osric", "end_turn", vec![], &[]),
            S::Act("skeleton", "end_turn", vec![], &[]),
            S::Act("wolf", "end_turn", vec![], &[]),
            S::Refused(
                "osric",
                "ability",
                vec![("name", t("smite")), ("target", t("wolf"))],
                "insufficient_resource",
            ),
            S::Refused(
                "osric",
                "ability",
                vec![("name", t("stunning_blow")), ("target", t("wolf"))],
                "rule",
            ),
        ],
    });
}

#[test]
fn stunning_blow_deals_2_and_a_lost_power_challenge_knocks_out_for_1d5_rounds() {
    let warrior = with(bruna(), |v| {
        v["abilities"] = json!(["defensive_rush", "power_strike", "stunning_blow"]);
    });
    play(Scene {
        name: "stunning blow",
        options: &[],
        cast: vec![
            warrior,
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[]),
            // 2 + power 3 + 1 = 6 hits T5: 2 damage. Challenge: 5 + 3 against 1 + 1: lost;
            // out for 1d5 = 2 rounds.
            S::Act(
                "bruna",
                "ability",
                vec![("name", t("stunning_blow")), ("target", t("g1"))],
                &[2, 5, 1, 2],
            ),
            S::Res("g1", "hp", 8),
            S::Res("bruna", "pp", 5),
            S::Has("g1", "unconscious"),
            S::Has("g1", "prone"),
            // Its turns pass while it is out; after two round ends it wakes, still prone.
            S::Act("bruna", "end_turn", vec![], &[]),
            S::Turn(Some("bruna")),
            S::Has("g1", "unconscious"),
            S::Act("bruna", "end_turn", vec![], &[]),
            S::Lacks("g1", "unconscious"),
            S::Has("g1", "prone"),
        ],
    });
}

#[test]
fn a_knock_out_with_rounds_left_ends_with_the_fight() {
    let warrior = with(bruna(), |v| {
        v["abilities"] = json!(["defensive_rush", "power_strike", "stunning_blow"]);
    });
    play(Scene {
        name: "a knock-out and the fight's end",
        options: &[],
        cast: vec![
            warrior,
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[]),
            // As above: 2 + 3 + 1 = 6 hits T5; the challenge 5 + 3 against 1 + 1 is lost; out
            // for 1d5 = 2 rounds.
            S::Act(
                "bruna",
                "ability",
                vec![("name", t("stunning_blow")), ("target", t("g1"))],
                &[2, 5, 1, 2],
            ),
            S::Has("g1", "unconscious"),
            // No round ends out of a fight: its count goes with the fight; still prone.
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("g1", "unconscious"),
            S::Has("g1", "prone"),
        ],
    });
}

#[test]
fn defensive_rush_cancels_a_blow_on_an_ally_or_takes_it() {
    play(Scene {
        name: "defensive rush",
        options: &[],
        cast: vec![brenna(), aldric(), goblin("g1", 2)],
        steps: vec![
            S::Start(&[]),
            // 6 + 1 = 7 hits Aldric's T7; Brenna rushes in (2 PP): power 5 + 2 = 7 against
            // the goblin's 3 + 1 = 4: the blow is cancelled.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
                &[6],
            ),
            S::Answer("rush", &[5, 3]),
            S::Res("aldric", "hp", 6),
            S::Res("brenna", "pp", 3),
            S::Said("is cancelled"),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("aldric", "end_turn", vec![], &[]),
            // Again, and she loses (1 + 2 against 5 + 1): she takes the 1 damage herself.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
                &[6],
            ),
            S::Answer("rush", &[1, 5]),
            S::Res("aldric", "hp", 6),
            S::Res("brenna", "hp", 9),
            S::Res("brenna", "pp", 1),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("brenna", "end_turn", vec![], &[]),
            S::Act("aldric", "end_turn", vec![], &[]),
            // With 1 PP she cannot: the blow lands at once.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
                &[6],
            ),
            S::Prompt(false),
            S::Res("aldric", "hp", 5),
        ],
    });
}

#[test]
fn defensive_rush_reaches_only_an_ally_within_the_movement_range() {
    play(Scene {
        name: "rush out of reach",
        options: &[],
        cast: vec![brenna(), aldric(), goblin("g1", 2)],
        steps: vec![
            S::Start(&[]),
            // 13 cells of 5 ft: 65 ft, past Brenna's 60.
            S::Place("brenna", 0, 0),
            S::Place("aldric", 13, 0),
            S::Act(
                "g1",
                "attack",
                vec![("target", t("aldric")), ("weapon", t("rusty_blade"))],
                &[6],
            ),
            S::Prompt(false),
            S::Res("aldric", "hp", 5),
        ],
    });
}

#[test]
fn hail_of_daggers_throws_1d5_plus_level_daggers_of_1_on_one_roll() {
    let rogue = json!({
        "id": "wren", "name": "Wren", "kind": "pc", "owner": "p1",
        "race": "elf", "class": "rogue", "level": 2,
        "points": {"power": 2, "reflex": 1, "hp": 5, "pp": 5},
        "advance": [{"attribute": "reflex", "points": "pp", "extra": "toughness"}],
        "skills": ["spot"],
        "abilities": ["deflect_projectiles", "evade", "feint", "hail_of_daggers"]
    });
    play(Scene {
        name: "hail of daggers",
        options: &[],
        cast: vec![
            rogue,
            with(goblin("g1", 0), |v| v["stats"]["hp_max"] = json!(10)),
        ],
        steps: vec![
            S::Start(&[]),
            // Reflex 1 + 1 (level 2) = 2: 3 + 2 = 5 reaches T5. Daggers: 1d5 (2) + level 2 = 4.
            // PP 5 + 2 + 2 = 9, less 3.
            S::Act(
                "wren",
                "ability",
                vec![("name", t("hail_of_daggers")), ("target", t("g1"))],
                &[3, 2],
            ),
            S::Res("g1", "hp", 6),
            S::Res("wren", "pp", 6),
        ],
    });
}

#[test]
fn a_shot_or_a_spell_past_its_range_is_refused_on_the_grid() {
    let archer = json!({
        "id": "archer", "name": "archer", "kind": "npc",
        "weapons": ["hand_axe"], "stats": {"reflex": 2, "toughness": 4, "hp_max": 2}
    });
    play(Scene {
        name: "range",
        options: &[],
        cast: vec![brenna(), archer],
        steps: vec![
            S::Start(&[]),
            S::Place("archer", 0, 0),
            S::Place("brenna", 7, 0),
            // A hand-axe reaches 30 ft: 35 ft is too far, nothing spent.
            S::Refused(
                "archer",
                "attack",
                vec![("target", t("brenna")), ("weapon", t("hand_axe"))],
                "out_of_range",
            ),
            S::Res("archer", "action", 1),
            S::Place("brenna", 6, 0),
            // 30 ft: 4 + 2 = 6 misses Brenna's T9.
            S::Act(
                "archer",
                "attack",
                vec![("target", t("brenna")), ("weapon", t("hand_axe"))],
                &[4],
            ),
            S::Res("archer", "action", 0),
        ],
    });
}

#[test]
fn legendary_presence_challenges_a_foes_first_attack_and_a_loss_costs_it_2() {
    let legend = json!({
        "id": "hild", "name": "Hild", "kind": "pc", "owner": "p1",
        "race": "dwarf", "class": "warrior", "level": 5,
        "points": {"power": 2, "reflex": 1, "hp": 6, "pp": 4},
        "advance": [
            {"attribute": "power", "points": "pp", "extra": "toughness"},
            {"attribute": "reflex", "points": "pp", "extra": "hp"},
            {"attribute": "power", "extra": "attribute"},
            {"attribute": "aspect"}
        ],
        "skills": ["craft", "spot", "listen", "survival"],
        "abilities": ["defensive_rush", "power_strike", "pummel", "brawl", "heroics"]
    });
    play(Scene {
        name: "legendary presence",
        options: &[],
        cast: vec![
            legend,
            with(goblin("g1", 3), |v| v["stats"]["power"] = json!(5)),
            with(goblin("g2", 4), |v| v["stats"]["power"] = json!(5)),
        ],
        steps: vec![
            S::Start(&[]),
            // Hild: T 7 + 1 + 1 = 9, aspect 2 (level 5); HP 6 + 2 (warrior) + 5 (dwarf, level 5)
            // + 2 + 2 + 2 (levels 2, 3, 4) = 19. g2's first attack: aspect challenge 6 + 0
            // against Hild's 2 + 2: it wins, no penalty; 4 + power 5 = 9 hits (Withstand is not
            // Hild's; she has no Evade).
            S::Act(
                "g2",
                "attack",
                vec![("target", t("hild")), ("weapon", t("rusty_blade"))],
                &[6, 2, 4],
            ),
            S::Said("legendary presence"),
            S::Res("hild", "hp", 18),
            S::Act("g2", "end_turn", vec![], &[]),
            // g1's first attack: 4 + 0 against 3 + 2, it loses: 4 + 5 - 2 = 7 misses T9.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("hild")), ("weapon", t("rusty_blade"))],
                &[4, 3, 4],
            ),
            S::Res("hild", "hp", 18),
            S::Act("g1", "end_turn", vec![], &[]),
            S::Act("hild", "end_turn", vec![], &[]),
            S::Act("g2", "end_turn", vec![], &[]),
            // Its second attack: no challenge, no penalty: 4 + 5 = 9 hits.
            S::Act(
                "g1",
                "attack",
                vec![("target", t("hild")), ("weapon", t("rusty_blade"))],
                &[4],
            ),
            S::Res("hild", "hp", 17),
        ],
    });
}

#[test]
fn rapid_regeneration_doubles_the_hp_a_potion_gives() {
    let rogue = json!({
        "id": "wren", "name": "Wren", "kind": "pc", "owner": "p1",
        "race": "elf", "class": "rogue", "level": 2, "hp": 1,
        "points": {"power": 2, "reflex": 1, "hp": 5, "pp": 5},
        "advance": [{"attribute": "reflex", "points": "pp", "extra": "toughness"}],
        "skills": ["spot"],
        "abilities": ["deflect_projectiles", "evade", "feint", "rapid_regeneration"],
        "items": ["healing_potion"]
    });
    play(Scene {
        name: "rapid regeneration",
        options: &[],
        cast: vec![rogue],
        steps: vec![
            // 1d5 a 3, doubled: 6, from 1 HP to 7 (of 5 + 1 + 2 = 8).
            S::Act("wren", "potion", vec![], &[3]),
            S::Res("wren", "hp", 7),
        ],
    });
}

#[test]
fn magical_disruption_takes_one_off_a_spell_attack_on_its_bearer() {
    let warded = json!({
        "id": "adept", "name": "adept", "kind": "npc", "abilities": ["magical_disruption"],
        "stats": {"reflex": -1, "toughness": 8, "hp_max": 5}
    });
    play(Scene {
        name: "magical disruption",
        options: &[],
        cast: vec![mira(), warded],
        steps: vec![
            S::Start(&[]),
            // Fireball I: 4 + intellect 4 - 1 = 7 misses T8 (8 would have hit). 2 MP less 1
            // for Arcane knowledge.
            S::Act(
                "mira",
                "cast",
                vec![("spell", t("fireball_1")), ("target", t("adept"))],
                &[4],
            ),
            S::Said("magical disruption"),
            S::Res("adept", "hp", 5),
            S::Res("mira", "mp", 12),
        ],
    });
}

/// "Nearby allies" (no distance in the text): by default every able ally on the bearer's side
/// is covered, so Fireball I on a goblin (reflex -2: no initiative tie) beside the adept rolls 4 + intellect 4 - 1 = 7 and
/// misses T8; with `tinyd10.disruption = bearer` the same 4 makes 8 and hits (1d5 of 2 + 1 = 3
/// damage, 5 HP to 2). Either way the caster pays 2 MP less 1 for Arcane knowledge.
#[test]
fn option_disruption_covers_the_bearers_side_or_the_bearer_alone() {
    let adept = json!({
        "id": "adept", "name": "adept", "kind": "npc", "abilities": ["magical_disruption"],
        "stats": {"reflex": -1, "toughness": 8, "hp_max": 5}
    });
    let goblin = json!({
        "id": "goblin", "name": "goblin", "kind": "npc",
        "stats": {"reflex": -2, "toughness": 8, "hp_max": 5}
    });
    // (table options, dice, whether disruption counts, the goblin's HP after)
    type Case = (
        &'static [(&'static str, &'static str)],
        &'static [u32],
        bool,
        i64,
    );
    let cases: [Case; 2] = [
        (&[], &[4], true, 5),
        (&[("tinyd10.disruption", "bearer")], &[4, 2], false, 2),
    ];
    for (options, faces, disrupted, hp) in cases {
        let mut steps = vec![
            S::Start(&[]),
            S::Act(
                "mira",
                "cast",
                vec![("spell", t("fireball_1")), ("target", t("goblin"))],
                faces,
            ),
            S::Res("goblin", "hp", hp),
            S::Res("mira", "mp", 12),
        ];
        steps.push(if disrupted {
            S::Said("magical disruption")
        } else {
            S::Check(Box::new(|p: &Played<'_>| {
                let told = format!("{:?}", p.last);
                assert!(!told.contains("magical disruption"), "{told}");
            }))
        });
        play(Scene {
            name: "magical disruption on an ally",
            options,
            cast: vec![mira(), adept.clone(), goblin.clone()],
            steps,
        });
    }
}

#[test]
fn spell_adept_doubles_the_mp_standard_healing_gives() {
    let adept = json!({
        "id": "ysolde", "name": "Ysolde", "kind": "pc", "owner": "p1",
        "race": "dwarf", "class": "wizard", "level": 2, "mp": 5,
        "points": {"intellect": 3, "hp": 6, "pp": 4, "mp_roll": 10},
        "advance": [{"attribute": "intellect", "points": "mp", "extra": "spells"}],
        "skills": ["craft", "spot"],
        "abilities": ["prestidigitation", "spell_casting_magical", "splash_effect", "spell_adept"],
        "spells": ["fireball_1", "heal"]
    });
    play(Scene {
        name: "spell adept",
        options: &[],
        cast: vec![adept, aldric()],
        steps: vec![
            // Aldric's heal skill makes it sure; a d2 of 2: MP 5 + 2 x 2 = 9 (of 3 + 6 + 2 = 11).
            S::Act("aldric", "heal", vec![("target", t("ysolde"))], &[2]),
            S::Res("ysolde", "mp", 9),
        ],
    });
}
