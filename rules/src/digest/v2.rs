//! Projection 2, frozen: projection 1 and the scene's terrain, the first field the domain grew
//! after projections had versions. The encounter object gains `terrain`, a list of the cells
//! that are not open ground, in cell order (x, then y), each with all four of its fields.

use serde::Serialize;

use super::v1;
use crate::state::StateView;

/// What the hash starts with, before the projection's JSON.
pub const TAG: &[u8] = b"tablehold-digest-v2\n";

#[derive(Serialize)]
struct Projection<'a> {
    combatants: Vec<v1::CombatantV1<'a>>,
    encounter: EncounterV2<'a>,
}

#[derive(Serialize)]
struct EncounterV2<'a> {
    #[serde(flatten)]
    v1: v1::EncounterV1<'a>,
    terrain: Vec<TerrainV2<'a>>,
}

#[derive(Serialize)]
struct TerrainV2<'a> {
    x: i32,
    y: i32,
    difficult: bool,
    blocking: bool,
    cover: Option<&'a str>,
}

/// The projection's JSON: combatants in id order, then the encounter with its terrain.
pub fn projection(state: &dyn StateView) -> Vec<u8> {
    let ids = state.combatant_ids();
    let encounter = state.encounter();
    let projection = Projection {
        combatants: ids
            .iter()
            .filter_map(|id| state.combatant(id))
            .map(v1::combatant)
            .collect(),
        encounter: EncounterV2 {
            v1: v1::encounter(encounter),
            terrain: encounter
                .terrain
                .iter()
                .map(|(cell, t)| TerrainV2 {
                    x: cell.x,
                    y: cell.y,
                    difficult: t.difficult,
                    blocking: t.blocking,
                    cover: t.cover.as_deref(),
                })
                .collect(),
        },
    };
    // Plain data with string keys: serializing to a Vec cannot fail.
    serde_json::to_vec(&projection).unwrap_or_default()
}
