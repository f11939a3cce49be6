//! Dice kept from some seat, committed to when they are drawn and opened when their epoch's
//! seed is revealed (`docs/FAIRNESS.md`, "Hidden dice").
//!
//! A GM's secret roll, or an NPC's check whose numbers the table may not see, sits in a part
//! some seats hold only as a hash. The hash binds the log, but a seat can never open it: after
//! the seed is out it could recompute every counter, yet not tell which die the GM read from
//! it, nor whether the stand-in it was shown is the roll the GM's part holds. So each such part
//! is committed to in the event's public `dice_drawn` with a keyed hash of its dice alone
//! (never its label, modifiers or target), and the reveal of the epoch shows those dice.
//!
//! The commitment is keyed with the epoch's key, which nobody but the host knows before the
//! reveal: a seat cannot try the few faces a die could show against it. Once the key is
//! public it binds like any SHA-256 hash, and the host fixed it when the dice were drawn.
//!
//! Like `dice::fair`, this is a public contract: a change means a new tag, never an edit.

use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::dice::fair::{Bytes32, to_hex};
use crate::dice::{Primitive, Roll};
use crate::event::{Audience, Event, Fact, Part, SealedDice};

const TAG: &[u8] = b"tablehold-hidden-dice-v1";

/// The dice of one part, as a hidden part's opening shows them: each die's kind, face and
/// counters, in draw order (`{"dice":[{"die":"d20","face":14,"counters":[5,6]}]}`), and
/// nothing else. A roll's expression, subtotals and total can hold a number the GM keeps (a
/// secret modifier); a pick's candidates, names the seats were not given. The dice alone are
/// what a seat needs to check that nothing was fudged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenedDice {
    pub dice: Vec<OpenedDie>,
}

/// One die of [`OpenedDice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenedDie {
    pub die: Primitive,
    pub face: u32,
    pub counters: [u64; 2],
}

impl OpenedDice {
    /// The dice `fact` holds, if any (a die without counters was not drawn from the fair
    /// stream: such a fact is not a hidden roll of the log).
    pub fn of(fact: &Fact) -> Option<OpenedDice> {
        let dice = match fact {
            Fact::Rolled { roll, .. } => of_roll(roll)?,
            Fact::Checked(c) => of_roll(&c.roll)?,
            Fact::Picked {
                die: Some(die),
                face,
                counters: Some(counters),
                ..
            } => vec![OpenedDie {
                die: *die,
                face: *face,
                counters: *counters,
            }],
            _ => return None,
        };
        (!dice.is_empty()).then_some(OpenedDice { dice })
    }

    /// The text an opening shows and the commitment covers. Compact JSON as serde writes it;
    /// a reader hashes the text it was given and never writes it again.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads an opening's text.
    ///
    /// # Errors
    ///
    /// The text is not a list of dice; the parser's words.
    pub fn parse(text: &str) -> Result<OpenedDice, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

fn of_roll(roll: &Roll) -> Option<Vec<OpenedDie>> {
    roll.dice
        .iter()
        .map(|d| {
            Some(OpenedDie {
                die: d.die,
                face: d.face,
                counters: d.counters?,
            })
        })
        .collect()
}

/// Whether `part` is committed to: it holds dice and some seat does not see it. Stand-ins
/// (`all_but_gm`, `all_but`) are seen by the seats and are checked against the opening
/// instead.
pub fn is_sealed(part: &Part) -> bool {
    matches!(part.audience, Audience::GmOnly | Audience::Seats(_))
        && OpenedDice::of(&part.fact).is_some()
}

/// `HMAC-SHA256(key = the epoch key, "tablehold-hidden-dice-v1" || BE64(epoch) || text)`.
pub fn commitment(key: &Bytes32, epoch: u64, text: &str) -> Bytes32 {
    let mut padded = [0u8; 64];
    for (slot, byte) in padded.iter_mut().zip(key) {
        *slot = *byte;
    }
    let mut mac = <Hmac<Sha256> as KeyInit>::new(&padded.into());
    mac.update(TAG);
    mac.update(&epoch.to_be_bytes());
    mac.update(text.as_bytes());
    mac.finalize().into_bytes().into()
}

/// Commits, in `event`'s `dice_drawn`, to the dice of every part some seat does not see, with
/// the key of the epoch the draws came from. An event that drew no dice is left alone.
pub fn seal(event: &mut Event, key: &Bytes32) {
    let Some(epoch) = event.facts().find_map(|f| match f {
        Fact::DiceDrawn { epoch, .. } => Some(*epoch),
        _ => None,
    }) else {
        return;
    };
    let commitments: Vec<SealedDice> = event
        .parts
        .iter()
        .zip(1u32..)
        .filter(|(p, _)| is_sealed(p))
        .filter_map(|(p, number)| {
            let text = OpenedDice::of(&p.fact)?.text();
            Some(SealedDice {
                part: number,
                commitment: to_hex(&commitment(key, epoch, &text)),
            })
        })
        .collect();
    for part in &mut event.parts {
        if let Fact::DiceDrawn { sealed, .. } = &mut part.fact {
            *sealed = commitments;
            return;
        }
    }
}

/// One sealed part's dice, waiting for its epoch's seed to be revealed: the event and part it
/// was sealed in, and the dice as their opening will show them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PendingOpening {
    pub seq: u64,
    pub part: u32,
    pub dice: String,
}

/// The dice sealed in one logged event, with the epoch they were drawn from, in part order:
/// what a table keeps of an event until its epoch ends, so that it never needs the event again.
pub fn sealed_in(seq: u64, parts: &[Part]) -> Option<(u64, Vec<PendingOpening>)> {
    let (epoch, sealed) = parts.iter().find_map(|p| match &p.fact {
        Fact::DiceDrawn { epoch, sealed, .. } => Some((*epoch, sealed)),
        _ => None,
    })?;
    let openings: Vec<PendingOpening> = sealed
        .iter()
        .filter_map(|s| {
            let dice = usize::try_from(s.part)
                .ok()
                .and_then(|n| parts.get(n.checked_sub(1)?))
                .and_then(|p| OpenedDice::of(&p.fact))?;
            Some(PendingOpening {
                seq,
                part: s.part,
                dice: dice.text(),
            })
        })
        .collect();
    (!openings.is_empty()).then_some((epoch, openings))
}

/// The openings of every part of `epoch` sealed in `logged` (the log so far, as `(seq,
/// parts)`), in log order, added to `reveal` (the event that reveals the epoch's seed) and,
/// when they do not fit in `max_bytes`, to events of their own right after it: an encounter
/// may hold hundreds of hidden rolls.
pub fn opening_events<'a>(
    epoch: u64,
    reveal: Event,
    logged: impl IntoIterator<Item = (u64, &'a [Part])>,
    max_bytes: usize,
) -> Vec<Event> {
    let pending = logged
        .into_iter()
        .filter_map(|(seq, parts)| sealed_in(seq, parts))
        .filter(|(e, _)| *e == epoch)
        .flat_map(|(_, openings)| openings);
    pack_openings(epoch, reveal, pending, max_bytes)
}

/// `reveal` followed by the openings of `pending` (in the order given), packed into as few
/// events as fit `max_bytes` each.
pub fn pack_openings(
    epoch: u64,
    reveal: Event,
    pending: impl IntoIterator<Item = PendingOpening>,
    max_bytes: usize,
) -> Vec<Event> {
    let mut events = vec![reveal];
    let mut size = 0;
    for PendingOpening { seq, part, dice } in pending {
        // The text is escaped inside the part's JSON: reckon it at twice its length.
        let cost = 2 * dice.len() + 96;
        if size > 0 && size + cost > max_bytes {
            events.push(Event::default());
            size = 0;
        }
        size += cost;
        if let Some(last) = events.last_mut() {
            last.parts.push(Part {
                audience: Audience::Everyone,
                fact: Fact::DiceOpened {
                    epoch,
                    seq,
                    part,
                    dice,
                },
            });
        }
    }
    events
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::dice::fair::to_hex;
    use crate::dice::{CounterStream, DiceExpr, roll};
    use crate::event::SealedDice;

    #[test]
    fn an_opening_holds_the_dice_and_nothing_of_the_expression() {
        // A secret 2d6+9137: the seats may learn the dice once the seed is out, never the 9137.
        let mut stream = CounterStream::new([7; 32], 2);
        let rolled = roll(&DiceExpr::parse("2d6+9137").unwrap(), &mut stream).unwrap();
        let fact = Fact::Rolled {
            by: None,
            purpose: "secret".into(),
            roll: rolled.clone(),
        };
        let opened = OpenedDice::of(&fact).unwrap();
        let text = opened.text();
        assert!(!text.contains("9137") && !text.contains("2d6"), "{text}");
        assert_eq!(opened.dice.len(), 2);
        for (o, d) in opened.dice.iter().zip(&rolled.dice) {
            assert_eq!(
                (o.die, o.face, Some(o.counters)),
                (d.die, d.face, d.counters)
            );
        }
        assert_eq!(OpenedDice::parse(&text).unwrap(), opened);
        let pick = OpenedDice {
            dice: vec![OpenedDie {
                die: Primitive::D6,
                face: 4,
                counters: [3, 4],
            }],
        };
        assert_eq!(
            pick.text(),
            r#"{"dice":[{"die":"d6","face":4,"counters":[3,4]}]}"#
        );
        assert!(
            OpenedDice::parse(r#"{"dice":[{"die":"d6","face":4,"counters":[3,4],"x":1}]}"#)
                .is_err()
        );
        let hand = roll(
            &DiceExpr::parse("1d6").unwrap(),
            &mut crate::dice::ScriptedDice::new(vec![3]),
        )
        .unwrap();
        let by_hand = Fact::Rolled {
            by: None,
            purpose: "calculator".into(),
            roll: hand,
        };
        assert_eq!(
            OpenedDice::of(&by_hand),
            None,
            "faces given by hand are no draw"
        );
    }

    #[test]
    fn every_fact_that_holds_dice_is_sealed_when_some_seat_may_not_see_it() {
        use crate::event::{Against, CheckRecord, Outcome};
        use crate::ids::{EntityId, SeatId};
        use std::collections::BTreeSet;
        let mut stream = CounterStream::new([3; 32], 1);
        let rolled = roll(&DiceExpr::parse("1d20").unwrap(), &mut stream).unwrap();
        let die = |r: &Roll| OpenedDie {
            die: r.dice[0].die,
            face: r.dice[0].face,
            counters: r.dice[0].counters.unwrap(),
        };
        let check = Fact::Checked(CheckRecord {
            actor: Some(EntityId("gob".into())),
            label: "PER initiative".into(),
            roll: rolled.clone(),
            modifiers: Vec::new(),
            total: rolled.total,
            against: Against::Nothing,
            outcome: Outcome::Unjudged,
            overridden_by: None,
            margin: None,
        });
        let pick = |die: Option<Primitive>| Fact::Picked {
            purpose: "collateral".into(),
            candidates: vec![EntityId("a".into()), EntityId("b".into())],
            face: 2,
            picked: EntityId("b".into()),
            die,
            counters: die.map(|_| [7, 8]),
        };
        let free = Fact::Rolled {
            by: None,
            purpose: "secret".into(),
            roll: rolled.clone(),
        };
        let two = OpenedDie {
            die: Primitive::D2,
            face: 2,
            counters: [7, 8],
        };
        // (fact, the dice it holds)
        let cases = [
            (free.clone(), Some(vec![die(&rolled)])),
            (check, Some(vec![die(&rolled)])),
            (pick(Some(Primitive::D2)), Some(vec![two])),
            (pick(None), None),
            (
                Fact::Noted {
                    text: "1d20".into(),
                },
                None,
            ),
        ];
        for (fact, dice) in cases {
            assert_eq!(OpenedDice::of(&fact).map(|o| o.dice), dice, "{fact:?}");
        }
        // Sealed: dice some seat may not see; a stand-in or a public part is not.
        let ines = || BTreeSet::from([SeatId("ines".into())]);
        for (audience, sealed) in [
            (Audience::GmOnly, true),
            (Audience::Seats(ines()), true),
            (Audience::Everyone, false),
            (Audience::AllButGm, false),
            (Audience::AllBut(ines()), false),
        ] {
            let part = Part {
                audience: audience.clone(),
                fact: free.clone(),
            };
            assert_eq!(is_sealed(&part), sealed, "{audience:?}");
        }
        let note = Part {
            audience: Audience::GmOnly,
            fact: Fact::Noted {
                text: "no dice".into(),
            },
        };
        assert!(!is_sealed(&note));
    }

    #[test]
    fn an_event_is_sealed_with_its_epochs_key_and_its_reveal_opens_it_in_log_order() {
        let key = [5u8; 32];
        let mut stream = CounterStream::new(key, 2);
        let secret = |stream: &mut CounterStream| {
            let rolled = roll(&DiceExpr::parse("2d6").unwrap(), &mut *stream).unwrap();
            let draws = crate::dice::DiceSource::take_draws(stream).unwrap();
            Event {
                parts: vec![
                    Part {
                        audience: Audience::Everyone,
                        fact: Fact::Noted {
                            text: "the GM rolls".into(),
                        },
                    },
                    Part {
                        audience: Audience::GmOnly,
                        fact: Fact::Rolled {
                            by: None,
                            purpose: "secret".into(),
                            roll: rolled,
                        },
                    },
                    Part::dice_drawn(draws),
                ],
            }
        };
        let mut first = secret(&mut stream);
        let mut second = secret(&mut stream);
        seal(&mut first, &key);
        seal(&mut second, &key);
        let mut untouched = Event::public(Fact::Noted {
            text: "no dice".into(),
        });
        seal(&mut untouched, &key);
        assert_eq!(
            untouched,
            Event::public(Fact::Noted {
                text: "no dice".into()
            })
        );
        let text = |e: &Event| OpenedDice::of(&e.parts[1].fact).unwrap().text();
        for e in [&first, &second] {
            let Fact::DiceDrawn { sealed, .. } = &e.parts[2].fact else {
                panic!("{e:?}")
            };
            let want = to_hex(&commitment(&key, 2, &text(e)));
            assert_eq!(
                sealed,
                &[SealedDice {
                    part: 2,
                    commitment: want
                }]
            );
        }
        let logged = [(4, first.parts.as_slice()), (9, second.parts.as_slice())];
        let reveal = || {
            Event::public(Fact::Noted {
                text: "seed".into(),
            })
        };
        let opened = |events: &[Event]| -> Vec<(u64, u32, String)> {
            events
                .iter()
                .flat_map(|e| e.facts())
                .filter_map(|f| match f {
                    Fact::DiceOpened {
                        epoch: 2,
                        seq,
                        part,
                        dice,
                    } => Some((*seq, *part, dice.clone())),
                    _ => None,
                })
                .collect()
        };
        let all = opening_events(2, reveal(), logged, 1 << 16);
        assert_eq!(all.len(), 1, "both fit beside the reveal");
        assert_eq!(opened(&all), [(4, 2, text(&first)), (9, 2, text(&second))]);
        // Too small for two: the second goes to an event of its own, right after.
        let split = opening_events(2, reveal(), logged, 300);
        assert_eq!(split.len(), 2);
        assert_eq!(opened(&split[1..]), [(9, 2, text(&second))]);
        // Another epoch's reveal opens none of them.
        assert_eq!(opening_events(3, reveal(), logged, 1 << 16), [reveal()]);
    }

    #[test]
    fn the_commitment_is_keyed_and_covers_epoch_and_text() {
        // The vector docs/fairness-vectors.json gives other verifiers.
        let key = [7u8; 32];
        let text = r#"{"dice":[{"die":"d6","face":4,"counters":[3,4]}]}"#;
        let c = commitment(&key, 2, text);
        assert_eq!(
            to_hex(&c),
            "97648caf35eda1df533a7b7297a3a7732cf3e4622ecc8359c8e84655d9f9c657"
        );
        assert_ne!(c, commitment(&key, 3, text));
        assert_ne!(c, commitment(&[8; 32], 2, text));
        assert_ne!(c, commitment(&key, 2, &text.replace('4', "5")));
    }
}
