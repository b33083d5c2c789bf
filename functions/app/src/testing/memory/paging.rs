//! Paging for the in-memory lists: the list scope, window and limit clamps, and
//! hex cursors over the same sort keys the table uses.

use super::*;

/// The record's own millisecond clamp for sort keys (times before 1970 sort first).
pub(super) fn sort_ms(t: Timestamp) -> i64 {
    t.millis().max(0)
}

pub(super) fn clamp_limit(limit: u32) -> usize {
    limit.clamp(1, MAX_PAGE) as usize
}

/// A cursor's text for `s`.
pub(super) fn hex(s: &str) -> String {
    courier_core::hex::encode(s.as_bytes())
}

/// The text a cursor spells; `None` when it is not hex of UTF-8.
pub(super) fn unhex(s: &str) -> Option<String> {
    String::from_utf8(courier_core::hex::decode(s)?).ok()
}

/// The list a page belongs to: a name for its partition (tenant, endpoint, status
/// filter), which its cursors carry, and the time window asked for, which a
/// cursor's key must lie in. The DynamoDB adapter refuses the same cursors: one
/// whose partition differs, or whose key lies outside the query's key condition
/// (which DynamoDB itself rejects).
pub(super) struct ListScope {
    pub(super) name: String,
    pub(super) since: Option<Timestamp>,
    pub(super) until: Option<Timestamp>,
}

impl ListScope {
    pub(super) fn whole(name: String) -> Self {
        ListScope {
            name,
            since: None,
            until: None,
        }
    }

    pub(super) fn cursor(&self, key: &str) -> String {
        hex(&format!("{}\n{key}", self.name))
    }

    /// The key a cursor continues after, if the cursor is one of this list's.
    pub(super) fn key_after(&self, cursor: &str) -> PortResult<String> {
        let text = unhex(cursor).ok_or(PortError::BadCursor)?;
        let (name, key) = text.split_once('\n').ok_or(PortError::BadCursor)?;
        if name != self.name {
            return Err(PortError::BadCursor);
        }
        if self.since.is_some() || self.until.is_some() {
            // Time keys start with the instant's milliseconds (`time_key`).
            let ms = key
                .split_once('#')
                .and_then(|(ms, _)| ms.parse::<i64>().ok())
                .ok_or(PortError::BadCursor)?;
            if !in_window(Timestamp(ms), self.since.map(clamp_ms), self.until.map(clamp_ms)) {
                return Err(PortError::BadCursor);
            }
        }
        Ok(key.to_owned())
    }
}

/// An instant as time keys hold it (`sort_ms`), so windows compare like keys do.
pub(super) fn clamp_ms(t: Timestamp) -> Timestamp {
    Timestamp(sort_ms(t))
}

/// Cuts one page out of `items` (already in list order, each with its sort key):
/// the items after the cursor's key, `limit` of them, and a cursor iff more remain.
pub(super) fn paginate<T: Clone>(
    items: Vec<(String, T)>,
    scope: &ListScope,
    cursor: Option<&str>,
    limit: u32,
    descending: bool,
) -> PortResult<Page<T>> {
    let after = cursor.map(|c| scope.key_after(c)).transpose()?;
    let limit = clamp_limit(limit);
    let mut rest = items.into_iter().filter(|(k, _)| match &after {
        None => true,
        Some(a) if descending => k < a,
        Some(a) => k > a,
    });
    let page: Vec<(String, T)> = rest.by_ref().take(limit).collect();
    let more = rest.next().is_some();
    let next_cursor = if more {
        page.last().map(|(k, _)| scope.cursor(k))
    } else {
        None
    };
    Ok(Page {
        items: page.into_iter().map(|(_, t)| t).collect(),
        next_cursor,
    })
}

pub(super) fn time_key(t: Timestamp, id: &str) -> String {
    format!("{:015}#{id}", sort_ms(t))
}
