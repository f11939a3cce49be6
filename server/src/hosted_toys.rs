//! The toy systems of `tablehold-toys` hosted by the real table task: a real SQLite file, the
//! server's own dice and deadlines on tokio's paused clock. Each seat takes what the server
//! offers it (its catalogue, answers to open windows included) in seeded walks, and now and
//! then every seat stays silent until a window's deadline passes.
//!
//! The proof that the table task hosts a system exactly as the rules' in-memory state does:
//! after every request the GM's state digest (computed on the bevy `World`) equals the digest
//! of an in-memory state built from the events the GM received, and every digest the table
//! records for an audience (the GM, each player) equals that audience's in-memory state at
//! that point of its stream.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use tablehold_protocol::{Op, Reply, Role, ServerMsg, decode_server};
use tablehold_rules::options::TableOptions;
use tablehold_rules::{
    ActionSpec, ArgKind, ArgSpec, ArgValue, Args, Combatant, Event, Fact, MemoryState, Resolver,
    RuleSystem, Seat, SeatId, StateView, apply, apply_seen, digest,
};
use tablehold_systems::Catalogue;
use tablehold_toys::scenarios::{Move, scenarios};
use tokio::sync::mpsc;

use crate::harness::{TestTable, settings};
use crate::settings::Settings;
use crate::table::{Outbound, SeatKey};

/// A small xorshift: the walks must be the same on every run.
struct Walk(u64);

impl Walk {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n.max(1) as u64).unwrap()
    }
}

/// One seat's stream, and the in-memory state built from it.
struct Listener {
    seat: Seat,
    key: SeatKey,
    frames: mpsc::Receiver<Outbound>,
    mirror: MemoryState,
    /// Every fact this seat received.
    seen: Vec<Fact>,
    /// How many recorded digests of this seat's view were compared.
    digests: usize,
    /// The last event received.
    head: u64,
}

impl Listener {
    fn audience(&self) -> String {
        match &self.seat {
            Seat::Gm => "gm".to_owned(),
            Seat::Player(id) | Seat::Spectator(id) => format!("seat:{}", id.0),
        }
    }

    /// Applies every frame waiting, checking each recorded digest of this seat's view against
    /// the state built from the events before it.
    fn drain(&mut self) {
        while let Ok(Outbound::Frame(f)) = self.frames.try_recv() {
            self.take(&f);
        }
    }

    fn take(&mut self, frame: &[u8]) {
        let Ok(ServerMsg::Event(envelope)) = decode_server(frame) else {
            return;
        };
        self.head = envelope.seq;
        let mine: Vec<_> = envelope
            .parts
            .into_iter()
            .filter(|p| p.audience.admits(&self.seat))
            .collect();
        for part in &mine {
            if let Fact::DigestRecorded {
                audience, digest, ..
            } = &part.fact
                && *audience == self.audience()
            {
                assert_eq!(
                    *digest,
                    digest::current(&self.mirror),
                    "{}: the recorded digest at event {}",
                    self.audience(),
                    envelope.seq
                );
                self.digests += 1;
            }
        }
        self.seen.extend(mine.iter().map(|p| p.fact.clone()));
        if self.seat.is_gm() {
            apply(&mut self.mirror, &Event { parts: mine }).unwrap();
        } else {
            apply_seen(&mut self.mirror, mine.iter().map(|p| &p.fact));
        }
    }
}

/// A toy table in the table task, with the GM and every player listening.
struct Hosted {
    table: TestTable,
    listeners: Vec<Listener>,
    accepted: usize,
    refused: usize,
}

fn hosting_settings() -> Settings {
    Settings {
        systems: tablehold_toys::ALL
            .into_iter()
            .fold(Catalogue::shipped(), Catalogue::with),
        ..settings()
    }
}

impl Hosted {
    /// Seats `players`, adds `roster` through the GM's `add_sheet` (owners as written) and
    /// starts the encounter through the system's own action.
    async fn new(system: &dyn RuleSystem, roster: Vec<Combatant>, players: &[&str]) -> Hosted {
        let players_n = u32::try_from(players.len()).unwrap();
        let mut table = TestTable::of_system(hosting_settings(), system.id(), players_n).await;
        let options = TableOptions::resolve(&system.options(), &BTreeMap::new()).unwrap();
        let mut listeners = Vec::new();
        let gm = table.gm.clone();
        let frames = table.subscribe(&gm).await;
        listeners.push(Listener {
            seat: Seat::Gm,
            key: gm,
            frames,
            mirror: MemoryState::new(options.clone()),
            seen: Vec::new(),
            digests: 0,
            head: 0,
        });
        for name in players {
            let key = table.join(Role::Player, name).await;
            assert_eq!(key.info.id, *name, "the seat id the rosters name");
            let frames = table.subscribe(&key).await;
            listeners.push(Listener {
                seat: Seat::Player(SeatId::from(*name)),
                key,
                frames,
                mirror: MemoryState::new(options.clone()),
                seen: Vec::new(),
                digests: 0,
                head: 0,
            });
        }
        let mut hosted = Hosted {
            table,
            listeners,
            accepted: 0,
            refused: 0,
        };
        for c in roster {
            let sheet = toml::to_string(&c).unwrap();
            hosted.send(0, Op::AddSheet { sheet }).await.unwrap();
        }
        let start = Op::Act {
            actor: None,
            action: "start_encounter".into(),
            args: Args::default(),
        };
        hosted.send(0, start).await.unwrap();
        hosted
    }

    /// Sends `op` from listener `who` and checks the digests once every stream has it.
    async fn send(&mut self, who: usize, op: Op) -> Result<Reply, String> {
        let key = self.listeners[who].key.clone();
        let reply = self.table.request(&key, op).await;
        match &reply {
            Ok(_) => self.accepted += 1,
            Err(_) => self.refused += 1,
        }
        self.settle().await;
        reply.map_err(|e| e.message)
    }

    /// Drains every stream, then compares the World's digest (the GM's `state`) with the
    /// in-memory state built from the GM's stream.
    async fn settle(&mut self) {
        for l in &mut self.listeners {
            l.drain();
        }
        let gm = self.listeners[0].key.clone();
        let Ok(Reply::State { state }) = self.table.request(&gm, Op::State).await else {
            panic!("the GM reads the state");
        };
        // A deadline may have passed while the table wrote (tokio's paused clock moves on
        // whenever the runtime waits on the store): the GM's stream catches up to the head the
        // state was read at, and no further.
        let gm = &mut self.listeners[0];
        while gm.head < state.head {
            match gm.frames.recv().await {
                Some(Outbound::Frame(f)) => gm.take(&f),
                other => panic!("the GM's stream stopped before {}: {other:?}", state.head),
            }
        }
        assert_eq!(
            state.digest,
            Some(digest::current(&self.listeners[0].mirror)),
            "the World and the in-memory state after event {}",
            state.head
        );
    }

    /// Waits, saying nothing, for the next event: with windows open, their deadline's. No
    /// timeout around it: the paused clock also runs on while the table waits on its store,
    /// so any limit here could pass before the write it waits for is done. A window that
    /// never closes hangs the test, which nextest's slow-test limit reports.
    async fn wait_for_a_deadline(&mut self) {
        if let Some(Outbound::Frame(f)) = self.listeners[0].frames.recv().await {
            self.listeners[0].take(&f);
        }
        self.settle().await;
    }

    /// One step of the walk: a seat takes something it is offered, or all wait out a window.
    async fn step(&mut self, walk: &mut Walk) {
        let pending = self.listeners[0].mirror.encounter.pending.clone();
        if !pending.is_empty() && walk.below(5) == 0 {
            return self.wait_for_a_deadline().await;
        }
        // With a window open, its seats answer half the time (a deadline passes at the next
        // write otherwise: the paused clock runs on while the table waits on its store).
        let asked: Vec<usize> = pending
            .iter()
            .flat_map(|w| w.seats.iter())
            .filter_map(|s| self.listeners.iter().position(|l| l.seat == *s))
            .collect();
        let answering = !asked.is_empty() && walk.below(2) == 0;
        let who = if answering {
            asked[walk.below(asked.len())]
        } else {
            walk.below(self.listeners.len())
        };
        let key = self.listeners[who].key.clone();
        let Ok(Reply::Actions { actions }) = self.table.request(&key, Op::Actions).await else {
            panic!("every seat reads its actions");
        };
        if actions.is_empty() {
            return;
        }
        let ids: Vec<String> = self.listeners[0]
            .mirror
            .combatant_ids()
            .into_iter()
            .map(|i| i.0)
            .collect();
        let answers: Vec<&ActionSpec> = actions.iter().filter(|a| a.name == "answer").collect();
        let spec = if answering && !answers.is_empty() {
            answers[walk.below(answers.len())]
        } else {
            &actions[walk.below(actions.len())]
        };
        let mut args = Args::default();
        for a in &spec.args {
            args = args.with(&a.name, value(walk, a, &ids));
        }
        let op = if spec.name == "answer" {
            let prompt_id = match args.0.remove("prompt") {
                Some(ArgValue::Text(id)) => id.parse().unwrap_or(0),
                _ => 0,
            };
            let choice = match args.0.remove("choice") {
                Some(ArgValue::Text(c)) => c,
                _ => String::new(),
            };
            Op::Answer {
                prompt_id,
                choice,
                args,
            }
        } else {
            Op::Act {
                actor: spec.actor.as_ref().map(|a| a.0.clone()),
                action: spec.name.clone(),
                args,
            }
        };
        // Refusals are part of the walk (a reaction without the resource for it, a step out
        // of turn): they must change nothing, which `settle` checks.
        let _ = self.send(who, op).await;
    }

    /// Plays a case's opening moves. Whether each is accepted may rest on the dice (whose turn
    /// it is) or on the clock (a window that timed out while the table wrote); the walk goes on
    /// from wherever they leave the table, and the case's shapes are checked on the whole run.
    async fn play(&mut self, script: &[Move]) {
        for say in script {
            let op = match say {
                Move::Act(_, actor, action, args) => Op::Act {
                    actor: Some((*actor).to_owned()),
                    action: (*action).to_owned(),
                    args: args(),
                },
                Move::Answer(who, rule, choice, args) => {
                    let seat = &self.listeners[*who].seat;
                    let Some(window) = self.listeners[0]
                        .mirror
                        .encounter
                        .pending
                        .iter()
                        .rev()
                        .find(|w| w.rule == *rule && w.seats.contains(seat))
                    else {
                        continue;
                    };
                    Op::Answer {
                        prompt_id: window.prompt_id,
                        choice: (*choice).to_owned(),
                        args: args(),
                    }
                }
                Move::Wait => {
                    if !self.listeners[0].mirror.encounter.pending.is_empty() {
                        self.wait_for_a_deadline().await;
                    }
                    continue;
                }
            };
            let who = match say {
                Move::Act(who, ..) | Move::Answer(who, ..) => *who,
                Move::Wait => 0,
            };
            let _ = self.send(who, op).await;
        }
    }
}

/// Each toy table, opened by its case's moves and then walked from several seeds. The
/// digests are compared all along (see the module's doc); the counts say which shapes the
/// runs reached through the server, so a run that stopped reaching one fails here.
#[tokio::test(start_paused = true)]
async fn the_table_task_hosts_every_toy_shape_as_the_memory_state_does() {
    let mut report = Vec::new();
    let mut answered = 0;
    let mut timed_out = 0;
    for case in scenarios() {
        let mut opened: BTreeMap<String, usize> = BTreeMap::new();
        let (mut fired, mut turns, mut accepted, mut digests) = (0, 0, 0, 0);
        for seed in [
            0x9e37_79b9_7f4a_7c15_u64,
            0x2545_f491_4f6c_dd1d,
            0x1234_5678_9abc_def1,
        ] {
            let mut hosted = Hosted::new(case.system, (case.roster)(), case.players).await;
            hosted.play(&case.opening).await;
            let mut walk = Walk(seed);
            for _ in 0..30 {
                hosted.step(&mut walk).await;
            }
            for f in &hosted.listeners[0].seen {
                match f {
                    Fact::DecisionRequested { step } => {
                        *opened.entry(step.rule.clone()).or_default() += 1;
                    }
                    Fact::DeferredResumed { .. } => fired += 1,
                    Fact::TurnsOpened { .. } => turns += 1,
                    Fact::DecisionAnswered { .. }
                    | Fact::DecisionResolved {
                        by: Resolver::Seat(_) | Resolver::GmOverride,
                        ..
                    } => answered += 1,
                    Fact::DecisionResolved {
                        by: Resolver::TimedOut,
                        ..
                    } => timed_out += 1,
                    _ => {}
                }
            }
            accepted += hosted.accepted;
            digests += hosted.listeners.iter().map(|l| l.digests).sum::<usize>();
            // What only the GM may know never reaches a player.
            for player in &hosted.listeners[1..] {
                assert!(
                    !player
                        .seen
                        .iter()
                        .any(|f| matches!(f, Fact::WindowSecret { .. })),
                    "{}: a window's secret reached {}",
                    case.name,
                    player.audience()
                );
            }
        }
        report.push(format!(
            "{}: {accepted} accepted, windows {opened:?}, {fired} deferred fired, {turns} turns opened, {digests} digests",
            case.name
        ));
        assert!(accepted >= 20, "{report:#?}");
        assert!(digests > 0, "{report:#?}");
        for rule in case.shapes.windows {
            assert!(opened.contains_key(*rule), "{report:#?}");
        }
        assert!(fired > 0 || !case.shapes.deferred_fired, "{report:#?}");
        assert!(turns >= case.shapes.turns_opened, "{report:#?}");
    }
    eprintln!("{report:#?}");
    // Windows were both answered and left to time out, through the server.
    assert!(
        answered > 0 && timed_out > 0,
        "{answered} answered, {timed_out} timed out"
    );
}

/// A value the spec allows: one of its choices or of what is valid now, a combatant, a cell
/// near the fight, a small number.
fn value(walk: &mut Walk, spec: &ArgSpec, ids: &[String]) -> ArgValue {
    let pick = |walk: &mut Walk, from: &[String]| from[walk.below(from.len())].clone();
    match spec.kind {
        ArgKind::Int => {
            let low = spec.min.unwrap_or(0);
            let high = spec.max.unwrap_or(low + 3).min(low + 3);
            ArgValue::Int(
                low + i64::try_from(walk.below(usize::try_from(high - low + 1).unwrap())).unwrap(),
            )
        }
        ArgKind::Flag => ArgValue::Flag(walk.below(2) == 0),
        ArgKind::Cell => ArgValue::Cell(tablehold_rules::grid::Cell::new(
            i32::try_from(walk.below(7)).unwrap(),
            i32::try_from(walk.below(3)).unwrap(),
        )),
        ArgKind::Text | ArgKind::Entity if !spec.choices.is_empty() => {
            ArgValue::Text(pick(walk, &spec.choices))
        }
        ArgKind::Text | ArgKind::Entity if !spec.now.is_empty() => {
            ArgValue::Text(pick(walk, &spec.now))
        }
        ArgKind::Text | ArgKind::Entity => ArgValue::Text(pick(walk, ids)),
    }
}

/// A window opened outside any encounter, before the table ever rolled, whose default needs
/// a die (the toys' scenario for it): when its deadline passes, the table opens its epoch as a
/// command would, waits out the player's entropy window, and then applies the default, on time
/// and only once. (Before, the timeout found no sealed epoch and the window, which holds the
/// table, stayed open for good.)
#[tokio::test(start_paused = true)]
async fn a_default_that_needs_dice_outside_an_encounter_opens_the_tables_epoch() {
    let case = tablehold_toys::scenarios::rolling_default_outside_an_encounter();
    let settings = hosting_settings();
    let window = settings.entropy_window;
    let mut table = TestTable::of_system(settings, case.system.id(), 1).await;
    let gm = table.gm.clone();
    let p1 = table.join(Role::Player, case.players[0]).await;
    // The player listens, so a new epoch waits for their entropy.
    let mut frames = table.subscribe(&p1).await;
    for c in (case.roster)() {
        let sheet = toml::to_string(&c).unwrap();
        table.request(&gm, Op::AddSheet { sheet }).await.unwrap();
    }
    let [Move::Act(1, actor, action, args)] = case.opening.as_slice() else {
        panic!("the scenario opens with one move of its player");
    };
    let opens = Op::Act {
        actor: Some((*actor).to_owned()),
        action: (*action).to_owned(),
        args: args(),
    };
    // The paused clock runs on while the table waits on its store, so the wait is measured
    // from before the move: it jumps from timer to timer, never past one.
    let since = tokio::time::Instant::now();
    table.request(&p1, opens).await.unwrap();
    let mut seen = Vec::new();
    let resolved = loop {
        let Some(Outbound::Frame(f)) = frames.recv().await else {
            panic!("the stream ended: {seen:?}");
        };
        let Ok(ServerMsg::Event(e)) = decode_server(&f) else {
            continue;
        };
        seen.extend(e.parts.iter().map(|p| p.fact.clone()));
        if let Some(by) = e.parts.iter().find_map(|p| match &p.fact {
            Fact::DecisionResolved { by, .. } => Some(by.clone()),
            _ => None,
        }) {
            break by;
        }
    };
    let waited = since.elapsed();
    assert_eq!(resolved, Resolver::TimedOut);
    // Then the die the default draws.
    while !seen.iter().any(|f| matches!(f, Fact::Checked(_))) {
        let Some(Outbound::Frame(f)) = frames.recv().await else {
            panic!("the stream ended: {seen:?}");
        };
        if let Ok(ServerMsg::Event(e)) = decode_server(&f) {
            seen.extend(e.parts.iter().map(|p| p.fact.clone()));
        }
    }
    let timeout = std::time::Duration::from_millis(60_000);
    assert!(
        waited >= timeout && waited <= timeout + 2 * window + std::time::Duration::from_secs(1),
        "resolved after {waited:?}"
    );
    let order: Vec<&str> = seen
        .iter()
        .filter_map(|f| match f {
            Fact::EpochOpened { .. } => Some("opened"),
            Fact::EpochSealed { .. } => Some("sealed"),
            Fact::Checked(_) => Some("rolled"),
            Fact::DecisionResolved { .. } => Some("resolved"),
            _ => None,
        })
        .collect();
    assert_eq!(
        order,
        ["opened", "sealed", "resolved", "rolled"],
        "{seen:?}"
    );
    // The table is free again.
    let Ok(Reply::State { state }) = table.request(&gm, Op::State).await else {
        panic!("state");
    };
    assert!(state.prompts.is_empty(), "{:?}", state.prompts);
}
