#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use serde::Serialize;

use super::*;
use crate::decision::{PendingStep, StepValue};
use crate::dice::{DieRoll, Primitive, Roll};
use crate::grid::Cell;
use crate::ids::{EntityId, Seat};
use crate::sheet::Sheet;
use crate::state::{MemoryState, StateMut, Status};
use crate::testing::combatant;

/// A sheet type whose fields are not in alphabetical order, as real ones are not.
#[derive(Serialize)]
struct Written {
    name: &'static str,
    level: i64,
    armour: Option<i64>,
    attributes: BTreeMap<&'static str, i64>,
}

/// A state that touches every field projection 1 reads.
fn known_state() -> MemoryState {
    let mut s = MemoryState::default();
    let mut aune = combatant("aune", "pc", Some("ines"), &[("condition", 14)]);
    aune.sheet = Sheet::new(
        "sys",
        Written {
            name: "Aune",
            level: 2,
            armour: None,
            attributes: [("COR", 2), ("AGL", 1)].into(),
        },
    )
    .unwrap();
    aune.position = Some(Cell::new(-1, 3));
    aune.statuses.insert(
        "prone".into(),
        Status {
            source: "attack by gob".into(),
            magnitude: 0,
            rounds_left: Some(2),
        },
    );
    aune.turn.insert("actions".into(), 1);
    s.insert_combatant(aune);
    s.insert_combatant(combatant("gob", "npc", None, &[]));
    s.insert_combatant(combatant("door", "object", None, &[("hp", 5)]));
    let roll = Roll {
        expr: "1d20+2".into(),
        dice: vec![DieRoll {
            term: 0,
            die: Primitive::D20,
            face: 17,
            value: 17,
            kept: true,
            burst: false,
            from_burst: false,
            counters: Some([4, 5]),
        }],
        terms: vec![17, 2],
        total: 19,
    };
    let step = PendingStep {
        prompt_id: 7,
        rule: "sys.spare".into(),
        actor: Some(EntityId::new("aune")),
        seats: vec![
            Seat::Player("ines".into()),
            Seat::Spectator("eve".into()),
            Seat::Gm,
        ],
        question: "Spare it?".into(),
        options: vec!["yes".into(), "no".into()],
        default: "no".into(),
        timeout_ms: 60_000,
        trigger: None,
        data: [
            ("a_int".to_owned(), StepValue::Int(-3)),
            ("b_flag".to_owned(), StepValue::Flag(true)),
            ("c_text".to_owned(), StepValue::Text("x".into())),
            ("d_entity".to_owned(), StepValue::Entity("gob".into())),
            (
                "e_entities".to_owned(),
                StepValue::Entities(vec!["gob".into(), "door".into()]),
            ),
            ("f_cell".to_owned(), StepValue::Cell(Cell::new(2, 0))),
            ("g_roll".to_owned(), StepValue::Roll(Box::new(roll))),
        ]
        .into(),
        ..Default::default()
    };
    let e = s.encounter_mut();
    e.active = true;
    e.round = 3;
    e.order = vec!["gob".into(), "aune".into()];
    e.current = Some("aune".into());
    e.deferred = vec![PendingStep {
        trigger: Some("after_side:enemies".into()),
        data: BTreeMap::new(),
        ..step.clone()
    }];
    e.pending = vec![step];
    e.next_prompt = 8;
    e.values.insert("side".into(), 1);
    s
}

const KNOWN_V1: &str = concat!(
    r#"{"combatants":["#,
    r#"{"id":"aune","name":"aune","kind":"pc","owner":"ines","side":"players","position":{"x":-1,"y":3},"#,
    r#""sheet":{"system":"sys","name":"Aune","level":2,"armour":null,"attributes":{"AGL":1,"COR":2}},"#,
    r#""resources":{"condition":14},"statuses":{"prone":{"source":"attack by gob","magnitude":0,"rounds_left":2}},"#,
    r#""turn":{"actions":1}},"#,
    r#"{"id":"door","name":"door","kind":"object","owner":null,"side":"enemies","position":null,"#,
    r#""sheet":{"system":"generic","stats":{"hp":5}},"resources":{"hp":5},"statuses":{},"turn":{}},"#,
    r#"{"id":"gob","name":"gob","kind":"npc","owner":null,"side":"enemies","position":null,"#,
    r#""sheet":{"system":"generic","stats":{}},"resources":{},"statuses":{},"turn":{}}],"#,
    r#""encounter":{"active":true,"round":3,"order":["gob","aune"],"current":"aune","#,
    r#""pending":[{"prompt_id":7,"rule":"sys.spare","actor":"aune","#,
    r#""seats":[{"player":"ines"},{"spectator":"eve"},"gm"],"question":"Spare it?","#,
    r#""options":["yes","no"],"default":"no","timeout_ms":60000,"trigger":null,"#,
    r#""data":{"a_int":{"int":-3},"b_flag":{"flag":true},"c_text":{"text":"x"},"d_entity":{"entity":"gob"},"#,
    r#""e_entities":{"entities":["gob","door"]},"f_cell":{"cell":{"x":2,"y":0}},"#,
    r#""g_roll":{"roll":{"expr":"1d20+2","dice":[{"term":0,"die":"d20","face":17,"value":17,"kept":true,"#,
    r#""burst":false,"from_burst":false,"counters":[4,5]}],"terms":[17,2],"total":19}}}}],"#,
    r#""deferred":[{"prompt_id":7,"rule":"sys.spare","actor":"aune","#,
    r#""seats":[{"player":"ines"},{"spectator":"eve"},"gm"],"question":"Spare it?","#,
    r#""options":["yes","no"],"default":"no","timeout_ms":60000,"trigger":"after_side:enemies","data":{}}],"#,
    r#""next_prompt":8,"values":{"side":1}}}"#,
);

// The bytes of projection 1 for a state that uses every field it reads. Logs carry digests of
// these bytes: if this test fails, old logs stop replaying. Do not change the expected text.
#[test]
fn projection_1_is_pinned_byte_for_byte() {
    let state = known_state();
    let bytes = v1::projection(&state);
    assert_eq!(String::from_utf8(bytes).unwrap(), KNOWN_V1);
    let mut hasher = Sha256::new();
    hasher.update(b"tablehold-digest-v1\n");
    hasher.update(KNOWN_V1.as_bytes());
    assert_eq!(digest_v1(&state), hex::encode(hasher.finalize()));
    assert_eq!(digest(1, &state).unwrap(), digest_v1(&state));
}

#[test]
fn the_digest_is_stable_and_sees_every_change() {
    let empty = MemoryState::default();
    let a = digest_v1(&empty);
    assert_eq!(a, digest_v1(&MemoryState::default()));
    assert_eq!(a.len(), 64);
    let mut changed = MemoryState::default();
    changed.encounter.round = 1;
    assert_ne!(a, digest_v1(&changed));
}

#[test]
fn a_projection_this_build_does_not_know_names_itself_and_what_is_known() {
    assert_eq!(CURRENT, 3);
    let err = digest(CURRENT + 1, &MemoryState::default()).unwrap_err();
    assert_eq!(err.found, CURRENT + 1);
    assert_eq!(
        err.to_string(),
        format!(
            "the log's state digests use projection {}, which a newer Tablehold release computes; \
             this build computes projections 1 to {CURRENT}: upgrade Tablehold to replay it",
            CURRENT + 1
        )
    );
    assert!(digest(0, &MemoryState::default()).is_err());
}

// Projection 2 is projection 1 with the terrain beside the encounter's fields: its bytes for
// the same state, plus two cells of terrain. Do not change the expected text.
#[test]
fn projection_2_is_pinned_byte_for_byte_and_sees_the_terrain() {
    let mut state = known_state();
    let plain = String::from_utf8(v2::projection(&state)).unwrap();
    let open_v2 = format!("{},\"terrain\":[]}}}}", &KNOWN_V1[..KNOWN_V1.len() - 2]);
    assert_eq!(plain, open_v2);
    let before = digest(2, &state).unwrap();
    let terrain = &mut state.encounter_mut().terrain;
    terrain.insert(
        Cell::new(3, -1),
        crate::grid::Terrain {
            difficult: true,
            ..Default::default()
        },
    );
    terrain.insert(
        Cell::new(0, 2),
        crate::grid::Terrain {
            blocking: true,
            cover: Some("half".into()),
            ..Default::default()
        },
    );
    let bytes = String::from_utf8(v2::projection(&state)).unwrap();
    assert!(
        bytes.ends_with(concat!(
            r#""next_prompt":8,"values":{"side":1},"terrain":["#,
            r#"{"x":0,"y":2,"difficult":false,"blocking":true,"cover":"half"},"#,
            r#"{"x":3,"y":-1,"difficult":true,"blocking":false,"cover":null}]}}"#
        )),
        "{bytes}"
    );
    let mut hasher = Sha256::new();
    hasher.update(b"tablehold-digest-v2\n");
    hasher.update(bytes.as_bytes());
    assert_eq!(digest(2, &state).unwrap(), hex::encode(hasher.finalize()));
    assert_ne!(digest(2, &state).unwrap(), before, "v2 sees the terrain");
    // Projection 1 does not: old logs' digests are untouched by the new field.
    assert_eq!(v1::projection(&state), KNOWN_V1.as_bytes());
    assert_eq!(current(&state), digest(CURRENT, &state).unwrap());
}

// Projection 3 is projection 2 with the windows and the turns beside it: for a state whose steps have no
// window fields set, their defaults; then every field of a window each seat answers.
// Do not change the expected text.
#[test]
fn projection_3_is_pinned_byte_for_byte_and_sees_the_windows() {
    use crate::action::{ArgKind, ArgSpec, ArgValue, Args};
    use crate::decision::{Answer, Answering, Resolver};

    let mut state = known_state();
    let plain = String::from_utf8(v3::projection(&state)).unwrap();
    let v2 = String::from_utf8(v2::projection(&state)).unwrap();
    let default_window = |id: u64| {
        format!(
            r#"{{"prompt_id":{id},"answering":"first","blocks":true,"args":[],"default_args":{{}},"secret":{{}},"answers":[]}}"#
        )
    };
    let no_turns = r#""turns":{"shape":"individual","group":null,"now":[],"acted":[],"held":[]}"#;
    assert_eq!(
        plain,
        format!(
            "{},\"windows\":[{},{}],{no_turns}}}",
            &v2[..v2.len() - 1],
            default_window(7),
            default_window(7)
        )
    );
    let before = digest(3, &state).unwrap();
    let step = &mut state.encounter_mut().pending[0];
    step.answering = Answering::Each;
    step.blocks = false;
    step.args = vec![ArgSpec::new("points", ArgKind::Int, true, "to pay").range(1, 3)];
    step.default_args = Args::default().with("points", ArgValue::Int(1));
    step.secret = [("challenge".to_owned(), StepValue::Int(9))].into();
    step.answers = vec![Answer {
        seat: Seat::Player("ines".into()),
        choice: "yes".into(),
        args: Args::default().with("points", ArgValue::Int(2)),
        by: Resolver::Seat(Seat::Player("ines".into())),
    }];
    let bytes = String::from_utf8(v3::projection(&state)).unwrap();
    assert!(
        bytes.ends_with(concat!(
            r#""windows":[{"prompt_id":7,"answering":"each","blocks":false,"#,
            r#""args":[{"name":"points","kind":"int","required":true,"help":"to pay","choices":[],"#,
            r#""min":1,"max":3,"gm_only":false,"now":[]}],"default_args":{"points":1},"#,
            r#""secret":{"challenge":{"int":9}},"#,
            r#""answers":[{"seat":{"player":"ines"},"choice":"yes","args":{"points":2},"#,
            r#""by":{"seat":{"player":"ines"}}}]},"#,
            r#"{"prompt_id":7,"answering":"first","blocks":true,"args":[],"default_args":{},"secret":{},"answers":[]}],"#,
            r#""turns":{"shape":"individual","group":null,"now":[],"acted":[],"held":[]}}"#
        )),
        "{bytes}"
    );
    let windows_only = digest(3, &state).unwrap();
    state.encounter_mut().turns = crate::turns::Turns {
        shape: crate::turns::TurnShape::Group,
        group: Some("players".into()),
        now: vec!["aune".into()],
        acted: vec!["gob".into()],
        held: vec!["door".into()],
    };
    let bytes_with_turns = String::from_utf8(v3::projection(&state)).unwrap();
    assert!(
        bytes_with_turns.ends_with(
            r#""turns":{"shape":"group","group":"players","now":["aune"],"acted":["gob"],"held":["door"]}}"#
        ),
        "{bytes_with_turns}"
    );
    assert_ne!(
        digest(3, &state).unwrap(),
        windows_only,
        "v3 sees the turns"
    );
    state.encounter_mut().turns = Default::default();
    let mut hasher = Sha256::new();
    hasher.update(b"tablehold-digest-v3\n");
    hasher.update(bytes.as_bytes());
    assert_eq!(digest(3, &state).unwrap(), hex::encode(hasher.finalize()));
    assert_ne!(digest(3, &state).unwrap(), before, "v3 sees the windows");
    // Projections 1 and 2 do not: old logs' digests are untouched by the new fields.
    assert_eq!(v1::projection(&state), KNOWN_V1.as_bytes());
    assert_eq!(v2::projection(&state), v2.as_bytes());
    assert_eq!(current(&state), digest(3, &state).unwrap());
}
