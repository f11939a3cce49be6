//! The export file: a seat's copy of a table's log, documented in `docs/FAIRNESS.md` (format
//! `tablehold-log`, version 1).
//!
//! Two layouts hold the same data. The document layout is one JSON object
//! `{"header": {...}, "events": [...]}`; the lines layout (`--jsonl`) is the header object on the
//! first line and one event object per line after it. Each event carries its header text, its
//! parts (each either the part's JSON text, or the hex SHA-256 of a part this viewer may not
//! see) and its link, so the chain can be checked from the file alone.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The `format` field of every export.
pub const FORMAT: &str = "tablehold-log";
/// The newest file version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// What the file is and whose view it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogHeader {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written by this build.
    pub version: u32,
    pub table: TableInfo,
    /// Whose view this is: `gm` (complete) or `seat:<id>` (redacted for that seat).
    pub viewer: String,
    pub exported_at_ms: u64,
    /// How many events follow, so a file cut short at a line boundary is still caught.
    pub event_count: u64,
}

/// The table the log belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    pub id: String,
    pub name: String,
    pub system: String,
    /// The resolved table options (an object of option key to value).
    pub options: serde_json::Value,
}

/// One event of an export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedEvent {
    /// The header text hashed into the link: `{"seq":S,"version":V,"at_ms":T}`.
    pub header: String,
    pub parts: Vec<ExportedPart>,
    /// This event's link, hex.
    pub link: String,
}

/// A part as the viewer holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ExportedPart {
    /// The part's JSON text, byte for byte as logged.
    Shown { json: String },
    /// A part the viewer may not see: only its SHA-256, hex.
    Hidden { hidden: String },
}

/// A whole export in memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogFile {
    pub header: LogHeader,
    pub events: Vec<ExportedEvent>,
}

/// Why a file could not be read as an export. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LogFileError {
    #[error("{path}: {detail}")]
    Io { path: PathBuf, detail: String },
    #[error("{path}: not a Tablehold log export ({detail})")]
    Foreign { path: PathBuf, detail: String },
    #[error(
        "{path}: written by a newer Tablehold (log format version {found}; this build reads up to {FORMAT_VERSION}); upgrade Tablehold to read it"
    )]
    Newer { path: PathBuf, found: u32 },
    #[error("{path}: line {line}: {detail}")]
    Malformed {
        path: PathBuf,
        line: usize,
        detail: String,
    },
    #[error("{path}: truncated: the header announces {expected} events but the file holds {found}")]
    Truncated {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
}

impl LogFile {
    /// The document layout, pretty enough to read, exact where it matters (texts are strings).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The lines layout: the header, then one event per line.
    pub fn to_jsonl(&self) -> String {
        let mut out = serde_json::to_string(&self.header).unwrap_or_default();
        out.push('\n');
        for e in &self.events {
            out.push_str(&serde_json::to_string(e).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// Reads either layout from a file.
    ///
    /// # Errors
    ///
    /// See [`LogFileError`]: the file cannot be read, is not an export, is from a newer
    /// release, is malformed (with the line), or has fewer events than its header says.
    pub fn read(path: &Path) -> Result<LogFile, LogFileError> {
        LogFile::parse(path, &read_bytes(path)?)
    }

    /// [`LogFile::read`] through [`LogFile::parse_events`].
    ///
    /// # Errors
    ///
    /// As [`LogFile::parse_events`].
    pub fn read_events(path: &Path) -> Result<LogFile, LogFileError> {
        LogFile::parse_events(path, &read_bytes(path)?)
    }

    /// Reads either layout from bytes; `path` only names the source in errors.
    ///
    /// # Errors
    ///
    /// As [`LogFile::read`].
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<LogFile, LogFileError> {
        let file = LogFile::parse_events(path, bytes)?;
        let found = u64::try_from(file.events.len()).unwrap_or(u64::MAX);
        if found != file.header.event_count {
            return Err(LogFileError::Truncated {
                path: path.to_owned(),
                expected: file.header.event_count,
                found,
            });
        }
        Ok(file)
    }

    /// [`LogFile::parse`] without comparing the events with the header's count: for `verify`,
    /// which reports an event missing from a file of whole events at the seq where it is
    /// missing, as every verifier must (`docs/FAIRNESS.md`, section 9).
    ///
    /// # Errors
    ///
    /// As [`LogFile::read`], but for the count.
    pub fn parse_events(path: &Path, bytes: &[u8]) -> Result<LogFile, LogFileError> {
        let text = std::str::from_utf8(bytes).map_err(|e| LogFileError::Foreign {
            path: path.to_owned(),
            detail: format!("not UTF-8 text: {e}"),
        })?;
        let first = text.lines().next().unwrap_or("");
        let file = if let Ok(header) = serde_json::from_str::<serde_json::Value>(first)
            && header.get("format").is_some()
        {
            parse_lines(path, text, header)?
        } else {
            parse_document(path, text)?
        };
        Ok(file)
    }
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, LogFileError> {
    std::fs::read(path).map_err(|e| LogFileError::Io {
        path: path.to_owned(),
        detail: e.to_string(),
    })
}

/// Checks the identifying fields before anything else, so a foreign or newer file gets the
/// error that says so rather than a complaint about some field deep inside it.
fn check_header(path: &Path, value: &serde_json::Value) -> Result<LogHeader, LogFileError> {
    let format = value.get("format").and_then(|f| f.as_str());
    if format != Some(FORMAT) {
        return Err(LogFileError::Foreign {
            path: path.to_owned(),
            detail: match format {
                Some(other) => format!("its format is `{other}`, not `{FORMAT}`"),
                None => "it has no `format` field".to_owned(),
            },
        });
    }
    let version = value.get("version").and_then(|v| v.as_u64());
    match version {
        Some(v) if v > u64::from(FORMAT_VERSION) => {
            return Err(LogFileError::Newer {
                path: path.to_owned(),
                found: u32::try_from(v).unwrap_or(u32::MAX),
            });
        }
        Some(v) if v >= 1 => {}
        _ => {
            return Err(LogFileError::Malformed {
                path: path.to_owned(),
                line: 1,
                detail: "the header's `version` must be a positive integer".to_owned(),
            });
        }
    }
    serde_json::from_value(value.clone()).map_err(|e| LogFileError::Malformed {
        path: path.to_owned(),
        line: 1,
        detail: format!("header: {e}"),
    })
}

fn parse_lines(
    path: &Path,
    text: &str,
    header: serde_json::Value,
) -> Result<LogFile, LogFileError> {
    let header = check_header(path, &header)?;
    let mut events = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let event = serde_json::from_str(line).map_err(|e| LogFileError::Malformed {
            path: path.to_owned(),
            line: i + 1,
            detail: e.to_string(),
        })?;
        events.push(event);
    }
    Ok(LogFile { header, events })
}

fn parse_document(path: &Path, text: &str) -> Result<LogFile, LogFileError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| LogFileError::Foreign {
            path: path.to_owned(),
            detail: format!("not JSON, or cut short: {e}"),
        })?;
    let header = value.get("header").ok_or_else(|| LogFileError::Foreign {
        path: path.to_owned(),
        detail: "it has no `header`".to_owned(),
    })?;
    check_header(path, header)?;
    serde_json::from_value(value).map_err(|e| LogFileError::Malformed {
        path: path.to_owned(),
        line: 0,
        detail: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> LogFile {
        LogFile {
            header: LogHeader {
                format: FORMAT.into(),
                version: FORMAT_VERSION,
                table: TableInfo {
                    id: "t1".into(),
                    name: "Crypt".into(),
                    system: "grimwire".into(),
                    options: serde_json::json!({"diagonal": "alternate"}),
                },
                viewer: "seat:ines".into(),
                exported_at_ms: 5,
                event_count: 2,
            },
            events: vec![
                ExportedEvent {
                    header: r#"{"seq":1,"version":1,"at_ms":3}"#.into(),
                    parts: vec![ExportedPart::Shown {
                        json: r#"{"audience":"everyone","fact":{"fact":"noted","text":"é"}}"#
                            .into(),
                    }],
                    link: "00".repeat(32),
                },
                ExportedEvent {
                    header: r#"{"seq":2,"version":1,"at_ms":4}"#.into(),
                    parts: vec![ExportedPart::Hidden {
                        hidden: "ab".repeat(32),
                    }],
                    link: "11".repeat(32),
                },
            ],
        }
    }

    #[test]
    fn both_layouts_read_back_the_same_file() {
        let f = sample();
        let p = Path::new("x.json");
        assert_eq!(LogFile::parse(p, f.to_json().as_bytes()).expect("json"), f);
        assert_eq!(
            LogFile::parse(p, f.to_jsonl().as_bytes()).expect("jsonl"),
            f
        );
    }

    #[test]
    fn a_cut_file_a_foreign_file_and_a_newer_file_are_named_as_such() {
        let f = sample();
        let p = Path::new("saved.jsonl");
        let lines = f.to_jsonl();
        let cut = &lines[..=lines.trim_end().rfind('\n').expect("a line")];
        let err = LogFile::parse(p, cut.as_bytes()).expect_err("cut");
        assert!(
            matches!(
                err,
                LogFileError::Truncated {
                    expected: 2,
                    found: 1,
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().starts_with("saved.jsonl: truncated"),
            "{err}"
        );
        // For `verify`, whole events are read, and the missing one is the verifier's to name
        // (tests/fixtures/tamper holds such files, checked with both verifiers in CI).
        let read = LogFile::parse_events(p, cut.as_bytes()).expect("whole events");
        assert_eq!((read.header.event_count, read.events.len()), (2, 1));

        let doc = f.to_json();
        let err = LogFile::parse(p, &doc.as_bytes()[..doc.len() / 2]).expect_err("half");
        assert!(matches!(err, LogFileError::Foreign { .. }), "{err}");

        let err = LogFile::parse(p, b"{\"format\":\"other\"}\n").expect_err("foreign");
        assert!(err.to_string().contains("`other`"), "{err}");
        let err = LogFile::parse(p, b"\x89PNG").expect_err("binary");
        assert!(matches!(err, LogFileError::Foreign { .. }), "{err}");

        let newer = lines.replacen("\"version\":1", "\"version\":7", 1);
        let err = LogFile::parse(p, newer.as_bytes()).expect_err("newer");
        assert!(matches!(err, LogFileError::Newer { found: 7, .. }), "{err}");
    }
}
