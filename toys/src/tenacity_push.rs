//! 10acity: a push. The player picks how many hero points to pay, against a challenge only the
//! GM knows: a window answered with a typed number, holding data that no player's view gets.

use crate::prelude::*;
use tablehold_rules::compare::{Direction, judge_hidden};

pub const TENACITY_PUSH: &str = "tenacity.push";
pub const PUSH: &str = "push";

/// `push` for each of the seat's characters that has hero points, against any object.
pub fn push_specs(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let obstacles: Vec<String> = state
        .combatant_ids()
        .into_iter()
        .filter(|id| state.combatant(id).is_some_and(|c| c.kind == Kind::Object))
        .map(|id| id.0)
        .collect();
    controlled(state, seat)
        .iter()
        .filter(|c| c.resource("hero_points") > 0)
        .map(|c| {
            spec(
                PUSH,
                Some(&c.id),
                "Push against an obstacle: pay hero points, each adds 1 to a d10.",
                vec![arg(
                    "obstacle",
                    ArgKind::Entity,
                    "what to push against",
                    obstacles.clone(),
                )],
            )
        })
        .collect()
}

/// Asks the pusher's seat how many points; the challenge goes in the window's GM-only part.
pub fn push(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    actor: Option<&EntityId>,
    args: &Args,
) -> Result<(), DecideError> {
    let hero = acting(ctx, seat, actor)?;
    let obstacle = ctx.combatant(&args.require_entity("obstacle")?)?;
    let points = hero.resource("hero_points");
    ctx.ask(PendingStep {
        seats: deciders(&hero),
        question: format!("How many hero points does {} pay (1 to {points})?", hero.id),
        default_args: Args::default().with("points", ArgValue::Int(1)),
        args: vec![
            ArgSpec::new("points", ArgKind::Int, true, "hero points to pay").range(1, points),
        ],
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data: BTreeMap::from([(
            "obstacle".to_owned(),
            StepValue::Entity(obstacle.id.clone()),
        )]),
        secret: BTreeMap::from([(
            "challenge".to_owned(),
            StepValue::Int(obstacle.sheet.generic_stat("challenge")),
        )]),
        ..step(TENACITY_PUSH, &hero.id)
    })?;
    Ok(())
}

/// Pays the points and rolls d10 + points, which must beat the hidden challenge.
pub fn close_push(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let hero = step.actor.clone().ok_or_else(|| malformed(step, "actor"))?;
    let challenge = step
        .secret_int("challenge")
        .ok_or_else(|| malformed(step, "challenge"))?;
    let points = closing.args.require_int("points")?;
    let held = ctx.combatant(&hero)?.resource("hero_points");
    ctx.set_resource(&hero, "hero_points", held - points)?;
    let die = roll(&expr("1d10")?, ctx.dice)?;
    let record = checked(
        &hero,
        "push",
        die,
        vec![Modifier::new("hero points", points)],
        Against::Hidden,
    );
    let judged = judge_hidden(record.total, challenge, Direction::Exceed);
    ctx.emit(
        Event::public(Fact::Checked(CheckRecord {
            outcome: judged.outcome,
            ..record
        }))
        .with(
            Audience::GmOnly,
            Fact::HiddenTarget {
                label: "push".into(),
                target: challenge,
                direction: Direction::Exceed,
                margin: judged.margin,
            },
        ),
    )
}
