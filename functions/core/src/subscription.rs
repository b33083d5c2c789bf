//! Subscriptions: which events an endpoint wants. An endpoint's `filterTypes` (none:
//! every type; entries are exact type names or a trailing `.*` prefix wildcard) and
//! `channels` (none: no channel filter) decide whether an event of a type, carrying
//! some channels, is delivered to it. Also the keys of the subscription index, so a
//! fan-out reads only the entries an event type can match instead of every endpoint.

use std::fmt;

/// Longest event type name, type filter or channel name.
pub const MAX_NAME_LEN: usize = 128;
/// Most entries in `filterTypes` or `channels`.
pub const MAX_ENTRIES: usize = 50;

/// Why a subscription field was refused: `field` names the entry (`filterTypes[2]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for SubscriptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.message)
    }
}

impl std::error::Error for SubscriptionError {}

/// One entry of `filterTypes`, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeFilter {
    /// Exactly this type.
    Exact(String),
    /// Every type that starts with this text, which ends with the dot (`invoice.`
    /// for `invoice.*`).
    Prefix(String),
}

impl TypeFilter {
    pub fn matches(&self, event_type: &str) -> bool {
        match self {
            TypeFilter::Exact(t) => t == event_type,
            TypeFilter::Prefix(p) => event_type.len() > p.len() && event_type.starts_with(p.as_str()),
        }
    }

    /// The subscription index key this filter is stored under.
    pub fn index_key(&self) -> String {
        match self {
            TypeFilter::Exact(t) => format!("t#{t}"),
            TypeFilter::Prefix(p) => format!("p#{p}"),
        }
    }
}

/// Index key of an endpoint that takes every type.
pub const ALL_TYPES_KEY: &str = "*";

fn segment_ok(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Why `name` is not an event type name (dot-separated segments of letters, digits,
/// `_` and `-`), if it is not one.
pub fn check_type_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return Err(format!("must be 1 to {MAX_NAME_LEN} characters"));
    }
    if !name.split('.').all(segment_ok) {
        return Err("must be dot-separated segments of letters, digits, `_` and `-`".to_owned());
    }
    Ok(())
}

/// Why `name` is not a channel name (letters, digits and `_ - . :`), if it is not one.
pub fn check_channel(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return Err(format!("must be 1 to {MAX_NAME_LEN} characters"));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
    {
        return Err("may hold only letters, digits and `_ - . :`".to_owned());
    }
    Ok(())
}

/// Parses one `filterTypes` entry.
pub fn parse_filter(entry: &str) -> Result<TypeFilter, String> {
    match entry.strip_suffix(".*") {
        Some(prefix) => {
            check_type_name(prefix).map_err(|m| format!("the part before `.*` {m}"))?;
            Ok(TypeFilter::Prefix(format!("{prefix}.")))
        }
        None => check_type_name(entry).map(|()| TypeFilter::Exact(entry.to_owned())),
    }
}

fn too_many(field: &str, n: usize) -> Result<(), SubscriptionError> {
    if n > MAX_ENTRIES {
        return Err(SubscriptionError {
            field: field.to_owned(),
            message: format!("at most {MAX_ENTRIES} entries"),
        });
    }
    Ok(())
}

/// Checks and parses a whole `filterTypes` list; the error names the first bad entry.
pub fn parse_filters(entries: &[String]) -> Result<Vec<TypeFilter>, SubscriptionError> {
    too_many("filterTypes", entries.len())?;
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            parse_filter(e).map_err(|message| SubscriptionError {
                field: format!("filterTypes[{i}]"),
                message,
            })
        })
        .collect()
}

/// Checks a `channels` list (`field` is where it came from, e.g. `channels`); the
/// error names the first bad entry.
pub fn check_channels(field: &str, channels: &[String]) -> Result<(), SubscriptionError> {
    too_many(field, channels.len())?;
    for (i, c) in channels.iter().enumerate() {
        check_channel(c).map_err(|message| SubscriptionError {
            field: format!("{field}[{i}]"),
            message,
        })?;
    }
    Ok(())
}

/// Whether an endpoint subscribed with `filters` (None: every type) and `channels`
/// (None: no channel filter) wants an event of `event_type` carrying
/// `event_channels`. An endpoint with channels takes only events that carry one of
/// them. Operational events (the reserved `courier.` types) go only to endpoints
/// whose filter names them: taking every type does not include them.
pub fn wants(
    filters: Option<&[TypeFilter]>,
    channels: Option<&[String]>,
    event_type: &str,
    event_channels: &[String],
) -> bool {
    let type_ok = match filters {
        None => !crate::operational::is_reserved(event_type),
        Some(fs) => fs.iter().any(|f| f.matches(event_type)),
    };
    let channel_ok = channels.is_none_or(|cs| cs.iter().any(|c| event_channels.contains(c)));
    type_ok && channel_ok
}

/// The index keys an endpoint is stored under: one per filter, or [`ALL_TYPES_KEY`].
/// Duplicates are left out.
pub fn index_keys(filters: Option<&[TypeFilter]>) -> Vec<String> {
    match filters {
        None => vec![ALL_TYPES_KEY.to_owned()],
        Some(fs) => {
            let mut keys: Vec<String> = fs.iter().map(TypeFilter::index_key).collect();
            keys.sort();
            keys.dedup();
            keys
        }
    }
}

/// The index keys an event of `event_type` must read: every type, the exact type,
/// and one per prefix ending at a dot (`a.b.c`: `p#a.`, `p#a.b.`). Their union is
/// exactly the endpoints whose type filter matches; channels are checked after.
/// A reserved (`courier.`) type leaves out every type's key: it goes only where a
/// filter names it.
pub fn lookup_keys(event_type: &str) -> Vec<String> {
    let mut keys = if crate::operational::is_reserved(event_type) {
        vec![format!("t#{event_type}")]
    } else {
        vec![ALL_TYPES_KEY.to_owned(), format!("t#{event_type}")]
    };
    keys.extend(
        event_type
            .match_indices('.')
            .map(|(i, _)| format!("p#{}", &event_type[..=i])),
    );
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn filters_parse_exact_and_prefix_entries() {
        assert_eq!(
            parse_filter("invoice.paid"),
            Ok(TypeFilter::Exact("invoice.paid".into()))
        );
        assert_eq!(parse_filter("invoice.*"), Ok(TypeFilter::Prefix("invoice.".into())));
        assert_eq!(parse_filter("a.b-c.*"), Ok(TypeFilter::Prefix("a.b-c.".into())));
        assert!(parse_filter("*").is_err());
        assert!(parse_filter(".*").is_err());
        assert!(parse_filter("invoice.").is_err());
        assert!(parse_filter("invoice..paid").is_err());
        assert!(parse_filter("inv*").is_err());
        assert!(parse_filter("a.*.b").is_err());
        assert!(parse_filter("").is_err());
        assert!(parse_filter(&"a".repeat(129)).is_err());
        assert!(parse_filter(&"a".repeat(128)).is_ok());
    }

    #[test]
    fn bad_entries_are_named_by_index() {
        let err = parse_filters(&s(&["invoice.paid", "order.*", "bad type"])).expect_err("refused");
        assert_eq!(err.field, "filterTypes[2]");
        assert_eq!(
            err.to_string(),
            "field `filterTypes[2]`: must be dot-separated segments of letters, digits, `_` and `-`"
        );
        let err = check_channels("channels", &s(&["eu", "us/east"])).expect_err("refused");
        assert_eq!(err.field, "channels[1]");
        assert!(check_channels("channels", &s(&["eu", "tenant:42", "a.b_c-d"])).is_ok());
        let many: Vec<String> = (0..51).map(|i| format!("t{i}")).collect();
        assert_eq!(parse_filters(&many).expect_err("refused").field, "filterTypes");
        assert_eq!(
            check_channels("channels", &many).expect_err("refused").field,
            "channels"
        );
    }

    #[test]
    fn prefix_matches_only_longer_types_under_it() {
        let p = TypeFilter::Prefix("invoice.".into());
        assert!(p.matches("invoice.paid"));
        assert!(p.matches("invoice.line.added"));
        assert!(!p.matches("invoice"));
        assert!(!p.matches("invoice."));
        assert!(!p.matches("invoices.paid"));
        let e = TypeFilter::Exact("invoice.paid".into());
        assert!(e.matches("invoice.paid"));
        assert!(!e.matches("invoice.paid.late"));
    }

    #[test]
    fn wants_combines_types_and_channels() {
        let inv = parse_filters(&s(&["invoice.*"])).expect("filters");
        let paid = parse_filters(&s(&["invoice.paid"])).expect("filters");
        let order = parse_filters(&s(&["order.*"])).expect("filters");
        let eu = s(&["eu"]);
        let none: Vec<String> = vec![];
        assert!(wants(Some(&inv), None, "invoice.paid", &none));
        assert!(wants(Some(&paid), None, "invoice.paid", &none));
        assert!(wants(None, None, "invoice.paid", &none));
        assert!(!wants(Some(&order), None, "invoice.paid", &none));
        // Channel filter: the event must carry one of the endpoint's channels.
        assert!(!wants(None, Some(&eu), "invoice.paid", &none));
        assert!(!wants(None, Some(&eu), "invoice.paid", &s(&["us"])));
        assert!(wants(None, Some(&eu), "invoice.paid", &s(&["us", "eu"])));
        // No channel filter: the event's channels do not matter.
        assert!(wants(Some(&paid), None, "invoice.paid", &s(&["us"])));
        // An empty filter list takes nothing.
        assert!(!wants(Some(&[]), None, "invoice.paid", &none));
    }

    #[test]
    fn operational_types_go_only_where_a_filter_names_them() {
        let t = "courier.endpoint.paused";
        assert_eq!(
            lookup_keys(t),
            s(&["t#courier.endpoint.paused", "p#courier.", "p#courier.endpoint."])
        );
        assert!(!wants(None, None, t, &[]));
        let named = parse_filters(&s(&["courier.endpoint.paused"])).expect("filters");
        let all_ops = parse_filters(&s(&["courier.*"])).expect("filters");
        let other = parse_filters(&s(&["invoice.*", "endpoint.*"])).expect("filters");
        assert!(wants(Some(&named), None, t, &[]));
        assert!(wants(Some(&all_ops), None, t, &[]));
        assert!(!wants(Some(&other), None, t, &[]));
        // Ordinary types are unchanged.
        assert!(wants(None, None, "invoice.paid", &[]));
    }

    #[test]
    fn lookup_keys_cover_exactly_the_matching_index_keys() {
        assert_eq!(
            lookup_keys("invoice.line.added"),
            s(&["*", "t#invoice.line.added", "p#invoice.", "p#invoice.line."])
        );
        assert_eq!(lookup_keys("ping"), s(&["*", "t#ping"]));
        let filters = parse_filters(&s(&["order.*", "invoice.paid", "order.*"])).expect("filters");
        assert_eq!(index_keys(Some(&filters)), s(&["p#order.", "t#invoice.paid"]));
        assert_eq!(index_keys(None), s(&["*"]));
        // A filter matches a type exactly when its key is among the type's lookup keys.
        for entry in [
            "invoice.*",
            "invoice.line.*",
            "invoice.paid",
            "invoice.line.added",
            "order.*",
            "invoices.*",
        ] {
            let f = parse_filter(entry).expect("filters");
            for ty in [
                "invoice.paid",
                "invoice.line.added",
                "invoices.x",
                "order.new",
                "invoice",
            ] {
                assert_eq!(
                    lookup_keys(ty).contains(&f.index_key()),
                    f.matches(ty),
                    "{entry} vs {ty}"
                );
            }
        }
    }
}
