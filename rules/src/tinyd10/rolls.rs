//! The rolls every rule shares: the d10 (rolled again once on a 1 for a champion), power
//! points declared before a roll, checks against a toughness, saves, and challenges between
//! two creatures. Attacks and spells build on these.

use crate::account::Telling;
use crate::action::Args;
use crate::dice::Roll;
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::Combatant;
use crate::state::StateView;

use super::checks::{self, STANDARD_SAVE, Winner};
use super::content::Attribute;
use super::options::{CHECK_TIES, NATURAL, PP_SPENT, challenge_ties, is};
use super::sheet::Stats;
use super::tell::{self, Check};
use super::{PP, stats_of};

/// How many times a tied challenge is rolled again before the resister holds: a bound so a
/// scripted or unlucky stream cannot loop, far past what a table meets.
const REROLL_LIMIT: usize = 10;

/// A d10 for `who`. A champion (level 4) rolls a 1 again, once.
pub fn d10_for(ctx: &mut Ctx<'_>, who: &EntityId, stats: &Stats) -> Result<Roll, DecideError> {
    d10_told(ctx, who, stats, false)
}

/// [`d10_for`] for a roll the GM alone sees (`gm_only`): the line that a champion's 1 is
/// rolled again is then the GM's too, as the roll it belongs to.
pub fn d10_told(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    stats: &Stats,
    gm_only: bool,
) -> Result<Roll, DecideError> {
    let first = super::dice::d10(ctx.dice)?;
    if stats.champions_resolve && natural(ctx, &first, 0) == Some(1) {
        // The 1 is shown with its die, not only said: a draw no event shows is a roll a
        // verifier must refuse as discarded. The GM's creature's is the GM's alone: that it
        // rolls its 1s again is something on its sheet (the hidden die is still committed to
        // and opened at the reveal).
        let fact = crate::event::Fact::Rolled {
            by: Some(who.clone()),
            purpose: "a 1: champion's resolve rolls it again".into(),
            roll: first,
        };
        let hidden = gm_only
            || ctx
                .combatant(who)
                .is_ok_and(|c| crate::redact::gm_only_numbers(&c));
        ctx.emit(crate::event::Event {
            parts: vec![crate::event::Part {
                audience: if hidden {
                    crate::event::Audience::GmOnly
                } else {
                    crate::event::Audience::Everyone
                },
                fact,
            }],
        })?;
        return super::dice::d10(ctx.dice);
    }
    Ok(first)
}

/// The number "rolls a 10" and "rolls a 1" read: the die's face, or the total with `bonus`
/// (`tinyd10.natural`).
pub fn natural(ctx: &Ctx<'_>, roll: &Roll, bonus: i64) -> Option<i64> {
    let face = roll.natural().map(i64::from)?;
    if is(ctx.state.options(), NATURAL, "total") {
        Some(face + bonus)
    } else {
        Some(face)
    }
}

/// Power points `c` adds to a roll, declared before it: checked against the pool and, as the
/// table rules (`tinyd10.pp_spent`), spent at once. `None` when none are added.
pub fn declare_pp(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    pp: i64,
    also_needed: i64,
) -> Result<Option<Modifier>, DecideError> {
    if pp < 0 {
        return Err(Refusal::bad_argument("pp", "is not negative").into());
    }
    let have = ctx.combatant(&c.id)?.resource(PP);
    if pp + also_needed > have {
        return Err(Refusal::InsufficientResource {
            resource: "power points".into(),
            needed: pp + also_needed,
            available: have,
        }
        .into());
    }
    if pp == 0 {
        return Ok(None);
    }
    if is(ctx.state.options(), PP_SPENT, "spent") {
        ctx.set_resource(&c.id, PP, have - pp)?;
    }
    Ok(Some(Modifier::new("power points", pp)))
}

/// Spends `n` PP on an ability, refused (nothing spent) when the pool is short.
pub fn spend_pp(ctx: &mut Ctx<'_>, who: &EntityId, n: i64, on: &str) -> Result<(), DecideError> {
    let have = ctx.combatant(who)?.resource(PP);
    if have < n {
        return Err(Refusal::InsufficientResource {
            resource: format!("power points for {on}"),
            needed: n,
            available: have,
        }
        .into());
    }
    ctx.set_resource(who, PP, have - n)
}

fn ties_succeed(ctx: &Ctx<'_>) -> bool {
    is(ctx.state.options(), CHECK_TIES, "succeeds")
}

/// What a roll must reach: its number, what the sentence calls it (`toughness`, `spell save`)
/// and whether it is the GM's to know.
pub struct Target {
    pub value: i64,
    pub name: &'static str,
    pub hidden: bool,
}

impl Target {
    /// A toughness, hidden when it is the GM's creature's.
    pub fn toughness(value: i64, hidden: bool) -> Self {
        Target {
            value,
            name: "toughness",
            hidden,
        }
    }
}

/// A check or save of `who` against `toughness`: the d10, its modifiers, the table's tie
/// ruling. Returns whether it succeeded.
#[allow(clippy::too_many_arguments)]
pub fn against_toughness(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    stats: &Stats,
    label: String,
    modifiers: Vec<Modifier>,
    toughness: Target,
    words: (&'static str, &'static str),
) -> Result<bool, DecideError> {
    let Target {
        value: toughness,
        name,
        hidden,
    } = toughness;
    let roll = d10_for(ctx, who, stats)?;
    let total = tell::total(&roll, &modifiers);
    let ok = checks::passes(total, toughness, ties_succeed(ctx));
    let because = (total == toughness).then(|| {
        format!(
            "equal to the {name}: the table rules ties {}",
            if ok { "succeed" } else { "fail" }
        )
    });
    tell::check(
        ctx,
        Check {
            who,
            label,
            roll,
            modifiers,
            against: Some((toughness, name)),
            success: Some(ok),
            words,
            because,
            hidden,
            gm_only: false,
        },
    )?;
    Ok(ok)
}

/// `check`: d10 + attribute + 1 per skill named (and the actor's PP) against a toughness the
/// caller gives; a perception check is intellect with the race's bonus.
pub fn check_action(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    args: &Args,
    seat: &Seat,
) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let perception = args.flag("perception")?;
    let attribute = match (perception, args.text("attribute")?) {
        (true, _) => Attribute::Intellect,
        (false, Some(a)) => Attribute::parse(a).ok_or_else(|| {
            Refusal::bad_argument("attribute", "aspect, intellect, power or reflex")
        })?,
        (false, None) => {
            return Err(Refusal::bad_argument("attribute", "is required (or `perception`)").into());
        }
    };
    let mut modifiers = vec![Modifier::new(attribute.word(), stats.attribute(attribute))];
    for skill in args
        .text("skills")?
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        if !stats.has_skill(skill) {
            return Err(Refusal::Rule(format!("{} does not have the {skill} skill", c.id)).into());
        }
        modifiers.push(Modifier::new(skill, 1));
    }
    if perception && stats.perception != 0 {
        modifiers.push(Modifier::new("race: perception", stats.perception));
    }
    modifiers.extend(super::knacks::deed_bonus(&stats, args.text("deed")?)?);
    modifiers.extend(super::afflict::penalties(
        ctx,
        &c.id,
        false,
        Some(attribute),
    )?);
    let toughness = args.int("toughness")?.unwrap_or(STANDARD_SAVE);
    let hidden = args.flag("hidden")? && seat.is_gm();
    if let Some(m) = declare_pp(ctx, c, args.int("pp")?.unwrap_or(0), 0)? {
        modifiers.push(m);
    }
    let what = args.text("what")?.unwrap_or("a check").to_owned();
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "tries".into(),
        target: None,
        instrument: Some(what),
    });
    let label = if perception {
        "perception check".to_owned()
    } else {
        format!("{} check", attribute.word())
    };
    against_toughness(
        ctx,
        &c.id,
        &stats,
        label,
        modifiers,
        Target::toughness(toughness, hidden),
        ("succeeds", "fails"),
    )?;
    ctx.telling = None;
    Ok(())
}

/// A save of `who` with the best of `attributes` against `against`: divine purpose adds 2.
pub fn save(
    ctx: &mut Ctx<'_>,
    who: &Combatant,
    attributes: &[Attribute],
    against: Target,
    what: Option<&str>,
) -> Result<bool, DecideError> {
    let stats = stats_of(who)?;
    let attribute = attributes
        .iter()
        .copied()
        .max_by_key(|a| stats.attribute(*a))
        .unwrap_or(Attribute::Reflex);
    let mut modifiers = vec![Modifier::new(attribute.word(), stats.attribute(attribute))];
    if stats.has_ability("divine_purpose") {
        modifiers.push(Modifier::new("divine purpose", 2));
    }
    modifiers.extend(super::afflict::penalties(
        ctx,
        &who.id,
        false,
        Some(attribute),
    )?);
    let label = match what {
        Some(what) => format!("{} save against {what}", attribute.word()),
        None => format!("{} save", attribute.word()),
    };
    against_toughness(
        ctx,
        &who.id,
        &stats,
        label,
        modifiers,
        against,
        ("saves", "fails to save"),
    )
}

/// The GM's `save`: a creature saves with an attribute against a toughness (5 unless given).
pub fn save_action(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let who = ctx.combatant(&args.require_entity("target")?)?;
    let attribute = Attribute::parse(args.require_text("attribute")?)
        .ok_or_else(|| Refusal::bad_argument("attribute", "aspect, intellect, power or reflex"))?;
    let toughness = args.int("toughness")?.unwrap_or(STANDARD_SAVE);
    let what = args.text("what")?.unwrap_or("danger").to_owned();
    ctx.telling = Some(Telling {
        actor: Some(who.id.clone()),
        verb: "saves".into(),
        target: None,
        instrument: Some(what.clone()),
    });
    // The toughness the GM gives is the GM's when the saver's numbers are.
    let hidden = crate::redact::gm_only_numbers(&who);
    save(
        ctx,
        &who,
        &[attribute],
        Target::toughness(toughness, hidden),
        Some(&what),
    )?;
    ctx.telling = None;
    Ok(())
}

/// One side of a challenge: who, with what, and what it adds.
pub struct Side<'a> {
    pub who: &'a Combatant,
    pub attribute: Attribute,
    pub extra: Vec<Modifier>,
}

/// A challenge: both roll d10 + attribute (+ extras); the higher wins, a tie as the table
/// rules (`tinyd10.challenge_ties`).
pub fn challenge(
    ctx: &mut Ctx<'_>,
    starter: Side<'_>,
    resister: Side<'_>,
    what: &str,
) -> Result<Winner, DecideError> {
    challenge_told(ctx, starter, resister, what, false)
}

/// [`challenge`] told to the GM alone: a challenge whose very happening says something of the
/// GM's (Deathless is rolled only when its NPC is at 1 HP).
pub fn gm_challenge(
    ctx: &mut Ctx<'_>,
    starter: Side<'_>,
    resister: Side<'_>,
    what: &str,
) -> Result<Winner, DecideError> {
    challenge_told(ctx, starter, resister, what, true)
}

fn challenge_told(
    ctx: &mut Ctx<'_>,
    starter: Side<'_>,
    resister: Side<'_>,
    what: &str,
    gm_only: bool,
) -> Result<Winner, DecideError> {
    let ties = challenge_ties(ctx.state.options());
    for round in 0..REROLL_LIMIT {
        let mut totals = Vec::new();
        for side in [&starter, &resister] {
            let stats = stats_of(side.who)?;
            let mut modifiers = vec![Modifier::new(
                side.attribute.word(),
                stats.attribute(side.attribute),
            )];
            modifiers.extend(side.extra.iter().cloned());
            modifiers.extend(super::afflict::penalties(
                ctx,
                &side.who.id,
                false,
                Some(side.attribute),
            )?);
            let roll = d10_told(ctx, &side.who.id, &stats, gm_only)?;
            let again = if round > 0 { " (again)" } else { "" };
            let total = tell::check(
                ctx,
                Check {
                    who: &side.who.id,
                    label: format!("{} challenge: {what}{again}", side.attribute.word()),
                    roll,
                    modifiers,
                    against: None,
                    success: None,
                    words: ("", ""),
                    because: None,
                    hidden: false,
                    gm_only,
                },
            )?;
            totals.push(total);
        }
        let [a, b] = totals[..] else {
            break;
        };
        if let Some(w) = checks::challenge(a, b, ties) {
            let (winner, loser) = match w {
                Winner::Starter => (&starter.who.id, &resister.who.id),
                Winner::Resister => (&resister.who.id, &starter.who.id),
            };
            let tie = if a == b {
                " (a tie: the resister holds)"
            } else {
                ""
            };
            let fact = crate::event::Fact::Noted {
                text: format!("{winner} wins the {what} challenge against {loser}{tie}"),
            };
            let audience = if gm_only {
                crate::event::Audience::GmOnly
            } else {
                crate::event::Audience::Everyone
            };
            ctx.emit(crate::event::Event {
                parts: vec![crate::event::Part { audience, fact }],
            })?;
            return Ok(w);
        }
    }
    Ok(Winner::Resister)
}

/// The GM's `challenge`: two creatures oppose each other, each with an attribute.
pub fn challenge_action(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let a = ctx.combatant(&args.require_entity("starter")?)?;
    let b = ctx.combatant(&args.require_entity("resister")?)?;
    let attr = |k: &str| -> Result<Attribute, Refusal> {
        Attribute::parse(args.require_text(k)?)
            .ok_or_else(|| Refusal::bad_argument(k, "aspect, intellect, power or reflex"))
    };
    let (sa, ra) = (
        attr("attribute")?,
        match args.text("resister_attribute")? {
            Some(_) => attr("resister_attribute")?,
            None => attr("attribute")?,
        },
    );
    let mut extra = Vec::new();
    if let Some(m) = declare_pp(ctx, &a, args.int("pp")?.unwrap_or(0), 0)? {
        extra.push(m);
    }
    let what = args.text("what")?.unwrap_or("contest").to_owned();
    ctx.telling = None;
    challenge(
        ctx,
        Side {
            who: &a,
            attribute: sa,
            extra,
        },
        Side {
            who: &b,
            attribute: ra,
            extra: Vec::new(),
        },
        &what,
    )?;
    Ok(())
}
