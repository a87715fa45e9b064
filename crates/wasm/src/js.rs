//! Small helpers between Rust values and JavaScript ones: plain objects
//! built field by field, fields read from an options object with a clear
//! error when one has the wrong type, and errors as JavaScript `Error`s.

use js_sys::{Array, Object, Reflect};
use std::cell::RefCell;
use std::collections::HashMap;
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

/// How many distinct move texts [`move_strings`] keeps as JavaScript
/// strings (about 2 000 UCI moves and some tens of thousands of SAN ones
/// exist).
const MAX_INTERNED: usize = 1 << 16;

thread_local! {
    static INTERNED: RefCell<HashMap<Box<str>, JsValue>> = RefCell::new(HashMap::new());
}

/// A JavaScript array of move texts (UCI or SAN): each distinct text is made
/// a JavaScript string once and kept, because making a string across the
/// boundary costs more than generating the moves.
pub(crate) fn move_strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Array {
    INTERNED.with(|cache| {
        let mut cache = cache.borrow_mut();
        let array = Array::new();
        for s in items {
            let s = s.as_ref();
            let value = match cache.get(s) {
                Some(v) => v.clone(),
                None => {
                    let v = JsValue::from_str(s);
                    if cache.len() < MAX_INTERNED {
                        cache.insert(s.into(), v.clone());
                    }
                    v
                }
            };
            array.push(&value);
        }
        array
    })
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
