//! Attacks: d10 + Body (melee, bare hands) or Senses (ranged, thrown, guns) + bonuses against
//! the target's Evade raised by the modifier tables; a natural 10 hits; a target with its
//! action left may dodge; damage is the weapon die read in the division table (or 2D10 take
//! higher) plus Body or Senses, less Toughness; a 10 on the damage die rolls the attack again
//! for a second weapon die; guns jam on doubles; Life below 0 calls the consciousness check.
//! Also the aimed attack, declared now and fired when the target's group has acted, and the
//! Speed contest a delayed action wins to go before an enemy's action.

use std::collections::BTreeMap;

use crate::account::Telling;
use crate::action::Args;
use crate::decision::{PendingStep, StepValue};
use crate::dice::{DiceExpr, Roll};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Kind, Status};
use crate::toolkit::deciders;
use crate::toolkit::turns;

use super::checks::{self, AIMED, AMBUSH, IMMOBILE, Situation, Speed};
use super::jam::{self, After};
use super::options::{
    CHECK_TIES, CRITICALS, DIVIDED_CRIT, DODGE_SPENDS, GUN_DODGE, NATURAL_TEN, is,
};
use super::reload;
use super::round::{How, after_group, spend};
use super::sheet::{Powder, Weapon, WeaponKind};
use super::tell::{self, Check};
use super::{
    ACTION, AMBUSHER, ARMOURED, DEAD, DELAYED, FATIGUE, IMMOBILE as IMMOBILE_STATUS, IN_MIST, LIFE,
    OUT_OF_SIGHT, UNCONSCIOUS, cannot_act, jam_key, sheet_of,
};

pub const STEP_DODGE: &str = "mist.dodge";
pub const STEP_AIMED: &str = "mist.aimed_attack";

/// A plain d10.
pub fn d10() -> Result<DiceExpr, Refusal> {
    parse("1d10")
}

fn parse(notation: &str) -> Result<DiceExpr, Refusal> {
    DiceExpr::parse(notation).map_err(|e| Refusal::Rule(format!("dice `{notation}`: {e}")))
}

/// The table's modifiers for this attack, read from the action's arguments.
fn situation(args: &Args) -> Result<Situation, Refusal> {
    let int = |k: &str| args.int(k).map(|v| v.unwrap_or(0));
    Ok(Situation {
        body_part: int("body_part")?,
        terrain: int("terrain")?,
        elevation: int("elevation")?,
        crowd: int("crowd")?,
        ally_engaged: args.flag("ally_engaged")?,
        running: args.flag("running")?,
        half_cover: args.flag("half_cover")?,
        barely_visible: args.flag("barely_visible")?,
        far: args.flag("far")?,
        beyond: args.flag("beyond")?,
        weather: int("weather")?,
    })
}

/// What the table's modifiers add to Evade for an attack with `w`; a row of the other table
/// is refused.
pub(super) fn raise_of(args: &Args, w: &Weapon) -> Result<Vec<Modifier>, Refusal> {
    situation(args)?
        .modifiers(w.kind.is_ranged())
        .map_err(|name| {
            Refusal::bad_argument(
                "modifiers",
                &format!("`{name}` is from the other modifier table than this weapon's"),
            )
        })
}

/// Everything one attack needs once it is declared.
struct Strike {
    attacker: EntityId,
    target: EntityId,
    weapon: Weapon,
    /// What the table adds to Evade.
    raise: Vec<Modifier>,
    /// +3s from aiming and the like.
    extra: Vec<(&'static str, i64)>,
    /// A grab: a hit leads to the hold contest instead of damage.
    grab: bool,
    /// An aimed attack executed as a delayed action: the target must win a Speed contest
    /// against the attacker before it may dodge.
    speed_first: bool,
}

/// The weapon `c` names, refused when its sheet has no such weapon or the gun cannot fire.
pub(super) fn weapon_of(c: &Combatant, args: &Args) -> Result<Weapon, Refusal> {
    let id = args.text("weapon")?;
    let w = sheet_of(c)?
        .weapon(id)
        .ok_or_else(|| Refusal::bad_argument("weapon", "is not a weapon on this sheet"))?;
    if let Some(s) = c.statuses.get(&jam_key(&w.id)) {
        return Err(Refusal::Rule(format!(
            "{} cannot fire: jammed (jam table {}) until fixed",
            w.name, s.magnitude
        )));
    }
    reload::loaded(c, &w)?;
    Ok(w)
}

pub(super) fn target_of(ctx: &Ctx<'_>, c: &Combatant, args: &Args) -> Result<Combatant, Refusal> {
    let t = ctx.combatant(&args.require_entity("target")?)?;
    if t.id == c.id {
        return Err(Refusal::bad_argument("target", "is the attacker"));
    }
    if t.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is dead", t.id)));
    }
    Ok(t)
}

/// The +3s the state gives an attack on `t` by `c`.
pub(super) fn standing_bonuses(c: &Combatant, t: &Combatant) -> Vec<(&'static str, i64)> {
    let mut out = Vec::new();
    if t.has_status(IMMOBILE_STATUS) {
        out.push(("immobile target", IMMOBILE));
    }
    if c.has_status(AMBUSHER) {
        out.push(("ambush", AMBUSH));
    }
    out
}

pub fn attack(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    args: &Args,
    how: How,
    grab: bool,
) -> Result<(), DecideError> {
    if how == How::Free {
        return Err(Refusal::NoEncounter.into());
    }
    let t = target_of(ctx, c, args)?;
    let w = weapon_of(c, args)?;
    let raise = raise_of(args, &w)?;
    if how == How::Delayed
        && let Some(enemy) = args.entity("interrupt")?
    {
        let enemy = ctx.combatant(&enemy)?;
        if !speed_contest(ctx, c, &enemy)? {
            return Ok(());
        }
    }
    spend(ctx, &c.id, how)?;
    reload::fired(ctx, &c.id, &w)?;
    if w.kind == WeaponKind::Gun && !powder_fires(ctx, c, &w)? {
        return Ok(());
    }
    let extra = standing_bonuses(c, &t);
    strike(
        ctx,
        Strike {
            attacker: c.id.clone(),
            target: t.id,
            weapon: w,
            raise,
            extra,
            grab,
            speed_first: false,
        },
    )
}

/// The GM's call that someone provokes: `attacker`, engaged with `target`, strikes at once
/// with a melee weapon or bare hands, outside any turn and without spending its action (the
/// text makes it a consequence of being engaged, not an action). It must still hit; the target
/// may dodge as against any attack.
pub fn opportunity(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    if !ctx.state.encounter().active {
        return Err(Refusal::NoEncounter.into());
    }
    let a = ctx.combatant(&args.require_entity("attacker")?)?;
    super::able(&a)?;
    let t = target_of(ctx, &a, args)?;
    let w = weapon_of(&a, args)?;
    if !matches!(w.kind, WeaponKind::Melee | WeaponKind::Unarmed) {
        return Err(Refusal::Rule(format!(
            "opportunity attacks are made with melee weapons or fists, not {}",
            w.name
        ))
        .into());
    }
    let extra = standing_bonuses(&a, &t);
    strike(
        ctx,
        Strike {
            attacker: a.id.clone(),
            target: t.id,
            weapon: w,
            raise: Vec::new(),
            extra,
            grab: false,
            speed_first: false,
        },
    )
}

/// Whether a gun's powder lets it fire here: regular powder in the mist rolls out of the
/// barrel; hazeblast outside it rolls on the jam table at once.
pub(super) fn powder_fires(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    w: &Weapon,
) -> Result<bool, DecideError> {
    let in_mist = ctx.state.encounter().values.get(IN_MIST).copied() == Some(1);
    match (w.powder, in_mist) {
        (Powder::Regular, true) => {
            ctx.note_about(
                &c.id,
                format!(
                    "{}'s {}: regular powder burns too slowly in the mist, the ball rolls out",
                    c.id, w.name
                ),
            )?;
            Ok(false)
        }
        (Powder::Hazeblast, false) => jams(ctx, &c.id, w, "hazeblast fired outside the mist"),
        _ => Ok(true),
    }
}

/// Rolls on the jam table for `w` and applies the row; returns whether the shot still lands.
fn jams(ctx: &mut Ctx<'_>, shooter: &EntityId, w: &Weapon, why: &str) -> Result<bool, DecideError> {
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let face = roll.dice.first().map_or(0, |d| d.face);
    let row = jam::row(face).map_err(Refusal::Rule)?;
    // Rolled by the shooter, so an NPC's weapon and its fate stay the GM's (`redact`).
    ctx.emit(Event::public(Fact::Rolled {
        by: Some(shooter.clone()),
        purpose: format!(
            "{}'s {} jams ({why}): {} — {}",
            shooter, w.name, row.name, row.effect
        ),
        roll,
    }))?;
    match row.out {
        // The ball is gone either way: firing left the gun unloaded (`reload::fired`).
        After::Fine | After::Reload => {}
        After::Jammed | After::Destroyed => {
            // The status names the weapon and the jam: an NPC's is the GM's to know.
            let audience = reload::gun_audience(ctx, shooter);
            ctx.set_status_for(
                audience,
                shooter,
                &jam_key(&w.id),
                Some(Status {
                    source: row.name.clone(),
                    magnitude: i64::from(face),
                    rounds_left: None,
                }),
            )?;
        }
    }
    if row.out == After::Destroyed {
        // The burst gun hurts the one holding it, as any damage: less Toughness.
        let hurt = crate::dice::roll(&d10()?, ctx.dice)?;
        let amount = hurt.total;
        ctx.emit(Event::public(Fact::Rolled {
            by: Some(shooter.clone()),
            purpose: format!("{}'s {} bursts in the hand", shooter, w.name),
            roll: hurt,
        }))?;
        harm(
            ctx,
            shooter,
            amount,
            vec![Modifier::new("burst gun", amount)],
            false,
        )?;
    }
    Ok(row.shot)
}

/// The Speed contest of a delayed action that must beat `enemy`'s: both roll d10 + Body +
/// Speed; the higher goes first, equal totals going to the higher Speed skill. Lost, the
/// enemy's action goes first and the delayed action stays held.
fn speed_contest(ctx: &mut Ctx<'_>, c: &Combatant, enemy: &Combatant) -> Result<bool, DecideError> {
    let mine = speed_roll(ctx, c)?;
    let theirs = speed_roll(ctx, enemy)?;
    let won = checks::interrupts(mine, theirs);
    let text = if won {
        format!("{} is quicker than {} and acts first", c.id, enemy.id)
    } else {
        format!(
            "{} is not quicker than {}: its action goes first and {}'s stays held",
            c.id, enemy.id, c.id
        )
    };
    ctx.emit(Event::public(Fact::Noted { text }))?;
    Ok(won)
}

pub(super) fn speed_roll(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<Speed, DecideError> {
    let s = sheet_of(c)?;
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "makes a Speed check".into(),
        target: None,
        instrument: None,
    });
    let total = tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "Speed".into(),
            roll,
            modifiers: vec![
                Modifier::new("Body", s.body),
                Modifier::new("Speed", s.skills.speed),
            ],
            against: None,
            success: None,
            words: ("", ""),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    ctx.telling = None;
    Ok(Speed {
        total,
        skill: s.skills.speed,
    })
}

/// The Speed contest an aimed attack executed as a delayed action gives its target before
/// the dodge: the target's d10 + Body + Speed, then the attacker's; the target may dodge only
/// if quicker (a higher total, or on equal totals the higher Speed skill; equal on both, it is
/// not quicker, as an interrupter is not).
fn quick_to_dodge(ctx: &mut Ctx<'_>, t: &Combatant, a: &Combatant) -> Result<bool, DecideError> {
    ctx.telling = None;
    let theirs = speed_roll(ctx, t)?;
    let mine = speed_roll(ctx, a)?;
    let quick = checks::interrupts(theirs, mine);
    let text = if quick {
        format!(
            "{} is quicker than {}'s aimed attack and may dodge it",
            t.id, a.id
        )
    } else {
        format!(
            "{} is not quicker than {}'s aimed attack: no dodge",
            t.id, a.id
        )
    };
    ctx.emit(Event::public(Fact::Noted { text }))?;
    Ok(quick)
}

/// Whether the natural-10 and critical rules cover `c`.
fn covered(ctx: &Ctx<'_>, c: &Combatant, key: &str) -> bool {
    c.kind == Kind::Pc || is(ctx.state.options(), key, "everyone")
}

/// Rolls an attack check; returns (hit, total).
pub(super) fn attack_roll(
    ctx: &mut Ctx<'_>,
    attacker: &Combatant,
    target: &Combatant,
    label: &str,
    bonuses: Vec<Modifier>,
    difficulty: i64,
) -> Result<(bool, i64), DecideError> {
    let roll: Roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let natural = roll.natural().unwrap_or(0);
    let total = tell::total(&roll, &bonuses);
    let (hit, by_ten) = checks::attack_hits(
        total,
        natural,
        difficulty,
        covered(ctx, attacker, NATURAL_TEN),
    );
    tell::check(
        ctx,
        Check {
            who: &attacker.id,
            label: label.to_owned(),
            roll,
            modifiers: bonuses,
            against: Some((difficulty, "Evade")),
            success: Some(hit),
            words: ("hits", "misses"),
            because: by_ten.then(|| "natural 10".to_owned()),
            hidden: crate::redact::gm_only_numbers(target),
            gm_only: false,
        },
    )?;
    Ok((hit, total))
}

fn difficulty_of(target: &Combatant, raise: &[Modifier]) -> Result<i64, Refusal> {
    Ok(raise
        .iter()
        .fold(sheet_of(target)?.evade, |d, m| d.saturating_add(m.value)))
}

fn strike(ctx: &mut Ctx<'_>, s: Strike) -> Result<(), DecideError> {
    let a = ctx.combatant(&s.attacker)?;
    let t = ctx.combatant(&s.target)?;
    let bonuses = checks::attack_modifiers(sheet_of(&a)?, &s.weapon, &s.extra);
    let difficulty = difficulty_of(&t, &s.raise)?;
    ctx.telling = Some(Telling {
        actor: Some(a.id.clone()),
        verb: "attacks".into(),
        target: Some(t.id.clone()),
        instrument: Some(s.weapon.name.clone()),
    });
    let (hit, total) = attack_roll(ctx, &a, &t, "attack", bonuses.clone(), difficulty)?;
    if !hit {
        ctx.telling = None;
        return Ok(());
    }
    let bonus: i64 = bonuses.iter().map(|m| m.value).sum();
    if cannot_dodge(&t).is_some() || (s.speed_first && !quick_to_dodge(ctx, &t, &a)?) {
        return landed(ctx, &a, &t, &s.weapon, bonus, difficulty, s.grab);
    }
    let data = BTreeMap::from([
        ("attacker".to_owned(), StepValue::Entity(a.id.clone())),
        ("grab".to_owned(), StepValue::Flag(s.grab)),
    ]);
    // The defender chooses without knowing how well the attack went (the text's dodge example
    // tells the 9 only after the dodge), and an NPC's weapon and bonus are the GM's: what
    // the dodge is against stays with the GM until the dodge roll shows it.
    let secret = BTreeMap::from([
        ("weapon".to_owned(), StepValue::Text(s.weapon.id.clone())),
        ("bonus".to_owned(), StepValue::Int(bonus)),
        ("difficulty".to_owned(), StepValue::Int(difficulty)),
        ("attack_total".to_owned(), StepValue::Int(total)),
    ]);
    ctx.telling = None;
    ctx.ask(PendingStep {
        rule: STEP_DODGE.into(),
        actor: Some(t.id.clone()),
        seats: deciders(&t),
        question: format!(
            "{} hits {} with {}: dodge (d10 + Body + Dodge, spends the round's action) or take it?",
            a.id,
            t.id,
            match weapon_as_seen(&a, &s.weapon) {
                seen if seen == s.weapon.name => seen,
                kind => format!("a {kind}"),
            }
        ),
        options: vec!["dodge".into(), "take".into()],
        default: "take".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret,
        ..PendingStep::default()
    })?;
    Ok(())
}

/// The weapon as the defender's seats may name it: an NPC's weapon is the GM's to name, but
/// what kind it is shows (it sets how hard the dodge is). A noun, as an account's instrument
/// is: readers put the article before it.
pub(super) fn weapon_as_seen(attacker: &Combatant, w: &Weapon) -> String {
    if !crate::redact::gm_only_numbers(attacker) {
        return w.name.clone();
    }
    match w.kind {
        WeaponKind::Melee => "melee weapon",
        WeaponKind::Ranged => "ranged weapon",
        WeaponKind::Thrown => "thrown weapon",
        WeaponKind::Gun => "gun",
        WeaponKind::Unarmed => "fist",
    }
    .to_owned()
}

/// Why `t` cannot dodge: it needs its round's action, still to be taken or held.
fn cannot_dodge(t: &Combatant) -> Option<&'static str> {
    if t.kind == Kind::Object {
        return Some("an object");
    }
    if let Some(why) = cannot_act(t) {
        return Some(why);
    }
    (t.resource(ACTION) == 0).then_some("no action left this round")
}

pub fn resume_dodge(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    choice: &str,
) -> Result<(), DecideError> {
    let target = ctx.combatant(
        step.actor
            .as_ref()
            .ok_or_else(|| DecideError::malformed(step, "actor"))?,
    )?;
    let attacker = ctx.combatant(
        step.entity("attacker")
            .ok_or_else(|| DecideError::malformed(step, "attacker"))?,
    )?;
    let weapon_id = match step.secret.get("weapon") {
        Some(StepValue::Text(w)) => w.as_str(),
        _ => return Err(DecideError::malformed(step, "weapon")),
    };
    let weapon = sheet_of(&attacker)?
        .weapon(Some(weapon_id))
        .ok_or_else(|| DecideError::malformed(step, "weapon on the sheet"))?;
    let int = |k: &str| {
        step.secret_int(k)
            .ok_or_else(|| DecideError::malformed(step, k))
    };
    let (bonus, difficulty, attack_total) =
        (int("bonus")?, int("difficulty")?, int("attack_total")?);
    // Two attacks may ask the same defender at once (aimed attacks fired together when its
    // group is done): the first dodge spends its action, and a second one cannot be made
    // without it.
    let choice = match cannot_dodge(&target) {
        Some(why) if choice == "dodge" => {
            ctx.emit(Event::public(Fact::Noted {
                text: format!("{} cannot dodge: {why}; the hit is taken", target.id),
            }))?;
            "take"
        }
        _ => choice,
    };
    if choice == "dodge" {
        let s = sheet_of(&target)?;
        let against = checks::dodge_difficulty(
            attack_total,
            weapon.kind,
            is(ctx.state.options(), GUN_DODGE, "adds"),
        );
        let roll = crate::dice::roll(&d10()?, ctx.dice)?;
        let modifiers = vec![
            Modifier::new("Body", s.body),
            Modifier::new("Dodge", s.skills.dodge),
        ];
        let total = tell::total(&roll, &modifiers);
        let ok = checks::passes(
            total,
            against,
            is(ctx.state.options(), CHECK_TIES, "succeeds"),
        );
        ctx.telling = Some(Telling {
            actor: Some(target.id.clone()),
            verb: "dodges".into(),
            target: Some(attacker.id.clone()),
            instrument: Some(weapon_as_seen(&attacker, &weapon)),
        });
        tell::check(
            ctx,
            Check {
                who: &target.id,
                label: "Dodge".into(),
                roll,
                modifiers,
                against: Some((against, "attack total")),
                success: Some(ok),
                words: ("dodges", "fails to dodge"),
                because: None,
                // An NPC's attack total less its face would tell its bonus for every later
                // attack: the table learns whether the dodge beat it, the GM the number.
                hidden: crate::redact::gm_only_numbers(&attacker),
                gm_only: false,
            },
        )?;
        ctx.telling = None;
        if !ok || is(ctx.state.options(), DODGE_SPENDS, "yes") {
            spend_out_of_turn(ctx, &target)?;
        }
        if ok {
            return Ok(());
        }
    }
    let target = ctx.combatant(&target.id)?;
    let grab = step.flag("grab").unwrap_or(false);
    landed(ctx, &attacker, &target, &weapon, bonus, difficulty, grab)
}

/// A hit that was not dodged: damage, or for a grab the hold contest (no damage: the grab
/// is the attempt to catch).
fn landed(
    ctx: &mut Ctx<'_>,
    a: &Combatant,
    t: &Combatant,
    w: &Weapon,
    bonus: i64,
    difficulty: i64,
    grab: bool,
) -> Result<(), DecideError> {
    if grab {
        return super::hold::catch(ctx, a, t, w.immobilizing);
    }
    damage(ctx, a, t, w, bonus, difficulty)
}

/// Spends `t`'s round's action from wherever it is: its group's turn, its held delayed action,
/// or a turn still to come.
fn spend_out_of_turn(ctx: &mut Ctx<'_>, t: &Combatant) -> Result<(), DecideError> {
    if t.has_status(DELAYED) {
        return spend(ctx, &t.id, How::Delayed);
    }
    if turns::may_act(ctx.state.encounter()).contains(&t.id) {
        return spend(ctx, &t.id, How::Turn);
    }
    ctx.set_resource(&t.id, ACTION, (t.resource(ACTION) - 1).max(0))
}

/// One instance of the weapon's damage: its value, whether it asks for a critical, and
/// whether the shot still lands after a gun's doubles.
pub(super) fn weapon_die(
    ctx: &mut Ctx<'_>,
    a: &Combatant,
    w: &Weapon,
    what: &str,
) -> Result<(i64, bool, bool), DecideError> {
    let roll = crate::dice::roll(&parse(w.damage.notation())?, ctx.dice)?;
    let faces = roll.faces_of(0);
    let (value, crit) = checks::damage_value(
        w.damage,
        &faces,
        is(ctx.state.options(), DIVIDED_CRIT, "raw_face"),
    );
    ctx.emit(Event::public(Fact::Rolled {
        by: Some(a.id.clone()),
        purpose: format!("{}'s {what} with {} ({})", a.id, w.name, w.damage.word()),
        roll,
    }))?;
    let mut lands = true;
    if w.kind == WeaponKind::Gun && checks::doubles(&faces) {
        lands = jams(ctx, &a.id, w, "doubles on the damage dice")?;
    }
    Ok((value, crit, lands))
}

/// The damage of a hit: the weapon die; on a 10 the attack rolled again and, if it hits, a
/// second weapon die (never a third); plus Body or Senses and bonuses; then Life.
fn damage(
    ctx: &mut Ctx<'_>,
    a: &Combatant,
    t: &Combatant,
    w: &Weapon,
    bonus: i64,
    difficulty: i64,
) -> Result<(), DecideError> {
    let (first, crit, lands) = weapon_die(ctx, a, w, "damage")?;
    if !lands {
        return Ok(());
    }
    let mut steps = vec![Modifier::new(
        format!("{} ({})", w.name, w.damage.word()),
        first,
    )];
    if crit && covered(ctx, a, CRITICALS) {
        ctx.telling = Some(Telling {
            actor: Some(a.id.clone()),
            verb: "rolls for a critical against".into(),
            target: Some(t.id.clone()),
            instrument: Some(w.name.clone()),
        });
        let (hit, _) = attack_roll(
            ctx,
            a,
            t,
            "critical attack",
            vec![Modifier::new("attack bonuses", bonus)],
            difficulty,
        )?;
        ctx.telling = None;
        if hit {
            let (second, _, lands) = weapon_die(ctx, a, w, "critical damage")?;
            if lands {
                steps.push(Modifier::new("critical", second));
            }
        }
    }
    let sheet = sheet_of(a)?;
    steps.extend(checks::damage_modifiers(sheet, w));
    let amount: i64 = steps.iter().map(|m| m.value).sum();
    ctx.telling = Some(Telling {
        actor: Some(a.id.clone()),
        verb: "hits".into(),
        target: Some(t.id.clone()),
        instrument: Some(w.name.clone()),
    });
    let r = harm(ctx, &t.id, amount, steps, w.kind == WeaponKind::Unarmed);
    ctx.telling = None;
    r
}

/// Takes `amount` less Toughness off `id`'s Life (bare hands halve it against armour first).
/// Below 0, a conscious creature makes the consciousness check; an unconscious one taking a
/// hit as large as its whole Life dies.
pub fn harm(
    ctx: &mut Ctx<'_>,
    id: &EntityId,
    amount: i64,
    mut steps: Vec<Modifier>,
    bare_hands: bool,
) -> Result<(), DecideError> {
    let t = ctx.combatant(id)?;
    let s = sheet_of(&t)?;
    let armoured = s.armoured || t.has_status(ARMOURED);
    let halve = (bare_hands && armoured)
        .then(|| is(ctx.state.options(), super::options::UNARMED_ROUNDING, "up"));
    let taken = checks::damage_taken(amount, s.toughness, halve);
    if halve.is_some() {
        steps.push(Modifier::new(
            "bare hands against armour: half",
            taken + s.toughness - amount,
        ));
    }
    if s.toughness != 0 {
        steps.push(Modifier::new("Toughness", -s.toughness));
    }
    let before = t.resource(LIFE);
    let after = before - taken;
    let source = ctx.telling.as_ref().and_then(|t| t.actor.clone());
    ctx.emit(ctx.damage_resolved(id, steps.clone(), taken, source.as_ref()))?;
    let was_down = t.has_status(UNCONSCIOUS);
    let dies = was_down && taken >= s.life_max;
    let wound = if dies {
        "killed"
    } else if after < 0 && !was_down {
        "below 0 Life"
    } else if taken > 0 {
        "hurt"
    } else {
        "unharmed"
    };
    let account = tell::life_moved(ctx, id, "damage", steps, before, after, Some(wound.into()));
    ctx.emit(Event::public(Fact::Told(Box::new(account))))?;
    ctx.set_resource(id, LIFE, after)?;
    if dies {
        ctx.set_status(
            id,
            DEAD,
            Some(Status {
                source: "hit while unconscious".into(),
                magnitude: 0,
                rounds_left: None,
            }),
        )?;
        return Ok(());
    }
    if after < 0 && !was_down && t.kind != Kind::Object {
        consciousness(ctx, id)?;
    }
    Ok(())
}

/// The consciousness check at Life below 0: d10 + Willpower + Pain Resistance against the
/// points below 0 plus 5; a Fatigue point either way; a pass sets Life to 0, a failure leaves
/// the creature unconscious with that difficulty to revive it.
pub fn consciousness(ctx: &mut Ctx<'_>, id: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(id)?;
    let Some(difficulty) = checks::consciousness_difficulty(c.resource(LIFE)) else {
        return Ok(());
    };
    if consciousness_check(ctx, id, difficulty)? {
        ctx.set_resource(id, LIFE, 0)?;
    }
    Ok(())
}

/// The consciousness check itself, against `difficulty`: d10 + Willpower + Pain Resistance, a
/// Fatigue point either way; a failure leaves the creature unconscious with that difficulty to
/// revive it (its held action gone). Returns whether it passed; what a pass does to Life is
/// the caller's (a hit sets it to 0, a stun attack takes the part below 0).
pub fn consciousness_check(
    ctx: &mut Ctx<'_>,
    id: &EntityId,
    difficulty: i64,
) -> Result<bool, DecideError> {
    let c = ctx.combatant(id)?;
    let s = sheet_of(&c)?;
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let modifiers = vec![
        Modifier::new("Willpower", s.willpower),
        Modifier::new("Pain Resistance", s.skills.pain_resistance),
    ];
    let total = tell::total(&roll, &modifiers);
    let ok = checks::passes(
        total,
        difficulty,
        is(ctx.state.options(), CHECK_TIES, "succeeds"),
    );
    ctx.telling = Some(Telling {
        actor: Some(id.clone()),
        verb: "makes a consciousness check".into(),
        target: None,
        instrument: None,
    });
    tell::check(
        ctx,
        Check {
            who: id,
            label: "consciousness".into(),
            roll,
            modifiers,
            against: Some((difficulty, "difficulty")),
            success: Some(ok),
            words: ("stays conscious", "falls unconscious"),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    ctx.telling = None;
    ctx.set_resource(id, FATIGUE, c.resource(FATIGUE) + 1)?;
    if ok {
        return Ok(true);
    }
    ctx.set_status(
        id,
        UNCONSCIOUS,
        Some(Status {
            source: "failed consciousness check".into(),
            magnitude: difficulty,
            rounds_left: None,
        }),
    )?;
    if c.has_status(DELAYED) {
        ctx.set_status(id, DELAYED, None)?;
        turns::hold(ctx, id, false)?;
    }
    ctx.set_resource(id, ACTION, 0)?;
    Ok(false)
}

/// Declares an aimed attack: the round's action, fired with +3 once the target's group has
/// had its turn.
pub fn aim(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args, how: How) -> Result<(), DecideError> {
    if how == How::Free {
        return Err(Refusal::NoEncounter.into());
    }
    let t = target_of(ctx, c, args)?;
    if t.side == c.side {
        return Err(Refusal::bad_argument("target", "is on the attacker's side").into());
    }
    let w = weapon_of(c, args)?;
    if how == How::Delayed {
        return aim_now(ctx, c, &t, w);
    }
    spend(ctx, &c.id, how)?;
    ctx.defer(PendingStep {
        rule: STEP_AIMED.into(),
        actor: Some(c.id.clone()),
        trigger: Some(after_group(&t.side)),
        data: BTreeMap::from([
            ("target".to_owned(), StepValue::Entity(t.id.clone())),
            ("weapon".to_owned(), StepValue::Text(w.id.clone())),
        ]),
        ..PendingStep::default()
    })?;
    Ok(())
}

/// An aimed attack executed as the held delayed action: fired at once with +3, and the target
/// may dodge only after winning a Speed contest against the attacker.
fn aim_now(ctx: &mut Ctx<'_>, c: &Combatant, t: &Combatant, w: Weapon) -> Result<(), DecideError> {
    spend(ctx, &c.id, How::Delayed)?;
    // As a deferred aimed attack whose moment comes (`fire_aimed`): a target out of range or
    // sight wastes it, nothing fired or drawn.
    if t.has_status(OUT_OF_SIGHT) {
        return ctx.note_about(
            &c.id,
            format!(
                "{}'s aimed attack at {} is wasted: the target is out of range or sight",
                c.id, t.id
            ),
        );
    }
    reload::fired(ctx, &c.id, &w)?;
    if w.kind == WeaponKind::Gun && !powder_fires(ctx, c, &w)? {
        return Ok(());
    }
    let mut extra = vec![("aimed", AIMED)];
    extra.extend(standing_bonuses(c, t));
    strike(
        ctx,
        Strike {
            attacker: c.id.clone(),
            target: t.id.clone(),
            weapon: w,
            raise: Vec::new(),
            extra,
            grab: false,
            speed_first: true,
        },
    )
}

/// Fires an aimed attack whose moment has come, or says it is wasted: the shooter down, the
/// target gone, down or out of range or sight.
pub fn fire_aimed(ctx: &mut Ctx<'_>, step: &PendingStep) -> Result<(), DecideError> {
    let shooter = ctx.combatant(
        step.actor
            .as_ref()
            .ok_or_else(|| DecideError::malformed(step, "actor"))?,
    )?;
    let target_id = step
        .entity("target")
        .ok_or_else(|| DecideError::malformed(step, "target"))?;
    let target = ctx.state.combatant(target_id).cloned();
    let wasted = match &target {
        _ if cannot_act(&shooter).is_some() => Some("the shooter is down"),
        None => Some("the target is gone"),
        Some(t) if t.has_status(DEAD) || t.has_status(UNCONSCIOUS) => Some("the target is down"),
        Some(t) if t.has_status(OUT_OF_SIGHT) => Some("the target is out of range or sight"),
        Some(_) => None,
    };
    let weapon = sheet_of(&shooter)?.weapon(step.text("weapon"));
    let (Some(target), Some(weapon), None) = (target, weapon, wasted) else {
        let why = wasted.unwrap_or("the weapon is gone");
        // An NPC's aim was the GM's secret (its deferred step is withheld), and stays so.
        return ctx.note_about(
            &shooter.id,
            format!(
                "{}'s aimed attack at {target_id} is wasted: {why}",
                shooter.id
            ),
        );
    };
    if shooter.statuses.contains_key(&jam_key(&weapon.id)) {
        return ctx.note_about(
            &shooter.id,
            format!(
                "{}'s aimed attack is wasted: {} is jammed",
                shooter.id, weapon.name
            ),
        );
    }
    if shooter
        .statuses
        .contains_key(&super::unloaded_key(&weapon.id))
    {
        return ctx.note_about(
            &shooter.id,
            format!(
                "{}'s aimed attack is wasted: {} is not loaded",
                shooter.id, weapon.name
            ),
        );
    }
    reload::fired(ctx, &shooter.id, &weapon)?;
    if weapon.kind == WeaponKind::Gun && !powder_fires(ctx, &shooter, &weapon)? {
        return Ok(());
    }
    let mut extra = vec![("aimed", AIMED)];
    extra.extend(standing_bonuses(&shooter, &target));
    strike(
        ctx,
        Strike {
            attacker: shooter.id.clone(),
            target: target.id.clone(),
            weapon,
            raise: Vec::new(),
            extra,
            grab: false,
            speed_first: false,
        },
    )
}
