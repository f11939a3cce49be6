//! Grappling: the grab and hold, and what a hold means to both sides until it ends.
//!
//! A grapple is the grappler's action: COR to grab by the attack procedure, then TOG or COR
//! (the better, or the one named) against `grimwire.grapple_hold_tn` to hold. A hold is two
//! statuses, `grappled:<grappler>` on the held and `grappling:<held>` on the grappler, so a
//! character may hold and be held by several at once, and a double grapple is two holds.
//!
//! While it lasts:
//! - the held has -5 AGL (once, however many hold them; it adds to knocked down's -3), moves at
//!   half speed, and before its first action and its first move of a turn wins an opposed roll
//!   against every grappler (STR or COR for an action, STR for a move; STR is read through
//!   `grimwire.alias_str`), beating the highest. A lost roll costs that action (or the turn's
//!   movement). Breaking out (`break_free`, the action, the same roll) and grappling one's own
//!   grappler need no roll first: they are the roll.
//! - the grappler moves at half speed, after a TOG or AGL roll against the GM's TN for the
//!   weight (`grimwire.grapple_move_tn`) once a turn, and carries the held along; attacks the
//!   held with COR against the held's AGL roll; may take them down (STR or COR against AGL) or
//!   choke them (STR or COR against STR or COR: suffocating, a MND 11 roll at the start of each
//!   of their turns or knocked out). An attack on the held that misses may hit the grappler:
//!   the stray attack's AGL 11, which the attacker may ease with COR.
//!
//! A hold ends when either side lets go (`release`, a free action), the held breaks out, or the
//! grappler can no longer hold on: dead, unable to act, or more than 3 m away.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier, Outcome};
use crate::grid::{Cell, distance};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::attack::{MELEE_M, Swing, Verdict, land};
use super::check::{Target, check_tn, gm_tn_hidden, judge, record, resolve_attribute, roll_d20};
use super::contest::{Side, best, contest};
use super::economy::{MOVE_CLOSED, require_turn, spend_action, spend_free};
use super::options::{self, GRAPPLE_HOLD_TN, GRAPPLE_MOVE_TN};
use super::sheet::Attribute;
use super::status::{self, KNOCKED_DOWN, KNOCKED_OUT};
use super::{DEAD, shove};

/// Key prefixes: `grappled:<grappler>` on the held, `grappling:<held>` on the grappler.
pub const GRAPPLED: &str = "grappled:";
pub const GRAPPLING: &str = "grappling:";
/// On a choked character (source: the choker): a MND roll at each turn's start to stay awake.
pub const SUFFOCATING: &str = "suffocating";
/// The text's TN to stay conscious while suffocating.
pub const SUFFOCATION_TN: i64 = 11;
pub const GRAPPLED_AGL: i64 = -5;
/// Turn counters: 1 once this turn's roll to act, or to move, has been won.
pub const WON_ACT: &str = "grapple_act_won";
pub const WON_MOVE: &str = "grapple_move_won";

fn others(c: &Combatant, prefix: &str) -> Vec<EntityId> {
    c.statuses
        .keys()
        .filter_map(|k| k.strip_prefix(prefix))
        .map(EntityId::from)
        .collect()
}

/// Whether `c` is held by anyone.
pub fn is_held(c: &Combatant) -> bool {
    c.statuses.keys().any(|k| k.starts_with(GRAPPLED))
}

/// Whether `c` holds anyone.
pub fn is_holding(c: &Combatant) -> bool {
    c.statuses.keys().any(|k| k.starts_with(GRAPPLING))
}

/// Who holds `c`.
pub fn holders(c: &Combatant) -> Vec<EntityId> {
    others(c, GRAPPLED)
}

/// Whether `c` holds `target`.
pub fn holds(c: &Combatant, target: &EntityId) -> bool {
    c.has_status(&format!("{GRAPPLING}{target}"))
}

/// What being held adds to a roll of `attribute`.
pub fn modifiers(c: &Combatant, attribute: Attribute) -> Vec<Modifier> {
    if attribute == Attribute::AGL && is_held(c) {
        vec![Modifier::new("grappled", GRAPPLED_AGL)]
    } else {
        Vec::new()
    }
}

/// STR (as the table reads it: `grimwire.alias_str`), and `other` beside it.
fn str_or(ctx: &Ctx<'_>, other: Option<Attribute>) -> Vec<Attribute> {
    let mut v = vec![resolve_attribute(ctx.state.options(), "STR").unwrap_or(Attribute::TOG)];
    v.extend(other);
    v
}

fn say(ctx: &mut Ctx<'_>, text: String) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::Noted { text }))
}

fn mark(source: &EntityId) -> Status {
    Status {
        source: source.0.clone(),
        magnitude: 0,
        rounds_left: None,
    }
}

pub fn grapple(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let target = shove::target_in_reach(ctx, who, args)?;
    if holds(&ctx.combatant(who)?, &target) {
        return Err(Refusal::Rule(format!("{who} already holds {target}")).into());
    }
    let hold = match args.text("hold")? {
        Some(name) => resolve_attribute(ctx.state.options(), name)?,
        None => best(ctx, who, &[Attribute::TOG, Attribute::COR])?,
    };
    let situation = args.int("modifier")?.unwrap_or(0);
    let hidden = gm_tn_hidden(&ctx.state, args)?;
    // Grappling one's own grappler is the escape the text allows as the action: no roll first.
    if grapplers(ctx, who)?.contains(&target) {
        spend_action(ctx, who)?;
    } else if !spend_action_held(ctx, who, "grapple")? {
        return Ok(());
    }
    let mut extra = vec![Modifier::new("situation", situation)];
    extra.extend(status::fighting(&ctx.combatant(who)?));
    let swing = Swing {
        who,
        target: &target,
        hit_attr: Attribute::COR,
        evade_attr: Attribute::AGL,
        what: "grab",
        extra,
        situation,
        range: 0,
        targeted: false,
        tn_override: args.int("tn")?,
        hidden,
        threshold: 1,
        cover: 0,
        surprise: 0,
        rolled: None,
    };
    if let Verdict::Miss { .. } = land(ctx, &swing)? {
        return say(ctx, format!("{who} fails to grab {target}"));
    }
    let tn = options::int_of(ctx.state.options(), GRAPPLE_HOLD_TN);
    let label = format!("{hold} to hold {target}");
    if check_tn(ctx, who, hold, &[], &label, tn, false)? == Outcome::Failure {
        return say(ctx, format!("{target} slips out of {who}'s hold"));
    }
    ctx.set_status(&target, &format!("{GRAPPLED}{who}"), Some(mark(who)))?;
    ctx.set_status(who, &format!("{GRAPPLING}{target}"), Some(mark(&target)))?;
    say(ctx, format!("{who} grapples {target}"))
}

/// The fight is over, and every hold and choke in it.
pub fn fight_over(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        for held in others(&c, GRAPPLING) {
            let_go(ctx, &id, &held)?;
        }
        for g in others(&c, GRAPPLED) {
            let_go(ctx, &g, &id)?;
        }
    }
    Ok(())
}

/// `who` is dead: whoever they held, and whoever held them, is let go.
pub fn died(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    for held in others(&c, GRAPPLING) {
        let_go(ctx, who, &held)?;
    }
    for g in others(&c, GRAPPLED) {
        let_go(ctx, &g, who)?;
    }
    Ok(())
}

/// Ends `grappler`'s hold on `held`, and the choke that came with it.
fn let_go(ctx: &mut Ctx<'_>, grappler: &EntityId, held: &EntityId) -> Result<(), DecideError> {
    let (g_key, h_key) = (
        format!("{GRAPPLING}{held}"),
        format!("{GRAPPLED}{grappler}"),
    );
    if ctx
        .state
        .combatant(held)
        .is_some_and(|c| c.has_status(&h_key))
    {
        ctx.set_status(held, &h_key, None)?;
        let choked = ctx
            .combatant(held)?
            .statuses
            .get(SUFFOCATING)
            .is_some_and(|s| s.source == grappler.0);
        if choked {
            ctx.set_status(held, SUFFOCATING, None)?;
        }
    }
    if ctx
        .state
        .combatant(grappler)
        .is_some_and(|c| c.has_status(&g_key))
    {
        ctx.set_status(grappler, &g_key, None)?;
    }
    Ok(())
}

/// Lets go of `target`, or of everyone one holds: a free action.
pub fn release(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    let held = others(&ctx.combatant(who)?, GRAPPLING);
    let targets: Vec<EntityId> = match args.entity("target")? {
        Some(t) if held.contains(&t) => vec![t],
        Some(t) => return Err(Refusal::Rule(format!("{who} does not hold {t}")).into()),
        None if held.is_empty() => {
            return Err(Refusal::Rule(format!("{who} holds no one")).into());
        }
        None => held,
    };
    spend_free(ctx, who)?;
    for t in targets {
        let_go(ctx, who, &t)?;
        say(ctx, format!("{who} lets go of {t}"))?;
    }
    Ok(())
}

/// The grapplers whose hold on `who` still counts (see [`broken`]).
pub fn grapplers(ctx: &Ctx<'_>, who: &EntityId) -> Result<Vec<EntityId>, DecideError> {
    Ok(holders(&ctx.combatant(who)?)
        .into_iter()
        .filter(|g| broken(ctx, g, who).is_none())
        .collect())
}

/// Why `grappler`'s hold on `held` no longer counts, if it does not: either is dead or gone,
/// the grappler cannot act, or they are more than 3 m apart.
fn broken(ctx: &Ctx<'_>, grappler: &EntityId, held: &EntityId) -> Option<String> {
    let (Some(g), Some(h)) = (ctx.state.combatant(grappler), ctx.state.combatant(held)) else {
        return Some("gone".into());
    };
    if h.has_status(DEAD) {
        return Some(format!("{held} is dead"));
    }
    if let Some(why) = status::unable(g) {
        return Some(why.to_owned());
    }
    let far = match (g.position, h.position) {
        (Some(a), Some(b)) => {
            let d = distance(a, b, ctx.state.options().diagonal());
            i64::try_from(d).unwrap_or(i64::MAX) > MELEE_M
        }
        _ => false,
    };
    far.then(|| format!("more than {MELEE_M} m away"))
}

/// Breaks out of every hold on `who`: the action, STR or COR against each grappler's.
pub fn break_free(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let holding = grapplers(ctx, who)?;
    if holding.is_empty() {
        return Err(Refusal::Rule(format!("{who} is not grappled")).into());
    }
    spend_action(ctx, who)?;
    let attrs = str_or(ctx, Some(Attribute::COR));
    let mine = Side {
        attrs: &attrs,
        label: "break free",
        extra: &[],
    };
    let theirs = Side {
        attrs: &attrs,
        label: "hold on",
        extra: &[],
    };
    if contest(ctx, who, &mine, &holding, &theirs)? {
        for g in &holding {
            let_go(ctx, g, who)?;
        }
        say(ctx, format!("{who} breaks free"))
    } else {
        say(ctx, format!("{who} cannot break free"))
    }
}

fn held_target(ctx: &Ctx<'_>, who: &EntityId, args: &Args) -> Result<EntityId, DecideError> {
    let target = args.require_entity("target")?;
    if !holds(&ctx.combatant(who)?, &target) {
        return Err(Refusal::Rule(format!("{who} does not hold {target}")).into());
    }
    Ok(target)
}

/// Takes the held down: the action, STR or COR against their AGL.
pub fn takedown(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let target = held_target(ctx, who, args)?;
    if ctx.combatant(&target)?.has_status(KNOCKED_DOWN) {
        return Err(Refusal::Rule(format!("{target} is already down")).into());
    }
    if !spend_action_held(ctx, who, "takedown")? {
        return Ok(());
    }
    let attrs = str_or(ctx, Some(Attribute::COR));
    let mine = Side {
        attrs: &attrs,
        label: "take down",
        extra: &[],
    };
    let theirs = Side {
        attrs: &[Attribute::AGL],
        label: "keep footing",
        extra: &[],
    };
    if contest(ctx, who, &mine, std::slice::from_ref(&target), &theirs)? {
        let down = Status {
            source: format!("taken down by {who}"),
            magnitude: 0,
            rounds_left: None,
        };
        ctx.set_status(&target, KNOCKED_DOWN, Some(down))?;
        say(
            ctx,
            format!("{who} takes {target} down and holds them there"),
        )
    } else {
        say(ctx, format!("{target} stays on their feet in {who}'s hold"))
    }
}

/// Chokes the held: the action, STR or COR against theirs. Made, they suffocate while the
/// hold lasts.
pub fn choke(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let target = held_target(ctx, who, args)?;
    if ctx.combatant(&target)?.has_status(SUFFOCATING) {
        return Err(Refusal::Rule(format!("{target} is already suffocating")).into());
    }
    if super::sheet_of(&ctx.combatant(&target)?)?.body == super::sheet::Body::Mechanical {
        return Err(Refusal::Rule(format!(
            "{target} is mechanical: only a body that breathes or bleeds can be choked"
        ))
        .into());
    }
    if !spend_action_held(ctx, who, "choke")? {
        return Ok(());
    }
    let attrs = str_or(ctx, Some(Attribute::COR));
    let mine = Side {
        attrs: &attrs,
        label: "choke",
        extra: &[],
    };
    let theirs = Side {
        attrs: &attrs,
        label: "resist the choke",
        extra: &[],
    };
    if contest(ctx, who, &mine, std::slice::from_ref(&target), &theirs)? {
        ctx.set_status(&target, SUFFOCATING, Some(mark(who)))?;
        say(ctx, format!("{who} chokes {target}: they are suffocating"))
    } else {
        say(
            ctx,
            format!("{target} keeps {who}'s hands off their throat"),
        )
    }
}

/// Spends `who`'s action on `what`. A held character, on its turn in a fight, first rolls
/// against every grappler (once a turn: a won roll holds for the turn's further attacks);
/// lost, the action goes on the struggle. Whether the action goes ahead. Called by each
/// action that takes the turn's action, after its own checks, so a command that would be
/// refused is refused before any die is drawn.
pub fn spend_action_held(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    what: &str,
) -> Result<bool, DecideError> {
    spend_action(ctx, who)?;
    // Outside a fight there is no turn to lose (in one, every caller's turn is its own).
    if !ctx.state.encounter().active {
        return Ok(true);
    }
    if ctx.combatant(who)?.turn_counter(WON_ACT) != 0 {
        return Ok(true);
    }
    let holding = grapplers(ctx, who)?;
    if holding.is_empty() {
        return Ok(true);
    }
    let attrs = str_or(ctx, Some(Attribute::COR));
    let mine = Side {
        attrs: &attrs,
        label: "act while held",
        extra: &[],
    };
    let theirs = Side {
        attrs: &attrs,
        label: "hold back",
        extra: &[],
    };
    if contest(ctx, who, &mine, &holding, &theirs)? {
        ctx.set_turn_counter(who, WON_ACT, 1)?;
        return Ok(true);
    }
    say(
        ctx,
        format!("{who} is held fast and loses this turn's action ({what})"),
    )?;
    Ok(false)
}

/// Before the first move of a turn: a held character's STR against every grappler's, and a
/// grappler's TOG or AGL against the weight it carries. Whether the move goes ahead; a lost
/// roll costs the turn's movement.
pub fn may_move(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<bool, DecideError> {
    let c = ctx.combatant(who)?;
    if c.turn_counter(WON_MOVE) != 0 || !(is_held(&c) || is_holding(&c)) {
        return Ok(true);
    }
    let holding = grapplers(ctx, who)?;
    if !holding.is_empty() {
        let attrs = str_or(ctx, None);
        let mine = Side {
            attrs: &attrs,
            label: "move while held",
            extra: &[],
        };
        let theirs = Side {
            attrs: &attrs,
            label: "hold in place",
            extra: &[],
        };
        if !contest(ctx, who, &mine, &holding, &theirs)? {
            ctx.set_turn_counter(who, MOVE_CLOSED, 1)?;
            say(
                ctx,
                format!("{who} is held in place and cannot move this turn"),
            )?;
            return Ok(false);
        }
    }
    let carried = carried(ctx, who)?;
    if !carried.is_empty() {
        let names: Vec<String> = carried.iter().map(ToString::to_string).collect();
        let attr = best(ctx, who, &[Attribute::TOG, Attribute::AGL])?;
        let tn = options::int_of(ctx.state.options(), GRAPPLE_MOVE_TN);
        let label = format!("{attr} to move carrying {}", names.join(" and "));
        if check_tn(ctx, who, attr, &[], &label, tn, false)? == Outcome::Failure {
            ctx.set_turn_counter(who, MOVE_CLOSED, 1)?;
            say(
                ctx,
                format!(
                    "{who} cannot move this turn with {} in their hold",
                    names.join(" and ")
                ),
            )?;
            return Ok(false);
        }
    }
    ctx.set_turn_counter(who, WON_MOVE, 1)?;
    Ok(true)
}

/// Whom `who` holds and would carry along in a move (taken before the move: after it, they
/// would be out of reach).
pub fn carried(ctx: &Ctx<'_>, who: &EntityId) -> Result<Vec<EntityId>, DecideError> {
    Ok(others(&ctx.combatant(who)?, GRAPPLING)
        .into_iter()
        .filter(|h| broken(ctx, who, h).is_none())
        .collect())
}

/// Whether a move of `who` from `from` to `to` is one a hold allows, before any roll: a held
/// character stays within reach of every grappler (breaking out is the action), and a grappler
/// carries whom it holds only where there is room for them.
pub fn may_go(ctx: &Ctx<'_>, who: &EntityId, from: Cell, to: Cell) -> Result<(), DecideError> {
    let diagonal = ctx.state.options().diagonal();
    for g in grapplers(ctx, who)? {
        let Some(at) = ctx.combatant(&g)?.position else {
            continue;
        };
        if i64::try_from(distance(at, to, diagonal)).unwrap_or(i64::MAX) > MELEE_M {
            return Err(Refusal::Rule(format!(
                "{who} is held by {g} and can move only within {MELEE_M} m of them (break_free first)"
            ))
            .into());
        }
    }
    let carried = carried(ctx, who)?;
    let (dx, dy) = (
        i64::from(to.x) - i64::from(from.x),
        i64::from(to.y) - i64::from(from.y),
    );
    for held in &carried {
        let Some(at) = ctx.combatant(held)?.position else {
            continue;
        };
        let cell = match (
            i32::try_from(i64::from(at.x) + dx),
            i32::try_from(i64::from(at.y) + dy),
        ) {
            (Ok(x), Ok(y)) => Cell::new(x, y),
            _ => {
                return Err(
                    Refusal::bad_argument("to", "is off the grid for whom it carries").into(),
                );
            }
        };
        let moving = |id: &EntityId| id == who || carried.contains(id);
        if let Some(what) = super::shove::obstacle(ctx, &moving, cell) {
            return Err(Refusal::Rule(format!(
                "{who} cannot carry {held} there: {what} is in the way at ({}, {})",
                cell.x, cell.y
            ))
            .into());
        }
    }
    Ok(())
}

/// After a grappler moved from `from` to `to`: `carried` come along, by the same step.
pub fn carry(
    ctx: &mut Ctx<'_>,
    carried: Vec<EntityId>,
    from: Cell,
    to: Cell,
) -> Result<(), DecideError> {
    for held in carried {
        let Some(at) = ctx.combatant(&held)?.position else {
            continue;
        };
        let dx = i64::from(to.x) - i64::from(from.x);
        let dy = i64::from(to.y) - i64::from(from.y);
        let moved = (
            i32::try_from(i64::from(at.x) + dx),
            i32::try_from(i64::from(at.y) + dy),
        );
        if let (Ok(x), Ok(y)) = moved {
            ctx.emit(Event::public(Fact::Moved {
                entity: held,
                from: Some(at),
                to: Some(Cell::new(x, y)),
            }))?;
        }
    }
    // A held character who got away, or a grappler who left someone behind, holds no more.
    tidy(ctx)
}

/// Holds that no longer count end (see [`broken`]).
pub fn tidy(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let mut ended = Vec::new();
    for id in ctx.state.combatant_ids() {
        let Some(c) = ctx.state.combatant(&id) else {
            continue;
        };
        for held in others(c, GRAPPLING) {
            if let Some(why) = broken(ctx, &id, &held) {
                ended.push((id.clone(), held, why));
            }
        }
        // A hold needs both halves: a `grappled:` whose grappler holds no one (a ruling's)
        // is no hold.
        for g in others(c, GRAPPLED) {
            let held_there = ctx.state.combatant(&g).is_some_and(|g| holds(g, &id));
            if !held_there {
                ended.push((g, id.clone(), "no hold".to_owned()));
            }
        }
    }
    for (g, held, why) in ended {
        let_go(ctx, &g, &held)?;
        say(ctx, format!("{g} no longer holds {held} ({why})"))?;
    }
    Ok(())
}

/// The start of `who`'s turn: holds that no longer count end, then a choked character rolls
/// MND against 11 to stay conscious; failed, they are knocked out.
pub fn turn_starts(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    tidy(ctx)?;
    let c = ctx.combatant(who)?;
    if !c.has_status(SUFFOCATING) || status::unable(&c).is_some() {
        return Ok(());
    }
    let r = roll_d20(ctx, who, Attribute::MND, &[])?;
    let (outcome, why) = judge(&r, SUFFOCATION_TN);
    let target = Target::Tn {
        tn: SUFFOCATION_TN,
        hidden: false,
    };
    record(ctx, who, "MND to stay conscious", &r, target, outcome, why)?;
    if outcome == Outcome::Failure {
        let out = Status {
            source: "suffocation".into(),
            magnitude: 0,
            rounds_left: None,
        };
        status::fall_senseless(ctx, who, KNOCKED_OUT, out)?;
        say(ctx, format!("{who} passes out for want of air"))?;
    }
    Ok(())
}
