//! One connection's session: the hello, who the connection is (after `join` or `auth`), the
//! rate limit, and routing each request to the registry or to its table. The handler never
//! touches a table's state; it only sends messages.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::StreamExt as _;
use futures_util::stream::FuturesOrdered;

use tablehold_protocol::{ClientMsg, ErrorCode, Op, PROTOCOL_VERSION, Reply, ServerMsg, encode};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;

use crate::admission::Ticket;
use crate::connection::{self, Incoming};
use crate::registry::Registry;
use crate::shutdown::Shutdown;
use crate::table::{NewTable, Outbound, SeatKey, TableMsg, WireError};

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Table requests a connection may have sent and not yet had answered. Past it the handler
/// reads nothing more from the connection until one is answered: the socket's own buffers
/// then hold the client back.
pub const MAX_IN_FLIGHT: usize = 64;

/// Requests read while an earlier one still waits for answers before it may run (a `state`
/// behind a held `act`), kept in order. Past it the handler stops reading too.
pub const MAX_PARKED: usize = 64;

/// How long, at shutdown, a connection waits for the answers it owes before it closes: the
/// tables finish what they accepted, and a client that hears nothing would send it again.
const ANSWERS_AT_SHUTDOWN: Duration = Duration::from_secs(5);

/// A table request on its way: its id and, once the table has answered, the answer.
type Pending = Pin<Box<dyn Future<Output = (u64, Result<Reply, WireError>)> + Send + Sync>>;

/// A token bucket: `rate` requests a second, bursts of twice that.
struct Bucket {
    tokens: f64,
    rate: f64,
    last: Instant,
}

impl Bucket {
    fn new(rate: u32) -> Self {
        let rate = f64::from(rate.max(1));
        Bucket {
            tokens: rate * 2.0,
            rate,
            last: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.rate * 2.0);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A connection still in its handshake: its slot at the gate, and when the handshake must be
/// done. The handshake ends with the client's hello, not with the upgrade: a client that
/// upgrades and then says nothing is as idle as one that never upgraded, and holds a slot the
/// gate may give to someone else.
pub struct Handshake {
    pub ticket: Ticket,
    pub deadline: Instant,
}

pub async fn serve<S>(
    ws: WebSocketStream<S>,
    peer: std::net::IpAddr,
    registry: Registry,
    mut shutdown: Shutdown,
    handshake: Handshake,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let settings = registry.settings().clone();
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (out_tx, out_rx) = mpsc::channel::<Outbound>(settings.outbox_frames);
    let (mut reader, writer) = connection::split(ws, out_rx, settings.ping_every);
    let kick = Arc::new(Notify::new());
    let mut session = Session {
        conn,
        peer,
        registry,
        out: out_tx,
        kick: kick.clone(),
        hello: false,
        seat: None,
        subscribed: false,
        bucket: Bucket::new(settings.requests_per_second),
        in_flight: FuturesOrdered::new(),
        parked: std::collections::VecDeque::new(),
    };
    let Handshake {
        mut ticket,
        deadline,
    } = handshake;
    loop {
        // Until the hello, the handshake deadline bounds the wait as well as the idle timeout.
        let mut wait = settings.idle_timeout;
        if !ticket.is_established() {
            wait = wait.min(deadline.saturating_duration_since(Instant::now()));
        }
        let room = session.in_flight.len() < MAX_IN_FLIGHT && session.parked.len() < MAX_PARKED;
        tokio::select! {
            Some((id, answer)) = session.in_flight.next(), if !session.in_flight.is_empty() => {
                session.answer(id, answer).await;
                session.unpark().await;
            }
            incoming = tokio::time::timeout(wait, reader.read()), if room => {
                match incoming {
                    Err(_) if !ticket.is_established() => {
                        session.close("no hello before the handshake deadline").await;
                        break;
                    }
                    Err(_) => {
                        session.close("idle for too long").await;
                        break;
                    }
                    Ok(Incoming::Closed) => break,
                    Ok(Incoming::Alive) => {}
                    Ok(Incoming::Bad(id, code, message)) => session.send_error(id, code, message).await,
                    Ok(Incoming::Overflow(message)) => {
                        // See: issue #19. The stream cannot go on after a frame it could not
                        // read: say why, then close, so the error is not lost with the socket.
                        session.send_error(None, ErrorCode::TooLarge, message).await;
                        session.close("a frame over the server's read limit").await;
                        break;
                    }
                    Ok(Incoming::Msg(msg)) => {
                        if !session.on_message(msg).await {
                            break;
                        }
                        if session.hello && !ticket.establish() {
                            session.close("the server is full").await;
                            break;
                        }
                    }
                }
            }
            () = ticket.evicted(), if !ticket.is_established() => {
                // The server is full and this was its oldest unfinished handshake.
                session.close("the server is full").await;
                break;
            }
            () = kick.notified() => {
                // The outbox is full: the client stopped reading. Drop it without waiting on
                // a socket that does not drain.
                writer.abort();
                break;
            }
            () = shutdown.recv() => {
                // The tables finish what they accepted: answer it before closing, so the
                // client knows what was applied. What was parked never reached a table.
                let answered = async {
                    while let Some((id, answer)) = session.in_flight.next().await {
                        session.answer(id, answer).await;
                    }
                };
                let _ = tokio::time::timeout(ANSWERS_AT_SHUTDOWN, answered).await;
                session.close("the server is shutting down").await;
                break;
            }
        }
    }
    session.leave().await;
    drop(session);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}

struct Session {
    conn: u64,
    /// The peer's address: failed joins are counted per address.
    peer: std::net::IpAddr,
    registry: Registry,
    out: mpsc::Sender<Outbound>,
    kick: Arc<Notify>,
    hello: bool,
    seat: Option<SeatKey>,
    subscribed: bool,
    bucket: Bucket,
    /// Table requests sent and not yet answered, answered in the order they were sent.
    in_flight: FuturesOrdered<Pending>,
    /// Requests waiting for every request before them to be answered, in the order read.
    parked: std::collections::VecDeque<(u64, Op)>,
}

impl Session {
    /// Queues a frame for the client. A client whose outbox is full has stopped reading (the
    /// table drops such a subscriber the same way): the connection is dropped rather than
    /// waiting on a socket that does not drain.
    async fn send(&self, msg: &ServerMsg) {
        if let Err(mpsc::error::TrySendError::Full(_)) =
            self.out.try_send(Outbound::Frame(encode(msg).into()))
        {
            self.kick.notify_one();
        }
    }

    async fn send_error(&self, id: Option<u64>, code: ErrorCode, message: String) {
        self.send(&ServerMsg::Error { id, code, message }).await;
    }

    async fn close(&self, reason: &str) {
        let _ = self.out.send(Outbound::Close(reason.to_owned())).await;
    }

    /// Stops this connection's subscription so the table stops sending to it.
    async fn leave(&mut self) {
        if let (true, Some(seat)) = (self.subscribed, &self.seat) {
            let _ = self
                .registry
                .send(&seat.table, TableMsg::Unsubscribe { conn: self.conn })
                .await;
        }
    }

    /// Handles one message; `false` ends the connection.
    async fn on_message(&mut self, msg: ClientMsg) -> bool {
        match msg {
            ClientMsg::Hello { protocol, .. } if !self.hello => {
                if protocol != PROTOCOL_VERSION {
                    let message = format!(
                        "this server speaks protocol {PROTOCOL_VERSION}, the client {protocol}; upgrade the one that is older"
                    );
                    self.send_error(None, ErrorCode::VersionMismatch, message)
                        .await;
                    self.close("protocol version mismatch").await;
                    return false;
                }
                self.hello = true;
                let server = format!("tablehold-server/{}", env!("CARGO_PKG_VERSION"));
                self.send(&ServerMsg::Welcome {
                    protocol: PROTOCOL_VERSION,
                    server,
                })
                .await;
                true
            }
            ClientMsg::Hello { .. } => {
                self.send_error(
                    None,
                    ErrorCode::HelloFirst,
                    "hello comes once, first".into(),
                )
                .await;
                true
            }
            ClientMsg::Request { id, .. } if !self.hello => {
                self.send_error(Some(id), ErrorCode::HelloFirst, "send hello first".into())
                    .await;
                true
            }
            ClientMsg::Request { id, op } => {
                if !self.bucket.take() {
                    let message = "too many requests; slow down".to_owned();
                    self.send_error(Some(id), ErrorCode::RateLimited, message)
                        .await;
                    return true;
                }
                // Behind a parked request every request waits its turn, except the dice
                // epoch's commit and reveal: the commands held for that epoch wait on them.
                if !self.parked.is_empty() && !is_entropy(&op) {
                    self.parked.push_back((id, op));
                    return true;
                }
                self.dispatch(id, op).await;
                true
            }
        }
    }

    async fn answer(&self, id: u64, answer: Result<Reply, WireError>) {
        match answer {
            Ok(reply) => self.send(&ServerMsg::Response { id, reply }).await,
            Err(e) => self.send_error(Some(id), e.code, e.message).await,
        }
    }

    /// Runs one request: a command or an entropy message goes on to the table at once, its
    /// answer to follow; anything else runs once every request before it is answered, as if
    /// the connection sent one at a time (so a `state` shows the `act` sent before it, and a
    /// `join` or `subscribe` changes the session between requests, not under them).
    async fn dispatch(&mut self, id: u64, op: Op) {
        if pipelined(&op) {
            match self.submit(id, op).await {
                Ok(pending) => self.in_flight.push_back(pending),
                Err(e) => self.send_error(Some(id), e.code, e.message).await,
            }
            return;
        }
        if !self.in_flight.is_empty() {
            self.parked.push_back((id, op));
            return;
        }
        match self.request(id, op).await {
            Ok(Some(reply)) => self.send(&ServerMsg::Response { id, reply }).await,
            // The table wrote the response itself (subscribe).
            Ok(None) => {}
            Err(e) => self.send_error(Some(id), e.code, e.message).await,
        }
    }

    /// Runs the parked requests whose turn has come, in order.
    async fn unpark(&mut self) {
        while let Some((_, op)) = self.parked.front() {
            if !pipelined(op) && !self.in_flight.is_empty() {
                return;
            }
            let Some((id, op)) = self.parked.pop_front() else {
                return;
            };
            self.dispatch(id, op).await;
        }
    }

    /// Hands a table request to the seat's table without waiting for the answer: the table
    /// takes a connection's requests in the order they were sent, and the answer follows
    /// whenever the table gives it (for an action, once its events are durable).
    async fn submit(&self, id: u64, op: Op) -> Result<Pending, WireError> {
        let seat = self.seat()?;
        let table = seat.table.clone();
        let (reply, rx) = oneshot::channel();
        self.registry
            .send(&table, TableMsg::Request { seat, op, reply })
            .await?;
        Ok(Box::pin(async move {
            let answer = rx
                .await
                .unwrap_or_else(|_| Err(WireError::new(ErrorCode::Internal, "the table stopped")));
            (id, answer)
        }))
    }

    async fn ask<T>(
        &self,
        table: &str,
        make: impl FnOnce(oneshot::Sender<Result<T, WireError>>) -> TableMsg,
    ) -> Result<T, WireError> {
        let (tx, rx) = oneshot::channel();
        self.registry.send(table, make(tx)).await?;
        rx.await
            .unwrap_or_else(|_| Err(WireError::new(ErrorCode::Internal, "the table stopped")))
    }

    async fn request(&mut self, id: u64, op: Op) -> Result<Option<Reply>, WireError> {
        match op {
            Op::CreateTable {
                system,
                name,
                options,
                players,
                spectators,
            } => {
                let req = NewTable {
                    system,
                    name,
                    options,
                    players,
                    spectators,
                };
                self.registry.create(req).await.map(Some)
            }
            Op::Join {
                table,
                invite,
                name,
            } => {
                let peer = self.peer;
                let (seat, token) = self
                    .ask(&table, |reply| TableMsg::Join {
                        invite,
                        name,
                        peer,
                        reply,
                    })
                    .await?;
                self.switch_seat(seat.clone()).await;
                Ok(Some(Reply::Joined {
                    table,
                    seat: seat.info,
                    token,
                }))
            }
            Op::Auth { table, token } => {
                let (seat, head) = self
                    .ask(&table, |reply| TableMsg::Auth { token, reply })
                    .await?;
                self.switch_seat(seat.clone()).await;
                Ok(Some(Reply::Authed {
                    table,
                    seat: seat.info,
                    head,
                }))
            }
            Op::Subscribe { after } => {
                let seat = self.seat()?;
                // One subscription per connection: a second one replaces the first.
                self.leave().await;
                self.subscribed = false;
                // Far behind: read the backlog in pages, each written with backpressure, until
                // what is left fits the outbox; the table then sends the rest and goes live.
                let mut cursor = after;
                let page = (self.out.max_capacity() / 2).max(1);
                loop {
                    let (table, s) = (seat.table.clone(), seat.clone());
                    let (frames, covered, head) = self
                        .ask(&table, |reply| TableMsg::Backlog {
                            seat: s,
                            after: cursor,
                            limit: page,
                            reply,
                        })
                        .await?;
                    if head.saturating_sub(cursor) <= u64::try_from(page).unwrap_or(u64::MAX) {
                        break;
                    }
                    for frame in frames {
                        if self.out.send(Outbound::Frame(frame.into())).await.is_err() {
                            return Ok(None);
                        }
                    }
                    cursor = covered;
                }
                // Let the writer drain the pages, so the table's last few frames fit.
                let drained = Instant::now() + Duration::from_secs(10);
                while self.out.capacity() < page && Instant::now() < drained {
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
                let after = cursor;
                let (outbox, kick, conn) = (self.out.clone(), self.kick.clone(), self.conn);
                let table = seat.table.clone();
                self.ask(&table, |reply| TableMsg::Subscribe {
                    seat,
                    conn,
                    id,
                    after,
                    outbox,
                    kick,
                    reply,
                })
                .await?;
                self.subscribed = true;
                Ok(None)
            }
            // Anyone may ping, seated or not: it checks the connection and the server.
            Op::Ping => Ok(Some(Reply::Pong)),
            op => {
                let seat = self.seat()?;
                let table = seat.table.clone();
                self.ask(&table, |reply| TableMsg::Request { seat, op, reply })
                    .await
                    .map(Some)
            }
        }
    }

    fn seat(&self) -> Result<SeatKey, WireError> {
        self.seat.clone().ok_or_else(|| {
            WireError::new(
                ErrorCode::Unauthorized,
                "join a table or authenticate with a seat token first",
            )
        })
    }

    /// A connection is one seat at a time; becoming another ends the old one's subscription.
    async fn switch_seat(&mut self, seat: SeatKey) {
        self.leave().await;
        self.subscribed = false;
        self.seat = Some(seat);
    }
}

/// Whether `op` goes on to the seat's table without waiting for the requests before it to be
/// answered: the commands (which the table applies in the order they come, holding them in
/// order while a dice epoch gathers entropy) and the epoch's own commit and reveal.
fn pipelined(op: &Op) -> bool {
    crate::table::is_command(op) || is_entropy(op)
}

fn is_entropy(op: &Op) -> bool {
    matches!(op, Op::CommitEntropy { .. } | Op::RevealEntropy { .. })
}
