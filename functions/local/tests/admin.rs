//! `courier-admin create-tenant` against the emulator: the printed key authenticates
//! as the new tenant, and only its hash is stored.

use courier_app::ports::TenantStore;
use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_tenant_prints_a_working_key() {
    let emu = courier_aws::testing::Emulator::start().await.unwrap();
    let sdk = emu.sdk_config().await.unwrap();
    let names = courier_aws::bootstrap::ResourceNames::with_prefix("admin-test");
    let res = courier_aws::bootstrap::ensure_resources(&sdk, &names).await.unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_courier-admin"))
        .args(["create-tenant", "--name", "acme"])
        .envs(emu.env())
        .env("COURIER_TABLE", &res.table)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |label: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(label))
            .map(|v| v.trim().to_owned())
            .unwrap_or_default()
    };
    let (tenant, key) = (field("tenant"), field("api key"));
    assert!(tenant.starts_with("ten_") && key.starts_with("ck_"), "{text}");
    let store = courier_aws::DynamoStore::new(&sdk, res.table.clone());
    let found = store.tenant_by_key(&courier_app::api::hash_key(&key)).await.unwrap();
    assert_eq!(
        found.map(|t| (t.id.to_string(), t.name)),
        Some((tenant, "acme".to_owned()))
    );
    assert_eq!(
        store.tenant_by_key(&key).await.unwrap(),
        None,
        "the raw key is not a stored key"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_courier-admin"))
        .arg("create-tenant")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
