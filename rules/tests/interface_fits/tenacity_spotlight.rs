//! 10acity: the spotlight, and the narrator's challenge dice. Whoever holds the spotlight acts
//! and hands it on: to someone who has not had it this round, or back to the one they acted
//! against, who may answer at once. A contest is a hero's roll against a pool of the narrator's
//! dice that belongs to no combatant; its margin is the contest's size.

use super::*;
use tablehold_rules::toolkit::turns;

pub(crate) const HAND_ON: &str = "hand_on";
pub(crate) const CONTEST: &str = "contest";
/// The narrator's challenge dice for a contest.
pub(crate) const CHALLENGE_DICE: &str = "2d6";

/// What the spotlight's holder may do: contest someone, and hand the spotlight on.
pub(crate) fn spotlight_specs(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let enc = state.encounter();
    if enc.turns.shape != turns::TurnShape::Spotlight {
        return Vec::new();
    }
    let now = turns::may_act(enc);
    controlled(state, seat)
        .iter()
        .filter(|c| now.contains(&c.id))
        .flat_map(|c| {
            [
                spec(
                    CONTEST,
                    Some(&c.id),
                    "Roll 1d10 + the skill against the narrator's 2d6; the margin is the result.",
                    vec![
                        arg("against", ArgKind::Entity, "whom it is aimed at", vec![]),
                        arg(
                            "skill",
                            ArgKind::Text,
                            "which skill",
                            vec!["investigation".into()],
                        ),
                    ],
                ),
                spec(
                    HAND_ON,
                    Some(&c.id),
                    "Hand the spotlight on.",
                    vec![ArgSpec {
                        now: open_to(state, &c.id),
                        ..arg("to", ArgKind::Entity, "who takes the spotlight", vec![])
                    }],
                ),
            ]
        })
        .collect()
}

/// Who `from` may hand the spotlight to now: anyone else who has not had it this round, and
/// the one `from` last acted against; when all the others have had it, the round is over and
/// anyone else may start the next.
pub(crate) fn open_to(state: &dyn StateView, from: &EntityId) -> Vec<String> {
    let enc = state.encounter();
    let answering = last_against(state, from);
    let others: Vec<EntityId> = state
        .combatant_ids()
        .into_iter()
        .filter(|id| id != from)
        .collect();
    let round_over = others.iter().all(|id| enc.turns.acted.contains(id));
    others
        .into_iter()
        .filter(|id| round_over || !enc.turns.acted.contains(id) || Some(id) == answering.as_ref())
        .map(|id| id.0)
        .collect()
}

/// The one `from` acted against since taking the spotlight, kept as an encounter value (the
/// index of its id among the table's, plus one) so that it is part of the state.
fn last_against(state: &dyn StateView, from: &EntityId) -> Option<EntityId> {
    let at = *state.encounter().values.get(&against_key(from))?;
    let at = usize::try_from(at).ok()?.checked_sub(1)?;
    state.combatant_ids().into_iter().nth(at)
}

fn against_key(from: &EntityId) -> String {
    format!("against:{from}")
}

/// A contest: 1d10 + rank against the narrator's challenge dice, which belong to no one.
pub(crate) fn contest(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    actor: Option<&EntityId>,
    args: &Args,
) -> Result<(), DecideError> {
    let hero = acting(ctx, seat, actor)?;
    turns::check_turn(&ctx.state, &hero.id)?;
    let against = ctx.combatant(&args.require_entity("against")?)?;
    let skill = args.require_text("skill")?;
    let rank = hero.sheet.generic_stat(skill);
    let die = roll(&expr("1d10"), ctx.dice)?;
    let pool = roll(&expr(CHALLENGE_DICE), ctx.dice)?;
    ctx.emit(Event::public(Fact::Rolled {
        by: None,
        purpose: "challenge dice".into(),
        roll: pool.clone(),
    }))?;
    let record = checked(
        &hero.id,
        skill,
        die,
        vec![Modifier::new(skill, rank)],
        Against::Pool {
            name: "challenge dice".into(),
            total: pool.total,
        },
    );
    ctx.emit(Event::public(Fact::Checked(record)))?;
    let index = ctx
        .state
        .combatant_ids()
        .iter()
        .position(|id| *id == against.id)
        .and_then(|i| i64::try_from(i + 1).ok())
        .unwrap_or(0);
    ctx.set_encounter_value(&against_key(&hero.id), index)
}

/// Hands the spotlight on, within the rule; a round ends when nobody is left to take it.
pub(crate) fn hand_on(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    actor: Option<&EntityId>,
    args: &Args,
) -> Result<(), DecideError> {
    let holder = acting(ctx, seat, actor)?;
    turns::check_turn(&ctx.state, &holder.id)?;
    let to = ctx.combatant(&args.require_entity("to")?)?;
    let allowed = open_to(&ctx.state, &holder.id);
    if !allowed.contains(&to.id.0) {
        let why = if to.id == holder.id {
            "you cannot keep it".to_owned()
        } else {
            format!("{} has had it this round and was not acted against", to.id)
        };
        return Err(Refusal::Rule(format!(
            "the spotlight cannot pass to {}: {why}; it may pass to {}",
            to.id,
            if allowed.is_empty() {
                "no one".to_owned()
            } else {
                allowed.join(", ")
            }
        ))
        .into());
    }
    ctx.set_encounter_value(&against_key(&holder.id), 0)?;
    turns::acted(ctx, &holder.id)?;
    let everyone_had_it = ctx
        .state
        .combatant_ids()
        .iter()
        .all(|id| ctx.state.encounter().turns.acted.contains(id));
    if everyone_had_it {
        let round = ctx.state.encounter().round + 1;
        ctx.emit(Event::public(Fact::RoundStarted { round }))?;
    }
    turns::spotlight(ctx, &to.id)
}

/// 10acity's start: round 1, the spotlight with the first player's character in id order.
pub(crate) fn start(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    let fighters = start_encounter(ctx, |_| true)?;
    ctx.emit(Event::public(Fact::RoundStarted { round: 1 }))?;
    let first = fighters
        .iter()
        .find(|id| ctx.state.combatant(id).is_some_and(|c| c.owner.is_some()))
        .or(fighters.first())
        .cloned()
        .ok_or_else(|| Refusal::Rule("nobody is at the table to fight".into()))?;
    turns::spotlight(ctx, &first)
}

/// Missa (p1), Tomas (p2) and a cultist (the GM's); Missa holds the spotlight in round 1.
pub(crate) fn spotlight_table() -> Table {
    let table = Table::new(
        &Tenacity,
        vec![
            combatant(
                "missa",
                Some("p1"),
                "players",
                None,
                &[("awareness", 3), ("investigation", 5)],
                &[],
            ),
            combatant(
                "tomas",
                Some("p2"),
                "players",
                None,
                &[("awareness", 2), ("investigation", 1)],
                &[],
            ),
            combatant("cultist", None, "enemies", None, &[("awareness", 2)], &[]),
        ],
        vec![],
    );
    assert_eq!(turns::describe(&table.state), "spotlight: missa");
    table
}

fn hand(seat: Seat, from: &str, to: &str) -> Command {
    Command::act(
        seat,
        Some(from),
        HAND_ON,
        Args::default().with("to", ArgValue::Text(to.into())),
    )
}

fn contest_against(seat: Seat, who: &str, against: &str) -> Command {
    Command::act(
        seat,
        Some(who),
        CONTEST,
        Args::default()
            .with("against", ArgValue::Text(against.into()))
            .with("skill", ArgValue::Text("investigation".into())),
    )
}

#[test]
fn tenacity_the_spotlight_passes_on_within_the_rule_and_back_to_the_one_acted_against() {
    let mut table = spotlight_table();
    let mut dice = ScriptedDice::new(vec![6, 3, 4]);
    assert_eq!(turns::describe(&table.state), "spotlight: missa");
    // Missa contests the cultist, then hands the spotlight to it: it may answer at once.
    table.run(
        &Tenacity,
        contest_against(player("p1"), "missa", "cultist"),
        &mut dice,
    );
    table.run(&Tenacity, hand(player("p1"), "missa", "cultist"), &mut dice);
    assert_eq!(turns::describe(&table.state), "spotlight: cultist");
    assert_eq!(
        action_names(&Tenacity, &table.state, &player("p1")),
        vec!["check"],
        "Missa has had the spotlight: only the check any hero may roll is left"
    );
    // The cultist may not hand it back to Missa, who has had it and whom it did not act
    // against; nor keep it. Tomas is open.
    let refused = table.refuse(
        &Tenacity,
        hand(Seat::Gm, "cultist", "missa"),
        &mut ScriptedDice::new(vec![]),
    );
    assert_eq!(
        refused,
        Refusal::Rule(
            "the spotlight cannot pass to missa: missa has had it this round and was not acted \
             against; it may pass to tomas"
                .into()
        )
    );
    let kept = table.refuse(
        &Tenacity,
        hand(Seat::Gm, "cultist", "cultist"),
        &mut ScriptedDice::new(vec![]),
    );
    assert_eq!(kept.code(), "rule");
    // It contests Missa, and so may hand the spotlight back to her.
    let mut dice = ScriptedDice::new(vec![2, 1, 1]);
    let missa_only = table.run(
        &Tenacity,
        contest_against(Seat::Gm, "cultist", "missa"),
        &mut dice,
    );
    assert!(!checks(&missa_only).is_empty());
    table.run(&Tenacity, hand(Seat::Gm, "cultist", "missa"), &mut dice);
    assert_eq!(turns::describe(&table.state), "spotlight: missa");
    // Missa hands to Tomas, the last who has not had it: a new round begins as he takes it.
    table.run(&Tenacity, hand(player("p1"), "missa", "tomas"), &mut dice);
    assert_eq!(table.state.encounter.round, 1, "Tomas has not had it yet");
    table.run(&Tenacity, hand(player("p2"), "tomas", "cultist"), &mut dice);
    assert_eq!(table.state.encounter.round, 2);
    assert_eq!(turns::describe(&table.state), "spotlight: cultist");
    table.assert_replays();
    table.hold_as_fixture("tenacity-spotlight");
}

// (hero's d10, the narrator's 2d6, outcome, margin): 1d10 + investigation 5 must beat the pool.
#[test]
fn tenacity_a_contest_against_the_narrators_dice_has_its_margin() {
    let cases = [
        (6, [3, 4], Outcome::Success, 4),
        (2, [3, 4], Outcome::Failure, 0),
        (1, [6, 6], Outcome::Failure, -6),
        (10, [1, 1], Outcome::Success, 13),
    ];
    for (face, [a, b], outcome, margin) in cases {
        let mut table = spotlight_table();
        let mut dice = ScriptedDice::new(vec![face, a, b]);
        let events = table.run(
            &Tenacity,
            contest_against(player("p1"), "missa", "cultist"),
            &mut dice,
        );
        let check = checks(&events)[0];
        assert_eq!(
            check.against,
            Against::Pool {
                name: "challenge dice".into(),
                total: i64::from(a + b)
            }
        );
        assert_eq!(
            (check.total, check.outcome, check.margin),
            (i64::from(face) + 5, outcome, Some(margin)),
            "d10 {face} against {a}+{b}"
        );
        // The pool is the narrator's: nobody rolled it.
        let pool_by = facts(&events).into_iter().find_map(|f| match f {
            Fact::Rolled { by, purpose, .. } if purpose == "challenge dice" => Some(by.clone()),
            _ => None,
        });
        assert_eq!(pool_by, Some(None));
        table.assert_replays();
    }
}
