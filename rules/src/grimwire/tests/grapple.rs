//! Grappling, as scenes. Aune (TOG 2, AGL 3, COR 3, MND 1) grapples the goblin (TOG 1,
//! AGL 2, COR 1, MND -1, defence TN 12, attack TN 11, movement 6 + 2); Mara (TOG 4, COR 1)
//! stands 2 m beyond it. STR reads as TOG (`grimwire.alias_str`); the TNs the text leaves
//! open are 11.

use crate::testing::scene::{Played, S};

use super::scenes::{check, end, play, set, start, t, to};

fn at(who: &'static str, x: i32, y: i32) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let pos = p.state.combatants[&crate::ids::EntityId::from(who)].position;
        assert_eq!(pos, Some(crate::grid::Cell::new(x, y)), "{}: {who}", p.at);
    }))
}

fn grab(faces: &'static [u32]) -> S {
    S::Act("aune", "grapple", vec![("target", t("goblin-1"))], faces)
}

/// Aune holds the goblin: COR 10 + 3 = 13 reaches its defence 12, COR 8 + 3 = 11 holds.
fn held() -> Vec<S> {
    let mut steps = start();
    steps.extend([
        grab(&[10, 8]),
        S::Has("goblin-1", "grappled:aune"),
        S::Has("aune", "grappling:goblin-1"),
    ]);
    steps
}

#[test]
fn a_grab_lands_by_cor_and_holds_by_the_better_of_tog_and_cor() {
    struct Case {
        name: &'static str,
        hold: Option<&'static str>,
        faces: &'static [u32],
        said: &'static str,
        holds: bool,
    }
    let cases = [
        Case {
            name: "held with COR",
            hold: None,
            faces: &[10, 8],
            said: "COR to hold goblin-1",
            holds: true,
        },
        // COR 7 + 3 = 10 misses 11.
        Case {
            name: "slips out",
            hold: None,
            faces: &[10, 7],
            said: "goblin-1 slips out of aune's hold",
            holds: false,
        },
        // TOG named: 9 + 2 = 11 holds; 8 + 2 = 10 would not.
        Case {
            name: "held with TOG",
            hold: Some("TOG"),
            faces: &[10, 9],
            said: "TOG to hold goblin-1",
            holds: true,
        },
        Case {
            name: "TOG too weak",
            hold: Some("TOG"),
            faces: &[10, 8],
            said: "goblin-1 slips out of aune's hold",
            holds: false,
        },
        // COR 8 + 3 = 11 misses the defence 12: no hold roll.
        Case {
            name: "grab missed",
            hold: None,
            faces: &[8],
            said: "aune fails to grab goblin-1",
            holds: false,
        },
    ];
    for c in cases {
        let mut args = vec![("target", t("goblin-1"))];
        if let Some(h) = c.hold {
            args.push(("hold", t(h)));
        }
        let mut steps = start();
        steps.extend([S::Act("aune", "grapple", args, c.faces), S::Said(c.said)]);
        steps.push(if c.holds {
            S::Has("goblin-1", "grappled:aune")
        } else {
            S::Lacks("goblin-1", "grappled:aune")
        });
        steps.push(S::Res("aune", "action_spent", 1));
        play(c.name, &[], steps);
    }
}

#[test]
fn the_held_has_5_off_agl_and_must_win_a_roll_to_act_or_lose_the_action() {
    let mut steps = held();
    steps.extend([
        // 12 + AGL 2 - 5 = 9 misses 10.
        check("goblin-1", "AGL", 10, &[12]),
        S::Said("label: \"grappled\", value: -5"),
        S::Said("result: \"failure\""),
        // Knocked down too: both penalties, 15 + 2 - 3 - 5 = 9.
        set("goblin-1", "knocked_down", 0, None),
        check("goblin-1", "AGL", 10, &[15]),
        S::Said("result: \"failure\""),
        end("aune"),
        // Its attack needs a roll first: TOG 10 + 1 = 11 against Aune's COR 9 + 3 = 12.
        S::Act("goblin-1", "attack", vec![("target", t("aune"))], &[10, 9]),
        S::Said("goblin-1 is held fast and loses this turn's action (attack)"),
        // Its TOG and COR tie at 1: the first named, TOG (STR), is the one rolled.
        S::GmOnly(&["TOG act while held"]),
        S::Res("goblin-1", "action_spent", 1),
    ]);
    play("held and losing the action", &[], steps);

    // Winning it (12 + 1 = 13 against 12), the attack goes ahead: Aune evades 15 + 3 = 18
    // against its attack TN 11. The roll is made once a turn.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act(
            "goblin-1",
            "attack",
            vec![("target", t("aune"))],
            &[12, 9, 15],
        ),
        S::Res("goblin-1", "action_spent", 1),
    ]);
    play("held and winning the action", &[], steps);
}

#[test]
fn moving_in_a_hold_takes_a_roll_and_half_the_movement_and_the_grappler_carries_the_held() {
    // The goblin, held: STR (TOG) 10 + 1 = 11 loses to Aune's 10 + 2 = 12; it stays, and its
    // movement is gone.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "move", vec![("to", to(3, 0))], &[10, 10]),
        at("goblin-1", 2, 0),
        S::Said("goblin-1 is held in place and cannot move this turn"),
        S::Refused("goblin-1", "move", vec![("to", to(3, 0))], "none_left"),
    ]);
    play("held in place", &[], steps);

    // Winning (15 + 1 = 16 against 12) it moves at half speed, 8 / 2 = 4 m, and only within
    // Aune's reach: both refusals come before any roll. Getting away is `break_free`.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Refused("goblin-1", "move", vec![("to", to(7, 0))], "out_of_range"),
        S::Refused(
            "goblin-1",
            "move",
            vec![("to", to(6, 0))],
            "rule: goblin-1 is held by aune and can move only within 3 m of them (break_free first)",
        ),
        S::Act("goblin-1", "move", vec![("to", to(3, 0))], &[15, 10]),
        at("goblin-1", 3, 0),
        S::Has("goblin-1", "grappled:aune"),
        // The roll is made once a turn.
        S::Act("goblin-1", "move", vec![("to", to(2, 0))], &[]),
        at("goblin-1", 2, 0),
    ]);
    play("moving in the hold", &[], steps);

    // Aune, holding, moves at half of 6 + 3 after AGL 8 + 3 = 11: the goblin comes along.
    let mut steps = held();
    steps.extend([
        S::Refused("aune", "move", vec![("to", to(-5, 0))], "out_of_range"),
        S::Act("aune", "move", vec![("to", to(-2, 0))], &[8]),
        S::Said("AGL to move carrying goblin-1"),
        at("aune", -2, 0),
        at("goblin-1", 0, 0),
    ]);
    play("carrying", &[], steps);

    // The table's TN of 12 for the weight: AGL 8 + 3 = 11 misses it (the default 11 would
    // not): Aune stays, and so does the goblin.
    let mut steps = held();
    steps.extend([
        S::Act("aune", "move", vec![("to", to(-2, 0))], &[8]),
        at("aune", 0, 0),
        at("goblin-1", 2, 0),
        S::Said("aune cannot move this turn with goblin-1 in their hold"),
    ]);
    play("too heavy", &[("grimwire.grapple_move_tn", "12")], steps);

    // A hold of 12: COR 8 + 3 = 11 no longer holds.
    let mut steps = start();
    steps.extend([grab(&[10, 8]), S::Lacks("goblin-1", "grappled:aune")]);
    play(
        "a harder hold",
        &[("grimwire.grapple_hold_tn", "12")],
        steps,
    );
}

#[test]
fn the_grapplers_blow_is_opposed_by_agl_and_a_miss_at_the_held_may_strike_the_grappler() {
    // Aune's next knife attack: COR 10 + 3 = 13 against the goblin's AGL 12 + 2 - 5 = 9;
    // knife 2 + TOG 2 = 4 takes Condition 10 to 6.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        end("mara"),
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            &[10, 12, 2],
        ),
        // The goblin's total is the GM's: the table reads Aune's 13 against a hidden roll.
        S::Said("name: \"goblin-1's roll\", value: Some(9), hidden: true"),
        S::GmOnly(&["\"target\":9", "\"label\":\"AGL\",\"value\":2"]),
        S::Res("goblin-1", "condition", 6),
    ]);
    play("a blow in the hold", &[], steps);

    // Mara swings her sledgehammer at the held goblin and misses (COR 5 + 1 = 6 against 12):
    // the blow may strike Aune. Mara spares her (AGL 11 - COR 1 = 10); Aune's 6 + 3 = 9 fails
    // and takes 2d6 = 3 + 4 = 7 + TOG 4 = 11, from 12 to 1.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        S::Act(
            "mara",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("sledgehammer"))],
            &[5],
        ),
        S::Said("the attack misses goblin-1 and may strike whoever holds them"),
        S::Answer("spare", &[6, 3, 4]),
        S::Said("AGL avoid a stray attack"),
        S::Res("aune", "condition", 1),
    ]);
    play("a stray blow", &[], steps);
}

#[test]
fn breaking_free_must_beat_every_grappler_and_ends_every_hold() {
    // Goblin TOG 15 + 1 = 16 against Aune's COR 10 + 3 = 13: free.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "break_free", vec![], &[15, 10]),
        S::Said("goblin-1 breaks free"),
        S::Lacks("goblin-1", "grappled:aune"),
        S::Lacks("aune", "grappling:goblin-1"),
    ]);
    play("breaking free", &[], steps);

    // Mara holds it too (COR 12 + 1 = 13 against 12; TOG 7 + 4 = 11): the goblin's 16 beats
    // Aune's 13 but not Mara's TOG 14 + 4 = 18.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        S::Act("mara", "grapple", vec![("target", t("goblin-1"))], &[12, 7]),
        S::Has("goblin-1", "grappled:mara"),
        end("mara"),
        end("aune"),
        S::Act("goblin-1", "break_free", vec![], &[15, 10, 14]),
        S::Said("goblin-1 cannot break free"),
        // Both holders' rolls are written: Mara's 18 counted; Aune's 13, beside it, also won.
        S::Check(Box::new(|p: &Played<'_>| {
            let aune_won = p.last.iter().flat_map(crate::event::Event::facts).any(|f| {
                matches!(f, crate::event::Fact::Checked(c)
                    if c.actor.as_ref().is_some_and(|a| a.as_str() == "aune")
                        && c.label == "COR hold on"
                        && c.total == 13
                        && c.outcome == crate::event::Outcome::Success)
            });
            assert!(aune_won, "{}: aune's roll against the break-out", p.at);
        })),
        S::Has("goblin-1", "grappled:aune"),
        S::Has("goblin-1", "grappled:mara"),
        // The -5 counts once for two holds: 12 + 2 - 5 = 9 reaches 9 (twice, 4 would not).
        check("goblin-1", "AGL", 9, &[12]),
        S::Said("result: \"success\""),
    ]);
    play("two grapplers", &[], steps);

    // Grappling one's own grappler needs no roll to act first: it is the escape the text
    // allows. The goblin's grab is Aune's evasion (a PC evades an NPC): AGL 5 + 3 = 8 misses
    // its attack TN 11; its hold, TOG 10 + 1 = 11, holds. Each now holds the other.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "grapple", vec![("target", t("aune"))], &[5, 10]),
        S::Has("aune", "grappled:goblin-1"),
        S::Has("goblin-1", "grappled:aune"),
    ]);
    play("a double grapple", &[], steps);
}

#[test]
fn a_grappler_takes_down_or_chokes_whom_it_holds_and_letting_go_ends_the_choke() {
    // COR 5 + 3 = 8 against the goblin's AGL 10 + 2 - 5 = 7: down.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        end("mara"),
        S::Act(
            "aune",
            "takedown",
            vec![("target", t("goblin-1"))],
            &[5, 10],
        ),
        S::Has("goblin-1", "knocked_down"),
        S::Refused(
            "mara",
            "takedown",
            vec![("target", t("goblin-1"))],
            "not_your_turn",
        ),
    ]);
    play("a takedown", &[], steps);

    // Choked (COR 5 + 3 = 8 against TOG 6 + 1 = 7), the goblin rolls MND 10 - 1 = 9 against
    // 11 at its turn's start and passes out; letting go ends the choke.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        end("mara"),
        S::Act("aune", "choke", vec![("target", t("goblin-1"))], &[5, 6]),
        S::Has("goblin-1", "suffocating"),
        S::Act("aune", "end_turn", vec![], &[10]),
        S::Said("MND to stay conscious"),
        S::Has("goblin-1", "knocked_out"),
        S::Turn(Some("mara")),
    ]);
    play("a choke", &[], steps);

    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        end("mara"),
        S::Act("aune", "choke", vec![("target", t("goblin-1"))], &[5, 6]),
        S::Act("aune", "release", vec![], &[]),
        S::Lacks("goblin-1", "suffocating"),
        S::Lacks("goblin-1", "grappled:aune"),
        S::Said("aune lets go of goblin-1"),
        S::Refused("aune", "release", vec![], "rule: aune holds no one"),
    ]);
    play("letting go", &[], steps);

    // Stunned, Aune can hold no one: the hold ends at the next turn's start.
    let mut steps = held();
    steps.extend([
        set("aune", "stunned", 0, Some(1)),
        end("aune"),
        S::Lacks("goblin-1", "grappled:aune"),
        S::Said("aune no longer holds goblin-1 (stunned)"),
    ]);
    play("a stunned grappler", &[], steps);
}

#[test]
fn the_held_rolls_once_a_turn_after_the_actions_own_checks_and_holds_end_with_the_fight() {
    // The goblin grabs Aune (her AGL 5 + 3 = 8 misses its attack TN 11) and holds her (TOG
    // 10 + 1 = 11).
    let mut steps = start();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "grapple", vec![("target", t("aune"))], &[5, 10]),
        S::Has("aune", "grappled:goblin-1"),
        end("goblin-1"),
        end("mara"),
        // Out of reach, her attack is refused before any die: no roll against the hold.
        S::Refused(
            "aune",
            "attack",
            vec![("target", t("mara")), ("weapon", t("knife"))],
            "out_of_range",
        ),
        // COR 10 + 3 = 13 against its TOG 5 + 1 = 6: her action is hers; the knife's 10 + 3
        // reaches its defence 12, 2 + TOG 2 = 4.
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            &[10, 5, 10, 2],
        ),
        S::Res("goblin-1", "condition", 6),
        // The knife's second attack needs no second roll against the hold.
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            &[10, 2],
        ),
        S::Res("goblin-1", "condition", 2),
        end("aune"),
        end("goblin-1"),
        end("mara"),
        // A new turn, a new roll: 5 + 3 = 8 loses to 10 + 1 = 11.
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            &[5, 10],
        ),
        S::Said("aune is held fast and loses this turn's action (attack)"),
        S::Res("goblin-1", "condition", 2),
        // The goblin's roll stays the GM's: Aune's 8 is compared with a hidden number.
        S::GmOnly(&["\"target\":11", "act while held (against goblin-1)"]),
        S::Gm("end_encounter", vec![], &[]),
        S::Lacks("aune", "grappled:goblin-1"),
        S::Lacks("goblin-1", "grappling:aune"),
    ]);
    play("once a turn", &[], steps);
}

#[test]
fn a_hold_ends_at_once_when_the_held_dies_or_is_pushed_away_and_release_names_whom_one_holds() {
    // Aune's next knife blow in the hold: 15 + 3 against 2 + 2 - 5; 4 + TOG 2 = 6, then the
    // GM's 10 more finishes it: below -10, dead, and the hold is gone at once.
    let mut steps = held();
    steps.extend([
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        end("mara"),
        S::Act(
            "aune",
            "attack",
            vec![("target", t("goblin-1")), ("weapon", t("knife"))],
            &[15, 2, 4],
        ),
        S::Res("goblin-1", "condition", 4),
        S::Gm(
            "damage",
            vec![("target", t("goblin-1")), ("amount", super::scenes::n(20))],
            &[],
        ),
        S::Has("goblin-1", "dead"),
        S::Lacks("aune", "grappling:goblin-1"),
    ]);
    play("a hold on the dead", &[], steps);

    // Shoved 3 m off (COR 10 + 3, TOG 9 + 2; its AGL 15 + 2 - 5 keeps it standing), it is out
    // of Aune's reach: the hold ends with the shove.
    let mut steps = held();
    steps.extend([
        S::Place("mara", 0, 6),
        end("aune"),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        end("mara"),
        S::Act(
            "aune",
            "shove",
            vec![("target", t("goblin-1"))],
            &[10, 9, 15],
        ),
        S::Lacks("goblin-1", "grappled:aune"),
        S::Said("aune no longer holds goblin-1 (more than 3 m away)"),
    ]);
    play("shoved out of a hold", &[], steps);

    // Letting go names someone held, or no one (everyone).
    let mut steps = held();
    steps.extend([
        S::Refused(
            "aune",
            "release",
            vec![("target", t("mara"))],
            "rule: aune does not hold mara",
        ),
        S::Act("aune", "release", vec![("target", t("goblin-1"))], &[]),
        S::Lacks("goblin-1", "grappled:aune"),
        S::Said("aune lets go of goblin-1"),
    ]);
    play("letting go of one", &[], steps);
}

#[test]
fn a_grappler_carries_the_held_by_its_own_step_and_not_into_a_wall_and_half_holds_go() {
    // Aune at (2, 2) holds the goblin at (4, 2); she steps to (1, 5) (AGL 8 + 3 reaches 11)
    // and it comes by the same step, -1 and +3, to (3, 5).
    let holding = || {
        vec![
            S::Place("aune", 2, 2),
            S::Place("goblin-1", 4, 2),
            S::Place("mara", 0, 9),
            S::Start(&[10, 5, 2]),
            grab(&[10, 8]),
            S::Has("goblin-1", "grappled:aune"),
        ]
    };
    let mut steps = holding();
    steps.extend([
        S::Act("aune", "move", vec![("to", to(1, 5))], &[8]),
        at("aune", 1, 5),
        at("goblin-1", 3, 5),
        S::Has("goblin-1", "grappled:aune"),
    ]);
    play("carried by the step", &[], steps);

    // A wall where the goblin would land: refused before any roll, naming the cell.
    let mut steps = holding();
    steps.extend([
        S::Gm(
            "rule.terrain",
            vec![
                (
                    "cell",
                    crate::action::ArgValue::Cell(crate::grid::Cell::new(3, 5)),
                ),
                ("blocking", crate::action::ArgValue::Flag(true)),
            ],
            &[],
        ),
        S::Refused(
            "aune",
            "move",
            vec![("to", to(1, 5))],
            "rule: aune cannot carry goblin-1 there: a wall is in the way at (3, 5)",
        ),
    ]);
    play("carried into a wall", &[], steps);

    // A `grappled:` with no grappler holding (a ruling's) is no hold: it goes at the next
    // turn's start.
    let mut steps = start();
    steps.extend([
        set("goblin-1", "grappled:mara", 0, None),
        end("aune"),
        S::Lacks("goblin-1", "grappled:mara"),
        S::Said("mara no longer holds goblin-1 (no hold)"),
    ]);
    play("half a hold", &[], steps);
}
