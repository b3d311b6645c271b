//! IDNA2003 (RFC 3490 section 4) of one label: ToASCII and ToUnicode with
//! Nameprep (RFC 3491, the stringprep profile of RFC 3454) for queries
//! (AllowUnassigned: "If this conversion follows the queries rule from
//! [STRINGPREP]", section 4), UseSTD3ASCIIRules as the caller's switch.
//!
//! Nameprep, RFC 3491 sections 3 to 7 over Unicode 3.2:
//!
//! 1. map table B.1 to nothing and map by table B.2 (case folding for
//!    NFKC);
//! 2. normalize to NFKC;
//! 3. prohibit tables C.1.2, C.2.2, C.3 to C.9;
//! 4. the Bidi checks of RFC 3454 section 6 (D.1 RandALCat, D.2 LCat);
//! 5. unassigned code points (table A.1) are let through, for queries.
//!
//! The tables are RFC 3454's own, from the `stringprep` crate (its
//! `tables` module, generated from the RFC). Two steps take Unicode data
//! that the tables do not hold, from ICU4X, which is a later version than
//! 3.2: NFKC, run on each stretch of code points assigned in 3.2, a code
//! point table A.1 lists being inert in 3.2 (no decomposition, combining
//! class 0; a later one composes or decomposes nothing of 3.2's either,
//! since no composite is added after Unicode 3.1); and the Bidi classes of
//! D.1 and D.2, which are those of the code points assigned in 3.2 only.
//! Where a later Unicode version changed the NFKC decomposition (the six
//! CJK compatibility ideographs of Corrigendum #4, Unicode 4.0.1) or the
//! Bidi class of a code point of 3.2, this reference follows the later
//! data.
//!
//! ToASCII (section 4.1): Nameprep when not all ASCII; with
//! UseSTD3ASCIIRules no non-LDH ASCII and no hyphen-minus first or last;
//! when not all ASCII, not beginning with the ACE prefix (in any case,
//! section 5), Punycode behind `xn--`; 1 to 63 code points always (step 8;
//! VerifyDnsLength is UTS #46's name for it and changes nothing here).
//!
//! ToUnicode (section 4.2): Nameprep when not all ASCII; the ACE prefix in
//! any case; Punycode decoding of the rest; ToASCII of the result, which
//! must equal the label case-insensitively; the answer is the decoding, as
//! Punycode gives it (an uppercase basic code point stays uppercase).
//! RFC 3490's ToUnicode "never fails" and answers its input instead: that
//! is a refusal here.

use icu_normalizer::ComposingNormalizerBorrowed;
use icu_properties::CodePointMapData;
use icu_properties::props::BidiClass;
use stringprep::tables;

use super::{LabelError, MAX_LABEL_OCTETS, Switches};
use crate::punycode;

/// Nameprep (RFC 3491) of `label`, for queries.
pub fn nameprep(label: &[char]) -> Result<Vec<char>, LabelError> {
    // Section 3, mapping: B.1 to nothing, B.2.
    let mapped: Vec<char> = label
        .iter()
        .filter(|&&c| !tables::commonly_mapped_to_nothing(c))
        .flat_map(|&c| tables::case_fold_for_nfkc(c))
        .collect();
    // Section 4, NFKC over Unicode 3.2: each stretch of code points
    // assigned in 3.2 on its own, an unassigned one standing as it is.
    let nfkc = ComposingNormalizerBorrowed::new_nfkc();
    let mut normalized = Vec::with_capacity(mapped.len());
    let mut stretch: Vec<char> = Vec::new();
    for &c in &mapped {
        if tables::unassigned_code_point(c) {
            normalized.extend(nfkc.normalize_iter(stretch.drain(..)));
            normalized.push(c);
        } else {
            stretch.push(c);
        }
    }
    normalized.extend(nfkc.normalize_iter(stretch.drain(..)));
    // Section 5, prohibited output.
    if let Some(&c) = normalized.iter().find(|&&c| {
        tables::non_ascii_space_character(c)
            || tables::non_ascii_control_character(c)
            || tables::private_use(c)
            || tables::non_character_code_point(c)
            || tables::surrogate_code(c)
            || tables::inappropriate_for_plain_text(c)
            || tables::inappropriate_for_canonical_representation(c)
            || tables::change_display_properties_or_deprecated(c)
            || tables::tagging_character(c)
    }) {
        return Err(LabelError::Prohibited(u32::from(c)));
    }
    // Section 6, RFC 3454 section 6: with a RandALCat code point, no LCat
    // one, and RandALCat first and last.
    let bidi = CodePointMapData::<BidiClass>::new();
    let assigned = |c: char| !tables::unassigned_code_point(c);
    let rand_al = |c: char| {
        assigned(c)
            && matches!(
                bidi.get(c),
                BidiClass::RightToLeft | BidiClass::ArabicLetter
            )
    };
    let l = |c: char| assigned(c) && bidi.get(c) == BidiClass::LeftToRight;
    if normalized.iter().any(|&c| rand_al(c)) {
        if normalized.iter().any(|&c| l(c)) {
            return Err(LabelError::StringprepBidi(2));
        }
        let (first, last) = (normalized[0], normalized[normalized.len() - 1]);
        if !rand_al(first) || !rand_al(last) {
            return Err(LabelError::StringprepBidi(3));
        }
    }
    Ok(normalized)
}

/// ToASCII, RFC 3490 section 4.1.
pub fn to_ascii(switches: Switches, label: &[u32]) -> Result<Vec<u8>, LabelError> {
    let chars = label
        .iter()
        .map(|&cp| char::from_u32(cp).ok_or(LabelError::NotScalar(cp)))
        .collect::<Result<Vec<char>, _>>()?;
    to_ascii_chars(switches, &chars)
}

fn to_ascii_chars(switches: Switches, label: &[char]) -> Result<Vec<u8>, LabelError> {
    // Steps 1 and 2.
    let label = if label.iter().all(char::is_ascii) {
        label.to_vec()
    } else {
        nameprep(label)?
    };
    // Step 3.
    if switches.use_std3_ascii_rules {
        if let Some(&c) = label
            .iter()
            .find(|c| c.is_ascii() && !c.is_ascii_alphanumeric() && **c != '-')
        {
            return Err(LabelError::NotLdh(u32::from(c)));
        }
        if label.first() == Some(&'-') || label.last() == Some(&'-') {
            return Err(LabelError::HyphenAtEnd);
        }
    }
    // Steps 4 to 7.
    let out: Vec<u8> = if label.iter().all(char::is_ascii) {
        label.iter().map(|&c| c as u8).collect()
    } else {
        let prefix: Vec<u8> = label.iter().take(4).map(|&c| c as u8).collect();
        if label.len() >= 4
            && label[..4].iter().all(char::is_ascii)
            && super::has_ace_prefix(&prefix)
        {
            return Err(LabelError::BeginsWithAcePrefix);
        }
        let code_points: Vec<u32> = label.iter().map(|&c| u32::from(c)).collect();
        let mut out = super::ACE_PREFIX.as_bytes().to_vec();
        out.extend(punycode::encode(&code_points, None).map_err(LabelError::Punycode)?);
        out
    };
    // Step 8.
    if !(1..=MAX_LABEL_OCTETS).contains(&out.len()) {
        return Err(LabelError::DnsLength(out.len()));
    }
    Ok(out)
}

/// ToUnicode, RFC 3490 section 4.2.
pub fn to_unicode(switches: Switches, label: &[u8]) -> Result<Vec<u32>, LabelError> {
    let text = std::str::from_utf8(label).map_err(|_| LabelError::NotText)?;
    let chars: Vec<char> = text.chars().collect();
    // Steps 1 and 2: Nameprep when not all ASCII (its result, a label to
    // decode, must then be ASCII for the steps below to apply).
    let label: Vec<char> = if chars.iter().all(char::is_ascii) {
        chars
    } else {
        let prepared = nameprep(&chars)?;
        if let Some(&c) = prepared.iter().find(|c| !c.is_ascii()) {
            return Err(LabelError::NonAsciiInAceLabel(u32::from(c)));
        }
        prepared
    };
    let ascii: Vec<u8> = label.iter().map(|&c| c as u8).collect();
    // Step 3, the prefix in any case (section 5).
    if !super::has_ace_prefix(&ascii) {
        return Err(LabelError::NotAceLabel);
    }
    // Steps 4 and 5.
    let decoded = punycode::decode(&ascii[4..]).map_err(LabelError::Punycode)?;
    let chars = decoded
        .code_points
        .iter()
        .map(|&cp| char::from_u32(cp).ok_or(LabelError::DecodesToNonScalar(cp)))
        .collect::<Result<Vec<char>, _>>()?;
    // Steps 6 and 7.
    let again = to_ascii_chars(switches, &chars)?;
    if !again.eq_ignore_ascii_case(&ascii) {
        return Err(LabelError::NotReencoded(
            String::from_utf8_lossy(&again).into_owned(),
        ));
    }
    // Step 8.
    Ok(decoded.code_points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn switches() -> Switches {
        Switches {
            use_std3_ascii_rules: false,
            ..Switches::STRICT
        }
    }

    fn unicode(label: &str) -> Result<String, LabelError> {
        to_unicode(switches(), label.as_bytes())
            .map(|cps| cps.into_iter().filter_map(char::from_u32).collect())
    }

    fn ascii(label: &str) -> Result<String, LabelError> {
        let cps: Vec<u32> = label.chars().map(u32::from).collect();
        to_ascii(switches(), &cps).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn nameprep_maps_folds_and_normalizes() {
        // B.2 folds ß to ss, and A to a; B.1 drops U+00AD SOFT HYPHEN.
        assert_eq!(ascii("Straße").unwrap(), "strasse");
        assert_eq!(ascii("BÜ\u{AD}cher").unwrap(), "xn--bcher-kva");
        // NFKC: U+FB01 LATIN SMALL LIGATURE FI is fi.
        assert_eq!(ascii("\u{FB01}é").unwrap(), ascii("fié").unwrap());
        // C.1.2: U+00A0 is prohibited... after B.2 and NFKC have kept it?
        // NFKC makes it a space (ASCII, allowed without STD3 rules).
        assert_eq!(ascii("a\u{A0}é").unwrap(), ascii("a é").unwrap());
        // C.3: private use.
        assert_eq!(ascii("a\u{E000}"), Err(LabelError::Prohibited(0xE000)));
    }

    #[test]
    fn to_unicode_takes_the_prefix_in_any_case_and_checks_the_round_trip() {
        assert_eq!(unicode("xn--bcher-kva").unwrap(), "bücher");
        // Punycode keeps the case of basic code points; ToASCII of
        // "BüCHER" is xn--bcher-kva, equal to the input but for case.
        assert_eq!(unicode("XN--BCHER-KVA").unwrap(), "BüCHER");
        // 'go' converts back to 'go', not to xn--go-.
        assert!(matches!(
            unicode("xn--go-"),
            Err(LabelError::NotReencoded(_))
        ));
        assert_eq!(unicode("xn--"), Err(LabelError::DnsLength(0)));
        // U+2488 is NFKC '1.', whose ToASCII is '1.', not xn--a-ecp.
        assert!(unicode("xn--a-ecp").is_err());
    }
}
