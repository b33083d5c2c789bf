//! CPU time of this process (every thread), read from the kernel's per-process CPU
//! clock (`CLOCK_PROCESS_CPUTIME_ID`, nanoseconds, through rustix's safe wrapper).
//! `/proc/self/stat` counts in ticks of 1/100 s, too coarse for a handler run of a
//! few tens of milliseconds.

/// User plus system CPU seconds this process has used so far.
pub fn process_cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// What a run spent between [`Usage::start`] and [`Usage::stop`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spent {
    pub wall_seconds: f64,
    /// The whole process's CPU seconds.
    pub cpu_seconds: f64,
}

/// CPU seconds and wall time between `start` and `stop`.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    cpu: f64,
    wall: std::time::Instant,
}

impl Usage {
    pub fn start() -> Usage {
        Usage {
            cpu: process_cpu_seconds(),
            wall: std::time::Instant::now(),
        }
    }

    pub fn stop(self) -> Spent {
        // The process CPU clock never goes back, so the difference needs no clamp.
        let cpu = process_cpu_seconds() - self.cpu;
        Spent {
            wall_seconds: self.wall.elapsed().as_secs_f64(),
            cpu_seconds: cpu,
        }
    }
}

#[cfg(test)]
mod tests {
    /// The clock moves in steps far finer than procfs's 10 ms ticks (a busy loop
    /// sees it advance by microseconds), and sleeping does not move it.
    #[test]
    fn steps_finely_and_ignores_sleep() {
        let first = super::process_cpu_seconds();
        let mut next = first;
        // Bounded: a clock that never moved would end here and fail below.
        let spin = std::time::Instant::now();
        while next == first && spin.elapsed() < std::time::Duration::from_secs(5) {
            next = std::hint::black_box(super::process_cpu_seconds());
        }
        let step = next - first;
        assert!(step > 0.0 && step < 0.001, "smallest step seen: {step} s");
        let before = super::process_cpu_seconds();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let slept = super::process_cpu_seconds() - before;
        assert!(slept < 0.02, "30 ms of sleep read as {slept} s of CPU");
    }
}
