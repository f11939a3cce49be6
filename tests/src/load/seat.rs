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

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The action every seat sends: a roll any seat may make at any time.
pub const ACTION: &str = "1d20";

/// Counters shared by every seat of a run.
#[derive(Default)]
pub struct Totals {
    pub sent: AtomicU64,
    pub answered: AtomicU64,
    /// Requests the server refused (`rate_limited` under overload, or any other code).
    pub refused: AtomicU64,
    /// Seats whose connection the other side closed during the run (a server that dropped a
    /// client it judged too slow): their tables' later actions cannot reach every seat.
    pub dropped: AtomicU64,
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
        self,
        go: mpsc::UnboundedReceiver<(u64, Instant)>,
        stop: watch::Receiver<bool>,
        track: Arc<Mutex<TableTrack>>,
        totals: Arc<Totals>,
    ) -> Result<(), LoadError> {
        let wire = Tablehold;
        drive(self.ws, wire, self.next_id, go, stop, track, totals).await
    }
}

/// What a frame that came back means for the counts.
#[derive(Debug, Default, PartialEq)]
pub struct Seen {
    /// An event of the table reached this seat.
    pub arrived: Option<u64>,
    /// The answer to one of this seat's actions.
    pub answer: Option<Answer>,
}

#[derive(Debug, PartialEq)]
pub enum Answer {
    /// Action `id` was acknowledged; its event is `seq`.
    Done {
        id: u64,
        seq: u64,
    },
    Refused {
        id: u64,
    },
}

/// How a seat's actions and what comes back look on the wire: Tablehold's protocol, or the
/// bare relay's opaque frames.
pub trait Wire {
    fn action(&mut self, id: u64) -> Message;
    fn seen(&self, frame: &[u8]) -> Result<Seen, LoadError>;
}

/// Tablehold's protocol: a `roll` request, answered by `applied` and delivered as an event.
pub struct Tablehold;

impl Wire for Tablehold {
    fn action(&mut self, id: u64) -> Message {
        let op = Op::Roll {
            dice: ACTION.into(),
            secret: false,
        };
        Message::Binary(encode(&ClientMsg::Request { id, op }).into())
    }

    fn seen(&self, frame: &[u8]) -> Result<Seen, LoadError> {
        let msg = decode_server(frame).map_err(|e| LoadError::Protocol(e.to_string()))?;
        Ok(match msg {
            ServerMsg::Event(e) => Seen {
                arrived: Some(e.seq),
                answer: None,
            },
            ServerMsg::Response {
                id,
                reply: Reply::Applied { first_seq, .. },
            } => Seen {
                arrived: None,
                answer: Some(Answer::Done { id, seq: first_seq }),
            },
            ServerMsg::Error { id: Some(id), .. } => Seen {
                arrived: None,
                answer: Some(Answer::Refused { id }),
            },
            _ => Seen::default(),
        })
    }
}

/// Sends the actions `go` asks for (every order already queued fed before one flush, as a
/// client built for throughput would) and follows what comes back, until `stop` says so.
pub async fn drive<W: Wire>(
    mut ws: Ws,
    mut wire: W,
    mut next_id: u64,
    mut go: mpsc::UnboundedReceiver<(u64, Instant)>,
    mut stop: watch::Receiver<bool>,
    track: Arc<Mutex<TableTrack>>,
    totals: Arc<Totals>,
) -> Result<(), LoadError> {
    let mut sent: HashMap<u64, Instant> = HashMap::new();
    let mut sending = true;
    let broken = |e: tokio_tungstenite::tungstenite::Error| LoadError::Connect(e.to_string());
    loop {
        tokio::select! {
            order = go.recv(), if sending => match order {
                Some(first) => {
                    // Latency runs from when an action was due, not from when this seat got
                    // round to writing it: time spent queued here counts against the run.
                    let mut orders = vec![first];
                    while let Ok(more) = go.try_recv() {
                        orders.push(more);
                    }
                    let mut count = 0;
                    for (n, due) in orders {
                        for _ in 0..n {
                            let id = next_id;
                            next_id += 1;
                            sent.insert(id, due);
                            ws.feed(wire.action(id)).await.map_err(broken)?;
                        }
                        count += n;
                    }
                    ws.flush().await.map_err(broken)?;
                    totals.sent.fetch_add(count, Ordering::Relaxed);
                }
                None => sending = false,
            },
            msg = ws.next() => {
                let now = Instant::now();
                let frame = match msg {
                    Some(Ok(Message::Binary(b))) => b,
                    Some(Ok(Message::Close(_))) | None => {
                        // Closed by the other side before the run ended: say so in the figures.
                        if !*stop.borrow() {
                            totals.dropped.fetch_add(1, Ordering::Relaxed);
                        }
                        return Ok(());
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Err(broken(e)),
                };
                let seen = wire.seen(&frame)?;
                if let Some(seq) = seen.arrived {
                    lock(&track).arrived(seq, now);
                }
                match seen.answer {
                    Some(Answer::Done { id, seq }) => {
                        totals.answered.fetch_add(1, Ordering::Relaxed);
                        if let Some(at) = sent.remove(&id) {
                            lock(&track).acknowledged(seq, at);
                        }
                    }
                    Some(Answer::Refused { id }) => {
                        totals.answered.fetch_add(1, Ordering::Relaxed);
                        totals.refused.fetch_add(1, Ordering::Relaxed);
                        sent.remove(&id);
                    }
                    None => {}
                }
            }
            _ = stop.changed() => return Ok(()),
        }
    }
}

/// The track, even if another seat's task panicked while holding it: its counts stay usable.
pub fn lock(track: &Mutex<TableTrack>) -> std::sync::MutexGuard<'_, TableTrack> {
    track
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
