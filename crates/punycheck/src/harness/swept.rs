//! What a sweep of every code point found, as the baseline, the causes
//! and the reports hold it ([`super::sweep`] runs the sweep): sets of code
//! points written as ranges (`U+A7F1`, `U+13F8..U+13FD`), where a cause
//! showed ([`Swept`]), and what a sweep asked ([`Summary`]). Below the
//! sweep, so that what records and reports it does not depend on what
//! runs it.

use std::fmt;

use serde::Serialize;

/// Code points as ascending, disjoint, inclusive ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(into = "Vec<String>")]
pub struct Ranges(Vec<(u32, u32)>);

impl Ranges {
    /// The ranges of `code_points` (ascending, each once), contiguous code
    /// points merged, and two ranges merged across a gap that holds only
    /// code points `bridged` says were not asked (the surrogates, where
    /// the declared domain leaves them out).
    pub fn of(code_points: impl IntoIterator<Item = u32>, bridged: impl Fn(u32) -> bool) -> Self {
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for cp in code_points {
            match ranges.last_mut() {
                Some((_, end)) if cp <= end.saturating_add(1) => *end = (*end).max(cp),
                Some((_, end)) if (*end + 1..cp).all(&bridged) => *end = cp,
                _ => ranges.push((cp, cp)),
            }
        }
        Ranges(ranges)
    }

    /// Parses ranges as [`Ranges::strings`] writes them (`U+A7F1`,
    /// `U+13F8..U+13FD`, `u+` too), in any order.
    pub fn parse<'a>(texts: impl IntoIterator<Item = &'a String>) -> Result<Self, String> {
        let one = |text: &str| {
            let digits = text
                .strip_prefix("U+")
                .or_else(|| text.strip_prefix("u+"))
                .ok_or_else(|| format!("{text:?} is not a code point U+XXXX"))?;
            u32::from_str_radix(digits, 16)
                .ok()
                .filter(|&cp| cp <= 0x10FFFF)
                .ok_or_else(|| format!("{text:?} is not a code point up to U+10FFFF"))
        };
        let mut ranges = Vec::new();
        for text in texts {
            let (from, to) = match text.split_once("..") {
                Some((from, to)) => (one(from)?, one(to)?),
                None => (one(text)?, one(text)?),
            };
            if from > to {
                return Err(format!("{text:?} ends before it begins"));
            }
            ranges.push((from, to));
        }
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (from, to) in ranges {
            match merged.last_mut() {
                Some((_, end)) if from <= end.saturating_add(1) => *end = (*end).max(to),
                _ => merged.push((from, to)),
            }
        }
        Ok(Ranges(merged))
    }

    /// Each range as text: `U+A7F1`, or `U+13F8..U+13FD`.
    pub fn strings(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|&(from, to)| {
                if from == to {
                    format!("U+{from:04X}")
                } else {
                    format!("U+{from:04X}..U+{to:04X}")
                }
            })
            .collect()
    }

    /// The ranges, ascending.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.0
    }

    /// How many code points they span.
    pub fn len(&self) -> u64 {
        self.0.iter().map(|&(a, b)| u64::from(b - a) + 1).sum()
    }

    /// Whether they hold none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether they hold `cp`.
    pub fn contains(&self, cp: u32) -> bool {
        let k = self.0.partition_point(|&(_, to)| to < cp);
        self.0.get(k).is_some_and(|&(from, _)| from <= cp)
    }

    /// Whether every code point of `self` is in `other`.
    pub fn within(&self, other: &Ranges) -> bool {
        self.0.iter().all(|&(from, to)| {
            let k = other.0.partition_point(|&(_, end)| end < from);
            other.0.get(k).is_some_and(|&(a, b)| a <= from && to <= b)
        })
    }
}

impl From<Ranges> for Vec<String> {
    fn from(ranges: Ranges) -> Self {
        ranges.strings()
    }
}

impl fmt::Display for Ranges {
    /// At most [`SHOWN`] ranges, then how many more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let strings = self.strings();
        f.write_str(&strings[..strings.len().min(SHOWN)].join(", "))?;
        if strings.len() > SHOWN {
            write!(f, " and {} more ranges", strings.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// How many ranges a line of the text report shows (the JSON report and
/// the baseline hold them all).
pub const SHOWN: usize = 12;

/// Where the sweep met a cause ([`super::causes::Cause::swept`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Swept {
    /// The code points that showed it.
    pub ranges: Ranges,
    /// How many code points that is.
    pub code_points: u64,
    /// The contexts it showed in (`super::sweep::Context::name`), in their order.
    pub contexts: Vec<&'static str>,
}

/// What a sweep asked ([`super::report::CheckReport::sweep`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// The code points swept, `U+0000..U+10FFFF`.
    pub span: String,
    /// The contexts, each as its name and its label (`middle: aXb`).
    pub contexts: Vec<String>,
    /// Code points asked in at least one question.
    pub code_points: u64,
    /// Code points not asked in any context: outside what it declares
    /// (its domain: the surrogates for Unicode scalar values; its channel:
    /// the controls, for a program that answers no escaped question), or
    /// outside the codec (the four full stops, for the label codec).
    pub outside: u64,
    /// Code points not reached within `--seconds` (or before an
    /// interruption, or before the hangs stopped it).
    pub not_reached: u64,
    /// Questions to encode (ToASCII) asked.
    pub encode: u64,
    /// Questions to decode (ToUnicode) asked.
    pub decode: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_code_points_are_one_range_and_unasked_gaps_are_bridged() {
        let surrogate = |cp: u32| (0xD800..=0xDFFF).contains(&cp);
        let ranges = Ranges::of([0x41, 0x42, 0x43, 0x45, 0xD7FF, 0xE000], surrogate);
        assert_eq!(
            ranges.strings(),
            ["U+0041..U+0043", "U+0045", "U+D7FF..U+E000"]
        );
        assert_eq!(ranges.len(), 3 + 1 + 0x802);
        assert!(ranges.contains(0x42) && !ranges.contains(0x44) && ranges.contains(0xD900));
    }

    #[test]
    fn ranges_parse_back_and_cover_what_they_hold() {
        let recorded = Ranges::parse(&["U+13F8..U+13FD".to_string(), "U+A7F1".into()]).unwrap();
        assert_eq!(recorded.strings(), ["U+13F8..U+13FD", "U+A7F1"]);
        let inside = Ranges::of([0x13F9, 0x13FA, 0xA7F1], |_| false);
        assert!(inside.within(&recorded));
        // A new code point elsewhere is not hidden by the recorded ranges.
        let beside = Ranges::of([0x13F9, 0xA7F2], |_| false);
        assert!(!beside.within(&recorded));
        assert!(Ranges::parse(&["U+110000".to_string()]).is_err());
        assert!(Ranges::parse(&["U+0042..U+0041".to_string()]).is_err());
        assert!(Ranges::parse(&["A7F1".to_string()]).is_err());
    }

    #[test]
    fn a_long_list_is_shown_cut_with_its_count() {
        let many = Ranges::of((0..40).map(|k| k * 2), |_| false);
        let shown = many.to_string();
        assert!(shown.ends_with(", U+0016 and 28 more ranges"), "{shown}");
    }
}
