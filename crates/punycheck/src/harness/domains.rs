//! Generated questions of the `domain` codec: whole names, joined from
//! the label codec's labels and from the labels where the whole-name
//! advisories are, by every separator.
//!
//! A name is one to five labels, each one of: a plain ASCII label (in any
//! case, sometimes breaking an LDH rule: `a_b`, `-a`, `ab--c`, a bogus
//! `xn--` label, `xn--go-`); a U-label or a broken one of the label
//! codec ([`super::labels`]); its A-label; a right-to-left label (Arabic,
//! Hebrew, with Arabic-Indic or European digits); a label that starts
//! with a digit (`1x`, which the Bidi rule refuses beside a right-to-left
//! label); a label of fullwidth letters (`ａｂｃ`, three octets each in
//! UTF-8 and one after mapping); a label with a code point that maps to a
//! separator, a digit or a URL delimiter (`⒈`, `①`, `＼`, U+00AD);
//! a label with a C0 control, DELETE or the space ([`CONTROLS`]); a label
//! with two or three joiners, one in its context and one not
//! ([`labels::joiners_label`]); CONTEXTO code points beside each other;
//! an empty label. They are joined by U+002E, U+3002, U+FF0E or U+FF61,
//! sometimes with a trailing dot, and some names are grown to the
//! limits: labels of 63 and 64 octets, names of 253 and 254, and far past
//! them (labels of 300 octets, names of 2,000). Some names have runs of
//! dots, mapped ones among them ([`DOTS`]), and some have many labels (10
//! to 300).
//!
//! Under the URL Standard's host parser ([`crate::label::LabelRules::Url`])
//! half the names are hosts of its own: numbers that the IPv4 parser reads
//! or refuses (`0x7f`, `09`, `4294967296`, fullwidth and circled digits),
//! percent-encoded bytes (`%41`, `%2e`, `%C3%BC`, a lone `%`),
//! forbidden host code points, and `xn--` labels that ToASCII refuses and
//! the ASCII fallback keeps.
//!
//! Questions to decode are names of A-labels and U-labels that the
//! reference encodes, one label mutated as the label codec mutates
//! A-labels ([`super::labels::mutate`]), sometimes with another separator,
//! a trailing dot, or in uppercase.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::labels;
use crate::domain::{self, SEPARATORS};
use crate::label::LabelProfile;
use crate::vocabulary::Request;

/// Lowercase letters and digits.
const LDH: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// ASCII labels that break a rule of their own: STD3 (`_`), CheckHyphens
/// (first, last, third and fourth), an `xn--` label whose Punycode
/// decodes to ASCII (`xn--go-`), to nothing, or not at all.
const ODD_ASCII: &[&str] = &[
    "a_b",
    "-a",
    "a-",
    "ab--c",
    "xn--go-",
    "xn--",
    "xn--a000000000",
    "XN--BCHER-KVA",
    "xn--zz",
    "xn--mgb",
];

/// Code points that mapping turns into a separator, a digit or a URL
/// delimiter, or removes: U+2488 DIGIT ONE FULL STOP (disallowed), U+2460
/// CIRCLED DIGIT ONE (`1`), U+FF10 FULLWIDTH DIGIT ZERO, U+FF3C FULLWIDTH
/// REVERSE SOLIDUS (`\`), U+FF0F FULLWIDTH SOLIDUS (`/`), U+00AD SOFT
/// HYPHEN (ignored), U+2024 ONE DOT LEADER.
const MAPPED_SPECIALS: &[u32] = &[
    0x2488, 0x2460, 0xFF10, 0xFF3C, 0xFF0F, 0x00AD, 0x2024, 0xFF21,
];

/// A question to encode under `profile`: a name of the module docs.
pub fn encode_request(rng: &mut ChaCha8Rng, profile: LabelProfile) -> Request {
    let code_points = if profile.rules.is_url() && rng.random_bool(0.5) {
        host(rng)
    } else {
        name(rng)
    };
    Request::Encode {
        code_points,
        flags: None,
    }
}

/// A question to decode: the reference's ToASCII of a name (under the
/// switches of the URL Standard, which refuse least), with its labels
/// sometimes left as U-labels, mutated most of the time.
pub fn decode_request(rng: &mut ChaCha8Rng, profile: LabelProfile) -> Request {
    let lenient = LabelProfile {
        rules: profile.rules,
        switches: crate::label::Switches::URL,
    };
    let (source, ascii) = loop {
        let source = name(rng);
        if let Ok(ascii) = domain::to_ascii(lenient, &source) {
            break (source, ascii);
        }
    };
    let mut labels: Vec<Vec<u8>> = ascii.split(|&b| b == b'.').map(<[u8]>::to_vec).collect();
    match rng.random_range(0..10) {
        0..=1 => {}
        2..=5 => {
            // One A-label (or plain label) mutated as the label codec does.
            let at = rng.random_range(0..labels.len());
            if labels[at].len() >= 4 {
                labels[at] = labels::mutate(rng, std::mem::take(&mut labels[at]));
            }
        }
        6 => {
            // Uppercase.
            for label in &mut labels {
                label.make_ascii_uppercase();
            }
        }
        7 => labels.push(Vec::new()),
        8 => {
            // The name as the source wrote it, U-labels and all.
            let text: String = source.iter().filter_map(|&cp| char::from_u32(cp)).collect();
            return Request::Decode(text.into_bytes());
        }
        _ => {
            // Another separator between two labels.
            if labels.len() > 1 {
                let text = join_with(rng, &labels);
                return Request::Decode(text.into_bytes());
            }
        }
    }
    Request::Decode(labels.join(&b'.'))
}

/// Labels joined by separators drawn at random.
fn join_with(rng: &mut ChaCha8Rng, labels: &[Vec<u8>]) -> String {
    let mut text = String::new();
    for (i, label) in labels.iter().enumerate() {
        if i > 0 {
            text.push(separator(rng));
        }
        text.push_str(&String::from_utf8_lossy(label));
    }
    text
}

/// U+002E most of the time, else one of the other three.
fn separator(rng: &mut ChaCha8Rng) -> char {
    if rng.random_bool(0.75) {
        '.'
    } else {
        SEPARATORS[rng.random_range(1..SEPARATORS.len())]
    }
}

/// A name of the module docs, as code points.
fn name(rng: &mut ChaCha8Rng) -> Vec<u32> {
    match rng.random_range(0..24) {
        0 | 1 => return long_name(rng),
        2 => return dots_name(rng),
        3 => return many_labels_name(rng),
        _ => {}
    }
    let count = match rng.random_range(0..10) {
        0..=1 => 1,
        2..=5 => 2,
        6..=8 => 3,
        _ => rng.random_range(4..=5),
    };
    let mut out = Vec::new();
    for i in 0..count {
        if i > 0 {
            out.push(u32::from(separator(rng)));
        }
        out.extend(label(rng));
    }
    if rng.random_ratio(1, 5) {
        out.push(u32::from(separator(rng)));
    }
    out
}

/// One label of the module docs.
fn label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    match rng.random_range(0..23) {
        19 => control_label(rng),
        20 => labels::joiners_label(rng),
        21 => contexto_label(rng),
        0..=4 => ascii_label(rng),
        5..=7 => labels::u_label(rng),
        8 => match labels::encode_request(rng, LabelProfile::DEFAULT) {
            Request::Encode { code_points, .. } => code_points,
            Request::Decode(_) => Vec::new(),
        },
        9 => {
            let u = labels::u_label(rng);
            match crate::label::to_ascii(LabelProfile::DEFAULT, &u) {
                Ok(a) => a.into_iter().map(u32::from).collect(),
                Err(_) => u,
            }
        }
        10..=12 => rtl_label(rng),
        13 => {
            // Digit first: the Bidi rule's condition 1 beside an RTL label.
            let mut out = vec![u32::from(b'0' + rng.random_range(0..10))];
            out.extend(ascii_label(rng));
            out
        }
        14 => {
            // Fullwidth letters: three octets each before mapping, one after.
            let n = rng.random_range(1..=64);
            (0..n).map(|_| 0xFF41 + rng.random_range(0..26)).collect()
        }
        15 => {
            let mut out = ascii_label(rng);
            let at = rng.random_range(0..=out.len());
            // Half the time a code point of a Unicode class drawn
            // uniformly (never a full stop: that makes another label).
            let special = if rng.random_bool(0.5) {
                MAPPED_SPECIALS[rng.random_range(0..MAPPED_SPECIALS.len())]
            } else {
                super::unicode_classes::table().any_class_member(rng)
            };
            out.insert(at, special);
            out
        }
        16 => ODD_ASCII[rng.random_range(0..ODD_ASCII.len())]
            .chars()
            .map(u32::from)
            .collect(),
        17 => Vec::new(),
        _ => {
            let mut out = ascii_label(rng);
            for cp in &mut out {
                if rng.random_bool(0.5) && (0x61..=0x7A).contains(cp) {
                    *cp -= 0x20;
                }
            }
            out
        }
    }
}

/// C0 controls (NUL, TAB, LF, CR, ESC, U+001F and U+0001), the space and
/// DELETE: UTS #46 keeps each in a label without UseSTD3ASCIIRules (they
/// are valid in the IDNA Mapping Table since revision 31, and only
/// criterion 7 with the switch refuses them), as IDNA2003 keeps them in
/// an ASCII label without it (RFC 3490 section 4.1, step 3); the URL
/// Standard's domain to ASCII then forbids them (section 3.3, the
/// forbidden domain code points), and UseSTD3ASCIIRules refuses them.
const CONTROLS: &[u32] = &[0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x20, 0x7F];

/// An ASCII label or a U-label with a control, the space or DELETE
/// inside or at an end ([`CONTROLS`]): `ü` U+007F is one (Addressable
/// 2.8.1 returns such a name unchanged, non-ASCII and all).
fn control_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let mut out = if rng.random_bool(0.5) {
        ascii_label(rng)
    } else {
        labels::u_label(rng)
    };
    let at = rng.random_range(0..=out.len());
    out.insert(at, CONTROLS[rng.random_range(0..CONTROLS.len())]);
    out
}

/// CONTEXTO code points of RFC 5892 Appendix A.3 to A.9, beside each other
/// and beside what their rules ask for or not: U+00B7 MIDDLE DOT between
/// two `l` (`l·l·l`) or two of them together (`l··l`); U+0375 GREEK
/// KERAIA before a Greek letter or before another keraia; U+05F3 and
/// U+05F4 (geresh, gershayim) after a Hebrew letter and after each other;
/// U+30FB KATAKANA MIDDLE DOT doubled, with or without a kana beside;
/// Arabic-Indic digits (U+0660...) beside Extended Arabic-Indic digits
/// (U+06F0...), after an Arabic letter. IDNA2008 applies these rules
/// (RFC 5891 section 5.4 lets a lookup apply them); UTS #46 does not.
fn contexto_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    const L: u32 = 0x6C;
    const DOT: u32 = 0x00B7;
    const KERAIA: u32 = 0x0375;
    const KATAKANA_DOT: u32 = 0x30FB;
    match rng.random_range(0..10) {
        0 => vec![L, DOT, L, DOT, L],
        1 => vec![L, DOT, DOT, L],
        2 => vec![DOT, L, DOT],
        3 => vec![KERAIA, 0x03B1, KERAIA, 0x03B2],
        4 => vec![KERAIA, KERAIA, 0x03B1],
        5 => vec![0x05D0, 0x05F3, 0x05F4],
        6 => vec![0x05F4, 0x05D0, 0x05F3],
        7 => vec![0x30A2, KATAKANA_DOT, KATAKANA_DOT, 0x30A4],
        8 => vec![0x61, KATAKANA_DOT, KATAKANA_DOT],
        _ => {
            let arabic = 0x0628;
            let (d1, d2) = (rng.random_range(0..10), rng.random_range(0..10));
            if rng.random_bool(0.5) {
                vec![arabic, 0x0660 + d1, 0x0660 + d2]
            } else {
                vec![arabic, 0x0660 + d1, 0x06F0 + d2]
            }
        }
    }
}

/// Full stops and what mapping makes of other dots: U+002E, U+3002
/// IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP and U+FF61
/// HALFWIDTH IDEOGRAPHIC FULL STOP (each mapped to U+002E by UTS #46 step
/// 1, and separators in IDNA2003, RFC 3490 section 3.1), U+FE52 SMALL FULL
/// STOP and U+2024 ONE DOT LEADER (disallowed in UTS #46; Nameprep maps
/// them to U+002E), U+2488 DIGIT ONE FULL STOP (disallowed; `1.` under
/// NFKC).
const DOTS: &[u32] = &[0x2E, 0x3002, 0xFF0E, 0xFF61, 0xFE52, 0x2024, 0x2488];

/// A name with runs of one to three dots of [`DOTS`] between its labels,
/// and sometimes first or last: `a。。b`, `a．｡b`, `。a`, `a.﹒b`. An empty
/// label between two separators is refused under VerifyDnsLength and kept
/// without it (the URL Standard's `a..b`).
fn dots_name(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let run = |rng: &mut ChaCha8Rng| -> Vec<u32> {
        (0..rng.random_range(1..=3))
            .map(|_| {
                if rng.random_bool(0.7) {
                    DOTS[rng.random_range(0..4)]
                } else {
                    DOTS[rng.random_range(0..DOTS.len())]
                }
            })
            .collect()
    };
    let count = rng.random_range(1..=4);
    let mut out = Vec::new();
    if rng.random_ratio(1, 4) {
        out.extend(run(rng));
    }
    for i in 0..count {
        if i > 0 {
            out.extend(run(rng));
        }
        out.extend(if rng.random_bool(0.7) {
            ascii_label(rng)
        } else {
            labels::u_label(rng)
        });
    }
    if rng.random_ratio(1, 4) {
        out.extend(run(rng));
    }
    out
}

/// A name of many short labels, 10 to 300 of them: ASCII letters, U-labels
/// and A-labels, joined by any separator, a thousand octets and more past
/// the 253 that VerifyDnsLength allows (the URL Standard sets no limit).
fn many_labels_name(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let count = match rng.random_range(0..4) {
        0..=2 => rng.random_range(10..=40),
        _ => rng.random_range(100..=300),
    };
    let mut out = Vec::new();
    for i in 0..count {
        if i > 0 {
            out.push(u32::from(separator(rng)));
        }
        match rng.random_range(0..4) {
            0 => {
                let u = labels::u_label(rng);
                match crate::label::to_ascii(LabelProfile::DEFAULT, &u) {
                    Ok(a) => out.extend(a.into_iter().map(u32::from)),
                    Err(_) => out.extend(u),
                }
            }
            1 => out.extend(labels::u_label(rng).into_iter().take(3)),
            _ => out.extend(
                (0..rng.random_range(1..=3)).map(|_| u32::from(LDH[rng.random_range(0..26)])),
            ),
        }
    }
    out
}

/// Numbers of the IPv4 parser: decimal, octal, hexadecimal, the empty
/// `0x`, `09` (no octal number), and the limits of a part and of an
/// address.
const IPV4_NUMBERS: &[&str] = &[
    "0",
    "1",
    "127",
    "255",
    "256",
    "0x7f",
    "0X1",
    "0x",
    "09",
    "0177",
    "4294967295",
    "4294967296",
    "0xffffffff",
    "1e1",
];

/// Percent-encoded bytes for the host parser: a letter, a full stop, a
/// solidus, ü in UTF-8, a byte that is no UTF-8, a lone or broken `%`.
const PERCENT: &[&str] = &["%41", "%2e", "%2F", "%C3%BC", "%FF", "%", "%zz", "%00"];

/// ASCII labels that ToASCII refuses and the ASCII fallback keeps: Punycode
/// that decodes to mapped code points (the URL Standard's `xn--8i7caa`), to
/// a control, to U+FFFD, to a lone joiner, to ASCII, to a Bidi failure, and
/// no Punycode at all.
const BOGUS_ACE: &[&str] = &[
    "xn--8i7caa",
    "xn--a",
    "xn--zn7c",
    "xn--1ug",
    "xn--go-",
    "XN--A-YOC",
    "xn--ls8h=",
];

/// Forbidden host code points that mapping keeps, and DELETE.
const FORBIDDEN: &[u32] = &[0x20, 0x3C, 0x3E, 0x5E, 0x7C, 0x5D, 0x7F, 0x01];

/// A host of the URL Standard's own: one to four labels of numbers (ASCII,
/// fullwidth or circled digits), percent-encoded bytes, forbidden code
/// points or the other labels, by any separator, sometimes with a
/// trailing dot.
fn host(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let count = rng.random_range(1..=4);
    let mut out = Vec::new();
    for i in 0..count {
        if i > 0 {
            out.push(u32::from(separator(rng)));
        }
        match rng.random_range(0..9) {
            0..=3 => {
                let number = IPV4_NUMBERS[rng.random_range(0..IPV4_NUMBERS.len())];
                let digits = number.chars().map(u32::from);
                match rng.random_range(0..6) {
                    // Fullwidth digits and letters map to ASCII ones.
                    0 => out.extend(digits.map(|c| c - 0x20 + 0xFF00)),
                    // Circled digits one to nine map to digits.
                    1 if number.bytes().all(|b| (b'1'..=b'9').contains(&b)) => {
                        out.extend(digits.map(|c| c - u32::from(b'1') + 0x2460));
                    }
                    _ => out.extend(digits),
                }
            }
            4 | 5 => {
                let mut label = ascii_label(rng);
                let at = rng.random_range(0..=label.len());
                let percent = PERCENT[rng.random_range(0..PERCENT.len())];
                label.splice(at..at, percent.chars().map(u32::from));
                out.extend(label);
            }
            6 => {
                let mut label = ascii_label(rng);
                let at = rng.random_range(1..=label.len());
                label.insert(at, FORBIDDEN[rng.random_range(0..FORBIDDEN.len())]);
                out.extend(label);
            }
            7 => {
                let ace = BOGUS_ACE[rng.random_range(0..BOGUS_ACE.len())];
                out.extend(ace.chars().map(u32::from));
            }
            _ => out.extend(label(rng)),
        }
    }
    if rng.random_ratio(1, 5) {
        out.push(u32::from(separator(rng)));
    }
    out
}

/// Letters and digits, a letter first, sometimes a hyphen inside.
fn ascii_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let len = rng.random_range(1..10);
    let mut out: Vec<u32> = (0..len)
        .map(|i| {
            let pool = if i == 0 { &LDH[..26] } else { LDH };
            u32::from(pool[rng.random_range(0..pool.len())])
        })
        .collect();
    if out.len() > 4 && rng.random_bool(0.2) {
        out[4] = u32::from(b'-');
    }
    out
}

/// Right-to-left letters valid under every profile, drawn from the
/// references' tables (Bidi_Class R or AL: Hebrew, Arabic, Syriac,
/// Thaana...), sometimes with digits (Arabic-Indic or European) inside or
/// last, sometimes a Latin letter (which the Bidi rule refuses in an RTL
/// label).
fn rtl_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let len = rng.random_range(1..8);
    let table = super::unicode_classes::table();
    let mut out: Vec<u32> = (0..len).map(|_| table.rtl_letter(rng)).collect();
    match rng.random_range(0..8) {
        0 => out.push(0x0660 + rng.random_range(0..10)),
        1 => out.push(u32::from(b'0' + rng.random_range(0..10))),
        2 => out.push(u32::from(b'a' + rng.random_range(0..26))),
        _ => {}
    }
    out
}

/// A name at the limits: labels of 63 octets (sometimes 64), to 253
/// octets in all (sometimes 254), sometimes with a trailing dot, and
/// sometimes with one label of fullwidth letters (189 octets of UTF-8
/// that map to 63). One in four goes far past them, where the switches
/// allow it (VerifyDnsLength off: the URL Standard's): labels of up to
/// 300 octets, names of up to 2,000.
fn long_name(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let far = rng.random_ratio(1, 4);
    let target = if far {
        rng.random_range(255..=2000)
    } else {
        253 + usize::from(rng.random_bool(0.5))
    };
    let mut labels: Vec<Vec<u32>> = Vec::new();
    let mut length = 0;
    while length < target {
        let room = target - length - usize::from(!labels.is_empty());
        let longest = if far {
            rng.random_range(64..=300)
        } else {
            63 + usize::from(rng.random_ratio(1, 4))
        };
        let size = room.min(longest);
        if size == 0 {
            break;
        }
        let letter = u32::from(LDH[rng.random_range(0..26)]);
        labels.push(vec![letter; size]);
        length += size + usize::from(labels.len() > 1);
    }
    if rng.random_bool(0.3)
        && let Some(first) = labels.first_mut()
    {
        for cp in first.iter_mut() {
            *cp = *cp - 0x61 + 0xFF41;
        }
    }
    let mut out: Vec<u32> = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        if i > 0 {
            out.push(u32::from('.'));
        }
        out.extend(label);
    }
    if rng.random_bool(0.3) {
        out.push(u32::from('.'));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::{LabelRules, Switches};
    use rand::SeedableRng;

    #[test]
    fn names_reach_every_whole_name_rule() {
        // Over 1,500 names each rule of the name is met, and many names
        // pass: what the planted implementations of tests/domain_planted.rs
        // need to be found.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut rules = std::collections::BTreeMap::new();
        let (strict, url) = (
            LabelProfile::DEFAULT,
            LabelProfile {
                rules: LabelRules::Uts46,
                switches: Switches::URL,
            },
        );
        let mut passed = 0;
        for _ in 0..1500 {
            let Request::Encode { code_points, .. } = encode_request(&mut rng, strict) else {
                panic!("an encode question");
            };
            match domain::to_ascii(strict, &code_points) {
                Ok(_) => passed += 1,
                Err(e) => *rules.entry(e.rule()).or_insert(0) += 1,
            }
            if let Err(e) = domain::to_ascii(url, &code_points) {
                *rules.entry(e.rule()).or_insert(0) += 1;
            }
        }
        for rule in [
            "bidi-across-labels",
            "empty-label",
            "name-length",
            "dns-length",
            "bidi",
            "not-ldh",
            "disallowed",
        ] {
            assert!(
                rules.get(rule).is_some_and(|&n| n >= 5),
                "{rule}: {rules:?}"
            );
        }
        assert!(passed > 400, "{passed} passed, {rules:?}");
    }

    /// The families of issue 38 come in 3,000 names: controls, DELETE,
    /// NUL and the space kept under the URL Standard's switches and
    /// refused under a registry's; labels with two and three joiners,
    /// refused for a joiner after the first; runs of dots made by mapping;
    /// names far past 253 octets and labels past 63 that the URL
    /// Standard's switches keep; names of 100 labels and more.
    #[test]
    fn names_reach_controls_joiners_dots_lengths_and_many_labels() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let url = LabelProfile {
            rules: LabelRules::Uts46,
            switches: Switches::URL,
        };
        let (mut controls_kept, mut controls_refused, mut later_joiner) = (0, 0, 0);
        let (mut dot_runs, mut far, mut many) = (0, 0, 0);
        for _ in 0..3000 {
            let Request::Encode { code_points, .. } = encode_request(&mut rng, url) else {
                panic!("an encode question");
            };
            let lenient = domain::to_ascii(url, &code_points);
            if code_points.iter().any(|&cp| cp < 0x21 || cp == 0x7F) {
                match (
                    &lenient,
                    domain::to_ascii(LabelProfile::DEFAULT, &code_points),
                ) {
                    (Ok(_), Err(_)) => controls_kept += 1,
                    (_, Err(_)) => controls_refused += 1,
                    (_, Ok(ascii)) => panic!("{code_points:X?} is {ascii:?} with STD3"),
                }
            }
            // A label whose first joiner is after a virama, and a later
            // one is not.
            let joiners: Vec<usize> = (0..code_points.len())
                .filter(|&i| matches!(code_points[i], 0x200C | 0x200D))
                .collect();
            if joiners.len() >= 2
                && joiners[0] > 0
                && code_points[joiners[0] - 1] == 0x094D
                && lenient.is_err()
            {
                later_joiner += 1;
            }
            let dots = code_points
                .windows(2)
                .filter(|w| w.iter().all(|cp| DOTS.contains(cp) && *cp != 0x2E))
                .count();
            dot_runs += usize::from(dots > 0);
            if let Ok(ascii) = &lenient {
                far += usize::from(
                    ascii.len() > 253 && ascii.split(|&b| b == b'.').any(|l| l.len() > 63),
                );
                many += usize::from(ascii.split(|&b| b == b'.').count() >= 100);
            }
        }
        assert!(
            controls_kept >= 20 && controls_refused >= 20,
            "{controls_kept} {controls_refused}"
        );
        assert!(later_joiner >= 5, "{later_joiner}");
        assert!(dot_runs >= 20, "{dot_runs}");
        assert!(far >= 10 && many >= 5, "{far} {many}");
    }

    /// CONTEXTO code points beside each other meet and break their rules
    /// under IDNA2008, which applies them (RFC 5892 Appendix A.3 to A.9).
    #[test]
    fn contexto_labels_meet_and_break_their_rules_under_idna2008() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let idna2008 = LabelProfile {
            rules: LabelRules::Idna2008,
            switches: Switches::URL,
        };
        let (mut kept, mut refused) = (0, 0);
        for _ in 0..300 {
            match crate::label::to_ascii(idna2008, &contexto_label(&mut rng)) {
                Ok(_) => kept += 1,
                Err(e) if e.rule() == "contexto" => refused += 1,
                Err(_) => {}
            }
        }
        assert!(kept >= 50 && refused >= 50, "{kept} {refused}");
    }

    #[test]
    fn hosts_reach_every_rule_of_the_host_parser() {
        // Under the URL Standard's rules, 1,500 hosts meet the IPv4
        // parser both ways, the forbidden code points, the empty host and
        // the fallback's differences, and many pass.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let url = LabelProfile {
            rules: LabelRules::Url,
            switches: Switches::URL,
        };
        let before = LabelProfile {
            rules: LabelRules::UrlBeforeAsciiFallback,
            ..url
        };
        let mut rules = std::collections::BTreeMap::new();
        let (mut addresses, mut differ) = (0, 0);
        for _ in 0..1500 {
            let Request::Encode { code_points, .. } = encode_request(&mut rng, url) else {
                panic!("an encode question");
            };
            let now = domain::to_ascii(url, &code_points);
            match &now {
                Ok(host)
                    if host
                        .split(|&b| b == b'.')
                        .all(|p| p.iter().all(u8::is_ascii_digit)) =>
                {
                    addresses += 1
                }
                Ok(_) => {}
                Err(e) => *rules.entry(e.rule()).or_insert(0) += 1,
            }
            differ += usize::from(now.is_ok() != domain::to_ascii(before, &code_points).is_ok());
        }
        for rule in [
            "ipv4",
            "forbidden-domain-code-point",
            "disallowed",
            "bidi-across-labels",
        ] {
            assert!(
                rules.get(rule).is_some_and(|&n| n >= 5),
                "{rule}: {rules:?}"
            );
        }
        assert!(
            addresses >= 50 && differ >= 20,
            "{addresses} {differ} {rules:?}"
        );
    }

    #[test]
    fn decode_questions_are_text_and_some_are_refused() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..1000 {
            let Request::Decode(text) = decode_request(&mut rng, LabelProfile::DEFAULT) else {
                panic!("a decode question");
            };
            assert!(std::str::from_utf8(&text).is_ok());
            match domain::to_unicode(LabelProfile::DEFAULT, &text) {
                Ok(_) => accepted += 1,
                Err(_) => refused += 1,
            }
        }
        assert!(accepted > 300 && refused > 150, "{accepted} {refused}");
    }
}
