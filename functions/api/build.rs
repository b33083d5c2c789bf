//! Links the Lambda binary as a fixed-address executable; see `infra/no-pie.rs`.

include!("../../infra/no-pie.rs");

fn main() {
    link_without_pie("courier-api");
}
