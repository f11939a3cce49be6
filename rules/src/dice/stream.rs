//! The fair dice stream of DESIGN.md's "Dice and fairness": every face of an epoch follows
//! from a 32-byte key, the epoch id and a counter, so once the key is revealed anyone can
//! recompute every roll, and before that nobody without the key can predict one.
//!
//! The derivation is a public contract (verifiers in other languages depend on it), and
//! changing it means a new domain tag, never an edit of this one:
//!
//! 1. For counter `i` (a `u64`, starting at 0 for each epoch), compute
//!    `block = HMAC-SHA256(key, "tablehold-dice-v1" || BE64(epoch) || BE64(i))`, where the key
//!    is the 32 key bytes as they are, the tag is its 17 ASCII bytes with no terminator, and
//!    `BE64` is the 8-byte big-endian encoding. The message is 33 bytes long.
//! 2. Let `x` be the first 4 bytes of `block` read as a big-endian `u32`.
//! 3. For a die of `n` sides let `limit = floor(2^32 / n) * n`, computed in 64-bit integers.
//!    If `x < limit` the face is `x mod n + 1`. Otherwise the attempt is rejected (this keeps
//!    every face exactly equally likely) and the next counter is tried.
//! 4. Every counter is used by exactly one attempt, accepted or rejected, in increasing order,
//!    and the next draw starts at the counter after the last one used.
//!
//! For example, for a d6 `limit` is 4294967292, so a word of 4294967292..=4294967295 is
//! rejected; the chance of any rejection is below 100 in 2^32 for every primitive die.
//!
//! Counter `u64::MAX` is never used: a stream that reaches it reports
//! [`DiceError::Exhausted`] instead of reusing counters, which would repeat faces.

use std::fmt;
use std::ops::Range;

use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::{DiceError, DiceSource, Draws, Primitive};

type HmacSha256 = Hmac<Sha256>;

/// Domain separation tag: a block computed for any other purpose with the same key can never
/// be mistaken for a die.
const DOMAIN: &[u8; 17] = b"tablehold-dice-v1";

/// The committed dice stream of one epoch. Cloning it forks the stream: both copies will
/// produce the same faces, which is what a dry run or a verifier wants.
#[derive(Clone)]
pub struct CounterStream {
    epoch: u64,
    next: u64,
    last: Range<u64>,
    /// Ranges of the draws not yet taken by [`DiceSource::take_draws`].
    spans: Vec<[u64; 2]>,
    /// HMAC keyed once, cloned for each block, so the key schedule is not redone per draw.
    mac: HmacSha256,
}

impl CounterStream {
    /// The stream of `epoch` from its first counter.
    pub fn new(key: [u8; 32], epoch: u64) -> Self {
        CounterStream::at(key, epoch, 0)
    }

    /// The stream of `epoch` resumed at `counter`, e.g. after the draws an event log records.
    pub fn at(key: [u8; 32], epoch: u64, counter: u64) -> Self {
        // HMAC zero-pads a key shorter than the hash's 64-byte block, so padding it here
        // gives the same MAC as keying with the 32 bytes, and avoids the fallible
        // slice constructor.
        let mut padded = [0u8; 64];
        for (slot, byte) in padded.iter_mut().zip(key) {
            *slot = byte;
        }
        CounterStream {
            epoch,
            next: counter,
            last: counter..counter,
            spans: Vec::new(),
            mac: <HmacSha256 as KeyInit>::new(&padded.into()),
        }
    }

    /// The epoch this stream belongs to.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The counter the next draw will start at.
    pub fn counter(&self) -> u64 {
        self.next
    }

    /// The counters used by the most recent draw, rejected attempts included. Events record
    /// these so a verifier can check that the ranges of an epoch tile `0..N` with no gap.
    pub fn last_draw_counters(&self) -> Range<u64> {
        self.last.clone()
    }

    /// The 32-bit word of step 2 of the module docs for `counter`.
    fn word(&self, counter: u64) -> u32 {
        let mut mac = self.mac.clone();
        mac.update(DOMAIN);
        mac.update(&self.epoch.to_be_bytes());
        mac.update(&counter.to_be_bytes());
        let block = mac.finalize().into_bytes();
        u32::from_be_bytes([block[0], block[1], block[2], block[3]])
    }

    /// The draw loop of steps 3 and 4, over any word function so the rare rejection path can
    /// be tested with words chosen to hit it.
    fn draw_with(
        &mut self,
        die: Primitive,
        word_at: impl Fn(&Self, u64) -> u32,
    ) -> Result<u32, DiceError> {
        let start = self.next;
        loop {
            if self.next == u64::MAX {
                self.last = start..self.next;
                return Err(DiceError::Exhausted {
                    draw: usize::MAX,
                    die,
                    given: usize::MAX,
                });
            }
            let word = word_at(self, self.next);
            self.next += 1;
            if let Some(face) = face_for(word, die.sides()) {
                self.last = start..self.next;
                self.spans.push([start, self.next]);
                return Ok(face);
            }
        }
    }
}

/// Step 3 of the module docs: the face `word` gives on a die of `sides`, or `None` when the
/// word falls in the uneven tail above `limit` and must be rejected.
fn face_for(word: u32, sides: u32) -> Option<u32> {
    if sides == 0 {
        return None;
    }
    let n = u64::from(sides);
    let limit = ((1u64 << 32) / n) * n;
    (u64::from(word) < limit).then(|| word % sides + 1)
}

impl DiceSource for CounterStream {
    fn draw(&mut self, die: Primitive) -> Result<u32, DiceError> {
        self.draw_with(die, CounterStream::word)
    }

    fn last_counters(&self) -> Option<[u64; 2]> {
        (!self.last.is_empty()).then_some([self.last.start, self.last.end])
    }

    fn take_draws(&mut self) -> Option<Draws> {
        (!self.spans.is_empty()).then(|| Draws {
            epoch: self.epoch,
            spans: std::mem::take(&mut self.spans),
        })
    }
}

/// Leaves the key out: it stays secret until the epoch ends, and debug output ends up in logs.
impl fmt::Debug for CounterStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CounterStream")
            .field("epoch", &self.epoch)
            .field("counter", &self.next)
            .field("last_draw_counters", &self.last)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_the_uneven_tail_are_rejected() {
        // 2^32 = 715827882 * 6 + 4, so the last four words would favour faces 1..=4.
        assert_eq!(face_for(4_294_967_291, 6), Some(4_294_967_291 % 6 + 1));
        assert_eq!(face_for(4_294_967_292, 6), None);
        assert_eq!(face_for(u32::MAX, 6), None);
        // 2 divides 2^32, so nothing is ever rejected on a d2.
        assert_eq!(face_for(u32::MAX, 2), Some(2));
        assert_eq!(face_for(0, 100), Some(1));
        assert_eq!(face_for(4_294_967_199, 100), Some(100));
        assert_eq!(face_for(4_294_967_200, 100), None);
    }

    #[test]
    fn a_rejected_attempt_uses_its_counter_and_is_recorded() {
        let mut stream = CounterStream::at([0; 32], 1, 40);
        // Counters 40 and 41 give rejected words, 42 gives face 3 of a d6.
        let words = |_: &CounterStream, c: u64| if c < 42 { u32::MAX } else { 2 };
        assert_eq!(stream.draw_with(Primitive::D6, words), Ok(3));
        assert_eq!(stream.last_draw_counters(), 40..43);
        assert_eq!(stream.counter(), 43);
        assert_eq!(stream.draw_with(Primitive::D6, words), Ok(3));
        assert_eq!(stream.last_draw_counters(), 43..44);
        assert_eq!(stream.last_counters(), Some([43, 44]));
        assert_eq!(
            stream.take_draws(),
            Some(Draws {
                epoch: 1,
                spans: vec![[40, 43], [43, 44]]
            })
        );
        assert_eq!(stream.take_draws(), None);
    }

    #[test]
    fn the_last_counter_is_never_used() {
        let mut stream = CounterStream::at([0; 32], 1, u64::MAX - 1);
        assert!(stream.draw(Primitive::D20).is_ok());
        assert_eq!(stream.last_draw_counters(), u64::MAX - 1..u64::MAX);
        assert!(matches!(
            stream.draw(Primitive::D20),
            Err(DiceError::Exhausted { .. })
        ));
        assert_eq!(stream.counter(), u64::MAX);
    }

    #[test]
    fn debug_output_leaves_the_key_out() {
        let stream = CounterStream::new([0xAB; 32], 9);
        assert_eq!(
            format!("{stream:?}"),
            "CounterStream { epoch: 9, counter: 0, last_draw_counters: 0..0, .. }"
        );
    }
}
