//! `verify` and `replay`: checking a table's log without trusting the server. The checking is
//! `tablehold_log`'s; this module picks the log (a file, or a table's log fetched through
//! `remote::fetch`), words the verdict and says which exit status it deserves. `main` prints
//! and exits.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;
use tablehold_log::replay::{Replayed, check_digests};
use tablehold_log::{LogFile, LogFileError, ReplayErrorKind, VerifyReport};
use tablehold_rules::digest;
use tablehold_rules::{Combatant, Encounter, Event};

use crate::cli::{GlobalArgs, ReplayArgs, VerifyArgs};
use crate::lines;
use crate::report::Report;

/// The log breaks a rule (`FAIL at seq S: ...`).
pub const EXIT_FAILED: u8 = 1;
/// The log verifies, but its dice came from the insecure test seed.
pub const EXIT_TEST_SEED: u8 = 3;
/// Nothing is wrong so far, but some dice are in epochs whose seed is not revealed yet: the
/// log cannot be called fair until it is.
pub const EXIT_NOT_YET: u8 = 4;

/// A log file that cannot be read as an export: unreadable, foreign, newer, or cut short.
/// `main` exits with 2 for it, apart from a failed check (1), because nothing was checked.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Unreadable(#[from] pub LogFileError);

/// What a check found, and the exit status it deserves (0, [`EXIT_FAILED`],
/// [`EXIT_TEST_SEED`] or [`EXIT_NOT_YET`]).
pub struct Verdict {
    pub report: Report,
    pub status: u8,
}

/// `tablehold verify`.
///
/// # Errors
///
/// The log cannot be read ([`Unreadable`]) or fetched. A log that breaks a rule is a verdict,
/// not an error.
pub fn verify(globals: &GlobalArgs, a: &VerifyArgs) -> Result<Verdict> {
    // Events missing from a file of whole events are a failure at the missing seq, not an
    // unreadable file: the verifier says where.
    let file = load(globals, &a.source, LogFile::read_events)?;
    let earlier = match &a.against {
        Some(path) => Some(kept(path)?),
        None => None,
    };
    if let Some(old) = &earlier
        && let Err(e) = tablehold_log::history::extends_kept(&file, old)
    {
        let seq = match &e {
            tablehold_log::history::HistoryError::Rewritten { seq, .. } => *seq,
            _ => 0,
        };
        return Ok(failed(seq, &e));
    }
    let report = match tablehold_log::verify(&file) {
        Ok(report) => report,
        Err(e) => return Ok(failed(e.seq, &e.kind)),
    };
    let digests = match check_digests(&file) {
        Ok(d) => d,
        Err(e) => return Ok(failed(e.seq, &e.kind)),
    };
    let mut text = ok_line(&file, &report, &digests);
    for (epoch, w) in &report.withheld {
        let _ = writeln!(text, "{}", tablehold_log::verify::withheld_line(*epoch, *w));
    }
    for line in tablehold_log::verify::hidden_dice_lines(&report) {
        let _ = writeln!(text, "{line}");
    }
    if let Some(old) = &earlier {
        let _ = writeln!(
            text,
            "the log extends the earlier copy's {} events unchanged",
            old.links.len()
        );
    }
    let mut out = Report::text(text);
    for (audience, (since, why)) in &digests.broken {
        out.warnings.push(format!(
            "the {audience} view stops applying at event {since} ({why}); the table records no \
             digest for it after that, and none is checked"
        ));
    }
    let mut status = 0;
    if report.test_seed {
        out.warnings.push(
            "this log was made with the INSECURE TEST SEED: its dice were known in advance to \
             anyone who knew that seed; accept it only from a test (--allow-test-seed)"
                .to_owned(),
        );
        if !a.allow_test_seed {
            status = EXIT_TEST_SEED;
        }
    }
    if status == 0 && report.dice_unrevealed > 0 {
        out.warnings.push(format!(
            "not yet verifiable: {} in epochs whose seed is not revealed yet; export and verify \
             again once the encounter or the session has ended",
            counted(report.dice_unrevealed, "die is", "dice are")
        ));
        status = EXIT_NOT_YET;
    }
    Ok(Verdict {
        report: out,
        status,
    })
}

/// `tablehold replay`.
///
/// # Errors
///
/// The log cannot be read ([`Unreadable`]) or fetched, or `--at` is past its end. A log that
/// breaks a rule on the way is a verdict, not an error.
pub fn replay(globals: &GlobalArgs, a: &ReplayArgs) -> Result<Verdict> {
    let file = load(globals, &a.source, LogFile::read)?;
    let replayed = match tablehold_log::replay(&file, a.at) {
        Ok(r) => r,
        Err(e) if matches!(e.kind, ReplayErrorKind::BeyondEnd { .. }) => {
            anyhow::bail!("{}", e.kind)
        }
        Err(e) => return Ok(failed(e.seq, &e.kind)),
    };
    let text = if a.json {
        let mut j = serde_json::to_string_pretty(&StateJson::of(&file, &replayed))?;
        j.push('\n');
        j
    } else if a.events {
        let mut text = story(&file, replayed.seq, a.verbose)?;
        text.push('\n');
        text.push_str(&summary(&file, &replayed));
        text
    } else {
        summary(&file, &replayed)
    };
    Ok(Verdict {
        report: Report::text(text),
        status: 0,
    })
}

/// What `--against` names: an earlier export, or lines `log --jsonl` printed.
/// Whether `replay` opens the viewer: no `--at`, `--json` or `--events`, and a terminal to
/// show it on (piped, it prints the summary, as scripts expect).
pub fn wants_viewer(a: &ReplayArgs) -> bool {
    use std::io::IsTerminal as _;
    a.at.is_none() && !a.json && !a.events && std::io::stdout().is_terminal()
}

/// The log for the replay viewer, checked whole first (chain, digests) as `replay` checks it:
/// a log that breaks a rule gets its `FAIL at seq S` verdict instead of a viewer.
pub fn open_for_viewer(globals: &GlobalArgs, a: &ReplayArgs) -> Result<Result<LogFile, Verdict>> {
    let file = load(globals, &a.source, LogFile::read)?;
    match tablehold_log::replay(&file, None) {
        Ok(_) => Ok(Ok(file)),
        Err(e) => Ok(Err(failed(e.seq, &e.kind))),
    }
}

fn kept(path: &Path) -> Result<tablehold_log::history::Kept> {
    match LogFile::read(path) {
        Ok(file) => Ok(tablehold_log::history::Kept::of_export(&file)),
        Err(e) => {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            match tablehold_log::history::Kept::of_event_lines(&text) {
                Some(kept) => Ok(kept),
                None => Err(Unreadable(e).into()),
            }
        }
    }
}

/// Reads the log: `source` is a file when such a path exists, or when it looks like one (so a
/// mistyped file name says the file is missing rather than that no seat sits at such a
/// table); otherwise it is a table id, fetched as this client's seat there.
fn load(
    globals: &GlobalArgs,
    source: &str,
    read: fn(&Path) -> Result<LogFile, tablehold_log::LogFileError>,
) -> Result<LogFile> {
    let path = Path::new(source);
    if path.exists() || source.contains(['/', '\\', '.']) {
        return Ok(read(path).map_err(Unreadable)?);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the async runtime: {e}"))?;
    runtime.block_on(crate::remote::fetch(globals, Some(source)))
}

fn failed(seq: u64, reason: &dyn std::fmt::Display) -> Verdict {
    let at = match seq {
        0 => "FAIL in the header".to_owned(),
        seq => format!("FAIL at seq {seq}"),
    };
    Verdict {
        report: Report::text(format!("{at}: {reason}\n")),
        status: EXIT_FAILED,
    }
}

/// `OK: 54 events, 2 epochs (2 revealed), 12 dice checked, ...`: every count of the report.
fn ok_line(file: &LogFile, r: &VerifyReport, digests: &Replayed) -> String {
    let mut line = format!(
        "OK: {}, {} ({} revealed), {} checked",
        counted(r.events, "event", "events"),
        counted(r.epochs, "epoch", "epochs"),
        r.epochs_revealed,
        counted(r.dice_checked, "die", "dice"),
    );
    if r.dice_unrevealed > 0 {
        let _ = write!(
            line,
            ", {} in epochs not yet revealed (accounted for, recomputable once their seed \
             is revealed)",
            counted(r.dice_unrevealed, "die", "dice")
        );
    }
    if r.draws_hidden > 0 {
        let _ = write!(
            line,
            ", {} hidden from this seat (accounted for by their counters)",
            counted(r.draws_hidden, "draw", "draws")
        );
    }
    let _ = writeln!(
        line,
        ", {} checked; table {} ({}), as {}{}",
        counted(digests.digests_checked, "digest", "digests"),
        file.header.table.id,
        file.header.table.name,
        r.viewer,
        if r.test_seed {
            "; INSECURE TEST SEED"
        } else {
            ""
        }
    );
    line
}

fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `replay --json`: the state as the viewer saw it, in the rules' own form.
#[derive(Serialize)]
struct StateJson<'a> {
    table: &'a tablehold_log::TableInfo,
    viewer: &'a str,
    /// The last event applied.
    seq: u64,
    /// How many events the log holds.
    events: usize,
    /// The digest of the state, as the table records it: under the projection of the log's
    /// last recorded digest (the current one for a log that has none yet).
    digest: String,
    /// That projection's version.
    projection: u32,
    digests_checked: u64,
    combatants: Vec<&'a Combatant>,
    encounter: &'a Encounter,
}

impl<'a> StateJson<'a> {
    fn of(file: &'a LogFile, r: &'a Replayed) -> Self {
        // A projection replay knows, since it computed the log's digests with it.
        let projection = r.projection.unwrap_or(digest::CURRENT);
        StateJson {
            table: &file.header.table,
            viewer: &file.header.viewer,
            seq: r.seq,
            events: file.events.len(),
            digest: digest::digest(projection, &r.state).unwrap_or_default(),
            projection,
            digests_checked: r.digests_checked,
            combatants: r.state.combatants.values().collect(),
            encounter: &r.state.encounter,
        }
    }
}

/// `replay --events`: each event up to `upto` as the log's viewer saw it, `#SEQ` and its first
/// line, further lines indented; the dice machinery only when `verbose`. An event the viewer
/// holds nothing of reads as a gap. Called once the replay has checked the log.
fn story(file: &LogFile, upto: u64, verbose: bool) -> Result<String> {
    let seat = tablehold_log::verify::viewer_of(&file.header)
        .map_err(|e| anyhow::anyhow!("{}", e.kind))?
        .seat();
    let mut reader = tablehold_log::verify::ChainReader::new();
    let mut out = String::new();
    for exported in &file.events {
        let checked = reader
            .read(exported)
            .map_err(|e| anyhow::anyhow!("at seq {}: {}", e.seq, e.kind))?;
        if checked.seq > upto {
            break;
        }
        // The GM's export holds every part, stand-ins for the other seats included: the GM
        // reads the event as the GM received it.
        let parts = checked
            .shown
            .parts
            .into_iter()
            .filter(|p| p.audience.admits(&seat))
            .filter(|p| verbose || !lines::is_machinery(&p.fact))
            .collect();
        let said = lines::event_lines(&Event { parts }, &seat, None);
        let prefix = format!("#{} ", checked.seq);
        if said.is_empty() {
            if verbose {
                let _ = writeln!(out, "{prefix}(nothing this seat may see)");
            }
            continue;
        }
        for (i, line) in said.iter().enumerate() {
            let lead = if i == 0 {
                prefix.clone()
            } else {
                " ".repeat(prefix.len())
            };
            let _ = writeln!(out, "{lead}{line}");
        }
    }
    Ok(out)
}

/// `replay` without `--json`: where the log stands, the encounter, one line per combatant.
fn summary(file: &LogFile, r: &Replayed) -> String {
    let t = &file.header.table;
    let mut out = format!(
        "table {} \"{}\" ({}), as {} saw it at event {} of {}; {} checked\n",
        t.id,
        t.name,
        t.system,
        file.header.viewer,
        r.seq,
        file.events.len(),
        counted(r.digests_checked, "digest", "digests")
    );
    let e = &r.state.encounter;
    if e.active {
        let turn = e
            .current
            .as_ref()
            .map_or_else(|| "no one's turn".to_owned(), |c| format!("{c}'s turn"));
        let _ = writeln!(out, "encounter: round {}, {turn}", e.round);
        if !e.order.is_empty() {
            let order: Vec<&str> = e.order.iter().map(|id| id.as_str()).collect();
            let _ = writeln!(out, "order: {}", order.join(", "));
        }
        if let Some(p) = e.pending.last() {
            let _ = writeln!(out, "open prompt {}: {}", p.prompt_id, p.question);
        }
    } else {
        out.push_str("no encounter\n");
    }
    if r.state.combatants.is_empty() {
        out.push_str("no combatants\n");
    }
    for c in r.state.combatants.values() {
        let _ = writeln!(out, "  {}", combatant_line(c));
    }
    out
}

/// `ines (Ines; pc, side players, seat ines) at (0, 2): condition 9, focus 6; dying`.
fn combatant_line(c: &Combatant) -> String {
    let kind = serde_json::to_value(c.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut line = format!("{} ({}; {kind}, side {}", c.id, c.name, c.side);
    if let Some(o) = &c.owner {
        let _ = write!(line, ", seat {o}");
    }
    line.push(')');
    if let Some(cell) = c.position {
        let _ = write!(line, " at ({}, {})", cell.x, cell.y);
    }
    if !c.resources.is_empty() {
        let list: Vec<String> = c
            .resources
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = write!(line, ": {}", list.join(", "));
    }
    if !c.statuses.is_empty() {
        let list: Vec<&str> = c.statuses.keys().map(String::as_str).collect();
        let _ = write!(line, "; {}", list.join(", "));
    }
    line
}
