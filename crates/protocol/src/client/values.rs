//! Asking the server's value service for an Alquerque position ([`crate::values`]), the way the
//! connect token is asked: on a thread natively, through the page's `fetch` in a browser.

use super::ClientConfig;
use super::token::{HttpFetch, TokenFailure};
use crate::values::{PositionValueView, VALUE_PATH};
use std::fmt;

/// A value request in flight: [`ValueRequest::start`], then [`ValueRequest::poll`] each frame
/// until it answers.
pub struct ValueRequest(HttpFetch);

impl ValueRequest {
    /// Asks the server named in `config` for `position` (an Alquerque position in notation).
    pub fn start(config: &ClientConfig, position: &str) -> ValueRequest {
        ValueRequest(HttpFetch::start(value_url(config, position), None, config.connect_timeout))
    }

    /// The answer, once it came (then `None` again), or why none came: the server refused the
    /// position, does not serve values (`404`), asks to wait (`429`), or could not be reached.
    pub fn poll(&mut self) -> Option<Result<PositionValueView, TokenFailure>> {
        let answer = self.0.take()?;
        Some(answer.and_then(|body| {
            serde_json::from_slice(&body)
                .map_err(|e| TokenFailure::from(format!("the value service's answer does not read: {e}")))
        }))
    }
}

impl fmt::Debug for ValueRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ValueRequest")
    }
}

/// The URL that asks for `position`'s value.
pub fn value_url(config: &ClientConfig, position: &str) -> String {
    let query: String = url::form_urlencoded::byte_serialize(position.as_bytes()).collect();
    format!("{}?position={query}", config.api_url(VALUE_PATH))
}
