//! LACE (draft-ietf-idn-lace-00): `src/lace.rs` against its vectors, against
//! the independent `tests/impls/lace.py` (every vector, through the test
//! wrapper's `-e`/`-d` convention, and thousands of generated questions
//! through its batch mode), and against the round-trip and uniqueness
//! properties, with the fuzz oracles of `src/fuzz/lace.rs`.

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use punycheck::codec::Codec;
use punycheck::engines::{CodePointDomain, Engine, LaceCleanRoom};
use punycheck::fuzz::lace::{
    self as oracles, AceInput, LaceCodePoints, expected_encode_reason, naive_compressed_len,
};
use punycheck::harness::compare::{Verdict, judge};
use punycheck::harness::runner::request_of;
use punycheck::harness::vectors::{self, Case, CodePoints, Expected, Input};
use punycheck::lace::{self, Error, Reason};
use punycheck::punycode::ErrorKind;

const LACE_PY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/lace.py");

fn cases() -> Vec<Case> {
    vectors::parse_file(
        "lace.toml",
        include_str!("../crates/punycheck/vectors/lace.toml"),
    )
    .expect("vectors/lace.toml parses")
}

fn answer_of_encode(result: Result<Vec<u8>, Error>) -> Expected {
    match result {
        Ok(text) => Expected::Encoded(text),
        Err(e) => Expected::Error(e.kind()),
    }
}

fn answer_of_decode(result: Result<Vec<u32>, Error>) -> Expected {
    match result {
        Ok(code_points) => Expected::Decoded(CodePoints::with_flags(&code_points, None)),
        Err(e) => Expected::Error(e.kind()),
    }
}

/// `src/lace.rs`'s answer.
fn rust_answer(input: &Input) -> Expected {
    match input {
        Input::Encode(cps) => answer_of_encode(lace::encode(&cps.values)),
        Input::Decode(bytes) => answer_of_decode(lace::decode(bytes)),
    }
}

fn tokens(code_points: &[u32]) -> String {
    CodePoints::with_flags(code_points, None).to_string()
}

/// The failure kind of one of lace.py's failure messages.
fn python_failure(message: &str) -> Expected {
    match message.trim_end() {
        "invalid input" | "invalid" => Expected::Error(ErrorKind::BadInput),
        "input or output is too large" | "too-large" => Expected::Error(ErrorKind::BigOutput),
        other => panic!("lace.py: unexpected failure message {other:?}"),
    }
}

/// lace.py's answer through the test wrapper's convention.
fn python_answer(input: &Input) -> Expected {
    let (flag, stdin) = match input {
        Input::Encode(cps) => ("-e", format!("{}\n", tokens(&cps.values)).into_bytes()),
        Input::Decode(bytes) => ("-d", [bytes.as_slice(), b"\n"].concat()),
    };
    let mut child = common::python_command()
        .arg(LACE_PY)
        .arg(flag)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs lace.py");
    child.stdin.take().unwrap().write_all(&stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).expect("lace.py prints ASCII");
    let stderr = String::from_utf8(out.stderr).expect("lace.py prints ASCII");
    match out.status.code() {
        Some(0) => {
            assert!(stderr.is_empty(), "lace.py succeeded with {stderr:?}");
            match input {
                Input::Encode(_) => {
                    let text = stdout.strip_suffix('\n').expect("one line");
                    assert!(!text.contains('\n'), "one line: {stdout:?}");
                    Expected::Encoded(text.as_bytes().to_vec())
                }
                Input::Decode(_) => {
                    for line in stdout.lines() {
                        assert!(
                            line.len() >= 6 && line.starts_with("u+"),
                            "u+XXXX lines: {line:?}"
                        );
                        assert_eq!(line, line.to_ascii_uppercase().replacen('U', "u", 1));
                    }
                    Expected::Decoded(CodePoints::parse(&stdout).unwrap())
                }
            }
        }
        Some(1) => {
            assert!(
                stdout.is_empty(),
                "lace.py failed after printing {stdout:?}"
            );
            python_failure(&stderr)
        }
        status => panic!("lace.py exited with {status:?}: {stderr}"),
    }
}

/// lace.py's answers to many questions at once (`--batch`).
fn python_batch(inputs: &[Input]) -> Vec<Expected> {
    let mut requests = String::new();
    for input in inputs {
        match input {
            Input::Encode(cps) => requests += &format!("e {}\n", tokens(&cps.values)),
            Input::Decode(bytes) => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                requests += &format!("d {hex}\n");
            }
        }
    }
    let mut child = common::python_command()
        .arg(LACE_PY)
        .arg("--batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs lace.py");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(requests.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<Expected> = stdout
        .lines()
        .zip(inputs)
        .map(|(line, input)| match (line.split_once(' '), input) {
            (Some(("error", what)), _) => python_failure(what),
            (Some(("ok", text)), Input::Encode(_)) => Expected::Encoded(text.as_bytes().to_vec()),
            (_, Input::Decode(_)) if line == "ok" => {
                Expected::Decoded(CodePoints::parse("").unwrap())
            }
            (Some(("ok", cps)), Input::Decode(_)) => {
                Expected::Decoded(CodePoints::parse(cps).unwrap())
            }
            _ => panic!("lace.py --batch: bad line {line:?}"),
        })
        .collect();
    assert_eq!(answers.len(), inputs.len(), "one answer per question");
    answers
}

#[test]
fn vector_file_is_lace() {
    let cases = cases();
    assert!(cases.len() > 50);
    for case in &cases {
        assert_eq!(case.codec, Codec::Lace, "{}", case.name);
        assert!(case.name.starts_with("lace-"), "{}", case.name);
    }
}

#[test]
fn vectors_agree_with_the_clean_room_code() {
    for case in cases() {
        assert_eq!(
            rust_answer(&case.input),
            case.expected,
            "{}: {}",
            case.name,
            case.provenance
        );
    }
}

/// Every vector, recomputed by lace.py in one run of its batch mode.
#[test]
fn vectors_agree_with_lace_py() {
    let cases = cases();
    let inputs: Vec<Input> = cases.iter().map(|c| c.input.clone()).collect();
    for (case, python) in cases.iter().zip(python_batch(&inputs)) {
        assert_eq!(python, case.expected, "{}: {}", case.name, case.provenance);
    }
}

/// lace.py speaks the test wrapper's convention (`-e`, `-d`, messages and
/// exit statuses): one vector of each outcome in each direction, and bytes
/// that are not ASCII (one process per question, so only these).
#[test]
fn lace_py_follows_the_wrapper_convention() {
    let names = [
        "lace-2.4.3-example-1-encode",
        "lace-2.4.3-example-1-decode",
        "lace-empty-encode",
        "lace-35-one-row-encode",
        "lace-decode-37-octets",
        "lace-decode-split-run",
        "lace-decode-non-ascii",
        "lace-nul-decode",
    ];
    let cases = cases();
    for name in names {
        let case = cases.iter().find(|c| c.name == name).unwrap();
        assert_eq!(python_answer(&case.input), case.expected, "{name}");
    }
}

#[test]
fn vectors_agree_with_the_engine() {
    let engine = LaceCleanRoom;
    assert_eq!(engine.name(), "cleanroom");
    assert_eq!(engine.codec(), Codec::Lace);
    let caps = engine.capabilities();
    // As the reference it is asked every value, and refuses what UTF-16
    // cannot carry.
    assert_eq!(caps.domain, CodePointDomain::U32);
    assert!(!caps.annotations);
    let mut outside = 0;
    for case in cases() {
        assert_eq!(
            judge(&engine, &request_of(&case), &case.expected),
            Verdict::Same,
            "{}",
            case.name
        );
        if let Input::Encode(cps) = &case.input {
            outside += usize::from(cps.values.iter().any(|&cp| char::from_u32(cp).is_none()));
        }
    }
    assert!(outside > 0, "vectors reach values UTF-16 cannot carry");
    // Those it refuses, never mangles.    // Outside its declared domain it still refuses, never mangles.
    assert_eq!(
        engine.encode(&[0xD800], None),
        Err(punycheck::engines::EngineError::Rejected(Some(
            ErrorKind::BadInput
        )))
    );
}

/// The name of a reason, without its data.
fn reason_name(reason: Reason) -> String {
    let debug = format!("{reason:?}");
    debug.split(' ').next().unwrap().to_string()
}

/// Every rule of the draft and every decision of the module docs has a
/// vector: every reason except [`Reason::Utf16Length`] (which only the
/// public `compress` can report) is the answer to some vector.
#[test]
fn vectors_reach_every_reason() {
    let mut reached = BTreeSet::new();
    for case in cases() {
        let error = match &case.input {
            Input::Encode(cps) => lace::encode(&cps.values).err(),
            Input::Decode(bytes) => lace::decode(bytes).err(),
        };
        if let Some(e) = error {
            reached.insert(reason_name(e.reason));
        }
    }
    let all: BTreeSet<String> = [
        "Empty",
        "NotUtf16",
        "NoEncodingNeeded",
        "TooLong",
        "MissingTag",
        "Uppercase",
        "NotBase32",
        "Base32Length",
        "NonZeroPadding",
        "EmptyCompressed",
        "TruncatedRun",
        "ZeroCount",
        "SplitRun",
        "ShouldBeUncompressed",
        "ShouldBeCompressed",
        "UncompressedLength",
        "UnpairedSurrogate",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(reached, all);
}

/// The vectors of the draft's leniencies: each refused input has a lenient
/// reading that gives a name whose valid spelling is another vector's.
#[test]
fn leniency_vectors_name_an_existing_spelling() {
    let by_name = |name: &str| {
        cases()
            .into_iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no vector {name}"))
    };
    let decode_input = |name: &str| match by_name(name).input {
        Input::Decode(bytes) => bytes,
        Input::Encode(_) => panic!("{name} is not a decode vector"),
    };
    let one = decode_input("lace-one-code-point-decode");
    // Upper case: the draft's decoder reads it as the lowercase string.
    for name in [
        "lace-decode-uppercase-tag",
        "lace-decode-uppercase-mixed-tag",
    ] {
        let text = decode_input(name);
        assert_eq!(lace::decode(&text).unwrap_err().reason, Reason::Uppercase);
        assert_eq!(text.to_ascii_lowercase(), one);
        assert_eq!(lace::decode_ignoring_case(&text), lace::decode(&one));
    }
    // Padding: the same octets with the padding bit cleared.
    let padded = decode_input("lace-decode-padding-nonzero");
    assert_eq!(
        lace::base32_decode(&padded[4..]).unwrap_err().reason,
        Reason::NonZeroPadding
    );
    let mut cleared = padded.clone();
    *cleared.last_mut().unwrap() = b's';
    assert_eq!(cleared, one);
    // Zero count and split run: the compressed strings a lenient decoder
    // reads the same as a valid one.
    let compressed = |name: &str| lace::base32_decode(&decode_input(name)[4..]).unwrap();
    let mut zero = compressed("lace-decode-zero-count");
    zero[5] = 1;
    assert_eq!(
        lace::decompress(&zero).unwrap(),
        [0x30, 0x42, 0x30, 0x43, 0x30, 0x44, 0x01, 0x01]
    );
    let split = compressed("lace-decode-split-run");
    let valid = compressed("lace-decode-split-run-valid-form");
    assert_eq!(split.len(), 10);
    assert_eq!(valid.len(), 8);
    assert_eq!(
        lace::compress(&lace::decompress(&valid).unwrap()).unwrap(),
        valid
    );
}

/// The draft's examples, at the level where it gives them.
#[test]
fn draft_examples_agree_with_computation() {
    assert_eq!(
        naive_compressed_len(&[0x30E6, 0x30CB, 0x30B3, 0x30FC, 0x30C9]),
        Some(7)
    );
    assert_eq!(
        naive_compressed_len(&[0x012E, 0x0110, 0x014A, 0x00C5]),
        Some(8)
    );
    assert_eq!(naive_compressed_len(&[0x012E, 0x00D0, 0x014A]), Some(7));
    assert_eq!(lace::base32_encode(&[0x3a, 0x27, 0x0f, 0x93]), b"hitq7ey");
}

fn random_inputs(seed: u64, count: usize) -> Vec<Input> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|k| {
            let len = rng.random_range(0..48);
            let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            if k % 2 == 0 {
                Input::Encode(CodePoints::with_flags(
                    &LaceCodePoints::from_bytes(&bytes).0,
                    None,
                ))
            } else {
                Input::Decode(AceInput::from_bytes(&bytes).0)
            }
        })
        .collect()
}

/// Differential: the two implementations agree on thousands of generated
/// questions, which reach successes and every kind of failure both ways.
#[test]
fn lace_py_agrees_on_generated_questions() {
    let inputs = random_inputs(5, 6000);
    let answers = python_batch(&inputs);
    let mut seen = BTreeSet::new();
    for (input, python) in inputs.iter().zip(&answers) {
        let rust = rust_answer(input);
        assert_eq!(&rust, python, "{input:?}");
        let direction = matches!(input, Input::Encode(_));
        let outcome = match rust {
            Expected::Error(kind) => kind.name(),
            _ => "ok",
        };
        seen.insert((direction, outcome));
    }
    for direction in [true, false] {
        for outcome in ["ok", "bad_input", "big_output"] {
            assert!(
                seen.contains(&(direction, outcome)),
                "no {outcome} when encode is {direction}"
            );
        }
    }
}

#[test]
fn oracles_hold_on_every_vector() {
    for case in cases() {
        match &case.input {
            Input::Encode(cps) => oracles::roundtrip(&cps.values).unwrap(),
            Input::Decode(bytes) => oracles::uniqueness(bytes).unwrap(),
        }
    }
}

#[test]
fn oracles_hold_on_generated_questions() {
    for input in random_inputs(6, 20_000) {
        match &input {
            Input::Encode(cps) => oracles::roundtrip(&cps.values).unwrap(),
            Input::Decode(bytes) => oracles::uniqueness(bytes).unwrap(),
        }
    }
}

/// The uniqueness oracle fails on decoders that are lenient in the ways the
/// draft leaves open.
#[test]
fn uniqueness_oracle_catches_lenient_decoders() {
    let ignoring_case = |text: &[u8]| lace::decode_ignoring_case(text);
    assert!(oracles::uniqueness_of(b"bq--74AOS", ignoring_case).is_err());
    assert!(oracles::uniqueness_of(b"bq--74aos", ignoring_case).is_ok());

    // Clears the padding bits of the last character before decoding.
    let ignoring_padding = |text: &[u8]| {
        let mut text = text.to_vec();
        let spare = (text.len().saturating_sub(4) * 5) % 8;
        if let Some(last) = text.last_mut().filter(|_| spare < 5) {
            let at = lace::BASE32_ALPHABET.iter().position(|c| c == last);
            if let Some(value) = at {
                *last = lace::BASE32_ALPHABET[value & !((1 << spare) - 1)];
            }
        }
        lace::decode(&text)
    };
    assert!(oracles::uniqueness_of(b"bq--74aot", ignoring_padding).is_err());
    assert!(oracles::uniqueness_of(b"bq--74aos", ignoring_padding).is_ok());

    // Reads a count of 0 as 1, as the draft's loop does.
    let zero_as_one = |text: &[u8]| {
        let mut octets = lace::base32_decode(text.get(4..).unwrap_or_default())?;
        let mut ip = 0;
        while ip < octets.len() && octets[0] != lace::UNCOMPRESSED {
            if octets[ip] == 0 {
                octets[ip] = 1;
            }
            ip += 2 + usize::from(octets[ip]);
        }
        lace::decode(&[lace::TAG.as_slice(), &lace::base32_encode(&octets)].concat())
    };
    let zero = lace::encode(&[0x3042, 0x3043, 0x3044, 0x0101]).unwrap();
    assert!(oracles::uniqueness_of(&zero, zero_as_one).is_ok());
    let zero_count = cases()
        .into_iter()
        .find(|c| c.name == "lace-decode-zero-count")
        .unwrap();
    let Input::Decode(zero_count) = zero_count.input else {
        panic!("a decode vector")
    };
    assert!(oracles::uniqueness_of(&zero_count, zero_as_one).is_err());
}

#[test]
fn the_encode_model_is_exact_on_its_edges() {
    assert_eq!(expected_encode_reason(&[]), Some(Reason::Empty));
    assert_eq!(
        expected_encode_reason(&[0xE9, 0xD800]),
        Some(Reason::NotUtf16)
    );
    assert_eq!(
        expected_encode_reason(&[0x61, 0x2D]),
        Some(Reason::NoEncodingNeeded)
    );
    assert_eq!(expected_encode_reason(&[0x3042; 34]), None);
    assert_eq!(
        expected_encode_reason(&[0x3042; 35]),
        Some(Reason::TooLong { octets: 37 })
    );
}

/// Every seed file of the LACE fuzz targets holds, and together they reach
/// successes and failures of both targets.
#[test]
fn fuzz_seeds_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let read = |target: &str| -> Vec<Vec<u8>> {
        let mut files: Vec<_> = std::fs::read_dir(root.join(target))
            .unwrap_or_else(|e| panic!("fuzz/seeds/{target}: {e}"))
            .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
            .collect();
        files.sort();
        files
    };
    let mut roundtrip_ok = 0;
    let mut too_long = 0;
    for seed in read("lace_roundtrip") {
        let code_points = LaceCodePoints::from_bytes(&seed).0;
        oracles::roundtrip(&code_points).unwrap();
        match lace::encode(&code_points) {
            Ok(_) => roundtrip_ok += 1,
            Err(e) if e.kind() == ErrorKind::BigOutput => too_long += 1,
            Err(_) => {}
        }
    }
    assert!(roundtrip_ok >= 3 && too_long >= 1);
    let mut accepted = 0;
    let mut reasons = BTreeSet::new();
    for seed in read("lace_uniqueness") {
        let text = AceInput::from_bytes(&seed).0;
        oracles::uniqueness(&text).unwrap();
        match lace::decode(&text) {
            Ok(_) => accepted += 1,
            Err(e) => {
                reasons.insert(reason_name(e.reason));
            }
        }
    }
    assert!(
        accepted >= 3 && reasons.len() >= 8,
        "{accepted} {reasons:?}"
    );
}

/// Scalar values, weighted toward runs of one row, ASCII and pairs.
fn scalar() -> impl Strategy<Value = u32> {
    prop_oneof![
        (0x20u32..0x7F),
        (0x3040u32..0x3060),
        (0x0100u32..0x0110),
        (0x1F600u32..0x1F610),
        any::<char>().prop_map(u32::from),
    ]
}

/// A valid LACE string and an edit of it.
fn mutated_ace() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(scalar(), 1..24),
        any::<prop::sample::Index>(),
        0u8..6,
        any::<u8>(),
    )
        .prop_filter_map("encodable", |(cps, at, edit, byte)| {
            let mut text = lace::encode(&cps).ok()?;
            let at = at.index(text.len());
            let c = lace::BASE32_ALPHABET[usize::from(byte) % 32];
            match edit {
                0 => text[at] = c,
                1 => {
                    text.remove(at);
                }
                2 => text.insert(at, c),
                3 => text[at] = text[at].to_ascii_uppercase(),
                4 => {
                    let next = (at + 1) % text.len();
                    text.swap(at, next);
                }
                _ => text.push(c),
            }
            Some(text)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Strings of the domain (Unicode scalars) encode and decode back, or
    /// fail for the rule the model says.
    #[test]
    fn round_trip_within_the_domain(cps in prop::collection::vec(scalar(), 1..40)) {
        let result = lace::encode(&cps);
        if let Ok(text) = &result {
            prop_assert_eq!(lace::decode(text), Ok(cps.clone()));
        } else {
            let reason = result.unwrap_err().reason;
            prop_assert!(
                matches!(reason, Reason::NoEncodingNeeded | Reason::TooLong { .. }),
                "{:?}", reason
            );
        }
        prop_assert_eq!(oracles::roundtrip(&cps), Ok(()));
    }

    /// Any code points at all (structured by the fuzz target's reader).
    #[test]
    fn round_trip_from_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..160)) {
        prop_assert_eq!(oracles::roundtrip(&LaceCodePoints::from_bytes(&bytes).0), Ok(()));
    }

    /// Uniqueness over tagged text of Base32 and its near misses.
    #[test]
    fn uniqueness_of_random_text(text in "(bq|BQ|bQ|xn)--[a-z2-7A-Z018=-]{0,64}") {
        prop_assert_eq!(oracles::uniqueness(text.as_bytes()), Ok(()));
    }

    /// Uniqueness over every compressed string of up to 40 octets, in
    /// Base32, with the padding bits changed (AceInput modes 1 and 2).
    #[test]
    fn uniqueness_of_random_compressed_strings(
        mode in 1u8..3,
        octets in prop::collection::vec(
            prop_oneof![0u8..8, 0xD8u8..0xE0, Just(0xFF), Just(0x30), any::<u8>()],
            0..40,
        ),
    ) {
        let data = [&[mode][..], &octets].concat();
        prop_assert_eq!(oracles::uniqueness(&AceInput::from_bytes(&data).0), Ok(()));
    }

    /// Uniqueness over valid strings with one edit.
    #[test]
    fn uniqueness_of_mutated_strings(text in mutated_ace()) {
        prop_assert_eq!(oracles::uniqueness(&text), Ok(()));
        if let Ok(cps) = lace::decode(&text) {
            prop_assert_eq!(lace::encode(&cps), Ok(text.clone()));
        }
    }

    /// Any bytes at all, with no panic and the same property.
    #[test]
    fn uniqueness_of_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        prop_assert_eq!(oracles::uniqueness(&bytes), Ok(()));
        prop_assert_eq!(oracles::uniqueness(&AceInput::from_bytes(&bytes).0), Ok(()));
    }
}
