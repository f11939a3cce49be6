//! Graceful shutdown: one broadcast that every loop selects on. When it fires, the listener
//! stops accepting and each connection sends a close frame and ends; the store then commits
//! whatever is queued and closes.

use tokio::sync::broadcast;

/// Listens for the server's shutdown signal. Once it has fired, `recv` returns at once.
#[derive(Debug)]
pub struct Shutdown {
    fired: bool,
    notify: broadcast::Receiver<()>,
}

impl Shutdown {
    pub fn new(notify: broadcast::Receiver<()>) -> Self {
        Shutdown {
            fired: false,
            notify,
        }
    }

    pub async fn recv(&mut self) {
        if self.fired {
            return;
        }
        let _ = self.notify.recv().await;
        self.fired = true;
    }
}
