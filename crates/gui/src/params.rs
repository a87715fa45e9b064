//! The parameters of a request: `application/x-www-form-urlencoded` text,
//! from the query string of a URL or the body of a POST.

use super::GuiError;

/// Decoded `name=value` pairs, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Decodes `text` (`a=1&b=x%20y`); a name without `=` has an empty
    /// value. Malformed percent escapes and text that is not UTF-8 are
    /// refused.
    pub fn parse(text: &str) -> Result<Params, GuiError> {
        let mut pairs = Vec::new();
        for part in text.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            pairs.push((decode(name)?, decode(value)?));
        }
        Ok(Params(pairs))
    }

    /// Adds the pairs of `other` after these.
    pub fn extend(&mut self, other: Params) {
        self.0.extend(other.0);
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name`, which must be there.
    pub fn require(&self, name: &str) -> Result<&str, GuiError> {
        self.get(name)
            .ok_or_else(|| GuiError::BadInput(format!("the request has no `{name}`")))
    }

    /// Builds parameters from pairs (tests and the server's own calls).
    pub fn of(pairs: &[(&str, &str)]) -> Params {
        Params(
            pairs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        )
    }
}

/// Undoes the form encoding: `+` is a space, `%XX` a byte.
fn decode(text: &str) -> Result<String, GuiError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        GuiError::BadInput("a malformed percent escape in the request".into())
                    })?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| GuiError::BadInput("the request is not UTF-8".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_pairs() {
        let p = Params::parse("fen=8%2F8+w&move=e2e4&flag&move=x").unwrap();
        assert_eq!(p.get("fen"), Some("8/8 w"));
        assert_eq!(p.get("move"), Some("e2e4"));
        assert_eq!(p.get("flag"), Some(""));
        assert_eq!(p.get("none"), None);
        assert!(p.require("none").unwrap_err().to_string().contains("none"));
        assert_eq!(
            Params::parse("a=%C3%A9").unwrap().get("a"),
            Some("é"),
            "UTF-8 escapes"
        );
    }

    #[test]
    fn refuses_malformed_escapes() {
        for bad in ["a=%", "a=%4", "a=%zz", "a=%FF", "a=%+1"] {
            assert!(Params::parse(bad).is_err(), "{bad}");
        }
    }
}
