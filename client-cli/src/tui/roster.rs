//! The roster: the combatants as the turn-order pane lists them and as Ctrl-N/P walks them.
//!
//! A player's seat sees the turn order as it is. The GM runs every NPC and so sees many more
//! lines; the GM's roster puts the characters the players play first, in turn order, and then
//! the GM's own characters grouped by side, each group under a heading that says the numbers
//! below it are the GM's alone (so that nobody reads them out). Grouping moves lines away from
//! their place in the order, so in the GM's roster each line carries that place as a number.
//!
//! Only reads the model; nothing here draws.

use tablehold_protocol::CombatantView;

use super::model::Model;

/// One line of the roster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row<'a> {
    /// The heading of a group of the GM's own characters (those no player plays) on `side`.
    GmGroup { side: &'a str, count: usize },
    /// A combatant; `place` is its place in the turn order (1 first), shown in the GM's
    /// grouped roster, `None` for a combatant outside the order or in a player's roster.
    Combatant {
        c: &'a CombatantView,
        place: Option<usize>,
    },
}

/// The roster's lines for this seat: grouped for the GM, the plain turn order for anyone else.
pub fn rows(m: &Model) -> Vec<Row<'_>> {
    let listed = m.in_order();
    if !m.seat.is_gm() {
        return listed
            .into_iter()
            .map(|c| Row::Combatant { c, place: None })
            .collect();
    }
    let place = |c: &CombatantView| {
        m.scene
            .as_ref()
            .and_then(|s| s.order.iter().position(|id| *id == c.id))
            .map(|i| i + 1)
    };
    let (gms, players): (Vec<&CombatantView>, Vec<&CombatantView>) =
        listed.into_iter().partition(|c| c.owner.is_none());
    let mut out: Vec<Row> = players
        .into_iter()
        .map(|c| Row::Combatant { c, place: place(c) })
        .collect();
    // The sides in the order their first member comes.
    let mut sides: Vec<&str> = Vec::new();
    for c in &gms {
        if !sides.contains(&c.side.as_str()) {
            sides.push(c.side.as_str());
        }
    }
    for side in sides {
        let members: Vec<&CombatantView> = gms.iter().copied().filter(|c| c.side == side).collect();
        out.push(Row::GmGroup {
            side,
            count: members.len(),
        });
        out.extend(
            members
                .into_iter()
                .map(|c| Row::Combatant { c, place: place(c) }),
        );
    }
    out
}

/// The combatants in the roster's order: what Ctrl-N and Ctrl-P step through, so the
/// selection moves down the pane as it is drawn.
pub fn combatants(m: &Model) -> Vec<&CombatantView> {
    rows(m)
        .into_iter()
        .filter_map(|r| match r {
            Row::Combatant { c, .. } => Some(c),
            Row::GmGroup { .. } => None,
        })
        .collect()
}
