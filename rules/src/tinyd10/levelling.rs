//! Levelling in play: the GM awards experience for what a character did, and a character whose
//! experience has reached the next level's threshold advances between fights, choosing what that
//! level offers.
//!
//! Awarded experience lives in the `xp` resource, not on the sheet: a player's own sheet edit
//! keeps the current resources, so paperwork cannot grant experience, and only the GM's award
//! (or the GM's own edit) raises it. Advancing writes the new level's entry into the sheet and
//! checks the result by the very rules a sheet sent whole is checked by, so a level taken in
//! play and a level written between sessions cannot disagree.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::refusal::Refusal;
use crate::sheet::SheetError;
use crate::state::{Combatant, Kind, StateView};
use crate::toolkit::sheets::SystemSheet;

use super::content::{Attribute, content};
use super::sheet::{Advance, Proficiency, ProficiencyBonus, Sheet, Stats};
use super::{DEAD, DYING, HP, MP, PP, stats_of};

/// The experience a character has gathered since its last advance.
pub const XP: &str = "xp";
/// The highest level the text describes.
const TOP_LEVEL: i64 = 5;

/// `award_xp` (the GM's): `xp` more experience for a player character, told to the table with
/// what it was for and how far the next level is.
pub fn award(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let target = args.entity("target")?.ok_or_else(|| Refusal::BadArgument {
        arg: "target".into(),
        reason: "whom the experience is for".into(),
    })?;
    let c = ctx.combatant(&target)?;
    if c.kind != Kind::Pc {
        return Err(Refusal::Rule(format!(
            "{} is not a player character: an NPC's sheet states its numbers and gains no experience",
            c.id
        ))
        .into());
    }
    if c.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is dead", c.id)).into());
    }
    let stats = stats_of(&c)?;
    let gained = args.int("xp")?.unwrap_or(0);
    let total = c.resource(XP) + gained;
    ctx.set_resource(&c.id, XP, total)?;
    let what = args
        .text("what")?
        .map(|w| format!(" for {w}"))
        .unwrap_or_default();
    let standing = match next_threshold(stats.level) {
        Some((level, needed)) if total >= needed => {
            format!("{total} XP, enough for level {level} (`level_up` between fights)")
        }
        Some((level, needed)) => format!("{total} XP of the {needed} level {level} needs"),
        None => format!("{total} XP; level {TOP_LEVEL} is the highest"),
    };
    ctx.note_about(
        &c.id,
        format!("the GM awards {gained} XP to {}{what}: {standing}", c.id),
    )
}

/// Whether `c` has the experience its next level needs (what the catalogue offers).
pub fn ready(c: &Combatant, stats: &Stats) -> bool {
    c.kind == Kind::Pc
        && next_threshold(stats.level).is_some_and(|(_, needed)| c.resource(XP) >= needed)
}

/// The next level and the experience it needs, below the top level.
fn next_threshold(level: i64) -> Option<(i64, i64)> {
    let next = level + 1;
    if next > TOP_LEVEL {
        return None;
    }
    let needed = u8::try_from(next)
        .ok()
        .and_then(|l| content().ok()?.xp_for(l))?;
    Some((next, needed))
}

/// `level_up`: the character advances one level, out of combat, spending the experience the
/// level needs (all of it: the text has experience start anew on advancing). The choices are
/// the new `advance` entry's, plus what the level adds to the lists: an ability and a skill at
/// levels 2 to 4, spells for a caster, and the weapon type Favored weapon or Weapon proficiency
/// names when taken now. The current HP, PP and MP rise by what their maximum rose by.
pub fn level_up(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::EncounterRunning.into());
    }
    if let Some(why) = [(DEAD, "dead"), (DYING, "dying")]
        .into_iter()
        .find(|(s, _)| c.has_status(s))
        .map(|(_, why)| why)
    {
        return Err(Refusal::CannotAct {
            actor: c.id.clone(),
            reason: why.into(),
        }
        .into());
    }
    let old = c
        .sheet
        .typed::<Sheet>(super::ID)
        .map_err(|e| Refusal::Rule(format!("{} has no tinyd10 sheet: {e}", c.id)))?;
    // A player character's sheet is always its choices (a sheet with `stats` is refused for
    // one), so the kind is enough.
    if c.kind != Kind::Pc {
        return Err(Refusal::Rule(format!(
            "{} is not a player character: an NPC's sheet states its numbers",
            c.id
        ))
        .into());
    }
    let before = stats_of(c)?;
    let Some((level, needed)) = next_threshold(before.level) else {
        return Err(Refusal::Rule(format!(
            "{} is level {TOP_LEVEL}, the highest there is",
            c.id
        ))
        .into());
    };
    let have = c.resource(XP);
    if have < needed {
        return Err(Refusal::InsufficientResource {
            resource: format!("XP for level {level}"),
            needed,
            available: have,
        }
        .into());
    }
    let sheet = advanced(old, level, args)?;
    let after = sheet.stats().map_err(named_as_argument)?;
    let mut next = sheet.clone().into_combatant().map_err(named_as_argument)?;
    next.id = c.id.clone();
    next.owner = c.owner.clone();
    next.side = c.side.clone();
    next.position = c.position;
    next.statuses = c.statuses.clone();
    next.turn = c.turn.clone();
    next.resources = c.resources.clone();
    for (key, was, now) in [
        (HP, before.hp_max, after.hp_max),
        (PP, before.pp_max, after.pp_max),
        (MP, before.mp_max, after.mp_max),
    ] {
        let current = (c.resource(key) + now - was).clamp(0, now);
        next.resources.insert(key.to_owned(), current);
    }
    next.resources.insert(XP.to_owned(), 0);
    let told = gains(&c.id, level, &before, &after);
    ctx.emit(Event::public(Fact::CombatantAdded {
        combatant: Box::new(next),
        replaces: true,
    }))?;
    ctx.note_about(&c.id, told)
}

/// A player's own sheet sent again keeps its level and the entries of the levels taken: those
/// come from `level_up` (with the experience) or from the GM's edit, never from the player's
/// pen.
pub fn player_edit(old: &Combatant, new: &Combatant) -> Result<(), Refusal> {
    let read = |c: &Combatant| {
        c.sheet
            .typed::<Sheet>(super::ID)
            .map(|s| (s.level, s.advance.clone()))
            .map_err(|e| Refusal::Rule(format!("{} has no tinyd10 sheet: {e}", c.id)))
    };
    let (was, now) = (read(old)?, read(new)?);
    if was != now {
        return Err(Refusal::forbidden(format!(
            "{} is level {} with its levels' choices as the table holds them: a level is taken in play with `level_up` once the GM has awarded its experience, or set by the GM",
            old.id, was.0
        )));
    }
    Ok(())
}

/// The sheet one level up with the choices of `args` written in.
fn advanced(old: &Sheet, level: i64, args: &Args) -> Result<Sheet, DecideError> {
    let mut sheet = old.clone();
    sheet.level = level;
    sheet.xp = 0;
    let attribute = args
        .text("attribute")?
        .map(|a| {
            Attribute::parse(a).ok_or_else(|| Refusal::BadArgument {
                arg: "attribute".into(),
                reason: format!("`{a}` is not an attribute"),
            })
        })
        .transpose()?;
    let ability = args.text("ability")?.map(str::to_owned);
    sheet.advance.push(Advance {
        attribute,
        points: args.text("points")?.map(str::to_owned),
        extra: args.text("extra")?.map(str::to_owned),
        ability: ability.clone(),
    });
    sheet.abilities.extend(ability.clone());
    sheet.skills.extend(args.text("skill")?.map(str::to_owned));
    if let Some(spells) = args.text("spells")? {
        sheet.spells.extend(
            spells
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
    }
    // A weapon type is named when its ability is taken, and kept after: a later level does
    // not swap it.
    let taking = |id: &str| ability.as_deref() == Some(id);
    for (arg, id) in [
        ("favored_weapon", "favored_weapon"),
        ("proficiency", "weapon_proficiency"),
    ] {
        if args.text(arg)?.is_some() && !taking(id) {
            return Err(Refusal::BadArgument {
                arg: arg.into(),
                reason: format!("named only with `--ability {id}` taken at this level"),
            }
            .into());
        }
    }
    if let Some(kind) = args.text("favored_weapon")? {
        sheet.favored_weapon = Some(kind.to_owned());
    }
    if let Some(kind) = args.text("proficiency")? {
        let bonus = match args.text("proficiency_bonus")? {
            Some("damage") => ProficiencyBonus::Damage,
            _ => ProficiencyBonus::Attack,
        };
        sheet.proficiency = Some(Proficiency {
            weapon: kind.to_owned(),
            bonus,
        });
    }
    // The sheet's current values are the table's now; the resources carry them.
    sheet.hp = None;
    sheet.pp = None;
    sheet.mp = None;
    sheet.temp_hp = None;
    Ok(sheet)
}

/// A sheet rule broken by the choices, named by the argument that carries it.
fn named_as_argument(e: SheetError) -> DecideError {
    let (arg, reason) = match e {
        SheetError::Invalid { field, rule } => {
            let arg = match field.rsplit_once('.') {
                Some((at, f)) if at.starts_with("advance[") => f.to_owned(),
                // A list's entry (`skills[3]`) is the argument that added to it.
                _ => match field.split('[').next().unwrap_or("") {
                    "abilities" => "ability".to_owned(),
                    "skills" => "skill".to_owned(),
                    _ => field,
                },
            };
            (arg, rule)
        }
        SheetError::Syntax(why) => ("sheet".to_owned(), why),
    };
    Refusal::BadArgument { arg, reason }.into()
}

/// The sentence of an advance: the new level and every number that rose.
fn gains(who: &crate::ids::EntityId, level: i64, before: &Stats, after: &Stats) -> String {
    let mut parts = Vec::new();
    for a in Attribute::ALL {
        let by = after.attribute(a) - before.attribute(a);
        if by != 0 {
            parts.push(format!("{} {:+}", a.word(), by));
        }
    }
    for (name, was, now) in [
        ("HP", before.hp_max, after.hp_max),
        ("PP", before.pp_max, after.pp_max),
        ("MP", before.mp_max, after.mp_max),
        ("toughness", before.toughness, after.toughness),
    ] {
        if now != was {
            parts.push(format!("{name} {:+} to {now}", now - was));
        }
    }
    let new = |list: &[String], old: &[String]| -> Vec<String> {
        list.iter().filter(|x| !old.contains(x)).cloned().collect()
    };
    for (what, added) in [
        ("ability", new(&after.abilities, &before.abilities)),
        ("skill", new(&after.skills, &before.skills)),
        ("spell", new(&after.spells, &before.spells)),
    ] {
        for id in added {
            parts.push(format!("the {what} {id}"));
        }
    }
    for (has, had, name) in [
        (
            after.champions_resolve,
            before.champions_resolve,
            "champion's resolve",
        ),
        (
            after.legendary_presence,
            before.legendary_presence,
            "legendary presence",
        ),
    ] {
        if has && !had {
            parts.push(name.to_owned());
        }
    }
    format!(
        "{who} advances to level {level}: {}; XP starts again at 0",
        parts.join(", ")
    )
}
