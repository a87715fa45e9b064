//! Engine options: the `option name … type …` declaration an engine prints
//! in answer to `uci` ([`UciOption`]), and the checking of a value before
//! it is set ([`UciOption::check_value`]), which the engine's `setoption`
//! and the client's `set_option` both use, so that a value one refuses the
//! other refuses too.

use crate::words::Words;
use crate::ParseError;
use std::fmt;

/// One option an engine declares.
///
/// ```
/// use fianchetto_uci::{OptionKind, OptionValue, UciOption};
/// let hash: UciOption = "option name Hash type spin default 16 min 1 max 33554432".parse()?;
/// assert_eq!(hash.kind, OptionKind::Spin { default: 16, min: 1, max: 33554432 });
/// assert_eq!(hash.check_value(Some("64")), Ok(OptionValue::Spin(64)));
/// assert_eq!(hash.check_value(Some("0")).unwrap_err().to_string(),
///            "option `Hash` takes a whole number from 1 to 33554432, got `0`");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// The name (it may hold spaces; matched without regard to case).
    pub name: String,
    /// The type, default and range.
    pub kind: OptionKind,
}

/// An option's type with its default and, for a spin, its range; for a
/// combo, its choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`: true or false.
    Check {
        /// The default.
        default: bool,
    },
    /// `spin`: a whole number in a range.
    Spin {
        /// The default.
        default: i64,
        /// The lowest value.
        min: i64,
        /// The highest value.
        max: i64,
    },
    /// `combo`: one of a list of names.
    Combo {
        /// The default.
        default: String,
        /// The choices (`var`).
        vars: Vec<String>,
    },
    /// `button`: an action, no value.
    Button,
    /// `string`: any text (`<empty>` on the wire for the empty string).
    String {
        /// The default.
        default: String,
    },
}

/// A checked value of an option, ready to send or to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// For a check option.
    Check(bool),
    /// For a spin option.
    Spin(i64),
    /// For a combo option: the choice as the engine spells it.
    Combo(String),
    /// For a string option (empty for none).
    String(String),
    /// A button press.
    Button,
}

impl OptionValue {
    /// The value of a check option.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            OptionValue::Check(b) => Some(*b),
            _ => None,
        }
    }

    /// The value of a spin option.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            OptionValue::Spin(n) => Some(*n),
            _ => None,
        }
    }

    /// The text of a combo or string option.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            OptionValue::Combo(s) | OptionValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The name of its type, as `option … type` writes it.
    pub fn type_name(&self) -> &'static str {
        match self {
            OptionValue::Check(_) => "check",
            OptionValue::Spin(_) => "spin",
            OptionValue::Combo(_) => "combo",
            OptionValue::String(_) => "string",
            OptionValue::Button => "button",
        }
    }

    /// The text for `setoption … value <text>`, `None` for a button.
    pub fn to_text(&self) -> Option<String> {
        match self {
            OptionValue::Check(b) => Some(b.to_string()),
            OptionValue::Spin(n) => Some(n.to_string()),
            OptionValue::Combo(s) => Some(s.clone()),
            OptionValue::String(s) if s.is_empty() => Some(EMPTY.to_string()),
            OptionValue::String(s) => Some(s.clone()),
            OptionValue::Button => None,
        }
    }
}

/// How the protocol writes an empty string default (and how GUIs send it).
const EMPTY: &str = "<empty>";

/// Why a value (or a name) was refused for an option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option of that name.
    #[error("no option named `{0}` (see the list `uci` prints)")]
    Unknown(String),
    /// The option needs a value and none was given.
    #[error("option `{0}` needs `value <...>`")]
    MissingValue(String),
    /// Not a whole number, or out of range.
    #[error("option `{name}` takes a whole number from {min} to {max}, got `{value}`")]
    Spin {
        /// The option.
        name: String,
        /// The text given.
        value: String,
        /// The lowest value.
        min: i64,
        /// The highest value.
        max: i64,
    },
    /// Not `true` or `false`.
    #[error("option `{name}` takes true or false, got `{value}`")]
    Check {
        /// The option.
        name: String,
        /// The text given.
        value: String,
    },
    /// Not one of the choices.
    #[error("option `{name}` takes one of {choices}, got `{value}`")]
    Combo {
        /// The option.
        name: String,
        /// The text given.
        value: String,
        /// The choices, comma-separated.
        choices: String,
    },
    /// A typed value of another type than the option's.
    #[error("option `{name}` is a {expected} option, not a {given} one")]
    WrongType {
        /// The option.
        name: String,
        /// Its type.
        expected: &'static str,
        /// The type of the value given.
        given: &'static str,
    },
}

impl UciOption {
    /// A declaration.
    pub fn new(name: impl Into<String>, kind: OptionKind) -> UciOption {
        UciOption {
            name: name.into(),
            kind,
        }
    }

    /// Whether `name` is this option's name (case does not matter, as the
    /// protocol says).
    pub fn is_named(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name.trim())
    }

    /// The name of its type, as `option … type` writes it.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            OptionKind::Check { .. } => "check",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Combo { .. } => "combo",
            OptionKind::String { .. } => "string",
            OptionKind::Button => "button",
        }
    }

    /// Checks a typed value: of the option's type, and valid for it (in
    /// range, one of the choices) as [`UciOption::check_value`] checks text.
    pub fn check_typed(&self, value: &OptionValue) -> Result<OptionValue, OptionError> {
        if value.type_name() != self.type_name() {
            return Err(OptionError::WrongType {
                name: self.name.clone(),
                expected: self.type_name(),
                given: value.type_name(),
            });
        }
        self.check_value(value.to_text().as_deref())
    }

    /// The default as a value.
    pub fn default_value(&self) -> OptionValue {
        match &self.kind {
            OptionKind::Check { default } => OptionValue::Check(*default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(*default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default.clone()),
            OptionKind::String { default } => OptionValue::String(default.clone()),
            OptionKind::Button => OptionValue::Button,
        }
    }

    /// Checks the text of `setoption … value <text>` against the type:
    /// `true`/`false` (any case) for a check, a whole number in range for a
    /// spin, one of the choices (any case; answered as declared) for a
    /// combo, any text for a string (blank or `<empty>` being the empty
    /// string), and nothing for a button (a value given is ignored).
    pub fn check_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let name = || self.name.clone();
        let text = || {
            value
                .map(str::trim)
                .ok_or_else(|| OptionError::MissingValue(name()))
        };
        match &self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::String { .. } => Ok(OptionValue::String(match value.map(str::trim) {
                Some(v) if v != EMPTY => v.to_string(),
                _ => String::new(),
            })),
            OptionKind::Check { .. } => match text()?.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(OptionError::Check {
                    name: name(),
                    value: text()?.to_string(),
                }),
            },
            OptionKind::Spin { min, max, .. } => {
                let v = text()?;
                match v.parse::<i64>() {
                    Ok(n) if (*min..=*max).contains(&n) => Ok(OptionValue::Spin(n)),
                    _ => Err(OptionError::Spin {
                        name: name(),
                        value: v.to_string(),
                        min: *min,
                        max: *max,
                    }),
                }
            }
            OptionKind::Combo { vars, .. } => {
                let v = text()?;
                vars.iter()
                    .find(|c| c.eq_ignore_ascii_case(v))
                    .map(|c| OptionValue::Combo(c.clone()))
                    .ok_or_else(|| OptionError::Combo {
                        name: name(),
                        value: v.to_string(),
                        choices: vars.join(", "),
                    })
            }
        }
    }
}

impl fmt::Display for UciOption {
    /// The `option name … type …` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } if default.is_empty() => {
                write!(f, "string default {EMPTY}")
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl std::str::FromStr for UciOption {
    type Err = ParseError;

    /// Reads a whole `option name … type …` line.
    fn from_str(line: &str) -> Result<UciOption, ParseError> {
        let (first, rest) = crate::words::split_line(line).ok_or(ParseError::Empty)?;
        let mut w = Words::new(&rest, "option");
        if first != "option" {
            return Err(w.unexpected(first, "`option name …`"));
        }
        parse_option(&mut w)
    }
}

/// The keywords of an `option` line after its name (`option name NAME type
/// spin default 1 min 0 max 9`, `... var A var B`). A name or value that
/// holds one of them as a word cannot be read back.
pub const OPTION_KEYWORDS: &[&str] = &["type", "default", "min", "max", "var"];

/// Reads the words after `option`.
pub(crate) fn parse_option(w: &mut Words) -> Result<UciOption, ParseError> {
    let name = w.name_until("type")?;
    let (mut kind, mut default, mut min, mut max, mut vars) = (None, None, None, None, Vec::new());
    while let Some(word) = w.next() {
        let value = w.text_until(|x| OPTION_KEYWORDS.contains(&x));
        match word {
            "type" => kind = Some(value),
            "default" => default = Some(value),
            "min" => min = Some(value),
            "max" => max = Some(value),
            _ => vars.push(value),
        }
    }
    let number = |keyword: &str, text: Option<String>| -> Result<i64, ParseError> {
        let text = text.ok_or_else(|| ParseError::MissingValue {
            command: "option",
            keyword: keyword.to_string(),
        })?;
        text.parse().map_err(|_| ParseError::BadNumber {
            command: "option",
            keyword: keyword.to_string(),
            value: text,
            expected: "a whole number",
        })
    };
    let kind = match kind.as_deref() {
        Some("check") => OptionKind::Check {
            default: match default.as_deref() {
                Some("true") => true,
                Some("false") | None => false,
                Some(other) => return Err(w.unexpected(other, "`true` or `false`")),
            },
        },
        Some("spin") => OptionKind::Spin {
            default: number("default", default)?,
            min: number("min", min)?,
            max: number("max", max)?,
        },
        Some("combo") => OptionKind::Combo {
            default: default.unwrap_or_default(),
            vars,
        },
        Some("button") => OptionKind::Button,
        Some("string") => OptionKind::String {
            default: default.filter(|d| d != EMPTY).unwrap_or_default(),
        },
        Some(other) => return Err(w.unexpected(other, "check, spin, combo, button or string")),
        None => {
            return Err(ParseError::MissingValue {
                command: w.command,
                keyword: "type".into(),
            })
        }
    };
    Ok(UciOption { name, kind })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn combo() -> UciOption {
        UciOption::new(
            "Analysis Contempt",
            OptionKind::Combo {
                default: "Both".into(),
                vars: vec!["Off".into(), "White".into(), "Black".into(), "Both".into()],
            },
        )
    }

    #[test]
    fn values_are_checked_against_the_type() {
        let check = UciOption::new("Ponder", OptionKind::Check { default: false });
        assert_eq!(
            check.check_value(Some("TRUE")),
            Ok(OptionValue::Check(true))
        );
        assert_eq!(
            check.check_value(Some("yes")).unwrap_err().to_string(),
            "option `Ponder` takes true or false, got `yes`"
        );
        assert_eq!(
            check.check_value(None),
            Err(OptionError::MissingValue("Ponder".into()))
        );
        assert_eq!(
            combo().check_value(Some("white")),
            Ok(OptionValue::Combo("White".into()))
        );
        assert_eq!(
            combo().check_value(Some("Grey")).unwrap_err().to_string(),
            "option `Analysis Contempt` takes one of Off, White, Black, Both, got `Grey`"
        );
        let file = UciOption::new(
            "BookFile",
            OptionKind::String {
                default: String::new(),
            },
        );
        assert_eq!(
            file.check_value(Some(" a b.bin ")),
            Ok(OptionValue::String("a b.bin".into()))
        );
        assert_eq!(
            file.check_value(Some("<empty>")),
            Ok(OptionValue::String(String::new()))
        );
        assert_eq!(
            file.check_value(None),
            Ok(OptionValue::String(String::new()))
        );
        let button = UciOption::new("Clear Hash", OptionKind::Button);
        assert_eq!(button.check_value(None), Ok(OptionValue::Button));
        assert!(combo().is_named("analysis contempt "));
        assert_eq!(
            OptionValue::String(String::new()).to_text().as_deref(),
            Some("<empty>")
        );
        assert_eq!(OptionValue::Button.to_text(), None);
    }

    #[test]
    fn declarations_round_trip() {
        for option in [
            combo(),
            UciOption::new(
                "Hash",
                OptionKind::Spin {
                    default: 16,
                    min: 1,
                    max: 1024,
                },
            ),
            UciOption::new(
                "Skill Level",
                OptionKind::Spin {
                    default: -3,
                    min: -20,
                    max: 20,
                },
            ),
            UciOption::new("Ponder", OptionKind::Check { default: true }),
            UciOption::new("Clear Hash", OptionKind::Button),
            UciOption::new(
                "SyzygyPath",
                OptionKind::String {
                    default: String::new(),
                },
            ),
            UciOption::new(
                "EvalFile",
                OptionKind::String {
                    default: "nn 1.nnue".into(),
                },
            ),
        ] {
            let line = option.to_string();
            let reply: crate::Reply = line.parse().unwrap();
            assert_eq!(reply, crate::Reply::Option(option), "{line}");
        }
    }

    #[test]
    fn bad_declarations_name_the_problem() {
        for (line, want) in [
            (
                "option type spin",
                "`option`: unexpected `type`; expected `name`",
            ),
            ("option name type spin", "`option`: `name` needs a value"),
            ("option name Hash", "`option`: `type` needs a value"),
            (
                "option name Hash type spin default 1 min 1",
                "`option`: `max` needs a value",
            ),
            (
                "option name Hash type spin default x min 1 max 2",
                "`option`: `default` expects a whole number, got `x`",
            ),
            (
                "option name Hash type dial",
                "`option`: unexpected `dial`; expected check, spin, combo, button or string",
            ),
        ] {
            assert_eq!(
                line.parse::<crate::Reply>().unwrap_err().to_string(),
                want,
                "{line}"
            );
        }
    }
}
