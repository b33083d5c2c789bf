//! Endpoint credentials at rest: [`sealed_fields`], the one list of write-only
//! fields kept sealed; sealing them before an endpoint is written, opening them for
//! an attempt, and [`seal_stored`], the migration that seals values stored plain
//! (data layout v1 kept them as plain JSON text).

use crate::domain::model::{Credential, Endpoint};
use crate::ports::{CredentialSealer, EndpointStore, PortError, SealError};
use courier_core::sealing::Scope;

/// Every write-only credential of an endpoint, sealed at rest. A new write-only
/// field is one more line here: sealing, opening and the migration all go over
/// this list.
pub fn sealed_fields(e: &mut Endpoint) -> Vec<&mut Credential> {
    let mut fields: Vec<&mut Credential> = Vec::new();
    // Signing secrets, the active one and those retiring after a rotation.
    fields.extend(e.secrets.iter_mut().map(|s| &mut s.secret));
    // Header values marked secret (an API key the receiver asks for).
    fields.extend(e.headers.iter_mut().filter(|h| h.secret).map(|h| &mut h.value));
    // The OAuth client secret and the TLS client key.
    fields.extend(e.credentials.oauth_client_secret.as_mut());
    fields.extend(e.credentials.tls_client_key.as_mut());
    fields
}

/// Whether any listed field is still plain text.
pub fn has_plain(e: &Endpoint) -> bool {
    let mut copy = e.clone();
    sealed_fields(&mut copy).iter().any(|c| !c.is_sealed())
}

/// Seals every listed field that is plain (values already sealed stay as they
/// are); answers how many it sealed.
pub async fn seal_endpoint(sealer: &dyn CredentialSealer, e: &mut Endpoint) -> Result<usize, SealError> {
    let (tenant, id) = (e.tenant_id.clone(), e.id.clone());
    let scope = Scope {
        tenant: tenant.as_str(),
        endpoint: id.as_str(),
    };
    let mut sealed = 0;
    for field in sealed_fields(e) {
        if let Credential::Plain(text) = field {
            *field = Credential::Sealed(sealer.seal(scope, text).await?);
            sealed += 1;
        }
    }
    Ok(sealed)
}

/// Opens every sealed listed field in place, for an attempt: after it, every
/// credential is plain. Fails on the first that does not open.
pub async fn open_endpoint(sealer: &dyn CredentialSealer, e: &mut Endpoint) -> Result<(), SealError> {
    let (tenant, id) = (e.tenant_id.clone(), e.id.clone());
    let scope = Scope {
        tenant: tenant.as_str(),
        endpoint: id.as_str(),
    };
    for field in sealed_fields(e) {
        if let Credential::Sealed(value) = field {
            *field = Credential::Plain(sealer.open(scope, value).await?);
        }
    }
    Ok(())
}

/// How far a migration pass got.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationReport {
    /// Endpoint items read.
    pub scanned: u64,
    /// Endpoints written with their plain values sealed.
    pub sealed: u64,
    /// Where a later run resumes (`None`: the pass reached the end).
    pub next_cursor: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    #[error("store: {0}")]
    Store(#[from] PortError),
    #[error("sealing: {0}")]
    Seal(#[from] SealError),
}

/// Endpoints per page of the migration's scan, unless asked otherwise.
pub const MIGRATION_PAGE: u32 = 100;

/// Where a migration pass starts and how much it does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationRun {
    /// Resume after this cursor (a report's `next_cursor`); none: from the start.
    pub cursor: Option<String>,
    /// Endpoints per page (0: [`MIGRATION_PAGE`]).
    pub page: u32,
    /// Stop after this many pages; none: at the end.
    pub max_pages: Option<u32>,
}

/// The credentials migration: seals every plain credential of every stored
/// endpoint (deleted ones too: their items keep their secrets). Idempotent (sealed
/// values are left alone, so a second pass writes nothing) and resumable: it
/// starts after `run.cursor` and stops after `run.max_pages` pages (none: at the
/// end), answering where it stopped; `progress` sees the report after each page,
/// so an interrupted run can be resumed from the last cursor shown. Each endpoint
/// is written with a versioned update, read again when another write came first.
pub async fn seal_stored(
    store: &dyn EndpointStore,
    sealer: &dyn CredentialSealer,
    run: MigrationRun,
    mut progress: impl FnMut(&MigrationReport),
) -> Result<MigrationReport, MigrationError> {
    let mut report = MigrationReport {
        next_cursor: run.cursor,
        ..MigrationReport::default()
    };
    let size = if run.page == 0 { MIGRATION_PAGE } else { run.page };
    let mut pages = 0;
    loop {
        let page = store.scan_endpoints(report.next_cursor.as_deref(), size).await?;
        for e in page.items {
            report.scanned += 1;
            if seal_one(store, sealer, e).await? {
                report.sealed += 1;
            }
        }
        report.next_cursor = page.next_cursor;
        pages += 1;
        progress(&report);
        if report.next_cursor.is_none() || run.max_pages.is_some_and(|m| pages >= m) {
            return Ok(report);
        }
    }
}

/// Seals one endpoint's plain values; false when it had none (or is gone).
async fn seal_one(
    store: &dyn EndpointStore,
    sealer: &dyn CredentialSealer,
    mut e: Endpoint,
) -> Result<bool, MigrationError> {
    for _ in 0..8 {
        if !has_plain(&e) {
            return Ok(false);
        }
        seal_endpoint(sealer, &mut e).await?;
        let expected = e.version;
        e.version += 1;
        match store.update_endpoint(&e, expected).await {
            Ok(()) => return Ok(true),
            Err(PortError::Conflict(_)) => match store.get_endpoint(&e.tenant_id, &e.id).await? {
                Some(fresh) => e = fresh,
                None => return Ok(false),
            },
            Err(err) => return Err(err.into()),
        }
    }
    Err(PortError::Conflict(format!("endpoint {} kept changing during the migration", e.id)).into())
}
