//! Maps a failed reqwest request to the attempt outcome it stands for. Decided only
//! from error types found by walking the `source()` chain (our own
//! [`AdmissionError`], `std::io::Error` kinds, hyper and rustls errors, and reqwest's
//! typed predicates): never from message text, which changes between versions.
//!
//! The distinction that matters downstream is whether the request may have reached
//! the receiver: failures while connecting (DNS, refused, TLS, connect timeout) are
//! safe to retry, failures after the connection carried the request are ambiguous.

use crate::admission::AdmissionError;
use courier_core::outcome::{AttemptOutcome, PreSendFailure, TransportFailure};
use std::error::Error as StdError;
use std::io;

/// Longest source chain walked: real chains are a handful of links deep, and a
/// bound keeps a pathological (self-referencing) chain from looping forever.
const MAX_CHAIN: usize = 32;

/// Every error in `err`'s chain, `err` first. `io::Error::source()` skips the error
/// it wraps (it returns the inner error's source), so for io errors the wrapped
/// error itself (`get_ref`) is visited: that is where rustls's errors live.
fn chain<'a>(err: &'a (dyn StdError + 'static)) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    let mut next = Some(err);
    std::iter::from_fn(move || {
        let current = next?;
        next = match current.downcast_ref::<io::Error>() {
            Some(io_err) => match io_err.get_ref() {
                Some(inner) => Some(inner as &(dyn StdError + 'static)),
                None => io_err.source(),
            },
            None => current.source(),
        };
        Some(current)
    })
    .take(MAX_CHAIN)
}

/// What the error chain says, gathered before deciding (the order of links differs
/// between the connect and the request path).
#[derive(Debug, Default)]
struct Evidence {
    unsafe_target: bool,
    unresolved: bool,
    tls: bool,
    refused: bool,
    timed_out: bool,
    /// The connection was closed, reset or ended early.
    dropped: bool,
    /// hyper dropped the request before writing it (its connection closed first).
    canceled: bool,
}

fn gather(err: &reqwest::Error) -> Evidence {
    let mut evidence = Evidence {
        unresolved: err.is_dns(),
        timed_out: err.is_timeout(),
        ..Evidence::default()
    };
    for link in chain(err) {
        if let Some(admission) = link.downcast_ref::<AdmissionError>() {
            if admission.is_unsafe_target() {
                evidence.unsafe_target = true;
            } else {
                evidence.unresolved = true;
            }
        }
        if link.is::<rustls::Error>() {
            evidence.tls = true;
        }
        if let Some(io_err) = link.downcast_ref::<io::Error>() {
            match io_err.kind() {
                io::ErrorKind::ConnectionRefused => evidence.refused = true,
                io::ErrorKind::TimedOut => evidence.timed_out = true,
                io::ErrorKind::ConnectionReset
                | io::ErrorKind::ConnectionAborted
                | io::ErrorKind::BrokenPipe
                | io::ErrorKind::UnexpectedEof => evidence.dropped = true,
                _ => {}
            }
        }
        if let Some(hyper_err) = link.downcast_ref::<hyper::Error>() {
            if hyper_err.is_timeout() {
                evidence.timed_out = true;
            }
            if hyper_err.is_canceled() {
                evidence.canceled = true;
            }
            if hyper_err.is_incomplete_message() || hyper_err.is_closed() {
                evidence.dropped = true;
            }
        }
    }
    evidence
}

/// The outcome of a request that failed with `err`. `https` says whether a TLS
/// handshake was part of connecting.
pub(crate) fn outcome_of(err: &reqwest::Error, https: bool) -> AttemptOutcome {
    let evidence = gather(err);
    if evidence.unsafe_target {
        return AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe);
    }
    AttemptOutcome::transport(transport_failure(&evidence, err.is_connect(), err.is_builder(), https))
}

fn transport_failure(evidence: &Evidence, connecting: bool, builder: bool, https: bool) -> TransportFailure {
    if evidence.unresolved {
        return TransportFailure::Dns;
    }
    if evidence.tls {
        return TransportFailure::Tls;
    }
    if evidence.refused {
        return TransportFailure::Refused;
    }
    if connecting {
        // Nothing was sent. After the TCP connect succeeded, the only step left in
        // connecting an https URL is the TLS handshake (no proxies are used), so a
        // peer hanging up there is a TLS failure. A connect timeout stays `Other`:
        // `Timeout` would claim the request may have been processed.
        return if https && evidence.dropped {
            TransportFailure::Tls
        } else {
            TransportFailure::Other
        };
    }
    if evidence.timed_out {
        return TransportFailure::Timeout;
    }
    if builder || evidence.canceled {
        return TransportFailure::Other;
    }
    // Past connecting, the request was handed to a live connection: whatever broke
    // (reset, early close, an unparseable answer, an HTTP/2 stream error) may have
    // happened after the receiver got it.
    TransportFailure::ResetAfterSend
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Wrapper(Box<dyn StdError + Send + Sync>);
    impl std::fmt::Display for Wrapper {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("wrapper")
        }
    }
    impl StdError for Wrapper {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            Some(&*self.0)
        }
    }

    #[test]
    fn chain_visits_the_error_inside_an_io_error() {
        let tls = rustls::Error::General("handshake".to_owned());
        let io_err = io::Error::new(io::ErrorKind::InvalidData, tls);
        let outer = Wrapper(Box::new(io_err));
        let kinds: Vec<bool> = chain(&outer).map(|e| e.is::<rustls::Error>()).collect();
        assert_eq!(kinds, vec![false, false, true]);
    }

    #[test]
    fn chain_is_bounded() {
        let mut err: Box<dyn StdError + Send + Sync> = Box::new(io::Error::from(io::ErrorKind::Other));
        for _ in 0..100 {
            err = Box::new(Wrapper(err));
        }
        assert_eq!(chain(&*err).count(), MAX_CHAIN);
    }

    #[test]
    fn precedence() {
        let e = |f: fn(&mut Evidence)| {
            let mut ev = Evidence::default();
            f(&mut ev);
            ev
        };
        use TransportFailure::*;
        let cases: Vec<(Evidence, bool, bool, bool, TransportFailure)> = vec![
            (e(|v| v.unresolved = true), true, false, true, Dns),
            (e(|v| v.tls = true), true, false, true, Tls),
            (e(|v| v.refused = true), true, false, false, Refused),
            (e(|v| v.timed_out = true), true, false, false, Other),
            (e(|v| v.dropped = true), true, false, true, Tls),
            (e(|v| v.dropped = true), true, false, false, Other),
            (e(|v| v.timed_out = true), false, false, false, Timeout),
            (e(|v| v.dropped = true), false, false, false, ResetAfterSend),
            (e(|v| v.canceled = true), false, false, false, Other),
            (e(|_| {}), false, true, false, Other),
            (e(|_| {}), false, false, false, ResetAfterSend),
        ];
        for (evidence, connecting, builder, https, expected) in cases {
            assert_eq!(
                transport_failure(&evidence, connecting, builder, https),
                expected,
                "{evidence:?} connecting={connecting}"
            );
        }
    }
}
