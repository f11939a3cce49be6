//! Attacks: who rolls against what, range, heavy weapons below their TOG requirement, light
//! weapons' extra attacks, natural 20 and natural 1, and collateral damage.
//!
//! Procedure (the text only shows players rolling; docs/grimwire.md): a PC attacking an NPC
//! rolls COR against the NPC's hidden defence TN; an NPC attacking a PC makes the PC roll to
//! evade (AGL, or RSN against supernatural attacks) against the NPC's attack TN; NPC against
//! NPC is the attacker's COR against the target's defence TN; PC against PC is opposed. The GM
//! may override the TN of any one roll.

use crate::action::Args;
use crate::decision::{PendingStep, StepValue};
use crate::dice::{DiceExpr, pick_die, pick_index, roll};
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, CheckRecord, Event, Fact, Modifier, Outcome};
use crate::grid::{Cell, distance};
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::Combatant;
use crate::state::StateView;

use super::check::{Rolled, Target, check_tn, gm_tn_hidden, judge, record, roll_d20};
use super::content::tables;
use super::damage::{DamageInput, damage_steps, round_half_up, take};
use super::economy::{self, ACTION_OVER, ATTACKS, RAGE_USED, SINGLE_ATTACK};
use super::options::{self, COLLATERAL, COLLATERAL_POOL, COVER_BONUS, HEAVY_MISFIRE, HEAVY_TOG_TN};
use super::sheet::{Attribute, DamageType, Weapon, WeaponClass};
use super::{DEAD, ID, deciding_seats, is_pc, sheet_of, status};

pub const STEP_COLLATERAL_RULING: &str = "grimwire.collateral.ruling";
pub const STEP_COLLATERAL_SPARE: &str = "grimwire.collateral.spare";

/// Melee reach in metres.
pub const MELEE_M: i64 = 3;
/// Thrown weapons' range when the sheet gives none.
pub const THROWN_M: i64 = 9;
/// The collateral target's evade TN.
pub const COLLATERAL_TN: i64 = 11;

fn unarmed() -> Weapon {
    Weapon {
        id: "unarmed".into(),
        name: "Unarmed".into(),
        class: WeaponClass::Unarmed,
        damage: None,
        damage_type: DamageType::Blunt,
        tog_req: 0,
        range_m: None,
        shielding: 0,
        instability: None,
    }
}

fn weapon_of(c: &Combatant, id: Option<&str>) -> Result<Weapon, Refusal> {
    match id {
        None | Some("unarmed") => Ok(unarmed()),
        Some(id) if super::shield::broken(c, id) => {
            Err(Refusal::Rule(format!("{}'s {id} is broken", c.id)))
        }
        Some(id) => sheet_of(c)?
            .weapon(id)
            .cloned()
            .ok_or_else(|| Refusal::UnknownName {
                system: ID.into(),
                what: format!("a weapon on {}'s sheet", c.id),
                name: id.to_owned(),
            }),
    }
}

fn distance_m(ctx: &Ctx<'_>, a: &Combatant, b: &Combatant, given: Option<i64>) -> Option<i64> {
    match (a.position, b.position) {
        (Some(pa), Some(pb)) => Some(
            i64::try_from(distance(pa, pb, ctx.state.options().diagonal())).unwrap_or(i64::MAX),
        ),
        _ => given,
    }
}

/// Checks range and returns the range penalty for the attack roll.
fn range_modifier(
    ctx: &Ctx<'_>,
    attacker: &Combatant,
    target: &Combatant,
    weapon: &Weapon,
    given: Option<i64>,
) -> Result<i64, Refusal> {
    let Some(d) = distance_m(ctx, attacker, target, given) else {
        return Ok(0);
    };
    let out_of = |limit| Refusal::OutOfRange {
        what: target.id.to_string(),
        distance: d,
        limit,
        unit: super::GRID.unit.into(),
    };
    match weapon.class {
        WeaponClass::Light | WeaponClass::Heavy | WeaponClass::Unarmed => {
            if d > MELEE_M {
                Err(out_of(MELEE_M))
            } else {
                Ok(0)
            }
        }
        WeaponClass::Thrown => Ok(tables().range_penalty(d, weapon.range_m.unwrap_or(THROWN_M))),
        WeaponClass::Ranged => Ok(tables().range_penalty(d, weapon.range_m.unwrap_or(THROWN_M))),
        WeaponClass::Supernatural => {
            let reach = supernatural_range(sheet_of(attacker)?.attribute(Attribute::RSN));
            if d > reach { Err(out_of(reach)) } else { Ok(0) }
        }
    }
}

/// A character's supernatural range: 18 m plus 2 m per point of RSN (less when negative).
pub fn supernatural_range(rsn: i64) -> i64 {
    (18 + 2 * rsn).max(0)
}

/// Spends what the attack costs: the action, or, for a further light-weapon attack in the
/// same action, one of the attacks COR allows. Whether the attack goes ahead: a held
/// attacker may lose the action to its grapplers.
fn pay_for_attack(ctx: &mut Ctx<'_>, who: &EntityId, weapon: &Weapon) -> Result<bool, DecideError> {
    economy::require_turn(ctx, who)?;
    if !ctx.state.encounter().active {
        return Ok(true);
    }
    let c = ctx.combatant(who)?;
    let made = c.turn_counter(ATTACKS);
    if made == 0 {
        if !super::grapple::spend_action_held(ctx, who, "attack")? {
            return Ok(false);
        }
    } else if further_attack(&c, weapon.class.is_light())? {
        ctx.set_turn_counter(who, RAGE_USED, 1)?;
    }
    if !weapon.class.is_light() {
        ctx.set_turn_counter(who, SINGLE_ATTACK, 1)?;
    }
    ctx.set_turn_counter(who, ATTACKS, made + 1)?;
    Ok(true)
}

/// Whether `c`, having attacked this turn, may attack again with a weapon that is `light` or
/// not: the book's further light-weapon attacks by COR, and then frenzy's one more with any
/// weapon. `Ok(true)`: this attack is frenzy's. Refused with why not, in the book's order.
pub(super) fn further_attack(c: &Combatant, light: bool) -> Result<bool, Refusal> {
    let made = c.turn_counter(ATTACKS);
    let rage_used = c.turn_counter(RAGE_USED);
    let allowed = if light {
        tables().light_attacks(sheet_of(c)?.attribute(Attribute::COR))
    } else {
        1
    };
    let over = c.turn_counter(ACTION_OVER) != 0;
    let refusal = if made - rage_used >= allowed {
        Some(format!("attack ({made} of {allowed} made this turn)"))
    } else if over {
        None
    } else if !light || c.turn_counter(SINGLE_ATTACK) != 0 {
        Some("attack (only light weapons attack more than once)".to_owned())
    } else {
        None
    };
    let none_left = |slot: String| Refusal::NoneLeft {
        actor: c.id.clone(),
        slot,
    };
    if over {
        return Err(none_left(
            "attack (moving after attacking ended the action)".into(),
        ));
    }
    match refusal {
        None => Ok(false),
        Some(_) if super::frenzy::raging(c) && rage_used == 0 => Ok(true),
        Some(slot) => Err(none_left(slot)),
    }
}

/// The highest natural face that risks hitting someone else: 1, or more with a heavy weapon
/// below its TOG requirement.
fn misfire_threshold(ctx: &Ctx<'_>, tog: i64, weapon: &Weapon) -> i64 {
    if weapon.tog_req == 0 || weapon.tog_req <= tog {
        return 1;
    }
    match options::choice_of(ctx.state.options(), HEAVY_MISFIRE) {
        "deficit" => 1 + (weapon.tog_req - tog),
        _ => weapon.tog_req,
    }
}

pub(super) enum Verdict {
    Hit {
        natural_20: bool,
        tie_half: bool,
    },
    Miss {
        misfire: bool,
    },
    /// A hit the target failed to evade with AGL while holding a shield: raising it is theirs
    /// to choose. `total` against `against` (beaten, when `exceed`).
    Shieldable {
        total: i64,
        against: i64,
        exceed: bool,
        tie_half: bool,
    },
}

pub fn attack(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    let attacked = attack_told(ctx, who, args);
    ctx.telling = None;
    attacked
}

/// The attack, with its telling set once the weapon is known, so every event it emits says
/// who attacks whom with what.
fn attack_told(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    let target_id = args.require_entity("target")?;
    if target_id == *who {
        return Err(Refusal::Rule("a character cannot attack themselves".into()).into());
    }
    let attacker = ctx.combatant(who)?;
    let target = ctx.combatant(&target_id)?;
    if target.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{target_id} is already dead")).into());
    }
    let weapon = weapon_of(&attacker, args.text("weapon")?)?;
    let tn_override = args.int("tn")?;
    if tn_override.is_some() && is_pc(&attacker) && is_pc(&target) {
        return Err(Refusal::bad_argument(
            "tn",
            "does not apply: PC against PC is an opposed roll, with no TN to override",
        )
        .into());
    }
    status::may_aim(
        &attacker,
        matches!(weapon.class, WeaponClass::Ranged | WeaponClass::Thrown),
    )?;
    let melee = matches!(
        weapon.class,
        WeaponClass::Light | WeaponClass::Heavy | WeaponClass::Unarmed
    );
    super::frenzy::may_attack(ctx, &attacker, &target_id, melee)?;
    let targeted = args.flag("targeted")?;
    let nonlethal = args.flag("nonlethal")?;
    if nonlethal && !is_pc(&attacker) {
        return Err(Refusal::Rule(
            "holding back is a player character's choice; the GM rules an NPC's mercy (rule.set-resource, rule.set-status)".into(),
        )
        .into());
    }
    let situation = args.int("modifier")?.unwrap_or(0);
    let range = range_modifier(ctx, &attacker, &target, &weapon, args.int("distance_m")?)?;
    ctx.telling = Some(super::tell::attack(who, &target_id, &weapon));
    if !pay_for_attack(ctx, who, &weapon)? {
        return Ok(());
    }

    let tog = sheet_of(&attacker)?.attribute(Attribute::TOG);
    let supernatural = weapon.class == WeaponClass::Supernatural;

    if weapon.tog_req > 0 && weapon.tog_req > tog {
        let tn = options::int_of(ctx.state.options(), HEAVY_TOG_TN);
        let label = format!(
            "TOG to wield {} (needs TOG {})",
            weapon.name, weapon.tog_req
        );
        let outcome = check_tn(ctx, who, Attribute::TOG, &[], &label, tn, false)?;
        if outcome == Outcome::Failure {
            let text = format!("{who} is not strong enough to swing the {}", weapon.name);
            return ctx.note_about(who, text);
        }
    }

    let surprise = super::surprise::first_strike(ctx, who)?;
    let hidden = gm_tn_hidden(&ctx.state, args)?;
    let ranged = matches!(weapon.class, WeaponClass::Ranged | WeaponClass::Thrown);
    let cover = if ranged && (args.flag("cover")? || in_cover(ctx, who, &target_id)?) {
        options::int_of(ctx.state.options(), COVER_BONUS)
    } else {
        0
    };
    let blow = Blow {
        weapon: weapon.id.clone(),
        situation,
        range,
        targeted,
        nonlethal,
        tn_override,
        hidden,
        cover,
        surprise,
    };
    // Someone beside the target may throw themselves in the way first (an auxiliary
    // reaction): then the attack waits for their answer.
    if !supernatural && super::guard::offer(ctx, who, &target_id, &blow)? {
        return Ok(());
    }
    resolve_blow(ctx, who, &target_id, &blow, None)
}

/// An attack as declared, in numbers a paused attack keeps in its window and resumes with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Blow {
    pub weapon: String,
    pub situation: i64,
    pub range: i64,
    pub targeted: bool,
    pub nonlethal: bool,
    pub tn_override: Option<i64>,
    pub hidden: bool,
    pub cover: i64,
    pub surprise: i64,
}

/// The swing of `blow` by `who` at `target`, with what the attacker's state adds to it.
pub(super) fn swing_of<'a>(
    ctx: &Ctx<'_>,
    who: &'a EntityId,
    target: &'a EntityId,
    blow: &Blow,
) -> Result<(Swing<'a>, Weapon), DecideError> {
    let attacker = ctx.combatant(who)?;
    let weapon = weapon_of(&attacker, Some(&blow.weapon))?;
    let supernatural = weapon.class == WeaponClass::Supernatural;
    let (hit_attr, evade_attr) = if supernatural {
        (Attribute::RSN, Attribute::RSN)
    } else {
        (Attribute::COR, Attribute::AGL)
    };
    let mut extra = vec![Modifier::new("situation", blow.situation)];
    if blow.range != 0 {
        extra.push(Modifier::new("beyond range", blow.range));
    }
    extra.extend(status::fighting(&attacker));
    let tog = sheet_of(&attacker)?.attribute(Attribute::TOG);
    let rage = if super::frenzy::raging(&attacker) {
        super::frenzy::FRIENDLY_FIRE
    } else {
        0
    };
    let swing = Swing {
        who,
        target,
        hit_attr,
        evade_attr,
        what: "attack",
        cover: blow.cover,
        surprise: blow.surprise,
        extra,
        situation: blow.situation,
        range: blow.range,
        targeted: blow.targeted,
        tn_override: blow.tn_override,
        hidden: blow.hidden,
        threshold: misfire_threshold(ctx, tog, &weapon) + rage,
        rolled: None,
    };
    Ok((swing, weapon))
}

/// Resolves `blow` at `target`, after `shielder`'s attempt to take it, if any.
pub(super) fn resolve_blow(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    blow: &Blow,
    shielder: Option<&EntityId>,
) -> Result<(), DecideError> {
    let (mut swing, weapon) = swing_of(ctx, who, target, blow)?;
    if let Some(s) = shielder {
        match super::guard::intercept(ctx, &swing, s)? {
            super::guard::Intercept::Took { natural_20 } => {
                let hit = Hit {
                    natural_20,
                    tie_half: false,
                    nonlethal: blow.nonlethal,
                };
                return strike(ctx, who, s, &weapon, hit, false);
            }
            super::guard::Intercept::Failed(rolled) => swing.rolled = rolled,
        }
    }
    let verdict = land(ctx, &swing)?;
    settle(ctx, who, target, &weapon, verdict, blow)
}

/// What a landed (or missed) blow does.
fn settle(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target_id: &EntityId,
    weapon: &Weapon,
    verdict: Verdict,
    blow: &Blow,
) -> Result<(), DecideError> {
    let (targeted, nonlethal) = (blow.targeted, blow.nonlethal);
    let target_id = target_id.clone();
    let weapon = weapon.clone();
    match verdict {
        Verdict::Hit {
            natural_20,
            tie_half,
        } => {
            let hit = Hit {
                natural_20,
                tie_half,
                nonlethal,
            };
            strike(ctx, who, &target_id, &weapon, hit, targeted)
        }
        Verdict::Shieldable {
            total,
            against,
            exceed,
            tie_half,
        } => {
            let t = ctx.combatant(&target_id)?;
            let Some(shield) = super::shield::best(&t) else {
                return Err(Refusal::Rule(format!("{target_id} has no shield to raise")).into());
            };
            let failed = super::shield::Failed {
                attacker: who,
                target: &target_id,
                weapon: &weapon.id,
                total,
                against,
                exceed,
                tie_half,
                nonlethal,
                targeted,
            };
            super::shield::offer(ctx, &failed, &shield)
        }
        Verdict::Miss { misfire: true } => begin_collateral(ctx, who, &target_id, &weapon),
        Verdict::Miss { misfire: false } => {
            // A miss at someone held may strike whoever holds them.
            let holders: Vec<EntityId> = super::grapple::grapplers(ctx, &target_id)?
                .into_iter()
                .filter(|g| g != who)
                .collect();
            if holders.is_empty() || options::choice_of(ctx.state.options(), COLLATERAL) == "never"
            {
                return Ok(());
            }
            ctx.emit(Event::public(Fact::Noted {
                text: format!("the attack misses {target_id} and may strike whoever holds them"),
            }))?;
            stray_at(ctx, who, &target_id, &weapon, &holders)
        }
    }
}

/// One blow's attempt to land by the attack procedure (an attack, or the COR roll that opens a
/// shove or a grab): who rolls against what, as the module's head says.
pub(super) struct Swing<'a> {
    pub who: &'a EntityId,
    pub target: &'a EntityId,
    pub hit_attr: Attribute,
    pub evade_attr: Attribute,
    /// The roll's word after the attribute: `COR attack`, `COR shove`.
    pub what: &'a str,
    /// The attacker's modifiers (situation, range, senses, targeted).
    pub extra: Vec<Modifier>,
    pub situation: i64,
    pub range: i64,
    pub targeted: bool,
    pub tn_override: Option<i64>,
    pub hidden: bool,
    /// The highest natural face that goes astray.
    pub threshold: i64,
    /// What cover adds to the target's evasion (ranged attacks only).
    pub cover: i64,
    /// What surprise adds to the attack (its side's first).
    pub surprise: i64,
    /// The attacker's roll, when it was made already (against one who stepped in the way).
    pub rolled: Option<Rolled>,
}

/// The attacker's modifiers: what the caller gave, and what aiming and surprise add.
pub(super) fn attack_mods(s: &Swing<'_>) -> Vec<Modifier> {
    let mut extra = s.extra.clone();
    if s.targeted {
        extra.push(Modifier::new("targeted", -TARGETED));
    }
    extra.push(Modifier::new("surprise", s.surprise));
    extra
}

pub(super) fn land(ctx: &mut Ctx<'_>, s: &Swing<'_>) -> Result<Verdict, DecideError> {
    let who = s.who;
    let target_id = s.target.clone();
    let (hit_attr, evade_attr) = (s.hit_attr, s.evade_attr);
    let (situation, range, targeted) = (s.situation, s.range, s.targeted);
    let (tn_override, hidden, threshold) = (s.tn_override, s.hidden, s.threshold);
    let extra = &attack_mods(s);
    let attacker = ctx.combatant(who)?;
    let target = ctx.combatant(&target_id)?;
    let a_sheet = sheet_of(&attacker)?.clone();
    let t_sheet = sheet_of(&target)?.clone();
    let supernatural = hit_attr == Attribute::RSN;
    let npc_on_pc = is_pc(&target) && !is_pc(&attacker);
    // A grappler's blow at whom it holds is COR against their AGL, both rolled.
    let in_hold =
        s.what == "attack" && !supernatural && super::grapple::holds(&attacker, &target_id);

    let verdict = if let Some(why) = status::defenceless(&target, evade_attr) {
        ctx.emit(Event::public(Fact::Noted {
            text: format!("{target_id} is {why} and cannot defend: the attack hits"),
        }))?;
        Verdict::Hit {
            natural_20: false,
            tie_half: false,
        }
    } else if npc_on_pc && !in_hold {
        // The NPC does not roll: the PC evades against the NPC's attack TN. A range penalty on
        // the attacker lowers that TN instead; it goes into the hidden TN rather than a public
        // modifier, since it tells the NPC weapon's range.
        let tn = tn_override
            .unwrap_or_else(|| a_sheet.npc.as_ref().map(|n| n.attack_tn).unwrap_or(11))
            + range;
        // The NPC's own state, which its roll would have carried, eases the evasion instead.
        let mut evade_extra = vec![Modifier::new("situation", situation)];
        evade_extra.extend(status::fighting(&target));
        evade_extra.push(Modifier::new("cover", s.cover));
        evade_extra.extend(not_rolled(&attacker, hit_attr));
        if targeted {
            evade_extra.push(Modifier::new(format!("{who}: targeted"), TARGETED));
        }
        evade_extra.push(Modifier::new(format!("{who}: surprise"), -s.surprise));
        let label = format!("{evade_attr} evade");
        let r = roll_d20(ctx, &target_id, evade_attr, &evade_extra)?;
        let (outcome, why) = judge(&r, tn);
        let against = Target::Tn { tn, hidden };
        record(ctx, &target_id, &label, &r, against, outcome, why)?;
        if outcome == Outcome::Success {
            Verdict::Miss { misfire: false }
        } else if may_shield(s, &target, &r) {
            Verdict::Shieldable {
                total: r.total,
                against: tn,
                exceed: false,
                tie_half: false,
            }
        } else {
            Verdict::Hit {
                natural_20: false,
                tie_half: false,
            }
        }
    } else {
        let r = match &s.rolled {
            Some(r) => r.clone(),
            None => roll_d20(ctx, who, hit_attr, extra)?,
        };
        let misfire = r.natural <= threshold;
        if is_pc(&target) || in_hold {
            // PC against PC, or a blow in a hold: opposed; the defender evades; ties halve
            // the damage.
            let mut d_extra = status::fighting(&target);
            d_extra.push(Modifier::new("cover", s.cover));
            let d = roll_d20(ctx, &target_id, evade_attr, &d_extra)?;
            let verdict = opposed(&r, &d, misfire);
            let (a_out, a_why) = match &verdict {
                Verdict::Hit {
                    natural_20: true, ..
                } => (Outcome::Success, Some("natural 20".to_owned())),
                Verdict::Hit { .. } => (Outcome::Success, None),
                Verdict::Miss { misfire: true } => {
                    (Outcome::Failure, Some(format!("natural {}", r.natural)))
                }
                Verdict::Miss { .. } | Verdict::Shieldable { .. } => (Outcome::Failure, None),
            };
            emit_opposed(
                ctx,
                who,
                &target_id,
                &format!("{hit_attr} {}", s.what),
                &format!("{evade_attr} evade"),
                &r,
                &d,
                a_out,
                a_why,
            )?;
            match verdict {
                // The defender's roll lost; a shield may still turn a blow that was no natural 20.
                Verdict::Hit {
                    natural_20: false,
                    tie_half,
                } if may_shield(s, &target, &d) => Verdict::Shieldable {
                    total: d.total,
                    against: r.total,
                    exceed: true,
                    tie_half,
                },
                v => v,
            }
        } else {
            // The NPC target makes no roll: its state, which would have weighed on its
            // evasion, shows on the attack instead.
            let mut r = r;
            let cover =
                (s.cover != 0).then(|| Modifier::new(format!("{target_id}: cover"), -s.cover));
            for m in not_rolled(&target, evade_attr).into_iter().chain(cover) {
                r.total += m.value;
                r.modifiers.push(m);
            }
            let tn = tn_override.unwrap_or_else(|| {
                let n = t_sheet.npc.as_ref();
                let defence = n.map(|n| n.defence_tn).unwrap_or(11);
                if supernatural {
                    n.and_then(|n| n.supernatural_defence_tn).unwrap_or(defence)
                } else {
                    defence
                }
            });
            let (outcome, why, verdict) = if r.natural == 20 {
                (
                    Outcome::Success,
                    Some("natural 20".to_owned()),
                    Verdict::Hit {
                        natural_20: true,
                        tie_half: false,
                    },
                )
            } else if misfire {
                (
                    Outcome::Failure,
                    Some(format!("natural {}", r.natural)),
                    Verdict::Miss { misfire: true },
                )
            } else if r.total >= tn {
                (
                    Outcome::Success,
                    None,
                    Verdict::Hit {
                        natural_20: false,
                        tie_half: false,
                    },
                )
            } else {
                (Outcome::Failure, None, Verdict::Miss { misfire: false })
            };
            record(
                ctx,
                who,
                &format!("{hit_attr} {}", s.what),
                &r,
                Target::Tn { tn, hidden },
                outcome,
                why,
            )?;
            verdict
        }
    };

    Ok(verdict)
}

/// Whether cover stands between `who` and `target`: a cell the GM marked as cover that the
/// line from one to the other passes through (their own cells never count). Off the grid,
/// only the GM's `cover` says so.
fn in_cover(ctx: &Ctx<'_>, who: &EntityId, target: &EntityId) -> Result<bool, DecideError> {
    let (a, b) = (
        ctx.combatant(who)?.position,
        ctx.combatant(target)?.position,
    );
    let (Some(a), Some(b)) = (a, b) else {
        return Ok(false);
    };
    let terrain = &ctx.state.encounter().terrain;
    Ok(!crate::grid::path_clear(a, b, terrain, |t| {
        t.cover.is_some()
    }))
}

/// What `c`'s statuses would have taken off a roll of `attribute` in a fight that it does not
/// make (an NPC's attack or evasion, which is a TN), turned to the side of the one who rolls:
/// a knocked-down goblin is easier to hit by 3.
fn not_rolled(c: &Combatant, attribute: Attribute) -> Vec<Modifier> {
    status::modifiers(c, attribute, false)
        .into_iter()
        .chain(status::fighting(c))
        .map(|m| Modifier::new(format!("{}: {}", c.id, m.label), -m.value))
        .collect()
}

fn opposed(a: &Rolled, d: &Rolled, misfire: bool) -> Verdict {
    if a.natural == 20 {
        Verdict::Hit {
            natural_20: true,
            tie_half: false,
        }
    } else if misfire {
        Verdict::Miss { misfire: true }
    } else if d.natural == 1 || a.total > d.total {
        Verdict::Hit {
            natural_20: false,
            tie_half: false,
        }
    } else if a.total == d.total {
        Verdict::Hit {
            natural_20: false,
            tie_half: true,
        }
    } else {
        Verdict::Miss { misfire: false }
    }
}

/// Writes an opposed roll, `attacker`'s against `defender`'s, as one event with the attacker's
/// account. A total of a combatant whose numbers are the GM's stays the GM's: the other side's
/// record reaches the table compared with a hidden number, as a hidden TN does.
#[allow(clippy::too_many_arguments)]
pub(super) fn emit_opposed(
    ctx: &mut Ctx<'_>,
    attacker: &EntityId,
    defender: &EntityId,
    a_label: &str,
    d_label: &str,
    a: &Rolled,
    d: &Rolled,
    a_out: Outcome,
    a_why: Option<String>,
) -> Result<(), DecideError> {
    let d_out = if a_out == Outcome::Success {
        Outcome::Failure
    } else {
        Outcome::Success
    };
    let d_hidden = ctx
        .state
        .combatant(defender)
        .is_some_and(crate::redact::gm_only_numbers);
    let rolled = super::tell::Rolled {
        roll: &a.roll,
        modifiers: &a.modifiers,
        total: a.total,
    };
    let mut account = super::tell::opposed(
        ctx,
        attacker,
        a_label,
        rolled,
        defender,
        d_label,
        d.total,
        a_out,
        a_why.clone(),
    );
    if d_hidden && let Some(against) = account.roll.as_mut().and_then(|r| r.against.as_mut()) {
        // Which attribute the GM's side rolled tells its sheet too.
        against.name = format!("{defender}'s roll");
        against.hidden = true;
    }
    let mut parts = opposed_record(ctx, attacker, a_label, a, defender, d.total, a_out, a_why);
    parts.extend(opposed_record(
        ctx, defender, d_label, d, attacker, a.total, d_out, None,
    ));
    parts.push(crate::event::Part {
        audience: crate::event::Audience::Everyone,
        fact: Fact::Told(Box::new(account)),
    });
    ctx.emit(Event { parts })
}

/// `who`'s side of an opposed roll against `other`'s total: compared openly, or, when
/// `other`'s numbers are the GM's, with that total in a part for the GM alone.
#[allow(clippy::too_many_arguments)]
pub(super) fn opposed_record(
    ctx: &Ctx<'_>,
    who: &EntityId,
    label: &str,
    r: &Rolled,
    other: &EntityId,
    other_total: i64,
    outcome: Outcome,
    why: Option<String>,
) -> Vec<crate::event::Part> {
    use crate::event::{Audience, Part};
    let hidden = ctx
        .state
        .combatant(other)
        .is_some_and(crate::redact::gm_only_numbers);
    let margin = r.total.saturating_sub(other_total);
    let record = |against, margin| {
        Fact::Checked(CheckRecord {
            actor: Some(who.clone()),
            label: label.to_owned(),
            roll: r.roll.clone(),
            modifiers: r.modifiers.clone(),
            total: r.total,
            against,
            outcome,
            overridden_by: why.clone(),
            margin,
        })
    };
    if !hidden {
        let against = Against::Opposed {
            entity: other.clone(),
            total: other_total,
        };
        return vec![Part {
            audience: Audience::Everyone,
            fact: record(against, Some(margin)),
        }];
    }
    vec![
        Part {
            audience: Audience::Everyone,
            fact: record(Against::Hidden, None),
        },
        Part {
            audience: Audience::GmOnly,
            fact: Fact::HiddenTarget {
                label: format!("{label} (against {other})"),
                target: other_total,
                direction: crate::direction::Direction::Exceed,
                margin: Some(margin),
            },
        },
    ]
}

/// A blow that lands: the targeted attack's line for the GM, then the damage.
fn strike(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    weapon: &Weapon,
    hit: Hit,
    targeted: bool,
) -> Result<(), DecideError> {
    if targeted {
        ctx.note_about(
            target,
            format!("{who}'s targeted attack lands on {target}: the GM rules its effect"),
        )?;
    }
    let tog = sheet_of(&ctx.combatant(who)?)?.attribute(Attribute::TOG);
    deal(ctx, who, target, weapon, tog, hit)
}

/// The evader chose about the shield: the blow lands, or the shield took it.
pub fn resume_shield(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    choice: &str,
) -> Result<(), DecideError> {
    // The blow's weapon is looked up before the shield's die can be drawn.
    let (attacker, weapon_id) = match (step.entity("attacker"), step.secret.get("weapon")) {
        (Some(a), Some(StepValue::Text(w))) => (a.clone(), w.clone()),
        _ => {
            return Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: step.rule.clone(),
                problem: "attacker or weapon missing".into(),
            });
        }
    };
    let weapon = weapon_of(&ctx.combatant(&attacker)?, Some(&weapon_id))?;
    let out = super::shield::resume(ctx, step, choice)?;
    if !out.lands {
        return Ok(());
    }
    let hit = Hit {
        natural_20: false,
        tie_half: out.tie_half,
        nonlethal: out.nonlethal,
    };
    strike(ctx, &out.attacker, &out.target, &weapon, hit, out.targeted)
}

/// What a hit's damage depends on beyond the weapon.
#[derive(Debug, Clone, Copy, Default)]
struct Hit {
    natural_20: bool,
    tie_half: bool,
    /// The attacker holds back: a blow that would drop the target to 0 or below leaves 1.
    nonlethal: bool,
}

/// Rolls the weapon's damage and applies it to `target`.
fn deal(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    weapon: &Weapon,
    tog: i64,
    hit: Hit,
) -> Result<(), DecideError> {
    let Hit {
        natural_20,
        tie_half,
        nonlethal,
    } = hit;
    let dice_total = match &weapon.damage {
        Some(expr) => {
            let expr = DiceExpr::parse(expr)
                .map_err(|e| Refusal::Rule(format!("{}'s damage `{expr}`: {e}", weapon.name)))?;
            let r = roll(&expr, ctx.dice)?;
            let total = r.total;
            ctx.emit(Event::public(Fact::Rolled {
                by: Some(who.clone()),
                purpose: format!("{} damage", weapon.name),
                roll: r,
            }))?;
            total
        }
        None => 0,
    };
    let t = ctx.combatant(target)?;
    let mut input = DamageInput::against(
        dice_total,
        weapon.class.adds_tog().then_some(tog),
        natural_20,
        weapon.damage_type,
        sheet_of(&t)?,
    );
    input.tie_half = tie_half;
    input.round_half_up = round_half_up(ctx);
    let (mut steps, amount) = damage_steps(&input);
    // What the blow must get through: Condition and, before it, temporary Condition.
    let before = t
        .resource(super::CONDITION)
        .saturating_add(t.resource(super::temp::TEMP));
    if nonlethal && !t.has_status(super::DYING) && before - amount <= 0 {
        // Held back: the target keeps 1 Condition and is out cold, neither dying nor burnt out.
        let spared = (before - 1).max(0);
        steps.push(Modifier::new("held back", spared - amount));
        take(ctx, target, spared, steps, Some(who))?;
        let out_cold = crate::state::Status {
            source: format!("held back by {who}"),
            magnitude: 0,
            rounds_left: None,
        };
        status::fall_senseless(ctx, target, super::OUT_COLD, out_cold)?;
        return ctx.note_about(
            target,
            format!("{who} holds back: {target} is left at 1 Condition, out cold"),
        );
    }
    take(ctx, target, amount, steps, Some(who))
}

/// How much harder a targeted attack is.
pub const TARGETED: i64 = 3;

fn collateral_data(
    who: &EntityId,
    target: &EntityId,
    weapon: &Weapon,
) -> std::collections::BTreeMap<String, StepValue> {
    [
        ("attacker".to_owned(), StepValue::Entity(who.clone())),
        ("target".to_owned(), StepValue::Entity(target.clone())),
        ("weapon".to_owned(), StepValue::Text(weapon.id.clone())),
    ]
    .into()
}

fn begin_collateral(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    weapon: &Weapon,
) -> Result<(), DecideError> {
    match options::choice_of(ctx.state.options(), COLLATERAL) {
        "never" => Ok(()),
        "always" => pick_collateral(ctx, who, target, weapon),
        _ => {
            let step = PendingStep {
                prompt_id: 0,
                rule: STEP_COLLATERAL_RULING.into(),
                actor: Some(who.clone()),
                seats: vec![Seat::Gm],
                question: format!(
                    "{who}'s attack on {target} went astray. Does it risk hitting someone else?"
                ),
                options: vec!["yes".into(), "no".into()],
                default: "no".into(),
                timeout_ms: ctx.state.options().decision_timeout_ms(),
                trigger: None,
                data: collateral_data(who, target, weapon),
                ..Default::default()
            };
            ctx.ask(step).map(|_| ())
        }
    }
}

fn step_weapon(
    ctx: &Ctx<'_>,
    step: &PendingStep,
) -> Result<(EntityId, EntityId, Weapon), DecideError> {
    let bad = || DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: "attacker, target or weapon missing".into(),
    };
    let who = step.entity("attacker").ok_or_else(bad)?.clone();
    let target = step.entity("target").ok_or_else(bad)?.clone();
    let weapon = weapon_of(&ctx.combatant(&who)?, step.text("weapon"))?;
    Ok((who, target, weapon))
}

pub fn resume_collateral_ruling(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    choice: &str,
) -> Result<(), DecideError> {
    if choice != "yes" {
        return Ok(());
    }
    let (who, target, weapon) = step_weapon(ctx, step)?;
    pick_collateral(ctx, &who, &target, &weapon)
}

fn pick_collateral(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    weapon: &Weapon,
) -> Result<(), DecideError> {
    let with_target = options::choice_of(ctx.state.options(), COLLATERAL_POOL) == "with_target";
    let t = ctx.combatant(target)?;
    let mut candidates = Vec::new();
    for id in ctx.state.combatant_ids() {
        if id == *who || (id == *target && !with_target) {
            continue;
        }
        let c = ctx.combatant(&id)?;
        if c.has_status(DEAD) {
            continue;
        }
        let near = id == *target
            || if matches!(weapon.class, WeaponClass::Ranged | WeaponClass::Thrown) {
                in_cone(ctx.combatant(who)?.position, t.position, c.position)
            } else {
                matches!((c.position, t.position), (Some(a), Some(b)) if i64::try_from(distance(a, b, ctx.state.options().diagonal())).unwrap_or(i64::MAX) <= MELEE_M)
            };
        if near {
            candidates.push(id);
        }
    }
    stray_at(ctx, who, target, weapon, &candidates)
}

/// Whether `c` stands in the 30° cone a ranged attack from `from` at `aim` sprays into: within
/// 15° of the line from the shooter to the target, on the target's side of the shooter, at
/// any distance. Off the grid, no one does.
fn in_cone(from: Option<Cell>, aim: Option<Cell>, c: Option<Cell>) -> bool {
    let (Some(f), Some(a), Some(c)) = (from, aim, c) else {
        return false;
    };
    let v = |p: Cell| {
        (
            f64::from(p.x) - f64::from(f.x),
            f64::from(p.y) - f64::from(f.y),
        )
    };
    let (ax, ay) = v(a);
    let (cx, cy) = v(c);
    let dot = ax * cx + ay * cy;
    let lengths = (ax * ax + ay * ay).sqrt() * (cx * cx + cy * cy).sqrt();
    // cos 15°: the half-angle of the text's 30° cone.
    lengths > 0.0 && dot >= CONE_COS * lengths
}

/// The cosine of half the ranged collateral cone's 30°.
const CONE_COS: f64 = 0.965_925_826_289_068_3;

/// A stray attack lands on one of `candidates` (a fair pick when there are several), who may
/// avoid it with AGL (RSN) 11, eased by the attacker's COR (MND) if the attacker so wishes.
fn stray_at(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    weapon: &Weapon,
    candidates: &[EntityId],
) -> Result<(), DecideError> {
    let picked = match candidates.len() {
        0 => {
            return ctx.emit(Event::public(Fact::Noted {
                text: format!(
                    "no one else is in its way: the stray attack at {target} hits no one"
                ),
            }));
        }
        1 => candidates[0].clone(),
        n => {
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            let die = pick_die(n);
            let face = ctx.dice.draw(die)?;
            let i = pick_index(face, n, die).unwrap_or(0);
            let picked = candidates[i.min(candidates.len() - 1)].clone();
            ctx.emit(Event::public(Fact::Picked {
                purpose: "collateral target".into(),
                candidates: candidates.to_vec(),
                face,
                picked: picked.clone(),
                die: Some(die),
                counters: ctx.dice.last_counters(),
            }))?;
            picked
        }
    };
    let attacker = ctx.combatant(who)?;
    let same_side = ctx.combatant(&picked)?.side == attacker.side;
    let spare_attr = if weapon.class == WeaponClass::Supernatural {
        "MND"
    } else {
        "COR"
    };
    let mut data = collateral_data(who, target, weapon);
    data.insert("picked".into(), StepValue::Entity(picked.clone()));
    let step = PendingStep {
        prompt_id: 0,
        rule: STEP_COLLATERAL_SPARE.into(),
        actor: Some(who.clone()),
        seats: deciding_seats(&attacker),
        question: format!(
            "Your stray attack may hit {picked}. Use your {spare_attr} to make it easier for them to avoid?"
        ),
        options: vec!["spare".into(), "no".into()],
        default: if same_side {
            "spare".into()
        } else {
            "no".into()
        },
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        trigger: None,
        data,
        ..Default::default()
    };
    ctx.ask(step).map(|_| ())
}

pub fn resume_collateral_spare(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    choice: &str,
) -> Result<(), DecideError> {
    let (who, _target, weapon) = step_weapon(ctx, step)?;
    let picked = step
        .entity("picked")
        .cloned()
        .ok_or_else(|| Refusal::Rule("prompt lost its pick".into()))?;
    let attacker = ctx.combatant(&who)?;
    let a_sheet = sheet_of(&attacker)?;
    let supernatural = weapon.class == WeaponClass::Supernatural;
    let (evade, spare_attr) = if supernatural {
        (Attribute::RSN, Attribute::MND)
    } else {
        (Attribute::AGL, Attribute::COR)
    };
    let lowered = if choice == "spare" {
        a_sheet.attribute(spare_attr)
    } else {
        0
    };
    let tn = COLLATERAL_TN - lowered;
    let tog = a_sheet.attribute(Attribute::TOG);
    let outcome = if let Some(why) = status::defenceless(&ctx.combatant(&picked)?, evade) {
        ctx.emit(Event::public(Fact::Noted {
            text: format!("{picked} is {why} and cannot avoid it"),
        }))?;
        Outcome::Failure
    } else {
        let label = format!("{evade} avoid a stray attack");
        // Spared by an NPC, the TN tells its COR (or MND): then it is the GM's to see.
        let hidden = lowered != 0 && crate::redact::gm_only_numbers(&attacker);
        let senses = status::fighting(&ctx.combatant(&picked)?);
        check_tn(ctx, &picked, evade, &senses, &label, tn, hidden)?
    };
    if outcome == Outcome::Failure {
        deal(ctx, &who, &picked, &weapon, tog, Hit::default())?;
    }
    Ok(())
}

/// Whether a failed evasion `d` of `target` may still be turned by a shield: an attack (not a
/// shove or a grab) evaded with AGL, a roll that did not fail by itself (a natural 1, a state
/// that fails it), and a shield at hand.
fn may_shield(s: &Swing<'_>, target: &Combatant, d: &Rolled) -> bool {
    s.what == "attack"
        && is_pc(target)
        && s.evade_attr == Attribute::AGL
        && d.natural != 1
        && d.fails.is_none()
        && super::shield::best(target).is_some()
}
