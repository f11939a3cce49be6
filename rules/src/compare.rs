//! Judging a total against what it is compared with, once for every system: roll-high and
//! roll-under, whether a tie succeeds, opposed totals and the narrator's pools, and the margin.
//!
//! The margin is always counted towards success: how far the roll landed on the good side of the
//! line (positive) or short of it (negative). With it a system that reads degrees of success, a
//! push's size or a morale check's shortfall takes the number from the record instead of
//! subtracting by hand in each rule, and a client can show it without knowing which way the
//! system rolls.

pub use crate::direction::Direction;
use crate::event::{Against, Outcome};

/// The verdict on a total: the outcome and how far it landed from the line. The margin is
/// `None` when nothing was compared, and for a hidden target in the record every seat reads
/// (it would tell the target); [`judge_hidden`] gives it for the GM's part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judgement {
    pub outcome: Outcome,
    pub margin: Option<i64>,
}

/// Judges `total` against an open comparison. Opposed totals and pools are beaten, not
/// reached: a tie fails the roller, as the opposed rolls of every system shipped or planned
/// read; a system whose ties go the other way judges from the margin itself.
/// [`Against::Hidden`] has no number here: judge it with [`judge_hidden`].
pub fn judge(total: i64, against: &Against) -> Judgement {
    let by = |direction: Direction, line: i64| {
        let margin = direction.margin(total, line);
        Judgement {
            outcome: verdict(direction.succeeds(margin)),
            margin: Some(margin),
        }
    };
    match against {
        Against::Target(n) => by(Direction::Reach, *n),
        Against::Exceed(n) => by(Direction::Exceed, *n),
        Against::AtMost(n) => by(Direction::AtMost, *n),
        Against::Below(n) => by(Direction::Below, *n),
        Against::Opposed { total: other, .. } | Against::Pool { total: other, .. } => {
            by(Direction::Exceed, *other)
        }
        Against::Nothing | Against::Hidden => Judgement {
            outcome: Outcome::Unjudged,
            margin: None,
        },
    }
}

/// Judges `total` against a target only the GM knows. The outcome goes in the public record
/// (the table sees whether it worked), the margin only beside the target in the GM's part.
pub fn judge_hidden(total: i64, target: i64, direction: Direction) -> Judgement {
    let margin = direction.margin(total, target);
    Judgement {
        outcome: verdict(direction.succeeds(margin)),
        margin: Some(margin),
    }
}

fn verdict(success: bool) -> Outcome {
    if success {
        Outcome::Success
    } else {
        Outcome::Failure
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::EntityId;

    const S: Outcome = Outcome::Success;
    const F: Outcome = Outcome::Failure;

    // Each line: a total, what it is compared with, the outcome and the margin. The four
    // directions at the line, one off on either side; opposed and pool ties fail the roller.
    #[test]
    fn every_comparison_at_and_around_its_line() {
        let pool = |total| Against::Pool {
            name: "challenge dice".into(),
            total,
        };
        let opposed = |total| Against::Opposed {
            entity: EntityId("raider".into()),
            total,
        };
        let cases: Vec<(i64, Against, Outcome, i64)> = vec![
            (11, Against::Target(12), F, -1),
            (12, Against::Target(12), S, 0),
            (15, Against::Target(12), S, 3),
            (15, Against::Exceed(15), F, 0),
            (16, Against::Exceed(15), S, 1),
            (14, Against::Exceed(15), F, -1),
            (7, Against::AtMost(7), S, 0),
            (3, Against::AtMost(7), S, 4),
            (8, Against::AtMost(7), F, -1),
            (7, Against::Below(7), F, 0),
            (6, Against::Below(7), S, 1),
            (9, Against::Below(7), F, -2),
            (9, pool(9), F, 0),
            (11, pool(9), S, 2),
            (4, pool(9), F, -5),
            (13, opposed(13), F, 0),
            (14, opposed(13), S, 1),
        ];
        for (total, against, outcome, margin) in cases {
            assert_eq!(
                judge(total, &against),
                Judgement {
                    outcome,
                    margin: Some(margin)
                },
                "{total} against {against:?}"
            );
        }
    }

    #[test]
    fn nothing_compared_is_unjudged_and_a_hidden_target_is_judged_apart() {
        for against in [Against::Nothing, Against::Hidden] {
            assert_eq!(
                judge(20, &against),
                Judgement {
                    outcome: Outcome::Unjudged,
                    margin: None
                }
            );
        }
        let cases = [
            (12, 12, Direction::Reach, S, 0),
            (12, 12, Direction::Exceed, F, 0),
            (5, 6, Direction::AtMost, S, 1),
            (6, 6, Direction::Below, F, 0),
            (9, 12, Direction::Reach, F, -3),
        ];
        for (total, target, direction, outcome, margin) in cases {
            assert_eq!(
                judge_hidden(total, target, direction),
                Judgement {
                    outcome,
                    margin: Some(margin)
                },
                "{total} against hidden {target} ({direction:?})"
            );
        }
    }

    #[test]
    fn margins_saturate_instead_of_overflowing() {
        assert_eq!(Direction::Reach.margin(i64::MIN, i64::MAX), i64::MIN);
        assert_eq!(Direction::AtMost.margin(i64::MIN, i64::MAX), i64::MAX);
        assert!(Direction::Reach.tie_succeeds() && Direction::AtMost.tie_succeeds());
        assert!(!Direction::Exceed.tie_succeeds() && !Direction::Below.tie_succeeds());
    }
}
