//! vigor d20: the d20 action die plus stepped, bursting bonus dice against a victory sum or
//! Guard; Vigor paid for reactions and recovered each round; Durability, then Health.
//!
//! `docs/vigor.md` lists what the server automates and every table option where the text is
//! silent. Submodules own one rule area each; this file wires them to [`RuleSystem`].

mod ability;
mod actions;
mod attack;
pub mod bonus_dice;
mod care;
mod checks;
pub mod damage;
pub mod guard;
mod harm;
mod item;
mod opening;
mod options;
mod reach;
mod ready;
mod round;
pub mod sheet;
mod tell;
pub mod visibility;

#[cfg(test)]
mod tests;

pub use sheet::{Quality, Sheet, Size};

use crate::action::{ActionSpec, Args};
use crate::decision::{Closing, PendingStep};
use crate::engine::{Ctx, DecideError};
use crate::grid::GridSpec;
use crate::ids::{EntityId, Seat};
use crate::options::OptionSpec;
use crate::refusal::Refusal;
use crate::sheet::SheetError;
use crate::state::{Combatant, Kind, StateView, Status};
use crate::system::{ResourceSpec, RuleSystem};

pub const ID: &str = "vigor";

/// vigor measures in feet. A 5 ft cell makes "within 6 feet" the eight cells around a
/// creature, which is the most creatures the text lets be adjacent.
pub const GRID: GridSpec = GridSpec {
    unit: "ft",
    cell_size: 5,
    covers: &["light", "partial", "full"],
};

/// Resource keys.
pub const VIGOR: &str = "vigor";
pub const DURABILITY: &str = "durability";
pub const HEALTH: &str = "health";
pub const MANA: &str = "mana";
/// Rounds left before Shock kills: a number, so that an NPC's (its Stamina) stays the GM's as
/// every other number of an NPC does; the `shock` status itself is what the table sees.
pub const SHOCK_ROUNDS: &str = "shock_rounds";
/// Actions left this turn.
pub const ACTIONS: &str = "actions";
pub const INITIATIVE: &str = "initiative";

/// Status keys: those the rules set, and those the GM sets by ruling for the rules to read.
pub const WOUNDED: &str = "wounded";
pub const WINDED: &str = "winded";
pub const SHOCK: &str = "shock";
pub const UNCONSCIOUS: &str = "unconscious";
pub const STABILISED: &str = "stabilised";
pub const DEAD: &str = "dead";
pub const DEFENDING: &str = "defending";
pub const PRONE: &str = "prone";
pub const AMBUSHED: &str = "ambushed";
pub const AMBUSHER: &str = "ambusher";
pub const OVER_WATCH: &str = "over_watch";
pub const UNAWARE: &str = "unaware";
/// Magnitude 1 light, 2 partial, 3 full.
pub const COVER: &str = "cover";
pub const INCAPACITATED: &str = "incapacitated";

/// Vigor a Defense reaction costs, and how much Defend takes off it.
pub const DEFENSE_COST: i64 = 5;
pub const DEFEND_DISCOUNT: i64 = 2;
/// Vigor an off-hand attack costs, and the challenges it takes to hit and to damage.
pub const OFF_HAND_COST: i64 = 8;
pub const OFF_HAND_CHALLENGES: i64 = 2;
/// Vigor a Winded creature must get back before it acts again.
pub const WINDED_UNTIL: i64 = 5;
/// Stamina per point of Vigor recovered each round.
pub const STAMINA_PER_VIGOR: i64 = 5;
/// The victory sum of emergency aid and stabilising.
pub const MEDICINE_VS: i64 = 20;

/// The vigor d20 rule system.
pub struct Vigor;

impl RuleSystem for Vigor {
    fn id(&self) -> &'static str {
        ID
    }

    fn options(&self) -> Vec<OptionSpec> {
        options::specs()
    }

    fn grid(&self) -> GridSpec {
        GRID
    }

    fn resources(&self) -> Vec<ResourceSpec> {
        let spec = |key, max| ResourceSpec { key, min: 0, max };
        vec![
            spec(VIGOR, 10_000),
            spec(DURABILITY, 10_000),
            spec(HEALTH, 10_000),
            spec(MANA, 10_000),
            spec(ACTIONS, 20),
            spec(SHOCK_ROUNDS, 10_000),
        ]
    }

    /// A ruled number brings the conditions the rules tie to it, so a ruling cannot leave a
    /// creature at 0 Durability unwounded or at 0 Vigor able to act.
    fn resource_ruled(
        &self,
        ctx: &mut Ctx<'_>,
        target: &EntityId,
        _resource: &str,
        _from: i64,
        _to: i64,
    ) -> Result<(), DecideError> {
        settle(ctx, target, "ruling")
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        sheet::from_toml(text)
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        sheet::from_json(value)
    }

    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
        actions::catalogue(state, seat)
    }

    fn act(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        action: &str,
        args: &Args,
    ) -> Result<(), DecideError> {
        let spec = actions::spec(action, actor).ok_or_else(|| Refusal::UnknownAction {
            system: ID.into(),
            action: action.to_owned(),
        })?;
        args.validate(&spec.args, seat)?;
        if actions::GM_ACTIONS.contains(&action) {
            if !seat.is_gm() {
                return Err(Refusal::forbidden(format!("`{action}` is the GM's")).into());
            }
            return match action {
                "start_encounter" => round::start(ctx),
                "end_encounter" => round::end(ctx),
                "visibility" => visibility::set(ctx, args),
                "spring_ready" => ready::spring(ctx, args, seat),
                "knock_down" => round::knock_down(ctx, args),
                _ => checks::resistance(ctx, args),
            };
        }
        let who = actor.ok_or_else(|| Refusal::bad_argument("actor", "is required: who acts?"))?;
        let c = ctx.combatant(who)?;
        crate::toolkit::controls(seat, &c)?;
        // A creature that cannot act still ends its turn (the GM may end it for it).
        if action == "end_turn" {
            round::require_current(ctx, &c)?;
            return round::end_turn(ctx, &c.id);
        }
        round::require_turn(ctx, &c)?;
        take(ctx, &c, action, args, seat)
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        match step.rule.as_str() {
            attack::STEP_DEFENSE => attack::resume_defense(ctx, step, closing.choice),
            opening::STEP_OPENING => opening::resume(ctx, step, closing.choice),
            other => Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: other.to_owned(),
                problem: "vigor has no such rule step".into(),
            }),
        }
    }
}

/// The vigor sheet of a combatant, or a refusal naming it.
pub fn sheet_of(c: &Combatant) -> Result<&Sheet, Refusal> {
    c.sheet
        .typed::<Sheet>(ID)
        .map_err(|e| Refusal::Rule(format!("{} has no vigor sheet: {e}", c.id)))
}

fn status(source: &str, rounds_left: Option<u32>) -> Option<Status> {
    Some(Status {
        source: source.to_owned(),
        magnitude: 0,
        rounds_left,
    })
}

/// Brings a combatant's conditions in line with its numbers, whatever moved them: Wounded at 0
/// Durability (and no longer once Durability is back), Winded at 0 Vigor until 5 are back,
/// Shock and unconsciousness at 0 Health, waking at 1 Health or more.
pub fn settle(ctx: &mut Ctx<'_>, id: &EntityId, source: &str) -> Result<(), DecideError> {
    let c = ctx.combatant(id)?;
    if c.has_status(DEAD) {
        return Ok(());
    }
    if c.kind == Kind::Object {
        if c.resource(DURABILITY) == 0 {
            ctx.set_status(id, DEAD, status(source, None))?;
        }
        return Ok(());
    }
    let stamina = sheet_of(&c)?.abilities.stamina;
    let durability = c.resource(DURABILITY);
    if durability == 0 && !c.has_status(WOUNDED) {
        ctx.set_status(id, WOUNDED, status(source, None))?;
    } else if durability > 0 && c.has_status(WOUNDED) {
        ctx.set_status(id, WOUNDED, None)?;
    }
    let vigor = c.resource(VIGOR);
    if vigor == 0 && !c.has_status(WINDED) {
        ctx.set_status(id, WINDED, status(source, None))?;
    } else if vigor >= WINDED_UNTIL && c.has_status(WINDED) {
        ctx.set_status(id, WINDED, None)?;
    }
    let health = c.resource(HEALTH);
    if health == 0 && !c.has_status(SHOCK) && !c.has_status(STABILISED) {
        ctx.set_resource(id, SHOCK_ROUNDS, stamina.max(0))?;
        ctx.set_status(id, SHOCK, status(source, None))?;
        ctx.set_status(id, UNCONSCIOUS, status(source, None))?;
    } else if health > 0 {
        end_shock(ctx, &c)?;
        for s in [STABILISED, UNCONSCIOUS] {
            if c.has_status(s) {
                ctx.set_status(id, s, None)?;
            }
        }
    }
    Ok(())
}

/// Shock is over (healed, stabilised, or dead of it): the status goes, and its count with it.
pub fn end_shock(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    if c.has_status(SHOCK) {
        ctx.set_status(&c.id, SHOCK, None)?;
    }
    if c.resource(SHOCK_ROUNDS) != 0 {
        ctx.set_resource(&c.id, SHOCK_ROUNDS, 0)?;
    }
    Ok(())
}

/// Why a creature cannot take actions now, if it cannot.
pub fn cannot_act(c: &Combatant) -> Option<&'static str> {
    [
        (DEAD, "dead"),
        (SHOCK, "in shock"),
        (UNCONSCIOUS, "unconscious"),
        (INCAPACITATED, "incapacitated"),
        (WINDED, "winded: no actions until 5 Vigor are back"),
    ]
    .into_iter()
    .find(|(s, _)| c.has_status(s))
    .map(|(_, why)| why)
}

/// Carries out one of a creature's own actions, paid from its actions: in its turn, or at once
/// as the reaction its readied action became.
fn take(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    action: &str,
    args: &Args,
    seat: &Seat,
) -> Result<(), DecideError> {
    match action {
        "attack" => attack::attack(ctx, c, args),
        "defend" => round::defend(ctx, c),
        "move" => round::movement(ctx, c, args),
        "stand" => round::stand(ctx, c),
        "escape" => opening::escape(ctx, c),
        "use_skill" => checks::use_skill(ctx, c, args),
        "ready" => ready::ready(ctx, c, args, seat),
        "use_ability" => ability::use_ability(ctx, c, args),
        "use_item" => item::use_item(ctx, c, args),
        "emergency_aid" => care::emergency_aid(ctx, c, args),
        "stabilise" => care::stabilise(ctx, c, args),
        _ => Err(Refusal::UnknownAction {
            system: ID.into(),
            action: action.to_owned(),
        }
        .into()),
    }
}
