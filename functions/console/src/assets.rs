//! The embedded assets and their content-hashed names. The index is a template
//! whose `{{app.js}}` / `{{app.css}}` placeholders become the hashed paths, so a new
//! build's index points at new names and the old, long-cached files are never used.

use crate::Reply;
use crate::headers::{IMMUTABLE, NO_STORE, with_security};
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

struct Asset {
    /// Logical name, as the index template refers to it.
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/app.js"),
    },
    Asset {
        name: "app.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../assets/app.css"),
    },
];

const INDEX_TEMPLATE: &str = include_str!("../assets/index.html");

struct Hashed {
    /// `app.3f2a9c1d0b7e4a56.js`
    served: String,
    asset: &'static Asset,
}

/// Worked out on the first console request, not at process start: the API function's
/// cold start does not pay for a page most invocations never serve.
static HASHED: LazyLock<Vec<Hashed>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|asset| {
            let digest = Sha256::digest(asset.bytes);
            let hash = courier_core::hex::encode(&digest[..8]);
            let served = match asset.name.rsplit_once('.') {
                Some((stem, ext)) => format!("{stem}.{hash}.{ext}"),
                None => format!("{}.{hash}", asset.name),
            };
            Hashed { served, asset }
        })
        .collect()
});

static INDEX: LazyLock<String> = LazyLock::new(|| {
    HASHED.iter().fold(INDEX_TEMPLATE.to_owned(), |html, h| {
        html.replace(
            &format!("{{{{{}}}}}", h.asset.name),
            &format!("{}/assets/{}", crate::PREFIX, h.served),
        )
    })
});

/// The served path of a logical asset (`app.js` -> `/console/assets/app.<hash>.js`).
pub fn asset_path(name: &str) -> Option<String> {
    HASHED
        .iter()
        .find(|h| h.asset.name == name)
        .map(|h| format!("{}/assets/{}", crate::PREFIX, h.served))
}

/// The index page as served.
pub fn index_html() -> &'static str {
    &INDEX
}

pub(crate) fn index() -> Reply {
    Reply {
        status: 200,
        headers: with_security("text/html; charset=utf-8", NO_STORE),
        body: INDEX.as_bytes().to_vec(),
    }
}

/// An asset by its hashed name; an old or made-up hash is not found.
pub(crate) fn asset(served: &str) -> Option<Reply> {
    let h = HASHED.iter().find(|h| h.served == served)?;
    Some(Reply {
        status: 200,
        headers: with_security(h.asset.content_type, IMMUTABLE),
        body: h.asset.bytes.to_vec(),
    })
}
