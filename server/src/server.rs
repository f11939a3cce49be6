//! The listener: accepts TCP connections (optionally TLS), upgrades them to WebSocket with
//! the server's limits, and runs one handler task per connection until shutdown.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, broadcast};
use tokio_rustls::TlsAcceptor;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::handler;
use crate::registry::Registry;
use crate::shutdown::Shutdown;

/// The most connections served at once. Each idle connection costs two small buffers and two
/// tasks; ten thousand fit comfortably in a few hundred megabytes.
pub const MAX_CONNECTIONS: usize = 10_000;

/// WebSocket limits: a message is one frame of the protocol, so both limits are the protocol's
/// frame limit. Small read and write buffers keep thousands of idle connections cheap.
pub fn ws_config() -> WebSocketConfig {
    let limit = tablehold_protocol::MAX_FRAME_BYTES;
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

impl Listener {
    pub async fn run(self, mut shutdown: Shutdown) {
        let limit = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        loop {
            let permit = tokio::select! {
                p = limit.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break },
                () = shutdown.recv() => break,
            };
            let accepted = tokio::select! {
                a = self.listener.accept() => a,
                () = shutdown.recv() => break,
            };
            let (socket, peer) = match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    continue;
                }
            };
            let registry = self.registry.clone();
            let tls = self.tls.clone();
            let shutdown = Shutdown::new(self.notify_shutdown.subscribe());
            tokio::spawn(async move {
                serve_socket(socket, peer, tls, registry, shutdown).await;
                drop(permit);
            });
        }
    }
}

async fn serve_socket(
    socket: TcpStream,
    peer: SocketAddr,
    tls: Option<TlsAcceptor>,
    registry: Registry,
    shutdown: Shutdown,
) {
    let _ = socket.set_nodelay(true);
    match tls {
        Some(acceptor) => match acceptor.accept(socket).await {
            Ok(stream) => upgrade(stream, peer, registry, shutdown).await,
            Err(e) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
        },
        None => upgrade(socket, peer, registry, shutdown).await,
    }
}

async fn upgrade<S>(stream: S, peer: SocketAddr, registry: Registry, shutdown: Shutdown)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    match tokio_tungstenite::accept_async_with_config(stream, Some(ws_config())).await {
        Ok(ws) => {
            tracing::debug!(%peer, "connection open");
            handler::serve(ws, peer.ip(), registry, shutdown).await;
            tracing::debug!(%peer, "connection closed");
        }
        Err(e) => tracing::debug!(%peer, error = %e, "WebSocket upgrade failed"),
    }
}
