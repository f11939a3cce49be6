//! The tables a server holds: handles to running table tasks, loaded from the store on first
//! use. The map holds only handles (senders); the state lives in each table's task.

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use tablehold_protocol::{ErrorCode, Reply};
use tokio::sync::mpsc::error::SendError;
use tokio::sync::{mpsc, watch};

use crate::settings::Settings;
use crate::store::{Owner, Store};
use crate::table::{self, NewTable, Stop, TableHandle, TableMsg, WireError};

#[derive(Clone)]
pub struct Registry {
    tables: Arc<DashMap<String, TableHandle>>,
    /// One lock per table being loaded, held from looking the table up to registering its new
    /// task, across the store's load and the replay: under it, a table missing from the map
    /// has no task (a task leaves the map only after its last write is durable), so the load
    /// sees its whole log and no second task can start meanwhile. Loads of other tables do not
    /// wait for it, and no map lock is held across an await.
    loading: Arc<DashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    store: Arc<dyn Store>,
    settings: Arc<Settings>,
    /// Turns true when the server stops: every table settles and steps aside.
    stop: watch::Receiver<bool>,
    /// Held by every table task (and every clone of the registry): the server's shutdown
    /// waits until all are dropped.
    done: mpsc::Sender<()>,
}

impl Registry {
    pub fn new(
        store: Arc<dyn Store>,
        settings: Arc<Settings>,
        stop: watch::Receiver<bool>,
        done: mpsc::Sender<()>,
    ) -> Self {
        Registry {
            tables: Arc::new(DashMap::new()),
            loading: Arc::new(DashMap::new()),
            store,
            settings,
            stop,
            done,
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Creates a table. The reply goes out only once its records are durable.
    pub async fn create(&self, req: NewTable) -> Result<Reply, WireError> {
        let (table, gm_token, invites, writes) = table::create(req, &self.settings)?;
        match self.store.submit(&Owner::single_node(), writes).await {
            Ok(Ok(())) => {
                tracing::info!(table = %table, "table created");
                Ok(Reply::TableCreated {
                    table,
                    gm_token,
                    invites,
                })
            }
            Ok(Err(e)) => Err(table::store_error(&e)),
            Err(_) => Err(WireError::new(ErrorCode::Internal, "the store has stopped")),
        }
    }

    /// The running task of `table`, loading it from the store if it is not running.
    async fn handle(&self, table: &str) -> Result<TableHandle, WireError> {
        if let Some(h) = self.tables.get(table) {
            return Ok(h.clone());
        }
        let valid = !table.is_empty()
            && table.len() <= 64
            && table.chars().all(|c| c.is_ascii_alphanumeric());
        if !valid {
            return Err(unknown(table));
        }
        if *self.stop.borrow() {
            return Err(WireError::new(
                ErrorCode::ShuttingDown,
                "the server is shutting down",
            ));
        }
        // Only one task is ever started for a table: see `loading`.
        let lock = self.loading.entry(table.to_owned()).or_default().clone();
        let loaded = {
            let _loading = lock.lock().await;
            self.load(table).await
        };
        // The last loader of this table takes its lock out of the map.
        self.loading.remove_if(table, |_, l| {
            Arc::strong_count(l) <= 2 && Arc::ptr_eq(l, &lock)
        });
        loaded
    }

    /// Loads `table` and starts its task; the caller holds the table's loading lock.
    async fn load(&self, table: &str) -> Result<TableHandle, WireError> {
        if let Some(h) = self.tables.get(table) {
            return Ok(h.clone());
        }
        let (rebuilt, loaded) = table::load(&*self.store, table, &self.settings.systems)
            .await
            .map_err(|e| {
                WireError::new(
                    ErrorCode::Internal,
                    format!("table {table} cannot be rebuilt from its log: {e}"),
                )
            })?
            .ok_or_else(|| unknown(table))?;
        let stop = Stop {
            stop: self.stop.clone(),
            done: self.done.clone(),
        };
        let handle = table::spawn(
            loaded,
            rebuilt,
            self.store.clone(),
            self.settings.clone(),
            self.tables.clone(),
            stop,
        );
        self.tables.insert(table.to_owned(), handle.clone());
        Ok(handle)
    }

    /// The handle of `table`'s running task, if one runs (for tests that watch it stop).
    pub fn running(&self, table: &str) -> Option<TableHandle> {
        self.tables.get(table).map(|h| h.clone())
    }

    /// Sends a message to a table, starting its task if needed. A task that has just stopped
    /// after idling refuses the message; it is then sent to a fresh one.
    pub async fn send(&self, table: &str, msg: TableMsg) -> Result<(), WireError> {
        let mut msg = msg;
        for _ in 0..3 {
            let handle = self.handle(table).await?;
            match handle.tx.send(msg).await {
                Ok(()) => return Ok(()),
                Err(SendError(back)) => {
                    // The task is stopping: let it finish writing before a new one loads.
                    let mut stopped = handle.stopped.clone();
                    let _ = tokio::time::timeout(Duration::from_secs(10), stopped.wait_for(|s| *s))
                        .await;
                    self.tables
                        .remove_if(table, |_, h| h.tx.same_channel(&handle.tx));
                    msg = back;
                }
            }
        }
        Err(WireError::new(
            ErrorCode::Internal,
            "the table keeps stopping; try again",
        ))
    }
}

fn unknown(table: &str) -> WireError {
    WireError::new(
        ErrorCode::UnknownTable,
        format!("no table `{table}` on this server"),
    )
}
