//! Event type payload schemas: checking a JSON Schema (draft 2020-12) when an event
//! type is created or changed, and checking an event's payload against its type's
//! schema at ingest. Compiled schemas are cached per (tenant, type, `updatedAt`), so a
//! type's schema is compiled once per change, not once per event.
//!
//! Schemas are self-contained: a `$ref` to anything outside the document is refused
//! when the schema is set (never fetched), and `pattern`s run on a linear-time regex
//! engine, so no payload can make a check take unbounded time.

use crate::domain::model::EventType;
use crate::ports::{ApplicationStore, PortResult};
use courier_core::Timestamp;
use courier_core::ids::TenantId;
use jsonschema::{PatternOptions, Retrieve, Uri, Validator};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The only `$schema` a type's schema may declare (it may also declare none).
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
/// Most a schema may be, serialized.
pub const MAX_SCHEMA_BYTES: usize = 64 * 1024;
/// Most compiled schemas kept; past it the cache starts afresh.
const CACHE_ENTRIES: usize = 512;

/// A payload that does not match its type's schema: the JSON pointer of the first
/// failing place in the payload (`""` for the payload itself) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadInvalid {
    pub pointer: String,
    pub message: String,
}

/// Refuses every remote `$ref`: schemas must be self-contained.
struct NoRemoteRefs;

impl Retrieve for NoRemoteRefs {
    fn retrieve(&self, uri: &Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        Err(format!("remote references are not fetched; `{uri}` must be defined inside the schema").into())
    }
}

/// Compiles a schema, or says why it is not a usable draft 2020-12 schema (not an
/// object or boolean, another draft, too large, not valid against the meta-schema, a
/// remote `$ref`, a bad `pattern`).
pub fn compile(schema: &Value) -> Result<Validator, String> {
    if !(schema.is_object() || schema.is_boolean()) {
        return Err("must be a JSON Schema (an object or a boolean)".to_owned());
    }
    let size = serde_json::to_vec(schema).map(|v| v.len()).unwrap_or(usize::MAX);
    if size > MAX_SCHEMA_BYTES {
        return Err(format!("is {size} bytes; the limit is {MAX_SCHEMA_BYTES}"));
    }
    match schema.get("$schema") {
        None => {}
        Some(Value::String(s)) if s.trim_end_matches('#') == DRAFT_2020_12 => {}
        Some(other) => {
            return Err(format!(
                "`$schema` must be {DRAFT_2020_12:?} (draft 2020-12), got {other}"
            ));
        }
    }
    jsonschema::draft202012::options()
        .with_retriever(NoRemoteRefs)
        .with_pattern_options(PatternOptions::regex())
        .build(schema)
        .map_err(|e| e.to_string())
}

/// Checks `payload` against the type's schema: Ok when there is no type or it has no
/// schema. A stored schema that no longer compiles (it was checked when set) lets
/// the payload through rather than refusing every event of the type.
pub fn check_payload(event_type: Option<&EventType>, payload: &Value) -> Result<(), PayloadInvalid> {
    let Some(schema) = event_type.and_then(|t| t.schema.as_ref()) else {
        return Ok(());
    };
    match compile(schema) {
        Ok(v) => check_with(&v, payload),
        Err(_) => Ok(()),
    }
}

/// Checks `payload` against a compiled schema; the first error names its place.
pub fn check_with(validator: &Validator, payload: &Value) -> Result<(), PayloadInvalid> {
    match validator.iter_errors(payload).next() {
        None => Ok(()),
        Some(e) => Err(PayloadInvalid {
            pointer: e.instance_path().as_str().to_owned(),
            message: e.to_string(),
        }),
    }
}

type CacheKey = (TenantId, String);
/// A compiled schema and the `updatedAt` of the type it was compiled from.
type Compiled = (Timestamp, Arc<Validator>);

/// Compiled schemas by (tenant, type name), each with the `updatedAt` of the type it
/// was compiled from: a changed type is compiled afresh. Clones share the cache.
#[derive(Clone, Default)]
pub struct SchemaCache {
    entries: Arc<Mutex<HashMap<CacheKey, Compiled>>>,
}

impl SchemaCache {
    /// The compiled schema of `event_type` (None when it has none or it does not
    /// compile), from the cache when the type has not changed since.
    pub fn validator(&self, event_type: &EventType) -> Option<Arc<Validator>> {
        let schema = event_type.schema.as_ref()?;
        let key = (event_type.tenant_id.clone(), event_type.name.clone());
        if let Ok(entries) = self.entries.lock()
            && let Some((at, v)) = entries.get(&key)
            && *at == event_type.updated_at
        {
            return Some(v.clone());
        }
        let compiled = Arc::new(compile(schema).ok()?);
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CACHE_ENTRIES {
                entries.clear();
            }
            entries.insert(key, (event_type.updated_at, compiled.clone()));
        }
        Some(compiled)
    }

    /// How many compiled schemas are held (for tests).
    pub fn len(&self) -> usize {
        self.entries.lock().map(|e| e.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Ingest's check: when `event_type` names one of the tenant's types that has a
/// schema, the payload must match it. Unknown types (and names no type can have)
/// pass, as events of types never declared are accepted.
pub async fn check_event(
    store: &dyn ApplicationStore,
    cache: &SchemaCache,
    tenant: &TenantId,
    event_type: &str,
    payload: &Value,
) -> PortResult<Result<(), PayloadInvalid>> {
    if courier_core::subscription::check_type_name(event_type).is_err() {
        return Ok(Ok(()));
    }
    let Some(stored) = store.get_event_type(tenant, event_type).await? else {
        return Ok(Ok(()));
    };
    Ok(match cache.validator(&stored) {
        Some(v) => check_with(&v, payload),
        None => Ok(()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::memory::MemoryApplications;
    use serde_json::json;

    fn tenant() -> TenantId {
        TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap()
    }

    fn ty(schema: Option<Value>, updated: i64) -> EventType {
        EventType {
            name: "invoice.paid".into(),
            tenant_id: tenant(),
            description: None,
            deprecated: false,
            schema,
            example: None,
            created_at: Timestamp(0),
            updated_at: Timestamp(updated),
        }
    }

    fn amount_schema() -> Value {
        json!({
            "type": "object",
            "required": ["amount"],
            "properties": {
                "amount": {"type": "integer", "minimum": 0},
                "lines": {"type": "array", "items": {"type": "object", "required": ["sku"]}}
            }
        })
    }

    #[test]
    fn the_first_failure_is_named_by_its_pointer() {
        let t = ty(Some(amount_schema()), 1);
        assert_eq!(check_payload(Some(&t), &json!({"amount": 5})), Ok(()));
        let e = check_payload(Some(&t), &json!({"amount": "5"})).expect_err("refused");
        assert_eq!(e.pointer, "/amount");
        assert_eq!(e.message, r#""5" is not of type "integer""#);
        let e = check_payload(Some(&t), &json!({"amount": 1, "lines": [{"sku": "a"}, {}]})).expect_err("refused");
        assert_eq!(e.pointer, "/lines/1");
        assert_eq!(e.message, r#""sku" is a required property"#);
        let e = check_payload(Some(&t), &json!([])).expect_err("refused");
        assert_eq!(e.pointer, "");
        // No type, or a type without a schema: anything goes.
        assert_eq!(check_payload(None, &json!("x")), Ok(()));
        assert_eq!(check_payload(Some(&ty(None, 1)), &json!("x")), Ok(()));
    }

    #[test]
    fn bad_schemas_are_refused_with_the_reason() {
        assert_eq!(
            compile(&json!("object")).err().as_deref(),
            Some("must be a JSON Schema (an object or a boolean)")
        );
        assert_eq!(
            compile(&json!({"type": "nope"})).err().as_deref(),
            Some(r#""nope" is not valid under any of the schemas listed in the 'anyOf' keyword"#)
        );
        assert_eq!(
            compile(&json!({"$schema": "http://json-schema.org/draft-07/schema#"}))
                .err()
                .as_deref(),
            Some(
                r#"`$schema` must be "https://json-schema.org/draft/2020-12/schema" (draft 2020-12), got "http://json-schema.org/draft-07/schema#""#
            )
        );
        assert!(compile(&json!({"$schema": DRAFT_2020_12, "type": "object"})).is_ok());
        assert!(compile(&json!(true)).is_ok());
        let big = json!({"description": "x".repeat(MAX_SCHEMA_BYTES)});
        assert_eq!(
            compile(&big).err().as_deref(),
            Some(format!("is {} bytes; the limit is {MAX_SCHEMA_BYTES}", MAX_SCHEMA_BYTES + 18).as_str())
        );
    }

    #[test]
    fn remote_refs_are_refused_never_fetched() {
        // 127.0.0.1:9 (discard) would hang or refuse if it were ever contacted; the
        // retriever refuses before any I/O.
        let e = compile(&json!({"$ref": "http://127.0.0.1:9/schema.json"})).expect_err("refused");
        assert!(e.contains("remote references are not fetched"), "{e}");
        assert!(e.contains("http://127.0.0.1:9/schema.json"), "{e}");
        let e = compile(&json!({"$ref": "file:///etc/passwd"})).expect_err("refused");
        assert!(e.contains("remote references are not fetched"), "{e}");
        // Local references resolve.
        let local = json!({"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}});
        let v = compile(&local).expect("local ref");
        assert_eq!(check_with(&v, &json!({"a": 1})), Ok(()));
        assert_eq!(
            check_with(&v, &json!({"a": "x"})).map_err(|e| e.pointer),
            Err("/a".to_owned())
        );
    }

    #[test]
    fn the_deepest_documents_a_request_can_carry_compile_and_check() {
        // serde_json stops at 128 levels: 125 inside a request body is about the most
        // a schema (or payload) can nest.
        let mut schema = json!({"type": "integer"});
        let mut payload = json!(1);
        let mut bad = json!("x");
        for _ in 0..125 {
            schema = json!({"type": "array", "items": schema});
            payload = json!([payload]);
            bad = json!([bad]);
        }
        let v = compile(&schema).expect("deep schema");
        assert_eq!(check_with(&v, &payload), Ok(()));
        let e = check_with(&v, &bad).expect_err("refused");
        assert_eq!(e.pointer, "/0".repeat(125));
        // A pattern whose compiled form is too large is refused, not run.
        let e = compile(&json!({"pattern": "(a{1000}){1000}"})).expect_err("refused");
        assert!(e.contains("(a{1000}){1000}"), "{e}");
    }

    #[test]
    fn compiled_schemas_are_reused_until_the_type_changes() {
        let cache = SchemaCache::default();
        let t1 = ty(Some(amount_schema()), 1);
        let a = cache.validator(&t1).expect("compiled");
        let b = cache.validator(&t1).expect("cached");
        assert!(Arc::ptr_eq(&a, &b));
        let t2 = ty(Some(json!({"type": "string"})), 2);
        let c = cache.validator(&t2).expect("recompiled");
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(check_with(&c, &json!("s")), Ok(()));
        assert_eq!(cache.len(), 1);
        assert!(cache.validator(&ty(None, 3)).is_none());
    }

    #[tokio::test]
    async fn ingest_check_looks_up_the_tenants_type() {
        let store = MemoryApplications::new();
        let cache = SchemaCache::default();
        store
            .create_event_type(&ty(Some(amount_schema()), 1))
            .await
            .expect("create");
        let check = |name: &'static str, payload: Value| {
            let (store, cache) = (&store, &cache);
            async move {
                check_event(store, cache, &tenant(), name, &payload)
                    .await
                    .expect("store")
            }
        };
        assert_eq!(check("invoice.paid", json!({"amount": 1})).await, Ok(()));
        assert_eq!(
            check("invoice.paid", json!({})).await.map_err(|e| e.pointer),
            Err(String::new())
        );
        // Unknown types, and names no type can have, pass.
        assert_eq!(check("invoice.void", json!({})).await, Ok(()));
        assert_eq!(check("not a type", json!({})).await, Ok(()));
        let other = TenantId::parse("ten_01JBBBBBBBBBBBBBBBBBBBBBBB").expect("id");
        assert_eq!(
            check_event(&store, &cache, &other, "invoice.paid", &json!({}))
                .await
                .expect("store"),
            Ok(())
        );
    }
}
