//! GRIMWIRE's tables (light-weapon attacks, range bands, falling, levels), parsed from the data
//! file under `rules/content/grimwire/` and validated once. The example gear is `gear.rs`: it is
//! made of the sheet's types, and the sheet reads these tables.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::dice::DiceExpr;

const TABLES: &str = include_str!("../../content/grimwire/tables.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    pub format: u32,
    pub light_attacks: Vec<LightAttacks>,
    pub range_bands: Vec<RangeBand>,
    pub beyond_range: BeyondRange,
    pub falling: Vec<FallRow>,
    pub levels: Vec<LevelRow>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightAttacks {
    pub cor_min: i64,
    pub cor_max: i64,
    pub attacks: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub band: String,
    pub min_m: i64,
    pub max_m: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeyondRange {
    pub near_m: i64,
    pub near_penalty: i64,
    pub far_penalty: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FallRow {
    pub from_dm: i64,
    pub damage: String,
    pub tn: i64,
    pub half_turns: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRow {
    pub level: i64,
    pub attribute_points: i64,
    pub condition_focus: i64,
    pub learning_hours: i64,
    pub xp: i64,
}

/// Problems in a content file: which file, which entry, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {problem}")]
pub struct ContentError {
    pub file: &'static str,
    pub problem: String,
}

impl Tables {
    pub fn parse(text: &str) -> Result<Tables, ContentError> {
        let err = |problem: String| ContentError {
            file: "grimwire/tables.toml",
            problem,
        };
        let t: Tables = toml::from_str(text).map_err(|e| err(e.to_string()))?;
        if t.format != 1 {
            return Err(err(format!(
                "format {} is not supported (expected 1)",
                t.format
            )));
        }
        let mut next_cor = 1;
        for row in &t.light_attacks {
            if row.cor_min != next_cor || row.cor_max < row.cor_min || row.attacks < 1 {
                return Err(err(format!(
                    "light_attacks row COR {}-{} breaks the 1..10 sequence",
                    row.cor_min, row.cor_max
                )));
            }
            next_cor = row.cor_max + 1;
        }
        if next_cor != 11 {
            return Err(err("light_attacks must cover COR 1 to 10".into()));
        }
        for pair in t.falling.windows(2) {
            if pair[1].from_dm <= pair[0].from_dm || pair[1].tn <= pair[0].tn {
                return Err(err(format!(
                    "falling rows must grow: {} dm after {} dm",
                    pair[1].from_dm, pair[0].from_dm
                )));
            }
        }
        for row in &t.falling {
            DiceExpr::parse(&row.damage)
                .map_err(|e| err(format!("falling {} dm: {e}", row.from_dm)))?;
        }
        for (i, row) in t.levels.iter().enumerate() {
            let expected = i64::try_from(i).unwrap_or(i64::MAX) + 1;
            if row.level != expected {
                return Err(err(format!(
                    "levels must run 1..10 in order; found {} at position {expected}",
                    row.level
                )));
            }
        }
        for pair in t.levels.windows(2) {
            if pair[1].xp <= pair[0].xp {
                return Err(err(format!(
                    "level {} needs no more XP than level {}",
                    pair[1].level, pair[0].level
                )));
            }
        }
        if t.levels.len() != 10 {
            return Err(err("levels must list exactly levels 1 to 10".into()));
        }
        Ok(t)
    }

    /// Attacks per turn with light weapons. COR 0 and below (not in the text) get one.
    pub fn light_attacks(&self, cor: i64) -> i64 {
        self.light_attacks
            .iter()
            .find(|r| (r.cor_min..=r.cor_max).contains(&cor))
            .map(|r| r.attacks)
            .unwrap_or(if cor > 10 { 4 } else { 1 })
    }

    /// Penalty for shooting at `distance_m` with a weapon of range `range_m`.
    pub fn range_penalty(&self, distance_m: i64, range_m: i64) -> i64 {
        let over = distance_m - range_m;
        if over <= 0 {
            0
        } else if over <= self.beyond_range.near_m {
            self.beyond_range.near_penalty
        } else {
            self.beyond_range.far_penalty
        }
    }

    /// The level a character with `xp` has reached.
    pub fn level_for_xp(&self, xp: i64) -> i64 {
        self.levels
            .iter()
            .filter(|r| r.xp <= xp)
            .map(|r| r.level)
            .max()
            .unwrap_or(1)
    }

    /// The falling row for a fall of `height_dm` decimetres: the highest row not above it;
    /// from the last row on, the last row applies. `None` below the first row (no damage).
    pub fn fall(&self, height_dm: i64) -> Option<&FallRow> {
        self.falling.iter().rev().find(|r| r.from_dm <= height_dm)
    }
}

/// The shipped tables. They are validated by a unit test, so a bad edit fails CI; at runtime
/// a parse failure cannot happen for the embedded file, and falls back to an empty table set
/// rather than panicking.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        Tables::parse(TABLES).unwrap_or_else(|_| Tables {
            format: 1,
            light_attacks: vec![],
            range_bands: vec![],
            beyond_range: BeyondRange {
                near_m: 9,
                near_penalty: -5,
                far_penalty: -10,
            },
            falling: vec![],
            levels: vec![],
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_tables_parse_and_validate() {
        Tables::parse(TABLES).unwrap();
    }

    #[test]
    fn light_weapon_attacks_follow_the_cor_table() {
        let t = tables();
        let got: Vec<i64> = (0..=10).map(|cor| t.light_attacks(cor)).collect();
        assert_eq!(got, vec![1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]);
    }

    #[test]
    fn range_penalty_is_minus_5_within_9_m_beyond_and_minus_10_further() {
        let t = tables();
        assert_eq!(t.range_penalty(18, 18), 0);
        assert_eq!(t.range_penalty(27, 18), -5);
        assert_eq!(t.range_penalty(28, 18), -10);
    }

    #[test]
    fn levels_match_the_xp_thresholds() {
        let t = tables();
        assert_eq!(t.level_for_xp(0), 1);
        assert_eq!(t.level_for_xp(19), 1);
        assert_eq!(t.level_for_xp(20), 2);
        assert_eq!(t.level_for_xp(999), 9);
        assert_eq!(t.level_for_xp(1000), 10);
    }

    #[test]
    fn falls_use_the_row_at_or_below_and_cap_at_180_m() {
        let t = tables();
        assert!(t.fall(40).is_none());
        assert_eq!(t.fall(300).map(|r| r.tn), Some(16));
        assert_eq!(
            t.fall(5000).map(|r| (r.damage.as_str(), r.tn)),
            Some(("6d20", 28))
        );
    }

    #[test]
    fn a_broken_table_is_refused_with_the_row_named() {
        let broken = TABLES.replacen("cor_min = 3", "cor_min = 4", 1);
        let err = Tables::parse(&broken).unwrap_err();
        assert!(err.problem.contains("COR 4-5"), "{err}");
    }
}
