//! The hidden-dice rules of a verification pass (`docs/FAIRNESS.md`, rule 10): an event of
//! format 4 commits, in its `dice_drawn`, to the dice of every part some seat may not see; the
//! epoch's reveal opens each of them; and once an event's dice are all known, the parts the
//! viewer saw must agree with them and its draws must be taken in order with none left over.
//!
//! Without this a seat could never check a die it was not shown (a GM's secret roll), nor
//! tell whether the stand-in it was shown of an NPC's roll is the roll the GM's part holds.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use tablehold_rules::dice::Primitive;
use tablehold_rules::dice::fair::{Bytes32, from_hex32};
use tablehold_rules::hidden_dice::{self, OpenedDice};
use tablehold_rules::{Audience, Fact, Part};

use crate::verify::{VerifyError, VerifyErrorKind};

/// The first format whose events commit to their hidden dice.
pub const SEALING_VERSION: u32 = 4;

/// A commitment of one event, in log order.
#[derive(Debug, Clone)]
struct Sealed {
    seq: u64,
    part: u32,
    commitment: Bytes32,
}

/// What one event of format 4 leaves to check once its epoch's dice are opened.
#[derive(Debug, Default)]
struct Waiting {
    epoch: u64,
    spans: Vec<[u64; 2]>,
    /// The draws the viewer's own dice took: (part, die of the part, draw).
    own: Vec<(u32, usize, usize)>,
    /// Sealed parts the viewer sees, with their dice.
    shown: BTreeMap<u32, OpenedDice>,
    /// Stand-ins the viewer sees that hold dice.
    stand_ins: Vec<(u32, OpenedDice)>,
    /// Parts the viewer holds only as a hash.
    hidden: BTreeSet<u32>,
    opened: BTreeMap<u32, OpenedDice>,
}

/// The openings a reveal calls for, still to come.
#[derive(Debug)]
struct Opening {
    epoch: u64,
    key: Bytes32,
    reveal_seq: u64,
    expected: VecDeque<Sealed>,
}

/// One event's draw record, as the pass read it.
pub struct DrawnEvent<'a> {
    pub seq: u64,
    pub version: u32,
    pub epoch: u64,
    pub spans: Vec<[u64; 2]>,
    pub sealed: &'a [tablehold_rules::SealedDice],
    /// The draws the viewer's own dice took: (part, die of the part, draw).
    pub own: Vec<(u32, usize, usize)>,
    /// The parts the viewer sees, with their numbers.
    pub shown: Vec<(u32, &'a Part)>,
    pub total_parts: u32,
    pub gm: bool,
}

/// A die an opening shows, to be recomputed once its epoch's key is known.
pub struct OpenedDie {
    pub seq: u64,
    pub part: usize,
    pub die: Primitive,
    pub face: u32,
    pub counters: [u64; 2],
    /// Whether the viewer had not seen these dice (they were in a part hidden from it).
    pub new_to_viewer: bool,
}

#[derive(Debug, Default)]
pub struct HiddenDice {
    sealed: BTreeMap<u64, Vec<Sealed>>,
    waiting: BTreeMap<u64, Waiting>,
    opening: Option<Opening>,
    /// Events older than format 4 whose hidden dice carry no commitment.
    pub uncommitted: u64,
}

impl HiddenDice {
    /// Takes note of an event that drew dice: checks its list of commitments against the
    /// parts the viewer sees, and keeps what the epoch's openings will be checked against.
    pub fn drawn(&mut self, d: DrawnEvent<'_>, unclaimed: usize) -> Result<(), VerifyError> {
        let at = |kind| VerifyError { seq: d.seq, kind };
        let mut numbers = BTreeSet::new();
        let mut previous = 0;
        for s in d.sealed {
            if s.part <= previous || s.part > d.total_parts {
                return Err(at(VerifyErrorKind::SealedOutOfOrder { part: s.part }));
            }
            previous = s.part;
            numbers.insert(s.part);
        }
        let mut waiting = Waiting {
            epoch: d.epoch,
            spans: d.spans,
            own: d.own,
            ..Waiting::default()
        };
        let shown: BTreeSet<u32> = d.shown.iter().map(|(n, _)| *n).collect();
        waiting.hidden = (1..=d.total_parts).filter(|n| !shown.contains(n)).collect();
        let mut seen_hidden_dice = false;
        for (n, p) in &d.shown {
            let dice = OpenedDice::of(&p.fact);
            if hidden_dice::is_sealed(p) {
                seen_hidden_dice = true;
                if d.version >= SEALING_VERSION && !numbers.contains(n) {
                    return Err(at(VerifyErrorKind::HiddenDiceNotSealed { part: *n }));
                }
                if let Some(dice) = dice {
                    waiting.shown.insert(*n, dice);
                }
            } else if numbers.contains(n) {
                return Err(at(VerifyErrorKind::SealedWrongPart { part: *n }));
            } else if let Some(dice) = dice
                && matches!(p.audience, Audience::AllButGm | Audience::AllBut(_))
            {
                waiting.stand_ins.push((*n, dice));
            }
        }
        if d.version < SEALING_VERSION {
            if (d.gm && seen_hidden_dice) || (!d.gm && unclaimed > 0) {
                self.uncommitted += 1;
            }
            if d.sealed.is_empty() {
                return Ok(());
            }
        }
        for s in d.sealed {
            let commitment = from_hex32(&s.commitment).ok_or_else(|| {
                at(VerifyErrorKind::BadValue {
                    part: usize::try_from(s.part).unwrap_or(usize::MAX),
                    what: format!("the commitment to hidden dice `{}`", s.commitment),
                })
            })?;
            self.sealed.entry(d.epoch).or_default().push(Sealed {
                seq: d.seq,
                part: s.part,
                commitment,
            });
        }
        if !d.sealed.is_empty() || !waiting.stand_ins.is_empty() || unclaimed > 0 {
            self.waiting.insert(d.seq, waiting);
        }
        Ok(())
    }

    /// An epoch's seed is out: the openings of its sealed dice come next, in this event and
    /// the ones right after it (see [`HiddenDice::close_if_done`]).
    pub fn revealed(&mut self, epoch: u64, key: Bytes32, seq: u64) {
        let expected: VecDeque<Sealed> = self.sealed.remove(&epoch).unwrap_or_default().into();
        self.opening = Some(Opening {
            epoch,
            key,
            reveal_seq: seq,
            expected,
        });
    }

    /// Whether openings are still due: the next event must hold nothing else.
    pub fn opening_due(&self) -> Option<VerifyError> {
        let o = self.opening.as_ref()?;
        let next = o.expected.front()?;
        Some(VerifyError {
            seq: o.reveal_seq,
            kind: VerifyErrorKind::SealedNotOpened {
                epoch: o.epoch,
                seq: next.seq,
                part: next.part,
            },
        })
    }

    /// One `dice_opened` part (number `part` of event `seq`): the next commitment due, and
    /// the dice it covers. Returns the dice to recompute.
    pub fn opened(
        &mut self,
        seq: u64,
        part: usize,
        fact: &Fact,
    ) -> Result<Vec<OpenedDie>, VerifyError> {
        let at = |kind| VerifyError { seq, kind };
        let Fact::DiceOpened {
            epoch,
            seq: of_seq,
            part: of_part,
            dice,
        } = fact
        else {
            return Ok(Vec::new());
        };
        let unexpected = || {
            at(VerifyErrorKind::OpeningUnexpected {
                part,
                seq: *of_seq,
                of_part: *of_part,
            })
        };
        let Some(o) = self.opening.as_mut().filter(|o| o.epoch == *epoch) else {
            return Err(unexpected());
        };
        let Some(due) = o
            .expected
            .front()
            .filter(|s| s.seq == *of_seq && s.part == *of_part)
        else {
            return Err(unexpected());
        };
        if hidden_dice::commitment(&o.key, *epoch, dice) != due.commitment {
            return Err(at(VerifyErrorKind::OpeningMismatch {
                part,
                seq: *of_seq,
                of_part: *of_part,
            }));
        }
        let bad = |detail: String| {
            at(VerifyErrorKind::BadValue {
                part,
                what: format!("the opened dice ({detail})"),
            })
        };
        if let Some(key) = crate::json_keys::repeated_key(dice) {
            return Err(bad(format!("the key `{key}` twice")));
        }
        let opened = OpenedDice::parse(dice).map_err(bad)?;
        if opened.dice.is_empty() {
            return Err(bad("no dice".to_owned()));
        }
        o.expected.pop_front();
        // Dice the viewer was shown a stand-in of are not new to it.
        let new_to_viewer = self.waiting.get(of_seq).is_some_and(|w| {
            w.hidden.contains(of_part) && !w.stand_ins.iter().any(|(_, s)| *s == opened)
        });
        let mut dice_out = Vec::new();
        for d in &opened.dice {
            if d.face == 0 || d.face > d.die.sides() {
                return Err(at(VerifyErrorKind::FaceOutOfRange {
                    part,
                    die: d.die,
                    face: d.face,
                }));
            }
            dice_out.push(OpenedDie {
                seq: *of_seq,
                part: usize::try_from(*of_part).unwrap_or(usize::MAX),
                die: d.die,
                face: d.face,
                counters: d.counters,
                new_to_viewer,
            });
        }
        if let Some(w) = self.waiting.get_mut(of_seq) {
            w.opened.insert(*of_part, opened);
        }
        Ok(dice_out)
    }

    /// Once the openings are complete, the events of the epoch are checked against them.
    /// Called after each part, once the dice opened so far have been recomputed, so that a
    /// wrong face is found before what it makes disagree.
    pub fn close_if_done(&mut self) -> Result<(), VerifyError> {
        let Some(o) = self.opening.as_ref().filter(|o| o.expected.is_empty()) else {
            return Ok(());
        };
        let epoch = o.epoch;
        self.opening = None;
        let seqs: Vec<u64> = self
            .waiting
            .iter()
            .filter(|(_, w)| w.epoch == epoch)
            .map(|(s, _)| *s)
            .collect();
        for seq in seqs {
            if let Some(w) = self.waiting.remove(&seq) {
                settle(&w).map_err(|kind| VerifyError { seq, kind })?;
            }
        }
        Ok(())
    }

    /// At the end of the log: openings a reveal called for and never came.
    pub fn finish(&self) -> Option<VerifyError> {
        self.opening_due()
    }
}

/// Checks one event whose dice are all known: the sealed parts and stand-ins the viewer saw
/// agree with the opened dice, and every draw is taken once, in order.
fn settle(w: &Waiting) -> Result<(), VerifyErrorKind> {
    for (n, dice) in &w.shown {
        if w.opened.get(n) != Some(dice) {
            return Err(VerifyErrorKind::OpenedDiffers { part: *n as usize });
        }
    }
    for (n, dice) in &w.stand_ins {
        if !w.opened.values().any(|o| o == dice) {
            return Err(VerifyErrorKind::StandInDiffers { part: *n as usize });
        }
    }
    let mut claims = w.own.clone();
    // A hidden part takes its draws itself, unless the viewer was shown a stand-in for it,
    // which took them in its place.
    let stood_in = |dice: &OpenedDice| w.stand_ins.iter().any(|(_, s)| s == dice);
    for (n, dice) in w
        .opened
        .iter()
        .filter(|(n, d)| w.hidden.contains(n) && !stood_in(d))
    {
        for (i, d) in dice.dice.iter().enumerate() {
            let Some(at) = w.spans.iter().position(|s| *s == d.counters) else {
                return Err(VerifyErrorKind::DieNotDrawn {
                    part: *n as usize,
                    first: d.counters[0],
                    end: d.counters[1],
                });
            };
            claims.push((*n, i, at));
        }
    }
    claims.sort_unstable();
    let mut taken = vec![false; w.spans.len()];
    for (expected, (part, _, at)) in claims.iter().enumerate() {
        let [first, end] = w.spans.get(*at).copied().unwrap_or([0, 0]);
        if taken.get(*at).copied().unwrap_or(true) {
            return Err(VerifyErrorKind::DrawClaimedTwice {
                part: *part as usize,
                epoch: w.epoch,
                first,
                end,
            });
        }
        if *at != expected {
            return Err(VerifyErrorKind::DrawOutOfOrder {
                part: *part as usize,
                epoch: w.epoch,
                first,
                end,
            });
        }
        if let Some(t) = taken.get_mut(*at) {
            *t = true;
        }
    }
    if let Some(at) = taken.iter().position(|t| !t) {
        let [first, end] = w.spans.get(at).copied().unwrap_or([0, 0]);
        return Err(VerifyErrorKind::DrawUnclaimed {
            epoch: w.epoch,
            first,
            end,
        });
    }
    Ok(())
}
