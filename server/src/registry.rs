//! The tables a server holds: handles to running table tasks, loaded from the store on first
//! use. The map holds only handles (senders); the state lives in each table's task.

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use tablehold_protocol::{ErrorCode, Reply};
use tokio::sync::mpsc::error::SendError;

use crate::settings::Settings;
use crate::store::{Owner, Store};
use crate::table::{self, NewTable, TableHandle, TableMsg, WireError};

#[derive(Clone)]
pub struct Registry {
    tables: Arc<DashMap<String, TableHandle>>,
    /// Held from looking a table up to registering its new task, across the store's load:
    /// the load is awaited, so the map's entry lock (a blocking lock) cannot be held over it.
    /// Under this lock, a table missing from the map has no task (a task leaves the map only
    /// after its last write is durable), so the load sees its whole log and no second task
    /// can start meanwhile.
    loading: Arc<tokio::sync::Mutex<()>>,
    store: Arc<dyn Store>,
    settings: Arc<Settings>,
}

impl Registry {
    pub fn new(store: Arc<dyn Store>, settings: Arc<Settings>) -> Self {
        Registry {
            tables: Arc::new(DashMap::new()),
            loading: Arc::new(tokio::sync::Mutex::new(())),
            store,
            settings,
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
            Ok(Err(e)) => Err(WireError::new(
                ErrorCode::Internal,
                format!("the table could not be stored: {e}"),
            )),
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
        // Only one task is ever started for a table: see `loading`.
        let _loading = self.loading.lock().await;
        if let Some(h) = self.tables.get(table) {
            return Ok(h.clone());
        }
        let loaded = self
            .store
            .load_table(table)
            .await
            .map_err(|e| WireError::new(ErrorCode::Internal, e.to_string()))?
            .ok_or_else(|| unknown(table))?;
        // Started under the entry lock, as the task removes itself under it when it stops.
        let entry = self.tables.entry(table.to_owned());
        let handle = entry.or_try_insert_with(|| {
            table::spawn(
                loaded,
                self.store.clone(),
                self.settings.clone(),
                self.tables.clone(),
            )
            .map_err(|e| {
                WireError::new(
                    ErrorCode::Internal,
                    format!("table {table} cannot be rebuilt: {e}"),
                )
            })
        })?;
        Ok(handle.clone())
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
