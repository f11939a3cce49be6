//! The interrupt window: when a combatant declares an attack, a grab or another action in its
//! group's turn while someone of another group holds a delayed action, the holders' seats are
//! asked first, before anything is drawn, whether to act before it. Each seat answers `act`
//! (with the action: attack, grab, aim or act, and its arguments) or `pass` (the default, and
//! what a seat that does not answer in time gives). Those who act roll Speed against the
//! declarer's one Speed check; the quicker go first with their delayed action, the others'
//! stay held. Those who answer `together` make one combined action: it goes first only if all
//! of them are quicker. The quicker actions go one after another, each once the window the one
//! before it opened (a dodge) is closed, and then the declared action, if it still stands.

use std::collections::{BTreeMap, BTreeSet};

use crate::action::{ArgKind, ArgSpec, ArgValue, Args};
use crate::decision::{Answering, PendingStep, Resolver, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Part};
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};
use crate::toolkit::{deciders, turns};

use super::options::{INTERRUPT_WINDOW, is};
use super::round::{How, turn_actions};
use super::{DELAYED, actions, attack, cannot_act, checks};

pub const STEP_INTERRUPT: &str = "mist.interrupt";
/// The declared action, set aside until the windows the interrupters opened are closed.
pub const STEP_DECLARED: &str = "mist.declared";
/// A quicker interrupter's action, set aside so that each goes once the window before it closed.
const STEP_INTERRUPTER: &str = "mist.interrupter";
const AFTER_WINDOWS: &str = "mist.after_windows";

/// The declarations that open the window.
const DECLARED: [&str; 3] = ["attack", "grab", "act"];
/// What a held action may answer the window with.
const NESTED: [&str; 4] = ["attack", "grab", "aim", "act"];
/// The window's own arguments, taken off before the action's are checked.
const OWN: [&str; 3] = ["action", "who", "together"];

/// Whether `action` by `c` stands now, without drawing anything: its target, its weapon (on
/// the sheet, loaded, not jammed), its modifiers, its words.
fn stands(ctx: &Ctx<'_>, c: &Combatant, action: &str, args: &Args) -> Result<(), Refusal> {
    match action {
        "attack" | "grab" | "aim" => {
            let t = attack::target_of(ctx, c, args)?;
            let w = attack::weapon_of(c, args)?;
            if action == "attack" {
                attack::raise_of(args, &w)?;
            }
            if action == "aim" && t.side == c.side {
                return Err(Refusal::bad_argument("target", "is on the attacker's side"));
            }
            Ok(())
        }
        "act" => args.require_text("what").map(|_| ()),
        _ => Err(Refusal::bad_argument(
            "action",
            "must be one of attack, grab, aim, act",
        )),
    }
}

/// Runs `action` for `c` as it was declared or answered.
fn run(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    action: &str,
    args: &Args,
    how: How,
) -> Result<(), DecideError> {
    match action {
        "attack" => attack::attack(ctx, c, args, how, false),
        "grab" => attack::attack(ctx, c, args, how, true),
        "aim" => attack::aim(ctx, c, args, how),
        _ => super::round::other_action(ctx, c, args, how),
    }
}

/// The arguments as the GM's secret holds them, and back.
fn to_secret(args: &Args) -> BTreeMap<String, StepValue> {
    args.0
        .iter()
        .map(|(k, v)| {
            let value = match v {
                ArgValue::Flag(b) => StepValue::Flag(*b),
                ArgValue::Int(i) => StepValue::Int(*i),
                ArgValue::Cell(c) => StepValue::Cell(*c),
                ArgValue::Text(t) => StepValue::Text(t.clone()),
            };
            (format!("arg.{k}"), value)
        })
        .collect()
}

fn from_secret(step: &PendingStep) -> Result<Args, DecideError> {
    let mut out = BTreeMap::new();
    for (k, v) in &step.secret {
        let Some(name) = k.strip_prefix("arg.") else {
            continue;
        };
        let value = match v {
            StepValue::Flag(b) => ArgValue::Flag(*b),
            StepValue::Int(i) => ArgValue::Int(*i),
            StepValue::Cell(c) => ArgValue::Cell(*c),
            StepValue::Text(t) => ArgValue::Text(t.clone()),
            _ => return Err(DecideError::malformed(step, k)),
        };
        out.insert(name.to_owned(), value);
    }
    Ok(Args(out))
}

/// Opens the window when `c` declares `action` in its group's turn and someone of another
/// group holds a delayed action (and the table offers it). Returns whether it did; the action
/// is checked first, so a declaration that would be refused is refused, with nothing asked.
pub fn offer(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    action: &str,
    args: &Args,
    how: How,
) -> Result<bool, DecideError> {
    if how != How::Turn
        || !DECLARED.contains(&action)
        || is(ctx.state.options(), INTERRUPT_WINDOW, "never")
    {
        return Ok(false);
    }
    let holders: Vec<Combatant> = ctx
        .state
        .encounter()
        .order
        .iter()
        .filter_map(|id| ctx.state.combatant(id))
        .filter(|h| h.side != c.side && h.has_status(DELAYED) && cannot_act(h).is_none())
        .cloned()
        .collect();
    if holders.is_empty() {
        return Ok(false);
    }
    stands(ctx, c, action, args)?;
    let mut seats: Vec<Seat> = Vec::new();
    for s in holders.iter().flat_map(deciders) {
        if !seats.contains(&s) {
            seats.push(s);
        }
    }
    // What the holders see coming: the declarer, the target, the kind of an NPC's weapon (its
    // name and every number are the GM's), the words of another action.
    let what = match action {
        "act" => format!("act: {}", args.require_text("what")?),
        _ => {
            let target = args.require_entity("target")?;
            let w = attack::weapon_of(c, args)?;
            format!(
                "{action} {target} with {}",
                match attack::weapon_as_seen(c, &w) {
                    seen if seen == w.name => seen,
                    kind => format!("a {kind}"),
                }
            )
        }
    };
    let mut secret = to_secret(args);
    secret.insert(
        "holders".into(),
        StepValue::Entities(holders.iter().map(|h| h.id.clone()).collect()),
    );
    let mut window_args = vec![
        ArgSpec::new(
            "action",
            ArgKind::Text,
            false,
            "with `act`: the held action to take first",
        )
        .choices(&NESTED),
        ArgSpec::new(
            "who",
            ArgKind::Entity,
            false,
            "with `act`: which of your characters holding a delayed action (when several do)",
        ),
        ArgSpec::new(
            "together",
            ArgKind::Flag,
            false,
            "with `act`: one combined action with the others answering `together`; all must be quicker",
        ),
        ArgSpec::new(
            "target",
            ArgKind::Entity,
            false,
            "for attack, grab, aim: whom",
        ),
        ArgSpec::new(
            "weapon",
            ArgKind::Text,
            false,
            "for attack, grab, aim: a weapon id",
        ),
        ArgSpec::new(
            "what",
            ArgKind::Text,
            false,
            "for act: what the character does",
        ),
    ];
    window_args.extend(actions::modifier_args());
    ctx.ask(PendingStep {
        rule: STEP_INTERRUPT.into(),
        actor: Some(c.id.clone()),
        seats,
        question: format!(
            "{} is about to {what}: act first with a delayed action (a Speed contest), or pass?",
            c.id
        ),
        options: vec!["act".into(), "pass".into()],
        default: "pass".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data: BTreeMap::from([("action".to_owned(), StepValue::Text(action.to_owned()))]),
        answering: Answering::Each,
        args: window_args,
        secret,
        ..PendingStep::default()
    })?;
    Ok(true)
}

/// One holder's `act`: who, with what.
struct Interrupter {
    holder: EntityId,
    action: String,
    args: Args,
    together: bool,
}

fn holders(step: &PendingStep) -> Result<Vec<EntityId>, DecideError> {
    match step.secret.get("holders") {
        Some(StepValue::Entities(e)) => Ok(e.clone()),
        _ => Err(DecideError::malformed(step, "holders")),
    }
}

/// Reads one `act` answer of `seat`, refusing what does not fit: a holder not the seat's, one
/// no longer holding, an action other than those a held action may take, its arguments.
fn read(
    ctx: &Ctx<'_>,
    seat: &Seat,
    args: &Args,
    holders: &[EntityId],
) -> Result<Interrupter, Refusal> {
    let mine: Vec<&EntityId> = holders
        .iter()
        .filter(|h| {
            seat.is_gm()
                || ctx
                    .state
                    .combatant(h)
                    .is_some_and(|c| deciders(c).contains(seat))
        })
        .collect();
    let who = match (args.entity("who")?, &mine[..]) {
        (Some(w), _) if mine.contains(&&w) => w,
        (Some(_), _) => {
            return Err(Refusal::bad_argument(
                "who",
                "is not one of your characters holding a delayed action here",
            ));
        }
        (None, [one]) => (*one).clone(),
        (None, _) => {
            return Err(Refusal::bad_argument(
                "who",
                "is required: which of your characters holding a delayed action acts",
            ));
        }
    };
    let holder = ctx.combatant(&who)?;
    if !holder.has_status(DELAYED) || cannot_act(&holder).is_some() {
        return Err(Refusal::Rule(format!(
            "{who} no longer holds a delayed action"
        )));
    }
    let action = args
        .text("action")?
        .ok_or_else(|| Refusal::bad_argument("action", "is required to act"))?
        .to_owned();
    let mut nested = args.clone();
    for k in OWN {
        nested.0.remove(k);
    }
    let spec = actions::spec(&action, Some(&who))
        .ok_or_else(|| Refusal::bad_argument("action", "must be one of attack, grab, aim, act"))?;
    nested.validate(&spec.args, seat)?;
    stands(ctx, &holder, &action, &nested)?;
    Ok(Interrupter {
        holder: who,
        action,
        args: nested,
        together: args.flag("together")?,
    })
}

/// A seat's answer to the window, checked before it is recorded (see
/// `RuleSystem::check_answer`).
pub fn check_answer(
    ctx: &Ctx<'_>,
    step: &PendingStep,
    seat: &Seat,
    choice: &str,
    args: &Args,
) -> Result<(), Refusal> {
    if step.rule != STEP_INTERRUPT {
        return Ok(());
    }
    if choice != "act" {
        if args.is_empty() {
            return Ok(());
        }
        return Err(Refusal::bad_argument(
            "choice",
            "only `act` takes an action's arguments",
        ));
    }
    let holders = match step.secret.get("holders") {
        Some(StepValue::Entities(e)) => e.clone(),
        _ => return Err(Refusal::Rule("the window names no holders".into())),
    };
    read(ctx, seat, args, &holders).map(|_| ())
}

/// The window closed: the Speed contests, the quicker's actions, then the declared action set
/// aside until the windows those opened are closed.
pub fn resume(ctx: &mut Ctx<'_>, step: &PendingStep) -> Result<(), DecideError> {
    let declarer = ctx.step_actor(step)?;
    let held = holders(step)?;
    let mut acts: Vec<Interrupter> = Vec::new();
    for a in step.answers.iter().filter(|a| a.choice == "act") {
        // The GM's answer in a seat's place may name any holder.
        let seat = match &a.by {
            Resolver::Seat(s) => s.clone(),
            _ => Seat::Gm,
        };
        // What the table ruled since it was recorded (a target dead, a holder's action
        // cleared, an owner changed) may leave an answer standing no longer: it is skipped,
        // said to the seat that gave it and the GM only (it is that seat's hidden answer), and
        // the window still closes.
        let i = match read(ctx, &seat, &a.args, &held) {
            Ok(i) => i,
            Err(why) => {
                skipped(ctx, &seat, &a.args, &held, &why)?;
                continue;
            }
        };
        if !acts.iter().any(|x| x.holder == i.holder) {
            acts.push(i);
        }
    }
    // In the order the encounter holds them, so the draws do not follow who answered first.
    acts.sort_by_key(|i| held.iter().position(|h| *h == i.holder));
    if !acts.is_empty() {
        contest_and_act(ctx, &declarer, acts)?;
    }
    let action = step
        .text("action")
        .ok_or_else(|| DecideError::malformed(step, "action"))?;
    ctx.defer(PendingStep {
        rule: STEP_DECLARED.into(),
        actor: Some(declarer.id.clone()),
        trigger: Some(AFTER_WINDOWS.into()),
        data: BTreeMap::from([("action".to_owned(), StepValue::Text(action.to_owned()))]),
        secret: step
            .secret
            .iter()
            .filter(|(k, _)| k.starts_with("arg."))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        ..PendingStep::default()
    })?;
    Ok(())
}

/// Says that a recorded `act` of `seat` no longer stands and is skipped: to that seat and the
/// GM only, as the answer was theirs.
fn skipped(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    args: &Args,
    held: &[EntityId],
    why: &Refusal,
) -> Result<(), DecideError> {
    let who = match args.entity("who") {
        Ok(Some(w)) => w.0,
        _ => match seat {
            Seat::Player(s) => held
                .iter()
                .find(|h| {
                    ctx.state
                        .combatant(h)
                        .is_some_and(|c| c.owner.as_ref() == Some(s))
                })
                .map_or_else(|| s.0.clone(), |h| h.0.clone()),
            _ => "the GM's holder".to_owned(),
        },
    };
    let audience = match seat {
        Seat::Player(s) => Audience::Seats(BTreeSet::from([s.clone()])),
        _ => Audience::GmOnly,
    };
    ctx.emit(Event {
        parts: vec![Part {
            audience,
            fact: Fact::Noted {
                text: format!(
                    "{who}'s answer to act first no longer stands ({why}): it is skipped and the delayed action stays held"
                ),
            },
        }],
    })
}

/// Each interrupter's Speed check, then the declarer's one; the quicker act (a combined action
/// only if all of its members are quicker); the others' delayed actions stay held.
fn contest_and_act(
    ctx: &mut Ctx<'_>,
    declarer: &Combatant,
    acts: Vec<Interrupter>,
) -> Result<(), DecideError> {
    let mut speeds = Vec::new();
    for i in &acts {
        let c = ctx.combatant(&i.holder)?;
        speeds.push(attack::speed_roll(ctx, &c)?);
    }
    let theirs = attack::speed_roll(ctx, declarer)?;
    let quick: Vec<bool> = speeds
        .iter()
        .map(|s| checks::interrupts(*s, theirs))
        .collect();
    let together: Vec<&EntityId> = acts
        .iter()
        .filter(|i| i.together)
        .map(|i| &i.holder)
        .collect();
    let all_quick = acts
        .iter()
        .zip(&quick)
        .filter(|(i, _)| i.together)
        .all(|(_, q)| *q);
    let mut go = Vec::new();
    for (i, q) in acts.iter().zip(&quick) {
        let (who, d) = (&i.holder, &declarer.id);
        let text = match (*q, i.together && together.len() > 1, all_quick) {
            (true, false, _) | (true, true, true) => {
                go.push(i);
                format!("{who} is quicker than {d} and acts first")
            }
            (true, true, false) => format!(
                "{who} is quicker than {d}, but the combined action of {} needs all of them to be: {d}'s action goes first and {who}'s stays held",
                names(&together)
            ),
            (false, ..) => format!(
                "{who} is not quicker than {d}: its action goes first and {who}'s stays held"
            ),
        };
        ctx.emit(Event::public(Fact::Noted { text }))?;
    }
    // Each quicker action waits its turn, in order: one that opens a window (a dodge) is
    // answered before the next is drawn, as the declared action waits for all of them.
    for i in go {
        let mut secret = to_secret(&i.args);
        secret.insert("action".into(), StepValue::Text(i.action.clone()));
        ctx.defer(PendingStep {
            rule: STEP_INTERRUPTER.into(),
            actor: Some(i.holder.clone()),
            trigger: Some(AFTER_WINDOWS.into()),
            secret,
            ..PendingStep::default()
        })?;
    }
    Ok(())
}

/// A quicker interrupter's action, once no window is open.
fn interrupter_due(ctx: &mut Ctx<'_>, step: &PendingStep) -> Result<(), DecideError> {
    let c = ctx.step_actor(step)?;
    let action = step
        .secret_text("action")
        .ok_or_else(|| DecideError::malformed(step, "action"))?
        .to_owned();
    let args = from_secret(step)?;
    if cannot_act(&c).is_some() || !c.has_status(DELAYED) {
        return ctx.note_about(
            &c.id,
            format!("{}'s delayed action is lost: it can no longer act", c.id),
        );
    }
    // An earlier interrupter may have changed what this one's action stands on (its target
    // fell): it is said, and the action stays held.
    match run(ctx, &c, &action, &args, How::Delayed) {
        // Said to the interrupter's audience: an NPC's action and why it fell are the GM's.
        Err(DecideError::Refused(why)) => ctx.note_about(
            &c.id,
            format!(
                "{}'s {action} no longer stands ({why}): the delayed action stays held",
                c.id
            ),
        ),
        other => other,
    }
}

fn names(ids: &[&EntityId]) -> String {
    ids.iter()
        .map(|i| i.0.as_str())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// What a closed window set aside goes on, one step at a time while no window is open: the
/// quicker interrupters' actions in order, then the declared action.
pub fn declared_due(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    loop {
        let enc = ctx.state.encounter();
        if !enc.pending.is_empty() {
            return Ok(());
        }
        let Some(step) = enc
            .deferred
            .iter()
            .find(|s| s.trigger.as_deref() == Some(AFTER_WINDOWS))
            .cloned()
        else {
            return Ok(());
        };
        ctx.emit(Event::public(Fact::DeferredResumed {
            prompt_id: step.prompt_id,
        }))?;
        if step.rule == STEP_INTERRUPTER {
            interrupter_due(ctx, &step)?;
        } else {
            declared(ctx, &step)?;
        }
    }
}

/// The declared action goes on: if the declarer can still take it in its turn (a dodge may
/// have spent its action) and it still stands (its target may have fallen; the declarer may
/// then declare another).
fn declared(ctx: &mut Ctx<'_>, step: &PendingStep) -> Result<(), DecideError> {
    let c = ctx.step_actor(step)?;
    let action = step
        .text("action")
        .ok_or_else(|| DecideError::malformed(step, "action"))?
        .to_owned();
    let args = from_secret(step)?;
    if cannot_act(&c).is_some()
        || turns::check_turn(&ctx.state, &c.id).is_err()
        || turn_actions(&c) <= 0
    {
        return ctx.note_about(
            &c.id,
            format!("{}'s {action} does not happen: it can no longer act", c.id),
        );
    }
    match run(ctx, &c, &action, &args, How::Turn) {
        Err(DecideError::Refused(why)) => ctx.note_about(
            &c.id,
            format!(
                "{}'s {action} no longer stands ({why}): it may declare another",
                c.id
            ),
        ),
        other => other,
    }
}
