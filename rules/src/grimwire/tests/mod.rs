//! GRIMWIRE's rules proved with numbers: every worked example of the text (named `eN_...`
//! after `rules/grimwire.md` section 2) and each core mechanic, driven through the real
//! `decide` and `apply` with scripted dice.
#![allow(clippy::unwrap_used)]

mod agony;
mod assist;
mod attacks;
mod fall;
mod frenzy;
mod grapple;
mod ground;
mod guard;
mod heal;
mod rest;
mod scenes;
mod shield;
mod shove;
mod status;
mod surprise;

use std::collections::BTreeMap;

use crate::action::{ArgSpec, ArgValue, Args, Command};
use crate::dice::ScriptedDice;
use crate::engine::{DecideError, decide};
use crate::event::{Against, Event, Fact, Outcome};
use crate::grid::Cell;
use crate::ids::{EntityId, Seat};
use crate::options::{OptionValue, TableOptions};
use crate::refusal::Refusal;
use crate::state::{MemoryState, StateMut, StateView};
use crate::system::RuleSystem;

use super::burnout_levels::{condition_cap, roll_penalty};
use super::damage::{DamageInput, damage_steps};
use super::options::END_SPENT_TURNS;
use super::sheet::{DamageType, learning_hours};
use super::*;

struct Table {
    state: MemoryState,
}

fn attrs(tog: i64, agl: i64, cor: i64, mnd: i64, per: i64, rsn: i64) -> String {
    format!(
        "attributes = {{ TOG = {tog}, AGL = {agl}, COR = {cor}, MND = {mnd}, PER = {per}, RSN = {rsn} }}"
    )
}

/// A level-1 PC owned by the seat of the same name, with Condition 20 and Focus 10.
fn pc(id: &str, attributes: &str, extra: &str) -> String {
    format!(
        "id = \"{id}\"\nname = \"{id}\"\nkind = \"pc\"\nowner = \"{id}\"\nlevel = 1\ncondition_max = 20\nfocus_max = 10\n{attributes}\n{extra}\n"
    )
}

/// A level-1 NPC with the given defence and attack TNs.
fn npc(id: &str, attributes: &str, defence: i64, attack: i64, extra: &str) -> String {
    format!(
        "id = \"{id}\"\nname = \"{id}\"\nkind = \"npc\"\nlevel = 1\ncondition_max = 12\nfocus_max = 0\n{attributes}\n{extra}\n[npc]\ndefence_tn = {defence}\nattack_tn = {attack}\n"
    )
}

const KNIFE: &str = "[[weapons]]\nid = \"knife\"\nname = \"Knife\"\nclass = \"light\"\ndamage = \"1d4\"\ndamage_type = \"edged\"\n";
const HAMMER: &str = "[[weapons]]\nid = \"hammer\"\nname = \"Hammer\"\nclass = \"heavy\"\ndamage = \"2d6\"\ndamage_type = \"blunt\"\ntog_req = 3\n";
const PISTOL: &str = "[[weapons]]\nid = \"pistol\"\nname = \"Pistol\"\nclass = \"ranged\"\ndamage = \"2d4\"\ndamage_type = \"bullets\"\nrange_m = 18\n";

fn player(id: &str) -> Seat {
    Seat::Player(id.into())
}

fn args(pairs: &[(&str, ArgValue)]) -> Args {
    Args(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

fn text(s: &str) -> ArgValue {
    ArgValue::Text(s.to_owned())
}

impl Table {
    fn new(options: &[(&str, OptionValue)]) -> Self {
        let given: BTreeMap<String, OptionValue> = options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        let opts = TableOptions::resolve(&Grimwire.options(), &given).unwrap();
        Table {
            state: MemoryState::new(opts),
        }
    }

    fn add(&mut self, toml: &str) -> &mut Self {
        let c = Grimwire.sheet_from_toml(toml).unwrap();
        self.state.insert_combatant(c);
        self
    }

    fn place(&mut self, id: &str, x: i32, y: i32) -> &mut Self {
        self.state
            .combatant_mut(&EntityId::from(id))
            .unwrap()
            .position = Some(Cell::new(x, y));
        self
    }

    /// Decides and applies; every scripted face must be used.
    fn run(&mut self, cmd: Command, faces: &[u32]) -> Result<Vec<Event>, DecideError> {
        let mut dice = ScriptedDice::new(faces.to_vec());
        let events = decide(&Grimwire, &self.state, &cmd, &mut dice)?;
        assert!(dice.unused().is_empty(), "unused faces {:?}", dice.unused());
        for e in &events {
            crate::apply::apply(&mut self.state, e).unwrap();
        }
        Ok(events)
    }

    fn act(
        &mut self,
        seat: Seat,
        actor: &str,
        action: &str,
        a: Args,
        faces: &[u32],
    ) -> Result<Vec<Event>, DecideError> {
        self.run(Command::act(seat, Some(actor), action, a), faces)
    }

    fn gm(&mut self, action: &str, a: Args, faces: &[u32]) -> Result<Vec<Event>, DecideError> {
        self.run(Command::act(Seat::Gm, None, action, a), faces)
    }

    fn answer(
        &mut self,
        seat: Seat,
        choice: &str,
        faces: &[u32],
    ) -> Result<Vec<Event>, DecideError> {
        let id = self.state.encounter().pending.last().unwrap().prompt_id;
        self.run(Command::answer(seat, id, choice), faces)
    }

    fn res(&self, id: &str, key: &str) -> i64 {
        self.state
            .combatant(&EntityId::from(id))
            .unwrap()
            .resource(key)
    }

    fn has(&self, id: &str, status: &str) -> bool {
        self.state
            .combatant(&EntityId::from(id))
            .unwrap()
            .has_status(status)
    }

    fn set(&mut self, id: &str, key: &str, value: i64) {
        self.state
            .combatant_mut(&EntityId::from(id))
            .unwrap()
            .resources
            .insert(key.to_owned(), value);
    }
}

fn checks(events: &[Event]) -> Vec<crate::event::CheckRecord> {
    events
        .iter()
        .flat_map(|e| e.facts())
        .filter_map(|f| match f {
            Fact::Checked(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

fn refusal(r: Result<Vec<Event>, DecideError>) -> Refusal {
    match r {
        Err(DecideError::Refused(r)) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn damage_of(events: &[Event]) -> Vec<i64> {
    events
        .iter()
        .flat_map(|e| e.facts())
        .filter_map(|f| match f {
            Fact::DamageResolved { amount, .. } => Some(*amount),
            _ => None,
        })
        .collect()
}

// ---- Worked examples of the text -------------------------------------------------------

#[test]
fn e1_rope_climb_agl_4_minus_2_natural_11_fails_tn_15() {
    let mut t = Table::new(&[]);
    t.add(&pc("climber", &attrs(0, 4, 0, 0, 0, 0), ""));
    let a = args(&[
        ("attribute", text("AGL")),
        ("tn", ArgValue::Int(15)),
        ("modifier", ArgValue::Int(-2)),
    ]);
    let ev = t.act(Seat::Gm, "climber", "check", a, &[11]).unwrap();
    let c = &checks(&ev)[0];
    assert_eq!(c.total, 13);
    assert_eq!(c.outcome, Outcome::Failure);
    // Without the drink, 11 + 4 = 15 meets the TN.
    let a = args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(15))]);
    let ev = t.act(Seat::Gm, "climber", "check", a, &[11]).unwrap();
    assert_eq!(checks(&ev)[0].outcome, Outcome::Success);
}

#[test]
fn e2_natural_20_on_a_hack_is_24_and_fails_int_25() {
    let mut t = Table::new(&[]);
    // INT is read as MND by default (table option grimwire.alias_int).
    t.add(&pc("hacker", &attrs(0, 0, 0, 4, 0, 0), ""));
    let a = args(&[("attribute", text("INT")), ("tn", ArgValue::Int(25))]);
    let ev = t.act(Seat::Gm, "hacker", "check", a, &[20]).unwrap();
    let c = &checks(&ev)[0];
    assert_eq!((c.total, c.outcome), (24, Outcome::Failure));
}

#[test]
fn e3_friendly_fire_pc2_evades_at_tn_9_when_pc1_spares_with_cor_2() {
    let mut t = Table::new(&[
        ("grimwire.collateral", text_opt("always")),
        ("grimwire.collateral_pool", text_opt("without_target")),
    ]);
    t.add(&pc("pc1", &attrs(1, 0, 2, 0, 0, 0), KNIFE)).add(&pc(
        "pc2",
        &attrs(0, 1, 0, 0, 0, 0),
        "",
    ));
    t.add(&npc("enemy", &attrs(0, 0, 0, 0, 0, 0), 12, 12, ""));
    t.place("pc1", 0, 0).place("enemy", 1, 0).place("pc2", 2, 0);
    let a = args(&[("target", text("enemy")), ("weapon", text("knife"))]);
    let ev = t.act(player("pc1"), "pc1", "attack", a, &[1]).unwrap();
    assert_eq!(checks(&ev)[0].overridden_by.as_deref(), Some("natural 1"));
    let step = t.state.encounter().pending.last().unwrap().clone();
    assert_eq!(step.entity("picked"), Some(&EntityId::from("pc2")));
    assert_eq!(step.default, "spare", "an ally is spared by default");
    // PC2 rolls natural 8 + AGL 1 = 9 against 11 - 2 = 9: avoided.
    let ev = t.answer(player("pc1"), "spare", &[8]).unwrap();
    let c = &checks(&ev)[0];
    assert_eq!(c.against, Against::Target(9));
    assert_eq!((c.total, c.outcome), (9, Outcome::Success));
    assert_eq!(t.res("pc2", CONDITION), 20);
}

fn text_opt(s: &str) -> OptionValue {
    OptionValue::Choice(s.to_owned())
}

#[test]
fn e4_heavy_weapon_tog_1_of_3_misfires_on_natural_3_but_not_4() {
    let mut t = Table::new(&[("grimwire.collateral", text_opt("never"))]);
    t.add(&pc("brute", &attrs(1, 0, 5, 0, 0, 0), HAMMER))
        .add(&npc("enemy", &attrs(0, 0, 0, 0, 0, 0), 5, 12, ""));
    let a = || args(&[("target", text("enemy")), ("weapon", text("hammer"))]);
    // TOG roll 10 + 1 = 11 meets the default TN 11; then a natural 3 (total 8, above TN 5)
    // still goes astray because it is within the widened misfire range.
    let ev = t
        .act(player("brute"), "brute", "attack", a(), &[10, 3])
        .unwrap();
    let c = checks(&ev);
    assert_eq!(c[0].label, "TOG to wield Hammer (needs TOG 3)");
    assert_eq!((c[1].total, c[1].outcome), (8, Outcome::Failure));
    assert_eq!(c[1].overridden_by.as_deref(), Some("natural 3"));
    // A natural 4 hits: 2d6 = 3 + 4, + TOG 1 = 8 damage.
    let ev = t
        .act(player("brute"), "brute", "attack", a(), &[10, 4, 3, 4])
        .unwrap();
    assert_eq!(checks(&ev)[1].outcome, Outcome::Success);
    assert_eq!(damage_of(&ev), vec![8]);
    // A failed TOG roll means no swing at all: 9 + 1 = 10 < 11.
    let ev = t
        .act(player("brute"), "brute", "attack", a(), &[9])
        .unwrap();
    assert_eq!(checks(&ev).len(), 1);
}

#[test]
fn e4_deficit_option_reads_the_misfire_range_as_1_plus_shortfall() {
    let mut t = Table::new(&[
        ("grimwire.collateral", text_opt("never")),
        ("grimwire.heavy_misfire", text_opt("deficit")),
    ]);
    t.add(&pc("brute", &attrs(2, 0, 5, 0, 0, 0), HAMMER))
        .add(&npc("enemy", &attrs(0, 0, 0, 0, 0, 0), 5, 12, ""));
    // TOG 2 against 3: shortfall 1, so naturals 1-2 misfire and 3 hits.
    let ev = t
        .act(
            player("brute"),
            "brute",
            "attack",
            args(&[("target", text("enemy")), ("weapon", text("hammer"))]),
            &[10, 3, 1, 1],
        )
        .unwrap();
    assert_eq!(checks(&ev)[1].outcome, Outcome::Success);
}

#[test]
fn e5_armour_3_turns_hits_of_5_and_2_into_2_and_1() {
    let target = npc(
        "tank",
        &attrs(0, 0, 0, 0, 0, 0),
        10,
        10,
        "armour = { value = 3 }",
    );
    let sheet = super::sheet_of(&Grimwire.sheet_from_toml(&target).unwrap())
        .unwrap()
        .clone();
    let hit = |raw| {
        damage_steps(&DamageInput::against(
            raw,
            None,
            false,
            DamageType::Blunt,
            &sheet,
        ))
        .1
    };
    assert_eq!(hit(5), 2);
    assert_eq!(hit(2), 1);
    // The same through the table: the GM deals 5, then 2.
    let mut t = Table::new(&[]);
    t.add(&target);
    t.gm(
        "damage",
        args(&[("target", text("tank")), ("amount", ArgValue::Int(5))]),
        &[],
    )
    .unwrap();
    t.gm(
        "damage",
        args(&[("target", text("tank")), ("amount", ArgValue::Int(2))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("tank", CONDITION), 12 - 2 - 1);
    // Armour covers physical damage only: 5 heat goes through whole.
    t.gm(
        "damage",
        args(&[
            ("target", text("tank")),
            ("amount", ArgValue::Int(5)),
            ("type", text("heat")),
        ]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("tank", CONDITION), 4);
}

#[test]
fn e7_cyrus_cor_3_rolls_8_for_11_and_aune_agl_3_rolls_13_for_16_and_dodges() {
    let mut t = Table::new(&[]);
    t.add(&pc("cyrus", &attrs(0, 0, 3, 0, 0, 0), KNIFE))
        .add(&pc("aune", &attrs(0, 3, 0, 0, 0, 0), ""));
    let ev = t
        .act(
            player("cyrus"),
            "cyrus",
            "attack",
            args(&[("target", text("aune")), ("weapon", text("knife"))]),
            &[8, 13],
        )
        .unwrap();
    let c = checks(&ev);
    assert_eq!((c[0].total, c[0].outcome), (11, Outcome::Failure));
    assert_eq!((c[1].total, c[1].outcome), (16, Outcome::Success));
    assert_eq!(
        c[0].against,
        Against::Opposed {
            entity: "aune".into(),
            total: 16
        }
    );
    assert_eq!(t.res("aune", CONDITION), 20);
}

#[test]
fn e7_player_vs_player_tie_halves_the_damage() {
    let mut t = Table::new(&[]);
    t.add(&pc("cyrus", &attrs(2, 0, 3, 0, 0, 0), KNIFE))
        .add(&pc("aune", &attrs(0, 3, 0, 0, 0, 0), ""));
    // 10 + 3 = 13 against 10 + 3 = 13: a tie; knife 1d4 = 3, + TOG 2 = 5, halved down = 2.
    let ev = t
        .act(
            player("cyrus"),
            "cyrus",
            "attack",
            args(&[("target", text("aune")), ("weapon", text("knife"))]),
            &[10, 10, 3],
        )
        .unwrap();
    assert_eq!(damage_of(&ev), vec![2]);
    assert_eq!(t.res("aune", CONDITION), 18);
}

#[test]
fn e8_long_rest_from_focus_minus_5_of_15_gives_10() {
    let mut t = Table::new(&[]);
    t.add(&pc("mage", &attrs(0, 0, 0, 0, 0, 0), "").replace("focus_max = 10", "focus_max = 15"));
    t.set("mage", FOCUS, -5);
    t.gm(
        "rest",
        args(&[("target", text("mage")), ("kind", text("long"))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("mage", FOCUS), 10);
    // A short rest adds half of 15, rounded down: 7.
    t.set("mage", FOCUS, -5);
    t.gm(
        "rest",
        args(&[("target", text("mage")), ("kind", text("short"))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("mage", FOCUS), 2);
}

#[test]
fn e9_max_focus_7_allows_3_active_techniques_not_4() {
    let tech = |n: usize| -> String {
        (0..n).map(|i| format!("[[techniques]]\nid = \"t{i}\"\nname = \"T{i}\"\nfocus_cost = 1\ntiming = \"action\"\n")).collect()
    };
    let sheet = |n| {
        pc("learner", &attrs(0, 0, 0, 0, 0, 0), &tech(n)).replace("focus_max = 10", "focus_max = 7")
    };
    assert!(Grimwire.sheet_from_toml(&sheet(3)).is_ok());
    let err = Grimwire.sheet_from_toml(&sheet(4)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`techniques`: 4 active techniques, but max Focus 7 allows floor(7/2) = 3"
    );
}

#[test]
fn e10_cor_3_learns_effort_15_in_5_of_8_hours() {
    assert_eq!(learning_hours(15, 3), 5);
    assert_eq!(8 - learning_hours(15, 3), 3);
    assert_eq!(learning_hours(16, 3), 6);
}

#[test]
fn e11_cyrus_kneecap_reactions_spend_the_next_rounds_action() {
    let kneecap = "[[techniques]]\nid = \"kneecap\"\nname = \"Kneecap\"\nfocus_cost = 2\ntiming = \"reaction\"\n";
    let mut t = Table::new(&[]);
    t.add(&pc(
        "cyrus",
        &attrs(0, 0, 3, 0, 5, 0),
        &format!("{KNIFE}{kneecap}"),
    ));
    t.add(&npc("thug", &attrs(0, 0, 0, 0, 0, 0), 30, 12, ""));
    // Initiative: Cyrus 10 + 5 = 15, thug 2.
    t.gm("start_encounter", Args::default(), &[10, 2]).unwrap();
    assert_eq!(t.state.encounter().current, Some("cyrus".into()));
    // Round 1: Cyrus attacks (and misses a TN of 30), then reacts on the thug's turn.
    t.act(
        player("cyrus"),
        "cyrus",
        "attack",
        args(&[("target", text("thug")), ("weapon", text("knife"))]),
        &[5],
    )
    .unwrap();
    t.act(player("cyrus"), "cyrus", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(
        player("cyrus"),
        "cyrus",
        "technique",
        args(&[("technique", text("kneecap"))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("cyrus", ACTION_OWED), 1);
    t.act(Seat::Gm, "thug", "end_turn", Args::default(), &[])
        .unwrap();
    // Round 2: no action on his turn; he reacts again, owing round 3's.
    assert_eq!(t.state.encounter().round, 2);
    let r = refusal(t.act(
        player("cyrus"),
        "cyrus",
        "attack",
        args(&[("target", text("thug")), ("weapon", text("knife"))]),
        &[],
    ));
    assert_eq!(r.code(), "none_left");
    t.act(player("cyrus"), "cyrus", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(
        player("cyrus"),
        "cyrus",
        "technique",
        args(&[("technique", text("kneecap"))]),
        &[],
    )
    .unwrap();
    t.act(Seat::Gm, "thug", "end_turn", Args::default(), &[])
        .unwrap();
    // Round 3: still no action; with no trigger he simply does not act.
    assert_eq!(t.state.encounter().round, 3);
    assert_eq!(t.res("cyrus", ACTION_SPENT), 1);
    assert_eq!(
        refusal(t.act(player("cyrus"), "cyrus", "dash", Args::default(), &[])).code(),
        "none_left"
    );
    t.act(player("cyrus"), "cyrus", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(Seat::Gm, "thug", "end_turn", Args::default(), &[])
        .unwrap();
    // Round 4: after a round without reacting, his action is back.
    assert_eq!(t.res("cyrus", ACTION_SPENT), 0);
    assert_eq!(t.res("cyrus", FOCUS), 6);
}

#[test]
fn e12_a_total_equal_to_the_tn_succeeds_one_below_fails() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), ""));
    let a = || args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(11))]);
    assert_eq!(
        checks(&t.act(Seat::Gm, "p", "check", a(), &[11]).unwrap())[0].outcome,
        Outcome::Success
    );
    assert_eq!(
        checks(&t.act(Seat::Gm, "p", "check", a(), &[10]).unwrap())[0].outcome,
        Outcome::Failure
    );
}

// ---- Checks and hidden numbers -----------------------------------------------------------

#[test]
fn natural_1_fails_even_when_the_total_reaches_the_tn() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 10, 0, 0, 0, 0), ""));
    let ev = t
        .act(
            Seat::Gm,
            "p",
            "check",
            args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(5))]),
            &[1],
        )
        .unwrap();
    let c = &checks(&ev)[0];
    assert_eq!((c.total, c.outcome), (11, Outcome::Failure));
}

#[test]
fn hidden_tn_reaches_only_the_gm() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 2, 0, 0, 0, 0), ""));
    let ev = t
        .act(
            Seat::Gm,
            "p",
            "check",
            args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(8311))]),
            &[7],
        )
        .unwrap();
    let gm = serde_json::to_string(&ev[0].view(&Seat::Gm)).unwrap();
    let seen = serde_json::to_string(&ev[0].view(&player("p"))).unwrap();
    assert!(gm.contains("8311"));
    assert!(!seen.contains("8311"), "{seen}");
    assert_eq!(
        checks(&[ev[0].view(&player("p")).unwrap()])[0].against,
        Against::Hidden
    );
}

#[test]
fn players_cannot_set_target_numbers_or_act_for_others() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("q", &attrs(0, 0, 0, 0, 0, 0), ""));
    let r = refusal(t.act(
        player("p"),
        "p",
        "check",
        args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(5))]),
        &[],
    ));
    assert_eq!(r.code(), "forbidden");
    let r = refusal(t.act(
        player("p"),
        "q",
        "check",
        args(&[("attribute", text("AGL"))]),
        &[],
    ));
    assert_eq!(r.code(), "forbidden");
    let r = refusal(t.act(
        player("p"),
        "p",
        "check",
        args(&[("attribute", text("LUCK"))]),
        &[],
    ));
    assert_eq!(r.code(), "bad_request");
    assert!(
        r.to_string()
            .starts_with("argument `attribute` `LUCK` must be one of TOG"),
        "{r}"
    );
    // Bounds keep every total far from overflow, and a typo is never silently ignored.
    let r = refusal(t.act(
        player("p"),
        "p",
        "check",
        args(&[("attribute", text("agl")), ("modifier", ArgValue::Int(-2))]),
        &[],
    ));
    assert_eq!(r.to_string(), "`modifier` is the GM's to give");
    let r = refusal(t.act(
        Seat::Gm,
        "p",
        "check",
        args(&[
            ("attribute", text("agl")),
            ("modifier", ArgValue::Int(i64::MIN)),
        ]),
        &[],
    ));
    assert_eq!(r.code(), "bad_request");
    let r = refusal(t.act(
        player("p"),
        "p",
        "check",
        args(&[("attribute", text("AGL")), ("modifer", ArgValue::Int(1))]),
        &[],
    ));
    assert_eq!(
        r.to_string(),
        "argument `modifer` is not an argument of this action"
    );
    let r = refusal(t.act(player("p"), "p", "fireball", Args::default(), &[]));
    assert_eq!(r.code(), "unknown_action");
}

#[test]
fn burnout_penalties_are_minus_1_3_5_on_every_roll() {
    assert_eq!([0, 1, 2, 3].map(roll_penalty), [0, -1, -3, -5]);
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 2, 0, 0, 0, 0), "burnout = 2"));
    let ev = t
        .act(
            Seat::Gm,
            "p",
            "check",
            args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(10))]),
            &[10],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].total, 10 + 2 - 3);
}

#[test]
fn burnout_caps_condition_at_80_and_50_percent_rounded_down() {
    assert_eq!(condition_cap(23, 1), 23);
    assert_eq!(condition_cap(23, 2), 18);
    assert_eq!(condition_cap(23, 3), 11);
    // A sheet above its cap is refused, naming the field: max 20 at burnout 3 is 10.
    let sheet = pc("p", &attrs(0, 0, 0, 0, 0, 0), "burnout = 3\ncondition = 10");
    assert!(Grimwire.sheet_from_toml(&sheet).is_ok());
    let err = Grimwire
        .sheet_from_toml(&sheet.replace("condition = 10", "condition = 11"))
        .unwrap_err();
    assert!(err.to_string().starts_with("`condition`"), "{err}");
}

// ---- Attacks ---------------------------------------------------------------------------

#[test]
fn natural_20_hits_a_tn_out_of_reach_and_doubles_damage() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(1, 0, 0, 0, 0, 0), KNIFE)).add(&npc(
        "boss",
        &attrs(0, 0, 0, 0, 0, 0),
        40,
        12,
        "",
    ));
    // 1d4 = 3, + TOG 1 = 4, doubled = 8.
    let ev = t
        .act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("boss")), ("weapon", text("knife"))]),
            &[20, 3],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].overridden_by.as_deref(), Some("natural 20"));
    assert_eq!(damage_of(&ev), vec![8]);
    assert_eq!(t.res("boss", CONDITION), 4);
}

#[test]
fn npc_attacks_make_the_pc_evade_with_agl_or_rsn_against_supernatural() {
    let bolt = "[[weapons]]\nid = \"bolt\"\nname = \"Bolt\"\nclass = \"supernatural\"\ndamage = \"1d8\"\ndamage_type = \"supernatural\"\n";
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 4, 0, 0, 0, -1), "")).add(&npc(
        "witch",
        &attrs(0, 0, 0, 0, 0, 2),
        10,
        14,
        &format!("{KNIFE}{bolt}"),
    ));
    // Evade 10 + AGL 4 = 14 reaches the witch's attack TN 14: no damage.
    let ev = t
        .act(
            Seat::Gm,
            "witch",
            "attack",
            args(&[("target", text("p")), ("weapon", text("knife"))]),
            &[10],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].label, "AGL evade");
    assert_eq!(t.res("p", CONDITION), 20);
    // Against the bolt the PC evades with RSN: 10 - 1 = 9 < 14: hit for 1d8 = 6, no TOG.
    let ev = t
        .act(
            Seat::Gm,
            "witch",
            "attack",
            args(&[("target", text("p")), ("weapon", text("bolt"))]),
            &[10, 6],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].label, "RSN evade");
    assert_eq!(t.res("p", CONDITION), 14);
}

#[test]
fn gm_can_override_the_tn_for_one_roll() {
    let mut t = Table::new(&[]);
    t.add(&npc("a", &attrs(0, 0, 2, 0, 0, 0), 10, 10, KNIFE))
        .add(&npc("b", &attrs(0, 0, 0, 0, 0, 0), 10, 10, ""));
    // NPC against NPC: 9 + 2 = 11 beats b's defence 10, but not an overriding 12.
    let ev = t
        .act(
            Seat::Gm,
            "a",
            "attack",
            args(&[
                ("target", text("b")),
                ("weapon", text("knife")),
                ("tn", ArgValue::Int(12)),
            ]),
            &[9],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].outcome, Outcome::Failure);
    let ev = t
        .act(
            Seat::Gm,
            "a",
            "attack",
            args(&[("target", text("b")), ("weapon", text("knife"))]),
            &[9, 2],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].outcome, Outcome::Success);
}

#[test]
fn ranged_attacks_take_minus_5_within_9_m_beyond_range_and_minus_10_further() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(5, 0, 4, 0, 0, 0), PISTOL)).add(&npc(
        "far",
        &attrs(0, 0, 0, 0, 0, 0),
        10,
        10,
        "",
    ));
    t.place("p", 0, 0).place("far", 27, 0);
    let ev = t
        .act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("far")), ("weapon", text("pistol"))]),
            &[12, 1, 1],
        )
        .unwrap();
    let c = &checks(&ev)[0];
    assert_eq!(c.total, 12 + 4 - 5);
    // Ranged damage adds no TOG: 1 + 1 = 2.
    assert_eq!(damage_of(&ev), vec![2]);
    t.place("far", 28, 0);
    let ev = t
        .act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("far")), ("weapon", text("pistol"))]),
            &[10],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].total, 4);
}

#[test]
fn melee_beyond_3_m_is_refused_and_changes_nothing() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), KNIFE)).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        10,
        10,
        "",
    ));
    t.place("p", 0, 0).place("n", 4, 0);
    let before = t.state.clone();
    let r = refusal(t.act(
        player("p"),
        "p",
        "attack",
        args(&[("target", text("n")), ("weapon", text("knife"))]),
        &[],
    ));
    assert_eq!(
        r,
        Refusal::OutOfRange {
            what: "n".into(),
            distance: 4,
            limit: 3,
            unit: "m".into()
        }
    );
    assert_eq!(t.state, before);
}

#[test]
fn light_weapons_attack_per_cor_table_heavy_ones_once() {
    let mut t = Table::new(&[]);
    t.add(&pc(
        "p",
        &attrs(3, 0, 3, 0, 9, 0),
        &format!("{KNIFE}{HAMMER}"),
    ))
    .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 30, 10, ""));
    // Initiative dice go in id order: n first, then p.
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    let knife = || args(&[("target", text("n")), ("weapon", text("knife"))]);
    // COR 3: two attacks in one action.
    t.act(player("p"), "p", "attack", knife(), &[2]).unwrap();
    t.act(player("p"), "p", "attack", knife(), &[2]).unwrap();
    let r = refusal(t.act(player("p"), "p", "attack", knife(), &[]));
    assert_eq!(
        r.to_string(),
        "p has no attack (2 of 2 made this turn) left this turn"
    );
    // Next turn, a heavy weapon attacks once.
    t.act(player("p"), "p", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(Seat::Gm, "n", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(
        player("p"),
        "p",
        "attack",
        args(&[("target", text("n")), ("weapon", text("hammer"))]),
        &[2],
    )
    .unwrap();
    assert_eq!(
        refusal(t.act(player("p"), "p", "attack", knife(), &[])).code(),
        "none_left"
    );
}

#[test]
fn unarmed_damage_is_tog_with_a_minimum_of_1() {
    let mut t = Table::new(&[]);
    t.add(&pc("weak", &attrs(-2, 0, 0, 0, 0, 0), "")).add(&pc(
        "strong",
        &attrs(4, 0, 0, 0, 0, 0),
        "",
    ));
    t.add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    let ev = t
        .act(
            player("weak"),
            "weak",
            "attack",
            args(&[("target", text("n"))]),
            &[15],
        )
        .unwrap();
    assert_eq!(damage_of(&ev), vec![1]);
    let ev = t
        .act(
            player("strong"),
            "strong",
            "attack",
            args(&[("target", text("n"))]),
            &[15],
        )
        .unwrap();
    assert_eq!(damage_of(&ev), vec![4]);
}

#[test]
fn weakness_doubles_resistance_halves_immunity_cancels() {
    let mk = |extra: &str| {
        let s = npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, extra);
        super::sheet_of(&Grimwire.sheet_from_toml(&s).unwrap())
            .unwrap()
            .clone()
    };
    let hit = |extra: &str| {
        damage_steps(&DamageInput::against(
            7,
            None,
            false,
            DamageType::Heat,
            &mk(extra),
        ))
        .1
    };
    assert_eq!(hit(""), 7);
    assert_eq!(hit("weak = [\"heat\"]"), 14);
    assert_eq!(hit("resist = [\"heat\"]"), 3);
    assert_eq!(hit("immune = [\"heat\"]"), 0);
    let mut up = DamageInput::against(7, None, false, DamageType::Heat, &mk("resist = [\"heat\"]"));
    up.round_half_up = true;
    assert_eq!(damage_steps(&up).1, 4);
}

// ---- Condition, dying, death -------------------------------------------------------------

#[test]
fn condition_at_0_means_dying_out_cold_and_a_level_of_burnout() {
    let mut t = Table::new(&[]);
    t.add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    t.gm(
        "damage",
        args(&[("target", text("n")), ("amount", ArgValue::Int(11))]),
        &[],
    )
    .unwrap();
    assert!(!t.has("n", DYING));
    t.gm(
        "damage",
        args(&[("target", text("n")), ("amount", ArgValue::Int(1))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("n", CONDITION), 0);
    assert!(t.has("n", DYING) && t.has("n", OUT_COLD));
    assert_eq!(t.res("n", BURNOUT), 1);
}

#[test]
fn minus_10_is_alive_minus_11_is_dead() {
    let mut t = Table::new(&[]);
    t.add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    t.gm(
        "damage",
        args(&[("target", text("n")), ("amount", ArgValue::Int(22))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("n", CONDITION), -10);
    assert!(t.has("n", DYING) && !t.has("n", DEAD));
    t.gm(
        "damage",
        args(&[("target", text("n")), ("amount", ArgValue::Int(1))]),
        &[],
    )
    .unwrap();
    assert!(t.has("n", DEAD) && !t.has("n", DYING));
}

#[test]
fn dying_loses_1_condition_at_the_start_of_each_of_their_turns() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "condition = 1"))
        .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    // Initiative dice go in id order: n first, then p.
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    t.gm(
        "damage",
        args(&[("target", text("p")), ("amount", ArgValue::Int(3))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("p", CONDITION), -2);
    assert_eq!(
        refusal(t.act(player("p"), "p", "dash", Args::default(), &[])).code(),
        "cannot_act"
    );
    t.act(Seat::Gm, "p", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(Seat::Gm, "n", "end_turn", Args::default(), &[])
        .unwrap();
    assert_eq!(t.res("p", CONDITION), -3);
}

#[test]
fn attacks_on_the_dying_hit_without_a_roll() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), "condition = 0"))
        .add(&npc("n", &attrs(2, 0, 0, 0, 0, 0), 5, 10, KNIFE));
    t.gm(
        "damage",
        args(&[("target", text("p")), ("amount", ArgValue::Int(0))]),
        &[],
    )
    .unwrap();
    // Only the damage die is drawn: 1d4 = 2, + TOG 2 = 4.
    t.gm(
        "rule.set-status",
        args(&[("target", text("p")), ("status", text("dying"))]),
        &[],
    )
    .unwrap();
    let ev = t
        .act(
            Seat::Gm,
            "n",
            "attack",
            args(&[("target", text("p")), ("weapon", text("knife"))]),
            &[2],
        )
        .unwrap();
    assert!(checks(&ev).is_empty());
    assert_eq!(t.res("p", CONDITION), -4);
}

#[test]
fn stabilising_leaves_1_condition_0_focus_out_cold_and_one_more_burnout() {
    let mut t = Table::new(&[]);
    t.add(&pc("medic", &attrs(0, 0, 3, 0, 0, 0), "")).add(&pc(
        "hurt",
        &attrs(0, 0, 0, 0, 0, 0),
        "",
    ));
    t.gm(
        "damage",
        args(&[("target", text("hurt")), ("amount", ArgValue::Int(24))]),
        &[],
    )
    .unwrap();
    assert_eq!((t.res("hurt", CONDITION), t.res("hurt", BURNOUT)), (-4, 1));
    // Default TN: 10 + 4 = 14. COR roll 10 + 3 = 13 fails; 11 + 3 = 14 succeeds.
    let a = || args(&[("target", text("hurt")), ("method", text("medkit"))]);
    let ev = t
        .act(player("medic"), "medic", "stabilise", a(), &[10])
        .unwrap();
    assert_eq!(checks(&ev)[0].against, Against::Target(14));
    assert!(t.has("hurt", DYING));
    t.act(player("medic"), "medic", "stabilise", a(), &[11])
        .unwrap();
    assert!(!t.has("hurt", DYING) && t.has("hurt", OUT_COLD));
    assert_eq!(
        (
            t.res("hurt", CONDITION),
            t.res("hurt", FOCUS),
            t.res("hurt", BURNOUT)
        ),
        (1, 0, 2)
    );
}

#[test]
fn burnout_level_4_sets_condition_to_0_and_dying() {
    let mut t = Table::new(&[]);
    let tech =
        "[[techniques]]\nid = \"blast\"\nname = \"Blast\"\nfocus_cost = 5\ntiming = \"action\"\n";
    t.add(&pc(
        "p",
        &attrs(0, 0, 0, 0, 0, 0),
        &format!("burnout = 2\n{tech}"),
    ));
    t.set("p", FOCUS, 2);
    // Burnout 2 caps Condition at 16; the push takes burnout to 3 (cap 10), then level 4.
    t.act(
        player("p"),
        "p",
        "technique",
        args(&[("technique", text("blast")), ("push", ArgValue::Flag(true))]),
        &[],
    )
    .unwrap();
    assert_eq!(
        (
            t.res("p", FOCUS),
            t.res("p", BURNOUT),
            t.res("p", CONDITION)
        ),
        (-3, 3, 10)
    );
    t.gm(
        "rule.set-resource",
        args(&[
            ("target", text("p")),
            ("resource", text("focus")),
            ("value", ArgValue::Int(5)),
        ]),
        &[],
    )
    .unwrap();
    t.gm(
        "rule.set-resource",
        args(&[
            ("target", text("p")),
            ("resource", text("burnout")),
            ("value", ArgValue::Int(3)),
        ]),
        &[],
    )
    .unwrap();
    // At level 3 techniques are blocked; a level from elsewhere (a stabilise, a push) makes 4.
    assert_eq!(
        refusal(t.act(
            player("p"),
            "p",
            "technique",
            args(&[("technique", text("blast"))]),
            &[]
        ))
        .code(),
        "rule"
    );
    t.gm(
        "damage",
        args(&[("target", text("p")), ("amount", ArgValue::Int(10))]),
        &[],
    )
    .unwrap();
    assert_eq!((t.res("p", BURNOUT), t.res("p", CONDITION)), (4, 0));
    assert!(t.has("p", DYING));
}

// ---- Focus and techniques ------------------------------------------------------------------

#[test]
fn a_technique_costing_more_focus_is_refused_unless_pushed_then_blocked_until_0() {
    let tech =
        "[[techniques]]\nid = \"surge\"\nname = \"Surge\"\nfocus_cost = 4\ntiming = \"free\"\n";
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), tech));
    t.set("p", FOCUS, 3);
    let r = refusal(t.act(
        player("p"),
        "p",
        "technique",
        args(&[("technique", text("surge"))]),
        &[],
    ));
    assert_eq!(
        r,
        Refusal::InsufficientResource {
            resource: "Focus".into(),
            needed: 4,
            available: 3
        }
    );
    t.act(
        player("p"),
        "p",
        "technique",
        args(&[("technique", text("surge")), ("push", ArgValue::Flag(true))]),
        &[],
    )
    .unwrap();
    assert_eq!((t.res("p", FOCUS), t.res("p", BURNOUT)), (-1, 1));
    let r = refusal(t.act(
        player("p"),
        "p",
        "technique",
        args(&[("technique", text("surge")), ("push", ArgValue::Flag(true))]),
        &[],
    ));
    assert!(r.to_string().contains("negative Focus"), "{r}");
}

// ---- Initiative and the turn ----------------------------------------------------------------

#[test]
fn initiative_is_d20_plus_per_highest_first_and_enemies_win_ties() {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 2, 0), ""))
        .add(&pc("b", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.add(&npc("z", &attrs(0, 0, 0, 0, 1, 0), 10, 10, ""));
    // Drawn in id order: a 10 + 2 = 12, b 15, z 11 + 1 = 12 -> b, z (enemy wins the tie), a.
    t.gm("start_encounter", Args::default(), &[10, 15, 11])
        .unwrap();
    let order: Vec<&str> = t
        .state
        .encounter()
        .order
        .iter()
        .map(EntityId::as_str)
        .collect();
    assert_eq!(order, ["b", "z", "a"]);
    assert_eq!(t.state.encounter().current, Some("b".into()));
    assert_eq!(t.state.encounter().round, 1);
    let r = refusal(t.act(player("a"), "a", "dash", Args::default(), &[]));
    assert_eq!(r.code(), "not_your_turn");
}

#[test]
fn same_side_ties_are_chosen_by_the_tied_players_and_default_on_timeout() {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("b", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.gm("start_encounter", Args::default(), &[9, 9]).unwrap();
    let step = t.state.encounter().pending.last().unwrap().clone();
    assert_eq!(step.options, ["a", "b"]);
    assert!(step.may_answer(&player("b")) && !step.may_answer(&Seat::Spectator("s".into())));
    // Nothing else moves while the prompt is open.
    assert_eq!(
        refusal(t.act(player("a"), "a", "dash", Args::default(), &[])).code(),
        "awaiting_decision"
    );
    t.answer(player("b"), "b", &[]).unwrap();
    let order: Vec<&str> = t
        .state
        .encounter()
        .order
        .iter()
        .map(EntityId::as_str)
        .collect();
    assert_eq!(order, ["b", "a"]);
    assert_eq!(t.state.encounter().current, Some("b".into()));
    // A timeout applies the default (id order).
    let mut t2 = Table::new(&[]);
    t2.add(&pc("a", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("b", &attrs(0, 0, 0, 0, 0, 0), ""));
    t2.gm("start_encounter", Args::default(), &[9, 9]).unwrap();
    let id = t2.state.encounter().pending.last().unwrap().prompt_id;
    t2.run(
        Command {
            seat: Seat::Gm,
            body: crate::action::CommandBody::TimeOut { prompt_id: id },
        },
        &[],
    )
    .unwrap();
    assert_eq!(t2.state.encounter().current, Some("a".into()));
}

#[test]
fn movement_is_base_plus_agl_before_or_after_the_action_not_both() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 2, 0, 0, 5, 0), KNIFE)).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        30,
        10,
        "",
    ));
    t.place("p", 0, 0).place("n", 20, 20);
    // Initiative dice go in id order: n first, then p.
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    let to = |x, y| args(&[("to", ArgValue::Cell(Cell::new(x, y)))]);
    // Base 6 + AGL 2 = 8 m.
    let r = refusal(t.act(player("p"), "p", "move", to(9, 0), &[]));
    assert_eq!(
        r,
        Refusal::OutOfRange {
            what: "a move to (9, 0)".into(),
            distance: 9,
            limit: 8,
            unit: "m".into()
        }
    );
    t.act(player("p"), "p", "move", to(5, 0), &[]).unwrap();
    // A PER roll of the player's own is the turn's auxiliary action.
    t.act(
        player("p"),
        "p",
        "check",
        args(&[("attribute", text("PER"))]),
        &[3],
    )
    .unwrap();
    assert_eq!(
        t.state
            .combatant(&"p".into())
            .unwrap()
            .turn_counter(economy::AUX_USED),
        1
    );
    t.act(player("p"), "p", "move", to(8, 0), &[]).unwrap();
    // The target is 12 m away: out of reach, and a player may not claim a distance.
    let r = refusal(t.act(
        player("p"),
        "p",
        "attack",
        args(&[("target", text("n")), ("distance_m", ArgValue::Int(2))]),
        &[],
    ));
    assert_eq!(r.code(), "forbidden");
    t.place("n", 9, 0);
    t.act(
        player("p"),
        "p",
        "attack",
        args(&[("target", text("n"))]),
        &[4],
    )
    .unwrap();
    assert_eq!(
        refusal(t.act(player("p"), "p", "move", to(8, 1), &[])).code(),
        "none_left"
    );
}

#[test]
fn dash_doubles_movement_and_a_second_auxiliary_costs_the_action() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "")).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        30,
        10,
        "",
    ));
    t.place("p", 0, 0);
    // Initiative dice go in id order: n first, then p.
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    t.act(player("p"), "p", "dash", Args::default(), &[])
        .unwrap();
    t.act(
        player("p"),
        "p",
        "move",
        args(&[("to", ArgValue::Cell(Cell::new(12, 0)))]),
        &[],
    )
    .unwrap();
    t.act(player("p"), "p", "auxiliary", Args::default(), &[])
        .unwrap();
    // The action went to the dash, so no second auxiliary.
    assert_eq!(
        refusal(t.act(player("p"), "p", "auxiliary", Args::default(), &[])).code(),
        "none_left"
    );
    t.act(player("p"), "p", "free_action", Args::default(), &[])
        .unwrap();
    assert_eq!(
        refusal(t.act(player("p"), "p", "free_action", Args::default(), &[])).code(),
        "none_left"
    );
}

#[test]
fn burnout_2_halves_movement_and_3_is_a_crawl() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 2, 0, 0, 0, 0), "burnout = 2"))
        .add(&pc("q", &attrs(0, 2, 0, 0, 0, 0), "burnout = 3"));
    let ctx_state = t.state.clone();
    let mut dice = ScriptedDice::new(vec![]);
    let ctx = crate::engine::Ctx::new(&ctx_state, &mut dice);
    assert_eq!(economy::movement_allowance(&ctx, &"p".into()).unwrap(), 4);
    assert_eq!(economy::movement_allowance(&ctx, &"q".into()).unwrap(), 3);
}

// ---- Sheets ------------------------------------------------------------------------------

#[test]
fn sheet_errors_name_the_field_and_the_rule() {
    let good = pc("p", &attrs(0, 0, 0, 0, 0, 0), "");
    assert!(Grimwire.sheet_from_toml(&good).is_ok());
    let cases = [
        (
            good.replace("COR = 0", "COR = 11"),
            "`attributes.COR`: is 11, but 10 is the maximum for any attribute",
        ),
        (
            good.replace(", RSN = 0", ""),
            "`attributes.RSN`: is missing; every sheet gives all six attributes",
        ),
        (
            good.replace("level = 1", "level = 2"),
            "`level`: is 2, but 0 XP makes level 1",
        ),
        (
            good.replace("AGL = 0", "LCK = 0"),
            "`attributes.LCK`: is not a GRIMWIRE attribute",
        ),
    ];
    for (sheet, want) in cases {
        let err = Grimwire.sheet_from_toml(&sheet).unwrap_err().to_string();
        assert!(err.starts_with(want), "{err}\nwanted {want}");
    }
    let err = Grimwire
        .sheet_from_toml(&good.replace("condition_max = 20\n", ""))
        .unwrap_err()
        .to_string();
    assert!(err.contains("condition_max"), "{err}");
    let npc_without = good.replace("kind = \"pc\"", "kind = \"npc\"");
    let err = Grimwire
        .sheet_from_toml(&npc_without)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("`npc`"), "{err}");
}

#[test]
fn supernatural_range_is_18_m_plus_2_per_rsn() {
    assert_eq!(attack::supernatural_range(3), 24);
    assert_eq!(attack::supernatural_range(-2), 14);
    let bolt = "[[weapons]]\nid = \"bolt\"\nname = \"Bolt\"\nclass = \"supernatural\"\ndamage = \"1d8\"\ndamage_type = \"supernatural\"\n";
    let mut t = Table::new(&[]);
    t.add(&pc("mage", &attrs(0, 0, 0, 0, 0, 3), bolt)).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        5,
        10,
        "",
    ));
    t.place("mage", 0, 0).place("n", 25, 0);
    let a = || args(&[("target", text("n")), ("weapon", text("bolt"))]);
    assert_eq!(
        refusal(t.act(player("mage"), "mage", "attack", a(), &[])),
        Refusal::OutOfRange {
            what: "n".into(),
            distance: 25,
            limit: 24,
            unit: "m".into()
        }
    );
    t.place("n", 24, 0);
    // RSN rolls the supernatural attack: 5 + 3 = 8 against 5; 1d8 = 4, no TOG.
    let ev = t
        .act(player("mage"), "mage", "attack", a(), &[5, 4])
        .unwrap();
    assert_eq!(checks(&ev)[0].label, "RSN attack");
    assert_eq!(damage_of(&ev), vec![4]);
}

#[test]
fn the_catalogue_offers_each_seat_only_what_it_may_do_now() {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 5, 0), KNIFE))
        .add(&pc("b", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 10, 10, ""));
    let names = |t: &Table, seat: &Seat| -> Vec<String> {
        crate::engine::actions(&Grimwire, &t.state, seat)
            .into_iter()
            .map(|s| {
                format!(
                    "{}{}",
                    s.name,
                    s.actor.map(|a| format!(":{a}")).unwrap_or_default()
                )
            })
            .collect()
    };
    let gm = names(&t, &Seat::Gm);
    assert!(gm.contains(&"start_encounter".to_owned()) && gm.contains(&"attack:n".to_owned()));
    assert!(!gm.contains(&"end_encounter".to_owned()));
    assert!(names(&t, &player("a")).iter().all(|n| n.ends_with(":a")));
    assert!(names(&t, &Seat::Spectator("s".into())).is_empty());
    // In the encounter, off-turn characters keep only checks and techniques.
    t.gm("start_encounter", Args::default(), &[10, 2, 1])
        .unwrap();
    assert_eq!(t.state.encounter().current, Some("a".into()));
    let b = names(&t, &player("b"));
    assert_eq!(b, ["technique:b"]);
    assert!(names(&t, &player("a")).contains(&"attack:a".to_owned()));
}

/// Applying the events of a whole fight to the in-memory state and to a copy-on-write scratch
/// over an empty state gives the same result: `apply` depends on nothing but the event and
/// works the same through every `StateMut`.
#[test]
fn apply_gives_the_same_state_through_every_state_store() {
    let mut t = Table::new(&[("grimwire.idle_turns", text_opt("wait"))]);
    t.add(&pc("p", &attrs(2, 1, 3, 0, 4, 0), KNIFE)).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        8,
        12,
        KNIFE,
    ));
    let mut log: Vec<Event> = Vec::new();
    let empty = t.state.clone();
    log.extend(t.gm("start_encounter", Args::default(), &[3, 12]).unwrap());
    log.extend(
        t.act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("n")), ("weapon", text("knife"))]),
            &[14, 4],
        )
        .unwrap(),
    );
    log.extend(
        t.act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("n")), ("weapon", text("knife"))]),
            &[20, 3],
        )
        .unwrap(),
    );
    log.extend(
        t.act(player("p"), "p", "end_turn", Args::default(), &[])
            .unwrap(),
    );
    // The dying NPC cannot attack; its turn only costs it 1 Condition.
    assert_eq!(
        refusal(t.act(Seat::Gm, "n", "attack", args(&[("target", text("p"))]), &[])).code(),
        "cannot_act"
    );
    log.extend(
        t.act(Seat::Gm, "n", "end_turn", Args::default(), &[])
            .unwrap(),
    );
    let mut replayed = empty.clone();
    let mut scratch = crate::state::Scratch::new(&empty);
    for e in &log {
        crate::apply::apply(&mut replayed, e).unwrap();
        crate::apply::apply(&mut scratch, e).unwrap();
    }
    assert_eq!(replayed, t.state);
    for id in t.state.combatant_ids() {
        assert_eq!(scratch.combatant(&id), t.state.combatant(&id));
    }
    assert_eq!(scratch.encounter(), t.state.encounter());
    // The knife hits: 4 + 2 = 6, then a natural 20: (3 + 2) x 2 = 10; 12 - 16 = -4, dying,
    // and the start of its turn takes it to -5.
    assert_eq!(t.res("n", CONDITION), -5);
    assert_eq!(t.state.encounter().round, 2);
}

// ---- Nothing a client sends may panic or corrupt the table ---------------------------------

mod random_commands {
    use proptest::prelude::*;

    use super::*;
    use crate::dice::CounterStream;

    fn seat() -> impl Strategy<Value = Seat> {
        prop_oneof![
            Just(Seat::Gm),
            Just(player("a")),
            Just(player("b")),
            Just(Seat::Spectator("s".into())),
        ]
    }

    fn value() -> impl Strategy<Value = ArgValue> {
        prop_oneof![
            any::<i64>().prop_map(ArgValue::Int),
            (-30i64..30).prop_map(ArgValue::Int),
            any::<bool>().prop_map(ArgValue::Flag),
            (any::<i32>(), any::<i32>()).prop_map(|(x, y)| ArgValue::Cell(Cell::new(x, y))),
            (-8i32..8, -8i32..8).prop_map(|(x, y)| ArgValue::Cell(Cell::new(x, y))),
            prop::sample::select(vec![
                "a",
                "b",
                "n",
                "ghost",
                "knife",
                "hammer",
                "pistol",
                "surge",
                "AGL",
                "int",
                "COR",
                "short",
                "long",
                "heat",
                "dying",
                "condition",
                "",
                "é",
            ])
            .prop_map(|s| ArgValue::Text(s.to_owned())),
        ]
    }

    /// A value that fits an argument of this name most of the time, and any value otherwise.
    fn value_for(name: &'static str) -> BoxedStrategy<ArgValue> {
        let text = |choices: Vec<&'static str>| {
            prop::sample::select(choices)
                .prop_map(|s| ArgValue::Text(s.to_owned()))
                .boxed()
        };
        let fitting = match name {
            "target" => text(vec!["a", "b", "n", "ghost"]),
            "weapon" => text(vec!["knife", "hammer", "pistol", "unarmed", "spoon"]),
            "attribute" => text(vec!["AGL", "cor", "INT", "PER", "LUCK"]),
            "technique" => text(vec!["surge", "nap"]),
            "method" => text(vec!["medkit", "int", "prayer"]),
            "type" => text(vec!["heat", "edged", "fire"]),
            "kind" => text(vec!["short", "long"]),
            "resource" => text(vec!["condition", "focus", "burnout", "luck"]),
            "status" => text(vec![
                "dying",
                "out_cold",
                "dead",
                "stun",
                "stunned",
                "paralysed",
                "knocked_down",
                "burning",
                "bleeding",
                "terror",
                "asleep",
                "knocked_out",
                "sensory_impaired",
                "inebriated",
                "wound_held",
            ]),
            "text" | "what" | "reason" => text(vec!["hm", ""]),
            "push" | "hidden" | "ignore_armour" | "targeted" | "nonlethal" => {
                any::<bool>().prop_map(ArgValue::Flag).boxed()
            }
            "to" => (-12i32..12, -12i32..12)
                .prop_map(|(x, y)| ArgValue::Cell(Cell::new(x, y)))
                .boxed(),
            "distance_m" | "amount" | "rounds" => (0i64..40).prop_map(ArgValue::Int).boxed(),
            _ => (-25i64..40).prop_map(ArgValue::Int).boxed(),
        };
        prop_oneof![19 => fitting, 1 => value()].boxed()
    }

    const ARG_NAMES: [&str; 22] = [
        "target",
        "weapon",
        "attribute",
        "tn",
        "modifier",
        "to",
        "push",
        "technique",
        "method",
        "amount",
        "type",
        "kind",
        "hidden",
        "distance_m",
        "resource",
        "value",
        "status",
        "rounds",
        "text",
        "what",
        "targeted",
        "nonlethal",
    ];

    fn command() -> impl Strategy<Value = (Seat, Option<&'static str>, &'static str, Args)> {
        let action = prop::sample::select(vec![
            "start_encounter",
            "end_encounter",
            "check",
            "attack",
            "attack",
            "attack",
            "move",
            "dash",
            "auxiliary",
            "free_action",
            "technique",
            "stabilise",
            "damage",
            "damage",
            "rest",
            "stand",
            "help_up",
            "wake",
            "extinguish",
            "hold_pressure",
            "pass",
            "end_turn",
            "end_turn",
            "end_turn",
            "rule.set-resource",
            "rule.set-status",
            "rule.clear-status",
            "rule.move",
            "rule.note",
            "fireball",
        ]);
        let actor =
            prop::sample::select(vec![Some("a"), Some("b"), Some("n"), Some("ghost"), None]);
        let all: Vec<BoxedStrategy<(String, ArgValue)>> = ARG_NAMES
            .iter()
            .map(|n| value_for(n).prop_map(move |v| ((*n).to_owned(), v)).boxed())
            .collect();
        // A required argument is given with probability 19/20, an optional one with 1/2; one command in
        // eight also carries one stray argument. Most commands come from the seat that may
        // give them, so that they get past the permission checks and exercise the rules.
        let keep = prop::collection::vec(
            (prop::bool::weighted(0.5), prop::bool::weighted(0.95)),
            ARG_NAMES.len(),
        );
        let rightful = prop::bool::weighted(0.7);
        (
            seat(),
            actor,
            action,
            all,
            keep,
            prop::bool::weighted(0.125),
            rightful,
        )
            .prop_map(|(s, a, n, values, keep, stray, rightful)| {
                let (required, optional) = declared_args(n);
                let mut stray_left = stray;
                let args = values
                    .into_iter()
                    .zip(keep)
                    .filter(|((name, _), (k, often))| {
                        if required.contains(name) {
                            return *often;
                        }
                        if optional.contains(name) {
                            return *k;
                        }
                        let take = stray_left && *often;
                        stray_left &= !take;
                        take
                    })
                    .map(|(pair, _)| pair)
                    .collect();
                let seat = match (rightful, a) {
                    (false, _) => s,
                    (true, Some("a")) => player("a"),
                    (true, Some("b")) => player("b"),
                    (true, _) => Seat::Gm,
                };
                let seat = if n.starts_with("rule.")
                    || matches!(n, "damage" | "rest" | "start_encounter" | "end_encounter")
                        && rightful
                {
                    Seat::Gm
                } else {
                    seat
                };
                (seat, a, n, Args(args))
            })
    }

    /// The declared arguments of an action, required ones first in the returned pair.
    fn declared_args(action: &str) -> (Vec<String>, Vec<String>) {
        let names = |args: &[ArgSpec]| {
            let (req, opt): (Vec<&ArgSpec>, Vec<&ArgSpec>) = args.iter().partition(|a| a.required);
            let n = |v: Vec<&ArgSpec>| v.into_iter().map(|a| a.name.clone()).collect();
            (n(req), n(opt))
        };
        match super::economy::spec(action) {
            Some(def) => names(&def.args),
            None => crate::engine::ruling_specs(super::GRID)
                .into_iter()
                .find(|s| s.name == action)
                .map(|s| names(&s.args))
                .unwrap_or_default(),
        }
    }

    fn table() -> Table {
        let tech = "[[techniques]]\nid = \"surge\"\nname = \"Surge\"\nfocus_cost = 4\ntiming = \"reaction\"\n";
        let mut t = Table::new(&[("grimwire.collateral", OptionValue::Choice("always".into()))]);
        t.add(&pc(
            "a",
            &attrs(1, 2, 3, 0, 1, 1),
            &format!("{KNIFE}{PISTOL}{tech}"),
        ));
        t.add(&pc("b", &attrs(-2, 0, 1, 2, 0, -1), HAMMER));
        t.add(&npc("n", &attrs(2, 0, 1, 0, 0, 0), 11, 12, KNIFE));
        t.place("a", 0, 0).place("b", 1, 0).place("n", 2, 0);
        t
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Any sequence of commands, valid or not, from any seat: `decide` never panics, what
        /// it accepts always applies, a refusal changes nothing, open prompts get answered or
        /// time out, and the numbers stay within the rules' bounds.
        #[test]
        fn random_commands_never_panic_and_keep_the_state_sound(
            key in any::<[u8; 32]>(),
            commands in prop::collection::vec(command(), 1..40),
            answers in prop::collection::vec(any::<prop::sample::Index>(), 40),
        ) {
            let mut t = table();
            let mut dice = CounterStream::new(key, 1);
            for (i, (seat, actor, action, args)) in commands.into_iter().enumerate() {
                let cmd = match t.state.encounter().pending.last() {
                    Some(top) if i % 3 == 0 => Command::time_out(top.prompt_id),
                    Some(top) => {
                        let choice = answers[i].get(&top.options).clone();
                        Command::answer(seat, top.prompt_id, &choice)
                    }
                    None => Command::act(seat, actor, action, args),
                };
                let before = t.state.clone();
                match decide(&Grimwire, &t.state, &cmd, &mut dice) {
                    Ok(events) => {
                        for e in &events {
                            crate::apply::apply(&mut t.state, e).expect("accepted events apply");
                        }
                    }
                    Err(DecideError::Refused(_)) => prop_assert_eq!(&t.state, &before),
                    Err(other) => prop_assert!(false, "{cmd:?} failed: {other}"),
                }
                for id in t.state.combatant_ids() {
                    let c = t.state.combatant(&id).expect("listed");
                    prop_assert!((0..=4).contains(&c.resource(BURNOUT)), "{c:?}");
                    // Death by the rules ends dying; a GM may still rule statuses as they see fit.
                    let by_rules = |key: &str| c.statuses.get(key).is_some_and(|st| st.source != "ruling");
                    prop_assert!(!(by_rules(DEAD) && by_rules(DYING)), "{c:?}");
                }
            }
        }
    }
}

#[test]
fn gm_resource_rulings_stay_within_the_systems_bounds() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), ""));
    let set = |resource: &str, value: i64| {
        args(&[
            ("target", text("p")),
            ("resource", text(resource)),
            ("value", ArgValue::Int(value)),
        ])
    };
    t.gm("rule.set-resource", set(BURNOUT, 4), &[]).unwrap();
    assert_eq!(t.res("p", BURNOUT), 4);
    let r = refusal(t.gm("rule.set-resource", set(BURNOUT, 5), &[]));
    assert_eq!(r.to_string(), "argument `value` burnout must be in 0..=4");
    let r = refusal(t.gm("rule.set-resource", set("luck", 1), &[]));
    assert_eq!(r.code(), "unknown_name");
    assert_eq!(
        refusal(t.act(player("p"), "p", "rule.set-resource", set(FOCUS, 1), &[])).code(),
        "forbidden"
    );
}

// ---- Procedure details the review pinned down -------------------------------------------

const THROWN_AXE: &str = "[[weapons]]\nid = \"axe\"\nname = \"Axe\"\nclass = \"thrown\"\ndamage = \"1d6\"\ndamage_type = \"edged\"\n";

fn hidden_targets(events: &[Event], seat: &Seat) -> Vec<i64> {
    events
        .iter()
        .filter_map(|e| e.view(seat))
        .flat_map(|e| e.parts)
        .filter_map(|p| match p.fact {
            Fact::HiddenTarget { target, .. } => Some(target),
            _ => None,
        })
        .collect()
}

#[test]
fn pc_attacks_npc_with_cor_against_its_hidden_defence_tn() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 5, 2, 0, 0, 0), KNIFE)).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        13,
        9,
        "",
    ));
    let a = || args(&[("target", text("n")), ("weapon", text("knife"))]);
    // COR 2: 10 + 2 = 12 misses 13 (with AGL 5 it would have hit); 11 + 2 = 13 hits.
    let ev = t.act(player("p"), "p", "attack", a(), &[10]).unwrap();
    let c = &checks(&ev)[0];
    assert_eq!(
        (c.label.as_str(), c.total, c.outcome),
        ("COR attack", 12, Outcome::Failure)
    );
    assert_eq!(c.against, Against::Hidden);
    assert_eq!(hidden_targets(&ev, &Seat::Gm), [13]);
    assert!(hidden_targets(&ev, &player("p")).is_empty());
    let ev = t.act(player("p"), "p", "attack", a(), &[11, 2]).unwrap();
    assert_eq!(checks(&ev)[0].outcome, Outcome::Success);
    // A player cannot ask for the TN to be shown, nor give a modifier.
    for (arg, value) in [
        ("hidden", ArgValue::Flag(false)),
        ("modifier", ArgValue::Int(38)),
    ] {
        let r = refusal(t.act(player("p"), "p", "attack", a().with(arg, value), &[]));
        assert_eq!(r.code(), "forbidden", "{arg}");
    }
}

#[test]
fn npc_attack_tn_not_defence_tn_is_what_the_pc_must_evade() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 2, 0, 0, 0, 0), "")).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        10,
        14,
        KNIFE,
    ));
    // 10 + 2 = 12: enough against defence_tn 10, not against attack_tn 14. 1d4 = 1.
    let ev = t
        .act(
            Seat::Gm,
            "n",
            "attack",
            args(&[("target", text("p")), ("weapon", text("knife"))]),
            &[10, 1],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].outcome, Outcome::Failure);
    assert_eq!(hidden_targets(&ev, &Seat::Gm), [14]);
    // The GM's modifier counts on the roll being made, with its own sign: 13 + 2 - 2 = 13 < 14.
    let ev = t
        .act(
            Seat::Gm,
            "n",
            "attack",
            args(&[
                ("target", text("p")),
                ("weapon", text("knife")),
                ("modifier", ArgValue::Int(-2)),
            ]),
            &[13, 1],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].total, 13);
}

#[test]
fn npc_against_npc_rolls_cor_against_the_targets_defence_tn() {
    let mut t = Table::new(&[]);
    t.add(&npc("a", &attrs(0, 0, 1, 0, 0, 0), 10, 10, KNIFE))
        .add(&npc("b", &attrs(0, 0, 0, 0, 0, 0), 12, 8, ""));
    // 10 + 1 = 11: would reach b's attack_tn 8, not its defence_tn 12.
    let ev = t
        .act(
            Seat::Gm,
            "a",
            "attack",
            args(&[("target", text("b")), ("weapon", text("knife"))]),
            &[10],
        )
        .unwrap();
    assert_eq!(checks(&ev)[0].outcome, Outcome::Failure);
    assert_eq!(hidden_targets(&ev, &Seat::Gm), [12]);
}

#[test]
fn out_cold_characters_make_no_defensive_roll() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 9, 0, 0, 0, 0), "")).add(&npc(
        "n",
        &attrs(1, 0, 0, 0, 0, 0),
        10,
        12,
        KNIFE,
    ));
    t.gm(
        "rule.set-status",
        args(&[("target", text("p")), ("status", text(OUT_COLD))]),
        &[],
    )
    .unwrap();
    // No evade roll is drawn: only the knife's 1d4 = 2, + TOG 1.
    let ev = t
        .act(
            Seat::Gm,
            "n",
            "attack",
            args(&[("target", text("p")), ("weapon", text("knife"))]),
            &[2],
        )
        .unwrap();
    assert!(checks(&ev).is_empty());
    assert_eq!(t.res("p", CONDITION), 17);
}

#[test]
fn a_dash_after_moving_keeps_the_movement_open_and_doubles_it() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "")).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        10,
        10,
        "",
    ));
    t.place("p", 0, 0);
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    let to = |x| args(&[("to", ArgValue::Cell(Cell::new(x, 0)))]);
    t.act(player("p"), "p", "move", to(4), &[]).unwrap();
    t.act(player("p"), "p", "dash", Args::default(), &[])
        .unwrap();
    // 6 m base, doubled: 12 m in all, 4 already used.
    t.act(player("p"), "p", "move", to(12), &[]).unwrap();
    let r = refusal(t.act(player("p"), "p", "move", to(13), &[]));
    assert_eq!(r.code(), "out_of_range");
}

#[test]
fn a_second_auxiliary_action_is_allowed_while_the_action_is_unspent() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "")).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        10,
        10,
        "",
    ));
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    t.act(player("p"), "p", "auxiliary", Args::default(), &[])
        .unwrap();
    t.act(player("p"), "p", "auxiliary", Args::default(), &[])
        .unwrap();
    assert_eq!(t.res("p", ACTION_SPENT), 1);
    assert_eq!(
        refusal(t.act(player("p"), "p", "auxiliary", Args::default(), &[])).code(),
        "none_left"
    );
}

#[test]
fn moving_between_light_weapon_attacks_ends_the_action() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 3, 0, 5, 0), KNIFE)).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        30,
        10,
        "",
    ));
    t.place("p", 0, 0).place("n", 1, 0);
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    let knife = || args(&[("target", text("n")), ("weapon", text("knife"))]);
    t.act(player("p"), "p", "attack", knife(), &[2]).unwrap();
    t.act(
        player("p"),
        "p",
        "move",
        args(&[("to", ArgValue::Cell(Cell::new(0, 1)))]),
        &[],
    )
    .unwrap();
    let r = refusal(t.act(player("p"), "p", "attack", knife(), &[]));
    assert_eq!(
        r.to_string(),
        "p has no attack (moving after attacking ended the action) left this turn"
    );
}

#[test]
fn thrown_weapons_add_tog_to_damage() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(3, 0, 0, 0, 0, 0), THROWN_AXE))
        .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    t.place("p", 0, 0).place("n", 8, 0);
    // 1d6 = 2, + TOG 3 = 5.
    let ev = t
        .act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("n")), ("weapon", text("axe"))]),
            &[10, 2],
        )
        .unwrap();
    assert_eq!(damage_of(&ev), vec![5]);
}

#[test]
fn dying_tick_at_turn_end_is_a_table_option() {
    let mut t = Table::new(&[
        ("grimwire.dying_tick", text_opt("turn_end")),
        ("grimwire.idle_turns", text_opt("wait")),
    ]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "condition = -2"))
        .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    // p's turn starts without a loss, and ends with one.
    assert_eq!(t.res("p", CONDITION), -2);
    t.act(player("p"), "p", "end_turn", Args::default(), &[])
        .unwrap();
    assert_eq!(t.res("p", CONDITION), -3);
}

#[test]
fn a_character_killed_by_the_dying_tick_loses_the_turn() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "condition = -10"))
        .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    // p would go first, dies at the start of the turn (-11), and n gets the turn.
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    assert!(t.has("p", DEAD));
    assert_eq!(t.state.encounter().current, Some("n".into()));
}

#[test]
fn a_dying_character_on_turn_is_offered_only_end_turn() {
    let mut t = Table::new(&[("grimwire.idle_turns", text_opt("wait"))]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "condition = -1"))
        .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
    assert!(t.has("p", DYING), "a sheet at -1 Condition starts dying");
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    let names: Vec<String> = crate::engine::actions(&Grimwire, &t.state, &player("p"))
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["end_turn"]);
    let r = refusal(t.act(
        player("p"),
        "p",
        "check",
        args(&[("attribute", text("AGL"))]),
        &[],
    ));
    assert_eq!(r.code(), "cannot_act");
}

#[test]
fn a_reaction_before_the_characters_turn_uses_this_rounds_action() {
    let kneecap = "[[techniques]]\nid = \"kneecap\"\nname = \"Kneecap\"\nfocus_cost = 2\ntiming = \"reaction\"\n";
    let mut t = Table::new(&[]);
    t.add(&pc("cyrus", &attrs(0, 0, 0, 0, 0, 0), kneecap))
        .add(&npc("thug", &attrs(0, 0, 0, 0, 5, 0), 10, 10, ""));
    // The thug goes first; Cyrus reacts during the thug's turn, before his own.
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    t.act(
        player("cyrus"),
        "cyrus",
        "technique",
        args(&[("technique", text("kneecap"))]),
        &[],
    )
    .unwrap();
    assert_eq!(
        (t.res("cyrus", ACTION_SPENT), t.res("cyrus", ACTION_OWED)),
        (1, 0)
    );
    t.act(Seat::Gm, "thug", "end_turn", Args::default(), &[])
        .unwrap();
    assert_eq!(
        refusal(t.act(player("cyrus"), "cyrus", "dash", Args::default(), &[])).code(),
        "none_left"
    );
    t.act(player("cyrus"), "cyrus", "end_turn", Args::default(), &[])
        .unwrap();
    // Next round his action is his again.
    assert_eq!(t.res("cyrus", ACTION_SPENT), 0);
    // And ending the encounter clears any debt: a reaction after acting, then the end.
    t.act(Seat::Gm, "thug", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(player("cyrus"), "cyrus", "dash", Args::default(), &[])
        .unwrap();
    t.act(
        player("cyrus"),
        "cyrus",
        "technique",
        args(&[("technique", text("kneecap"))]),
        &[],
    )
    .unwrap();
    assert_eq!(t.res("cyrus", ACTION_OWED), 1);
    t.gm("end_encounter", Args::default(), &[]).unwrap();
    assert_eq!(
        (t.res("cyrus", ACTION_SPENT), t.res("cyrus", ACTION_OWED)),
        (0, 0)
    );
}

#[test]
fn dead_characters_roll_nothing_and_tokens_are_placed_by_the_gm() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("q", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.gm(
        "damage",
        args(&[("target", text("p")), ("amount", ArgValue::Int(31))]),
        &[],
    )
    .unwrap();
    assert!(t.has("p", DEAD));
    let r = refusal(t.act(
        Seat::Gm,
        "p",
        "check",
        args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(5))]),
        &[],
    ));
    assert_eq!(r.code(), "cannot_act");
    let r = refusal(t.act(
        player("q"),
        "q",
        "move",
        args(&[("to", ArgValue::Cell(Cell::new(500, 500)))]),
        &[],
    ));
    assert!(r.to_string().contains("the GM places tokens"), "{r}");
}

#[test]
fn stabilising_without_a_named_medkit_owes_the_int_roll() {
    let mut t = Table::new(&[]);
    t.add(&pc("medic", &attrs(0, 0, 3, 1, 0, 0), "")).add(&pc(
        "hurt",
        &attrs(0, 0, 0, 0, 0, 0),
        "condition = -3",
    ));
    // TN 13: INT (MND 1) 12 + 1 = 13 passes, then COR 10 + 3 = 13 passes.
    let ev = t
        .act(
            player("medic"),
            "medic",
            "stabilise",
            args(&[("target", text("hurt"))]),
            &[12, 10],
        )
        .unwrap();
    let labels: Vec<String> = checks(&ev).into_iter().map(|c| c.label).collect();
    assert_eq!(labels, ["INT stabilise", "COR stabilise"]);
    assert_eq!(t.res("hurt", CONDITION), 1);
}

#[test]
fn sheets_with_absurd_maxima_are_refused_not_overflowed() {
    let sheet = pc("p", &attrs(0, 0, 0, 0, 0, 0), "burnout = 2");
    let huge = sheet.replace("condition_max = 20", "condition_max = 9223372036854775807");
    let err = Grimwire.sheet_from_toml(&huge).unwrap_err().to_string();
    assert_eq!(err, "`condition_max`: must be 1..=10000");
    let huge = sheet.replace("focus_max = 10", "focus_max = 9223372036854775807");
    assert!(
        Grimwire
            .sheet_from_toml(&huge)
            .unwrap_err()
            .to_string()
            .starts_with("`focus_max`")
    );
}

#[test]
fn players_see_that_an_npc_was_hit_but_not_its_numbers() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(2, 0, 3, 0, 0, 0), KNIFE)).add(&npc(
        "n",
        &attrs(0, 0, 4, 0, 0, 0),
        9,
        11,
        "armour = { value = 1 }",
    ));
    let ev = t
        .act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("n")), ("weapon", text("knife"))]),
            &[12, 3],
        )
        .unwrap();
    let seen: Vec<Fact> = ev
        .iter()
        .filter_map(|e| e.view(&player("p")))
        .flat_map(|e| e.parts)
        .map(|p| p.fact)
        .collect();
    assert!(
        seen.iter()
            .any(|f| matches!(f, Fact::Noted { text } if text == "n takes damage"))
    );
    assert!(
        !seen
            .iter()
            .any(|f| matches!(f, Fact::ResourceSet { .. } | Fact::DamageResolved { .. }))
    );
    // The GM sees the whole damage and not the stand-in: 3 + TOG 2 - armour 1 = 4.
    let gm: Vec<Fact> = ev
        .iter()
        .filter_map(|e| e.view(&Seat::Gm))
        .flat_map(|e| e.parts)
        .map(|p| p.fact)
        .collect();
    assert!(
        gm.iter()
            .any(|f| matches!(f, Fact::DamageResolved { amount: 4, .. }))
    );
    assert!(
        !gm.iter()
            .any(|f| matches!(f, Fact::Noted { text } if text == "n takes damage"))
    );
    // An NPC's own roll shows its dice to players, not its attribute.
    let ev = t
        .act(
            Seat::Gm,
            "n",
            "check",
            args(&[("attribute", text("COR")), ("tn", ArgValue::Int(5))]),
            &[7],
        )
        .unwrap();
    let seen: Vec<Fact> = ev
        .iter()
        .filter_map(|e| e.view(&player("p")))
        .flat_map(|e| e.parts)
        .map(|p| p.fact)
        .collect();
    assert!(
        seen.iter().all(|f| matches!(f, Fact::Rolled { .. })),
        "{seen:?}"
    );
}

#[test]
fn same_side_ties_are_asked_again_each_round() {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("b", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.gm("start_encounter", Args::default(), &[9, 9]).unwrap();
    t.answer(player("b"), "b", &[]).unwrap();
    assert_eq!(t.state.encounter().current, Some("b".into()));
    t.act(player("b"), "b", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(player("a"), "a", "end_turn", Args::default(), &[])
        .unwrap();
    // Round 2 has started, and the tied players are asked again before anyone acts.
    assert_eq!(t.state.encounter().round, 2);
    let step = t.state.encounter().pending.last().unwrap().clone();
    assert_eq!(step.options, ["b", "a"]);
    t.answer(player("a"), "a", &[]).unwrap();
    assert_eq!(t.state.encounter().current, Some("a".into()));
    // With ask_once, round 2 goes on in round 1's order without a prompt.
    let mut t = Table::new(&[("grimwire.same_side_ties", text_opt("ask_once"))]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("b", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.gm("start_encounter", Args::default(), &[9, 9]).unwrap();
    t.answer(player("b"), "b", &[]).unwrap();
    t.act(player("b"), "b", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(player("a"), "a", "end_turn", Args::default(), &[])
        .unwrap();
    assert!(t.state.encounter().pending.is_empty());
    assert_eq!(t.state.encounter().current, Some("b".into()));
}

#[test]
fn a_character_who_passes_acts_after_everyone_and_is_back_in_place_next_round() {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 9, 0), ""))
        .add(&pc("b", &attrs(0, 0, 0, 0, 5, 0), ""));
    t.add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 10, 10, ""));
    // Dice in id order: a 10 + 9, b 10 + 5, n 10: the order is a, b, n.
    t.gm("start_encounter", Args::default(), &[10, 10, 10])
        .unwrap();
    let turn = |t: &Table| t.state.encounter().current.clone().unwrap().0;
    t.act(player("a"), "a", "pass", Args::default(), &[])
        .unwrap();
    assert_eq!(turn(&t), "b");
    t.act(player("b"), "b", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(Seat::Gm, "n", "end_turn", Args::default(), &[])
        .unwrap();
    // Everyone has gone: now a's passed turn, still in round 1.
    assert_eq!((turn(&t), t.state.encounter().round), ("a".to_owned(), 1));
    t.act(player("a"), "a", "dash", Args::default(), &[])
        .unwrap();
    t.act(player("a"), "a", "end_turn", Args::default(), &[])
        .unwrap();
    assert_eq!((turn(&t), t.state.encounter().round), ("a".to_owned(), 2));
    // Passing comes before anything else; passing twice in a round gives the turn up.
    t.act(player("a"), "a", "dash", Args::default(), &[])
        .unwrap();
    assert_eq!(
        refusal(t.act(player("a"), "a", "pass", Args::default(), &[])).code(),
        "rule"
    );
    t.act(player("a"), "a", "end_turn", Args::default(), &[])
        .unwrap();
    t.act(player("b"), "b", "pass", Args::default(), &[])
        .unwrap();
    t.act(Seat::Gm, "n", "end_turn", Args::default(), &[])
        .unwrap();
    assert_eq!(turn(&t), "b");
    t.act(player("b"), "b", "pass", Args::default(), &[])
        .unwrap();
    assert_eq!((turn(&t), t.state.encounter().round), ("a".to_owned(), 3));
}

#[test]
fn an_npcs_attack_shows_players_the_damage_but_not_its_tog() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), "")).add(&npc(
        "brute",
        &attrs(7, 0, 0, 0, 0, 0),
        10,
        30,
        KNIFE,
    ));
    // Evade 5 against 30 fails; 1d4 = 2, + TOG 7 = 9.
    let ev = t
        .act(
            Seat::Gm,
            "brute",
            "attack",
            args(&[("target", text("p")), ("weapon", text("knife"))]),
            &[5, 2],
        )
        .unwrap();
    let seen: Vec<Fact> = ev
        .iter()
        .filter_map(|e| e.view(&player("p")))
        .flat_map(|e| e.parts)
        .map(|p| p.fact)
        .collect();
    let damage: Vec<&Fact> = seen
        .iter()
        .filter(|f| matches!(f, Fact::DamageResolved { .. }))
        .collect();
    assert!(
        matches!(damage.as_slice(), [Fact::DamageResolved { amount: 9, steps, .. }] if steps.is_empty()),
        "{damage:?}"
    );
    let gm: Vec<Fact> = ev
        .iter()
        .filter_map(|e| e.view(&Seat::Gm))
        .flat_map(|e| e.parts)
        .map(|p| p.fact)
        .collect();
    assert!(gm.iter().any(
        |f| matches!(f, Fact::DamageResolved { steps, .. } if steps.iter().any(|s| s.value == 7))
    ));
}

/// Everything `seat` is shown of `events`, as JSON text, for searching.
fn shown_to(events: &[Event], seat: &Seat) -> String {
    events
        .iter()
        .filter_map(|e| e.view(seat))
        .map(|e| serde_json::to_string(&e).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What each seat hears of a thing that is not all its business: a table, a command, and the
/// text that the seats in `told` must find in what they are shown (the events, or the refusal's
/// sentence) and the seats in `not_told` must not. A command with an actor is sent by each
/// seat in turn for its own character (`p` for player `p`), so every seat gets its refusal.
struct HiddenCase {
    what: &'static str,
    table: fn() -> Table,
    by_gm: bool,
    actor: bool,
    action: &'static str,
    args: Args,
    secret: &'static str,
    told: Vec<Seat>,
    not_told: Vec<Seat>,
}

fn check_hidden(cases: Vec<HiddenCase>) {
    for case in cases {
        let told = case.told.iter().map(|s| (s, true));
        for (seat, want) in told.chain(case.not_told.iter().map(|s| (s, false))) {
            let mut t = (case.table)();
            let asker = if case.by_gm { Seat::Gm } else { seat.clone() };
            let actor = match &asker {
                Seat::Player(id) | Seat::Spectator(id) if case.actor => Some(id.0.clone()),
                _ if case.actor => Some("p".to_owned()),
                _ => None,
            };
            let cmd = Command::act(asker, actor.as_deref(), case.action, case.args.clone());
            let shown = match t.run(cmd, &[]) {
                Ok(events) => shown_to(&events, seat),
                Err(DecideError::Refused(r)) => r.to_string(),
                Err(e) => panic!("{}: {e}", case.what),
            };
            assert_eq!(
                shown.contains(case.secret),
                want,
                "{}: {seat:?} is shown {shown}",
                case.what
            );
        }
    }
}

fn eve() -> Seat {
    Seat::Spectator("eve".into())
}

fn pc_and_npc() -> Table {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), "")).add(&npc(
        "n",
        &attrs(1, 0, 0, 0, 0, 0),
        9,
        9,
        "",
    ));
    t
}

/// Two goblins tie at 9: the GM alone breaks the tie.
fn npcs_tied() -> Table {
    let mut t = Table::new(&[]);
    t.add(&npc("n1", &attrs(0, 0, 0, 0, 0, 0), 9, 9, ""))
        .add(&npc("n2", &attrs(0, 0, 0, 0, 0, 0), 9, 9, ""))
        .add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.gm("start_encounter", Args::default(), &[9, 9, 3])
        .unwrap();
    t
}

/// Players a and c tie at 9: they are asked who goes first, b is not.
fn players_tied() -> Table {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("b", &attrs(0, 0, 0, 0, 0, 0), ""))
        .add(&pc("c", &attrs(0, 0, 0, 0, 0, 0), ""));
    t.gm("start_encounter", Args::default(), &[9, 3, 9])
        .unwrap();
    t
}

// See: issue #24 ("the GM's damage ruling on an NPC is public").
#[test]
fn a_gm_ruling_on_an_npc_reaches_only_the_gm() {
    let damage =
        |target: &str, amount| args(&[("target", text(target)), ("amount", ArgValue::Int(amount))]);
    check_hidden(vec![
        HiddenCase {
            what: "the GM's damage ruling on an NPC says the amount",
            table: pc_and_npc,
            by_gm: true,
            actor: false,
            action: "damage",
            args: damage("n", 5501),
            secret: "5501",
            told: vec![Seat::Gm],
            not_told: vec![player("p"), eve()],
        },
        HiddenCase {
            what: "the table hears that the GM ruled on the NPC",
            table: pc_and_npc,
            by_gm: true,
            actor: false,
            action: "damage",
            args: damage("n", 5501),
            secret: "the GM rules on n",
            told: vec![player("p"), eve()],
            not_told: vec![Seat::Gm],
        },
        HiddenCase {
            what: "a damage ruling on a PC is everyone's",
            table: pc_and_npc,
            by_gm: true,
            actor: false,
            action: "damage",
            args: damage("p", 3),
            secret: "GM deals 3 blunt damage to p",
            told: vec![Seat::Gm, player("p"), eve()],
            not_told: vec![],
        },
        HiddenCase {
            what: "the GM's resource ruling on an NPC says the value",
            table: pc_and_npc,
            by_gm: true,
            actor: false,
            action: "rule.set-resource",
            args: args(&[
                ("target", text("n")),
                ("resource", text("condition")),
                ("value", ArgValue::Int(7)),
                ("reason", text("SECRET-ruling")),
            ]),
            secret: "SECRET-ruling",
            told: vec![Seat::Gm],
            not_told: vec![player("p"), eve()],
        },
    ]);
}

// See: issue #24 ("refusals leak prompts").
#[test]
fn a_refusal_quotes_a_prompt_only_to_the_seats_it_asks() {
    check_hidden(vec![
        HiddenCase {
            what: "a refusal during the GM's tie-break",
            table: npcs_tied,
            by_gm: false,
            actor: true,
            action: "end_turn",
            args: Args::default(),
            secret: "Initiative tie between n1, n2",
            told: vec![Seat::Gm],
            not_told: vec![player("p")],
        },
        HiddenCase {
            what: "a refusal during the players' tie-break",
            table: players_tied,
            by_gm: false,
            actor: true,
            action: "end_turn",
            args: Args::default(),
            secret: "Initiative tie between a, c",
            told: vec![Seat::Gm, player("a"), player("c")],
            not_told: vec![player("b")],
        },
        HiddenCase {
            what: "the refused seat hears who has to decide",
            table: players_tied,
            by_gm: false,
            actor: true,
            action: "end_turn",
            args: Args::default(),
            secret: "a, c have a decision to make",
            told: vec![player("b")],
            not_told: vec![player("a"), Seat::Gm],
        },
    ]);
    // The prompt and its answer follow the same audiences in the events.
    let mut t = players_tied();
    let asked = t.state.encounter().pending.last().unwrap().clone();
    assert_eq!(
        crate::redact::prompt_seen_by(&asked, &player("b")).question,
        "a, c have a decision to make"
    );
    assert_eq!(crate::redact::prompt_seen_by(&asked, &player("a")), asked);
    let answered = t.answer(player("c"), "c", &[]).unwrap();
    for (seat, choice) in [
        (player("a"), "\"choice\":\"c\""),
        (player("b"), "\"choice\":\"\""),
        (eve(), "\"choice\":\"\""),
        (Seat::Gm, "\"choice\":\"c\""),
    ] {
        let shown = shown_to(&answered, &seat);
        assert!(shown.contains(choice), "{seat:?} is shown {shown}");
    }
}

// See: issue #19 ("rule.set-resource skips a system's consequences").
#[test]
fn rule_set_resource_follows_grimwires_consequences() {
    /// One ruling on a character who starts at full Condition with the given burnout, Focus and
    /// Condition, and what the character is afterwards.
    struct Case {
        what: &'static str,
        /// `p`, a PC with condition_max 20, or `n`, an NPC with condition_max 12.
        who: &'static str,
        start: (i64, i64, i64),
        resource: &'static str,
        value: i64,
        /// Condition, Focus, burnout.
        after: (i64, i64, i64),
        /// Dying, out cold, dead.
        statuses: (bool, bool, bool),
    }
    let cases = [
        Case {
            what: "burnout 2 caps Condition at 80% of 20",
            who: "p",
            start: (20, 10, 0),
            resource: BURNOUT,
            value: 2,
            after: (16, 10, 2),
            statuses: (false, false, false),
        },
        Case {
            what: "burnout 2 caps 80% of 12 rounded down",
            who: "n",
            start: (12, 0, 0),
            resource: BURNOUT,
            value: 2,
            after: (9, 0, 2),
            statuses: (false, false, false),
        },
        Case {
            what: "burnout 3 caps Condition at half, rounded down",
            who: "n",
            start: (12, 0, 1),
            resource: BURNOUT,
            value: 3,
            after: (6, 0, 3),
            statuses: (false, false, false),
        },
        Case {
            what: "a Condition under the cap stays",
            who: "p",
            start: (5, 10, 0),
            resource: BURNOUT,
            value: 3,
            after: (5, 10, 3),
            statuses: (false, false, false),
        },
        Case {
            what: "burnout 4 sets Condition to 0 and the character is dying",
            who: "p",
            start: (20, 10, 1),
            resource: BURNOUT,
            value: 4,
            after: (0, 10, 4),
            statuses: (true, true, false),
        },
        Case {
            what: "burnout going down gives no Condition back",
            who: "p",
            start: (10, 10, 3),
            resource: BURNOUT,
            value: 1,
            after: (10, 10, 1),
            statuses: (false, false, false),
        },
        Case {
            what: "Condition ruled to 0 is dying, out cold and a level of burnout",
            who: "p",
            start: (20, 10, 0),
            resource: CONDITION,
            value: 0,
            after: (0, 10, 1),
            statuses: (true, true, false),
        },
        Case {
            what: "that level can be the fourth",
            who: "n",
            start: (12, 0, 3),
            resource: CONDITION,
            value: -4,
            after: (-4, 0, 4),
            statuses: (true, true, false),
        },
        Case {
            what: "Condition ruled to -10 is alive",
            who: "p",
            start: (20, 10, 0),
            resource: CONDITION,
            value: -10,
            after: (-10, 10, 1),
            statuses: (true, true, false),
        },
        Case {
            what: "Condition ruled to -11 is dead",
            who: "p",
            start: (20, 10, 0),
            resource: CONDITION,
            value: -11,
            after: (-11, 10, 0),
            statuses: (false, false, true),
        },
        Case {
            what: "Condition ruled above the cap is the GM's temporary Condition",
            who: "p",
            start: (16, 10, 2),
            resource: CONDITION,
            value: 23,
            after: (23, 10, 2),
            statuses: (false, false, false),
        },
        Case {
            what: "Focus ruled below 0 is a level of burnout",
            who: "p",
            start: (20, 10, 1),
            resource: FOCUS,
            value: -3,
            after: (16, -3, 2),
            statuses: (false, false, false),
        },
        Case {
            what: "Focus ruled to 0 is not below it",
            who: "p",
            start: (20, 10, 1),
            resource: FOCUS,
            value: 0,
            after: (20, 0, 1),
            statuses: (false, false, false),
        },
        Case {
            what: "Focus already below 0 takes no further level",
            who: "p",
            start: (20, -3, 1),
            resource: FOCUS,
            value: -5,
            after: (20, -5, 1),
            statuses: (false, false, false),
        },
    ];
    for case in cases {
        let mut t = pc_and_npc();
        let (condition, focus, burnout) = case.start;
        t.set(case.who, CONDITION, condition);
        t.set(case.who, FOCUS, focus);
        t.set(case.who, BURNOUT, burnout);
        t.gm(
            "rule.set-resource",
            args(&[
                ("target", text(case.who)),
                ("resource", text(case.resource)),
                ("value", ArgValue::Int(case.value)),
            ]),
            &[],
        )
        .unwrap();
        let got = (
            t.res(case.who, CONDITION),
            t.res(case.who, FOCUS),
            t.res(case.who, BURNOUT),
        );
        assert_eq!(got, case.after, "{}", case.what);
        let statuses = (
            t.has(case.who, DYING),
            t.has(case.who, OUT_COLD),
            t.has(case.who, DEAD),
        );
        assert_eq!(statuses, case.statuses, "{}", case.what);
    }
}

/// `a`'s turn in an encounter of `a`, `b` (a knife and an action technique costing 20 Focus)
/// and the NPC `n`, with `b` beside `a` and `n` 30 m away.
fn a_to_act_n_far() -> Table {
    let surge =
        "[[techniques]]\nid = \"surge\"\nname = \"Surge\"\nfocus_cost = 20\ntiming = \"action\"\n";
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 0, 0), KNIFE))
        .add(&pc(
            "b",
            &attrs(0, 0, 0, 0, 0, 0),
            &format!("{KNIFE}{surge}"),
        ))
        .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 9, 9, KNIFE));
    t.place("a", 0, 0).place("b", 1, 0).place("n", 30, 0);
    t.gm("start_encounter", Args::default(), &[15, 2, 1])
        .unwrap();
    assert_eq!(t.state.encounter().current, Some("a".into()));
    t
}

/// A command and the refusal code it must get; `None` for the actor sends none.
struct RefusedCase {
    what: &'static str,
    table: fn() -> Table,
    seat: Seat,
    actor: Option<&'static str>,
    action: &'static str,
    args: Args,
    code: &'static str,
}

fn check_refused(cases: Vec<RefusedCase>) {
    for case in cases {
        let mut t = (case.table)();
        let cmd = Command::act(case.seat, case.actor, case.action, case.args);
        let r = refusal(t.run(cmd, &[]));
        assert_eq!(r.code(), case.code, "{}: {r}", case.what);
    }
}

// See: issue #19 ("out of turn against a distant target is refused as out_of_range").
#[test]
fn whose_turn_it_is_is_checked_before_range_and_resources() {
    let at_n = || args(&[("target", text("n"))]);
    let case = |what, actor, action, args, code| RefusedCase {
        what,
        table: a_to_act_n_far,
        seat: player(actor),
        actor: Some(actor),
        action,
        args,
        code,
    };
    check_refused(vec![
        case(
            "an out-of-turn attack on a target out of reach",
            "b",
            "attack",
            args(&[("target", text("n")), ("weapon", text("knife"))]),
            "not_your_turn",
        ),
        case(
            "an out-of-turn unarmed attack on a target out of reach",
            "b",
            "attack",
            at_n(),
            "not_your_turn",
        ),
        case(
            "an out-of-turn move too far",
            "b",
            "move",
            args(&[("to", ArgValue::Cell(Cell::new(60, 0)))]),
            "not_your_turn",
        ),
        case(
            "an out-of-turn stabilise of someone not dying",
            "b",
            "stabilise",
            args(&[("target", text("a"))]),
            "not_your_turn",
        ),
        case(
            "an out-of-turn action technique without the Focus",
            "b",
            "technique",
            args(&[("technique", text("surge"))]),
            "not_your_turn",
        ),
        case(
            "a player's own check out of turn",
            "b",
            "check",
            args(&[("attribute", text("AGL"))]),
            "not_your_turn",
        ),
        case(
            "on the actor's turn the range is what is wrong",
            "a",
            "attack",
            args(&[("target", text("n")), ("weapon", text("knife"))]),
            "out_of_range",
        ),
    ]);
}

/// `n`'s turn, and `n` is out cold.
fn n_to_act_out_cold() -> Table {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(0, 0, 0, 0, 0, 0), KNIFE)).add(&npc(
        "n",
        &attrs(0, 0, 0, 0, 0, 0),
        9,
        9,
        KNIFE,
    ));
    t.place("a", 0, 0).place("n", 1, 0);
    t.gm("start_encounter", Args::default(), &[2, 15]).unwrap();
    assert_eq!(t.state.encounter().current, Some("n".into()));
    t.gm(
        "rule.set-status",
        args(&[("target", text("n")), ("status", text(OUT_COLD))]),
        &[],
    )
    .unwrap();
    t
}

// See: issue #19 ("the GM on a knocked-out NPC's turn is told argument `actor` is required").
#[test]
fn the_gm_hears_that_a_knocked_out_npc_cannot_act() {
    let case = |what, actor, action, args| RefusedCase {
        what,
        table: n_to_act_out_cold,
        seat: Seat::Gm,
        actor,
        action,
        args,
        code: "cannot_act",
    };
    check_refused(vec![
        case(
            "an attack with no actor named is for the NPC whose turn it is",
            None,
            "attack",
            args(&[("target", text("a"))]),
        ),
        case("a dash with no actor named", None, "dash", Args::default()),
        case(
            "an attack for the NPC by name",
            Some("n"),
            "attack",
            args(&[("target", text("a")), ("weapon", text("knife"))]),
        ),
    ]);
    // Its turn still ends, with or without the NPC named.
    let mut t = n_to_act_out_cold();
    t.run(
        Command::act(Seat::Gm, None, "end_turn", Args::default()),
        &[],
    )
    .unwrap();
    assert_eq!(t.state.encounter().current, Some("a".into()));
    // With nobody's turn to fall back on, an actor is still required.
    let mut t = pc_and_npc();
    let r = refusal(t.run(Command::act(Seat::Gm, None, "dash", Args::default()), &[]));
    assert_eq!(r.to_string(), "argument `actor` is required: who acts?");
}

// See: issue #19 ("a player's `tn=` gets `no argument tn`").
#[test]
fn a_players_gm_only_argument_is_forbidden_not_unknown() {
    let mut t = pc_and_npc();
    // The catalogue tells a player that `tn` exists and is the GM's, so a client refuses it
    // for that reason, or sends it and the rules do.
    let catalogue = crate::engine::actions(&Grimwire, &t.state, &player("p"));
    let check = catalogue.iter().find(|s| s.name == "check").unwrap();
    let gm_only: Vec<&str> = check
        .args
        .iter()
        .filter(|a| a.gm_only)
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(gm_only, ["tn", "hidden", "modifier", "helpers"]);
    for (action, a) in [
        (
            "check",
            args(&[("attribute", text("AGL")), ("tn", ArgValue::Int(3))]),
        ),
        (
            "attack",
            args(&[("target", text("n")), ("tn", ArgValue::Int(3))]),
        ),
    ] {
        let r = refusal(t.act(player("p"), "p", action, a, &[]));
        assert_eq!(
            (r.code(), r.to_string().as_str()),
            ("forbidden", "`tn` is the GM's to give"),
            "{action}"
        );
    }
}

/// The accounts (`told` facts) of `events` as `seat` holds them.
fn told(events: &[Event], seat: &Seat) -> Vec<crate::account::Account> {
    events
        .iter()
        .filter_map(|e| e.view(seat))
        .flat_map(|e| e.parts)
        .filter_map(|p| match p.fact {
            Fact::Told(a) => Some(*a),
            _ => None,
        })
        .collect()
}

/// What one seat reads of an attack's roll: (verb, instrument, roll label, total, what it was
/// compared with, result).
type RollRead = (
    &'static str,
    Option<&'static str>,
    &'static str,
    Option<i64>,
    Option<i64>,
    &'static str,
);
/// And of its damage: (amount, number of steps, Condition before, after, wound).
type DamageRead = (Option<i64>, usize, Option<i64>, Option<i64>, &'static str);

// See: issue #9. Each attack is told as one sentence per event, in GRIMWIRE's words, and each
// seat's copy carries exactly the numbers it may see.
//
// The goblin (attack TN 12) shoots p (AGL 2, armour 1) with a pistol: evade 8 + 2 = 10 < 12,
// hit; 2d4 = 2 + 1 = 3, a pistol adds no TOG, armour 1: 3 - 1 = 2; Condition 20 -> 18.
// p stabs the goblin (defence TN 12) with a knife: 12 + COR 3 = 15 >= 12, hit; 1d4 = 3 + TOG 1
// = 4, no armour: 4; Condition 12 -> 8, above half of 12: hurt.
#[test]
fn attacks_are_told_with_the_numbers_each_seat_may_see() {
    let mut t = Table::new(&[]);
    t.add(&pc(
        "p",
        &attrs(1, 2, 3, 0, 0, 0),
        &format!("armour = {{ value = 1 }}\n{KNIFE}"),
    ))
    .add(&npc("gob", &attrs(0, 0, 0, 0, 0, 0), 12, 12, PISTOL));
    let shot = t
        .act(
            Seat::Gm,
            "gob",
            "attack",
            args(&[("target", text("p")), ("weapon", text("pistol"))]),
            &[8, 2, 1],
        )
        .unwrap();
    let stab = t
        .act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("gob")), ("weapon", text("knife"))]),
            &[12, 3],
        )
        .unwrap();
    let cases: [(&str, &[Event], Seat, RollRead, DamageRead); 4] = [
        (
            "the goblin's shot, as p reads it",
            &shot,
            player("p"),
            ("shoots", None, "AGL evade", Some(10), None, "hit"),
            (Some(2), 0, Some(20), Some(18), "hurt"),
        ),
        (
            "the goblin's shot, as the GM reads it",
            &shot,
            Seat::Gm,
            (
                "shoots",
                Some("Pistol"),
                "AGL evade",
                Some(10),
                Some(12),
                "hit",
            ),
            (Some(2), 2, Some(20), Some(18), "hurt"),
        ),
        (
            "p's stab, as p reads it",
            &stab,
            player("p"),
            (
                "attacks",
                Some("Knife"),
                "COR attack",
                Some(15),
                None,
                "hit",
            ),
            (None, 0, None, None, "hurt"),
        ),
        (
            "p's stab, as the GM reads it",
            &stab,
            Seat::Gm,
            (
                "attacks",
                Some("Knife"),
                "COR attack",
                Some(15),
                Some(12),
                "hit",
            ),
            (Some(4), 2, Some(12), Some(8), "hurt"),
        ),
    ];
    for (what, events, seat, roll_read, damage_read) in cases {
        let accounts = told(events, &seat);
        assert_eq!(accounts.len(), 2, "{what}: {accounts:?}");
        let (roll, damage) = (&accounts[0], &accounts[1]);
        let r = roll.roll.as_ref().unwrap();
        assert_eq!(
            (
                roll.verb.as_str(),
                roll.instrument.as_deref(),
                r.label.as_str(),
                r.total,
                r.against.as_ref().and_then(|a| a.value),
                r.result.as_str(),
            ),
            roll_read,
            "{what}"
        );
        assert_eq!(r.against.as_ref().map(|a| a.name.as_str()), Some("TN"));
        let e = &damage.effects[0];
        assert_eq!(
            (
                e.amount,
                e.steps.len(),
                e.before,
                e.after,
                e.wound.as_deref().unwrap_or("")
            ),
            damage_read,
            "{what}"
        );
        assert_eq!(
            (damage.actor.as_ref(), damage.target.as_ref()),
            (roll.actor.as_ref(), roll.target.as_ref()),
            "{what}: the damage is told as the same attack"
        );
    }
    assert_eq!(t.res("p", CONDITION), 18);
    assert_eq!(t.res("gob", CONDITION), 8);
}

/// GRIMWIRE's wound levels, from the numbers of a combatant with Condition `max` 12.
#[test]
fn wound_levels_follow_condition_and_the_dying_and_dead() {
    let c = Grimwire
        .sheet_from_toml(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 10, 10, ""))
        .unwrap();
    for (condition, want) in [
        (12, "unhurt"),
        (11, "hurt"),
        (7, "hurt"),
        (6, "bloodied"),
        (1, "bloodied"),
        (0, "down"),
        (-3, "down"),
    ] {
        assert_eq!(super::tell::wound(&c, condition, 12), want, "{condition}");
    }
    let status = crate::state::Status {
        source: "test".into(),
        magnitude: 0,
        rounds_left: None,
    };
    let mut dying = c.clone();
    dying.statuses.insert(DYING.into(), status.clone());
    assert_eq!(super::tell::wound(&dying, -3, 12), "dying");
    let mut dead = c;
    dead.statuses.insert(DEAD.into(), status);
    assert_eq!(super::tell::wound(&dead, -11, 12), "dead");
}

// See: issue #9 (the grid model). The GM marks cells; GRIMWIRE's only cover is `cover`, and a
// seat other than the GM may not rule. (what, arguments, the refusal's code or the cell's
// terrain after it, as `difficult,blocking,cover`.)
#[test]
fn the_gm_sets_a_cells_terrain_in_the_systems_words() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 0, 0), ""));
    let cell = |x, y| ArgValue::Cell(Cell::new(x, y));
    let flag = ArgValue::Flag(true);
    type Case = (&'static str, Vec<(&'static str, ArgValue)>, &'static str);
    let cases: [Case; 6] = [
        (
            "rubble",
            vec![("cell", cell(2, -1)), ("difficult", flag.clone())],
            "true,false,-",
        ),
        (
            "a wall that shelters",
            vec![
                ("cell", cell(2, -1)),
                ("blocking", flag.clone()),
                ("cover", text("Cover")),
            ],
            "false,true,cover",
        ),
        (
            "a cover this system does not name",
            vec![("cell", cell(2, -1)), ("cover", text("half"))],
            "bad_request",
        ),
        ("no cell", vec![("difficult", flag.clone())], "bad_request"),
        (
            "a cell out of the grid's numbers",
            vec![("cell", text("north"))],
            "bad_request",
        ),
        ("open ground again", vec![("cell", cell(2, -1))], "open"),
    ];
    for (what, given, want) in cases {
        let got = match t.gm("rule.terrain", args(&given), &[]) {
            Err(DecideError::Refused(r)) => r.code().to_owned(),
            Err(e) => panic!("{what}: {e}"),
            Ok(_) => match t.state.encounter().terrain.get(&Cell::new(2, -1)) {
                None => "open".to_owned(),
                Some(tr) => format!(
                    "{},{},{}",
                    tr.difficult,
                    tr.blocking,
                    tr.cover.as_deref().unwrap_or("-")
                ),
            },
        };
        assert_eq!(got, want, "{what}");
    }
    // Setting what is already there logs nothing; a player may not rule.
    t.gm("rule.terrain", args(&[("cell", cell(0, 0))]), &[])
        .map(|e| assert!(e.is_empty(), "{e:?}"))
        .unwrap();
    let by_player = t.run(
        Command::act(
            player("p"),
            None,
            "rule.terrain",
            args(&[("cell", cell(1, 1)), ("difficult", flag)]),
        ),
        &[],
    );
    assert!(matches!(by_player, Err(DecideError::Refused(r)) if r.code() == "forbidden"));
    assert!(t.state.encounter().terrain.is_empty());
}

/// `(label, value)` of each entry of the first budget in `a`.
fn budget_of(a: &crate::account::Account) -> Vec<(String, i64)> {
    a.budget
        .first()
        .map(|b| b.left.iter().map(|m| (m.label.clone(), m.value)).collect())
        .unwrap_or_default()
}

// See: issue #9. What a turn has left is told after each roll; a roll outside an attack is the
// roller's own; damage nobody dealt names whom it befell, and damage from a stray attack names
// its source.
//
// p (TOG 1, AGL 2, COR 3, PER 5) wins initiative 10 + 5 = 15 over the thug's 2 and walks 3 of
// its 6 + AGL 2 = 8 m. An open PER check (11 + 5 = 16) spends the free auxiliary action and
// leaves 5 m; the knife (13 + 3 = 16 against the thug's 12) spends the action and, coming after
// a move, ends the movement. The GM then deals 5 blunt to p: armour 1 takes 1, 20 -> 16.
#[test]
fn a_turn_tells_what_is_left_and_damage_names_its_source() {
    let mut t = Table::new(&[]);
    t.add(&pc(
        "p",
        &attrs(1, 2, 3, 0, 5, 0),
        &format!("armour = {{ value = 1 }}\n{KNIFE}"),
    ));
    t.add(&npc("thug", &attrs(0, 0, 0, 0, 0, 0), 12, 12, ""));
    t.place("p", 0, 0).place("thug", 4, 0);
    t.gm("start_encounter", Args::default(), &[10, 2]).unwrap();
    t.act(
        player("p"),
        "p",
        "move",
        args(&[("to", ArgValue::Cell(Cell::new(3, 0)))]),
        &[],
    )
    .unwrap();
    let looked = t
        .act(
            player("p"),
            "p",
            "check",
            args(&[("attribute", text("PER"))]),
            &[11],
        )
        .unwrap();
    let looked = told(&looked, &player("p"));
    let r = looked[0].roll.as_ref().unwrap();
    assert_eq!(
        (
            looked[0].actor.as_ref().map(|a| a.as_str()),
            looked[0].verb.as_str(),
            looked[0].target.as_ref(),
            r.label.as_str(),
            r.total,
            r.result.as_str()
        ),
        (Some("p"), "rolls", None, "PER check", Some(16), "")
    );
    let left = |a: i64, aux: i64, m: i64| {
        vec![
            ("action".to_owned(), a),
            ("auxiliary".to_owned(), aux),
            ("m of movement".to_owned(), m),
        ]
    };
    assert_eq!(budget_of(&looked[0]), left(1, 0, 5));
    let stab = t
        .act(
            player("p"),
            "p",
            "attack",
            args(&[("target", text("thug")), ("weapon", text("knife"))]),
            &[13, 2],
        )
        .unwrap();
    assert_eq!(budget_of(&told(&stab, &player("p"))[0]), left(0, 0, 0));
    assert_eq!(budget_of(&told(&stab, &Seat::Gm)[0]), left(0, 0, 0));
    // A GM-given TN: the check succeeds or fails in those words (PER 4 + 5 = 9 against 10).
    let called = t
        .act(
            Seat::Gm,
            "p",
            "check",
            args(&[("attribute", text("PER")), ("tn", ArgValue::Int(10))]),
            &[4],
        )
        .unwrap();
    let called = told(&called, &Seat::Gm);
    let r = called[0].roll.as_ref().unwrap();
    assert_eq!((r.total, r.result.as_str()), (Some(9), "failure"));
    let called = t
        .act(
            Seat::Gm,
            "p",
            "check",
            args(&[("attribute", text("PER")), ("tn", ArgValue::Int(10))]),
            &[6],
        )
        .unwrap();
    let r = told(&called, &Seat::Gm)[0].roll.clone().unwrap();
    assert_eq!((r.total, r.result.as_str()), (Some(11), "success"));

    let ruled = t
        .gm(
            "damage",
            args(&[("target", text("p")), ("amount", ArgValue::Int(5))]),
            &[],
        )
        .unwrap();
    let ruled = told(&ruled, &player("p"));
    assert_eq!(
        (ruled[0].actor.as_ref(), ruled[0].verb.as_str()),
        (None, "")
    );
    let e = &ruled[0].effects[0];
    assert_eq!(
        (e.entity.as_str(), e.amount, e.before, e.after),
        ("p", Some(4), Some(20), Some(16))
    );
    assert_eq!(ruled[0].target.as_ref().map(|t| t.as_str()), Some("p"));
}

// The stray attack of E3, where pc2 fails to avoid it: natural 2 + AGL 1 = 3 against 9; pc1's
// knife 3 + TOG 1 = 4, Condition 20 -> 16. Resumed from a prompt, it is told as pc1 hurting pc2.
#[test]
fn a_stray_attack_is_told_as_its_source_hurting_the_one_it_found() {
    let mut t = Table::new(&[
        ("grimwire.collateral", text_opt("always")),
        ("grimwire.collateral_pool", text_opt("without_target")),
    ]);
    t.add(&pc("pc1", &attrs(1, 0, 2, 0, 0, 0), KNIFE)).add(&pc(
        "pc2",
        &attrs(0, 1, 0, 0, 0, 0),
        "",
    ));
    t.add(&npc("enemy", &attrs(0, 0, 0, 0, 0, 0), 12, 12, ""));
    t.place("pc1", 0, 0).place("enemy", 1, 0).place("pc2", 2, 0);
    let a = args(&[("target", text("enemy")), ("weapon", text("knife"))]);
    t.act(player("pc1"), "pc1", "attack", a, &[1]).unwrap();
    let ev = t.answer(player("pc1"), "spare", &[2, 3]).unwrap();
    let accounts = told(&ev, &player("pc2"));
    let hurt = accounts
        .iter()
        .find(|a| !a.effects.is_empty())
        .expect("the damage is told");
    assert_eq!(
        (
            hurt.actor.as_ref().map(|a| a.as_str()),
            hurt.verb.as_str(),
            hurt.target.as_ref().map(|t| t.as_str())
        ),
        (Some("pc1"), "hurts", Some("pc2"))
    );
    let e = &hurt.effects[0];
    assert_eq!((e.amount, e.before, e.after), (Some(4), Some(20), Some(16)));
    assert_eq!(t.res("pc2", CONDITION), 16);
}

// PC against PC (E-style, the calculator's pc-vs-pc): COR attack 10 + 3 = 13 against the
// defender's AGL evade 11 + 2 = 13; a tie hits for half. The account compares the attack with
// the defender's roll, by name, and must beat it.
#[test]
fn an_opposed_attack_is_told_against_the_defenders_roll() {
    let mut t = Table::new(&[]);
    t.add(&pc("a", &attrs(2, 0, 3, 0, 0, 0), KNIFE))
        .add(&pc("b", &attrs(0, 2, 0, 0, 0, 0), ""));
    let ev = t
        .act(
            player("a"),
            "a",
            "attack",
            args(&[("target", text("b")), ("weapon", text("knife"))]),
            &[10, 11, 4],
        )
        .unwrap();
    let accounts = told(&ev, &player("b"));
    let r = accounts[0].roll.as_ref().unwrap();
    let against = r.against.as_ref().unwrap();
    assert_eq!(
        (
            r.label.as_str(),
            r.total,
            against.name.as_str(),
            against.value,
            against.exceed,
            r.result.as_str()
        ),
        (
            "COR attack",
            Some(13),
            "b's AGL evade",
            Some(13),
            true,
            "hit"
        )
    );
}

/// (entity, what, amount, before, after) of one effect.
type EffectRead = (String, String, Option<i64>, Option<i64>, Option<i64>);

/// Each effect of `a`, read.
fn effects_of(a: &crate::account::Account) -> Vec<EffectRead> {
    a.effects
        .iter()
        .map(|e| {
            (
                e.entity.to_string(),
                e.what.clone(),
                e.amount,
                e.before,
                e.after,
            )
        })
        .collect()
}

// See: issue #9. What moves a resource without damage is told too: a technique's Focus, a long
// rest (E8's mage at Condition 10 of 20 and Focus -5 of 15, burnout 1: +10 Condition, +15
// Focus capped at 15 gives 10, burnout -1), and a level of burnout, which a player reads of a
// PC but never of an NPC (the goblin, dropped from 12 to -3 by a GM's 15, is dying for the
// table, and only the GM reads its burnout).
#[test]
fn resource_changes_are_told_and_an_npcs_stay_the_gms() {
    let overclock = "[[techniques]]\nid = \"overclock\"\nname = \"Overclock\"\nfocus_cost = 4\ntiming = \"free\"\n";
    let mut t = Table::new(&[]);
    t.add(
        &pc("mage", &attrs(0, 0, 0, 0, 0, 0), overclock)
            .replace("focus_max = 10", "focus_max = 15"),
    );
    t.add(&npc("gob", &attrs(0, 0, 0, 0, 0, 0), 10, 10, ""));
    let used = t
        .act(
            player("mage"),
            "mage",
            "technique",
            args(&[("technique", text("overclock"))]),
            &[],
        )
        .unwrap();
    let used = told(&used, &player("mage"));
    assert_eq!(
        (
            used[0].actor.as_ref().map(|a| a.as_str()),
            used[0].verb.as_str()
        ),
        (Some("mage"), "uses Overclock")
    );
    assert_eq!(
        effects_of(&used[0]),
        [("mage".into(), "Focus".into(), Some(-4), Some(15), Some(11))]
    );
    t.set("mage", CONDITION, 10);
    t.set("mage", FOCUS, -5);
    t.set("mage", BURNOUT, 1);
    let rested = t
        .gm(
            "rest",
            args(&[("target", text("mage")), ("kind", text("long"))]),
            &[],
        )
        .unwrap();
    let rested = told(&rested, &player("mage"));
    assert_eq!(rested[0].verb, "takes a long rest");
    assert_eq!(
        effects_of(&rested[0]),
        [
            ("mage".into(), "burnout".into(), Some(-1), Some(1), Some(0)),
            (
                "mage".into(),
                "Condition".into(),
                Some(10),
                Some(10),
                Some(20)
            ),
            ("mage".into(), "Focus".into(), Some(15), Some(-5), Some(10)),
        ]
    );
    let felled = t
        .gm(
            "damage",
            args(&[("target", text("gob")), ("amount", ArgValue::Int(15))]),
            &[],
        )
        .unwrap();
    let burnout = |a: &crate::account::Account| a.effects.iter().any(|e| e.what == "burnout");
    let seen = told(&felled, &player("mage"));
    assert!(!seen.iter().any(burnout), "{seen:?}");
    assert_eq!(
        seen.iter()
            .flat_map(|a| a.effects.iter().filter_map(|e| e.wound.clone()))
            .collect::<Vec<_>>(),
        ["down"]
    );
    let gm = told(&felled, &Seat::Gm);
    assert_eq!(
        gm.iter()
            .filter(|a| burnout(a))
            .map(effects_of)
            .collect::<Vec<_>>(),
        [[(
            "gob".to_owned(),
            "burnout".to_owned(),
            Some(1),
            Some(0),
            Some(1)
        )]]
    );
}

// See: issue #11 ("a dying character's player must still type end_turn"). A turn its character
// cannot use passes by itself unless the table says to wait, and the dying still lose their 1
// Condition, at the turn's start or end as the table chose. p (PER 5, at -1 Condition) wins
// initiative 10 + 5 = 15 over n's 1 + 0. (idle_turns, dying_tick, whose turn it is after the
// start, p's Condition.)
#[test]
fn a_turn_nobody_can_use_passes_by_itself_unless_the_table_waits() {
    for (idle, tick, current, condition) in [
        ("pass", "turn_start", "n", -2),
        ("pass", "turn_end", "n", -2),
        ("wait", "turn_start", "p", -2),
        ("wait", "turn_end", "p", -1),
    ] {
        let mut t = Table::new(&[
            ("grimwire.idle_turns", text_opt(idle)),
            ("grimwire.dying_tick", text_opt(tick)),
        ]);
        t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "condition = -1"))
            .add(&npc("n", &attrs(0, 0, 0, 0, 0, 0), 5, 10, ""));
        let ev = t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
        let case = format!("{idle}, {tick}");
        assert_eq!(
            t.state.encounter().current,
            Some(EntityId::from(current)),
            "{case}"
        );
        assert_eq!(t.res("p", CONDITION), condition, "{case}");
        let said = ev.iter().flat_map(Event::facts).any(
            |f| matches!(f, Fact::Noted { text } if text == "p is dying and cannot act: the turn passes"),
        );
        assert_eq!(said, idle == "pass", "{case}");
    }
    // With nobody able to act, the turn waits: no round passes by itself.
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 0, 0, 5, 0), "condition = -1"))
        .add(&pc("q", &attrs(0, 0, 0, 0, 0, 0), "condition = -1"));
    t.gm("start_encounter", Args::default(), &[10, 1]).unwrap();
    assert_eq!(t.state.encounter().current, Some(EntityId::from("p")));
    assert_eq!(t.state.encounter().round, 1);
    assert_eq!((t.res("p", CONDITION), t.res("q", CONDITION)), (-2, -1));
}

/// Found in the newcomer's fight: the GM was asked every round to order a tie between a
/// goblin bleeding out and the warden. Those who cannot act choose nothing.
#[test]
fn a_tie_is_asked_only_among_those_who_can_act() {
    // (who is out cold when round 2 starts) -> the options of the round's tie prompt
    let cases: [(&[&str], Option<&[&str]>); 3] = [
        (&[], Some(&["a", "b", "c"])),
        (&["c"], Some(&["a", "b"])),
        (&["b", "c"], None),
    ];
    for (down, want) in cases {
        let mut t = Table::new(&[]);
        for id in ["a", "b", "c"] {
            t.add(&pc(id, &attrs(0, 0, 0, 0, 0, 0), ""));
        }
        t.gm("start_encounter", Args::default(), &[9, 9, 9])
            .unwrap();
        // Round 1's tie: the default order a, b, c (the GM lets it stand).
        let id = t.state.encounter().pending.last().unwrap().prompt_id;
        t.run(Command::answer(Seat::Gm, id, "a"), &[]).unwrap();
        t.answer(Seat::Gm, "b", &[]).unwrap();
        for id in down {
            let ruling = Args::default()
                .with("target", ArgValue::Text((*id).into()))
                .with("status", ArgValue::Text(OUT_COLD.into()));
            t.gm("rule.set-status", ruling, &[]).unwrap();
        }
        // Each turn of round 1 ends (one out cold passes by itself), until round 2 asks.
        for id in ["a", "b", "c"] {
            let enc = t.state.encounter();
            if enc.pending.is_empty() && enc.current == Some(id.into()) {
                t.act(Seat::Gm, id, "end_turn", Args::default(), &[])
                    .unwrap();
            }
        }
        assert_eq!(t.state.encounter().round, 2, "{down:?}");
        let asked = t
            .state
            .encounter()
            .pending
            .last()
            .map(|p| p.options.clone());
        let want = want.map(|w| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(asked, want, "{down:?}");
    }
}

/// The house rule `grimwire.end_spent_turns`: a turn ends by itself once its action is spent
/// and neither an attack nor any movement is left in it. Cases: (house rule on, COR, weapon,
/// on the grid, attacks made, whose turn it is after them). A knife at COR 3 attacks twice
/// (`light_attacks`), at COR 1 once; the hammer, a heavy weapon, once; a token on the grid
/// still has its metres.
#[test]
fn under_the_house_rule_a_spent_turn_ends_by_itself() {
    let cases = [
        (true, 3, "knife", false, 1, "a"),
        (true, 3, "knife", false, 2, "n"),
        (true, 1, "knife", false, 1, "n"),
        (true, 3, "hammer", false, 1, "n"),
        (true, 1, "knife", true, 1, "a"),
        (false, 1, "knife", false, 1, "a"),
    ];
    for (on, cor, weapon, placed, attacks, after) in cases {
        let mut t = Table::new(&[(END_SPENT_TURNS, OptionValue::Bool(on))]);
        t.add(&pc(
            "a",
            &attrs(3, 0, cor, 0, 5, 0),
            &format!("{KNIFE}{HAMMER}"),
        ))
        .add(&npc("n", &attrs(1, 0, 0, 0, 0, 0), 5, 30, ""));
        if placed {
            t.place("a", 0, 0).place("n", 1, 0);
        }
        t.gm("start_encounter", Args::default(), &[10, 1]).unwrap();
        assert_eq!(t.state.encounter().current, Some(EntityId::from("a")));
        let hit = Args::default()
            .with("target", text("n"))
            .with("weapon", text(weapon));
        // d20 15 hits TN 5; the knife's d4 2, the hammer's 2d6 1 and 1.
        let damage: &[u32] = if weapon == "knife" { &[2] } else { &[1, 1] };
        let mut told = Vec::new();
        for _ in 0..attacks {
            let faces = [&[15][..], damage].concat();
            let events = t
                .act(player("a"), "a", "attack", hit.clone(), &faces)
                .unwrap();
            told.extend(
                events
                    .into_iter()
                    .flat_map(|e| e.parts)
                    .filter_map(|p| match p.fact {
                        Fact::Noted { text } if text.contains(END_SPENT_TURNS) => Some(text),
                        _ => None,
                    }),
            );
        }
        let case = format!("house rule {on}, COR {cor}, {weapon}, placed {placed}, {attacks}");
        assert_eq!(
            t.state.encounter().current,
            Some(EntityId::from(after)),
            "{case}"
        );
        let ended = after == "n";
        assert_eq!(
            told,
            if ended {
                vec![
                    "a has spent the action and cannot move: the turn ends by itself (house \
                     rule grimwire.end_spent_turns)"
                        .to_owned(),
                ]
            } else {
                vec![]
            },
            "{case}"
        );
    }
}

/// The GM who leaves the actor out in a player's turn means one of the GM's own characters:
/// the player's is not taken for it, and the refusal says whose turn it is and how to act for
/// that character. In an NPC's turn the NPC is meant.
#[test]
fn the_gm_names_the_players_character_to_act_for_it() {
    let mut t = Table::new(&[]);
    t.add(&pc("p", &attrs(0, 0, 3, 0, 5, 0), KNIFE)).add(&npc(
        "n",
        &attrs(1, 0, 0, 0, 0, 0),
        5,
        30,
        "",
    ));
    // Initiative in id order: n draws 1, p draws 10 (+ PER 5).
    t.gm("start_encounter", Args::default(), &[1, 10]).unwrap();
    assert_eq!(t.state.encounter().current, Some(EntityId::from("p")));
    let attack = Args::default().with("target", text("p"));
    let refused = t.run(Command::act(Seat::Gm, None, "attack", attack.clone()), &[]);
    assert_eq!(
        refused,
        Err(DecideError::Refused(Refusal::bad_argument(
            "actor",
            "is required: it is p's turn, a player's character; an NPC acts on its own turn, \
             and the GM acts for p only by naming it (--actor p)"
        )))
    );
    // Named, the GM acts for the player's character.
    let knife = Args::default()
        .with("target", text("n"))
        .with("weapon", text("knife"));
    t.act(Seat::Gm, "p", "attack", knife, &[15, 2]).unwrap();
    // In the NPC's turn, no actor means the NPC.
    t.act(Seat::Gm, "p", "end_turn", Args::default(), &[])
        .unwrap();
    assert_eq!(t.state.encounter().current, Some(EntityId::from("n")));
    let events = t
        .run(
            Command::act(Seat::Gm, None, "end_turn", Args::default()),
            &[],
        )
        .unwrap();
    assert!(!events.is_empty());
    assert_eq!(t.state.encounter().current, Some(EntityId::from("p")));
}
