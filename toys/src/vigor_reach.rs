//! vigor: reach and nerve. A character that leaves a foe's reach (the next cell) gives it an
//! opportunity to strike: the move's trigger opens a window to the foe's seat, the mover
//! having written nothing about it. And an NPC's morale is a roll-under check on a d10.

use crate::prelude::*;

pub const VIGOR_OPPORTUNITY: &str = "vigor.opportunity";
pub const STEP: &str = "step";
pub const MORALE: &str = "morale";

/// `step` for each of the seat's characters; `morale` for the GM's.
pub fn reach_specs(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let mut out: Vec<ActionSpec> = controlled(state, seat)
        .iter()
        .map(|c| {
            spec(
                STEP,
                Some(&c.id),
                "Move to a cell.",
                vec![arg("to", ArgKind::Cell, "where", vec![])],
            )
        })
        .collect();
    if seat.is_gm() {
        out.extend(controlled(state, seat).iter().map(|c| {
            spec(
                MORALE,
                Some(&c.id),
                "Test its nerve: 1d10 at most its Morale holds.",
                vec![],
            )
        }));
    }
    out
}

pub fn step_to(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    actor: Option<&EntityId>,
    args: &Args,
) -> Result<(), DecideError> {
    let mover = acting(ctx, seat, actor)?;
    let to = args
        .cell("to")?
        .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
    ctx.emit(Event::public(Fact::Moved {
        entity: mover.id.clone(),
        from: mover.position,
        to: Some(to),
    }))
}

fn within_reach(state: &dyn StateView, a: Option<Cell>, b: Option<Cell>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => distance(a, b, state.options().diagonal()) <= 1,
        _ => false,
    }
}

/// The move trigger: every foe whose reach the mover left may strike.
pub fn moved(ctx: &mut Ctx<'_>, happened: &[Happening]) -> Result<(), DecideError> {
    for h in happened {
        let Happening::Moved { entity, from, to } = h else {
            continue;
        };
        let mover = ctx.combatant(entity)?;
        let foes: Vec<Combatant> = ctx
            .state
            .combatant_ids()
            .into_iter()
            .filter_map(|id| ctx.state.combatant(&id).cloned())
            .filter(|f| f.side != mover.side)
            .filter(|f| {
                within_reach(&ctx.state, *from, f.position)
                    && !within_reach(&ctx.state, *to, f.position)
            })
            .collect();
        for foe in foes {
            ctx.ask(PendingStep {
                seats: deciders(&foe),
                question: format!("{} leaves {}'s reach: strike?", mover.id, foe.id),
                options: vec!["strike".into(), "let_go".into()],
                default: "let_go".into(),
                timeout_ms: ctx.state.options().decision_timeout_ms(),
                data: BTreeMap::from([("mover".to_owned(), StepValue::Entity(mover.id.clone()))]),
                ..step(VIGOR_OPPORTUNITY, &foe.id)
            })?;
        }
    }
    Ok(())
}

/// The opportunity taken: the striker's damage, no roll.
pub fn opportunity(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    if closing.choice != "strike" {
        return Ok(());
    }
    let striker = ctx.combatant(
        step.actor
            .as_ref()
            .ok_or_else(|| malformed(step, "actor"))?,
    )?;
    let mover = step
        .entity("mover")
        .ok_or_else(|| malformed(step, "mover"))?
        .clone();
    let amount = striker.sheet.generic_stat("damage");
    ctx.emit(Event::public(Fact::DamageResolved {
        target: mover.clone(),
        steps: vec![Modifier::new(striker.id.as_str(), amount)],
        amount,
    }))?;
    let durability = ctx.combatant(&mover)?.resource("durability");
    ctx.set_resource(&mover, "durability", durability - amount)
}

/// Morale: 1d10 at most the Morale stat holds; above it, the NPC flees.
pub fn morale(ctx: &mut Ctx<'_>, seat: &Seat, actor: Option<&EntityId>) -> Result<(), DecideError> {
    let npc = acting(ctx, seat, actor)?;
    let die = roll(&expr("1d10")?, ctx.dice)?;
    let record = checked(
        &npc.id,
        MORALE,
        die,
        vec![],
        Against::AtMost(npc.sheet.generic_stat("morale")),
    );
    let holds = record.outcome == Outcome::Success;
    ctx.emit(Event::public(Fact::Checked(record)))?;
    if !holds {
        ctx.set_status(
            &npc.id,
            "fleeing",
            Some(Status {
                source: "morale".into(),
                magnitude: 0,
                rounds_left: None,
            }),
        )?;
    }
    Ok(())
}
