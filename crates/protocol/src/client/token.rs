//! The connect token: asked for over HTTP(S) with the player's credential (on a thread natively,
//! through the page's `fetch` in a browser), before netcode connects with it.

use super::{ClientConfig, Transport, UDP_SOCKET_ID, WS_SOCKET_ID};
use crate::{ConnectRequest, SessionToken, VERSION_HEADER};
use std::fmt;
use std::time::Duration;
#[cfg(not(target_family = "wasm"))]
use web_time::Instant;

/// The request body for a connect token.
pub(super) fn connect_request(config: &ClientConfig, credential: Option<SessionToken>) -> Vec<u8> {
    let request = ConnectRequest {
        version: config.protocol_version,
        socket: match config.transport {
            Transport::Udp => UDP_SOCKET_ID,
            Transport::WebSocket => WS_SOCKET_ID,
        },
        credential,
        timeout_secs: u16::try_from(config.timeout.as_secs().clamp(1, 60)).unwrap_or(10),
    };
    postcard::to_allocvec(&request).unwrap_or_default()
}

/// What the token endpoint answered: the token's bytes, or why not.
type FetchResult = Result<Vec<u8>, TokenFailure>;

/// Why no connect token came: the reason, the HTTP status when the endpoint answered, and the
/// server's protocol version when it refused ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenFailure {
    /// The reason, in English (the server's words when it gave some): for logs, not for players.
    pub reason: String,
    /// The endpoint's HTTP status when it answered with something else than a token (`None`: no
    /// answer, or one that could not be read).
    pub status: Option<u16>,
    /// The server's protocol version, when it refused this client's.
    pub server_version: Option<u16>,
}

impl From<String> for TokenFailure {
    fn from(reason: String) -> TokenFailure {
        TokenFailure { reason, status: None, server_version: None }
    }
}

/// Largest answer read from the token endpoint.
const MAX_ANSWER_BYTES: u64 = 16 * 1024;

fn answer(status: u16, body: Vec<u8>, url: &str, version: Option<u16>) -> FetchResult {
    if status == 200 {
        Ok(body)
    } else {
        let text = String::from_utf8_lossy(&body[..body.len().min(300)]).trim().to_string();
        let reason = if text.is_empty() { format!("{url}: HTTP {status}") } else { text };
        Err(TokenFailure { reason, status: Some(status), server_version: version.filter(|_| status == 409) })
    }
}

/// An HTTP request in flight (a connect token's, or a value's): its answer lands in the slot
/// (a `Mutex`, so that the client stays `Send + Sync`, as the game's resources must be).
pub(super) struct HttpFetch(std::sync::Arc<std::sync::Mutex<Option<FetchResult>>>);

impl HttpFetch {
    pub(super) fn take(&mut self) -> Option<FetchResult> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn slot() -> (HttpFetch, std::sync::Arc<std::sync::Mutex<Option<FetchResult>>>) {
        let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
        (HttpFetch(slot.clone()), slot)
    }

    /// Starts the request: a POST of `body`, or a GET without one.
    #[cfg(not(target_family = "wasm"))]
    pub(super) fn start(url: String, body: Option<Vec<u8>>, timeout: Duration) -> HttpFetch {
        let (fetch, slot) = HttpFetch::slot();
        let out = slot.clone();
        let spawned = std::thread::Builder::new().name("ludus-token".into()).spawn(move || {
            let result = fetch_blocking(&url, body.as_deref(), timeout);
            *out.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        });
        if let Err(e) = spawned {
            *slot.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(Err(format!("cannot start a thread: {e}").into()));
        }
        fetch
    }

    /// Starts the request: a POST of `body`, or a GET without one.
    #[cfg(target_family = "wasm")]
    pub(super) fn start(url: String, body: Option<Vec<u8>>, _timeout: Duration) -> HttpFetch {
        let (fetch, slot) = HttpFetch::slot();
        wasm_bindgen_futures::spawn_local(async move {
            let result = fetch_web(&url, body.as_deref()).await;
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        });
        fetch
    }
}

/// Native: asks again after a `503` (the server's HTTP connections are capped per address:
/// many clients behind one address may find it busy for a moment) or a connection the server
/// dropped mid-request (a reset or broken pipe, for the same reason), within `timeout`. A
/// refused connection (nobody there) is not asked again.
#[cfg(not(target_family = "wasm"))]
fn fetch_blocking(url: &str, body: Option<&[u8]>, timeout: Duration) -> FetchResult {
    let deadline = Instant::now() + timeout;
    loop {
        match fetch_once(url, body, timeout) {
            Err((BUSY | DROPPED, failure)) => {
                let wait = Duration::from_millis(200 + u64::from(generate_jitter()));
                if Instant::now() + wait >= deadline {
                    return Err(failure);
                }
                std::thread::sleep(wait);
            }
            other => return other.map_err(|(_, failure)| failure),
        }
    }
}

/// A few hundred milliseconds of random delay, so that clients refused together do not come
/// back together.
#[cfg(not(target_family = "wasm"))]
fn generate_jitter() -> u16 {
    u16::from_le_bytes(renet2_netcode::generate_random_bytes::<2>()) % 400
}

/// The status of a busy server's refusal, asked again.
#[cfg(not(target_family = "wasm"))]
const BUSY: u16 = 503;

/// Not an HTTP status: the server dropped the connection mid-request; asked again.
#[cfg(not(target_family = "wasm"))]
const DROPPED: u16 = 1;

#[cfg(not(target_family = "wasm"))]
fn fetch_once(url: &str, body: Option<&[u8]>, timeout: Duration) -> Result<Vec<u8>, (u16, TokenFailure)> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let sent = match body {
        Some(body) => agent.post(url).header("content-type", "application/octet-stream").send(body),
        None => agent.get(url).call(),
    };
    let mut response = sent.map_err(|e| {
        let dropped = matches!(&e, ureq::Error::Io(io) if matches!(io.kind(),
                std::io::ErrorKind::BrokenPipe
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::UnexpectedEof));
        (if dropped { DROPPED } else { 0 }, format!("cannot reach {url}: {e}").into())
    })?;
    let status = response.status().as_u16();
    let version = response.headers().get(VERSION_HEADER).and_then(|v| v.to_str().ok()?.parse().ok());
    let bytes = response
        .body_mut()
        .with_config()
        .limit(MAX_ANSWER_BYTES)
        .read_to_vec()
        .map_err(|e| (0, format!("{url}: {e}").into()))?;
    answer(status, bytes, url, version).map_err(|failure| (status, failure))
}

#[cfg(target_family = "wasm")]
async fn fetch_web(url: &str, body: Option<&[u8]>) -> FetchResult {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let fail = |e: wasm_bindgen::JsValue| TokenFailure::from(format!("cannot reach {url}: {e:?}"));
    let window = web_sys::window().ok_or_else(|| TokenFailure::from("no window".to_string()))?;
    let init = web_sys::RequestInit::new();
    if let Some(body) = body {
        init.set_method("POST");
        init.set_body(&js_sys::Uint8Array::from(body).into());
    }
    let response = JsFuture::from(window.fetch_with_str_and_init(url, &init)).await.map_err(fail)?;
    let response: web_sys::Response = response.dyn_into().map_err(fail)?;
    let status = response.status();
    let version = response.headers().get(VERSION_HEADER).ok().flatten().and_then(|v| v.parse().ok());
    let buffer = JsFuture::from(response.array_buffer().map_err(fail)?).await.map_err(fail)?;
    let body = js_sys::Uint8Array::new(&buffer).to_vec();
    if body.len() as u64 > MAX_ANSWER_BYTES {
        return Err(format!("{url}: answer too long").into());
    }
    answer(status, body, url, version)
}

/// A connect-token request in flight, made the way [`Client`] makes it (on a thread natively,
/// through the page's `fetch` in a browser). For clients that run the connection themselves,
/// such as the game with bevy_renet2: [`TokenRequest::start`], then [`TokenRequest::poll`] each
/// frame until it answers, then [`open_link`] with the token.
pub struct TokenRequest(HttpFetch);

impl TokenRequest {
    /// Asks the server named in `config` for a connect token, with the player's credential.
    pub fn start(config: &ClientConfig, credential: Option<SessionToken>) -> TokenRequest {
        let body = connect_request(config, credential);
        TokenRequest(HttpFetch::start(config.connect_url(), Some(body), config.connect_timeout))
    }

    /// The answer, once it came (then `None` again): the token's bytes, or why not.
    pub fn poll(&mut self) -> Option<Result<Vec<u8>, TokenFailure>> {
        self.0.take()
    }
}

impl fmt::Debug for TokenRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenRequest")
    }
}
