//! Spells that lay an area on the ground and act in it every round. Consecrate: holy ground of
//! 10 × L ft about the caster for 1d5 hours; each evil, undead or unholy creature standing in
//! it has -1 to its attacks and -1 toughness and takes 1 damage a round. Cataclysm: for
//! 1d10 + L rounds, within 100 ft of its target, each creature but the caster and its side
//! makes a power save against the caster's spell save each round or takes 1; its kind adds
//! -1 attack and -1 toughness (earthquake), 1 more damage a round, save or not (firestorm; or
//! one more each round, `tinyd10.firestorm = cumulative`), or no ranged attacks (flooding).
//!
//! The area is a status of its caster ([`CONSECRATED`], [`CATACLYSM`]) holding its centre, the
//! cell it was laid on (none off the grid). Who stands in it is a status of each creature
//! ([`HOLY_GROUND`], [`QUAKING`], [`FIRESTORM`], [`FLOODED`], its source the caster): on the
//! grid measured at the casting, after every move and at each round's end ([`refresh`]); off
//! the grid those the GM named at the casting (`as_named`), until the GM rules one out. The
//! penalties read those statuses. A round's end ([`round_end`]) deals the round's damage from
//! the state alone, before the rounds wear off (the round of the casting is the first), its
//! dice drawn in the command that ends the round.

use std::collections::BTreeMap;

use crate::account::Telling;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Modifier};
use crate::grid::Cell;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};
use crate::system::Happening;

use super::afflict::{Rounds, afflict, set_timed};
use super::content::{Attribute, content};
use super::moving::feet_between;
use super::options::{FIRESTORM_DAMAGE, is};
use super::{DEAD, checks, harm, stats_of};

/// On the caster: its holy ground. Source: the centre ("x,y"; empty off the grid); magnitude:
/// the minutes left (1d5 hours). The radius is 10 × the caster's level.
pub const CONSECRATED: &str = "consecrated_ground";
/// On the caster: its cataclysm. Source: its kind and centre ("earthquake@x,y"); magnitude:
/// the rounds it has struck; rounds left counted as any spell's.
pub const CATACLYSM: &str = "cataclysm";
/// On a creature standing in an area (source: its caster). Holy ground and an earthquake:
/// magnitude the attack and toughness penalty (0 when a Ward or By will alone spared its
/// effects); a flood: 1 while it forbids ranged attacks (0 spared); a firestorm: 0.
pub const HOLY_GROUND: &str = "holy_ground";
pub const QUAKING: &str = "quaking";
pub const FIRESTORM: &str = "firestorm";
pub const FLOODED: &str = "flooded";
const MEMBERS: [&str; 4] = [HOLY_GROUND, QUAKING, FIRESTORM, FLOODED];

/// Consecrate's radius per level, and Cataclysm's reach about its target.
pub const CONSECRATE_FT_PER_LEVEL: i64 = 10;
pub const CATACLYSM_FT: i64 = 100;
/// The penalty to attacks and toughness on holy ground and in an earthquake.
pub const PENALTY: i64 = -1;
const MINUTES_AN_HOUR: i64 = 60;

/// Cataclysm's three kinds.
pub const KINDS: [&str; 3] = ["earthquake", "firestorm", "flooding"];

/// The member status a cataclysm of `kind` puts on those in it.
fn member_key(kind: &str) -> &'static str {
    match kind {
        "earthquake" => QUAKING,
        "flooding" => FLOODED,
        _ => FIRESTORM,
    }
}

/// The magnitude of `key` on a creature whose effects are not spared.
fn full(key: &str) -> i64 {
    match key {
        FLOODED => 1,
        FIRESTORM => 0,
        _ => PENALTY,
    }
}

/// Reads a `--kind` for `spell`: required by Cataclysm, refused by every other spell.
pub fn kind(spell: &str, given: Option<&str>) -> Result<Option<String>, Refusal> {
    match (spell, given) {
        ("cataclysm", Some(k)) if KINDS.contains(&k) => Ok(Some(k.to_owned())),
        ("cataclysm", _) => Err(Refusal::bad_argument(
            "kind",
            "Cataclysm needs its kind: earthquake, firestorm or flooding",
        )),
        (_, Some(_)) => Err(Refusal::bad_argument("kind", "only Cataclysm takes one")),
        _ => Ok(None),
    }
}

/// The radius of `c`'s holy ground.
pub fn consecrate_ft(c: &Combatant) -> i64 {
    stats_of(c).map_or(0, |s| s.level) * CONSECRATE_FT_PER_LEVEL
}

fn cell_text(at: Option<Cell>) -> String {
    at.map(|p| format!("{},{}", p.x, p.y)).unwrap_or_default()
}

/// The centre written in a ground's source, after its `@` when it has one; markers that
/// `afflict` appends (" [...]") end it.
fn centre(source: &str) -> Option<Cell> {
    let text = source.split_once('@').map_or(source, |(_, at)| at);
    let text = text.split(' ').next().unwrap_or("");
    let (x, y) = text.split_once(',')?;
    Some(Cell::new(x.parse().ok()?, y.parse().ok()?))
}

/// The kind written before a cataclysm's `@`.
fn kind_of(source: &str) -> &str {
    source.split(['@', ' ']).next().unwrap_or("")
}

/// Who may see a member status: the GM alone when both the area's caster and the creature are
/// the GM's (who stands in the GM's caster's ground would tell its reach, its level).
fn audience(caster: &Combatant, o: &Combatant) -> Audience {
    if crate::redact::gm_only_numbers(caster) && crate::redact::gm_only_numbers(o) {
        Audience::GmOnly
    } else {
        Audience::Everyone
    }
}

/// Lays `c`'s holy ground: 1d5 hours (`hours`, rolled by the caller), about `c`'s cell. Off
/// the grid, `named` are the unholy the GM says stand in it. Returns those in it.
pub fn consecrate(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    hours: i64,
    named: &[Combatant],
) -> Result<Vec<Combatant>, DecideError> {
    super::call::mark(
        ctx,
        &c.id,
        CONSECRATED,
        Some(Status {
            source: cell_text(c.position),
            magnitude: hours * MINUTES_AN_HOUR,
            rounds_left: None,
        }),
    )?;
    if c.position.is_none() {
        for o in named.iter().filter(|o| unholy(o)) {
            put(ctx, c, o, HOLY_GROUND, full(HOLY_GROUND))?;
        }
    }
    refresh(ctx)?;
    Ok(members_of(ctx, &c.id, HOLY_GROUND))
}

/// Calls down `c`'s cataclysm of `kind` about `target` for `rounds`. Off the grid, `named`
/// are those the GM says stand within 100 ft of the target. `resisted`: the target spared its
/// effects (By will alone, a Ward): not its damage. Returns those in it.
#[allow(clippy::too_many_arguments)]
pub fn cataclysm(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    target: &Combatant,
    kind: &str,
    rounds: Rounds,
    named: &[Combatant],
    resisted: bool,
) -> Result<Vec<Combatant>, DecideError> {
    // One cataclysm a caster: a new one takes the place of the old.
    set_timed(ctx, &c.id, CATACLYSM, None)?;
    let source = match target.position {
        Some(_) => format!("{kind}@{}", cell_text(target.position)),
        None => kind.to_owned(),
    };
    afflict(ctx, &c.id, CATACLYSM, 0, rounds, &source)?;
    let key = member_key(kind);
    if target.position.is_none() {
        for o in named.iter().filter(|o| caught(c, o)) {
            put(ctx, c, o, key, magnitude(c, o, key)?)?;
        }
    }
    refresh(ctx)?;
    if resisted && let Some(s) = ctx.combatant(&target.id)?.statuses.get(key).cloned() {
        let c = ctx.combatant(&c.id)?;
        let o = ctx.combatant(&target.id)?;
        ctx.set_status_for(
            audience(&c, &o),
            &o.id,
            key,
            Some(Status { magnitude: 0, ..s }),
        )?;
    }
    Ok(members_of(ctx, &c.id, key))
}

fn unholy(o: &Combatant) -> bool {
    stats_of(o).is_ok_and(|s| super::cast::is_of(&s.tags, "unholy"))
}

/// Whether a cataclysm of `c` reaches `o`: the caster and its side are immune.
fn caught(c: &Combatant, o: &Combatant) -> bool {
    o.id != c.id && o.side != c.side
}

/// A member's magnitude: 0 when a Ward (divine) keeps the effects of `c`'s spells off `o`.
fn magnitude(c: &Combatant, o: &Combatant, key: &str) -> Result<i64, DecideError> {
    let data = content().map_err(|e| Refusal::Rule(e.to_string()))?;
    let warded = data
        .spell("cataclysm")
        .is_some_and(|spell| super::lasting::warded(o, c, spell));
    Ok(if warded { 0 } else { full(key) })
}

fn put(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    o: &Combatant,
    key: &str,
    magnitude: i64,
) -> Result<(), DecideError> {
    ctx.set_status_for(
        audience(c, o),
        &o.id,
        key,
        Some(Status {
            source: c.id.0.clone(),
            magnitude,
            rounds_left: None,
        }),
    )
}

/// The living creatures with `key` from `caster`'s area.
fn members_of(ctx: &Ctx<'_>, caster: &EntityId, key: &str) -> Vec<Combatant> {
    super::areas::everyone(ctx)
        .into_iter()
        .filter(|o| o.statuses.get(key).is_some_and(|s| s.source == caster.0))
        .collect()
}

/// Sets who stands in each area now. On the grid: every creature of the kind the area takes
/// within its reach of its centre; off it: those it holds already. A creature already in keeps
/// its status as it is (a spared one stays spared); one out of every area loses it.
pub fn refresh(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let ids = ctx.state.combatant_ids();
    let grounds: Vec<Combatant> = ids
        .iter()
        .filter_map(|id| ctx.state.combatant(id).cloned())
        .filter(|c| c.has_status(CONSECRATED) || c.has_status(CATACLYSM))
        .collect();
    let everyone = super::areas::everyone(ctx);
    // (creature, key) -> the caster whose area holds it, and its magnitude if it comes in now.
    let mut want: BTreeMap<(EntityId, &'static str), (Combatant, i64)> = BTreeMap::new();
    let inside = |o: &Combatant, at: Option<Cell>, feet: i64| match (at, o.position) {
        (Some(a), Some(p)) => feet_between(ctx, a, p) <= feet,
        _ => false,
    };
    for c in &grounds {
        let mut areas: Vec<(&'static str, Option<Cell>, i64)> = Vec::new();
        if let Some(s) = c.statuses.get(CONSECRATED) {
            areas.push((HOLY_GROUND, centre(&s.source), consecrate_ft(c)));
        }
        if let Some(s) = c.statuses.get(CATACLYSM) {
            areas.push((
                member_key(kind_of(&s.source)),
                centre(&s.source),
                CATACLYSM_FT,
            ));
        }
        for (key, at, feet) in areas {
            for o in &everyone {
                let fits = if key == HOLY_GROUND {
                    unholy(o)
                } else {
                    caught(c, o)
                };
                let held = o.statuses.get(key).is_some_and(|s| s.source == c.id.0);
                let is_in = match at {
                    Some(_) => fits && inside(o, at, feet),
                    None => held,
                };
                if is_in && !want.contains_key(&(o.id.clone(), key)) {
                    let m = if key == HOLY_GROUND {
                        full(key)
                    } else {
                        magnitude(c, o, key)?
                    };
                    want.insert((o.id.clone(), key), (c.clone(), m));
                }
            }
        }
    }
    for id in ids {
        let o = ctx.combatant(&id)?;
        for key in MEMBERS {
            let have = o.statuses.get(key);
            match (have, want.get(&(id.clone(), key))) {
                (None, Some((c, m))) => put(ctx, c, &o, key, *m)?,
                (Some(s), None) => {
                    let caster = ctx.state.combatant(&EntityId::from(s.source.as_str()));
                    let audience = caster.map_or(Audience::Everyone, |c| audience(c, &o));
                    ctx.set_status_for(audience, &id, key, None)?;
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// After moves: who stands in the areas may have changed.
pub fn after_moves(ctx: &mut Ctx<'_>, happened: &[Happening]) -> Result<(), DecideError> {
    if happened
        .iter()
        .any(|h| matches!(h, Happening::Moved { .. }))
    {
        refresh(ctx)?;
    }
    Ok(())
}

/// A round ends: holy ground burns each unholy creature in it (1), and each cataclysm strikes
/// each creature in it (a power save or 1, and a firestorm's own damage).
pub fn round_end(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    refresh(ctx)?;
    for id in ctx.state.combatant_ids() {
        let o = ctx.combatant(&id)?;
        if !o.has_status(HOLY_GROUND) || o.has_status(DEAD) {
            continue;
        }
        ctx.telling = Some(Telling {
            actor: None,
            verb: "holy ground burns".into(),
            target: Some(id.clone()),
            instrument: None,
        });
        harm::damage(
            ctx,
            &id,
            1,
            vec![Modifier::new("holy ground", 1)],
            None,
            false,
        )?;
    }
    ctx.telling = None;
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        if let Some(s) = c.statuses.get(CATACLYSM).cloned() {
            strike(ctx, &c, &s)?;
        }
    }
    ctx.telling = None;
    Ok(())
}

/// One round of `c`'s cataclysm (`s`).
fn strike(ctx: &mut Ctx<'_>, c: &Combatant, s: &Status) -> Result<(), DecideError> {
    let kind = kind_of(&s.source).to_owned();
    let round = s.magnitude + 1;
    let stats = stats_of(c)?;
    let secret = crate::redact::gm_only_numbers(c);
    let fire = match kind.as_str() {
        "firestorm" if is(ctx.state.options(), FIRESTORM_DAMAGE, "cumulative") => round,
        "firestorm" => 1,
        _ => 0,
    };
    let told = if secret { "a spell" } else { "cataclysm" };
    for o in members_of(ctx, &c.id, member_key(&kind)) {
        let against = super::rolls::Target {
            value: super::lasting::spell_save(c, &stats).unwrap_or(checks::STANDARD_SAVE),
            name: "spell save",
            hidden: secret,
        };
        ctx.telling = Some(Telling {
            actor: Some(o.id.clone()),
            verb: format!("resists the {told} of"),
            target: Some(c.id.clone()),
            instrument: None,
        });
        let saved = super::rolls::save(ctx, &o, &[Attribute::Power], against, None)?;
        let mut steps = Vec::new();
        if !saved {
            steps.push(Modifier::new("cataclysm", 1));
        }
        if fire > 0 {
            steps.push(Modifier::new("firestorm", fire));
        }
        let amount: i64 = steps.iter().map(|m| m.value).sum();
        if amount > 0 {
            ctx.telling = Some(Telling {
                actor: Some(c.id.clone()),
                verb: format!("strikes with {told}"),
                target: Some(o.id.clone()),
                instrument: None,
            });
            harm::damage(ctx, &o.id, amount, steps, Some(&c.id), false)?;
        }
    }
    set_timed(
        ctx,
        &c.id,
        CATACLYSM,
        Some(Status {
            magnitude: round,
            ..s.clone()
        }),
    )
}

/// What holy ground and an earthquake take off `t`'s toughness.
pub fn toughness(t: &Combatant) -> Vec<Modifier> {
    penalties(t)
}

/// What holy ground and an earthquake take off `c`'s attacks.
pub fn penalties(c: &Combatant) -> Vec<Modifier> {
    [(HOLY_GROUND, "holy ground"), (QUAKING, "earthquake")]
        .into_iter()
        .filter_map(|(key, label)| {
            c.statuses
                .get(key)
                .filter(|s| s.magnitude != 0)
                .map(|s| Modifier::new(label, s.magnitude))
        })
        .collect()
}

/// Refuses a ranged attack of `a` standing in a flood.
pub fn may_shoot(a: &Combatant) -> Result<(), Refusal> {
    if a.statuses.get(FLOODED).is_some_and(|s| s.magnitude != 0) {
        return Err(Refusal::Rule(format!(
            "{} stands in a cataclysm's flood: no ranged attacks",
            a.id
        )));
    }
    Ok(())
}
