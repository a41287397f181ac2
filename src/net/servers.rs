//! The servers the online menu offers: the one given with `--server` (or `?server=`), the last
//! one used, those listed in `servers.txt` in the data directory, and those found on the local
//! network. Nothing here contacts, resolves or checks an address on the network: the list is
//! made from text only, and a server is reached only when the player picks it.
//!
//! `servers.txt` holds one address a line, as the player would type it (`host`, `host:5000`,
//! `ws://host:5001`, `https://host:5000`); `#` starts a comment, blank lines are ignored. A line
//! that is not an address is reported in the player's language and skipped: the rest of the file
//! still counts.

use crate::i18n::Lang;
use crate::net::connection::OnlineConfig;
use crate::platform::storage::StorageError;
use bevy::prelude::*;
use ludus_protocol::{DEFAULT_UDP_PORT, DEFAULT_WS_PORT};
use std::net::{Ipv4Addr, Ipv6Addr};

/// The file in the data directory that lists servers.
pub const FILE: &str = "servers.txt";
/// At most this many servers are read from the file; the rest is reported and left out.
pub const MAX_FROM_FILE: usize = 100;
/// A line longer than this is not an address.
const MAX_LINE: usize = 300;

/// Where the list learnt of a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `--server ADDR` on the command line, or the page's `?server=`.
    Given,
    /// The server the player connected to last.
    LastUsed,
    /// A line of `servers.txt`.
    File,
    /// Announced on the local network by a game that hosts: the host's name.
    Lan(String),
}

impl Origin {
    /// A few words on where the server comes from, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Origin::Given => lang.t("net-servers-given").to_string(),
            Origin::LastUsed => lang.t("net-servers-last").to_string(),
            Origin::File => lang.t("net-servers-file").to_string(),
            Origin::Lan(name) => lang.fmt("net-servers-lan", [("name", name.as_str().into())]),
        }
    }
}

/// One server to offer: the address as the player would type it, and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownServer {
    /// The address, trimmed, as given.
    pub address: String,
    /// Where it was first heard of (the command line before the last used, before the file,
    /// before the local network).
    pub origin: Origin,
}

/// Why a line of `servers.txt` is not an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Spaces inside the address.
    Spaces,
    /// A scheme other than udp://, ws://, wss://, http:// and https://.
    Scheme,
    /// Nothing before the port or the path.
    NoHost,
    /// Characters no host name or IP address has.
    Host,
    /// A port that is not a number from 1 to 65535.
    Port,
    /// Longer than any address.
    TooLong,
}

impl LineError {
    /// The reason, in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        match self {
            LineError::Spaces => lang.t("net-servers-reason-spaces"),
            LineError::Scheme => lang.t("net-servers-reason-scheme"),
            LineError::NoHost => lang.t("net-servers-reason-no-host"),
            LineError::Host => lang.t("net-servers-reason-host"),
            LineError::Port => lang.t("net-servers-reason-port"),
            LineError::TooLong => lang.t("net-servers-reason-too-long"),
        }
    }
}

/// Something wrong with `servers.txt`, told to the player; the list is made without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// A line that is not an address: its number (from 1), its text (shortened), the reason.
    BadLine { line: usize, text: String, error: LineError },
    /// More than [`MAX_FROM_FILE`] addresses: how many were left out.
    TooMany(usize),
    /// The file could not be read: the system's reason.
    Unreadable(ReadFailure),
}

/// Why `servers.txt` could not be read; two are equal when their technical details are.
#[derive(Clone, Debug)]
pub struct ReadFailure(pub std::sync::Arc<StorageError>);

impl PartialEq for ReadFailure {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for ReadFailure {}

impl FileProblem {
    /// What is wrong, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            FileProblem::BadLine { line, text, error } => lang.fmt(
                "net-servers-bad-line",
                [
                    ("line", (*line).into()),
                    ("text", text.as_str().into()),
                    ("reason", error.text(lang).into()),
                ],
            ),
            FileProblem::TooMany(n) => lang.fmt("net-servers-too-many", [("count", (*n).into())]),
            FileProblem::Unreadable(why) => {
                lang.fmt("net-servers-unreadable", [("error", why.0.text(lang).into())])
            }
        }
    }
}

/// Checks that `text` has the shape of a server address, without resolving or contacting it:
/// `host`, `host:port`, `1.2.3.4[:port]`, `[::1][:port]`, or one of them after `udp://`,
/// `ws://`, `wss://`, `http://` or `https://` (a path may follow a URL's host).
pub fn check_address(text: &str) -> Result<(), LineError> {
    let text = text.trim();
    if text.len() > MAX_LINE {
        return Err(LineError::TooLong);
    }
    if text.chars().any(char::is_whitespace) {
        return Err(LineError::Spaces);
    }
    let (rest, url) = match text.split_once("://") {
        Some((scheme, rest)) => {
            if !["udp", "ws", "wss", "http", "https"].contains(&scheme.to_ascii_lowercase().as_str()) {
                return Err(LineError::Scheme);
            }
            (rest, true)
        }
        None => (text, false),
    };
    let authority = if url { rest.split('/').next().unwrap_or_default() } else { rest };
    if authority.is_empty() {
        return Err(LineError::NoHost);
    }
    if !url && authority.contains('/') {
        return Err(LineError::Host);
    }
    let (host, port) = split_port(authority)?;
    if let Some(port) = port {
        match port.parse::<u16>() {
            Ok(p) if p > 0 => {}
            _ => return Err(LineError::Port),
        }
    }
    if host.is_empty() {
        return Err(LineError::NoHost);
    }
    if host.parse::<Ipv4Addr>().is_ok() || host.parse::<Ipv6Addr>().is_ok() {
        return Ok(());
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    };
    // A trailing dot (a fully qualified name) is allowed.
    let name = host.strip_suffix('.').unwrap_or(host);
    if name.split('.').all(label_ok) { Ok(()) } else { Err(LineError::Host) }
}

/// Splits `host:port`, `[v6]:port`, `[v6]`, a bare IPv6 address or a bare host.
fn split_port(authority: &str) -> Result<(&str, Option<&str>), LineError> {
    if let Some(rest) = authority.strip_prefix('[') {
        let (inside, after) = rest.split_once(']').ok_or(LineError::Host)?;
        if inside.parse::<Ipv6Addr>().is_err() {
            return Err(LineError::Host);
        }
        return match after {
            "" => Ok((inside, None)),
            _ => after.strip_prefix(':').map(|p| (inside, Some(p))).ok_or(LineError::Host),
        };
    }
    match authority.matches(':').count() {
        0 => Ok((authority, None)),
        1 => authority.split_once(':').map(|(h, p)| (h, Some(p))).ok_or(LineError::Host),
        // Several colons: an IPv6 address without brackets (and so without a port).
        _ if authority.parse::<Ipv6Addr>().is_ok() => Ok((authority, None)),
        _ => Err(LineError::Host),
    }
}

/// Two spellings of one server give the same key: the scheme and host in lower case, the
/// default port written out (`Host` = `host:5000` = `udp://host:5000`), no trailing slash.
fn key(address: &str) -> String {
    let lower = address.trim().trim_end_matches('/').to_lowercase();
    let (scheme, rest) = match lower.split_once("://") {
        Some((scheme, rest)) => (scheme.to_string(), rest.to_string()),
        None => ("udp".to_string(), lower.clone()),
    };
    let (authority, path) = match rest.split_once('/') {
        Some((a, p)) => (a.to_string(), format!("/{p}")),
        None => (rest.clone(), String::new()),
    };
    let default_port = match scheme.as_str() {
        "ws" => Some(DEFAULT_WS_PORT),
        "wss" => None,
        _ => Some(DEFAULT_UDP_PORT),
    };
    let with_port = match (split_port(&authority), default_port) {
        (Ok((host, None)), Some(port)) if host.contains(':') => format!("[{host}]:{port}"),
        (Ok((host, None)), Some(port)) => format!("{host}:{port}"),
        _ => authority,
    };
    // udp://, http:// and https:// all play over UDP on the same port: one server.
    let scheme = if matches!(scheme.as_str(), "http" | "https") { "udp".to_string() } else { scheme };
    format!("{scheme}://{with_port}{path}")
}

/// Reads `servers.txt`: the addresses in order (at most [`MAX_FROM_FILE`]), and the problems
/// of the lines left out.
pub fn parse_file(text: &str) -> (Vec<String>, Vec<FileProblem>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (mut addresses, mut problems, mut over) = (Vec::new(), Vec::new(), 0);
    for (index, line) in text.lines().enumerate() {
        let address = line.split('#').next().unwrap_or_default().trim();
        if address.is_empty() {
            continue;
        }
        match check_address(address) {
            Ok(()) if addresses.len() < MAX_FROM_FILE => addresses.push(address.to_string()),
            Ok(()) => over += 1,
            Err(error) => {
                let shown: String = address.chars().take(60).collect();
                let text = if shown.len() < address.len() { format!("{shown}…") } else { shown };
                problems.push(FileProblem::BadLine { line: index + 1, text, error });
            }
        }
    }
    if over > 0 {
        problems.push(FileProblem::TooMany(over));
    }
    (addresses, problems)
}

/// The servers the online menu can offer, and what was wrong with `servers.txt`.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownServers {
    given: Option<String>,
    last_used: Option<String>,
    file: Vec<String>,
    lan: Vec<(String, String)>,
    /// The problems found in `servers.txt`, to show once.
    pub problems: Vec<FileProblem>,
}

impl KnownServers {
    /// The list from the address given at start (`--server`), the last one used and the text of
    /// `servers.txt` (`None`: no file). Empty or blank addresses count as none.
    pub fn new(given: Option<&str>, last_used: Option<&str>, file: Option<&str>) -> KnownServers {
        let clean = |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let (file, problems) = file.map(parse_file).unwrap_or_default();
        KnownServers { given: clean(given), last_used: clean(last_used), file, lan: Vec::new(), problems }
    }

    /// Like [`KnownServers::new`], reading `servers.txt` from the data directory (in the
    /// browser, the page's storage under the same name). A file that cannot be read is a
    /// problem to tell, not a failure.
    pub fn load(given: Option<&str>, last_used: Option<&str>) -> KnownServers {
        match crate::platform::storage::read(FILE) {
            Ok(text) => KnownServers::new(given, last_used, text.as_deref()),
            Err(why) => {
                warn!("{FILE}: {why}");
                let mut servers = KnownServers::new(given, last_used, None);
                servers.problems.push(FileProblem::Unreadable(ReadFailure(std::sync::Arc::new(why))));
                servers
            }
        }
    }

    /// Remembers the server just connected to as the last used one.
    pub fn set_last_used(&mut self, address: &str) {
        let address = address.trim();
        self.last_used = (!address.is_empty()).then(|| address.to_string());
    }

    /// The hook for the servers found on the local network: replaces those of the last call
    /// with these `(address, host's name)` pairs (for instance `LanHost::found`).
    pub fn set_lan(&mut self, found: impl IntoIterator<Item = (String, String)>) {
        self.lan = found.into_iter().filter(|(address, _)| !address.trim().is_empty()).collect();
    }

    /// The servers to offer, each once: the given one, the last used, the file's in its order,
    /// then the local network's.
    pub fn list(&self) -> Vec<KnownServer> {
        let mut seen = std::collections::HashSet::new();
        let given = self.given.iter().map(|a| (a.as_str(), Origin::Given));
        let last = self.last_used.iter().map(|a| (a.as_str(), Origin::LastUsed));
        let file = self.file.iter().map(|a| (a.as_str(), Origin::File));
        let lan = self.lan.iter().map(|(a, name)| (a.as_str(), Origin::Lan(name.clone())));
        given
            .chain(last)
            .chain(file)
            .chain(lan)
            .filter(|(address, _)| seen.insert(key(address)))
            .map(|(address, origin)| KnownServer { address: address.trim().to_string(), origin })
            .collect()
    }

    /// Whether there is no server to offer.
    pub fn is_empty(&self) -> bool {
        self.given.is_none() && self.last_used.is_none() && self.file.is_empty() && self.lan.is_empty()
    }

    /// What to tell a player who has no server to pick: host on this network, or run a server
    /// with one line.
    pub fn none_text(lang: Lang) -> &'static str {
        lang.t("net-servers-none")
    }
}

/// The online menu's list, made anew each time the menu opens (from `--server`, the last
/// server typed and `servers.txt`) and following the games that host on this network.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(crate::app::Screen::Online), refresh);
    #[cfg(not(target_arch = "wasm32"))]
    app.add_systems(Update, follow_lan.run_if(in_state(crate::app::Screen::Online)));
}

fn refresh(
    mut commands: Commands,
    launch: Option<Res<crate::app::launch::Launch>>,
    config: Res<OnlineConfig>,
) {
    let given = launch.as_deref().and_then(|l| l.online.as_ref()).and_then(|o| o.server.clone());
    commands.insert_resource(KnownServers::load(given.as_deref(), Some(&config.server)));
}

#[cfg(not(target_arch = "wasm32"))]
fn follow_lan(host: Option<Res<super::lan::LanHost>>, known: Option<ResMut<KnownServers>>) {
    if let (Some(host), Some(mut known)) = (host, known)
        && host.is_changed()
    {
        known.set_lan(host.found.iter().map(|(address, (name, _))| (address.clone(), name.clone())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addresses(servers: &KnownServers) -> Vec<String> {
        servers.list().into_iter().map(|s| s.address).collect()
    }

    #[test]
    fn the_file_keeps_addresses_and_skips_comments_and_blank_lines() {
        let text = "\u{feff}# my servers\r\n\r\nludus.example.org\r\n  192.168.1.5:5000   # the kitchen\n\
                    ws://[::1]:5001\nhttps://play.example.org:5000/\n[fe80::1]\n::1\n";
        let (found, problems) = parse_file(text);
        assert_eq!(
            found,
            [
                "ludus.example.org",
                "192.168.1.5:5000",
                "ws://[::1]:5001",
                "https://play.example.org:5000/",
                "[fe80::1]",
                "::1"
            ]
        );
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn bad_lines_are_reported_with_their_number_and_the_rest_still_counts() {
        let text = "good.example\nnot an address\nftp://x.example\nhost:0\nhost:99999\n:5000\n\
                    bad_ch@r.example\n[::1\nws://\nlast.example:6000\n";
        let (found, problems) = parse_file(text);
        assert_eq!(found, ["good.example", "last.example:6000"]);
        let reasons: Vec<(usize, LineError)> = problems
            .iter()
            .map(|p| match p {
                FileProblem::BadLine { line, error, .. } => (*line, *error),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            reasons,
            [
                (2, LineError::Spaces),
                (3, LineError::Scheme),
                (4, LineError::Port),
                (5, LineError::Port),
                (6, LineError::NoHost),
                (7, LineError::Host),
                (8, LineError::Host),
                (9, LineError::NoHost),
            ]
        );
    }

    #[test]
    fn problems_are_told_in_both_languages_with_the_line_and_the_text() {
        let (_, problems) = parse_file("a.example\nthis is wrong\n");
        for lang in [Lang::En, Lang::Vi] {
            let text = problems[0].text(lang);
            assert!(text.contains('2') && text.contains("this is wrong"), "{text}");
            assert!(text.contains(LineError::Spaces.text(lang)), "{text}");
            assert!(!text.contains("net-servers"), "a missing message: {text}");
        }
        assert_ne!(problems[0].text(Lang::En), problems[0].text(Lang::Vi));
        let long = "x".repeat(400);
        let (_, problems) = parse_file(&long);
        match &problems[0] {
            FileProblem::BadLine { text, error: LineError::TooLong, .. } => {
                assert!(text.chars().count() <= 61)
            }
            other => panic!("{other:?}"),
        }
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let unreadable = FileProblem::Unreadable(ReadFailure(std::sync::Arc::new(StorageError::Io(denied))));
        for lang in [Lang::En, Lang::Vi] {
            assert!(unreadable.text(lang).contains(lang.t("storage-denied")), "{}", unreadable.text(lang));
            assert!(!unreadable.text(lang).contains("net-servers"));
        }
    }

    #[test]
    fn only_the_first_hundred_of_a_long_file_are_offered() {
        let text: String = (0..150).map(|i| format!("host{i}.example\n")).collect();
        let (found, problems) = parse_file(&text);
        assert_eq!(found.len(), MAX_FROM_FILE);
        assert_eq!(found[99], "host99.example");
        assert_eq!(problems, [FileProblem::TooMany(50)]);
        assert!(problems[0].text(Lang::En).contains("50"));
    }

    #[test]
    fn the_list_orders_by_origin_and_names_each_server_once() {
        let file = "Friend.example\nfriend.example:5000\nudp://friend.example\nws://friend.example\n\
                    last.example:5000\n";
        let mut servers = KnownServers::new(Some(" given.example "), Some("LAST.example"), Some(file));
        servers.set_lan([
            ("192.168.1.5:5000".to_string(), "Ann's laptop".to_string()),
            ("given.example:5000".to_string(), "duplicate".to_string()),
        ]);
        let list = servers.list();
        let shown: Vec<(&str, &Origin)> = list.iter().map(|s| (s.address.as_str(), &s.origin)).collect();
        assert_eq!(
            shown,
            [
                ("given.example", &Origin::Given),
                ("LAST.example", &Origin::LastUsed),
                ("Friend.example", &Origin::File),
                // WebSocket on its own port is another way in: offered as well.
                ("ws://friend.example", &Origin::File),
                ("192.168.1.5:5000", &Origin::Lan("Ann's laptop".to_string())),
            ]
        );
    }

    #[test]
    fn the_lan_hook_replaces_what_it_found_before() {
        let mut servers = KnownServers::new(None, None, None);
        assert!(servers.is_empty());
        servers.set_lan([("10.0.0.2:5000".to_string(), "A".to_string())]);
        assert_eq!(addresses(&servers), ["10.0.0.2:5000"]);
        assert!(!servers.is_empty());
        servers.set_lan([("10.0.0.3:5000".to_string(), "B".to_string())]);
        assert_eq!(addresses(&servers), ["10.0.0.3:5000"]);
        servers.set_lan(Vec::new());
        assert!(servers.is_empty());
    }

    #[test]
    fn the_last_used_follows_the_player_and_blank_addresses_are_none() {
        let mut servers = KnownServers::new(Some("  "), Some(""), Some("# nothing yet\n\n"));
        assert!(servers.is_empty() && servers.problems.is_empty());
        servers.set_last_used("play.example:5000");
        assert_eq!(addresses(&servers), ["play.example:5000"]);
        servers.set_last_used("other.example");
        assert_eq!(addresses(&servers), ["other.example"]);
    }

    #[test]
    fn addresses_are_checked_by_their_shape_alone() {
        // A name that no resolver knows is accepted: nothing is looked up or contacted.
        for ok in ["no-such-host.invalid", "xn--vit-nam-fwa.example.", "localhost:5000", "máy-chủ.example"]
        {
            assert_eq!(check_address(ok), Ok(()), "{ok}");
        }
        for (bad, error) in
            [("-bad.example", LineError::Host), ("a..b", LineError::Host), ("a/b", LineError::Host)]
        {
            assert_eq!(check_address(bad), Err(error), "{bad}");
        }
    }

    #[test]
    fn with_no_server_the_player_is_told_what_to_do_in_both_languages() {
        let en = KnownServers::none_text(Lang::En);
        let vi = KnownServers::none_text(Lang::Vi);
        assert!(en.contains("ludus-server") && vi.contains("ludus-server"));
        assert!(!en.starts_with("net-servers") && !vi.starts_with("net-servers"));
        assert_ne!(en, vi);
        for origin in [Origin::Given, Origin::LastUsed, Origin::File, Origin::Lan("Ann".into())] {
            assert_ne!(origin.text(Lang::En), origin.text(Lang::Vi));
        }
        assert!(Origin::Lan("Ann".into()).text(Lang::Vi).contains("Ann"));
    }
}
