//! Where faces come from. The rules never pick a number themselves: every face is a draw from
//! an injected [`DiceSource`], so the server can plug in its committed stream and the
//! calculator and tests can plug in faces written down in advance.

use super::Primitive;

/// Why a draw could not be made. Both variants are the caller's fault (too few or wrong faces
/// in a script), never a rule outcome.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// The script ran out. Give more faces, in draw order.
    #[error("draw #{draw} needed a {die} but only {given} face(s) were given; add more faces")]
    Exhausted {
        /// 1-based number of the draw that failed.
        draw: usize,
        die: Primitive,
        given: usize,
    },
    /// A scripted face cannot come up on the die being drawn, e.g. 12 on a d10. This usually
    /// means the faces are not in draw order.
    #[error("draw #{draw} is a {die} but the face given is {face}; faces must be 1..={sides}")]
    FaceOutOfRange {
        draw: usize,
        die: Primitive,
        face: u32,
        sides: u32,
    },
}

/// A source of primitive dice. Implementations must return a face in `1..=die.sides()`.
pub trait DiceSource {
    /// Draws one face of `die`.
    fn draw(&mut self, die: Primitive) -> Result<u32, DiceError>;

    /// The counters `[first, end)` the last successful draw used, rejected attempts included,
    /// for a source that numbers its draws (the fair stream). Written into each die so a
    /// verifier knows which counters to recompute it from.
    fn last_counters(&self) -> Option<[u64; 2]> {
        None
    }

    /// The counter ranges of every draw since the last call, in order, and forgets them. The
    /// engine attaches them to the event that used the draws, so the log accounts for every
    /// counter of the epoch.
    fn take_draws(&mut self) -> Option<Draws> {
        None
    }
}

/// The draws one event consumed: the epoch and each draw's `[first, end)` counter range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draws {
    pub epoch: u64,
    pub spans: Vec<[u64; 2]>,
}

impl<T: DiceSource + ?Sized> DiceSource for &mut T {
    fn draw(&mut self, die: Primitive) -> Result<u32, DiceError> {
        (**self).draw(die)
    }

    fn last_counters(&self) -> Option<[u64; 2]> {
        (**self).last_counters()
    }

    fn take_draws(&mut self) -> Option<Draws> {
        (**self).take_draws()
    }
}

/// Faces written down in advance, consumed in order: the calculator's `--dice 12,3,5` and
/// every worked-example test.
#[derive(Debug, Clone, Default)]
pub struct ScriptedDice {
    faces: Vec<u32>,
    next: usize,
    drawn: Vec<Primitive>,
}

impl ScriptedDice {
    pub fn new(faces: impl Into<Vec<u32>>) -> Self {
        ScriptedDice {
            faces: faces.into(),
            next: 0,
            drawn: Vec::new(),
        }
    }

    /// How many faces were consumed so far.
    pub fn used(&self) -> usize {
        self.next
    }

    /// Faces given but never drawn, so a caller can warn that the script was longer than the
    /// action needed (often a sign of a misunderstanding of the draw order).
    pub fn unused(&self) -> &[u32] {
        &self.faces[self.next..]
    }

    /// The dice drawn so far, in order.
    pub fn drawn(&self) -> &[Primitive] {
        &self.drawn
    }
}

impl DiceSource for ScriptedDice {
    fn draw(&mut self, die: Primitive) -> Result<u32, DiceError> {
        let draw = self.next + 1;
        let Some(&face) = self.faces.get(self.next) else {
            return Err(DiceError::Exhausted {
                draw,
                die,
                given: self.faces.len(),
            });
        };
        if face == 0 || face > die.sides() {
            return Err(DiceError::FaceOutOfRange {
                draw,
                die,
                face,
                sides: die.sides(),
            });
        }
        self.next += 1;
        self.drawn.push(die);
        Ok(face)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_faces_come_out_in_order_and_run_out_clearly() {
        let mut dice = ScriptedDice::new(vec![12, 3]);
        assert_eq!(dice.draw(Primitive::D20), Ok(12));
        assert_eq!(dice.draw(Primitive::D6), Ok(3));
        assert_eq!(
            dice.draw(Primitive::D20),
            Err(DiceError::Exhausted {
                draw: 3,
                die: Primitive::D20,
                given: 2
            })
        );
    }

    #[test]
    fn scripted_face_that_does_not_fit_the_die_is_refused_and_not_consumed() {
        let mut dice = ScriptedDice::new(vec![12, 4]);
        let err = dice.draw(Primitive::D10).unwrap_err();
        assert_eq!(
            err,
            DiceError::FaceOutOfRange {
                draw: 1,
                die: Primitive::D10,
                face: 12,
                sides: 10
            }
        );
        assert_eq!(dice.used(), 0);
    }
}
