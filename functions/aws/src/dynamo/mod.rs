//! `DynamoStore`: every store port over one DynamoDB table (single-table design).
//! The item layout and each access pattern are documented in `docs/data-model.md`;
//! the constants below are that document's names. Each record is stored as its JSON
//! in `data`, beside the key and condition attributes the expressions need.
//!
//! Rules mirror `courier_app::testing::memory::MemoryStore` exactly (both take the shared
//! ones from `courier_app::domain::store_rules` and pass `courier_app::testing::contract`): conditional writes for creates, versions, claims and
//! outcomes; `TransactWriteItems` where two items change together; TTL-expired items
//! (`expiresAt <= now`) read as absent, since DynamoDB deletes them only lazily.

mod applications;
mod bodies;
mod codec;
mod data_keys;
mod deliveries;
mod endpoints;
mod fanout_links;
mod idempotency;
mod query;
mod schedules;
mod schema;
mod smart_health;
mod stats;
mod subscriptions;
mod tenants;

use codec::*;
pub use fanout_links::fanout_link_sk;
use query::*;
pub use schema::*;
pub use smart_health::smart_health_pk;
pub use stats::stats_pk;
pub use subscriptions::subscription_prefix;

use crate::error::{corrupt, from_build, from_sdk, from_transaction};
use async_trait::async_trait;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    AttributeValue, KeysAndAttributes, Put, ReturnValue, ReturnValuesOnConditionCheckFailure, TransactWriteItem,
};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use courier_app::adapters::system::SystemClock;
use courier_app::domain::delivery_message::Trigger;
use courier_app::domain::model::{
    Attempt, ClaimRecord, Delivery, Endpoint, EventRecord, IdempotencyRecord, Page, Tenant,
};
use courier_app::domain::shared_body;
use courier_app::domain::store_rules::{MAX_PAGE, apply_claim, claim_held_by, is_live};
use courier_app::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, PortResult, TenantStore,
};
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// DynamoDB store for tenants, endpoints, events, deliveries, attempts and
/// idempotency records. `clock` decides TTL expiry on reads.
#[derive(Clone)]
pub struct DynamoStore {
    client: Client,
    table: String,
    clock: Arc<dyn Clock>,
    /// Index entries one list page reads at most (see `page`).
    max_examined: usize,
}

impl DynamoStore {
    /// The store over `table`, judging TTL expiry by the system clock.
    pub fn new(config: &aws_config::SdkConfig, table: impl Into<String>) -> Self {
        Self::with_client(Client::new(config), table, Arc::new(SystemClock))
    }

    pub fn with_client(client: Client, table: impl Into<String>, clock: Arc<dyn Clock>) -> Self {
        DynamoStore {
            client,
            table: table.into(),
            clock,
            max_examined: MAX_EXAMINED,
        }
    }

    /// Judges TTL expiry by `clock` instead (tests use a manual clock).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Reads at most `entries` index entries per list page instead of
    /// [`MAX_EXAMINED`] (tests use a small bound, to see a page cut short).
    pub fn with_max_examined(mut self, entries: usize) -> Self {
        self.max_examined = entries.max(1);
        self
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// A cheap read that proves the table is reachable (for `/healthz`).
    pub async fn ping(&self) -> PortResult<()> {
        self.client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key("HEALTH#ping".to_owned(), "HEALTH")))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    fn now(&self) -> Timestamp {
        self.clock.now()
    }

    async fn get(&self, pk: String, sk: &str) -> PortResult<Option<Item>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(pk, sk)))
            .consistent_read(true)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(out.item)
    }

    /// Puts `item`, replacing whatever has its key (no condition).
    async fn put(&self, item: Item) -> PortResult<()> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    /// Puts `item` unless an item with its key exists: `true` if it was written.
    async fn put_new(&self, item: Item) -> PortResult<bool> {
        self.put_if(item, "attribute_not_exists(PK)", None, None).await
    }

    /// Puts `item` if `condition` holds: `true` if it was written, `false` if the
    /// condition failed.
    async fn put_if(
        &self,
        item: Item,
        condition: &str,
        names: Option<HashMap<String, String>>,
        values: Option<Item>,
    ) -> PortResult<bool> {
        let r = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression(condition)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .send()
            .await;
        match r {
            Ok(_) => Ok(true),
            Err(e) if is_put_conflict(&e) => Ok(false),
            Err(e) => Err(from_sdk(e)),
        }
    }

    /// A live item: present and not expired at the clock's now.
    async fn get_live(&self, pk: String, sk: &str) -> PortResult<Option<Item>> {
        let now = self.now();
        Ok(self.get(pk, sk).await?.filter(|i| is_live(get_n(i, TTL_ATTR), now)))
    }
}

fn is_update_conflict(e: &SdkError<UpdateItemError, HttpResponse>) -> bool {
    matches!(
        e.as_service_error(),
        Some(UpdateItemError::ConditionalCheckFailedException(_))
    )
}

fn is_put_conflict(e: &SdkError<PutItemError, HttpResponse>) -> bool {
    matches!(
        e.as_service_error(),
        Some(PutItemError::ConditionalCheckFailedException(_))
    )
}
