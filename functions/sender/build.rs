//! Links the Lambda binary as a fixed-address executable (see `infra/no-pie.rs`),
//! with its start-up code laid out together (`init-order.ld`).

include!("../../infra/no-pie.rs");

fn main() {
    link_without_pie("courier-sender");
    // The code a cold start runs, placed in one run of pages instead of scattered
    // over the binary: fewer page faults before the first poll. Written by
    // `make init-order` (bench/src/init_order.rs). Only the final link changes.
    // `COURIER_INIT_ORDER=off` links the default layout: valgrind, which
    // `make init-order` profiles the binary with, names the object of code outside
    // `.text` "???".
    println!("cargo::rerun-if-changed=init-order.ld");
    println!("cargo::rerun-if-env-changed=COURIER_INIT_ORDER");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("init-order.ld");
    let wanted = std::env::var("COURIER_INIT_ORDER").as_deref() != Ok("off");
    if wanted && std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") && script.exists() {
        println!("cargo::rustc-link-arg-bin=courier-sender=-Wl,-T,{}", script.display());
    }
}
