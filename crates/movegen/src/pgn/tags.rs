//! [`Tags`]: a game's tag pairs, in the order they were read or set.

/// The Seven Tag Roster: the tags every exported game carries, in this
/// order, before any other.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The value the writer gives a roster tag that a game lacks.
pub(crate) fn roster_default(name: &str) -> &'static str {
    match name {
        "Date" => "????.??.??",
        "Result" => "*",
        _ => "?",
    }
}

/// Tag pairs (`[Name "value"]`): an ordered list with one value per name.
///
/// ```
/// use fianchetto_movegen::pgn::Tags;
///
/// let mut tags = Tags::new();
/// tags.set("White", "Morphy");
/// tags.set("Black", "Duke Karl / Count Isouard");
/// tags.set("White", "Paul Morphy");
/// assert_eq!(tags.get("White"), Some("Paul Morphy"));
/// assert_eq!(tags.iter().map(|(n, _)| n).collect::<Vec<_>>(), ["White", "Black"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags(Vec::new())
    }

    /// The value of the tag `name` (names are case-sensitive, as in PGN).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `name` to `value`: in place if the tag exists, else at the end.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => self.0.push((name, value)),
        }
    }

    /// Removes the tag `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(i).1)
    }

    /// The tags in order, as `(name, value)`.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// How many tags there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes every tag.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl<N: Into<String>, V: Into<String>> FromIterator<(N, V)> for Tags {
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Tags {
        let mut tags = Tags::new();
        for (n, v) in iter {
            tags.set(n, v);
        }
        tags
    }
}
