//! Links `hello_lambda` the way the Lambda binaries are linked (see
//! `infra/no-pie.rs`), so the init-time ratio compares like with like.

include!("../infra/no-pie.rs");

fn main() {
    link_without_pie("hello_lambda");
}
