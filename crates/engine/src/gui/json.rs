//! The page's replies as JSON, written by hand: they are a few small
//! objects of strings, numbers and lists, and a serializer crate (with its
//! derive macros) would cost more compile time than this file.

use std::fmt::Write as _;

/// `text` as a JSON string literal, quotes included.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // `<` as well, so that no reply can close a `<script>` element.
            c if (c as u32) < 0x20 || c == '<' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of values that are JSON already.
pub fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item);
    }
    out.push(']');
    out
}

/// A JSON object, built one member at a time.
#[derive(Debug, Default)]
pub struct Object {
    text: String,
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// Adds `key` with a value that is JSON already.
    pub fn raw(mut self, key: &str, json: &str) -> Object {
        self.text.push(if self.text.is_empty() { '{' } else { ',' });
        self.text.push_str(&string(key));
        self.text.push(':');
        self.text.push_str(json);
        self
    }

    /// Adds a string member.
    pub fn str(self, key: &str, value: &str) -> Object {
        self.raw(key, &string(value))
    }

    /// Adds a string member, or `null`.
    pub fn opt_str(self, key: &str, value: Option<&str>) -> Object {
        match value {
            Some(v) => self.str(key, v),
            None => self.raw(key, "null"),
        }
    }

    /// Adds an integer member.
    pub fn int(self, key: &str, value: i64) -> Object {
        self.raw(key, &value.to_string())
    }

    /// Adds a number member (`null` if it is not finite, which JSON cannot
    /// hold).
    pub fn num(self, key: &str, value: f64) -> Object {
        if value.is_finite() {
            self.raw(key, &format!("{value}"))
        } else {
            self.raw(key, "null")
        }
    }

    /// Adds a boolean member.
    pub fn bool(self, key: &str, value: bool) -> Object {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// The object's text.
    pub fn finish(self) -> String {
        if self.text.is_empty() {
            "{}".to_string()
        } else {
            self.text + "}"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(string("</script>\u{1}"), r#""\u003c/script>\u0001""#);
        assert_eq!(string("é♔"), "\"é♔\"");
    }

    #[test]
    fn objects_and_arrays() {
        assert_eq!(Object::new().finish(), "{}");
        let o = Object::new()
            .str("fen", "8/8")
            .int("n", -3)
            .num("x", 1.5)
            .num("bad", f64::NAN)
            .bool("ok", true)
            .opt_str("none", None)
            .raw("list", &array(["1".to_string(), "2".to_string()]))
            .finish();
        assert_eq!(
            o,
            r#"{"fen":"8/8","n":-3,"x":1.5,"bad":null,"ok":true,"none":null,"list":[1,2]}"#
        );
        assert_eq!(array(Vec::new()), "[]");
    }
}
