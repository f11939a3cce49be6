//! Exploration and the non-combat abilities as scenes: the GM's wandering monster checks and
//! direction rolls (the GM's alone), time passing, doors, locks and traps, and Walk on water,
//! Disguise, Cat's paw, Petty thief, Heroics, Magical intrusion and Apprentice/Familiar.
//!
//! The cast, all level 2 and played by `p1` unless said (see `hero`): Rook, a human rogue
//! (power 2, reflex 1 + 1 raised = 2, intellect 0, HP 5 + 1 + 2 = 8, PP 5 + 2 + 2 = 9) with a
//! thieves' kit and the pick lock skill; Lira, an elf rogue (intellect 1 + 1 raised = 2,
//! reflex 1, +1 to perception, immune to poison) with the detect trap skill.

use serde_json::{Value, json};

use crate::action::{ArgValue, Args, Command};
use crate::dice::{DiceError, DiceSource, Draws, Primitive, ScriptedDice};
use crate::engine::decide;
use crate::event::Event;
use crate::ids::Seat;
use crate::options::{OptionValue, TableOptions};
use crate::state::{MemoryState, StateMut};
use crate::system::RuleSystem;
use crate::testing::scene::{Played, S, Scene};

use super::abilities::hero;
use super::scenes::{goblin, n, play, t};
use super::{pc, with};

fn yes() -> ArgValue {
    ArgValue::Flag(true)
}

/// A level 2 character with its own id, `ability` taken at level 2, then `edit`ed.
fn who(
    id: &str,
    class: &str,
    race: &str,
    raise: &str,
    ability: &str,
    edit: impl FnOnce(&mut Value),
) -> Value {
    with(hero(class, race, raise, ability, &[]), |v| {
        v["id"] = json!(id);
        v["name"] = json!(id);
        edit(v);
    })
}

/// Rook: human rogue, reflex 2, pick lock, a thieves' kit, and `ability`.
fn rook(ability: &str) -> Value {
    who("rook", "rogue", "human", "reflex", ability, |v| {
        v["skills"] = json!(["persuade", "spot", "pick_lock"]);
        v["items"] = json!(["thieves_kit"]);
    })
}

/// Lira: elf rogue, intellect 2, detect trap, carrying `items`.
fn lira(items: &[&str]) -> Value {
    who("lira", "rogue", "elf", "intellect", "cats_paw", |v| {
        v["skills"] = json!(["detect_trap"]);
        v["items"] = json!(items);
    })
}

// ---- Wandering monsters -----------------------------------------------------------------

/// One `wander` with `faces` and what the GM reads of it.
fn wandering(
    options: &'static [(&'static str, &'static str)],
    reaction: bool,
    faces: &'static [u32],
    said: &'static str,
) {
    let args = if reaction {
        vec![("reaction", yes())]
    } else {
        vec![]
    };
    play(Scene {
        name: "wandering",
        options,
        cast: vec![rook("cats_paw")],
        steps: vec![
            S::Gm("wander", args, faces),
            S::Said(said),
            // Not a word of it reaches a player: not the check, not the monster, not its mood.
            S::PlayerNeverHears("wandering"),
            S::PlayerNeverHears("monster"),
            S::PlayerNeverHears("comes"),
            S::GmOnly(&["wandering monster check"]),
            // A player cannot call the GM's check.
            S::Refused("rook", "wander", vec![], "forbidden"),
        ],
    });
}

#[test]
fn a_wandering_monster_comes_on_a_d10_of_1_or_2_told_to_the_gm_alone() {
    // 1 in 5 read on the d10: faces 1 and 2 bring a monster, 3 to 10 do not.
    wandering(
        &[],
        false,
        &[2],
        "1-2 on a d10 (called by the GM): 2, a monster comes",
    );
    wandering(&[], false, &[1], "1, a monster comes");
    wandering(&[], false, &[3], "3, nothing comes");
    // With `reaction`, what comes rolls on the reaction table too (10: friendly). When nothing
    // comes the reaction die is drawn all the same and the GM alone reads that it is set
    // aside: a die fewer would tell the table that nothing came (see the test below).
    wandering(&[], true, &[1, 10], "friendly, perhaps helpful");
    wandering(
        &[],
        true,
        &[3, 10],
        "wandering monster reaction: not read, nothing comes (10)",
    );
}

#[test]
fn option_wandering_d5_brings_a_monster_only_on_a_1_of_a_d5() {
    // The same face 2 that brings a monster on the d10 reading brings none on a d5 (only its
    // 1 does).
    wandering(
        &[("tinyd10.wandering", "d5")],
        false,
        &[2],
        "a 1 on a d5 (called by the GM): 2, nothing comes",
    );
    wandering(
        &[("tinyd10.wandering", "d5")],
        false,
        &[1],
        "1, a monster comes",
    );
    // With `tinyd10.d5` = half_d10 the d5 is a d10 halved up: a 2 reads as 1, a monster.
    wandering(
        &[("tinyd10.wandering", "d5"), ("tinyd10.d5", "half_d10")],
        false,
        &[2],
        "1, a monster comes",
    );
}

/// Faces written down in advance that number their draws as the fair stream does (one counter
/// each, in epoch 1), so each event carries the public `dice_drawn` part every seat sees: the
/// scripted dice of the scene runner number nothing, and a copy without counters hides how many
/// dice were drawn.
struct Counted {
    faces: ScriptedDice,
    next: u64,
    spans: Vec<[u64; 2]>,
}

impl DiceSource for Counted {
    fn draw(&mut self, die: Primitive) -> Result<u32, DiceError> {
        let face = self.faces.draw(die)?;
        self.spans.push([self.next, self.next + 1]);
        self.next += 1;
        Ok(face)
    }

    fn last_counters(&self) -> Option<[u64; 2]> {
        self.spans.last().copied()
    }

    fn take_draws(&mut self) -> Option<Draws> {
        (!self.spans.is_empty()).then(|| Draws {
            epoch: 1,
            spans: std::mem::take(&mut self.spans),
        })
    }
}

/// One GM command on a table of `cast` under `options`, drawing exactly `faces` with counters:
/// the copy of its events that `p1`'s seat holds (a `null` for an event it may not see: the
/// seat still sees the gap in the sequence) and the GM's, each serialized whole.
fn copies(
    cast: &[Value],
    options: &[(&str, &str)],
    action: &str,
    pairs: &[(&'static str, ArgValue)],
    faces: &[u32],
) -> (String, String) {
    let system = super::super::TinyD10;
    let given = options
        .iter()
        .map(|(k, v)| ((*k).to_owned(), OptionValue::Choice((*v).to_owned())))
        .collect();
    let options = TableOptions::resolve(&system.options(), &given).unwrap();
    let mut state = MemoryState::new(options);
    for sheet in cast {
        state.insert_combatant(system.sheet_from_json(sheet).unwrap());
    }
    let args = Args(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    );
    let cmd = Command::act(Seat::Gm, None, action, args);
    let mut dice = Counted {
        faces: ScriptedDice::new(faces.to_vec()),
        next: 0,
        spans: Vec::new(),
    };
    let events = decide(&system, &state, &cmd, &mut dice).unwrap();
    assert!(dice.faces.unused().is_empty(), "{action}: faces left over");
    let copy = |seat: &Seat| {
        let views: Vec<Option<Event>> = events.iter().map(|e| e.view(seat)).collect();
        serde_json::to_string(&views).unwrap()
    };
    (copy(&Seat::Player("p1".into())), copy(&Seat::Gm))
}

/// For each case, a command played once with faces that bring about the GM's secret and once
/// with faces that do not: the GM's copies differ, the player's are the same to the byte.
fn same_for_players(cases: Vec<(&str, Vec<Value>, Options, Shot, Shot)>) {
    for (name, cast, options, (action, pairs, secret), (action_2, pairs_2, none)) in cases {
        let (player_secret, gm_secret) = copies(&cast, options, action, &pairs, secret);
        let (player_none, gm_none) = copies(&cast, options, action_2, &pairs_2, none);
        assert_ne!(
            gm_secret, gm_none,
            "{name}: the GM's copies tell the two apart"
        );
        assert_eq!(
            player_secret, player_none,
            "{name}: a player's copy tells the GM's secret"
        );
    }
}

type Options = &'static [(&'static str, &'static str)];
/// A GM command: its action, its arguments and the faces it draws.
type Shot = (&'static str, Vec<(&'static str, ArgValue)>, &'static [u32]);

#[test]
fn a_player_sees_the_same_draws_and_events_whether_a_wandering_monster_comes_or_not() {
    let reaction = || vec![("reaction", yes())];
    let door = || {
        vec![
            ("by", t("rook")),
            ("toughness", n(7)),
            ("hidden", yes()),
            ("reaction", yes()),
        ]
    };
    let time = || {
        vec![
            ("turns", n(2)),
            ("where", t("wilderness")),
            ("wander", yes()),
        ]
    };
    let cast = || vec![rook("cats_paw")];
    same_for_players(vec![
        // The d10 reading: a 1 brings a monster whose reaction die shows 10 (friendly); a 3
        // brings none, and the reaction die is drawn all the same (its 10 read by nobody).
        (
            "wander --reaction",
            cast(),
            &[],
            ("wander", reaction(), &[1, 10]),
            ("wander", reaction(), &[3, 10]),
        ),
        (
            "wander",
            cast(),
            &[],
            ("wander", vec![], &[2]),
            ("wander", vec![], &[3]),
        ),
        // On a d5 only a 1 brings one; the reaction die is a d10 either way (4: may attack).
        (
            "wander --reaction on a d5",
            cast(),
            &[("tinyd10.wandering", "d5")],
            ("wander", reaction(), &[1, 4]),
            ("wander", reaction(), &[2, 4]),
        ),
        // Rook breaks the door down both times (5 + power 2 = 7 reaches the hidden T7, told
        // to all); the wandering check after it is 2 (a monster, reaction 10) or 9 (none).
        (
            "force_door --reaction",
            cast(),
            &[],
            ("force_door", door(), &[5, 2, 10]),
            ("force_door", door(), &[5, 9, 10]),
        ),
        // Two wilderness turns, a check each: 5 then 1 (a monster in the second), or 5 and 5.
        (
            "advance_time --wander",
            cast(),
            &[],
            ("advance_time", time(), &[5, 1]),
            ("advance_time", time(), &[5, 5]),
        ),
    ]);
}

// ---- Direction in the wilderness --------------------------------------------------------

/// A direction roll at `chance` losing faces, for a party of which `knowing` members have
/// know nature, with the d10 `face`.
fn direction(chance: i64, knowing: usize, face: &'static [u32], said: &'static str) {
    let traveller = |id: &str, knows: bool| {
        who(id, "warrior", "human", "power", "heroics", |v| {
            if knows {
                v["skills"] = json!(["persuade", "spot", "know_nature"]);
            }
        })
    };
    play(Scene {
        name: "direction",
        options: &[],
        cast: vec![
            traveller("ana", knowing > 0),
            traveller("bo", knowing > 1),
            traveller("cy", false),
        ],
        steps: vec![
            S::Gm("lost", vec![("chance", n(chance))], face),
            S::Said(said),
            S::PlayerNeverHears("direction"),
            S::PlayerNeverHears("way"),
        ],
    });
}

#[test]
fn direction_is_lost_on_the_terrains_faces_or_less_and_know_nature_lifts_the_roll() {
    // 1 in 5 terrain (2 faces): a 2 alone loses the way.
    direction(
        2,
        0,
        &[2],
        "direction: 2 = 2, lost on 2 or less: the party loses its way",
    );
    // The same 2 with one know nature: 2 + 1 = 3, above the losing faces: kept.
    direction(
        2,
        1,
        &[2],
        "direction: 2 + 1 know nature (ana) = 3, lost on 2 or less: the party keeps its way",
    );
    // 1 in 2 terrain (5 faces), two know nature: 3 + 2 = 5 still loses, 4 + 2 = 6 does not.
    direction(
        5,
        2,
        &[3],
        "= 5, lost on 5 or less: the party loses its way",
    );
    direction(
        5,
        2,
        &[4],
        "= 6, lost on 5 or less: the party keeps its way",
    );
    // 1 in 10 (1 face): only a bare 1.
    direction(1, 0, &[1], "the party loses its way");
    direction(1, 0, &[2], "the party keeps its way");
}

#[test]
fn direction_odds_outside_1_in_10_to_1_in_2_and_a_roll_in_a_fight_are_refused() {
    play(Scene {
        name: "direction refused",
        options: &[],
        cast: vec![rook("cats_paw"), goblin("g1", 0)],
        steps: vec![
            S::GmRefused("lost", vec![("chance", n(6))], "bad_request"),
            S::GmRefused("lost", vec![("chance", n(0))], "bad_request"),
            S::GmRefused("lost", vec![], "bad_request"),
            S::Refused("rook", "lost", vec![("chance", n(2))], "forbidden"),
            // rook reflex 2 before the goblin's 0.
            S::Start(&[]),
            S::GmRefused("lost", vec![("chance", n(2))], "encounter_running"),
            S::GmRefused("advance_time", vec![], "encounter_running"),
            S::GmRefused(
                "force_door",
                vec![("by", t("rook")), ("toughness", n(5))],
                "encounter_running",
            ),
        ],
    });
}

// ---- Time -------------------------------------------------------------------------------

#[test]
fn turns_pass_with_their_minutes_and_a_wandering_check_each_when_asked() {
    play(Scene {
        name: "time",
        options: &[],
        cast: vec![rook("cats_paw")],
        steps: vec![
            // One dungeon turn: 10 minutes; no check asked, no die.
            S::Gm("advance_time", vec![], &[]),
            S::PlayerHears("1 dungeon turn passes (10 minutes)"),
            // Two wilderness turns of 4 hours: 480 minutes, and a check for each: 5 (nothing),
            // 1 (a monster), the GM's alone.
            S::Gm(
                "advance_time",
                vec![
                    ("turns", n(2)),
                    ("where", t("wilderness")),
                    ("wander", yes()),
                ],
                &[5, 1],
            ),
            S::PlayerHears("2 wilderness turns pass (480 minutes)"),
            S::Said("(wilderness turn 1 of 2): 5, nothing comes"),
            S::Said("(wilderness turn 2 of 2): 1, a monster comes"),
            S::PlayerNeverHears("wandering"),
            S::GmRefused("advance_time", vec![("turns", n(0))], "bad_request"),
            S::GmRefused("advance_time", vec![("where", t("city"))], "bad_request"),
        ],
    });
}

#[test]
fn walk_on_water_costs_1_pp_and_lasts_the_level_in_minutes_run_down_by_time() {
    let cleric = |id: &str, ability: &str, pp: Option<i64>| {
        who(id, "cleric", "human", "aspect", ability, |v| {
            if let Some(pp) = pp {
                v["pp"] = json!(pp);
            }
        })
    };
    play(Scene {
        name: "walk on water",
        options: &[],
        cast: vec![
            cleric("cleric", "walk_on_water", None),
            cleric("poor", "walk_on_water", Some(0)),
            cleric("exact", "walk_on_water", Some(1)),
            cleric("other", "wrath", None),
        ],
        steps: vec![
            // PP: 5 + 2 (cleric) + 2 (level 2) = 9; 1 spent. Level 2: 2 minutes.
            S::Res("cleric", "pp", 9),
            S::Act("cleric", "ability", vec![("name", t("walk_on_water"))], &[]),
            S::Res("cleric", "pp", 8),
            S::Magnitude("cleric", "walk_on_water", 2),
            S::PlayerHears("cleric walks on water for 2 minutes (level 2; 1 PP)"),
            // A dungeon turn is 10 minutes: past the 2, the walk ends.
            S::Gm("advance_time", vec![], &[]),
            S::Lacks("cleric", "walk_on_water"),
            S::PlayerHears("cleric's walk on water ends"),
            // Twenty minutes (the GM's, by ruling): one turn leaves 10, the next ends it at 0.
            S::Give("cleric", "walk_on_water", 20),
            S::Gm("advance_time", vec![], &[]),
            S::Magnitude("cleric", "walk_on_water", 10),
            S::Gm("advance_time", vec![], &[]),
            S::Lacks("cleric", "walk_on_water"),
            S::PlayerHears("cleric's walk on water ends"),
            S::Refused(
                "poor",
                "ability",
                vec![("name", t("walk_on_water"))],
                "insufficient_resource",
            ),
            // Exactly the 1 PP it costs is enough.
            S::Act("exact", "ability", vec![("name", t("walk_on_water"))], &[]),
            S::Res("exact", "pp", 0),
            S::Refused(
                "other",
                "ability",
                vec![("name", t("walk_on_water"))],
                "rule: does not have walk_on_water",
            ),
        ],
    });
}

// ---- Doors and locks --------------------------------------------------------------------

#[test]
fn forcing_a_door_is_a_power_check_and_breaking_it_calls_a_wandering_check_for_the_gm() {
    let force = |pp: i64| {
        vec![
            ("by", t("rook")),
            ("toughness", n(7)),
            ("hidden", yes()),
            ("pp", n(pp)),
        ]
    };
    play(Scene {
        name: "door",
        options: &[],
        cast: vec![rook("cats_paw")],
        steps: vec![
            // 1 + power 2 = 3 < T7: the door holds, and no wandering check (one face drawn).
            S::Gm("force_door", force(0), &[1]),
            S::PlayerHears("fails to force it"),
            // 5 + 2 = 7 reaches T7 (ties succeed): broken down; the wandering check follows at
            // once: 2, a monster comes, the GM's alone. The door's 7 stays the GM's.
            S::Gm("force_door", force(0), &[5, 2]),
            S::PlayerHears("breaks it down"),
            S::TargetSeen(false),
            S::Said(
                "wandering monster check, 1-2 on a d10 (a door broken down): 2, a monster comes",
            ),
            S::PlayerNeverHears("wandering"),
            // PP declared before the roll: 4 + 2 + 1 = 7 breaks it; PP 9 → 8; the check: 9.
            S::Gm("force_door", force(1), &[4, 9]),
            S::Res("rook", "pp", 8),
            S::Said("power points"),
            S::Said("9, nothing comes"),
            S::Refused(
                "rook",
                "force_door",
                vec![("by", t("rook")), ("toughness", n(7))],
                "forbidden",
            ),
        ],
    });
}

#[test]
fn picking_a_lock_needs_a_thieves_kit_and_adds_the_pick_lock_skill() {
    let lock = |by: &'static str| vec![("by", t(by)), ("toughness", n(6)), ("hidden", yes())];
    play(Scene {
        name: "lock",
        options: &[],
        cast: vec![
            rook("cats_paw"),
            // The same rogue with no kit.
            with(rook("cats_paw"), |v| {
                v["id"] = json!("empty");
                v["items"] = json!([]);
            }),
        ],
        steps: vec![
            // 3 + reflex 2 + pick lock 1 = 6 reaches T6: open. A 2 makes 5: shut.
            S::Gm("pick_lock", lock("rook"), &[3]),
            S::Said("label: \"pick lock\", value: 1"),
            S::PlayerHears("opens it"),
            S::TargetSeen(false),
            S::Gm("pick_lock", lock("rook"), &[2]),
            S::PlayerHears("fails to open it"),
            // No kit: refused, nothing drawn, and the refusal does not name the lock's number.
            S::GmRefused("pick_lock", lock("empty"), "rule: has no thieves' kit"),
        ],
    });
}

#[test]
fn magical_intrusion_opens_a_lock_with_no_roll_only_with_the_pick_lock_skill() {
    let wizard = |id: &str, skill: &str| {
        who(
            id,
            "wizard",
            "human",
            "intellect",
            "magical_intrusion",
            |v| {
                v["skills"] = json!(["persuade", "spot", skill]);
            },
        )
    };
    let lock = |by: &'static str| vec![("by", t(by)), ("toughness", n(9)), ("hidden", yes())];
    play(Scene {
        name: "magical intrusion",
        options: &[],
        cast: vec![wizard("mage", "pick_lock"), wizard("novice", "listen")],
        steps: vec![
            // No dice, no kit.
            S::Gm("pick_lock", lock("mage"), &[]),
            S::PlayerHears("the lock opens before mage (magical intrusion)"),
            // Without pick lock the ability does nothing, and without a kit there is no try.
            S::GmRefused(
                "pick_lock",
                lock("novice"),
                "rule: novice has no thieves' kit",
            ),
        ],
    });
}

// ---- Traps ------------------------------------------------------------------------------

/// Lira searches for a falling rock (T6) with `items`, the d10 showing `face`.
fn search(items: &'static [&'static str], face: &'static [u32], heard: &'static str) {
    play(Scene {
        name: "trap search",
        options: &[],
        cast: vec![lira(items)],
        steps: vec![
            S::Gm(
                "trap",
                vec![
                    ("step", t("detect")),
                    ("by", t("lira")),
                    ("trap", t("falling_rock")),
                ],
                face,
            ),
            S::PlayerHears(heard),
            // The search's roll is the GM's: a failed one must not say a trap is there.
            S::PlayerNeverHears("perception"),
            S::PlayerNeverHears("toughness"),
            S::GmOnly(&["perception check: find falling rock"]),
        ],
    });
}

#[test]
fn a_trap_is_found_by_a_perception_check_the_gm_alone_sees_with_the_ten_foot_poles_1() {
    // 1 + intellect 2 + detect trap 1 + elf 1 = 5 < T6: nothing found, and the table hears
    // only that.
    search(&[], &[1], "lira searches and finds nothing");
    // The pole's +1 makes the same 1 a 6: found.
    search(
        &["ten_foot_pole"],
        &[1],
        "lira searches and finds a trap: falling rock",
    );
}

#[test]
fn a_missed_search_does_not_name_the_trap_to_players() {
    // A miss must not name the trap to the player.
    play(Scene {
        name: "trap miss",
        options: &[],
        cast: vec![lira(&[])],
        steps: vec![
            S::Gm(
                "trap",
                vec![
                    ("step", t("detect")),
                    ("by", t("lira")),
                    ("trap", t("hidden_pit")),
                ],
                // 2 + 4 = 6 < T7.
                &[2],
            ),
            S::PlayerNeverHears("pit"),
            S::Said("misses it"),
        ],
    });
}

/// Hild: a level 4 dwarf warrior (intellect 0, the spot skill), a champion who rolls a 1
/// again once, played by `p1`.
fn champion() -> Value {
    json!({
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
    })
}

/// A search by `by` for the example `trap`, or (`None`) where the GM knows there is none.
fn detect(by: &'static str, trap: Option<&'static str>) -> Vec<(&'static str, ArgValue)> {
    let mut v = vec![("step", t("detect")), ("by", t(by))];
    match trap {
        Some(id) => v.push(("trap", t(id))),
        None => v.push(("none", yes())),
    }
    v
}

#[test]
fn a_player_sees_the_same_search_whether_a_trap_was_missed_or_there_was_none() {
    same_for_players(vec![
        // Lira: 1 + intellect 2 + detect trap 1 + elf 1 = 5 < the rock's T6: missed. The
        // same 1 in a room with no trap finds nothing either.
        (
            "a missed falling rock",
            vec![lira(&[])],
            &[],
            ("trap", detect("lira", Some("falling_rock")), &[1]),
            ("trap", detect("lira", None), &[1]),
        ),
        // With the pole's +1: 1 + 2 + 1 + 1 + 1 = 6 < the pit's T7, missed.
        (
            "a missed pit, with a pole",
            vec![lira(&["ten_foot_pole"])],
            &[],
            ("trap", detect("lira", Some("hidden_pit")), &[1]),
            ("trap", detect("lira", None), &[1]),
        ),
        // A champion's 1 is rolled again in both: 2 + intellect 0 + spot 1 = 3 < T7.
        (
            "a champion's missed pit",
            vec![champion()],
            &[],
            ("trap", detect("hild", Some("hidden_pit")), &[1, 2]),
            ("trap", detect("hild", None), &[1, 2]),
        ),
    ]);
}

#[test]
fn a_search_where_there_is_no_trap_rolls_for_the_gm_alone_and_finds_nothing() {
    play(Scene {
        name: "no trap",
        options: &[],
        cast: vec![lira(&[]), champion()],
        steps: vec![
            // A 10: 10 + 4 = 14 would find any trap; there is none to find.
            S::Gm("trap", detect("lira", None), &[10]),
            S::PlayerHears("lira searches and finds nothing"),
            S::Said("there is no trap"),
            S::GmOnly(&["perception check", "there is no trap"]),
            // The champion's 1 rolled again is part of the GM's roll: the table is not told.
            S::Gm("trap", detect("hild", None), &[1, 2]),
            S::Said("champion's resolve"),
            S::PlayerNeverHears("champion's resolve"),
            S::PlayerHears("hild searches and finds nothing"),
            S::Gm("trap", detect("hild", Some("hidden_pit")), &[1, 2]),
            S::Said("champion's resolve"),
            S::PlayerNeverHears("champion's resolve"),
            // A search with no trap names none, and only a search is made with none.
            S::GmRefused(
                "trap",
                with_pair(detect("lira", None), ("trap", t("hidden_pit"))),
                "bad_request: names no trap",
            ),
            S::GmRefused(
                "trap",
                with_pair(detect("lira", None), ("toughness", n(6))),
                "bad_request: names no trap",
            ),
            S::GmRefused(
                "trap",
                vec![("step", t("spring")), ("by", t("lira")), ("none", yes())],
                "bad_request: only a search",
            ),
            // Only the GM knows there is no trap, and only the GM searches for one.
            S::Refused("lira", "trap", detect("lira", None), "forbidden"),
        ],
    });
}

// The same line in the one other roll told to the GM alone: an NPC's Deathless challenge, made
// only when it stands at 1 HP, whose champion's 1 must not tell the table it was rolled.
#[test]
fn a_champions_1_rolled_again_in_a_gm_only_challenge_is_the_gms_alone() {
    play(Scene {
        name: "champion against deathless",
        options: &[],
        cast: vec![
            champion(),
            json!({
                "id": "captain", "name": "captain", "kind": "npc", "abilities": ["deathless"],
                "stats": {"power": 2, "reflex": -2, "toughness": 5, "hp_max": 1}
            }),
        ],
        steps: vec![
            S::Start(&[]),
            // A 9 hits T5; the challenge: Hild's 1 is rolled again, 8 + power 4 = 12 against
            // the captain's 1 + 2 + deathless 1 = 4: the blow lands, 1 HP to 0.
            S::Act(
                "hild",
                "attack",
                vec![("target", t("captain"))],
                &[9, 1, 8, 1],
            ),
            S::Res("captain", "hp", 0),
            S::Said("champion's resolve"),
            S::PlayerNeverHears("champion's resolve"),
            S::PlayerNeverHears("deathless"),
        ],
    });
}

fn with_pair(
    mut v: Vec<(&'static str, ArgValue)>,
    pair: (&'static str, ArgValue),
) -> Vec<(&'static str, ArgValue)> {
    v.push(pair);
    v
}

#[test]
fn disarming_needs_a_thieves_kit_and_a_reflex_check_and_a_magical_trap_needs_dispel_magic() {
    let disarm = |by: &'static str, magical: bool| {
        let mut v = vec![
            ("step", t("disarm")),
            ("by", t(by)),
            ("trap", t("hidden_pit")),
        ];
        if magical {
            v.push(("magical", yes()));
        }
        v
    };
    // A level 1 human wizard who knows Dispel magic (2 MP): MP 3 + 5 (a roll of 7) = 8.
    let mage = with(pc("wizard", "human"), |v| {
        v["id"] = json!("mage");
        v["spells"] = json!(["fireball_1", "magic_missile_1", "dispel_magic"]);
    });
    let spent = with(mage.clone(), |v| {
        v["id"] = json!("spent");
        v["mp"] = json!(1);
    });
    let exact = with(mage.clone(), |v| {
        v["id"] = json!("exact");
        v["mp"] = json!(2);
    });
    play(Scene {
        name: "disarm",
        options: &[],
        cast: vec![
            lira(&["thieves_kit"]),
            rook("cats_paw"),
            mage,
            spent,
            exact,
            pc("rogue", "dwarf"),
        ],
        steps: vec![
            // Lira: 6 + reflex 1 = 7 reaches the pit's T7: disarmed (told with its number).
            S::Gm("trap", disarm("lira", false), &[6]),
            S::PlayerHears("disarms it"),
            // Told as Lira disarming the pit, not as a bare roll.
            S::PlayerHears("verb: \"disarms\", target: None, instrument: Some(\"hidden pit\")"),
            S::TargetSeen(true),
            // 5 + 1 = 6: not.
            S::Gm("trap", disarm("lira", false), &[5]),
            S::PlayerHears("fails to disarm it"),
            // The dwarf rogue has no kit.
            S::GmRefused(
                "trap",
                disarm("rogue", false),
                "rule: rogue has no thieves' kit",
            ),
            // A magical trap: a kit does not do it.
            S::GmRefused(
                "trap",
                disarm("rook", true),
                "rule: rook does not know Dispel magic",
            ),
            // Dispel magic: 2 MP, no roll.
            S::Res("mage", "mp", 8),
            S::Gm("trap", disarm("mage", true), &[]),
            S::Res("mage", "mp", 6),
            S::PlayerHears("mage casts dispel magic (2 MP) and the magical hidden pit is disarmed"),
            S::GmRefused("trap", disarm("spent", true), "insufficient_resource"),
            // Exactly the 2 MP it costs is enough.
            S::Gm("trap", disarm("exact", true), &[]),
            S::Res("exact", "mp", 0),
        ],
    });
}

/// Rook springs `trap`: the save's and the damage's faces, and his HP after (8 before).
fn sprung(
    options: &'static [(&'static str, &'static str)],
    trap: &'static str,
    faces: &'static [u32],
    hp: i64,
) {
    play(Scene {
        name: "trap sprung",
        options,
        cast: vec![rook("cats_paw")],
        steps: vec![
            S::Gm(
                "trap",
                vec![("step", t("spring")), ("by", t("rook")), ("trap", t(trap))],
                faces,
            ),
            S::Res("rook", "hp", hp),
        ],
    });
}

#[test]
fn a_sprung_trap_is_saved_against_its_toughness_or_deals_its_damage() {
    // Falling rock, T6, a reflex save: 4 + 2 = 6 saves: no damage, no damage die.
    sprung(&[], "falling_rock", &[4], 8);
    // 3 + 2 = 5 fails; "2-3" is a d2 from 2: a 2 on the d2 is 3 damage: 8 → 5.
    sprung(&[], "falling_rock", &[3, 2], 5);
    // ... and a 1 on the d2 is 2: 8 → 6.
    sprung(&[], "falling_rock", &[3, 1], 6);
    // Hidden pit, T7: 1 + 2 = 3 fails; 1d5 (a five-sided draw) of 4: 8 → 4.
    sprung(&[], "hidden_pit", &[1, 4], 4);
    // Poison gas, T6, a power save (our reading): 2 + power 2 = 4 fails; "1-2" a d2 of 2: 2.
    sprung(&[], "poison_gas", &[2, 2], 6);
}

#[test]
fn option_trap_damage_high_or_low_takes_an_end_of_the_range_with_no_die() {
    // The failed save of 3 + 2 against T6 again; no damage die drawn.
    sprung(&[("tinyd10.trap_damage", "high")], "falling_rock", &[3], 5);
    sprung(&[("tinyd10.trap_damage", "low")], "falling_rock", &[3], 6);
    // A die amount is rolled whatever the option: the pit's 1d5 of 4.
    sprung(&[("tinyd10.trap_damage", "high")], "hidden_pit", &[1, 4], 4);
}

#[test]
fn an_elf_shrugs_off_poison_gas_and_a_gms_own_trap_takes_its_numbers() {
    play(Scene {
        name: "trap odds",
        options: &[],
        cast: vec![lira(&[]), rook("cats_paw")],
        steps: vec![
            // Immune to poison: no save, no damage.
            S::Gm(
                "trap",
                vec![
                    ("step", t("spring")),
                    ("by", t("lira")),
                    ("trap", t("poison_gas")),
                ],
                &[],
            ),
            S::PlayerHears("lira is immune to poison"),
            // The GM's own trap: T8 hidden, an aspect save, 1d10 damage. 4 + aspect 1 (human)
            // = 5 fails; the d10 is 3: 8 → 5.
            S::Gm(
                "trap",
                vec![
                    ("step", t("spring")),
                    ("by", t("rook")),
                    ("toughness", n(8)),
                    ("hidden", yes()),
                    ("attribute", t("aspect")),
                    ("damage", t("1d10")),
                ],
                &[4, 3],
            ),
            S::TargetSeen(false),
            S::Res("rook", "hp", 5),
            S::GmRefused(
                "trap",
                vec![("step", t("spring")), ("by", t("rook"))],
                "bad_request",
            ),
            S::GmRefused(
                "trap",
                vec![
                    ("step", t("spring")),
                    ("by", t("rook")),
                    ("toughness", n(5)),
                    ("damage", t("lots")),
                ],
                "bad_request",
            ),
        ],
    });
}

/// The damage the GM names for a fall or a trap of the GM's own, read or refused: (the action,
/// the damage, the faces an accepted one draws, `None` if accepted or the refusal's code and
/// words).
#[test]
fn damage_the_gm_names_is_read_within_bounds_or_refused_with_its_reason() {
    type Case = (
        &'static str,
        &'static str,
        &'static [u32],
        Option<&'static str>,
    );
    let cases: [Case; 16] = [
        // The flat part runs to 100: 1 + 100 is read (Rook falls to his death), 101 is not,
        // nor a number that would run over i64 when the die is added.
        ("fall", "1d10+100", &[1], None),
        (
            "fall",
            "1d10+101",
            &[],
            Some("bad_request: the flat part runs from 0 to 100"),
        ),
        (
            "fall",
            "1d10+9223372036854775807",
            &[],
            Some("bad_request: the flat part runs from 0 to 100"),
        ),
        (
            "fall",
            "101",
            &[],
            Some("bad_request: the flat part runs from 0 to 100"),
        ),
        (
            "fall",
            "-3",
            &[],
            Some("bad_request: the flat part runs from 0 to 100"),
        ),
        (
            "fall",
            "1d5+L",
            &[],
            Some("bad_request: does not add a level"),
        ),
        // A trap has no level to add: a trap's +L is refused as a fall's is.
        (
            "trap",
            "1d5+L",
            &[],
            Some("bad_request: a trap's damage adds no level"),
        ),
        ("trap", "L", &[], Some("bad_request: `L` is not an amount")),
        (
            "trap",
            "1d10+9223372036854775807",
            &[],
            Some("bad_request: the flat part runs from 0 to 100"),
        ),
        // A failed save (1 + reflex 2 = 3 < T10), then the damage die's 1.
        ("trap", "1d5+2", &[1, 1], None),
        ("trap", "0-1", &[1, 2], None),
        ("trap", "1-100", &[1, 1], None),
        // A range is rolled on a die as wide as it: no die has 3 faces; a range of one number
        // is a plain amount.
        (
            "trap",
            "0-2",
            &[],
            Some("bad_request: as wide as the range"),
        ),
        (
            "trap",
            "2-2",
            &[],
            Some("bad_request: a range runs from a low to a higher number"),
        ),
        (
            "trap",
            "3-2",
            &[],
            Some("bad_request: a range runs from a low to a higher number"),
        ),
        (
            "trap",
            "2-101",
            &[],
            Some("bad_request: a range runs from a low to a higher number"),
        ),
    ];
    for (action, damage, faces, refusal) in cases {
        let pairs = match action {
            "fall" => vec![("target", t("rook")), ("damage", t(damage))],
            _ => vec![
                ("step", t("spring")),
                ("by", t("rook")),
                ("toughness", n(10)),
                ("damage", t(damage)),
            ],
        };
        let step = match refusal {
            None => S::Gm(action, pairs, faces),
            Some(expected) => S::GmRefused(action, pairs, expected),
        };
        play(Scene {
            name: damage,
            options: &[],
            cast: vec![rook("cats_paw")],
            steps: vec![step],
        });
    }
}

#[test]
fn a_range_from_0_adds_up_its_steps() {
    play(Scene {
        name: "a range from 0",
        options: &[],
        cast: vec![rook("cats_paw")],
        steps: vec![
            // 1 + reflex 2 = 3 < T10: "0-1" is a d2 read from 0: a 2 on the d2 is 2 - 1 = 1
            // damage, 8 → 7, and the steps say so: 2 and -1.
            S::Gm(
                "trap",
                vec![
                    ("step", t("spring")),
                    ("by", t("rook")),
                    ("toughness", n(10)),
                    ("damage", t("0-1")),
                ],
                &[1, 2],
            ),
            S::Damage(&[("1d2", 2), ("range from", -1)], 1),
            S::Res("rook", "hp", 7),
        ],
    });
}

#[test]
fn an_amount_is_read_with_its_flat_part_bounded_and_rolled_without_overflow() {
    use super::super::dice::{Amount, D5, Die, roll_amount};
    for (text, read) in [
        ("1d10+100", Some((Some(Die::D10), 100, false))),
        ("100", Some((None, 100, false))),
        ("0", Some((None, 0, false))),
        ("1d5+L", Some((Some(Die::D5), 0, true))),
        ("1d10+101", None),
        ("101", None),
        ("-1", None),
        ("1d10+9223372036854775807", None),
        ("9223372036854775808", None),
    ] {
        let got = Amount::try_from(text.to_owned())
            .ok()
            .map(|a| (a.die, a.flat, a.plus_level));
        assert_eq!(got, read, "{text}");
    }
    // An amount built in code past the bound still rolls: the sum stops at i64's most.
    let huge = Amount {
        die: Some(Die::D10),
        flat: i64::MAX,
        plus_level: true,
    };
    let r = roll_amount(huge, 4, D5::Draw, &mut ScriptedDice::new(vec![10])).unwrap();
    assert_eq!(r.value, i64::MAX);
}

// ---- Non-combat abilities ---------------------------------------------------------------

#[test]
fn disguise_costs_1_pp_and_seeing_through_it_is_an_intellect_challenge_at_plus_2() {
    let unmask = || vec![("watcher", t("g1")), ("of", t("rook"))];
    play(Scene {
        name: "disguise",
        options: &[],
        cast: vec![rook("disguise"), goblin("g1", 0)],
        steps: vec![
            S::GmRefused("unmask", unmask(), "rule: rook wears no disguise"),
            S::Act("rook", "ability", vec![("name", t("disguise"))], &[]),
            S::Res("rook", "pp", 8),
            S::Has("rook", "disguised"),
            // The goblin (intellect 0) rolls 5; Rook 2 + intellect 0 + disguise 2 = 4: seen.
            S::Gm("unmask", unmask(), &[5, 2]),
            S::PlayerHears("g1 sees through rook's disguise"),
            // 4 against 2 + 2 = 4: a tie, the resister (Rook) holds; without the +2 the
            // goblin's 4 would beat his 2.
            S::Gm("unmask", unmask(), &[4, 2]),
            S::PlayerHears("rook's disguise fools g1"),
            S::Said("disguise"),
        ],
    });
}

/// Rook falls and takes `damage` with the d10 `faces`; his HP after (8 before).
fn falls(
    options: &'static [(&'static str, &'static str)],
    ability: &str,
    faces: &'static [u32],
    hp: i64,
) {
    play(Scene {
        name: "fall",
        options,
        cast: vec![rook(ability)],
        steps: vec![
            S::Gm(
                "fall",
                vec![("target", t("rook")), ("damage", t("1d10"))],
                faces,
            ),
            S::Res("rook", "hp", hp),
            // The halving is a step of its own, what it took off shown.
            S::Check(Box::new(move |p: &Played<'_>| {
                let halving = p
                    .last
                    .iter()
                    .flat_map(crate::event::Event::facts)
                    .find_map(|f| match f {
                        crate::event::Fact::DamageResolved { steps, .. } => steps
                            .iter()
                            .find(|m| m.label == "cat's paw: halved, rounded down")
                            .map(|m| m.value),
                        _ => None,
                    });
                let taken = 8 - hp;
                let rolled = i64::from(faces[0]);
                let want = (taken != rolled).then_some(taken - rolled);
                assert_eq!(halving, want, "{}", p.at);
            })),
        ],
    });
}

#[test]
fn cats_paw_halves_fall_damage_rounded_down_whatever_the_tables_halving() {
    // Without Cat's paw a 7 is 7: 8 → 1.
    falls(&[], "disguise", &[7], 1);
    // With it, 7 halves to 3 (down): 8 → 5.
    falls(&[], "cats_paw", &[7], 5);
    // The text rounds Cat's paw down itself: the table's `halving` = up does not make it 4.
    falls(&[("tinyd10.halving", "up")], "cats_paw", &[7], 5);
    // A fixed amount: 1 halves to 0.
    play(Scene {
        name: "fall fixed",
        options: &[],
        cast: vec![rook("cats_paw")],
        steps: vec![
            S::Gm("fall", vec![("target", t("rook")), ("damage", t("1"))], &[]),
            S::Res("rook", "hp", 8),
            S::GmRefused(
                "fall",
                vec![("target", t("rook")), ("damage", t("1d5+L"))],
                "bad_request",
            ),
        ],
    });
}

#[test]
fn petty_thief_and_heroics_add_2_to_a_check_marked_as_their_kind_of_act() {
    let check = |deed: Option<&'static str>| {
        let mut v = vec![("attribute", t("reflex")), ("toughness", n(7))];
        if let Some(d) = deed {
            v.push(("deed", t(d)));
        }
        v
    };
    let warrior = who("hero", "warrior", "human", "reflex", "heroics", |_| {});
    play(Scene {
        name: "deeds",
        options: &[],
        cast: vec![rook("petty_thief"), warrior],
        steps: vec![
            // 3 + reflex 2 + petty thief 2 = 7 reaches T7, named for the GM to judge.
            S::Act("rook", "check", check(Some("theft")), &[3]),
            S::PlayerHears("petty thief (the GM's discretion)"),
            S::PlayerHears("succeeds"),
            // Unmarked, the same 3 makes 5: fails.
            S::Act("rook", "check", check(None), &[3]),
            S::PlayerHears("fails"),
            // A heroic act is not a theft: no +2 for the rogue.
            S::Act("rook", "check", check(Some("heroic")), &[3]),
            S::PlayerHears("fails"),
            // The warrior (reflex 1 + 1 raised = 2): 3 + 2 + heroics 2 = 7.
            S::Act("hero", "check", check(Some("heroic")), &[3]),
            S::PlayerHears("heroics (the GM's discretion)"),
            S::PlayerHears("succeeds"),
            S::Refused("rook", "check", check(Some("bribe")), "bad_request"),
        ],
    });
}

/// A level 2 human wizard with Apprentice/Familiar, played by `seat` (MP 3 + 5 = 8 unless
/// `mp` says).
fn apprentice_wizard(id: &str, seat: &str, mp: Option<i64>) -> Value {
    who(id, "wizard", "human", "intellect", "apprentice", |v| {
        v["owner"] = json!(seat);
        if let Some(mp) = mp {
            v["mp"] = json!(mp);
        }
    })
}

/// A creature of the GM's on the party's side: T5 (the goblin's) with `hp` HP.
fn creature(id: &str, hp: i64) -> Value {
    with(goblin(id, 0), |v| {
        v["stats"]["hp_max"] = json!(hp);
        v["side"] = json!("party");
    })
}

fn pact(target: &'static str) -> Vec<(&'static str, ArgValue)> {
    vec![("name", t("apprentice")), ("target", t(target))]
}

#[test]
fn apprentice_makes_a_pact_with_a_t5_companion_of_4_to_6_hp_for_4_mp() {
    play(Scene {
        name: "pact",
        options: &[],
        cast: vec![
            apprentice_wizard("wizard", "p1", None),
            apprentice_wizard("drained", "p1", Some(3)),
            apprentice_wizard("exact", "p1", Some(4)),
            creature("owl", 5),
            with(creature("mouse", 4), |v| v["owner"] = json!("p1")),
            creature("rat", 3),
            creature("cat", 4),
        ],
        steps: vec![
            // The owl is the GM's: whether it is willing is the GM's to say, so the GM makes
            // the pact for the wizard. MP 3 (wizard) + 5 (a roll of 7) = 8; the pact takes 4.
            S::Res("wizard", "mp", 8),
            S::GmAct("wizard", "ability", pact("owl"), &[]),
            S::Res("wizard", "mp", 4),
            S::Has("owl", "companion"),
            S::PlayerHears("wizard makes a pact with owl (4 MP)"),
            S::RefusedFrom(
                "gm",
                "wizard",
                "ability",
                pact("owl"),
                "rule: owl is already wizard's companion",
            ),
            // The companion is T5 with 4-6 HP: a 3 HP rat is not, which the GM is told.
            S::RefusedFrom(
                "gm",
                "wizard",
                "ability",
                pact("rat"),
                "rule: an apprentice or familiar is T5 with 4-6 HP",
            ),
            S::RefusedFrom(
                "gm",
                "drained",
                "ability",
                pact("cat"),
                "insufficient_resource",
            ),
            // Exactly the 4 MP it costs is enough.
            S::GmAct("exact", "ability", pact("cat"), &[]),
            S::Res("exact", "mp", 0),
            // A creature of the GM's numbers, even one the player moves, is the GM's to bind.
            S::Refused(
                "wizard",
                "ability",
                pact("mouse"),
                "forbidden: a pact binds a willing creature, and whether a creature the GM plays",
            ),
        ],
    });
}

// In a fight the owl (power 1, T5) attacks with advantage once for free, and again for 1 of
// its master's PP; the count starts again with the next fight. Its 3 + 1 + 1 = 5 reaches the
// goblin's T5 (without the advantage 4 would miss): 3 HP to 2, then to 1.
#[test]
fn a_companion_attacks_with_advantage_once_a_fight_and_again_for_1_pp_of_its_master() {
    let owl_attacks = || S::Act("owl", "attack", vec![("target", t("g1"))], &[3]);
    let end = |who: &'static str| S::Act(who, "end_turn", vec![], &[]);
    play(Scene {
        name: "companion in a fight",
        options: &[],
        cast: vec![
            apprentice_wizard("wizard", "p1", None),
            creature("owl", 5),
            goblin("g1", -3),
        ],
        steps: vec![
            S::GmAct("wizard", "ability", pact("owl"), &[]),
            S::Res("wizard", "pp", 7),
            S::Start(&[]),
            S::Order(&["wizard", "owl", "g1"]),
            end("wizard"),
            owl_attacks(),
            S::Res("g1", "hp", 2),
            S::Res("wizard", "pp", 7),
            S::Said("label: \"apprentice's advantage\", value: 1"),
            // The owl is the GM's creature: its line is the GM's.
            S::GmOnly(&["attacks with advantage (+1): its free one this fight"]),
            end("owl"),
            end("g1"),
            end("wizard"),
            owl_attacks(),
            S::Res("g1", "hp", 1),
            S::Res("wizard", "pp", 6),
            S::GmOnly(&["attacks with advantage (+1): wizard pays 1 PP for it"]),
            S::Gm("end_encounter", vec![], &[]),
            S::Lacks("owl", "companion_attacks"),
        ],
    });
}

#[test]
fn a_player_cannot_bind_a_gms_creature_or_another_players_character_by_a_pact() {
    play(Scene {
        name: "unwilling pact",
        options: &[],
        cast: vec![
            apprentice_wizard("wizard", "p1", None),
            creature("owl", 5),
            goblin("g1", 0),
            // Another player's character, and one of the wizard's own player.
            apprentice_wizard("other", "p2", None),
            apprentice_wizard("mine", "p1", None),
        ],
        steps: vec![
            // The player may not make the pact with a creature the GM plays, fit or not,
            // friend or foe: the GM says whether it is willing and makes it.
            S::Refused("wizard", "ability", pact("owl"), "forbidden: ask the GM"),
            S::Refused("wizard", "ability", pact("g1"), "forbidden: ask the GM"),
            S::Lacks("owl", "companion"),
            // Another seat's character is never bound from here, not even by the GM.
            S::Refused(
                "wizard",
                "ability",
                pact("other"),
                "forbidden: played by p2",
            ),
            S::RefusedFrom(
                "gm",
                "wizard",
                "ability",
                pact("other"),
                "forbidden: played by p2",
            ),
            // The player's own character is willing; its numbers are the player's to see:
            // a level 2 wizard is no T5 with 4-6 HP.
            S::Refused(
                "wizard",
                "ability",
                pact("mine"),
                "rule: an apprentice or familiar is T5 with 4-6 HP",
            ),
        ],
    });
}

#[test]
fn a_players_refused_pact_says_the_same_whatever_the_gms_creature_is() {
    use crate::engine::DecideError;
    let system = super::super::TinyD10;
    let options = TableOptions::resolve(&system.options(), &Default::default()).unwrap();
    let mut state = MemoryState::new(options);
    let cast = [
        apprentice_wizard("wizard", "p1", None),
        // T5 with 5 HP (it fits), 3 HP and 7 HP (they do not), T6 with 5 HP (it does not),
        // a foe, and one already a companion: the GM's numbers and statuses, all of them.
        creature("fits", 5),
        creature("small", 3),
        creature("big", 7),
        with(creature("tough", 5), |v| v["stats"]["toughness"] = json!(6)),
        goblin("foe", 0),
    ];
    for sheet in &cast {
        state.insert_combatant(system.sheet_from_json(sheet).unwrap());
    }
    let said: Vec<String> = ["fits", "small", "big", "tough", "foe"]
        .into_iter()
        .map(|target| {
            let args = Args(
                pact(target)
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect(),
            );
            let cmd = Command::act(Seat::Player("p1".into()), Some("wizard"), "ability", args);
            match crate::testing::scene::run(&system, &mut state, &cmd, &[]) {
                Err(DecideError::Refused(r)) => format!("{}: {r}", r.code()),
                other => panic!("{target}: expected a refusal, got {other:?}"),
            }
        })
        .collect();
    assert!(
        said.iter().all(|s| s == &said[0]),
        "the refusals differ: {said:?}"
    );
    // Nothing in it of the companion's numbers.
    assert!(
        !said[0].contains("T5") && !said[0].contains("HP"),
        "{}",
        said[0]
    );
}

// ---- The data ---------------------------------------------------------------------------

#[test]
fn the_example_traps_turns_and_odds_are_the_texts() {
    use super::super::explore::{TrapDamage, data, loses_way, monster_comes};
    let d = data().unwrap();
    let traps: Vec<(&str, i64, String)> = d
        .trap
        .iter()
        .map(|t| (t.id.as_str(), t.toughness, t.damage.to_string()))
        .collect();
    assert_eq!(
        traps,
        [
            ("falling_rock", 6, "2-3".to_owned()),
            ("hidden_pit", 7, "1d5".to_owned()),
            ("poison_gas", 6, "1-2".to_owned()),
        ]
    );
    assert!(d.trap("poison_gas").unwrap().poison);
    // A dungeon turn is 10 minutes, a wilderness turn 4 hours.
    assert_eq!(d.turn("dungeon").unwrap().minutes, 10);
    assert_eq!(d.turn("wilderness").unwrap().minutes, 4 * 60);
    // Both readings of "1 in 5": 2 faces of 10, 1 of 5.
    let on_d10: Vec<i64> = (1..=10)
        .filter(|f| monster_comes(*f, false, &d.wandering))
        .collect();
    let on_d5: Vec<i64> = (1..=5)
        .filter(|f| monster_comes(*f, true, &d.wandering))
        .collect();
    assert_eq!((on_d10, on_d5), (vec![1, 2], vec![1]));
    // 1 in 10 up to 1 in 2: 1 to 5 losing faces; each know nature lifts the die by 1.
    assert_eq!((d.lost.least, d.lost.most), (1, 5));
    let lost: Vec<i64> = (1..=10).filter(|f| loses_way(*f, 1, 5)).collect();
    assert_eq!(lost, [1, 2, 3, 4]);
    // The pact: 4 MP; the companion T5 with 4-6 HP.
    let a = &d.apprentice;
    assert_eq!(
        (a.pact_mp, a.toughness, a.hp_least, a.hp_most),
        (4, 5, 4, 6)
    );
    // A bare range reads as its ends; anything else as an amount or refused.
    for (text, ok) in [
        ("2-3", Some(TrapDamage::Range(2, 3))),
        ("1-2", Some(TrapDamage::Range(1, 2))),
        ("3-2", None),
        ("a-b", None),
        ("lots", None),
    ] {
        assert_eq!(TrapDamage::try_from(text.to_owned()).ok(), ok, "{text}");
    }
    assert!(matches!(
        TrapDamage::try_from("1d5".to_owned()),
        Ok(TrapDamage::Amount(_))
    ));
}

#[test]
fn a_refused_lock_or_trap_never_says_the_gms_secret_toughness() {
    use crate::action::{Args, Command};
    use crate::engine::DecideError;
    use crate::ids::Seat;
    use crate::options::TableOptions;
    use crate::state::{MemoryState, StateMut};
    use crate::system::RuleSystem;

    let system = super::super::TinyD10;
    let options = TableOptions::resolve(&system.options(), &Default::default()).unwrap();
    let mut state = MemoryState::new(options);
    // A rogue with no kit: every try below is refused before any die.
    let empty = with(rook("cats_paw"), |v| v["items"] = json!([]));
    state.insert_combatant(system.sheet_from_json(&empty).unwrap());
    let secret = 97;
    for (action, extra) in [
        ("pick_lock", vec![]),
        ("trap", vec![("step", t("disarm"))]),
        ("force_door", vec![("by", t("nobody"))]),
    ] {
        let mut pairs = vec![
            ("by", t("rook")),
            ("toughness", n(secret)),
            ("hidden", yes()),
        ];
        for (k, v) in extra {
            pairs.retain(|(key, _)| *key != k);
            pairs.push((k, v));
        }
        let args = Args(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect());
        let cmd = Command::act(Seat::Gm, None, action, args);
        match crate::testing::scene::run(&system, &mut state, &cmd, &[]) {
            Err(DecideError::Refused(r)) => {
                let said = r.to_string();
                assert!(!said.contains(&secret.to_string()), "{action}: {said}");
            }
            other => panic!("{action}: expected a refusal, got {other:?}"),
        }
    }
}

/// The exploration data is checked as it loads: each edit of the shipped file below breaks
/// one thing the rules rely on and is refused, naming its table.
#[test]
fn exploration_data_that_breaks_what_the_rules_rely_on_is_refused() {
    use super::super::explore::{DATA, parse};
    assert!(parse(DATA).is_ok());
    let cases = [
        ("in_ten = 2", "in_ten = 3", "wandering"),
        ("in_five = 1", "in_five = 2", "wandering"),
        ("least = 1", "least = 0", "lost"),
        ("least = 1", "least = 6", "lost"),
        ("most = 5", "most = 11", "lost"),
        ("minutes = 10", "minutes = 0", "turn"),
        ("id = \"dungeon\"", "id = \"cave\"", "turn"),
        ("pact_mp = 4", "pact_mp = 0", "apprentice"),
        ("hp_least = 4", "hp_least = 0", "apprentice"),
        ("hp_most = 6", "hp_most = 3", "apprentice"),
    ];
    for (from, to, table) in cases {
        assert!(DATA.contains(from), "{from}");
        let text = DATA.replacen(from, to, 1);
        match parse(&text) {
            Err(e) => assert!(e.starts_with(table), "{from} -> {to}: {e}"),
            Ok(_) => panic!("{from} -> {to}: accepted"),
        }
    }
    // At their edges the bounds still hold: 1 to 10 losing faces, a one-minute turn, a
    // companion of exactly 4 HP, or of 1 HP at the least.
    for (from, to) in [
        ("most = 5", "most = 10"),
        ("least = 1\nmost = 5", "least = 5\nmost = 5"),
        ("minutes = 10", "minutes = 1"),
        ("hp_most = 6", "hp_most = 4"),
        ("pact_mp = 4", "pact_mp = 1"),
        ("hp_least = 4", "hp_least = 1"),
    ] {
        assert!(DATA.contains(from), "{from}");
        assert!(parse(&DATA.replacen(from, to, 1)).is_ok(), "{from} -> {to}");
    }
}

/// Who counts for know nature: the living player characters, or the party the GM names, each
/// once. Ana and Bo know nature; Bo is dead.
#[test]
fn the_party_is_the_living_characters_or_those_named_each_once() {
    let traveller = |id: &str, knows: bool| {
        who(id, "warrior", "human", "power", "heroics", |v| {
            if knows {
                v["skills"] = json!(["persuade", "spot", "know_nature"]);
            }
        })
    };
    let lost = |party: Option<&'static str>| {
        let mut args = vec![("chance", n(2))];
        if let Some(p) = party {
            args.push(("party", t(p)));
        }
        S::Gm("lost", args, &[2])
    };
    play(Scene {
        name: "who counts",
        options: &[],
        cast: vec![
            traveller("ana", true),
            traveller("bo", true),
            traveller("cy", false),
        ],
        steps: vec![
            S::Give("bo", "dead", 0),
            lost(None),
            S::Said("direction: 2 + 1 know nature (ana) = 3"),
            lost(Some("ana, ana, cy")),
            S::Said("direction: 2 + 1 know nature (ana) = 3"),
            lost(Some("cy")),
            S::Said("direction: 2 = 2"),
        ],
    });
}
