//! Tiny d10: Fantasy: checks of a d10 plus an attribute and a point per relevant skill against
//! a toughness; characters built from a race, a class and split points; power points added to
//! rolls and spent on class abilities; magic points spent on spells that hit unless they say
//! they roll; combat in reflex order, one attack, ability or spell and one move a turn (save
//! where an ability grants more); 0 HP dying for five rounds; morale when a monster's allies
//! fall.
//!
//! `docs/tinyd10.md` lists what the server automates and every table option where the text is
//! silent. Submodules own one rule area each; this file wires them to [`RuleSystem`].

mod actions;
mod afflict;
mod areas;
mod army;
mod attack;
mod boons;
mod call;
mod care;
pub(crate) mod cast;
pub mod checks;
mod companion;
pub mod content;
mod crawl;
pub mod dice;
mod explore;
mod faces;
mod grounds;
mod harm;
mod imprint;
mod knacks;
mod lasting;
mod levelling;
mod lock;
mod mending;
mod morale;
mod moving;
pub(crate) mod options;
mod presence;
mod rolls;
mod round;
mod rush;
pub mod sheet;
mod splash;
mod strike;
mod tell;
mod turnabout;
mod will;

#[cfg(test)]
mod tests;

pub use sheet::Sheet;

use crate::action::{ActionSpec, Args};
use crate::decision::{Closing, PendingStep};
use crate::engine::{Ctx, DecideError};
use crate::grid::GridSpec;
use crate::ids::{EntityId, Seat};
use crate::options::OptionSpec;
use crate::refusal::Refusal;
use crate::sheet::SheetError;
use crate::state::{Combatant, StateView};
use crate::system::{Happening, ResourceSpec, RuleSystem};

use sheet::Stats;

pub const ID: &str = "tinyd10";

/// Tiny d10 measures in feet; 5 ft cells.
pub const GRID: GridSpec = GridSpec {
    unit: "ft",
    cell_size: 5,
    covers: &[],
};

/// Resource keys.
pub const HP: &str = "hp";
pub const PP: &str = "pp";
pub const MP: &str = "mp";
pub const TEMP_HP: &str = "temp_hp";
/// The turn's attack, ability or spell (1 while still to take).
pub const ACTION: &str = "action";
/// The turn's movement sequence (1 while still to take).
pub const MOVE: &str = "move";

/// Status keys. Dying carries the round of the drop as magnitude and the rounds left.
pub const DYING: &str = "dying";
pub const DEAD: &str = "dead";
pub const UNCONSCIOUS: &str = "unconscious";
pub const PRONE: &str = "prone";
/// Critical strike's daze (magnitude: what it takes off every roll) and Radiant strike's
/// blindness (off attacks and reflex), each with its rounds left.
pub const DAZED: &str = "dazed";
pub const BLINDED: &str = "blinded";
/// Call to battle answered: an extra attack on the next turn (`called_to_battle`), and during
/// that turn (`extra_attack`).
pub const CALLED: &str = "called_to_battle";
pub const EXTRA_ATTACK: &str = "extra_attack";
/// Paralyzing strike's paralysis (rounds left): no turn, no action, no answer.
pub const PARALYZED: &str = "paralyzed";
/// Disarm's loss: bare hands only until the GM rules the weapon back in hand.
pub const DISARMED: &str = "disarmed";
/// The lasting abilities: Magical power's +1 toughness, Prying eye's -2 on a foe, Bless
/// weapon's blessing (its source the weapon), Appeal to heaven (rounds left), and Thunderous
/// blow's doubled bonuses for the round.
pub const MAGICAL_POWER: &str = "magical_power";
pub const PRIED: &str = "prying_eye";
pub const BLESSED_WEAPON: &str = "bless_weapon";
pub const APPEAL: &str = "appeal_to_heaven";
pub const THUNDEROUS: &str = "thunderous_blow";
/// Commanding presence, for the fight.
pub const COMMANDING: &str = "commanding_presence";
/// A Fanged strike's blow on its way: the damage it deals heals the rogue.
pub const FANGED: &str = "fanged_strike";
/// A Tactical retreat open this turn; its source is the opponent retreated from.
pub const RETREAT: &str = "tactical_retreat";

/// The Tiny d10: Fantasy rule system.
pub struct TinyD10;

impl RuleSystem for TinyD10 {
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
        let pool = |key| ResourceSpec {
            key,
            min: 0,
            max: 10_000,
        };
        let slot = |key| ResourceSpec {
            key,
            min: 0,
            max: 1,
        };
        vec![
            pool(HP),
            pool(PP),
            pool(MP),
            pool(TEMP_HP),
            pool(levelling::XP),
            slot(ACTION),
            slot(MOVE),
        ]
    }

    fn resource_ruled(
        &self,
        ctx: &mut Ctx<'_>,
        target: &EntityId,
        resource: &str,
        from: i64,
        to: i64,
    ) -> Result<(), DecideError> {
        if resource == HP {
            harm::hp_ruled(ctx, target, from, to)?;
        }
        Ok(())
    }

    fn player_edit(&self, old: &Combatant, new: &Combatant) -> Result<(), Refusal> {
        levelling::player_edit(old, new)
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
                "challenge" => rolls::challenge_action(ctx, args),
                "save" => rolls::save_action(ctx, args),
                "morale" => morale::check_action(ctx, args),
                "reaction" => morale::reaction(ctx),
                "award_xp" => levelling::award(ctx, args),
                "wander" => explore::wander(ctx, args),
                "lost" => explore::lost(ctx, args),
                "advance_time" => explore::advance_time(ctx, args),
                "force_door" => crawl::force_door(ctx, args),
                "pick_lock" => crawl::pick_lock(ctx, args),
                "trap" => crawl::trap(ctx, args),
                "fall" => knacks::fall(ctx, args),
                "unmask" => knacks::unmask(ctx, args),
                _ => care::rest(ctx, args),
            };
        }
        let c = crate::toolkit::acting(ctx, seat, actor)?;
        match action {
            "check" => rolls::check_action(ctx, &c, args, seat),
            "attack" => attack::attack(ctx, &c, args),
            "cast" => cast::cast(ctx, &c, args),
            "words" => care::words(ctx, &c, args),
            "heal" => care::heal(ctx, &c, args),
            "potion" => care::potion(ctx, &c, args),
            "ability" => strike::ability(ctx, &c, args, seat),
            "move" => moving::movement(ctx, &c, args),
            "level_up" => levelling::level_up(ctx, &c, args),
            "let_go" => turnabout::let_go(ctx, &c),
            _ => round::end_turn_action(ctx, &c),
        }
    }

    fn after(&self, ctx: &mut Ctx<'_>, happened: &[Happening]) -> Result<(), DecideError> {
        lock::after_moves(ctx, happened)?;
        grounds::after_moves(ctx, happened)?;
        round::pass_a_fallen_turn(ctx)
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        match step.rule.as_str() {
            attack::STEP_HIT => attack::resume_hit(ctx, step, closing),
            attack::STEP_EXPLOSIVE => attack::resume_explosive(ctx, step, closing),
            rush::STEP_RUSH => rush::resume(ctx, step, closing),
            lock::STEP_LOCK => lock::resume(ctx, step, closing),
            will::STEP_WILL => will::resume(ctx, step, closing),
            other => Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: other.to_owned(),
                problem: "tinyd10 has no such rule step".into(),
            }),
        }
    }
}

/// The numbers of a combatant's Tiny d10 sheet, or a refusal naming it.
pub fn stats_of(c: &Combatant) -> Result<Stats, Refusal> {
    let sheet = c
        .sheet
        .typed::<Sheet>(ID)
        .map_err(|e| Refusal::Rule(format!("{} has no tinyd10 sheet: {e}", c.id)))?;
    sheet
        .stats()
        .map_err(|e| Refusal::Rule(format!("{}'s sheet: {e}", c.id)))
}

/// Why a creature cannot act now, if it cannot. Dying characters are immobilized, and the
/// text gives them nothing to do but wait for help (A6); the paralyzed likewise.
pub fn cannot_act(c: &Combatant) -> Option<&'static str> {
    [
        (DEAD, "dead"),
        (DYING, "dying"),
        (UNCONSCIOUS, "unconscious"),
        (PARALYZED, "paralyzed"),
        (lasting::BOUND, "bound"),
        (lasting::TIME_STOPPED, "held in stopped time"),
    ]
    .into_iter()
    .find(|(s, _)| c.has_status(s))
    .map(|(_, why)| why)
}
