//! State digests: a fingerprint of a table's domain state, so that a state rebuilt from the log
//! can be checked against the state the server held.
//!
//! A digest is the SHA-256 of a projection of the state: a canonical JSON document
//! (combatants sorted by id, ordered maps only, integers only, no options, no clock, no
//! connection data) prefixed by its version's tag. Each projection version is frozen code of
//! its own, with its own structs, so the domain types may grow without changing the digest any
//! log already records; a log records which projection each digest used
//! ([`crate::Fact::DigestRecorded`]'s `projection`), and a replay computes that one.

pub mod v1;
pub mod v2;
pub mod v3;

use sha2::{Digest, Sha256};

use crate::state::StateView;

/// The projection this build records in new logs.
pub const CURRENT: u32 = 3;

/// A projection this build cannot compute: a newer Tablehold wrote the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the log's state digests use projection {found}, which a newer Tablehold release computes; \
     this build computes projections 1 to {CURRENT}: upgrade Tablehold to replay it"
)]
pub struct UnknownProjection {
    pub found: u32,
}

/// The digest of `state` under projection `version`, as 64 hex digits.
///
/// # Errors
///
/// `version` is not a projection this build knows.
pub fn digest(version: u32, state: &dyn StateView) -> Result<String, UnknownProjection> {
    let (tag, body) = match version {
        1 => (v1::TAG, v1::projection(state)),
        2 => (v2::TAG, v2::projection(state)),
        3 => (v3::TAG, v3::projection(state)),
        found => return Err(UnknownProjection { found }),
    };
    let mut hasher = Sha256::new();
    hasher.update(tag);
    hasher.update(body);
    Ok(hex::encode(hasher.finalize()))
}

/// The digest new logs record: projection [`CURRENT`].
pub fn current(state: &dyn StateView) -> String {
    // CURRENT is always a known projection.
    digest(CURRENT, state).unwrap_or_default()
}

/// Projection 1's digest, as every log before versioned projections recorded it.
pub fn digest_v1(state: &dyn StateView) -> String {
    digest(1, state).unwrap_or_default()
}

#[cfg(test)]
mod tests;
