//! The parameters of a request: `application/x-www-form-urlencoded` text,
//! from the query string of a URL or the body of a POST, decoded by
//! serde_urlencoded into name–value pairs in order.

use super::GuiError;

/// Decoded `name=value` pairs, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Decodes `text` (`a=1&b=x%20y`); a name without `=` has an empty
    /// value. Bytes that are not UTF-8 become U+FFFD, and a `%` not
    /// followed by two hex digits stands for itself (the WHATWG form
    /// decoding browsers use).
    pub fn parse(text: &[u8]) -> Result<Params, GuiError> {
        serde_urlencoded::from_bytes(text)
            .map(Params)
            .map_err(|e| GuiError::BadInput(format!("malformed request parameters: {e}")))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_pairs() {
        let p = Params::parse(b"fen=8%2F8+w&move=e2e4&flag&move=x").unwrap();
        assert_eq!(p.get("fen"), Some("8/8 w"));
        assert_eq!(p.get("move"), Some("e2e4"));
        assert_eq!(p.get("flag"), Some(""));
        assert_eq!(p.get("none"), None);
        assert!(p.require("none").unwrap_err().to_string().contains("none"));
        assert_eq!(
            Params::parse(b"a=%C3%A9").unwrap().get("a"),
            Some("\u{e9}"),
            "UTF-8 escapes"
        );
    }

    #[test]
    fn malformed_escapes_decode_as_browsers_do() {
        let p = Params::parse(b"a=%&b=%zz&c=%FF&d=\xff").unwrap();
        assert_eq!(p.get("a"), Some("%"));
        assert_eq!(p.get("b"), Some("%zz"));
        assert_eq!(p.get("c"), Some("\u{fffd}"));
        assert_eq!(p.get("d"), Some("\u{fffd}"));
    }
}
