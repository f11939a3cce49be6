//! Dice notation: reading `3d10kh1+2` into a [`DiceExpr`] and writing it back.
//!
//! The written form is canonical (no spaces, the count always spelled out, lowercase letters),
//! and parsing it gives back the very same tree, so an expression can travel as text in
//! sheets, logs and the calculator without losing anything.
//!
//! Grammar, where letters match in either case and whitespace may separate terms and
//! operators but never split a term:
//!
//! ```text
//! expr  := ['+'|'-'] term (('+'|'-') term)*
//! term  := flat | dice
//! flat  := digits                                  0..=1_000_000
//! dice  := [count] 'd' die [keep] ['!']            count 1..=100, 1 when left out
//! die   := sides                                   2 4 5 6 8 10 12 20 100
//!        | sides 's' ('+'|'-') digits              sides on the ladder 4..20, steps -10..=10
//!        | '10/' divisor                           divisor 2, 3 or 4
//! keep  := ('kh'|'kl') digits                      1..=count
//! ```
//!
//! The parser never panics: every byte of any input either belongs to the grammar or is
//! reported, with its byte offset, in a [`ParseError`].

use std::fmt;
use std::str::FromStr;

use super::{DiceExpr, DiceTerm, DieKind, Keep, Primitive, STEP_LADDER, Term, TermKind};

/// The largest flat modifier. Far beyond any printed bonus, and small enough that a sum of
/// many of them stays nowhere near `i64`'s limits.
const MAX_FLAT: u64 = 1_000_000;
/// The largest pool. Keeps a typo such as `1000d6` from turning into a million draws.
const MAX_COUNT: u64 = 100;
/// How far a stepped die may be moved in one expression. The ladder has only six rungs, so
/// anything past ten is certainly a mistake rather than an intent.
const MAX_STEPS: u64 = 10;

/// Why a dice expression could not be read.
///
/// Every variant carries `at`, the 0-based byte offset in `input` where the problem starts,
/// so a caller can underline it; the message shows the same place as a 1-based column.
/// All of them are the writer's mistake: show the message and let them fix the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Nothing but whitespace, e.g. `""`.
    #[error("{}: the expression is empty; write dice such as `1d20+3`", Here(input, *at))]
    Empty { at: usize, input: String },
    /// A term was needed but something else came, e.g. `1d6+` or `2d6 + x`.
    #[error("{}: expected a number or dice here, such as `2` or `1d6`", Here(input, *at))]
    ExpectedTerm { at: usize, input: String },
    /// A number too long to hold, e.g. `99999999999999999999d6`.
    #[error("{}: this number is far too large", Here(input, *at))]
    Overflow { at: usize, input: String },
    /// A flat modifier above 1,000,000, e.g. `1d6+2000000`.
    #[error("{}: {value} is too large for a modifier; the most is {MAX_FLAT}", Here(input, *at))]
    FlatTooBig {
        at: usize,
        input: String,
        value: u64,
    },
    /// `0d6`: a pool needs at least one die.
    #[error(
        "{}: a pool needs at least one die; write 1d6, or leave the term out",
        Here(input, *at)
    )]
    ZeroCount { at: usize, input: String },
    /// More than 100 dice in one term, e.g. `101d6`.
    #[error("{}: {count} dice is too many for one term; the most is {MAX_COUNT}", Here(input, *at))]
    CountTooBig {
        at: usize,
        input: String,
        count: u64,
    },
    /// `3d` with no sides after the `d`.
    #[error("{}: the die's sides are missing after `d`; write e.g. d6", Here(input, *at))]
    MissingSides { at: usize, input: String },
    /// Sides that no die has, e.g. `3d7`.
    #[error(
        "{}: d{sides} is not a die; use d2 d4 d5 d6 d8 d10 d12 d20 d100",
        Here(input, *at)
    )]
    UnknownDie {
        at: usize,
        input: String,
        sides: u64,
    },
    /// A stepped die whose base is off the ladder, e.g. `d100s+1`.
    #[error(
        "{}: d{sides} cannot be stepped; only d4 d6 d8 d10 d12 d20 are on the step ladder",
        Here(input, *at)
    )]
    NotOnLadder {
        at: usize,
        input: String,
        sides: u64,
    },
    /// A step without its sign or number, or beyond ten rungs, e.g. `d8s1` or `d8s+11`.
    #[error(
        "{}: a step is a sign and 0 to {MAX_STEPS}, written e.g. d8s+1 or d8s-2",
        Here(input, *at)
    )]
    BadStep { at: usize, input: String },
    /// Division on a die other than the d10, e.g. `d8/2`.
    #[error(
        "{}: only the d10 can be divided (d10/2, d10/3, d10/4), not d{sides}",
        Here(input, *at)
    )]
    DividedNotD10 {
        at: usize,
        input: String,
        sides: u64,
    },
    /// A divisor missing or not in the division table, e.g. `d10/5`.
    #[error("{}: the division table has d10/2, d10/3 and d10/4 only", Here(input, *at))]
    BadDivisor { at: usize, input: String },
    /// `k` not followed by `h` or `l` and a count, e.g. `3d6k1` or `3d6kh`.
    #[error(
        "{}: keep is written kh (highest) or kl (lowest) and a count, e.g. 2d20kh1",
        Here(input, *at)
    )]
    BadKeep { at: usize, input: String },
    /// `3d6kh0`: keeping nothing leaves no roll.
    #[error("{}: keep at least one die", Here(input, *at))]
    KeepZero { at: usize, input: String },
    /// Keeping more dice than are rolled, e.g. `2d6kh3`.
    #[error("{}: cannot keep {keep} of only {count} dice", Here(input, *at))]
    KeepMoreThanCount {
        at: usize,
        input: String,
        keep: u64,
        count: u64,
    },
    /// `d10/2!`: a divided die has no maximum worth bursting on (10 and 9 give the same value
    /// on some columns of the table), so bursting it is refused rather than guessed.
    #[error("{}: a divided die cannot burst", Here(input, *at))]
    BurstOnDivided { at: usize, input: String },
    /// Something after a complete term that is not an operator, e.g. `1d6x` or `1d6 2`.
    #[error("{}: unexpected `{found}`; terms are joined by + or -", Here(input, *at))]
    Trailing {
        at: usize,
        input: String,
        found: char,
    },
}

impl ParseError {
    /// The 0-based byte offset in [`ParseError::input`] where the problem starts.
    pub fn offset(&self) -> usize {
        self.parts().0
    }

    /// The whole text that was being parsed.
    pub fn input(&self) -> &str {
        self.parts().1
    }

    fn parts(&self) -> (usize, &str) {
        match self {
            ParseError::Empty { at, input }
            | ParseError::ExpectedTerm { at, input }
            | ParseError::Overflow { at, input }
            | ParseError::FlatTooBig { at, input, .. }
            | ParseError::ZeroCount { at, input }
            | ParseError::CountTooBig { at, input, .. }
            | ParseError::MissingSides { at, input }
            | ParseError::UnknownDie { at, input, .. }
            | ParseError::NotOnLadder { at, input, .. }
            | ParseError::BadStep { at, input }
            | ParseError::DividedNotD10 { at, input, .. }
            | ParseError::BadDivisor { at, input }
            | ParseError::BadKeep { at, input }
            | ParseError::KeepZero { at, input }
            | ParseError::KeepMoreThanCount { at, input, .. }
            | ParseError::BurstOnDivided { at, input }
            | ParseError::Trailing { at, input, .. } => (*at, input),
        }
    }
}

/// The "at column N of `input`" prefix shared by every message. People count columns in
/// characters from 1, while [`ParseError::offset`] stays a byte offset for slicing.
struct Here<'a>(&'a str, usize);

impl fmt::Display for Here<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Here(input, at) = *self;
        let column = input.get(..at).map_or(at, |before| before.chars().count()) + 1;
        write!(f, "at column {column} of `{input}`")
    }
}

impl DiceExpr {
    /// Reads dice notation such as `3d10kh1+2`; see the module docs for the grammar.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming the first place the text leaves the grammar or a range.
    pub fn parse(s: &str) -> Result<DiceExpr, ParseError> {
        Parser {
            input: s,
            bytes: s.as_bytes(),
            pos: 0,
        }
        .expr()
    }
}

impl FromStr for DiceExpr {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
    }
}

/// A cursor over the input. Only ASCII is ever consumed, so `pos` always sits on a char
/// boundary and error offsets can be used to slice the input.
struct Parser<'a> {
    input: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

/// A number as read, with where it started, before any range check.
#[derive(Clone, Copy)]
struct Number {
    at: usize,
    value: u64,
}

impl Parser<'_> {
    fn expr(mut self) -> Result<DiceExpr, ParseError> {
        self.skip_ws();
        if self.pos == self.bytes.len() {
            return Err(ParseError::Empty {
                at: 0,
                input: self.input.to_owned(),
            });
        }
        let mut negative = false;
        if let Some(sign @ (b'+' | b'-')) = self.peek() {
            negative = sign == b'-';
            self.pos += 1;
            self.skip_ws();
        }
        let mut terms = Vec::new();
        loop {
            terms.push(Term {
                negative,
                kind: self.term()?,
            });
            self.skip_ws();
            negative = match self.peek() {
                None => return Ok(DiceExpr { terms }),
                Some(b'+') => false,
                Some(b'-') => true,
                Some(_) => return Err(self.trailing()),
            };
            self.pos += 1;
            self.skip_ws();
        }
    }

    fn term(&mut self) -> Result<TermKind, ParseError> {
        match self.peek() {
            Some(b'0'..=b'9') => {
                let number = self.number()?;
                if self.eat_letter(b'd') {
                    self.dice(Some(number)).map(TermKind::Dice)
                } else if number.value > MAX_FLAT {
                    Err(ParseError::FlatTooBig {
                        at: number.at,
                        input: self.input.to_owned(),
                        value: number.value,
                    })
                } else {
                    // Cannot fail: MAX_FLAT fits an i64.
                    Ok(TermKind::Flat(
                        i64::try_from(number.value).unwrap_or(i64::MAX),
                    ))
                }
            }
            Some(b'd' | b'D') => {
                self.pos += 1;
                self.dice(None).map(TermKind::Dice)
            }
            _ => Err(self.error_here(|at, input| ParseError::ExpectedTerm { at, input })),
        }
    }

    /// Everything after the `d`; `count` is the number written before it, if any.
    fn dice(&mut self, count: Option<Number>) -> Result<DiceTerm, ParseError> {
        let count = match count {
            None => 1,
            Some(Number { at, value: 0 }) => {
                return Err(ParseError::ZeroCount {
                    at,
                    input: self.input.to_owned(),
                });
            }
            Some(Number { at, value }) if value > MAX_COUNT => {
                return Err(ParseError::CountTooBig {
                    at,
                    input: self.input.to_owned(),
                    count: value,
                });
            }
            Some(Number { value, .. }) => value,
        };
        let die = self.die()?;
        let keep = self.keep(count)?;
        let burst = self.peek() == Some(b'!');
        if burst {
            if let DieKind::Divided { .. } = die {
                return Err(self.error_here(|at, input| ParseError::BurstOnDivided { at, input }));
            }
            self.pos += 1;
        }
        Ok(DiceTerm {
            // Cannot fail: count is at most MAX_COUNT.
            count: u32::try_from(count).unwrap_or(u32::MAX),
            die,
            keep,
            burst,
        })
    }

    fn die(&mut self) -> Result<DieKind, ParseError> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.error_here(|at, input| ParseError::MissingSides { at, input }));
        }
        let sides = self.number()?;
        if self.peek() == Some(b'/') {
            if sides.value != 10 {
                return Err(ParseError::DividedNotD10 {
                    at: sides.at,
                    input: self.input.to_owned(),
                    sides: sides.value,
                });
            }
            self.pos += 1;
            let bad_divisor = |at, input| ParseError::BadDivisor { at, input };
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error_here(bad_divisor));
            }
            let divisor = self.number()?;
            return match divisor.value {
                2..=4 => Ok(DieKind::Divided {
                    // Cannot fail: 2..=4 fits a u8.
                    divisor: u8::try_from(divisor.value).unwrap_or(u8::MAX),
                }),
                _ => Err(bad_divisor(divisor.at, self.input.to_owned())),
            };
        }
        let primitive = u32::try_from(sides.value)
            .ok()
            .and_then(Primitive::from_sides);
        if self.eat_letter(b's') {
            let Some(base) = primitive.filter(|p| STEP_LADDER.contains(p)) else {
                return Err(ParseError::NotOnLadder {
                    at: sides.at,
                    input: self.input.to_owned(),
                    sides: sides.value,
                });
            };
            return Ok(DieKind::Stepped {
                base,
                steps: self.steps()?,
            });
        }
        match primitive {
            Some(p) => Ok(DieKind::Plain(p)),
            None => Err(ParseError::UnknownDie {
                at: sides.at,
                input: self.input.to_owned(),
                sides: sides.value,
            }),
        }
    }

    /// The signed step count after `s`.
    fn steps(&mut self) -> Result<i32, ParseError> {
        let at = self.pos;
        let bad_step = |input| ParseError::BadStep { at, input };
        let negative = match self.peek() {
            Some(b'+') => false,
            Some(b'-') => true,
            _ => return Err(bad_step(self.input.to_owned())),
        };
        self.pos += 1;
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(bad_step(self.input.to_owned()));
        }
        let size = self.number()?.value;
        if size > MAX_STEPS {
            return Err(bad_step(self.input.to_owned()));
        }
        // Cannot fail: size is at most MAX_STEPS.
        let size = i32::try_from(size).unwrap_or(0);
        Ok(if negative { -size } else { size })
    }

    fn keep(&mut self, count: u64) -> Result<Option<Keep>, ParseError> {
        let at = self.pos;
        if !self.eat_letter(b'k') {
            return Ok(None);
        }
        let bad_keep = |at, input| ParseError::BadKeep { at, input };
        let highest = if self.eat_letter(b'h') {
            true
        } else if self.eat_letter(b'l') {
            false
        } else {
            return Err(self.error_here(bad_keep));
        };
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.error_here(bad_keep));
        }
        let n = self.number()?;
        if n.value == 0 {
            return Err(ParseError::KeepZero {
                at: n.at,
                input: self.input.to_owned(),
            });
        }
        if n.value > count {
            return Err(ParseError::KeepMoreThanCount {
                at,
                input: self.input.to_owned(),
                keep: n.value,
                count,
            });
        }
        // Cannot fail: n is at most count, which is at most MAX_COUNT.
        let n = u32::try_from(n.value).unwrap_or(u32::MAX);
        Ok(Some(if highest {
            Keep::Highest(n)
        } else {
            Keep::Lowest(n)
        }))
    }

    /// Reads a run of ASCII digits; the caller has checked that there is at least one.
    fn number(&mut self) -> Result<Number, ParseError> {
        let at = self.pos;
        let mut value: u64 = 0;
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(digit - b'0')))
                .ok_or_else(|| ParseError::Overflow {
                    at,
                    input: self.input.to_owned(),
                })?;
            self.pos += 1;
        }
        Ok(Number { at, value })
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Consumes `lower` in either case.
    fn eat_letter(&mut self, lower: u8) -> bool {
        let found = self.peek().is_some_and(|b| b.to_ascii_lowercase() == lower);
        if found {
            self.pos += 1;
        }
        found
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn trailing(&self) -> ParseError {
        let found = self
            .input
            .get(self.pos..)
            .and_then(|rest| rest.chars().next());
        ParseError::Trailing {
            at: self.pos,
            input: self.input.to_owned(),
            found: found.unwrap_or(char::REPLACEMENT_CHARACTER),
        }
    }

    fn error_here(&self, make: impl FnOnce(usize, String) -> ParseError) -> ParseError {
        make(self.pos, self.input.to_owned())
    }
}

impl fmt::Display for DiceExpr {
    /// Writes the canonical form, which [`DiceExpr::parse`] reads back to an equal tree.
    /// An expression with no terms has no canonical form and is written `0`, its value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        for (i, term) in self.terms.iter().enumerate() {
            // A hand-built negative flat folds its sign into the term's, so that the text
            // still reads as the same sum.
            let negative = match term.kind {
                TermKind::Flat(v) if v < 0 => !term.negative,
                _ => term.negative,
            };
            if negative {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            match &term.kind {
                TermKind::Flat(v) => write!(f, "{}", v.unsigned_abs())?,
                TermKind::Dice(dice) => write_dice(f, dice)?,
            }
        }
        Ok(())
    }
}

fn write_dice(f: &mut fmt::Formatter<'_>, dice: &DiceTerm) -> fmt::Result {
    write!(f, "{}d", dice.count)?;
    match dice.die {
        DieKind::Plain(p) => write!(f, "{}", p.sides())?,
        DieKind::Stepped { base, steps } => write!(f, "{}s{steps:+}", base.sides())?,
        DieKind::Divided { divisor } => write!(f, "10/{divisor}")?,
    }
    match dice.keep {
        None => {}
        Some(Keep::Highest(n)) => write!(f, "kh{n}")?,
        Some(Keep::Lowest(n)) => write!(f, "kl{n}")?,
    }
    if dice.burst {
        f.write_str("!")?;
    }
    Ok(())
}
