//! Guard as an attack meets it: the sheet's Guard, then halved (rounding up) for an unaware
//! defender struck from behind, then +5 for each size the attacker has over the defender, then
//! cover against ranged attacks. The text gives no order; halving first keeps the size and
//! cover bonuses whole, which is the reading `docs/vigor.md` records.

use crate::event::Modifier;

/// Cover between a ranged attacker and its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cover {
    Light,
    Partial,
    Full,
}

impl Cover {
    /// From the magnitude of a `cover` status: 1 light, 2 partial, 3 full.
    pub fn from_magnitude(m: i64) -> Option<Cover> {
        match m {
            1 => Some(Cover::Light),
            2 => Some(Cover::Partial),
            3 => Some(Cover::Full),
            _ => None,
        }
    }

    fn guard(self) -> i64 {
        match self {
            Cover::Light => 10,
            Cover::Partial => 3,
            Cover::Full => 5,
        }
    }

    /// Armor Rank it adds (light cover stops nothing).
    pub fn armour(self) -> i64 {
        match self {
            Cover::Light => 0,
            Cover::Partial => 5,
            Cover::Full => 10,
        }
    }
}

/// What around an attack changes the Guard it must beat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Situation {
    /// The defender is unaware and the blow comes from behind.
    pub behind_unaware: bool,
    /// Size categories the attacker has over the defender (0 or less: no bonus).
    pub size_over: i64,
    pub cover: Option<Cover>,
    pub ranged: bool,
    /// An area attack, which light cover does not stop.
    pub area: bool,
    /// What poor visibility adds to the sum a ranged attack must beat.
    pub visibility: i64,
}

/// The Guard to beat and the steps that built it, each labelled for the account.
pub fn guard(base: i64, s: &Situation) -> (i64, Vec<Modifier>) {
    let mut steps = vec![Modifier::new("Guard", base)];
    let mut g = base;
    if s.behind_unaware {
        let halved = (g + 1) / 2;
        steps.push(Modifier::new("unaware, from behind: halved", halved - g));
        g = halved;
    }
    if s.size_over > 0 {
        let bonus = 5 * s.size_over;
        steps.push(Modifier::new("smaller than the attacker", bonus));
        g += bonus;
    }
    if let (Some(cover), true) = (s.cover, s.ranged) {
        let light_ignored = cover == Cover::Light && s.area;
        if !light_ignored {
            let word = match cover {
                Cover::Light => "light cover",
                Cover::Partial => "partial cover",
                Cover::Full => "full cover",
            };
            steps.push(Modifier::new(word, cover.guard()));
            g += cover.guard();
        }
    }
    if s.visibility > 0 {
        steps.push(Modifier::new("poor visibility", s.visibility));
        g += s.visibility;
    }
    (g, steps)
}
