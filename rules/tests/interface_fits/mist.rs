//! mist: the aimed attack, declared now, resolved after the enemies' turn.

use super::*;

pub(crate) const MIST_AIM: &str = "mist.aimed_attack";
pub(crate) const AIM_BONUS: i64 = 3;

pub(crate) struct Mist;

/// The side whose turn it is. The encounter has no field for a side, so the side turn is
/// carried by `current`: the first combatant (in id order) of the side that is acting.
pub(crate) fn acting_side(state: &dyn StateView) -> Option<String> {
    let current = state.encounter().current.as_ref()?;
    state.combatant(current).map(|c| c.side.clone())
}

pub(crate) fn first_of_side(state: &dyn StateView, side: &str) -> Option<EntityId> {
    state
        .combatant_ids()
        .into_iter()
        .find(|i| state.combatant(i).is_some_and(|c| c.side == side))
}

pub(crate) fn other_side(state: &dyn StateView, side: &str) -> Option<String> {
    state
        .combatant_ids()
        .iter()
        .filter_map(|i| state.combatant(i))
        .map(|c| c.side.clone())
        .find(|s| s != side)
}

pub(crate) fn after_side(side: &str) -> String {
    format!("after_side:{side}")
}

pub(crate) fn on_its_turn(ctx: &Ctx<'_>, c: &Combatant) -> Result<(), Refusal> {
    if acting_side(&ctx.state).as_deref() == Some(c.side.as_str()) {
        Ok(())
    } else {
        Err(Refusal::NotYourTurn {
            actor: c.id.clone(),
            current: ctx.state.encounter().current.clone(),
        })
    }
}

/// Distance in cells from `from` to `to`, if both are on the map.
pub(crate) fn cells_between(
    state: &dyn StateView,
    from: &Combatant,
    to: &Combatant,
) -> Option<i64> {
    let d = distance(from.position?, to.position?, state.options().diagonal());
    i64::try_from(d).ok()
}

impl Mist {
    pub(crate) fn aim(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        args: &Args,
    ) -> Result<(), DecideError> {
        let shooter = acting(ctx, seat, actor)?;
        on_its_turn(ctx, &shooter)?;
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
                    distance: d.unwrap_or(-1),
                    limit: range,
                    unit: "m".into(),
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
        Ok(())
    }

    pub(crate) fn walk(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        args: &Args,
    ) -> Result<(), DecideError> {
        let walker = acting(ctx, seat, actor)?;
        on_its_turn(ctx, &walker)?;
        let to = args
            .cell("to")?
            .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
        ctx.emit(Event::public(Fact::Moved {
            entity: walker.id.clone(),
            from: walker.position,
            to: Some(to),
        }))?;
        Ok(())
    }

    /// Ends `side`'s turn: every step deferred until then resolves, in declaration order,
    /// before the next side's turn starts.
    pub(crate) fn end_side_turn(
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
        let trigger = after_side(&side);
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
        let next = other_side(&ctx.state, &side).and_then(|s| first_of_side(&ctx.state, &s));
        ctx.emit(Event::public(Fact::TurnStarted { entity: next }))?;
        Ok(())
    }

    pub(crate) fn resolve_aim(
        &self,
        ctx: &mut Ctx<'_>,
        aim: &PendingStep,
    ) -> Result<(), DecideError> {
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
                    "{}'s aimed attack is wasted: {target_id} is {d} m away, range {range}",
                    shooter.id
                ),
                None => format!(
                    "{}'s aimed attack is wasted: {target_id} is out of sight",
                    shooter.id
                ),
            };
            ctx.emit(Event::public(Fact::Noted { text }))?;
            return Ok(());
        };
        let shot = roll(&expr("1d10"), ctx.dice)?;
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

impl RuleSystem for Mist {
    fn id(&self) -> &'static str {
        "mist"
    }

    fn options(&self) -> Vec<OptionSpec> {
        common_options()
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        load_sheet(from_toml(text), &["evade"])
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        load_sheet(from_json(value), &["evade"])
    }

    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
        let side = acting_side(state);
        let mut out = Vec::new();
        for c in controlled(state, seat)
            .iter()
            .filter(|c| side.as_deref() == Some(c.side.as_str()))
        {
            out.push(spec(
                "aim",
                Some(&c.id),
                "Aim at one enemy: +3, resolved after its side's turn.",
                vec![arg("target", ArgKind::Entity, "the enemy", vec![])],
            ));
            out.push(spec(
                "move",
                Some(&c.id),
                "Move.",
                vec![arg("to", ArgKind::Cell, "destination", vec![])],
            ));
        }
        if seat.is_gm() {
            // The acting side is what the argument takes now, not a limit: ending the other
            // side's turn is refused by the rule, with its reason.
            out.push(spec(
                "end_side_turn",
                None,
                "End the acting side's turn.",
                vec![ArgSpec {
                    now: side.into_iter().collect(),
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
            "end_side_turn" => self.end_side_turn(ctx, seat, args),
            _ => Err(unknown(self.id(), action)),
        }
    }

    fn resume(
        &self,
        _ctx: &mut Ctx<'_>,
        step: &PendingStep,
        _closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        // mist asks nothing here: its aimed attack is a deferred step, never a prompt.
        Err(DecideError::BadStep {
            prompt_id: step.prompt_id,
            rule: step.rule.clone(),
            problem: "this system has no such step".into(),
        })
    }
}

/// Beatrix (p1) and Markus (p2) against a thug; the players' side is acting.
pub(crate) fn mist_table() -> Table {
    Table::new(
        vec![
            combatant(
                "beatrix",
                Some("p1"),
                "players",
                Some(Cell::new(0, 0)),
                &[("senses", 3), ("range", 10), ("evade", 7)],
                &[],
            ),
            combatant(
                "markus",
                Some("p2"),
                "players",
                Some(Cell::new(0, 2)),
                &[("senses", 2), ("range", 10), ("evade", 6)],
                &[],
            ),
            combatant(
                "thug",
                None,
                "enemies",
                Some(Cell::new(5, 0)),
                &[("senses", 1), ("range", 1), ("evade", 9)],
                &[],
            ),
        ],
        Some("beatrix"),
    )
}

pub(crate) fn aim(seat: &str, who: &str, at: &str) -> Command {
    Command::act(
        player(seat),
        Some(who),
        "aim",
        Args::default().with("target", ArgValue::Text(at.into())),
    )
}

pub(crate) fn end_turn_of(side: &str) -> Command {
    Command::act(
        Seat::Gm,
        None,
        "end_side_turn",
        Args::default().with("side", ArgValue::Text(side.into())),
    )
}

/// Declares Beatrix's aimed attack, checking that it draws nothing and blocks nothing.
pub(crate) fn beatrix_aims(table: &mut Table) -> u64 {
    let mut dice = ScriptedDice::new(vec![10, 10]);
    let events = table.run(&Mist, aim("p1", "beatrix", "thug"), &mut dice);
    assert_eq!(
        dice.used(),
        0,
        "an aimed attack draws nothing when declared"
    );
    let [Fact::StepDeferred { step }] = facts(&events)[..] else {
        panic!("expected one StepDeferred, got {events:?}");
    };
    assert_eq!(step.rule, MIST_AIM);
    assert_eq!(step.trigger.as_deref(), Some("after_side:enemies"));
    assert_eq!(step.entity("target"), Some(&id("thug")));
    assert_eq!(table.state.encounter.deferred.len(), 1);
    // A deferred step is not a prompt: nobody answers it and the table keeps playing.
    assert!(table.state.encounter.pending.is_empty());
    assert_eq!(answer_choices(&Mist, &table.state, &player("p1")), None);
    assert_eq!(answer_choices(&Mist, &table.state, &Seat::Gm), None);
    assert_eq!(
        action_names(&Mist, &table.state, &player("p1")),
        vec!["aim", "move"]
    );
    step.prompt_id
}

#[test]
fn mist_aimed_attacks_resolve_after_the_enemies_turn_in_declaration_order() {
    let mut table = mist_table();
    let beatrix = beatrix_aims(&mut table);
    let mut no_dice = ScriptedDice::new(vec![]);
    let events = table.run(&Mist, aim("p2", "markus", "thug"), &mut no_dice);
    let [Fact::StepDeferred { step: markus_step }] = facts(&events)[..] else {
        panic!("{events:?}")
    };
    let markus = markus_step.prompt_id;
    assert!(markus > beatrix, "prompt ids grow across deferred steps");

    // The end of the players' own turn is not their aim's trigger.
    let events = table.run(&Mist, end_turn_of("players"), &mut no_dice);
    assert_eq!(
        facts(&events),
        vec![&Fact::TurnStarted {
            entity: Some(id("thug"))
        }]
    );
    assert_eq!(table.state.encounter.deferred.len(), 2);
    // Players cannot aim in the enemies' turn.
    let refusal = table.refuse(&Mist, aim("p1", "beatrix", "thug"), &mut no_dice);
    assert_eq!(refusal.code(), "not_your_turn");

    // The thug steps to (7, 0): 7 cells from Beatrix, 7 + 2/2 = 8 from Markus, both in range.
    let to = Args::default().with("to", ArgValue::Cell(Cell::new(7, 0)));
    let events = table.run(
        &Mist,
        Command::act(Seat::Gm, Some("thug"), "move", to),
        &mut no_dice,
    );
    assert!(matches!(facts(&events)[..], [Fact::Moved { .. }]));
    assert_eq!(no_dice.used(), 0);

    // Beatrix d10 4 + Senses 3 + aimed 3 = 10 hits Evade 9; Markus d10 3 + 2 + 3 = 8 misses.
    let mut dice = ScriptedDice::new(vec![4, 3]);
    let events = table.run(&Mist, end_turn_of("enemies"), &mut dice);
    assert_eq!(dice.used(), 2);
    let order: Vec<&Fact> = facts(&events)
        .into_iter()
        .filter(|f| matches!(f, Fact::DeferredResumed { .. } | Fact::TurnStarted { .. }))
        .collect();
    assert_eq!(
        order,
        vec![
            &Fact::DeferredResumed { prompt_id: beatrix },
            &Fact::DeferredResumed { prompt_id: markus },
            &Fact::TurnStarted {
                entity: Some(id("beatrix"))
            },
        ]
    );
    let shots = checks(&events);
    let summary: Vec<_> = shots
        .iter()
        .map(|c| {
            (
                c.actor.clone().unwrap().0,
                c.roll.natural(),
                c.total,
                c.against.clone(),
                c.outcome,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "beatrix".to_owned(),
                Some(4),
                10,
                Against::Target(9),
                Outcome::Success
            ),
            (
                "markus".to_owned(),
                Some(3),
                8,
                Against::Target(9),
                Outcome::Failure
            ),
        ]
    );
    assert_eq!(
        shots[0].modifiers,
        vec![Modifier::new("Senses", 3), Modifier::new("aimed", 3)]
    );
    assert!(table.state.encounter.deferred.is_empty());
    assert_eq!(table.state.encounter.current, Some(id("beatrix")));
    table.assert_replays();
}

#[test]
fn mist_an_aimed_attack_whose_target_left_range_is_wasted_without_dice() {
    let mut table = mist_table();
    let beatrix = beatrix_aims(&mut table);
    let mut no_dice = ScriptedDice::new(vec![]);
    table.run(&Mist, end_turn_of("players"), &mut no_dice);

    // The GM's generic move ruling takes the thug 20 cells away, out of range 10.
    let ruling = Args::default()
        .with("target", ArgValue::Text("thug".into()))
        .with("to", ArgValue::Cell(Cell::new(20, 0)))
        .with("reason", ArgValue::Text("flees round the corner".into()));
    let rule_move = format!("{}move", tablehold_rules::engine::RULING_PREFIX);
    table.run(
        &Mist,
        Command::act(Seat::Gm, None, &rule_move, ruling),
        &mut no_dice,
    );
    assert_eq!(
        table.state.combatants[&id("thug")].position,
        Some(Cell::new(20, 0))
    );

    let mut dice = ScriptedDice::new(vec![10]);
    let events = table.run(&Mist, end_turn_of("enemies"), &mut dice);
    assert_eq!(dice.used(), 0, "a wasted aimed attack rolls nothing");
    assert!(checks(&events).is_empty());
    assert_eq!(
        facts(&events),
        vec![
            &Fact::DeferredResumed { prompt_id: beatrix },
            &Fact::Noted {
                text: "beatrix's aimed attack is wasted: thug is 20 m away, range 10".into()
            },
            &Fact::TurnStarted {
                entity: Some(id("beatrix"))
            },
        ]
    );
    assert!(table.state.encounter.deferred.is_empty());
    table.assert_replays();
}

#[test]
fn mist_aim_is_refused_out_of_turn_against_allies_and_out_of_range() {
    let mut table = mist_table();
    let mut no_dice = ScriptedDice::new(vec![]);
    assert_eq!(
        table
            .refuse(&Mist, aim("p1", "beatrix", "markus"), &mut no_dice)
            .code(),
        "rule"
    );
    assert_eq!(
        table
            .refuse(&Mist, aim("p2", "beatrix", "thug"), &mut no_dice)
            .code(),
        "forbidden"
    );
    let far = Args::default().with("to", ArgValue::Cell(Cell::new(0, 30)));
    table.run(
        &Mist,
        Command::act(player("p2"), Some("markus"), "move", far),
        &mut no_dice,
    );
    assert_eq!(
        table.refuse(&Mist, aim("p2", "markus", "thug"), &mut no_dice),
        Refusal::OutOfRange {
            what: "thug".into(),
            distance: 32,
            limit: 10,
            unit: "m".into()
        }
    );
    assert_eq!(
        table
            .refuse(&Mist, end_turn_of("enemies"), &mut no_dice)
            .code(),
        "rule"
    );
    table.assert_replays();
}
