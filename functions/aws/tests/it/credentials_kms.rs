//! Sealed credentials on the emulator: the sealer contract over KMS (moto's
//! GenerateDataKey and Decrypt, with the tenant as encryption context), KMS
//! requests counted by the SDK interceptor (one per tenant per instance, none in
//! steady state), an unreachable key, and the endpoint scan and credentials
//! migration over DynamoDB. Needs `make venv` first.

use courier_app::ports::{CredentialSealer, SealError};
use courier_app::testing::contract::{self, T0};
use courier_app::testing::memory::{FixedSecrets, ManualClock};
use courier_aws::DynamoStore;
use courier_aws::bootstrap::{ResourceNames, Resources, ensure_resources};
use courier_aws::credential_keys::{KmsDataKeys, KmsSealer};
use courier_aws::testing::Emulator;
use courier_core::ids::{EndpointId, TenantId};
use courier_core::rng::SplitMix64;
use courier_core::sealing::Scope;
use courier_testkit::counting::RequestCounter;
use std::sync::Arc;

async fn setup(prefix: &str) -> (Emulator, aws_config::SdkConfig, Resources) {
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.expect("emulator");
    let resources = ensure_resources(&config, &ResourceNames::with_prefix(prefix))
        .await
        .expect("bootstrap");
    (emu, config, resources)
}

fn sealer(config: &aws_config::SdkConfig, res: &Resources, counter: &RequestCounter, seed: u64) -> KmsSealer {
    let store = Arc::new(DynamoStore::new(config, &res.table));
    KmsDataKeys::with_client(counter.kms(config), res.credentials_key.clone(), store)
        .sealer(Arc::new(FixedSecrets::new(seed)))
}

fn kms_calls(counter: &RequestCounter, op: &str) -> u64 {
    counter.snapshot().op("KMS", op).calls
}

#[tokio::test]
async fn kms_sealer_contract_and_request_counts() {
    let (_emu, config, res) = setup("courier-kms").await;
    let counter = RequestCounter::default();
    let first = sealer(&config, &res, &counter, 1);
    contract::credential_sealer(&first).await;
    // The contract used two tenants: one data key made for each, nothing else asked.
    assert_eq!(kms_calls(&counter, "GenerateDataKey"), 2, "{:?}", counter.snapshot());
    assert_eq!(kms_calls(&counter, "Decrypt"), 0);

    let mut rng = SplitMix64::new(7);
    let tenant = TenantId::generate(T0, &mut rng);
    let endpoint = EndpointId::generate(T0, &mut rng);
    let scope = Scope {
        tenant: tenant.as_str(),
        endpoint: endpoint.as_str(),
    };
    let sealed = first.seal(scope, "whsec_steady").await.expect("seal");
    assert_eq!(kms_calls(&counter, "GenerateDataKey"), 3);
    // Another instance (an empty cache): one Decrypt of the stored data key, then
    // every open and seal is local.
    counter.reset();
    let second = sealer(&config, &res, &counter, 2);
    for _ in 0..20 {
        assert_eq!(second.open(scope, &sealed).await.as_deref(), Ok("whsec_steady"));
    }
    let more = second.seal(scope, "x-api-key").await.expect("seal");
    assert_eq!(second.open(scope, &more).await.as_deref(), Ok("x-api-key"));
    let counts = counter.snapshot();
    assert_eq!(counts.op("KMS", "Decrypt").calls, 1, "{counts:?}");
    assert_eq!(counts.service("KMS").calls, 1, "{counts:?}");
}

#[tokio::test]
async fn an_unreachable_key_is_unavailable_not_a_refusal() {
    let (_emu, config, res) = setup("courier-kms-missing").await;
    let store = Arc::new(DynamoStore::new(&config, &res.table));
    let keys = KmsDataKeys::new(&config, "alias/no-such-key", store);
    assert!(!keys.client_built(), "the KMS client waits for the first data key");
    let sealer = keys.sealer(Arc::new(FixedSecrets::new(3)));
    let mut rng = SplitMix64::new(8);
    let (tenant, endpoint) = (TenantId::generate(T0, &mut rng), EndpointId::generate(T0, &mut rng));
    let scope = Scope {
        tenant: tenant.as_str(),
        endpoint: endpoint.as_str(),
    };
    match sealer.seal(scope, "whsec_x").await {
        Err(SealError::Unavailable(_)) => {}
        other => panic!("expected Unavailable, got {other:?}"),
    }
    assert!(sealer.source().client_built());
}

#[tokio::test]
async fn endpoint_scan_and_credentials_migration_on_dynamodb() {
    let (_emu, config, res) = setup("courier-migrate").await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    contract::endpoint_scan(&store, &clock).await;
    let sealer = sealer(&config, &res, &RequestCounter::default(), 4);
    contract::credentials_migration(&store, &sealer, &clock).await;
}

/// A tenant's wrapped data key copied under another tenant does not decrypt there
/// (KMS checks the tenant in the encryption context): nothing of A's opens as B's.
#[tokio::test]
async fn a_data_key_moved_to_another_tenant_is_refused_by_kms() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let (_emu, config, res) = setup("courier-kms-moved").await;
    let counter = RequestCounter::default();
    let mut rng = SplitMix64::new(9);
    let (a, b, endpoint) = (
        TenantId::generate(T0, &mut rng),
        TenantId::generate(T0, &mut rng),
        EndpointId::generate(T0, &mut rng),
    );
    let first = sealer(&config, &res, &counter, 5);
    let scope_a = Scope {
        tenant: a.as_str(),
        endpoint: endpoint.as_str(),
    };
    first.seal(scope_a, "whsec_a").await.expect("seal for a");
    let client = aws_sdk_dynamodb::Client::new(&config);
    let item = client
        .get_item()
        .table_name(&res.table)
        .key("PK", AttributeValue::S(format!("DEK#{a}")))
        .key("SK", AttributeValue::S("DEK".into()))
        .send()
        .await
        .expect("get")
        .item
        .expect("a's data key item");
    let mut moved = item.clone();
    moved.insert("PK".into(), AttributeValue::S(format!("DEK#{b}")));
    client
        .put_item()
        .table_name(&res.table)
        .set_item(Some(moved))
        .send()
        .await
        .expect("put");
    let other = sealer(&config, &res, &counter, 6);
    let scope_b = Scope {
        tenant: b.as_str(),
        endpoint: endpoint.as_str(),
    };
    assert_eq!(other.seal(scope_b, "whsec_b").await.err(), Some(SealError::Refused));
}
