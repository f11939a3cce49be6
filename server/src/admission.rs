//! Admission: which accepted sockets the server keeps. The listener asks the gate about every
//! socket it accepts, after accepting it: waiting on a limit before `accept` would leave a
//! real client queued in the kernel behind a flood of sockets that never speak.
//!
//! A socket is held from admission until its [`Ticket`] drops. It is *handshaking* until its
//! connection has done TLS (when configured), the WebSocket upgrade and the protocol hello,
//! then *established*. The rules:
//!
//! - per address, at most `handshakes_per_address` handshaking and `connections_per_address`
//!   held in all; a socket over either is refused at once, so one address cannot take the
//!   server's room;
//! - at most `connections` held in all; when that is reached, the oldest handshaking socket is
//!   evicted to make room (a flood spread over many addresses then only ever pushes out its
//!   own stale sockets, since a real client's handshake takes milliseconds);
//! - an established session is never evicted: when every held socket is one, a new socket is
//!   refused.
//!
//! IPv6 addresses count per /64, the block one subscriber usually gets, so a single host
//! cannot dodge the per-address limits by rotating through its own addresses.
//!
//! The counts sit behind a `std::sync::Mutex`, never held across an `.await`: each use is a
//! few map operations, the accept loop is its only frequent user, and a ticket must be able
//! to give its slot back from `Drop`, which cannot await.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// The gate's limits; see the module comment for what each does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub connections: usize,
    pub connections_per_address: usize,
    pub handshakes_per_address: usize,
}

/// Why a socket was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    HandshakesPerAddress,
    ConnectionsPerAddress,
    /// Every held socket is an established session.
    Full,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::HandshakesPerAddress => "too many handshakes from this address",
            Refusal::ConnectionsPerAddress => "too many connections from this address",
            Refusal::Full => "every connection slot holds a session",
        })
    }
}

/// An admitted socket.
pub struct Admitted {
    pub ticket: Ticket,
    /// Whether admitting it evicted the oldest handshaking socket.
    pub evicted_another: bool,
}

/// The counts for one address (or IPv6 /64).
#[derive(Debug, Default, Clone, Copy)]
struct PerAddress {
    held: usize,
    handshaking: usize,
}

#[derive(Debug)]
struct Counts {
    held: usize,
    by_address: HashMap<IpAddr, PerAddress>,
    /// Handshaking sockets by admission order, oldest first; the sender evicts one.
    handshaking: BTreeMap<u64, (IpAddr, oneshot::Sender<()>)>,
    next_id: u64,
}

impl Counts {
    /// Gives back one held slot of `addr`, one handshake too if `handshaking`.
    fn release(&mut self, addr: IpAddr, handshaking: bool) {
        self.held = self.held.saturating_sub(1);
        if let Some(a) = self.by_address.get_mut(&addr) {
            a.held = a.held.saturating_sub(1);
            if handshaking {
                a.handshaking = a.handshaking.saturating_sub(1);
            }
            if a.held == 0 {
                self.by_address.remove(&addr);
            }
        }
    }
}

/// The admission counts, shared by the listener and every ticket.
#[derive(Debug)]
pub struct Gate {
    limits: Limits,
    counts: Mutex<Counts>,
}

impl Gate {
    pub fn new(limits: Limits) -> Arc<Gate> {
        Arc::new(Gate {
            limits,
            counts: Mutex::new(Counts {
                held: 0,
                by_address: HashMap::new(),
                handshaking: BTreeMap::new(),
                next_id: 0,
            }),
        })
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The counts stay consistent even if a holder panicked: every update is a few integer
    /// and map operations that cannot be left half done in a way that matters.
    fn lock(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Decides about a socket just accepted from `peer`.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Admitted, Refusal> {
        let addr = address_key(peer);
        let mut counts = self.lock();
        let mine = counts.by_address.get(&addr).copied().unwrap_or_default();
        if mine.handshaking >= self.limits.handshakes_per_address {
            return Err(Refusal::HandshakesPerAddress);
        }
        if mine.held >= self.limits.connections_per_address {
            return Err(Refusal::ConnectionsPerAddress);
        }
        let mut evicted_another = false;
        if counts.held >= self.limits.connections {
            let Some((_, (old_addr, evict))) = counts.handshaking.pop_first() else {
                return Err(Refusal::Full);
            };
            // The slot moves to the newcomer now; the evicted ticket finds itself gone from
            // `handshaking` and gives nothing back when it drops.
            counts.release(old_addr, true);
            let _ = evict.send(());
            evicted_another = true;
        }
        let id = counts.next_id;
        counts.next_id += 1;
        let (evict, evicted) = oneshot::channel();
        counts.handshaking.insert(id, (addr, evict));
        counts.held += 1;
        let a = counts.by_address.entry(addr).or_default();
        a.held += 1;
        a.handshaking += 1;
        Ok(Admitted {
            ticket: Ticket {
                gate: self.clone(),
                id,
                addr,
                established: false,
                evicted,
            },
            evicted_another,
        })
    }

    /// Sockets held in all, and how many of them are handshaking.
    pub fn held(&self) -> (usize, usize) {
        let counts = self.lock();
        (counts.held, counts.handshaking.len())
    }
}

/// The key an address is counted under: IPv4 (and IPv4-mapped IPv6) as is, IPv6 by its /64.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

/// One held socket's slot, given back when the ticket drops.
#[derive(Debug)]
pub struct Ticket {
    gate: Arc<Gate>,
    id: u64,
    addr: IpAddr,
    established: bool,
    evicted: oneshot::Receiver<()>,
}

impl Ticket {
    /// Resolves when the gate evicts this socket to make room. Only meaningful while it
    /// handshakes: once established it resolves at once (the gate let go of the sender).
    pub async fn evicted(&mut self) {
        let _ = (&mut self.evicted).await;
    }

    /// The handshake is done: the socket becomes a session, never evicted. `false` if it was
    /// evicted first; the caller then closes it.
    pub fn establish(&mut self) -> bool {
        if self.established {
            return true;
        }
        let mut counts = self.gate.lock();
        if counts.handshaking.remove(&self.id).is_none() {
            return false;
        }
        if let Some(a) = counts.by_address.get_mut(&self.addr) {
            a.handshaking = a.handshaking.saturating_sub(1);
        }
        self.established = true;
        true
    }

    pub fn is_established(&self) -> bool {
        self.established
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = self.gate.lock();
        if self.established {
            counts.release(self.addr, false);
        } else if counts.handshaking.remove(&self.id).is_some() {
            counts.release(self.addr, true);
        }
        // Otherwise it was evicted, and its slot already went to the socket that evicted it.
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    fn v4(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))
    }

    fn gate(connections: usize, per_address: usize, handshakes: usize) -> Arc<Gate> {
        Gate::new(Limits {
            connections,
            connections_per_address: per_address,
            handshakes_per_address: handshakes,
        })
    }

    fn admit(g: &Arc<Gate>, ip: IpAddr) -> Ticket {
        match g.admit(ip) {
            Ok(a) => a.ticket,
            Err(e) => panic!("refused: {e}"),
        }
    }

    #[test]
    fn handshakes_per_address_are_capped_and_other_addresses_are_not_affected() {
        let g = gate(100, 100, 2);
        let _a = admit(&g, v4(1));
        let mut b = admit(&g, v4(1));
        assert_eq!(g.admit(v4(1)).err(), Some(Refusal::HandshakesPerAddress));
        let _c = admit(&g, v4(2));
        // A finished handshake frees its handshake slot but still counts as a connection.
        assert!(b.establish());
        let _d = admit(&g, v4(1));
        assert_eq!(g.held(), (4, 3));
    }

    #[test]
    fn connections_per_address_count_sessions_and_handshakes_together() {
        let g = gate(100, 2, 10);
        let mut a = admit(&g, v4(1));
        assert!(a.establish());
        let _b = admit(&g, v4(1));
        assert_eq!(g.admit(v4(1)).err(), Some(Refusal::ConnectionsPerAddress));
        drop(a);
        let _c = admit(&g, v4(1));
        assert_eq!(g.held(), (2, 2));
    }

    #[test]
    fn a_full_gate_evicts_the_oldest_handshake_and_never_a_session() {
        let g = gate(3, 10, 10);
        let mut session = admit(&g, v4(1));
        assert!(session.establish());
        let mut oldest = admit(&g, v4(2));
        let mut younger = admit(&g, v4(3));
        let admitted = g.admit(v4(4)).expect("room is made");
        assert!(admitted.evicted_another);
        assert_eq!(g.held(), (3, 2));
        // The oldest handshake hears of it and cannot become a session any more.
        let now = futures_util::FutureExt::now_or_never(oldest.evicted());
        assert!(now.is_some(), "the oldest handshake is evicted");
        assert!(!oldest.establish());
        assert!(futures_util::FutureExt::now_or_never(younger.evicted()).is_none());
        // Its drop gives nothing back: the slot already went to the newcomer.
        drop(oldest);
        assert_eq!(g.held(), (3, 2));
        assert!(younger.establish());
        drop(admitted);
        // Now every held socket is a session: a newcomer is refused, nobody is evicted.
        let mut third = admit(&g, v4(5));
        assert!(third.establish());
        assert_eq!(g.admit(v4(6)).err(), Some(Refusal::Full));
        assert_eq!(g.held(), (3, 0));
        drop(session);
        let _ = admit(&g, v4(6));
    }

    #[test]
    fn every_slot_comes_back_when_its_ticket_drops() {
        let g = gate(4, 4, 4);
        let mut tickets: Vec<Ticket> = (0..4).map(|_| admit(&g, v4(1))).collect();
        assert!(tickets[0].establish());
        assert!(tickets[1].establish());
        assert_eq!(g.held(), (4, 2));
        tickets.clear();
        assert_eq!(g.held(), (0, 0));
        assert!(g.lock().by_address.is_empty(), "no address is remembered");
    }

    #[test]
    fn eviction_gives_the_evicted_address_its_slots_back() {
        let g = gate(2, 2, 2);
        let a = admit(&g, v4(1));
        let _b = admit(&g, v4(1));
        // Both of address 1's handshakes are held; a newcomer from 2 evicts the oldest.
        let _c = admit(&g, v4(2));
        drop(a);
        assert_eq!(g.held(), (2, 2));
        // Address 1 holds one socket now, so it may start another handshake.
        let admitted = g.admit(v4(1)).expect("address 1 is under its limits");
        assert!(admitted.evicted_another);
    }

    #[test]
    fn ipv6_counts_per_64_and_mapped_ipv4_as_ipv4() {
        let g = gate(100, 1, 1);
        let first: IpAddr = "2001:db8:1:2::1".parse().expect("address");
        let same_64: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("address");
        let other_64: IpAddr = "2001:db8:1:3::1".parse().expect("address");
        let _a = admit(&g, first);
        assert_eq!(g.admit(same_64).err(), Some(Refusal::HandshakesPerAddress));
        let _b = admit(&g, other_64);
        let _c = admit(&g, v4(7));
        let mapped = IpAddr::V6(Ipv4Addr::new(10, 0, 0, 7).to_ipv6_mapped());
        assert_eq!(g.admit(mapped).err(), Some(Refusal::HandshakesPerAddress));
        let loopback = address_key(IpAddr::V6(Ipv6Addr::LOCALHOST));
        assert_eq!(loopback, IpAddr::V6(Ipv6Addr::UNSPECIFIED));
    }
}
