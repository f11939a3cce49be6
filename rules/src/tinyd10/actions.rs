//! What a seat may send: the specs of Tiny d10's actions, and the catalogue of those offered
//! now. The rules still judge every action sent (a spec is the shape, not the permission).

use crate::action::{ActionSpec, ArgKind, ArgSpec};
use crate::ids::{EntityId, Seat};
use crate::state::StateView;
use crate::toolkit::{controlled, start_spec, turns};

use super::{ACTION, MOVE, cannot_act, stats_of};

fn action(name: &str, actor: Option<&EntityId>, help: &str, args: Vec<ArgSpec>) -> ActionSpec {
    ActionSpec {
        name: name.to_owned(),
        help: help.to_owned(),
        actor: actor.cloned(),
        args,
        costs: Vec::new(),
    }
}

/// Actions only the GM takes, with no actor.
pub const GM_ACTIONS: [&str; 16] = [
    "start_encounter",
    "end_encounter",
    "challenge",
    "save",
    "morale",
    "reaction",
    "rest",
    "award_xp",
    "wander",
    "lost",
    "advance_time",
    "force_door",
    "pick_lock",
    "trap",
    "fall",
    "unmask",
];

/// The GM's exploration actions, offered between fights (`wander`, `fall` and `unmask` in a
/// fight too).
const EXPLORING: [&str; 8] = [
    "wander",
    "lost",
    "advance_time",
    "force_door",
    "pick_lock",
    "trap",
    "fall",
    "unmask",
];

const ATTRIBUTES: [&str; 4] = ["aspect", "intellect", "power", "reflex"];

fn pp() -> ArgSpec {
    ArgSpec::new(
        "pp",
        ArgKind::Int,
        false,
        "power points added to the roll, declared before it (+1 each)",
    )
    .range(0, 100)
}

/// The spec of `name` for `actor` (its shape only; `now` hints are the catalogue's).
pub fn spec(name: &str, actor: Option<&EntityId>) -> Option<ActionSpec> {
    let target = |required| ArgSpec::new("target", ArgKind::Entity, required, "whom");
    let attribute = |n: &str, required| {
        ArgSpec::new(n, ArgKind::Text, required, "the attribute").choices(&ATTRIBUTES)
    };
    let what = || ArgSpec::new("what", ArgKind::Text, false, "what it is for, in words");
    Some(match name {
        "start_encounter" => action(
            name,
            None,
            "Start the fight: the order is by reflex, equal reflex rolled.",
            vec![],
        ),
        "end_encounter" => action(name, None, "End the fight.", vec![]),
        "challenge" => action(
            name,
            None,
            "A challenge: both roll d10 + an attribute, the higher wins.",
            vec![
                ArgSpec::new("starter", ArgKind::Entity, true, "who tries"),
                ArgSpec::new("resister", ArgKind::Entity, true, "who opposes"),
                attribute("attribute", true),
                attribute("resister_attribute", false),
                pp(),
                what(),
            ],
        ),
        "save" => action(
            name,
            None,
            "A save: d10 + an attribute against a toughness (5 unless given).",
            vec![
                target(true),
                attribute("attribute", true),
                ArgSpec::new("toughness", ArgKind::Int, false, "the save's toughness")
                    .range(0, 100),
                what(),
            ],
        ),
        "morale" => action(
            name,
            None,
            "A morale roll for the side of a creature: falters on 2 or less (yours alone).",
            vec![ArgSpec::new(
                "of",
                ArgKind::Entity,
                true,
                "a member of the side",
            )],
        ),
        "reaction" => action(
            name,
            None,
            "Roll a wandering monster's reaction (yours alone).",
            vec![],
        ),
        "rest" => action(
            name,
            None,
            "Out of combat, a day's rest: 1d5 + 2 HP, MP and PP for every character.",
            vec![],
        ),
        "award_xp" => action(
            name,
            None,
            "Award experience to a player character, for what it did.",
            vec![
                target(true),
                ArgSpec::new("xp", ArgKind::Int, true, "how much experience").range(1, 1000),
                what(),
            ],
        ),
        "level_up" => action(
            name,
            actor,
            "Advance a level once its experience is reached, between fights, with the level's choices.",
            vec![
                attribute("attribute", false),
                ArgSpec::new("points", ArgKind::Text, false, "levels 2 and 3: power or magic points")
                    .choices(&["pp", "mp"]),
                ArgSpec::new(
                    "extra",
                    ArgKind::Text,
                    false,
                    "level 2: toughness or spells; level 3: hp or toughness; level 4: attribute or spell",
                )
                .choices(&["toughness", "spells", "hp", "attribute", "spell"]),
                ArgSpec::new("ability", ArgKind::Text, false, "levels 2 to 4: the class ability taken"),
                ArgSpec::new("skill", ArgKind::Text, false, "levels 2 to 4: the skill taken"),
                ArgSpec::new("spells", ArgKind::Text, false, "a caster's new spells, comma-separated"),
                ArgSpec::new(
                    "favored_weapon",
                    ArgKind::Text,
                    false,
                    "with Favored weapon: the weapon type it names",
                ),
                ArgSpec::new(
                    "proficiency",
                    ArgKind::Text,
                    false,
                    "with Weapon proficiency: the weapon type it names",
                ),
                ArgSpec::new(
                    "proficiency_bonus",
                    ArgKind::Text,
                    false,
                    "with Weapon proficiency: +1 to attack or to damage",
                )
                .choices(&["attack", "damage"]),
            ],
        ),
        "wander" | "lost" | "advance_time" | "force_door" | "pick_lock" | "trap" | "fall"
        | "unmask" => exploring(name)?,
        "check" => action(
            name,
            actor,
            "A check: d10 + attribute + 1 per skill against a toughness.",
            vec![
                attribute("attribute", false),
                ArgSpec::new(
                    "perception",
                    ArgKind::Flag,
                    false,
                    "a perception check (intellect)",
                ),
                ArgSpec::new(
                    "skills",
                    ArgKind::Text,
                    false,
                    "the skills that apply, comma-separated",
                ),
                ArgSpec::new(
                    "toughness",
                    ArgKind::Int,
                    false,
                    "the check's toughness (5 unless given)",
                )
                .range(0, 100),
                ArgSpec::new(
                    "hidden",
                    ArgKind::Flag,
                    false,
                    "the toughness is the GM's secret",
                )
                .gm_only(),
                ArgSpec::new(
                    "deed",
                    ArgKind::Text,
                    false,
                    "the act, for Petty thief or Heroics (+2, the GM's discretion)",
                )
                .choices(&["theft", "heroic"]),
                pp(),
                what(),
            ],
        ),
        "attack" => action(
            name,
            actor,
            "Attack: d10 + power (melee) or reflex (ranged, small weapons) + bonuses against toughness.",
            vec![
                target(true),
                ArgSpec::new(
                    "weapon",
                    ArgKind::Text,
                    false,
                    "a weapon id (the first on the sheet if left out: bare hands only without any)",
                ),
                pp(),
                ArgSpec::new(
                    "power_strike",
                    ArgKind::Int,
                    false,
                    "Power strike: PP for +1 damage each, spent on a hit",
                )
                .range(0, 100),
                ArgSpec::new(
                    "feint",
                    ArgKind::Flag,
                    false,
                    "Feint: a missed melee attack is rolled again (2 PP)",
                ),
                ArgSpec::new(
                    "nonlethal",
                    ArgKind::Flag,
                    false,
                    "to subdue: a power challenge too, 1 damage",
                ),
                ArgSpec::new(
                    "advantage",
                    ArgKind::Int,
                    false,
                    "combat advantage the GM grants",
                )
                .range(-5, 5)
                .gm_only(),
                ArgSpec::new(
                    "blessed",
                    ArgKind::Flag,
                    false,
                    "Blessed: a missed attack is rolled again (3 PP, spent on the miss)",
                ),
                ArgSpec::new(
                    "overpower",
                    ArgKind::Flag,
                    false,
                    "Overpower: a power challenge this attack starts and loses is rolled again (1 PP)",
                ),
                ArgSpec::new(
                    "thunderous",
                    ArgKind::Flag,
                    false,
                    "Thunderous blow (2 PP): melee attack and damage bonuses doubled this round; a hit may knock prone",
                ),
                ArgSpec::new(
                    "also",
                    ArgKind::Text,
                    false,
                    "One man army: more opponents within reach, comma-separated (1 PP a target, the first included)",
                ),
            ],
        ),
        "cast" => action(
            name,
            actor,
            "Cast a spell for its MP: it works unless it rolls an attack.",
            vec![
                ArgSpec::new("spell", ArgKind::Text, true, "the spell's id"),
                target(false),
                pp(),
                ArgSpec::new(
                    "sure",
                    ArgKind::Flag,
                    false,
                    "pay the dearer cost to strike without a roll",
                ),
                ArgSpec::new(
                    "splash",
                    ArgKind::Flag,
                    false,
                    "Splash-effect (1 PP): as much damage to every creature within 10 ft of the target that an attack roll strikes",
                ),
                ArgSpec::new("mp", ArgKind::Int, false, "Inflict wounds: the MP spent")
                    .range(1, 100),
                ArgSpec::new(
                    "targets",
                    ArgKind::Text,
                    false,
                    "Burning touch II (2), Healing wave (your level, within 20 ft), Fireball II (5, within 10 ft of the target): the creatures, comma-separated",
                ),
                ArgSpec::new(
                    "as_named",
                    ArgKind::Flag,
                    false,
                    "off the grid: the GM vouches that the creatures named are within the area",
                )
                .gm_only(),
                ArgSpec::new(
                    "weapon",
                    ArgKind::Text,
                    false,
                    "Enchant weapon: which weapon of the target",
                ),
                ArgSpec::new(
                    "to",
                    ArgKind::Cell,
                    false,
                    "Teleport: where to (within 200 ft)",
                ),
                ArgSpec::new(
                    "imprint",
                    ArgKind::Text,
                    false,
                    "Imprint spell: the magical spell seen cast this fight to learn for it",
                ),
                ArgSpec::new(
                    "kind",
                    ArgKind::Text,
                    false,
                    "Cataclysm: earthquake, firestorm or flooding",
                )
                .choices(&super::grounds::KINDS),
            ],
        ),
        "ability" => action(
            name,
            actor,
            "A class ability: smite (3 PP), hail_of_daggers (3 PP) or stunning_blow (2 PP) strike a target with an attack roll; call_to_battle (2 PP) gives each ally a d10, 6 or more an extra attack next turn; magical_power, prying_eye (2 PP, a target), bless_weapon (2 PP, a weapon), appeal_to_heaven (2 PP) and commanding_presence (3 PP) last; healing_sacrifice (1 HP and 2 PP an ally) and enchanted_healing (MP into HP) heal; walk_on_water (1 PP, the level in minutes), disguise (1 PP) and apprentice (a pact with a willing target, 4 MP; one the GM plays, by the GM) work out of a fight too.",
            vec![
                ArgSpec::new("name", ArgKind::Text, true, "which ability").choices(&[
                    "smite",
                    "hail_of_daggers",
                    "stunning_blow",
                    "call_to_battle",
                    "magical_power",
                    "prying_eye",
                    "bless_weapon",
                    "appeal_to_heaven",
                    "commanding_presence",
                    "healing_sacrifice",
                    "enchanted_healing",
                    "walk_on_water",
                    "disguise",
                    "apprentice",
                ]),
                target(false),
                ArgSpec::new("weapon", ArgKind::Text, false, "bless_weapon: which weapon"),
                ArgSpec::new(
                    "also",
                    ArgKind::Text,
                    false,
                    "healing_sacrifice: more allies, comma-separated (1 HP and 2 PP each)",
                ),
                ArgSpec::new(
                    "mp",
                    ArgKind::Int,
                    false,
                    "enchanted_healing: the MP turned into HP",
                )
                .range(1, 100),
                pp(),
            ],
        ),
        "words" => action(
            name,
            actor,
            "Words of healing (1 PP, +2 temporary HP) or of strength (2 PP, +1 power for 1d5 rounds) to allies within earshot.",
            vec![
                ArgSpec::new("of", ArgKind::Text, true, "which words")
                    .choices(&["healing", "strength"]),
            ],
        ),
        "heal" => action(
            name,
            actor,
            "Standard healing: a T6 intellect check (sure with the heal skill), 1-2 HP, MP and PP; takes the whole turn.",
            vec![target(false), pp()],
        ),
        "potion" => action(
            name,
            actor,
            "Drink or give a healing potion: 1d5 HP.",
            vec![target(false)],
        ),
        "move" => action(
            name,
            actor,
            "The turn's movement sequence, up to the speed (half when standing up).",
            vec![
                ArgSpec::new("to", ArgKind::Cell, true, "where to"),
                ArgSpec::new(
                    "haste",
                    ArgKind::Flag,
                    false,
                    "Haste: give up the turn's attack to move up to double the speed",
                ),
                ArgSpec::new(
                    "retreat",
                    ArgKind::Flag,
                    false,
                    "Tactical retreat (1 PP): after a melee hit, to just outside that opponent's movement range",
                ),
            ],
        ),
        "let_go" => action(
            name,
            actor,
            "Let go of a weapon turned to serpents (To serpents): no bite, but bare hands until the GM rules it back in hand.",
            vec![],
        ),
        "end_turn" => action(name, actor, "End the turn.", vec![]),
        _ => return None,
    })
}

pub fn catalogue(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let mut out: Vec<ActionSpec> = start_spec(state, seat).into_iter().collect();
    let enc = state.encounter();
    if seat.is_gm() {
        let names: &[&str] = if enc.active {
            &[
                "end_encounter",
                "challenge",
                "save",
                "morale",
                "wander",
                "fall",
                "unmask",
            ]
        } else {
            &["challenge", "save", "reaction", "rest", "award_xp"]
        };
        out.extend(names.iter().filter_map(|n| spec(n, None)));
        if !enc.active {
            out.extend(EXPLORING.iter().filter_map(|n| spec(n, None)));
        }
    }
    let now = turns::may_act(enc);
    let others: Vec<String> = state.combatant_ids().into_iter().map(|t| t.0).collect();
    for c in controlled(state, seat) {
        let Ok(stats) = stats_of(&c) else {
            continue;
        };
        let mut names = vec!["check"];
        if !enc.active {
            names.extend(["heal", "potion"]);
            if super::levelling::ready(&c, &stats) {
                names.push("level_up");
            }
            if super::knacks::KNACKS.iter().any(|k| stats.has_ability(k)) {
                names.push("ability");
            }
        } else if now.contains(&c.id) && cannot_act(&c).is_none() {
            if c.resource(ACTION) < 1 && c.has_status(super::EXTRA_ATTACK) {
                names.push("attack");
            }
            if c.resource(ACTION) > 0 {
                names.push("attack");
                if !stats.spells.is_empty() {
                    names.push("cast");
                }
                if super::strike::STRIKES
                    .iter()
                    .any(|(id, ..)| stats.has_ability(id))
                    || stats.has_ability(super::call::ID)
                    || super::boons::BOONS
                        .iter()
                        .any(|(id, _)| stats.has_ability(id))
                    || stats.has_ability("healing_sacrifice")
                    || stats.has_ability("enchanted_healing")
                    || super::knacks::KNACKS.iter().any(|k| stats.has_ability(k))
                {
                    names.push("ability");
                }
                if stats.has_ability("words_of_healing") || stats.has_ability("words_of_strength") {
                    names.push("words");
                }
                names.push("potion");
                if c.resource(MOVE) > 0 {
                    names.push("heal");
                }
            }
            if c.resource(MOVE) > 0 || c.has_status(super::RETREAT) {
                names.push("move");
            }
            if c.has_status(super::turnabout::SERPENTS) {
                names.push("let_go");
            }
            names.push("end_turn");
        }
        for name in names {
            if let Some(mut s) = spec(name, Some(&c.id)) {
                for a in &mut s.args {
                    match a.name.as_str() {
                        "target" => a.now.clone_from(&others),
                        "weapon" => a.now = stats.attacks.iter().map(|w| w.id.clone()).collect(),
                        "spell" => a.now.clone_from(&stats.spells),
                        _ => {}
                    }
                }
                out.push(s);
            }
        }
    }
    out
}

/// The specs of the GM's exploration actions.
fn exploring(name: &str) -> Option<ActionSpec> {
    let by = || ArgSpec::new("by", ArgKind::Entity, true, "the character who tries");
    let toughness = |required, what: &str| {
        ArgSpec::new("toughness", ArgKind::Int, required, what).range(0, 100)
    };
    let hidden = || {
        ArgSpec::new(
            "hidden",
            ArgKind::Flag,
            false,
            "the toughness is your secret",
        )
    };
    let reaction = || {
        ArgSpec::new(
            "reaction",
            ArgKind::Flag,
            false,
            "draw the reaction die too, read only when a monster comes",
        )
    };
    let (help, args) = match name {
        "wander" => (
            "A wandering monster check, 1 in 5 (yours alone).",
            vec![reaction()],
        ),
        "lost" => (
            "A wilderness day's direction roll: a d10, +1 per know nature in the party, lost on the terrain's chance or less (yours alone).",
            vec![
                ArgSpec::new(
                    "chance",
                    ArgKind::Int,
                    true,
                    "the losing faces of ten: 1 (1 in 10) to 5 (1 in 2)",
                )
                .range(1, 5),
                ArgSpec::new(
                    "party",
                    ArgKind::Text,
                    false,
                    "who travels, comma-separated (every living character if left out)",
                ),
            ],
        ),
        "advance_time" => (
            "Exploration turns pass (dungeon 10 minutes, wilderness 4 hours); a wandering check each turn if asked.",
            vec![
                ArgSpec::new("turns", ArgKind::Int, false, "how many (1 if left out)")
                    .range(1, 100),
                ArgSpec::new(
                    "where",
                    ArgKind::Text,
                    false,
                    "dungeon (if left out) or wilderness",
                )
                .choices(&["dungeon", "wilderness"]),
                ArgSpec::new(
                    "wander",
                    ArgKind::Flag,
                    false,
                    "a wandering monster check each turn (yours alone)",
                ),
            ],
        ),
        "force_door" => (
            "Force a door: a power check against its toughness; broken down, a wandering monster check follows.",
            vec![
                by(),
                toughness(true, "the door's toughness"),
                hidden(),
                pp(),
                reaction(),
            ],
        ),
        "pick_lock" => (
            "Pick a lock: a reflex check against its toughness with a thieves' kit, +1 with pick lock.",
            vec![
                by(),
                toughness(true, "the lock's toughness"),
                hidden(),
                pp(),
            ],
        ),
        "trap" => (
            "A trap: detect (perception, yours alone), disarm (reflex with a thieves' kit; a magical one by Dispel magic) or spring (a save, then its damage).",
            vec![
                ArgSpec::new("step", ArgKind::Text, true, "what happens")
                    .choices(&["detect", "disarm", "spring"]),
                by(),
                ArgSpec::new("trap", ArgKind::Text, false, "an example trap").choices(&[
                    "falling_rock",
                    "hidden_pit",
                    "poison_gas",
                ]),
                toughness(false, "its toughness (the example's if left out)"),
                ArgSpec::new(
                    "damage",
                    ArgKind::Text,
                    false,
                    "its damage: 2, 1d5 or a range such as 2-3",
                ),
                ArgSpec::new(
                    "attribute",
                    ArgKind::Text,
                    false,
                    "the attribute that saves",
                )
                .choices(&ATTRIBUTES),
                ArgSpec::new("magical", ArgKind::Flag, false, "a magical trap"),
                ArgSpec::new(
                    "none",
                    ArgKind::Flag,
                    false,
                    "detect only: there is no trap here (the table hears what a missed trap tells)",
                )
                .gm_only(),
                hidden(),
                pp(),
            ],
        ),
        "fall" => (
            "A fall: the damage you name (Cat's paw halves it, rounded down).",
            vec![
                ArgSpec::new("target", ArgKind::Entity, true, "who falls"),
                ArgSpec::new(
                    "damage",
                    ArgKind::Text,
                    true,
                    "an amount: 3, 1d5, 1d10, 1d5+2",
                ),
            ],
        ),
        "unmask" => (
            "See through a disguise: an intellect challenge, the disguised at +2.",
            vec![
                ArgSpec::new("watcher", ArgKind::Entity, true, "who looks"),
                ArgSpec::new("of", ArgKind::Entity, true, "the disguised"),
            ],
        ),
        _ => return None,
    };
    Some(action(name, None, help, args))
}
