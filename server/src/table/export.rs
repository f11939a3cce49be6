//! A seat's export of the log: every event, each part either as logged (bytes untouched, so
//! its hash is the one in the chain) or, when the seat may not see it, only its hash. The
//! same `Audience::admits` that redacts live events decides here (invariant 6).

use tablehold_log::{ExportedEvent, ExportedPart, header_bytes, part_hash, split_parts};
use tablehold_rules::dice::fair::to_hex;
use tablehold_rules::{Part, Seat};

use super::load::LoggedEvent;

/// The text of an export page stops growing past this, well inside a server frame.
pub const PAGE_BYTES: usize = 256 * 1024;

/// One event as `seat` may hold it.
pub fn exported(e: &LoggedEvent, seat: &Seat) -> ExportedEvent {
    // The stored bytes split into the same number of parts as were decoded from them; should
    // that ever fail, each part is written afresh, and verification will say the chain broke.
    let raw: Vec<String> = match split_parts(&e.stored) {
        Ok(raw) if raw.len() == e.parts.len() => raw.iter().map(|r| r.get().to_owned()).collect(),
        _ => e
            .parts
            .iter()
            .map(|p| serde_json::to_string(p).unwrap_or_default())
            .collect(),
    };
    let parts = e
        .parts
        .iter()
        .zip(raw)
        .map(|(part, json): (&Part, String)| {
            // The GM's export is complete: the stand-ins made for the other seats too.
            if seat.is_gm() || part.audience.admits(seat) {
                ExportedPart::Shown { json }
            } else {
                ExportedPart::Hidden {
                    hidden: to_hex(&part_hash(json.as_bytes())),
                }
            }
        })
        .collect();
    ExportedEvent {
        header: header_bytes(e.seq, e.version, e.at_ms),
        parts,
        link: to_hex(&e.link),
    }
}

/// The events after `after` that fit one page, and whether more remain.
pub fn page(events: &[LoggedEvent], after: u64, seat: &Seat) -> (Vec<ExportedEvent>, bool) {
    let start = events.partition_point(|e| e.seq <= after);
    let mut out = Vec::new();
    let mut bytes = 0;
    for e in &events[start..] {
        if bytes >= PAGE_BYTES {
            return (out, true);
        }
        let x = exported(e, seat);
        bytes += x.header.len()
            + x.link.len()
            + x.parts
                .iter()
                .map(|p| match p {
                    ExportedPart::Shown { json } => json.len() + 16,
                    ExportedPart::Hidden { hidden } => hidden.len() + 16,
                })
                .sum::<usize>();
        out.push(x);
    }
    (out, false)
}
