//! The system libraries behind the `libidn2` and `icu` engines: what their
//! wrappers return on the RFC samples, on empty, very long and hostile input,
//! and on each rule where a library departs from RFC 3492 Appendix C. Every
//! expected value is computed by the C reference (`punycheck::c_reference`).
//!
//! Only in a build with both (the default features).
#![cfg(all(punycheck_libidn2, punycheck_icu))]

use punycheck::c_reference;
use punycheck::engines::{CodePointDomain, Engine, EngineError, ErrorDetail, Icu, Libidn2};
use punycheck::punycode::{Decoded, ErrorKind};
use punycheck::rfc_text::{RFC3492_TEXT, samples};

const BAD_INPUT: EngineError = EngineError::Rejected(Some(ErrorKind::BadInput));

fn c_encode(input: &[u32], flags: Option<&[bool]>) -> Vec<u8> {
    c_reference::encode(input, flags).expect("the C reference encodes")
}

fn c_decode(input: &[u8]) -> Decoded {
    c_reference::decode(input).expect("the C reference decodes")
}

/// A long input: `len` code points, every fourth one basic, the others
/// cycling through `distinct` CJK code points.
fn long_input(len: usize, distinct: u32) -> Vec<u32> {
    (0..len as u32)
        .map(|k| {
            if k % 4 == 0 {
                0x61 + k % 26
            } else {
                0x4E00 + (k * 7919) % distinct
            }
        })
        .collect()
}

fn is_limit(result: &Result<impl std::fmt::Debug, EngineError>, name: &str) -> bool {
    matches!(result, Err(EngineError::Limit(message)) if message.contains(name))
}

#[test]
fn libraries_report_their_versions() {
    let idn2 = Libidn2::library_version();
    let icu = Icu::library_version();
    eprintln!("libidn2 {idn2}, ICU {icu}");
    assert!(idn2.starts_with(|c: char| c.is_ascii_digit()), "{idn2:?}");
    assert!(icu.starts_with(|c: char| c.is_ascii_digit()), "{icu:?}");
}

#[test]
fn declared_capabilities() {
    let idn2 = Libidn2.capabilities();
    assert_eq!(idn2.domain, CodePointDomain::U32);
    assert!(!idn2.annotations);
    assert_eq!(idn2.errors, ErrorDetail::Kinds);
    let icu = Icu.capabilities();
    assert_eq!(icu.domain, CodePointDomain::UnicodeScalar);
    assert!(icu.annotations);
    assert_eq!(icu.errors, ErrorDetail::FailureOnly);
    assert_eq!(icu.max_encode_input, Some(1000));
    assert_eq!(icu.max_decode_input, Some(2000));
}

#[test]
fn empty_input() {
    // Encoding nothing gives nothing in both.
    assert_eq!(Libidn2.encode(&[], None), Ok(Vec::new()));
    assert_eq!(Icu.encode(&[], None), Ok(Vec::new()));
    assert_eq!(Icu.encode(&[], Some(&[])), Ok(Vec::new()));
    // Decoding nothing: ICU gives nothing, like the C reference; libidn2
    // refuses ("if (!input_length) return punycode_bad_input").
    assert_eq!(c_decode(b""), Decoded::default());
    assert_eq!(Icu.decode(b""), Ok(Decoded::default()));
    assert_eq!(Libidn2.decode(b""), Err(BAD_INPUT));
}

#[test]
fn rfc_samples_both_ways() {
    let rfc = samples(RFC3492_TEXT);
    assert_eq!(rfc.len(), 19);
    for sample in &rfc {
        let id = sample.id;
        let code_points: Vec<u32> = sample.code_points.iter().map(|c| c.0).collect();
        let flags: Vec<bool> = sample.code_points.iter().map(|c| c.1).collect();

        // libidn2: no annotations.
        let plain = c_encode(&code_points, None);
        assert_eq!(
            Libidn2.encode(&code_points, None),
            Ok(plain.clone()),
            "{id}"
        );
        if id == 'S' {
            // All basic and with a trailing delimiter: libidn2 refuses both
            // the characters ' ', '>', '$', '.', '<' and the delimiter.
            assert_eq!(Libidn2.decode(&plain), Err(BAD_INPUT), "{id}");
        } else {
            let got = Libidn2.decode(&plain).expect("libidn2 decodes");
            assert_eq!(got.code_points, code_points, "{id}");
            assert!(got.flags.iter().all(|f| !f), "{id}");
        }

        // ICU: with and without annotations, flags compared too.
        assert_eq!(Icu.encode(&code_points, None), Ok(plain.clone()), "{id}");
        let annotated = c_encode(&code_points, Some(&flags));
        assert_eq!(
            Icu.encode(&code_points, Some(&flags)),
            Ok(annotated.clone()),
            "{id}"
        );
        for text in [&plain, &annotated] {
            assert_eq!(Icu.decode(text), Ok(c_decode(text)), "{id}");
        }
        assert_eq!(Icu.decode(&annotated).unwrap().flags, flags, "{id}");
    }
}

#[test]
fn hundred_thousand_code_points() {
    let input = long_input(100_000, 500);
    let expected = c_encode(&input, None);
    // libidn2 takes it (its only limit is a uint32_t length) and agrees.
    assert!(
        Libidn2.encode(&input, None) == Ok(expected.clone()),
        "encode differs"
    );
    let decoded = Libidn2.decode(&expected).expect("libidn2 decodes");
    assert!(decoded.code_points == input, "decode differs");
    // ICU stops at 1000 UTF-16 code units / 2000 characters (ICU-13727):
    // U_INPUT_TOO_LONG_ERROR, reported as its own limit.
    assert!(expected.len() > 100_000);
    let got = Icu.encode(&input, None);
    assert!(is_limit(&got, "U_INPUT_TOO_LONG_ERROR"), "{got:?}");
    let got = Icu.decode(&expected);
    assert!(is_limit(&got, "U_INPUT_TOO_LONG_ERROR"), "{got:?}");
}

#[test]
fn hundred_thousand_bytes() {
    // 100000 x 'a': every 'a' is a delta of 0, so U+0080 100000 times.
    let a = vec![b'a'; 100_000];
    let reference = c_decode(&a);
    assert!(reference.code_points.iter().all(|&c| c == 0x80));
    assert!(
        Libidn2.decode(&a) == Ok(reference),
        "libidn2 differs on 100000 x 'a'"
    );
    assert!(is_limit(&Icu.decode(&a), "U_INPUT_TOO_LONG_ERROR"));
    // 100000 x 'z': deltas of "zzz" (31525 each) insert code points up to
    // about U+4A000; libidn2 agrees with the C reference unless one of them
    // is one it refuses (above U+10FFFF or a high surrogate).
    let z = vec![b'z'; 100_000];
    let reference = c_decode(&z);
    let refused = reference
        .code_points
        .iter()
        .any(|&c| c > 0x10FFFF || (0xD800..=0xDBFF).contains(&c));
    let got = Libidn2.decode(&z);
    eprintln!(
        "100000 x 'z': {} code points, largest U+{:X}, libidn2 {}",
        reference.code_points.len(),
        reference.code_points.iter().max().unwrap_or(&0),
        if got.is_ok() { "decodes" } else { "refuses" }
    );
    if refused {
        assert!(
            got == Err(BAD_INPUT),
            "libidn2 accepted a refused code point"
        );
    } else {
        assert!(got == Ok(reference), "libidn2 differs on 100000 x 'z'");
    }
    assert!(is_limit(&Icu.decode(&z), "U_INPUT_TOO_LONG_ERROR"));
    // Only basic code points and a trailing delimiter: the C reference
    // copies them all; libidn2 refuses the trailing delimiter.
    let mut basic = vec![b'b'; 100_000];
    basic.push(b'-');
    assert_eq!(c_decode(&basic).code_points.len(), 100_000);
    assert_eq!(Libidn2.decode(&basic), Err(BAD_INPUT));
}

#[test]
fn icu_length_limits_are_exact() {
    // 1000 BMP code points encode, as in the C reference; 1001 do not.
    let thousand = long_input(1000, 50);
    assert_eq!(Icu.encode(&thousand, None), Ok(c_encode(&thousand, None)));
    let got = Icu.encode(&long_input(1001, 50), None);
    assert!(is_limit(&got, "U_INPUT_TOO_LONG_ERROR"), "{got:?}");
    // The limit counts UTF-16 code units: 500 supplementary code points are
    // 1000 units and encode; 501 are 1002 units and do not.
    let emoji = |n: usize| -> Vec<u32> { (0..n as u32).map(|k| 0x1F600 + k % 40).collect() };
    assert_eq!(
        Icu.encode(&emoji(500), None),
        Ok(c_encode(&emoji(500), None))
    );
    let got = Icu.encode(&emoji(501), None);
    assert!(is_limit(&got, "U_INPUT_TOO_LONG_ERROR"), "{got:?}");
    // At the limit, the largest delta stays far below its int32_t maximum:
    // 998 basic code points and U+10FFFF make 1000 units and encode.
    let mut far = vec![0x61; 998];
    far.push(0x10FFFF);
    assert_eq!(Icu.encode(&far, None), Ok(c_encode(&far, None)));
    // 2000 bytes decode; 2001 do not.
    let a = vec![b'a'; 2000];
    assert_eq!(Icu.decode(&a), Ok(c_decode(&a)));
    let got = Icu.decode(&[b'a'; 2001]);
    assert!(is_limit(&got, "U_INPUT_TOO_LONG_ERROR"), "{got:?}");
}

#[test]
fn icu_decoder_overflows_int32_on_valid_punycode_under_its_limit() {
    // 1927 basic code points, then U+10FFFF inserted before them: the
    // decoder's i reaches (0x10FFFF - 0x80) * 1928 = 2147759224, above ICU's
    // int32_t maximum 2147483647 but below the RFC's 0xFFFFFFFF. The text is
    // under ICU's 2000-character limit, and the C reference decodes it.
    let mut input = vec![0x10FFFF];
    input.extend(std::iter::repeat_n(0x61, 1927));
    let text = c_encode(&input, None);
    assert!(text.len() <= 2000, "{}", text.len());
    assert_eq!(c_decode(&text).code_points, input);
    assert_eq!(Libidn2.decode(&text).unwrap().code_points, input);
    // ICU answers U_ILLEGAL_CHAR_FOUND, its overflow code.
    assert_eq!(Icu.decode(&text), Err(EngineError::Rejected(None)));
    // One basic code point fewer stays under 2^31 and decodes.
    let shorter = &input[..1927];
    let text = c_encode(shorter, None);
    assert_eq!(Icu.decode(&text).unwrap().code_points, shorter);
}

#[test]
fn code_point_u32_max() {
    // The C reference encodes it; libidn2 refuses it as bad input
    // (puny_encode.c: "input[j] > 0x10FFFF"); ICU cannot be given it.
    let text = c_encode(&[u32::MAX], None);
    assert_eq!(Libidn2.encode(&[u32::MAX], None), Err(BAD_INPUT));
    assert!(matches!(
        Icu.encode(&[u32::MAX], None),
        Err(EngineError::Unsupported(_))
    ));
    assert!(matches!(
        Icu.encode(&[u32::MAX], Some(&[true])),
        Err(EngineError::Unsupported(_))
    ));
    // Decoding the C reference's text: libidn2 refuses the result as bad
    // input (puny_decode.c: "n > 0x10FFFF"); ICU refuses it too, with
    // U_ILLEGAL_CHAR_FOUND, which does not say which status.
    assert_eq!(c_decode(&text).code_points, vec![u32::MAX]);
    assert_eq!(Libidn2.decode(&text), Err(BAD_INPUT));
    assert_eq!(Icu.decode(&text), Err(EngineError::Rejected(None)));
    // U+10FFFF is fine in both, both ways; U+110000 in neither.
    let max = c_encode(&[0x10FFFF], None);
    for engine in [&Libidn2 as &dyn Engine, &Icu] {
        assert_eq!(engine.encode(&[0x10FFFF], None), Ok(max.clone()));
        assert_eq!(engine.decode(&max).unwrap().code_points, vec![0x10FFFF]);
        let beyond = c_encode(&[0x110000], None);
        assert!(matches!(
            engine.decode(&beyond),
            Err(EngineError::Rejected(_))
        ));
    }
    assert_eq!(Libidn2.encode(&[0x110000], None), Err(BAD_INPUT));
}

#[test]
fn libidn2_refuses_high_surrogates_only() {
    // puny_encode.c and puny_decode.c both test "0xD800 <= cp <= 0xDBFF".
    for high in [0xD800, 0xDBFF] {
        assert_eq!(Libidn2.encode(&[high], None), Err(BAD_INPUT));
        assert_eq!(Libidn2.decode(&c_encode(&[high], None)), Err(BAD_INPUT));
    }
    for low in [0xDC00, 0xDFFF] {
        let text = c_encode(&[low], None);
        assert_eq!(Libidn2.encode(&[low], None), Ok(text.clone()));
        assert_eq!(Libidn2.decode(&text).unwrap().code_points, vec![low]);
        // ICU refuses every surrogate it decodes (U_IS_SURROGATE).
        assert_eq!(Icu.decode(&text), Err(EngineError::Rejected(None)));
    }
}

#[test]
fn libidn2_delimiter_and_character_rules() {
    // A trailing last delimiter is refused; the C reference copies what is
    // before it.
    assert_eq!(c_decode(b"abc-").code_points, vec![0x61, 0x62, 0x63]);
    assert_eq!(Libidn2.decode(b"abc-"), Err(BAD_INPUT));
    // A leading last delimiter is refused by both (the C reference reads '-'
    // as a digit and fails).
    assert!(c_reference::decode(b"-a").is_err());
    assert_eq!(Libidn2.decode(b"-a"), Err(BAD_INPUT));
    // "--a" has its last delimiter inside: both copy '-' and insert U+0080.
    assert_eq!(Libidn2.decode(b"--a"), Ok(c_decode(b"--a")));
    // '_' is read as digit 0, the same as 'a'; the C reference refuses it.
    assert!(c_reference::decode(b"_").is_err());
    assert_eq!(Libidn2.decode(b"_"), Ok(c_decode(b"a")));
    assert_eq!(Libidn2.decode(b"ab-c_d"), Ok(c_decode(b"ab-cad")));
    // Any other basic code point than A-Z a-z 0-9 - _ is refused, even
    // before the last delimiter, where the C reference copies it.
    for text in [&b"a.b-a"[..], b"a b-a", b"\x00-a", b"\x1f\x7f-a"] {
        assert!(c_reference::decode(text).is_ok());
        assert_eq!(Libidn2.decode(text), Err(BAD_INPUT), "{text:?}");
    }
}

#[test]
fn icu_annotations_follow_appendix_a() {
    // Supplementary code points carry their flag through the surrogate pair.
    let input = [0x61, 0x1F600, 0xE9, 0x10FFFF];
    for flags in [[false; 4], [true; 4], [true, false, true, false]] {
        let text = c_encode(&input, Some(&flags));
        assert_eq!(Icu.encode(&input, Some(&flags)), Ok(text.clone()));
        let got = Icu.decode(&text).expect("ICU decodes");
        assert_eq!(got, c_decode(&text), "{flags:?}");
        assert_eq!(got.flags, flags);
    }
    // Flags of basic code points force their case, as in the C reference.
    let basic = [0x41, 0x62, 0x31, 0xE9];
    let flags = [false, true, true, false];
    assert_eq!(
        Icu.encode(&basic, Some(&flags)),
        Ok(c_encode(&basic, Some(&flags)))
    );
    // Flags and code points of different lengths are not passed on.
    assert!(matches!(
        Icu.encode(&basic, Some(&flags[..2])),
        Err(EngineError::Unsupported(_))
    ));
    // libidn2 has none.
    assert!(matches!(
        Libidn2.encode(&basic, Some(&flags)),
        Err(EngineError::Unsupported(_))
    ));
}

#[test]
fn hostile_bytes_in_punycode_text() {
    let inputs: [&[u8]; 12] = [
        b"\x80",
        b"\xff",
        b"a\x80-b",
        b"ab-\xff",
        b"\xc3\xa9-a",
        b"\x00-a",
        b"\x1f\x7f-a",
        b"a-\x00",
        b"ab-c\x7f",
        b"ab-c\x1b",
        b"\x00",
        b"\n",
    ];
    for input in inputs {
        let reference = c_reference::decode(input);
        // libidn2 refuses every one of them as bad input: each has a byte
        // outside A-Z a-z 0-9 - _.
        assert_eq!(Libidn2.decode(input), Err(BAD_INPUT), "{input:?}");
        // ICU agrees with the C reference, bytes >= 0x80 included (passed as
        // the UTF-16 unit of the same value); its refusals here are
        // U_INVALID_CHAR_FOUND, which names bad input.
        match reference {
            Ok(decoded) => assert_eq!(Icu.decode(input), Ok(decoded), "{input:?}"),
            Err(c_reference::CError::Status(ErrorKind::BadInput)) => {
                assert_eq!(Icu.decode(input), Err(BAD_INPUT), "{input:?}")
            }
            Err(other) => panic!("{input:?}: unexpected C result {other:?}"),
        }
    }
}

#[test]
fn every_byte_value_alone_and_after_a_delimiter() {
    // No panic, no abort, and ICU always agrees with the C reference on
    // whether the byte is accepted.
    for b in 0..=255u8 {
        for input in [vec![b], vec![b'a', b'-', b], vec![b, b'-', b'a']] {
            let _ = Libidn2.decode(&input);
            let icu = Icu.decode(&input);
            match c_reference::decode(&input) {
                Ok(decoded) if decoded.code_points.iter().all(|&c| c <= 0x10FFFF) => {
                    assert_eq!(icu, Ok(decoded), "{input:?}")
                }
                _ => assert!(matches!(icu, Err(EngineError::Rejected(_))), "{input:?}"),
            }
        }
    }
}
