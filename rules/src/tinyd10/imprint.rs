//! Imprint spell: a wizard learns, until the fight ends, a magical spell that someone cast in
//! this fight, and then casts it at its own cost. The text gives Imprint spell itself no cost:
//! the table picks one (`tinyd10.imprint_cost`), and until it does the casting is refused. The
//! server remembers which magical spells each creature cast this fight; a player's wizard may
//! imprint only what a player's character cast, since what the GM's casters cast is the GM's
//! (the table hears "casts a spell"); the GM's wizard may imprint any.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::content::{Spell, SpellKind, content};
use super::options::{IMPRINT_COST, choice_of};

pub const ID: &str = "imprint_spell";
/// The magical spells a creature cast this fight (source: their ids, comma-separated).
pub const CAST: &str = "spells_cast";
/// The spells a wizard imprinted (source: their ids, comma-separated).
pub const IMPRINTED: &str = "imprinted";

fn ids(c: &Combatant, key: &str) -> Vec<String> {
    c.statuses
        .get(key)
        .map(|s| {
            s.source
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `c` imprinted `spell` this fight.
pub fn imprinted(c: &Combatant, spell: &str) -> bool {
    ids(c, IMPRINTED).iter().any(|s| s == spell)
}

/// Imprint spell's cost as the table set it; refused while it is the GM's to rule.
pub fn cost(ctx: &Ctx<'_>) -> Result<i64, Refusal> {
    match choice_of(ctx.state.options(), IMPRINT_COST) {
        "free" => Ok(0),
        "one" => Ok(1),
        "two" => Ok(2),
        _ => Err(Refusal::Rule(
            "the text gives Imprint spell no cost: the table sets one first (tinyd10.imprint_cost)"
                .into(),
        )),
    }
}

/// Checks the spell `c` would imprint (`imprint`), before anything is paid: magical, cast this
/// fight by a creature whose spells `c`'s seat may know of, not already known.
pub fn check(ctx: &Ctx<'_>, c: &Combatant, args: &Args) -> Result<String, Refusal> {
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter);
    }
    let id = args.require_text("imprint")?;
    let data = content().map_err(|e| Refusal::Rule(e.to_string()))?;
    let spell = data
        .spell(id)
        .ok_or_else(|| Refusal::bad_argument("imprint", "is not a spell of the text"))?;
    if spell.kind != SpellKind::Magical {
        return Err(Refusal::bad_argument("imprint", "takes a magical spell"));
    }
    let player = !crate::redact::gm_only_numbers(c);
    let seen = ctx
        .state
        .combatant_ids()
        .into_iter()
        .filter_map(|i| ctx.state.combatant(&i).cloned())
        .filter(|o| !(player && crate::redact::gm_only_numbers(o)))
        .any(|o| ids(&o, CAST).iter().any(|s| s == id));
    if !seen {
        return Err(Refusal::Rule(format!(
            "nobody {}has cast {} in this fight",
            if player { "of the players' " } else { "" },
            spell.name
        )));
    }
    Ok(spell.id.clone())
}

/// `c` imprints `spell` for the fight.
pub fn learn(ctx: &mut Ctx<'_>, c: &Combatant, spell: &str) -> Result<(), DecideError> {
    add(ctx, &c.id, IMPRINTED, spell)?;
    ctx.note_about(
        &c.id,
        format!("{} imprints {spell} until the fight ends", c.id),
    )
}

/// After `c` cast `spell` in a fight: a magical one is remembered for Imprint spell.
pub fn remember(ctx: &mut Ctx<'_>, c: &Combatant, spell: &Spell) -> Result<(), DecideError> {
    if spell.kind != SpellKind::Magical || spell.id == ID || !ctx.state.encounter().active {
        return Ok(());
    }
    add(ctx, &c.id, CAST, &spell.id)
}

fn add(ctx: &mut Ctx<'_>, who: &EntityId, key: &str, spell: &str) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    let mut list = ids(&c, key);
    if list.iter().any(|s| s == spell) {
        return Ok(());
    }
    list.push(spell.to_owned());
    super::call::mark(
        ctx,
        who,
        key,
        Some(Status {
            source: list.join(","),
            magnitude: 0,
            rounds_left: None,
        }),
    )
}

/// The fight is over: what was seen and imprinted is forgotten.
pub fn fight_over(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    for key in [CAST, IMPRINTED] {
        if ctx.combatant(who)?.has_status(key) {
            super::call::mark(ctx, who, key, None)?;
        }
    }
    Ok(())
}
