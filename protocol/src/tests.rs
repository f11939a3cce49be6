//! The wire format's tests: every message survives a round trip, golden bytes pin the
//! encoding, the JSON shapes `docs/PROTOCOL.md` shows are exactly the MessagePack shapes, and
//! no byte string makes decoding panic, over-allocate or recurse without bound.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use serde_json::{Value, json};
use tablehold_rules::dice::{DiceExpr, Roll, ScriptedDice, roll};
use tablehold_rules::grid::Cell;
use tablehold_rules::options::OptionValue;
use tablehold_rules::{
    ActionSpec, Against, ArgKind, ArgSpec, ArgValue, Args, Audience, CheckRecord, Combatant, Fact,
    Modifier, Outcome, Part, PendingStep, Refusal, Resolver, Seat, SeatId, Status, StepValue,
};

use crate::{
    ClientMsg, CombatantView, DecodeError, EVENT_VERSION, ErrorCode, EventEnvelope, GridView,
    Invite, MAX_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, Op, PROTOCOL_VERSION, PromptView, Reply, Role,
    SeatInfo, ServerMsg, TableView, TerrainView, decode_client, decode_server, encode,
};

/// Every allocation of this test binary counts against a ceiling far above what any test
/// needs. A decoder that reserved memory from a hostile length prefix (4 GiB for a `str32` of
/// 2^32-1 bytes, more for an `array32` of as many elements) gets a null pointer and the run
/// aborts with "memory allocation of N bytes failed": that is the failure to look for.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> =
    cap::Cap::new(std::alloc::System, ALLOCATION_CEILING);
const ALLOCATION_CEILING: usize = 512 << 20;

// ---------------------------------------------------------------------------------------------
// Samples: one value of every variant, built from real rules values where the rules own them.

/// `1d20+3` rolled on a scripted 12: what a check's roll looks like on the wire.
fn d20_roll() -> Roll {
    let expr = DiceExpr::parse("1d20+3").expect("valid dice");
    roll(&expr, &mut ScriptedDice::new(vec![12])).expect("one d20 is scripted")
}

/// A real GRIMWIRE combatant: the deepest value an event carries (sheet, weapons, armour).
fn goblin() -> Combatant {
    let sheet = r#"
        id = "goblin-1"
        name = "Goblin with a cleaver"
        kind = "npc"
        level = 1
        condition_max = 10
        focus_max = 0
        weak = ["heat"]
        armour = { value = 1 }
        [attributes]
        TOG = 1
        AGL = 2
        COR = 1
        MND = -1
        PER = 1
        RSN = -2
        [[weapons]]
        id = "cleaver"
        name = "Cleaver"
        class = "heavy"
        damage = "2d6"
        damage_type = "edged"
        tog_req = 4
        [npc]
        defence_tn = 12
        attack_tn = 11
    "#;
    tablehold_rules::grimwire::sheet::from_toml(sheet).expect("a valid GRIMWIRE sheet")
}

fn seats(ids: &[&str]) -> Audience {
    Audience::Seats(
        ids.iter()
            .map(|s| SeatId::from(*s))
            .collect::<BTreeSet<_>>(),
    )
}

fn spare_view() -> PromptView {
    PromptView {
        prompt_id: 3,
        question: "Spare the bystander?".into(),
        options: vec!["spare".into(), "strike".into()],
        default: "spare".into(),
        seats: vec!["ines".into()],
        deadline_ms: 1_767_225_660_000,
        answering: "first".into(),
        blocks: true,
        args: vec![ArgSpec::new("points", ArgKind::Int, true, "to pay").range(1, 3)],
        waiting: vec!["ines".into()],
    }
}

fn spare_prompt() -> PendingStep {
    PendingStep {
        prompt_id: 3,
        rule: "grimwire.collateral.spare".into(),
        actor: Some("aune".into()),
        seats: vec![Seat::Player("ines".into())],
        question: "Spare the bystander?".into(),
        options: vec!["spare".into(), "strike".into()],
        default: "spare".into(),
        timeout_ms: 60_000,
        trigger: None,
        data: BTreeMap::from([
            ("attack".into(), StepValue::Roll(Box::new(d20_roll()))),
            ("margin".into(), StepValue::Int(3)),
            ("hidden".into(), StepValue::Flag(true)),
            ("weapon".into(), StepValue::Text("knife".into())),
            ("target".into(), StepValue::Entity("goblin-1".into())),
            (
                "candidates".into(),
                StepValue::Entities(vec!["goblin-2".into(), "mara".into()]),
            ),
            ("at".into(), StepValue::Cell(Cell::new(-2, 5))),
        ]),
        ..Default::default()
    }
}

/// The realistic attack event of PROTOCOL.md's example session, as the GM receives it.
fn attack_event() -> EventEnvelope {
    EventEnvelope {
        table: "t-friday".into(),
        seq: 42,
        version: EVENT_VERSION,
        at_ms: 1_767_225_600_000,
        link: "5e".repeat(32),
        parts: vec![
            Part {
                audience: Audience::Everyone,
                fact: Fact::Checked(CheckRecord {
                    actor: Some("aune".into()),
                    label: "COR attack".into(),
                    roll: d20_roll(),
                    modifiers: vec![Modifier::new("cover", -2)],
                    total: 13,
                    against: Against::Hidden,
                    outcome: Outcome::Success,
                    overridden_by: None,
                    margin: None,
                }),
            },
            Part {
                audience: Audience::GmOnly,
                fact: Fact::HiddenTarget {
                    label: "COR attack".into(),
                    target: 12,
                    direction: Default::default(),
                    margin: None,
                },
            },
            Part {
                audience: Audience::Everyone,
                fact: Fact::ResourceSet {
                    entity: "goblin-1".into(),
                    resource: "condition".into(),
                    from: 10,
                    to: 4,
                },
            },
            Part {
                audience: seats(&["ines"]),
                fact: Fact::DecisionRequested {
                    step: Box::new(spare_prompt()),
                },
            },
        ],
    }
}

/// One fact of every kind. Adding a `Fact` variant in the rules crate is a protocol change:
/// this match stops compiling until the new fact is sampled here and documented in
/// PROTOCOL.md.
fn fact_kind(fact: &Fact) -> &'static str {
    match fact {
        Fact::Rolled { .. } => "rolled",
        Fact::Checked(_) => "checked",
        Fact::HiddenTarget { .. } => "hidden_target",
        Fact::DamageResolved { .. } => "damage_resolved",
        Fact::Picked { .. } => "picked",
        Fact::Noted { .. } => "noted",
        Fact::Told(_) => "told",
        Fact::Ruled { .. } => "ruled",
        Fact::CombatantAdded { .. } => "combatant_added",
        Fact::CombatantRemoved { .. } => "combatant_removed",
        Fact::OwnerSet { .. } => "owner_set",
        Fact::ResourceSet { .. } => "resource_set",
        Fact::StatusSet { .. } => "status_set",
        Fact::TurnCounterSet { .. } => "turn_counter_set",
        Fact::Moved { .. } => "moved",
        Fact::TerrainSet { .. } => "terrain_set",
        Fact::EncounterStarted => "encounter_started",
        Fact::EncounterEnded => "encounter_ended",
        Fact::OrderSet { .. } => "order_set",
        Fact::EncounterValueSet { .. } => "encounter_value_set",
        Fact::RoundStarted { .. } => "round_started",
        Fact::TurnStarted { .. } => "turn_started",
        Fact::TurnsOpened { .. } => "turns_opened",
        Fact::Acted { .. } => "acted",
        Fact::HoldSet { .. } => "hold_set",
        Fact::DecisionRequested { .. } => "decision_requested",
        Fact::DecisionResolved { .. } => "decision_resolved",
        Fact::DecisionAnswered { .. } => "decision_answered",
        Fact::WindowSecret { .. } => "window_secret",
        Fact::StepDeferred { .. } => "step_deferred",
        Fact::DeferredResumed { .. } => "deferred_resumed",
        Fact::DiceDrawn { .. } => "dice_drawn",
        Fact::EpochOpened { .. } => "epoch_opened",
        Fact::EntropyCommitted { .. } => "entropy_committed",
        Fact::CommitmentsClosed { .. } => "commitments_closed",
        Fact::EntropyRevealed { .. } => "entropy_revealed",
        Fact::EntropyWithheld { .. } => "entropy_withheld",
        Fact::EpochSealed { .. } => "epoch_sealed",
        Fact::SeatReadmitted { .. } => "seat_readmitted",
        Fact::EpochRevealed { .. } => "epoch_revealed",
        Fact::DiceOpened { .. } => "dice_opened",
        Fact::DigestRecorded { .. } => "digest_recorded",
    }
}
const FACT_KINDS: usize = 42;

fn every_fact() -> Vec<Fact> {
    let against = [
        Against::Target(12),
        Against::Exceed(9),
        Against::Nothing,
        Against::Hidden,
        Against::Opposed {
            entity: "goblin-1".into(),
            total: 11,
        },
        Against::AtMost(7),
        Against::Below(7),
        Against::Pool {
            name: "challenge dice".into(),
            total: 9,
        },
    ];
    let mut facts: Vec<Fact> = against
        .into_iter()
        .zip([
            Outcome::Success,
            Outcome::Failure,
            Outcome::Unjudged,
            Outcome::Success,
            Outcome::Failure,
            Outcome::Success,
            Outcome::Failure,
            Outcome::Success,
        ])
        .map(|(against, outcome)| {
            let margin = tablehold_rules::compare::judge(13, &against).margin;
            Fact::Checked(CheckRecord {
                actor: Some("aune".into()),
                label: "COR attack".into(),
                roll: d20_roll(),
                modifiers: vec![Modifier::new("COR", 3), Modifier::new("range", -5)],
                total: 13,
                against,
                outcome,
                overridden_by: Some("natural 20".into()),
                margin,
            })
        })
        .collect();
    let status = Status {
        source: "attack by goblin-1".into(),
        magnitude: 3,
        rounds_left: Some(2),
    };
    facts.extend([
        Fact::Rolled {
            by: None,
            purpose: "damage".into(),
            roll: d20_roll(),
        },
        Fact::HiddenTarget {
            label: "COR attack".into(),
            target: 12,
            direction: tablehold_rules::compare::Direction::Exceed,
            margin: Some(1),
        },
        Fact::DamageResolved {
            target: "goblin-1".into(),
            steps: vec![Modifier::new("2d6", 7), Modifier::new("armour", -1)],
            amount: 6,
        },
        Fact::Picked {
            purpose: "collateral".into(),
            candidates: vec!["goblin-2".into(), "mara".into()],
            face: 2,
            picked: "mara".into(),
            die: Some(tablehold_rules::dice::Primitive::D2),
            counters: Some([7, 8]),
        },
        Fact::Noted {
            text: "The lights flicker.".into(),
        },
        Fact::Told(Box::new(tablehold_rules::Account {
            actor: Some("goblin-2".into()),
            verb: "shoots".into(),
            target: Some("mara".into()),
            instrument: Some("Crossbow".into()),
            roll: Some(tablehold_rules::RollTold {
                by: Some("mara".into()),
                label: "AGL evade".into(),
                roll: d20_roll(),
                modifiers: vec![Modifier::new("AGL", 2)],
                total: Some(10),
                against: Some(tablehold_rules::Compared {
                    name: "TN".into(),
                    value: None,
                    hidden: true,
                    exceed: false,
                    under: true,
                }),
                result: "hit".into(),
                because: None,
                margin: Some(2),
            }),
            effects: vec![tablehold_rules::Effect {
                entity: "mara".into(),
                what: "damage".into(),
                steps: vec![Modifier::new("dice", 3), Modifier::new("armour", -1)],
                amount: Some(2),
                resource: Some("Condition".into()),
                before: Some(12),
                after: Some(10),
                wound: Some("hurt".into()),
            }],
            budget: vec![tablehold_rules::Budget {
                entity: "goblin-2".into(),
                left: vec![Modifier::new("action", 0)],
            }],
        })),
        Fact::Ruled {
            text: "The door is barred.".into(),
        },
        Fact::CombatantAdded {
            combatant: Box::new(goblin()),
            replaces: true,
        },
        Fact::CombatantRemoved {
            entity: "goblin-2".into(),
        },
        Fact::OwnerSet {
            entity: "aune".into(),
            from: Some(tablehold_rules::SeatId("rui".into())),
            to: None,
        },
        Fact::ResourceSet {
            entity: "goblin-1".into(),
            resource: "condition".into(),
            from: 10,
            to: 4,
        },
        Fact::StatusSet {
            entity: "aune".into(),
            status: "bleeding".into(),
            from: None,
            to: Some(status),
        },
        Fact::TurnCounterSet {
            entity: "aune".into(),
            counter: "actions".into(),
            from: 1,
            to: 0,
        },
        Fact::TerrainSet {
            cell: Cell::new(2, -1),
            from: None,
            to: Some(tablehold_rules::grid::Terrain {
                difficult: true,
                blocking: false,
                cover: Some("cover".into()),
            }),
        },
        Fact::Moved {
            entity: "aune".into(),
            from: Some(Cell::new(0, 0)),
            to: Some(Cell::new(-3, 4)),
        },
        Fact::EncounterStarted,
        Fact::EncounterEnded,
        Fact::OrderSet {
            order: vec!["aune".into(), "goblin-1".into()],
        },
        Fact::EncounterValueSet {
            key: "side".into(),
            from: 0,
            to: 1,
        },
        Fact::RoundStarted { round: 1 },
        Fact::TurnStarted {
            entity: Some("aune".into()),
        },
        Fact::TurnsOpened {
            shape: tablehold_rules::turns::TurnShape::Group,
            group: Some("players".into()),
            now: vec!["aune".into(), "mara".into()],
        },
        Fact::Acted {
            entity: "aune".into(),
        },
        Fact::HoldSet {
            entity: "mara".into(),
            holding: true,
        },
        Fact::DecisionRequested {
            step: Box::new(spare_prompt()),
        },
        Fact::DecisionResolved {
            prompt_id: 3,
            choice: "spare".into(),
            by: Resolver::Seat(Seat::Player("ines".into())),
            args: Default::default(),
        },
        Fact::DecisionResolved {
            prompt_id: 4,
            choice: "strike".into(),
            by: Resolver::GmOverride,
            args: Default::default(),
        },
        Fact::DecisionResolved {
            prompt_id: 5,
            choice: String::new(),
            by: Resolver::TimedOut,
            args: tablehold_rules::Args::default()
                .with("points", tablehold_rules::ArgValue::Int(0)),
        },
        Fact::DecisionAnswered {
            prompt_id: 6,
            answer: tablehold_rules::Answer {
                seat: Seat::Player("ines".into()),
                choice: "take".into(),
                args: tablehold_rules::Args::default()
                    .with("target", tablehold_rules::ArgValue::Text("goblin-1".into())),
                by: Resolver::Seat(Seat::Player("ines".into())),
            },
        },
        Fact::WindowSecret {
            prompt_id: 7,
            secret: [("challenge".to_owned(), StepValue::Int(9))].into(),
        },
        Fact::StepDeferred {
            step: Box::new(PendingStep {
                trigger: Some("after_side:enemies".into()),
                ..spare_prompt()
            }),
        },
        Fact::DeferredResumed { prompt_id: 3 },
        Fact::DiceDrawn {
            epoch: 2,
            spans: vec![[0, 1], [1, 3]],
            sealed: vec![tablehold_rules::SealedDice {
                part: 1,
                commitment: "67".repeat(32),
            }],
        },
        Fact::EpochOpened {
            epoch: 2,
            purpose: "encounter".into(),
            commitment: "ab".repeat(32),
            test_seed: false,
        },
        Fact::EntropyCommitted {
            epoch: 2,
            seat: "ines".into(),
            commitment: "cd".repeat(32),
        },
        Fact::CommitmentsClosed { epoch: 2 },
        Fact::EntropyRevealed {
            epoch: 2,
            seat: "ines".into(),
            entropy: "ef".repeat(32),
        },
        Fact::EntropyWithheld {
            epoch: 2,
            seat: "olek".into(),
            replacement: "01".repeat(32),
        },
        Fact::EpochSealed { epoch: 2 },
        Fact::SeatReadmitted {
            seat: "olek".into(),
        },
        Fact::EpochRevealed {
            epoch: 2,
            seed: "23".repeat(32),
        },
        Fact::DiceOpened {
            epoch: 2,
            seq: 14,
            part: 1,
            dice: r#"{"pick":{"die":"d6","face":4,"counters":[3,4]}}"#.into(),
        },
        Fact::DigestRecorded {
            audience: "seat:ines".into(),
            digest: "45".repeat(32),
            projection: 1,
        },
    ]);
    facts
}

/// Every fact, the audiences taking turns: everyone, the GM only, some seats.
fn every_fact_event() -> EventEnvelope {
    let audiences = [
        Audience::Everyone,
        Audience::GmOnly,
        seats(&["ines", "olek"]),
    ];
    EventEnvelope {
        table: "t-friday".into(),
        seq: u64::MAX,
        version: EVENT_VERSION,
        at_ms: 0,
        link: String::new(),
        parts: every_fact()
            .into_iter()
            .zip(audiences.iter().cycle())
            .map(|(fact, audience)| Part {
                audience: audience.clone(),
                fact,
            })
            .collect(),
    }
}

/// Arguments of every kind, at their edges.
fn every_arg() -> Args {
    Args::default()
        .with("target", ArgValue::Text("goblin-1".into()))
        .with("looks_like_a_flag", ArgValue::Text("true".into()))
        .with("looks_like_an_int", ArgValue::Text("7".into()))
        .with("empty", ArgValue::Text(String::new()))
        .with("bonus", ArgValue::Int(-3))
        .with("max", ArgValue::Int(i64::MAX))
        .with("min", ArgValue::Int(i64::MIN))
        .with("zero", ArgValue::Int(0))
        .with("careful", ArgValue::Flag(true))
        .with("reckless", ArgValue::Flag(false))
        .with("to", ArgValue::Cell(Cell::new(3, -4)))
        .with("origin", ArgValue::Cell(Cell::new(i32::MIN, i32::MAX)))
}

fn op_kind(op: &Op) -> &'static str {
    match op {
        Op::CreateTable { .. } => "create_table",
        Op::Join { .. } => "join",
        Op::Auth { .. } => "auth",
        Op::Subscribe { .. } => "subscribe",
        Op::Seats => "seats",
        Op::Invite { .. } => "invite",
        Op::RevokeSeat { .. } => "revoke_seat",
        Op::AddSheet { .. } => "add_sheet",
        Op::ShowSheet { .. } => "show_sheet",
        Op::AssignCharacter { .. } => "assign_character",
        Op::Act { .. } => "act",
        Op::Answer { .. } => "answer",
        Op::Roll { .. } => "roll",
        Op::State => "state",
        Op::Actions => "actions",
        Op::Ping => "ping",
        Op::CommitEntropy { .. } => "commit_entropy",
        Op::RevealEntropy { .. } => "reveal_entropy",
        Op::EndSession => "end_session",
        Op::ReadmitSeat { .. } => "readmit_seat",
        Op::Export { .. } => "export",
    }
}
const OP_KINDS: usize = 21;

fn every_op() -> Vec<Op> {
    vec![
        Op::CreateTable {
            system: "grimwire".into(),
            name: "friday".into(),
            options: BTreeMap::from([
                ("grid.diagonal".into(), OptionValue::Choice("two".into())),
                ("decision.timeout_ms".into(), OptionValue::Int(30_000)),
                ("grimwire.some_flag".into(), OptionValue::Bool(true)),
            ]),
            players: 4,
            spectators: 1,
        },
        Op::Join {
            table: "t-friday".into(),
            invite: "inv-3f9a".into(),
            name: "Ines".into(),
        },
        Op::Auth {
            table: "t-friday".into(),
            token: "tok-secret".into(),
        },
        Op::Subscribe { after: 41 },
        Op::Seats,
        Op::Invite { role: Role::Player },
        Op::Invite {
            role: Role::Spectator,
        },
        Op::RevokeSeat {
            seat: "olek".into(),
        },
        Op::AddSheet {
            sheet: "id = \"aune\"\nname = \"Aune\"\n".into(),
        },
        Op::ShowSheet {
            entity: "goblin-1".into(),
        },
        Op::AssignCharacter {
            entity: "aune".into(),
            seat: Some("ines".into()),
        },
        Op::AssignCharacter {
            entity: "aune".into(),
            seat: None,
        },
        Op::Act {
            actor: Some("aune".into()),
            action: "attack".into(),
            args: every_arg(),
        },
        Op::Act {
            actor: None,
            action: "start_encounter".into(),
            args: Args::default(),
        },
        Op::Answer {
            prompt_id: 3,
            choice: "spare".into(),
            args: Args::default(),
        },
        Op::Answer {
            prompt_id: 4,
            choice: String::new(),
            args: Args::default().with("points", tablehold_rules::ArgValue::Int(2)),
        },
        Op::Roll {
            dice: "3d10kh1+2".into(),
            secret: true,
        },
        Op::State,
        Op::Actions,
        Op::Ping,
        Op::CommitEntropy {
            epoch: 2,
            commitment: "cd".repeat(32),
        },
        Op::RevealEntropy {
            epoch: 2,
            entropy: "ef".repeat(32),
        },
        Op::EndSession,
        Op::ReadmitSeat {
            seat: "olek".into(),
        },
        Op::Export { after: 40 },
    ]
}

fn every_client_msg() -> Vec<ClientMsg> {
    let mut msgs = vec![ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: "tablehold/0.0.0".into(),
    }];
    msgs.extend(
        every_op()
            .into_iter()
            .zip(1..)
            .map(|(op, id)| ClientMsg::Request { id, op }),
    );
    msgs.push(ClientMsg::Request {
        id: u64::MAX,
        op: Op::Ping,
    });
    msgs
}

fn seat_info(id: &str, role: Role) -> SeatInfo {
    SeatInfo {
        id: id.into(),
        name: id.to_uppercase(),
        role,
        revoked: false,
    }
}

fn goblin_view(numbers: bool) -> CombatantView {
    CombatantView {
        id: "goblin-1".into(),
        name: "Goblin with a cleaver".into(),
        kind: "npc".into(),
        side: "enemies".into(),
        owner: None,
        position: Some((2, -1)),
        statuses: vec!["bleeding".into()],
        resources: numbers.then(|| BTreeMap::from([("condition".into(), 4)])),
        sheet: numbers.then(|| "defence_tn = 12\n".into()),
    }
}

fn reply_kind(reply: &Reply) -> &'static str {
    match reply {
        Reply::TableCreated { .. } => "table_created",
        Reply::Joined { .. } => "joined",
        Reply::Authed { .. } => "authed",
        Reply::Subscribed { .. } => "subscribed",
        Reply::Seats { .. } => "seats",
        Reply::Invited { .. } => "invited",
        Reply::Applied { .. } => "applied",
        Reply::Sheet { .. } => "sheet",
        Reply::State { .. } => "state",
        Reply::Actions { .. } => "actions",
        Reply::Pong => "pong",
        Reply::ExportPage { .. } => "export_page",
    }
}
const REPLY_KINDS: usize = 12;

fn every_reply() -> Vec<Reply> {
    let invite = Invite {
        code: "inv-3f9a".into(),
        role: Role::Player,
    };
    vec![
        Reply::TableCreated {
            table: "t-friday".into(),
            gm_token: "tok-gm".into(),
            invites: vec![
                invite.clone(),
                Invite {
                    code: "inv-77c0".into(),
                    role: Role::Spectator,
                },
            ],
        },
        Reply::Joined {
            table: "t-friday".into(),
            seat: seat_info("ines", Role::Player),
            token: "tok-ines".into(),
        },
        Reply::Authed {
            table: "t-friday".into(),
            seat: seat_info("gm", Role::Gm),
            head: 41,
        },
        Reply::Subscribed { head: 41 },
        Reply::Seats {
            seats: vec![
                seat_info("gm", Role::Gm),
                SeatInfo {
                    revoked: true,
                    ..seat_info("olek", Role::Spectator)
                },
            ],
        },
        Reply::Invited { invite },
        Reply::Applied {
            first_seq: 42,
            last_seq: 44,
        },
        Reply::Sheet {
            sheet: goblin_view(true),
        },
        Reply::State {
            state: Box::new(TableView {
                table: "t-friday".into(),
                name: "friday".into(),
                system: "grimwire".into(),
                head: 44,
                encounter: true,
                round: 1,
                current: Some("aune".into()),
                may_act: vec!["aune".into()],
                turn: "Aune's turn".into(),
                order: vec!["aune".into(), "goblin-1".into()],
                combatants: vec![goblin_view(false)],
                prompt: Some(spare_view()),
                prompts: vec![
                    PromptView {
                        prompt_id: 2,
                        question: "Take the opening?".into(),
                        options: vec!["strike".into(), "hold".into()],
                        default: "hold".into(),
                        seats: vec!["ines".into(), "olek".into()],
                        deadline_ms: 1_767_225_650_000,
                        answering: "each".into(),
                        blocks: false,
                        args: vec![],
                        waiting: vec!["olek".into()],
                    },
                    spare_view(),
                ],
                digest: Some("0".repeat(64)),
                terrain: vec![TerrainView {
                    x: 2,
                    y: -1,
                    terrain: tablehold_rules::grid::Terrain {
                        difficult: true,
                        blocking: false,
                        cover: Some("cover".into()),
                    },
                }],
                grid: Some(GridView {
                    unit: "m".into(),
                    cell_size: 1,
                    covers: vec!["cover".into()],
                    diagonal: tablehold_rules::grid::Diagonal::Two,
                }),
            }),
        },
        Reply::State {
            state: Box::new(TableView {
                table: "t-quiet".into(),
                name: "quiet".into(),
                system: "grimwire".into(),
                head: 0,
                encounter: false,
                round: 0,
                current: None,
                may_act: vec![],
                turn: "no encounter".into(),
                order: vec![],
                combatants: vec![],
                prompt: None,
                prompts: vec![],
                digest: None,
                terrain: vec![],
                grid: None,
            }),
        },
        Reply::Actions {
            actions: vec![ActionSpec {
                name: "attack".into(),
                help: "Attack with a weapon.".into(),
                actor: Some("aune".into()),
                args: vec![
                    ArgSpec::new("target", ArgKind::Entity, true, "Whom to attack."),
                    ArgSpec::new("weapon", ArgKind::Text, false, "Which weapon.")
                        .choices(&["knife", "pistol"]),
                    ArgSpec::new("aim", ArgKind::Int, false, "Extra aim.").range(0, 3),
                    ArgSpec::new("careful", ArgKind::Flag, false, "Avoid collateral."),
                    ArgSpec::new("to", ArgKind::Cell, false, "Where to step first."),
                ],
                costs: vec!["action".into()],
            }],
        },
        Reply::Pong,
        Reply::ExportPage {
            header: tablehold_log::LogHeader {
                format: "tablehold-log".into(),
                version: 1,
                table: tablehold_log::TableInfo {
                    id: "t-friday".into(),
                    name: "friday".into(),
                    system: "grimwire".into(),
                    options: serde_json::json!({"grid.diagonal": "two"}),
                },
                viewer: "seat:ines".into(),
                exported_at_ms: 1_767_225_660_000,
                event_count: 44,
            },
            events: vec![tablehold_log::ExportedEvent {
                header: r#"{"seq":41,"version":1,"at_ms":1767225600000}"#.into(),
                parts: vec![
                    tablehold_log::ExportedPart::Shown {
                        json: r#"{"audience":"everyone","fact":{"fact":"epoch_sealed","epoch":2}}"#
                            .into(),
                    },
                    tablehold_log::ExportedPart::Hidden {
                        hidden: "ab".repeat(32),
                    },
                ],
                link: "cd".repeat(32),
            }],
            more: true,
        },
    ]
}

/// Every error code with its wire name. Codes are never renamed or reused: a change here is a
/// protocol break.
fn code_name(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::BadRequest => "bad_request",
        ErrorCode::HelloFirst => "hello_first",
        ErrorCode::VersionMismatch => "version_mismatch",
        ErrorCode::Unauthorized => "unauthorized",
        ErrorCode::Forbidden => "forbidden",
        ErrorCode::UnknownTable => "unknown_table",
        ErrorCode::BadCredentials => "bad_credentials",
        ErrorCode::NotYourTurn => "not_your_turn",
        ErrorCode::OutOfRange => "out_of_range",
        ErrorCode::InsufficientResource => "insufficient_resource",
        ErrorCode::AwaitingDecision => "awaiting_decision",
        ErrorCode::Refused => "refused",
        ErrorCode::RateLimited => "rate_limited",
        ErrorCode::TooLarge => "too_large",
        ErrorCode::TableFull => "table_full",
        ErrorCode::Internal => "internal",
        ErrorCode::ShuttingDown => "shutting_down",
        ErrorCode::RevealMismatch => "reveal_mismatch",
        ErrorCode::WrongPhase => "wrong_phase",
        ErrorCode::NoSuchPrompt => "no_such_prompt",
        ErrorCode::NotAnOption => "not_an_option",
        ErrorCode::UnknownAction => "unknown_action",
        ErrorCode::UnknownEntity => "unknown_entity",
        ErrorCode::UnknownName => "unknown_name",
        ErrorCode::NoneLeft => "none_left",
        ErrorCode::CannotAct => "cannot_act",
        ErrorCode::NoEncounter => "no_encounter",
        ErrorCode::EncounterRunning => "encounter_running",
        ErrorCode::StorageFull => "storage_full",
    }
}

const EVERY_CODE: [ErrorCode; 29] = [
    ErrorCode::BadRequest,
    ErrorCode::HelloFirst,
    ErrorCode::VersionMismatch,
    ErrorCode::Unauthorized,
    ErrorCode::Forbidden,
    ErrorCode::UnknownTable,
    ErrorCode::BadCredentials,
    ErrorCode::NotYourTurn,
    ErrorCode::OutOfRange,
    ErrorCode::InsufficientResource,
    ErrorCode::AwaitingDecision,
    ErrorCode::Refused,
    ErrorCode::RateLimited,
    ErrorCode::TooLarge,
    ErrorCode::TableFull,
    ErrorCode::Internal,
    ErrorCode::ShuttingDown,
    ErrorCode::RevealMismatch,
    ErrorCode::WrongPhase,
    ErrorCode::NoSuchPrompt,
    ErrorCode::NotAnOption,
    ErrorCode::UnknownAction,
    ErrorCode::UnknownEntity,
    ErrorCode::UnknownName,
    ErrorCode::NoneLeft,
    ErrorCode::CannotAct,
    ErrorCode::NoEncounter,
    ErrorCode::EncounterRunning,
    ErrorCode::StorageFull,
];

fn every_server_msg() -> Vec<ServerMsg> {
    let mut msgs = vec![ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        server: "tablehold-server/0.0.0".into(),
    }];
    msgs.extend(
        every_reply()
            .into_iter()
            .zip(1..)
            .map(|(reply, id)| ServerMsg::Response { id, reply }),
    );
    msgs.extend(
        EVERY_CODE
            .iter()
            .zip(100..)
            .map(|(&code, id)| ServerMsg::Error {
                id: Some(id),
                code,
                message: format!("{} happened", code_name(code)),
            }),
    );
    msgs.push(ServerMsg::Error {
        id: None,
        code: ErrorCode::VersionMismatch,
        message: "this server speaks protocol 1".into(),
    });
    msgs.push(ServerMsg::Event(attack_event()));
    msgs.push(ServerMsg::Event(every_fact_event()));
    msgs.push(ServerMsg::Event(EventEnvelope {
        parts: vec![],
        ..attack_event()
    }));
    msgs
}

fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// What a MessagePack frame holds, read generically: the same tree a client in another
/// language gets from its MessagePack library.
fn as_json(frame: &[u8]) -> Value {
    rmp_serde::from_slice(frame).expect("every frame is plain MessagePack")
}

// ---------------------------------------------------------------------------------------------
// Round trips.

#[test]
fn samples_cover_every_variant() {
    let ops: BTreeSet<_> = every_op().iter().map(op_kind).collect();
    assert_eq!(ops.len(), OP_KINDS);
    let replies: BTreeSet<_> = every_reply().iter().map(reply_kind).collect();
    assert_eq!(replies.len(), REPLY_KINDS);
    let facts: BTreeSet<_> = every_fact().iter().map(fact_kind).collect();
    assert_eq!(facts.len(), FACT_KINDS);
    let codes: BTreeSet<_> = EVERY_CODE.iter().map(|&c| code_name(c)).collect();
    assert_eq!(codes.len(), EVERY_CODE.len());
}

#[test]
fn every_client_message_round_trips() {
    for msg in every_client_msg() {
        let frame = encode(&msg);
        assert_eq!(decode_client(&frame), Ok(msg.clone()), "{msg:?}");
        // A client frame is never a server message, and the other way round.
        assert!(decode_server(&frame).is_err(), "{msg:?}");
    }
}

#[test]
fn every_server_message_round_trips() {
    for msg in every_server_msg() {
        let frame = encode(&msg);
        assert!(frame.len() < MAX_FRAME_BYTES, "{msg:?}");
        assert_eq!(decode_server(&frame), Ok(msg.clone()), "{msg:?}");
        assert!(decode_client(&frame).is_err(), "{msg:?}");
    }
}

#[test]
fn act_arguments_of_every_kind_keep_their_kind() {
    let msg = ClientMsg::Request {
        id: 8,
        op: Op::Act {
            actor: Some("aune".into()),
            action: "attack".into(),
            args: every_arg(),
        },
    };
    let Ok(ClientMsg::Request {
        op: Op::Act { args, .. },
        ..
    }) = decode_client(&encode(&msg))
    else {
        panic!("an act request decodes as one");
    };
    assert_eq!(args.text("looks_like_a_flag"), Ok(Some("true")));
    assert_eq!(args.text("looks_like_an_int"), Ok(Some("7")));
    assert_eq!(args.int("min"), Ok(Some(i64::MIN)));
    assert_eq!(args.int("max"), Ok(Some(i64::MAX)));
    assert_eq!(args.flag("reckless"), Ok(false));
    assert_eq!(args.cell("to"), Ok(Some(Cell::new(3, -4))));
    assert_eq!(args, every_arg());
}

#[test]
fn a_hello_with_another_version_decodes() {
    // Refusing it is the server's job, with `version_mismatch` and the version it speaks.
    for protocol in [0, 2, u32::MAX] {
        let hello = ClientMsg::Hello {
            protocol,
            client: "tablehold/9.0.0".into(),
        };
        assert_eq!(decode_client(&encode(&hello)), Ok(hello));
    }
}

#[test]
fn messagepack_has_the_json_shape() {
    // PROTOCOL.md shows messages as JSON; this is what makes that exact.
    for frame in every_client_msg().iter().map(encode) {
        let msg = decode_client(&frame).expect("round trips");
        assert_eq!(as_json(&frame), serde_json::to_value(&msg).expect("json"));
    }
    for frame in every_server_msg().iter().map(encode) {
        let msg = decode_server(&frame).expect("round trips");
        assert_eq!(as_json(&frame), serde_json::to_value(&msg).expect("json"));
    }
}

#[test]
fn json_written_by_hand_decodes() {
    // What a client in another language builds: omitted optional fields, fields in another
    // order, unknown fields (ignored, so later versions can add fields), small integers in any
    // MessagePack width.
    let cases = [
        (
            json!({"type": "request", "id": 1, "op": {"op": "act", "action": "dodge"}}),
            ClientMsg::Request {
                id: 1,
                op: Op::Act {
                    actor: None,
                    action: "dodge".into(),
                    args: Args::default(),
                },
            },
        ),
        (
            json!({"op": {"dice": "2d6", "op": "roll"}, "id": 2, "type": "request"}),
            ClientMsg::Request {
                id: 2,
                op: Op::Roll {
                    dice: "2d6".into(),
                    secret: false,
                },
            },
        ),
        (
            json!({"type": "request", "id": 3, "op": {"op": "create_table", "system": "grimwire",
                   "name": "friday", "players": 2, "spectators": 0}}),
            ClientMsg::Request {
                id: 3,
                op: Op::CreateTable {
                    system: "grimwire".into(),
                    name: "friday".into(),
                    options: BTreeMap::new(),
                    players: 2,
                    spectators: 0,
                },
            },
        ),
        (
            json!({"type": "hello", "protocol": 1, "client": "x", "features": ["future"]}),
            ClientMsg::Hello {
                protocol: 1,
                client: "x".into(),
            },
        ),
    ];
    for (value, expected) in cases {
        let frame = rmp_serde::to_vec_named(&value).expect("json to msgpack");
        assert_eq!(decode_client(&frame), Ok(expected), "{value}");
    }
    // An error without an id (the connection is refused) may omit it or send nil.
    for value in [
        json!({"type": "error", "code": "version_mismatch", "message": "speak 1"}),
        json!({"type": "error", "id": null, "code": "version_mismatch", "message": "speak 1"}),
    ] {
        let frame = rmp_serde::to_vec_named(&value).expect("json to msgpack");
        assert_eq!(
            decode_server(&frame),
            Ok(ServerMsg::Error {
                id: None,
                code: ErrorCode::VersionMismatch,
                message: "speak 1".into(),
            })
        );
    }
    // Integers written in a wider MessagePack form than needed still decode: uint64 7.
    let mut wide = hex_bytes("83a474797065a772657175657374a26964");
    wide.extend(hex_bytes("cf0000000000000007"));
    wide.extend(hex_bytes("a26f7081a26f70a470696e67"));
    assert_eq!(
        decode_client(&wide),
        Ok(ClientMsg::Request {
            id: 7,
            op: Op::Ping
        })
    );
}

#[test]
fn wrong_shapes_are_malformed() {
    let cases = [
        json!({"type": "request", "id": "7", "op": {"op": "ping"}}),
        json!({"type": "request", "id": -1, "op": {"op": "ping"}}),
        json!({"type": "request", "id": 7, "op": {"op": "fly"}}),
        json!({"type": "request", "id": 7, "op": {}}),
        json!({"type": "request", "op": {"op": "ping"}}),
        json!({"type": "requests", "id": 7, "op": {"op": "ping"}}),
        json!({"type": "hello", "protocol": 1}),
        json!({"Hello": {"protocol": 1, "client": "x"}}),
        json!({"type": "request", "id": 7, "op": {"op": "act", "action": "a",
               "args": {"x": 1.5}}}),
        json!({"type": "request", "id": 7, "op": {"op": "act", "action": "a",
               "args": {"x": [1, 2, 3]}}}),
        json!(["hello", 1, "x"]),
        json!("hello"),
        json!(null),
    ];
    for value in cases {
        let frame = rmp_serde::to_vec_named(&value).expect("json to msgpack");
        assert!(
            matches!(decode_client(&frame), Err(DecodeError::Malformed(_))),
            "{value}"
        );
    }
    // Struct fields as a positional array (rmp-serde's compact `to_vec`) are not this
    // protocol, though serde alone would accept them.
    for msg in every_client_msg() {
        let compact = rmp_serde::to_vec(&msg).expect("encode");
        assert!(
            matches!(decode_client(&compact), Err(DecodeError::Malformed(_))),
            "{msg:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Golden bytes, checked by hand token by token: each frame is a fixmap (0x8N) whose keys are
// fixstr (0xaN) field names. A failure here means the encoding changed: a protocol change.

/// Bytes from hex, ignoring whitespace so that goldens can be written token by token.
fn hex_bytes(hex: &str) -> Vec<u8> {
    let digits: String = hex.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    hex::decode(digits).expect("hex")
}

#[track_caller]
fn check_golden_client(msg: ClientMsg, golden: &str) {
    assert_eq!(hex(&encode(&msg)), hex(&hex_bytes(golden)));
    assert_eq!(decode_client(&hex_bytes(golden)), Ok(msg));
}

#[track_caller]
fn check_golden_server(msg: ServerMsg, golden: &str) {
    assert_eq!(hex(&encode(&msg)), hex(&hex_bytes(golden)));
    assert_eq!(decode_server(&hex_bytes(golden)), Ok(msg));
}

#[test]
fn golden_hello() {
    check_golden_client(
        ClientMsg::Hello {
            protocol: 1,
            client: "tablehold/0.0.0".into(),
        },
        concat!(
            "83",                                                // map of 3
            "a4 74797065 a5 68656c6c6f",                         // "type": "hello"
            "a8 70726f746f636f6c 01",                            // "protocol": 1
            "a6 636c69656e74 af 7461626c65686f6c642f302e302e30", // "client": "tablehold/0.0.0"
        ),
    );
}

#[test]
fn golden_ping() {
    check_golden_client(
        ClientMsg::Request {
            id: 7,
            op: Op::Ping,
        },
        concat!(
            "83",                            // map of 3
            "a4 74797065 a7 72657175657374", // "type": "request"
            "a2 6964 07",                    // "id": 7
            "a2 6f70 81",                    // "op": map of 1
            "a2 6f70 a4 70696e67",           //   "op": "ping"
        ),
    );
}

#[test]
fn golden_act() {
    check_golden_client(
        ClientMsg::Request {
            id: 8,
            op: Op::Act {
                actor: Some("aune".into()),
                action: "attack".into(),
                args: Args::default().with("target", ArgValue::Text("goblin-1".into())),
            },
        },
        concat!(
            "83",                                  // map of 3
            "a4 74797065 a7 72657175657374",       // "type": "request"
            "a2 6964 08",                          // "id": 8
            "a2 6f70 84",                          // "op": map of 4
            "a2 6f70 a3 616374",                   //   "op": "act"
            "a5 6163746f72 a4 61756e65",           //   "actor": "aune"
            "a6 616374696f6e a6 61747461636b",     //   "action": "attack"
            "a4 61726773 81",                      //   "args": map of 1
            "a6 746172676574 a8 676f626c696e2d31", //     "target": "goblin-1"
        ),
    );
}

#[test]
fn golden_pong() {
    check_golden_server(
        ServerMsg::Response {
            id: 7,
            reply: Reply::Pong,
        },
        concat!(
            "83",                              // map of 3
            "a4 74797065 a8 726573706f6e7365", // "type": "response"
            "a2 6964 07",                      // "id": 7
            "a5 7265706c79 81",                // "reply": map of 1
            "a5 7265706c79 a4 706f6e67",       //   "reply": "pong"
        ),
    );
}

#[test]
fn golden_error() {
    check_golden_server(
        ServerMsg::Error {
            id: Some(8),
            code: ErrorCode::NotYourTurn,
            message: "it is not aune's turn".into(),
        },
        concat!(
            "84",                                                              // map of 4
            "a4 74797065 a5 6572726f72",                                       // "type": "error"
            "a2 6964 08",                                                      // "id": 8
            "a4 636f6465 ad 6e6f745f796f75725f7475726e", // "code": "not_your_turn"
            "a7 6d657373616765 b5 6974206973206e6f742061756e652773207475726e", // "message": ...
        ),
    );
}

#[test]
fn golden_event() {
    check_golden_server(
        ServerMsg::Event(EventEnvelope {
            table: "t1".into(),
            seq: 5,
            version: 1,
            at_ms: 0,
            link: "ab".into(),
            parts: vec![
                Part {
                    audience: Audience::Everyone,
                    fact: Fact::RoundStarted { round: 1 },
                },
                Part {
                    audience: seats(&["ines"]),
                    fact: Fact::Noted { text: "hi".into() },
                },
            ],
        }),
        concat!(
            "87",                                        // map of 7
            "a4 74797065 a5 6576656e74",                 // "type": "event"
            "a5 7461626c65 a2 7431",                     // "table": "t1"
            "a3 736571 05",                              // "seq": 5
            "a7 76657273696f6e 01",                      // "version": 1
            "a5 61745f6d73 00",                          // "at_ms": 0
            "a4 6c696e6b a2 6162",                       // "link": "ab"
            "a5 7061727473 92",                          // "parts": array of 2
            "82",                                        //   map of 2
            "a8 61756469656e6365 a8 65766572796f6e65",   //   "audience": "everyone"
            "a4 66616374 82",                            //     "fact": map of 2
            "a4 66616374 ad 726f756e645f73746172746564", //   "fact": "round_started"
            "a5 726f756e64 01",                          //       "round": 1
            "82",                                        //   map of 2
            "a8 61756469656e6365 81",                    //     "audience": map of 1
            "a5 7365617473 91 a4 696e6573",              //       "seats": ["ines"]
            "a4 66616374 82",                            //     "fact": map of 2
            "a4 66616374 a5 6e6f746564",                 //       "fact": "noted"
            "a4 74657874 a2 6869",                       //       "text": "hi"
        ),
    );
}

// ---------------------------------------------------------------------------------------------
// The JSON shapes PROTOCOL.md documents.

#[test]
fn error_codes_are_snake_case_strings() {
    for code in EVERY_CODE {
        assert_eq!(
            serde_json::to_value(code).expect("json"),
            json!(code_name(code))
        );
    }
}

#[test]
fn refusal_codes_keep_the_codes_clients_branch_on() {
    let refusals = [
        (
            Refusal::NotYourTurn {
                actor: "aune".into(),
                current: None,
            },
            ErrorCode::NotYourTurn,
        ),
        (Refusal::forbidden("not yours"), ErrorCode::Forbidden),
        (
            Refusal::OutOfRange {
                what: "goblin-1".into(),
                distance: 20,
                limit: 18,
                unit: "m".into(),
            },
            ErrorCode::OutOfRange,
        ),
        (
            Refusal::InsufficientResource {
                resource: "focus".into(),
                needed: 4,
                available: 1,
            },
            ErrorCode::InsufficientResource,
        ),
        (
            Refusal::AwaitingDecision {
                prompt_id: 3,
                question: "?".into(),
            },
            ErrorCode::AwaitingDecision,
        ),
        (
            Refusal::bad_argument("target", "is required"),
            ErrorCode::BadRequest,
        ),
        // See: issue #19. Each refusal kind keeps its own code on the wire.
        (
            Refusal::NoSuchPrompt { prompt_id: 9 },
            ErrorCode::NoSuchPrompt,
        ),
        (
            Refusal::NotAnOption {
                choice: "x".into(),
                options: vec!["y".into()],
            },
            ErrorCode::NotAnOption,
        ),
        (
            Refusal::UnknownAction {
                system: "grimwire".into(),
                action: "fly".into(),
            },
            ErrorCode::UnknownAction,
        ),
        (
            Refusal::UnknownEntity("nobody".into()),
            ErrorCode::UnknownEntity,
        ),
        (
            Refusal::UnknownName {
                system: "grimwire".into(),
                what: "a resource".into(),
                name: "mana".into(),
            },
            ErrorCode::UnknownName,
        ),
        (
            Refusal::NoneLeft {
                actor: "aune".into(),
                slot: "action".into(),
            },
            ErrorCode::NoneLeft,
        ),
        (
            Refusal::CannotAct {
                actor: "aune".into(),
                reason: "dying".into(),
            },
            ErrorCode::CannotAct,
        ),
        (Refusal::NoEncounter, ErrorCode::NoEncounter),
        (Refusal::EncounterRunning, ErrorCode::EncounterRunning),
        (Refusal::Rule("no".into()), ErrorCode::Refused),
    ];
    for (refusal, code) in refusals {
        assert_eq!(ErrorCode::for_refusal(refusal.code()), code, "{refusal:?}");
    }
}

#[test]
fn shapes_of_tags_and_enums() {
    let part = |audience: Audience, fact: Fact| serde_json::to_value(Part { audience, fact });
    // Audience: a string, or a one-key map for the seats.
    assert_eq!(
        part(Audience::Everyone, Fact::EncounterStarted).expect("json"),
        json!({"audience": "everyone", "fact": {"fact": "encounter_started"}})
    );
    assert_eq!(
        part(
            Audience::GmOnly,
            Fact::HiddenTarget {
                label: "COR attack".into(),
                target: 12,
                direction: Default::default(),
                margin: None,
            }
        )
        .expect("json"),
        json!({"audience": "gm_only",
               "fact": {"fact": "hidden_target", "label": "COR attack", "target": 12}})
    );
    // A direction other than reaching it, and the margin, are written when there are any.
    assert_eq!(
        part(
            Audience::GmOnly,
            Fact::HiddenTarget {
                label: "push".into(),
                target: 9,
                direction: tablehold_rules::compare::Direction::Exceed,
                margin: Some(-2),
            }
        )
        .expect("json"),
        json!({"audience": "gm_only",
               "fact": {"fact": "hidden_target", "label": "push", "target": 9,
                        "direction": "exceed", "margin": -2}})
    );
    assert_eq!(
        part(seats(&["olek", "ines"]), Fact::RoundStarted { round: 2 }).expect("json"),
        json!({"audience": {"seats": ["ines", "olek"]},
               "fact": {"fact": "round_started", "round": 2}})
    );
    assert_eq!(
        part(
            Audience::AllBut(BTreeSet::from([SeatId::from("ines")])),
            Fact::RoundStarted { round: 2 }
        )
        .expect("json"),
        json!({"audience": {"all_but": ["ines"]},
               "fact": {"fact": "round_started", "round": 2}})
    );
    // Against: a string for the unit kinds, a one-key map otherwise.
    let against = |a: Against| serde_json::to_value(a).expect("json");
    assert_eq!(against(Against::Target(12)), json!({"target": 12}));
    assert_eq!(against(Against::Exceed(9)), json!({"exceed": 9}));
    assert_eq!(against(Against::Nothing), json!("nothing"));
    assert_eq!(against(Against::Hidden), json!("hidden"));
    assert_eq!(
        against(Against::Opposed {
            entity: "goblin-1".into(),
            total: 11
        }),
        json!({"opposed": {"entity": "goblin-1", "total": 11}})
    );
    assert_eq!(against(Against::AtMost(7)), json!({"at_most": 7}));
    assert_eq!(against(Against::Below(7)), json!({"below": 7}));
    assert_eq!(
        against(Against::Pool {
            name: "challenge dice".into(),
            total: 9
        }),
        json!({"pool": {"name": "challenge dice", "total": 9}})
    );
    // Seats and resolvers.
    let value = |v: Resolver| serde_json::to_value(v).expect("json");
    assert_eq!(value(Resolver::Seat(Seat::Gm)), json!({"seat": "gm"}));
    assert_eq!(
        value(Resolver::Seat(Seat::Player("ines".into()))),
        json!({"seat": {"player": "ines"}})
    );
    assert_eq!(
        serde_json::to_value(Seat::Spectator("olek".into())).expect("json"),
        json!({"spectator": "olek"})
    );
    assert_eq!(value(Resolver::GmOverride), json!("gm_override"));
    assert_eq!(value(Resolver::TimedOut), json!("timed_out"));
    // Table options and action arguments are untagged: the value itself.
    assert_eq!(
        serde_json::to_value(every_arg()).expect("json"),
        json!({
            "bonus": -3, "careful": true, "empty": "", "looks_like_a_flag": "true",
            "looks_like_an_int": "7", "max": i64::MAX, "min": i64::MIN,
            "origin": {"x": i32::MIN, "y": i32::MAX}, "reckless": false,
            "target": "goblin-1", "to": {"x": 3, "y": -4}, "zero": 0
        })
    );
    // Messages: tagged by `type`, requests' bodies by `op`, responses' bodies by `reply`; an
    // event's envelope fields sit beside `type`.
    assert_eq!(
        serde_json::to_value(ServerMsg::Response {
            id: 2,
            reply: Reply::Applied {
                first_seq: 5,
                last_seq: 6
            }
        })
        .expect("json"),
        json!({"type": "response", "id": 2,
               "reply": {"reply": "applied", "first_seq": 5, "last_seq": 6}})
    );
    let view = serde_json::to_value(goblin_view(false)).expect("json");
    assert_eq!(view["position"], json!([2, -1]));
    assert_eq!(view["resources"], Value::Null);
}

#[test]
fn shape_of_the_attack_event() {
    assert_eq!(
        serde_json::to_value(ServerMsg::Event(attack_event())).expect("json"),
        json!({
            "type": "event", "table": "t-friday", "seq": 42, "version": 4,
            "at_ms": 1_767_225_600_000_u64, "link": "5e".repeat(32),
            "parts": [
                {"audience": "everyone", "fact": {
                    "fact": "checked", "actor": "aune", "label": "COR attack",
                    "roll": {"expr": "1d20+3", "dice": [{"term": 0, "die": "d20", "face": 12,
                              "value": 12, "kept": true, "burst": false, "from_burst": false}],
                             "terms": [12, 3], "total": 15},
                    "modifiers": [{"label": "cover", "value": -2}], "total": 13,
                    "against": "hidden", "outcome": "success", "overridden_by": null}},
                {"audience": "gm_only", "fact": {
                    "fact": "hidden_target", "label": "COR attack", "target": 12}},
                {"audience": "everyone", "fact": {
                    "fact": "resource_set", "entity": "goblin-1", "resource": "condition",
                    "from": 10, "to": 4}},
                {"audience": {"seats": ["ines"]}, "fact": {
                    "fact": "decision_requested", "step": {
                        "prompt_id": 3, "rule": "grimwire.collateral.spare", "actor": "aune",
                        "seats": [{"player": "ines"}], "question": "Spare the bystander?",
                        "options": ["spare", "strike"], "default": "spare",
                        "timeout_ms": 60000, "trigger": null,
                        "data": {
                            "at": {"cell": {"x": -2, "y": 5}},
                            "attack": {"roll": {"expr": "1d20+3", "dice": [{"term": 0,
                                "die": "d20", "face": 12, "value": 12, "kept": true,
                                "burst": false, "from_burst": false}],
                                "terms": [12, 3], "total": 15}},
                            "candidates": {"entities": ["goblin-2", "mara"]},
                            "hidden": {"flag": true},
                            "margin": {"int": 3},
                            "target": {"entity": "goblin-1"},
                            "weapon": {"text": "knife"}
                        }}}}
            ]
        })
    );
}

#[test]
fn shape_of_a_combatant() {
    let value = serde_json::to_value(Fact::CombatantAdded {
        combatant: Box::new(goblin()),
        replaces: false,
    })
    .expect("json");
    // An arrival is written exactly as before `replaces` existed: old logs keep their bytes.
    assert!(value.get("replaces").is_none());
    let c = &value["combatant"];
    assert_eq!(value["fact"], json!("combatant_added"));
    assert_eq!(c["id"], json!("goblin-1"));
    assert_eq!(c["kind"], json!("npc"));
    assert_eq!(c["owner"], Value::Null);
    assert_eq!(c["side"], json!("enemies"));
    assert_eq!(c["position"], Value::Null);
    assert_eq!(
        c["resources"],
        json!({"burnout": 0, "condition": 10, "focus": 0})
    );
    assert_eq!(c["statuses"], json!({}));
    assert_eq!(c["turn"], json!({}));
    // The sheet is tagged by `system`, its fields beside the tag.
    assert_eq!(c["sheet"]["system"], json!("grimwire"));
    assert_eq!(c["sheet"]["npc"]["defence_tn"], json!(12));
    let generic = tablehold_rules::Sheet::generic(BTreeMap::from([("guard".into(), 12)]));
    assert_eq!(
        serde_json::to_value(generic).expect("json"),
        json!({"system": "generic", "stats": {"guard": 12}})
    );
    let status = serde_json::to_value(Status {
        source: "ruling".into(),
        magnitude: 0,
        rounds_left: None,
    })
    .expect("json");
    assert_eq!(
        status,
        json!({"source": "ruling", "magnitude": 0, "rounds_left": null})
    );
}

// ---------------------------------------------------------------------------------------------
// Hostile and broken frames.

#[test]
fn every_prefix_of_a_frame_is_malformed() {
    for frame in every_client_msg().iter().map(encode) {
        for end in 0..frame.len() {
            let result = decode_client(&frame[..end]);
            assert!(
                matches!(result, Err(DecodeError::Malformed(_))),
                "{end}: {result:?}"
            );
        }
    }
    for frame in every_server_msg().iter().map(encode) {
        for end in 0..frame.len() {
            let result = decode_server(&frame[..end]);
            assert!(
                matches!(result, Err(DecodeError::Malformed(_))),
                "{end}: {result:?}"
            );
        }
    }
}

#[test]
fn bytes_after_a_message_are_trailing() {
    for msg in every_client_msg() {
        let mut frame = encode(&msg);
        frame.extend(encode(&msg));
        assert_eq!(
            decode_client(&frame),
            Err(DecodeError::Trailing(frame.len() / 2))
        );
    }
    let mut frame = encode(&ServerMsg::Response {
        id: 1,
        reply: Reply::Pong,
    });
    frame.push(0xc0);
    assert_eq!(decode_server(&frame), Err(DecodeError::Trailing(1)));
}

#[test]
fn a_frame_over_the_limit_is_refused_unparsed() {
    // Bytes that are not MessagePack at all (0xc1 is never used): TooLarge, not Malformed,
    // shows the size was checked before any parsing.
    let frame = vec![0xc1; MAX_FRAME_BYTES + 1];
    let too_large = DecodeError::TooLarge {
        size: MAX_FRAME_BYTES + 1,
        limit: MAX_FRAME_BYTES,
    };
    assert_eq!(decode_client(&frame), Err(too_large));
    // Server frames may be larger (a whole table's state), up to their own limit.
    assert!(matches!(
        decode_server(&frame),
        Err(DecodeError::Malformed(_))
    ));
    let frame = vec![0xc1; MAX_SERVER_FRAME_BYTES + 1];
    assert_eq!(
        decode_server(&frame),
        Err(DecodeError::TooLarge {
            size: MAX_SERVER_FRAME_BYTES + 1,
            limit: MAX_SERVER_FRAME_BYTES
        })
    );
    // At the limit a frame is parsed: a hello padded to exactly MAX_FRAME_BYTES.
    let hello = ClientMsg::Hello {
        protocol: 1,
        client: String::new(),
    };
    let empty = encode(&hello).len();
    let big = ClientMsg::Hello {
        protocol: 1,
        client: "x".repeat(MAX_FRAME_BYTES - empty - 2), // str16 takes 2 more bytes
    };
    let frame = encode(&big);
    assert_eq!(frame.len(), MAX_FRAME_BYTES);
    assert_eq!(decode_client(&frame), Ok(big));
}

/// A frame `{"type": "request", "id": 1, "op": <value>}` with `value` spliced in raw.
fn request_with_op(value: &[u8]) -> Vec<u8> {
    let mut frame = hex_bytes("83a474797065a772657175657374a2696401a26f70");
    frame.extend_from_slice(value);
    frame
}

#[test]
fn hostile_length_prefixes_fail_without_allocating() {
    let max32 = [0xff, 0xff, 0xff, 0xff];
    let mut hostile: Vec<Vec<u8>> = Vec::new();
    for marker in [0xdd, 0xdf, 0xdb, 0xc6, 0xc9] {
        // array32, map32, str32, bin32, ext32, each claiming 2^32-1, then nothing.
        let mut value = vec![marker];
        value.extend(max32);
        hostile.push(value.clone());
        hostile.push(request_with_op(&value));
        // The same deeper in: as the `args` map of an act, and as the hello's client name.
        let mut act = hex_bytes("83a26f70a3616374a6616374696f6ea161a461726773");
        act.extend(&value);
        hostile.push(request_with_op(&act));
        let mut hello = hex_bytes("83a474797065a568656c6c6fa870726f746f636f6c01a6636c69656e74");
        hello.extend(&value);
        hostile.push(hello);
    }
    // An array claiming 2^32-1 elements that really holds as many as fit in a frame.
    let mut filler = vec![0xdd];
    filler.extend(max32);
    filler.resize(MAX_FRAME_BYTES - 24, 0x01);
    hostile.push(request_with_op(&filler));
    // An event whose `parts` claims 2^32-1 elements.
    let mut event = encode(&ServerMsg::Event(EventEnvelope {
        parts: vec![],
        ..attack_event()
    }));
    let parts_at = event.len() - 1;
    assert_eq!(event[parts_at], 0x90, "the empty parts array is last");
    event.truncate(parts_at);
    event.push(0xdd);
    event.extend(max32);
    hostile.push(event);

    for frame in hostile {
        let (client, server) = (decode_client(&frame), decode_server(&frame));
        assert!(
            matches!(client, Err(DecodeError::Malformed(_))),
            "{client:?}"
        );
        assert!(
            matches!(server, Err(DecodeError::Malformed(_))),
            "{server:?}"
        );
    }
    // The ceiling is live: the decodes above could not have reserved gigabytes unnoticed.
    assert!(
        Vec::<u8>::new()
            .try_reserve_exact(ALLOCATION_CEILING)
            .is_err()
    );
}

#[test]
fn deep_nesting_is_refused_within_a_small_stack() {
    // Tokio's worker threads and Rust's spawned threads get 2 MiB of stack by default. A frame
    // is nothing but `[[[[...]]]]` (or maps), in an op, as deep as the frame allows.
    let run = || {
        for (open, close) in [(0x91_u8, None), (0x81, Some(0xa1_u8))] {
            let mut value = Vec::new();
            while value.len() < MAX_FRAME_BYTES - 64 {
                value.push(open);
                if let Some(key) = close {
                    value.extend([key, b'k']);
                }
            }
            value.push(0xc0);
            let frame = request_with_op(&value);
            assert!(matches!(
                decode_client(&frame),
                Err(DecodeError::Malformed(_))
            ));
            let mut act = hex_bytes("83a26f70a3616374a6616374696f6ea161a461726773");
            act.extend(&value);
            assert!(matches!(
                decode_client(&request_with_op(&act)),
                Err(DecodeError::Malformed(_))
            ));
            assert!(matches!(
                decode_server(&value),
                Err(DecodeError::Malformed(_))
            ));
        }
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .expect("spawn")
        .join()
        .expect("no panic");
}

#[test]
fn nesting_is_limited_to_63_levels_counting_the_frame() {
    // A hello with an unknown field nested `inner` arrays deep: ignored when within the limit.
    let hello_with = |inner: usize| {
        let mut frame = hex_bytes("84a474797065a568656c6c6fa870726f746f636f6c01a6636c69656e74a178");
        frame.extend(hex_bytes("a5 6578747261")); // "extra":
        frame.extend(std::iter::repeat_n(0x91, inner));
        frame.push(0xc0);
        frame
    };
    assert!(decode_client(&hello_with(62)).is_ok());
    let Err(DecodeError::Malformed(message)) = decode_client(&hello_with(63)) else {
        panic!("64 levels are refused");
    };
    assert!(message.contains("depth"), "{message}");
}

#[test]
fn the_deepest_legitimate_message_is_within_the_depth_limit() {
    // Every sample decodes on a small stack, including an event adding a combatant.
    let run = || {
        for msg in every_server_msg() {
            assert_eq!(decode_server(&encode(&msg)), Ok(msg));
        }
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .expect("spawn")
        .join()
        .expect("no panic");
}

// ---------------------------------------------------------------------------------------------
// Properties.

fn arb_text() -> impl Strategy<Value = String> {
    "\\PC{0,16}"
}

fn arb_arg() -> impl Strategy<Value = ArgValue> {
    prop_oneof![
        any::<i64>().prop_map(ArgValue::Int),
        any::<bool>().prop_map(ArgValue::Flag),
        arb_text().prop_map(ArgValue::Text),
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| ArgValue::Cell(Cell::new(x, y))),
    ]
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (
            proptest::option::of(arb_text()),
            arb_text(),
            proptest::collection::btree_map(arb_text(), arb_arg(), 0..6)
        )
            .prop_map(|(actor, action, args)| Op::Act {
                actor,
                action,
                args: Args(args),
            }),
        (any::<u64>(), arb_text()).prop_map(|(prompt_id, choice)| Op::Answer {
            prompt_id,
            choice,
            args: Args::default()
        }),
        (arb_text(), any::<bool>()).prop_map(|(dice, secret)| Op::Roll { dice, secret }),
        any::<u64>().prop_map(|after| Op::Subscribe { after }),
        (arb_text(), arb_text(), arb_text()).prop_map(|(table, invite, name)| Op::Join {
            table,
            invite,
            name
        }),
        (
            arb_text(),
            arb_text(),
            proptest::collection::btree_map(
                arb_text(),
                prop_oneof![
                    any::<bool>().prop_map(OptionValue::Bool),
                    any::<i64>().prop_map(OptionValue::Int),
                    arb_text().prop_map(OptionValue::Choice),
                ],
                0..4
            ),
            any::<u32>(),
            any::<u32>()
        )
            .prop_map(|(system, name, options, players, spectators)| {
                Op::CreateTable {
                    system,
                    name,
                    options,
                    players,
                    spectators,
                }
            }),
        Just(Op::Ping),
        Just(Op::State),
    ]
}

fn arb_client_msg() -> impl Strategy<Value = ClientMsg> {
    prop_oneof![
        (any::<u32>(), arb_text())
            .prop_map(|(protocol, client)| ClientMsg::Hello { protocol, client }),
        (any::<u64>(), arb_op()).prop_map(|(id, op)| ClientMsg::Request { id, op }),
    ]
}

fn arb_server_msg() -> impl Strategy<Value = ServerMsg> {
    let facts = every_fact();
    prop_oneof![
        (
            proptest::option::of(any::<u64>()),
            proptest::sample::select(EVERY_CODE.to_vec()),
            arb_text()
        )
            .prop_map(|(id, code, message)| ServerMsg::Error { id, code, message }),
        (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(id, first_seq, last_seq)| {
            ServerMsg::Response {
                id,
                reply: Reply::Applied {
                    first_seq,
                    last_seq,
                },
            }
        }),
        (
            arb_text(),
            any::<u64>(),
            any::<u64>(),
            proptest::collection::vec(
                (
                    prop_oneof![
                        Just(Audience::Everyone),
                        Just(Audience::GmOnly),
                        proptest::collection::btree_set(arb_text().prop_map(SeatId), 0..3)
                            .prop_map(Audience::Seats),
                        proptest::collection::btree_set(arb_text().prop_map(SeatId), 0..3)
                            .prop_map(Audience::AllBut),
                    ],
                    proptest::sample::select(facts),
                ),
                0..4
            )
        )
            .prop_map(|(table, seq, at_ms, parts)| {
                ServerMsg::Event(EventEnvelope {
                    table,
                    seq,
                    version: EVENT_VERSION,
                    at_ms,
                    link: format!("{seq:064x}"),
                    parts: parts
                        .into_iter()
                        .map(|(audience, fact)| Part { audience, fact })
                        .collect(),
                })
            }),
    ]
}

proptest! {
    #[test]
    fn garbage_is_an_error_never_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        prop_assert!(decode_client(&bytes).is_err());
        prop_assert!(decode_server(&bytes).is_err());
    }

    #[test]
    fn arbitrary_client_messages_round_trip(msg in arb_client_msg()) {
        let frame = encode(&msg);
        prop_assert_eq!(decode_client(&frame), Ok(msg));
        for end in 0..frame.len() {
            prop_assert!(matches!(decode_client(&frame[..end]), Err(DecodeError::Malformed(_))));
        }
    }

    #[test]
    fn arbitrary_server_messages_round_trip(msg in arb_server_msg()) {
        let frame = encode(&msg);
        prop_assert_eq!(decode_server(&frame), Ok(msg));
        for end in 0..frame.len() {
            prop_assert!(matches!(decode_server(&frame[..end]), Err(DecodeError::Malformed(_))));
        }
    }

    #[test]
    fn appended_bytes_are_trailing(
        msg in arb_client_msg(),
        extra in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        let mut frame = encode(&msg);
        frame.extend(&extra);
        prop_assert_eq!(decode_client(&frame), Err(DecodeError::Trailing(extra.len())));
    }

    #[test]
    fn corrupted_frames_never_panic(
        msg in arb_server_msg(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut frame = encode(&msg);
        for (at, byte) in flips {
            let i = at.index(frame.len());
            frame[i] = byte;
        }
        let _ = decode_server(&frame);
        let _ = decode_client(&frame);
    }
}
