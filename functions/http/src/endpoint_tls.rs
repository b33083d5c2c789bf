//! One endpoint's TLS settings: the client configuration its attempts connect with
//! (a client certificate to present, a CA bundle replacing the public roots), and
//! the check the API runs on that material before storing it (PEM that parses, a
//! key that belongs to the certificate, a certificate valid now), each refusal
//! naming its field.

use courier_app::domain::connection::{TlsFacts, TlsMaterial, TlsRefusal, TlsRequest};
use courier_core::Timestamp;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::Arc;

fn refusal(field: &'static str, detail: impl Into<String>) -> TlsRefusal {
    TlsRefusal {
        field,
        detail: detail.into(),
    }
}

/// Every certificate in `pem`, or why not: none at all is a refusal too.
fn certificates(field: &'static str, pem: &str) -> Result<Vec<CertificateDer<'static>>, TlsRefusal> {
    let mut certs = Vec::new();
    for cert in CertificateDer::pem_slice_iter(pem.as_bytes()) {
        certs.push(cert.map_err(|e| refusal(field, format!("is not valid PEM: {e}")))?);
    }
    if certs.is_empty() {
        return Err(refusal(field, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
    }
    Ok(certs)
}

fn private_key(pem: &str) -> Result<PrivateKeyDer<'static>, TlsRefusal> {
    PrivateKeyDer::from_pem_slice(pem.as_bytes()).map_err(|e| {
        refusal(
            "clientKey",
            format!("is not a PEM private key (PKCS#8, PKCS#1 or SEC1): {e}"),
        )
    })
}

/// A root store of `pem`'s certificates, each one a usable trust anchor.
fn roots_of(pem: &str) -> Result<rustls::RootCertStore, TlsRefusal> {
    let mut roots = rustls::RootCertStore::empty();
    for (i, cert) in certificates("caBundle", pem)?.into_iter().enumerate() {
        roots.add(cert).map_err(|e| {
            refusal(
                "caBundle",
                format!("certificate {} cannot be a trust anchor: {e}", i + 1),
            )
        })?;
    }
    Ok(roots)
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// Checks TLS material as the API receives it, at `now`.
pub fn check_material(material: &TlsMaterial<'_>, now: Timestamp) -> Result<TlsFacts, TlsRefusal> {
    let mut facts = TlsFacts::default();
    if let Some(bundle) = material.ca_bundle {
        roots_of(bundle)?;
    }
    let (Some(cert_pem), Some(key_pem)) = (material.client_certificate, material.client_key) else {
        return Ok(facts);
    };
    let chain = certificates("clientCertificate", cert_pem)?;
    let (not_before, not_after) = validity(&chain[0]).ok_or_else(|| {
        refusal(
            "clientCertificate",
            "its first certificate is not an X.509 certificate Courier can read",
        )
    })?;
    if not_after <= now {
        return Err(refusal(
            "clientCertificate",
            format!("expired at {}", not_after.to_rfc3339()),
        ));
    }
    if not_before > now {
        return Err(refusal(
            "clientCertificate",
            format!("is not valid before {}", not_before.to_rfc3339()),
        ));
    }
    let key = private_key(key_pem)?;
    match rustls::sign::CertifiedKey::from_der(chain, key, &provider()) {
        Ok(_) => {}
        Err(rustls::Error::InconsistentKeys(_)) => {
            return Err(refusal("clientKey", "does not belong to the client certificate"));
        }
        Err(e) => return Err(refusal("clientKey", format!("cannot be used: {e}"))),
    }
    facts.client_certificate_expires_at = Some(not_after);
    Ok(facts)
}

/// Why an endpoint's stored TLS settings cannot be used at send time (checked when
/// stored, so only a change of this process's TLS support could lead here).
#[derive(Debug, thiserror::Error)]
#[error("endpoint TLS settings cannot be used: {0}")]
pub struct EndpointTlsError(pub String);

/// The client configuration for an endpoint's settings: its CA bundle in place of
/// `base_roots` when it has one, its client certificate when it has one.
pub fn client_config_for(
    tls: &TlsRequest,
    base_roots: impl FnOnce() -> Result<rustls::RootCertStore, EndpointTlsError>,
) -> Result<rustls::ClientConfig, EndpointTlsError> {
    let roots = match &tls.ca_bundle {
        Some(bundle) => roots_of(bundle).map_err(|r| EndpointTlsError(r.to_string()))?,
        None => base_roots()?,
    };
    let builder = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| EndpointTlsError(e.to_string()))?
        .with_root_certificates(roots);
    let mut config = match (&tls.client_certificate, &tls.client_key) {
        (Some(cert), Some(key)) => {
            let chain = certificates("clientCertificate", cert).map_err(|r| EndpointTlsError(r.to_string()))?;
            let key = private_key(key).map_err(|r| EndpointTlsError(r.to_string()))?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| EndpointTlsError(e.to_string()))?
        }
        _ => builder.with_no_client_auth(),
    };
    config.alpn_protocols = crate::tls::ALPN.iter().map(|p| p.to_vec()).collect();
    Ok(config)
}

/// The certificate's notBefore and notAfter, read from its DER: Certificate ->
/// TBSCertificate -> [version], serialNumber, signature, issuer, validity. `None`
/// when the bytes are not shaped so.
fn validity(cert: &[u8]) -> Option<(Timestamp, Timestamp)> {
    let (tag, certificate, _) = der_element(cert)?;
    if tag != 0x30 {
        return None;
    }
    let (tag, tbs, _) = der_element(certificate)?;
    if tag != 0x30 {
        return None;
    }
    let mut rest = tbs;
    let (tag, _, after) = der_element(rest)?;
    if tag == 0xa0 {
        rest = after; // the explicit version
    }
    for expected in [0x02, 0x30, 0x30] {
        let (tag, _, after) = der_element(rest)?;
        if tag != expected {
            return None;
        }
        rest = after;
    }
    let (tag, validity, _) = der_element(rest)?;
    if tag != 0x30 {
        return None;
    }
    let (tag, not_before, after) = der_element(validity)?;
    let not_before = der_time(tag, not_before)?;
    let (tag, not_after, _) = der_element(after)?;
    Some((not_before, der_time(tag, not_after)?))
}

/// One DER element at the start of `input`: its tag, its contents and what follows.
fn der_element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n].iter().fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// UTCTime (`YYMMDDHHMMSSZ`, RFC 5280: 50-99 are 19xx) or GeneralizedTime
/// (`YYYYMMDDHHMMSSZ`).
fn der_time(tag: u8, text: &[u8]) -> Option<Timestamp> {
    let text = std::str::from_utf8(text).ok()?;
    let digits = text.strip_suffix('Z')?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let full = match (tag, digits.len()) {
        (0x17, 12) => {
            let century = if digits[..2] >= *"50" { "19" } else { "20" };
            format!("{century}{digits}")
        }
        (0x18, 14) => digits.to_owned(),
        _ => return None,
    };
    let rfc3339 = format!(
        "{}-{}-{}T{}:{}:{}Z",
        &full[0..4],
        &full[4..6],
        &full[6..8],
        &full[8..10],
        &full[10..12],
        &full[12..14]
    );
    Timestamp::parse_rfc3339(&rfc3339).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CERT: &str = include_str!("../tests/fixtures/localhost.crt");
    const KEY: &str = include_str!("../tests/fixtures/localhost.key");

    #[test]
    fn reads_the_validity_of_a_certificate() {
        let chain = certificates("clientCertificate", CERT).expect("fixture parses");
        let (from, until) = validity(&chain[0]).expect("validity");
        assert!(from < until);
        // Valid until 2126, per the fixture's note.
        assert!(until.to_rfc3339().starts_with("2126-"), "{}", until.to_rfc3339());
    }

    #[test]
    fn der_times_of_both_kinds() {
        assert_eq!(
            der_time(0x17, b"491231235959Z").map(Timestamp::to_rfc3339),
            Some("2049-12-31T23:59:59.000Z".to_owned())
        );
        assert_eq!(
            der_time(0x17, b"500101000000Z").map(Timestamp::to_rfc3339),
            Some("1950-01-01T00:00:00.000Z".to_owned())
        );
        assert_eq!(
            der_time(0x18, b"21260101120000Z").map(Timestamp::to_rfc3339),
            Some("2126-01-01T12:00:00.000Z".to_owned())
        );
        assert_eq!(der_time(0x18, b"2126010112000Z"), None);
        assert_eq!(der_time(0x17, b"4912312359+0100"), None);
        assert_eq!(der_element(&[0x30, 0x85, 1, 1, 1, 1, 1]), None);
        assert_eq!(der_element(&[0x30, 0x03, 1]), None);
    }

    #[test]
    fn a_self_signed_pair_passes_and_shows_its_end() {
        let now = Timestamp::parse_rfc3339("2030-01-01T00:00:00Z").expect("time");
        let facts = check_material(
            &TlsMaterial {
                client_certificate: Some(CERT),
                client_key: Some(KEY),
                ca_bundle: Some(CERT),
            },
            now,
        )
        .expect("accepted");
        assert!(facts.client_certificate_expires_at.is_some_and(|t| t > now));
        let late = Timestamp::parse_rfc3339("2200-01-01T00:00:00Z").expect("time");
        let expired = check_material(
            &TlsMaterial {
                client_certificate: Some(CERT),
                client_key: Some(KEY),
                ca_bundle: None,
            },
            late,
        );
        assert!(
            matches!(expired, Err(TlsRefusal { field: "clientCertificate", ref detail }) if detail.starts_with("expired at 2126-"))
        );
    }

    #[test]
    fn refusals_name_their_field() {
        let now = Timestamp::parse_rfc3339("2030-01-01T00:00:00Z").expect("time");
        let field = |m: TlsMaterial<'_>| check_material(&m, now).map_err(|r| r.field).err();
        let bare = TlsMaterial {
            client_certificate: None,
            client_key: None,
            ca_bundle: None,
        };
        assert_eq!(
            field(TlsMaterial {
                ca_bundle: Some("not pem"),
                ..bare
            }),
            Some("caBundle")
        );
        assert_eq!(
            field(TlsMaterial {
                client_certificate: Some(KEY),
                client_key: Some(KEY),
                ..bare
            }),
            Some("clientCertificate")
        );
        assert_eq!(
            field(TlsMaterial {
                client_certificate: Some(CERT),
                client_key: Some(CERT),
                ..bare
            }),
            Some("clientKey")
        );
    }
}
