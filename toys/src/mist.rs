//! mist: side turns (each side's members act in any order, each once, and the next side's turn
//! opens by itself), the aimed attack declared now and fired by itself after the enemies' side
//! has acted, and a delayed action that interrupts an enemy's strike through a window
//! answered with an action. mist measures in feet, five to a cell.

use crate::prelude::*;
use tablehold_rules::grid::GridSpec;
use tablehold_rules::toolkit;
use tablehold_rules::toolkit::turns;

pub const MIST_AIM: &str = "mist.aimed_attack";
pub const MIST_INTERRUPT: &str = "mist.interrupt";
pub const AIM_BONUS: i64 = 3;
/// A strike reaches the next cell, and no further.
pub const REACH: i64 = 1;
pub const GRID: GridSpec = GridSpec {
    unit: "ft",
    cell_size: 5,
    covers: &[],
};

pub struct Mist;

/// The side whose turn it is: the group the turn structure holds.
pub fn acting_side(state: &dyn StateView) -> Option<String> {
    state.encounter().turns.group.clone()
}

/// Every combatant of `side`, in id order.
pub fn members(state: &dyn StateView, side: &str) -> Vec<EntityId> {
    state
        .combatant_ids()
        .into_iter()
        .filter(|i| state.combatant(i).is_some_and(|c| c.side == side))
        .collect()
}

pub fn other_side(state: &dyn StateView, side: &str) -> Option<String> {
    state
        .combatant_ids()
        .iter()
        .filter_map(|i| state.combatant(i))
        .map(|c| c.side.clone())
        .find(|s| s != side)
}

pub fn after_side(side: &str) -> String {
    format!("after_side:{side}")
}

/// Distance in cells from `from` to `to`, if both are on the map.
pub fn cells_between(state: &dyn StateView, from: &Combatant, to: &Combatant) -> Option<i64> {
    let d = distance(from.position?, to.position?, state.options().diagonal());
    i64::try_from(d).ok()
}

fn feet(cells: i64) -> i64 {
    cells * i64::from(GRID.cell_size)
}

fn move_spec(actor: &EntityId) -> ActionSpec {
    spec(
        "move",
        Some(actor),
        "Move (it does not end your part of the turn).",
        vec![arg("to", ArgKind::Cell, "destination", vec![])],
    )
}

impl Mist {
    pub fn aim(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        args: &Args,
    ) -> Result<(), DecideError> {
        let shooter = acting(ctx, seat, actor)?;
        turns::check_turn(&ctx.state, &shooter.id)?;
        let target = ctx.combatant(&args.require_entity("target")?)?;
        if target.side == shooter.side {
            return Err(
                Refusal::Rule("an aimed attack is declared against an enemy".into()).into(),
            );
        }
        let range = shooter.sheet.generic_stat("range");
        match cells_between(&ctx.state, &shooter, &target) {
            Some(d) if d <= range => {}
            d => {
                return Err(Refusal::OutOfRange {
                    what: target.id.to_string(),
                    distance: d.map_or(-1, feet),
                    limit: feet(range),
                    unit: GRID.unit.into(),
                }
                .into());
            }
        }
        // Declared now, rolled only when the target's side has had its turn: no dice here.
        ctx.defer(PendingStep {
            trigger: Some(after_side(&target.side)),
            data: BTreeMap::from([("target".to_owned(), StepValue::Entity(target.id.clone()))]),
            ..step(MIST_AIM, &shooter.id)
        })?;
        turns::acted(ctx, &shooter.id)?;
        Ok(())
    }

    pub fn walk(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        args: &Args,
    ) -> Result<(), DecideError> {
        let walker = acting(ctx, seat, actor)?;
        turns::check_turn(&ctx.state, &walker.id)?;
        step_to(ctx, &walker, args)
    }

    /// Holds the action back: the character has acted for this side's turn, and may interrupt
    /// an enemy's strike later.
    pub fn delay(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
    ) -> Result<(), DecideError> {
        let who = acting(ctx, seat, actor)?;
        turns::check_turn(&ctx.state, &who.id)?;
        turns::hold(ctx, &who.id, true)?;
        turns::acted(ctx, &who.id)?;
        Ok(())
    }

    /// A strike at the next cell. When someone on the target's side holds an action, they are
    /// asked first whether to interrupt, and nothing is drawn before they answer.
    pub fn strike(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        args: &Args,
    ) -> Result<(), DecideError> {
        let striker = acting(ctx, seat, actor)?;
        turns::check_turn(&ctx.state, &striker.id)?;
        let target = ctx.combatant(&args.require_entity("target")?)?;
        let holder = ctx
            .state
            .encounter()
            .turns
            .held
            .iter()
            .filter_map(|h| ctx.state.combatant(h))
            .find(|h| h.side == target.side)
            .cloned();
        let Some(holder) = holder else {
            self.resolve_strike(ctx, &striker.id, &target.id)?;
            turns::acted(ctx, &striker.id)?;
            return Ok(());
        };
        ctx.ask(PendingStep {
            seats: deciders(&holder),
            question: format!(
                "{} strikes at {}: interrupt with {}'s held action?",
                striker.id, target.id, holder.id
            ),
            options: vec!["act".into(), "pass".into()],
            default: "pass".into(),
            args: vec![
                ArgSpec {
                    choices: vec!["move".into()],
                    ..ArgSpec::new(
                        "action",
                        ArgKind::Text,
                        false,
                        "the action to interrupt with",
                    )
                },
                ArgSpec::new("to", ArgKind::Cell, false, "for move: where to"),
            ],
            timeout_ms: ctx.state.options().decision_timeout_ms(),
            data: BTreeMap::from([
                ("striker".to_owned(), StepValue::Entity(striker.id.clone())),
                ("target".to_owned(), StepValue::Entity(target.id.clone())),
            ]),
            ..step(MIST_INTERRUPT, &holder.id)
        })?;
        Ok(())
    }

    /// The interrupt window closed: the held action goes first (checked against what the
    /// action takes, as if offered now), then the strike.
    pub fn interrupted(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        let holder = ctx.combatant(
            step.actor
                .as_ref()
                .ok_or_else(|| malformed(step, "actor"))?,
        )?;
        let striker = step
            .entity("striker")
            .ok_or_else(|| malformed(step, "striker"))?
            .clone();
        let target = step
            .entity("target")
            .ok_or_else(|| malformed(step, "target"))?
            .clone();
        if closing.choice == "act" {
            let action = closing
                .args
                .text("action")?
                .ok_or_else(|| Refusal::bad_argument("action", "is required to act"))?;
            let mut nested = closing.args.clone();
            nested.0.remove("action");
            let specs = [move_spec(&holder.id)];
            let spec = toolkit::offered(&specs, Some(&holder.id), action).ok_or_else(|| {
                Refusal::bad_argument("action", "is not an action to interrupt with")
            })?;
            nested.validate(&spec.args, &Seat::Gm)?;
            step_to(ctx, &holder, &nested)?;
            turns::hold(ctx, &holder.id, false)?;
        }
        self.resolve_strike(ctx, &striker, &target)?;
        turns::acted(ctx, &striker)?;
        Ok(())
    }

    fn resolve_strike(
        &self,
        ctx: &mut Ctx<'_>,
        striker: &EntityId,
        target: &EntityId,
    ) -> Result<(), DecideError> {
        let s = ctx.combatant(striker)?;
        let t = ctx.combatant(target)?;
        match cells_between(&ctx.state, &s, &t) {
            Some(d) if d <= REACH => {}
            d => {
                let text = format!(
                    "{striker}'s strike falls short: {target} is {} ft away",
                    d.map_or(-1, feet)
                );
                return ctx.emit(Event::public(Fact::Noted { text }));
            }
        }
        let die = roll(&expr("1d10")?, ctx.dice)?;
        let record = checked(
            striker,
            "strike",
            die,
            vec![Modifier::new("Senses", s.sheet.generic_stat("senses"))],
            Against::Target(t.sheet.generic_stat("evade")),
        );
        ctx.emit(Event::public(Fact::Checked(record)))
    }

    /// Ends a side's turn before all have acted (the GM's call): those who have not lose their
    /// action, and what follows the side's turn follows as if they had all acted.
    pub fn end_side_turn(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        args: &Args,
    ) -> Result<(), DecideError> {
        if !seat.is_gm() {
            return Err(Refusal::forbidden("the GM ends a side's turn").into());
        }
        let side = args.require_text("side")?.to_owned();
        if acting_side(&ctx.state).as_deref() != Some(side.as_str()) {
            return Err(Refusal::Rule(format!("it is not the {side}' turn")).into());
        }
        for left in turns::may_act(ctx.state.encounter()) {
            turns::acted(ctx, &left)?;
        }
        Ok(())
    }

    /// `side` has acted: every step deferred until then fires, in declaration order, and the
    /// other side's turn opens.
    fn side_done(&self, ctx: &mut Ctx<'_>, side: &str) -> Result<(), DecideError> {
        let trigger = after_side(side);
        let due: Vec<PendingStep> = ctx
            .state
            .encounter()
            .deferred
            .iter()
            .filter(|s| s.trigger.as_ref() == Some(&trigger))
            .cloned()
            .collect();
        for deferred in &due {
            ctx.emit(Event::public(Fact::DeferredResumed {
                prompt_id: deferred.prompt_id,
            }))?;
            match deferred.rule.as_str() {
                MIST_AIM => self.resolve_aim(ctx, deferred)?,
                other => {
                    return Err(Refusal::Rule(format!("unknown deferred step `{other}`")).into());
                }
            }
        }
        if let Some(next) = other_side(&ctx.state, side) {
            let who = members(&ctx.state, &next);
            turns::open_group(ctx, &next, who)?;
        }
        Ok(())
    }

    pub fn resolve_aim(&self, ctx: &mut Ctx<'_>, aim: &PendingStep) -> Result<(), DecideError> {
        let shooter = ctx.combatant(aim.actor.as_ref().ok_or_else(|| malformed(aim, "actor"))?)?;
        let target_id = aim
            .entity("target")
            .ok_or_else(|| malformed(aim, "target"))?;
        let range = shooter.sheet.generic_stat("range");
        // Gone from the table counts as out of sight.
        let target = ctx.state.combatant(target_id).cloned();
        let distance = target
            .as_ref()
            .and_then(|t| cells_between(&ctx.state, &shooter, t));
        let Some(target) = target.filter(|_| distance.is_some_and(|d| d <= range)) else {
            let text = match distance {
                Some(d) => format!(
                    "{}'s aimed attack is wasted: {target_id} is {} ft away, range {} ft",
                    shooter.id,
                    feet(d),
                    feet(range)
                ),
                None => format!(
                    "{}'s aimed attack is wasted: {target_id} is out of sight",
                    shooter.id
                ),
            };
            ctx.emit(Event::public(Fact::Noted { text }))?;
            return Ok(());
        };
        let shot = roll(&expr("1d10")?, ctx.dice)?;
        let natural_ten = shot.natural() == Some(10);
        let modifiers = vec![
            Modifier::new("Senses", shooter.sheet.generic_stat("senses")),
            Modifier::new("aimed", AIM_BONUS),
        ];
        let evade = target.sheet.generic_stat("evade");
        let record = checked(
            &shooter.id,
            "aimed attack",
            shot,
            modifiers,
            Against::Target(evade),
        );
        let hits = record.total >= evade || natural_ten;
        let overridden_by = (natural_ten && record.total < evade).then(|| "natural 10".to_owned());
        ctx.emit(Event::public(Fact::Checked(CheckRecord {
            outcome: verdict(hits),
            overridden_by,
            ..record
        })))?;
        Ok(())
    }
}

/// Moves `who` to the `to` of `args`.
fn step_to(ctx: &mut Ctx<'_>, who: &Combatant, args: &Args) -> Result<(), DecideError> {
    let to = args
        .cell("to")?
        .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
    ctx.emit(Event::public(Fact::Moved {
        entity: who.id.clone(),
        from: who.position,
        to: Some(to),
    }))
}

impl RuleSystem for Mist {
    fn id(&self) -> &'static str {
        "toy-mist"
    }

    fn options(&self) -> Vec<OptionSpec> {
        common_options()
    }

    fn grid(&self) -> GridSpec {
        GRID
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        load_sheet(from_toml(text), &["evade"])
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        load_sheet(from_json(value), &["evade"])
    }

    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
        let now = turns::may_act(state.encounter());
        let mut out = Vec::new();
        for c in controlled(state, seat)
            .iter()
            .filter(|c| now.contains(&c.id))
        {
            out.push(spec(
                "aim",
                Some(&c.id),
                "Aim at one enemy: +3, resolved after its side's turn.",
                vec![arg("target", ArgKind::Entity, "the enemy", vec![])],
            ));
            out.push(move_spec(&c.id));
            out.push(spec(
                "strike",
                Some(&c.id),
                "Strike at the next cell: d10 + Senses against Evade.",
                vec![arg("target", ArgKind::Entity, "whom", vec![])],
            ));
            out.push(spec(
                "delay",
                Some(&c.id),
                "Hold your action to interrupt an enemy's strike.",
                vec![],
            ));
        }
        out.extend(start_spec(state, seat));
        if seat.is_gm() && state.encounter().active {
            // The acting side is what the argument takes now, not a limit: ending the other
            // side's turn is refused by the rule, with its reason.
            out.push(spec(
                "end_side_turn",
                None,
                "End the acting side's turn.",
                vec![ArgSpec {
                    now: acting_side(state).into_iter().collect(),
                    ..arg("side", ArgKind::Text, "whose turn ends", vec![])
                }],
            ));
        }
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
            "aim" => self.aim(ctx, seat, actor, args),
            "move" => self.walk(ctx, seat, actor, args),
            "strike" => self.strike(ctx, seat, actor, args),
            "delay" => self.delay(ctx, seat, actor),
            "end_side_turn" => self.end_side_turn(ctx, seat, args),
            START_ENCOUNTER => {
                // The players' side goes first.
                start_encounter(ctx, |_| true)?;
                ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
                let players = members(&ctx.state, "players");
                turns::open_group(ctx, "players", players)
            }
            _ => Err(unknown(self.id(), action)),
        }
    }

    fn after(&self, ctx: &mut Ctx<'_>, happened: &[Happening]) -> Result<(), DecideError> {
        for h in happened {
            if let Happening::GroupDone { group } = h {
                self.side_done(ctx, group)?;
            }
        }
        Ok(())
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        match step.rule.as_str() {
            MIST_INTERRUPT => self.interrupted(ctx, step, closing),
            _ => Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: step.rule.clone(),
                problem: "this system has no such step".into(),
            }),
        }
    }
}
