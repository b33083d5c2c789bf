//! Runs a batch's record futures together inside the batch's one task: after the
//! first round, only the records whose I/O woke the batch are polled again, and the
//! results come back in record order. This is what `FuturesOrdered` did here, without
//! its bookkeeping around every poll (a queue of linked tasks to unlink and relink, a
//! heap to put results back in order).

use futures_util::task::AtomicWaker;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, Wake, Waker};

/// Which records were woken since the batch last looked: one bit per record.
struct Woken {
    words: Box<[AtomicU64]>,
    /// The waker of the task the batch runs in.
    batch: AtomicWaker,
}

/// One record's waker: marks its record, then wakes the batch's task.
struct RecordWaker {
    index: usize,
    woken: Arc<Woken>,
}

impl Wake for RecordWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.words[self.index / 64].fetch_or(1 << (self.index % 64), Ordering::AcqRel);
        self.woken.batch.wake();
    }
}

/// Every future's output, in the order the futures were given. Each future is
/// dropped as soon as it finishes. A future that keeps waking itself cannot hold
/// the task: after as many polls as there are futures, the batch yields to the
/// runtime before polling more.
pub async fn join_in_order<F: Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    let mut pending: Vec<Option<Pin<Box<F>>>> = futures.into_iter().map(|f| Some(Box::pin(f))).collect();
    let count = pending.len();
    let woken = Arc::new(Woken {
        // Every record starts woken, so the first round polls them all.
        words: (0..count.div_ceil(64)).map(|_| AtomicU64::new(u64::MAX)).collect(),
        batch: AtomicWaker::new(),
    });
    let wakers: Vec<Waker> = (0..count)
        .map(|index| {
            Waker::from(Arc::new(RecordWaker {
                index,
                woken: woken.clone(),
            }))
        })
        .collect();
    let mut outputs: Vec<Option<F::Output>> = (0..count).map(|_| None).collect();
    let mut left = count;
    std::future::poll_fn(|cx| {
        // Registered before the bits are read: a wake-up after the read wakes the task.
        woken.batch.register(cx.waker());
        let mut polls = 0;
        loop {
            let mut polled = false;
            for (w, word) in woken.words.iter().enumerate() {
                let mut bits = word.swap(0, Ordering::AcqRel);
                while bits != 0 {
                    let index = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    // Bits past the last record, and records already done, are skipped.
                    let Some(future) = pending.get_mut(index).and_then(Option::as_mut) else {
                        continue;
                    };
                    polled = true;
                    polls += 1;
                    if let Poll::Ready(out) = future.as_mut().poll(&mut Context::from_waker(&wakers[index])) {
                        outputs[index] = Some(out);
                        pending[index] = None;
                        left -= 1;
                    }
                }
            }
            if left == 0 {
                return Poll::Ready(());
            }
            if !polled {
                return Poll::Pending;
            }
            if polls >= count {
                // Records woke themselves while being polled: let other tasks run first.
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    #[tokio::test]
    async fn results_come_back_in_the_order_given_whatever_order_they_finish_in() {
        let finished = Arc::new(Mutex::new(Vec::new()));
        let futures = [30u64, 10, 20, 0].into_iter().enumerate().map(|(i, ms)| {
            let finished = finished.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                finished.lock().map(|mut f| f.push(i)).ok();
                i * 100
            }
        });
        assert_eq!(join_in_order(futures).await, vec![0, 100, 200, 300]);
        assert_eq!(finished.lock().map(|f| f.clone()).ok(), Some(vec![3, 1, 2, 0]));
    }

    #[tokio::test]
    async fn nothing_to_join_is_an_empty_result() {
        let none: Vec<std::future::Ready<u8>> = Vec::new();
        assert_eq!(join_in_order(none).await, Vec::<u8>::new());
    }

    /// Counts its polls; answers after `ready_after` of them, waking itself on the others.
    struct Counted {
        polls: Arc<std::sync::atomic::AtomicUsize>,
        ready_after: usize,
    }

    impl Future for Counted {
        type Output = usize;
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<usize> {
            let n = self.polls.fetch_add(1, Ordering::SeqCst) + 1;
            if n >= self.ready_after {
                return Poll::Ready(n);
            }
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    #[tokio::test]
    async fn only_woken_records_are_polled_again() {
        // One record waits on a channel; the other finishes at once. The waiting one is
        // polled once on the first round and once when its message arrives, never in
        // between, however often the other runs.
        let (tx, rx) = tokio::sync::oneshot::channel::<u8>();
        let waiting_polls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = waiting_polls.clone();
        let mut rx = Some(rx);
        let waiting = std::future::poll_fn(move |cx| {
            counter.fetch_add(1, Ordering::SeqCst);
            match rx.as_mut().map(|r| Pin::new(r).poll(cx)) {
                Some(Poll::Ready(v)) => Poll::Ready(v.unwrap_or(0) as usize),
                _ => Poll::Pending,
            }
        });
        let busy = Counted {
            polls: Arc::new(std::sync::atomic::AtomicUsize::new(0)),
            ready_after: 5,
        };
        let sender = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let _ = tx.send(7);
        });
        let joined: Vec<std::pin::Pin<Box<dyn Future<Output = usize> + Send>>> =
            vec![Box::pin(waiting), Box::pin(busy)];
        assert_eq!(join_in_order(joined).await, vec![7, 5]);
        assert_eq!(waiting_polls.load(Ordering::SeqCst), 2);
        let _ = sender.await;
    }

    #[tokio::test]
    async fn a_record_that_keeps_waking_itself_lets_other_tasks_run() {
        // On a single-threaded runtime, the spawned task can only run when the batch
        // yields; the self-waking record finishes only after 1,000 polls.
        let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = ran.clone();
        let other = tokio::spawn(async move { flag.store(true, Ordering::SeqCst) });
        let polls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = ran.clone();
        let first_seen_at = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let at = first_seen_at.clone();
        let counter = polls.clone();
        let spinner = std::future::poll_fn(move |cx| {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            if seen.load(Ordering::SeqCst) && at.load(Ordering::SeqCst) == 0 {
                at.store(n, Ordering::SeqCst);
            }
            if n >= 1_000 {
                return Poll::Ready(n);
            }
            cx.waker().wake_by_ref();
            Poll::Pending
        });
        assert_eq!(join_in_order([spinner]).await, vec![1_000]);
        let _ = other.await;
        // The other task ran after the record's first poll, long before its last.
        assert_eq!(first_seen_at.load(Ordering::SeqCst), 2);
    }
}
