//! CPU time of this process (every thread), from `/proc/self/stat`: `utime` plus
//! `stime`, in clock ticks of 1/100 s (Linux reports procfs times in USER_HZ,
//! which is 100 on every architecture). Safe code only, no libc. [`Usage`] also
//! reads the calling thread's allocation tally ([`crate::alloc_count`]).

/// Procfs clock ticks per second (USER_HZ).
const TICKS_PER_SECOND: f64 = 100.0;

/// User plus system CPU seconds this process has used so far (None off Linux).
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces and parentheses: fields follow the last ')'.
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state); utime and stime are fields 14 and 15.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / TICKS_PER_SECOND)
}

/// What a run spent between [`Usage::start`] and [`Usage::stop`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spent {
    pub wall_seconds: f64,
    /// The whole process's CPU seconds.
    pub cpu_seconds: f64,
    /// Allocations made on the calling thread (all of a current-thread runtime's
    /// work); zero unless the program's allocator is `alloc_count::Counting`.
    pub allocations: u64,
    pub allocated_bytes: u64,
}

/// CPU seconds, wall time and this thread's allocations between `start` and `stop`.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    cpu: f64,
    wall: std::time::Instant,
    allocs: (u64, u64),
}

impl Usage {
    pub fn start() -> Usage {
        Usage {
            cpu: process_cpu_seconds().unwrap_or(0.0),
            wall: std::time::Instant::now(),
            allocs: crate::alloc_count::thread_totals(),
        }
    }

    pub fn stop(self) -> Spent {
        let cpu = process_cpu_seconds().unwrap_or(0.0) - self.cpu;
        let (allocations, bytes) = crate::alloc_count::thread_totals();
        Spent {
            wall_seconds: self.wall.elapsed().as_secs_f64(),
            cpu_seconds: cpu.max(0.0),
            allocations: allocations - self.allocs.0,
            allocated_bytes: bytes - self.allocs.1,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_some_cpu_time() {
        let t = super::process_cpu_seconds();
        assert!(t.is_some_and(|t| t >= 0.0));
    }
}
