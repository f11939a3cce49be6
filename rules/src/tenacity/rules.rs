//! The pure arithmetic of 10acity Tactics: what a pool of hero dice says, how Spin moves, what
//! a push costs, impact, size steps, piloting, stress and wounds. No state and no dice here, so
//! every rule is a function the tests drive with a table of numbers.

use super::sheet::SPIN_FLOOR;

/// What a pool of hero dice (faces 1..10) reads as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolReading {
    /// The highest face: the die that counts.
    pub highest: i64,
    /// Natural 10s among the dice.
    pub tens: i64,
    /// At least two dice show the same face.
    pub doubles: bool,
    /// The highest face is a 1: every die is a 1.
    pub fumble: bool,
}

/// Reads a pool. Doubles need two dice with one face; a fumble is a highest die of 1 (so a
/// pool of 1s is a fumble and doubles at once, and the fumble wins: see [`spin_change`]).
pub fn read_pool(faces: &[i64]) -> PoolReading {
    let highest = faces.iter().copied().max().unwrap_or(0);
    let tens = faces.iter().filter(|f| **f == 10).count() as i64;
    let doubles = faces
        .iter()
        .enumerate()
        .any(|(i, f)| faces[i + 1..].contains(f));
    PoolReading {
        highest,
        tens,
        doubles,
        fumble: highest == 1,
    }
}

/// A result succeeds only when it is strictly above what it faces: a tie with a fixed
/// challenge fails, and a tie between opposed rolls goes to the defender.
pub fn beats(result: i64, challenge: i64) -> bool {
    result > challenge
}

/// Impact d4s a skill rank gives: half the rank, rounded down (ranks 0 and 1 give none).
pub fn impact_dice(rank: i64) -> i64 {
    rank.max(0) / 2
}

/// How challenge d6 faces combine (table option `tenacity.challenge_dice`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combine {
    Sum,
    Highest,
}

/// The challenge rating from the narrator's d6 faces and the +0..+3 between levels.
pub fn challenge_total(faces: &[i64], bonus: i64, combine: Combine) -> i64 {
    let dice = match combine {
        Combine::Sum => faces.iter().sum(),
        Combine::Highest => faces.iter().copied().max().unwrap_or(0),
    };
    dice + bonus
}

/// How Spin gain is counted when a failed action also rolled doubles (table option
/// `tenacity.spin_gain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpinGain {
    /// One point for the roll, whatever earned it.
    One,
    /// One for failing and one for doubles.
    Each,
}

/// Spin an action roll moves: a fumble costs one (and earns nothing); otherwise failing or
/// doubles earn Spin. Rolls that are not the character's own action (reactions, defence,
/// initiative) earn nothing, but a fumble on them still costs one.
pub fn spin_change(reading: PoolReading, succeeded: bool, own_action: bool, gain: SpinGain) -> i64 {
    if reading.fumble {
        return -1;
    }
    if !own_action {
        return 0;
    }
    let earned = [!succeeded, reading.doubles];
    let count = earned.iter().filter(|e| **e).count() as i64;
    match gain {
        SpinGain::One => count.min(1),
        SpinGain::Each => count,
    }
}

/// Spin after a change, held at the floor of -10.
pub fn add_spin(spin: i64, change: i64) -> i64 {
    (spin + change).max(SPIN_FLOOR)
}

/// Spin a character may spend: none while it is zero or negative.
pub fn spendable_spin(spin: i64) -> i64 {
    spin.max(0)
}

/// What a push to turn a failure into a success costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Push {
    pub points: i64,
    pub spin: i64,
    /// Negative Spin taken for the rest of the margin.
    pub negative: i64,
}

/// Why a push cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushError {
    /// More 10acity or Spin offered than held.
    NotHeld,
    /// Even with the negative Spin the floor allows, the result stays at or below the challenge.
    Short,
}

/// A push: the points and Spin offered count +1 each; if that is not enough and the player
/// accepts a cost, negative Spin makes up exactly the rest (as much as necessary, no more),
/// within the -10 floor. Returns what is paid; nothing is paid if the push cannot succeed.
pub fn push(
    result: i64,
    challenge: i64,
    (points, spin): (i64, i64),
    (held_points, held_spin): (i64, i64),
    at_cost: bool,
) -> Result<Push, PushError> {
    if points < 0 || spin < 0 || points > held_points || spin > spendable_spin(held_spin) {
        return Err(PushError::NotHeld);
    }
    let pushed = result + points + spin;
    if beats(pushed, challenge) {
        return Ok(Push {
            points,
            spin,
            negative: 0,
        });
    }
    let needed = challenge - pushed + 1;
    if !at_cost || held_spin - spin - needed < SPIN_FLOOR {
        return Err(PushError::Short);
    }
    Ok(Push {
        points,
        spin,
        negative: needed,
    })
}

/// Spin a successful Create an Advantage assigns: one per two impact, at least one.
pub fn advantage_spin(impact: i64) -> i64 {
    (impact / 2).max(1)
}

/// Size steps from `from` to `to` (sides that double): +2 means `to` is two steps larger.
pub fn size_steps(from: i64, to: i64) -> i64 {
    let log = |n: i64| 63 - i64::from(n.max(1).leading_zeros());
    log(to) - log(from)
}

/// What size gives a physical attack: (advantage dice to the attacker, bonus to the attack,
/// advantage dice to the defender, bonus to the defence).
pub fn size_edge(steps: i64) -> (i64, i64, i64, i64) {
    if steps > 0 {
        (steps, steps, 0, 0)
    } else {
        (0, 0, -steps, -steps)
    }
}

/// How halved damage rounds (table option `tenacity.size_rounding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    Down,
    Up,
}

/// Damage against a target `steps` larger (halved per step) or smaller (doubled per step).
pub fn size_damage(damage: i64, steps: i64, rounding: Rounding) -> i64 {
    if steps >= 0 {
        let mut d = damage;
        for _ in 0..steps.min(62) {
            d = match rounding {
                Rounding::Down => d / 2,
                Rounding::Up => (d + 1) / 2,
            };
        }
        d
    } else {
        damage.saturating_mul(1_i64 << (-steps).min(40))
    }
}

/// How the pilot's second bonus is read (table option `tenacity.pilot_bonus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PilotBonus {
    /// +1 per two ranks of difference (the rule's sentence).
    Difference,
    /// +1 per two ranks of the higher value (the summary's sentence).
    Higher,
}

/// What a pilot adds to Dexterity dice: the lower of pilot rank and maneuverability, plus
/// one per two ranks by which the higher one exceeds it (or, read the other way, of the higher).
pub fn pilot_bonus(pilot: i64, maneuverability: i64, reading: PilotBonus) -> i64 {
    let low = pilot.min(maneuverability);
    let high = pilot.max(maneuverability);
    low + match reading {
        PilotBonus::Difference => (high - low) / 2,
        PilotBonus::Higher => high / 2,
    }
}

/// Recovery needed to heal one wound while `wounds` are marked.
pub fn wound_cost(wounds: i64) -> i64 {
    5 * wounds.max(0)
}

/// Wounds and recovery after `added` recovery: every wound whose cost is reached heals, the
/// surplus carrying on (table option `tenacity.recovery_surplus`: `carry` or `lose`).
pub fn heal(wounds: i64, recovery: i64, added: i64, carry: bool) -> (i64, i64) {
    let (mut w, mut r) = (wounds, recovery + added);
    while w > 0 && r >= wound_cost(w) {
        r -= wound_cost(w);
        w -= 1;
        if !carry {
            r = 0;
            break;
        }
    }
    if w == 0 {
        r = 0;
    }
    (w, r)
}

/// What stress over the maximum does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// Still within the maximum.
    Holds,
    /// Over: the character chooses a wound (if one is left) or unconsciousness.
    Choose { wound_left: bool },
    /// Hardcore: a wound is taken.
    Wound,
    /// Hardcore with no wound left: the character perishes.
    Perish,
}

/// Stress taken: over the maximum (strictly) forces a choice, or in hardcore a wound or death.
pub fn overflow(stress: i64, max: i64, wounds: i64, capacity: i64, hardcore: bool) -> Overflow {
    if stress <= max {
        return Overflow::Holds;
    }
    let left = wounds < capacity;
    match (hardcore, left) {
        (false, _) => Overflow::Choose { wound_left: left },
        (true, true) => Overflow::Wound,
        (true, false) => Overflow::Perish,
    }
}

/// Stress after resistance: a resistance of the damage's type is ignored first.
pub fn after_resistance(damage: i64, resistance: i64) -> i64 {
    (damage - resistance.max(0)).max(0)
}

/// A hinder on the same thing does not stack: the larger penalty stays.
pub fn hinder(current: i64, new: i64) -> i64 {
    current.max(new)
}

/// The unconscious recovery challenge's d6 count: two, plus one per wound marked.
pub fn unconscious_dice(wounds: i64) -> i64 {
    2 + wounds.max(0)
}

/// Spaces a grappled character moves: its margin over the grappler, up to its movement.
pub fn grappled_move(own: i64, grappler: i64, movement: i64) -> i64 {
    (own - grappler).clamp(0, movement.max(0))
}

/// A blind attack through full soft cover finds the target on 6 or more of a d10.
pub const BLIND_FIND: i64 = 6;
pub fn blind_finds(face: i64, threshold: i64) -> bool {
    face >= threshold
}

/// Social standing after a change, on the scale 0..=top.
pub fn standing(current: i64, change: i64, top: i64) -> i64 {
    (current + change).clamp(0, top)
}

/// A crafting or timed task is done when its accrued impact is over (`over`) or at least the
/// requirement (table option `tenacity.task_done`).
pub fn task_done(accrued: i64, requirement: i64, over: bool) -> bool {
    if over {
        accrued > requirement
    } else {
        accrued >= requirement
    }
}

/// Generate Spin and Recover 10acity are only for someone at exactly zero, and give one.
pub fn generate_spin(spin: i64) -> Option<i64> {
    (spin == 0).then_some(1)
}
pub fn recover_tenacity(points: i64) -> Option<i64> {
    (points == 0).then_some(1)
}

/// Spends a shared impact pool (explore) on options of the given costs: what is left, or
/// `None` when the pool does not cover them.
pub fn spend_pool(pool: i64, costs: &[i64]) -> Option<i64> {
    let total: i64 = costs.iter().sum();
    (total <= pool).then_some(pool - total)
}
