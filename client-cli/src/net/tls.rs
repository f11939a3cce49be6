//! Choosing the connector for a server address: plain TCP for `ws://`, rustls (ring provider,
//! as the server uses) for `wss://`.
//!
//! This build bundles no root certificates (the crates that carry them are not part of the
//! workspace), so `wss://` trusts exactly the certificate authorities in the PEM file the user
//! names with `--ca-cert`: a self-hosted server's own CA, typically. Without one, `wss://`
//! fails before connecting, saying so, rather than with an opaque "unknown issuer".

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject as _;
use rustls::{ClientConfig, RootCertStore};
use tokio_tungstenite::Connector;

use super::NetError;

pub fn connector(url: &str, ca_cert: Option<&Path>) -> Result<Connector, NetError> {
    let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("ws") => Ok(Connector::Plain),
        Some("wss") => {
            let Some(ca) = ca_cert else {
                return Err(NetError::Tls(format!(
                    "{url}: wss:// needs --ca-cert FILE (or TABLEHOLD_CA_CERT), the PEM \
                     certificate of the authority that signed the server's certificate: this \
                     build bundles no root certificates"
                )));
            };
            rustls_connector(ca)
        }
        _ => Err(NetError::BadUrl {
            url: url.to_owned(),
        }),
    }
}

fn rustls_connector(ca: &Path) -> Result<Connector, NetError> {
    let bad = |reason: String| NetError::Tls(format!("{}: {reason}", ca.display()));
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(ca)
        .map_err(|e| bad(e.to_string()))?
        .collect::<Result<_, _>>()
        .map_err(|e| bad(e.to_string()))?;
    let mut roots = RootCertStore::empty();
    let (added, _ignored) = roots.add_parsable_certificates(certs);
    if added == 0 {
        return Err(bad("no usable certificate in the file".into()));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Connector::Rustls(Arc::new(config)))
}
