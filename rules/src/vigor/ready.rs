//! Ready: an action now sets another action aside for a condition, said in words. If the
//! condition comes before the readier's next turn begins, the GM (who judges words) springs it
//! and the readied action is taken at once as a reaction: outside the readier's turn, by a
//! creature that can react, with no Vigor cost since the text names none. At the readier's
//! next turn it lapses.
//!
//! What may be readied is any one-action thing a creature does in its turn: an attack, a move,
//! standing up, an escape, a skill, an item, a one-action ability, stabilising. Emergency aid
//! takes two actions and a longer ability more, and the text makes the readied thing a single
//! reaction; Defend and Ready only matter in one's own turn. The readied action's arguments are
//! checked when it is readied, and its rules when it is sprung (a target that has walked out of
//! reach is refused then, and the GM may spring it later or let it lapse).

use std::collections::BTreeMap;

use crate::action::{ArgValue, Args};
use crate::decision::{PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};
use crate::toolkit::deciders;

use super::attack::cannot_react;
use super::round::spend;
use super::{ACTIONS, sheet_of};

pub const STEP_READY: &str = "vigor.ready";

/// The actions that may be readied, in the order the help lists them.
pub const READYABLE: [&str; 8] = [
    "attack",
    "move",
    "stand",
    "escape",
    "use_skill",
    "use_item",
    "use_ability",
    "stabilise",
];

/// The step's keys: the readied action's name, and each of its arguments under `arg.`.
const ACTION: &str = "action";
const ARG: &str = "arg.";

pub fn ready(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    args: &Args,
    seat: &Seat,
) -> Result<(), DecideError> {
    let trigger = args
        .text("trigger")?
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| Refusal::bad_argument("trigger", "is required: when should it happen?"))?
        .to_owned();
    let action = args
        .text("action")?
        .unwrap_or("attack")
        .to_ascii_lowercase();
    if !READYABLE.contains(&action.as_str()) {
        return Err(Refusal::bad_argument(
            "action",
            &format!(
                "can be one of {}: a readied action is one action taken as a reaction",
                READYABLE.join(", ")
            ),
        )
        .into());
    }
    let readied = Args(
        args.0
            .iter()
            .filter(|(k, _)| *k != "trigger" && *k != "action")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    );
    let spec =
        super::actions::spec(&action, Some(&c.id)).ok_or_else(|| Refusal::UnknownAction {
            system: super::ID.into(),
            action: action.clone(),
        })?;
    readied.validate(&spec.args, seat)?;
    if let Some(target) = readied.entity("target")? {
        ctx.combatant(&target)?;
    }
    if action == "use_ability" {
        one_action_ability(c, &readied)?;
    }
    names_on_the_sheet(c, &action, &readied)?;
    if readied_step(ctx, &c.id).is_some() {
        return Err(Refusal::Rule(format!("{} already has an action readied", c.id)).into());
    }
    spend(ctx, c, 1)?;
    let mut data = BTreeMap::from([(ACTION.to_owned(), StepValue::Text(action.clone()))]);
    for (k, v) in &readied.0 {
        data.insert(format!("{ARG}{k}"), step_value(v));
    }
    ctx.defer(PendingStep {
        rule: STEP_READY.into(),
        actor: Some(c.id.clone()),
        seats: deciders(c),
        question: format!("{} readies {}: {trigger}", c.id, what(&action, &readied)),
        trigger: Some(trigger),
        data,
        ..PendingStep::default()
    })?;
    Ok(())
}

/// "an attack on raider", "to move", "to use the skill awareness": what the table hears is set
/// aside. Weapons, items and abilities are not named: the readier's sheet is its own.
pub(crate) fn what(action: &str, args: &Args) -> String {
    let on = args
        .entity("target")
        .ok()
        .flatten()
        .map(|t| format!(" on {t}"))
        .unwrap_or_default();
    match action {
        "attack" => format!("an attack{on}"),
        "use_skill" => format!(
            "a skill check ({}){on}",
            args.text("skill").ok().flatten().unwrap_or("a skill")
        ),
        "use_item" => format!("an item{on}"),
        "use_ability" => format!("an ability{on}"),
        "stabilise" => format!("first aid{on}"),
        "stand" => "to stand up".to_owned(),
        "escape" => "to flee".to_owned(),
        _ => "to move".to_owned(),
    }
}

/// What the readied action names from the readier's sheet is there, and an attack does not
/// aim at the readier itself: those cannot change before the spring, so they are refused now rather
/// than after an action was paid for nothing. What can change (reach, what is left of an item,
/// Vigor) is judged at the spring.
fn names_on_the_sheet(c: &Combatant, action: &str, args: &Args) -> Result<(), Refusal> {
    let sheet = sheet_of(c)?;
    let unknown = |what: &str, name: &str| Refusal::UnknownName {
        system: super::ID.into(),
        what: format!("{what} on {}'s sheet", c.id),
        name: name.to_owned(),
    };
    for key in ["weapon", "off_hand"] {
        if let Some(id) = args.text(key)?
            && sheet.weapon(Some(id)).is_none()
        {
            return Err(unknown("a weapon", id));
        }
    }
    if let Some(id) = args.text("item")?
        && !sheet.items.iter().any(|i| i.id == id)
    {
        return Err(unknown("an item", id));
    }
    if action == "attack" && args.entity("target")?.as_ref() == Some(&c.id) {
        return Err(Refusal::bad_argument("target", "names someone else"));
    }
    Ok(())
}

/// An ability set aside must be over in one action: a readied action is a single reaction.
fn one_action_ability(c: &Combatant, args: &Args) -> Result<(), Refusal> {
    let id = args.require_text("ability")?;
    let ability = sheet_of(c)?
        .abilities_list
        .iter()
        .find(|a| a.id == id)
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("an ability of {}", c.id),
            name: id.to_owned(),
        })?;
    if ability.actions > 1 {
        return Err(Refusal::Rule(format!(
            "{} takes {} actions; a readied action is one",
            ability.name, ability.actions
        )));
    }
    Ok(())
}

fn step_value(v: &ArgValue) -> StepValue {
    match v {
        ArgValue::Flag(b) => StepValue::Flag(*b),
        ArgValue::Int(i) => StepValue::Int(*i),
        ArgValue::Cell(c) => StepValue::Cell(*c),
        ArgValue::Text(t) => StepValue::Text(t.clone()),
    }
}

fn arg_value(v: &StepValue) -> Option<ArgValue> {
    Some(match v {
        StepValue::Flag(b) => ArgValue::Flag(*b),
        StepValue::Int(i) => ArgValue::Int(*i),
        StepValue::Cell(c) => ArgValue::Cell(*c),
        StepValue::Text(t) => ArgValue::Text(t.clone()),
        StepValue::Entity(e) => ArgValue::Text(e.to_string()),
        _ => return None,
    })
}

/// The readied step of `who`, if any.
fn readied_step(ctx: &Ctx<'_>, who: &EntityId) -> Option<PendingStep> {
    ctx.state
        .encounter()
        .deferred
        .iter()
        .find(|s| s.rule == STEP_READY && s.actor.as_ref() == Some(who))
        .cloned()
}

/// The GM says the condition has come: the readied action is taken now, as a reaction. The
/// readier is given the one action it set aside and takes it through the same rules as in its
/// turn; whatever the action leaves unspent is taken back.
pub fn spring(ctx: &mut Ctx<'_>, args: &Args, seat: &Seat) -> Result<(), DecideError> {
    let who = args.require_entity("target")?;
    let c = ctx.combatant(&who)?;
    let step = readied_step(ctx, &who)
        .ok_or_else(|| Refusal::Rule(format!("{who} has no action readied")))?;
    if let Some(why) = cannot_react(ctx, &c) {
        return Err(Refusal::Rule(format!("{who} cannot react now: {why}")).into());
    }
    // A readied action is still an action, taken as a reaction: the Winded take none (their
    // Defense and openings are reactions, not actions, and stay open to them).
    if let Some(why) = super::cannot_act(&c) {
        return Err(Refusal::Rule(format!("{who} cannot take its readied action: {why}")).into());
    }
    // Steps readied before actions other than attacks could be: a target and a weapon.
    let action = step.text(ACTION).unwrap_or("attack").to_owned();
    let readied = Args(
        step.data
            .iter()
            .filter_map(|(k, v)| {
                let name = k.strip_prefix(ARG).or(match k.as_str() {
                    "target" | "weapon" => Some(k.as_str()),
                    _ => None,
                })?;
                Some((name.to_owned(), arg_value(v)?))
            })
            .collect(),
    );
    let target = readied.entity("target")?;
    if let Some(target) = target
        && ctx.combatant(&target)?.has_status(super::DEAD)
    {
        ctx.emit(Event::public(Fact::DeferredResumed {
            prompt_id: step.prompt_id,
        }))?;
        return ctx.note_about(&who, format!("{who}'s readied action has no one to take"));
    }
    ctx.emit(Event::public(Fact::DeferredResumed {
        prompt_id: step.prompt_id,
    }))?;
    let before = c.resource(ACTIONS);
    ctx.set_resource(&who, ACTIONS, 1)?;
    let me = ctx.combatant(&who)?;
    super::take(ctx, &me, &action, &readied, seat)?;
    if ctx.combatant(&who)?.resource(ACTIONS) != before {
        ctx.set_resource(&who, ACTIONS, before)?;
    }
    Ok(())
}

/// At the start of `who`'s turn its readied action, unused, lapses.
pub fn lapse(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    if let Some(step) = readied_step(ctx, who) {
        ctx.emit(Event::public(Fact::DeferredResumed {
            prompt_id: step.prompt_id,
        }))?;
        ctx.note_about(who, format!("{who}'s readied action lapses"))?;
    }
    Ok(())
}
