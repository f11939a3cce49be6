//! A table: its task, which owns the state (a bevy `World`), decides every command through the
//! rules, logs the events, and sends each seat its view. Nothing outside the task touches the
//! state (invariant 1): connections talk to it only through [`TableMsg`].

mod audiences;
mod commands;
mod deadlines;
mod epochs;
mod export;
mod gate;
mod history;
mod journal;
mod load;
mod pipeline;
mod reads;
#[cfg(test)]
mod recovery_tests;
mod seating;
mod seats;
mod snapshot;
mod stream;
mod task;
mod view;
mod world;

pub use load::load;
pub use load::{NewTable, create};
pub use pipeline::store_error;
pub use task::{Stop, is_command, spawn};

use tablehold_protocol::{ErrorCode, Op, Reply, SeatInfo};
use tokio::sync::{mpsc, oneshot};

/// A frame for one connection, already encoded for its seat. Shared, not copied: the seats
/// that see the same parts of an event get the same bytes.
#[derive(Debug, Clone)]
pub enum Outbound {
    Frame(tokio_tungstenite::tungstenite::Bytes),
    /// Close the connection with this reason (revoked seat, slow reader, shutdown).
    Close(String),
}

/// An error to send back to a connection: a stable code and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    pub code: ErrorCode,
    pub message: String,
}

impl WireError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        WireError {
            code,
            message: message.into(),
        }
    }
}

/// Who a connection is at a table, once it has joined or authenticated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatKey {
    pub table: String,
    pub info: SeatInfo,
}

pub type Answer<T> = oneshot::Sender<Result<T, WireError>>;

/// Everything a connection may ask of a table: a closed set.
#[derive(Debug)]
pub enum TableMsg {
    /// `peer` is the connection's address: failed joins are limited per address, so one
    /// guesser cannot lock everyone else out of a table.
    Join {
        invite: String,
        name: String,
        peer: std::net::IpAddr,
        reply: Answer<(SeatKey, String)>,
    },
    /// Answered with the seat and the table's latest sequence number.
    Auth {
        token: String,
        reply: Answer<(SeatKey, u64)>,
    },
    /// Start receiving events after `after`, then live, into `outbox`. The table writes the
    /// `subscribed` response (with request `id`) into the outbox itself, before the backlog,
    /// so the client sees the response first and then every event once, in order.
    Subscribe {
        seat: SeatKey,
        conn: u64,
        id: u64,
        after: u64,
        outbox: mpsc::Sender<Outbound>,
        /// Woken when the table drops this subscriber because its outbox is full.
        kick: std::sync::Arc<tokio::sync::Notify>,
        reply: Answer<()>,
    },
    Unsubscribe {
        conn: u64,
    },
    /// A page of past events for `seat`, after `after`, at most `limit` of them examined:
    /// the encoded frames it may see, the last sequence examined, and the head. A client far
    /// behind reads its backlog in such pages, with backpressure, before subscribing.
    Backlog {
        seat: SeatKey,
        after: u64,
        limit: usize,
        reply: Answer<(Vec<Vec<u8>>, u64, u64)>,
    },
    Request {
        seat: SeatKey,
        op: Op,
        reply: Answer<Reply>,
    },
}

/// The sending side of a table task's mailbox.
#[derive(Debug, Clone)]
pub struct TableHandle {
    pub tx: mpsc::Sender<TableMsg>,
    /// Becomes `true` once the task has stopped and everything it accepted is in the log, so
    /// a new task for the table may load it. Two tasks never write one table's log at once.
    pub stopped: tokio::sync::watch::Receiver<bool>,
}
