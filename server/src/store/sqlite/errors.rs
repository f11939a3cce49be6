//! Error mapping for the SQLite store: a `rusqlite::Error` or an out-of-range value becomes the
//! [`StoreError`] an operator can act on, naming the file. It owns no connection and decides
//! nothing about retries; callers choose which mapping fits (a read, a write, a setting).

use rusqlite::ffi;

use crate::store::StoreError;

/// SQLite integers are signed; a larger value is refused rather than stored wrapped, which
/// would read back as a different (negative) number.
pub(super) fn to_i64(name: &str, what: &str, value: u64) -> Result<i64, StoreError> {
    i64::try_from(value).map_err(|_| StoreError::Io {
        path: name.to_owned(),
        detail: format!(
            "{what} {value} is larger than the store can hold ({})",
            i64::MAX
        ),
    })
}

/// Every u64 was stored through [`to_i64`], so a negative value was not written by Tablehold.
pub(super) fn to_u64(name: &str, what: &str, value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| StoreError::Corrupt {
        path: name.to_owned(),
        detail: format!("{what} is negative ({value})"),
    })
}

pub(super) fn to_hash(name: &str, what: &str, value: Vec<u8>) -> Result<[u8; 32], StoreError> {
    <[u8; 32]>::try_from(value.as_slice()).map_err(|_| StoreError::Corrupt {
        path: name.to_owned(),
        detail: format!("{what} is {} bytes, expected 32", value.len()),
    })
}

pub(super) fn to_bool(name: &str, what: &str, value: i64) -> Result<bool, StoreError> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(StoreError::Corrupt {
            path: name.to_owned(),
            detail: format!("{what} is {value}, expected 0 or 1"),
        }),
    }
}

/// Maps a SQLite failure to what the operator can act on.
pub(super) fn map_err(name: &str, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ffi::ErrorCode::DiskFull) => StoreError::DiskFull {
            path: name.to_owned(),
        },
        Some(ffi::ErrorCode::NotADatabase | ffi::ErrorCode::DatabaseCorrupt) => {
            StoreError::Corrupt {
                path: name.to_owned(),
                detail: e.to_string(),
            }
        }
        _ => StoreError::Io {
            path: name.to_owned(),
            detail: e.to_string(),
        },
    }
}

/// Like [`map_err`], but a value of the wrong type in a row we read means the file was not
/// written by this schema: that is corruption, not an I/O problem.
pub(super) fn read_err(name: &str, e: rusqlite::Error) -> StoreError {
    match e {
        rusqlite::Error::InvalidColumnType(..)
        | rusqlite::Error::FromSqlConversionFailure(..)
        | rusqlite::Error::IntegralValueOutOfRange(..)
        | rusqlite::Error::Utf8Error(..) => StoreError::Corrupt {
            path: name.to_owned(),
            detail: e.to_string(),
        },
        e => map_err(name, e),
    }
}

/// Like [`map_err`], but says which write a constraint refused; `duplicate` explains a primary
/// key collision in the caller's terms when the write has one.
pub(super) fn write_err(
    name: &str,
    e: rusqlite::Error,
    duplicate: impl FnOnce() -> String,
) -> StoreError {
    let detail = match e.sqlite_extended_error_code() {
        Some(ffi::SQLITE_CONSTRAINT_PRIMARYKEY) => {
            let why = duplicate();
            if why.is_empty() { e.to_string() } else { why }
        }
        Some(ffi::SQLITE_CONSTRAINT_FOREIGNKEY) => {
            format!("the write names a table that was never created ({e})")
        }
        _ => return map_err(name, e),
    };
    StoreError::Io {
        path: name.to_owned(),
        detail,
    }
}
