//! Does the rules interface fit systems that are not built yet? Three deliberately small rule
//! systems, written only against the crate's public API, each exercising one shape the shipped
//! system does not:
//!
//! - vigor: a reaction that spends a resource and rolls an opposed contest in which ties go to
//!   the attacker (a prompt to the defender's seat, mid-attack);
//! - mist: an attack declared now and resolved at a later trigger (a deferred step), and
//!   wasted if the target left range in the meantime;
//! - 10acity: a choice that decides which dice are drawn next (a critical's extra hero die or
//!   extra impact d4), so nothing may be drawn before the answer.
//!
//! Each system has only as much rule as its shape needs, with numbers small enough to check by
//! hand. Every command goes through the real `decide`, every event through the real `apply` on
//! a `MemoryState`, and every test ends by replaying its log onto an empty state.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use tablehold_rules::dice::{DiceExpr, Roll, ScriptedDice, roll};
use tablehold_rules::grid::{Cell, distance};
use tablehold_rules::options::{OptionSpec, TableOptions, common_options};
use tablehold_rules::{
    ActionSpec, Against, ArgKind, ArgSpec, ArgValue, Args, CheckRecord, Closing, Combatant,
    Command, CommandBody, Ctx, DecideError, EntityId, Event, Fact, Kind, MemoryState, Modifier,
    Outcome, PendingStep, Refusal, Resolver, RuleSystem, Seat, SeatId, Sheet, SheetError,
    StateView, StepValue, actions, apply, decide,
};

// ---------------------------------------------------------------------------------------
// The table: a state, the log that built it, and the replay check

fn options() -> TableOptions {
    TableOptions::resolve(&common_options(), &BTreeMap::new()).unwrap()
}

fn player(seat: &str) -> Seat {
    Seat::Player(SeatId::from(seat))
}

fn id(s: &str) -> EntityId {
    EntityId::from(s)
}

fn combatant(
    who: &str,
    owner: Option<&str>,
    side: &str,
    at: Option<Cell>,
    stats: &[(&str, i64)],
    resources: &[(&str, i64)],
) -> Combatant {
    let named = |pairs: &[(&str, i64)]| pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect();
    Combatant {
        id: id(who),
        name: who.to_owned(),
        kind: if owner.is_some() { Kind::Pc } else { Kind::Npc },
        owner: owner.map(SeatId::from),
        side: side.to_owned(),
        position: at,
        sheet: Sheet::generic(named(stats)),
        resources: named(resources),
        statuses: BTreeMap::new(),
        turn: BTreeMap::new(),
    }
}

/// A table whose state is built only from its log, starting from an empty state, so that the
/// final replay check covers the setup too.
struct Table {
    state: MemoryState,
    log: Vec<Event>,
}

impl Table {
    fn new(combatants: Vec<Combatant>, first_turn: Option<&str>) -> Self {
        let mut table = Table {
            state: MemoryState::new(options()),
            log: Vec::new(),
        };
        let mut setup = vec![Fact::EncounterStarted];
        setup.extend(combatants.into_iter().map(|c| Fact::CombatantAdded {
            replaces: false,
            combatant: Box::new(c),
        }));
        if let Some(first) = first_turn {
            setup.push(Fact::TurnStarted {
                entity: Some(id(first)),
            });
        }
        table.record(setup.into_iter().map(Event::public).collect());
        table
    }

    fn record(&mut self, events: Vec<Event>) {
        for event in events {
            apply(&mut self.state, &event).unwrap();
            self.log.push(event);
        }
    }

    /// Decides `command` and applies what it produced, as the server would.
    fn run(
        &mut self,
        system: &dyn RuleSystem,
        command: Command,
        dice: &mut ScriptedDice,
    ) -> Vec<Event> {
        let events = decide(system, &self.state, &command, dice)
            .unwrap_or_else(|e| panic!("{command:?} was not decided: {e}"));
        self.record(events.clone());
        events
    }

    /// Decides `command`, expecting a refusal; nothing is applied.
    fn refuse(
        &self,
        system: &dyn RuleSystem,
        command: Command,
        dice: &mut ScriptedDice,
    ) -> Refusal {
        match decide(system, &self.state, &command, dice) {
            Err(DecideError::Refused(refusal)) => refusal,
            other => panic!("{command:?} should have been refused, got {other:?}"),
        }
    }

    fn prompt(&self) -> &PendingStep {
        self.state
            .encounter
            .pending
            .last()
            .expect("a prompt is open")
    }

    fn resource(&self, who: &str, key: &str) -> i64 {
        self.state.combatants[&id(who)].resource(key)
    }

    /// Replay never decides: the same events applied from scratch give the same state.
    fn assert_replays(&self) {
        let mut fresh = MemoryState::new(options());
        for event in &self.log {
            apply(&mut fresh, event).unwrap();
        }
        assert_eq!(fresh, self.state);
    }
}

/// The facts as the table (the GM) holds them: stand-ins for the other seats left out.
fn facts(events: &[Event]) -> Vec<&Fact> {
    events
        .iter()
        .flat_map(|e| &e.parts)
        .filter(|p| !p.audience.is_stand_in())
        .map(|p| &p.fact)
        .collect()
}

fn checks(events: &[Event]) -> Vec<&CheckRecord> {
    facts(events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::Checked(c) => Some(c),
            _ => None,
        })
        .collect()
}

fn resolutions(events: &[Event]) -> Vec<(u64, &str, &Resolver)> {
    facts(events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::DecisionResolved {
                prompt_id,
                choice,
                by,
                ..
            } => Some((*prompt_id, choice.as_str(), by)),
            _ => None,
        })
        .collect()
}

/// The choices of the `answer` action in `seat`'s catalogue, if it has one.
fn answer_choices(
    system: &dyn RuleSystem,
    state: &dyn StateView,
    seat: &Seat,
) -> Option<Vec<String>> {
    actions(system, state, seat)
        .into_iter()
        .find(|a| a.name == "answer")
        .and_then(|a| a.args.into_iter().find(|arg| arg.name == "choice"))
        .map(|arg| arg.choices)
}

fn action_names(system: &dyn RuleSystem, state: &dyn StateView, seat: &Seat) -> Vec<String> {
    actions(system, state, seat)
        .into_iter()
        .map(|a| a.name)
        .collect()
}

fn choices(options: &[&str]) -> Option<Vec<String>> {
    Some(options.iter().map(|o| (*o).to_owned()).collect())
}

// ---------------------------------------------------------------------------------------
// Pieces every test system shares

/// Players act only for characters their seat owns; the GM for anyone.
fn controls(seat: &Seat, c: &Combatant) -> Result<(), Refusal> {
    match seat {
        Seat::Gm => Ok(()),
        Seat::Player(s) if c.owner.as_ref() == Some(s) => Ok(()),
        _ => Err(Refusal::forbidden(format!("{seat} does not play {}", c.id))),
    }
}

fn acting(ctx: &Ctx<'_>, seat: &Seat, actor: Option<&EntityId>) -> Result<Combatant, Refusal> {
    let who = actor.ok_or_else(|| Refusal::bad_argument("actor", "is required"))?;
    let c = ctx.combatant(who)?;
    controls(seat, &c)?;
    Ok(c)
}

/// Who decides for a character: its owner's seat, or the GM for an NPC. Naming the GM as an
/// eligible seat (rather than leaving `seats` empty) records the GM's answer as the NPC's own
/// decision instead of an override.
fn deciders(c: &Combatant) -> Vec<Seat> {
    match &c.owner {
        Some(s) => vec![Seat::Player(s.clone())],
        None => vec![Seat::Gm],
    }
}

fn controlled(state: &dyn StateView, seat: &Seat) -> Vec<Combatant> {
    state
        .combatant_ids()
        .iter()
        .filter_map(|i| state.combatant(i))
        // The GM may act for anyone, but their catalogue lists only the characters nobody plays.
        .filter(|c| match seat {
            Seat::Gm => c.owner.is_none(),
            _ => controls(seat, c).is_ok(),
        })
        .cloned()
        .collect()
}

fn arg(name: &str, kind: ArgKind, help: &str, choices: Vec<String>) -> ArgSpec {
    ArgSpec {
        choices,
        ..ArgSpec::new(name, kind, true, help)
    }
}

fn spec(name: &str, actor: Option<&EntityId>, help: &str, args: Vec<ArgSpec>) -> ActionSpec {
    ActionSpec {
        name: name.into(),
        help: help.into(),
        actor: actor.cloned(),
        args,
        costs: vec![],
    }
}

/// The expressions here are built from constants and sheet numbers already checked, so a
/// parse failure is a bug in the test system.
fn expr(text: &str) -> DiceExpr {
    DiceExpr::parse(text).unwrap()
}

fn verdict(success: bool) -> Outcome {
    if success {
        Outcome::Success
    } else {
        Outcome::Failure
    }
}

fn checked(
    actor: &EntityId,
    label: &str,
    roll: Roll,
    modifiers: Vec<Modifier>,
    against: Against,
) -> CheckRecord {
    let total = roll.total + modifiers.iter().map(|m| m.value).sum::<i64>();
    // The core's verdict; a caller whose system overrides it (a natural 10) says so.
    let judged = tablehold_rules::compare::judge(total, &against);
    CheckRecord {
        actor: Some(actor.clone()),
        label: label.into(),
        roll,
        modifiers,
        total,
        against,
        outcome: judged.outcome,
        overridden_by: None,
        margin: judged.margin,
    }
}

/// A step with nothing but its rule and actor; callers fill in what their shape needs.
fn step(rule: &str, actor: &EntityId) -> PendingStep {
    PendingStep {
        prompt_id: 0,
        rule: rule.into(),
        actor: Some(actor.clone()),
        seats: vec![],
        question: String::new(),
        options: vec![],
        default: String::new(),
        timeout_ms: 0,
        trigger: None,
        data: BTreeMap::new(),
        ..Default::default()
    }
}

/// A step whose data is not what its own system wrote: a bug, reported as a rule refusal
/// because `DecideError` has no variant for a malformed step.
fn malformed(step: &PendingStep, key: &str) -> DecideError {
    DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: format!("no `{key}`"),
    }
}

/// Sheets are the generic shape; a system only insists on the stats its rules read.
fn load_sheet(
    parsed: Result<Combatant, String>,
    required: &[&str],
) -> Result<Combatant, SheetError> {
    let c = parsed.map_err(SheetError::Syntax)?;
    if c.sheet.system() != tablehold_rules::sheet::GENERIC {
        return Err(SheetError::invalid("sheet.system", "must be `generic`"));
    }
    let stats = c.sheet.document().get("stats").and_then(|s| s.as_object());
    match required
        .iter()
        .find(|k| !stats.is_some_and(|s| s.contains_key(**k)))
    {
        Some(k) => Err(SheetError::invalid(
            format!("sheet.stats.{k}"),
            "is required",
        )),
        None => Ok(c),
    }
}

fn from_toml(text: &str) -> Result<Combatant, String> {
    toml::from_str(text).map_err(|e| e.to_string())
}

fn from_json(value: &serde_json::Value) -> Result<Combatant, String> {
    serde_json::from_value(value.clone()).map_err(|e| e.to_string())
}

fn unknown(system: &str, action: &str) -> DecideError {
    Refusal::UnknownAction {
        system: system.into(),
        action: action.into(),
    }
    .into()
}

// ---------------------------------------------------------------------------------------
// vigor: Dodge, a reaction costing 5 Vigor that must beat the attack

const VIGOR_DODGE: &str = "vigor.dodge";
const REACTION_VIGOR: i64 = 5;
/// The action d20 plus one d10 bonus die, on both sides of the contest.
const VIGOR_POOL: &str = "1d20+1d10";

struct Vigor;

impl RuleSystem for Vigor {
    fn id(&self) -> &'static str {
        "vigor"
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
        controlled(state, seat)
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
            .collect()
    }

    fn act(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        action: &str,
        args: &Args,
    ) -> Result<(), DecideError> {
        if action != "attack" {
            return Err(unknown(self.id(), action));
        }
        let attacker = acting(ctx, seat, actor)?;
        let target = ctx.combatant(&args.require_entity("target")?)?;
        let guard = target.sheet.generic_stat("guard");
        let attack = roll(&expr(VIGOR_POOL), ctx.dice)?;
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

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        let choice = closing.choice;
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
                let dodge = roll(&expr(VIGOR_POOL), ctx.dice)?;
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

/// A raider (GM) attacks Aune (seat p1); Bram (seat p2) is at the table but not attacked.
fn vigor_table(aune_vigor: i64) -> Table {
    Table::new(
        vec![
            combatant(
                "raider",
                None,
                "enemies",
                None,
                &[("guard", 12), ("damage", 3)],
                &[],
            ),
            combatant(
                "aune",
                Some("p1"),
                "players",
                None,
                &[("guard", 15)],
                &[("vigor", aune_vigor), ("durability", 10)],
            ),
            combatant(
                "bram",
                Some("p2"),
                "players",
                None,
                &[("guard", 14)],
                &[("vigor", 9)],
            ),
        ],
        None,
    )
}

fn raider_attacks_aune() -> Command {
    Command::act(
        Seat::Gm,
        Some("raider"),
        "attack",
        Args::default().with("target", ArgValue::Text("aune".into())),
    )
}

/// The attack with faces d20 12, d10 5: 17 beats Guard 15, so Aune is asked.
fn open_dodge_prompt(table: &mut Table) -> u64 {
    let mut dice = ScriptedDice::new(vec![12, 5, 1, 1]);
    let events = table.run(&Vigor, raider_attacks_aune(), &mut dice);
    assert_eq!(
        dice.used(),
        2,
        "the attack alone draws; the dodge dice wait for the answer"
    );
    let attack = checks(&events)[0];
    assert_eq!(
        (attack.total, &attack.against, attack.outcome),
        (17, &Against::Exceed(15), Outcome::Success)
    );
    let prompt = table.prompt();
    assert_eq!(prompt.rule, VIGOR_DODGE);
    assert_eq!(prompt.seats, vec![player("p1")]);
    assert_eq!(prompt.options, vec!["dodge", "take"]);
    assert_eq!(prompt.default, "take");
    assert_eq!(prompt.int("attack_total"), Some(17));
    assert_eq!(prompt.timeout_ms, 60_000);
    prompt.prompt_id
}

#[test]
fn vigor_dodge_is_offered_to_the_defender_alone_and_a_tie_goes_to_the_attacker() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);

    // The answer is the deciding seat's whole catalogue while the prompt is open. The GM gets
    // it too (an override), other players and spectators get nothing.
    let options = choices(&["dodge", "take"]);
    assert_eq!(
        action_names(&Vigor, &table.state, &player("p1")),
        vec!["answer"]
    );
    assert_eq!(answer_choices(&Vigor, &table.state, &player("p1")), options);
    assert_eq!(answer_choices(&Vigor, &table.state, &Seat::Gm), options);
    assert!(actions(&Vigor, &table.state, &player("p2")).is_empty());
    assert!(actions(&Vigor, &table.state, &Seat::Spectator(SeatId::from("s1"))).is_empty());

    // Dodge: d20 9 + d10 8 = 17 ties the attack's 17, and a tie is a hit.
    let mut dice = ScriptedDice::new(vec![9, 8]);
    let events = table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "dodge"),
        &mut dice,
    );
    assert_eq!(dice.used(), 2);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "dodge", &Resolver::Seat(player("p1")))]
    );
    let dodge = checks(&events)[0];
    assert_eq!(dodge.roll.faces_of(0), vec![9]);
    assert_eq!(dodge.roll.faces_of(1), vec![8]);
    assert_eq!(dodge.total, 17);
    assert_eq!(
        dodge.against,
        Against::Opposed {
            entity: id("raider"),
            total: 17
        }
    );
    assert_eq!(dodge.outcome, Outcome::Failure);
    assert_eq!(table.resource("aune", "vigor"), 7);
    assert_eq!(table.resource("aune", "durability"), 7);
    assert!(table.state.encounter.pending.is_empty());
    // Closed: the ordinary catalogue is back.
    assert_eq!(
        action_names(&Vigor, &table.state, &player("p1")),
        vec!["attack"]
    );
    table.assert_replays();
}

#[test]
fn vigor_dodge_that_beats_the_attack_avoids_the_hit() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    // d20 10 + d10 8 = 18 beats 17.
    let mut dice = ScriptedDice::new(vec![10, 8]);
    let events = table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "dodge"),
        &mut dice,
    );
    let dodge = checks(&events)[0];
    assert_eq!((dodge.total, dodge.outcome), (18, Outcome::Success));
    assert!(
        !facts(&events)
            .iter()
            .any(|f| matches!(f, Fact::DamageResolved { .. }))
    );
    assert_eq!(table.resource("aune", "vigor"), 7);
    assert_eq!(table.resource("aune", "durability"), 10);
    table.assert_replays();
}

#[test]
fn vigor_taking_the_hit_draws_nothing_and_costs_no_vigor() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let mut dice = ScriptedDice::new(vec![20, 10]);
    table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "take"),
        &mut dice,
    );
    assert_eq!(dice.used(), 0);
    assert_eq!(table.resource("aune", "vigor"), 12);
    assert_eq!(table.resource("aune", "durability"), 7);
    table.assert_replays();
}

#[test]
fn vigor_an_attack_equal_to_guard_misses_and_asks_nothing() {
    let mut table = vigor_table(12);
    // d20 10 + d10 5 = 15, equal to Guard 15: the attack must beat it.
    let mut dice = ScriptedDice::new(vec![10, 5]);
    let events = table.run(&Vigor, raider_attacks_aune(), &mut dice);
    let attack = checks(&events)[0];
    assert_eq!((attack.total, attack.outcome), (15, Outcome::Failure));
    assert!(table.state.encounter.pending.is_empty());
    assert_eq!(answer_choices(&Vigor, &table.state, &player("p1")), None);
    table.assert_replays();
}

#[test]
fn vigor_dodge_without_enough_vigor_is_refused_and_the_prompt_stays_open() {
    let mut table = vigor_table(4);
    let prompt = open_dodge_prompt(&mut table);
    // The option is still offered; choosing it is what is refused.
    assert_eq!(
        answer_choices(&Vigor, &table.state, &player("p1")),
        choices(&["dodge", "take"])
    );
    let before = table.state.clone();
    let mut dice = ScriptedDice::new(vec![20, 10]);
    let refusal = table.refuse(
        &Vigor,
        Command::answer(player("p1"), prompt, "dodge"),
        &mut dice,
    );
    assert_eq!(
        refusal,
        Refusal::InsufficientResource {
            resource: "vigor".into(),
            needed: 5,
            available: 4
        }
    );
    assert_eq!(refusal.code(), "insufficient_resource");
    assert_eq!(dice.used(), 0);
    assert_eq!(table.state, before);
    assert_eq!(table.prompt().prompt_id, prompt);

    // The same prompt can still be answered otherwise.
    table.run(
        &Vigor,
        Command::answer(player("p1"), prompt, "take"),
        &mut ScriptedDice::new(vec![]),
    );
    assert_eq!(table.resource("aune", "vigor"), 4);
    assert_eq!(table.resource("aune", "durability"), 7);
    table.assert_replays();
}

#[test]
fn vigor_a_timeout_applies_the_default_and_only_the_table_may_send_it() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let timeout = |seat| Command {
        seat,
        body: CommandBody::TimeOut { prompt_id: prompt },
    };
    let mut no_dice = ScriptedDice::new(vec![]);
    assert_eq!(
        table
            .refuse(&Vigor, timeout(player("p1")), &mut no_dice)
            .code(),
        "forbidden"
    );

    let events = table.run(&Vigor, timeout(Seat::Gm), &mut no_dice);
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "take", &Resolver::TimedOut)]
    );
    assert_eq!(no_dice.used(), 0);
    assert_eq!(table.resource("aune", "durability"), 7);
    table.assert_replays();
}

#[test]
fn vigor_an_open_prompt_refuses_other_commands_and_other_seats() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let mut dice = ScriptedDice::new(vec![20, 10]);

    // Another action waits for the answer, whoever sends it.
    let bram_attacks = Command::act(
        player("p2"),
        Some("bram"),
        "attack",
        Args::default().with("target", ArgValue::Text("raider".into())),
    );
    let refusal = table.refuse(&Vigor, bram_attacks, &mut dice);
    assert_eq!(refusal.code(), "awaiting_decision");
    assert!(matches!(refusal, Refusal::AwaitingDecision { prompt_id, .. } if prompt_id == prompt));
    assert_eq!(
        table
            .refuse(&Vigor, raider_attacks_aune(), &mut dice)
            .code(),
        "awaiting_decision"
    );

    // Only Aune's seat (or the GM) answers; a wrong id or a choice not offered is refused.
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(player("p2"), prompt, "take"),
                &mut dice
            )
            .code(),
        "forbidden"
    );
    let spectator = Seat::Spectator(SeatId::from("s1"));
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(spectator, prompt, "take"),
                &mut dice
            )
            .code(),
        "forbidden"
    );
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(player("p1"), prompt + 1, "take"),
                &mut dice
            )
            .code(),
        "no_such_prompt"
    );
    assert_eq!(
        table
            .refuse(
                &Vigor,
                Command::answer(player("p1"), prompt, "parry"),
                &mut dice
            )
            .code(),
        "not_an_option"
    );
    assert_eq!(dice.used(), 0);

    // A GM ruling goes ahead and leaves the prompt open.
    let note = Command::act(
        Seat::Gm,
        None,
        "rule.note",
        Args::default().with("text", ArgValue::Text("wind".into())),
    );
    table.run(&Vigor, note, &mut dice);
    assert_eq!(table.prompt().prompt_id, prompt);
    table.assert_replays();
}

#[test]
fn vigor_a_gm_answer_in_the_defenders_place_is_an_override() {
    let mut table = vigor_table(12);
    let prompt = open_dodge_prompt(&mut table);
    let mut dice = ScriptedDice::new(vec![10, 8]);
    let events = table.run(
        &Vigor,
        Command::answer(Seat::Gm, prompt, "dodge"),
        &mut dice,
    );
    assert_eq!(
        resolutions(&events),
        vec![(prompt, "dodge", &Resolver::GmOverride)]
    );
    assert_eq!(checks(&events)[0].total, 18);
    assert_eq!(table.resource("aune", "vigor"), 7);
    assert_eq!(table.resource("aune", "durability"), 10);
    table.assert_replays();
}

// ---------------------------------------------------------------------------------------
// mist: the aimed attack, declared now, resolved after the enemies' turn

const MIST_AIM: &str = "mist.aimed_attack";
const AIM_BONUS: i64 = 3;

struct Mist;

/// The side whose turn it is. The encounter has no field for a side, so the side turn is
/// carried by `current`: the first combatant (in id order) of the side that is acting.
fn acting_side(state: &dyn StateView) -> Option<String> {
    let current = state.encounter().current.as_ref()?;
    state.combatant(current).map(|c| c.side.clone())
}

fn first_of_side(state: &dyn StateView, side: &str) -> Option<EntityId> {
    state
        .combatant_ids()
        .into_iter()
        .find(|i| state.combatant(i).is_some_and(|c| c.side == side))
}

fn other_side(state: &dyn StateView, side: &str) -> Option<String> {
    state
        .combatant_ids()
        .iter()
        .filter_map(|i| state.combatant(i))
        .map(|c| c.side.clone())
        .find(|s| s != side)
}

fn after_side(side: &str) -> String {
    format!("after_side:{side}")
}

fn on_its_turn(ctx: &Ctx<'_>, c: &Combatant) -> Result<(), Refusal> {
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
fn cells_between(state: &dyn StateView, from: &Combatant, to: &Combatant) -> Option<i64> {
    let d = distance(from.position?, to.position?, state.options().diagonal());
    i64::try_from(d).ok()
}

impl Mist {
    fn aim(
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

    fn walk(
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
    fn end_side_turn(
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

    fn resolve_aim(&self, ctx: &mut Ctx<'_>, aim: &PendingStep) -> Result<(), DecideError> {
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
            let sides = side.into_iter().collect();
            out.push(spec(
                "end_side_turn",
                None,
                "End the acting side's turn.",
                vec![arg("side", ArgKind::Text, "whose turn ends", sides)],
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
fn mist_table() -> Table {
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

fn aim(seat: &str, who: &str, at: &str) -> Command {
    Command::act(
        player(seat),
        Some(who),
        "aim",
        Args::default().with("target", ArgValue::Text(at.into())),
    )
}

fn end_turn_of(side: &str) -> Command {
    Command::act(
        Seat::Gm,
        None,
        "end_side_turn",
        Args::default().with("side", ArgValue::Text(side.into())),
    )
}

/// Declares Beatrix's aimed attack, checking that it draws nothing and blocks nothing.
fn beatrix_aims(table: &mut Table) -> u64 {
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

// ---------------------------------------------------------------------------------------
// 10acity: a natural 10 on a hero die lets the player choose what to draw next

const TENACITY_CRITICAL: &str = "tenacity.critical";
/// Each skill and the attribute whose hero dice it rolls.
const SKILLS: [(&str, &str); 1] = [("investigation", "awareness")];

struct Tenacity;

/// The impact roll: floor(rank / 2) d4, plus one d4 from a critical. `None` when that is no
/// dice at all (ranks 0 and 1 without a critical).
fn impact_expr(rank: i64, extra_d4: bool) -> Option<DiceExpr> {
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
    fn finish(
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
        controlled(state, seat)
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
            .collect()
    }

    fn act(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        action: &str,
        args: &Args,
    ) -> Result<(), DecideError> {
        if action != "check" {
            return Err(unknown(self.id(), action));
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
fn tenacity_table() -> Table {
    Table::new(
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
        None,
    )
}

fn missa_investigates(cr: i64) -> Command {
    let args = Args::default()
        .with("skill", ArgValue::Text("investigation".into()))
        .with("cr", ArgValue::Int(cr));
    Command::act(player("p1"), Some("missa"), "check", args)
}

/// Rolls Missa's pool 10, 4, 7 against `cr`: a critical, so she is asked before anything is
/// compared. The script is longer than the pool to show nothing past it is drawn yet.
fn missa_crits(table: &mut Table, cr: i64) -> u64 {
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
    assert_eq!(
        action_names(&Tenacity, &table.state, &player("p1")),
        vec!["check"]
    );
    // A tie with the challenge number fails.
    let mut dice = ScriptedDice::new(vec![4, 7, 2]);
    let events = table.run(&Tenacity, missa_investigates(12), &mut dice);
    assert_eq!(checks(&events)[0].outcome, Outcome::Failure);
    table.assert_replays();
}

// ---------------------------------------------------------------------------------------
// Sheets

#[test]
fn generic_sheets_load_through_each_system() {
    let aune = combatant(
        "aune",
        Some("p1"),
        "players",
        Some(Cell::new(1, 2)),
        &[("guard", 15)],
        &[("vigor", 12)],
    );
    let json = serde_json::to_value(&aune).unwrap();
    assert_eq!(Vigor.sheet_from_json(&json), Ok(aune.clone()));
    let toml_text = toml::to_string(&aune).unwrap();
    assert_eq!(Vigor.sheet_from_toml(&toml_text), Ok(aune));
    // The same sheet lacks what mist and 10acity read.
    assert_eq!(
        Mist.sheet_from_json(&json),
        Err(SheetError::invalid("sheet.stats.evade", "is required"))
    );
    assert_eq!(
        Tenacity.sheet_from_toml(&toml_text),
        Err(SheetError::invalid("sheet.stats.awareness", "is required"))
    );
    assert!(matches!(
        Vigor.sheet_from_toml("id = 3"),
        Err(SheetError::Syntax(_))
    ));
}
