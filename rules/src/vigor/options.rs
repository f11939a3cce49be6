//! The table options of vigor: one for each point the text leaves open that changes a number
//! the server computes. `docs/vigor.md` lists them with the reason for each default.

use crate::options::{OptionKind, OptionSpec, OptionValue, TableOptions, common_options};

/// What a bonus die showing its highest face does.
pub const BURST: &str = "vigor.burst";
/// Whether a total equal to a victory sum (not Guard, not a reaction) succeeds.
pub const VS_TIE: &str = "vigor.vs_tie";
/// Whether the part of a hit beyond the last point of Durability goes on to Health.
pub const OVERFLOW: &str = "vigor.overflow";
/// Which reading of the weapon-against-armour quality rule applies.
pub const ARMOUR_QUALITY: &str = "vigor.armour_quality";
/// Who goes first on equal initiative.
pub const INITIATIVE_TIES: &str = "vigor.initiative_ties";
/// Damage die sides for the quality ranks the text names without a die.
pub const FEEBLE_DIE: &str = "vigor.feeble_die";
pub const EPIC_DIE: &str = "vigor.epic_die";
pub const LEGENDARY_DIE: &str = "vigor.legendary_die";

const DIE_SIDES: [&str; 6] = ["d4", "d6", "d8", "d10", "d12", "d20"];

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
            BURST,
            "A bonus die on its highest face: `explode` adds another die of the same size, which may burst again; `none` adds nothing (the burst is only named).",
            &["explode", "none"],
            "explode",
        ),
        choice(
            VS_TIE,
            "A check against a victory sum (emergency aid, stabilising) that lands exactly on it: `succeeds` or `fails`. Guard and reactions are always beaten, not reached.",
            &["succeeds", "fails"],
            "succeeds",
        ),
        choice(
            OVERFLOW,
            "The hit that takes Durability to 0: `stop` keeps the rest off Health (only later hits reach it); `carry` sends the rest on to Health.",
            &["stop", "carry"],
            "stop",
        ),
        choice(
            ARMOUR_QUALITY,
            "When a weapon ignores armour: `three_steps` (from heroic up, armour three ranks lower) or `any_superior` (any better weapon).",
            &["three_steps", "any_superior"],
            "three_steps",
        ),
        choice(
            INITIATIVE_TIES,
            "Equal initiative totals: `players_first` or `enemies_first`; within a side, by id.",
            &["players_first", "enemies_first"],
            "players_first",
        ),
        choice(
            FEEBLE_DIE,
            "The damage die of feeble quality (unarmed), which the text does not give.",
            &DIE_SIDES,
            "d6",
        ),
        choice(
            EPIC_DIE,
            "The damage die of epic quality, which the text does not give.",
            &DIE_SIDES,
            "d12",
        ),
        choice(
            LEGENDARY_DIE,
            "The damage die of legendary quality, which the text does not give.",
            &DIE_SIDES,
            "d20",
        ),
    ]);
    out
}

/// The chosen value of `key`, or its documented default when the table predates the option.
pub fn choice_of<'a>(options: &'a TableOptions, key: &str) -> &'a str {
    options.choice(key).unwrap_or_else(|| default_of(key))
}

fn default_of(key: &str) -> &'static str {
    match key {
        BURST => "explode",
        VS_TIE => "succeeds",
        OVERFLOW => "stop",
        ARMOUR_QUALITY => "three_steps",
        INITIATIVE_TIES => "players_first",
        FEEBLE_DIE => "d6",
        EPIC_DIE => "d12",
        LEGENDARY_DIE => "d20",
        _ => "",
    }
}
