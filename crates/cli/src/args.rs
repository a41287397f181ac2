//! A small argument reader: positional words and `--flag [value]` options, with clear errors.

use std::collections::HashMap;

/// Parsed arguments of one subcommand.
pub struct Args {
    pub positional: Vec<String>,
    options: HashMap<String, Option<String>>,
}

impl Args {
    /// Reads `argv`; `with_value` names the options that take a value, `switches` those that
    /// do not. Anything else is an error.
    pub fn parse(argv: &[String], with_value: &[&str], switches: &[&str]) -> Result<Args, String> {
        let mut positional = Vec::new();
        let mut options = HashMap::new();
        let mut it = argv.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                if with_value.contains(&name) {
                    let v = match inline {
                        Some(v) => v,
                        None => it.next().cloned().ok_or_else(|| format!("--{name} needs a value"))?,
                    };
                    options.insert(name.to_string(), Some(v));
                } else if switches.contains(&name) && inline.is_none() {
                    options.insert(name.to_string(), None);
                } else {
                    return Err(format!("unknown option --{name}"));
                }
            } else {
                positional.push(a.clone());
            }
        }
        Ok(Args { positional, options })
    }

    pub fn flag(&self, name: &str) -> bool {
        self.options.contains_key(name)
    }

    pub fn value(&self, name: &str) -> Option<&str> {
        self.options.get(name).and_then(|v| v.as_deref())
    }

    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.value(name) {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| format!("--{name} expects a number, not '{v}'")),
        }
    }

    pub fn expect_positional(&self, n: usize, usage: &str) -> Result<(), String> {
        if self.positional.len() == n { Ok(()) } else { Err(format!("usage: {usage}")) }
    }
}
