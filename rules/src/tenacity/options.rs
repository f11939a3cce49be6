//! The table options of 10acity Tactics: one for each point the text leaves open or states two
//! ways that changes a number the server computes. `docs/tenacity.md` gives the reasons.

use crate::options::{OptionKind, OptionSpec, OptionValue, TableOptions, common_options};

use super::rules::{Combine, PilotBonus, Rounding, SpinGain};

pub const CHALLENGE_DICE: &str = "tenacity.challenge_dice";
pub const SPIN_GAIN: &str = "tenacity.spin_gain";
pub const CRITICALS: &str = "tenacity.criticals";
pub const HARDCORE: &str = "tenacity.hardcore";
pub const PILOT_BONUS: &str = "tenacity.pilot_bonus";
pub const SIZE_ROUNDING: &str = "tenacity.size_rounding";
pub const RECOVERY_SURPLUS: &str = "tenacity.recovery_surplus";
pub const TASK_DONE: &str = "tenacity.task_done";
pub const HELP_RANKS: &str = "tenacity.help_ranks";
pub const INITIATIVE: &str = "tenacity.initiative";

pub fn specs() -> Vec<OptionSpec> {
    let choice = |key, help, choices: &[&'static str], default: &str| OptionSpec {
        key,
        help,
        kind: OptionKind::Choice {
            choices: choices.to_vec(),
        },
        default: OptionValue::Choice(default.into()),
    };
    let mut out = common_options();
    out.extend([
        choice(
            CHALLENGE_DICE,
            "How the narrator's d6 challenge dice make a rating: `sum` adds them (the unconscious challenge is written as a sum of d6s), `highest` keeps the best one.",
            &["sum", "highest"],
            "sum",
        ),
        choice(
            SPIN_GAIN,
            "An action that fails and rolls doubles: `one` Spin for the roll, or `each` (one for the failure, one for the doubles).",
            &["one", "each"],
            "one",
        ),
        choice(
            CRITICALS,
            "Several natural 10s in one pool: `one` extra die for the roll, or `each` ten earns one (all of the kind the player picks).",
            &["one", "each"],
            "one",
        ),
        choice(
            HARDCORE,
            "Hardcore mode: going over maximum stress always marks a wound, and with none left the character perishes.",
            &["off", "on"],
            "off",
        ),
        choice(
            PILOT_BONUS,
            "The pilot's extra +1s: per two ranks of `difference` between pilot skill and maneuverability (the rule), or per two ranks of the `higher` value (the summary).",
            &["difference", "higher"],
            "difference",
        ),
        choice(
            SIZE_ROUNDING,
            "Damage halved against a larger target: rounded `down` or `up`.",
            &["down", "up"],
            "down",
        ),
        choice(
            RECOVERY_SURPLUS,
            "Recovery beyond what heals one wound: `carry` it to the next wound or `lose` it.",
            &["carry", "lose"],
            "carry",
        ),
        choice(
            TASK_DONE,
            "A crafting or timed task is done when accrued impact is `over` the requirement (crafting's wording) or `reach`es it (the timed example's).",
            &["over", "reach"],
            "over",
        ),
        choice(
            INITIATIVE,
            "How turns go: the `spotlight` follows the action (the rule), or the text's optional `group` initiative: each side in turn, any order within it, the highest opening roller choosing which side opens every round, each later side with an advantage die on each one's first check of a round.",
            &["spotlight", "group"],
            "spotlight",
        ),
        choice(
            HELP_RANKS,
            "Who needs a rank in the skill to help: `both` (the Help rule) or the `helper` alone (the action list).",
            &["both", "helper"],
            "both",
        ),
    ]);
    out
}

fn is(options: &TableOptions, key: &str, value: &str) -> bool {
    options.choice(key) == Some(value)
}

pub fn combine(o: &TableOptions) -> Combine {
    if is(o, CHALLENGE_DICE, "highest") {
        Combine::Highest
    } else {
        Combine::Sum
    }
}
pub fn spin_gain(o: &TableOptions) -> SpinGain {
    if is(o, SPIN_GAIN, "each") {
        SpinGain::Each
    } else {
        SpinGain::One
    }
}
pub fn each_critical(o: &TableOptions) -> bool {
    is(o, CRITICALS, "each")
}
pub fn hardcore(o: &TableOptions) -> bool {
    is(o, HARDCORE, "on")
}
pub fn pilot_bonus(o: &TableOptions) -> PilotBonus {
    if is(o, PILOT_BONUS, "higher") {
        PilotBonus::Higher
    } else {
        PilotBonus::Difference
    }
}
pub fn size_rounding(o: &TableOptions) -> Rounding {
    if is(o, SIZE_ROUNDING, "up") {
        Rounding::Up
    } else {
        Rounding::Down
    }
}
pub fn carry_recovery(o: &TableOptions) -> bool {
    !is(o, RECOVERY_SURPLUS, "lose")
}
pub fn task_over(o: &TableOptions) -> bool {
    !is(o, TASK_DONE, "reach")
}
pub fn group_initiative(o: &TableOptions) -> bool {
    is(o, INITIATIVE, "group")
}
pub fn help_needs_both(o: &TableOptions) -> bool {
    !is(o, HELP_RANKS, "helper")
}
