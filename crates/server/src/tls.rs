//! TLS for the server's TCP listeners (`--tls-cert FILE --tls-key FILE`): the certificate chain
//! and private key read from PEM files into a rustls [`ServerConfig`] (ring as the crypto
//! provider: no system OpenSSL). HTTP uses it for https; the WebSocket transport can use the
//! same configuration for wss.

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_rustls::rustls::{self, ServerConfig};

/// Why TLS could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The certificate file is missing, unreadable or holds no PEM certificate.
    #[error("TLS certificate {path}: {reason}")]
    Certificate { path: PathBuf, reason: String },
    /// The key file is missing, unreadable or holds no PEM private key.
    #[error("TLS key {path}: {reason}")]
    Key { path: PathBuf, reason: String },
    /// rustls refused the pair (for instance, the key does not match the certificate).
    #[error("TLS configuration: {0}")]
    Config(#[from] rustls::Error),
}

/// A rustls server configuration from a PEM certificate chain (leaf first) and a PEM private
/// key (PKCS#8, PKCS#1 or SEC1), offering `alpn` protocols (for instance `b"http/1.1"`).
pub fn server_config(cert: &Path, key: &Path, alpn: &[&[u8]]) -> Result<Arc<ServerConfig>, TlsError> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
        .map_err(|e| TlsError::Certificate { path: cert.to_path_buf(), reason: e.to_string() })?;
    if certs.is_empty() {
        return Err(TlsError::Certificate {
            path: cert.to_path_buf(),
            reason: "no certificate in the file".into(),
        });
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .map_err(|e| TlsError::Key { path: key.to_path_buf(), reason: e.to_string() })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)?;
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Ok(Arc::new(config))
}
