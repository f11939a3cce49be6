//! The file format and its checks: the SQLite header, the schema of format 2 and the format
//! version in `meta`, what an existing file holds (`inspect`), and the pragmas every connection
//! needs, read back. It owns the rule that nothing is written to a file until it is known to be
//! ours and of this format; it must not read or write records (that is `reads` and `writer`).

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::errors::{map_err, read_err};
use crate::store::{FORMAT_VERSION, StoreError};

/// How long a connection waits for a lock held by someone else (a backup tool, a second
/// process opened by mistake, a WAL checkpoint) before giving up with an error.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The first 16 bytes of every SQLite database. Checked before SQLite touches the file, so that
/// a file of another kind is refused without SQLite ever writing to it.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// `PRAGMA synchronous` reports FULL as 2.
const SYNCHRONOUS_FULL: i64 = 2;

/// The schema of format 2. STRICT tables and CHECKs make SQLite itself refuse a value of the
/// wrong type or size, so a bug elsewhere cannot store what a later read would reject; foreign
/// keys make a write for a table that was never created fail instead of leaving orphans.
const SCHEMA: &str = "
CREATE TABLE meta (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) STRICT;
CREATE TABLE tables (
    id TEXT PRIMARY KEY NOT NULL,
    system TEXT NOT NULL,
    name TEXT NOT NULL,
    options_json TEXT NOT NULL,
    created_ms INTEGER NOT NULL CHECK (created_ms >= 0)
) STRICT;
CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat_id TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash BLOB NOT NULL CHECK (length(token_hash) = 32),
    revoked INTEGER NOT NULL CHECK (revoked IN (0, 1)),
    PRIMARY KEY (table_id, seat_id)
) STRICT;
CREATE TABLE invites (
    table_id TEXT NOT NULL REFERENCES tables (id),
    code_hash BLOB NOT NULL CHECK (length(code_hash) = 32),
    role TEXT NOT NULL,
    used_by TEXT,
    PRIMARY KEY (table_id, code_hash)
) STRICT;
CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    version INTEGER NOT NULL CHECK (version >= 0),
    at_ms INTEGER NOT NULL CHECK (at_ms >= 0),
    parts BLOB NOT NULL,
    link BLOB NOT NULL CHECK (length(link) = 32),
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID, STRICT;
CREATE TABLE epoch_secrets (
    table_id TEXT NOT NULL REFERENCES tables (id),
    epoch INTEGER NOT NULL CHECK (epoch >= 0),
    seed BLOB NOT NULL CHECK (length(seed) = 32),
    test_seed INTEGER NOT NULL CHECK (test_seed IN (0, 1)),
    PRIMARY KEY (table_id, epoch)
) STRICT;
";

/// The snapshots: a cache beside the log, one row per table. Added to format 2 without a new
/// format number because a build that does not know it leaves it alone (it checks only the
/// tables above) and the log stays the truth: a snapshot older than the log's head is
/// followed by the events after it, and one a build cannot read is ignored.
const SNAPSHOTS: &str = "
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    link BLOB NOT NULL CHECK (length(link) = 32),
    release TEXT NOT NULL,
    body BLOB NOT NULL
) STRICT;
";

/// Each table's columns in order, and its primary key columns in key order: what an existing
/// file must have for this build to read and write it without misreading.
const EXPECTED_TABLES: &[(&str, &[&str], &[&str])] = &[
    ("meta", &["key", "value"], &["key"]),
    (
        "tables",
        &["id", "system", "name", "options_json", "created_ms"],
        &["id"],
    ),
    (
        "seats",
        &[
            "table_id",
            "seat_id",
            "name",
            "role",
            "token_hash",
            "revoked",
        ],
        &["table_id", "seat_id"],
    ),
    (
        "invites",
        &["table_id", "code_hash", "role", "used_by"],
        &["table_id", "code_hash"],
    ),
    (
        "events",
        &["table_id", "seq", "version", "at_ms", "parts", "link"],
        &["table_id", "seq"],
    ),
    (
        "epoch_secrets",
        &["table_id", "epoch", "seed", "test_seed"],
        &["table_id", "epoch"],
    ),
];

/// Refuses a file that is not empty and does not start like a SQLite database, before SQLite
/// opens it: SQLite would refuse it too, but only after we had asked it for a connection.
pub(super) fn check_header(path: &Path, name: &str) -> Result<(), StoreError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(StoreError::Io {
                path: name.to_owned(),
                detail: format!("cannot read the file: {e}"),
            });
        }
    };
    let mut head = Vec::with_capacity(SQLITE_HEADER.len());
    file.take(SQLITE_HEADER.len() as u64)
        .read_to_end(&mut head)
        .map_err(|e| StoreError::Io {
            path: name.to_owned(),
            detail: format!("cannot read the file: {e}"),
        })?;
    if head.is_empty() || head.as_slice() == SQLITE_HEADER.as_slice() {
        Ok(())
    } else {
        Err(StoreError::Corrupt {
            path: name.to_owned(),
            detail: "it is not a SQLite database (its first bytes are not the SQLite header)"
                .to_owned(),
        })
    }
}

/// What an existing file holds, as far as opening it is concerned.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum FileState {
    /// No schema at all: a new or empty file, ours to initialize.
    Empty,
    /// A Tablehold file of a format this build reads.
    Tablehold,
}

/// Classifies the file without writing to it.
pub(super) fn inspect(conn: &Connection, name: &str) -> Result<FileState, StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt {
        path: name.to_owned(),
        detail,
    };
    let mut tables = Vec::new();
    {
        let mut stmt = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
            )
            .map_err(|e| map_err(name, e))?;
        let mut rows = stmt.query([]).map_err(|e| map_err(name, e))?;
        while let Some(row) = rows.next().map_err(|e| read_err(name, e))? {
            tables.push(row.get::<_, String>(0).map_err(|e| read_err(name, e))?);
        }
    }
    if tables.is_empty() {
        let objects: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))
            .map_err(|e| read_err(name, e))?;
        return if objects == 0 {
            Ok(FileState::Empty)
        } else {
            Err(corrupt(
                "it holds views, indexes or triggers of another application".to_owned(),
            ))
        };
    }
    if !tables.iter().any(|t| t == "meta") {
        return Err(corrupt(format!(
            "it has no Tablehold `meta` table; it holds another application's tables ({})",
            tables.join(", ")
        )));
    }

    // The version decides how to read the rest, so it is checked before the columns.
    let version: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'format_version'",
            [],
            |row| row.get(0),
        )
        .optional()
        .map_err(|e| read_err(name, e))?;
    let Some(version) = version else {
        return Err(corrupt("`meta` has no format_version".to_owned()));
    };
    let found: u32 = version
        .trim()
        .parse()
        .map_err(|_| corrupt(format!("format_version `{version}` is not a number")))?;
    if found > FORMAT_VERSION {
        return Err(StoreError::NewerFormat {
            path: name.to_owned(),
            found,
        });
    }
    if found == 0 {
        return Err(corrupt("format_version 0 was never written".to_owned()));
    }
    if found < FORMAT_VERSION {
        return Err(StoreError::OlderFormat {
            path: name.to_owned(),
            found,
        });
    }

    for (table, columns, key) in EXPECTED_TABLES {
        check_table(conn, name, table, columns, key)?;
    }
    Ok(FileState::Tablehold)
}

/// Whether `table` has exactly `columns` in order with primary key `key`: what this build must
/// find to read and write it without misreading.
fn check_table(
    conn: &Connection,
    name: &str,
    table: &str,
    columns: &[&str],
    key: &[&str],
) -> Result<(), StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt {
        path: name.to_owned(),
        detail,
    };
    let mut stmt = conn
        .prepare("SELECT name, pk FROM pragma_table_info(?1) ORDER BY cid")
        .map_err(|e| map_err(name, e))?;
    let mut rows = stmt.query(params![table]).map_err(|e| map_err(name, e))?;
    let mut found_columns = Vec::new();
    let mut found_key = Vec::new();
    while let Some(row) = rows.next().map_err(|e| read_err(name, e))? {
        let column: String = row.get(0).map_err(|e| read_err(name, e))?;
        let pk: i64 = row.get(1).map_err(|e| read_err(name, e))?;
        if pk > 0 {
            found_key.push((pk, column.clone()));
        }
        found_columns.push(column);
    }
    found_key.sort();
    let found_key: Vec<&str> = found_key.iter().map(|(_, c)| c.as_str()).collect();
    if found_columns.is_empty() {
        return Err(corrupt(format!("table `{table}` is missing")));
    }
    if found_columns != *columns || found_key != *key {
        return Err(corrupt(format!(
            "table `{table}` has columns ({}) with key ({}), expected ({}) with key ({})",
            found_columns.join(", "),
            found_key.join(", "),
            columns.join(", "),
            key.join(", ")
        )));
    }
    Ok(())
}

/// Sets the pragmas every connection needs and reads them back: SQLite ignores a journal mode
/// it cannot use (some network file systems) and reports the mode it kept, so only the read
/// back value says whether a commit is really durable.
pub(super) fn configure(conn: &Connection, name: &str) -> Result<(String, i64), StoreError> {
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
    )
    .map_err(|e| map_err(name, e))?;
    let journal_mode: String = conn
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .map_err(|e| read_err(name, e))?;
    let synchronous: i64 = conn
        .query_row("PRAGMA synchronous", [], |row| row.get(0))
        .map_err(|e| read_err(name, e))?;
    let foreign_keys: i64 = conn
        .query_row("PRAGMA foreign_keys", [], |row| row.get(0))
        .map_err(|e| read_err(name, e))?;
    let journal_mode = journal_mode.to_ascii_lowercase();
    if journal_mode != "wal" {
        return Err(StoreError::Durability {
            path: name.to_owned(),
            setting: "journal_mode=WAL".to_owned(),
            got: journal_mode,
        });
    }
    if synchronous != SYNCHRONOUS_FULL {
        return Err(StoreError::Durability {
            path: name.to_owned(),
            setting: "synchronous=FULL".to_owned(),
            got: synchronous.to_string(),
        });
    }
    if foreign_keys != 1 {
        return Err(StoreError::Io {
            path: name.to_owned(),
            detail: format!("SQLite refused `foreign_keys=ON` (got `{foreign_keys}`)"),
        });
    }
    Ok((journal_mode, synchronous))
}

/// Creates the schema in a new file, or checks it again, under the write lock: two processes
/// opening the same new file cannot both create it, and what was inspected cannot change
/// before it is used.
pub(super) fn create_or_check_schema(conn: &mut Connection, name: &str) -> Result<(), StoreError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| map_err(name, e))?;
    if inspect(&tx, name)? == FileState::Empty {
        tx.execute_batch(SCHEMA).map_err(|e| map_err(name, e))?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('format_version', ?1)",
            params![FORMAT_VERSION.to_string()],
        )
        .map_err(|e| map_err(name, e))?;
    }
    tx.execute_batch(SNAPSHOTS).map_err(|e| map_err(name, e))?;
    // A `snapshots` table of another shape would fail every snapshot, and every load with it.
    check_table(
        &tx,
        name,
        "snapshots",
        &["table_id", "seq", "link", "release", "body"],
        &["table_id"],
    )?;
    tx.commit().map_err(|e| map_err(name, e))
}
