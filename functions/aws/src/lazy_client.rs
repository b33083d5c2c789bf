//! `LazyClient`: an SDK client built the first time it is used, not when its
//! adapter is. Building a client takes cold-start time (each SDK crate parses its
//! endpoint-partition table and compiles its region patterns), and the sender's usual
//! path (first attempt succeeds) never touches SQS or Scheduler: those clients wait
//! until the first retry, and are built once.

use std::sync::{Arc, OnceLock};

/// A client of type `C`, built on first use by `build` and shared after that.
#[derive(Clone)]
pub struct LazyClient<C> {
    client: OnceLock<C>,
    build: Arc<dyn Fn() -> C + Send + Sync>,
}

impl<C: Clone + Send + Sync + 'static> LazyClient<C> {
    /// Runs `build` on the first [`LazyClient::get`], never before.
    pub fn new(build: impl Fn() -> C + Send + Sync + 'static) -> Self {
        LazyClient {
            client: OnceLock::new(),
            build: Arc::new(build),
        }
    }

    /// A client built already (tests with an interceptor, the local runner).
    pub fn ready(client: C) -> Self {
        let copy = client.clone();
        LazyClient {
            client: OnceLock::from(client),
            build: Arc::new(move || copy.clone()),
        }
    }

    /// The client, built now if this is the first use (concurrent first uses
    /// build it once).
    pub fn get(&self) -> &C {
        self.client.get_or_init(|| (self.build)())
    }

    /// Whether the client has been built yet.
    pub fn is_built(&self) -> bool {
        self.client.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::LazyClient;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn the_client_is_built_on_first_use_and_only_once() {
        let builds = Arc::new(AtomicUsize::new(0));
        let counter = builds.clone();
        let lazy = LazyClient::new(move || format!("client {}", counter.fetch_add(1, Ordering::SeqCst) + 1));
        assert_eq!(builds.load(Ordering::SeqCst), 0);
        assert!(!lazy.is_built());
        assert_eq!(lazy.get(), "client 1");
        assert_eq!(lazy.get(), "client 1");
        assert_eq!(builds.load(Ordering::SeqCst), 1);
        assert!(lazy.is_built());
    }

    #[test]
    fn the_queue_and_timer_build_their_clients_when_first_asked() {
        let config = aws_config::SdkConfig::builder()
            .behavior_version(aws_config::BehaviorVersion::latest())
            .build();
        let queue = crate::SqsQueue::new(&config, "https://sqs.us-east-1.amazonaws.com/1/q");
        let timer = crate::SchedulerTimer::new(&config, "group", "arn:queue", "arn:role");
        assert!(!queue.client_built());
        assert!(!timer.client_built());
        let _ = queue.client();
        let _ = timer.client();
        assert!(queue.client_built());
        assert!(timer.client_built());
    }

    #[test]
    fn a_ready_client_is_used_as_given() {
        let lazy = LazyClient::ready(String::from("given"));
        assert!(lazy.is_built());
        assert_eq!(lazy.get(), "given");
    }

    #[test]
    fn concurrent_first_uses_build_once() {
        let builds = Arc::new(AtomicUsize::new(0));
        let counter = builds.clone();
        let lazy = Arc::new(LazyClient::new(move || counter.fetch_add(1, Ordering::SeqCst)));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let lazy = lazy.clone();
                std::thread::spawn(move || *lazy.get())
            })
            .collect();
        let seen: Vec<usize> = threads.into_iter().map(|t| t.join().unwrap_or(usize::MAX)).collect();
        assert_eq!(seen, vec![0; 8]);
        assert_eq!(builds.load(Ordering::SeqCst), 1);
    }
}
