//! UTS #46 (Unicode IDNA Compatibility Processing), revision 36 (Unicode
//! 18.0.0, 2026-08-31: "Reissued for Unicode 18.0.0", its Modifications
//! say), for one label, with the caller's seven flags in [`Switches`].
//! Its text of sections 4 to 4.3 is revision 33's (Unicode 16.0.0) but for
//! the words: revision 31 (Unicode 15.1) deprecated Transitional
//! Processing and added IgnoreInvalidPunycode, and revision 33 added item 3
//! of step 4 (an `xn--` label that decodes to nothing or to ASCII only is
//! an error) and made UseSTD3ASCIIRules a check of the validity criteria
//! alone (section 4.1.1), as jsdom/tr46's commits 39e16f8 and 41bb64e read
//! those revisions' Modifications.
//!
//! Section 4, Processing, applied to one label:
//!
//! 1. **Map** each code point by its status in the IDNA Mapping Table
//!    (section 5): disallowed is kept (step 4 refuses it), ignored is
//!    removed, mapped is replaced, valid is kept; deviation is kept, or
//!    with Transitional_Processing replaced by its mapping (U+00DF `ss`,
//!    U+03C2 U+03C3, U+200C and U+200D nothing: section 6, step 4, the
//!    deviation set), and with Transitional_Processing U+1E9E (mapped to
//!    U+00DF since Unicode 15.1) is replaced by `ss` (section 5).
//! 2. **Normalize** to NFC.
//! 3. **Break** into labels at U+002E: a full stop makes two labels, and a
//!    question of this codec is about one.
//! 4. **Convert/Validate.** A label that starts with `xn--` (the mapping
//!    has lowercased any ASCII capitals, so the prefix is taken in any
//!    case):
//!    1. holds no code point above U+007F;
//!    2. its rest is converted to Unicode by Punycode (RFC 3492); a
//!       failure is an error, unless IgnoreInvalidPunycode, when the label
//!       is kept as it is;
//!    3. the result is neither empty nor ASCII only (so a label kept by
//!       IgnoreInvalidPunycode, all ASCII, is an error here: the flag
//!       changes which item refuses it, never whether);
//!    4. the result meets the validity criteria (section 4.1) for
//!       Nontransitional Processing, whatever the flag: Punycode is never
//!       remapped (section 4, "sources already in Punycode are validated
//!       without mapping").
//!
//!    Any other label meets the validity criteria for the processing
//!    chosen, as it is.
//!
//! Section 4.1, Validity Criteria: (1) NFC; (2) with CheckHyphens, no
//! hyphen-minus in both the third and fourth positions; (3) with
//! CheckHyphens, none at the start or the end; (4) without CheckHyphens,
//! no `xn--` at the start; (5) no full stop; (6) no combining mark
//! (General_Category=Mark) first; (7) each code point's status valid or
//! deviation (Nontransitional), valid only (Transitional), and with
//! UseSTD3ASCIIRules the ASCII ones only a-z, 0-9 and hyphen-minus; (8)
//! with CheckJoiners, the ContextJ rules of RFC 5892 Appendix A; (9) with
//! CheckBidi, in a Bidi domain name (one with a code point of Bidi_Class
//! R, AL or AN; here, this label), the six conditions of RFC 5893 section
//! 2.
//!
//! Section 4.2, ToASCII: process, then convert each label with a non-ASCII
//! code point to Punycode behind `xn--`; with VerifyDnsLength, each label
//! is 1 to 63 octets. Section 4.3, ToUnicode: process; the answer is the
//! processed label.
//!
//! Where the data comes from: the statuses of section 5 and NFC through
//! `icu_normalizer`'s UTS #46 mapper (its `map_normalize` is step 1 and 2
//! for Nontransitional Processing; its `normalize_validate` is criteria 1
//! and 7: a label it changes holds a mapped, ignored or disallowed code
//! point or is not NFC), and General_Category, Bidi_Class, Joining_Type
//! and Canonical_Combining_Class from `icu_properties`: ICU4X's data,
//! which the `idna` crate uses too. Transitional Processing's mapping of
//! the four deviations and U+1E9E is written here from section 4, step 1,
//! as above (the mapper has none). The steps are punycheck's own.

use icu_normalizer::uts46::Uts46MapperBorrowed;
use icu_properties::CodePointMapData;
use icu_properties::props::{
    BidiClass, CanonicalCombiningClass, GeneralCategory, GeneralCategoryGroup, JoiningType,
};

use super::{LabelError, MAX_LABEL_OCTETS, Switches};
use crate::punycode;

const FULL_STOP: char = '.';
const HYPHEN: char = '-';
const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';

/// The deviation set (UTS #46 section 6, step 4): the code points whose
/// status is deviation in the IDNA Mapping Table.
pub const DEVIATIONS: [char; 4] = ['\u{00DF}', '\u{03C2}', ZWNJ, ZWJ];

/// ToUnicode (section 4.3) of one label given as text.
pub fn to_unicode(switches: Switches, label: &[u8]) -> Result<Vec<u32>, LabelError> {
    let text = std::str::from_utf8(label).map_err(|_| LabelError::NotText)?;
    let processed = process(switches, text.chars())?;
    Ok(processed.into_iter().map(u32::from).collect())
}

/// ToASCII (section 4.2) of one label given as code points.
pub fn to_ascii(switches: Switches, label: &[u32]) -> Result<Vec<u8>, LabelError> {
    let chars = label
        .iter()
        .map(|&cp| char::from_u32(cp).ok_or(LabelError::NotScalar(cp)))
        .collect::<Result<Vec<char>, _>>()?;
    let processed = process(switches, chars.into_iter())?;
    // ToASCII: a label with a non-ASCII code point becomes xn-- and its
    // Punycode; an ASCII one stays as it is.
    let ascii = if processed.iter().all(char::is_ascii) {
        processed.iter().map(|&c| c as u8).collect::<Vec<u8>>()
    } else {
        let code_points: Vec<u32> = processed.iter().map(|&c| u32::from(c)).collect();
        let mut out = super::ACE_PREFIX.as_bytes().to_vec();
        // A processed label is at most a few times its input; Punycode of
        // Unicode scalar values cannot overflow before 2^26 or so code
        // points, and an error here is an error of the label.
        out.extend(punycode::encode(&code_points, None).map_err(LabelError::Punycode)?);
        out
    };
    // VerifyDnsLength.
    if switches.verify_dns_length && !(1..=MAX_LABEL_OCTETS).contains(&ascii.len()) {
        return Err(LabelError::DnsLength(ascii.len()));
    }
    Ok(ascii)
}

/// Section 4, Processing, steps 1 to 4, for one label: the processed
/// label.
fn process(switches: Switches, input: impl Iterator<Item = char>) -> Result<Vec<char>, LabelError> {
    let input: Vec<char> = input.collect();
    let mapped = map_normalize_as(switches, &input)?;
    // Step 3, Break: one label only.
    if mapped.contains(&FULL_STOP) {
        return Err(LabelError::FullStop);
    }
    let label = convert_validate(switches, mapped)?;
    // Criterion 9, with CheckBidi: a domain name of one label is a Bidi
    // domain name when this label holds an R, AL or AN code point.
    if switches.check_bidi {
        check_bidi(&label, is_bidi(&label))?;
    }
    Ok(label)
}

/// Section 4, Processing, steps 1 and 2, Map and Normalize, under
/// `switches`: with Transitional_Processing, each deviation (U+00DF,
/// U+03C2, U+200C, U+200D) replaced by its mapping in the IDNA Mapping
/// Table and U+1E9E by `ss` (step 1, "deviation" and "mapped"), then
/// [`map_normalize`]. Mapping is code point by code point, and what
/// replaces these is valid (`s`, U+03C3) or nothing, so replacing them
/// first and then mapping every code point is step 1.
pub(crate) fn map_normalize_as(
    switches: Switches,
    input: &[char],
) -> Result<Vec<char>, LabelError> {
    if !switches.transitional_processing {
        return map_normalize(input);
    }
    let mut replaced = Vec::with_capacity(input.len() + 2);
    for &c in input {
        match c {
            '\u{00DF}' | '\u{1E9E}' => replaced.extend(['s', 's']),
            '\u{03C2}' => replaced.push('\u{03C3}'),
            ZWNJ | ZWJ => {}
            other => replaced.push(other),
        }
    }
    map_normalize(&replaced)
}

/// Section 4, Processing, steps 1 and 2, Map and Normalize, of a whole
/// input (one label, or a domain name before step 3 breaks it): the
/// mapped and normalized code points, or the first disallowed code point
/// of the input.
pub(crate) fn map_normalize(input: &[char]) -> Result<Vec<char>, LabelError> {
    let mapper = Uts46MapperBorrowed::new();
    // The mapper turns a disallowed code point into U+FFFD (itself
    // disallowed); one that was U+FFFD already is disallowed all the same.
    let mapped: Vec<char> = mapper.map_normalize(input.iter().copied()).collect();
    if mapped.contains(&char::REPLACEMENT_CHARACTER) {
        let culprit = input
            .iter()
            .copied()
            .find(|&c| {
                c == char::REPLACEMENT_CHARACTER
                    || mapper
                        .map_normalize(std::iter::once(c))
                        .any(|m| m == char::REPLACEMENT_CHARACTER)
            })
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        return Err(LabelError::Disallowed(u32::from(culprit)));
    }
    Ok(mapped)
}

/// Section 4, Processing, step 4, Convert/Validate, for one label that
/// step 3 broke off: an `xn--` label decoded, then the validity criteria
/// 1 to 8 (criterion 9, CheckBidi, depends on the whole domain name: see
/// [`check_bidi`]). The label as converted.
pub(crate) fn convert_validate(
    switches: Switches,
    mapped: Vec<char>,
) -> Result<Vec<char>, LabelError> {
    // The mapping has lowercased any ASCII capitals, so the prefix is
    // taken in any case.
    let starts_with_prefix = mapped.len() >= 4 && mapped[..4].iter().copied().eq("xn--".chars());
    if !starts_with_prefix {
        // Validity for the processing chosen.
        validate_in(switches, &mapped)?;
        return Ok(mapped);
    }
    // Item 1: ASCII only.
    if let Some(&c) = mapped.iter().find(|c| !c.is_ascii()) {
        return Err(LabelError::NonAsciiInAceLabel(u32::from(c)));
    }
    let payload: Vec<u8> = mapped[4..].iter().map(|&c| c as u8).collect();
    // Item 2: Punycode, with the clean-room decoder; item 3: neither
    // empty nor ASCII only.
    let label = match super::decode_payload(&payload) {
        Ok((_, chars)) => chars,
        // IgnoreInvalidPunycode: the label stays as it is, xn-- and all,
        // and item 3 records the error, since it is ASCII only.
        Err(LabelError::Punycode(e)) if switches.ignore_invalid_punycode => {
            return Err(LabelError::InvalidPunycodeKept(e));
        }
        Err(error) => return Err(error),
    };
    // Item 4: the criteria for Nontransitional Processing, whatever the
    // processing chosen.
    let nontransitional = Switches {
        transitional_processing: false,
        ..switches
    };
    validate_in(nontransitional, &label)?;
    Ok(label)
}

/// Section 4.1, the validity criteria for the processing `switches`
/// choose, of a label that is a whole domain name.
pub fn validate(switches: Switches, label: &[char]) -> Result<(), LabelError> {
    validate_in(switches, label)?;
    if switches.check_bidi {
        check_bidi(label, is_bidi(label))?;
    }
    Ok(())
}

/// Section 4.1, criteria 1 to 8 for the processing `switches` choose:
/// all but CheckBidi, which needs the whole domain name.
fn validate_in(switches: Switches, label: &[char]) -> Result<(), LabelError> {
    let mapper = Uts46MapperBorrowed::new();
    // Criteria 1 and 7 (statuses): the mapper's validation leaves a label
    // with only valid and deviation code points, in NFC, as it is.
    if !mapper
        .normalize_validate(label.iter().copied())
        .eq(label.iter().copied())
    {
        let culprit = label.iter().copied().find(|&c| {
            !mapper
                .normalize_validate(std::iter::once(c))
                .eq(std::iter::once(c))
        });
        return Err(match culprit {
            Some(c) => LabelError::Status(u32::from(c)),
            None => LabelError::NotNfc,
        });
    }
    // The mapper's validation marks a disallowed code point with U+FFFD,
    // so it gives U+FFFD itself back as it is: U+FFFD is disallowed all the
    // same (IdnaMappingTable), and only Punycode (`xn--zn7c`) brings it
    // here, since mapping refused it in the input.
    if label.contains(&char::REPLACEMENT_CHARACTER) {
        return Err(LabelError::Status(0xFFFD));
    }
    // Criterion 7.1: for Transitional Processing, valid only, so a
    // deviation (one a mapping made, or U+00DF in a label being checked
    // as it is) is refused.
    if switches.transitional_processing
        && let Some(&c) = label.iter().find(|c| DEVIATIONS.contains(c))
    {
        return Err(LabelError::Status(u32::from(c)));
    }
    if switches.check_hyphens {
        // Criterion 2.
        if label.get(2) == Some(&HYPHEN) && label.get(3) == Some(&HYPHEN) {
            return Err(LabelError::HyphensAt3And4);
        }
        // Criterion 3.
        if label.first() == Some(&HYPHEN) || label.last() == Some(&HYPHEN) {
            return Err(LabelError::HyphenAtEnd);
        }
    } else if label.len() >= 4 && label[..4].iter().copied().eq("xn--".chars()) {
        // Criterion 4.
        return Err(LabelError::BeginsWithAcePrefix);
    }
    // Criterion 5.
    if label.contains(&FULL_STOP) {
        return Err(LabelError::FullStop);
    }
    // Criterion 6.
    let gc = CodePointMapData::<GeneralCategory>::new();
    if let Some(&first) = label.first()
        && GeneralCategoryGroup::Mark.contains(gc.get(first))
    {
        return Err(LabelError::LeadingMark(u32::from(first)));
    }
    // Criterion 7, UseSTD3ASCIIRules.
    if switches.use_std3_ascii_rules
        && let Some(&c) = label
            .iter()
            .find(|c| c.is_ascii() && !matches!(c, 'a'..='z' | '0'..='9' | '-'))
    {
        return Err(LabelError::NotLdh(u32::from(c)));
    }
    // Criterion 8, CheckJoiners.
    if switches.check_joiners {
        check_joiners(label)?;
    }
    Ok(())
}

/// RFC 5892 Appendix A.1 (ZERO WIDTH NON-JOINER) and A.2 (ZERO WIDTH
/// JOINER).
pub(super) fn check_joiners(label: &[char]) -> Result<(), LabelError> {
    let ccc = CodePointMapData::<CanonicalCombiningClass>::new();
    let jt = CodePointMapData::<JoiningType>::new();
    for (i, &c) in label.iter().enumerate() {
        if c != ZWNJ && c != ZWJ {
            continue;
        }
        // Both: "If Canonical_Combining_Class(Before(cp)) .eq. Virama Then
        // True".
        if i > 0 && ccc.get(label[i - 1]) == CanonicalCombiningClass::Virama {
            continue;
        }
        // A.1 only: "If RegExpMatch((Joining_Type:{L,D})(Joining_Type:T)*
        // \u200C(Joining_Type:T)*(Joining_Type:{R,D})) Then True".
        if c == ZWNJ {
            let before = label[..i]
                .iter()
                .rev()
                .map(|&b| jt.get(b))
                .find(|&t| t != JoiningType::Transparent);
            let after = label[i + 1..]
                .iter()
                .map(|&a| jt.get(a))
                .find(|&t| t != JoiningType::Transparent);
            let left = matches!(
                before,
                Some(JoiningType::LeftJoining | JoiningType::DualJoining)
            );
            let right = matches!(
                after,
                Some(JoiningType::RightJoining | JoiningType::DualJoining)
            );
            if left && right {
                continue;
            }
        }
        return Err(LabelError::Joiner(u32::from(c)));
    }
    Ok(())
}

/// Whether `label` holds a code point of Bidi_Class R, AL or AN: a domain
/// name with such a label is a Bidi domain name (RFC 5893 section 1.4).
pub fn is_bidi(label: &[char]) -> bool {
    let bidi = CodePointMapData::<BidiClass>::new();
    label.iter().any(|&c| {
        matches!(
            bidi.get(c),
            BidiClass::RightToLeft | BidiClass::ArabicLetter | BidiClass::ArabicNumber
        )
    })
}

/// RFC 5893 section 2, the six conditions, for a label of a Bidi domain
/// name (section 1.4: one holding a code point of Bidi_Class R, AL or AN
/// in any of its labels): `in_bidi_domain` says whether the name is one.
/// Every label of a Bidi domain name must meet them, an all-ASCII `1x`
/// beside an Arabic label too (section 2, "In an RTL label" and "In an
/// LTR label"; UTS #46 criterion 9 applies them to each label of the
/// name). An empty label (the root) is not checked: it has no first
/// character to judge, and UTS #46's test data flags none there.
pub fn check_bidi(label: &[char], in_bidi_domain: bool) -> Result<(), LabelError> {
    use BidiClass as B;
    if !in_bidi_domain || label.is_empty() {
        return Ok(());
    }
    let bidi = CodePointMapData::<BidiClass>::new();
    let classes: Vec<BidiClass> = label.iter().map(|&c| bidi.get(c)).collect();
    // Condition 1: the first character is L, R or AL.
    let rtl = match classes.first() {
        Some(&B::RightToLeft | &B::ArabicLetter) => true,
        Some(&B::LeftToRight) => false,
        _ => return Err(LabelError::Bidi(1)),
    };
    // The last character that is not NSM.
    let last = classes.iter().rev().find(|&&b| b != B::NonspacingMark);
    if rtl {
        // Condition 2.
        if !classes.iter().all(|&b| {
            matches!(
                b,
                B::RightToLeft
                    | B::ArabicLetter
                    | B::ArabicNumber
                    | B::EuropeanNumber
                    | B::EuropeanSeparator
                    | B::CommonSeparator
                    | B::EuropeanTerminator
                    | B::OtherNeutral
                    | B::BoundaryNeutral
                    | B::NonspacingMark
            )
        }) {
            return Err(LabelError::Bidi(2));
        }
        // Condition 3.
        if !matches!(
            last,
            Some(&B::RightToLeft | &B::ArabicLetter | &B::EuropeanNumber | &B::ArabicNumber)
        ) {
            return Err(LabelError::Bidi(3));
        }
        // Condition 4.
        if classes.contains(&B::EuropeanNumber) && classes.contains(&B::ArabicNumber) {
            return Err(LabelError::Bidi(4));
        }
    } else {
        // Condition 5.
        if !classes.iter().all(|&b| {
            matches!(
                b,
                B::LeftToRight
                    | B::EuropeanNumber
                    | B::EuropeanSeparator
                    | B::CommonSeparator
                    | B::EuropeanTerminator
                    | B::OtherNeutral
                    | B::BoundaryNeutral
                    | B::NonspacingMark
            )
        }) {
            return Err(LabelError::Bidi(5));
        }
        // Condition 6.
        if !matches!(last, Some(&B::LeftToRight | &B::EuropeanNumber)) {
            return Err(LabelError::Bidi(6));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unicode(label: &str) -> Result<String, LabelError> {
        to_unicode(Switches::STRICT, label.as_bytes())
            .map(|cps| cps.into_iter().filter_map(char::from_u32).collect())
    }

    fn ascii(label: &str) -> Result<String, LabelError> {
        let cps: Vec<u32> = label.chars().map(u32::from).collect();
        to_ascii(Switches::STRICT, &cps).map(|b| String::from_utf8(b).unwrap())
    }

    // Each expectation is derived by hand from the section cited; the
    // Punycode of "bücher" is RFC 3492's own algorithm run by hand and by
    // the C reference (tests/label.rs checks the vectors against it).
    #[test]
    fn the_ace_prefix_is_taken_in_any_case() {
        // Step 1 maps A-Z to a-z before step 4 looks for xn--.
        assert_eq!(unicode("xn--bcher-kva").unwrap(), "bücher");
        assert_eq!(unicode("XN--BCHER-KVA").unwrap(), "bücher");
        assert_eq!(unicode("Xn--bcher-kva").unwrap(), "bücher");
    }

    #[test]
    fn a_decoding_to_ascii_or_nothing_is_refused() {
        // Step 4, xn-- labels, item 3 (revision 33).
        assert_eq!(unicode("xn--go-"), Err(LabelError::AsciiOnly));
        assert_eq!(unicode("xn--example-"), Err(LabelError::AsciiOnly));
        assert_eq!(unicode("xn--"), Err(LabelError::Empty));
    }

    #[test]
    fn non_ascii_inside_an_a_label_is_refused() {
        // Item 1; が is valid, so the mapping keeps it.
        assert_eq!(
            unicode("xn--が-"),
            Err(LabelError::NonAsciiInAceLabel(0x304C))
        );
    }

    #[test]
    fn a_decoding_to_a_disallowed_code_point_is_refused() {
        // a U+2488 (DIGIT ONE FULL STOP, disallowed) is xn--a-ecp; the
        // status check of criterion 7 refuses it.
        assert_eq!(unicode("xn--a-ecp"), Err(LabelError::Status(0x2488)));
        // U+FFFD encoded in Punycode (the URL Standard's tests,
        // toascii.json): disallowed, though the mapper's validation gives
        // it back unchanged.
        assert_eq!(unicode("xn--zn7c"), Err(LabelError::Status(0xFFFD)));
    }

    #[test]
    fn punycode_failures_are_refusals() {
        assert!(matches!(
            unicode("xn--a000000000"),
            Err(LabelError::Punycode(_))
        ));
        // A leading delimiter is no delimiter for RFC 3492's decoder, and
        // a hyphen-minus is not a digit.
        assert!(matches!(unicode("xn---00xa"), Err(LabelError::Punycode(_))));
    }

    #[test]
    fn to_ascii_encodes_and_checks() {
        assert_eq!(ascii("bücher").unwrap(), "xn--bcher-kva");
        // Mapped first: capitals become small letters.
        assert_eq!(ascii("Bücher").unwrap(), "xn--bcher-kva");
        // xn-- in a U-label: criterion 2 with CheckHyphens...
        assert_eq!(ascii("xn--é"), Err(LabelError::NonAsciiInAceLabel(0xE9)));
        let cps: Vec<u32> = "ab--é".chars().map(u32::from).collect();
        assert_eq!(
            to_ascii(Switches::STRICT, &cps),
            Err(LabelError::HyphensAt3And4)
        );
        // ... and none without it. By hand (RFC 3492 section 6.3): four
        // basic code points and the delimiter, then delta (0xE9 - 0x80) * 5
        // + 4 = 529, digits e (4), p (15), a (0) with bias 72.
        assert_eq!(to_ascii(Switches::URL, &cps).unwrap(), b"xn--ab---epa");
        // 63 octets at most.
        let long: String = "a".repeat(60) + "é";
        assert!(matches!(ascii(&long), Err(LabelError::DnsLength(_))));
        let cps: Vec<u32> = long.chars().map(u32::from).collect();
        assert!(to_ascii(Switches::URL, &cps).is_ok());
    }

    #[test]
    fn joiners_and_bidi() {
        // ZWJ after a virama (DEVANAGARI SIGN VIRAMA U+094D) is allowed,
        // alone it is not.
        let ok: Vec<u32> = vec![0x0915, 0x094D, 0x200D];
        assert!(to_ascii(Switches::STRICT, &ok).is_ok());
        assert_eq!(
            to_ascii(Switches::STRICT, &[0x0061, 0x200D]),
            Err(LabelError::Joiner(0x200D))
        );
        // Hebrew alef then a Latin letter: RTL label with an L (condition 2).
        assert_eq!(
            to_ascii(Switches::STRICT, &[0x05D0, 0x0061]),
            Err(LabelError::Bidi(2))
        );
        // A digit first in an RTL domain: condition 1.
        assert_eq!(
            to_ascii(Switches::STRICT, &[0x0031, 0x05D0]),
            Err(LabelError::Bidi(1))
        );
        assert!(to_ascii(Switches::STRICT, &[0x05D0, 0x05D1]).is_ok());
    }

    #[test]
    fn code_points_no_label_holds_are_refused() {
        assert_eq!(
            to_ascii(Switches::STRICT, &[0x61, 0xD800]),
            Err(LabelError::NotScalar(0xD800))
        );
        assert_eq!(
            to_unicode(Switches::STRICT, b"xn--\xff"),
            Err(LabelError::NotText)
        );
    }

    fn with(change: impl Fn(&mut Switches)) -> Switches {
        let mut switches = Switches::STRICT;
        change(&mut switches);
        switches
    }

    fn ascii_as(switches: Switches, label: &str) -> Result<String, LabelError> {
        let cps: Vec<u32> = label.chars().map(u32::from).collect();
        to_ascii(switches, &cps).map(|b| String::from_utf8(b).unwrap())
    }

    // UTS #46 revision 36, section 4, step 1 and section 1.3.2, Table 1:
    // faß is xn--fa-hia Nontransitional, fass Transitional (IdnaTestV2.txt,
    // Unicode 16.0.0, line "faß.de; ; ; xn--fa-hia.de; ; fass.de;").
    #[test]
    fn transitional_processing_maps_the_deviations() {
        let t = with(|s| s.transitional_processing = true);
        assert_eq!(ascii("faß").unwrap(), "xn--fa-hia");
        assert_eq!(ascii_as(t, "faß").unwrap(), "fass");
        // U+1E9E is mapped to U+00DF since Unicode 15.1, and to ss with
        // Transitional_Processing (section 5).
        assert_eq!(ascii("faẞ").unwrap(), "xn--fa-hia");
        assert_eq!(ascii_as(t, "faẞ").unwrap(), "fass");
        // ς to σ: βόλος is xn--nxasmm1c, βόλοσ xn--nxasmq6b (Table 1).
        assert_eq!(ascii("βόλος").unwrap(), "xn--nxasmm1c");
        assert_eq!(ascii_as(t, "βόλος").unwrap(), "xn--nxasmq6b");
        // ZWJ and ZWNJ removed, so the ContextJ rules never see them:
        // a U+200D b is refused Nontransitional (criterion 8), ab
        // Transitional.
        assert_eq!(ascii("a\u{200D}b"), Err(LabelError::Joiner(0x200D)));
        assert_eq!(ascii_as(t, "a\u{200D}b").unwrap(), "ab");
        // Punycode is not remapped: xn--fa-hia stays faß (section 4, "sources
        // already in Punycode are validated without mapping").
        assert_eq!(
            to_unicode(t, b"xn--fa-hia").unwrap(),
            vec![0x66, 0x61, 0xDF]
        );
        // ToUnicode maps too (section 4.3 takes the flag).
        assert_eq!(
            to_unicode(t, "faß".as_bytes()).unwrap(),
            vec![0x66, 0x61, 0x73, 0x73]
        );
    }

    #[test]
    fn check_bidi_and_check_joiners_switch_off_criteria_9_and_8() {
        let no_bidi = with(|s| s.check_bidi = false);
        let no_joiners = with(|s| s.check_joiners = false);
        // Hebrew alef then a Latin letter: condition 2, only with CheckBidi.
        assert_eq!(
            to_ascii(Switches::STRICT, &[0x05D0, 0x0061]),
            Err(LabelError::Bidi(2))
        );
        assert!(to_ascii(no_bidi, &[0x05D0, 0x0061]).is_ok());
        assert!(to_ascii(no_joiners, &[0x05D0, 0x0061]).is_err());
        // a U+200D: criterion 8, only with CheckJoiners.
        assert_eq!(
            to_ascii(no_bidi, &[0x0061, 0x200D]),
            Err(LabelError::Joiner(0x200D))
        );
        assert!(to_ascii(no_joiners, &[0x0061, 0x200D]).is_ok());
    }

    #[test]
    fn ignore_invalid_punycode_changes_the_rule_not_the_verdict() {
        // Section 4, step 4: item 2 keeps the label, item 3 refuses it,
        // since xn--0 (Table 2's invalid Punycode) is ASCII only.
        let ignore = with(|s| s.ignore_invalid_punycode = true);
        assert!(matches!(unicode("xn--0"), Err(LabelError::Punycode(_))));
        assert!(matches!(
            to_unicode(ignore, b"xn--0"),
            Err(LabelError::InvalidPunycodeKept(_))
        ));
        // Valid Punycode is converted as without it.
        assert_eq!(
            to_unicode(ignore, b"xn--bcher-kva"),
            to_unicode(Switches::STRICT, b"xn--bcher-kva")
        );
    }
}
