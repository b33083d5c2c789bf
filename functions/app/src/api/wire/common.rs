//! Shapes every resource shares: a page of a list.

use serde::Serialize;

/// One page of a list, in the list's own order: the items and the cursor to the
/// next page (null after the last).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Send it back as `cursor` for the next page; null after the last. Always present.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub next_cursor: Option<String>,
}
