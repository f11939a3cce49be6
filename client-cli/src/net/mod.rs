//! A small async client of the Tablehold protocol (docs/PROTOCOL.md): one WebSocket
//! connection, the hello, requests matched to their responses by id, and the events that
//! arrive in between, kept in order for whoever asks next.
//!
//! It knows the wire and nothing else: no commands, no profiles, no terminal. Every wait is
//! bounded by [`WAIT`], so a silent server makes a command fail instead of hang.

mod tls;

use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use tablehold_protocol::{
    ClientMsg, DecodeError, ErrorCode, EventEnvelope, Op, PROTOCOL_VERSION, Reply, ServerMsg,
    decode_server, encode,
};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long the client waits for the connection, or for any one answer, before giving up.
/// Generous: the server answers in milliseconds, but a busy machine may be slow to schedule it.
pub const WAIT: Duration = Duration::from_secs(30);

/// Why talking to the server failed. [`NetError::Server`] is the server's own refusal, with its
/// stable code; every other variant means the exchange itself went wrong.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The address is not `ws://...` or `wss://...`. Fix `--server`.
    #[error("`{url}` is not a server address: use ws://HOST:PORT or wss://HOST:PORT")]
    BadUrl { url: String },
    /// TLS could not be set up from the given certificate authority (unreadable file, no
    /// certificate in it), or wss:// was asked for without one. Name a PEM CA with `--ca-cert`.
    #[error("{0}")]
    Tls(String),
    /// Nothing listens at the address: the connection was refused. On a first run this is
    /// most often a server not started yet, so the message says how to start one.
    #[error(
        "no Tablehold server at {url}: start one with `tablehold-server` (or check the address, \
         `--server`)"
    )]
    NoServer { url: String },
    /// TCP, TLS or the WebSocket handshake failed: the server is down, the address or port is
    /// wrong, or its certificate is not trusted. Check the address; retrying may help.
    /// (The cause is kept as text: tungstenite's errors repeat their cause in their own
    /// message, which would print it twice in an error chain.)
    #[error("cannot connect to {url}: {reason}")]
    Connect { url: String, reason: String },
    /// The connection broke, or the server closed it (shutting down, idle, seat revoked).
    /// Reconnecting is safe: nothing half-done is left behind.
    #[error("the server closed the connection{}", reason_suffix(.0))]
    Closed(String),
    /// No answer within [`WAIT`]. Whether the request was applied is unknown: look at
    /// `tablehold state` or `tablehold log` before repeating it.
    #[error("no answer from the server within {} s", .0.as_secs())]
    Timeout(Duration),
    /// A frame this client cannot read where it needed an answer: a server speaking a newer
    /// protocol, or a bug on one side.
    #[error("the server sent a frame this client cannot read: {0}")]
    BadFrame(DecodeError),
    /// The server refused the request (or the connection) with a stable code.
    #[error(transparent)]
    Server(#[from] ServerError),
}

fn reason_suffix(reason: &str) -> String {
    if reason.is_empty() {
        String::new()
    } else {
        format!(": {reason}")
    }
}

/// A refusal from the server: its stable code and its message for people. Displays as
/// `code: message`, the form `tablehold` prints after `error: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", code_name(*.code))]
pub struct ServerError {
    pub code: ErrorCode,
    pub message: String,
}

/// The wire name of a code (`not_your_turn`), from its serde form so that it can never drift
/// from what the server sends.
pub fn code_name(code: ErrorCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{code:?}"))
}

/// One connection to a server, past the hello.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Events received while waiting for something else, oldest first.
    events: VecDeque<EventEnvelope>,
    /// Frames that did not decode and were skipped (a newer server's event kinds): the
    /// protocol asks clients to skip such messages and stay connected.
    skipped: Vec<DecodeError>,
}

impl Client {
    /// Connects to `url` (ws:// or wss://; wss:// trusts only the CA in `ca_cert`) and says
    /// hello. A server of another protocol version refuses here, with `version_mismatch`.
    pub async fn connect(url: &str, ca_cert: Option<&Path>) -> Result<Client, NetError> {
        let connector = tls::connector(url, ca_cert)?;
        let connecting =
            tokio_tungstenite::connect_async_tls_with_config(url, None, true, Some(connector));
        let (ws, _) = tokio::time::timeout(WAIT, connecting)
            .await
            .map_err(|_| NetError::Timeout(WAIT))?
            .map_err(|e| match e {
                tokio_tungstenite::tungstenite::Error::Io(io)
                    if io.kind() == std::io::ErrorKind::ConnectionRefused =>
                {
                    NetError::NoServer {
                        url: url.to_owned(),
                    }
                }
                e => NetError::Connect {
                    url: url.to_owned(),
                    reason: e.to_string(),
                },
            })?;
        let mut client = Client {
            ws,
            next_id: 1,
            events: VecDeque::new(),
            skipped: Vec::new(),
        };
        client
            .send(&ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                client: format!("tablehold/{}", env!("CARGO_PKG_VERSION")),
            })
            .await?;
        loop {
            match client.next_msg().await? {
                ServerMsg::Welcome { .. } => return Ok(client),
                ServerMsg::Error { code, message, .. } => {
                    return Err(ServerError { code, message }.into());
                }
                // Nothing else may come before the welcome; ignore it rather than guess.
                _ => {}
            }
        }
    }

    /// Sends one request and waits for its answer. Events that arrive meanwhile are kept for
    /// [`Client::next_event`]; a refusal comes back as [`NetError::Server`].
    /// Sends `op` and waits for its answer. A `rate_limited` answer is the server asking to
    /// slow down, not a refusal of the request: it is sent again once the connection's bucket
    /// has had time to refill (a tenth of a second at a time, for four seconds at most), so a
    /// command that makes many requests (`npc add` of many sheets, `--npcs`) stays within the
    /// limit instead of failing half way.
    pub async fn request(&mut self, op: Op) -> Result<Reply, NetError> {
        let mut tries = 0;
        loop {
            match self.request_once(op.clone()).await {
                Err(NetError::Server(e)) if e.code == ErrorCode::RateLimited && tries < 40 => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                other => return other,
            }
        }
    }

    async fn request_once(&mut self, op: Op) -> Result<Reply, NetError> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&ClientMsg::Request { id, op }).await?;
        loop {
            match self.next_msg().await? {
                ServerMsg::Response { id: rid, reply } if rid == id => return Ok(reply),
                ServerMsg::Error {
                    id: Some(rid),
                    code,
                    message,
                } if rid == id => return Err(ServerError { code, message }.into()),
                // An error about no request in particular is about this connection: the
                // request cannot be answered after it.
                ServerMsg::Error {
                    id: None,
                    code,
                    message,
                } => return Err(ServerError { code, message }.into()),
                ServerMsg::Event(e) => self.events.push_back(e),
                // Late answers to requests given up on, or a second welcome: not ours.
                _ => {}
            }
        }
    }

    /// Waits until every event the server queued for this connection before now has arrived:
    /// a `ping` goes through the table after the subscription's backlog, so its `pong` comes
    /// after the backlog's frames. With gaps in a seat's sequence (hidden events) this is the
    /// only way to know the backlog is complete.
    pub async fn barrier(&mut self) -> Result<(), NetError> {
        self.request(Op::Ping).await.map(|_| ())
    }

    /// The next event: a kept one, or the next from the wire.
    pub async fn next_event(&mut self) -> Result<EventEnvelope, NetError> {
        loop {
            if let Some(e) = self.events.pop_front() {
                return Ok(e);
            }
            match self.next_msg().await? {
                ServerMsg::Event(e) => return Ok(e),
                ServerMsg::Error {
                    id: None,
                    code,
                    message,
                } => return Err(ServerError { code, message }.into()),
                _ => {}
            }
        }
    }

    /// The events kept so far, oldest first; they are no longer kept.
    pub fn take_events(&mut self) -> Vec<EventEnvelope> {
        self.events.drain(..).collect()
    }

    /// How many frames were skipped because this client cannot read them.
    pub fn skipped(&self) -> usize {
        self.skipped.len()
    }

    /// Closes the connection politely. Errors are ignored: the command's work is done.
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.ws.close(None)).await;
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<(), NetError> {
        let frame = Message::Binary(encode(msg).into());
        tokio::time::timeout(WAIT, self.ws.send(frame))
            .await
            .map_err(|_| NetError::Timeout(WAIT))?
            .map_err(|e| NetError::Closed(e.to_string()))
    }

    /// The next protocol message. Frames that do not decode are skipped as the protocol asks
    /// (an unknown tag from a newer server), unless they are too large to be ours at all.
    async fn next_msg(&mut self) -> Result<ServerMsg, NetError> {
        loop {
            let item = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .map_err(|_| NetError::Timeout(WAIT))?;
            match item {
                None => return Err(NetError::Closed(String::new())),
                Some(Err(e)) => return Err(NetError::Closed(e.to_string())),
                Some(Ok(Message::Binary(bytes))) => match decode_server(&bytes) {
                    Ok(msg) => return Ok(msg),
                    Err(e @ DecodeError::TooLarge { .. }) => return Err(NetError::BadFrame(e)),
                    Err(e) => self.skipped.push(e),
                },
                Some(Ok(Message::Close(frame))) => {
                    let reason = frame.map(|f| f.reason.to_string()).unwrap_or_default();
                    return Err(NetError::Closed(reason));
                }
                // Pings are answered by tungstenite itself; text frames are not the protocol.
                Some(Ok(_)) => {}
            }
        }
    }
}
