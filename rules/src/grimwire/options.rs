//! GRIMWIRE's table options: one per point where the text is silent or self-contradictory.
//! Defaults and reasons are documented in `docs/grimwire.md`.

use crate::options::{OptionKind, OptionSpec, OptionValue, TableOptions, common_options};

pub const MOVE_BASE_M: &str = "grimwire.move_base_m";
pub const COLLATERAL: &str = "grimwire.collateral";
pub const COLLATERAL_POOL: &str = "grimwire.collateral_pool";
pub const HEAVY_TOG_TN: &str = "grimwire.heavy_tog_tn";
pub const HEAVY_MISFIRE: &str = "grimwire.heavy_misfire";
pub const DYING_TICK: &str = "grimwire.dying_tick";
pub const IDLE_TURNS: &str = "grimwire.idle_turns";
pub const END_SPENT_TURNS: &str = "grimwire.end_spent_turns";
pub const ALIAS_INT: &str = "grimwire.alias_int";
pub const ALIAS_STR: &str = "grimwire.alias_str";
pub const ALIAS_SOC: &str = "grimwire.alias_soc";
pub const HALF_ROUNDING: &str = "grimwire.half_rounding";
pub const HIDE_TNS: &str = "grimwire.hide_tns";
pub const SAME_SIDE_TIES: &str = "grimwire.same_side_ties";
pub const STABILISE_TN_BASE: &str = "grimwire.stabilise_tn_base";
pub const TERROR_TN: &str = "grimwire.terror_tn";
pub const SHOVE_TOG_TN: &str = "grimwire.shove_tog_tn";
pub const KEEP_FEET_TN: &str = "grimwire.keep_feet_tn";
pub const COVER_BONUS: &str = "grimwire.cover_bonus";
pub const ARMOUR_AGL: &str = "grimwire.armour_agl";
pub const SHIELD_OTHERS: &str = "grimwire.shield_others";
pub const TERRAIN_TN: &str = "grimwire.terrain_tn";
pub const GRAPPLE_HOLD_TN: &str = "grimwire.grapple_hold_tn";
pub const GRAPPLE_MOVE_TN: &str = "grimwire.grapple_move_tn";

fn choice(key: &'static str, help: &'static str, choices: Vec<&'static str>) -> OptionSpec {
    let default = OptionValue::Choice(choices[0].to_owned());
    OptionSpec {
        key,
        help,
        kind: OptionKind::Choice { choices },
        default,
    }
}

const ATTRS: [&str; 6] = ["TOG", "AGL", "COR", "MND", "PER", "RSN"];

fn alias(key: &'static str, help: &'static str, default: &'static str) -> OptionSpec {
    OptionSpec {
        key,
        help,
        kind: OptionKind::Choice {
            choices: ATTRS.to_vec(),
        },
        default: OptionValue::Choice(default.to_owned()),
    }
}

pub fn specs() -> Vec<OptionSpec> {
    let mut out = common_options();
    out.extend([
        OptionSpec {
            key: MOVE_BASE_M,
            help: "Base movement per turn in metres, before AGL adds or removes 1 m per point (the text gives no base).",
            kind: OptionKind::Int { min: 0, max: 100 },
            default: OptionValue::Int(6),
        },
        choice(COLLATERAL, "On a natural 1 on an attack: ask the GM whether it causes collateral damage (ask_gm), always roll it (always), or never (never).", vec!["ask_gm", "always", "never"]),
        choice(COLLATERAL_POOL, "Who a collateral hit can land on: anyone within 3 m of the intended target, the target included (with_target, the Collateral Damage section), or not (without_target, the Friendly Fire example).", vec!["with_target", "without_target"]),
        OptionSpec {
            key: HEAVY_TOG_TN,
            help: "TN of the TOG roll made before each attack with a heavy weapon whose TOG requirement the wielder does not meet (not in the text).",
            kind: OptionKind::Int { min: 1, max: 40 },
            default: OptionValue::Int(11),
        },
        choice(HEAVY_MISFIRE, "Natural faces that risk collateral damage with a heavy weapon below its TOG requirement: up to the requirement (requirement), or up to 1 + the shortfall (deficit).", vec!["requirement", "deficit"]),
        choice(DYING_TICK, "When a dying character loses 1 Condition: at the start (turn_start) or end (turn_end) of their turn.", vec!["turn_start", "turn_end"]),
        OptionSpec {
            key: END_SPENT_TURNS,
            help: "House rule for quick play: a turn ends by itself once its action is spent, no further attack is left in it and no movement can be made (off the grid, closed or used up), giving up the auxiliary and free actions left (the book keeps them: false).",
            kind: OptionKind::Bool,
            default: OptionValue::Bool(false),
        },
        choice(IDLE_TURNS, "A turn its character cannot use (dying or out cold): it passes by itself (pass), or waits for its seat to end it (wait).", vec!["pass", "wait"]),
        alias(ALIAS_INT, "Which attribute an INT roll uses (the text names INT but never defines it).", "MND"),
        alias(ALIAS_STR, "Which attribute a STR roll uses (grappling names STR, never defined).", "TOG"),
        alias(ALIAS_SOC, "Which attribute a SOC roll uses (paralysis names SOC, never defined).", "PER"),
        choice(HALF_ROUNDING, "How halved damage (resistance, opposed-roll ties) rounds: down or up. A hit still does at least 1.", vec!["down", "up"]),
        OptionSpec {
            key: HIDE_TNS,
            help: "Keep the target numbers of GM-called checks and NPC defences hidden from players (the text's default practice).",
            kind: OptionKind::Bool,
            default: OptionValue::Bool(true),
        },
        choice(SAME_SIDE_TIES, "Initiative ties on the same side: the tied characters choose who goes first at the start of every round (ask, as the text says), only once at the start of the encounter (ask_once), or they keep sheet-id order (fixed).", vec!["ask", "ask_once", "fixed"]),
        OptionSpec {
            key: STABILISE_TN_BASE,
            help: "Stabilising TN when the GM gives none: this base plus how far below 0 the dying character's Condition is.",
            kind: OptionKind::Int { min: 1, max: 40 },
            default: OptionValue::Int(10),
        },
        OptionSpec {
            key: TERROR_TN,
            help: "TN of the MND roll a terrified character makes at the start of each turn (the text gives none; 11 is its usual fixed TN).",
            kind: OptionKind::Int { min: 1, max: 40 },
            default: OptionValue::Int(11),
        },
        tn_option(SHOVE_TOG_TN, "TN of the TOG roll that pushes a shoved character back, once the shove has landed (the text gives none)."),
        OptionSpec {
            key: COVER_BONUS,
            help: "What cover adds to AGL against ranged and thrown attacks (the text gives no number).",
            kind: OptionKind::Int { min: 0, max: 20 },
            default: OptionValue::Int(2),
        },
        OptionSpec {
            key: ARMOUR_AGL,
            help: "AGL a player's character loses for each point of TOG its armour's requirement is above theirs (the text names a penalty and no number).",
            kind: OptionKind::Int { min: 0, max: 10 },
            default: OptionValue::Int(1),
        },
        choice(SHIELD_OTHERS, "Before an attack on someone with an ally within 3 m who could shield them: ask the players whose characters could (players), ask the GM for the GM's characters too (all), or never pause an attack for it (never).", vec!["players", "all", "never"]),
        tn_option(TERRAIN_TN, "TN of the AGL roll to move through difficult terrain, when the GM gives none for how difficult it is (the text gives none)."),
        tn_option(GRAPPLE_HOLD_TN, "TN of the TOG or COR roll that holds a grabbed character (the text gives none)."),
        tn_option(GRAPPLE_MOVE_TN, "TN of the TOG or AGL roll a grappler makes once a turn to move, carrying whom they hold (the text sets it by the weight and gives no number)."),
        tn_option(KEEP_FEET_TN, "TN of the AGL roll a shoved character makes to stay on their feet, when the GM gives none for the shove's force and the ground (the text gives none)."),
    ]);
    out
}

/// A target number the text leaves unsaid: 11, its usual fixed TN, unless the table says.
fn tn_option(key: &'static str, help: &'static str) -> OptionSpec {
    OptionSpec {
        key,
        help,
        kind: OptionKind::Int { min: 1, max: 40 },
        default: OptionValue::Int(11),
    }
}

/// Reads a choice option, falling back to the spec's default.
pub fn choice_of<'a>(opts: &'a TableOptions, key: &str) -> &'a str {
    opts.choice(key).unwrap_or_else(|| default_choice(key))
}

fn default_choice(key: &str) -> &'static str {
    specs()
        .into_iter()
        .find(|s| s.key == key)
        .and_then(|s| match s.kind {
            OptionKind::Choice { choices } => choices.first().copied(),
            _ => None,
        })
        .unwrap_or("")
}

pub fn int_of(opts: &TableOptions, key: &str) -> i64 {
    opts.int(key).unwrap_or_else(|| {
        specs()
            .into_iter()
            .find(|s| s.key == key)
            .and_then(|s| match s.default {
                OptionValue::Int(i) => Some(i),
                _ => None,
            })
            .unwrap_or(0)
    })
}

pub fn flag_of(opts: &TableOptions, key: &str) -> bool {
    opts.flag(key).unwrap_or(true)
}
