//! Comparing a log with what a seat kept of it earlier: the one defence against a host that
//! rewrites history and seals the chain again (docs/FAIRNESS.md, threat model). What was kept
//! may be an export saved earlier, or the lines `tablehold log --jsonl` printed as events
//! arrived (each carries its event's link). Each link covers everything before it; checking
//! every kept link names the first event that changed.

use std::collections::BTreeMap;

use crate::file::LogFile;

/// Why a log does not extend what was kept of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("the earlier copy is of table {old}, this log of table {new}")]
    OtherTable { old: String, new: String },
    #[error("the earlier copy holds event {old} but this log ends at {new}: events were removed")]
    Shorter { old: u64, new: u64 },
    #[error(
        "event {seq} differs from the earlier copy (its link was {old}, is now {new}): the log was rewritten from there on"
    )]
    Rewritten { seq: u64, old: String, new: String },
}

/// What was kept of a log: links by sequence number, and the table when known.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Kept {
    pub table: Option<String>,
    pub links: BTreeMap<u64, String>,
}

impl Kept {
    /// The links of an export.
    pub fn of_export(file: &LogFile) -> Kept {
        Kept {
            table: Some(file.header.table.id.clone()),
            links: (1u64..)
                .zip(file.events.iter().map(|e| e.link.clone()))
                .collect(),
        }
    }

    /// The links of the lines `tablehold log --jsonl` printed (`{"seq", "table", "link", ...}`
    /// per line), a cut-off last line aside; `None` if the text is not such lines, names
    /// event 0, or holds no link.
    pub fn of_event_lines(text: &str) -> Option<Kept> {
        #[derive(serde::Deserialize)]
        struct Line {
            seq: u64,
            #[serde(default)]
            table: Option<String>,
            #[serde(default)]
            link: String,
        }
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let mut links = BTreeMap::new();
        let mut table = None;
        for (i, line) in lines.iter().enumerate() {
            let l: Line = match serde_json::from_str(line) {
                Ok(l) => l,
                // A follower stopped mid-line leaves its last line cut short: the lines before
                // it still count.
                Err(_) if i + 1 == lines.len() && i > 0 => break,
                Err(_) => return None,
            };
            if l.seq == 0 {
                return None;
            }
            if l.table.is_some() {
                table = l.table;
            }
            if !l.link.is_empty() {
                links.insert(l.seq, l.link);
            }
        }
        (!links.is_empty()).then_some(Kept { table, links })
    }
}

/// Checks that `new` extends what was kept: same table (when known), every kept event still
/// there, each with the same link. Links do not depend on who received or exported an event,
/// so a player's copy checks the GM's export and the other way round. Returns how many events
/// were compared.
///
/// # Errors
///
/// The first way `new` departs from what was kept.
pub fn extends_kept(new: &LogFile, kept: &Kept) -> Result<usize, HistoryError> {
    if let Some(old) = &kept.table
        && *old != new.header.table.id
    {
        return Err(HistoryError::OtherTable {
            old: old.clone(),
            new: new.header.table.id.clone(),
        });
    }
    let held = u64::try_from(new.events.len()).unwrap_or(u64::MAX);
    if let Some((&last, _)) = kept.links.last_key_value()
        && last > held
    {
        return Err(HistoryError::Shorter {
            old: last,
            new: held,
        });
    }
    for (&seq, old) in &kept.links {
        let now = seq
            .checked_sub(1)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| new.events.get(i))
            .map_or("", |e| e.link.as_str());
        if !now.eq_ignore_ascii_case(old) {
            return Err(HistoryError::Rewritten {
                seq,
                old: old.clone(),
                new: now.to_owned(),
            });
        }
    }
    Ok(kept.links.len())
}

/// [`extends_kept`] with an earlier export.
///
/// # Errors
///
/// As [`extends_kept`].
pub fn extends(new: &LogFile, old: &LogFile) -> Result<usize, HistoryError> {
    extends_kept(new, &Kept::of_export(old))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_lines_name_their_table_survive_a_cut_last_line_and_refuse_event_0() {
        let text = "{\"seq\":1,\"table\":\"t1\",\"link\":\"aa\"}\n{\"seq\":2,\"table\":\"t1\",\"link\":\"bb\"}\n{\"seq\":3,\"ta";
        let kept = Kept::of_event_lines(text).expect("lines");
        assert_eq!(kept.table.as_deref(), Some("t1"));
        assert_eq!(kept.links.len(), 2);
        assert_eq!(Kept::of_event_lines("{\"seq\":0,\"link\":\"00\"}"), None);
        assert_eq!(
            Kept::of_event_lines("{\"seq\":1,\"li\n{\"seq\":2,\"link\":\"00\"}"),
            None
        );
    }
}
