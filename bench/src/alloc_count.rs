//! A global allocator that counts: mimalloc underneath (the sender Lambda's
//! allocator), plus a per-thread tally of allocations and bytes asked for, which
//! section 1 reads around each current-thread run to report allocations per
//! delivery. The tally is thread-local, a plain add on every call, so counting
//! costs each variant about a nanosecond per allocation and no shared cache line.
//! The bench crate's only unsafe code (its Cargo.toml denies it elsewhere): each
//! call is forwarded to mimalloc unchanged.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

thread_local! {
    // Const-initialised and without a destructor: reading it never allocates, which
    // the allocator itself relies on.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

/// mimalloc, counting.
pub struct Counting;

fn count(size: usize) {
    // `try_with`: a thread being torn down has no slot left; its calls go uncounted.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    let _ = BYTES.try_with(|b| b.set(b.get() + size as u64));
}

// SAFETY: every call is passed unchanged to mimalloc, which upholds GlobalAlloc's
// contract; the tally only reads the requested size.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from mimalloc, with `layout`.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation is counted as one allocation of its new size: what a growing
        // buffer costs is how often it moves.
        count(new_size);
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

/// Allocations (reallocations included) and bytes requested by this thread so far.
/// Zero in a program whose global allocator is not [`Counting`].
pub fn thread_totals() -> (u64, u64) {
    (
        ALLOCATIONS.try_with(Cell::get).unwrap_or(0),
        BYTES.try_with(Cell::get).unwrap_or(0),
    )
}

#[cfg(test)]
mod tests {
    use super::{Counting, thread_totals};
    use std::alloc::{GlobalAlloc, Layout};

    #[test]
    fn tallies_this_threads_calls_through_it() {
        // The test harness's own allocator is the system one: only calls made through
        // `Counting` move the tally.
        let before = thread_totals();
        let layout = Layout::from_size_align(48, 8).expect("layout");
        // SAFETY: a non-zero layout; the block is grown, then freed with its layout.
        unsafe {
            let p = Counting.alloc(layout);
            assert!(!p.is_null());
            let q = Counting.realloc(p, layout, 200);
            assert!(!q.is_null());
            Counting.dealloc(q, Layout::from_size_align(200, 8).expect("layout"));
        }
        let after = thread_totals();
        assert_eq!((after.0 - before.0, after.1 - before.1), (2, 248));
        // Another thread's calls are its own.
        let other = std::thread::spawn(move || {
            // SAFETY: as above.
            unsafe { Counting.dealloc(Counting.alloc(layout), layout) };
            thread_totals()
        })
        .join()
        .expect("thread");
        assert_eq!(other, (1, 48));
        assert_eq!(thread_totals(), after);
    }
}
