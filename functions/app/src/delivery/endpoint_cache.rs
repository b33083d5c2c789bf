//! The batch's endpoint cache: each endpoint read once per batch, with its signing
//! keys prepared once.

use crate::domain::model::Endpoint;
use crate::ports::CredentialSealer;
use courier_core::Timestamp;
use courier_core::ids::{EndpointId, TenantId};
use courier_core::signing::{SigningKey, SigningSecret};
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Endpoints read once per batch: most batches target few endpoints. The records of
/// a batch run concurrently, so the first record to need an endpoint reads it and
/// the others wait for that read instead of each making its own (on DynamoDB, ten
/// `GetItem`s for a batch of ten). An endpoint that does not exist is remembered
/// too; a failed read is not, so the next record tries again. Shared, not copied,
/// by the batch's records.
#[derive(Default)]
pub struct EndpointCache {
    /// The event source mapping hands over batches of at most ten records
    /// (template.yaml: BatchSize), so a list scanned in full beats a hash map.
    inner: Mutex<Vec<(TenantId, EndpointId, EndpointCell)>>,
}

/// One endpoint's read, shared by the batch's records: `None` once read means the
/// endpoint does not exist.
pub(super) type EndpointCell = Arc<OnceCell<Option<Arc<PreparedEndpoint>>>>;

impl EndpointCache {
    /// The slot of this tenant's endpoint, added empty on first use.
    pub(super) fn slot(&self, tenant: &TenantId, id: &EndpointId) -> EndpointCell {
        let mut slots = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, _, cell)) = slots.iter().find(|(t, e, _)| e == id && t == tenant) {
            return cell.clone();
        }
        let cell = Arc::new(OnceCell::new());
        slots.push((tenant.clone(), id.clone(), cell.clone()));
        cell
    }
}

/// An endpoint with its credentials opened and its signing secrets decoded and
/// keyed, which would otherwise be redone for every attempt of the batch.
pub struct PreparedEndpoint {
    pub endpoint: Endpoint,
    /// One per `endpoint.secrets`, in order; `None` for a secret that does not decode
    /// (it signs nothing, as before).
    keys: Vec<Option<SigningKey>>,
    /// The endpoint's OAuth and TLS settings, shared by its attempts.
    pub(super) connection: Option<Arc<crate::domain::connection::ReceiverConnection>>,
    /// Some credential is still sealed (its opening failed): no attempt may go out,
    /// each is declined as `credentials_unavailable` (a retry follows).
    pub(super) credentials_unavailable: bool,
}

impl PreparedEndpoint {
    /// The endpoint as given: a credential left sealed makes its attempts
    /// `credentials_unavailable`.
    pub fn new(endpoint: Endpoint) -> Self {
        let keys = endpoint
            .secrets
            .iter()
            .map(|s| {
                s.secret
                    .plain()
                    .and_then(|t| SigningSecret::parse(t).ok())
                    .map(|k| k.key())
            })
            .collect();
        let mut copy_fields = endpoint.clone();
        let credentials_unavailable = crate::endpoints::credentials::sealed_fields(&mut copy_fields)
            .iter()
            .any(|c| c.is_sealed());
        let connection = crate::domain::connection::ReceiverConnection::of(&endpoint);
        PreparedEndpoint {
            endpoint,
            keys,
            connection,
            credentials_unavailable,
        }
    }

    /// The endpoint with its sealed credentials opened by `sealer`. A failure leaves
    /// them sealed (see [`PreparedEndpoint::new`]) and is logged, without the values.
    pub async fn opened(mut endpoint: Endpoint, sealer: &dyn CredentialSealer) -> Self {
        if let Err(e) = crate::endpoints::credentials::open_endpoint(sealer, &mut endpoint).await {
            tracing::warn!(
                tenant = %endpoint.tenant_id,
                endpoint = %endpoint.id,
                error = %e,
                "endpoint credentials could not be opened: its attempts wait (credentials_unavailable)"
            );
        }
        PreparedEndpoint::new(endpoint)
    }

    /// The keys of the secrets that sign at `now`.
    pub(super) fn signing_keys(&self, now: Timestamp) -> impl Iterator<Item = &SigningKey> {
        self.endpoint
            .secrets
            .iter()
            .zip(&self.keys)
            .filter(move |(s, _)| s.signs_at(now))
            .filter_map(|(_, k)| k.as_ref())
    }
}
