//! vigor: Dodge, a reaction costing 5 Vigor that must beat the attack.

use crate::prelude::*;

pub const VIGOR_DODGE: &str = "vigor.dodge";
pub const REACTION_VIGOR: i64 = 5;
/// The action d20 plus one d10 bonus die, on both sides of the contest.
pub const VIGOR_POOL: &str = "1d20+1d10";

pub struct Vigor;

impl RuleSystem for Vigor {
    fn id(&self) -> &'static str {
        "toy-vigor"
    }

    fn options(&self) -> Vec<OptionSpec> {
        common_options()
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        load_sheet(from_toml(text), &["guard"])
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        load_sheet(from_json(value), &["guard"])
    }

    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
        let mut out: Vec<ActionSpec> = controlled(state, seat)
            .iter()
            .map(|c| {
                let foes = state
                    .combatant_ids()
                    .into_iter()
                    .filter(|t| state.combatant(t).is_some_and(|t| t.side != c.side))
                    .map(|t| t.0)
                    .collect();
                spec(
                    "attack",
                    Some(&c.id),
                    "Attack: d20 + bonus die against Guard.",
                    vec![arg("target", ArgKind::Entity, "whom", foes)],
                )
            })
            .collect();
        out.extend(stumble_specs(state, seat));
        out.extend(reach_specs(state, seat));
        out.extend(start_spec(state, seat));
        out
    }

    fn act(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        action: &str,
        args: &Args,
    ) -> Result<(), DecideError> {
        check_offered(self, &ctx.state, seat, actor, action, args)?;
        match action {
            "attack" => {}
            STUMBLE => return stumble(ctx, seat, actor),
            STEP => return step_to(ctx, seat, actor, args),
            START_ENCOUNTER => return roll_initiative(ctx),
            MORALE => return morale(ctx, seat, actor),
            _ => return Err(unknown(self.id(), action)),
        }
        let attacker = acting(ctx, seat, actor)?;
        let target = ctx.combatant(&args.require_entity("target")?)?;
        let guard = target.sheet.generic_stat("guard");
        let attack = roll(&expr(VIGOR_POOL)?, ctx.dice)?;
        let total = attack.total;
        // Only the reaction contest gives ties to the attacker; against Guard a tie misses.
        let hits = total > guard;
        let record = checked(
            &attacker.id,
            "attack",
            attack.clone(),
            vec![],
            Against::Exceed(guard),
        );
        ctx.emit(Event::public(Fact::Checked(CheckRecord {
            outcome: verdict(hits),
            ..record
        })))?;
        if !hits {
            return Ok(());
        }
        // The option is offered even without the Vigor for it: whether the defender can pay
        // is checked when they choose, so the prompt does not leak a decision to the attacker.
        let data = BTreeMap::from([
            (
                "attacker".to_owned(),
                StepValue::Entity(attacker.id.clone()),
            ),
            ("attack_total".to_owned(), StepValue::Int(total)),
            ("attack_roll".to_owned(), StepValue::Roll(Box::new(attack))),
            (
                "damage".to_owned(),
                StepValue::Int(attacker.sheet.generic_stat("damage")),
            ),
        ]);
        ctx.ask(PendingStep {
            seats: deciders(&target),
            question: format!(
                "{} hits {} with {total}: dodge for {REACTION_VIGOR} Vigor?",
                attacker.id, target.id
            ),
            options: vec!["dodge".into(), "take".into()],
            default: "take".into(),
            timeout_ms: ctx.state.options().decision_timeout_ms(),
            data,
            ..step(VIGOR_DODGE, &target.id)
        })?;
        Ok(())
    }

    fn after(&self, ctx: &mut Ctx<'_>, happened: &[Happening]) -> Result<(), DecideError> {
        moved(ctx, happened)
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        let choice = closing.choice;
        if step.rule == VIGOR_OPPORTUNITY {
            return opportunity(ctx, step, closing);
        }
        if step.rule == VIGOR_OPENING {
            return close_opening(ctx, step);
        }
        if step.rule != VIGOR_DODGE {
            return Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: step.rule.clone(),
                problem: "this system has no such step".into(),
            });
        }
        let defender = step.actor.clone().ok_or_else(|| malformed(step, "actor"))?;
        let attacker = step
            .entity("attacker")
            .ok_or_else(|| malformed(step, "attacker"))?
            .clone();
        let attack_total = step
            .int("attack_total")
            .ok_or_else(|| malformed(step, "attack_total"))?;
        let dodged = match choice {
            "dodge" => {
                let vigor = ctx.combatant(&defender)?.resource("vigor");
                if vigor < REACTION_VIGOR {
                    return Err(Refusal::InsufficientResource {
                        resource: "vigor".into(),
                        needed: REACTION_VIGOR,
                        available: vigor,
                    }
                    .into());
                }
                ctx.set_resource(&defender, "vigor", vigor - REACTION_VIGOR)?;
                let dodge = roll(&expr(VIGOR_POOL)?, ctx.dice)?;
                // Ties go to the attacker: the dodge must beat the attack.
                let beats = dodge.total > attack_total;
                let record = checked(
                    &defender,
                    "dodge",
                    dodge,
                    vec![],
                    Against::Opposed {
                        entity: attacker,
                        total: attack_total,
                    },
                );
                ctx.emit(Event::public(Fact::Checked(CheckRecord {
                    outcome: verdict(beats),
                    ..record
                })))?;
                beats
            }
            _ => false,
        };
        if !dodged {
            let amount = step
                .int("damage")
                .ok_or_else(|| malformed(step, "damage"))?;
            let durability = ctx.combatant(&defender)?.resource("durability");
            ctx.emit(Event::public(Fact::DamageResolved {
                target: defender.clone(),
                steps: vec![Modifier::new("weapon", amount)],
                amount,
            }))?;
            ctx.set_resource(&defender, "durability", durability - amount)?;
        }
        Ok(())
    }
}

/// vigor's initiative: 1d10 each, in id order; the highest goes first, ties by id.
pub fn roll_initiative(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let fighters = start_encounter(ctx, |_| true)?;
    let mut rolled = Vec::new();
    for id in fighters {
        let die = roll(&expr("1d10")?, ctx.dice)?;
        let record = checked(&id, "initiative", die, vec![], Against::Nothing);
        rolled.push((record.total, id));
        ctx.emit(Event::public(Fact::Checked(record)))?;
    }
    rolled.sort_by(|(a, x), (b, y)| b.cmp(a).then(x.cmp(y)));
    let order: Vec<EntityId> = rolled.into_iter().map(|(_, id)| id).collect();
    let first = order.first().cloned();
    ctx.emit(Event::public(Fact::OrderSet { order }))?;
    ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
    ctx.emit(Event::public(Fact::TurnStarted { entity: first }))
}
