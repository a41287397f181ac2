//! The system's errors in the player's words: an `std::io::Error` (a refused connection, a port
//! in use, a name that does not resolve...) said by its kind, with the system's error number as
//! the detail. The error's own text is English: it goes to the log, not the screen.

use super::Lang;
use std::io::{Error, ErrorKind};

/// What the system said, in `lang`: a clause for a message's `{ $error }`.
pub fn io_error(lang: Lang, error: &Error) -> String {
    SystemError::of(error).text(lang)
}

/// A system error kept to be said later (an `std::io::Error` is neither `Clone` nor
/// comparable): its kind and the system's error number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemError {
    pub kind: ErrorKind,
    pub code: Option<i32>,
}

impl SystemError {
    /// What is kept of `error`.
    pub fn of(error: &Error) -> SystemError {
        SystemError { kind: error.kind(), code: error.raw_os_error() }
    }

    /// The error in `lang`: a clause for a message's `{ $error }`.
    pub fn text(self, lang: Lang) -> String {
        text(lang, self.kind, self.code)
    }
}

fn text(lang: Lang, kind: ErrorKind, code: Option<i32>) -> String {
    let what = match kind {
        ErrorKind::ConnectionRefused => lang.t("system-refused"),
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
            lang.t("system-cut")
        }
        ErrorKind::TimedOut => lang.t("system-timed-out"),
        ErrorKind::AddrInUse => lang.t("system-address-in-use"),
        ErrorKind::AddrNotAvailable => lang.t("system-address-not-available"),
        ErrorKind::NetworkUnreachable | ErrorKind::HostUnreachable | ErrorKind::NetworkDown => {
            lang.t("system-unreachable")
        }
        ErrorKind::PermissionDenied => lang.t("system-denied"),
        ErrorKind::NotFound => lang.t("system-not-found"),
        _ => lang.t("system-other"),
    };
    match code {
        Some(code) => lang.fmt("system-code", [("problem", what.into()), ("code", code.into())]),
        None => what.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_errors_are_said_in_the_players_language() {
        let refused = Error::from(ErrorKind::ConnectionRefused);
        assert_eq!(io_error(Lang::Vi, &refused), "máy bên kia từ chối kết nối");
        assert_eq!(io_error(Lang::En, &refused), "the other computer refused the connection");
        // The system's number is kept as the detail; its English text is not shown.
        let in_use = Error::from_raw_os_error(98);
        let vi = io_error(Lang::Vi, &in_use);
        assert!(vi.contains("98") && !vi.contains(&in_use.to_string()), "{vi}");
        let other = Error::other("something odd happened");
        assert!(!io_error(Lang::Vi, &other).contains("odd"));
    }
}
