//! The offline rules calculator: `tablehold rules resolve | sheet check | options`. Each
//! command reads its input, calls the rules crate and returns what to print; `main` does the
//! printing and decides the exit code. Nothing here touches a table's fair dice.
//!
//! - `request`: the JSON request DTO and its conversion to rules types.
//! - `resolve`: deciding the action and its answers over scripted dice.
//! - `render`: text and JSON output, redacted for the requesting seat.

mod render;
mod request;
mod resolve;
#[cfg(test)]
mod toys;

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;
use std::str::FromStr;

use anyhow::{Context, Result};
use tablehold_rules::options::{OptionKind, OptionSpec};
use tablehold_systems::SystemId;

use crate::cli::{OptionsArgs, ResolveArgs, SheetCheckArgs};
use crate::report::Report;

fn system(id: &str) -> Result<SystemId> {
    Ok(SystemId::from_str(id)?)
}

/// `tablehold rules resolve`.
pub fn resolve(args: &ResolveArgs) -> Result<Report> {
    let system = system(&args.system)?.system();
    let faces = request::parse_faces(args.dice.as_deref().unwrap_or_default())?;
    let (name, text) = match args.request.as_deref() {
        None => ("<stdin>".to_owned(), read_stdin()?),
        Some(p) if p == Path::new("-") => ("<stdin>".to_owned(), read_stdin()?),
        Some(p) => (
            p.display().to_string(),
            std::fs::read_to_string(p)
                .with_context(|| format!("{}: cannot read the request", p.display()))?,
        ),
    };
    resolve_text(system, &name, &text, faces, args.json)
}

/// A request's text resolved under `system`: what `tablehold rules resolve` prints, for any
/// system a caller holds (the CLI's are the shipped ones; the tests also run the toy ones).
fn resolve_text(
    system: &'static dyn tablehold_rules::RuleSystem,
    name: &str,
    text: &str,
    faces: Vec<u32>,
    json: bool,
) -> Result<Report> {
    let prepared = request::parse(text)
        .and_then(|dto| dto.prepare(system))
        .with_context(|| name.to_owned())?;
    let res = resolve::resolve(system, prepared, faces)?;
    let stdout = if json {
        let mut s = render::json(&res).context("internal: the report does not serialize")?;
        s.push('\n');
        s
    } else {
        render::text(&res)
    };
    let mut warnings = Vec::new();
    if !res.unused.is_empty() {
        let faces: Vec<String> = res.unused.iter().map(ToString::to_string).collect();
        warnings.push(format!(
            "{} face(s) given but not drawn: {} (the {} needed only {})",
            res.unused.len(),
            faces.join(","),
            if res.stepwise { "steps" } else { "action" },
            res.dice.len()
        ));
    }
    Ok(Report { stdout, warnings })
}

fn read_stdin() -> Result<String> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("<stdin>: cannot read the request")?;
    Ok(text)
}

/// `tablehold rules sheet check`.
pub fn sheet_check(args: &SheetCheckArgs) -> Result<Report> {
    let system = system(&args.system)?;
    let file = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("{file}: cannot read the sheet"))?;
    let c = system
        .system()
        .sheet_from_toml(&text)
        .with_context(|| file.clone())?;
    // The level is read from the sheet's serde form so this command names no system's type.
    let sheet = serde_json::to_value(&c.sheet).context("internal: the sheet does not serialize")?;
    let kind = serde_json::to_value(c.kind)
        .ok()
        .and_then(|k| k.as_str().map(str::to_owned))
        .unwrap_or_default();
    let level = sheet
        .get("level")
        .and_then(serde_json::Value::as_i64)
        .map(|l| format!(", level {l}"))
        .unwrap_or_default();
    Ok(Report {
        stdout: format!("ok: {} ({}, {kind}{level})\n", c.id, c.name),
        warnings: vec![],
    })
}

/// `tablehold rules options`.
pub fn options(args: &OptionsArgs) -> Result<Report> {
    let system = system(&args.system)?;
    let specs = system.system().options();
    let stdout = if args.json {
        let mut s = serde_json::to_string_pretty(&specs)
            .context("internal: the options do not serialize")?;
        s.push('\n');
        s
    } else {
        options_text(&specs)
    };
    Ok(Report {
        stdout,
        warnings: vec![],
    })
}

fn options_text(specs: &[OptionSpec]) -> String {
    let mut out = String::new();
    for (i, spec) in specs.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let values = match &spec.kind {
            OptionKind::Bool => "true | false".to_owned(),
            OptionKind::Int { min, max } => format!("an integer from {min} to {max}"),
            OptionKind::Choice { choices } => choices.join(" | "),
        };
        let _ = writeln!(out, "{}", spec.key);
        let _ = writeln!(out, "    default: {}", spec.default);
        let _ = writeln!(out, "    values:  {values}");
        let _ = writeln!(out, "    {}", spec.help);
    }
    out
}
