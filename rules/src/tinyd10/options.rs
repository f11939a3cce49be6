//! The table options of Tiny d10: one for each point `rules/tinyd10.md` lists as open that
//! changes a number or an outcome the server computes. `docs/tinyd10.md` gives the reason for
//! each default.

use crate::options::{OptionKind, OptionSpec, OptionValue, TableOptions, common_options};

use super::checks::TieRule;
use super::dice::D5;

/// How a 1d5 is made from the game's single d10 (A5).
pub const D5_FROM: &str = "tinyd10.d5";
/// Whether a check or save landing exactly on its toughness succeeds (A1).
pub const CHECK_TIES: &str = "tinyd10.check_ties";
/// What a tied challenge does (A2).
pub const CHALLENGE_TIES: &str = "tinyd10.challenge_ties";
/// Which of two creatures with equal reflex acts first after their tie-break roll (A3).
pub const INITIATIVE_TIES: &str = "tinyd10.initiative_ties";
/// Whether PP added to a roll are spent (A4).
pub const PP_SPENT: &str = "tinyd10.pp_spent";
/// Whether the round a character drops to 0 HP counts as the first of its five (A6).
pub const DYING_COUNT: &str = "tinyd10.dying_count";
/// Whether NPCs and monsters die at 0 HP or lie dying as characters do (A6).
pub const NPC_AT_ZERO: &str = "tinyd10.npc_at_zero";
/// Whether "rolls a 10" / "a 1" reads the die's face or the total (A7).
pub const NATURAL: &str = "tinyd10.natural";
/// How a halved amount rounds (A8).
pub const HALVING: &str = "tinyd10.halving";
/// What standard healing's "1-2" gives (A9).
pub const STANDARD_HEAL: &str = "tinyd10.standard_heal";
/// Whom "more than half of its allies" counts (A13).
pub const MORALE_COUNT: &str = "tinyd10.morale_count";
/// Whether "allies within earshot" includes the one speaking (A20).
pub const EARSHOT: &str = "tinyd10.earshot";
/// Whom Magical disruption covers besides its bearer: "nearby allies" has no distance.
pub const DISRUPTION: &str = "tinyd10.disruption";
/// Enchanted healing's rate, which the text does not give.
pub const ENCHANTED_HEALING: &str = "tinyd10.enchanted_healing";
/// Whether a spell on several creatures rolls its amount once for all or once for each.
pub const AREA_DICE: &str = "tinyd10.area_dice";
/// Imprint spell's cost, which the text does not give.
pub const IMPRINT_COST: &str = "tinyd10.imprint_cost";
/// Whether Call to battle's "all allies" include the cleric who calls.
pub const CALL_TO_BATTLE: &str = "tinyd10.call_to_battle";
/// How the wandering monster check's "1 in 5" reads on the dice (A19).
pub const WANDERING: &str = "tinyd10.wandering";
/// What a trap's bare damage range ("2-3", "1-2") gives (A9).
pub const TRAP_DAMAGE: &str = "tinyd10.trap_damage";

/// Whether a firestorm's "+1 damage per combat round" grows by one each round (A17).
pub const FIRESTORM_DAMAGE: &str = "tinyd10.firestorm";

struct Choice {
    key: &'static str,
    help: &'static str,
    choices: &'static [&'static str],
    default: &'static str,
}

const CHOICES: [Choice; 20] = [
    Choice {
        key: D5_FROM,
        help: "A 1d5: `draw` takes a five-sided draw of the fair stream; `half_d10` rolls a d10 and halves it, rounding up.",
        choices: &["draw", "half_d10"],
        default: "draw",
    },
    Choice {
        key: CHECK_TIES,
        help: "A check or save equal to its toughness: `succeeds` (as attacks do) or `fails`.",
        choices: &["succeeds", "fails"],
        default: "succeeds",
    },
    Choice {
        key: CHALLENGE_TIES,
        help: "A tied challenge: `resister` (the one resisting holds, nothing changes) or `reroll` (both roll again).",
        choices: &["resister", "reroll"],
        default: "resister",
    },
    Choice {
        key: INITIATIVE_TIES,
        help: "Equal reflex: each rolls a d10, `higher_first` or `lower_first`; a new tie rolls again.",
        choices: &["higher_first", "lower_first"],
        default: "higher_first",
    },
    Choice {
        key: PP_SPENT,
        help: "PP added to a roll: `spent` (they leave the pool) or `kept` (a bonus up to the pool).",
        choices: &["spent", "kept"],
        default: "spent",
    },
    Choice {
        key: DYING_COUNT,
        help: "The round a character drops to 0 HP: `after_drop` (the five rounds start after it) or `drop_counts` (it is the first).",
        choices: &["after_drop", "drop_counts"],
        default: "after_drop",
    },
    Choice {
        key: NPC_AT_ZERO,
        help: "An NPC or monster at 0 HP: `dies` at once, or lies `dying` as characters do.",
        choices: &["dies", "dying"],
        default: "dies",
    },
    Choice {
        key: NATURAL,
        help: "\"Rolls a 10\" and \"rolls a 1\": the die's `face`, or the `total`.",
        choices: &["face", "total"],
        default: "face",
    },
    Choice {
        key: HALVING,
        help: "A halved amount (a save against Sunburst or Ray of death, Dumbstruck's rounds on a save): rounded `down` or `up`.",
        choices: &["down", "up"],
        default: "down",
    },
    Choice {
        key: STANDARD_HEAL,
        help: "Standard healing's 1-2 HP, MP and PP: `rolled` (a d2 each), `one` or `two`.",
        choices: &["rolled", "one", "two"],
        default: "rolled",
    },
    Choice {
        key: MORALE_COUNT,
        help: "\"More than half of its allies slain\": out of the `others` in the group, or the `whole` group.",
        choices: &["others", "whole"],
        default: "others",
    },
    Choice {
        key: EARSHOT,
        help: "Words of healing and strength reach allies within earshot: `with_speaker` or `allies_only`.",
        choices: &["with_speaker", "allies_only"],
        default: "with_speaker",
    },
    Choice {
        key: DISRUPTION,
        help: "Magical disruption's \"nearby allies\" has no distance: every able ally on the bearer's side (`side`), or the bearer alone (`bearer`).",
        choices: &["side", "bearer"],
        default: "side",
    },
    Choice {
        key: CALL_TO_BATTLE,
        help: "Call to battle's \"all allies\" roll for an extra attack: the `others` of the cleric's side, or `with_caller`, the cleric too.",
        choices: &["others", "with_caller"],
        default: "others",
    },
    Choice {
        key: ENCHANTED_HEALING,
        help: "Enchanted healing turns MP into HP at no stated rate: `ruling` (refused; the GM sets MP and HP) or `one_each` (1 HP a MP).",
        choices: &["ruling", "one_each"],
        default: "ruling",
    },
    Choice {
        key: WANDERING,
        help: "The wandering monster check's 1 in 5: `d10` (a d10 of 1 or 2) or `d5` (a 1 on a d5, made as `tinyd10.d5` says).",
        choices: &["d10", "d5"],
        default: "d10",
    },
    Choice {
        key: TRAP_DAMAGE,
        help: "A trap's damage written as a bare range (2-3, 1-2): `rolled` (a die as wide as the range, from its low end), `low` or `high`.",
        choices: &["rolled", "low", "high"],
        default: "rolled",
    },
    Choice {
        key: AREA_DICE,
        help: "Fireball II's damage and Healing wave's healing on several creatures: `one_roll` for all of them, or a roll for `each`.",
        choices: &["one_roll", "each"],
        default: "one_roll",
    },
    Choice {
        key: IMPRINT_COST,
        help: "Imprint spell has no cost in the text: `ruling` (refused until the table picks one), or `free`, `one`, `two` MP.",
        choices: &["ruling", "free", "one", "two"],
        default: "ruling",
    },
    Choice {
        key: FIRESTORM_DAMAGE,
        help: "A firestorm's +1 damage per round to each creature in it: `flat` (1 every round) or `cumulative` (1 in its first round, 2 in its second, and so on).",
        choices: &["flat", "cumulative"],
        default: "flat",
    },
];

pub fn specs() -> Vec<OptionSpec> {
    let mut out = common_options();
    out.extend(CHOICES.iter().map(|c| OptionSpec {
        key: c.key,
        help: c.help,
        kind: OptionKind::Choice {
            choices: c.choices.to_vec(),
        },
        default: OptionValue::Choice(c.default.into()),
    }));
    out
}

/// The chosen value of `key`, or its documented default.
pub fn choice_of<'a>(options: &'a TableOptions, key: &str) -> &'a str {
    options.choice(key).unwrap_or_else(|| {
        CHOICES
            .iter()
            .find(|c| c.key == key)
            .map_or("", |c| c.default)
    })
}

pub fn is(options: &TableOptions, key: &str, value: &str) -> bool {
    choice_of(options, key) == value
}

pub fn d5(options: &TableOptions) -> D5 {
    if is(options, D5_FROM, "half_d10") {
        D5::HalfD10
    } else {
        D5::Draw
    }
}

pub fn challenge_ties(options: &TableOptions) -> TieRule {
    if is(options, CHALLENGE_TIES, "reroll") {
        TieRule::Reroll
    } else {
        TieRule::Resister
    }
}
