//! The one TLS client configuration of the process: Mozilla's root set compiled in
//! (webpki-roots) and aws-lc-rs crypto, built once and shared by the webhook client
//! and the AWS SDK's HTTP client (`courier_aws`), so a cold start neither reads the
//! host's certificate store nor builds a root store per client.

use std::sync::{Arc, OnceLock};

/// ALPN offered on every connection: HTTP/2 when the server wants it, else 1.1
/// (what reqwest and the AWS SDK each offer with their own TLS set-up).
pub(crate) const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// The shared configuration, cloned out for each client (a clone shares the
/// verifier and its root store; only small fields such as ALPN are copied).
///
/// Why compiled-in roots rather than the host store: the host store means reading a
/// certificate bundle (and on some hosts a directory of files) and parsing every
/// certificate at each cold start, while webpki-roots are trust anchors already in
/// parsed form. The set is Mozilla's, the one the Amazon Linux and Debian bundles are
/// made from; it changes when the crate is updated, not when the host's package is.
pub fn client_config() -> Result<rustls::ClientConfig, rustls::Error> {
    static SHARED: OnceLock<Result<rustls::ClientConfig, rustls::Error>> = OnceLock::new();
    SHARED.get_or_init(build).clone()
}

/// Why the trusted CA certificates (`COURIER_TRUSTED_CA_PEM`) cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TrustedCaError {
    #[error("no PEM certificate (-----BEGIN CERTIFICATE-----) in the trusted CA text")]
    NoCertificate,
    #[error("trusted CA text is not valid PEM: {0}")]
    Pem(String),
    #[error("trusted CA certificate {index} cannot be a trust anchor: {source}")]
    Anchor {
        /// Its position in the text, from 1.
        index: usize,
        #[source]
        source: rustls::Error,
    },
    #[error("could not build the TLS configuration")]
    Tls(#[source] rustls::Error),
}

/// A configuration for webhook requests that also trusts the CA certificates in
/// `pem` (one or more PEM blocks), for receivers whose certificates a private CA
/// issued. Built anew at each call (once per process: the sender builds its client
/// once); the AWS SDK keeps [`client_config`] and the public roots alone.
pub fn client_config_trusting(pem: &str) -> Result<rustls::ClientConfig, TrustedCaError> {
    let roots = roots_trusting(pem)?;
    with_roots(roots).map_err(TrustedCaError::Tls)
}

/// The public roots and the CA certificates in `pem`.
pub(crate) fn roots_trusting(pem: &str) -> Result<rustls::RootCertStore, TrustedCaError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = public_roots();
    let mut added = 0;
    for (i, cert) in CertificateDer::pem_slice_iter(pem.as_bytes()).enumerate() {
        let cert = cert.map_err(|e| TrustedCaError::Pem(e.to_string()))?;
        roots
            .add(cert)
            .map_err(|source| TrustedCaError::Anchor { index: i + 1, source })?;
        added += 1;
    }
    if added == 0 {
        return Err(TrustedCaError::NoCertificate);
    }
    Ok(roots)
}

fn build() -> Result<rustls::ClientConfig, rustls::Error> {
    with_roots(public_roots())
}

/// Mozilla's roots, compiled in.
pub(crate) fn public_roots() -> rustls::RootCertStore {
    rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    }
}

fn with_roots(roots: rustls::RootCertStore) -> Result<rustls::ClientConfig, rustls::Error> {
    // Not the process default provider: nothing installs one, and the choice should
    // not depend on which crate happens to install one first.
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};

    /// Self-signed for `localhost` (P-256, valid until 2126): a certificate no
    /// public root vouches for.
    const SELF_SIGNED_CERT: &str = include_str!("../tests/fixtures/localhost.crt");
    const SELF_SIGNED_KEY: &str = include_str!("../tests/fixtures/localhost.key");

    #[test]
    fn shared_config_offers_h2_and_http1_with_sni() {
        let config = client_config().expect("the TLS configuration builds");
        assert!(webpki_roots::TLS_SERVER_ROOTS.len() > 100);
        assert_eq!(config.alpn_protocols, vec![b"h2".to_vec(), b"http/1.1".to_vec()]);
        assert!(config.enable_sni);
    }

    #[test]
    fn every_caller_gets_the_same_configuration() {
        let (Ok(a), Ok(b)) = (client_config(), client_config()) else {
            panic!("the TLS configuration builds");
        };
        // Built once: the clones share the provider (and the verifier beside it).
        assert!(Arc::ptr_eq(a.crypto_provider(), b.crypto_provider()));
    }

    /// A handshake in memory (no network) of `config` with a server presenting the
    /// self-signed certificate: the client's error, or `None` once it completes.
    fn handshake_error(config: rustls::ClientConfig) -> Option<rustls::Error> {
        let cert = CertificateDer::from_pem_slice(SELF_SIGNED_CERT.as_bytes()).expect("test certificate");
        let key = PrivateKeyDer::from_pem_slice(SELF_SIGNED_KEY.as_bytes()).expect("test key");
        let server_config =
            rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
                .with_safe_default_protocol_versions()
                .expect("server versions")
                .with_no_client_auth()
                .with_single_cert(vec![cert], key)
                .expect("server certificate");
        let mut server = rustls::ServerConnection::new(Arc::new(server_config)).expect("server connection");
        let name = ServerName::try_from("localhost").expect("server name");
        let mut client = rustls::ClientConnection::new(Arc::new(config), name).expect("client connection");
        for _ in 0..10 {
            let mut wire = Vec::new();
            client.write_tls(&mut wire).expect("client writes");
            server.read_tls(&mut &wire[..]).expect("server reads");
            server
                .process_new_packets()
                .expect("the server accepts the client's messages");
            wire.clear();
            server.write_tls(&mut wire).expect("server writes");
            client.read_tls(&mut &wire[..]).expect("client reads");
            if let Err(err) = client.process_new_packets() {
                return Some(err);
            }
            if !client.is_handshaking() {
                return None;
            }
        }
        panic!("the handshake neither completed nor failed");
    }

    /// The compiled-in roots really are checked.
    #[test]
    fn a_certificate_outside_the_public_roots_is_refused() {
        assert_eq!(
            handshake_error(client_config().expect("client config")),
            Some(rustls::Error::InvalidCertificate(
                rustls::CertificateError::UnknownIssuer
            ))
        );
    }

    #[test]
    fn a_trusted_ca_is_accepted_beside_the_public_roots() {
        // A bundle: a comment line, then the certificate.
        let bundle = format!("private CA of the receivers\n{SELF_SIGNED_CERT}");
        let config = client_config_trusting(&bundle).expect("the bundle is usable");
        assert_eq!(handshake_error(config.clone()), None);
        assert_eq!(config.alpn_protocols, vec![b"h2".to_vec(), b"http/1.1".to_vec()]);
        // The shared configuration is untouched.
        assert!(handshake_error(client_config().expect("client config")).is_some());
    }

    #[test]
    fn unusable_trusted_ca_text_is_a_typed_error() {
        assert!(matches!(client_config_trusting(""), Err(TrustedCaError::NoCertificate)));
        // A key is not a certificate.
        assert!(matches!(
            client_config_trusting(SELF_SIGNED_KEY),
            Err(TrustedCaError::NoCertificate)
        ));
        assert!(matches!(
            client_config_trusting("-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n"),
            Err(TrustedCaError::Pem(_))
        ));
        // Well-formed PEM around bytes that are not a certificate ("hello").
        let second = format!("{SELF_SIGNED_CERT}-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n");
        assert!(matches!(
            client_config_trusting(&second),
            Err(TrustedCaError::Anchor { index: 2, .. })
        ));
    }
}
