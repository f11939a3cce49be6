//! The toy tables as scenarios a host plays: the server's table task hosts them
//! (`server/src/hosted_toys.rs`), so that host names no system and no rule of one.

use crate::prelude::*;
use crate::{Mist, Tenacity, Vigor};

/// An opening move of a scenario: seat `0` is the GM, `1..` the scenario's players in order.
pub enum Move {
    Act(usize, &'static str, &'static str, fn() -> Args),
    /// An answer to the newest open window of this rule asked of that seat, if one is open.
    Answer(usize, &'static str, &'static str, fn() -> Args),
    /// Everyone waits until an open window's deadline passes.
    Wait,
}

pub fn none() -> Args {
    Args::default()
}

pub fn text(key: &str, value: &str) -> Args {
    Args::default().with(key, ArgValue::Text(value.to_owned()))
}

pub fn cell(x: i32, y: i32) -> Args {
    Args::default().with("to", ArgValue::Cell(Cell::new(x, y)))
}

/// What a scenario must have shown when hosted, summed over its runs.
pub struct Shapes {
    /// The rules of windows that must have opened.
    pub windows: &'static [&'static str],
    /// Deferred steps that must have fired by themselves.
    pub deferred_fired: bool,
    /// Turns of a group or the spotlight that must have opened.
    pub turns_opened: usize,
}

/// A toy table for a host to seat and play: who sits where, the moves that open its shape,
/// and what any run of it must show.
pub struct Scenario {
    pub name: &'static str,
    pub system: &'static dyn RuleSystem,
    pub roster: fn() -> Vec<Combatant>,
    /// Player seat ids, in the order moves number them (from 1).
    pub players: &'static [&'static str],
    pub opening: Vec<Move>,
    pub shapes: Shapes,
}

/// Every shape of the toys, as a table a host can play.
pub fn scenarios() -> Vec<Scenario> {
    let no_more = Shapes {
        windows: &[],
        deferred_fired: false,
        turns_opened: 0,
    };
    vec![
        Scenario {
            name: "vigor dodge",
            system: &Vigor,
            roster: || crate::rosters::vigor_roster(12),
            players: &["p1", "p2"],
            // The raider attacks until it hits (Guard 15 against d20 + d10), and Aune dodges.
            opening: (0..6)
                .flat_map(|_| {
                    [
                        Move::Act(0, "raider", "attack", || text("target", "aune")),
                        Move::Answer(1, "vigor.dodge", "dodge", none),
                    ]
                })
                .collect(),
            shapes: Shapes {
                windows: &["vigor.dodge"],
                ..no_more
            },
        },
        Scenario {
            name: "vigor opening",
            system: &Vigor,
            roster: crate::rosters::opening_roster,
            players: &["p1", "p2", "p3"],
            // One window for three seats: two answer, the third's time runs out.
            opening: vec![
                Move::Act(0, "raider", "stumble", none),
                Move::Answer(1, "vigor.opening", "strike", none),
                Move::Answer(2, "vigor.opening", "hold", none),
                Move::Wait,
            ],
            shapes: Shapes {
                windows: &["vigor.opening"],
                ..no_more
            },
        },
        Scenario {
            name: "vigor reach",
            system: &Vigor,
            roster: crate::rosters::reach_roster,
            players: &["p1", "p2"],
            // Aune leaves the raider's reach; the move's trigger asks the GM.
            opening: vec![
                Move::Act(1, "aune", "step", || cell(0, 2)),
                Move::Answer(0, "vigor.opportunity", "strike", none),
                Move::Act(0, "raider", "morale", none),
            ],
            shapes: Shapes {
                windows: &["vigor.opportunity"],
                ..no_more
            },
        },
        Scenario {
            name: "mist",
            system: &Mist,
            roster: crate::rosters::mist_roster,
            players: &["p1", "p2"],
            // Beatrix holds by the thug, Markus aims; the thug's strike meets her held move,
            // and Markus's aim fires once the enemies' side is done.
            opening: vec![
                Move::Act(1, "beatrix", "move", || cell(4, 0)),
                Move::Act(1, "beatrix", "delay", none),
                Move::Act(2, "markus", "aim", || text("target", "thug")),
                Move::Act(0, "thug", "strike", || text("target", "beatrix")),
                Move::Answer(1, "mist.interrupt", "act", || {
                    text("action", "move").with("to", ArgValue::Cell(Cell::new(0, 0)))
                }),
            ],
            shapes: Shapes {
                windows: &["mist.interrupt"],
                deferred_fired: true,
                turns_opened: 2,
            },
        },
        Scenario {
            name: "10acity push",
            system: &Tenacity,
            roster: crate::rosters::push_roster,
            players: &["p1"],
            // Missa pushes at the door, paying two points against its hidden challenge.
            opening: vec![
                Move::Act(1, "missa", "push", || text("obstacle", "door")),
                Move::Answer(1, "tenacity.push", "", || {
                    Args::default().with("points", ArgValue::Int(2))
                }),
            ],
            shapes: Shapes {
                windows: &["tenacity.push"],
                ..no_more
            },
        },
        Scenario {
            name: "10acity spotlight",
            system: &Tenacity,
            roster: crate::rosters::spotlight_roster,
            players: &["p1", "p2"],
            // Missa contests the cultist and hands it the spotlight, which may answer at once.
            opening: vec![
                Move::Act(1, "missa", "contest", || {
                    text("against", "cultist").with("skill", ArgValue::Text("investigation".into()))
                }),
                Move::Act(1, "missa", "hand_on", || text("to", "cultist")),
                Move::Act(0, "cultist", "hand_on", || text("to", "tomas")),
            ],
            shapes: Shapes {
                turns_opened: 3,
                ..no_more
            },
        },
    ]
}

/// A window opened outside any encounter, before the table ever rolled, whose default draws a
/// die: 10acity's push, its default paying one point and rolling. Its opening is the one move
/// that opens the window, played with no encounter started; its timeout is one minute.
pub fn rolling_default_outside_an_encounter() -> Scenario {
    Scenario {
        name: "10acity push outside an encounter",
        system: &Tenacity,
        roster: crate::rosters::push_roster,
        players: &["p1"],
        opening: vec![Move::Act(1, "missa", "push", || text("obstacle", "door"))],
        shapes: Shapes {
            windows: &["tenacity.push"],
            deferred_fired: false,
            turns_opened: 0,
        },
    }
}
