//! 10acity: the spotlight, and the narrator's challenge dice. Whoever holds the spotlight acts
//! and hands it on: to someone who has not had it this round, or back to the one they acted
//! against, who may answer at once. A contest is a hero's roll against a pool of the narrator's
//! dice that belongs to no combatant; its margin is the contest's size.

use crate::prelude::*;
use tablehold_rules::toolkit::turns;

pub const HAND_ON: &str = "hand_on";
pub const CONTEST: &str = "contest";
/// The narrator's challenge dice for a contest.
pub const CHALLENGE_DICE: &str = "2d6";

/// What the spotlight's holder may do: contest someone, and hand the spotlight on.
pub fn spotlight_specs(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let enc = state.encounter();
    if enc.turns.shape != turns::TurnShape::Spotlight {
        return Vec::new();
    }
    let now = turns::may_act(enc);
    controlled(state, seat)
        .iter()
        .filter(|c| now.contains(&c.id))
        .flat_map(|c| {
            [
                spec(
                    CONTEST,
                    Some(&c.id),
                    "Roll 1d10 + the skill against the narrator's 2d6; the margin is the result.",
                    vec![
                        arg("against", ArgKind::Entity, "whom it is aimed at", vec![]),
                        arg(
                            "skill",
                            ArgKind::Text,
                            "which skill",
                            vec!["investigation".into()],
                        ),
                    ],
                ),
                spec(
                    HAND_ON,
                    Some(&c.id),
                    "Hand the spotlight on.",
                    vec![ArgSpec {
                        now: open_to(state, &c.id),
                        ..arg("to", ArgKind::Entity, "who takes the spotlight", vec![])
                    }],
                ),
            ]
        })
        .collect()
}

/// Who `from` may hand the spotlight to now: anyone else who has not had it this round, and
/// the one `from` last acted against; when all the others have had it, the round is over and
/// anyone else may start the next.
pub fn open_to(state: &dyn StateView, from: &EntityId) -> Vec<String> {
    let enc = state.encounter();
    let answering = last_against(state, from);
    let others: Vec<EntityId> = state
        .combatant_ids()
        .into_iter()
        .filter(|id| id != from)
        .collect();
    let round_over = others.iter().all(|id| enc.turns.acted.contains(id));
    others
        .into_iter()
        .filter(|id| round_over || !enc.turns.acted.contains(id) || Some(id) == answering.as_ref())
        .map(|id| id.0)
        .collect()
}

/// The one `from` acted against since taking the spotlight, kept as an encounter value (the
/// index of its id among the table's, plus one) so that it is part of the state.
fn last_against(state: &dyn StateView, from: &EntityId) -> Option<EntityId> {
    let at = *state.encounter().values.get(&against_key(from))?;
    let at = usize::try_from(at).ok()?.checked_sub(1)?;
    state.combatant_ids().into_iter().nth(at)
}

fn against_key(from: &EntityId) -> String {
    format!("against:{from}")
}

/// A contest: 1d10 + rank against the narrator's challenge dice, which belong to no one.
pub fn contest(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    actor: Option<&EntityId>,
    args: &Args,
) -> Result<(), DecideError> {
    let hero = acting(ctx, seat, actor)?;
    turns::check_turn(&ctx.state, &hero.id)?;
    let against = ctx.combatant(&args.require_entity("against")?)?;
    let skill = args.require_text("skill")?;
    let rank = hero.sheet.generic_stat(skill);
    let die = roll(&expr("1d10")?, ctx.dice)?;
    let pool = roll(&expr(CHALLENGE_DICE)?, ctx.dice)?;
    ctx.emit(Event::public(Fact::Rolled {
        by: None,
        purpose: "challenge dice".into(),
        roll: pool.clone(),
    }))?;
    let record = checked(
        &hero.id,
        skill,
        die,
        vec![Modifier::new(skill, rank)],
        Against::Pool {
            name: "challenge dice".into(),
            total: pool.total,
        },
    );
    ctx.emit(Event::public(Fact::Checked(record)))?;
    let index = ctx
        .state
        .combatant_ids()
        .iter()
        .position(|id| *id == against.id)
        .and_then(|i| i64::try_from(i + 1).ok())
        .unwrap_or(0);
    ctx.set_encounter_value(&against_key(&hero.id), index)
}

/// Hands the spotlight on, within the rule; a round ends when nobody is left to take it.
pub fn hand_on(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    actor: Option<&EntityId>,
    args: &Args,
) -> Result<(), DecideError> {
    let holder = acting(ctx, seat, actor)?;
    turns::check_turn(&ctx.state, &holder.id)?;
    let to = ctx.combatant(&args.require_entity("to")?)?;
    let allowed = open_to(&ctx.state, &holder.id);
    if !allowed.contains(&to.id.0) {
        let why = if to.id == holder.id {
            "you cannot keep it".to_owned()
        } else {
            format!("{} has had it this round and was not acted against", to.id)
        };
        return Err(Refusal::Rule(format!(
            "the spotlight cannot pass to {}: {why}; it may pass to {}",
            to.id,
            if allowed.is_empty() {
                "no one".to_owned()
            } else {
                allowed.join(", ")
            }
        ))
        .into());
    }
    ctx.set_encounter_value(&against_key(&holder.id), 0)?;
    turns::acted(ctx, &holder.id)?;
    let everyone_had_it = ctx
        .state
        .combatant_ids()
        .iter()
        .all(|id| ctx.state.encounter().turns.acted.contains(id));
    if everyone_had_it {
        let round = ctx.state.encounter().round + 1;
        ctx.emit(Event::public(Fact::RoundStarted { round }))?;
    }
    turns::spotlight(ctx, &to.id)
}

/// 10acity's start: round 1, the spotlight with the first player's character in id order.
pub fn start(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let fighters = start_encounter(ctx, |_| true)?;
    ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
    let first = fighters
        .iter()
        .find(|id| ctx.state.combatant(id).is_some_and(|c| c.owner.is_some()))
        .or(fighters.first())
        .cloned()
        .ok_or_else(|| Refusal::Rule("nobody is at the table to fight".into()))?;
    turns::spotlight(ctx, &first)
}
