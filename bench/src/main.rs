//! `courier-bench` (run by `make bench`): runs the sections, prints one table and
//! writes it as JSON under `<target>/bench/`. Sizes come from the environment:
//! `COURIER_BENCH_N` (deliveries per sender variant, default 50000),
//! `COURIER_BENCH_CONCURRENCY` (requests in flight, default 40),
//! `COURIER_BENCH_ROUNDS` (alternating rounds, default 6), `COURIER_BENCH_AWS_K`
//! (deliveries per cost path, default 10), `COURIER_BENCH_PAYLOAD_BYTES` (bytes of
//! each cost path event's payload JSON, default a small one of about 70),
//! `COURIER_BENCH_M` (retries per lateness path, default 20),
//! `COURIER_BENCH_INIT_RUNS` (default 40) and `COURIER_BENCH_SECTIONS` (default
//! `sender,aws,lateness,startup,core`).
//! `courier-bench receiver` and `sender-child ...` are the child processes the
//! sections start.

use courier_app::ports::Clock;
use courier_bench::report::{self, Bench, Section};
use courier_bench::{aws_requests, core_results, env_usize, isolation, lateness, receiver, sender_overhead, startup};
use std::process::ExitCode;
use std::time::Duration;

/// The sender Lambda's allocator (mimalloc), for every variant, the bare client
/// included, so section 1 compares like with like.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A subcommand's end: its error on stderr, named, and the exit status.
fn finish<E: std::fmt::Display>(name: &str, result: Result<(), E>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let rest: Vec<String> = std::env::args().skip(2).collect();
    match std::env::args().nth(1).as_deref() {
        Some("receiver") => return finish("receiver", receiver::serve_as_child()),
        Some("sender-child") => return finish("sender child", sender_overhead::child(&rest)),
        _ => {}
    }
    let sections =
        std::env::var("COURIER_BENCH_SECTIONS").unwrap_or_else(|_| "sender,aws,lateness,isolation,startup,core".into());
    let wants = |s: &str| sections.split(',').any(|x| x.trim() == s);
    let mut bench = Bench {
        started_at: courier_app::adapters::system::SystemClock.now().to_rfc3339(),
        cores: std::thread::available_parallelism().map_or(1, usize::from),
        sender: Section::skipped(),
        aws: Section::skipped(),
        lateness: Section::skipped(),
        isolation: Section::skipped(),
        startup: Section::skipped(),
        core: Section::skipped(),
    };
    let release = startup::release_dir();
    if wants("core") {
        bench.core = match release.as_deref().and_then(core_results::criterion_dir) {
            Some(dir) => Ok(core_results::read(&dir)),
            None => Err("cannot locate the target directory".to_owned()),
        }
        .into();
    }
    if wants("startup") {
        // 40 starts: a p50 of 15 moved by a tenth between runs, enough to cross
        // the 1.5x bound either way, and 40 cost a few seconds more.
        let runs = env_usize("COURIER_BENCH_INIT_RUNS", 40);
        eprintln!("courier-bench: binary sizes and init time ({runs} runs each)");
        bench.startup = startup::run(runs).into();
    }
    if wants("sender") {
        let cfg = sender_overhead::Config {
            deliveries: env_usize("COURIER_BENCH_N", 50_000),
            concurrency: env_usize("COURIER_BENCH_CONCURRENCY", 40),
            rounds: env_usize("COURIER_BENCH_ROUNDS", 6),
            time_limit: Duration::from_secs(90),
        };
        eprintln!(
            "courier-bench: sender overhead ({} deliveries per variant, {} in flight, {} rounds)",
            cfg.deliveries, cfg.concurrency, cfg.rounds
        );
        bench.sender = sender_overhead::run(&cfg).into();
    }
    if wants("aws") || wants("lateness") || wants("isolation") {
        match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
            Ok(rt) => {
                if wants("aws") {
                    let cfg = aws_requests::Config {
                        per_path: env_usize("COURIER_BENCH_AWS_K", 10),
                        payload_bytes: env_usize("COURIER_BENCH_PAYLOAD_BYTES", 0),
                        time_limit: Duration::from_secs(60),
                    };
                    eprintln!(
                        "courier-bench: AWS requests per delivery ({} deliveries per path)",
                        cfg.per_path
                    );
                    bench.aws = rt.block_on(aws_requests::run(&cfg)).into();
                }
                if wants("lateness") {
                    let cfg = lateness::Config {
                        per_path: env_usize("COURIER_BENCH_M", 20),
                        time_limit: Duration::from_secs(60),
                    };
                    eprintln!("courier-bench: timer lateness ({} retries per path)", cfg.per_path);
                    bench.lateness = rt.block_on(lateness::run(&cfg)).into();
                }
                if wants("isolation") {
                    let cfg = isolation::Config {
                        flood: env_usize("COURIER_BENCH_ISOLATION_FLOOD", 1000),
                        others: 20,
                        per_second: 2.0,
                        time_limit: Duration::from_secs(60),
                    };
                    eprintln!(
                        "courier-bench: isolation ({} deliveries to a hanging endpoint)",
                        cfg.flood
                    );
                    bench.isolation = rt.block_on(isolation::run(&cfg)).into();
                }
            }
            Err(e) => {
                bench.isolation = Err(e.to_string()).into();
                bench.aws = Err(e.to_string()).into();
                bench.lateness = Err(e.to_string()).into();
            }
        }
    }
    println!("{}", report::table(&bench));
    match release.as_deref().and_then(std::path::Path::parent) {
        Some(target) => match report::write_json(&bench, target) {
            Ok(file) => eprintln!("courier-bench: wrote {}", file.display()),
            Err(e) => eprintln!("courier-bench: could not write the JSON: {e}"),
        },
        None => eprintln!("courier-bench: cannot locate the target directory; JSON not written"),
    }
    let failed = [
        bench.sender.error.is_some(),
        bench.aws.error.is_some(),
        bench.lateness.error.is_some(),
        bench.isolation.error.is_some(),
        bench.startup.error.is_some(),
        bench.core.error.is_some(),
    ];
    if failed.contains(&true) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
