//! Lists bounded by bytes as well as by count. A page of 100 items whose views
//! can each be large (an attempt's failure snippet, a schedule's payload, an event
//! type's schema) could pass Lambda's 6 MB answer limit, and then the whole list
//! fails, the console's overview with it. A page whose views pass
//! [`MAX_LIST_BYTES`] is read again with as many items as fit, so its cursor
//! continues right after the last item answered.

use crate::domain::model::Page;
use crate::ports::PortResult;
use serde_json::Value;

/// The most bytes of items one list answer carries: well under Lambda's 6 MB,
/// with room for the envelope and headers.
pub(crate) const MAX_LIST_BYTES: usize = 4 * 1024 * 1024;

/// How many of the page's items, in order, fit into `budget` bytes of views (an
/// item without a view, expired, takes none); at least one.
fn items_fitting(views: &[Option<Value>], budget: usize) -> usize {
    let mut total = 0usize;
    for (i, v) in views.iter().enumerate() {
        if let Some(v) = v {
            // The comma between items included.
            total += serde_json::to_vec(v).map_or(0, |b| b.len()) + 1;
            if total > budget {
                return i.max(1);
            }
        }
    }
    views.len()
}

/// The views of a page read by `read(limit)` and its next cursor, at most
/// [`MAX_LIST_BYTES`] of views: when the page's views are more, it is read
/// again with fewer items (a second read only for such a page).
pub(crate) async fn bounded_page<T, F, Fut>(
    limit: u32,
    read: F,
    view: impl Fn(&T) -> Option<Value>,
) -> PortResult<(Vec<Value>, Option<String>)>
where
    F: Fn(u32) -> Fut,
    Fut: std::future::Future<Output = PortResult<Page<T>>>,
{
    let mut page = read(limit).await?;
    let mut views: Vec<Option<Value>> = page.items.iter().map(&view).collect();
    loop {
        let fit = items_fitting(&views, MAX_LIST_BYTES);
        if fit >= page.items.len() {
            break;
        }
        // Each read asks for fewer items, so this ends (at one item a page).
        page = read(fit as u32).await?;
        views = page.items.iter().map(&view).collect();
    }
    Ok((views.into_iter().flatten().collect(), page.next_cursor))
}
