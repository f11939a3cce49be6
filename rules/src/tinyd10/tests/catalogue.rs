//! What the system says of itself: its id, the bounds of the resources a ruling may set, and
//! the actions each seat is offered (what a client lists and completes), as the fight moves:
//! before it, on a character's turn and after what it spent, and for characters whose sheets
//! give them a spell, a strike, healing words or a knack.

use crate::ids::Seat;
use crate::system::RuleSystem;
use crate::testing::scene::{Played, S, Scene};

use super::super::TinyD10;
use super::abilities::hero;
use super::scenes::{brenna, goblin, n, play, t};

/// Every action `seat` is offered for `who` (`None`: the actions that name no actor), in the
/// order offered.
fn offered(p: &Played<'_>, seat: &Seat, who: Option<&str>) -> Vec<String> {
    TinyD10
        .actions(p.state, seat)
        .into_iter()
        .filter(|a| a.actor.as_ref().map(|x| x.0.as_str()) == who)
        .map(|a| a.name)
        .collect()
}

/// `p1` is offered exactly `names` for `who`.
fn offers(who: &'static str, names: &'static [&'static str]) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let seat = Seat::Player("p1".into());
        assert_eq!(offered(p, &seat, Some(who)), names, "{}: {who}", p.at);
    }))
}

/// The GM is offered exactly `names` among the actions that name no actor.
fn gm_offers(names: &'static [&'static str]) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        assert_eq!(offered(p, &Seat::Gm, None), names, "{}", p.at);
    }))
}

/// The values offered now for `arg` of `who`'s `action`.
fn offers_now(
    who: &'static str,
    action: &'static str,
    arg: &'static str,
    values: &'static [&'static str],
) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let seat = Seat::Player("p1".into());
        let spec = TinyD10
            .actions(p.state, &seat)
            .into_iter()
            .find(|a| a.name == action && a.actor.as_ref().is_some_and(|x| x.0 == who))
            .unwrap_or_else(|| panic!("{}: {who} is not offered {action}", p.at));
        let now = &spec.args.iter().find(|a| a.name == arg).unwrap().now;
        assert_eq!(now, values, "{}: {who} {action} {arg}", p.at);
    }))
}

fn rule(name: &'static str, who: &'static str, key: &'static str, value: i64) -> S {
    let what = if name == "rule.set-resource" {
        "resource"
    } else {
        "status"
    };
    let value_arg = if name == "rule.set-resource" {
        "value"
    } else {
        "magnitude"
    };
    S::Gm(
        name,
        vec![("target", t(who)), (what, t(key)), (value_arg, n(value))],
        &[],
    )
}

const IN_A_FIGHT: &[&str] = &[
    "end_encounter",
    "challenge",
    "save",
    "morale",
    "wander",
    "fall",
    "unmask",
];
const BETWEEN_FIGHTS: &[&str] = &[
    "start_encounter",
    "challenge",
    "save",
    "reaction",
    "rest",
    "award_xp",
    "wander",
    "lost",
    "advance_time",
    "force_door",
    "pick_lock",
    "trap",
    "fall",
    "unmask",
];

#[test]
fn the_system_names_itself_and_the_bounds_of_what_a_ruling_may_set() {
    assert_eq!(TinyD10.id(), "tinyd10");
    let bounds: Vec<(&str, i64, i64)> = TinyD10
        .resources()
        .iter()
        .map(|r| (r.key, r.min, r.max))
        .collect();
    assert_eq!(
        bounds,
        [
            ("hp", 0, 10_000),
            ("pp", 0, 10_000),
            ("mp", 0, 10_000),
            ("temp_hp", 0, 10_000),
            ("xp", 0, 10_000),
            ("action", 0, 1),
            ("move", 0, 1),
        ]
    );
}

#[test]
fn each_seat_is_offered_what_its_characters_may_do_now() {
    play(Scene {
        name: "the catalogue",
        options: &[],
        cast: vec![
            brenna(),
            // A level 2 warrior with Stunning blow, a level 2 wizard with a familiar's pact, a
            // level 2 cleric with Words of healing: all p1's, reflex 1 (the wizard 2).
            hero("warrior", "human", "power", "stunning_blow", &[]),
            hero("wizard", "human", "reflex", "apprentice", &[]),
            hero("cleric", "human", "power", "smite", &[]),
            goblin("g1", -2),
        ],
        steps: vec![
            gm_offers(BETWEEN_FIGHTS),
            // Between fights: checks, healing and potions; a knack any time.
            offers("brenna", &["check", "heal", "potion"]),
            offers("wizard", &["check", "heal", "potion", "ability"]),
            S::Start(&[1, 2, 3]),
            S::Order(&["wizard", "warrior", "cleric", "brenna", "g1"]),
            gm_offers(IN_A_FIGHT),
            // Whose turn it is not: a check alone.
            offers("brenna", &["check"]),
            // The wizard's turn: a spell from its book, a knack among abilities.
            offers(
                "wizard",
                &[
                    "check", "attack", "cast", "ability", "potion", "heal", "move", "end_turn",
                ],
            ),
            offers_now(
                "wizard",
                "cast",
                "spell",
                &["fireball_1", "magic_missile_1", "heal"],
            ),
            S::Act("wizard", "end_turn", vec![], &[]),
            offers(
                "warrior",
                &[
                    "check", "attack", "ability", "potion", "heal", "move", "end_turn",
                ],
            ),
            S::Act("warrior", "end_turn", vec![], &[]),
            // Smite is a strike: an ability to use; and words of healing to speak.
            offers(
                "cleric",
                &[
                    "check", "attack", "cast", "ability", "words", "potion", "heal", "move",
                    "end_turn",
                ],
            ),
            S::Act("cleric", "end_turn", vec![], &[]),
            // Brenna: no spell, strike or knack. Her targets are every creature, her weapons
            // those of her sheet and her bare hands.
            offers(
                "brenna",
                &["check", "attack", "potion", "heal", "move", "end_turn"],
            ),
            offers_now(
                "brenna",
                "attack",
                "target",
                &["brenna", "cleric", "g1", "warrior", "wizard"],
            ),
            offers_now(
                "brenna",
                "attack",
                "weapon",
                &["flail", "shield", "shortbow", "unarmed"],
            ),
            // An extra attack waiting beside the turn's own: one attack offered.
            rule("rule.set-status", "brenna", "extra_attack", 1),
            offers(
                "brenna",
                &["check", "attack", "potion", "heal", "move", "end_turn"],
            ),
            // Her move spent: no healing (it takes the move) and no move.
            rule("rule.set-resource", "brenna", "move", 0),
            offers("brenna", &["check", "attack", "potion", "end_turn"]),
            // Her action spent too: the extra attack alone.
            rule("rule.set-resource", "brenna", "action", 0),
            offers("brenna", &["check", "attack", "end_turn"]),
            S::Gm(
                "rule.clear-status",
                vec![("target", t("brenna")), ("status", t("extra_attack"))],
                &[],
            ),
            offers("brenna", &["check", "end_turn"]),
            // A tactical retreat moves her past her move; serpents in hand may be let go.
            rule("rule.set-status", "brenna", "tactical_retreat", 0),
            rule("rule.set-status", "brenna", "serpents", 0),
            offers("brenna", &["check", "move", "let_go", "end_turn"]),
            // At 0 HP she acts no more.
            rule("rule.set-resource", "brenna", "hp", 0),
            offers("brenna", &["check"]),
        ],
    });
}

/// Each ability that is used with `ability` offers it by itself: Call to battle, a boon
/// (Bless weapon), Healing sacrifice, Enchanted healing.
#[test]
fn each_ability_used_in_a_fight_offers_the_ability_action_on_its_own() {
    let one = |id: &'static str, class: &str, ability: &str, reflex: i64| {
        super::with(hero(class, "human", "power", ability, &[]), move |v| {
            v["id"] = serde_json::json!(id);
            v["points"]["reflex"] = serde_json::json!(reflex);
            v["points"]["power"] = serde_json::json!(3 - reflex);
        })
    };
    play(Scene {
        name: "the ability action",
        options: &[],
        cast: vec![
            one("caller", "cleric", "call_to_battle", 3),
            one("blesser", "cleric", "bless_weapon", 2),
            one("sacrificer", "cleric", "healing_sacrifice", 1),
            one("enchanter", "wizard", "enchanted_healing", 0),
        ],
        steps: vec![
            S::Start(&[]),
            S::Order(&["caller", "blesser", "sacrificer", "enchanter"]),
            offers_ability("caller"),
            S::Act("caller", "end_turn", vec![], &[]),
            offers_ability("blesser"),
            S::Act("blesser", "end_turn", vec![], &[]),
            offers_ability("sacrificer"),
            S::Act("sacrificer", "end_turn", vec![], &[]),
            offers_ability("enchanter"),
        ],
    });
}

/// `p1` is offered `ability` for `who`.
fn offers_ability(who: &'static str) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let seat = Seat::Player("p1".into());
        let names = offered(p, &seat, Some(who));
        assert!(
            names.iter().any(|n| n == "ability"),
            "{}: {who} {names:?}",
            p.at
        );
    }))
}
