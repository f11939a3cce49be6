//! Spells: the caster must know the spell and be of its type, and have the MP (the cost the
//! text gives, its second cost where that applies, less one with Arcane knowledge but never
//! to 0). A spell works unless its text says it rolls: then d10 + the casting attribute (+ the
//! spell's bonus, + PP declared) against the target's toughness. Damage lands only on targets
//! of the tag it names; a save against the caster's spell save negates or halves; healing
//! never passes the maximum. Lasting effects are `lasting`'s, spells on several creatures
//! `areas`'; what the server does not count is told for the GM to rule.

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier, Part};
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Kind};

use super::checks;
use super::content::{AltCost, OnSave, Spell, content};
use super::dice::{roll_for, roll_told};
use super::options::{HALVING, is};
use super::rolls::{Target, declare_pp, save, spend_pp};
use super::sheet::Stats;
use super::tell::{self, Check};
use super::{ACTION, DEAD, MP, PP, harm, stats_of};

/// Tags that make a creature "evil, undead, or otherwise unholy".
const UNHOLY: [&str; 3] = ["unholy", "undead", "evil"];

/// Whether `t` is of the kind a spell's damage needs.
pub(super) fn is_of(tags: &[String], only: &str) -> bool {
    if only == "unholy" {
        tags.iter().any(|t| UNHOLY.contains(&t.as_str()))
    } else {
        tags.iter().any(|t| t == only)
    }
}

/// The MP a casting costs.
pub fn cost(spell: &Spell, stats: &Stats, on_other: bool, sure: bool) -> Result<i64, Refusal> {
    let base = spell.mp.ok_or_else(|| {
        Refusal::Rule(format!(
            "the text gives {} no cost: the GM rules it (set MP by ruling)",
            spell.name
        ))
    })?;
    let alt = match (spell.alt, spell.mp_alt) {
        (Some(AltCost::HealSkill), Some(n)) if stats.has_skill("heal") => n,
        (Some(AltCost::Other), Some(n)) if on_other => n,
        (Some(AltCost::Sure), Some(n)) if sure => n,
        _ => base,
    };
    if sure && spell.alt != Some(AltCost::Sure) {
        return Err(Refusal::bad_argument(
            "sure",
            "only a spell with a cost to strike surely takes it",
        ));
    }
    Ok(less_arcane(stats, alt))
}

/// Arcane knowledge: one MP less, but a spell that cost something still costs at least 1. It
/// covers every spell's cost, the one the table sets for Imprint spell too.
pub fn less_arcane(stats: &Stats, mp: i64) -> i64 {
    if stats.has_ability("arcane_knowledge") && mp > 1 {
        mp - 1
    } else {
        mp
    }
}

/// The status a caster with Re-spell keeps: the spell it last cast (source) and the round.
pub const LAST_SPELL: &str = "last_spell";

/// Re-spell: a wizard who cast `spell` in the round before this one casts it again for half
/// its cost, rounded up (Inflict wounds' chosen MP are not a cost to halve).
fn respelled(ctx: &Ctx<'_>, c: &Combatant, stats: &Stats, spell: &str) -> bool {
    let enc = ctx.state.encounter();
    stats.has_ability("re_spell")
        && spell != "inflict_wounds"
        && enc.active
        && c.statuses
            .get(LAST_SPELL)
            .is_some_and(|s| s.source == spell && s.magnitude == i64::from(enc.round) - 1)
}

pub fn cast(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let data = content().map_err(|e| Refusal::Rule(e.to_string()))?;
    let id = args.require_text("spell")?;
    let spell = data
        .spell(id)
        .ok_or_else(|| Refusal::bad_argument("spell", "is not a spell of the text"))?;
    if !stats.knows_spell(id) && !super::imprint::imprinted(c, id) {
        return Err(Refusal::Rule(format!("{} does not know {}", c.id, spell.name)).into());
    }
    let kind = stats
        .casting
        .ok_or_else(|| Refusal::Rule(format!("{} casts no spells", c.id)))?;
    if kind != spell.kind {
        return Err(Refusal::Rule(format!("{} cannot cast {}", c.id, spell.name)).into());
    }
    super::lasting::in_a_fight(ctx, spell)?;
    let target = match args.entity("target")? {
        Some(t) => ctx.combatant(&t)?,
        None => c.clone(),
    };
    if target.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is dead", target.id)).into());
    }
    super::round::within_range(ctx, c, &target, spell.range_ft, &spell.name)?;
    let extra = super::lasting::Extra::read(ctx, spell, c, &target, args)?;
    let group = super::areas::group(ctx, c, &stats, spell, &target, &extra.named)?;
    let sure = args.flag("sure")?;
    let splash = args.flag("splash")?;
    super::splash::check(c, &stats, spell, splash)?;
    if splash && group.is_some() {
        return Err(
            Refusal::bad_argument("splash", "is not for a spell that names its targets").into(),
        );
    }
    if spell.attack && target.side != c.side {
        super::presence::must_target(ctx, c, &target.id)?;
    }
    let on_other = target.id != c.id;
    let imprint = if spell.id == super::imprint::ID {
        Some(super::imprint::check(ctx, c, args)?)
    } else {
        None
    };
    let mut mp = match imprint {
        Some(_) => less_arcane(&stats, super::imprint::cost(ctx)?),
        None => {
            cost(spell, &stats, on_other, sure)?
                * group
                    .as_ref()
                    .map_or(1, |g| super::areas::times(spell, g.len()))
        }
    };
    // Inflict wounds: a point of damage for each MP, the caster says how many.
    let extra_mp = if spell.id == "inflict_wounds" {
        let n = args.int("mp")?.unwrap_or(1);
        if n < 1 {
            return Err(Refusal::bad_argument("mp", "at least 1").into());
        }
        mp = n;
        n
    } else {
        0
    };
    let respell = respelled(ctx, c, &stats, id);
    if respell {
        mp = checks::halve(mp, true);
    }
    let have = ctx.combatant(&c.id)?.resource(MP);
    if have < mp {
        return Err(Refusal::InsufficientResource {
            resource: format!("magic points for {}", spell.name),
            needed: mp,
            available: have,
        }
        .into());
    }
    let pp = args.int("pp")?.unwrap_or(0);
    if pp > 0 && group.as_ref().is_some_and(|g| g.len() > 1) {
        return Err(Refusal::bad_argument("pp", "adds to one roll: name one target").into());
    }
    if pp > 0 && (!spell.attack || sure) {
        return Err(
            Refusal::bad_argument("pp", "adds to a roll, and this casting rolls nothing").into(),
        );
    }
    let pool = ctx.combatant(&c.id)?.resource(PP);
    let needed = pp + if splash { super::splash::COST } else { 0 };
    if needed > pool {
        return Err(Refusal::InsufficientResource {
            resource: "power points".into(),
            needed,
            available: pool,
        }
        .into());
    }
    super::round::spend_in_combat(ctx, c, ACTION)?;
    ctx.set_resource(&c.id, MP, have - mp)?;
    super::imprint::remember(ctx, c, spell)?;
    if ctx.state.encounter().active && stats.has_ability("re_spell") {
        // Kept on the caster, the GM's alone for the GM's caster (it names the spell).
        let round = i64::from(ctx.state.encounter().round);
        super::call::mark(
            ctx,
            &c.id,
            LAST_SPELL,
            Some(crate::state::Status {
                source: id.to_owned(),
                magnitude: round,
                rounds_left: None,
            }),
        )?;
    }
    ctx.telling = Some(cast_on(c, spell, &target));
    let again = if respell {
        " (re-spell: half the cost, rounded up)"
    } else {
        ""
    };
    ctx.note_about(
        &c.id,
        format!("{} spends {mp} MP on {}{again}", c.id, spell.name),
    )?;
    if splash {
        spend_pp(ctx, &c.id, super::splash::COST, "splash-effect")?;
    }
    if let Some(learnt) = imprint {
        ctx.telling = None;
        return super::imprint::learn(ctx, c, &learnt);
    }
    if let Some(list) = group {
        let pp = declare_pp(ctx, c, pp, 0)?;
        return super::areas::resolve(ctx, c, &stats, spell, &list, pp);
    }
    if spell.attack && !sure {
        let pp = declare_pp(ctx, c, pp, 0)?;
        if !spell_attack(ctx, c, &stats, spell, &target, pp)? {
            ctx.telling = None;
            return Ok(());
        }
    }
    if super::will::offer(ctx, c, spell, &target, extra_mp, splash, &extra)? {
        return Ok(());
    }
    land(
        ctx, c, &stats, spell, &target, extra_mp, splash, false, &extra,
    )
}

/// The spell reaches `target` (struck, or simply working): its effect, then any splash.
/// `willed`: the target spent By will alone on its effects.
#[allow(clippy::too_many_arguments)]
pub(super) fn land(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    spell: &Spell,
    target: &Combatant,
    inflict: i64,
    splash: bool,
    willed: bool,
    extra: &super::lasting::Extra,
) -> Result<(), DecideError> {
    let dealt = effect(ctx, c, stats, spell, target, inflict, willed, extra)?;
    if splash && let Some(amount) = dealt {
        super::splash::spread(ctx, c, stats, spell, target, amount)?;
    }
    Ok(())
}

/// The attack roll of `c`'s `spell` on `target`, with `pp` declared for it; whether it hit.
pub(super) fn spell_attack(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    spell: &Spell,
    target: &Combatant,
    pp: Option<Modifier>,
) -> Result<bool, DecideError> {
    let kind = spell.kind;
    let attribute = kind.attribute();
    let t_stats = stats_of(target)?;
    let mut bonuses = vec![Modifier::new(attribute.word(), stats.attribute(attribute))];
    if spell.attack_bonus != 0 {
        bonuses.push(Modifier::new(&spell.name, spell.attack_bonus));
    }
    if kind == super::content::SpellKind::Magical && t_stats.magic_against != 0 {
        bonuses.push(Modifier::new("target's race: magic", t_stats.magic_against));
    }
    if disrupted(ctx, target, &t_stats) {
        bonuses.push(Modifier::new("magical disruption", -1));
    }
    bonuses.extend(super::afflict::penalties(
        ctx,
        &c.id,
        true,
        Some(attribute),
    )?);
    bonuses.extend(pp);
    let toughness = super::presence::toughness_against(ctx, target)?;
    let roll = super::rolls::d10_for(ctx, &c.id, stats)?;
    let total = tell::total(&roll, &bonuses);
    let hit = checks::attack_hits(total, toughness);
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: format!("{} attack", spell_as_told(c, spell)),
            roll,
            modifiers: bonuses,
            against: Some((toughness, "toughness")),
            success: Some(hit),
            words: ("hits", "misses"),
            because: None,
            hidden: crate::redact::gm_only_numbers(target),
            gm_only: false,
        },
    )?;
    Ok(hit)
}

/// What the spell does to `target` once it has struck (or simply worked); the damage it dealt.
#[allow(clippy::too_many_arguments)]
fn effect(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    spell: &Spell,
    target: &Combatant,
    inflict: i64,
    willed: bool,
    extra: &super::lasting::Extra,
) -> Result<Option<i64>, DecideError> {
    let t_stats = stats_of(target)?;
    if let Some(only) = &spell.only_vs
        && !is_of(&t_stats.tags, only)
    {
        ctx.telling = None;
        ctx.note_about(
            &target.id,
            format!(
                "{} is not {only}: {} does nothing to it",
                target.id,
                spell_as_told(c, spell)
            ),
        )?;
        return Ok(None);
    }
    let ward = spell.effect.is_some() && super::lasting::warded(target, c, spell);
    let resisted = willed || ward || resists(ctx, c, spell, target)?;
    // A spell whose effect reaches past its target (Sunburst's light, Turn undead's flight,
    // an area that strikes each round) still works on the others.
    let wide = matches!(
        spell.id.as_str(),
        "sunburst" | "turn_undead" | "consecrate" | "cataclysm"
    );
    if resisted && spell.damage.is_none() && !wide {
        ctx.telling = None;
        let by = if willed {
            "by will alone"
        } else if ward {
            "ward"
        } else {
            "resist magic"
        };
        ctx.note_about(
            &target.id,
            format!(
                "{} resists the effects of {} ({by})",
                target.id,
                spell_as_told(c, spell)
            ),
        )?;
        return Ok(None);
    }
    let mut saved = None;
    if !spell.save.is_empty() {
        // The caster's spell save is the caster's number: the GM's only for the GM's caster.
        let against = Target {
            value: super::lasting::spell_save(c, stats).unwrap_or(checks::STANDARD_SAVE),
            name: "spell save",
            hidden: crate::redact::gm_only_numbers(c),
        };
        ctx.telling = Some(Telling {
            actor: Some(target.id.clone()),
            verb: format!("resists the {} of", spell_as_told(c, spell)),
            target: Some(c.id.clone()),
            instrument: None,
        });
        saved = Some(save(ctx, target, &spell.save, against, None)?);
    }
    ctx.telling = Some(cast_on(c, spell, target));
    if saved == Some(true) && spell.on_save == Some(OnSave::Negates) {
        ctx.telling = None;
        ctx.note_about(
            &target.id,
            format!(
                "{} saves: {} has no effect",
                target.id,
                spell_as_told(c, spell)
            ),
        )?;
        return Ok(None);
    }
    let mut dealt = None;
    if let Some(amount) = spell.damage {
        let purpose = format!("{} damage", spell.name.to_lowercase());
        // The damage dealt is told, as an NPC's weapon damage is, and a die alone says no
        // more than it; a die beside a `+L` total would give the GM's caster's level away, so
        // that one is the GM's.
        let gms = crate::redact::gm_only_numbers(c) && amount.plus_level;
        let rolled = roll_for(ctx, &c.id, &purpose, amount, stats.level, gms)?;
        let mut steps = vec![Modifier::new(&spell.name, rolled.value)];
        let mut value = rolled.value;
        if inflict > 0 {
            value = inflict;
            steps = vec![Modifier::new("1 a magic point", inflict)];
        }
        if saved == Some(true) && spell.on_save == Some(OnSave::Halves) {
            let up = is(ctx.state.options(), HALVING, "up");
            let half = checks::halve(value, up);
            steps.push(Modifier::new("saved: half", half - value));
            value = half;
        }
        harm::damage(ctx, &target.id, value, steps, Some(&c.id), false)?;
        dealt = Some(value);
    }
    if let Some(amount) = spell.heals {
        let purpose = format!("{} healing", spell.name.to_lowercase());
        let rolled = roll_told(ctx, &c.id, &purpose, amount, stats.level)?;
        harm::heal(
            ctx,
            &target.id,
            rolled.value,
            vec![Modifier::new(&spell.name, rolled.value)],
        )?;
        if spell.restores_pp_mp {
            for (key, max) in [(PP, t_stats.pp_max), (MP, t_stats.mp_max)] {
                let now = ctx.combatant(&target.id)?.resource(key);
                ctx.set_resource(&target.id, key, checks::healed(now, rolled.value, max))?;
            }
        }
    }
    let counted = spell.effect.is_some()
        && super::lasting::apply(ctx, c, stats, spell, target, saved, resisted, extra)?;
    if let Some(effect) = spell.effect.as_ref().filter(|_| !resisted && !counted) {
        let saved = match (saved, spell.on_save) {
            (Some(true), Some(OnSave::HalvesDuration)) => " (saved: half the duration)",
            _ => "",
        };
        let text = format!(
            "{}: {effect}{saved}; the GM applies it by ruling",
            spell.name
        );
        // The GM's caster's spell is the GM's to name: its effect's line goes to the GM, who
        // then rules what the table sees.
        if crate::redact::gm_only_numbers(c) {
            ctx.emit(Event {
                parts: vec![Part {
                    audience: Audience::GmOnly,
                    fact: Fact::Noted { text },
                }],
            })?;
        } else {
            ctx.note_about(&target.id, text)?;
        }
    }
    ctx.telling = None;
    Ok(dealt)
}

/// Resist magic: a wizard targeted by someone else's magical spell starts an intellect
/// challenge against the caster; a win cancels the spell's effects, not its damage. Whether
/// the target won.
pub(super) fn resists(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    spell: &Spell,
    target: &Combatant,
) -> Result<bool, DecideError> {
    let t = ctx.combatant(&target.id)?;
    // A foe's spell: an ally's blessing is not an attack to resist.
    if spell.kind != super::content::SpellKind::Magical
        || t.side == c.side
        || super::cannot_act(&t).is_some()
        || !stats_of(&t)?.has_ability("resist_magic")
    {
        return Ok(false);
    }
    let side = |who, attribute| super::rolls::Side {
        who,
        attribute,
        extra: Vec::new(),
    };
    let intellect = super::content::Attribute::Intellect;
    let won =
        super::rolls::challenge(ctx, side(&t, intellect), side(c, intellect), "resist magic")?;
    if won == checks::Winner::Starter && spell.damage.is_some() {
        ctx.note_about(
            &t.id,
            format!(
                "{} resists the effects of {} (resist magic): the damage stands",
                t.id,
                spell_as_told(c, spell)
            ),
        )?;
    }
    Ok(won == checks::Winner::Starter)
}

/// "aldric casts turn undead on skeleton": the spell is what is cast, the target whom on.
pub(super) fn cast_on(c: &Combatant, spell: &Spell, target: &Combatant) -> Telling {
    Telling {
        actor: Some(c.id.clone()),
        verb: format!("casts {} on", spell_as_told(c, spell)),
        target: Some(target.id.clone()),
        instrument: None,
    }
}

/// The spell as the sentence names it: a player's character's by name; the GM's caster's
/// only as "a spell", since the sentence reaches every seat and what an NPC knows is the GM's
/// (its cost goes to the GM alone, in a note).
pub(super) fn spell_as_told(c: &Combatant, spell: &Spell) -> String {
    if crate::redact::gm_only_numbers(c) {
        "a spell".to_owned()
    } else {
        spell.name.to_lowercase()
    }
}

/// Whether Magical disruption takes one off a spell attack on `target`: its own, or by
/// default an able ally's on its side (the text's "nearby allies" gives no distance; the
/// table may keep it to the bearer, `tinyd10.disruption = bearer`).
fn disrupted(ctx: &Ctx<'_>, target: &Combatant, t_stats: &Stats) -> bool {
    const ABILITY: &str = "magical_disruption";
    if t_stats.has_ability(ABILITY) {
        return true;
    }
    if is(ctx.state.options(), super::options::DISRUPTION, "bearer") {
        return false;
    }
    ctx.state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|o| o.side == target.side && o.kind != Kind::Object && !o.has_status(DEAD))
        .any(|o| stats_of(&o).is_ok_and(|s| s.has_ability(ABILITY)))
}
