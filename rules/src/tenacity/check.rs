//! The check: the attribute's hero d10s, keep the highest, add the skill rank, and beat the
//! challenge. It carries the roll through its two possible stops: a natural 10 (the player
//! picks an extra hero die or an extra impact die, before the comparison, since the hero die
//! changes it) and a failure (the player may push it into a success). Then Spin moves and, on
//! a success, the kind of action decides what the impact does.

use std::collections::BTreeMap;

use super::tell::expr;
use crate::action::{ArgKind, ArgSpec, Args};
use crate::decision::{Closing, PendingStep, StepValue};
use crate::dice::{Roll, roll};
use crate::engine::{Ctx, DecideError};
use crate::event::{Modifier, Outcome};
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::Combatant;
use crate::state::StateView;
use crate::toolkit::deciders;

use super::defence::{self, Edge};
use super::help;
use super::rules::{self, PushError, read_pool};
use super::{SPIN, TENACITY, effects, options, sheet_of, spotlight, tell};

pub const STEP_CRITICAL: &str = "tenacity.critical";
pub const STEP_PUSH: &str = "tenacity.push";

/// What a check is for: the action types that roll impact on a success, and pass/fail.
pub const KINDS: [&str; 11] = [
    "pass_fail",
    "impact",
    "damage",
    "advantage",
    "condition",
    "stealth",
    "find",
    "social",
    "undermine",
    "pool",
    "grapple",
];

/// Everything a check needs to finish after a stop, kept in the step's data.
#[derive(Debug, Clone)]
pub struct Pending {
    pub actor: EntityId,
    pub skill: String,
    pub rank: i64,
    pub kind: String,
    /// An ally on the far side of the target: it gains 1 Spin if this attack succeeds.
    pub flank: Option<EntityId>,
    /// For a pool check (explore, cooperate, craft, a timed task): the shared pool's name.
    pub shared_pool: Option<String>,
    /// For a condition: which one (`hinder` by default).
    pub condition: String,
    pub target: Option<EntityId>,
    pub bonus: i64,
    /// Not the character's own action (a reaction, a defence): earns no Spin.
    pub reaction: bool,
    pub pool: Roll,
    pub extra_hero: Vec<i64>,
    pub extra_d4: i64,
    /// What the situation adds to or takes from the result (size, cover, a hinder).
    pub adjust: i64,
    /// A special ability activated before the roll: its name and bonus (none: empty, 0).
    pub ability: (String, i64),
    /// A grapple: how many limbs (or grappling items) it uses, and holds.
    pub limbs: i64,
    /// A condition that comes from an area: moving out of it ends it.
    pub area: bool,
    /// Damage only: size steps from attacker to target (halved or doubled per step) and the
    /// target's resistance to the damage's type.
    pub size_steps: i64,
    pub resistance: i64,
    pub challenge: i64,
    pub compared: String,
    pub hidden: bool,
}

impl Pending {
    fn data(&self) -> (BTreeMap<String, StepValue>, BTreeMap<String, StepValue>) {
        let mut data = BTreeMap::from([
            ("skill".to_owned(), StepValue::Text(self.skill.clone())),
            ("rank".to_owned(), StepValue::Int(self.rank)),
            ("kind".to_owned(), StepValue::Text(self.kind.clone())),
            (
                "condition".to_owned(),
                StepValue::Text(self.condition.clone()),
            ),
            ("bonus".to_owned(), StepValue::Int(self.bonus)),
            ("reaction".to_owned(), StepValue::Flag(self.reaction)),
            (
                "pool".to_owned(),
                StepValue::Roll(Box::new(self.pool.clone())),
            ),
            ("extra_d4".to_owned(), StepValue::Int(self.extra_d4)),
            ("adjust".to_owned(), StepValue::Int(self.adjust)),
            (
                "ability".to_owned(),
                StepValue::Text(self.ability.0.clone()),
            ),
            ("ability_bonus".to_owned(), StepValue::Int(self.ability.1)),
            ("limbs".to_owned(), StepValue::Int(self.limbs)),
            ("area".to_owned(), StepValue::Flag(self.area)),
            ("size_steps".to_owned(), StepValue::Int(self.size_steps)),
            ("resistance".to_owned(), StepValue::Int(self.resistance)),
            (
                "compared".to_owned(),
                StepValue::Text(self.compared.clone()),
            ),
            ("hidden".to_owned(), StepValue::Flag(self.hidden)),
        ]);
        for (i, f) in self.extra_hero.iter().enumerate() {
            data.insert(format!("extra_hero.{i}"), StepValue::Int(*f));
        }
        if let Some(t) = &self.target {
            data.insert("target".to_owned(), StepValue::Entity(t.clone()));
        }
        if let Some(name) = &self.shared_pool {
            data.insert("shared_pool".to_owned(), StepValue::Text(name.clone()));
        }
        if let Some(f) = &self.flank {
            data.insert("flank".to_owned(), StepValue::Entity(f.clone()));
        }
        let mut secret = BTreeMap::new();
        let c = StepValue::Int(self.challenge);
        if self.hidden {
            secret.insert("challenge".to_owned(), c);
        } else {
            data.insert("challenge".to_owned(), c);
        }
        (data, secret)
    }

    fn from_step(step: &PendingStep) -> Result<Self, DecideError> {
        let bad = |key: &str| DecideError::BadStep {
            prompt_id: step.prompt_id,
            rule: step.rule.clone(),
            problem: format!("no `{key}`"),
        };
        let hidden = step.flag("hidden").ok_or_else(|| bad("hidden"))?;
        let challenge = if hidden {
            step.secret_int("challenge")
        } else {
            step.int("challenge")
        }
        .ok_or_else(|| bad("challenge"))?;
        let mut extra_hero = Vec::new();
        while let Some(f) = step.int(&format!("extra_hero.{}", extra_hero.len())) {
            extra_hero.push(f);
        }
        Ok(Pending {
            actor: step.actor.clone().ok_or_else(|| bad("actor"))?,
            skill: step.text("skill").ok_or_else(|| bad("skill"))?.to_owned(),
            rank: step.int("rank").ok_or_else(|| bad("rank"))?,
            kind: step.text("kind").ok_or_else(|| bad("kind"))?.to_owned(),
            condition: step
                .text("condition")
                .ok_or_else(|| bad("condition"))?
                .to_owned(),
            target: step.entity("target").cloned(),
            flank: step.entity("flank").cloned(),
            shared_pool: step.text("shared_pool").map(str::to_owned),
            bonus: step.int("bonus").ok_or_else(|| bad("bonus"))?,
            reaction: step.flag("reaction").ok_or_else(|| bad("reaction"))?,
            pool: step.roll("pool").ok_or_else(|| bad("pool"))?.clone(),
            extra_hero,
            extra_d4: step.int("extra_d4").ok_or_else(|| bad("extra_d4"))?,
            adjust: step.int("adjust").ok_or_else(|| bad("adjust"))?,
            // Steps written before abilities could be activated before the roll have none.
            ability: (
                step.text("ability").unwrap_or_default().to_owned(),
                step.int("ability_bonus").unwrap_or(0),
            ),
            limbs: step.int("limbs").unwrap_or(1),
            area: step.flag("area").unwrap_or(false),
            size_steps: step.int("size_steps").ok_or_else(|| bad("size_steps"))?,
            resistance: step.int("resistance").ok_or_else(|| bad("resistance"))?,
            challenge,
            compared: step
                .text("compared")
                .ok_or_else(|| bad("compared"))?
                .to_owned(),
            hidden,
        })
    }

    fn faces(&self) -> Vec<i64> {
        self.pool.dice.iter().map(|d| i64::from(d.face)).collect()
    }

    fn total(&self) -> i64 {
        rules::read_pool(&self.faces()).highest
            + self.rank
            + self.extra_hero.iter().sum::<i64>()
            + self.adjust
            + self.ability.1
    }

    fn step(&self, rule: &str, seats: Vec<Seat>) -> PendingStep {
        let (data, secret) = self.data();
        PendingStep {
            rule: rule.to_owned(),
            actor: Some(self.actor.clone()),
            seats,
            data,
            secret,
            ..PendingStep::default()
        }
    }
}

/// The challenge a check faces: a fixed rating, the narrator's d6s, a defender's challenge
/// dice from its sheet. Returns (value, name, hidden from players).
fn challenge(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    args: &Args,
    target: Option<&Combatant>,
    edge: Edge,
    resist: i64,
) -> Result<(i64, String, bool), DecideError> {
    let secret = args.flag("secret")?;
    if secret && !seat.is_gm() {
        return Err(Refusal::forbidden("only the GM keeps a challenge secret").into());
    }
    if args.text("kind")? == Some("find") {
        let t = target.ok_or_else(|| Refusal::bad_argument("target", "is required: find whom?"))?;
        let hidden = t
            .statuses
            .get(super::HIDDEN)
            .ok_or_else(|| Refusal::Rule(format!("{} is not hiding", t.id)))?;
        let gm = crate::redact::gm_only_numbers(t) || secret;
        return Ok((hidden.magnitude, format!("{}'s stealth", t.id), gm));
    }
    if let Some(skill) = args.text("defence")? {
        let t = target.ok_or_else(|| {
            Refusal::bad_argument("target", "is required: whose defence is rolled?")
        })?;
        return defence::defend(ctx, t, &skill.to_ascii_lowercase(), edge);
    }
    if let Some(cr) = args.int("cr")? {
        return Ok((cr, "challenge rating".into(), secret));
    }
    let (dice, bonus, name, gm_only) = match (args.int("challenge_dice")?, target) {
        (Some(d), _) => (
            d,
            args.int("challenge_bonus")?.unwrap_or(0),
            "challenge dice".to_owned(),
            secret,
        ),
        (None, Some(t)) => {
            let c = sheet_of(t)?.challenge.ok_or_else(|| {
                Refusal::bad_argument(
                    "cr",
                    "is required: the target has no challenge dice on its sheet",
                )
            })?;
            let npc = crate::redact::gm_only_numbers(t);
            // The target's own challenge avoids a condition it resists like a defence roll.
            (
                c.dice,
                c.bonus + resist,
                format!("{}'s challenge", t.id),
                npc || secret,
            )
        }
        (None, None) => {
            return Err(Refusal::bad_argument(
                "cr",
                "is required: give a challenge rating or challenge dice",
            )
            .into());
        }
    };
    let combine = options::combine(ctx.state.options());
    let faces: Vec<i64> = if dice > 0 {
        let r = roll(&expr(&format!("{dice}d6"))?, ctx.dice)?;
        let faces = r.dice.iter().map(|d| i64::from(d.face)).collect();
        tell::rolled(ctx, None, name.clone(), r, gm_only)?;
        faces
    } else {
        Vec::new()
    };
    Ok((
        rules::challenge_total(&faces, bonus, combine),
        name,
        gm_only,
    ))
}

/// The args every check takes.
pub fn args() -> Vec<ArgSpec> {
    vec![
        ArgSpec::new("skill", ArgKind::Text, true, "the skill rolled"),
        ArgSpec::new(
            "kind",
            ArgKind::Text,
            false,
            "what a success does (default pass_fail)",
        )
        .choices(&KINDS),
        ArgSpec::new("cr", ArgKind::Int, false, "a fixed challenge rating").range(0, 200),
        ArgSpec::new(
            "ability",
            ArgKind::Text,
            false,
            "a special ability activated before the roll (1 point)",
        ),
        ArgSpec::new(
            "limbs",
            ArgKind::Int,
            false,
            "a grapple: the limbs (or grappling items) used, and held (1 if left out)",
        )
        .range(1, 8),
        ArgSpec::new(
            "area",
            ArgKind::Flag,
            false,
            "a condition that comes from an area (entangling plants, smoke): moving out of it ends it",
        ),
        ArgSpec::new("ability_pay", ArgKind::Text, false, "what activates it")
            .choices(&["tenacity", "spin"]),
        ArgSpec::new("challenge_dice", ArgKind::Int, false, "the narrator's d6s").range(0, 10),
        ArgSpec::new(
            "challenge_bonus",
            ArgKind::Int,
            false,
            "+1..+3 between levels",
        )
        .range(0, 3),
        ArgSpec::new(
            "target",
            ArgKind::Entity,
            false,
            "whom the action is against or for",
        ),
        ArgSpec::new(
            "item",
            ArgKind::Text,
            false,
            "the one item used: adds its impact bonus",
        ),
        ArgSpec::new(
            "reaction",
            ArgKind::Flag,
            false,
            "a reaction or defence: earns no Spin",
        ),
        ArgSpec::new(
            "secret",
            ArgKind::Flag,
            false,
            "GM: keep the challenge from players",
        ),
        ArgSpec::new(
            "defence",
            ArgKind::Text,
            false,
            "the target defends with this skill",
        ),
        ArgSpec::new(
            "advantage",
            ArgKind::Int,
            false,
            "advantage dice given (help, a ruling)",
        )
        .range(0, 5),
        ArgSpec::new(
            "physical",
            ArgKind::Flag,
            false,
            "a physical attack: size steps count",
        ),
        ArgSpec::new(
            "ranged",
            ArgKind::Flag,
            false,
            "from a distance (prone defends better)",
        ),
        ArgSpec::new(
            "hindered",
            ArgKind::Flag,
            false,
            "your hinder applies to this action",
        ),
        ArgSpec::new(
            "condition",
            ArgKind::Text,
            false,
            "kind condition: hinder, stop or damage",
        )
        .choices(&super::conditions::CONDITIONS),
        ArgSpec::new(
            "damage_type",
            ArgKind::Text,
            false,
            "the damage's or condition's type, for resistances (a condition's: a bonus to the target's defence)",
        ),
        ArgSpec::new(
            "elevated",
            ArgKind::Flag,
            false,
            "from high ground: a die for perception",
        ),
        ArgSpec::new(
            "maneuverability",
            ArgKind::Int,
            false,
            "the mount's or vehicle's rank",
        )
        .range(0, 20),
        ArgSpec::new(
            "blind",
            ArgKind::Flag,
            false,
            "through full soft cover: find it first",
        ),
        ArgSpec::new(
            "blind_at",
            ArgKind::Int,
            false,
            "the d10 the blind attack needs (6)",
        )
        .range(1, 11),
        ArgSpec::new(
            "flank_ally",
            ArgKind::Entity,
            false,
            "an ally flanking the target",
        ),
        ArgSpec::new(
            "parting",
            ArgKind::Flag,
            false,
            "a parting action on one leaving melee",
        ),
        ArgSpec::new(
            "pool",
            ArgKind::Text,
            false,
            "kind pool: the shared impact pool",
        ),
    ]
}

/// Rolls a check for `c` and carries it as far as it goes without a choice.
pub fn check(
    ctx: &mut Ctx<'_>,
    seat: &Seat,
    c: &Combatant,
    args: &Args,
) -> Result<(), DecideError> {
    let sheet = sheet_of(c)?;
    let skill = args.require_text("skill")?.to_ascii_lowercase();
    let (_, mut dice, mut rank) = sheet.skill(&skill).ok_or_else(|| Refusal::UnknownName {
        system: super::ID.into(),
        what: format!("a skill of {}", c.id),
        name: skill.clone(),
    })?;
    let kind = args.text("kind")?.unwrap_or("pass_fail").to_owned();
    if !KINDS.contains(&kind.as_str()) {
        return Err(Refusal::bad_argument("kind", "is not a kind of check").into());
    }
    let bonus = match args.text("item")? {
        None => 0,
        Some(id) => {
            sheet
                .equipment
                .iter()
                .find(|i| i.id == id)
                .ok_or_else(|| Refusal::UnknownName {
                    system: super::ID.into(),
                    what: format!("an item of {}", c.id),
                    name: id.to_owned(),
                })?
                .impact_bonus
        }
    };
    let target = match args.entity("target")? {
        Some(t) => Some(ctx.combatant(&t)?),
        None => None,
    };
    // A grapple needs an empty hand or an item with the grappling property.
    if kind == "grapple" {
        if target.is_none() {
            return Err(Refusal::bad_argument("target", "is required: grapple whom?").into());
        }
        if let Some(id) = args.text("item")?
            && !sheet
                .equipment
                .iter()
                .any(|i| i.id == id && i.properties.iter().any(|p| p == "grappling"))
        {
            return Err(Refusal::Rule(format!("{id} has no grappling property")).into());
        }
    }
    if kind == "pool" && args.text("pool")?.is_none() {
        return Err(Refusal::bad_argument("pool", "is required: which shared pool?").into());
    }
    if matches!(kind.as_str(), "damage" | "social" | "undermine") && target.is_none() {
        return Err(Refusal::bad_argument("target", "is required: against whom?").into());
    }
    let flank = match args.entity("flank_ally")? {
        Some(a) => Some(ctx.combatant(&a)?.id),
        None => None,
    };
    // A parting action: a free reaction against one leaving melee range, unless it withdrew.
    let parting = args.flag("parting")?;
    if parting {
        let t = target
            .as_ref()
            .ok_or_else(|| Refusal::bad_argument("target", "is required: who is leaving?"))?;
        if t.has_status(super::WITHDRAWING) {
            return Err(Refusal::Rule(format!(
                "{} withdrew: no parting action against it this turn",
                t.id
            ))
            .into());
        }
    }
    let reaction = args.flag("reaction")? || parting;
    if !reaction {
        spotlight::take_action(ctx, c)?;
    }
    if let Some(t) = &target {
        spotlight::bring(ctx, &c.id, &t.id)?;
    }
    // A special ability activated before the roll: paid now, its bonus on the result.
    let before_roll = match args.text("ability")? {
        Some(id) => {
            let by_spin = args.text("ability_pay")? == Some("spin");
            activate(ctx, c, id, by_spin)?
        }
        None => (String::new(), 0),
    };
    if kind == "stealth" {
        return stealth(ctx, c, &skill, dice, rank + before_roll.1);
    }
    let mut edge = defence::edge(c, target.as_ref(), args)?;
    // Group initiative: the second side's advantage die, on each one's first action.
    if !reaction {
        edge.attack_dice += super::groups::advantage_die(ctx, c)?;
    }
    // Locked, its own actions take one disadvantage die: the inverse of an advantage die, one
    // hero die fewer (never below one).
    if !reaction && c.has_status(super::LOCKED) {
        edge.attack_dice -= 1;
    }
    // Elevation helps only perception.
    if args.flag("elevated")? && skill == "perception" {
        edge.attack_dice += 1;
    }
    // Riding and piloting: the lower of skill and maneuverability, plus one per two ranks.
    if let Some(m) = args.int("maneuverability")? {
        rank = rules::pilot_bonus(rank, m, options::pilot_bonus(ctx.state.options()));
    }
    // Blind through full soft cover: first find the target on a d10.
    if args.flag("blind")? {
        let at = args.int("blind_at")?.unwrap_or(rules::BLIND_FIND);
        let d = roll(&expr("1d10")?, ctx.dice)?;
        let face = d.total;
        tell::rolled(
            ctx,
            Some(&c.id),
            format!("blind attack (finds on {at}+)"),
            d,
            false,
        )?;
        if !rules::blind_finds(face, at) {
            return ctx.note_about(&c.id, format!("{} does not find the target", c.id));
        }
    }
    // Help on a quick pass/fail check: the better ranked of the two rolls, with one more die.
    let helped = help::HELPED.to_owned() + &skill;
    if kind == "pass_fail" && c.turn_counter(&helped) > 0 {
        let (h_rank, h_dice) = (
            c.turn_counter(&helped) - 1,
            c.turn_counter(&help::dice_key(&skill)),
        );
        if h_rank > rank {
            rank = h_rank;
            dice = h_dice;
        }
        edge.attack_dice += 1;
        ctx.set_turn_counter(&c.id, &helped, 0)?;
        ctx.set_turn_counter(&c.id, &help::dice_key(&skill), 0)?;
    }
    let (size_steps, resistance) = match &target {
        Some(t) => {
            let ts = sheet_of(t)?;
            let steps = if args.flag("physical")? {
                super::rules::size_steps(sheet.size, ts.size)
            } else {
                0
            };
            let resist = args
                .text("damage_type")?
                .and_then(|k| ts.resistances.get(&k.to_ascii_lowercase()).copied())
                .unwrap_or(0);
            (steps, resist)
        }
        None => (0, 0),
    };
    // A resistance to a condition's type is a bonus to the roll that avoids it (the target's
    // defence); to damage of the type it is ignored stress, taken off when the hit lands.
    let condition_resist = if kind == "condition" { resistance } else { 0 };
    let resistance = if kind == "condition" {
        edge.defence_bonus += resistance;
        0
    } else {
        resistance
    };
    let (value, compared, hidden) =
        challenge(ctx, seat, args, target.as_ref(), edge, condition_resist)?;
    let pool = roll(
        &expr(&format!("{}d10kh1", (dice + edge.attack_dice).max(1)))?,
        ctx.dice,
    )?;
    let reading = read_pool(
        &pool
            .dice
            .iter()
            .map(|d| i64::from(d.face))
            .collect::<Vec<_>>(),
    );
    let pending = Pending {
        actor: c.id.clone(),
        skill,
        rank,
        kind,
        condition: args.text("condition")?.unwrap_or(super::HINDER).to_owned(),
        flank,
        shared_pool: args.text("pool")?.map(str::to_owned),
        target: target.map(|t| t.id),
        bonus,
        reaction,
        pool,
        extra_hero: Vec::new(),
        extra_d4: 0,
        adjust: edge.attack_bonus,
        ability: before_roll,
        limbs: args.int("limbs")?.unwrap_or(1),
        area: args.flag("area")?,
        size_steps,
        resistance,
        challenge: value,
        compared,
        hidden,
    };
    if reading.tens > 0 {
        let count = if options::each_critical(ctx.state.options()) {
            reading.tens
        } else {
            1
        };
        let mut step = pending.step(STEP_CRITICAL, deciders(c));
        step.question = format!(
            "A natural 10 for {}: {count} extra hero d10 (added to the result) or {count} extra impact d4?",
            c.id
        );
        step.options = vec!["hero_die".into(), "impact_die".into()];
        step.default = "hero_die".into();
        step.timeout_ms = ctx.state.options().decision_timeout_ms();
        step.data.insert("extra".into(), StepValue::Int(count));
        tell::rolled(
            ctx,
            Some(&c.id),
            format!("{} hero dice: a natural 10", pending.skill),
            pending.pool.clone(),
            false,
        )?;
        ctx.ask(step)?;
        return Ok(());
    }
    judge(ctx, pending)
}

/// The critical's answer: the extra dice, then the comparison.
pub fn resume_critical(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let mut p = Pending::from_step(step)?;
    let count = step.int("extra").unwrap_or(1).max(1);
    // The pool's dice were shown, with their draws, before the choice: the check now shows
    // only what this event draws (the extra hero dice, or nothing), and the pool's best as a
    // number (every die of a log is shown in the event that drew it; FAIRNESS.md).
    let fresh = if closing.choice == "hero_die" {
        let r = roll(&expr(&format!("{count}d10"))?, ctx.dice)?;
        p.extra_hero = r.dice.iter().map(|d| i64::from(d.face)).collect();
        r
    } else {
        p.extra_d4 = count;
        roll(&expr("0")?, ctx.dice)?
    };
    judge_after(ctx, p, Some(fresh))
}

/// Compares, moves Spin, and either applies the success or offers the push.
fn judge(ctx: &mut Ctx<'_>, p: Pending) -> Result<(), DecideError> {
    judge_after(ctx, p, None)
}

/// [`judge`], with `fresh` the dice drawn after the pool was shown (a critical's answer): the
/// check's roll is then those dice, and the pool's best die counts as a number beside them.
fn judge_after(ctx: &mut Ctx<'_>, p: Pending, fresh: Option<Roll>) -> Result<(), DecideError> {
    let reading = read_pool(&p.faces());
    let mut modifiers = Vec::new();
    if fresh.is_some() {
        modifiers.push(Modifier::new(
            "best hero die, rolled before",
            reading.highest,
        ));
    }
    modifiers.push(Modifier::new(&p.skill, p.rank));
    if fresh.is_none() {
        for f in &p.extra_hero {
            modifiers.push(Modifier::new("critical hero die", *f));
        }
    }
    if p.adjust != 0 {
        modifiers.push(Modifier::new("situation", p.adjust));
    }
    if p.ability.1 != 0 {
        modifiers.push(Modifier::new(&p.ability.0, p.ability.1));
    }
    let because = if reading.fumble {
        Some("fumble: the highest hero die is a 1".to_owned())
    } else {
        None
    };
    let outcome = tell::check(
        ctx,
        tell::Check {
            who: &p.actor,
            // "makes a damage check against pirate: ranged 3+2=5 ...": the skill is the
            // roll's label, not something held in the hand.
            verb: match &p.target {
                Some(_) => format!("makes a {} check against", p.kind.replace('_', "/")),
                None => format!("makes a {} check", p.kind.replace('_', "/")),
            },
            target: p.target.clone(),
            label: p.skill.clone(),
            roll: fresh.unwrap_or_else(|| p.pool.clone()),
            modifiers,
            total: p.total(),
            against: p.challenge,
            compared: p.compared.clone(),
            hidden: p.hidden,
            because,
        },
    )?;
    let success = outcome == Outcome::Success;
    let change = rules::spin_change(
        reading,
        success,
        !p.reaction,
        options::spin_gain(ctx.state.options()),
    );
    if change != 0 {
        let spin = ctx.combatant(&p.actor)?.resource(SPIN);
        ctx.set_resource(&p.actor, SPIN, rules::add_spin(spin, change))?;
    }
    if success {
        return effects::succeed(ctx, &p);
    }
    let c = ctx.combatant(&p.actor)?;
    let points = c.resource(TENACITY);
    let spin = rules::spendable_spin(c.resource(SPIN));
    let names: Vec<String> = sheet_of(&c)?
        .abilities
        .iter()
        .map(|a| a.id.clone())
        .collect();
    let abilities: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut step = p.step(STEP_PUSH, deciders(&c));
    step.question = format!(
        "{} failed: accept it, or push (10acity and Spin +1 each; at a cost, negative Spin for the rest)?",
        p.actor
    );
    step.options = vec!["accept".into(), "push".into()];
    step.default = "accept".into();
    step.timeout_ms = ctx.state.options().decision_timeout_ms();
    step.args = vec![
        ArgSpec::new("points", ArgKind::Int, false, "10acity points to spend").range(0, points),
        ArgSpec::new("spin", ArgKind::Int, false, "Spin to spend").range(0, spin),
        ArgSpec::new(
            "at_cost",
            ArgKind::Flag,
            false,
            "take negative Spin for what is still short",
        ),
        ArgSpec::new(
            "ability",
            ArgKind::Text,
            false,
            "a special ability to activate",
        )
        .choices(&abilities),
        ArgSpec::new(
            "ability_pay",
            ArgKind::Text,
            false,
            "what activates it (1 point)",
        )
        .choices(&["tenacity", "spin"]),
    ];
    ctx.ask(step)?;
    Ok(())
}

/// Activates the special ability `id` of `c` before its roll: one 10acity point, or one Spin
/// (`by_spin`), paid at once. Its name and bonus.
fn activate(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    id: &str,
    by_spin: bool,
) -> Result<(String, i64), DecideError> {
    let ability = sheet_of(c)?
        .abilities
        .iter()
        .find(|a| a.id == id)
        .cloned()
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("an ability of {}", c.id),
            name: id.to_owned(),
        })?;
    let (key, word) = if by_spin {
        (SPIN, "Spin")
    } else {
        (TENACITY, "10acity")
    };
    let held = c.resource(key);
    let have = if by_spin {
        rules::spendable_spin(held)
    } else {
        held
    };
    if have < 1 {
        return Err(Refusal::InsufficientResource {
            resource: word.into(),
            needed: 1,
            available: have,
        }
        .into());
    }
    ctx.set_resource(&c.id, key, held - 1)?;
    let name = if ability.name.is_empty() {
        ability.id
    } else {
        ability.name
    };
    ctx.note_about(&c.id, format!("{} activates {name} for 1 {word}", c.id))?;
    Ok((name, ability.bonus))
}

/// The push's answer. Nothing is paid unless the push makes the check succeed.
pub fn resume_push(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let p = Pending::from_step(step)?;
    if closing.choice != "push" {
        return ctx.note_about(&p.actor, format!("{} accepts the failure", p.actor));
    }
    let points = closing.args.int("points")?.unwrap_or(0);
    let spin_spent = closing.args.int("spin")?.unwrap_or(0);
    let at_cost = closing.args.flag("at_cost")?;
    let c = ctx.combatant(&p.actor)?;
    let mut held = (c.resource(TENACITY), c.resource(SPIN));
    // A special ability: one point (10acity or Spin) for its bonus, before the +1s.
    let mut result = p.total();
    let mut ability_cost = (0, 0);
    if closing.args.text("ability")?.is_some() && !p.ability.0.is_empty() {
        return Err(Refusal::Rule(format!(
            "{} was activated before the roll: one activation a check",
            p.ability.0
        ))
        .into());
    }
    if let Some(id) = closing.args.text("ability")? {
        let ability = sheet_of(&c)?
            .abilities
            .iter()
            .find(|a| a.id == id)
            .ok_or_else(|| Refusal::UnknownName {
                system: super::ID.into(),
                what: format!("an ability of {}", c.id),
                name: id.to_owned(),
            })?;
        let by_spin = closing.args.text("ability_pay")? == Some("spin");
        let have = if by_spin {
            rules::spendable_spin(held.1)
        } else {
            held.0
        };
        if have < 1 {
            return Err(Refusal::InsufficientResource {
                resource: if by_spin { "Spin" } else { "10acity" }.into(),
                needed: 1,
                available: have,
            }
            .into());
        }
        ability_cost = if by_spin { (0, 1) } else { (1, 0) };
        held = (held.0 - ability_cost.0, held.1 - ability_cost.1);
        result += ability.bonus;
    }
    match rules::push(result, p.challenge, (points, spin_spent), held, at_cost) {
        Err(PushError::NotHeld) => Err(Refusal::InsufficientResource {
            resource: "10acity or Spin".into(),
            needed: points + spin_spent,
            available: held.0 + rules::spendable_spin(held.1),
        }
        .into()),
        Err(PushError::Short) => ctx.note_about(
            &p.actor,
            format!(
                "{}'s push would not beat the challenge: the failure stands, nothing is paid",
                p.actor
            ),
        ),
        Ok(paid) => {
            if ability_cost != (0, 0) {
                ctx.note_about(&p.actor, format!("{} activates a special ability", p.actor))?;
            }
            ctx.set_resource(&p.actor, TENACITY, held.0 - paid.points)?;
            ctx.set_resource(
                &p.actor,
                SPIN,
                rules::add_spin(held.1, -paid.spin - paid.negative),
            )?;
            ctx.note_about(
                &p.actor,
                format!(
                    "{} pushes the check into a success: {} 10acity, {} Spin, {} negative Spin taken",
                    p.actor, paid.points, paid.spin, paid.negative
                ),
            )?;
            effects::succeed(ctx, &p)
        }
    }
}

/// Stealth: the roll (the narrator has allowed it) becomes the challenge anyone must beat to
/// find the character. It is an action, so doubles earn Spin and a fumble costs one.
fn stealth(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    skill: &str,
    dice: i64,
    rank: i64,
) -> Result<(), DecideError> {
    let pool = roll(&expr(&format!("{dice}d10kh1"))?, ctx.dice)?;
    let reading = read_pool(
        &pool
            .dice
            .iter()
            .map(|d| i64::from(d.face))
            .collect::<Vec<_>>(),
    );
    let total = reading.highest + rank;
    let gm = crate::redact::gm_only_numbers(c);
    tell::rolled(ctx, Some(&c.id), format!("{skill} to hide"), pool, gm)?;
    let change = rules::spin_change(reading, true, true, options::spin_gain(ctx.state.options()));
    if change != 0 {
        let spin = ctx.combatant(&c.id)?.resource(SPIN);
        ctx.set_resource(&c.id, SPIN, rules::add_spin(spin, change))?;
    }
    ctx.set_status(
        &c.id,
        super::HIDDEN,
        Some(crate::state::Status {
            source: c.id.0.clone(),
            magnitude: total,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(&c.id, format!("{} hides", c.id))
}
