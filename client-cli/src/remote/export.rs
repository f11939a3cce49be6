//! `log export`: the whole log as one seat may hold it, fetched page by page with `export`
//! requests (each asks for the events after the last one received, until the server says no
//! more remain) and written as a `tablehold-log` file. `verify` and `replay` use the same
//! fetch when they are given a table id rather than a file.
//!
//! Nothing here checks the log: the file is written as the server sent it, so that what is
//! verified later is exactly what the server said.

use std::path::Path;

use anyhow::{Context as _, Result, bail};
use tablehold_log::verify::parse_header;
use tablehold_log::{ExportedEvent, LogFile};
use tablehold_protocol::{Op, Reply};

use super::{Globals, Session};
use crate::cli::{GlobalArgs, LogExportArgs};
use crate::report::Report;

/// Fetches the log of `table` (the seat's own table when `None`) as the seat picked for it
/// sees it.
///
/// # Errors
///
/// No saved seat at that table, the server refusing or failing, or a page that makes no
/// progress.
pub async fn fetch(globals: &GlobalArgs, table: Option<&str>) -> Result<LogFile> {
    let g = Globals::resolve(globals)?;
    fetch_as(&g, table).await
}

/// `tablehold log export`.
pub(super) async fn export(g: &Globals, a: &LogExportArgs) -> Result<Report> {
    let file = fetch_as(g, a.table.as_deref()).await?;
    let text = if a.jsonl {
        file.to_jsonl()
    } else {
        file.to_json()
    };
    write_whole(&a.out, &text)?;
    Ok(Report::text(format!(
        "exported {} events of table {} as {} to {}\n",
        file.events.len(),
        file.header.table.id,
        file.header.viewer,
        a.out.display()
    )))
}

async fn fetch_as(g: &Globals, table: Option<&str>) -> Result<LogFile> {
    let g = seat_at(g, table)?;
    let mut s = Session::open(&g).await?;
    let mut events: Vec<ExportedEvent> = Vec::new();
    let mut after = 0;
    let header = loop {
        let Reply::ExportPage {
            header,
            events: page,
            more,
        } = s.request(Op::Export { after }).await?
        else {
            bail!("internal: unexpected answer to `export`");
        };
        let last = match page.last() {
            Some(e) => Some(
                parse_header(&e.header)
                    .map(|(seq, _, _)| seq)
                    .with_context(|| {
                        format!("the server sent an event with a bad header `{}`", e.header)
                    })?,
            ),
            None => None,
        };
        events.extend(page);
        match last {
            Some(seq) if seq > after => after = seq,
            // A page that does not move on would be asked for again forever.
            _ if more => bail!("the server's export stopped moving after event {after}"),
            _ => {}
        }
        if !more {
            break header;
        }
    };
    s.client.close().await;
    let mut header = header;
    // The pages' headers count the log when each was read; the file holds what was fetched.
    header.event_count = u64::try_from(events.len()).unwrap_or(u64::MAX);
    Ok(LogFile { header, events })
}

/// The globals with the seat to fetch `table` as: `--seat` if given (which must sit at that
/// table), else the default seat if it sits there, else the only saved seat that does.
fn seat_at(g: &Globals, table: Option<&str>) -> Result<Globals> {
    let with_seat = |name: String| Globals {
        config: g.config.clone(),
        seat: Some(name),
        ca_cert: g.ca_cert.clone(),
    };
    let Some(table) = table else {
        return Ok(with_seat_or_default(g));
    };
    if let Some(name) = &g.seat {
        let profile = g.config.load(name)?;
        if profile.table != table {
            bail!(
                "the seat `{name}` is at table {}, not {table}; pick a seat at {table} with --seat",
                profile.table
            );
        }
        return Ok(with_seat(name.clone()));
    }
    if let Ok((name, profile)) = g.config.pick(None)
        && profile.table == table
    {
        return Ok(with_seat(name));
    }
    let at: Vec<String> = g
        .config
        .names()
        .into_iter()
        .filter(|n| g.config.load(n).is_ok_and(|p| p.table == table))
        .collect();
    match at.as_slice() {
        [one] => Ok(with_seat(one.clone())),
        [] => bail!(
            "no saved seat sits at table {table}: join it first (`tablehold join`), or give an \
             export file instead"
        ),
        several => bail!(
            "several saved seats sit at table {table} ({}); pick one with --seat",
            several.join(", ")
        ),
    }
}

fn with_seat_or_default(g: &Globals) -> Globals {
    Globals {
        config: g.config.clone(),
        seat: g.seat.clone(),
        ca_cert: g.ca_cert.clone(),
    }
}

/// Writes `text` to `path` through a temporary file renamed over it, so an interrupted export
/// never leaves a file that looks whole.
fn write_whole(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    let tmp = Path::new(&tmp);
    std::fs::write(tmp, text)
        .and_then(|()| std::fs::rename(tmp, path))
        .with_context(|| format!("{}: cannot write the export", path.display()))
}
