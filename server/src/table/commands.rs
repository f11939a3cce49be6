//! The command path: a command (`act`, `answer`, `roll`, a sheet, a character given away) is
//! decided through the rules on the current state and the current epoch's dice, its draws are
//! checked against what its events record, and its events go to the pipeline. A command that
//! needs dice from an epoch that is not sealed waits at the gate.

use tablehold_protocol::{ErrorCode, Op};
use tablehold_rules::dice::CounterStream;
use tablehold_rules::free_roll::free_roll;
use tablehold_rules::roster::{edit_allowed, owner_given, sheet_added};
use tablehold_rules::{Command, CommandBody, DecideError, Event, Fact, SeatId, StateView, decide};

use super::epochs;
use super::gate::Held;
use super::seats::rules_seat;
use super::task::Table;
use super::{SeatKey, WireError};

/// Combatants a table holds at most, so a state reply stays within a server frame.
const MAX_COMBATANTS: usize = 100;

/// What deciding a command came to.
enum Prepared {
    /// The events; the dice they drew are in their `DiceDrawn` facts, which move the epoch's
    /// counter when they are logged.
    Ready(Vec<Event>),
    /// The command needs dice from an epoch that is not sealed: open one of this purpose if
    /// none is open, then wait.
    NeedsEpoch(&'static str),
}

/// A rules refusal or failure as the wire says it.
fn wire(e: DecideError, table: &str) -> WireError {
    match e {
        DecideError::Refused(r) => WireError::new(ErrorCode::for_refusal(r.code()), r.to_string()),
        other => {
            tracing::error!(%table, error = %other, "decide failed");
            WireError::new(ErrorCode::Internal, other.to_string())
        }
    }
}

/// Whether an event records draws.
fn draws_dice(e: &Event) -> bool {
    e.facts().any(|f| matches!(f, Fact::DiceDrawn { .. }))
}

impl Table {
    /// Runs one command: decides it and logs its events, or, when it needs dice from an epoch
    /// that is not sealed, opens that epoch if need be and holds the command (in front of any
    /// other waiting) until the epoch's contributions are in.
    pub(super) async fn run_command(&mut self, held: Held) {
        // A command that waited for its epoch may belong to a seat revoked meanwhile.
        let held = match self.seating.current(&held.seat) {
            Ok(seat) => Held { seat, ..held },
            Err(e) => {
                let _ = held.reply.send(Err(e));
                return;
            }
        };
        let mut prepared = self.prepare(&held.seat, &held.op);
        // A refusal tells something of the state (whose turn, an open prompt), so it may only
        // speak of durable events: it waits for the batches in flight. Only if one of them
        // was lost (the table then reloads from its log) is the command decided again.
        if prepared.is_err() && !self.pipeline.is_empty() {
            let reloads = self.reloads;
            self.settle().await;
            if self.reloads != reloads {
                prepared = self.prepare(&held.seat, &held.op);
            }
        }
        match prepared {
            Ok(Prepared::Ready(events)) => self.commit(events, Vec::new(), Some(held.reply)),
            Ok(Prepared::NeedsEpoch(purpose)) => {
                self.gate.hold_front(held);
                if self.epochs.collecting().is_none() {
                    self.open_epoch(purpose).await;
                }
            }
            Err(e) => {
                let _ = held.reply.send(Err(e));
            }
        }
    }

    /// The events of a command, decided on the state as it is now, in-flight batches
    /// included, with the current epoch's dice, on a copy of its stream: a refused command
    /// draws nothing that counts, so no die escapes the log (invariant 5).
    ///
    /// Without a sealed epoch it decides on a stream of no epoch at all, only to learn whether
    /// the command draws dice (or starts an encounter, which gets an epoch of its own): those
    /// events are thrown away unseen and the command waits for its epoch. Dice are drawn for
    /// real only from a sealed epoch.
    fn prepare(&self, seat: &SeatKey, op: &Op) -> Result<Prepared, WireError> {
        let sealed = self.epochs.stream();
        let start = sealed.as_ref().map(CounterStream::counter);
        let mut stream = sealed.unwrap_or_else(|| CounterStream::new([0; 32], 0));
        let events = self.decide_op(seat, op, &mut stream)?;
        let drew = stream.counter() > start.unwrap_or(0) || events.iter().any(draws_dice);
        let starts = events
            .iter()
            .any(|e| e.facts().any(|f| matches!(f, Fact::EncounterStarted)));
        if starts && self.epochs.open(epochs::ENCOUNTER).is_none() {
            return Ok(Prepared::NeedsEpoch(epochs::ENCOUNTER));
        }
        if !drew {
            return Ok(Prepared::Ready(events));
        }
        let Some(start) = start else {
            let purpose = if self.world.encounter().active {
                epochs::ENCOUNTER
            } else {
                epochs::TABLE
            };
            return Ok(Prepared::NeedsEpoch(purpose));
        };
        self.check_draws(&events, start, stream.counter())?;
        Ok(Prepared::Ready(events))
    }

    /// Every counter the stream moved past, from `start` to `end`, must be in some event's
    /// record of its draws, in order: otherwise a die was drawn that the log would not
    /// account for, and nothing of it may be logged.
    pub(super) fn check_draws(
        &self,
        events: &[Event],
        start: u64,
        end: u64,
    ) -> Result<(), WireError> {
        let unrecorded = || {
            tracing::error!(table = %self.id, "a command drew dice its events do not record");
            WireError::new(
                ErrorCode::Internal,
                "dice were drawn that the events do not record; nothing was logged",
            )
        };
        let mut next = start;
        for f in events.iter().flat_map(Event::facts) {
            if let Fact::DiceDrawn { spans, .. } = f {
                for [a, b] in spans {
                    if *a != next {
                        return Err(unrecorded());
                    }
                    next = *b;
                }
            }
        }
        if next == end {
            Ok(())
        } else {
            Err(unrecorded())
        }
    }

    /// The rules' events for `op`; the server adds only what is its own to know: whether a
    /// seat named as an owner exists, and how many combatants a table holds.
    fn decide_op(
        &self,
        seat: &SeatKey,
        op: &Op,
        stream: &mut CounterStream,
    ) -> Result<Vec<Event>, WireError> {
        let by = rules_seat(&seat.info);
        let rules = |r: Result<Vec<Event>, DecideError>| r.map_err(|e| wire(e, &self.id));
        match op {
            Op::AddSheet { sheet } => {
                let c = self
                    .system
                    .sheet_from_toml(sheet)
                    .map_err(|e| WireError::new(ErrorCode::BadRequest, format!("sheet: {e}")))?;
                if let Some(owner) = c.owner.as_ref().filter(|_| by.is_gm()) {
                    self.seating.player_seat(&owner.0)?;
                }
                if self.world.combatant(&c.id).is_none()
                    && self.world.combatant_ids().len() >= MAX_COMBATANTS
                {
                    return Err(WireError::new(
                        ErrorCode::TableFull,
                        format!("a table holds at most {MAX_COMBATANTS} combatants"),
                    ));
                }
                edit_allowed(self.system, &self.world, &c, &by)
                    .map_err(|r| wire(r.into(), &self.id))?;
                rules(
                    sheet_added(&self.world, c, &by)
                        .map(|e| vec![e])
                        .map_err(Into::into),
                )
            }
            Op::AssignCharacter { entity, seat: to } => {
                if by.is_gm()
                    && let Some(id) = to
                {
                    self.seating.player_seat(id)?;
                }
                let to = to.clone().map(SeatId);
                rules(
                    owner_given(&self.world, entity, to, &by)
                        .map(|e| e.into_iter().collect())
                        .map_err(Into::into),
                )
            }
            Op::Act {
                actor,
                action,
                args,
            } => {
                let cmd = Command::act(by, actor.as_deref(), action, args.clone());
                rules(decide(self.system, &self.world, &cmd, stream))
            }
            Op::Answer {
                prompt_id,
                choice,
                args,
            } => {
                let cmd = Command {
                    seat: by,
                    body: CommandBody::Answer {
                        prompt_id: *prompt_id,
                        choice: choice.clone(),
                        args: args.clone(),
                    },
                };
                rules(decide(self.system, &self.world, &cmd, stream))
            }
            Op::Roll { dice, secret } => {
                rules(free_roll(dice, &by, &seat.info.name, *secret, stream).map(|e| vec![e]))
            }
            _ => Err(WireError::new(ErrorCode::Internal, "not a command")),
        }
    }

    /// A window's deadline passed: its default applies, decided like any command, with the
    /// draws it makes checked. A default that needs dice from an epoch that is not sealed (a
    /// window opened outside an encounter, before the table ever rolled) opens that epoch as a
    /// command would; the window keeps its deadline, and the loop fires it again once the
    /// epoch is sealed.
    pub(super) async fn time_out(&mut self) {
        let Some(due) = self.deadlines.take() else {
            return;
        };
        let prompt_id = due.id;
        let sealed = self.epochs.stream();
        let start = sealed.as_ref().map(CounterStream::counter);
        let mut stream = sealed.unwrap_or_else(|| CounterStream::new([0; 32], 0));
        let cmd = Command::time_out(prompt_id);
        let decided = decide(self.system, &self.world, &cmd, &mut stream)
            .map_err(|e| wire(e, &self.id))
            .and_then(|events| {
                let drew = stream.counter() > start.unwrap_or(0) || events.iter().any(draws_dice);
                match start {
                    None if drew => Ok(None),
                    None => Ok(Some(events)),
                    Some(start) => {
                        self.check_draws(&events, start, stream.counter())?;
                        Ok(Some(events))
                    }
                }
            });
        match decided {
            Ok(Some(events)) => self.commit(events, Vec::new(), None),
            Ok(None) => {
                self.deadlines.put_back(due);
                if self.epochs.collecting().is_none() {
                    let purpose = if self.world.encounter().active {
                        epochs::ENCOUNTER
                    } else {
                        epochs::TABLE
                    };
                    self.open_epoch(purpose).await;
                }
            }
            Err(e) => {
                tracing::warn!(table = %self.id, prompt = prompt_id, error = %e.message, "timeout not applied");
                self.track_prompt();
            }
        }
    }
}
