//! This seat's part in each dice epoch (docs/FAIRNESS.md): when an epoch opens, commit to 32
//! random bytes; when commitments close, reveal them. Nobody has to do anything: `log
//! --follow` runs this for every epoch it sees open.
//!
//! The bytes come from the operating system, or from `--entropy HEX` when a test needs exact
//! dice. They are kept in memory only, from the commitment to the reveal: a follower that
//! stops in between simply has its contribution replaced, as the server logs.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use tablehold_protocol::{EventEnvelope, Op};
use tablehold_rules::Fact;
use tablehold_rules::dice::fair::{Bytes32, entropy_commitment, from_hex32, to_hex};

/// What this seat knows of each epoch's phase, and the bytes it committed to.
pub struct Contributor {
    seat: String,
    fixed: Option<Bytes32>,
    /// Epochs whose commitments are open, as far as the events seen say.
    committing: BTreeSet<u64>,
    /// Epochs this seat has committed to (from its own requests or the log).
    committed: BTreeSet<u64>,
    /// Bytes committed to and not yet revealed, by epoch.
    pending: BTreeMap<u64, Bytes32>,
    /// Epochs this seat revealed for: being listed as withholding after that is news.
    revealed: BTreeSet<u64>,
    /// What this seat should know about how the server treated its contributions.
    warnings: Vec<String>,
    /// Whether events are arriving live: an epoch opened in the backlog is taken part in only
    /// if it is still open once the backlog is read.
    live: bool,
    /// The epoch this seat was logged as withholding in, this session: the server refuses its
    /// commitments until the GM readmits it, so it sends none.
    barred: Option<u64>,
    /// The table's epochs (those of purpose `table`): the reveal of one ends the session.
    table_epochs: BTreeSet<u64>,
}

impl Contributor {
    /// `fixed` is `--entropy HEX`, for tests.
    pub fn new(seat: &str, fixed: Option<&str>) -> Result<Contributor> {
        let fixed = fixed
            .map(|h| from_hex32(h).context("--entropy takes 64 hex digits (32 bytes)"))
            .transpose()?;
        Ok(Contributor {
            seat: seat.to_owned(),
            fixed,
            committing: BTreeSet::new(),
            committed: BTreeSet::new(),
            pending: BTreeMap::new(),
            revealed: BTreeSet::new(),
            warnings: Vec::new(),
            live: false,
            barred: None,
            table_epochs: BTreeSet::new(),
        })
    }

    /// Follows one event; returns the requests to send because of it.
    pub fn observe(&mut self, e: &EventEnvelope) -> Result<Vec<Op>> {
        let mut ops = Vec::new();
        for part in &e.parts {
            match &part.fact {
                Fact::EpochOpened { epoch, purpose, .. } => {
                    if purpose == "table" {
                        self.table_epochs.insert(*epoch);
                    }
                    self.committing.insert(*epoch);
                    if self.live {
                        ops.extend(self.commit(*epoch)?);
                    }
                }
                Fact::EntropyCommitted { epoch, seat, .. } if *seat == self.seat => {
                    self.committed.insert(*epoch);
                }
                Fact::CommitmentsClosed { epoch } => {
                    self.committing.remove(epoch);
                    if let Some(value) = self.pending.remove(epoch) {
                        if self.committed.contains(epoch) {
                            self.revealed.insert(*epoch);
                            ops.push(Op::RevealEntropy {
                                epoch: *epoch,
                                entropy: to_hex(&value),
                            });
                        } else {
                            self.warnings.push(format!(
                                "epoch {epoch}: commitments closed without this seat's commitment; its dice have none of this seat's entropy"
                            ));
                        }
                    }
                }
                Fact::EntropyWithheld { epoch, seat, .. } if *seat == self.seat => {
                    if self.revealed.contains(epoch) {
                        self.warnings.push(format!(
                            "epoch {epoch}: this seat revealed its entropy, yet the server logged it as withheld (a lost message, or a host choosing between two keys)"
                        ));
                    }
                    self.barred = Some(*epoch);
                }
                Fact::SeatReadmitted { seat } if *seat == self.seat => self.barred = None,
                Fact::EpochSealed { epoch } => {
                    self.committing.remove(epoch);
                    self.pending.remove(epoch);
                }
                Fact::EpochRevealed { epoch, .. } => {
                    self.committing.remove(epoch);
                    self.pending.remove(epoch);
                    if self.table_epochs.contains(epoch) {
                        self.barred = None;
                    }
                }
                _ => {}
            }
        }
        Ok(ops)
    }

    /// Warnings since the last call: contributions the server left out.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The backlog is read: commit to every epoch still taking commitments.
    pub fn go_live(&mut self) -> Result<Vec<Op>> {
        self.live = true;
        let open: Vec<u64> = self.committing.iter().copied().collect();
        let mut ops = Vec::new();
        for epoch in open {
            ops.extend(self.commit(epoch)?);
        }
        Ok(ops)
    }

    fn commit(&mut self, epoch: u64) -> Result<Option<Op>> {
        if self.committed.contains(&epoch) || self.pending.contains_key(&epoch) {
            return Ok(None);
        }
        if let Some(withheld) = self.barred {
            self.warnings.push(format!(
                "epoch {epoch}: this seat adds no entropy: it was logged as withholding in epoch {withheld}, and the GM has not readmitted it this session"
            ));
            return Ok(None);
        }
        let value = match self.fixed {
            Some(v) => v,
            None => os_random()?,
        };
        let commitment = entropy_commitment(epoch, &self.seat, &value)
            .context("this seat's id is too long to contribute entropy")?;
        self.pending.insert(epoch, value);
        Ok(Some(Op::CommitEntropy {
            epoch,
            commitment: to_hex(&commitment),
        }))
    }
}

/// 32 bytes from the operating system's generator.
fn os_random() -> Result<Bytes32> {
    let mut value = [0u8; 32];
    getrandom::fill(&mut value).map_err(|e| anyhow::anyhow!("no randomness from the OS: {e}"))?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablehold_rules::{Audience, Part};

    fn event(seq: u64, fact: Fact) -> EventEnvelope {
        EventEnvelope {
            table: "t".into(),
            seq,
            version: 1,
            at_ms: 0,
            link: String::new(),
            parts: vec![Part {
                audience: Audience::Everyone,
                fact,
            }],
        }
    }

    fn opened(epoch: u64) -> Fact {
        Fact::EpochOpened {
            epoch,
            purpose: "table".into(),
            commitment: "00".repeat(32),
            test_seed: false,
        }
    }

    #[test]
    fn commits_when_an_epoch_opens_and_reveals_the_same_bytes_when_commitments_close() {
        let fixed = "ab".repeat(32);
        let mut c = Contributor::new("ines", Some(&fixed)).expect("hex");
        assert!(c.go_live().expect("live").is_empty());
        let ops = c.observe(&event(1, opened(3))).expect("ops");
        let expected = entropy_commitment(3, "ines", &[0xab; 32]).expect("short id");
        assert_eq!(
            ops,
            [Op::CommitEntropy {
                epoch: 3,
                commitment: to_hex(&expected)
            }]
        );
        let logged = Fact::EntropyCommitted {
            epoch: 3,
            seat: "ines".into(),
            commitment: to_hex(&expected),
        };
        assert!(c.observe(&event(2, logged)).expect("ops").is_empty());
        let ops = c
            .observe(&event(3, Fact::CommitmentsClosed { epoch: 3 }))
            .expect("ops");
        assert_eq!(
            ops,
            [Op::RevealEntropy {
                epoch: 3,
                entropy: fixed
            }]
        );
        assert!(c.take_warnings().is_empty());
        // Logged as withholding after revealing: the seat is told.
        let withheld = Fact::EntropyWithheld {
            epoch: 3,
            seat: "ines".into(),
            replacement: "00".repeat(32),
        };
        c.observe(&event(4, withheld)).expect("ops");
        assert_eq!(c.take_warnings().len(), 1);
    }

    // See: issue #23, cheat 5. The server refuses a withholder's commitments for the rest of
    // the session; the client sends none, says why, and takes part again once readmitted or
    // once the session (the table's epoch) ends.
    #[test]
    fn a_seat_logged_as_withholding_sits_out_until_readmitted_or_the_session_ends() {
        let mut c = Contributor::new("ines", None).expect("no fixed bytes");
        c.go_live().expect("live");
        let encounter = |epoch| Fact::EpochOpened {
            epoch,
            purpose: "encounter".into(),
            commitment: "00".repeat(32),
            test_seed: false,
        };
        let withheld = Fact::EntropyWithheld {
            epoch: 2,
            seat: "ines".into(),
            replacement: "00".repeat(32),
        };
        let steps: [(Fact, usize); 6] = [
            (opened(1), 1),
            (withheld, 0),
            (encounter(3), 0),
            (
                Fact::SeatReadmitted {
                    seat: "ines".into(),
                },
                0,
            ),
            (encounter(4), 1),
            (
                Fact::EpochRevealed {
                    epoch: 1,
                    seed: "00".repeat(32),
                },
                0,
            ),
        ];
        for (seq, (fact, commits)) in (1..).zip(steps) {
            let ops = c.observe(&event(seq, fact)).expect("ops");
            assert_eq!(ops.len(), commits, "event {seq}: {ops:?}");
            if seq == 3 {
                let warnings = c.take_warnings();
                assert!(
                    warnings[0].contains("withholding in epoch 2"),
                    "{warnings:?}"
                );
            }
        }
        // Withheld again, then the session ends: the next session takes part at once.
        let again = Fact::EntropyWithheld {
            epoch: 4,
            seat: "ines".into(),
            replacement: "00".repeat(32),
        };
        c.observe(&event(7, again)).expect("ops");
        assert!(c.observe(&event(8, encounter(5))).expect("ops").is_empty());
        let end = Fact::EpochRevealed {
            epoch: 1,
            seed: "00".repeat(32),
        };
        c.observe(&event(9, end)).expect("ops");
        assert_eq!(c.observe(&event(10, opened(6))).expect("ops").len(), 1);
    }

    #[test]
    fn a_commitment_the_log_never_shows_is_not_revealed_and_is_reported() {
        let mut c = Contributor::new("ines", None).expect("no fixed bytes");
        c.go_live().expect("live");
        assert_eq!(c.observe(&event(1, opened(1))).expect("ops").len(), 1);
        let ops = c
            .observe(&event(2, Fact::CommitmentsClosed { epoch: 1 }))
            .expect("ops");
        assert!(ops.is_empty(), "{ops:?}");
        let warnings = c.take_warnings();
        assert!(
            warnings[0].contains("without this seat's commitment"),
            "{warnings:?}"
        );
    }

    #[test]
    fn an_epoch_already_closed_in_the_backlog_is_left_alone_and_an_open_one_joined() {
        let mut c = Contributor::new("ines", None).expect("no fixed bytes");
        for (seq, fact) in [
            (1, opened(1)),
            (2, Fact::CommitmentsClosed { epoch: 1 }),
            (3, Fact::EpochSealed { epoch: 1 }),
            (4, opened(2)),
        ] {
            assert!(c.observe(&event(seq, fact)).expect("ops").is_empty());
        }
        let ops = c.go_live().expect("live");
        assert!(
            matches!(ops.as_slice(), [Op::CommitEntropy { epoch: 2, .. }]),
            "{ops:?}"
        );
        assert!(Contributor::new("ines", Some("12")).is_err());
    }
}
