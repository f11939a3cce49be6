//! The ground and the air: difficult terrain underfoot and on the way, armour too heavy for
//! its wearer, suffocating and drowning. The cast is `scenes'` (Aune: TOG 2, AGL 3, MND 1,
//! movement 6 + 3, Condition 12).

use crate::action::ArgValue;
use crate::grid::Cell;
use crate::testing::scene::{Played, S};

use super::scenes::{cast, check, end, play, play_cast, set, sheet, start, to};

fn rough(x: i32, y: i32) -> S {
    S::Gm(
        "rule.terrain",
        vec![
            ("cell", ArgValue::Cell(Cell::new(x, y))),
            ("difficult", ArgValue::Flag(true)),
        ],
        &[],
    )
}

fn at(who: &'static str, x: i32, y: i32) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let pos = p.state.combatants[&crate::ids::EntityId::from(who)].position;
        assert_eq!(pos, Some(Cell::new(x, y)), "{}: {who}", p.at);
    }))
}

#[test]
fn difficult_ground_takes_2_off_agl_and_a_failed_roll_through_it_halves_the_movement() {
    let mut steps = start();
    steps.extend([
        // Standing in it: 9 + 3 - 2 = 10 misses 11.
        rough(0, 0),
        check("aune", "AGL", 11, &[9]),
        S::Said("label: \"difficult terrain\", value: -2"),
        S::Said("result: \"failure\""),
    ]);
    play("standing in rough ground", &[], steps);

    // Through a rough cell at (1, 0): AGL 8 + 3 = 11 makes it, the whole 3 m; no second roll
    // this turn.
    let mut steps = start();
    steps.extend([
        S::Place("goblin-1", 0, 5),
        rough(1, 0),
        S::Act("aune", "move", vec![("to", to(3, 0))], &[8]),
        S::Said("AGL through difficult terrain"),
        at("aune", 3, 0),
        S::Act("aune", "move", vec![("to", to(0, 0))], &[]),
        at("aune", 0, 0),
    ]);
    play("through rough ground", &[], steps);

    // Failed (7 + 3 = 10): 9 m become 4; a 6 m move does not happen, a 4 m one does.
    let mut steps = start();
    steps.extend([
        S::Place("goblin-1", 0, 5),
        S::Place("mara", 0, 6),
        rough(1, 0),
        S::Act("aune", "move", vec![("to", to(6, 0))], &[7]),
        at("aune", 0, 0),
        S::Said("aune struggles through the difficult ground: only 4 m of movement left this turn"),
        S::Refused("aune", "move", vec![("to", to(5, 0))], "out_of_range"),
        S::Act("aune", "move", vec![("to", to(4, 0))], &[]),
        at("aune", 4, 0),
    ]);
    play("slowed by rough ground", &[], steps);

    // The table's TN of 12: 8 + 3 = 11 misses it (the default 11 would not): slowed.
    let mut steps = start();
    steps.extend([
        S::Place("goblin-1", 0, 5),
        rough(1, 0),
        S::Act("aune", "move", vec![("to", to(6, 0))], &[8]),
        at("aune", 0, 0),
    ]);
    play("harder ground", &[("grimwire.terrain_tn", "12")], steps);

    // A rough cell at the end of the way counts too; open ground asks nothing.
    let mut steps = start();
    steps.extend([
        S::Place("goblin-1", 0, 5),
        rough(2, 2),
        S::Act("aune", "move", vec![("to", to(1, 1))], &[]),
        S::Act("aune", "move", vec![("to", to(2, 2))], &[12]),
        at("aune", 2, 2),
    ]);
    play("ending in rough ground", &[], steps);
}

#[test]
fn armour_heavier_than_a_pcs_tog_takes_agl_per_point_short() {
    let heavy = || {
        let mut cast = cast();
        let aune = format!(
            "{}\n[armour]\nvalue = 2\ntog_req = 4\n",
            include_str!("../../../../docs/examples/grimwire/aune.toml")
        );
        cast[0] = sheet(&aune);
        cast
    };
    let mut steps = start();
    steps.extend([
        // TOG 2 against 4: -2. 10 + 3 - 2 = 11 makes 11; 9 would not.
        check("aune", "AGL", 11, &[10]),
        S::Said("label: \"armour too heavy\", value: -2"),
        S::Said("result: \"success\""),
        check("aune", "AGL", 11, &[9]),
        S::Said("result: \"failure\""),
        // TOG rolls are not touched.
        check("aune", "TOG", 11, &[9]),
        S::Said("result: \"success\""),
    ]);
    play_cast("heavy armour", heavy(), steps);

    // At 2 a point, -4: 12 + 3 - 4 = 11.
    let mut steps = start();
    steps.extend([
        check("aune", "AGL", 12, &[12]),
        S::Said("label: \"armour too heavy\", value: -4"),
        S::Said("result: \"failure\""),
    ]);
    crate::testing::scene::play(
        &super::super::Grimwire,
        "ines",
        crate::testing::scene::Scene {
            name: "heavier armour",
            options: &[("grimwire.armour_agl", "2")],
            cast: heavy(),
            steps,
        },
    );
}

#[test]
fn the_suffocating_roll_mnd_11_each_turn_and_the_unconscious_drown_for_6() {
    let mut steps = start();
    steps.extend([
        set("aune", "suffocating", 0, None),
        set("aune", "underwater", 0, None),
        end("aune"),
        end("goblin-1"),
        // Her turn: MND 10 + 1 = 11 keeps her awake; under water but awake, no damage.
        S::Act("mara", "end_turn", vec![], &[10]),
        S::Said("MND to stay conscious"),
        S::Res("aune", "condition", 12),
        end("aune"),
        end("goblin-1"),
        // 9 + 1 = 10: she passes out, and drowns for 6 at once.
        S::Act("mara", "end_turn", vec![], &[9]),
        S::Has("aune", "knocked_out"),
        S::Res("aune", "condition", 6),
        S::Said("aune is unconscious under water and takes 6 damage"),
        end("goblin-1"),
        // Knocked out, she makes no roll, and drowns again.
        S::Act("mara", "end_turn", vec![], &[]),
        S::Res("aune", "condition", 0),
        S::Has("aune", "dying"),
    ]);
    play("drowning", &[], steps);
}
