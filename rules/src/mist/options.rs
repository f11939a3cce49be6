//! The table options of mist: one for each point the text leaves open that changes a number
//! or an outcome the server computes. `docs/mist.md` gives the reason for each default.

use crate::options::{OptionKind, OptionSpec, OptionValue, TableOptions, common_options};

/// Who the "a natural 10 always hits" rule covers: the text words it for players.
pub const NATURAL_TEN: &str = "mist.natural_ten";
/// Who may roll for a critical on a damage die showing 10: the text words it for players.
pub const CRITICALS: &str = "mist.criticals";
/// Whether a divided weapon (D10/2, /3, /4) can crit on its raw face of 10.
pub const DIVIDED_CRIT: &str = "mist.divided_crit";
/// The dodge difficulty against a gun: +5 in place of the ranged +3, or both.
pub const GUN_DODGE: &str = "mist.gun_dodge";
/// Whether a successful dodge spends the action as a failed one does.
pub const DODGE_SPENDS: &str = "mist.dodge_spends";
/// Whether a check (not an attack, which the text settles) that lands exactly on its
/// difficulty succeeds.
pub const CHECK_TIES: &str = "mist.check_ties";
/// Which group acts first when two groups' initiatives are equal.
pub const GROUP_TIES: &str = "mist.group_ties";
/// How a group other than the players gets its initiative.
pub const ENEMY_INITIATIVE: &str = "mist.enemy_initiative";
/// Which attribute joins Athletics and Brawl in a hold contest.
pub const HOLD_ATTRIBUTE: &str = "mist.hold_attribute";
/// How half of a bare-handed hit against armour rounds.
pub const UNARMED_ROUNDING: &str = "mist.unarmed_rounding";
/// Which attribute joins the Stealth skill in a hider's check (or `gm`: named per roll).
pub const STEALTH_ATTRIBUTE: &str = "mist.stealth_attribute";
/// Which attribute joins the Perception skill in an active search (or `gm`).
pub const PERCEPTION_ATTRIBUTE: &str = "mist.perception_attribute";
/// Whether a delayed action's holders are asked when another group's combatant declares an
/// action (the interrupt window), or must name `interrupt` themselves.
pub const INTERRUPT_WINDOW: &str = "mist.interrupt_window";
/// Whether Toughness is taken off a stun attack's damage.
pub const STUN_TOUGHNESS: &str = "mist.stun_toughness";

struct Choice {
    key: &'static str,
    help: &'static str,
    choices: &'static [&'static str],
    default: &'static str,
}

const CHOICES: [Choice; 14] = [
    Choice {
        key: NATURAL_TEN,
        help: "A 10 on the attack die hits whatever the difficulty: for `players` only (as the text words it) or for `everyone`.",
        choices: &["players", "everyone"],
        default: "players",
    },
    Choice {
        key: CRITICALS,
        help: "A 10 on the damage die lets the attacker roll for a critical: `players` only (as the text words it) or `everyone`.",
        choices: &["players", "everyone"],
        default: "players",
    },
    Choice {
        key: DIVIDED_CRIT,
        help: "A divided weapon (D10/2, D10/3, D10/4) whose d10 shows 10: `raw_face` rolls for a critical, `never` does not.",
        choices: &["raw_face", "never"],
        default: "raw_face",
    },
    Choice {
        key: GUN_DODGE,
        help: "Dodging a gun: `replaces` raises the difficulty by 5 in place of the ranged 3; `adds` raises it by both (8).",
        choices: &["replaces", "adds"],
        default: "replaces",
    },
    Choice {
        key: DODGE_SPENDS,
        help: "A successful dodge: `yes` spends the dodger's action as a failed one does; `no` leaves it.",
        choices: &["yes", "no"],
        default: "yes",
    },
    Choice {
        key: CHECK_TIES,
        help: "A check other than an attack landing exactly on its difficulty (dodge, consciousness, revive): `succeeds` or `fails`.",
        choices: &["succeeds", "fails"],
        default: "succeeds",
    },
    Choice {
        key: GROUP_TIES,
        help: "Two groups with equal initiative: `players_first` or `enemies_first` (other groups then by name).",
        choices: &["players_first", "enemies_first"],
        default: "players_first",
    },
    Choice {
        key: ENEMY_INITIATIVE,
        help: "A group other than the players: `lowest_body` makes the same Speed check as the players' group (its lowest-Body member rolls); `plain_d10` rolls a d10 alone.",
        choices: &["lowest_body", "plain_d10"],
        default: "lowest_body",
    },
    Choice {
        key: UNARMED_ROUNDING,
        help: "Bare hands deal half damage against armour (halved before Toughness): `down` or `up` for an odd amount.",
        choices: &["down", "up"],
        default: "down",
    },
    Choice {
        key: HOLD_ATTRIBUTE,
        help: "A hold contest (Athletics or Brawl): `body` adds Body, as the other physical checks do; `none` rolls the skill alone.",
        choices: &["body", "none"],
        default: "body",
    },
    Choice {
        key: STEALTH_ATTRIBUTE,
        help: "A Stealth check adds Stealth and this attribute: `body` (as the other checks of moving well do), `senses`, `science`, `willpower`, or `gm`: the GM names it on each roll.",
        choices: &["body", "senses", "science", "willpower", "gm"],
        default: "body",
    },
    Choice {
        key: PERCEPTION_ATTRIBUTE,
        help: "An active Perception check adds Perception and this attribute: `senses` (as passive perception does), `body`, `science`, `willpower`, or `gm`: the GM names it on each roll.",
        choices: &["senses", "body", "science", "willpower", "gm"],
        default: "senses",
    },
    Choice {
        key: INTERRUPT_WINDOW,
        help: "When a combatant declares an attack, a grab or another action and someone of another group holds a delayed action: `offer` asks the holders first whether to act before it (a Speed contest); `never` goes straight on, the holders naming `interrupt` themselves.",
        choices: &["offer", "never"],
        default: "offer",
    },
    Choice {
        key: STUN_TOUGHNESS,
        help: "A stun attack's damage: `subtracts` takes the target's Toughness off it, as off any damage; `ignores` does not.",
        choices: &["subtracts", "ignores"],
        default: "subtracts",
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

/// The chosen value of `key`, or its documented default when the table predates the option.
pub fn choice_of<'a>(options: &'a TableOptions, key: &str) -> &'a str {
    options.choice(key).unwrap_or_else(|| {
        CHOICES
            .iter()
            .find(|c| c.key == key)
            .map_or("", |c| c.default)
    })
}

/// Whether `key` is set to `value` (or defaults to it).
pub fn is(options: &TableOptions, key: &str, value: &str) -> bool {
    choice_of(options, key) == value
}
