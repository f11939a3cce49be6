//! Shove and trip, as scenes: Aune (COR 3, TOG 2, AGL 3) against the goblin (AGL 2, defence
//! TN 12) two metres east of her, with Mara two metres further on. Every TN the text leaves
//! open is 11 here (`grimwire.shove_tog_tn`, `grimwire.keep_feet_tn`).

use crate::testing::scene::{Played, S};

use super::scenes::{n, play, set, start, t};

fn at(who: &'static str, x: i32, y: i32) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let pos = p.state.combatants[&crate::ids::EntityId::from(who)].position;
        assert_eq!(
            pos,
            Some(crate::grid::Cell::new(x, y)),
            "{}: {who}'s place",
            p.at
        );
    }))
}

fn shove(faces: &'static [u32]) -> S {
    S::Act("aune", "shove", vec![("target", t("goblin-1"))], faces)
}

/// Each case: the faces of Aune's shove (COR, TOG, then the goblin's AGL), Mara moved out of
/// the way or not, and where the goblin ends, standing or down.
#[test]
fn a_shove_lands_pushes_up_to_3_m_and_may_knock_down() {
    struct Case {
        name: &'static str,
        clear: bool,
        faces: &'static [u32],
        said: &'static str,
        ends_at: (i32, i32),
        down: bool,
    }
    let cases = [
        // COR 10 + 3 = 13 reaches the defence 12; TOG 9 + 2 = 11 reaches 11; the goblin's AGL
        // 8 + 2 = 10 misses 11: down, 3 m on at (5, 0).
        Case {
            name: "pushed 3 m and down",
            clear: true,
            faces: &[10, 9, 8],
            said: "aune shoves goblin-1 back 3 m to (5, 0)",
            ends_at: (5, 0),
            down: true,
        },
        // Its AGL 9 + 2 = 11 makes it: pushed, standing.
        Case {
            name: "pushed and standing",
            clear: true,
            faces: &[10, 9, 9],
            said: "aune shoves goblin-1 back 3 m to (5, 0)",
            ends_at: (5, 0),
            down: false,
        },
        // Mara at (4, 0) stops it after 1 m.
        Case {
            name: "pushed into Mara",
            clear: false,
            faces: &[10, 9, 9],
            said: "aune shoves goblin-1 back 1 m to (3, 0), against mara",
            ends_at: (3, 0),
            down: false,
        },
        // TOG 8 + 2 = 10 misses 11: no push, no AGL roll.
        Case {
            name: "too weak to push",
            clear: true,
            faces: &[10, 8],
            said: "goblin-1 holds their ground against aune",
            ends_at: (2, 0),
            down: false,
        },
        // COR 8 + 3 = 11 misses 12: nothing more is rolled.
        Case {
            name: "missed",
            clear: true,
            faces: &[8],
            said: "aune's shove does not reach goblin-1",
            ends_at: (2, 0),
            down: false,
        },
        // A natural 1 fails, and nothing goes astray (no weapon): one die drawn.
        Case {
            name: "natural 1",
            clear: true,
            faces: &[1],
            said: "aune's shove does not reach goblin-1",
            ends_at: (2, 0),
            down: false,
        },
    ];
    for c in cases {
        let mut steps = start();
        if c.clear {
            steps.push(S::Place("mara", 0, 5));
        }
        steps.extend([
            shove(c.faces),
            S::Said(c.said),
            at("goblin-1", c.ends_at.0, c.ends_at.1),
        ]);
        steps.push(if c.down {
            S::Has("goblin-1", "knocked_down")
        } else {
            S::Lacks("goblin-1", "knocked_down")
        });
        // It was the turn's action.
        steps.push(S::Res("aune", "action_spent", 1));
        play(c.name, &[], steps);
    }
}

#[test]
fn a_shove_goes_as_far_as_asked_reaches_3_m_and_the_gm_sets_the_footing() {
    let mut steps = start();
    steps.extend([
        S::Place("mara", 0, 5),
        // The GM's TN for the footing is the GM's to give.
        S::Refused(
            "aune",
            "shove",
            vec![("target", t("goblin-1")), ("agl_tn", n(5))],
            "forbidden",
        ),
        S::Refused(
            "aune",
            "shove",
            vec![("target", t("goblin-1")), ("metres", n(4))],
            "bad_request",
        ),
        S::Act(
            "aune",
            "shove",
            vec![("target", t("goblin-1")), ("metres", n(1))],
            &[10, 9, 9],
        ),
        at("goblin-1", 3, 0),
        S::Said("aune shoves goblin-1 back 1 m to (3, 0)"),
        S::Lacks("goblin-1", "knocked_down"),
    ]);
    play("a short shove", &[], steps);

    // On slick ground the GM asks 15: AGL 12 + 2 = 14 misses it.
    let mut steps = start();
    steps.extend([
        S::Place("mara", 0, 5),
        S::GmAct(
            "aune",
            "shove",
            vec![("target", t("goblin-1")), ("agl_tn", n(15))],
            &[10, 9, 12],
        ),
        S::Has("goblin-1", "knocked_down"),
        S::Said("goblin-1 is knocked down (shoved by aune)"),
        S::PlayerHears("goblin-1 is knocked down (shoved by aune)"),
        S::PlayerHears("aune shoves goblin-1 back 3 m to (5, 0)"),
        // The goblin's roll and the GM's TN are the GM's.
        S::GmOnly(&["\"target\":15", "\"label\":\"AGL\",\"value\":2"]),
    ]);
    play("a shove on slick ground", &[], steps);

    // Four metres away is out of reach.
    let mut steps = start();
    steps.extend([
        S::Place("goblin-1", 4, 0),
        S::Place("mara", 0, 5),
        S::Refused(
            "aune",
            "shove",
            vec![("target", t("goblin-1"))],
            "out_of_range",
        ),
    ]);
    play("a shove out of reach", &[], steps);

    // The table's footing TN of 13: its AGL 10 + 2 = 12 misses it (the default 11 would not).
    let mut steps = start();
    steps.extend([
        S::Place("mara", 0, 5),
        shove(&[10, 9, 10]),
        S::Has("goblin-1", "knocked_down"),
    ]);
    play("slippery ground", &[("grimwire.keep_feet_tn", "13")], steps);

    // The table's TN for the push: 9 + 2 = 11 misses 12.
    let mut steps = start();
    steps.extend([
        shove(&[10, 9]),
        S::Said("goblin-1 holds their ground against aune"),
    ]);
    play("a harder push", &[("grimwire.shove_tog_tn", "12")], steps);
}

#[test]
fn a_trip_must_beat_the_targets_agl_and_knocks_it_down() {
    struct Case {
        name: &'static str,
        setup: Option<&'static str>,
        faces: &'static [u32],
        down: bool,
    }
    let cases = [
        // 10 + 3 = 13 beats the goblin's 10 + 2 = 12.
        Case {
            name: "beaten",
            setup: None,
            faces: &[10, 10],
            down: true,
        },
        // 9 + 3 = 12 ties 12: the goblin keeps its feet.
        Case {
            name: "tied",
            setup: None,
            faces: &[9, 10],
            down: false,
        },
        // Both natural 1s: the tripper's fails first, though 4 is more than 3.
        Case {
            name: "both natural 1",
            setup: None,
            faces: &[1, 1],
            down: false,
        },
        // The goblin's natural 1 loses to any trip that is not one: 2 + 3 = 5 against 3.
        Case {
            name: "target's natural 1",
            setup: None,
            faces: &[2, 1],
            down: true,
        },
        // Paralysed, it cannot resist: down without a roll.
        Case {
            name: "paralysed target",
            setup: Some("paralysed"),
            faces: &[],
            down: true,
        },
        // Stunned, -3 AGL: 9 + 3 = 12 beats 12 + 2 - 3 = 11.
        Case {
            name: "stunned target",
            setup: Some("stunned"),
            faces: &[9, 12],
            down: true,
        },
    ];
    for c in cases {
        let mut steps = start();
        if let Some(status) = c.setup {
            steps.push(set("goblin-1", status, 0, None));
        }
        steps.push(S::Act(
            "aune",
            "trip",
            vec![("target", t("goblin-1"))],
            c.faces,
        ));
        steps.push(if c.down {
            S::Has("goblin-1", "knocked_down")
        } else {
            S::Lacks("goblin-1", "knocked_down")
        });
        // The goblin's AGL and its total are the GM's to know.
        if !c.faces.is_empty() {
            steps.push(S::GmOnly(&[
                "\"label\":\"AGL\",\"value\":2",
                "against goblin-1",
            ]));
        }
        steps.push(S::Refused(
            "aune",
            "trip",
            vec![("target", t("goblin-1"))],
            if c.down {
                "rule: goblin-1 is already down"
            } else {
                "none_left"
            },
        ));
        play(c.name, &[], steps);
    }
}

/// A shove pushes straight away from the shover, whichever way that is: from Aune at (3, 1)
/// the goblin at (1, 1) goes west; from (3, 3), the goblin at (2, 2) goes diagonally, two
/// steps (the table's diagonals count 1 then 2: 3 m).
#[test]
fn a_shove_pushes_away_from_the_shover_in_any_direction() {
    let mut steps = start();
    steps.extend([
        S::Place("aune", 3, 1),
        S::Place("goblin-1", 1, 1),
        S::Place("mara", 9, 9),
        shove(&[10, 9, 9]),
        at("goblin-1", -2, 1),
    ]);
    play("a shove westwards", &[], steps);
    let mut steps = start();
    steps.extend([
        S::Place("aune", 3, 3),
        S::Place("goblin-1", 2, 2),
        S::Place("mara", 9, 9),
        shove(&[10, 9, 9]),
        at("goblin-1", 0, 0),
    ]);
    play("a shove to the north-west", &[], steps);
}
