//! Generated questions of the `label` codec: U-labels valid under every
//! profile to encode (sometimes broken on purpose, or with one, two or
//! three joiners each in a context that meets or breaks its rule, or at
//! one of the Bidi rule's conditions), plain ASCII labels to
//! encode (what each switch decides, and `xn--` labels in any case), and
//! A-labels mutated at the Punycode level to decode.
//!
//! The mutations are the places the A-label advisories were found:
//! truncation, the case of the prefix and of the Punycode, a delimiter
//! moved, doubled or removed, a digit changed, payloads that decode to
//! ASCII only (`xn--go-`), the empty payload (`xn--`), and bytes outside
//! the letters, digits and hyphen (`_`, `+`, a non-ASCII letter inside the
//! A-label). No question holds a full stop (each is about one label) or a
//! code point the URL Standard forbids in a host (a space, `%`, `/`...):
//! those are the URL parser's questions, not the label layer's.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::unicode_classes;
#[cfg(test)]
use crate::label::LabelError;
use crate::label::{self, LabelProfile};
use crate::vocabulary::Request;

/// Lowercase letters and digits: valid in every profile, any position.
const LDH: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// Code points that break a label in one rule each, where an advisory
/// was: an uppercase letter (mapped), U+2488 (disallowed; WebKit's
/// `xn--a-ecp`), a combining mark (first, it breaks criterion 6), the zero
/// width joiner and non-joiner (ContextJ), Hebrew alef (Bidi), U+00DF
/// (deviation: valid in Nontransitional), U+FFFD, and the low line (not
/// LDH). Never a full stop: a question is about one label. Half the
/// breakers are these; the other half are drawn from the Unicode classes
/// ([`breaker`]).
const BREAKERS: &[u32] = &[
    0x0041, 0x2488, 0x0301, 0x200D, 0x200C, 0x05D0, 0x00DF, 0xFFFD, 0x005F,
];

/// One U-label: letters and digits with at least one non-ASCII letter,
/// hyphens only inside and never at the third and fourth positions.
pub(super) fn u_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let len = match rng.random_range(0..10) {
        0..=6 => rng.random_range(1..8),
        7..=8 => rng.random_range(8..24),
        _ => rng.random_range(40..70),
    };
    let mut out: Vec<u32> = (0..len)
        .map(|_| {
            if rng.random_bool(0.5) {
                u32::from(LDH[rng.random_range(0..LDH.len())])
            } else {
                letter(rng)
            }
        })
        .collect();
    if out.len() > 5 && rng.random_bool(0.2) {
        let at = rng.random_range(4..out.len() - 1);
        out[at] = u32::from(b'-');
    }
    if !out.iter().any(|&cp| cp > 0x7F) {
        let at = rng.random_range(0..=out.len());
        out.insert(at, letter(rng));
    }
    out
}

/// A non-ASCII letter valid in a label under every profile, drawn from
/// the references' tables by script ([`unicode_classes::Table::letter`]).
fn letter(rng: &mut ChaCha8Rng) -> u32 {
    unicode_classes::table().letter(rng)
}

/// A code point that may break a label: one of [`BREAKERS`] or, half the
/// time, a code point of a Unicode class drawn uniformly
/// ([`unicode_classes::Table::any_class_member`]), never a full stop.
fn breaker(rng: &mut ChaCha8Rng) -> u32 {
    if rng.random_bool(0.5) {
        return BREAKERS[rng.random_range(0..BREAKERS.len())];
    }
    loop {
        let cp = unicode_classes::table().any_class_member(rng);
        if !matches!(cp, 0x2E | 0x3002 | 0xFF0E | 0xFF61) {
            return cp;
        }
    }
}

/// A label whose zero width non-joiner or joiner is in a context of RFC
/// 5892 Appendix A.1 or A.2, one that satisfies its rule or one that
/// breaks it: Arabic letters of Joining_Type D (beh, teh, lam, heh, meem)
/// and R (alef, dal, reh, waw), with T marks (fatha, kasra) between, and
/// Devanagari's virama. Each label is Arabic or Devanagari only, so the
/// Bidi rule passes and the joiner rule decides.
fn joiner_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    if rng.random_bool(0.4) {
        return joiners_label(rng);
    }
    const D: &[u32] = &[0x0628, 0x062A, 0x0644, 0x0647, 0x0645];
    const R: &[u32] = &[0x0627, 0x062F, 0x0631, 0x0648];
    const T: &[u32] = &[0x064E, 0x0650];
    const ZWNJ: u32 = 0x200C;
    const ZWJ: u32 = 0x200D;
    let mut pick = |set: &[u32]| set[rng.random_range(0..set.len())];
    let (d1, d2, r1, r2, t1, t2) = (pick(D), pick(D), pick(R), pick(R), pick(T), pick(T));
    match rng.random_range(0..7) {
        // A.1 satisfied: (L|D) T* ZWNJ T* (R|D).
        0 => vec![d1, ZWNJ, d2],
        1 => vec![d1, t1, ZWNJ, t2, d2],
        2 => vec![d1, ZWNJ, r1],
        // A.1 broken: R before it (U+0628 U+0627 U+200C U+0627 U+0628,
        // which Erlang's idna takes), or nothing joining on one side.
        3 => vec![d1, r1, ZWNJ, r2, d2],
        4 => vec![d1, ZWNJ],
        // A.1 and A.2 satisfied by a virama before.
        5 => vec![0x0915, 0x094D, if d1 % 2 == 0 { ZWNJ } else { ZWJ }, 0x0915],
        // A.2 broken: ZWJ between two letters.
        _ => vec![d1, ZWJ, d2],
    }
}

/// A label with two or three joiners, each in a context of its own:
/// one that meets RFC 5892 Appendix A.1 or A.2 (a virama before it,
/// `क्‌क`, `क्‍क`) and one that breaks it (between two Latin letters,
/// `a‌b`, or two Devanagari letters with no virama), in both orders and
/// at every place among three. An implementation that judges only the
/// first joiner of a label (Net::IDN::Encode 2.500's
/// `m/...|(\x{200C})/` stops at the first match; ada 2.9.2: Node 20
/// takes U+0915 U+094D U+200C U+0915 `a` U+200C `b`, a case the JSON
/// Schema test suite added in 2026) takes the label whose first joiner is
/// the valid one. Devanagari and Latin only, left to right, so the Bidi
/// rule passes and the joiner rules decide.
pub(super) fn joiners_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    const KA: u32 = 0x0915;
    const KHA: u32 = 0x0916;
    const VIRAMA: u32 = 0x094D;
    const ZWNJ: u32 = 0x200C;
    const ZWJ: u32 = 0x200D;
    let joiner = |rng: &mut ChaCha8Rng| if rng.random_bool(0.6) { ZWNJ } else { ZWJ };
    let valid = |rng: &mut ChaCha8Rng| vec![KA, VIRAMA, joiner(rng), KHA];
    let invalid = |rng: &mut ChaCha8Rng| match rng.random_range(0..3) {
        0 => vec![0x61, joiner(rng), 0x62],
        1 => vec![KA, joiner(rng), KA],
        // The joiner first in its segment: after the one before it.
        _ => vec![joiner(rng), 0x63],
    };
    let count = rng.random_range(2..=3);
    // Where the joiner that breaks its rule goes, or none (all valid).
    let broken = rng.random_range(0..=count);
    let mut out = Vec::new();
    for i in 0..count {
        out.extend(if i == broken {
            invalid(rng)
        } else {
            valid(rng)
        });
    }
    out
}

/// The ASCII code points that UseSTD3ASCIIRules refuses and the URL
/// Standard does not forbid in a host: the switch alone decides them
/// (UTS #46 section 4.1, criterion 7; RFC 1123's LDH rule).
const STD3_ONLY: &[u8] = b"_!$&'()*+,;=`{}~\"";

/// A label of ASCII code points only, for ToASCII, which UTS #46 and
/// IDNA2008 still process (lowercase, check, and decode an `xn--` label:
/// UTS #46 section 4.1, RFC 5891 section 5.3), and which an implementation
/// with an ASCII fast path may return as given (Erlang's idna: `xn--go-`
/// unchanged, `XN--BCHER-KVA` refused): letters and digits in any case,
/// one code point that UseSTD3ASCIIRules alone decides, hyphens at the
/// first, third and fourth, or last positions (CheckHyphens), and `xn--`
/// labels, the A-label of a valid U-label in any case, sometimes mutated
/// as [`mutate`] mutates the labels to decode (its ASCII mutations).
fn ascii_label(rng: &mut ChaCha8Rng, profile: LabelProfile) -> Vec<u8> {
    let ldh = |rng: &mut ChaCha8Rng, len: usize| -> Vec<u8> {
        (0..len)
            .map(|_| {
                let b = LDH[rng.random_range(0..LDH.len())];
                if rng.random_bool(0.3) {
                    b.to_ascii_uppercase()
                } else {
                    b
                }
            })
            .collect()
    };
    let len = rng.random_range(1..12);
    match rng.random_range(0..6) {
        0 => ldh(rng, len),
        1 => {
            let mut label = ldh(rng, len);
            let at = rng.random_range(0..=label.len());
            label.insert(at, STD3_ONLY[rng.random_range(0..STD3_ONLY.len())]);
            label
        }
        2 => {
            let mut label = ldh(rng, len.max(4));
            match rng.random_range(0..3) {
                0 => label.insert(0, b'-'),
                1 => {
                    label[2] = b'-';
                    label[3] = b'-';
                }
                _ => label.push(b'-'),
            }
            label
        }
        _ => {
            let mut label = loop {
                if let Ok(text) = label::to_ascii(profile, &u_label(rng)) {
                    break text;
                }
            };
            if rng.random_bool(0.5) {
                // Its ASCII mutations only: this label is code points.
                let mutated = mutate(rng, label.clone());
                if mutated.is_ascii() {
                    label = mutated;
                }
            }
            if rng.random_bool(0.5) {
                for b in &mut label {
                    if rng.random_bool(0.5) {
                        b.make_ascii_uppercase();
                    }
                }
            }
            label
        }
    }
}

/// A label in one of RFC 5893 section 2's six conditions, met or broken
/// by one code point: Hebrew letters (R) and points (NSM), Arabic letters
/// (AL) and Arabic-Indic digits (AN), European digits (EN), the hyphen
/// (ES) and Latin letters (L). A label with an R, AL or AN code point makes
/// its name a Bidi domain name, so the rule applies to a single label; the
/// sixth condition, an LTR label's end, needs an RTL label beside it
/// (the domain codec's questions), so here it is met only.
fn bidi_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    const R: &[u32] = &[0x05D0, 0x05D1, 0x05D2, 0x05E9];
    const AL: &[u32] = &[0x0628, 0x062A, 0x0633, 0x0645];
    const AN: &[u32] = &[0x0660, 0x0661, 0x0665];
    const NSM: u32 = 0x05B0;
    let mut pick = |set: &[u32]| set[rng.random_range(0..set.len())];
    let (r1, r2, al, an) = (pick(R), pick(R), pick(AL), pick(AN));
    let en = u32::from(b'1');
    match rng.random_range(0..12) {
        // Conditions 1 to 4 met: R and AL labels, with EN or AN, an NSM
        // at the end, a hyphen inside.
        0 => vec![r1, r2],
        1 => vec![r1, en, r2, en],
        2 => vec![al, an, al],
        3 => vec![r1, r2, NSM],
        4 => vec![r1, u32::from(b'-'), r2],
        // Conditions 5 and 6 met: an LTR label with EN, alone.
        5 => vec![0x61, en, 0x62],
        // 1 broken: a digit first.
        6 => vec![en, r1, r2],
        // 2 broken: an L code point in an RTL label.
        7 => vec![r1, 0x61, r2],
        // 3 broken: an RTL label that ends with ES.
        8 => vec![r1, r2, u32::from(b'-')],
        // 4 broken: EN and AN together.
        9 => vec![al, en, an],
        // 5 broken: an R or AN code point in an LTR label.
        10 => vec![0x61, r1],
        _ => vec![0x61, an],
    }
}

/// A question to encode: a valid U-label, or one broken by one code point
/// or by its shape (the ACE prefix, hyphens at the third and fourth
/// positions or at an end), a label with a joiner in a context that meets
/// or breaks its rule, a label at one of the Bidi rule's conditions, or a
/// label of ASCII only ([`ascii_label`], A-labels of `profile`'s
/// reference among them).
pub fn encode_request(rng: &mut ChaCha8Rng, profile: LabelProfile) -> Request {
    let mut code_points = u_label(rng);
    match rng.random_range(0..14) {
        0..=5 => {}
        10 => code_points = bidi_label(rng),
        11..=13 => {
            code_points = ascii_label(rng, profile)
                .into_iter()
                .map(u32::from)
                .collect()
        }
        6 | 7 if rng.random_ratio(1, 3) => code_points = joiner_label(rng),
        6 | 7 => {
            let at = rng.random_range(0..=code_points.len());
            code_points.insert(at, breaker(rng));
        }
        8 => {
            let prefix: &[u32] = match rng.random_range(0..3) {
                0 => &[0x78, 0x6E, 0x2D, 0x2D],
                1 => &[0x61, 0x62, 0x2D, 0x2D],
                _ => &[0x2D],
            };
            code_points.splice(0..0, prefix.iter().copied());
        }
        _ => code_points.push(0x2D),
    }
    Request::Encode {
        code_points,
        flags: None,
    }
}

/// A question to decode: the A-label of a valid U-label under `profile`'s
/// reference, mutated most of the time, or one in twenty the `xn--` label
/// of a label with two or three joiners ([`joiners_label`]).
pub fn decode_request(rng: &mut ChaCha8Rng, profile: LabelProfile) -> Request {
    if rng.random_ratio(1, 20) {
        return Request::Decode(ace_of(&joiners_label(rng)));
    }
    let text = loop {
        if let Ok(text) = label::to_ascii(profile, &u_label(rng)) {
            break text;
        }
    };
    Request::Decode(mutate(rng, text))
}

/// `xn--` and the Punycode of `label` as it is, valid or not: what
/// ToUnicode must still judge (a label with a joiner out of its context
/// has an A-label, which no valid ToASCII makes).
pub(super) fn ace_of(label: &[u32]) -> Vec<u8> {
    let mut text = b"xn--".to_vec();
    text.extend(crate::punycode::encode(label, None).unwrap_or_default());
    text
}

/// One of the mutations of the module docs, or none.
pub(super) fn mutate(rng: &mut ChaCha8Rng, mut text: Vec<u8>) -> Vec<u8> {
    let payload = text.split_off(4);
    let mut prefix = text;
    let mut payload = payload;
    match rng.random_range(0..14) {
        0..=2 => {}
        3 => {
            // The case of the prefix.
            for b in &mut prefix {
                if rng.random_bool(0.5) {
                    b.make_ascii_uppercase();
                }
            }
        }
        4 => payload.make_ascii_uppercase(),
        5 => {
            // Truncated.
            let at = rng.random_range(0..=payload.len());
            payload.truncate(at);
        }
        6 => {
            // A digit changed.
            if !payload.is_empty() {
                let at = rng.random_range(0..payload.len());
                payload[at] = LDH[rng.random_range(0..LDH.len())];
            }
        }
        7 => {
            // The delimiter moved, doubled, or added in front.
            let at = rng.random_range(0..=payload.len());
            payload.insert(at, b'-');
        }
        8 => {
            // Removed: every delimiter.
            payload.retain(|&b| b != b'-');
        }
        9 => {
            // A payload of ASCII only: letters and a final delimiter.
            let len = rng.random_range(0..8);
            payload = (0..len).map(|_| LDH[rng.random_range(0..26)]).collect();
            payload.push(b'-');
        }
        10 => payload.clear(),
        11 => {
            // A byte outside letters, digits and hyphen.
            let at = rng.random_range(0..=payload.len());
            let odd: &[u8] =
                [&b"_"[..], b"\xE3\x81\x8C", b"\xC3\xA9", b"+"][rng.random_range(0..4)];
            payload.splice(at..at, odd.iter().copied());
        }
        12 => {
            // The prefix twice (ada's xn--xn--).
            prefix.extend_from_slice(b"xn--");
        }
        _ => {
            // A far digit: a code point far above the rest.
            let at = rng.random_range(0..=payload.len());
            payload.splice(at..at, b"9z".iter().copied());
        }
    }
    prefix.extend(payload);
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn valid_u_labels_are_valid() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..2000 {
            let cps = u_label(&mut rng);
            let mut profile = LabelProfile::DEFAULT;
            profile.switches.verify_dns_length = false;
            assert!(
                label::to_ascii(profile, &cps).is_ok(),
                "{cps:X?}: {:?}",
                label::to_ascii(profile, &cps)
            );
        }
    }

    #[test]
    fn joiner_labels_meet_and_break_their_rule() {
        // Over 300 draws both outcomes of A.1 and A.2 come, and a refusal
        // is the joiner rule's, not another's.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut kept, mut refused) = (0, 0);
        for _ in 0..300 {
            let cps = joiner_label(&mut rng);
            match label::to_ascii(LabelProfile::DEFAULT, &cps) {
                Ok(_) => kept += 1,
                Err(e) => {
                    assert_eq!(e.rule(), "contextj", "{cps:X?}: {e}");
                    refused += 1;
                }
            }
        }
        assert!(kept > 100 && refused > 80, "{kept} {refused}");
    }

    #[test]
    fn decode_questions_are_mostly_a_labels_and_some_are_refused() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..2000 {
            let Request::Decode(text) = decode_request(&mut rng, LabelProfile::DEFAULT) else {
                panic!("a decode question");
            };
            assert!(label::has_ace_prefix(&text), "{text:?}");
            match label::to_unicode(LabelProfile::DEFAULT, &text) {
                Ok(_) => accepted += 1,
                Err(_) => refused += 1,
            }
        }
        assert!(accepted > 400 && refused > 400, "{accepted} {refused}");
    }

    /// Bidi labels meet each of RFC 5893 section 2's conditions 1 to 5 and
    /// break each of them, as the reference judges them under every rule
    /// set that applies the Bidi rule.
    #[test]
    fn bidi_labels_meet_and_break_each_condition() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut broken = std::collections::BTreeSet::new();
        let mut kept = 0;
        for _ in 0..600 {
            let cps = bidi_label(&mut rng);
            let mut profile = LabelProfile::DEFAULT;
            profile.switches.check_hyphens = false;
            match label::to_ascii(profile, &cps) {
                Ok(_) => kept += 1,
                Err(LabelError::Bidi(condition)) => {
                    broken.insert(condition);
                }
                Err(e) => panic!("{cps:X?}: {e}"),
            }
        }
        assert_eq!(broken, (1..=5).collect(), "{broken:?}");
        assert!(kept > 200, "{kept}");
    }

    /// ASCII labels reach what each switch decides (UseSTD3ASCIIRules,
    /// CheckHyphens), are lowercased, and hold `xn--` labels in any case
    /// that the reference decodes (an A-label of a valid U-label) and
    /// refuses (mutated).
    #[test]
    fn ascii_labels_reach_each_switch_and_a_labels_in_any_case() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut rules = std::collections::BTreeSet::new();
        let (mut upper, mut a_labels, mut a_labels_refused) = (0, 0, 0);
        for _ in 0..1000 {
            let text = ascii_label(&mut rng, LabelProfile::DEFAULT);
            assert!(text.is_ascii() && !text.is_empty(), "{text:?}");
            let cps: Vec<u32> = text.iter().map(|&b| u32::from(b)).collect();
            let answer = label::to_ascii(LabelProfile::DEFAULT, &cps);
            let prefixed = label::has_ace_prefix(&text);
            match &answer {
                Ok(ascii) => {
                    assert_eq!(ascii, &text.to_ascii_lowercase(), "{text:?}");
                    upper += usize::from(text.iter().any(u8::is_ascii_uppercase));
                    a_labels += usize::from(prefixed);
                }
                Err(e) => {
                    rules.insert(e.rule());
                    a_labels_refused += usize::from(prefixed);
                }
            }
        }
        for rule in ["not-ldh", "hyphen-at-end", "hyphens-3-4"] {
            assert!(rules.contains(rule), "{rule} in {rules:?}");
        }
        assert!(
            upper > 100 && a_labels > 100 && a_labels_refused > 30,
            "{upper} {a_labels} {a_labels_refused}"
        );
    }
}
