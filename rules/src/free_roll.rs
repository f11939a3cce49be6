//! A free roll: dice any seat rolls outside the rules' actions ("3d6", "1d20+4"), in the open
//! or, for the GM, in secret. The same for every system; the limits keep one roll's event
//! within what a frame carries.

use crate::dice::{DiceExpr, DiceSource, TermKind, roll};
use crate::engine::DecideError;
use crate::event::{Audience, Event, Fact, Part};
use crate::ids::Seat;
use crate::refusal::Refusal;

/// Dice in one roll at most.
pub const MAX_ROLL_DICE: u64 = 100;
/// Terms (dice and flat numbers) in one roll's expression at most.
pub const MAX_ROLL_TERMS: usize = 20;

/// The event of `by` (shown as `name`) rolling `dice`: public, or for the GM alone when
/// `secret`. Its draws are recorded in a public `dice_drawn` part, as every event's are.
pub fn free_roll(
    dice: &str,
    by: &Seat,
    name: &str,
    secret: bool,
    source: &mut dyn DiceSource,
) -> Result<Event, DecideError> {
    if secret && !by.is_gm() {
        return Err(Refusal::forbidden("a secret roll is the GM's").into());
    }
    let expr = DiceExpr::parse(dice).map_err(|e| Refusal::bad_argument("dice", &e.to_string()))?;
    let count: u64 = expr
        .terms
        .iter()
        .map(|t| match &t.kind {
            TermKind::Dice(d) => u64::from(d.count),
            TermKind::Flat(_) => 0,
        })
        .sum();
    if count > MAX_ROLL_DICE || expr.terms.len() > MAX_ROLL_TERMS {
        let reason = format!("has at most {MAX_ROLL_DICE} dice in {MAX_ROLL_TERMS} terms");
        return Err(Refusal::bad_argument("dice", &reason).into());
    }
    let rolled = roll(&expr, source)?;
    let fact = Fact::Rolled {
        by: None,
        purpose: format!("roll by {name}"),
        roll: rolled,
    };
    let audience = if secret {
        Audience::GmOnly
    } else {
        Audience::Everyone
    };
    let mut parts = vec![Part { audience, fact }];
    parts.extend(source.take_draws().map(Part::dice_drawn));
    Ok(Event { parts })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::dice::ScriptedDice;

    fn refused(r: Result<Event, DecideError>) -> Option<&'static str> {
        match r {
            Err(DecideError::Refused(r)) => Some(r.code()),
            _ => None,
        }
    }

    #[test]
    fn a_free_roll_shows_its_dice_to_its_audience_within_its_limits() {
        let mut dice = ScriptedDice::new(vec![4, 6, 1]);
        let e = free_roll(
            "3d6+2",
            &Seat::Player("ines".into()),
            "Ines",
            false,
            &mut dice,
        )
        .unwrap();
        match &e.parts[0] {
            Part {
                audience: Audience::Everyone,
                fact: Fact::Rolled { purpose, roll, .. },
            } => {
                assert_eq!(purpose, "roll by Ines");
                assert_eq!(roll.total, 4 + 6 + 1 + 2);
            }
            other => panic!("{other:?}"),
        }
        let mut dice = ScriptedDice::new(vec![20]);
        let secret = free_roll("1d20", &Seat::Gm, "GM", true, &mut dice).unwrap();
        assert_eq!(secret.parts[0].audience, Audience::GmOnly);
        let mut none = ScriptedDice::new(vec![]);
        let ines = Seat::Player("ines".into());
        let cases = [
            ("1d20", true, Some("forbidden")),
            ("3d", false, Some("bad_request")),
            ("101d6", false, Some("bad_request")),
            ("100d1", false, Some("bad_request")),
        ];
        for (dice, secret, want) in cases {
            assert_eq!(
                refused(free_roll(dice, &ines, "Ines", secret, &mut none)),
                want,
                "{dice}"
            );
        }
        let many = vec!["1"; MAX_ROLL_TERMS + 1].join("+");
        assert_eq!(
            refused(free_roll(&many, &ines, "Ines", false, &mut none)),
            Some("bad_request")
        );
        assert_eq!(none.used(), 0, "a refused roll draws nothing");
        // The limits themselves are allowed: 100 dice, 20 terms.
        let mut hundred = ScriptedDice::new(vec![1; 100]);
        let e = free_roll("100d6", &ines, "Ines", false, &mut hundred).unwrap();
        assert!(matches!(&e.parts[0].fact, Fact::Rolled { roll, .. } if roll.total == 100));
        let twenty = vec!["1"; MAX_ROLL_TERMS].join("+");
        let e = free_roll(&twenty, &ines, "Ines", false, &mut none).unwrap();
        assert!(matches!(&e.parts[0].fact, Fact::Rolled { roll, .. } if roll.total == 20));
    }
}
