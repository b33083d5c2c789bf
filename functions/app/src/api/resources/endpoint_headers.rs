//! An endpoint's `headers` as the API checks them (their wire shapes are in
//! `api::wire::endpoint_settings`): at most [`MAX_HEADERS`] name/value pairs sent
//! with every attempt, each name an RFC 9110 token that Courier does not set
//! itself, each value one line of at most [`MAX_HEADER_VALUE`] bytes; a `secret`
//! value is write-only (shown as null).

use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::wire::endpoint_settings::HeaderIn;
use crate::domain::model::{Credential, CustomHeader};

/// Most headers one endpoint sends.
pub const MAX_HEADERS: usize = 20;
/// Longest header name, in bytes.
pub const MAX_HEADER_NAME: usize = 256;
/// Longest header value, in bytes.
pub const MAX_HEADER_VALUE: usize = 4096;

/// Names Courier sets or that belong to the connection, not the message.
const RESERVED: [&str; 15] = [
    "content-type",
    "content-length",
    "content-encoding",
    "host",
    "user-agent",
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "expect",
];

/// The presets' own attempt headers.
const PRESET_ATTEMPT_HEADERS: [&str; 2] = ["tanitar-delivery-attempt", "smartchat-delivery-attempt"];

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn check_name(i: usize, name: &str, attempt_header: Option<&str>) -> ApiResult<()> {
    let field = format!("headers[{i}].name");
    if name.is_empty() || name.len() > MAX_HEADER_NAME || !name.bytes().all(is_token_char) {
        return Err(ApiError::validation(format!(
            "field `{field}` must be 1-{MAX_HEADER_NAME} characters of an HTTP field name (letters, digits and !#$%&'*+-.^_`|~)"
        )));
    }
    let lower = name.to_ascii_lowercase();
    let reserved = RESERVED.contains(&lower.as_str())
        || lower.starts_with("webhook-")
        || PRESET_ATTEMPT_HEADERS.contains(&lower.as_str())
        || attempt_header.is_some_and(|h| h.eq_ignore_ascii_case(&lower));
    if reserved {
        return Err(ApiError::validation(format!(
            "field `{field}`: {name:?} is a header Courier sets itself (or one of the connection's); choose another name"
        )));
    }
    Ok(())
}

fn check_value(i: usize, value: &str) -> ApiResult<()> {
    let ok_byte = |b: u8| b == b'\t' || b >= 0x20 && b != 0x7f;
    if value.len() > MAX_HEADER_VALUE || !value.bytes().all(ok_byte) {
        return Err(ApiError::validation(format!(
            "field `headers[{i}].value` must be one line of at most {MAX_HEADER_VALUE} bytes (no CR, LF, NUL or other control characters)"
        )));
    }
    Ok(())
}

/// The headers `given` asks for, over the ones stored (`current`), checked; 400
/// naming the first entry at fault.
pub(crate) fn headers_from(
    given: &[HeaderIn],
    current: &[CustomHeader],
    attempt_header: Option<&str>,
) -> ApiResult<Vec<CustomHeader>> {
    if given.len() > MAX_HEADERS {
        return Err(ApiError::validation(format!(
            "field `headers` may hold at most {MAX_HEADERS} headers, got {}",
            given.len()
        )));
    }
    let mut out: Vec<CustomHeader> = Vec::with_capacity(given.len());
    for (i, h) in given.iter().enumerate() {
        check_name(i, &h.name, attempt_header)?;
        if out.iter().any(|o| o.name.eq_ignore_ascii_case(&h.name)) {
            return Err(ApiError::validation(format!(
                "field `headers[{i}].name`: {:?} is listed twice",
                h.name
            )));
        }
        let secret = h.secret.unwrap_or(false);
        let value = match &h.value {
            Some(v) => {
                check_value(i, v)?;
                Credential::Plain(v.clone())
            }
            // A secret shown masked and sent back as it was shown: kept.
            None => match current
                .iter()
                .find(|c| c.secret && c.name.eq_ignore_ascii_case(&h.name))
            {
                Some(stored) if secret => stored.value.clone(),
                _ => {
                    return Err(ApiError::validation(format!(
                        "field `headers[{i}].value` is required (null only keeps a stored secret value)"
                    )));
                }
            },
        };
        out.push(CustomHeader {
            name: h.name.clone(),
            value,
            secret,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::wire::endpoint_settings::HeaderOut;
    use serde_json::json;

    fn h(name: &str, value: Option<&str>, secret: bool) -> HeaderIn {
        HeaderIn {
            name: name.to_owned(),
            value: value.map(str::to_owned),
            secret: Some(secret),
        }
    }

    fn refused(given: Vec<HeaderIn>, attempt: Option<&str>) -> String {
        match headers_from(&given, &[], attempt) {
            Err(e) => e.detail,
            Ok(v) => panic!("accepted {v:?}"),
        }
    }

    #[test]
    fn names_are_tokens_courier_does_not_set() {
        for name in [
            "Content-Type",
            "host",
            "webhook-signature",
            "Webhook-Anything",
            "Transfer-Encoding",
            "tanitar-delivery-attempt",
            "SmartChat-Delivery-Attempt",
        ] {
            let d = refused(vec![h(name, Some("x"), false)], None);
            assert!(d.starts_with("field `headers[0].name`:"), "{name}: {d}");
        }
        let d = refused(vec![h("X-Attempt", Some("1"), false)], Some("x-attempt"));
        assert!(d.starts_with("field `headers[0].name`:"), "{d}");
        let long = "a".repeat(257);
        for name in ["", "a b", "x:y", "é", long.as_str()] {
            let d = refused(vec![h(name, Some("x"), false)], None);
            assert!(d.starts_with("field `headers[0].name` must be"), "{name}: {d}");
        }
        let d = refused(vec![h("X-Key", Some("1"), false), h("x-key", Some("2"), false)], None);
        assert_eq!(d, "field `headers[1].name`: \"x-key\" is listed twice");
        let many: Vec<HeaderIn> = (0..21).map(|i| h(&format!("x-{i}"), Some("v"), false)).collect();
        assert_eq!(
            refused(many, None),
            "field `headers` may hold at most 20 headers, got 21"
        );
    }

    #[test]
    fn values_are_one_line_of_at_most_4_kib() {
        for value in ["a\r\nb", "a\nb", "a\0b", "a\u{7f}"] {
            let d = refused(vec![h("X-Key", Some(value), false)], None);
            assert!(
                d.starts_with("field `headers[0].value` must be one line"),
                "{value:?}: {d}"
            );
        }
        let d = refused(vec![h("X-Key", Some(&"v".repeat(4097)), false)], None);
        assert!(d.starts_with("field `headers[0].value`"), "{d}");
        let ok = headers_from(
            &[h(
                "Authorization",
                Some(&format!("Bearer {}\tx", "v".repeat(4000))),
                true,
            )],
            &[],
            None,
        )
        .expect("a tab and 4 KiB pass");
        assert!(ok[0].secret);
    }

    #[test]
    fn a_secret_sent_back_without_its_value_keeps_it_and_is_shown_masked() {
        let stored = vec![CustomHeader {
            name: "X-Key".into(),
            value: "s3cret".into(),
            secret: true,
        }];
        let kept =
            headers_from(&[h("x-key", None, true), h("X-Plain", Some("p"), false)], &stored, None).expect("kept");
        assert_eq!(kept[0].value, Credential::Plain("s3cret".into()));
        assert_eq!(
            serde_json::to_value(kept.iter().map(HeaderOut::from).collect::<Vec<_>>()).unwrap_or_default(),
            json!([
                {"name": "x-key", "value": null, "secret": true},
                {"name": "X-Plain", "value": "p", "secret": false},
            ])
        );
        let d = refused(vec![h("X-Other", None, true)], None);
        assert!(d.starts_with("field `headers[0].value` is required"), "{d}");
    }
}
