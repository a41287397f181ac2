//! The game's version and the commit it was built from, for `ludus --version` and the title
//! screen.
//!
//! The version is the package's (`Cargo.toml`). The commit comes from `LUDUS_GIT_COMMIT` at build
//! time: release/build.sh and CI set it; a build without it (`cargo run --release` from a
//! tarball, or from a clone without the variable) says so instead of guessing.

/// The game's version, as in `Cargo.toml`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit the game was built from (`1a2b3c4d5e6f`, `-modified` after it when the tree had
/// changes), if the build was told it.
pub fn commit() -> Option<&'static str> {
    option_env!("LUDUS_GIT_COMMIT").map(str::trim).filter(|c| !c.is_empty())
}

/// What `ludus --version` prints after the program's name: `0.1.0 (commit 1a2b3c4d5e6f)`, or
/// `0.1.0 (unknown commit)`.
pub fn long_version() -> String {
    match commit() {
        Some(c) => format!("{VERSION} (commit {c})"),
        None => format!("{VERSION} (unknown commit)"),
    }
}

/// The title screen's version line: `Ludus 0.1.0 · 1a2b3c4d5e6f`, or `Ludus 0.1.0` when the
/// commit is not known. No words to translate.
pub fn version_line() -> String {
    match commit() {
        Some(c) => format!("Ludus {VERSION} · {c}"),
        None => format!("Ludus {VERSION}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_the_package_version() {
        assert_eq!(VERSION, env!("CARGO_PKG_VERSION"));
        assert!(version_line().starts_with(&format!("Ludus {VERSION}")));
        assert!(long_version().starts_with(&format!("{VERSION} (")));
        match commit() {
            Some(c) => {
                assert!(long_version().ends_with(&format!("(commit {c})")));
                assert!(version_line().ends_with(c));
            }
            None => {
                assert!(long_version().ends_with("(unknown commit)"));
                assert_eq!(version_line(), format!("Ludus {VERSION}"));
            }
        }
    }
}
