//! Spells whose effect outlasts the casting, counted as statuses that the rest of the rules
//! read: Fear of God (-1 toughness, -2 to attacks, 1d5 rounds), Holy shield (+2 toughness to
//! the caster and its allies within 10 ft, 1d5 + L rounds), Mage armor (+L toughness, 1d5 + L
//! rounds), Dumbstruck (-1d5 to rolls with intellect, and to a wizard's spell save, for 1d10
//! rounds, half as many on a save), Sunburst's blinding of every creature within 10 ft of its
//! target (the `blinded` of Radiant strike, 1d5 rounds), Turn undead (each undead within 50 ft
//! saves or takes 1, and all of them flee the cleric 1d5 rounds: they may not attack it), Holy
//! binds (the unholy within 50 ft are bound, no turn, for L rounds), Time stop (every other
//! creature loses its turns for 1d5 rounds), Enchant weapon (+1 attack, +2 damage with one
//! weapon for the fight), the two Wards (a spell's effects, not its damage, fall off the warded
//! for the fight; Ward (divine) also keeps an unholy foe's attack's effects off, read by
//! `faces`) and Teleport (the caster moves up to 200 ft on the grid). Consecrate and Cataclysm
//! are cast here and strike each round from `grounds`; To serpents and Reprisal from
//! `turnabout`.
//!
//! Who is in an area is measured on the grid (`areas::around`); off it the GM names them.
//! Lengths and sizes from the GM's caster (its level, its dice) are the GM's: the status
//! reaches the players without them, its dice are rolled for the GM alone, and the told line
//! is the GM's alone. Rounds are counted only in a fight: these spells are refused outside one
//! ([`in_a_fight`]), and what they left goes at its end (`afflict::fight_over`). An area's
//! effect spares each creature in it that a Ward or Resist magic keeps it off ([`spared`]).

use crate::account::plural;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier, Part};
use crate::grid::Cell;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView, Status};

use super::afflict::{Rounds, afflict};
use super::areas::{self, Named};
use super::content::{Attribute, Spell, SpellKind};
use super::dice::{Amount, roll_for};
use super::options::{HALVING, is};
use super::sheet::Stats;
use super::{BLINDED, GRID, checks, harm, stats_of};

/// Status keys. Fear of God's fright (magnitude: its attack penalty; the toughness penalty is
/// [`FRIGHT_TOUGHNESS`]), the toughness bonuses, Dumbstruck (magnitude: off intellect).
pub const FRIGHTENED: &str = "frightened";
pub const HOLY_SHIELD: &str = "holy_shield";
pub const MAGE_ARMOUR: &str = "mage_armour";
pub const DUMBSTRUCK: &str = "dumbstruck";
/// No turn while it lasts (Holy binds; Time stop for all but its caster).
pub const BOUND: &str = "bound";
pub const TIME_STOPPED: &str = "time_stopped";
/// Turned undead: its source is the cleric it flees.
pub const FLEEING: &str = "fleeing";
/// For the fight: Enchant weapon (source: the weapon) and the Wards.
pub const ENCHANTED: &str = "enchanted_weapon";
pub const WARD_DIVINE: &str = "ward_divine";
pub const WARD_MAGICAL: &str = "ward_magical";

/// Statuses whose rounds count down at each round's end (`afflict::wear_off`).
pub const TIMED: [&str; 10] = [
    FRIGHTENED,
    HOLY_SHIELD,
    MAGE_ARMOUR,
    DUMBSTRUCK,
    BOUND,
    TIME_STOPPED,
    FLEEING,
    super::grounds::CATACLYSM,
    super::turnabout::SERPENTS,
    super::turnabout::BITTEN,
];
/// Statuses that last the fight and go at its end.
const FIGHT: [&str; 4] = [
    ENCHANTED,
    WARD_DIVINE,
    WARD_MAGICAL,
    super::turnabout::REPRISAL,
];

pub const FRIGHT_ATTACK: i64 = -2;
pub const FRIGHT_TOUGHNESS: i64 = -1;
pub const SHIELD_TOUGHNESS: i64 = 2;
pub const SHIELD_FT: i64 = 10;
pub const BLIND_FT: i64 = 10;
pub const BLIND_PENALTY: i64 = -2;
pub const TURN_FT: i64 = 50;
pub const BINDS_FT: i64 = 50;
pub const ENCHANT_ATTACK: i64 = 1;
pub const ENCHANT_DAMAGE: i64 = 2;
pub const TELEPORT_FT: i64 = 200;

/// Refuses, outside a fight, a spell whose counted effect lasts so many rounds or the fight:
/// rounds are counted only in a fight, so out of one such an effect would never wear off. The
/// refusal names the spell the seat asked for and nothing else (the encounter's state is the
/// table's). Teleport, which is over at once, and the spells the GM rules are not refused.
pub fn in_a_fight(ctx: &Ctx<'_>, spell: &Spell) -> Result<(), Refusal> {
    let lasts = match spell.id.as_str() {
        "fear_of_god" | "holy_shield" | "mage_armour" | "dumbstruck" | "sunburst"
        | "turn_undead" | "holy_binds" | "time_stop" | "cataclysm" | "to_serpents" => "its rounds",
        "enchant_weapon" | "ward_divine" | "ward_magical" | "reprisal" => "the fight",
        _ => return Ok(()),
    };
    if ctx.state.encounter().active {
        return Ok(());
    }
    Err(Refusal::Rule(format!(
        "{} lasts {lasts}, and rounds are counted only in a fight: start the encounter first (outside one the GM rules it)",
        spell.name
    )))
}

/// What a casting brings besides its target, read and checked before any MP is spent.
#[derive(Default)]
pub struct Extra {
    /// Enchant weapon: which of the target's weapons.
    pub weapon: Option<String>,
    /// Teleport: where to.
    pub to: Option<Cell>,
    /// Creatures named for an area, and whether the GM vouches for them off the grid.
    pub named: Named,
    /// Cataclysm: its kind.
    pub kind: Option<String>,
}

impl Extra {
    /// Reads `spell`'s extras from `args`, refusing what cannot be.
    pub fn read(
        ctx: &Ctx<'_>,
        spell: &Spell,
        c: &Combatant,
        target: &Combatant,
        args: &crate::action::Args,
    ) -> Result<Self, Refusal> {
        let named = areas::named(ctx, args)?;
        if !named.ids.is_empty() {
            match area_of(spell, c, target) {
                Some((center, feet)) => areas::check_named(center, &named, feet)?,
                None if areas::takes_list(spell) => {}
                None => {
                    return Err(Refusal::bad_argument(
                        "targets",
                        "this spell names no creatures besides its target",
                    ));
                }
            }
        }
        let mut extra = Extra {
            named,
            kind: super::grounds::kind(&spell.id, args.text("kind")?)?,
            ..Extra::default()
        };
        let weapon = args.text("weapon")?;
        if spell.id == "enchant_weapon" {
            // What the GM's creature carries is the GM's: a player's caster is refused on it
            // before its sheet is read, in words that do not depend on the sheet, so the
            // refusal tells nothing of what it carries (nor does a line name its weapon).
            if !crate::redact::gm_only_numbers(c) && crate::redact::gm_only_numbers(target) {
                return Err(Refusal::Rule(format!(
                    "a player's caster enchants a weapon of a player's character only: what {} carries is the GM's",
                    target.id
                )));
            }
            let stats = stats_of(target)?;
            let w = match weapon {
                Some(w) => stats.attack(w),
                None => stats.attacks.first(),
            }
            .filter(|w| w.id != super::sheet::UNARMED)
            .ok_or_else(|| Refusal::bad_argument("weapon", "is not a weapon the target carries"))?;
            extra.weapon = Some(w.id.clone());
        } else if weapon.is_some() {
            return Err(Refusal::bad_argument(
                "weapon",
                "only Enchant weapon takes one",
            ));
        }
        let to = args.cell("to")?;
        if spell.id == "teleport" {
            let (Some(from), Some(to)) = (c.position, to) else {
                return Err(Refusal::bad_argument(
                    "to",
                    "Teleport needs a cell, and the caster on the grid (off it the GM moves the caster by ruling)",
                ));
            };
            let feet = super::moving::feet_between(ctx, from, to);
            if feet > TELEPORT_FT {
                return Err(Refusal::OutOfRange {
                    what: format!("cell ({}, {})", to.x, to.y),
                    distance: feet,
                    limit: TELEPORT_FT,
                    unit: GRID.unit.into(),
                });
            }
            extra.to = Some(to);
        } else if to.is_some() {
            return Err(Refusal::bad_argument("to", "only Teleport takes a cell"));
        }
        Ok(extra)
    }
}

/// The point and reach of a spell that finds its own creatures around it.
fn area_of<'a>(
    spell: &Spell,
    c: &'a Combatant,
    target: &'a Combatant,
) -> Option<(&'a Combatant, i64)> {
    match spell.id.as_str() {
        "holy_shield" => Some((c, SHIELD_FT)),
        "holy_binds" => Some((c, BINDS_FT)),
        "turn_undead" => Some((c, TURN_FT)),
        "sunburst" => Some((target, BLIND_FT)),
        "consecrate" => Some((c, super::grounds::consecrate_ft(c))),
        "cataclysm" => Some((target, super::grounds::CATACLYSM_FT)),
        _ => None,
    }
}

/// What lasting spells take off or add to `t`'s toughness.
pub fn toughness(t: &Combatant) -> Vec<Modifier> {
    let mut out = Vec::new();
    if t.has_status(FRIGHTENED) {
        out.push(Modifier::new("fear of god", FRIGHT_TOUGHNESS));
    }
    for (key, label) in [(HOLY_SHIELD, "holy shield"), (MAGE_ARMOUR, "mage armor")] {
        if let Some(s) = t.statuses.get(key) {
            out.push(Modifier::new(label, s.magnitude));
        }
    }
    out.extend(super::grounds::toughness(t));
    out
}

/// What lasting spells take off a roll of `c` (an attack when `attack`; made with
/// `attribute`).
pub fn penalties(c: &Combatant, attack: bool, attribute: Option<Attribute>) -> Vec<Modifier> {
    let mut out = Vec::new();
    if attack && let Some(s) = c.statuses.get(FRIGHTENED) {
        out.push(Modifier::new("fear of god", s.magnitude));
    }
    if attack && let Some(s) = c.statuses.get(super::turnabout::BITTEN) {
        out.push(Modifier::new("serpent's bite", s.magnitude));
    }
    if attack {
        out.extend(super::grounds::penalties(c));
    }
    if attribute == Some(Attribute::Intellect)
        && let Some(s) = c.statuses.get(DUMBSTRUCK)
    {
        out.push(Modifier::new("dumbstruck", s.magnitude));
    }
    out
}

/// The spell save of `c`: a dumbstruck wizard's intellect, and so its save, is lower.
pub fn spell_save(c: &Combatant, stats: &Stats) -> Option<i64> {
    let base = stats.spell_save?;
    let off = match (stats.casting, c.statuses.get(DUMBSTRUCK)) {
        (Some(SpellKind::Magical), Some(s)) => s.magnitude,
        _ => 0,
    };
    Some(base + off)
}

/// Whether `c` attacks with an enchanted `weapon`.
pub fn enchanted(c: &Combatant, weapon: &str) -> bool {
    c.statuses
        .get(ENCHANTED)
        .is_some_and(|s| s.source == weapon)
}

/// Refuses an attack of `a` on the cleric it flees.
pub fn may_attack(a: &Combatant, target: &EntityId) -> Result<(), Refusal> {
    match a.statuses.get(FLEEING) {
        Some(s) if s.source == target.0 => Err(Refusal::Rule(format!(
            "{} flees {} (turn undead) and may not attack it",
            a.id, target
        ))),
        _ => Ok(()),
    }
}

/// Which Ward, if any, keeps `spell`'s effects (not its damage) off `target`: the divine one
/// against an unholy caster, the magical one against a magical spell.
pub fn warded(target: &Combatant, caster: &Combatant, spell: &Spell) -> bool {
    let unholy = stats_of(caster)
        .map(|s| super::cast::is_of(&s.tags, "unholy"))
        .unwrap_or(false);
    caster.side != target.side
        && ((target.has_status(WARD_DIVINE) && unholy)
            || (target.has_status(WARD_MAGICAL) && spell.kind == SpellKind::Magical))
}

/// Whether a Ward (divine) keeps the effects of `a`'s attack (not its damage) off `t`: `a` is
/// an unholy foe.
pub fn attack_warded(a: &Combatant, t: &Combatant) -> bool {
    t.has_status(WARD_DIVINE)
        && a.side != t.side
        && stats_of(a).is_ok_and(|s| super::cast::is_of(&s.tags, "unholy"))
}

/// The fight is over: what lasted for it goes.
pub fn fight_over(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    for key in FIGHT {
        if ctx.combatant(who)?.has_status(key) {
            super::call::mark(ctx, who, key, None)?;
        }
    }
    Ok(())
}

/// The ways a caster's numbers reach the table.
struct Caster<'a> {
    c: &'a Combatant,
    stats: &'a Stats,
    /// The GM's caster: its spell, level and dice are the GM's.
    secret: bool,
    name: String,
}

impl Caster<'_> {
    fn rounds(&self, n: i64) -> Rounds {
        if self.secret {
            Rounds::Gms(n)
        } else {
            Rounds::Told(n)
        }
    }

    /// The status's source as the table reads it: not the GM's caster's spell.
    fn source(&self) -> &str {
        if self.secret { "a spell" } else { &self.name }
    }

    /// A told line: the table's when the caster is a player's, else the GM's alone.
    fn say(&self, ctx: &mut Ctx<'_>, text: String) -> Result<(), DecideError> {
        let audience = if self.secret {
            Audience::GmOnly
        } else {
            Audience::Everyone
        };
        ctx.emit(Event {
            parts: vec![Part {
                audience,
                fact: Fact::Noted { text },
            }],
        })
    }

    fn roll(&self, ctx: &mut Ctx<'_>, what: &str, notation: &str) -> Result<i64, DecideError> {
        let amount = Amount::try_from(notation.to_owned()).map_err(Refusal::Rule)?;
        // The GM's caster's dice are the GM's alone: its face is the rounds (or, under `+L`,
        // gives its level away) that `Rounds::Gms` keeps from the players.
        Ok(roll_for(ctx, &self.c.id, what, amount, self.stats.level, self.secret)?.value)
    }
}

/// Counts `spell`'s lasting effect on `target` (and the area about it); `false` when the
/// spell's effect is not one this module counts (the GM rules it). `saved`: the target's save,
/// if it made one; `resisted`: the target shrugs the effect off (By will alone, Resist magic,
/// a Ward), though others in the area do not.
#[allow(clippy::too_many_arguments)]
pub fn apply(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    spell: &Spell,
    target: &Combatant,
    saved: Option<bool>,
    resisted: bool,
    extra: &Extra,
) -> Result<bool, DecideError> {
    let who = Caster {
        c,
        stats,
        secret: crate::redact::gm_only_numbers(c),
        name: spell.name.to_lowercase(),
    };
    let level = stats.level;
    match spell.id.as_str() {
        "fear_of_god" if !resisted => {
            let n = who.roll(ctx, "rounds of fear of god", "1d5")?;
            afflict(
                ctx,
                &target.id,
                FRIGHTENED,
                FRIGHT_ATTACK,
                who.rounds(n),
                who.source(),
            )?;
            who.say(
                ctx,
                format!(
                    "{} is struck with fear of god: {FRIGHT_TOUGHNESS} toughness and {FRIGHT_ATTACK} to attacks for {nr}",
                    target.id, nr = plural(n, "round")
                ),
            )?;
        }
        "mage_armour" if !resisted => {
            let n = who.roll(ctx, "rounds of mage armor", "1d5+L")?;
            let rounds = if who.secret {
                Rounds::Secret(n)
            } else {
                Rounds::Told(n)
            };
            afflict(ctx, &target.id, MAGE_ARMOUR, level, rounds, who.source())?;
            who.say(
                ctx,
                format!(
                    "{} is wrapped in mage armor: +{level} toughness for {nr}",
                    target.id,
                    nr = plural(n, "round")
                ),
            )?;
        }
        "holy_shield" => {
            let n = who.roll(ctx, "rounds of holy shield", "1d5+L")?;
            let allies = areas::around(ctx, c, SHIELD_FT, &extra.named, |o| o.side == c.side)?;
            for a in &allies {
                afflict(
                    ctx,
                    &a.id,
                    HOLY_SHIELD,
                    SHIELD_TOUGHNESS,
                    who.rounds(n),
                    who.source(),
                )?;
            }
            who.say(
                ctx,
                format!(
                    "holy shield: +{SHIELD_TOUGHNESS} toughness for {nr} to {}",
                    names(&allies),
                    nr = plural(n, "round")
                ),
            )?;
        }
        "dumbstruck" if !resisted => {
            let penalty = who.roll(ctx, "dumbstruck: intellect lost", "1d5")?;
            let mut n = who.roll(ctx, "rounds of dumbstruck", "1d10")?;
            let mut half = "";
            if saved == Some(true) {
                n = checks::halve(n, is(ctx.state.options(), HALVING, "up"));
                half = " (saved: half the duration)";
            }
            if n < 1 {
                who.say(
                    ctx,
                    format!("{} shakes off dumbstruck at once{half}", target.id),
                )?;
            } else {
                afflict(
                    ctx,
                    &target.id,
                    DUMBSTRUCK,
                    -penalty,
                    who.rounds(n),
                    who.source(),
                )?;
                who.say(
                    ctx,
                    format!(
                        "{} is dumbstruck: -{penalty} intellect for {nr}{half}",
                        target.id,
                        nr = plural(n, "round")
                    ),
                )?;
            }
        }
        "sunburst" => {
            let n = who.roll(ctx, "rounds of sunburst's blindness", "1d5")?;
            let hit = areas::around(ctx, target, BLIND_FT, &extra.named, |o| {
                !(resisted && o.id == target.id)
            })?;
            let hit = spared(ctx, &who, spell, target, hit)?;
            for o in &hit {
                afflict(
                    ctx,
                    &o.id,
                    BLINDED,
                    BLIND_PENALTY,
                    who.rounds(n),
                    who.source(),
                )?;
            }
            who.say(
                ctx,
                format!(
                    "sunburst blinds {} for {nr}: {BLIND_PENALTY} to attacks and reflex",
                    names(&hit),
                    nr = plural(n, "round")
                ),
            )?;
        }
        "turn_undead" => turn_undead(ctx, &who, spell, target, resisted, extra)?,
        "holy_binds" => {
            let bound = areas::around(ctx, c, BINDS_FT, &extra.named, |o| {
                stats_of(o).is_ok_and(|s| super::cast::is_of(&s.tags, "unholy"))
            })?;
            let bound = spared(ctx, &who, spell, target, bound)?;
            for o in &bound {
                afflict(ctx, &o.id, BOUND, 0, who.rounds(level), who.source())?;
            }
            who.say(
                ctx,
                format!(
                    "holy binds hold {} for {level} rounds: no turns",
                    names(&bound)
                ),
            )?;
        }
        "time_stop" => {
            let n = who.roll(ctx, "rounds of time stop", "1d5")?;
            let others: Vec<Combatant> = areas::everyone(ctx)
                .into_iter()
                .filter(|o| o.id != c.id)
                .collect();
            let frozen = spared(ctx, &who, spell, target, others)?;
            for o in &frozen {
                afflict(ctx, &o.id, TIME_STOPPED, 0, who.rounds(n), who.source())?;
            }
            who.say(
                ctx,
                format!(
                    "time stops for {nr} for all but {}: {} take no turns",
                    c.id,
                    names(&frozen),
                    nr = plural(n, "round")
                ),
            )?;
        }
        "enchant_weapon" => {
            let weapon = extra.weapon.clone().unwrap_or_default();
            super::call::mark(
                ctx,
                &target.id,
                ENCHANTED,
                Some(Status {
                    source: weapon.clone(),
                    magnitude: ENCHANT_ATTACK,
                    rounds_left: None,
                }),
            )?;
            who.say(
                ctx,
                format!(
                    "{}'s {weapon} is enchanted for the fight: +{ENCHANT_ATTACK} attack, +{ENCHANT_DAMAGE} damage",
                    target.id
                ),
            )?;
        }
        "ward_divine" | "ward_magical" => {
            let key = if spell.id == "ward_divine" {
                WARD_DIVINE
            } else {
                WARD_MAGICAL
            };
            super::call::mark(
                ctx,
                &target.id,
                key,
                Some(Status {
                    source: who.source().to_owned(),
                    magnitude: 0,
                    rounds_left: None,
                }),
            )?;
            who.say(
                ctx,
                format!(
                    "{} is warded for the fight: {} deal their damage but not their effects",
                    target.id,
                    if key == WARD_DIVINE {
                        "unholy foes' spells"
                    } else {
                        "foes' magical spells"
                    }
                ),
            )?;
        }
        "consecrate" => {
            let hours = who.roll(ctx, "hours of consecrated ground", "1d5")?;
            let named = areas::around(
                ctx,
                c,
                super::grounds::consecrate_ft(c),
                &extra.named,
                |_| true,
            )?;
            let inside = super::grounds::consecrate(ctx, c, hours, &named)?;
            who.say(
                ctx,
                format!(
                    "{} consecrates the ground within {} ft for {hours} hours: the unholy in it ({}) take 1 damage each round, {} to attacks and toughness",
                    c.id,
                    super::grounds::consecrate_ft(c),
                    names(&inside),
                    super::grounds::PENALTY
                ),
            )?;
        }
        "cataclysm" => {
            let kind = extra
                .kind
                .clone()
                .ok_or_else(|| Refusal::bad_argument("kind", "is required"))?;
            let n = who.roll(ctx, "rounds of cataclysm", "1d10+L")?;
            let named = areas::around(
                ctx,
                target,
                super::grounds::CATACLYSM_FT,
                &extra.named,
                |_| true,
            )?;
            let caught =
                super::grounds::cataclysm(ctx, c, target, &kind, who.rounds(n), &named, resisted)?;
            let adds = match kind.as_str() {
                "earthquake" => "-1 to attacks and toughness",
                "firestorm" => "1 more damage each round, save or not",
                _ => "no ranged attacks",
            };
            who.say(
                ctx,
                format!(
                    "a cataclysm ({kind}) rages within {} ft of {} for {nr}: each round {} make a power save or take 1 damage; {adds}",
                    super::grounds::CATACLYSM_FT,
                    target.id,
                    names(&caught), nr = plural(n, "round")
                ),
            )?;
        }
        "to_serpents" if !resisted => {
            let n = who.roll(ctx, "rounds of to serpents", "1d10")?;
            super::turnabout::serpents(ctx, c, target, who.rounds(n))?;
            who.say(
                ctx,
                format!(
                    "{}'s weapon writhes into serpents for {nr}: held past this round, they bite each round's end (a reflex save, or 1 damage and -1 to attacks for 1d5 rounds); `let_go` drops it",
                    target.id, nr = plural(n, "round")
                ),
            )?;
        }
        "reprisal" => {
            super::call::mark(
                ctx,
                &target.id,
                super::turnabout::REPRISAL,
                Some(Status {
                    source: who.source().to_owned(),
                    magnitude: 0,
                    rounds_left: None,
                }),
            )?;
            who.say(
                ctx,
                format!(
                    "{} is under reprisal for the fight: a foe's blow falls on the foe that struck it last before",
                    target.id
                ),
            )?;
        }
        "teleport" => {
            let to = extra
                .to
                .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
            ctx.emit(Event::public(Fact::Moved {
                entity: c.id.clone(),
                from: c.position,
                to: Some(to),
            }))?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Turn undead: every undead about the cleric saves against its spell save or takes 1, then
/// all of them flee it for one roll of 1d5 rounds (the save spares the damage, not the flight).
fn turn_undead(
    ctx: &mut Ctx<'_>,
    who: &Caster<'_>,
    spell: &Spell,
    target: &Combatant,
    resisted: bool,
    extra: &Extra,
) -> Result<(), DecideError> {
    let c = who.c;
    let undead = |o: &Combatant| stats_of(o).is_ok_and(|s| s.tags.iter().any(|t| t == "undead"));
    let mut turned = areas::around(ctx, c, TURN_FT, &extra.named, undead)?;
    // Off the grid the spell's target stands for the undead before the cleric.
    if c.position.is_none() && undead(target) && !turned.iter().any(|o| o.id == target.id) {
        turned.insert(0, target.clone());
    }
    if turned.is_empty() {
        ctx.telling = None;
        return who.say(ctx, "turn undead finds no undead to turn".to_owned());
    }
    for o in &turned {
        let o = ctx.combatant(&o.id)?;
        if o.has_status(super::DEAD) {
            continue;
        }
        let against = super::rolls::Target {
            value: spell_save(c, who.stats).unwrap_or(checks::STANDARD_SAVE),
            name: "spell save",
            hidden: who.secret,
        };
        ctx.telling = Some(crate::account::Telling {
            actor: Some(o.id.clone()),
            verb: format!(
                "resists the {} of",
                if who.secret { "a spell" } else { "turn undead" }
            ),
            target: Some(c.id.clone()),
            instrument: None,
        });
        if !super::rolls::save(ctx, &o, &[Attribute::Aspect], against, None)? {
            ctx.telling = Some(super::cast::cast_on(c, spell, &o));
            harm::damage(
                ctx,
                &o.id,
                1,
                vec![Modifier::new("turn undead", 1)],
                Some(&c.id),
                false,
            )?;
        }
    }
    ctx.telling = None;
    let n = who.roll(ctx, "rounds the undead flee", "1d5")?;
    let fleeing: Vec<Combatant> = turned
        .into_iter()
        .filter(|o| !(resisted && o.id == target.id))
        .collect();
    // The save spared the damage; a Ward spares the flight, which is the spell's effect.
    let fleeing = spared(ctx, who, spell, target, fleeing)?;
    for o in &fleeing {
        if ctx.combatant(&o.id)?.has_status(super::DEAD) {
            continue;
        }
        afflict(ctx, &o.id, FLEEING, 0, who.rounds(n), c.id.as_str())?;
    }
    who.say(
        ctx,
        format!(
            "{} flee {} for {nr} and may not attack it",
            names(&fleeing),
            c.id,
            nr = plural(n, "round")
        ),
    )
}

/// Those of `area` the spell's effect reaches: each one warded against it is spared, and each
/// wizard with Resist magic meets the caster in a challenge of its own (as the spell's target
/// did, in `cast`), spared on a win. The target was judged already and is kept as it came.
/// Each one spared is told, to whoever may hear about it.
fn spared(
    ctx: &mut Ctx<'_>,
    who: &Caster<'_>,
    spell: &Spell,
    target: &Combatant,
    area: Vec<Combatant>,
) -> Result<Vec<Combatant>, DecideError> {
    let mut out = Vec::with_capacity(area.len());
    for o in area {
        if o.id == target.id {
            out.push(o);
            continue;
        }
        let by = if warded(&o, who.c, spell) {
            "ward"
        } else if super::cast::resists(ctx, who.c, spell, &o)? {
            "resist magic"
        } else {
            out.push(o);
            continue;
        };
        ctx.telling = None;
        ctx.note_about(
            &o.id,
            format!(
                "{} resists the effects of {} ({by})",
                o.id,
                super::cast::spell_as_told(who.c, spell)
            ),
        )?;
    }
    Ok(out)
}

fn names(cs: &[Combatant]) -> String {
    if cs.is_empty() {
        return "nobody".into();
    }
    cs.iter()
        .filter(|o| o.kind != Kind::Object)
        .map(|o| o.id.0.clone())
        .collect::<Vec<_>>()
        .join(", ")
}
