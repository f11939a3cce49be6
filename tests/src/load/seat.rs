//! One seat's connection under load: it sends the free rolls the scheduler hands it without
//! waiting for their answers (open loop), and reports every answer and every event it receives
//! to its table's track.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures_util::{SinkExt as _, StreamExt as _};
use tablehold_protocol::{
    ClientMsg, Op, PROTOCOL_VERSION, Reply, ServerMsg, decode_server, encode,
};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::LoadError;
use super::track::TableTrack;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The action every seat sends: a roll any seat may make at any time.
pub const ACTION: &str = "1d20";

/// Counters shared by every seat of a run.
#[derive(Default)]
pub struct Totals {
    pub sent: AtomicU64,
    pub answered: AtomicU64,
    /// Requests the server refused (`rate_limited` under overload, or any other code).
    pub refused: AtomicU64,
}

/// A connected seat that has said hello.
pub struct Conn {
    ws: Ws,
    next_id: u64,
}

impl Conn {
    pub async fn open(url: &str) -> Result<Conn, LoadError> {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| LoadError::Connect(e.to_string()))?;
        let mut conn = Conn { ws, next_id: 1 };
        conn.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "tablehold-load".into(),
        })
        .await?;
        match conn.next().await? {
            Some(ServerMsg::Welcome { .. }) => Ok(conn),
            other => Err(LoadError::Protocol(format!(
                "expected welcome, got {other:?}"
            ))),
        }
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<(), LoadError> {
        self.ws
            .send(Message::Binary(encode(msg).into()))
            .await
            .map_err(|e| LoadError::Connect(e.to_string()))
    }

    async fn next(&mut self) -> Result<Option<ServerMsg>, LoadError> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Binary(b))) => {
                    return decode_server(&b)
                        .map(Some)
                        .map_err(|e| LoadError::Protocol(e.to_string()));
                }
                Some(Ok(Message::Close(_))) | None => return Ok(None),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(LoadError::Connect(e.to_string())),
            }
        }
    }

    /// Sends `op` and waits for its answer, passing over events; for setting up, not load.
    pub async fn call(&mut self, op: Op) -> Result<Reply, LoadError> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&ClientMsg::Request { id, op }).await?;
        loop {
            match self.next().await? {
                Some(ServerMsg::Response { id: got, reply }) if got == id => return Ok(reply),
                Some(ServerMsg::Error {
                    id: Some(got),
                    code,
                    message,
                }) if got == id => {
                    return Err(LoadError::Refused(format!("{code:?}: {message}")));
                }
                Some(_) => {}
                None => {
                    return Err(LoadError::Connect(
                        "the server closed the connection".into(),
                    ));
                }
            }
        }
    }

    /// Sends the rolls `go` asks for and follows what comes back, until `stop` says so.
    pub async fn run(
        mut self,
        mut go: mpsc::UnboundedReceiver<()>,
        mut stop: watch::Receiver<bool>,
        track: Arc<Mutex<TableTrack>>,
        totals: Arc<Totals>,
    ) -> Result<(), LoadError> {
        let mut sent: HashMap<u64, Instant> = HashMap::new();
        let mut sending = true;
        loop {
            tokio::select! {
                order = go.recv(), if sending => match order {
                    Some(()) => {
                        let id = self.next_id;
                        self.next_id += 1;
                        sent.insert(id, Instant::now());
                        totals.sent.fetch_add(1, Ordering::Relaxed);
                        let op = Op::Roll { dice: ACTION.into(), secret: false };
                        self.send(&ClientMsg::Request { id, op }).await?;
                    }
                    None => sending = false,
                },
                msg = self.next() => {
                    let now = Instant::now();
                    match msg? {
                        Some(ServerMsg::Event(e)) => lock(&track).arrived(e.seq, now),
                        Some(ServerMsg::Response { id, reply: Reply::Applied { first_seq, .. } }) => {
                            totals.answered.fetch_add(1, Ordering::Relaxed);
                            if let Some(at) = sent.remove(&id) {
                                lock(&track).acknowledged(first_seq, at);
                            }
                        }
                        Some(ServerMsg::Error { id: Some(id), .. }) => {
                            totals.answered.fetch_add(1, Ordering::Relaxed);
                            totals.refused.fetch_add(1, Ordering::Relaxed);
                            sent.remove(&id);
                        }
                        Some(_) => {}
                        None => return Ok(()),
                    }
                }
                _ = stop.changed() => return Ok(()),
            }
        }
    }
}

/// The track, even if another seat's task panicked while holding it: its counts stay usable.
pub fn lock(track: &Mutex<TableTrack>) -> std::sync::MutexGuard<'_, TableTrack> {
    track
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
