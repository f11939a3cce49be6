//! vigor: Take Opening. When a foe stumbles, every player whose character stands against it
//! may strike at once: one window open to several seats, each answering for itself, with one
//! deadline, while the table plays on (the window does not block).

use crate::prelude::*;

pub const VIGOR_OPENING: &str = "vigor.opening";
pub const STUMBLE: &str = "stumble";

/// The GM's `stumble` for each character nobody plays.
pub fn stumble_specs(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    if !seat.is_gm() {
        return Vec::new();
    }
    controlled(state, seat)
        .iter()
        .map(|c| {
            spec(
                STUMBLE,
                Some(&c.id),
                "Lower the guard: each foe's player may take the opening.",
                vec![],
            )
        })
        .collect()
}

/// Opens the window to the seats of every character on another side.
pub fn stumble(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    actor: Option<&EntityId>,
) -> Result<(), DecideError> {
    let stumbler = acting(ctx, seat, actor)?;
    let mut seats: Vec<Seat> = Vec::new();
    for id in ctx.state.combatant_ids() {
        let Some(c) = ctx.state.combatant(&id) else {
            continue;
        };
        if c.side != stumbler.side
            && let Some(owner) = &c.owner
        {
            let seat = Seat::Player(owner.clone());
            if !seats.contains(&seat) {
                seats.push(seat);
            }
        }
    }
    if seats.is_empty() {
        return Err(Refusal::Rule(format!("nobody stands against {}", stumbler.id)).into());
    }
    ctx.ask(PendingStep {
        seats,
        question: format!("{} stumbles: take the opening?", stumbler.id),
        options: vec!["strike".into(), "hold".into()],
        default: "hold".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        answering: Answering::Each,
        blocks: false,
        ..step(VIGOR_OPENING, &stumbler.id)
    })?;
    Ok(())
}

/// Every seat that chose to strike deals its character's `damage` to the stumbler, in the
/// order the seats were asked.
pub fn close_opening(ctx: &mut Ctx<'_>, step: &PendingStep) -> Result<(), DecideError> {
    let stumbler = step.actor.clone().ok_or_else(|| malformed(step, "actor"))?;
    for seat in &step.seats {
        if step.answer_of(seat).0 != "strike" {
            continue;
        }
        let Seat::Player(owner) = seat else {
            continue;
        };
        let striker = ctx
            .state
            .combatant_ids()
            .into_iter()
            .filter_map(|id| ctx.state.combatant(&id).cloned())
            .find(|c| c.owner.as_ref() == Some(owner))
            .ok_or_else(|| malformed(step, "a striker for every seat"))?;
        let amount = striker.sheet.generic_stat("damage");
        ctx.emit(Event::public(Fact::DamageResolved {
            target: stumbler.clone(),
            steps: vec![Modifier::new(striker.id.as_str(), amount)],
            amount,
        }))?;
        let durability = ctx.combatant(&stumbler)?.resource("durability");
        ctx.set_resource(&stumbler, "durability", durability - amount)?;
    }
    Ok(())
}
