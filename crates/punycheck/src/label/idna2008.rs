//! IDNA2008 lookup (RFC 5891 section 5) of one label: the A-label checks
//! of RFC 5890 and RFC 5891, the code points' derived property computed by
//! RFC 5892's own algorithm, its contextual rules, and RFC 5893's Bidi rule.
//!
//! ToUnicode of an A-label (RFC 5891 section 5.3): an ASCII label whose
//! first four characters are `xn--` in any case is lowercased, its rest is
//! decoded by Punycode (RFC 3492), the result is tested as a putative
//! U-label (section 5.4), converted back (section 5.5: Punycode behind
//! `xn--`), and refused "if the resulting label is not identical to the
//! original" (the lowercased label: section 3.1 compares A-labels as
//! case-insensitive ASCII). An A-label decodes to a U-label, which holds at
//! least one non-ASCII character (RFC 5890 section 2.3.2.1): `xn--go-` is no
//! A-label.
//!
//! ToASCII of a U-label (sections 5.4 and 5.5, and RFC 5890 section 2.3.1:
//! a label is at most 63 octets, with VerifyDnsLength); of an ASCII label,
//! as lookup takes it: an A-label checked as ToUnicode checks it and given
//! back lowercased, an LDH label as it is ([`lookup_label`]). IDNA2008 maps
//! nothing: an uppercase letter, a full-width form or anything else
//! DISALLOWED is refused, not folded (section 5.2 leaves mapping to a
//! layer above, such as UTS #46).
//!
//! Section 5.4 refuses, for lookup: a label not in NFC; `--` in the third
//! and fourth positions; a combining mark first; a DISALLOWED or UNASSIGNED
//! code point; a CONTEXTJ code point whose rule fails; a CONTEXTO code
//! point without a rule; and the application SHOULD apply the Bidi rule.
//! Two of the choices it leaves open are made here as registries and the
//! Python `idna` package make them: the CONTEXTO rules are applied (section
//! 5.4 allows it), and the Bidi rule is applied to a label that holds an
//! R, AL or AN code point. With CheckHyphens, a hyphen-minus first or last
//! is refused too (the registration rule of section 4.2.3.1, and the LDH
//! label's definition in RFC 5890 section 2.3.1).
//!
//! The derived property of each code point is RFC 5892 section 3's
//! algorithm, run on ICU4X's Unicode data (`icu_properties`: the same data
//! as the UTS #46 rules): General_Category, Changes_When_NFKC_Casefolded
//! (which is category B, Unstable, wherever the order of the algorithm
//! lets B decide: it differs from `toNFKC(toCaseFold(toNFKC(cp))) != cp`
//! only on default-ignorable code points, which category C makes
//! DISALLOWED as well), Default_Ignorable_Code_Point, White_Space,
//! Noncharacter_Code_Point, Join_Control, Hangul_Syllable_Type and Script.
//! The Exceptions (F) and the three IgnorableBlocks (D) are the RFC's own
//! lists.

use icu_normalizer::ComposingNormalizerBorrowed;
use icu_properties::props::{
    ChangesWhenNfkcCasefolded, DefaultIgnorableCodePoint, GeneralCategory, GeneralCategoryGroup,
    HangulSyllableType, JoinControl, NoncharacterCodePoint, Script, WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};

use super::{LabelError, MAX_LABEL_OCTETS, Switches, uts46};
use crate::punycode;

/// The derived property of a code point (RFC 5892 section 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// Allowed in any label.
    Pvalid,
    /// Allowed where a joining rule of Appendix A says so.
    ContextJ,
    /// Allowed where another rule of Appendix A says so.
    ContextO,
    /// Never allowed.
    Disallowed,
    /// Not assigned in the Unicode version used.
    Unassigned,
}

/// RFC 5892 section 2.6, F: Exceptions.
fn exception(cp: u32) -> Option<Property> {
    Some(match cp {
        0x00DF | 0x03C2 | 0x06FD | 0x06FE | 0x0F0B | 0x3007 => Property::Pvalid,
        0x00B7 | 0x0375 | 0x05F3 | 0x05F4 | 0x30FB => Property::ContextO,
        0x0660..=0x0669 | 0x06F0..=0x06F9 => Property::ContextO,
        0x0640 | 0x07FA | 0x302E | 0x302F | 0x3031..=0x3035 | 0x303B => Property::Disallowed,
        _ => return None,
    })
}

/// RFC 5892 section 3: the derived property of `c`.
pub fn property(c: char) -> Property {
    let cp = u32::from(c);
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    let noncharacter = CodePointSetData::new::<NoncharacterCodePoint>().contains(c);
    if let Some(p) = exception(cp) {
        return p;
    }
    // G, BackwardCompatible, is empty (RFC 5892 section 2.7; RFC 6452,
    // 8753 and 9233 added nothing to it).
    if gc == GeneralCategory::Unassigned && !noncharacter {
        return Property::Unassigned;
    }
    if matches!(cp, 0x2D | 0x30..=0x39 | 0x61..=0x7A) {
        return Property::Pvalid;
    }
    if CodePointSetData::new::<JoinControl>().contains(c) {
        return Property::ContextJ;
    }
    if CodePointSetData::new::<ChangesWhenNfkcCasefolded>().contains(c) {
        return Property::Disallowed;
    }
    if CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || CodePointSetData::new::<WhiteSpace>().contains(c)
        || noncharacter
    {
        return Property::Disallowed;
    }
    // D: Combining Diacritical Marks for Symbols, Musical Symbols, Ancient
    // Greek Musical Notation.
    if matches!(cp, 0x20D0..=0x20FF | 0x1D100..=0x1D1FF | 0x1D200..=0x1D24F) {
        return Property::Disallowed;
    }
    let hst = CodePointMapData::<HangulSyllableType>::new().get(c);
    if matches!(
        hst,
        HangulSyllableType::LeadingJamo
            | HangulSyllableType::VowelJamo
            | HangulSyllableType::TrailingJamo
    ) {
        return Property::Disallowed;
    }
    if matches!(
        gc,
        GeneralCategory::LowercaseLetter
            | GeneralCategory::UppercaseLetter
            | GeneralCategory::OtherLetter
            | GeneralCategory::DecimalNumber
            | GeneralCategory::ModifierLetter
            | GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
    ) {
        return Property::Pvalid;
    }
    Property::Disallowed
}

/// ToUnicode of an A-label: RFC 5891 sections 5.3 to 5.5.
pub fn to_unicode(switches: Switches, label: &[u8]) -> Result<Vec<u32>, LabelError> {
    a_label(switches, label, true)
}

/// Sections 5.3 to 5.5 for an A-label; the Bidi rule on the label alone
/// when `bidi` is set (a label of a longer domain name leaves it to the
/// caller: it depends on the whole name, RFC 5893 section 2).
pub(crate) fn a_label(
    switches: Switches,
    label: &[u8],
    bidi: bool,
) -> Result<Vec<u32>, LabelError> {
    let text = std::str::from_utf8(label).map_err(|_| LabelError::NotText)?;
    if let Some(c) = text.chars().find(|c| !c.is_ascii()) {
        return Err(LabelError::NonAsciiInAceLabel(u32::from(c)));
    }
    // Section 5.3: lowercase first; the prefix in any case.
    let lowered = label.to_ascii_lowercase();
    let Some(payload) = lowered.strip_prefix(b"xn--") else {
        return Err(LabelError::NotAceLabel);
    };
    // RFC 5890 section 2.3.2.1: an A-label decodes to a U-label, which
    // holds a non-ASCII character.
    let (code_points, chars) = super::decode_payload(payload)?;
    validate_in(switches, &chars)?;
    if bidi {
        uts46::check_bidi(&chars, uts46::is_bidi(&chars))?;
    }
    // Sections 5.5 and 5.3: converted back, identical to the original.
    let mut again = b"xn--".to_vec();
    again.extend(punycode::encode(&code_points, None).map_err(LabelError::Punycode)?);
    if again != lowered {
        return Err(LabelError::NotReencoded(
            String::from_utf8_lossy(&again).into_owned(),
        ));
    }
    Ok(code_points)
}

/// ToASCII of a label as lookup takes it ([`lookup_label`]), the Bidi
/// rule on the label alone.
pub fn to_ascii(switches: Switches, label: &[u32]) -> Result<Vec<u8>, LabelError> {
    let chars = label
        .iter()
        .map(|&cp| char::from_u32(cp).ok_or(LabelError::NotScalar(cp)))
        .collect::<Result<Vec<char>, _>>()?;
    if chars.is_empty() {
        return Err(LabelError::Empty);
    }
    lookup_label(switches, &chars, true).map(|(ascii, _)| ascii)
}

/// One label as lookup takes it, in both forms: its ASCII form and its
/// Unicode form. A non-ASCII label must be a U-label (sections 5.4 and
/// 5.5); an ASCII label that begins with `xn--` in any case must be an
/// A-label (section 5.3), and is given back lowercased; another ASCII label
/// is an LDH label (RFC 5890 section 2.3.1), which IDNA2008 leaves as it
/// is (its case too: DNS compares ASCII case-blind, RFC 4343), with
/// CheckHyphens refused for a hyphen-minus first, last, or in both the
/// third and fourth positions, and with UseSTD3ASCIIRules for anything but
/// letters, digits and hyphen-minus. The Bidi rule on the label alone when
/// `bidi` is set (a label of a longer name leaves it to the caller). An
/// empty label is the caller's.
pub(crate) fn lookup_label(
    switches: Switches,
    label: &[char],
    bidi: bool,
) -> Result<(Vec<u8>, Vec<char>), LabelError> {
    if !label.iter().all(char::is_ascii) {
        let ascii = u_label(switches, label, bidi)?;
        return Ok((ascii, label.to_vec()));
    }
    let ascii: Vec<u8> = label.iter().map(|&c| c as u8).collect();
    if super::has_ace_prefix(&ascii) {
        let lowered = ascii.to_ascii_lowercase();
        let code_points = a_label(switches, &lowered, bidi)?;
        // The A-label is the label's ASCII form: VerifyDnsLength holds it
        // to 63 octets as it does the A-label of a U-label (found by the
        // label_roundtrip fuzz target: a 131-octet xn-- label passed).
        if switches.verify_dns_length && lowered.len() > MAX_LABEL_OCTETS {
            return Err(LabelError::DnsLength(lowered.len()));
        }
        return Ok((
            lowered,
            code_points.into_iter().filter_map(char::from_u32).collect(),
        ));
    }
    if switches.use_std3_ascii_rules
        && let Some(&c) = ascii
            .iter()
            .find(|c| !c.is_ascii_alphanumeric() && **c != b'-')
    {
        return Err(LabelError::NotLdh(u32::from(c)));
    }
    if switches.check_hyphens {
        if ascii.get(2) == Some(&b'-') && ascii.get(3) == Some(&b'-') {
            return Err(LabelError::HyphensAt3And4);
        }
        if ascii.first() == Some(&b'-') || ascii.last() == Some(&b'-') {
            return Err(LabelError::HyphenAtEnd);
        }
    }
    if switches.verify_dns_length && ascii.len() > MAX_LABEL_OCTETS {
        return Err(LabelError::DnsLength(ascii.len()));
    }
    Ok((ascii, label.to_vec()))
}

/// Sections 5.4 and 5.5 for a U-label: the A-label. The Bidi rule on the
/// label alone when `bidi` is set (a label of a longer domain name leaves
/// it to the caller: it depends on the whole name, RFC 5893 section 2).
pub(crate) fn u_label(
    switches: Switches,
    chars: &[char],
    bidi: bool,
) -> Result<Vec<u8>, LabelError> {
    validate_in(switches, chars)?;
    if bidi {
        uts46::check_bidi(chars, uts46::is_bidi(chars))?;
    }
    let label: Vec<u32> = chars.iter().map(|&c| u32::from(c)).collect();
    let mut out = b"xn--".to_vec();
    out.extend(punycode::encode(&label, None).map_err(LabelError::Punycode)?);
    if switches.verify_dns_length && out.len() > MAX_LABEL_OCTETS {
        return Err(LabelError::DnsLength(out.len()));
    }
    Ok(out)
}

/// Section 5.4's tests of a putative U-label, with the choices of the
/// module docs, all but the Bidi rule (the caller's: it depends on the
/// whole domain name).
fn validate_in(switches: Switches, label: &[char]) -> Result<(), LabelError> {
    if label.is_empty() {
        return Err(LabelError::Empty);
    }
    if label.iter().all(char::is_ascii) {
        return Err(LabelError::AsciiOnly);
    }
    // NFC.
    let nfc = ComposingNormalizerBorrowed::new_nfc();
    if !nfc
        .normalize_iter(label.iter().copied())
        .eq(label.iter().copied())
    {
        return Err(LabelError::NotNfc);
    }
    if label.get(2) == Some(&'-') && label.get(3) == Some(&'-') {
        return Err(LabelError::HyphensAt3And4);
    }
    if switches.check_hyphens && (label.first() == Some(&'-') || label.last() == Some(&'-')) {
        return Err(LabelError::HyphenAtEnd);
    }
    let gc = CodePointMapData::<GeneralCategory>::new();
    if GeneralCategoryGroup::Mark.contains(gc.get(label[0])) {
        return Err(LabelError::LeadingMark(u32::from(label[0])));
    }
    for (at, &c) in label.iter().enumerate() {
        match property(c) {
            Property::Pvalid => {}
            // RFC 5892 Appendix A.1 and A.2, as UTS #46's CheckJoiners.
            Property::ContextJ => uts46::check_joiners(label)?,
            Property::ContextO => {
                if !contexto(label, at) {
                    return Err(LabelError::ContextO(u32::from(c)));
                }
            }
            Property::Disallowed => return Err(LabelError::Disallowed2008(u32::from(c))),
            Property::Unassigned => return Err(LabelError::Unassigned(u32::from(c))),
        }
    }
    Ok(())
}

/// RFC 5892 Appendix A.3 to A.9 for the code point at `at`.
fn contexto(label: &[char], at: usize) -> bool {
    let script = CodePointMapData::<Script>::new();
    let before = at.checked_sub(1).map(|i| label[i]);
    let after = label.get(at + 1).copied();
    match u32::from(label[at]) {
        // A.3 MIDDLE DOT: between two l.
        0x00B7 => before == Some('l') && after == Some('l'),
        // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): Greek after it.
        0x0375 => after.is_some_and(|a| script.get(a) == Script::Greek),
        // A.5, A.6 HEBREW PUNCTUATION GERESH, GERSHAYIM: Hebrew before.
        0x05F3 | 0x05F4 => before.is_some_and(|b| script.get(b) == Script::Hebrew),
        // A.7 KATAKANA MIDDLE DOT: Hiragana, Katakana or Han in the label.
        0x30FB => label.iter().any(|&c| {
            matches!(
                script.get(c),
                Script::Hiragana | Script::Katakana | Script::Han
            )
        }),
        // A.8 ARABIC-INDIC DIGITS: no extended Arabic-Indic digit.
        0x0660..=0x0669 => !label
            .iter()
            .any(|&c| matches!(u32::from(c), 0x06F0..=0x06F9)),
        // A.9 EXTENDED ARABIC-INDIC DIGITS: no Arabic-Indic digit.
        0x06F0..=0x06F9 => !label
            .iter()
            .any(|&c| matches!(u32::from(c), 0x0660..=0x0669)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unicode(label: &str) -> Result<String, LabelError> {
        to_unicode(Switches::STRICT, label.as_bytes())
            .map(|cps| cps.into_iter().filter_map(char::from_u32).collect())
    }

    #[test]
    fn derived_properties_follow_rfc_5892_section_3() {
        // Each by the branch of the algorithm that decides it.
        assert_eq!(property('ß'), Property::Pvalid); // F, exception
        assert_eq!(property('·'), Property::ContextO); // F
        assert_eq!(property('\u{0640}'), Property::Disallowed); // F
        assert_eq!(property('a'), Property::Pvalid); // E, LDH
        assert_eq!(property('\u{200D}'), Property::ContextJ); // H
        assert_eq!(property('A'), Property::Disallowed); // B, Unstable
        assert_eq!(property('\u{FF41}'), Property::Disallowed); // B, fullwidth a
        assert_eq!(property('\u{00A0}'), Property::Disallowed); // B (NFKC to a space)
        assert_eq!(property('\u{20D0}'), Property::Disallowed); // D
        assert_eq!(property('\u{1100}'), Property::Disallowed); // I, old Hangul jamo
        assert_eq!(property('ü'), Property::Pvalid); // A
        assert_eq!(property('\u{0301}'), Property::Pvalid); // A, Mn
        assert_eq!(property('\u{2488}'), Property::Disallowed); // B
        assert_eq!(property('!'), Property::Disallowed); // else
        assert_eq!(property('\u{FFFF}'), Property::Disallowed); // C, noncharacter
        assert_eq!(property('\u{E0000}'), Property::Unassigned); // J
    }

    #[test]
    fn a_labels_decode_validate_and_re_encode() {
        assert_eq!(unicode("xn--bcher-kva").unwrap(), "bücher");
        assert_eq!(unicode("XN--BCHER-KVA").unwrap(), "bücher");
        assert_eq!(unicode("xn--go-"), Err(LabelError::AsciiOnly));
        assert_eq!(unicode("xn--"), Err(LabelError::Empty));
        assert_eq!(
            unicode("xn--a-ecp"),
            Err(LabelError::Disallowed2008(0x2488))
        );
        // A leading delimiter is no delimiter (RFC 3492 section 6.2).
        assert!(matches!(unicode("xn---00xa"), Err(LabelError::Punycode(_))));
        // Middle dot between two l: A.3 holds; elsewhere it fails.
        let ok: Vec<u32> = "l·l".chars().map(u32::from).collect();
        assert!(to_ascii(Switches::STRICT, &ok).is_ok());
        let bad: Vec<u32> = "a·b".chars().map(u32::from).collect();
        assert_eq!(
            to_ascii(Switches::STRICT, &bad),
            Err(LabelError::ContextO(0xB7))
        );
        // No mapping: a capital is refused.
        let capital: Vec<u32> = "Bücher".chars().map(u32::from).collect();
        assert_eq!(
            to_ascii(Switches::STRICT, &capital),
            Err(LabelError::Disallowed2008(0x42))
        );
        // An A-label given to ToASCII is held to 63 octets under
        // VerifyDnsLength, as the A-label of its U-label is (the label_roundtrip
        // fuzz target's finding); ToUnicode has no length rule.
        let u_label: String = std::iter::once('\u{92F}')
            .chain(std::iter::repeat_n('f', 61))
            .collect();
        let a_label = to_ascii(
            Switches {
                verify_dns_length: false,
                ..Switches::STRICT
            },
            &u_label.chars().map(u32::from).collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(a_label.len() > MAX_LABEL_OCTETS);
        let given: Vec<u32> = a_label.iter().map(|&b| u32::from(b)).collect();
        assert_eq!(
            to_ascii(Switches::STRICT, &given),
            Err(LabelError::DnsLength(a_label.len()))
        );
        assert_eq!(
            unicode(std::str::from_utf8(&a_label).unwrap()).unwrap(),
            u_label
        );
    }
}
