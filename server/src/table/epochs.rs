//! A table's dice epochs (DESIGN.md, "Dice and fairness"): which epoch the next die comes from,
//! where each stands in its commit-then-reveal life, and the events that move it on.
//!
//! The state here is derived from the log alone ([`Epochs::record`] on every event), plus the
//! server-only seeds; the timing of the contribution windows is the one thing that is not
//! logged, and it restarts when a table is loaded.
//!
//! An epoch is `table` (free rolls between encounters; it lasts until the GM ends the session)
//! or `encounter` (from the start of an encounter to its end). While an encounter epoch is
//! open it is the current one and the table epoch waits, its counter where it was.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use tablehold_protocol::ErrorCode;
use tablehold_rules::dice::CounterStream;
use tablehold_rules::dice::fair::{
    Bytes32, entropy_commitment, epoch_key, from_hex32, seed_commitment, to_hex,
    withheld_replacement,
};
use tablehold_rules::hidden_dice::{self, PendingOpening};
use tablehold_rules::{Event, Fact, Part};

use crate::store::EpochSecret;

use super::WireError;

pub use tablehold_log::verify::{ENCOUNTER, TABLE};

/// Where an epoch stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Seats may commit to entropy.
    Committing,
    /// Commitments are closed; the seats that committed may reveal.
    Revealing,
    /// The key is fixed: dice may be drawn.
    Sealed,
    /// The seed is public; the epoch draws no more.
    Revealed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Epoch {
    pub id: u64,
    pub purpose: String,
    pub phase: Phase,
    pub commitments: BTreeMap<String, Bytes32>,
    /// Revealed entropy, or the stand-in for a seat that withheld.
    pub contributions: BTreeMap<String, Bytes32>,
    /// The counter the next draw starts at: the end of the last logged draw.
    pub next_counter: u64,
}

impl Epoch {
    /// Committed seats that have neither revealed nor been replaced.
    pub fn unrevealed(&self) -> impl Iterator<Item = (&String, &Bytes32)> {
        self.commitments
            .iter()
            .filter(|(seat, _)| !self.contributions.contains_key(*seat))
    }
}

/// Every epoch of a table and the seeds behind them.
#[derive(Debug, Default)]
pub struct Epochs {
    list: BTreeMap<u64, Epoch>,
    seeds: BTreeMap<u64, Bytes32>,
    /// Seats that withheld a reveal this session, with the epoch they withheld in: each took
    /// a choice between two keys, so they take no part in later epochs of the session unless
    /// the GM readmits them (FAIRNESS.md, rule 11).
    barred: BTreeMap<String, u64>,
    /// The dice sealed in each epoch not yet revealed, in log order: kept from the events as
    /// they pass ([`Epochs::record`]), so that revealing an epoch never reads its log back and
    /// the table need not keep its whole log in memory.
    openings: BTreeMap<u64, Vec<PendingOpening>>,
}

/// What [`Epochs`] derived from the log, for a snapshot: everything but the seeds, which stay
/// in the store's secrets (a snapshot never holds one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedEpochs {
    list: BTreeMap<u64, Epoch>,
    barred: BTreeMap<String, u64>,
    openings: BTreeMap<u64, Vec<PendingOpening>>,
}

impl Epochs {
    /// The state derived from the log, for a snapshot.
    pub fn saved(&self) -> SavedEpochs {
        SavedEpochs {
            list: self.list.clone(),
            barred: self.barred.clone(),
            openings: self.openings.clone(),
        }
    }

    /// The epochs as a snapshot left them, with the seeds from the store.
    pub fn restored(saved: SavedEpochs, secrets: &[EpochSecret]) -> Self {
        Epochs {
            list: saved.list,
            seeds: secrets.iter().map(|s| (s.epoch, s.seed)).collect(),
            barred: saved.barred,
            openings: saved.openings,
        }
    }

    pub fn new(secrets: &[EpochSecret]) -> Self {
        Epochs {
            list: BTreeMap::new(),
            seeds: secrets.iter().map(|s| (s.epoch, s.seed)).collect(),
            barred: BTreeMap::new(),
            openings: BTreeMap::new(),
        }
    }

    /// Follows one logged event: its facts ([`Epochs::observe`]) and the dice it sealed, which
    /// the reveal of their epoch opens. Call it once per event, in log order, before revealing
    /// an epoch the same event ends.
    pub fn record(&mut self, seq: u64, parts: &[Part]) {
        if let Some((epoch, openings)) = hidden_dice::sealed_in(seq, parts) {
            self.openings.entry(epoch).or_default().extend(openings);
        }
        for part in parts {
            self.observe(&part.fact);
        }
    }

    /// Follows one logged fact. Facts out of order are ignored here: the log was checked
    /// when it was written, and `tablehold verify` is where a reader checks it again.
    fn observe(&mut self, fact: &Fact) {
        match fact {
            Fact::EpochOpened { epoch, purpose, .. } => {
                self.list.insert(
                    *epoch,
                    Epoch {
                        id: *epoch,
                        purpose: purpose.clone(),
                        phase: Phase::Committing,
                        commitments: BTreeMap::new(),
                        contributions: BTreeMap::new(),
                        next_counter: 0,
                    },
                );
            }
            Fact::EntropyCommitted {
                epoch,
                seat,
                commitment,
            } => {
                if let (Some(e), Some(c)) = (self.list.get_mut(epoch), from_hex32(commitment)) {
                    e.commitments.insert(seat.clone(), c);
                }
            }
            Fact::CommitmentsClosed { epoch } => self.set_phase(*epoch, Phase::Revealing),
            Fact::EntropyRevealed {
                epoch,
                seat,
                entropy: value,
            }
            | Fact::EntropyWithheld {
                epoch,
                seat,
                replacement: value,
            } => {
                if let (Some(e), Some(v)) = (self.list.get_mut(epoch), from_hex32(value)) {
                    e.contributions.insert(seat.clone(), v);
                }
                if matches!(fact, Fact::EntropyWithheld { .. }) {
                    self.barred.insert(seat.clone(), *epoch);
                }
            }
            Fact::SeatReadmitted { seat } => {
                self.barred.remove(seat);
            }
            Fact::EpochSealed { epoch } => self.set_phase(*epoch, Phase::Sealed),
            Fact::EpochRevealed { epoch, .. } => {
                self.set_phase(*epoch, Phase::Revealed);
                // Its openings are logged beside this reveal: nothing more to keep.
                self.openings.remove(epoch);
                // The table's epoch ends with the session, and a new session bars nobody.
                if self.list.get(epoch).is_some_and(|e| e.purpose == TABLE) {
                    self.barred.clear();
                }
            }
            Fact::DiceDrawn { epoch, spans, .. } => {
                if let (Some(e), Some([_, end])) = (self.list.get_mut(epoch), spans.last()) {
                    e.next_counter = e.next_counter.max(*end);
                }
            }
            _ => {}
        }
    }

    fn set_phase(&mut self, epoch: u64, phase: Phase) {
        if let Some(e) = self.list.get_mut(&epoch) {
            e.phase = phase;
        }
    }

    #[cfg(test)]
    pub fn get(&self, id: u64) -> Option<&Epoch> {
        self.list.get(&id)
    }

    /// The open (not revealed) epoch of a purpose; there is at most one of each.
    pub fn open(&self, purpose: &str) -> Option<&Epoch> {
        self.list
            .values()
            .rev()
            .find(|e| e.purpose == purpose && e.phase != Phase::Revealed)
    }

    /// The epoch the next die comes from: the encounter's while one is open, else the table's.
    pub fn current(&self) -> Option<&Epoch> {
        self.open(ENCOUNTER).or_else(|| self.open(TABLE))
    }

    /// The epoch whose contributions are being collected, if any. The table opens an epoch
    /// only when none is collecting, so there is at most one.
    pub fn collecting(&self) -> Option<&Epoch> {
        self.list
            .values()
            .find(|e| matches!(e.phase, Phase::Committing | Phase::Revealing))
    }

    /// The dice stream of the current epoch, once it is sealed.
    pub fn stream(&self) -> Option<CounterStream> {
        let e = self.current().filter(|e| e.phase == Phase::Sealed)?;
        let key = self.key(e)?;
        Some(CounterStream::at(key, e.id, e.next_counter))
    }

    /// The key of an epoch whose contributions are in.
    fn key(&self, e: &Epoch) -> Option<Bytes32> {
        let seed = self.seeds.get(&e.id)?;
        let contributions: Vec<(&str, Bytes32)> = e
            .contributions
            .iter()
            .map(|(s, v)| (s.as_str(), *v))
            .collect();
        epoch_key(e.id, seed, &contributions)
    }

    /// Commits, in the event's `dice_drawn`, to the dice of every part some seat does not see
    /// (see `hidden_dice`), so that the seats can check them after the reveal.
    pub fn seal_hidden(&self, event: &mut Event) {
        let epoch = event.facts().find_map(|f| match f {
            Fact::DiceDrawn { epoch, .. } => Some(*epoch),
            _ => None,
        });
        if let Some(key) = epoch.and_then(|id| self.key(self.list.get(&id)?)) {
            hidden_dice::seal(event, &key);
        }
    }

    /// The id the next epoch gets.
    pub fn next_id(&self) -> u64 {
        self.list
            .keys()
            .chain(self.seeds.keys())
            .max()
            .map_or(1, |m| m + 1)
    }

    /// The event that opens epoch `secret.epoch`; the caller logs it with the secret.
    pub fn opening(secret: &EpochSecret, purpose: &str) -> Event {
        Event::public(Fact::EpochOpened {
            epoch: secret.epoch,
            purpose: purpose.to_owned(),
            commitment: to_hex(&seed_commitment(secret.epoch, &secret.seed)),
            test_seed: secret.test_seed,
        })
    }

    /// Remembers a seed the caller is about to log the opening of.
    pub fn add_seed(&mut self, secret: &EpochSecret) {
        self.seeds.insert(secret.epoch, secret.seed);
    }

    /// The events that end an epoch: its seed, then the dice of every part of it that was
    /// sealed when drawn (see `hidden_dice::pack_openings`), as recorded from the log so far.
    /// Empty if the seed is unknown.
    pub fn revealing(&self, id: u64, max_bytes: usize) -> Vec<Event> {
        let Some(seed) = self.seeds.get(&id) else {
            return Vec::new();
        };
        let reveal = Event::public(Fact::EpochRevealed {
            epoch: id,
            seed: to_hex(seed),
        });
        let pending = self.openings.get(&id).into_iter().flatten().cloned();
        hidden_dice::pack_openings(id, reveal, pending, max_bytes)
    }

    /// The seats barred from contributing until the GM readmits them.
    pub fn barred(&self) -> impl Iterator<Item = &String> {
        self.barred.keys()
    }

    /// The GM readmits a seat that withheld a reveal this session.
    pub fn readmit(&self, seat: &str) -> Result<Event, WireError> {
        if !self.barred.contains_key(seat) {
            return Err(WireError::new(
                ErrorCode::Refused,
                format!(
                    "`{seat}` has withheld no reveal this session; there is nothing to readmit"
                ),
            ));
        }
        Ok(Event::public(Fact::SeatReadmitted {
            seat: seat.to_owned(),
        }))
    }

    /// A seat's commitment, checked: the epoch takes commitments, the seat has none yet, and
    /// it has not withheld a reveal this session (unless the GM readmitted it).
    pub fn commit(&self, epoch: u64, seat: &str, commitment: &str) -> Result<Event, WireError> {
        if let Some(withheld) = self.barred.get(seat) {
            return Err(WireError::new(
                ErrorCode::Forbidden,
                format!(
                    "this seat withheld its reveal in epoch {withheld}, so it adds no entropy again \
                     this session unless the GM readmits it"
                ),
            ));
        }
        let e = self.taking(epoch, Phase::Committing, "commitments")?;
        if e.commitments.contains_key(seat) {
            return Err(WireError::new(
                ErrorCode::WrongPhase,
                format!("this seat has already committed to epoch {epoch}"),
            ));
        }
        if seat.len() > tablehold_rules::dice::fair::MAX_SEAT_ID_BYTES {
            return Err(WireError::new(ErrorCode::BadRequest, "seat id too long"));
        }
        let c = from_hex32(commitment).ok_or_else(|| {
            WireError::new(
                ErrorCode::BadRequest,
                "a commitment is 64 hex digits (a SHA-256)",
            )
        })?;
        Ok(Event::public(Fact::EntropyCommitted {
            epoch,
            seat: seat.to_owned(),
            commitment: to_hex(&c),
        }))
    }

    /// A seat's reveal, checked against its commitment.
    pub fn reveal(&self, epoch: u64, seat: &str, entropy: &str) -> Result<Event, WireError> {
        let e = self.taking(epoch, Phase::Revealing, "reveals")?;
        let Some(commitment) = e.commitments.get(seat) else {
            return Err(WireError::new(
                ErrorCode::WrongPhase,
                format!("this seat did not commit to epoch {epoch}, so it has nothing to reveal"),
            ));
        };
        if e.contributions.contains_key(seat) {
            return Err(WireError::new(
                ErrorCode::WrongPhase,
                format!("this seat has already revealed for epoch {epoch}"),
            ));
        }
        let value = from_hex32(entropy).ok_or_else(|| {
            WireError::new(ErrorCode::BadRequest, "entropy is 64 hex digits (32 bytes)")
        })?;
        if entropy_commitment(epoch, seat, &value).as_ref() != Some(commitment) {
            return Err(WireError::new(
                ErrorCode::RevealMismatch,
                format!(
                    "that entropy does not hash to this seat's commitment for epoch {epoch}; nothing was recorded"
                ),
            ));
        }
        Ok(Event::public(Fact::EntropyRevealed {
            epoch,
            seat: seat.to_owned(),
            entropy: to_hex(&value),
        }))
    }

    fn taking(&self, epoch: u64, phase: Phase, what: &str) -> Result<&Epoch, WireError> {
        match self.list.get(&epoch) {
            Some(e) if e.phase == phase => Ok(e),
            Some(_) => Err(WireError::new(
                ErrorCode::WrongPhase,
                format!("epoch {epoch} is not taking {what} now"),
            )),
            None => Err(WireError::new(
                ErrorCode::WrongPhase,
                format!("this table has no epoch {epoch}"),
            )),
        }
    }

    /// The events that move a collecting epoch on, given which seats it waits for
    /// (`expected`: the seats connected when it opened; `None` after a reload, when only its
    /// window's end may close commitments) and whether that window is over. Empty when it
    /// must keep waiting.
    pub fn advance(&self, expected: Option<&BTreeSet<String>>, window_over: bool) -> Vec<Event> {
        let Some(e) = self.collecting() else {
            return Vec::new();
        };
        let mut events = Vec::new();
        if e.phase == Phase::Committing {
            let all_in = expected.is_some_and(|x| x.iter().all(|s| e.commitments.contains_key(s)));
            if !(all_in || window_over) {
                return events;
            }
            events.push(Event::public(Fact::CommitmentsClosed { epoch: e.id }));
            if !e.commitments.is_empty() {
                // The seats that committed get a fresh window to reveal in.
                return events;
            }
        } else if e.unrevealed().next().is_some() && !window_over {
            return events;
        }
        for (seat, commitment) in e.unrevealed() {
            events.push(Event::public(Fact::EntropyWithheld {
                epoch: e.id,
                seat: seat.clone(),
                replacement: to_hex(&withheld_replacement(commitment)),
            }));
        }
        events.push(Event::public(Fact::EpochSealed { epoch: e.id }));
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(epoch: u64) -> EpochSecret {
        EpochSecret {
            table: "t".into(),
            epoch,
            seed: [7; 32],
            test_seed: false,
        }
    }

    fn run(epochs: &mut Epochs, events: &[Event]) {
        for e in events {
            epochs.record(0, &e.parts);
        }
    }

    /// An event that drew `1d20` from `epoch` and sealed it from the players.
    fn secret_roll(epoch: u64) -> (Event, String) {
        let mut stream = tablehold_rules::dice::CounterStream::new([9; 32], epoch);
        let expr = tablehold_rules::dice::DiceExpr::parse("1d20").expect("notation");
        let roll = tablehold_rules::dice::roll(&expr, &mut stream).expect("rolls");
        let fact = Fact::Rolled {
            by: None,
            purpose: "secret".into(),
            roll,
        };
        let text = hidden_dice::OpenedDice::of(&fact).expect("dice").text();
        let mut event = Event {
            parts: vec![
                Part {
                    audience: tablehold_rules::Audience::GmOnly,
                    fact,
                },
                Part {
                    audience: tablehold_rules::Audience::Everyone,
                    fact: Fact::DiceDrawn {
                        epoch,
                        spans: vec![[0, 1]],
                        sealed: Vec::new(),
                    },
                },
            ],
        };
        hidden_dice::seal(&mut event, &[5; 32]);
        (event, text)
    }

    // The reveal opens every die sealed in its epoch, in log order with the sequence each was
    // logged at, from what the epochs kept as the events passed: the log is not read again.
    #[test]
    fn a_reveal_opens_the_dice_sealed_in_its_epoch_from_what_was_recorded() {
        let mut epochs = Epochs::default();
        for (id, purpose) in [(1, TABLE), (2, ENCOUNTER)] {
            epochs.add_seed(&secret(id));
            run(&mut epochs, &[Epochs::opening(&secret(id), purpose)]);
        }
        let (in_table, _) = secret_roll(1);
        let (first, first_dice) = secret_roll(2);
        let (second, second_dice) = secret_roll(2);
        epochs.record(5, &first.parts);
        epochs.record(6, &in_table.parts);
        epochs.record(9, &second.parts);
        let opened = |events: &[Event]| -> Vec<(u64, u64, u32, String)> {
            events
                .iter()
                .flat_map(|e| e.facts())
                .filter_map(|f| match f {
                    Fact::DiceOpened {
                        epoch,
                        seq,
                        part,
                        dice,
                    } => Some((*epoch, *seq, *part, dice.clone())),
                    _ => None,
                })
                .collect()
        };
        let reveal = epochs.revealing(2, 1 << 16);
        assert!(matches!(
            &reveal[0].parts[0].fact,
            Fact::EpochRevealed { epoch: 2, .. }
        ));
        assert_eq!(
            opened(&reveal),
            vec![(2, 5, 1, first_dice), (2, 9, 1, second_dice)]
        );
        // Once the reveal is logged its openings are not kept; the table epoch's still are.
        run(&mut epochs, &reveal);
        assert!(opened(&epochs.revealing(2, 1 << 16)).is_empty());
        assert_eq!(opened(&epochs.revealing(1, 1 << 16)).len(), 1);
        // Past `max_bytes`, the openings go on in events of their own: the first rides with
        // the reveal, the second (over 100 bytes with it) starts the next event.
        let (third, _) = secret_roll(1);
        epochs.record(12, &third.parts);
        let split = epochs.revealing(1, 100);
        assert_eq!(
            split.iter().map(|e| e.parts.len()).collect::<Vec<_>>(),
            [2, 1]
        );
        assert_eq!(
            opened(&split).iter().map(|o| o.1).collect::<Vec<_>>(),
            [6, 12]
        );
    }

    #[test]
    fn with_nobody_connected_an_epoch_seals_at_once() {
        let mut epochs = Epochs::default();
        let s = secret(1);
        epochs.add_seed(&s);
        run(&mut epochs, &[Epochs::opening(&s, TABLE)]);
        assert!(epochs.stream().is_none(), "no dice before the seal");
        let moved = epochs.advance(Some(&BTreeSet::new()), false);
        assert_eq!(moved.len(), 2, "{moved:?}");
        run(&mut epochs, &moved);
        let stream = epochs.stream().expect("sealed");
        assert_eq!(stream.epoch(), 1);
        assert_eq!(stream.counter(), 0);
    }

    #[test]
    fn a_seat_commits_then_reveals_and_a_wrong_reveal_is_refused() {
        let mut epochs = Epochs::default();
        let s = secret(2);
        epochs.add_seed(&s);
        run(&mut epochs, &[Epochs::opening(&s, ENCOUNTER)]);
        let expected = BTreeSet::from(["p1".to_owned()]);
        assert!(
            epochs.advance(Some(&expected), false).is_empty(),
            "waits for p1"
        );
        let entropy = [5u8; 32];
        let c = entropy_commitment(2, "p1", &entropy).expect("short id");
        let early = epochs
            .reveal(2, "p1", &to_hex(&entropy))
            .expect_err("too early");
        assert_eq!(early.code, ErrorCode::WrongPhase);
        let commit = epochs.commit(2, "p1", &to_hex(&c)).expect("commit");
        run(&mut epochs, &[commit]);
        let closed = epochs.advance(Some(&expected), false);
        assert_eq!(closed.len(), 1, "only the close: reveals get their window");
        run(&mut epochs, &closed);
        let wrong = epochs
            .reveal(2, "p1", &to_hex(&[6; 32]))
            .expect_err("mismatch");
        assert_eq!(wrong.code, ErrorCode::RevealMismatch);
        assert!(epochs.stream().is_none());
        let reveal = epochs.reveal(2, "p1", &to_hex(&entropy)).expect("reveal");
        run(&mut epochs, &[reveal]);
        let sealed = epochs.advance(Some(&expected), false);
        run(&mut epochs, &sealed);
        let key = epoch_key(2, &[7; 32], &[("p1", entropy)]).expect("key");
        let mut ours = epochs.stream().expect("sealed");
        let mut theirs = CounterStream::new(key, 2);
        use tablehold_rules::dice::{DiceSource, Primitive};
        assert_eq!(ours.draw(Primitive::D20), theirs.draw(Primitive::D20));
    }

    #[test]
    fn a_seat_that_does_not_reveal_in_time_is_replaced_from_its_commitment() {
        let mut epochs = Epochs::default();
        let s = secret(1);
        epochs.add_seed(&s);
        run(&mut epochs, &[Epochs::opening(&s, TABLE)]);
        let c = entropy_commitment(1, "p2", &[9; 32]).expect("short id");
        let commit = epochs.commit(1, "p2", &to_hex(&c)).expect("commit");
        run(&mut epochs, &[commit]);
        let expected = BTreeSet::from(["p1".to_owned(), "p2".to_owned()]);
        // p1 never commits: the window ends; p2 committed and gets a reveal window.
        let closed = epochs.advance(Some(&expected), true);
        assert_eq!(closed.len(), 1);
        run(&mut epochs, &closed);
        assert!(
            epochs.advance(Some(&expected), false).is_empty(),
            "waits for p2's reveal"
        );
        let sealed = epochs.advance(Some(&expected), true);
        assert!(matches!(
            &sealed[0].parts[0].fact,
            Fact::EntropyWithheld { seat, replacement, .. }
                if seat == "p2" && *replacement == to_hex(&withheld_replacement(&c))
        ));
        run(&mut epochs, &sealed);
        assert!(epochs.stream().is_some());
    }

    // See: issue #23, cheat 5. A seat that withheld chose between two keys; it may not do so
    // again this session unless the GM readmits it, and a new session starts clean.
    #[test]
    fn a_seat_that_withheld_may_not_commit_again_this_session_until_readmitted() {
        let mut epochs = Epochs::default();
        let c = |epoch| to_hex(&entropy_commitment(epoch, "p2", &[9; 32]).expect("short id"));
        // Epoch 1 (the table's): p2 commits, then withholds.
        let s = secret(1);
        epochs.add_seed(&s);
        run(&mut epochs, &[Epochs::opening(&s, TABLE)]);
        let commit = epochs.commit(1, "p2", &c(1)).expect("commit");
        run(&mut epochs, &[commit]);
        let closed = epochs.advance(None, true);
        run(&mut epochs, &closed);
        let sealed = epochs.advance(None, true);
        run(&mut epochs, &sealed);
        assert_eq!(epochs.barred().collect::<Vec<_>>(), ["p2"]);
        // Epoch 2 (an encounter's): p2's commitment is refused and names the epoch.
        let s = secret(2);
        epochs.add_seed(&s);
        run(&mut epochs, &[Epochs::opening(&s, ENCOUNTER)]);
        let refused = epochs.commit(2, "p2", &c(2)).expect_err("barred");
        assert_eq!(refused.code, ErrorCode::Forbidden);
        assert!(refused.message.contains("epoch 1"), "{}", refused.message);
        let nobody = epochs.readmit("p1").expect_err("p1 withheld nothing");
        assert_eq!(nobody.code, ErrorCode::Refused);
        let readmit = epochs.readmit("p2").expect("the GM readmits p2");
        assert!(matches!(
            &readmit.parts[0].fact,
            Fact::SeatReadmitted { seat } if seat == "p2"
        ));
        run(&mut epochs, &[readmit]);
        let commit = epochs.commit(2, "p2", &c(2)).expect("readmitted");
        run(&mut epochs, &[commit]);
        // It withholds again; the session's end (the table epoch's reveal) clears the bar.
        let closed = epochs.advance(None, true);
        run(&mut epochs, &closed);
        let sealed = epochs.advance(None, true);
        run(&mut epochs, &sealed);
        assert_eq!(epochs.barred().count(), 1);
        let end_encounter = epochs.revealing(2, 1 << 16);
        run(&mut epochs, &end_encounter);
        assert_eq!(
            epochs.barred().count(),
            1,
            "an encounter's end is not the session's"
        );
        let end_session = epochs.revealing(1, 1 << 16);
        run(&mut epochs, &end_session);
        assert_eq!(epochs.barred().count(), 0);
    }

    #[test]
    fn after_a_reload_only_the_window_closes_commitments() {
        let mut epochs = Epochs::default();
        let s = secret(1);
        epochs.add_seed(&s);
        run(&mut epochs, &[Epochs::opening(&s, TABLE)]);
        let c = entropy_commitment(1, "p1", &[3; 32]).expect("short id");
        let commit = epochs.commit(1, "p1", &to_hex(&c)).expect("commit");
        run(&mut epochs, &[commit]);
        assert!(
            epochs.advance(None, false).is_empty(),
            "others may still commit"
        );
        let closed = epochs.advance(None, true);
        assert_eq!(closed.len(), 1);
        run(&mut epochs, &closed);
        let reveal = epochs.reveal(1, "p1", &to_hex(&[3; 32])).expect("reveal");
        run(&mut epochs, &[reveal]);
        // Every seat that committed has revealed: no need to wait for the window.
        let sealed = epochs.advance(None, false);
        assert!(matches!(
            sealed.last().map(|e| &e.parts[0].fact),
            Some(Fact::EpochSealed { epoch: 1 })
        ));
    }

    #[test]
    fn the_encounter_epoch_is_current_while_open_and_the_table_epoch_resumes_after() {
        let mut epochs = Epochs::default();
        for (id, purpose) in [(1, TABLE), (2, ENCOUNTER)] {
            let s = secret(id);
            epochs.add_seed(&s);
            run(&mut epochs, &[Epochs::opening(&s, purpose)]);
            let moved = epochs.advance(Some(&BTreeSet::new()), false);
            run(&mut epochs, &moved);
        }
        assert_eq!(epochs.current().map(|e| e.id), Some(2));
        let reveal = epochs.revealing(2, 1 << 16).remove(0);
        let drawn = Event::public(Fact::DiceDrawn {
            epoch: 2,
            spans: vec![[0, 1], [1, 3]],
            sealed: Vec::new(),
        });
        run(&mut epochs, &[drawn, reveal]);
        assert_eq!(epochs.get(2).map(|e| e.next_counter), Some(3));
        assert_eq!(epochs.current().map(|e| e.id), Some(1));
        assert_eq!(epochs.next_id(), 3);
    }
}
