//! 10acity: a natural 10 on a hero die lets the player choose what to draw next.

use super::*;

pub(crate) const TENACITY_CRITICAL: &str = "tenacity.critical";
/// Each skill and the attribute whose hero dice it rolls.
pub(crate) const SKILLS: [(&str, &str); 1] = [("investigation", "awareness")];

pub(crate) struct Tenacity;

/// The impact roll: floor(rank / 2) d4, plus one d4 from a critical. `None` when that is no
/// dice at all (ranks 0 and 1 without a critical).
pub(crate) fn impact_expr(rank: i64, extra_d4: bool) -> Option<DiceExpr> {
    let mut terms = Vec::new();
    if rank / 2 > 0 {
        terms.push(format!("{}d4", rank / 2));
    }
    if extra_d4 {
        terms.push("1d4".to_owned());
    }
    (!terms.is_empty()).then(|| expr(&terms.join("+")))
}

impl Tenacity {
    /// Compares the check once every die that counts is known, then rolls impact on a
    /// success. `extra_hero` is the face of a critical's extra hero die.
    pub(crate) fn finish(
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
        let Some(impact_dice) = impact_expr(rank, extra_d4) else {
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
        "tenacity"
    }

    fn options(&self) -> Vec<OptionSpec> {
        common_options()
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        load_sheet(from_toml(text), &["awareness"])
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        load_sheet(from_json(value), &["awareness"])
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
        let pool = roll(&expr(&format!("{dice}d10kh1")), ctx.dice)?;
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
            let extra = roll(&expr("1d10"), ctx.dice)?;
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

/// Missa (p1): 3 Awareness hero dice, Investigation rank 5 (so 2d4 impact). Tomas plays p2.
pub(crate) fn tenacity_table() -> Table {
    Table::new(
        &Tenacity,
        vec![
            combatant(
                "missa",
                Some("p1"),
                "players",
                None,
                &[("awareness", 3), ("investigation", 5)],
                &[],
            ),
            combatant(
                "tomas",
                Some("p2"),
                "players",
                None,
                &[("awareness", 2), ("investigation", 1)],
                &[],
            ),
        ],
        vec![],
    )
}

pub(crate) fn missa_investigates(cr: i64) -> Command {
    let args = Args::default()
        .with("skill", ArgValue::Text("investigation".into()))
        .with("cr", ArgValue::Int(cr));
    Command::act(player("p1"), Some("missa"), "check", args)
}

/// Rolls Missa's pool 10, 4, 7 against `cr`: a critical, so she is asked before anything is
/// compared. The script is longer than the pool to show nothing past it is drawn yet.
pub(crate) fn missa_crits(table: &mut Table, cr: i64) -> u64 {
    let mut dice = ScriptedDice::new(vec![10, 4, 7, 1, 1, 1]);
    let events = table.run(&Tenacity, missa_investigates(cr), &mut dice);
    assert_eq!(dice.used(), 3);
    assert!(
        checks(&events).is_empty(),
        "nothing is compared before the answer"
    );
    let prompt = table.prompt();
    assert_eq!(prompt.rule, TENACITY_CRITICAL);
    assert_eq!(prompt.seats, vec![player("p1")]);
    assert_eq!(prompt.default, "hero_die");
    assert_eq!(prompt.roll("pool").map(|r| r.total), Some(10));
    assert_eq!(
        answer_choices(&Tenacity, &table.state, &player("p1")),
        choices(&["hero_die", "impact_d4"])
    );
    assert_eq!(answer_choices(&Tenacity, &table.state, &player("p2")), None);
    prompt.prompt_id
}

#[test]
fn tenacity_critical_extra_hero_die_is_drawn_after_the_answer_and_added() {
    let mut table = tenacity_table();
    let prompt = missa_crits(&mut table, 16);

    // Kept 10 + rank 5 = 15 would not beat 16. The extra hero die's face is added to the total
    // (rules/tenacity.md, correction 4): 10 + 5 + 3 = 18 beats it, and impact 2d4 = 2 + 3 follows.
    let mut dice = ScriptedDice::new(vec![3, 2, 3]);
    assert_eq!(dice.used(), 0);
    let events = table.run(
        &Tenacity,
        Command::answer(player("p1"), prompt, "hero_die"),
        &mut dice,
    );
    assert_eq!(dice.used(), 3);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "hero_die", &Resolver::Seat(player("p1")))]
    );
    let check = checks(&events)[0];
    assert_eq!(check.roll.faces_of(0), vec![10, 4, 7]);
    assert_eq!(
        check.modifiers,
        vec![
            Modifier::new("investigation", 5),
            Modifier::new("extra hero die", 3)
        ]
    );
    assert_eq!(
        (check.total, &check.against, check.outcome),
        (18, &Against::Exceed(16), Outcome::Success)
    );
    let impact: Vec<&Roll> = facts(&events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::Rolled { purpose, roll, .. } if purpose == "investigation impact" => Some(roll),
            _ => None,
        })
        .collect();
    assert_eq!((impact[0].expr.as_str(), impact[0].total), ("2d4", 5));
    assert_eq!(table.resource("missa", "impact"), 5);
    assert!(table.state.encounter.pending.is_empty());
    table.assert_replays();
}

#[test]
fn tenacity_critical_extra_impact_die_joins_the_impact_roll() {
    let mut table = tenacity_table();
    let prompt = missa_crits(&mut table, 14);

    // 10 + 5 = 15 beats 14; impact is 2d4 + the critical's 1d4: 2 + 3 + 4 = 9.
    let mut dice = ScriptedDice::new(vec![2, 3, 4]);
    let events = table.run(
        &Tenacity,
        Command::answer(player("p1"), prompt, "impact_d4"),
        &mut dice,
    );
    assert_eq!(dice.used(), 3);
    let check = checks(&events)[0];
    assert_eq!((check.total, check.outcome), (15, Outcome::Success));
    let impact = facts(&events)
        .into_iter()
        .find_map(|f| match f {
            Fact::Rolled { roll, .. } => Some(roll),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        (impact.expr.as_str(), impact.terms.clone(), impact.total),
        ("2d4+1d4", vec![5, 4], 9)
    );
    assert_eq!(table.resource("missa", "impact"), 9);
    table.assert_replays();
}

#[test]
fn tenacity_critical_timeout_takes_the_extra_hero_die() {
    let mut table = tenacity_table();
    let prompt = missa_crits(&mut table, 20);
    // 10 + 5 + 4 = 19 does not beat 20: a failure draws no impact.
    let mut dice = ScriptedDice::new(vec![4, 4, 4]);
    let timeout = Command {
        seat: Seat::Gm,
        body: CommandBody::TimeOut { prompt_id: prompt },
    };
    let events = table.run(&Tenacity, timeout, &mut dice);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "hero_die", &Resolver::TimedOut)]
    );
    assert_eq!(dice.used(), 1);
    let check = checks(&events)[0];
    assert_eq!((check.total, check.outcome), (19, Outcome::Failure));
    assert_eq!(table.resource("missa", "impact"), 0);
    table.assert_replays();
}

#[test]
fn tenacity_without_a_ten_there_is_nothing_to_ask() {
    let mut table = tenacity_table();
    // Keep 7 of 4, 7, 2; 7 + 5 = 12 beats 10, impact 2d4 = 1 + 4.
    let mut dice = ScriptedDice::new(vec![4, 7, 2, 1, 4]);
    let events = table.run(&Tenacity, missa_investigates(10), &mut dice);
    assert_eq!(dice.used(), 5);
    assert!(table.state.encounter.pending.is_empty());
    let check = checks(&events)[0];
    assert_eq!(
        (check.roll.total, check.total, check.outcome),
        (7, 12, Outcome::Success)
    );
    assert_eq!(table.resource("missa", "impact"), 5);
    // No prompt: her catalogue is back, with the spotlight's actions she holds.
    assert_eq!(
        action_names(&Tenacity, &table.state, &player("p1")),
        vec!["check", "contest", "hand_on"]
    );
    // A tie with the challenge number fails.
    let mut dice = ScriptedDice::new(vec![4, 7, 2]);
    let events = table.run(&Tenacity, missa_investigates(12), &mut dice);
    assert_eq!(checks(&events)[0].outcome, Outcome::Failure);
    table.assert_replays();
}
