//! Checks: d20 + attribute + modifiers against a target number, with the naturals' rules
//! (a natural 1 always fails; a natural 20 wins only on attacks), and stabilising the dying.

use crate::action::Args;
use crate::dice::{DiceExpr, DieKind, Primitive, Roll, Term, TermKind, roll};
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, Audience, CheckRecord, Event, Fact, Modifier, Outcome};
use crate::ids::{EntityId, Seat};
use crate::options::TableOptions;
use crate::refusal::Refusal;
use crate::state::StateView;

use super::burnout::add_level;
use super::burnout_levels::roll_penalty;
use super::options::{
    self, ALIAS_INT, ALIAS_SOC, ALIAS_STR, ARMOUR_AGL, HIDE_TNS, STABILISE_TN_BASE,
};
use super::sheet::Attribute;
use super::{BURNOUT, CONDITION, DEAD, DYING, FOCUS, ID, economy, sheet_of};

/// A single d20, the only die a GRIMWIRE check draws.
pub fn d20() -> DiceExpr {
    dice(1, Primitive::D20)
}

pub fn dice(count: u32, die: Primitive) -> DiceExpr {
    DiceExpr {
        terms: vec![Term {
            negative: false,
            kind: TermKind::Dice(crate::dice::DiceTerm {
                count,
                die: DieKind::Plain(die),
                keep: None,
                burst: false,
            }),
        }],
    }
}

/// The attribute a name stands for, aliases (INT, STR, SOC) resolved by the table's options.
pub fn resolve_attribute(opts: &TableOptions, name: &str) -> Result<Attribute, Refusal> {
    let upper = name.to_ascii_uppercase();
    let aliased = match upper.as_str() {
        "INT" => options::choice_of(opts, ALIAS_INT),
        "STR" => options::choice_of(opts, ALIAS_STR),
        "SOC" => options::choice_of(opts, ALIAS_SOC),
        other => other,
    };
    aliased.parse().map_err(|()| Refusal::UnknownName {
        system: ID.into(),
        what: "an attribute".into(),
        name: name.to_owned(),
    })
}

/// What a check is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A TN, shown to everyone or only to the GM.
    Tn { tn: i64, hidden: bool },
    /// No comparison: an open roll whose meaning the GM narrates.
    None,
}

/// The numbers of a rolled check, before it is written as an event.
#[derive(Debug, Clone)]
pub struct Rolled {
    pub roll: Roll,
    pub natural: i64,
    pub modifiers: Vec<Modifier>,
    pub total: i64,
    /// Why the roll fails whatever the die, if it does.
    pub fails: Option<&'static str>,
}

/// Rolls d20 + `attribute` + the roller's burnout penalty + what its statuses add + `extra`
/// modifiers.
pub fn roll_d20(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    attribute: Attribute,
    extra: &[Modifier],
) -> Result<Rolled, DecideError> {
    roll_d20_resisting(ctx, who, attribute, extra, false)
}

/// [`roll_d20`], for a roll that resists terror when `against_terror` (drink helps there).
pub fn roll_d20_resisting(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    attribute: Attribute,
    extra: &[Modifier],
    against_terror: bool,
) -> Result<Rolled, DecideError> {
    let c = ctx.combatant(who)?;
    let sheet = sheet_of(&c)?;
    let mut modifiers = vec![Modifier::new(
        attribute.to_string(),
        sheet.attribute(attribute),
    )];
    let burnout = roll_penalty(c.resource(BURNOUT));
    if burnout != 0 {
        modifiers.push(Modifier::new(
            format!("burnout {}", c.resource(BURNOUT)),
            burnout,
        ));
    }
    modifiers.extend(super::status::modifiers(&c, attribute, against_terror));
    modifiers.extend(footing(ctx, &c, attribute)?);
    modifiers.extend(extra.iter().filter(|m| m.value != 0).cloned());
    let roll = roll(&d20(), ctx.dice)?;
    let natural = roll.total;
    let total = natural + modifiers.iter().map(|m| m.value).sum::<i64>();
    Ok(Rolled {
        roll,
        natural,
        modifiers,
        total,
        fails: super::status::fails(&c, attribute),
    })
}

/// What the ground and the gear take off an AGL roll: difficult terrain underfoot (-2), and a
/// player's character's armour heavier than their TOG (`grimwire.armour_agl` a point short).
fn footing(
    ctx: &Ctx<'_>,
    c: &crate::state::Combatant,
    attribute: Attribute,
) -> Result<Vec<Modifier>, Refusal> {
    let mut out = Vec::new();
    if attribute != Attribute::AGL {
        return Ok(out);
    }
    let rough = c.position.is_some_and(|p| {
        ctx.state
            .encounter()
            .terrain
            .get(&p)
            .is_some_and(|t| t.difficult)
    });
    if rough {
        out.push(Modifier::new("difficult terrain", DIFFICULT_AGL));
    }
    let sheet = sheet_of(c)?;
    if let Some(armour) = &sheet.armour {
        let short = armour.tog_req - sheet.attribute(Attribute::TOG);
        if c.kind == crate::state::Kind::Pc && short > 0 {
            let per = options::int_of(ctx.state.options(), ARMOUR_AGL);
            out.push(Modifier::new(
                "armour too heavy",
                -short.saturating_mul(per),
            ));
        }
    }
    Ok(out)
}

/// Standing in difficult terrain.
pub const DIFFICULT_AGL: i64 = -2;

/// Outcome of a non-attack check: the total must reach the TN, and a natural 1 fails anyway,
/// as does a roll the roller's state fails whatever the die (paralysed, stunned). A natural 20
/// is not an automatic success outside attacks.
pub fn judge(r: &Rolled, tn: i64) -> (Outcome, Option<String>) {
    if let Some(why) = r.fails {
        (Outcome::Failure, Some(why.into()))
    } else if r.natural == 1 {
        (Outcome::Failure, Some("natural 1".into()))
    } else if r.total >= tn {
        (Outcome::Success, None)
    } else {
        (Outcome::Failure, None)
    }
}

/// Writes a rolled check against a TN as one event: the public part shows dice, total and
/// verdict; when hidden, the TN itself goes in a GM-only part.
pub fn record(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    label: &str,
    r: &Rolled,
    target: Target,
    outcome: Outcome,
    overridden_by: Option<String>,
) -> Result<(), DecideError> {
    let against = match target {
        Target::Tn { tn, hidden: false } => Against::Target(tn),
        Target::Tn { hidden: true, .. } => Against::Hidden,
        Target::None => Against::Nothing,
    };
    let overridden_by_copy = overridden_by.clone();
    let margin = crate::compare::judge(r.total, &against).margin;
    let mut event = Event::public(Fact::Checked(CheckRecord {
        actor: Some(who.clone()),
        label: label.to_owned(),
        roll: r.roll.clone(),
        modifiers: r.modifiers.clone(),
        total: r.total,
        against,
        outcome,
        overridden_by,
        margin,
    }));
    if let Target::Tn { tn, hidden: true } = target {
        let direction = crate::compare::Direction::Reach;
        event = event.with(
            Audience::GmOnly,
            Fact::HiddenTarget {
                label: label.to_owned(),
                target: tn,
                direction,
                margin: Some(direction.margin(r.total, tn)),
            },
        );
    }
    let tn = match target {
        Target::Tn { tn, hidden } => Some((tn, hidden)),
        Target::None => None,
    };
    let rolled = super::tell::Rolled {
        roll: &r.roll,
        modifiers: &r.modifiers,
        total: r.total,
    };
    let account = super::tell::check(ctx, who, label, rolled, tn, outcome, overridden_by_copy);
    ctx.emit(event.with(Audience::Everyone, Fact::Told(Box::new(account))))
}

/// Rolls `who`'s d20 + `attribute` + `extra` against `tn`, writes it as one event, and returns
/// the outcome: the whole of an ordinary check.
#[allow(clippy::too_many_arguments)]
pub fn check_tn(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    attribute: Attribute,
    extra: &[Modifier],
    label: &str,
    tn: i64,
    hidden: bool,
) -> Result<Outcome, DecideError> {
    let r = roll_d20(ctx, who, attribute, extra)?;
    let (outcome, why) = judge(&r, tn);
    record(ctx, who, label, &r, Target::Tn { tn, hidden }, outcome, why)?;
    Ok(outcome)
}

/// Whether a TN given by the GM is hidden from players under the table's options.
pub fn gm_tn_hidden(state: &dyn StateView, args: &Args) -> Result<bool, Refusal> {
    Ok(match args.0.get("hidden") {
        Some(_) => args.flag("hidden")?,
        None => options::flag_of(state.options(), HIDE_TNS),
    })
}

/// The `check` action: a GM-called check (with a TN, hidden by default) or a player's open roll.
pub fn called_check(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    who: &EntityId,
    args: &Args,
) -> Result<(), DecideError> {
    if ctx.combatant(who)?.has_status(DEAD) {
        return Err(Refusal::CannotAct {
            actor: who.clone(),
            reason: "dead".into(),
        }
        .into());
    }
    // A roll a player makes of their own accord (an info roll) is an auxiliary action on
    // their turn; a check the GM calls for costs nothing and may come at any time.
    if !seat.is_gm() {
        economy::require_turn(ctx, who)?;
        economy::spend_auxiliary(ctx, who)?;
    }
    let attribute_name = args.require_text("attribute")?;
    let attribute = resolve_attribute(ctx.state.options(), attribute_name)?;
    let tn = args.int("tn")?;
    let modifier = args.int("modifier")?.unwrap_or(0);
    let extra = [Modifier::new("situation", modifier)];
    let label = format!("{attribute_name} check");
    if let Some(text) = args.text("helpers")? {
        let helpers = super::assist::helpers(ctx, who, attribute, text)?;
        let tn = match tn {
            Some(tn) => Some((tn, gm_tn_hidden(&ctx.state, args)?)),
            None => None,
        };
        return super::assist::check(ctx, who, attribute, attribute_name, &helpers, &extra, tn);
    }
    match tn {
        Some(tn) => {
            let hidden = gm_tn_hidden(&ctx.state, args)?;
            check_tn(ctx, who, attribute, &extra, &label, tn, hidden).map(|_| ())
        }
        None => {
            let r = roll_d20(ctx, who, attribute, &extra)?;
            record(ctx, who, &label, &r, Target::None, Outcome::Unjudged, None)
        }
    }
}

/// Stabilising a dying character: optionally an INT roll (when there is no medkit or medical
/// knowledge), then a COR roll, both against the GM's TN (by default the table's base plus how
/// far below 0 the dying character is). Success: Condition 1, Focus 0, out cold, +1 burnout.
pub fn stabilise(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    let target = args.require_entity("target")?;
    let patient = ctx.combatant(&target)?;
    if !patient.has_status(DYING) {
        return Err(Refusal::Rule(format!("{target} is not dying")).into());
    }
    economy::require_reach(ctx, who, &target, 3)?;
    if !super::grapple::spend_action_held(ctx, who, "stabilising")? {
        return Ok(());
    }
    let given = args.int("tn")?;
    let tn = given.unwrap_or_else(|| {
        options::int_of(ctx.state.options(), STABILISE_TN_BASE)
            + (-patient.resource(CONDITION)).max(0)
    });
    let hidden = given.is_some() && gm_tn_hidden(&ctx.state, args)?;
    let modifier = Modifier::new("situation", args.int("modifier")?.unwrap_or(0));
    // Without a word about a medkit or medical knowledge, the INT roll is owed.
    let method = args.text("method")?.unwrap_or("int");
    match method {
        "medkit" | "knowledge" => {}
        "int" => {
            let int = resolve_attribute(ctx.state.options(), "INT")?;
            let outcome = check_tn(
                ctx,
                who,
                int,
                std::slice::from_ref(&modifier),
                "INT stabilise",
                tn,
                hidden,
            )?;
            if outcome == Outcome::Failure {
                return Ok(());
            }
        }
        other => {
            return Err(Refusal::bad_argument(
                "method",
                &format!("`{other}` must be medkit, knowledge or int"),
            )
            .into());
        }
    }
    let outcome = check_tn(
        ctx,
        who,
        Attribute::COR,
        &[modifier],
        "COR stabilise",
        tn,
        hidden,
    )?;
    if outcome == Outcome::Success {
        let max = sheet_of(&patient)?.condition_max;
        ctx.set_status(&target, DYING, None)?;
        // Medical attention stops a bleeding wound too: else it would drop the patient
        // straight back below 0.
        super::status::stop_bleeding(ctx, &target)?;
        ctx.set_resource(&target, CONDITION, 1)?;
        ctx.set_resource(&target, FOCUS, 0)?;
        add_level(ctx, &target, "revived from dying", max)?;
    }
    Ok(())
}
