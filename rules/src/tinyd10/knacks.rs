//! The level 2-4 abilities that work outside a fight's arithmetic, each paid from the data:
//! - Walk on water (its PP): lasts the cleric's level in minutes, run down by the GM's
//!   `advance_time`;
//! - Disguise (its PP): the GM's `unmask` is an intellect challenge of the watcher against the
//!   rogue, who adds 2;
//! - Cat's paw: the GM's `fall` deals the fall damage the GM names (the text has no falling
//!   rule), halved and rounded down for a rogue with it (its own rounding, not the table's);
//! - Petty thief and Heroics: +2 on a check the player marks as a theft or a heroic act,
//!   shown by name in the line so the GM can judge it;
//! - Apprentice/Familiar: the pact with a willing creature of the companion's numbers costs
//!   its MP; a creature the GM plays is bound only by the GM.
//!
//! Appraise and Polyglot have no number in play: the GM rules them (`docs/tinyd10.md`).

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::ids::Seat;
use crate::refusal::Refusal;
use crate::state::{Combatant, Status};

use super::checks;
use super::content::{Attribute, content};
use super::dice::{Amount, roll_told};
use super::explore::{WALKING_ON_WATER, data};
use super::rolls::{Side, challenge, spend_pp};
use super::round::spend_in_combat;
use super::sheet::Stats;
use super::{ACTION, DEAD, MP, stats_of};

/// A disguised rogue (magnitude: what the disguise adds to resist being seen through).
pub const DISGUISED: &str = "disguised";
/// A wizard's apprentice or familiar (source: the wizard).
pub const COMPANION: &str = "companion";

/// The names `ability` takes for these.
pub const KNACKS: [&str; 3] = ["walk_on_water", "disguise", "apprentice"];

/// What Disguise, Petty thief and Heroics add.
pub const DISGUISE_BONUS: i64 = 2;
pub const DEED_BONUS: i64 = 2;

fn ability_pp(id: &str) -> Result<i64, Refusal> {
    Ok(content()
        .map_err(|e| Refusal::Rule(e.to_string()))?
        .ability(id)
        .and_then(|a| a.pp)
        .unwrap_or(0))
}

fn need(stats: &Stats, c: &Combatant, id: &str) -> Result<(), Refusal> {
    if stats.has_ability(id) {
        Ok(())
    } else {
        Err(Refusal::Rule(format!("{} does not have {id}", c.id)))
    }
}

fn pay(ctx: &mut Ctx<'_>, c: &Combatant, id: &str) -> Result<i64, DecideError> {
    let cost = ability_pp(id)?;
    let have = c.resource(super::PP);
    if have < cost {
        return Err(Refusal::InsufficientResource {
            resource: format!("power points for {id}"),
            needed: cost,
            available: have,
        }
        .into());
    }
    spend_in_combat(ctx, c, ACTION)?;
    spend_pp(ctx, &c.id, cost, id)?;
    Ok(cost)
}

/// `ability` with one of [`KNACKS`].
pub fn knack(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    name: &str,
    args: &Args,
    seat: &Seat,
) -> Result<(), DecideError> {
    need(stats, c, name)?;
    match name {
        "walk_on_water" => {
            let cost = pay(ctx, c, name)?;
            let minutes = stats.level;
            ctx.set_status(
                &c.id,
                WALKING_ON_WATER,
                Some(Status {
                    source: c.id.0.clone(),
                    magnitude: minutes,
                    rounds_left: None,
                }),
            )?;
            ctx.note_about(
                &c.id,
                format!(
                    "{} walks on water for {minutes} minutes (level {minutes}; {cost} PP)",
                    c.id
                ),
            )
        }
        "disguise" => {
            let cost = pay(ctx, c, name)?;
            ctx.set_status(
                &c.id,
                DISGUISED,
                Some(Status {
                    source: c.id.0.clone(),
                    magnitude: DISGUISE_BONUS,
                    rounds_left: None,
                }),
            )?;
            ctx.note_about(
                &c.id,
                format!(
                    "{} takes on a disguise ({cost} PP): seeing through it is an intellect challenge with {} at +{DISGUISE_BONUS}",
                    c.id, c.id
                ),
            )
        }
        _ => pact(ctx, c, args, seat),
    }
}

/// What a player hears whenever a pact with a creature the GM plays is refused: always these
/// words, so the refusal says nothing of the creature's numbers or mind.
pub const PACT_IS_THE_GMS: &str = "a pact binds a willing creature, and whether a creature the GM plays is willing is the GM's to say: ask the GM, who makes the pact for the wizard";

/// Apprentice/Familiar: a pact with a willing `target`, which must have the companion's
/// toughness and HP (T5, 4-6 HP), for its MP.
///
/// Willing means: a creature of the wizard's own player, or one the GM plays when the GM sends
/// the pact (the GM's word that it agrees). A player's pact with a creature the GM plays, or
/// whose numbers are the GM's, is refused with the same words whatever the creature is, so a
/// refusal cannot be used to probe its numbers; another seat's character is never bound from
/// here (its player is not asked).
fn pact(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args, seat: &Seat) -> Result<(), DecideError> {
    let a = &data()?.apprentice;
    let t = ctx.combatant(&args.require_entity("target")?)?;
    if t.id == c.id {
        return Err(
            Refusal::bad_argument("target", "a living creature other than the wizard").into(),
        );
    }
    if let Some(owner) = t.owner.as_ref().filter(|o| Some(*o) != c.owner.as_ref()) {
        return Err(Refusal::forbidden(format!(
            "{} is played by {owner}: a pact binds a willing creature, and another player's character agrees only through its own seat",
            t.id
        ))
        .into());
    }
    if !seat.is_gm() && (t.owner.is_none() || crate::redact::gm_only_numbers(&t)) {
        return Err(Refusal::forbidden(PACT_IS_THE_GMS).into());
    }
    if t.has_status(DEAD) {
        return Err(
            Refusal::bad_argument("target", "a living creature other than the wizard").into(),
        );
    }
    if let Some(s) = t.statuses.get(COMPANION) {
        return Err(Refusal::Rule(format!("{} is already {}'s companion", t.id, s.source)).into());
    }
    let ts = stats_of(&t)?;
    if ts.toughness != a.toughness || !(a.hp_least..=a.hp_most).contains(&ts.hp_max) {
        return Err(Refusal::Rule(format!(
            "an apprentice or familiar is T{} with {}-{} HP: give {} those numbers",
            a.toughness, a.hp_least, a.hp_most, t.id
        ))
        .into());
    }
    let have = c.resource(MP);
    if have < a.pact_mp {
        return Err(Refusal::InsufficientResource {
            resource: "magic points for the pact".into(),
            needed: a.pact_mp,
            available: have,
        }
        .into());
    }
    spend_in_combat(ctx, c, ACTION)?;
    ctx.set_resource(&c.id, MP, have - a.pact_mp)?;
    ctx.set_status(
        &t.id,
        COMPANION,
        Some(Status {
            source: c.id.0.clone(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(
        &c.id,
        format!(
            "{} makes a pact with {} ({} MP): an apprentice or familiar",
            c.id, t.id, a.pact_mp
        ),
    )
}

/// The GM's `unmask`: `watcher` tries to see through the disguise of `of`, an intellect
/// challenge in which the disguised one adds 2.
pub fn unmask(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let watcher = ctx.combatant(&args.require_entity("watcher")?)?;
    let of = ctx.combatant(&args.require_entity("of")?)?;
    let bonus = of
        .statuses
        .get(DISGUISED)
        .map(|s| s.magnitude)
        .ok_or_else(|| Refusal::Rule(format!("{} wears no disguise", of.id)))?;
    ctx.telling = None;
    let w = challenge(
        ctx,
        Side {
            who: &watcher,
            attribute: Attribute::Intellect,
            extra: Vec::new(),
        },
        Side {
            who: &of,
            attribute: Attribute::Intellect,
            extra: vec![Modifier::new("disguise", bonus)],
        },
        "see through a disguise",
    )?;
    let text = match w {
        checks::Winner::Starter => format!("{} sees through {}'s disguise", watcher.id, of.id),
        checks::Winner::Resister => format!("{}'s disguise fools {}", of.id, watcher.id),
    };
    ctx.note_about(&of.id, text)
}

/// The GM's `fall`: `target` falls and takes the `damage` the GM names (an amount: 3, 1d10,
/// 1d5+2); Cat's paw halves it, rounded down.
pub fn fall(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let t = ctx.combatant(&args.require_entity("target")?)?;
    if t.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is dead", t.id)).into());
    }
    let amount = Amount::try_from(args.require_text("damage")?.to_owned()).map_err(|e| {
        Refusal::bad_argument("damage", &format!("{e}; an amount: 3, 1d5, 1d10, 1d5+2"))
    })?;
    if amount.plus_level {
        return Err(Refusal::bad_argument("damage", "a fall's damage does not add a level").into());
    }
    let stats = stats_of(&t)?;
    let r = roll_told(ctx, &t.id, "fall damage", amount, stats.level)?;
    let mut steps = r.steps;
    let mut value = r.value;
    if stats.has_ability("cats_paw") {
        let halved = checks::halve(value, false);
        steps.push(Modifier::new(
            "cat's paw: halved, rounded down",
            halved - value,
        ));
        value = halved;
    }
    ctx.telling = Some(Telling {
        actor: None,
        verb: "deals damage to".into(),
        target: Some(t.id.clone()),
        instrument: Some("a fall".into()),
    });
    super::harm::damage(ctx, &t.id, value, steps, None, false)?;
    ctx.telling = None;
    Ok(())
}

/// What a check marked as a kind of act adds: Petty thief +2 to conceal, steal or pilfer,
/// Heroics +2 to a heroic act, each named so the GM can judge it.
pub fn deed_bonus(stats: &Stats, deed: Option<&str>) -> Result<Vec<Modifier>, Refusal> {
    let (ability, label) = match deed {
        None => return Ok(Vec::new()),
        Some("theft") => ("petty_thief", "petty thief (the GM's discretion)"),
        Some("heroic") => ("heroics", "heroics (the GM's discretion)"),
        Some(_) => return Err(Refusal::bad_argument("deed", "theft or heroic")),
    };
    Ok(if stats.has_ability(ability) {
        vec![Modifier::new(label, DEED_BONUS)]
    } else {
        Vec::new()
    })
}
