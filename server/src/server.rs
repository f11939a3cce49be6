//! The listener: accepts TCP connections, lets the [`admission`](crate::admission) gate
//! decide which it keeps, and runs one task per kept socket: TLS if configured, the WebSocket
//! upgrade with the server's limits, then the handler, until shutdown. TLS, the upgrade and the client's hello
//! must all be done by the handshake deadline (`Settings::handshake_timeout`).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::admission::{Gate, Limits, Ticket};
use crate::handler::{self, Handshake};
use crate::registry::Registry;
use crate::settings::Settings;
use crate::shutdown::Shutdown;

/// How long the accept loop rests after `accept` fails (out of file descriptors, say): the
/// failure repeats until something closes, and retrying at once would only spin a core.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// At most one warning per this long about sockets refused or evicted: a flood must not also
/// flood the log.
const REFUSAL_REPORT_EVERY: Duration = Duration::from_secs(10);

/// WebSocket limits: a message is one frame of the protocol, so both limits are the protocol's
/// frame limit. Small read and write buffers keep thousands of idle connections cheap.
/// The largest WebSocket message the server reads whole: four times the protocol's frame
/// limit. Anything between the two is refused with `too_large` on a connection that stays open.
pub const READ_LIMIT_BYTES: usize = 4 * tablehold_protocol::MAX_FRAME_BYTES;

pub fn ws_config() -> WebSocketConfig {
    // A frame somewhat over the protocol's limit is still read whole, so the server can refuse
    // it with `too_large` and the connection goes on; only a frame beyond this is cut off,
    // and the connection with it. The cap bounds what one connection can make the server
    // buffer.
    let limit = READ_LIMIT_BYTES;
    WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_write_buffer_size(4 * 1024 * 1024)
        .max_message_size(Some(limit))
        .max_frame_size(Some(limit))
}

pub struct Listener {
    pub listener: TcpListener,
    pub tls: Option<TlsAcceptor>,
    pub registry: Registry,
    pub notify_shutdown: broadcast::Sender<()>,
}

/// The gate's limits from the settings.
pub fn limits(settings: &Settings) -> Limits {
    Limits {
        connections: settings.max_connections.max(1),
        connections_per_address: settings.max_connections_per_address.max(1),
        handshakes_per_address: settings.max_handshakes_per_address.max(1),
    }
}

impl Listener {
    /// Accepts until shutdown. It never waits on a limit before `accept`: the gate decides
    /// about each socket once it is accepted, so a real client is never left in the kernel's
    /// backlog behind sockets that will never speak.
    pub async fn run(self, mut shutdown: Shutdown) {
        let gate = Gate::new(limits(self.registry.settings()));
        let mut report = Report::default();
        loop {
            let accepted = tokio::select! {
                a = self.listener.accept() => a,
                () = shutdown.recv() => break,
            };
            let (socket, peer) = match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed; retrying shortly");
                    tokio::select! {
                        () = tokio::time::sleep(ACCEPT_BACKOFF) => continue,
                        () = shutdown.recv() => break,
                    }
                }
            };
            let ticket = match gate.admit(peer.ip()) {
                Ok(admitted) => {
                    report.evicted += u64::from(admitted.evicted_another);
                    admitted.ticket
                }
                Err(refusal) => {
                    tracing::debug!(%peer, %refusal, "connection refused");
                    report.refused += 1;
                    report.maybe_warn(&gate);
                    drop(socket);
                    continue;
                }
            };
            report.maybe_warn(&gate);
            let registry = self.registry.clone();
            let tls = self.tls.clone();
            let shutdown = Shutdown::new(self.notify_shutdown.subscribe());
            tokio::spawn(serve_socket(socket, peer, tls, registry, shutdown, ticket));
        }
    }
}

/// Counts of sockets refused and evicted since the last warning.
#[derive(Default)]
struct Report {
    refused: u64,
    evicted: u64,
    last: Option<Instant>,
}

impl Report {
    fn maybe_warn(&mut self, gate: &Gate) {
        if self.refused == 0 && self.evicted == 0 {
            return;
        }
        if self
            .last
            .is_some_and(|t| t.elapsed() < REFUSAL_REPORT_EVERY)
        {
            return;
        }
        let (held, handshaking) = gate.held();
        tracing::warn!(
            refused = self.refused,
            evicted = self.evicted,
            held,
            handshaking,
            "connection limits reached (a flood, or limits too low)"
        );
        (self.refused, self.evicted, self.last) = (0, 0, Some(Instant::now()));
    }
}

/// Serves one admitted socket. Until the peer sends its first byte this future holds only the
/// socket, the ticket and a timer: no TLS or HTTP buffers are made for a socket that stays
/// silent, and the rest of the work (much larger as a future) is boxed, so the task spawned
/// per silent socket stays small.
async fn serve_socket(
    socket: TcpStream,
    peer: SocketAddr,
    tls: Option<TlsAcceptor>,
    registry: Registry,
    mut shutdown: Shutdown,
    mut ticket: Ticket,
) {
    let deadline = Instant::now() + registry.settings().handshake_timeout;
    // `peek` rather than `readable`: readiness may be reported falsely (tokio says so, and a
    // new socket often is), which would build the large handshake state for a silent peer.
    let mut first = [0u8; 1];
    let spoke = tokio::select! {
        r = tokio::time::timeout_at(deadline, socket.peek(&mut first)) => {
            matches!(r, Ok(Ok(n)) if n > 0)
        }
        () = ticket.evicted() => false,
        () = shutdown.recv() => false,
    };
    if !spoke {
        tracing::debug!(%peer, "closed before its first byte (deadline, eviction or shutdown)");
        return;
    }
    let _ = socket.set_nodelay(true);
    let handshake = Handshake { ticket, deadline };
    Box::pin(secure(socket, peer, tls, registry, shutdown, handshake)).await;
}

async fn secure(
    socket: TcpStream,
    peer: SocketAddr,
    tls: Option<TlsAcceptor>,
    registry: Registry,
    mut shutdown: Shutdown,
    mut handshake: Handshake,
) {
    let Some(acceptor) = tls else {
        return upgrade(socket, peer, registry, shutdown, handshake).await;
    };
    let stream = tokio::select! {
        r = tokio::time::timeout_at(handshake.deadline, acceptor.accept(socket)) => r,
        () = handshake.ticket.evicted() => return,
        () = shutdown.recv() => return,
    };
    match stream {
        Ok(Ok(stream)) => upgrade(stream, peer, registry, shutdown, handshake).await,
        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
        Err(_) => tracing::debug!(%peer, "TLS handshake not done by the deadline"),
    }
}

async fn upgrade<S>(
    stream: S,
    peer: SocketAddr,
    registry: Registry,
    mut shutdown: Shutdown,
    mut handshake: Handshake,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let accepted = tokio::select! {
        r = tokio::time::timeout_at(
            handshake.deadline,
            tokio_tungstenite::accept_async_with_config(stream, Some(ws_config())),
        ) => r,
        () = handshake.ticket.evicted() => return,
        () = shutdown.recv() => return,
    };
    match accepted {
        Ok(Ok(ws)) => {
            tracing::debug!(%peer, "connection open");
            handler::serve(ws, peer.ip(), registry, shutdown, handshake).await;
            tracing::debug!(%peer, "connection closed");
        }
        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "WebSocket upgrade failed"),
        Err(_) => tracing::debug!(%peer, "WebSocket upgrade not done by the deadline"),
    }
}
