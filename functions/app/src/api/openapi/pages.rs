//! List pages in the document: each `Page_X` refers to `X` for its items instead of
//! holding a copy (utoipa inlines a generic's type argument), so a generated client
//! names one type for an item whether it came from a list or a single read.

use utoipa::Modify;
use utoipa::openapi::schema::{ArrayItems, Schema};
use utoipa::openapi::{OpenApi as Document, Ref, RefOr};

pub(super) struct PageItemsByRef;

impl Modify for PageItemsByRef {
    fn modify(&self, doc: &mut Document) {
        let Some(components) = doc.components.as_mut() else {
            return;
        };
        let names: Vec<String> = components.schemas.keys().cloned().collect();
        for (name, schema) in components.schemas.iter_mut() {
            let Some(item) = name
                .strip_prefix("Page_")
                .filter(|item| names.iter().any(|n| n == item))
            else {
                continue;
            };
            let RefOr::T(Schema::Object(page)) = schema else {
                continue;
            };
            if let Some(RefOr::T(Schema::Array(items))) = page.properties.get_mut("items") {
                items.items = ArrayItems::RefOrSchema(Box::new(RefOr::Ref(Ref::from_schema_name(item))));
            }
        }
    }
}
