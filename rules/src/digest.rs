//! `DigestV1`: a fingerprint of a table's domain state, so that a state rebuilt from the log
//! can be checked against the state the server held.
//!
//! The projection is canonical: combatants sorted by domain id, ordered maps only, integers
//! only, no options, no clock, no connection data. It is written as JSON (the key order of
//! structs and ordered maps is fixed, and integers print exactly) prefixed by the version tag,
//! and hashed with SHA-256. Changing what goes in makes a new version; `DigestV1` never changes.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::state::{Combatant, Encounter, StateView};

#[derive(Serialize)]
struct ProjectionV1<'a> {
    combatants: Vec<&'a Combatant>,
    encounter: &'a Encounter,
}

/// The SHA-256 of the canonical projection, as 64 hex digits.
pub fn digest_v1(state: &dyn StateView) -> String {
    let combatants = state
        .combatant_ids()
        .iter()
        .filter_map(|id| state.combatant(id))
        .collect();
    let projection = ProjectionV1 {
        combatants,
        encounter: state.encounter(),
    };
    let mut hasher = Sha256::new();
    hasher.update(b"tablehold-digest-v1\n");
    // Serializing plain data to a Vec cannot fail; an empty body would still be a fixed value.
    hasher.update(serde_json::to_vec(&projection).unwrap_or_default());
    hex::encode(hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::MemoryState;

    #[test]
    fn the_digest_is_stable_and_sees_every_change() {
        let empty = MemoryState::default();
        let a = digest_v1(&empty);
        assert_eq!(a, digest_v1(&MemoryState::default()));
        assert_eq!(a.len(), 64);
        let mut changed = MemoryState::default();
        changed.encounter.round = 1;
        assert_ne!(a, digest_v1(&changed));
    }
}
