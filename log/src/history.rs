//! Comparing a log with a copy of it saved earlier: the one defence against a host that
//! rewrites history and seals the chain again (docs/FAIRNESS.md, threat model). Each link
//! covers everything before it, so two copies agree on their common events exactly when their
//! links at the last common event agree; checking every link only names the first event that
//! changed.

use crate::file::LogFile;

/// Why a log does not extend an earlier copy of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("the earlier copy is of table {old}, this log of table {new}")]
    OtherTable { old: String, new: String },
    #[error("the earlier copy holds {old} events but this log only {new}: events were removed")]
    Shorter { old: usize, new: usize },
    #[error(
        "event {seq} differs from the earlier copy (its link was {old}, is now {new}): the log was rewritten from there on"
    )]
    Rewritten { seq: u64, old: String, new: String },
}

/// Checks that `new` extends `old`: same table, at least as many events, and the same link at
/// every event `old` holds. Links do not depend on who exported a copy, so a player's saved
/// export checks the GM's current one and the other way round. Returns how many events were
/// compared.
///
/// # Errors
///
/// The first way `new` departs from `old`.
pub fn extends(new: &LogFile, old: &LogFile) -> Result<usize, HistoryError> {
    if new.header.table.id != old.header.table.id {
        return Err(HistoryError::OtherTable {
            old: old.header.table.id.clone(),
            new: new.header.table.id.clone(),
        });
    }
    if new.events.len() < old.events.len() {
        return Err(HistoryError::Shorter {
            old: old.events.len(),
            new: new.events.len(),
        });
    }
    for (i, (n, o)) in new.events.iter().zip(&old.events).enumerate() {
        if !n.link.eq_ignore_ascii_case(&o.link) {
            return Err(HistoryError::Rewritten {
                seq: u64::try_from(i).unwrap_or(u64::MAX).saturating_add(1),
                old: o.link.clone(),
                new: n.link.clone(),
            });
        }
    }
    Ok(old.events.len())
}
