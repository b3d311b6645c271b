//! The vectors as data any project can run, in the shape of Wycheproof's
//! test files: one JSON document with a schema name, notes on every flag,
//! and test groups (one per vector file, codec and direction) of tests
//! with a `tcId`, a `comment`, the input and the expected output, a
//! `result` (`valid`, `invalid` or `acceptable`) and `flags` naming the
//! class each case tests. Its JSON Schema is `docs/vectors.schema.json`.
//!
//! `result`:
//! - `valid`: RFC 3492 (or the codec's document) gives this output; every
//!   implementation must.
//! - `invalid`: the input must be refused (`error` says how the C
//!   reference refuses it: `bad_input` or `overflow`).
//! - `acceptable`: the document gives this output, but it involves code
//!   points outside Unicode scalar values (surrogates, above U+10FFFF), or
//!   lands exactly on the 32-bit limit: an implementation that declares a
//!   narrower domain or integer may refuse it instead (the `flags` say
//!   which), and must not answer anything else.

use std::collections::BTreeMap;

use serde::Serialize;

use super::vectors::{Case, Input};
use crate::codec::Codec;
use crate::vocabulary::{CodePoints, Expected};

/// The schema name the document carries (`docs/vectors.schema.json`).
pub const SCHEMA: &str = "punycheck_vectors_schema_v1.json";

/// The whole document.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Document {
    /// What it tests: `"Punycode (RFC 3492) and the codecs beside it"`.
    pub algorithm: &'static str,
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// punycheck's version.
    pub generator_version: &'static str,
    /// How many tests in all.
    pub number_of_tests: usize,
    /// How to read it.
    pub header: Vec<&'static str>,
    /// Every flag used, with what it means.
    pub notes: BTreeMap<&'static str, Note>,
    /// The tests, by file, codec and direction.
    pub test_groups: Vec<Group>,
}

/// What a flag means.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    /// `Edge case`, `Known bug class`, ...
    pub bug_type: &'static str,
    /// What the cases so flagged test.
    pub description: &'static str,
}

/// One group: the cases of one vector file, codec and direction.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    /// `PunycodeEncodeTest`, `LaceDecodeTest`, ...
    #[serde(rename = "type")]
    pub kind: String,
    /// The codec, as `--codec` names it.
    pub codec: &'static str,
    /// For the `label` codec: the rules (`uts46`, `idna2008`, `idna2003`).
    #[serde(rename = "labelRules", skip_serializing_if = "Option::is_none")]
    pub label_rules: Option<&'static str>,
    /// For the `label` codec: CheckHyphens.
    #[serde(rename = "checkHyphens", skip_serializing_if = "Option::is_none")]
    pub check_hyphens: Option<bool>,
    /// For the `label` codec: UseSTD3ASCIIRules.
    #[serde(rename = "useStd3AsciiRules", skip_serializing_if = "Option::is_none")]
    pub use_std3_ascii_rules: Option<bool>,
    /// For the `label` codec: VerifyDnsLength.
    #[serde(rename = "verifyDnsLength", skip_serializing_if = "Option::is_none")]
    pub verify_dns_length: Option<bool>,
    /// For the `label` and `domain` codecs under UTS #46: CheckBidi,
    /// where it is off.
    #[serde(rename = "checkBidi", skip_serializing_if = "Option::is_none")]
    pub check_bidi: Option<bool>,
    /// For the `label` and `domain` codecs under UTS #46: CheckJoiners,
    /// where it is off.
    #[serde(rename = "checkJoiners", skip_serializing_if = "Option::is_none")]
    pub check_joiners: Option<bool>,
    /// For the `label` and `domain` codecs under UTS #46:
    /// Transitional_Processing, where it is on.
    #[serde(
        rename = "transitionalProcessing",
        skip_serializing_if = "Option::is_none"
    )]
    pub transitional_processing: Option<bool>,
    /// For the `label` and `domain` codecs under UTS #46:
    /// IgnoreInvalidPunycode, where it is on.
    #[serde(
        rename = "ignoreInvalidPunycode",
        skip_serializing_if = "Option::is_none"
    )]
    pub ignore_invalid_punycode: Option<bool>,
    /// `encode` or `decode`.
    pub direction: &'static str,
    /// The vector file the cases come from.
    pub source: String,
    /// The tests.
    pub tests: Vec<Test>,
}

/// One test.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Test {
    /// Its number, unique in the document, from 1.
    pub tc_id: usize,
    /// The vector's name, unique across the vector files.
    pub name: String,
    /// Where the input and the expected output come from.
    pub comment: String,
    /// To encode: the code points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_points: Option<Vec<u32>>,
    /// To decode: the bytes, in hexadecimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_hex: Option<String>,
    /// To decode: the bytes as text, when they are ASCII.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// Appendix A case flags, one per code point: given to the encoder,
    /// or expected from the decoder (uppercase: `true`); absent when the
    /// case does not use them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case_flags: Option<Vec<bool>>,
    /// The expected encoding, in hexadecimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_hex: Option<String>,
    /// The expected encoding as text, when it is ASCII.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// The expected decoding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_code_points: Option<Vec<u32>>,
    /// How the C reference refuses it: `bad_input`, `overflow`, or
    /// `big_output` (beyond the codec's own length limit); `refused` for a
    /// label the A-label layer refuses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For an overflow: which check of RFC 3492 section 6 fires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overflow_check: Option<&'static str>,
    /// `valid`, `invalid` or `acceptable` (see the module docs).
    pub result: &'static str,
    /// The classes the case tests (see `notes`).
    pub flags: Vec<&'static str>,
}

/// Every flag, with its note.
const NOTES: [(&str, &str, &str); 15] = [
    (
        "RfcSample",
        "Functionality",
        "A sample string of RFC 3492 section 7.1 (or of the codec's own document).",
    ),
    (
        "Overflow",
        "Edge case",
        "A 32-bit overflow check of RFC 3492 section 6 must fire: the input is refused; `overflowCheck` names the check.",
    ),
    (
        "OverflowLimit",
        "Edge case",
        "A quantity lands exactly on the 32-bit limit without passing it: the input must be answered, though an implementation with narrower integers refuses it.",
    ),
    (
        "BadInput",
        "Malformed input",
        "Not Punycode (a bad digit, an input that ends inside a number, a non-basic code point before the delimiter...): the input must be refused.",
    ),
    (
        "TooLong",
        "Edge case",
        "Beyond the codec's own length limit (LACE's 36-octet label): the input must be refused (`error` big_output).",
    ),
    (
        "LeadingDelimiter",
        "Edge case",
        "The input starts with the delimiter `-`, which must not be taken as the end of an empty basic part.",
    ),
    (
        "NonAscii",
        "Malformed input",
        "Bytes that are not ASCII in Punycode to decode.",
    ),
    (
        "Surrogate",
        "Unicode",
        "A code point from U+D800 to U+DFFF in the input or the output: RFC 3492 takes it, an implementation of Unicode scalar values refuses it.",
    ),
    (
        "AboveUnicode",
        "Unicode",
        "A code point above U+10FFFF in the input or the output: RFC 3492 takes it up to 0xFFFFFFFF, an implementation of Unicode scalar values refuses it.",
    ),
    (
        "Above31Bits",
        "Edge case",
        "A value above 0x7FFFFFFF: it needs the unsigned 32-bit integers RFC 3492 uses.",
    ),
    (
        "CaseAnnotation",
        "Functionality",
        "Appendix A mixed-case annotations: the case flags passed to the encoder, or expected from the decoder (an implementation without them compares the code points only).",
    ),
    (
        "BufferEdge",
        "Edge case",
        "An input or output at, just below or just above a common fixed buffer size (256, 512, 1024... units or bytes).",
    ),
    (
        "LongInput",
        "Edge case",
        "More than 63 code points or bytes: longer than a DNS label, where implementations with label-sized buffers or limits differ.",
    ),
    (
        "Bias",
        "Functionality",
        "Exercises the bias adaptation of RFC 3492 section 6.1 at its thresholds.",
    ),
    (
        "OtherCodec",
        "Functionality",
        "A case of AMC-ACE-Z, LACE, RFC 2279 UTF-8, the A-label layer (ToUnicode and ToASCII of one label under UTS #46 with CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength on) or of whole domain names (the same on a name of any number of labels): the codecs punycheck checks beside Punycode, for the implementations of those.",
    ),
];

/// The codec's name in group types (`Punycode`, `AmcAceZ`, ...).
fn type_name(codec: Codec) -> &'static str {
    match codec {
        Codec::Punycode => "Punycode",
        Codec::AmcAceZ => "AmcAceZ",
        Codec::Lace => "Lace",
        Codec::Utf8 => "Utf8",
        Codec::Label(_) => "Label",
        Codec::Domain(_) => "Domain",
    }
}

/// `bytes` in hexadecimal, lowercase.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `bytes` as text when they are ASCII (JSON escapes the controls).
fn ascii(bytes: &[u8]) -> Option<String> {
    bytes
        .is_ascii()
        .then(|| String::from_utf8_lossy(bytes).into_owned())
}

/// The flags a case tests.
fn flags(case: &Case) -> Vec<&'static str> {
    let mut flags = Vec::new();
    let code_points: Vec<u32> = match (&case.input, &case.expected) {
        (Input::Encode(cps), _) => cps.values.clone(),
        (Input::Decode(_), Expected::Decoded(cps)) => cps.values.clone(),
        _ => Vec::new(),
    };
    if case.file.starts_with("rfc3492-samples") || case.name.contains("sample") {
        flags.push("RfcSample");
    }
    if let Expected::Error(kind) = &case.expected {
        flags.push(match kind.name() {
            "overflow" => "Overflow",
            "big_output" => "TooLong",
            _ => "BadInput",
        });
    }
    if case.limit_check.is_some() {
        flags.push("OverflowLimit");
    }
    if let Input::Decode(bytes) = &case.input {
        if bytes.first() == Some(&b'-') {
            flags.push("LeadingDelimiter");
        }
        if bytes.iter().any(|&b| b >= 0x80) {
            flags.push("NonAscii");
        }
    }
    if code_points.iter().any(|cp| (0xD800..=0xDFFF).contains(cp)) {
        flags.push("Surrogate");
    }
    if code_points.iter().any(|&cp| cp > 0x10FFFF) {
        flags.push("AboveUnicode");
    }
    if code_points.iter().any(|&cp| cp > 0x7FFF_FFFF) {
        flags.push("Above31Bits");
    }
    if case.annotations {
        flags.push("CaseAnnotation");
    }
    if case.name.contains("buffer") {
        flags.push("BufferEdge");
    }
    let len = match &case.input {
        Input::Encode(cps) => cps.values.len(),
        Input::Decode(bytes) => bytes.len(),
    };
    if len > 63 || code_points.len() > 63 {
        flags.push("LongInput");
    }
    if case.file.starts_with("bias") {
        flags.push("Bias");
    }
    if case.codec != Codec::Punycode {
        flags.push("OtherCodec");
    }
    flags
}

/// `valid`, `invalid` or `acceptable` (see the module docs).
fn result(case: &Case, flags: &[&str]) -> &'static str {
    if matches!(case.expected, Expected::Error(_)) {
        "invalid"
    } else if flags
        .iter()
        .any(|f| matches!(*f, "Surrogate" | "AboveUnicode" | "OverflowLimit"))
    {
        "acceptable"
    } else {
        "valid"
    }
}

/// One test of `case`, numbered `tc_id`.
fn test(tc_id: usize, case: &Case) -> Test {
    let flags = flags(case);
    let result = result(case, &flags);
    let mut test = Test {
        tc_id,
        name: case.name.clone(),
        comment: case.provenance.clone(),
        code_points: None,
        input_hex: None,
        input: None,
        case_flags: None,
        output_hex: None,
        output: None,
        output_code_points: None,
        error: None,
        overflow_check: case.overflow_check.map(|c| c.name()),
        result,
        flags,
    };
    match &case.input {
        Input::Encode(CodePoints { values, flags }) => {
            test.code_points = Some(values.clone());
            test.case_flags = case.annotations.then(|| flags.clone());
        }
        Input::Decode(bytes) => {
            test.input_hex = Some(hex(bytes));
            test.input = ascii(bytes);
        }
    }
    match &case.expected {
        Expected::Encoded(bytes) => {
            test.output_hex = Some(hex(bytes));
            test.output = ascii(bytes);
        }
        Expected::Decoded(cps) => {
            test.output_code_points = Some(cps.values.clone());
            test.case_flags = case.annotations.then(|| cps.flags.clone());
        }
        // A label or a name is refused or not, with no RFC 3492 kind.
        Expected::Error(_) if case.codec.label_profile().is_some() => {
            test.error = Some("refused".into())
        }
        Expected::Error(kind) => test.error = Some(kind.name().to_string()),
    }
    test
}

/// The document of `cases` (the built-in vectors, and any others loaded).
pub fn document(cases: &[Case]) -> Document {
    // Groups in the order their first case comes, each case in its file's
    // order; tests numbered in the document's order.
    let mut groups: Vec<Group> = Vec::new();
    for case in cases {
        let direction = match case.input {
            Input::Encode(_) => "encode",
            Input::Decode(_) => "decode",
        };
        let same = |g: &Group| {
            g.source == case.file && g.codec == case.codec.name() && g.direction == direction
        };
        let k = match groups.iter().position(same) {
            Some(k) => k,
            None => {
                groups.push(Group {
                    kind: format!(
                        "{}{}Test",
                        type_name(case.codec),
                        if direction == "encode" {
                            "Encode"
                        } else {
                            "Decode"
                        }
                    ),
                    codec: case.codec.name(),
                    label_rules: case.codec.label_profile().map(|p| p.rules.name()),
                    check_hyphens: case.codec.label_profile().map(|p| p.switches.check_hyphens),
                    use_std3_ascii_rules: case
                        .codec
                        .label_profile()
                        .map(|p| p.switches.use_std3_ascii_rules),
                    verify_dns_length: case
                        .codec
                        .label_profile()
                        .map(|p| p.switches.verify_dns_length),
                    // UTS #46's other four, written where they are not
                    // their defaults (a consumer that knows only the first
                    // three reads the groups it can run as before).
                    check_bidi: case
                        .codec
                        .label_profile()
                        .map(|p| p.switches.check_bidi)
                        .filter(|&on| !on),
                    check_joiners: case
                        .codec
                        .label_profile()
                        .map(|p| p.switches.check_joiners)
                        .filter(|&on| !on),
                    transitional_processing: case
                        .codec
                        .label_profile()
                        .map(|p| p.switches.transitional_processing)
                        .filter(|&on| on),
                    ignore_invalid_punycode: case
                        .codec
                        .label_profile()
                        .map(|p| p.switches.ignore_invalid_punycode)
                        .filter(|&on| on),
                    direction,
                    source: case.file.clone(),
                    tests: Vec::new(),
                });
                groups.len() - 1
            }
        };
        groups[k].tests.push(test(0, case));
    }
    for (k, test) in groups.iter_mut().flat_map(|g| &mut g.tests).enumerate() {
        test.tc_id = k + 1;
    }
    Document {
        algorithm: "Punycode (RFC 3492), with AMC-ACE-Z, LACE and RFC 2279 UTF-8",
        schema: SCHEMA,
        generator_version: env!("CARGO_PKG_VERSION"),
        number_of_tests: cases.len(),
        header: vec![
            "Test vectors of punycheck: every expected value computed by the codec's C reference",
            "(RFC 3492 Appendix C for Punycode) or derived from its document and cross-checked;",
            "each test's comment says where it comes from. Code points are integers; bytes are",
            "hexadecimal, with the text beside them when they are ASCII. `result` is valid",
            "(must give the output), invalid (must refuse) or acceptable (may be refused by an",
            "implementation of a narrower domain, as its flags say; must not answer otherwise).",
        ],
        notes: NOTES
            .iter()
            .map(|&(flag, bug_type, description)| {
                (
                    flag,
                    Note {
                        bug_type,
                        description,
                    },
                )
            })
            .collect(),
        test_groups: groups,
    }
}

/// The document of `cases` as JSON text.
pub fn to_json(cases: &[Case]) -> String {
    serde_json::to_string_pretty(&document(cases)).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::vectors;

    #[test]
    fn every_flag_used_has_a_note_and_every_case_is_a_test() {
        let cases = vectors::builtin().unwrap();
        let doc = document(&cases);
        let tests: Vec<&Test> = doc.test_groups.iter().flat_map(|g| &g.tests).collect();
        assert_eq!(tests.len(), cases.len());
        assert_eq!(doc.number_of_tests, cases.len());
        let ids: std::collections::BTreeSet<usize> = tests.iter().map(|t| t.tc_id).collect();
        assert_eq!(ids.len(), tests.len(), "tcIds are unique");
        for test in &tests {
            for flag in &test.flags {
                assert!(doc.notes.contains_key(flag), "{flag}");
            }
        }
        // Every note is used by some case.
        for flag in doc.notes.keys() {
            assert!(
                tests.iter().any(|t| t.flags.contains(flag)),
                "{flag} unused"
            );
        }
        // The three results occur.
        for result in ["valid", "invalid", "acceptable"] {
            assert!(tests.iter().any(|t| t.result == result), "{result}");
        }
    }

    /// A label file's rules and switches go into its group, so that a
    /// reader asks its tests under the same profile.
    #[test]
    fn a_label_group_says_its_rules_and_switches() {
        let text = "codec = \"label\"\nlabel-rules = \"idna2008\"\nverify-dns-length = false\n\n\
                    [[case]]\nname = \"x\"\nop = \"decode\"\ninput = \"xn--bcher-kva\"\n\
                    output = \"u+0062 u+00FC u+0063 u+0068 u+0065 u+0072\"\nprovenance = \"test\"\n";
        let cases = vectors::parse_file("x.toml", text).unwrap();
        let json = serde_json::to_value(document(&cases)).unwrap();
        let group = &json["testGroups"][0];
        assert_eq!(group["labelRules"], "idna2008");
        assert_eq!(group["checkHyphens"], true);
        assert_eq!(group["useStd3AsciiRules"], true);
        assert_eq!(group["verifyDnsLength"], false);
        // Other codecs' groups have none of these.
        let punycode = document(&vectors::builtin().unwrap());
        let json = serde_json::to_value(punycode).unwrap();
        let first = &json["testGroups"][0];
        assert_eq!(first["codec"], "punycode");
        assert!(first.get("checkHyphens").is_none() && first.get("labelRules").is_none());
    }
}
