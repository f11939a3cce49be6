//! 10acity: a natural 10 on a hero die lets the player choose what to draw next.

use crate::prelude::*;

pub const TENACITY_CRITICAL: &str = "tenacity.critical";
/// Each skill and the attribute whose hero dice it rolls.
pub const SKILLS: [(&str, &str); 1] = [("investigation", "awareness")];

pub struct Tenacity;

/// The impact roll: floor(rank / 2) d4, plus one d4 from a critical. `None` when that is no
/// dice at all (ranks 0 and 1 without a critical).
pub fn impact_expr(rank: i64, extra_d4: bool) -> Result<Option<DiceExpr>, DecideError> {
    let mut terms = Vec::new();
    if rank / 2 > 0 {
        terms.push(format!("{}d4", rank / 2));
    }
    if extra_d4 {
        terms.push("1d4".to_owned());
    }
    if terms.is_empty() {
        return Ok(None);
    }
    expr(&terms.join("+")).map(Some)
}

/// A character reads its Awareness; an obstacle (an object of the scene) only its challenge.
fn tenacity_sheet(parsed: Result<Combatant, String>) -> Result<Combatant, SheetError> {
    let object = parsed.as_ref().is_ok_and(|c| c.kind == Kind::Object);
    load_sheet(
        parsed,
        if object {
            &["challenge"]
        } else {
            &["awareness"]
        },
    )
}

impl Tenacity {
    /// Compares the check once every die that counts is known, then rolls impact on a
    /// success. `extra_hero` is the face of a critical's extra hero die.
    pub fn finish(
        &self,
        ctx: &mut Ctx<'_>,
        actor: &EntityId,
        pool: Roll,
        (skill, rank, cr): (&str, i64, i64),
        extra_hero: Option<i64>,
        extra_d4: bool,
    ) -> Result<(), DecideError> {
        let mut modifiers = vec![Modifier::new(skill, rank)];
        modifiers.extend(extra_hero.map(|face| Modifier::new("extra hero die", face)));
        let record = checked(actor, skill, pool, modifiers, Against::Exceed(cr));
        // The roll must beat the challenge number; a tie fails.
        let success = record.total > cr;
        ctx.emit(Event::public(Fact::Checked(CheckRecord {
            outcome: verdict(success),
            ..record
        })))?;
        if !success {
            return Ok(());
        }
        let Some(impact_dice) = impact_expr(rank, extra_d4)? else {
            return Ok(());
        };
        let impact = roll(&impact_dice, ctx.dice)?;
        let gained = impact.total;
        ctx.emit(Event::public(Fact::Rolled {
            by: Some(actor.clone()),
            purpose: format!("{skill} impact"),
            roll: impact,
        }))?;
        // Kept on the character: the encounter has no place for a shared impact pool.
        let held = ctx.combatant(actor)?.resource("impact");
        ctx.set_resource(actor, "impact", held + gained)
    }
}

impl RuleSystem for Tenacity {
    fn id(&self) -> &'static str {
        "toy-tenacity"
    }

    fn options(&self) -> Vec<OptionSpec> {
        common_options()
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        tenacity_sheet(from_toml(text))
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        tenacity_sheet(from_json(value))
    }

    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
        let skills: Vec<String> = SKILLS.iter().map(|(s, _)| (*s).to_owned()).collect();
        let mut out: Vec<ActionSpec> = controlled(state, seat)
            .iter()
            .map(|c| {
                spec(
                    "check",
                    Some(&c.id),
                    "Roll hero dice, keep the highest, add the rank.",
                    vec![
                        arg("skill", ArgKind::Text, "which skill", skills.clone()),
                        arg("cr", ArgKind::Int, "the challenge number to beat", vec![]),
                    ],
                )
            })
            .collect();
        out.extend(push_specs(state, seat));
        out.extend(spotlight_specs(state, seat));
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
            "check" => {}
            PUSH => return push(ctx, seat, actor, args),
            CONTEST => return contest(ctx, seat, actor, args),
            HAND_ON => return hand_on(ctx, seat, actor, args),
            START_ENCOUNTER => return start(ctx),
            _ => return Err(unknown(self.id(), action)),
        }
        let hero = acting(ctx, seat, actor)?;
        let skill = args.require_text("skill")?;
        let Some(&(skill, attribute)) = SKILLS.iter().find(|(s, _)| *s == skill) else {
            return Err(Refusal::UnknownName {
                system: self.id().into(),
                what: "a skill".into(),
                name: skill.into(),
            }
            .into());
        };
        let cr = args.require_int("cr")?;
        let dice = hero.sheet.generic_stat(attribute);
        if !(1..=10).contains(&dice) {
            return Err(
                Refusal::Rule(format!("{} has {dice} {attribute} hero dice", hero.id)).into(),
            );
        }
        let rank = hero.sheet.generic_stat(skill);
        let pool = roll(&expr(&format!("{dice}d10kh1"))?, ctx.dice)?;
        if !pool.dice.iter().any(|d| d.face == 10) {
            return self.finish(ctx, &hero.id, pool, (skill, rank, cr), None, false);
        }
        // A critical: show the pool, then stop until the player says which die comes next.
        // The check is compared only after the answer, because an extra hero die changes it.
        ctx.emit(Event::public(Fact::Rolled {
            by: Some(hero.id.clone()),
            purpose: format!("{skill} hero dice"),
            roll: pool.clone(),
        }))?;
        ctx.ask(PendingStep {
            seats: deciders(&hero),
            question: "A natural 10: an extra hero die, or an extra impact d4?".into(),
            options: vec!["hero_die".into(), "impact_d4".into()],
            default: "hero_die".into(),
            timeout_ms: ctx.state.options().decision_timeout_ms(),
            data: BTreeMap::from([
                ("pool".to_owned(), StepValue::Roll(Box::new(pool))),
                ("skill".to_owned(), StepValue::Text(skill.to_owned())),
                ("rank".to_owned(), StepValue::Int(rank)),
                ("cr".to_owned(), StepValue::Int(cr)),
            ]),
            ..step(TENACITY_CRITICAL, &hero.id)
        })?;
        Ok(())
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        let choice = closing.choice;
        if step.rule == TENACITY_PUSH {
            return close_push(ctx, step, closing);
        }
        if step.rule != TENACITY_CRITICAL {
            return Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: step.rule.clone(),
                problem: "this system has no such step".into(),
            });
        }
        let actor = step.actor.clone().ok_or_else(|| malformed(step, "actor"))?;
        let pool = step
            .roll("pool")
            .ok_or_else(|| malformed(step, "pool"))?
            .clone();
        let skill = step.text("skill").ok_or_else(|| malformed(step, "skill"))?;
        let rank = step.int("rank").ok_or_else(|| malformed(step, "rank"))?;
        let cr = step.int("cr").ok_or_else(|| malformed(step, "cr"))?;
        if choice == "hero_die" {
            let extra = roll(&expr("1d10")?, ctx.dice)?;
            let face = extra.total;
            ctx.emit(Event::public(Fact::Rolled {
                by: Some(actor.clone()),
                purpose: "extra hero die".into(),
                roll: extra,
            }))?;
            self.finish(ctx, &actor, pool, (skill, rank, cr), Some(face), false)
        } else {
            self.finish(ctx, &actor, pool, (skill, rank, cr), None, true)
        }
    }
}
