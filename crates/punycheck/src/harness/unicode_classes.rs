//! Classes of code points drawn from the references' own tables, so that
//! the label and name generators ask what each rule reads, and a check
//! can say how many of them it asked.
//!
//! A class is one value of one property, read from ICU4X's data (the
//! tables the references look up; see [`crate::label`]) or from the files
//! of [`crate::unicode`], never from a list of code points written here:
//!
//! - **UTS #46 status**: `valid`, `mapped`, `ignored`, `deviation`,
//!   `disallowed`, and the two that UseSTD3ASCIIRules decides as revision 36
//!   models them (criterion 7 on ASCII after mapping): `disallowed_STD3_valid`
//!   (an ASCII code point other than a-z, 0-9 and hyphen-minus: `_`, a
//!   control, the space) and `disallowed_STD3_mapped` (one mapped to such
//!   a code point, `＿` or `⑴`), each read from ICU4X's UTS #46 mapper;
//! - **case**, where a case mapping and UTS #46's differ:
//!   `valid_changes_when_lowercased` (valid, yet Changes_When_Lowercased:
//!   Cherokee U+13A0 to U+13F5), `mapped_to_uppercase` (mapped to a code
//!   point that changes when lowercased: Cherokee U+AB70 to U+ABBF),
//!   `uppercase_younger_than_its_mapping` (mapped, changes when
//!   lowercased, and assigned after what it maps to: Georgian Mtavruli,
//!   U+1E9E), `mapped_though_lowercase` (Lowercase, yet mapped: `ſ`, `ª`);
//! - every value of **Bidi_Class**, **Joining_Type** and
//!   **General_Category** (but Cs: no label holds a surrogate), every
//!   nonzero **Canonical_Combining_Class** (Virama among them), each as
//!   ICU4X's data holds them;
//! - the **IDNA2008 derived property** (RFC 5892 section 3, as
//!   [`crate::label::idna2008::property`] computes it);
//! - the **scripts RFC 5892's CONTEXTO rules read** (Greek, Hebrew,
//!   Hiragana, Katakana, Han) and the Arabic script's digits, by Bidi_Class
//!   (Arabic-Indic AN, Extended Arabic-Indic EN);
//! - **NFC_Quick_Check** `No` (NFC changes the code point alone) and
//!   `Maybe` (the second of a canonical composition);
//! - **Age**, each Unicode version of `unicode_age.txt`, and each version
//!   whose **UTS #46 mapping changes** (`uts46_changes.txt`) changed a code
//!   point assigned before it.
//!
//! A new Unicode version in the data brings its own classes (its Age, a
//! new Bidi_Class value) without a line changed here.
//!
//! # Size
//!
//! Over 800 lines: eleven properties, each enumerated from its own data
//! (an ICU4X map's ranges, the UTS #46 mapper over every assigned code
//! point, the Age and mapping-change files) into one table that the
//! generators draw from and the count reads, and the count itself; a
//! sixth is the unit tests that hold the classes to Unicode's data.
//!
//! [`super::class_plan::Plan`] chooses, for each class, a question the
//! codec's reference accepts (a label holding one of its code points in a
//! context where it is valid, if any of a few members in a dozen contexts
//! is) and one it refuses, so that a check asks every class both ways in
//! its first questions; [`Coverage`] counts what a check actually asked.

use std::sync::OnceLock;

use icu_normalizer::ComposingNormalizerBorrowed;
use icu_normalizer::properties::{
    CanonicalCompositionBorrowed, CanonicalDecompositionBorrowed, Decomposed,
};
use icu_normalizer::uts46::Uts46MapperBorrowed;
use icu_properties::props::{
    BidiClass, CanonicalCombiningClass, ChangesWhenLowercased, GeneralCategory, JoiningType,
    Lowercase, NoncharacterCodePoint, Script,
};
use icu_properties::{CodePointMapData, CodePointSetData, PropertyNamesShort};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::label::idna2008;
use crate::label::uts46::DEVIATIONS;
use crate::vocabulary::{Expected, Request};

/// The property a class is a value of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Property {
    /// The IDNA Mapping Table's status (UTS #46 section 5).
    Status,
    /// Where a case mapping and UTS #46's mapping differ.
    Case,
    /// Bidi_Class.
    BidiClass,
    /// Joining_Type.
    JoiningType,
    /// Canonical_Combining_Class, nonzero.
    CombiningClass,
    /// General_Category.
    GeneralCategory,
    /// The IDNA2008 derived property (RFC 5892 section 3).
    Idna2008,
    /// A script an RFC 5892 CONTEXTO rule reads.
    Script,
    /// NFC_Quick_Check.
    NfcQuickCheck,
    /// Age: the version that assigned the code point.
    Age,
    /// The version whose IdnaMappingTable changed the code point's entry.
    MappingChange,
}

impl Property {
    /// Its name as the report writes it (`Bidi_Class`).
    pub fn name(self) -> &'static str {
        match self {
            Property::Status => "UTS46_Status",
            Property::Case => "Case",
            Property::BidiClass => "Bidi_Class",
            Property::JoiningType => "Joining_Type",
            Property::CombiningClass => "Canonical_Combining_Class",
            Property::GeneralCategory => "General_Category",
            Property::Idna2008 => "IDNA2008",
            Property::Script => "Script",
            Property::NfcQuickCheck => "NFC_Quick_Check",
            Property::Age => "Age",
            Property::MappingChange => "UTS46_Mapping_Changed",
        }
    }
}

/// One class: a value of a property and the code points that have it.
#[derive(Clone, Debug)]
pub struct Class {
    /// The property.
    pub property: Property,
    /// The value, as Unicode's data names it (`AL`, `Virama`, `16.0`).
    pub value: String,
    /// Its code points, as sorted ranges.
    pub(super) members: Vec<(u32, u32)>,
    /// Those of them whose UTS #46 status is valid or deviation.
    pub(super) valid_members: Vec<(u32, u32)>,
}

impl Class {
    /// `Bidi_Class=AL`.
    pub fn name(&self) -> String {
        format!("{}={}", self.property.name(), self.value)
    }

    /// How many code points it holds.
    pub fn len(&self) -> u64 {
        count(&self.members)
    }

    /// Whether it holds none (never, for a class of [`table`]).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether `cp` is one of its code points.
    pub fn contains(&self, cp: u32) -> bool {
        find(&self.members, cp)
    }
}

fn count(ranges: &[(u32, u32)]) -> u64 {
    ranges.iter().map(|&(a, b)| u64::from(b - a) + 1).sum()
}

fn find(ranges: &[(u32, u32)], cp: u32) -> bool {
    let at = ranges.partition_point(|&(_, last)| last < cp);
    ranges.get(at).is_some_and(|&(first, _)| first <= cp)
}

/// A code point drawn uniformly from `ranges` (not empty).
pub(super) fn draw(rng: &mut ChaCha8Rng, ranges: &[(u32, u32)]) -> u32 {
    let mut k = rng.random_range(0..count(ranges));
    for &(a, b) in ranges {
        let n = u64::from(b - a) + 1;
        if k < n {
            // k < n <= 0x110000.
            return a + k as u32;
        }
        k -= n;
    }
    ranges[0].0
}

/// The classes of every property, and for each property a partition of
/// the code points into its classes.
pub struct Table {
    /// Every class, in the order of [`Property`], then by value.
    pub classes: Vec<Class>,
    /// For each property but [`Property::MappingChange`], sorted ranges
    /// with the index of their class.
    partitions: Vec<Vec<(u32, u32, usize)>>,
    /// The mapping changes: range and class.
    changes: Vec<(u32, u32, usize)>,
    /// Letters valid everywhere: see [`Table::letter`].
    letters: Vec<Vec<(u32, u32)>>,
    /// Right-to-left letters valid everywhere: see [`Table::rtl_letter`].
    rtl_letters: Vec<(u32, u32)>,
}

/// Builds sorted ranges from code points given in increasing order.
#[derive(Default)]
struct Ranges(Vec<(u32, u32)>);

impl Ranges {
    fn push(&mut self, cp: u32) {
        match self.0.last_mut() {
            Some((_, last)) if *last + 1 == cp => *last = cp,
            _ => self.0.push((cp, cp)),
        }
    }
}

/// The UTS #46 status of `c` as the classes name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Valid,
    Std3Valid,
    Mapped,
    Std3Mapped,
    Ignored,
    Deviation,
    Disallowed,
}

const STATUSES: [(Status, &str); 7] = [
    (Status::Valid, "valid"),
    (Status::Mapped, "mapped"),
    (Status::Ignored, "ignored"),
    (Status::Deviation, "deviation"),
    (Status::Disallowed, "disallowed"),
    (Status::Std3Valid, "disallowed_STD3_valid"),
    (Status::Std3Mapped, "disallowed_STD3_mapped"),
];

/// Whether `c` is what UseSTD3ASCIIRules refuses: ASCII other than a-z,
/// 0-9, hyphen-minus (and the full stop, which separates labels).
fn std3_refuses(c: char) -> bool {
    c.is_ascii() && !matches!(c, 'a'..='z' | '0'..='9' | '-' | '.')
}

/// `c`'s status, and what it maps to (for a mapped one).
fn status(mapper: &Uts46MapperBorrowed<'_>, c: char) -> (Status, Vec<char>) {
    if DEVIATIONS.contains(&c) {
        return (Status::Deviation, vec![c]);
    }
    let mapped: Vec<char> = mapper.map_normalize(std::iter::once(c)).collect();
    let status =
        if c == char::REPLACEMENT_CHARACTER || mapped.contains(&char::REPLACEMENT_CHARACTER) {
            Status::Disallowed
        } else if mapped.is_empty() {
            Status::Ignored
        } else if mapped == [c] {
            if std3_refuses(c) {
                Status::Std3Valid
            } else {
                Status::Valid
            }
        } else if mapped.iter().any(|&m| std3_refuses(m)) {
            Status::Std3Mapped
        } else {
            Status::Mapped
        };
    (status, mapped)
}

const CASES: [&str; 4] = [
    "valid_changes_when_lowercased",
    "mapped_to_uppercase",
    "uppercase_younger_than_its_mapping",
    "mapped_though_lowercase",
];

/// The scripts RFC 5892 Appendix A.4 to A.7 read.
const CONTEXTO_SCRIPTS: [(Script, &str); 5] = [
    (Script::Greek, "Greek"),
    (Script::Hebrew, "Hebrew"),
    (Script::Hiragana, "Hiragana"),
    (Script::Katakana, "Katakana"),
    (Script::Han, "Han"),
];

/// The classes, computed once from the data (a scan of the assigned code
/// points: a tenth of a second in a release build).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Table {
    let mapper = Uts46MapperBorrowed::new();
    let gc = CodePointMapData::<GeneralCategory>::new();
    let bidi = CodePointMapData::<BidiClass>::new();
    let script = CodePointMapData::<Script>::new();
    let nonchar = CodePointSetData::new::<NoncharacterCodePoint>();
    let cwl = CodePointSetData::new::<ChangesWhenLowercased>();
    let lower = CodePointSetData::new::<Lowercase>();
    let nfc = ComposingNormalizerBorrowed::new_nfc();
    let decompose = CanonicalDecompositionBorrowed::new();
    let compose = CanonicalCompositionBorrowed::new();

    let mut status_ranges: Vec<Ranges> = STATUSES.iter().map(|_| Ranges::default()).collect();
    let mut case_ranges: Vec<Ranges> = CASES.iter().map(|_| Ranges::default()).collect();
    let mut idna_ranges: Vec<Ranges> = (0..5).map(|_| Ranges::default()).collect();
    let mut nfc_no = Ranges::default();
    let mut nfc_maybe: Vec<u32> = Vec::new();
    let mut valid = Ranges::default();
    let mut letters: std::collections::BTreeMap<Script, Ranges> = Default::default();
    let mut rtl_letters = Ranges::default();
    let idna_index = |p: idna2008::Property| match p {
        idna2008::Property::Pvalid => 0,
        idna2008::Property::ContextJ => 1,
        idna2008::Property::ContextO => 2,
        idna2008::Property::Disallowed => 3,
        idna2008::Property::Unassigned => 4,
    };
    let v3_2 = crate::unicode::UnicodeVersion { major: 3, minor: 2 };
    for cp in 0..=0x10_FFFF_u32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        let category = gc.get(c);
        if category == GeneralCategory::Unassigned && !nonchar.contains(c) {
            status_ranges[4].push(cp);
            idna_ranges[4].push(cp);
            continue;
        }
        if category == GeneralCategory::PrivateUse {
            status_ranges[4].push(cp);
            idna_ranges[3].push(cp);
            continue;
        }
        let (st, mapped) = status(&mapper, c);
        let at = STATUSES.iter().position(|&(s, _)| s == st).unwrap_or(4);
        status_ranges[at].push(cp);
        if matches!(st, Status::Valid | Status::Deviation) {
            valid.push(cp);
        }
        let idna = idna2008::property(c);
        idna_ranges[idna_index(idna)].push(cp);
        // Case: the first that applies.
        let mapped_kind = matches!(st, Status::Mapped | Status::Std3Mapped);
        let case = if st == Status::Valid && cwl.contains(c) {
            Some(0)
        } else if mapped_kind && mapped.iter().any(|&m| cwl.contains(m)) {
            Some(1)
        } else if mapped_kind
            && cwl.contains(c)
            && !lower.contains(c)
            && crate::unicode::age(cp).is_some_and(|age| {
                mapped
                    .iter()
                    .all(|&m| crate::unicode::age(u32::from(m)).is_some_and(|a| a < age))
            })
        {
            Some(2)
        } else if mapped_kind && lower.contains(c) {
            Some(3)
        } else {
            None
        };
        if let Some(k) = case {
            case_ranges[k].push(cp);
        }
        let mut text = [0u8; 4];
        if !nfc.is_normalized(c.encode_utf8(&mut text)) {
            nfc_no.push(cp);
        }
        if let Decomposed::Expansion(a, b) = decompose.decompose(c)
            && compose.compose(a, b) == Some(c)
        {
            nfc_maybe.push(u32::from(b));
        }
        // Non-ASCII letters valid under every profile: valid in UTS #46, PVALID in
        // IDNA2008, assigned by Unicode 3.2 (IDNA2003's), not a mark, and
        // non-joining: by script, left to right or right to left.
        if cp > 0x7F
            && st == Status::Valid
            && idna == idna2008::Property::Pvalid
            && matches!(
                category,
                GeneralCategory::LowercaseLetter | GeneralCategory::OtherLetter
            )
            && crate::unicode::age(cp).is_some_and(|age| age <= v3_2)
        {
            match bidi.get(c) {
                BidiClass::LeftToRight => letters.entry(script.get(c)).or_default().push(cp),
                BidiClass::RightToLeft | BidiClass::ArabicLetter => rtl_letters.push(cp),
                _ => {}
            }
        }
    }
    nfc_maybe.sort_unstable();
    nfc_maybe.dedup();
    let mut maybe = Ranges::default();
    for cp in nfc_maybe {
        maybe.push(cp);
    }
    let valid = valid.0;

    let mut classes: Vec<Class> = Vec::new();
    let mut partitions: Vec<Vec<(u32, u32, usize)>> = Vec::new();
    let mut add_family =
        |classes: &mut Vec<Class>, property: Property, family: Vec<(String, Vec<(u32, u32)>)>| {
            let mut partition = Vec::new();
            for (value, members) in family {
                if members.is_empty() {
                    continue;
                }
                let index = classes.len();
                partition.extend(members.iter().map(|&(a, b)| (a, b, index)));
                classes.push(Class {
                    property,
                    valid_members: intersect(&members, &valid),
                    value,
                    members,
                });
            }
            partition.sort_unstable();
            partitions.push(partition);
        };
    add_family(
        &mut classes,
        Property::Status,
        STATUSES
            .iter()
            .zip(status_ranges)
            .map(|(&(_, name), r)| (name.to_string(), r.0))
            .collect(),
    );
    add_family(
        &mut classes,
        Property::Case,
        CASES
            .iter()
            .zip(case_ranges)
            .map(|(name, r)| (name.to_string(), r.0))
            .collect(),
    );
    add_family(
        &mut classes,
        Property::BidiClass,
        map_family::<BidiClass>(|_| true, short_name),
    );
    add_family(
        &mut classes,
        Property::JoiningType,
        map_family::<JoiningType>(|_| true, short_name),
    );
    add_family(
        &mut classes,
        Property::CombiningClass,
        map_family::<CanonicalCombiningClass>(
            |v| v != CanonicalCombiningClass::NotReordered,
            combining_class_name,
        ),
    );
    add_family(
        &mut classes,
        Property::GeneralCategory,
        map_family::<GeneralCategory>(|v| v != GeneralCategory::Surrogate, short_name),
    );
    add_family(
        &mut classes,
        Property::Idna2008,
        ["PVALID", "CONTEXTJ", "CONTEXTO", "DISALLOWED", "UNASSIGNED"]
            .iter()
            .zip(idna_ranges)
            .map(|(name, r)| (name.to_string(), r.0))
            .collect(),
    );
    // The CONTEXTO scripts, and the Arabic script's decimal digits by
    // Bidi_Class (RFC 5892 A.8 and A.9).
    let mut scripts: Vec<(String, Vec<(u32, u32)>)> = CONTEXTO_SCRIPTS
        .iter()
        .map(|&(s, name)| {
            let ranges = CodePointMapData::<Script>::new()
                .iter_ranges_for_value(s)
                .map(|r| (*r.start(), *r.end()))
                .collect();
            (name.to_string(), ranges)
        })
        .collect();
    for (class, name) in [
        (BidiClass::ArabicNumber, "Arabic_digits_AN"),
        (BidiClass::EuropeanNumber, "Arabic_digits_EN"),
    ] {
        let mut digits = Ranges::default();
        for r in CodePointMapData::<Script>::new().iter_ranges_for_value(Script::Arabic) {
            for cp in r {
                if let Some(c) = char::from_u32(cp)
                    && gc.get(c) == GeneralCategory::DecimalNumber
                    && bidi.get(c) == class
                {
                    digits.push(cp);
                }
            }
        }
        scripts.push((name.to_string(), digits.0));
    }
    add_family(&mut classes, Property::Script, scripts);
    add_family(
        &mut classes,
        Property::NfcQuickCheck,
        vec![("No".to_string(), nfc_no.0), ("Maybe".to_string(), maybe.0)],
    );
    let mut ages: std::collections::BTreeMap<crate::unicode::UnicodeVersion, Vec<(u32, u32)>> =
        Default::default();
    for &(first, last, version) in crate::unicode::age_ranges() {
        ages.entry(version).or_default().push((first, last));
    }
    add_family(
        &mut classes,
        Property::Age,
        ages.into_iter()
            .map(|(v, mut r)| {
                r.sort_unstable();
                (v.to_string(), r)
            })
            .collect(),
    );
    // Mapping changes may overlap across versions: no partition.
    let mut by_version: std::collections::BTreeMap<
        crate::unicode::UnicodeVersion,
        Vec<(u32, u32)>,
    > = Default::default();
    for change in crate::unicode::mapping_changes() {
        by_version
            .entry(change.since)
            .or_default()
            .push((change.first, change.last));
    }
    let mut changes = Vec::new();
    for (version, mut members) in by_version {
        members.sort_unstable();
        let index = classes.len();
        changes.extend(members.iter().map(|&(a, b)| (a, b, index)));
        classes.push(Class {
            property: Property::MappingChange,
            value: version.to_string(),
            valid_members: intersect(&members, &valid),
            members,
        });
    }
    Table {
        classes,
        partitions,
        changes,
        letters: letters
            .into_values()
            .map(|r| r.0)
            .filter(|r| !r.is_empty())
            .collect(),
        rtl_letters: rtl_letters.0,
    }
}

/// A Canonical_Combining_Class value as PropertyValueAliases.txt names
/// it: its long name, or `CCC` and its number for the fixed-position
/// classes.
fn combining_class_name(v: CanonicalCombiningClass) -> String {
    let name = match v.0 {
        1 => "Overlay",
        6 => "Han_Reading",
        7 => "Nukta",
        8 => "Kana_Voicing",
        9 => "Virama",
        200 => "Attached_Below_Left",
        202 => "Attached_Below",
        214 => "Attached_Above",
        216 => "Attached_Above_Right",
        218 => "Below_Left",
        220 => "Below",
        222 => "Below_Right",
        224 => "Left",
        226 => "Right",
        228 => "Above_Left",
        230 => "Above",
        232 => "Above_Right",
        233 => "Double_Below",
        234 => "Double_Above",
        240 => "Iota_Subscript",
        n => return format!("CCC{n}"),
    };
    name.to_string()
}

fn short_name<T: icu_properties::props::NamedEnumeratedProperty + std::fmt::Debug>(v: T) -> String {
    PropertyNamesShort::<T>::new()
        .get(v)
        .map_or_else(|| format!("{v:?}"), str::to_string)
}

/// The classes of an enumerated property: each value that ICU4X's map
/// holds and `keep` keeps, with its code points (surrogates left out).
fn map_family<T>(
    keep: impl Fn(T) -> bool,
    name: impl Fn(T) -> String,
) -> Vec<(String, Vec<(u32, u32)>)>
where
    T: icu_properties::props::EnumeratedProperty + Ord + Copy,
{
    let mut by_value: std::collections::BTreeMap<T, Vec<(u32, u32)>> = Default::default();
    for range in CodePointMapData::<T>::new().iter_ranges() {
        if !keep(range.value) {
            continue;
        }
        let (a, b) = (*range.range.start(), *range.range.end());
        let ranges = by_value.entry(range.value).or_default();
        // Surrogates are no label's.
        if a <= 0xD7FF {
            ranges.push((a, b.min(0xD7FF)));
        }
        if b >= 0xE000 {
            ranges.push((a.max(0xE000), b));
        }
    }
    by_value
        .into_iter()
        .map(|(v, mut r)| {
            r.sort_unstable();
            r.dedup();
            (name(v), r)
        })
        .collect()
}

/// The code points in both sorted range lists.
fn intersect(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        let lo = a[i].0.max(b[j].0);
        let hi = a[i].1.min(b[j].1);
        if lo <= hi {
            out.push((lo, hi));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

impl Table {
    /// The classes `cp` is in, added to `out` (not deduplicated).
    pub fn classes_of(&self, cp: u32, out: &mut Vec<usize>) {
        for partition in &self.partitions {
            let at = partition.partition_point(|&(_, last, _)| last < cp);
            if let Some(&(first, _, class)) = partition.get(at)
                && first <= cp
            {
                out.push(class);
            }
        }
        out.extend(
            self.changes
                .iter()
                .filter(|&&(a, b, _)| (a..=b).contains(&cp))
                .map(|&(_, _, class)| class),
        );
    }

    /// A non-ASCII letter valid under every profile: UTS #46 valid, IDNA2008
    /// PVALID, General_Category Ll or Lo, assigned by Unicode 3.2 (so that
    /// IDNA2003 knows it), left to right; its script drawn first, so that
    /// each script is asked as often as another, then a letter of it.
    pub fn letter(&self, rng: &mut ChaCha8Rng) -> u32 {
        let script = &self.letters[rng.random_range(0..self.letters.len())];
        draw(rng, script)
    }

    /// A right-to-left letter (Bidi_Class R or AL) valid under every
    /// profile, as [`Table::letter`] but for the direction.
    pub fn rtl_letter(&self, rng: &mut ChaCha8Rng) -> u32 {
        draw(rng, &self.rtl_letters)
    }

    /// A code point of a class drawn uniformly, then drawn uniformly from
    /// it: what breaks a label, or does not, in one rule or another.
    pub fn any_class_member(&self, rng: &mut ChaCha8Rng) -> u32 {
        let class = &self.classes[rng.random_range(0..self.classes.len())];
        draw(rng, &class.members)
    }
}

/// What a check asked of each class: in a question the reference
/// accepted, and in one it refused.
#[derive(Clone, Debug)]
pub struct Coverage {
    pub(super) accepted: Vec<bool>,
    pub(super) refused: Vec<bool>,
}

impl Default for Coverage {
    fn default() -> Self {
        let n = table().classes.len();
        Coverage {
            accepted: vec![false; n],
            refused: vec![false; n],
        }
    }
}

/// The code points a question of the label or domain codec holds: those
/// to encode, or the text to decode with each `xn--` label's Punycode
/// decoded.
pub fn code_points_of(request: &Request) -> Vec<u32> {
    match request {
        Request::Encode { code_points, .. } => code_points.clone(),
        Request::Decode(bytes) => {
            let text = String::from_utf8_lossy(bytes);
            let mut out = Vec::new();
            for label in text.split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}']) {
                out.extend(label.chars().map(u32::from));
                let lower = label.to_ascii_lowercase();
                if let Some(payload) = lower.strip_prefix("xn--")
                    && let Ok(decoded) = crate::punycode::decode(payload.as_bytes())
                {
                    out.extend(decoded.code_points);
                }
            }
            out
        }
    }
}

impl Coverage {
    /// Counts `request`, which the reference answered `reference`.
    pub fn observe(&mut self, request: &Request, reference: &Expected) {
        let accepted = !matches!(reference, Expected::Error(_));
        let table = table();
        let mut classes = Vec::new();
        for cp in code_points_of(request) {
            table.classes_of(cp, &mut classes);
        }
        let seen = if accepted {
            &mut self.accepted
        } else {
            &mut self.refused
        };
        for class in classes {
            seen[class] = true;
        }
    }

    /// How many classes were asked both ways, where `accepting` says
    /// which have a context the reference accepts (the others are asked
    /// refused only).
    pub fn asked(&self, accepting: &[bool]) -> ClassesAsked {
        let table = table();
        let mut asked = 0;
        let mut not_asked = Vec::new();
        for (k, class) in table.classes.iter().enumerate() {
            let needs_accepted = accepting.get(k).copied().unwrap_or(true);
            let mut missing = Vec::new();
            if needs_accepted && !self.accepted[k] {
                missing.push("accepted");
            }
            if !self.refused[k] {
                missing.push("refused");
            }
            if missing.is_empty() {
                asked += 1;
            } else {
                not_asked.push(format!("{} ({})", class.name(), missing.join(", ")));
            }
        }
        ClassesAsked {
            asked,
            total: table.classes.len(),
            refused_only: accepting.iter().filter(|&&a| !a).count(),
            not_asked,
        }
    }
}

/// How many of the classes a check asked both ways.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassesAsked {
    /// Classes asked both ways: in a question the reference accepted
    /// (where the class has such a context) and in one it refused.
    pub asked: usize,
    /// Every class of the tables.
    pub total: usize,
    /// Classes that no context tried makes valid under the profile
    /// (disallowed code points, and under IDNA2008 mapped ones): asked
    /// refused only.
    pub refused_only: usize,
    /// Each class not asked both ways, with the way it lacks
    /// (`Bidi_Class=LRE (refused)`).
    pub not_asked: Vec<String>,
}

impl ClassesAsked {
    /// `Unicode classes: 187 of 187 asked, each both ways (...)`.
    pub fn line(&self) -> String {
        let mut line = format!(
            "Unicode classes: {} of {} asked, each both ways ({} with no context the reference accepts: asked refused)",
            self.asked, self.total, self.refused_only
        );
        if !self.not_asked.is_empty() {
            let shown: Vec<&str> = self.not_asked.iter().take(8).map(String::as_str).collect();
            line += &format!("; not asked: {}", shown.join(", "));
            if self.not_asked.len() > shown.len() {
                line += &format!(" and {} more", self.not_asked.len() - shown.len());
            }
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_classes_are_the_datas() {
        let table = table();
        let names: Vec<String> = table.classes.iter().map(Class::name).collect();
        for name in [
            "UTS46_Status=valid",
            "UTS46_Status=ignored",
            "UTS46_Status=deviation",
            "UTS46_Status=disallowed_STD3_valid",
            "UTS46_Status=disallowed_STD3_mapped",
            "Bidi_Class=AN",
            "Bidi_Class=NSM",
            "Bidi_Class=PDI",
            "Joining_Type=T",
            "Canonical_Combining_Class=Virama",
            "General_Category=Mn",
            "IDNA2008=CONTEXTO",
            "Script=Hebrew",
            "NFC_Quick_Check=Maybe",
            "Age=1.1",
            "Age=18.0",
            "UTS46_Mapping_Changed=15.1",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        assert!(!names.iter().any(|n| n == "General_Category=Cs"));
        let class = |name: &str| {
            table
                .classes
                .iter()
                .find(|c| c.name() == name)
                .unwrap_or_else(|| panic!("{name}"))
        };
        // Cherokee: valid capitals whose small letters map to them.
        assert!(class("Case=valid_changes_when_lowercased").contains(0x13A0));
        assert!(class("Case=mapped_to_uppercase").contains(0xAB70));
        assert!(class("Case=uppercase_younger_than_its_mapping").contains(0x1C90));
        assert!(class("Case=uppercase_younger_than_its_mapping").contains(0x1E9E));
        assert!(class("Case=mapped_though_lowercase").contains(0x017F));
        assert!(class("UTS46_Status=ignored").contains(0x00AD));
        assert!(class("UTS46_Status=deviation").contains(0x00DF));
        assert!(class("UTS46_Status=disallowed_STD3_valid").contains(0x5F));
        assert!(class("UTS46_Status=disallowed_STD3_mapped").contains(0xFF3F));
        assert!(class("UTS46_Status=mapped").contains(0x41));
        assert!(class("NFC_Quick_Check=No").contains(0x212B));
        assert!(class("NFC_Quick_Check=Maybe").contains(0x0301));
        assert!(class("Script=Arabic_digits_AN").contains(0x0660));
        assert!(class("Script=Arabic_digits_EN").contains(0x06F0));
        assert!(class("Canonical_Combining_Class=Virama").contains(0x094D));
        // Each code point's classes: one per property it has a class of.
        let mut of = Vec::new();
        table.classes_of(0x13A0, &mut of);
        let of: Vec<String> = of.iter().map(|&k| table.classes[k].name()).collect();
        for name in [
            "UTS46_Status=valid",
            "Bidi_Class=L",
            "General_Category=Lu",
            "Age=3.0",
        ] {
            assert!(of.iter().any(|n| n == name), "{name} in {of:?}");
        }
    }

    #[test]
    fn letters_are_valid_under_every_profile() {
        use crate::label::{self, LabelProfile, LabelRules};
        let table = table();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..3000 {
            let cp = table.letter(&mut rng);
            for rules in [
                LabelRules::Uts46,
                LabelRules::Idna2008,
                LabelRules::Idna2003,
            ] {
                let profile = LabelProfile {
                    rules,
                    ..LabelProfile::DEFAULT
                };
                assert!(
                    label::to_ascii(profile, &[0x61, cp]).is_ok(),
                    "U+{cp:04X} under {rules:?}: {:?}",
                    label::to_ascii(profile, &[0x61, cp])
                );
            }
        }
    }
}
