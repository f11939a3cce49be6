//! Who can reach whom with a melee weapon. The text calls two creatures adjacent when they
//! stand within 6 feet with a clear path between them, and says cover, walls and obstacles
//! break that; a longer weapon's reach is read the same way. On the grid a path is broken by a
//! cell the GM marked blocking or giving cover that lies on the line between the two, or by
//! two such cells meeting corner to corner where the line slips between them; one wall's
//! corner alone does not stop a diagonal reach (`grid::path_clear`).

use crate::engine::Ctx;
use crate::grid::{distance, path_clear};
use crate::state::{Combatant, StateView};

use super::GRID;

/// Feet between two creatures on the grid, if both stand on it. A cell's distance is its far
/// edge: the next cell is 5 ft, within a 6 ft reach.
pub fn feet_between(ctx: &Ctx<'_>, c: &Combatant, t: &Combatant) -> Option<i64> {
    let (a, b) = (c.position?, t.position?);
    let cells = distance(a, b, ctx.state.options().diagonal());
    Some(
        i64::try_from(cells)
            .unwrap_or(i64::MAX)
            .saturating_mul(i64::from(GRID.cell_size)),
    )
}

/// Whether nothing the GM marked on the map stands between the two; true off the grid.
pub fn clear_path(ctx: &Ctx<'_>, c: &Combatant, t: &Combatant) -> bool {
    match (c.position, t.position) {
        (Some(a), Some(b)) => path_clear(a, b, &ctx.state.encounter().terrain, |cell| {
            cell.blocking || cell.cover.is_some()
        }),
        _ => true,
    }
}

/// Whether `c`'s melee reach of `reach_ft` takes in `t`: near enough with a clear path. Off
/// the grid the GM judges it, so it is taken as yes.
pub fn reaches(ctx: &Ctx<'_>, c: &Combatant, t: &Combatant, reach_ft: i64) -> bool {
    feet_between(ctx, c, t).is_none_or(|feet| feet <= reach_ft) && clear_path(ctx, c, t)
}
