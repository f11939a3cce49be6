//! The turn's economy: one action, movement before or after it (not both), one auxiliary action
//! (two if the action is given up), one free action, dash; and reactions, which spend this
//! round's action if taken before the character's turn and next round's if taken after.
//! Also the action catalogue, since what a seat may do follows from the economy.

use crate::action::{ActionSpec, ArgKind, ArgSpec, Args};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::grid::{Cell, distance};
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::{Kind, StateView};

use super::options::{self, MOVE_BASE_M, TERRAIN_TN};
use super::sheet::Attribute;
use super::{ACTION_OWED, ACTION_SPENT, BURNOUT, DEAD, sheet_of};
use super::{grapple, status};

pub const MOVED_M: &str = "moved_m";
pub const MOVE_CLOSED: &str = "move_closed";
pub const AUX_USED: &str = "aux_used";
pub const FREE_USED: &str = "free_used";
pub const DASHED: &str = "dashed";
pub const ATTACKS: &str = "attacks";
/// 1 once a weapon that is not light attacked this turn: no further attacks by COR then.
pub const SINGLE_ATTACK: &str = "single_attack";
/// 1 once the character moved after attacking: the action is over, so no further attacks.
pub const ACTION_OVER: &str = "action_over";
/// 1 once frenzy's one more attack this turn is made.
pub const RAGE_USED: &str = "rage_used";
/// The AGL roll to move through difficult terrain this turn: 1 made, 2 failed (half movement).
pub const TERRAIN: &str = "terrain_roll";
/// Every turn counter, reset at the start of the character's turn.
pub const TURN_COUNTERS: [&str; 13] = [
    MOVED_M,
    MOVE_CLOSED,
    AUX_USED,
    FREE_USED,
    DASHED,
    ATTACKS,
    SINGLE_ATTACK,
    ACTION_OVER,
    RAGE_USED,
    TERRAIN,
    status::COWERING,
    grapple::WON_ACT,
    grapple::WON_MOVE,
];

/// How far a character crawls per turn knocked down, and at burnout level 3 (the text gives
/// the knocked-down crawl as 3 m and no figure for burnout's; the same is used).
pub const CRAWL_M: i64 = 3;

/// A GRIMWIRE action's definition.
pub struct ActionDef {
    pub name: &'static str,
    pub help: &'static str,
    pub needs_actor: bool,
    pub gm_only: bool,
    pub costs: &'static [&'static str],
    pub args: Vec<ArgSpec>,
}

fn arg(name: &str, kind: ArgKind, required: bool, help: &str) -> ArgSpec {
    ArgSpec::new(name, kind, required, help)
}

fn arg_choices(name: &str, required: bool, help: &str, choices: &[&str]) -> ArgSpec {
    ArgSpec::new(name, ArgKind::Text, required, help).choices(choices)
}

/// Bounds of the integer arguments. Generous (a knowledge penalty may put a task out of reach
/// of a natural 20) but finite, so no argument can push a total out of its meaning.
const MODIFIER: (i64, i64) = (-1_000, 1_000);
const TN: (i64, i64) = (-10_000, 10_000);

/// Situational modifiers, target numbers and what players see of them are the GM's: a
/// player who could set them could decide their own rolls.
fn modifier_arg(help: &str) -> ArgSpec {
    arg("modifier", ArgKind::Int, false, help)
        .range(MODIFIER.0, MODIFIER.1)
        .gm_only()
}

fn tn_arg(help: &str) -> ArgSpec {
    arg("tn", ArgKind::Int, false, help)
        .range(TN.0, TN.1)
        .gm_only()
}

fn hidden_arg() -> ArgSpec {
    arg(
        "hidden",
        ArgKind::Flag,
        false,
        "hide the TN from players (default from the table's grimwire.hide_tns)",
    )
    .gm_only()
}

const ATTRS: [&str; 9] = [
    "TOG", "AGL", "COR", "MND", "PER", "RSN", "INT", "STR", "SOC",
];

/// Every GRIMWIRE action, built once: `decide` looks an action up on every command.
pub fn definitions() -> &'static [ActionDef] {
    static DEFS: std::sync::OnceLock<Vec<ActionDef>> = std::sync::OnceLock::new();
    DEFS.get_or_init(build_definitions)
}

fn build_definitions() -> Vec<ActionDef> {
    use ArgKind::*;
    vec![
        ActionDef {
            name: "start_encounter",
            help: "Start the encounter: everyone rolls d20 + PER for initiative; a side may surprise the others.",
            needs_actor: false,
            gm_only: true,
            costs: &[],
            args: vec![
                arg_choices("surprise", false, "the others are unaware (the surprising side takes round 1 alone; first attack +5) or on alert (one opener takes round 1; first attack +2)", &["unaware", "alert"]),
                arg("by", Text, false, "the surprising side (players, enemies, or a sheet's side)"),
                arg("opener", Entity, false, "against an alert side: who opens (the first of the side in initiative order by default)"),
            ],
        },
        ActionDef {
            name: "end_encounter",
            help: "End the encounter.",
            needs_actor: false,
            gm_only: true,
            costs: &[],
            args: vec![],
        },
        ActionDef {
            name: "check",
            help: "Roll d20 + an attribute. The GM may give a target number (hidden from players by default).",
            needs_actor: true,
            gm_only: false,
            costs: &["auxiliary action (in an encounter)"],
            args: vec![
                arg_choices("attribute", true, "the attribute rolled", &ATTRS),
                tn_arg("target number (GM only)"),
                hidden_arg(),
                modifier_arg("situational modifier"),
                arg(
                    "helpers",
                    Text,
                    false,
                    "who helps (GM only): ids, comma-separated, each with its own attribute as id:ATTR; the highest roll counts, and in a fight each helper gives their action",
                )
                .gm_only(),
            ],
        },
        ActionDef {
            name: "attack",
            help: "Attack a target with a weapon from the sheet (or unarmed).",
            needs_actor: true,
            gm_only: false,
            costs: &["action (light weapons: further attacks by COR in the same action)"],
            args: vec![
                arg("target", Entity, true, "who is attacked"),
                arg(
                    "weapon",
                    Text,
                    false,
                    "weapon id from the sheet; unarmed when absent",
                ),
                modifier_arg("situational modifier to the roll being made"),
                tn_arg("GM override of the target number for this roll"),
                hidden_arg(),
                arg(
                    "distance_m",
                    Int,
                    false,
                    "distance in metres when the tokens have no positions",
                )
                .range(0, 100_000)
                .gm_only(),
                arg(
                    "cover",
                    Flag,
                    false,
                    "the target is partly behind cover (a ranged or thrown attack only; on the grid, cover cells between the two count by themselves)",
                )
                .gm_only(),
                arg(
                    "targeted",
                    Flag,
                    false,
                    "aim at an effect other than damage (senses, movement, a disarm): 3 harder; the GM rules the effect",
                ),
                arg(
                    "nonlethal",
                    Flag,
                    false,
                    "a player's character holds back: a hit that would drop the target to 0 or below leaves it at 1 Condition, out cold",
                ),
            ],
        },
        ActionDef {
            name: "move",
            help: "Move to a cell, up to base movement + AGL metres (before or after the action, not both).",
            needs_actor: true,
            gm_only: false,
            costs: &["movement"],
            args: vec![arg("to", Cell, true, "destination cell")],
        },
        ActionDef {
            name: "dash",
            help: "Give up the action to move double this turn.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![],
        },
        ActionDef {
            name: "auxiliary",
            help: "An auxiliary action (a short sentence, an info roll, handing over gear). A second one gives up the action.",
            needs_actor: true,
            gm_only: false,
            costs: &["auxiliary action"],
            args: vec![arg("what", Text, false, "what is done, for the log")],
        },
        ActionDef {
            name: "free_action",
            help: "A free action (once per turn).",
            needs_actor: true,
            gm_only: false,
            costs: &["free action"],
            args: vec![arg("what", Text, false, "what is done, for the log")],
        },
        ActionDef {
            name: "technique",
            help: "Use a specialty technique from the sheet, paying its Focus; `push` goes into negative Focus for a level of burnout.",
            needs_actor: true,
            gm_only: false,
            costs: &["Focus", "per the technique's timing"],
            args: vec![
                arg("technique", Text, true, "technique id from the sheet"),
                arg("push", Flag, false, "use it without enough Focus"),
                arg("target", Entity, false, "who it is used on, for the log"),
            ],
        },
        ActionDef {
            name: "stabilise",
            help: "Stabilise a dying character within 3 m: a COR roll (after an INT roll without medkit or knowledge).",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![
                arg("target", Entity, true, "the dying character"),
                arg_choices(
                    "method",
                    false,
                    "medkit (default), knowledge, or int",
                    &["medkit", "knowledge", "int"],
                ),
                tn_arg("target number (GM only; default from the table's base and the wound)"),
                hidden_arg(),
                modifier_arg("situational modifier"),
            ],
        },
        ActionDef {
            name: "damage",
            help: "GM ruling: deal damage, through armour, weakness, resistance and immunity.",
            needs_actor: false,
            gm_only: true,
            costs: &[],
            args: vec![
                arg("target", Entity, true, "who takes it"),
                arg("amount", Int, true, "damage before armour").range(0, 100_000),
                arg("type", Text, false, "damage type (default blunt)"),
                arg("ignore_armour", Flag, false, "skip armour"),
            ],
        },
        ActionDef {
            name: "rest",
            help: "GM: a character takes a short (30 min) or long (5 h) rest outside conflict.",
            needs_actor: false,
            gm_only: true,
            costs: &[],
            args: vec![
                arg("target", Entity, true, "who rests"),
                arg_choices("kind", true, "short or long", &["short", "long"]),
                arg(
                    "downtime",
                    Flag,
                    false,
                    "the character spends the long rest's spare hour on downtime: no burnout recovered",
                ),
            ],
        },
        ActionDef {
            name: "new_day",
            help: "GM: a new day begins in the game: everyone's rests and burnout recovery are counted afresh.",
            needs_actor: false,
            gm_only: true,
            costs: &[],
            args: vec![],
        },
        ActionDef {
            name: "heal",
            help: "GM: an item or technique restores Condition (no higher than burnout allows; a dying character only to 0).",
            needs_actor: false,
            gm_only: true,
            costs: &[],
            args: vec![
                arg("target", Entity, true, "who is healed"),
                arg("amount", Int, true, "Condition restored").range(0, 100_000),
                arg("by", Text, false, "what heals, for the log (a medkit, a technique)"),
            ],
        },
        ActionDef {
            name: "fall",
            help: "GM: a character falls; an AGL roll may break the fall (half damage, still standing).",
            needs_actor: false,
            gm_only: true,
            costs: &[],
            args: vec![
                arg("target", Entity, true, "who falls"),
                arg("height_m", Int, true, "how far, in metres").range(0, 100_000),
                arg_choices(
                    "onto",
                    false,
                    "what they land on: ground (default), soft (a bush, loose sand) or water",
                    &super::fall::ONTO,
                ),
                arg("jumped", Flag, false, "they jumped on purpose"),
            ],
        },
        ActionDef {
            name: "stand",
            help: "Get up when knocked down: takes the whole of this turn's movement.",
            needs_actor: true,
            gm_only: false,
            costs: &["movement"],
            args: vec![],
        },
        ActionDef {
            name: "shove",
            help: "Shove a character within 3 m: COR to land it, TOG to push them back up to 3 m; they roll AGL to stay standing.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![
                arg("target", Entity, true, "who is shoved"),
                arg("metres", Int, false, "how far at most (up to 3 m, the default; the GM judges)")
                    .range(0, 3),
                modifier_arg("situational modifier to the COR roll"),
                tn_arg("GM override of the target number for the COR roll"),
                arg("agl_tn", Int, false, "TN of the target's AGL roll to stay standing, by the shove's force and the ground (default grimwire.keep_feet_tn)")
                    .range(TN.0, TN.1)
                    .gm_only(),
                hidden_arg(),
            ],
        },
        ActionDef {
            name: "trip",
            help: "Trip a character within 3 m: AGL against their AGL; beat it and they are knocked down.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![
                arg("target", Entity, true, "who is tripped"),
                modifier_arg("situational modifier to the AGL roll"),
            ],
        },
        ActionDef {
            name: "grapple",
            help: "Grapple a character within 3 m: COR to grab, then TOG or COR to hold.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![
                arg("target", Entity, true, "who is grabbed"),
                arg_choices("hold", false, "the attribute that holds (default: the better of TOG and COR)", &["TOG", "COR"]),
                modifier_arg("situational modifier to the COR roll"),
                tn_arg("GM override of the target number for the COR roll"),
                hidden_arg(),
            ],
        },
        ActionDef {
            name: "break_free",
            help: "Break out of every hold on you: STR or COR, beating each grappler's roll.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![],
        },
        ActionDef {
            name: "release",
            help: "Let go of someone you hold (everyone, when no target is named).",
            needs_actor: true,
            gm_only: false,
            costs: &["free action"],
            args: vec![arg("target", Entity, false, "whom to let go of")],
        },
        ActionDef {
            name: "takedown",
            help: "Take down someone you hold: STR or COR against their AGL; made, they are knocked down.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![arg("target", Entity, true, "whom you hold")],
        },
        ActionDef {
            name: "choke",
            help: "Choke someone you hold: STR or COR against theirs; made, they suffocate while you hold them.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![arg("target", Entity, true, "whom you hold")],
        },
        ActionDef {
            name: "help_up",
            help: "Help a knocked-down character within 3 m up; they keep their movement.",
            needs_actor: true,
            gm_only: false,
            costs: &["auxiliary action"],
            args: vec![arg("target", Entity, true, "who is helped up")],
        },
        ActionDef {
            name: "wake",
            help: "Wake a sleeping or knocked-out character within 3 m.",
            needs_actor: true,
            gm_only: false,
            costs: &["auxiliary action"],
            args: vec![arg("target", Entity, true, "who is woken")],
        },
        ActionDef {
            name: "extinguish",
            help: "Put out the flames on one's body (once out of the fire).",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![],
        },
        ActionDef {
            name: "hold_pressure",
            help: "Hold pressure on a bleeding wound within 3 m (one's own too): the bleeding stops.",
            needs_actor: true,
            gm_only: false,
            costs: &["action"],
            args: vec![arg("target", Entity, true, "whose wound")],
        },
        ActionDef {
            name: "end_turn",
            help: "End this character's turn.",
            needs_actor: true,
            gm_only: false,
            costs: &[],
            args: vec![],
        },
        ActionDef {
            name: "pass",
            help: "Pass before doing anything: take the turn after everyone else this round (passing again gives it up).",
            needs_actor: true,
            gm_only: false,
            costs: &["this turn, until the end of the round"],
            args: vec![],
        },
    ]
}

pub fn spec(name: &str) -> Option<&'static ActionDef> {
    definitions().iter().find(|d| d.name == name)
}

/// The catalogue: table actions for the GM, and each controllable character's actions (in an
/// encounter, only the current character's, plus off-turn techniques).
pub fn catalogue(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let defs = definitions();
    let to_spec = |d: &ActionDef, actor: Option<EntityId>| ActionSpec {
        name: d.name.into(),
        help: d.help.into(),
        actor,
        args: d.args.clone(),
        costs: d.costs.iter().map(|c| (*c).to_owned()).collect(),
    };
    let mut out = Vec::new();
    let enc = state.encounter();
    if seat.is_gm() {
        out.extend(
            defs.iter()
                .filter(|d| !d.needs_actor)
                .filter(|d| match d.name {
                    "start_encounter" => !enc.active,
                    "end_encounter" => enc.active,
                    _ => true,
                })
                .map(|d| to_spec(d, None)),
        );
    }
    for id in state.combatant_ids() {
        let Some(c) = state.combatant(&id) else {
            continue;
        };
        if c.has_status(DEAD) {
            continue;
        }
        let current = enc.current.as_ref() == Some(&id);
        let controls = match seat {
            Seat::Gm => c.kind != Kind::Pc || current,
            Seat::Player(s) => c.owner.as_ref() == Some(s),
            Seat::Spectator(_) => false,
        };
        let names: Vec<&str> = if status::unable(c).is_some() {
            // They cannot act, but their turn still has to end.
            if controls && current {
                vec!["end_turn"]
            } else {
                vec![]
            }
        } else if !controls {
            vec![]
        } else if current && c.turn_counter(status::COWERING) != 0 {
            vec!["move", "dash", "end_turn"]
        } else if !enc.active || current {
            defs.iter()
                .filter(|d| d.needs_actor && (enc.active || d.name != "end_turn"))
                .map(|d| d.name)
                .collect()
        } else {
            // Off their turn, only reactions.
            vec!["technique"]
        };
        // The GM may call a check on anyone at any time.
        let gm_check = seat.is_gm() && !names.contains(&"check");
        for d in defs
            .iter()
            .filter(|d| names.contains(&d.name) || (gm_check && d.name == "check"))
        {
            let mut spec = to_spec(d, Some(id.clone()));
            fill_now(state, c, &mut spec);
            out.push(spec);
        }
    }
    // GM-only arguments stay in every seat's catalogue, marked `gm_only`: a client that
    // hid them would answer a player's `tn=` with "no such argument", when the true answer is
    // that it is the GM's (`forbidden`). Their names are in the published protocol anyway.
    out
}

/// The values `c`'s action takes now: its weapons, its active techniques, and for a target
/// every other combatant still standing (range and sides are the rules' to judge, so every one
/// is offered).
fn fill_now(state: &dyn StateView, c: &crate::state::Combatant, spec: &mut ActionSpec) {
    let Ok(sheet) = sheet_of(c) else {
        return;
    };
    for arg in &mut spec.args {
        arg.now = match arg.name.as_str() {
            "weapon" => sheet.weapons.iter().map(|w| w.id.clone()).collect(),
            "technique" => sheet
                .techniques
                .iter()
                .filter(|t| t.active)
                .map(|t| t.id.clone())
                .collect(),
            "target" if arg.kind == ArgKind::Entity => state
                .combatant_ids()
                .into_iter()
                .filter(|id| *id != c.id)
                .filter(|id| state.combatant(id).is_some_and(|o| !o.has_status(DEAD)))
                .map(|id| id.0)
                .collect(),
            _ => continue,
        };
    }
}

fn in_encounter(ctx: &Ctx<'_>) -> bool {
    ctx.state.encounter().active
}

/// Refuses characters who cannot act at all.
pub fn require_able(ctx: &Ctx<'_>, who: &EntityId) -> Result<(), Refusal> {
    let c = ctx.combatant(who)?;
    match status::unable(&c) {
        Some(reason) => Err(Refusal::CannotAct {
            actor: who.clone(),
            reason: reason.into(),
        }),
        None => Ok(()),
    }
}

/// Whether `action` may be taken only on the actor's own turn (in an encounter). Checked
/// before the action reads its arguments. Techniques are not here: a reaction comes off-turn,
/// and which timing a technique has is known only once its argument is read. Nor is a check:
/// the GM calls one at any time, and a player's own roll checks her turn before anything else.
pub fn needs_turn(action: &str) -> bool {
    matches!(
        action,
        "attack"
            | "move"
            | "dash"
            | "auxiliary"
            | "free_action"
            | "stabilise"
            | "pass"
            | "stand"
            | "help_up"
            | "wake"
            | "extinguish"
            | "hold_pressure"
            | "shove"
            | "trip"
            | "grapple"
            | "break_free"
            | "release"
            | "takedown"
            | "choke"
    )
}

/// In an encounter, only the current character acts on a turn.
pub fn require_turn(ctx: &Ctx<'_>, who: &EntityId) -> Result<(), Refusal> {
    require_able(ctx, who)?;
    let enc = ctx.state.encounter();
    if enc.active && enc.current.as_ref() != Some(who) {
        return Err(Refusal::NotYourTurn {
            actor: who.clone(),
            current: enc.current.clone(),
        });
    }
    Ok(())
}

/// Spends the character's action for this round (in an encounter; outside one, nothing is
/// counted). Movement already begun is closed: it may come before or after the action only.
pub fn spend_action(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    take_action(ctx, who, true)
}

/// Gives the action up for something that is not an action (a dash, a second auxiliary
/// action): spent all the same, but movement stays open, since the rule that movement comes
/// before or after the action, not both, is about an action taken.
pub fn give_up_action(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    take_action(ctx, who, false)
}

fn take_action(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    closes_movement: bool,
) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    if !in_encounter(ctx) {
        return Ok(());
    }
    let c = ctx.combatant(who)?;
    if c.resource(ACTION_SPENT) != 0 {
        let reason = if c.resource(ACTION_OWED) != 0 || c.turn_counter(ATTACKS) == 0 {
            "action (a reaction may have used it)"
        } else {
            "action"
        };
        return Err(Refusal::NoneLeft {
            actor: who.clone(),
            slot: reason.into(),
        }
        .into());
    }
    ctx.set_resource(who, ACTION_SPENT, 1)?;
    if closes_movement && c.turn_counter(MOVED_M) > 0 {
        ctx.set_turn_counter(who, MOVE_CLOSED, 1)?;
    }
    Ok(())
}

/// A reaction spends this round's action if the character has not acted yet this round, and
/// next round's otherwise; with both spent there is none to give.
pub fn spend_reaction(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    require_able(ctx, who)?;
    if !in_encounter(ctx) {
        return Ok(());
    }
    let c = ctx.combatant(who)?;
    if c.resource(ACTION_SPENT) == 0 {
        ctx.set_resource(who, ACTION_SPENT, 1)
    } else if c.resource(ACTION_OWED) == 0 {
        ctx.emit(Event::public(Fact::Noted {
            text: format!("{who} reacts after acting: next round's action is used"),
        }))?;
        ctx.set_resource(who, ACTION_OWED, 1)
    } else {
        Err(Refusal::NoneLeft {
            actor: who.clone(),
            slot: "action for a reaction (next round's is already used)".into(),
        }
        .into())
    }
}

/// Uses an auxiliary action: the first is free of cost, a second gives up the action.
pub fn spend_auxiliary(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    require_able(ctx, who)?;
    if !in_encounter(ctx) {
        return Ok(());
    }
    let used = ctx.combatant(who)?.turn_counter(AUX_USED);
    match used {
        0 => {}
        1 => give_up_action(ctx, who)?,
        _ => {
            return Err(Refusal::NoneLeft {
                actor: who.clone(),
                slot: "auxiliary action".into(),
            }
            .into());
        }
    }
    ctx.set_turn_counter(who, AUX_USED, used + 1)
}

pub fn spend_free(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    require_able(ctx, who)?;
    if !in_encounter(ctx) {
        return Ok(());
    }
    if ctx.combatant(who)?.turn_counter(FREE_USED) != 0 {
        return Err(Refusal::NoneLeft {
            actor: who.clone(),
            slot: "free action".into(),
        }
        .into());
    }
    ctx.set_turn_counter(who, FREE_USED, 1)
}

/// Metres the character may move this turn: base + AGL, halved at burnout 2, a crawl at
/// burnout 3 or knocked down, doubled by a dash.
pub fn movement_allowance(ctx: &Ctx<'_>, who: &EntityId) -> Result<i64, Refusal> {
    let c = ctx.combatant(who)?;
    let sheet = sheet_of(&c)?;
    let base = sheet
        .move_base_m
        .unwrap_or_else(|| options::int_of(ctx.state.options(), MOVE_BASE_M));
    let mut m = (base + sheet.attribute(Attribute::AGL)).max(0);
    match c.resource(BURNOUT) {
        2 => m /= 2,
        l if l >= 3 => m = m.min(CRAWL_M),
        _ => {}
    }
    if c.has_status(status::KNOCKED_DOWN) {
        m = m.min(CRAWL_M);
    }
    if grapple::is_held(&c) || grapple::is_holding(&c) {
        m /= 2;
    }
    if c.turn_counter(TERRAIN) == 2 {
        m /= 2;
    }
    if c.turn_counter(DASHED) != 0 {
        m *= 2;
    }
    Ok(m)
}

pub fn movement(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let to = args
        .cell("to")?
        .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
    let c = ctx.combatant(who)?;
    // Placing a token is the GM's (`rule.move`): a free placement would be a free move.
    let Some(from) = c.position else {
        return Err(Refusal::Rule(format!(
            "{who} is not on the grid yet; the GM places tokens with rule.move"
        ))
        .into());
    };
    if in_encounter(ctx) && c.turn_counter(MOVE_CLOSED) != 0 {
        return Err(Refusal::NoneLeft {
            actor: who.clone(),
            slot: "movement (it came before the action)".into(),
        }
        .into());
    }
    let d = i64::try_from(distance(from, to, ctx.state.options().diagonal())).unwrap_or(i64::MAX);
    if in_encounter(ctx) {
        let allowance = movement_allowance(ctx, who)?;
        let used = c.turn_counter(MOVED_M);
        if used.saturating_add(d) > allowance {
            return Err(Refusal::OutOfRange {
                what: format!("a move to ({}, {})", to.x, to.y),
                distance: d,
                limit: allowance - used,
                unit: super::GRID.unit.into(),
            }
            .into());
        }
        // A hold on either side bounds the move, then asks for a roll before the turn's
        // first move; lost, the movement is gone and the character stays.
        grapple::may_go(ctx, who, from, to)?;
        if !grapple::may_move(ctx, who)? {
            return Ok(());
        }
        if !through_rough(ctx, who, from, to, d)? {
            return Ok(());
        }
        ctx.set_turn_counter(who, MOVED_M, used + d)?;
        if c.turn_counter(ATTACKS) > 0 {
            ctx.set_turn_counter(who, ACTION_OVER, 1)?;
        }
    }
    let carried = grapple::carried(ctx, who)?;
    ctx.emit(Event::public(Fact::Moved {
        entity: who.clone(),
        from: Some(from),
        to: Some(to),
    }))?;
    grapple::carry(ctx, carried, from, to)
}

/// Before a move through difficult terrain (a difficult cell on the way or at its end), the
/// turn's one AGL roll against `grimwire.terrain_tn`: failed, the turn's movement is halved, and
/// a move longer than what is left of the half does not happen. Whether the move goes ahead.
fn through_rough(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    from: Cell,
    to: Cell,
    d: i64,
) -> Result<bool, DecideError> {
    let terrain = &ctx.state.encounter().terrain;
    let rough = terrain.get(&to).is_some_and(|t| t.difficult)
        || !crate::grid::path_clear(from, to, terrain, |t| t.difficult);
    if !rough || ctx.combatant(who)?.turn_counter(TERRAIN) != 0 {
        return Ok(true);
    }
    let tn = options::int_of(ctx.state.options(), TERRAIN_TN);
    let outcome = super::check::check_tn(
        ctx,
        who,
        Attribute::AGL,
        &[],
        "AGL through difficult terrain",
        tn,
        false,
    )?;
    if outcome == crate::event::Outcome::Success {
        ctx.set_turn_counter(who, TERRAIN, 1)?;
        return Ok(true);
    }
    ctx.set_turn_counter(who, TERRAIN, 2)?;
    let left = movement_allowance(ctx, who)? - ctx.combatant(who)?.turn_counter(MOVED_M);
    if d > left {
        ctx.note_about(
            who,
            format!("{who} struggles through the difficult ground: only {left} m of movement left this turn"),
        )?;
        return Ok(false);
    }
    Ok(true)
}

pub fn dash(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    give_up_action(ctx, who)?;
    ctx.set_turn_counter(who, DASHED, 1)
}

pub fn auxiliary(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    spend_auxiliary(ctx, who)?;
    let what = args.text("what")?.unwrap_or("an auxiliary action");
    ctx.emit(Event::public(Fact::Noted {
        text: format!("{who}: {what}"),
    }))
}

pub fn free_action(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    spend_free(ctx, who)?;
    let what = args.text("what")?.unwrap_or("a free action");
    ctx.emit(Event::public(Fact::Noted {
        text: format!("{who}: {what}"),
    }))
}

/// Refuses when `who` and `target` are both placed and further apart than `reach_m`.
pub fn require_reach(
    ctx: &Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    reach_m: i64,
) -> Result<(), Refusal> {
    let (a, b) = (ctx.combatant(who)?, ctx.combatant(target)?);
    if let (Some(pa), Some(pb)) = (a.position, b.position) {
        let d = i64::try_from(distance(pa, pb, ctx.state.options().diagonal())).unwrap_or(i64::MAX);
        if d > reach_m {
            return Err(Refusal::OutOfRange {
                what: target.to_string(),
                distance: d,
                limit: reach_m,
                unit: super::GRID.unit.into(),
            });
        }
    }
    Ok(())
}
