// Shared by the build scripts of the Lambda binaries (and the bench's hello_lambda,
// which must be linked the same way): links one binary as a position-dependent
// executable on Linux.
//
// Why: a position-independent executable of this size carries about 43,000 relative
// relocations (1 MB of `.rela.dyn`) that the dynamic loader applies at every cold
// start, touching every page of `.data.rel.ro` on the way: about 0.8 ms and 140
// page faults of the sender's init (docs/bench-history.md, section 4). Linked at a
// fixed address, the loader has nothing to apply. What is given up is address
// randomisation of the binary's own image (the heap, stack and shared libraries
// stay randomised); the code is memory-safe Rust, and Lambda runs each function in
// its own microVM.
//
// Only the final link changes (no crate is compiled differently), and only for the
// named binary, so tests and other tools keep the toolchain's default.

fn link_without_pie(bin: &str) {
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-link-arg-bin={bin}=-no-pie");
    }
}
