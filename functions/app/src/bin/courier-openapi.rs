//! Prints the API's OpenAPI document (`make openapi` writes it to
//! docs/openapi.json); built only with the `openapi` feature.

fn main() {
    print!("{}", courier_app::api::openapi::document_json());
}
