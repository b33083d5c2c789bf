//! Sealed credentials: the [`CredentialSealer`] contract (a value opens only on the
//! tenant and endpoint it was sealed for), the endpoint scan, and the credentials
//! migration over a store.

use super::*;
use crate::domain::model::{Credential, CustomHeader};
use crate::endpoints::credentials::{MigrationRun, has_plain, open_endpoint, seal_stored};
use crate::ports::{CredentialSealer, SealError};
use courier_core::sealing::Scope;

/// Seals and opens through `sealer`: round trip, a fresh text per seal, and
/// refusal under any other tenant or endpoint and of a changed value.
pub async fn credential_sealer(sealer: &dyn CredentialSealer) {
    let ids = Ids::new();
    let (t1, t2) = (ids.tenant(), ids.tenant());
    let (e1, e2) = (ids.endpoint(), ids.endpoint());
    let here = Scope {
        tenant: t1.as_str(),
        endpoint: e1.as_str(),
    };
    let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let a = ok(sealer.seal(here, secret).await, "seal");
    let b = ok(sealer.seal(here, secret).await, "seal again");
    assert_ne!(a.ct, b.ct, "each seal must use a fresh nonce");
    assert!(!a.ct.contains("whsec_"), "{a:?}");
    assert_eq!(ok(sealer.open(here, &a).await, "open"), secret);
    assert_eq!(ok(sealer.open(here, &b).await, "open the second"), secret);
    // Moved to another endpoint of the tenant, or to another tenant's endpoint
    // of the same id: refused.
    for (tenant, endpoint) in [(&t1, &e2), (&t2, &e1)] {
        let elsewhere = Scope {
            tenant: tenant.as_str(),
            endpoint: endpoint.as_str(),
        };
        assert_eq!(
            sealer.open(elsewhere, &a).await,
            Err(SealError::Refused),
            "a value sealed for {t1}/{e1} opened as {tenant}/{endpoint}"
        );
    }
    // The other tenant's own values open there, under its own data key.
    let theirs = Scope {
        tenant: t2.as_str(),
        endpoint: e1.as_str(),
    };
    let c = ok(sealer.seal(theirs, "x-api-key-2").await, "seal for another tenant");
    assert_ne!(c.kid, a.kid, "one data key per tenant");
    assert_eq!(ok(sealer.open(theirs, &c).await, "open theirs"), "x-api-key-2");
    assert_eq!(sealer.open(here, &c).await, Err(SealError::Refused));
    let mut changed = a.clone();
    changed
        .ct
        .replace_range(20..21, if &changed.ct[20..21] == "A" { "B" } else { "A" });
    assert_eq!(sealer.open(here, &changed).await, Err(SealError::Refused));
    // Empty text seals and opens too.
    let empty = ok(sealer.seal(here, "").await, "seal empty");
    assert_eq!(ok(sealer.open(here, &empty).await, "open empty"), "");
}

/// `scan_endpoints` walks every endpoint of every tenant, deleted ones included.
pub async fn endpoint_scan<S: EndpointStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let mut mine = Vec::new();
    for tenant in [ids.tenant(), ids.tenant()] {
        for n in 0..3 {
            let mut e = sample_endpoint(&tenant, &ids.endpoint(), T0);
            if n == 2 {
                e.state = EndpointState::Revoked;
                e.deleted_at = Some(T0);
            }
            ok(store.create_endpoint(&e).await, "create endpoint");
            mine.push(e);
        }
    }
    let pages = all_pages(2, |cursor, limit| async move {
        store.scan_endpoints(cursor.as_deref(), limit).await
    })
    .await;
    let seen: Vec<Endpoint> = pages.into_iter().flatten().collect();
    for e in &mine {
        let found: Vec<&Endpoint> = seen
            .iter()
            .filter(|s| s.id == e.id && s.tenant_id == e.tenant_id)
            .collect();
        assert_eq!(found, vec![e], "the scan must list {} once, as stored", e.id);
    }
    bad_cursor(
        store.scan_endpoints(Some("not-a-cursor"), 2).await,
        "a made-up scan cursor",
    );
}

/// The migration seals plain credentials of stored endpoints (data layout v1)
/// and leaves sealed ones alone: resumable by cursor, and a second pass writes
/// nothing.
pub async fn credentials_migration<S: EndpointStore>(store: &S, sealer: &dyn CredentialSealer, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let mut plain = Vec::new();
    for n in 0..5 {
        let mut e = sample_endpoint(&tenant, &ids.endpoint(), T0);
        e.headers = vec![
            CustomHeader {
                name: "X-Api-Key".into(),
                value: Credential::Plain(format!("key-{n}")),
                secret: true,
            },
            CustomHeader {
                name: "X-Team".into(),
                value: Credential::Plain("billing".into()),
                secret: false,
            },
        ];
        ok(store.create_endpoint(&e).await, "create a v1 endpoint");
        plain.push(e);
    }
    // One page of two, as if the run stopped there, then the rest from its cursor.
    let first = ok(
        seal_stored(
            store,
            sealer,
            MigrationRun {
                page: 2,
                max_pages: Some(1),
                ..MigrationRun::default()
            },
            |_| {},
        )
        .await,
        "first page",
    );
    assert!(first.scanned <= 2, "{first:?}");
    let cursor = first.next_cursor.clone().expect("more than one page of endpoints");
    let mut seen = Vec::new();
    let rest = ok(
        seal_stored(
            store,
            sealer,
            MigrationRun {
                cursor: Some(cursor),
                page: 2,
                max_pages: None,
            },
            |r| seen.push(r.clone()),
        )
        .await,
        "the rest",
    );
    assert_eq!(rest.next_cursor, None);
    assert_eq!(seen.last(), Some(&rest));
    assert!(seen.len() >= 2, "page by page: {seen:?}");
    for e in &plain {
        let mut stored = ok(store.get_endpoint(&tenant, &e.id).await, "read").expect("still there");
        assert!(!has_plain(&stored), "{} still holds plain credentials", e.id);
        assert!(stored.secrets[0].secret.is_sealed() && stored.headers[0].value.is_sealed());
        assert_eq!(
            stored.headers[1].value,
            Credential::Plain("billing".into()),
            "not secret: left plain"
        );
        assert_eq!(stored.version, e.version + 1);
        ok(open_endpoint(sealer, &mut stored).await, "open");
        let mut expected = e.clone();
        expected.version += 1;
        assert_eq!(stored, expected, "sealing must change nothing else");
    }
    let again = ok(
        seal_stored(store, sealer, MigrationRun::default(), |_| {}).await,
        "second pass",
    );
    assert_eq!(again.sealed, 0, "a second pass must find nothing left to seal");
    assert!(again.scanned >= 5);
}
