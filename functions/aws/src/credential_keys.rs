//! [`KmsDataKeys`]: tenants' data keys from KMS (`GenerateDataKey`, `Decrypt`), the
//! wrapped key kept in the table (`dynamo/data_keys.rs`), with the tenant as KMS
//! encryption context, so a tenant's wrapped key opens for that tenant only. Wrapped
//! in `courier_app::adapters::envelope::EnvelopeSealer`, which caches the opened keys per
//! instance: KMS is asked once per tenant per instance, not per delivery. The KMS
//! client is built on first use (`LazyClient`): a cold start builds none, and an
//! instance that never opens a sealed value never builds it.

use crate::DynamoStore;
use crate::lazy_client::LazyClient;
use async_trait::async_trait;
use aws_sdk_kms::types::DataKeySpec;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use courier_app::adapters::envelope::{DataKeySource, EnvelopeSealer};
use courier_app::ports::{SealError, SecretSource};
use courier_core::ids::TenantId;
use courier_core::sealing::DataKey;
use std::sync::Arc;

/// The encryption context key naming the tenant a data key belongs to.
pub const CONTEXT_TENANT: &str = "courier:tenant";

/// The deployment's key (`COURIER_CREDENTIALS_KEY`: id, ARN or alias) and the
/// table that keeps each tenant's wrapped data key.
pub struct KmsDataKeys {
    kms: LazyClient<aws_sdk_kms::Client>,
    key_id: String,
    store: Arc<DynamoStore>,
}

/// The deployed [`courier_app::ports::CredentialSealer`].
pub type KmsSealer = EnvelopeSealer<KmsDataKeys>;

impl KmsDataKeys {
    /// Builds no client yet: the first data key fetched does.
    pub fn new(sdk: &aws_config::SdkConfig, key_id: impl Into<String>, store: Arc<DynamoStore>) -> Self {
        let sdk = sdk.clone();
        KmsDataKeys {
            kms: LazyClient::new(move || aws_sdk_kms::Client::new(&sdk)),
            key_id: key_id.into(),
            store,
        }
    }

    /// With a client built already (tests with a request counter).
    pub fn with_client(client: aws_sdk_kms::Client, key_id: impl Into<String>, store: Arc<DynamoStore>) -> Self {
        KmsDataKeys {
            kms: LazyClient::ready(client),
            key_id: key_id.into(),
            store,
        }
    }

    /// A sealer over these keys, nonces from `nonces`.
    pub fn sealer(self, nonces: Arc<dyn SecretSource>) -> KmsSealer {
        EnvelopeSealer::new(self, nonces)
    }

    /// The KMS client, built now on first use.
    fn client(&self) -> &aws_sdk_kms::Client {
        self.kms.get()
    }

    pub fn client_built(&self) -> bool {
        self.kms.is_built()
    }

    async fn open_wrapped(&self, tenant: &TenantId, kid: String, blob: Vec<u8>) -> Result<DataKey, SealError> {
        let out = self
            .client()
            .decrypt()
            .key_id(&self.key_id)
            .ciphertext_blob(aws_sdk_kms::primitives::Blob::new(blob))
            .encryption_context(CONTEXT_TENANT, tenant.as_str())
            .send()
            .await
            .map_err(|e| {
                let invalid = e
                    .as_service_error()
                    .is_some_and(|s| s.is_invalid_ciphertext_exception() || s.is_incorrect_key_exception());
                if invalid {
                    tracing::error!(%tenant, "the tenant's wrapped data key does not decrypt under its context");
                    SealError::Refused
                } else {
                    unavailable("KMS Decrypt", &e)
                }
            })?;
        let plain = out
            .plaintext()
            .ok_or_else(|| SealError::Unavailable("KMS Decrypt answered no plaintext".into()))?;
        DataKey::new(kid, plain.as_ref()).map_err(|_| SealError::Refused)
    }
}

fn unavailable(what: &str, e: &dyn std::error::Error) -> SealError {
    let mut text = format!("{what}: {e}");
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    SealError::Unavailable(text)
}

/// A data key's id: the last 12 bytes of its wrapped form (the tail of KMS's
/// authentication tag), so two keys never share one.
fn kid_of(blob: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(&blob[blob.len().saturating_sub(12)..])
}

#[async_trait]
impl DataKeySource for KmsDataKeys {
    async fn data_key(&self, tenant: &TenantId) -> Result<DataKey, SealError> {
        let stored = self
            .store
            .data_key_item(tenant)
            .await
            .map_err(|e| unavailable("reading the tenant's data key", &e))?;
        if let Some((kid, blob)) = stored {
            return self.open_wrapped(tenant, kid, blob).await;
        }
        let made = self
            .client()
            .generate_data_key()
            .key_id(&self.key_id)
            .key_spec(DataKeySpec::Aes256)
            .encryption_context(CONTEXT_TENANT, tenant.as_str())
            .send()
            .await
            .map_err(|e| unavailable("KMS GenerateDataKey", &e))?;
        let (Some(blob), Some(plain)) = (made.ciphertext_blob(), made.plaintext()) else {
            return Err(SealError::Unavailable("KMS GenerateDataKey answered no key".into()));
        };
        let kid = kid_of(blob.as_ref());
        let key_arn = made.key_id().unwrap_or(&self.key_id);
        let written = self
            .store
            .put_data_key_item(tenant, &kid, blob.as_ref(), key_arn)
            .await
            .map_err(|e| unavailable("storing the tenant's data key", &e))?;
        if written {
            return DataKey::new(kid, plain.as_ref()).map_err(|_| SealError::Refused);
        }
        // Another instance stored the tenant's key first: that one is the key.
        match self
            .store
            .data_key_item(tenant)
            .await
            .map_err(|e| unavailable("reading the tenant's data key", &e))?
        {
            Some((kid, blob)) => self.open_wrapped(tenant, kid, blob).await,
            None => Err(SealError::Unavailable("the tenant's data key vanished".into())),
        }
    }
}
