//! The one TLS client configuration of the process: Mozilla's root set compiled in
//! (webpki-roots) and aws-lc-rs crypto, built once and shared by the webhook client
//! and the AWS SDK's HTTP client (`courier_aws`), so a cold start neither reads the
//! host's certificate store nor builds a root store per client.

use std::sync::{Arc, OnceLock};

/// ALPN offered on every connection: HTTP/2 when the server wants it, else 1.1
/// (what reqwest and the AWS SDK each offer with their own TLS set-up).
const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

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

fn build() -> Result<rustls::ClientConfig, rustls::Error> {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
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
    const SELF_SIGNED_CERT: &str = "\
-----BEGIN CERTIFICATE-----
MIIBqDCCAU2gAwIBAgIUaU/cvc+4sbszR3t8P1JAzfIh39AwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEzMDA5MzU1MFoYDzIxMjYxMTA2
MDkzNTUwWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARZw6IcuMKBoT8kk0kfrQyz9OM4KpcfRB+6/0NsUngWTbgmcuR3UF3D
w2WMfM5goNsAFkXjbAB/qvz5mYGRjljyo3sweTAdBgNVHQ4EFgQUnQn/UxtNHKZa
lhVvZ29kBe+fZ/kwHwYDVR0jBBgwFoAUnQn/UxtNHKZalhVvZ29kBe+fZ/kwFAYD
VR0RBA0wC4IJbG9jYWxob3N0MAwGA1UdEwEB/wQCMAAwEwYDVR0lBAwwCgYIKwYB
BQUHAwEwCgYIKoZIzj0EAwIDSQAwRgIhAKElJ1w9M11VQRtYPfJdI9WVT9KiGgwf
cyt8lB5vvItSAiEAvOF1EMjzgIkG8I6VKAVp+q1jICURTcETXMmD4eJbqYY=
-----END CERTIFICATE-----
";
    const SELF_SIGNED_KEY: &str = "\
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFcRZtR0Oh34hgtg+
ROT05RFtYnjgA1B4Zoa6F9nDMVShRANCAARZw6IcuMKBoT8kk0kfrQyz9OM4Kpcf
RB+6/0NsUngWTbgmcuR3UF3Dw2WMfM5goNsAFkXjbAB/qvz5mYGRjljy
-----END PRIVATE KEY-----
";

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

    /// The compiled-in roots really are checked: a handshake (in memory, no
    /// network) with a server presenting a self-signed certificate fails.
    #[test]
    fn a_certificate_outside_the_public_roots_is_refused() {
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
        let mut client = rustls::ClientConnection::new(Arc::new(client_config().expect("client config")), name)
            .expect("client connection");
        let mut refused = None;
        for _ in 0..10 {
            let mut wire = Vec::new();
            client.write_tls(&mut wire).expect("client writes");
            server.read_tls(&mut &wire[..]).expect("server reads");
            server.process_new_packets().expect("the server accepts the hello");
            wire.clear();
            server.write_tls(&mut wire).expect("server writes");
            client.read_tls(&mut &wire[..]).expect("client reads");
            if let Err(err) = client.process_new_packets() {
                refused = Some(err);
                break;
            }
        }
        assert_eq!(
            refused,
            Some(rustls::Error::InvalidCertificate(
                rustls::CertificateError::UnknownIssuer
            ))
        );
    }
}
