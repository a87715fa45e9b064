//! Small helpers between Rust values and JavaScript ones: plain objects
//! built field by field, fields read from an options object with a clear
//! error when one has the wrong type, and errors as JavaScript `Error`s.

use js_sys::{Array, Object, Reflect};
use std::fmt::Display;
use wasm_bindgen::prelude::*;

/// A JavaScript `Error` whose message is `e`'s.
pub(crate) fn error(e: impl Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A plain JavaScript object, built field by field.
pub(crate) struct Obj(Object);

impl Obj {
    pub(crate) fn new() -> Obj {
        Obj(Object::new())
    }

    /// Sets `key` (setting a property of a fresh plain object cannot fail).
    pub(crate) fn set(self, key: &str, value: impl Into<JsValue>) -> Obj {
        let _ = Reflect::set(&self.0, &JsValue::from_str(key), &value.into());
        self
    }

    pub(crate) fn into_js(self) -> JsValue {
        self.0.into()
    }
}

/// A JavaScript array of strings.
pub(crate) fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Array {
    items
        .into_iter()
        .map(|s| JsValue::from_str(s.as_ref()))
        .collect()
}

/// A JavaScript array of move texts (UCI or SAN) from `joined`, the texts
/// separated by single spaces: the list crosses the boundary as one string
/// that JavaScript splits, two calls in all, where filling an array from
/// Rust takes a call per move and costs about twice as much even with each
/// text made a JavaScript string once and kept.
pub(crate) fn split_moves(joined: &str) -> Array {
    if joined.is_empty() {
        // `"".split(" ")` is `[""]`, not `[]`.
        return Array::new();
    }
    let joined: Text = JsValue::from_str(joined).unchecked_into();
    SPACE.with(|space| joined.split(space))
}

#[wasm_bindgen]
extern "C" {
    /// A JavaScript string.
    #[wasm_bindgen(js_name = String)]
    type Text;

    /// `String.prototype.split` with a separator that is already a
    /// JavaScript string (js-sys's takes a `&str` and so makes one on every
    /// call).
    #[wasm_bindgen(method)]
    fn split(this: &Text, separator: &Text) -> Array;
}

thread_local! {
    /// The separator of [`split_moves`], made once.
    static SPACE: Text = JsValue::from_str(" ").unchecked_into();
}

/// A JavaScript array of move texts (UCI or SAN; none holds a space), as
/// [`split_moves`] makes it.
pub(crate) fn move_strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Array {
    let mut joined = String::new();
    for (i, s) in items.into_iter().enumerate() {
        if i > 0 {
            joined.push(' ');
        }
        joined.push_str(s.as_ref());
    }
    split_moves(&joined)
}

/// The options object a method was given: `undefined` and `null` read as
/// an empty one; anything else that is not an object is refused.
pub(crate) struct Options<'a> {
    what: &'a str,
    value: Option<&'a JsValue>,
}

impl<'a> Options<'a> {
    /// `value`, named `what` in errors (`limits`, `options`).
    pub(crate) fn new(what: &'a str, value: &'a JsValue) -> Result<Options<'a>, JsError> {
        if value.is_undefined() || value.is_null() {
            return Ok(Options { what, value: None });
        }
        if !value.is_object() {
            return Err(error(format_args!("{what} must be an object")));
        }
        Ok(Options {
            what,
            value: Some(value),
        })
    }

    /// The value of `key`, if given (neither `undefined` nor `null`).
    pub(crate) fn value(&self, key: &str) -> Result<Option<JsValue>, JsError> {
        let Some(obj) = self.value else {
            return Ok(None);
        };
        let v = Reflect::get(obj, &JsValue::from_str(key))
            .map_err(|_| error(format_args!("{}.{key} cannot be read", self.what)))?;
        Ok((!v.is_undefined() && !v.is_null()).then_some(v))
    }

    /// A whole number in `min..=max`, if given.
    pub(crate) fn int(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>, JsError> {
        let Some(v) = self.value(key)? else {
            return Ok(None);
        };
        let n = v.as_f64().filter(|n| n.fract() == 0.0);
        match n {
            Some(n) if n >= min as f64 && n <= max as f64 => Ok(Some(n as u64)),
            _ => Err(error(format_args!(
                "{}.{key} must be a whole number from {min} to {max}, not {}",
                self.what,
                describe(&v)
            ))),
        }
    }

    /// A string, if given.
    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, JsError> {
        let Some(v) = self.value(key)? else {
            return Ok(None);
        };
        v.as_string().map(Some).ok_or_else(|| {
            error(format_args!(
                "{}.{key} must be a string, not {}",
                self.what,
                describe(&v)
            ))
        })
    }

    /// A boolean, if given.
    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, JsError> {
        let Some(v) = self.value(key)? else {
            return Ok(None);
        };
        v.as_bool().map(Some).ok_or_else(|| {
            error(format_args!(
                "{}.{key} must be true or false, not {}",
                self.what,
                describe(&v)
            ))
        })
    }

    /// An array of strings, if given.
    pub(crate) fn strings(&self, key: &str) -> Result<Option<Vec<String>>, JsError> {
        let Some(v) = self.value(key)? else {
            return Ok(None);
        };
        string_list(&v).map(Some).ok_or_else(|| {
            error(format_args!(
                "{}.{key} must be an array of strings, not {}",
                self.what,
                describe(&v)
            ))
        })
    }

    /// The own string-valued properties, in order (PGN tags).
    pub(crate) fn entries(&self) -> Result<Vec<(String, String)>, JsError> {
        let Some(obj) = self.value else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for pair in Object::entries(&Object::from(obj.clone())).iter() {
            let pair = Array::from(&pair);
            let (k, v) = (pair.get(0), pair.get(1));
            match (k.as_string(), v.as_string()) {
                (Some(k), Some(v)) => out.push((k, v)),
                (Some(k), None) => {
                    return Err(error(format_args!(
                        "{}.{k} must be a string, not {}",
                        self.what,
                        describe(&v)
                    )))
                }
                _ => {}
            }
        }
        Ok(out)
    }
}

/// The strings of a JavaScript array, or `None` if it is not an array of
/// strings.
pub(crate) fn string_list(v: &JsValue) -> Option<Vec<String>> {
    if !Array::is_array(v) {
        return None;
    }
    Array::from(v).iter().map(|s| s.as_string()).collect()
}

/// A value in an error message: its text, or its type.
fn describe(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return format!("{s:?}");
    }
    if let Some(n) = v.as_f64() {
        return n.to_string();
    }
    v.js_typeof()
        .as_string()
        .unwrap_or_else(|| "a value".into())
}
