//! Attacks: d10 + the attribute the attack's kind calls for (power in melee, reflex for ranged
//! and small weapons) + the weapon's bonus + PP declared before the roll, against the target's
//! toughness, equal or higher hitting. No skill ever adds to an attack. A hit deals 1 unless
//! the weapon says more, plus the race's +1 against its foes, the sheet's and the fight's
//! bonuses (Wrath, Weapon proficiency, Bless weapon, Appeal to heaven, Thunderous blow) and
//! Power strike's PP. A non-lethal attack must also win a power challenge and then deals
//! exactly 1. Feint and Blessed roll a missed attack again; Deflect projectiles turns a ranged
//! hit into a reflex challenge. What a die of 10 or 1 sets off is `faces`; the extra targets
//! of One man army are `army`; who the attack may spend (its action, or an extra one) is
//! `call`. A hit on someone who can Evade or Withstand asks that character's seat first, after
//! any ally with Defensive rush (`rush`).

use std::collections::BTreeMap;

use crate::account::Telling;
use crate::action::Args;
use crate::decision::{Closing, PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Status};
use crate::toolkit::deciders;

use super::checks::{self, Winner};
use super::content::Attribute;
use super::dice::roll_told;
use super::dice::{Amount, Die};
use super::rolls::{self, Side, d10_for, declare_pp, natural, spend_pp};
use super::sheet::{AttackKind, AttackStats, ProficiencyBonus, Stats, UNARMED, of_type};
use super::tell::{self, Check};
use super::{
    APPEAL, BLESSED_WEAPON, DEAD, DISARMED, FANGED, PP, PRONE, THUNDEROUS, cannot_act, harm,
    stats_of,
};
use super::{afflict, faces};

pub const STEP_HIT: &str = "tinyd10.hit";
/// Thunderous blow's cost, Blessed's on one's own roll, Overpower's.
const THUNDER_COST: i64 = 2;
const BLESSED_COST: i64 = 3;
const OVERPOWER_COST: i64 = 1;

/// The blow a free attack (Sudden strike, Battle lock) is struck with: the first melee attack
/// on the sheet, bare hands once disarmed.
pub(super) fn ready_melee(c: &Combatant, stats: &Stats) -> Option<AttackStats> {
    if c.has_status(DISARMED) {
        return stats.attack(UNARMED).cloned();
    }
    stats.attacks.iter().find(|a| a.kind.is_melee()).cloned()
}

/// What the attacker asked for besides the target and weapon.
pub(super) struct Declared {
    pp: i64,
    pub(super) power_strike: i64,
    pub(super) feint: bool,
    nonlethal: bool,
    advantage: i64,
    /// An apprentice's or familiar's advantage (`companion`).
    companion: i64,
    /// Thunderous blow declared with this attack (2 PP).
    thunderous: bool,
    /// Blessed: a missed attack rolled again (3 PP, spent on the miss).
    pub(super) blessed: bool,
    /// Overpower: a power challenge this attack starts and loses rolled again (1 PP).
    overpower: bool,
}

impl Declared {
    /// A plain blow: nothing added, nothing declared (an attack the rules give for free).
    pub(super) fn plain() -> Self {
        Declared {
            pp: 0,
            power_strike: 0,
            feint: false,
            nonlethal: false,
            advantage: 0,
            companion: 0,
            thunderous: false,
            blessed: false,
            overpower: false,
        }
    }
}

fn declared(args: &Args, stats: &Stats, c: &Combatant) -> Result<Declared, Refusal> {
    let d = Declared {
        pp: args.int("pp")?.unwrap_or(0),
        power_strike: args.int("power_strike")?.unwrap_or(0),
        feint: args.flag("feint")?,
        nonlethal: args.flag("nonlethal")?,
        advantage: args.int("advantage")?.unwrap_or(0),
        companion: 0,
        thunderous: args.flag("thunderous")?,
        blessed: args.flag("blessed")?,
        overpower: args.flag("overpower")?,
    };
    for (used, ability) in [
        (d.power_strike > 0, "power_strike"),
        (d.feint, "feint"),
        (d.thunderous, "thunderous_blow"),
        (d.blessed, "blessed"),
        (d.overpower, "overpower"),
    ] {
        if used && !stats.has_ability(ability) {
            return Err(Refusal::Rule(format!("{} does not have {ability}", c.id)));
        }
    }
    if d.power_strike < 0 {
        return Err(Refusal::bad_argument("power_strike", "is not negative"));
    }
    Ok(d)
}

/// The attack's own bonuses: the attribute, the weapon, PP, Brawl, and what the target's race
/// and the GM's combat advantage add.
fn modifiers(stats: &Stats, w: &AttackStats, target: &Stats, d: &Declared) -> Vec<Modifier> {
    let attribute = w.kind.attribute();
    let mut out = vec![Modifier::new(attribute.word(), stats.attribute(attribute))];
    let mut push = |label: &str, v: i64| {
        if v != 0 {
            out.push(Modifier::new(label, v));
        }
    };
    push(&w.name, w.attack);
    if let Some(p) = &stats.proficiency
        && p.bonus == ProficiencyBonus::Attack
        && of_type(w, &p.weapon)
    {
        push("weapon proficiency", 1);
    }
    if (d.nonlethal || w.id == UNARMED) && stats.has_ability("brawl") {
        push("brawl", 2);
    }
    if w.kind == AttackKind::Ranged {
        push("target's race: ranged", target.ranged_against);
    }
    if stats.has_ability("raised_by_the_sword") && target.tags.iter().any(|t| t == "sword") {
        push("raised by the sword", 1);
    }
    push("combat advantage", d.advantage);
    push("apprentice's advantage", d.companion);
    out
}

pub fn attack(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let t = ctx.combatant(&args.require_entity("target")?)?;
    if t.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is already dead", t.id)).into());
    }
    // Named, or the first the sheet lists (its weapons and own attacks come before bare hands);
    // bare hands only once disarmed.
    let disarmed = c.has_status(DISARMED);
    let w = match args.text("weapon")? {
        Some(id) if disarmed && id != UNARMED => {
            return Err(Refusal::Rule(format!(
                "{} is disarmed: bare hands until the GM rules its weapon back in hand",
                c.id
            ))
            .into());
        }
        Some(id) => stats.attack(id),
        None if disarmed => stats.attack(UNARMED),
        None => stats.attacks.first(),
    }
    .cloned()
    .ok_or_else(|| Refusal::bad_argument("weapon", "is not one of the attacker's weapons"))?;
    let mut d = declared(args, &stats, c)?;
    super::presence::must_target(ctx, c, &t.id)?;
    let mut targets = vec![t];
    targets.extend(super::army::more_targets(
        ctx,
        c,
        &stats,
        &w,
        &d,
        args,
        &targets[0],
    )?);
    if w.kind == AttackKind::Ranged {
        super::grounds::may_shoot(c)?;
        super::round::within_range(ctx, c, &targets[0], w.range_ft, &w.name)?;
    }
    // Everything the attack may cost (Feint's 2 PP included, in case it misses, and One man
    // army's point a target) is checked before anything is spent or rolled.
    if d.feint && d.blessed {
        return Err(Refusal::bad_argument(
            "blessed",
            "a missed attack is rolled again once: Feint or Blessed",
        )
        .into());
    }
    // Feint's 2 PP, Blessed's 3 and Overpower's 1 are spent only if needed, but must be there.
    let feint_reserve = 2 * i64::from(d.feint)
        + BLESSED_COST * i64::from(d.blessed)
        + OVERPOWER_COST * i64::from(d.overpower);
    let army = super::army::cost(&targets);
    let thunder = if d.thunderous {
        if !w.kind.is_melee() {
            return Err(Refusal::bad_argument("thunderous", "is a melee blow").into());
        }
        THUNDER_COST
    } else {
        0
    };
    declare_check(
        ctx,
        c,
        d.pp + d.power_strike + feint_reserve + army + thunder,
    )?;
    d.companion = super::companion::before_attack(ctx, c, &w)?;
    super::call::take_attack(ctx, c)?;
    if army > 0 {
        spend_pp(ctx, &c.id, army, "one man army")?;
    }
    if thunder > 0 {
        spend_pp(ctx, &c.id, thunder, "thunderous blow")?;
        afflict::afflict(
            ctx,
            &c.id,
            THUNDEROUS,
            2,
            afflict::Rounds::Told(1),
            "thunderous blow",
        )?;
    }
    let pp = declare_pp(ctx, c, d.pp, d.power_strike)?;
    for t in &targets {
        if cannot_act(&ctx.combatant(&c.id)?).is_some() {
            break;
        }
        let t = ctx.combatant(&t.id)?;
        if t.has_status(DEAD) {
            continue;
        }
        strike_one(ctx, c, &w, &d, pp.clone(), &t, false)?;
    }
    // A Sudden strike may have dropped the attacker in its own turn: nobody could end it.
    if cannot_act(&ctx.combatant(&c.id)?).is_some()
        && crate::toolkit::turns::check_turn(&ctx.state, &c.id).is_ok()
    {
        super::round::end_turn(ctx, &c.id)?;
    }
    Ok(())
}

/// One attack roll of `c` on `t` and all that follows it. `free` marks an attack the rules
/// give outside the turn (Sudden strike, Battle lock): it sets off no Sudden strike in reply
/// (so two rogues cannot answer each other for ever) and leaves no Tactical retreat behind.
#[allow(clippy::too_many_arguments)]
pub(super) fn strike_one(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    w: &AttackStats,
    d: &Declared,
    pp: Option<Modifier>,
    t: &Combatant,
    free: bool,
) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let t_stats = stats_of(t)?;
    // A Fanged strike's hunger is for its own blow only.
    ctx.set_status(&c.id, FANGED, None)?;
    let mut bonuses = modifiers(&stats, w, &t_stats, d);
    let now = ctx.combatant(&c.id)?;
    if w.kind.attribute() == Attribute::Power
        && let Some(s) = now.statuses.get(super::care::STRENGTH)
    {
        bonuses.push(Modifier::new("words of strength", s.magnitude));
    }
    if now.has_status(THUNDEROUS) && w.kind.is_melee() {
        // Double the melee attack bonus: the attribute and the weapon's bonus once more.
        bonuses.push(Modifier::new(
            "thunderous blow: bonus doubled",
            stats.attribute(w.kind.attribute()) + w.attack,
        ));
    }
    if now.has_status(APPEAL) {
        bonuses.push(Modifier::new("appeal to heaven", 1));
    }
    if super::lasting::enchanted(&now, &w.id) {
        bonuses.push(Modifier::new(
            "enchant weapon",
            super::lasting::ENCHANT_ATTACK,
        ));
    }
    bonuses.extend(afflict::penalties(
        ctx,
        &c.id,
        true,
        Some(w.kind.attribute()),
    )?);
    bonuses.extend(pp);
    if let Some(m) = legendary_presence(ctx, c, t, &t_stats)? {
        bonuses.push(m);
    }
    let toughness = super::presence::toughness_against(ctx, t)?;
    let telling = Telling {
        actor: Some(c.id.clone()),
        verb: if d.nonlethal {
            "strikes to subdue"
        } else {
            "attacks"
        }
        .into(),
        target: Some(t.id.clone()),
        instrument: Some(w.name.clone()),
    };
    ctx.telling = Some(telling.clone());
    let hidden = crate::redact::gm_only_numbers(t);
    let (mut hit, mut roll_nat) =
        roll_attack(ctx, c, &stats, "attack", bonuses.clone(), toughness, hidden)?;
    if !faces::before_the_blow(ctx, c, t, w, roll_nat, free)? {
        return Ok(());
    }
    ctx.telling = Some(telling.clone());
    if !hit && d.feint && w.kind.is_melee() {
        spend_pp(ctx, &c.id, 2, "feint")?;
        (hit, roll_nat) = roll_attack(
            ctx,
            c,
            &stats,
            "feint: attack again",
            bonuses.clone(),
            toughness - 1,
            hidden,
        )?;
        if !faces::before_the_blow(ctx, c, t, w, roll_nat, free)? {
            return Ok(());
        }
        ctx.telling = Some(telling.clone());
    }
    if !hit && d.blessed {
        spend_pp(ctx, &c.id, BLESSED_COST, "blessed")?;
        (hit, roll_nat) = roll_attack(
            ctx,
            c,
            &stats,
            "blessed: attack again",
            bonuses,
            toughness,
            hidden,
        )?;
        if !faces::before_the_blow(ctx, c, t, w, roll_nat, free)? {
            return Ok(());
        }
        ctx.telling = Some(telling);
    }
    if !hit {
        ctx.telling = None;
        let pool = ctx.combatant(&c.id)?.resource(PP);
        if w.kind.is_melee() && stats.has_ability("explosive_power") && pool > 0 {
            let total = last_total(ctx).unwrap_or(0);
            return ask_explosive(ctx, c, t, w, d, total, toughness, pool);
        }
        return Ok(());
    }
    if !free && w.kind.is_melee() {
        super::moving::may_retreat(ctx, c, &stats, t)?;
    }
    after_hit(ctx, c, t, w, d, roll_nat)
}

/// Legendary presence: the first time a foe attacks a legend in a fight, an aspect challenge;
/// a foe who loses attacks at -2 (that attack only: A18).
fn legendary_presence(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    t: &Combatant,
    t_stats: &Stats,
) -> Result<Option<Modifier>, DecideError> {
    if !t_stats.legendary_presence || c.side == t.side {
        return Ok(None);
    }
    let key = format!("presence.{}.{}", t.id, c.id);
    if ctx.state.encounter().values.get(&key).copied().unwrap_or(0) > 0 {
        return Ok(None);
    }
    ctx.set_encounter_value(&key, 1)?;
    let won = rolls::challenge(
        ctx,
        Side {
            who: c,
            attribute: Attribute::Aspect,
            extra: Vec::new(),
        },
        Side {
            who: t,
            attribute: Attribute::Aspect,
            extra: Vec::new(),
        },
        "legendary presence",
    )?;
    Ok((won == Winner::Resister).then(|| Modifier::new("legendary presence", -2)))
}

/// The total of the last check recorded in this command.
fn last_total(ctx: &Ctx<'_>) -> Option<i64> {
    ctx.emitted().iter().rev().find_map(|e| {
        e.facts().find_map(|f| match f {
            crate::event::Fact::Checked(r) => Some(r.total),
            _ => None,
        })
    })
}

pub const STEP_EXPLOSIVE: &str = "tinyd10.explosive_power";

/// Explosive power: after a failed melee roll the attacker may add PP to it, 1 each. The
/// toughness stays secret (an NPC's is the GM's): the attacker knows only their total.
#[allow(clippy::too_many_arguments)]
fn ask_explosive(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    t: &Combatant,
    w: &AttackStats,
    d: &Declared,
    total: i64,
    toughness: i64,
    pool: i64,
) -> Result<(), DecideError> {
    let data = BTreeMap::from([
        ("target".to_owned(), StepValue::Entity(t.id.clone())),
        ("weapon".to_owned(), StepValue::Text(w.id.clone())),
        ("total".to_owned(), StepValue::Int(total)),
        ("power_strike".to_owned(), StepValue::Int(d.power_strike)),
        ("nonlethal".to_owned(), StepValue::Flag(d.nonlethal)),
    ]);
    let secret = BTreeMap::from([("toughness".to_owned(), StepValue::Int(toughness))]);
    ctx.ask(PendingStep {
        rule: STEP_EXPLOSIVE.into(),
        actor: Some(c.id.clone()),
        seats: deciders(c),
        question: format!(
            "{}'s attack on {} totals {total} and misses: add power points to it (Explosive power, 1 each)?",
            c.id, t.id
        ),
        options: vec!["add".into(), "keep".into()],
        default: "keep".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret,
        args: vec![
            crate::action::ArgSpec::new(
                "points",
                crate::action::ArgKind::Int,
                false,
                "PP added to the failed roll",
            )
            .range(1, pool),
        ],
        ..PendingStep::default()
    })?;
    Ok(())
}

/// The attacker answered Explosive power's question.
pub fn resume_explosive(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    if closing.choice != "add" {
        return Ok(());
    }
    let c = ctx.step_actor(step)?;
    let t = ctx.step_entity(step, "target")?;
    let total = step
        .int("total")
        .ok_or_else(|| DecideError::malformed(step, "total"))?;
    let toughness = step
        .secret_int("toughness")
        .ok_or_else(|| DecideError::malformed(step, "toughness"))?;
    let weapon = step
        .text("weapon")
        .ok_or_else(|| DecideError::malformed(step, "weapon"))?;
    let stats = stats_of(&c)?;
    let w = stats
        .attack(weapon)
        .cloned()
        .ok_or_else(|| DecideError::malformed(step, "the weapon on the sheet"))?;
    let points = closing
        .args
        .int("points")?
        .ok_or_else(|| Refusal::bad_argument("points", "how many PP to add"))?;
    spend_pp(ctx, &c.id, points, "explosive power")?;
    let now = total + points;
    let hit = checks::attack_hits(now, toughness);
    ctx.note_about(
        &c.id,
        format!(
            "{} adds {points} PP to the failed roll (explosive power): {now}, and {}",
            c.id,
            if hit { "hits" } else { "still misses" }
        ),
    )?;
    if !hit {
        return Ok(());
    }
    let d = Declared {
        power_strike: step.int("power_strike").unwrap_or(0),
        nonlethal: step.flag("nonlethal").unwrap_or(false),
        ..Declared::plain()
    };
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "attacks".into(),
        target: Some(t.id.clone()),
        instrument: Some(w.name.clone()),
    });
    // The roll's face was not a 10 (it failed): nothing reacts to it.
    after_hit(ctx, &c, &t, &w, &d, None)
}

/// What follows a hit: Deflect projectiles, Pummel, the non-lethal challenge, then damage.
fn after_hit(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    t: &Combatant,
    w: &AttackStats,
    d: &Declared,
    roll_nat: Option<i64>,
) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let t_stats = stats_of(t)?;
    let (t, w) = (t.clone(), w.clone());
    if roll_nat == Some(10)
        && w.kind.is_melee()
        && stats.has_ability("pummel")
        && !super::lasting::attack_warded(c, &t)
    {
        ctx.set_status(
            &t.id,
            PRONE,
            Some(Status {
                source: "pummel".into(),
                magnitude: checks::PRONE_TOUGHNESS,
                rounds_left: None,
            }),
        )?;
        ctx.note_about(
            &t.id,
            format!("{} rolls a 10: pummel knocks {} prone", c.id, t.id),
        )?;
    }
    if w.kind == AttackKind::Ranged
        && t_stats.has_ability("deflect_projectiles")
        && cannot_act(&t).is_none()
    {
        // The projectile that hit is a reflex challenge the target resists (A11: it follows
        // the hit rather than replacing the attack roll).
        let won = rolls::challenge(
            ctx,
            Side {
                who: c,
                attribute: Attribute::Reflex,
                extra: Vec::new(),
            },
            Side {
                who: &t,
                attribute: Attribute::Reflex,
                extra: Vec::new(),
            },
            "deflect projectiles",
        )?;
        if won == Winner::Resister {
            ctx.telling = None;
            return ctx.note_about(&t.id, format!("{} deflects the projectile", t.id));
        }
    }
    faces::on_the_hit(ctx, c, &stats, &t, &w, roll_nat, d.overpower)?;
    faces::fang(ctx, c, &stats, &w, roll_nat)?;
    if d.nonlethal {
        let won = power_challenge(ctx, c, &t, "non-lethal blow", d.overpower)?;
        ctx.telling = None;
        if won != Winner::Starter {
            return ctx.note_about(&t.id, format!("{} is struck but not hurt", t.id));
        }
        let ranged = w.kind == AttackKind::Ranged;
        return land(
            ctx,
            c,
            &t,
            1,
            vec![Modifier::new("non-lethal", 1)],
            true,
            ranged,
        );
    }
    let me = ctx.combatant(&c.id)?;
    let blessed = me
        .statuses
        .get(BLESSED_WEAPON)
        .is_some_and(|s| s.source == w.id);
    let unholy = super::strike::is_unholy(&t_stats);
    let favored = roll_nat == Some(10)
        && stats
            .favored_weapon
            .as_ref()
            .is_some_and(|k| of_type(&w, k));
    // Favored weapon's 1d5 (on a 10) and a blessed weapon's against the unholy take the place
    // of the 1 every blow deals; the weapon's own bonus still adds.
    let d5 = w.damage.die.is_none() && (favored || (blessed && unholy));
    let damage = if d5 {
        Amount {
            die: Some(Die::D5),
            flat: w.damage.flat - 1,
            plus_level: false,
        }
    } else {
        w.damage
    };
    // Which tags a target carries is the GM's for the GM's creature: the label does not say
    // "unholy" of an NPC.
    let label = match (d5, favored) {
        (true, true) => "damage: a 10 with the favored weapon",
        (true, false) if crate::redact::gm_only_numbers(&t) => "damage: a blessed weapon",
        (true, false) => "damage: a blessed weapon against the unholy",
        _ => "damage",
    };
    let rolled = roll_told(ctx, &c.id, label, damage, stats.level)?;
    let mut steps = vec![Modifier::new(&w.name, rolled.value)];
    let mut amount = rolled.value;
    // The blow's damage bonus, which Thunderous blow doubles: the weapon's own and every +1
    // below (not Power strike's paid points).
    let mut bonus = w.damage.flat - i64::from(w.damage.die.is_none());
    let mut add = |steps: &mut Vec<Modifier>, label: String, on: bool| {
        if on {
            steps.push(Modifier::new(label, 1));
            bonus += 1;
        }
    };
    add(
        &mut steps,
        "weapon proficiency".into(),
        stats
            .proficiency
            .as_ref()
            .is_some_and(|p| p.bonus == ProficiencyBonus::Damage && of_type(&w, &p.weapon)),
    );
    if let Some(tag) = &stats.damage_vs {
        add(
            &mut steps,
            format!("race: against {tag}"),
            t_stats.tags.contains(tag),
        );
    }
    add(
        &mut steps,
        "wrath".into(),
        stats.has_ability("wrath") && unholy,
    );
    add(&mut steps, "bless weapon".into(), blessed);
    add(&mut steps, "appeal to heaven".into(), me.has_status(APPEAL));
    if super::lasting::enchanted(&me, &w.id) {
        steps.push(Modifier::new(
            "enchant weapon",
            super::lasting::ENCHANT_DAMAGE,
        ));
        bonus += super::lasting::ENCHANT_DAMAGE;
    }
    amount += bonus - (w.damage.flat - i64::from(w.damage.die.is_none()));
    if me.has_status(THUNDEROUS) && w.kind.is_melee() && bonus > 0 {
        steps.push(Modifier::new("thunderous blow: bonus doubled", bonus));
        amount += bonus;
    }
    if d.power_strike > 0 {
        spend_pp(ctx, &c.id, d.power_strike, "power strike")?;
        steps.push(Modifier::new("power strike", d.power_strike));
        amount += d.power_strike;
    }
    if let Some(doubled) = faces::bloody_slash(ctx, c, &stats, &w, amount)? {
        steps.push(Modifier::new("bloody slash: double", doubled - amount));
        amount = doubled;
    }
    if !faces::deathless_lets_through(ctx, c, &t)? {
        ctx.telling = None;
        return ctx.note_about(
            &t.id,
            format!("{} strikes {} but deals no damage (deathless)", c.id, t.id),
        );
    }
    ctx.telling = None;
    land(
        ctx,
        c,
        &t,
        amount,
        steps,
        false,
        w.kind == AttackKind::Ranged,
    )
}

/// A power challenge the attacker `c` starts against `t`; with Overpower declared, one lost is
/// rolled again for 1 PP (the second result stands).
pub(super) fn power_challenge(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    t: &Combatant,
    what: &str,
    overpower: bool,
) -> Result<Winner, DecideError> {
    let side = |who| Side {
        who,
        attribute: Attribute::Power,
        extra: Vec::new(),
    };
    let won = rolls::challenge(ctx, side(c), side(t), what)?;
    if won == Winner::Starter || !overpower || ctx.combatant(&c.id)?.resource(PP) < OVERPOWER_COST {
        return Ok(won);
    }
    spend_pp(ctx, &c.id, OVERPOWER_COST, "overpower")?;
    ctx.note_about(
        &c.id,
        format!("{} overpowers: the {what} challenge again", c.id),
    )?;
    rolls::challenge(ctx, side(c), side(t), what)
}

/// Refuses an attack whose declared PP the pool cannot pay.
fn declare_check(ctx: &Ctx<'_>, c: &Combatant, pp: i64) -> Result<(), Refusal> {
    let have = ctx.combatant(&c.id)?.resource(PP);
    if pp > have {
        return Err(Refusal::InsufficientResource {
            resource: "power points".into(),
            needed: pp,
            available: have,
        });
    }
    Ok(())
}

/// One attack roll; returns whether it hit and the number "rolls a 10" reads.
fn roll_attack(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    label: &str,
    bonuses: Vec<Modifier>,
    toughness: i64,
    hidden: bool,
) -> Result<(bool, Option<i64>), DecideError> {
    let roll = d10_for(ctx, &c.id, stats)?;
    let bonus: i64 = bonuses.iter().map(|m| m.value).sum();
    let nat = natural(ctx, &roll, bonus);
    let total = tell::total(&roll, &bonuses);
    let hit = checks::attack_hits(total, toughness);
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: label.to_owned(),
            roll,
            modifiers: bonuses,
            against: Some((toughness, "toughness")),
            success: Some(hit),
            words: ("hits", "misses"),
            because: None,
            hidden,
            gm_only: false,
        },
    )?;
    Ok((hit, nat))
}

/// A hit lands: the target's seat is asked first when it can Evade or Withstand.
/// A hit lands: an ally with Defensive rush may step in first; then the target's seat is asked
/// when it can Evade or Withstand.
fn land(
    ctx: &mut Ctx<'_>,
    a: &Combatant,
    t: &Combatant,
    amount: i64,
    steps: Vec<Modifier>,
    nonlethal: bool,
    ranged: bool,
) -> Result<(), DecideError> {
    if super::rush::offer(ctx, a, t, amount, &steps, nonlethal, ranged)? {
        return Ok(());
    }
    react(ctx, a, t, amount, steps, nonlethal)
}

/// How the damage was built, kept in a step's secret: it names the attacker's weapon and
/// bonuses, the GM's for an NPC.
pub(super) fn steps_secret(steps: &[Modifier]) -> BTreeMap<String, StepValue> {
    steps
        .iter()
        .enumerate()
        .flat_map(|(i, m)| {
            [
                (format!("step{i}.label"), StepValue::Text(m.label.clone())),
                (format!("step{i}.value"), StepValue::Int(m.value)),
            ]
        })
        .collect()
}

/// The damage steps a step's secret holds.
pub(super) fn steps_of(step: &PendingStep) -> Vec<Modifier> {
    let mut steps = Vec::new();
    for i in 0.. {
        let (Some(StepValue::Text(label)), Some(value)) = (
            step.secret.get(&format!("step{i}.label")),
            step.secret_int(&format!("step{i}.value")),
        ) else {
            break;
        };
        steps.push(Modifier::new(label, value));
    }
    steps
}

/// The target's own answer to a hit: asked when it can Evade or Withstand.
pub(super) fn react(
    ctx: &mut Ctx<'_>,
    a: &Combatant,
    t: &Combatant,
    amount: i64,
    steps: Vec<Modifier>,
    nonlethal: bool,
) -> Result<(), DecideError> {
    let stats = stats_of(t)?;
    let pp = t.resource(PP);
    let mut options = Vec::new();
    if cannot_act(t).is_none() && pp >= 1 {
        if stats.has_ability("evade") {
            options.push("evade".to_owned());
        }
        if stats.has_ability("withstand") {
            options.push("withstand".to_owned());
        }
    }
    if options.is_empty() {
        return harm::damage(ctx, &t.id, amount, steps, Some(&a.id), nonlethal);
    }
    options.push("take".into());
    let data = BTreeMap::from([
        ("attacker".to_owned(), StepValue::Entity(a.id.clone())),
        ("amount".to_owned(), StepValue::Int(amount)),
        ("nonlethal".to_owned(), StepValue::Flag(nonlethal)),
    ]);
    let secret = steps_secret(&steps);
    ctx.ask(PendingStep {
        rule: STEP_HIT.into(),
        actor: Some(t.id.clone()),
        seats: deciders(t),
        question: format!(
            "{} hits {} for {amount} damage: evade it (1 PP), withstand it (1 PP a point) or take it?",
            a.id, t.id
        ),
        options,
        default: "take".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret,
        args: vec![
            crate::action::ArgSpec::new(
                "points",
                crate::action::ArgKind::Int,
                false,
                "withstand: PP spent, 1 per point of damage",
            )
            .range(0, amount.max(0)),
        ],
        ..PendingStep::default()
    })?;
    Ok(())
}

/// The hit's target answered: evade (1 PP, no damage), withstand (PP off the damage) or take.
pub fn resume_hit(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let t = ctx.step_actor(step)?;
    let attacker = step
        .entity("attacker")
        .ok_or_else(|| DecideError::malformed(step, "attacker"))?
        .clone();
    let amount = step
        .int("amount")
        .ok_or_else(|| DecideError::malformed(step, "amount"))?;
    let nonlethal = step.flag("nonlethal").unwrap_or(false);
    let mut steps = steps_of(step);
    match closing.choice {
        "evade" => {
            spend_pp(ctx, &t.id, 1, "evade")?;
            ctx.note_about(&t.id, format!("{} evades the blow of {attacker}", t.id))
        }
        "withstand" => {
            let points = closing.args.int("points")?.unwrap_or(1).clamp(0, amount);
            spend_pp(ctx, &t.id, points, "withstand")?;
            steps.push(Modifier::new("withstand", -points));
            harm::damage(
                ctx,
                &t.id,
                amount - points,
                steps,
                Some(&attacker),
                nonlethal,
            )
        }
        _ => harm::damage(ctx, &t.id, amount, steps, Some(&attacker), nonlethal),
    }
}
