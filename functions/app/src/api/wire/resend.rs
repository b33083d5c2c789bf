//! Sending again on the wire: what replay and redeliver take, and what replay,
//! replay-dead and redeliver answer.

use crate::api::wire::deliveries::DeliveryOut;
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId};
use serde::{Deserialize, Serialize};

/// `POST /v1/endpoints/{id}/replay`: the time range whose events go again.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({"since": "2026-11-30T06:00:00Z", "until": "2026-11-30T07:00:00Z"})))]
pub struct ReplayIn {
    #[cfg_attr(feature = "openapi", schema(schema_with = replay_since))]
    pub since: String,
    /// End of the range; defaults to now (later values are cut to now).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>))]
    pub until: Option<String>,
}

/// `since` of a replay, with the age limit the code enforces (`REPLAY_MAX_DAYS`) as
/// `x-maxAgeDays`: a window relative to now, which JSON Schema cannot state.
#[cfg(feature = "openapi")]
fn replay_since() -> utoipa::openapi::schema::Object {
    use crate::api::http::limits::REPLAY_MAX_DAYS;
    use utoipa::openapi::extensions::ExtensionsBuilder;
    use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        .description(Some(format!(
            "Start of the range (RFC 3339), at most {REPLAY_MAX_DAYS} days back (an earlier instant answers 400 `validation_failed`); not after `until`."
        )))
        .extensions(Some(ExtensionsBuilder::new().add("x-maxAgeDays", REPLAY_MAX_DAYS).build()))
        .build()
}

/// What a replay answers: the range replayed and how many events went again.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({"endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2", "since": "2026-11-30T06:00:00.000Z", "until": "2026-11-30T07:00:00.000Z", "replayed": 12})))]
pub struct ReplayAccepted {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EndpointId))]
    pub endpoint_id: EndpointId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub since: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub until: Timestamp,
    /// Events sent again.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub replayed: usize,
}

/// What `POST /v1/endpoints/{id}/replay-dead` answers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({"endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2", "replayed": 3})))]
pub struct ReplayDeadAccepted {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EndpointId))]
    pub endpoint_id: EndpointId,
    /// Failed deliveries sent again.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub replayed: usize,
}

/// `POST /v1/deliveries/{id}/redeliver`: which earlier attempt the new one follows
/// up on. The body may be left out.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({"sourceAttemptId": "att_01JD5ZQ7X2M3C9V4B8N6R0T1W2"})))]
pub struct RedeliverIn {
    /// The attempt this redelivery follows up on; defaults to the last one.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::AttemptId>))]
    pub source_attempt_id: Option<String>,
}

/// What a redeliver call answers: the attempt it queued.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({"deliveryId": "dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2", "attemptId": "att_01JD5ZQ7X2M3C9V4B8N6R0T1W3", "attemptNumber": 4, "sourceAttemptId": "att_01JD5ZQ7X2M3C9V4B8N6R0T1W2"})))]
pub struct RedeliveryAccepted {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryId))]
    pub delivery_id: DeliveryId,
    /// The new attempt's id.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::AttemptId))]
    pub attempt_id: AttemptId,
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub attempt_number: u32,
    /// The attempt it follows up on (null when the delivery had none).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::AttemptId>, required))]
    pub source_attempt_id: Option<AttemptId>,
    /// The delivery as updated; absent when the answer repeats an earlier one for
    /// the same key.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = DeliveryOut))]
    pub delivery: Option<DeliveryOut>,
}

/// Optional bodies (redeliver, enable, secret rotation, an application's portal
/// link: an empty body reads as `{}`) are what utoipa only writes for an `Option`
/// body, as "the object or null"; but a JSON `null` body is refused (400: a body
/// must be an object). So each such schema is set back to the plain object, the
/// body staying not required.
#[cfg(feature = "openapi")]
pub struct OptionalBodyRule;

#[cfg(feature = "openapi")]
impl utoipa::Modify for OptionalBodyRule {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::Schema;
        let operations = doc.paths.paths.values_mut().flat_map(|item| {
            [&mut item.post, &mut item.put, &mut item.patch]
                .into_iter()
                .filter_map(|op| op.as_mut())
        });
        for op in operations {
            let Some(body) = op.request_body.as_mut() else {
                continue;
            };
            for content in body.content.values_mut() {
                let Some(RefOr::T(Schema::OneOf(one_of))) = &content.schema else {
                    continue;
                };
                let null = serde_json::json!({"type": "null"});
                let (refs, others): (Vec<_>, Vec<_>) = one_of.items.iter().partition(|s| matches!(s, RefOr::Ref(_)));
                let only_null = others.len() == 1
                    && others
                        .iter()
                        .all(|s| serde_json::to_value(s).ok() == Some(null.clone()));
                if let ([object], true) = (refs.as_slice(), only_null) {
                    content.schema = Some((*object).clone());
                }
            }
        }
    }
}
