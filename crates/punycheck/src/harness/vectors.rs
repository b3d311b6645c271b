//! The vector files of `vectors/`: loading and validation.
//!
//! One TOML file per topic, each an array of `[[case]]` tables, all of one
//! codec (`codec = "lace"` at the top of the file; Punycode when absent):
//!
//! ```toml
//! [[case]]
//! name = "rfc3492-7.1-B-encode"      # unique across all files
//! op = "encode"                      # or "decode"
//! input = "u+4ED6 u+4EEC"            # encode: u+/U+ tokens; decode: Punycode text
//! # input_hex = "c3a9"               # decode: raw bytes, for non-ASCII input
//! annotations = false                # encode: pass the u/U flags; decode: compare flags
//! output = "ihqwc..."                # expected success ...
//! # output_hex = "c3a9"              # ... encode: as raw bytes (UTF-8 output) ...
//! # error = "bad_input"              # ... or expected failure kind
//! #                                  # ("refused" for the label codec, with
//! # reason = "decodes to ASCII only" # the words of the rule that refuses)
//! # overflow_check = "decode_digit"  # with error = "overflow": the check that fires
//! # limit_check = "decode_digit"     # with output: lands exactly on maxint there
//! provenance = "where the input and the expected value come from"
//! ```
//!
//! Expected values are computed by the C reference; the test
//! `vectors_agree_with_c_reference` recomputes every one of them.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::errors::DataError;
use crate::codec::Codec;
use crate::punycode::{ErrorKind, OverflowCheck};
use crate::vocabulary::Request;
pub use crate::vocabulary::{CodePoints, Expected, parse_hex};

/// The vector files built into punycheck: (file name, contents).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "rfc3492-samples.toml",
        include_str!("../../vectors/rfc3492-samples.toml"),
    ),
    ("overflow.toml", include_str!("../../vectors/overflow.toml")),
    ("invalid.toml", include_str!("../../vectors/invalid.toml")),
    ("edge.toml", include_str!("../../vectors/edge.toml")),
    ("bias.toml", include_str!("../../vectors/bias.toml")),
    (
        "unicode-limits.toml",
        include_str!("../../vectors/unicode-limits.toml"),
    ),
    (
        "regressions.toml",
        include_str!("../../vectors/regressions.toml"),
    ),
    (
        "amc-ace-z.toml",
        include_str!("../../vectors/amc-ace-z.toml"),
    ),
    ("lace.toml", include_str!("../../vectors/lace.toml")),
    ("utf8.toml", include_str!("../../vectors/utf8.toml")),
    ("label.toml", include_str!("../../vectors/label.toml")),
    ("domain.toml", include_str!("../../vectors/domain.toml")),
    (
        "domain-url.toml",
        include_str!("../../vectors/domain-url.toml"),
    ),
    (
        "domain-url-before-ascii-fallback.toml",
        include_str!("../../vectors/domain-url-before-ascii-fallback.toml"),
    ),
    (
        "domain-idna2008.toml",
        include_str!("../../vectors/domain-idna2008.toml"),
    ),
    (
        "domain-transitional.toml",
        include_str!("../../vectors/domain-transitional.toml"),
    ),
    (
        "domain-no-check-bidi.toml",
        include_str!("../../vectors/domain-no-check-bidi.toml"),
    ),
    (
        "domain-no-check-joiners.toml",
        include_str!("../../vectors/domain-no-check-joiners.toml"),
    ),
    (
        "domain-ignore-invalid-punycode.toml",
        include_str!("../../vectors/domain-ignore-invalid-punycode.toml"),
    ),
    (
        "label-idna2008.toml",
        include_str!("../../vectors/label-idna2008.toml"),
    ),
    (
        "label-idna2003.toml",
        include_str!("../../vectors/label-idna2003.toml"),
    ),
];

/// The direction a case runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Code points to Punycode.
    Encode,
    /// Punycode to code points.
    Decode,
}

/// A case as written in a file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    op: Op,
    input: Option<String>,
    input_hex: Option<String>,
    #[serde(default)]
    annotations: bool,
    output: Option<String>,
    output_hex: Option<String>,
    error: Option<String>,
    overflow_check: Option<String>,
    limit_check: Option<String>,
    reason: Option<String>,
    provenance: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFile {
    codec: Option<String>,
    /// For `codec = "label"`: the rules its cases are judged by (UTS #46
    /// by default).
    label_rules: Option<String>,
    /// For `codec = "label"`: CheckHyphens (on by default).
    check_hyphens: Option<bool>,
    /// For `codec = "label"`: UseSTD3ASCIIRules (on by default).
    std3_rules: Option<bool>,
    /// For `codec = "label"`: VerifyDnsLength (on by default).
    verify_dns_length: Option<bool>,
    /// For `label-rules = "uts46"`: CheckBidi (on by default).
    check_bidi: Option<bool>,
    /// For `label-rules = "uts46"`: CheckJoiners (on by default).
    check_joiners: Option<bool>,
    /// For `label-rules = "uts46"`: Transitional_Processing (off by
    /// default).
    transitional_processing: Option<bool>,
    /// For `label-rules = "uts46"`: IgnoreInvalidPunycode (off by
    /// default).
    ignore_invalid_punycode: Option<bool>,
    /// For `label-rules = "url"`: the URL Standard's beStrict (off by
    /// default).
    be_strict: Option<bool>,
    #[serde(default)]
    case: Vec<RawCase>,
}

/// What a case runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Code points to encode.
    Encode(CodePoints),
    /// Punycode bytes to decode.
    Decode(Vec<u8>),
}

/// One vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Unique name.
    pub name: String,
    /// The file it came from.
    pub file: String,
    /// The codec it checks (the file's).
    pub codec: Codec,
    /// What to run.
    pub input: Input,
    /// Encode: pass the flags. Decode: compare the flags.
    pub annotations: bool,
    /// The expected result.
    pub expected: Expected,
    /// For expected overflows: the check of RFC 3492 section 6 that fires.
    pub overflow_check: Option<OverflowCheck>,
    /// For successes: the check whose quantity lands exactly on `maxint`.
    pub limit_check: Option<OverflowCheck>,
    /// For refusals of the `label` and `domain` codecs: the rule that
    /// refuses, as the reference's message words it
    /// ([`crate::label::LabelError`], [`crate::domain::DomainError`]).
    pub reason: Option<String>,
    /// Where the input and the expected value come from.
    pub provenance: String,
}

fn convert(file: &str, codec: Codec, raw: RawCase) -> Result<Case, String> {
    let input = match (raw.op, raw.input, raw.input_hex) {
        (Op::Encode, Some(text), None) => {
            Input::Encode(CodePoints::parse(&text).map_err(|e| e.to_string())?)
        }
        (Op::Decode, Some(text), None) => Input::Decode(text.into_bytes()),
        (Op::Decode, None, Some(hex)) => Input::Decode(parse_hex(&hex).map_err(|e| e.to_string())?),
        _ => return Err("needs exactly one of input and input_hex (hex for decode only)".into()),
    };
    let expected = match (raw.output, raw.output_hex, raw.error) {
        (Some(out), None, None) => match raw.op {
            Op::Encode => Expected::Encoded(out.into_bytes()),
            Op::Decode => Expected::Decoded(CodePoints::parse(&out).map_err(|e| e.to_string())?),
        },
        (None, Some(hex), None) if raw.op == Op::Encode => {
            Expected::Encoded(parse_hex(&hex).map_err(|e| e.to_string())?)
        }
        // A label is refused or not: its reason is the case's `reason`.
        (None, None, Some(error)) if codec.label_profile().is_some() => {
            if error != "refused" {
                return Err(format!(
                    "a {codec} case's error is \"refused\", not {error:?}"
                ));
            }
            Expected::Error(ErrorKind::BadInput)
        }
        (None, None, Some(error)) => Expected::Error(
            ErrorKind::from_name(&error).ok_or_else(|| format!("unknown error {error:?}"))?,
        ),
        _ => {
            return Err("needs exactly one of output, output_hex (encode only) and error".into());
        }
    };
    let check = |name: Option<String>| -> Result<Option<OverflowCheck>, String> {
        name.map(|n| OverflowCheck::from_name(&n).ok_or_else(|| format!("unknown check {n:?}")))
            .transpose()
    };
    let overflow_check = check(raw.overflow_check)?;
    let limit_check = check(raw.limit_check)?;
    if overflow_check.is_some() && expected != Expected::Error(ErrorKind::Overflow) {
        return Err("overflow_check needs error = \"overflow\"".into());
    }
    if limit_check.is_some() && matches!(expected, Expected::Error(_)) {
        return Err("limit_check needs an output".into());
    }
    if raw.reason.is_some()
        && !(codec.label_profile().is_some() && matches!(expected, Expected::Error(_)))
    {
        return Err("reason is for refusals of the label and domain codecs".into());
    }
    if raw.provenance.trim().is_empty() {
        return Err("provenance is empty".into());
    }
    Ok(Case {
        name: raw.name,
        file: file.to_string(),
        codec,
        input,
        annotations: raw.annotations,
        expected,
        overflow_check,
        limit_check,
        reason: raw.reason,
        provenance: raw.provenance,
    })
}

/// Parses one vector file.
pub fn parse_file(file: &str, text: &str) -> Result<Vec<Case>, DataError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| DataError::invalid(file, e))?;
    let codec = raw_codec(file, &raw)?;
    raw.case
        .into_iter()
        .map(|c| {
            let name = c.name.clone();
            convert(file, codec, c)
                .map_err(|e| DataError::invalid(file, format!("case {name:?}: {e}")))
        })
        .collect()
}

/// The codec of one vector file's cases, with the label codec's rules and
/// switches (Punycode when it names none).
pub fn file_codec(file: &str, text: &str) -> Result<Codec, DataError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| DataError::invalid(file, e))?;
    raw_codec(file, &raw)
}

/// The codec a file's `codec` line says, with the profile its
/// `label-rules`, `check-hyphens`, `std3-rules`, `verify-dns-length`,
/// `check-bidi`, `check-joiners`, `transitional-processing`,
/// `ignore-invalid-punycode` and `be-strict` lines give the label and domain codecs (UTS #46, every
/// switch on, by default).
fn raw_codec(file: &str, raw: &RawFile) -> Result<Codec, DataError> {
    let codec = match raw.codec.as_deref() {
        None => Codec::Punycode,
        Some(name) => Codec::from_name(name)
            .ok_or_else(|| DataError::invalid(file, format!("unknown codec {name:?}")))?,
    };
    let rules = match raw.label_rules.as_deref() {
        None => None,
        Some(name) => Some(
            crate::label::LabelRules::from_name(name)
                .ok_or_else(|| DataError::invalid(file, format!("unknown label-rules {name:?}")))?,
        ),
    };
    let options = crate::label::LabelOptions {
        rules,
        check_hyphens: raw.check_hyphens,
        std3_rules: raw.std3_rules,
        verify_dns_length: raw.verify_dns_length,
        check_bidi: raw.check_bidi,
        check_joiners: raw.check_joiners,
        transitional_processing: raw.transitional_processing,
        ignore_invalid_punycode: raw.ignore_invalid_punycode,
        be_strict: raw.be_strict,
        url_ascii_fallback: None,
    };
    let Some(profile) = codec.label_profile() else {
        if options.any() {
            return Err(DataError::invalid(
                file,
                "label-rules, check-hyphens, std3-rules, verify-dns-length, check-bidi, \
                 check-joiners, transitional-processing, ignore-invalid-punycode and be-strict \
                 are for codec = \"label\" and \"domain\"",
            ));
        }
        return Ok(codec);
    };
    options
        .applied(profile, codec.is_domain())
        .map(|profile| codec.with_profile(profile))
        .map_err(|why| DataError::invalid(file, why))
}

/// What a file of `codec`'s cases holds, in words: the codec, and for the
/// label and domain codecs its profile.
pub fn kind_of(codec: Codec) -> String {
    match codec.label_profile() {
        Some(profile) => format!("{codec} [{profile}]"),
        None => codec.to_string(),
    }
}

/// Refuses a file of `files` whose cases are of another codec or profile
/// than `codec`'s, naming both: its cases would not be asked, and a file
/// given to be asked is never skipped in silence.
pub fn refuse_other_codecs(files: &[String], codec: Codec) -> Result<(), DataError> {
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|error| DataError::Read {
            path: file.clone(),
            error,
        })?;
        let holds = file_codec(file, &text)?;
        if holds != codec && !parse_file(file, &text)?.is_empty() {
            return Err(DataError::OtherCodecFile {
                path: file.clone(),
                holds: kind_of(holds),
                asked: kind_of(codec),
            });
        }
    }
    Ok(())
}

/// Parses several files and rejects duplicate names across them.
pub fn parse_files<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Vec<Case>, DataError> {
    let mut cases = Vec::new();
    let mut names = BTreeSet::new();
    for (file, text) in files {
        for case in parse_file(file, text)? {
            if !names.insert(case.name.clone()) {
                return Err(DataError::invalid(
                    file,
                    format!("duplicate case name {:?}", case.name),
                ));
            }
            cases.push(case);
        }
    }
    Ok(cases)
}

/// The built-in vectors.
pub fn builtin() -> Result<Vec<Case>, DataError> {
    parse_files(BUILTIN.iter().copied())
}

/// The built-in vectors and those of `files`, names unique across all.
pub fn load(files: &[String]) -> Result<Vec<Case>, DataError> {
    let mut contents: Vec<(String, String)> = BUILTIN
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|error| DataError::Read {
            path: file.clone(),
            error,
        })?;
        contents.push((file.clone(), text));
    }
    parse_files(contents.iter().map(|(f, t)| (f.as_str(), t.as_str())))
}

/// Writes one `[[case]]` table of `codec` for `request` expecting
/// `expected`, in the format of the vector files (for appending
/// regressions to a file): a refusal of the label and domain codecs is
/// `error = "refused"` with the reference's words as its `reason`.
pub fn case_to_toml(
    codec: Codec,
    name: &str,
    request: &Request,
    expected: &Expected,
    provenance: &str,
) -> String {
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let mut out = format!("\n[[case]]\nname = {}\n", quote(name));
    match request {
        Request::Encode { code_points, flags } => {
            let cps = CodePoints::with_flags(code_points, flags.as_deref());
            out += &format!(
                "op = \"encode\"\ninput = {}\nannotations = {}\n",
                quote(&cps.compact()),
                flags.is_some()
            );
        }
        Request::Decode(bytes) => {
            out += "op = \"decode\"\n";
            match std::str::from_utf8(bytes).ok().filter(|t| t.is_ascii()) {
                Some(text) => out += &format!("input = {}\n", quote(text)),
                None => {
                    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                    out += &format!("input_hex = {}\n", quote(&hex));
                }
            }
            out += "annotations = true\n";
        }
    }
    match expected {
        Expected::Encoded(bytes) => {
            match std::str::from_utf8(bytes).ok().filter(|t| t.is_ascii()) {
                Some(text) => out += &format!("output = {}\n", quote(text)),
                None => {
                    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                    out += &format!("output_hex = {}\n", quote(&hex));
                }
            }
        }
        Expected::Decoded(cps) => out += &format!("output = {}\n", quote(&cps.compact())),
        Expected::Error(_) if codec.label_profile().is_some() => {
            out += "error = \"refused\"\n";
            if let Some(why) = crate::domain::refusal(codec, request) {
                out += &format!("reason = {}\n", quote(&why.to_string()));
            }
        }
        Expected::Error(kind) => out += &format!("error = {}\n", quote(kind.name())),
    }
    out += &format!("provenance = {}\n", quote(provenance));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"
[[case]]
name = "x"
op = "decode"
input = "a-"
output = "u+0061"
provenance = "test"
"#;

    #[test]
    fn duplicates_are_rejected() {
        let err = parse_files([("a.toml", ONE), ("b.toml", ONE)]).unwrap_err();
        let DataError::Invalid { file, problem } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(file, "b.toml");
        assert_eq!(problem, "duplicate case name \"x\"");
    }

    #[test]
    fn malformed_cases_are_rejected_with_their_name() {
        for (text, needle) in [
            (ONE.replace("output", "outptu"), "unknown field"),
            (ONE.replace("\"u+0061\"", "\"v+0061\""), "bad code point"),
            (
                ONE.replace("provenance = \"test\"", "provenance = \" \""),
                "provenance",
            ),
            (
                ONE.replace("output = \"u+0061\"", "error = \"nope\""),
                "unknown error",
            ),
            (
                ONE.replace("input = ", "input_hex = \"a\"\ninput = "),
                "exactly one",
            ),
            (
                ONE.replace(
                    "provenance",
                    "overflow_check = \"decode_digit\"\nprovenance",
                ),
                "overflow_check",
            ),
            (
                format!("check-hyphens = false\n{ONE}"),
                "are for codec = \"label\"",
            ),
            (
                format!("codec = \"label\"\nlabel-rules = \"idna2009\"\n{ONE}"),
                "unknown label-rules",
            ),
        ] {
            let err = parse_file("f.toml", &text).unwrap_err();
            assert!(
                matches!(&err, DataError::Invalid { file, problem } if file == "f.toml" && problem.contains(needle)),
                "{err:?}"
            );
        }
    }

    #[test]
    fn written_cases_parse_back() {
        use crate::harness::compare::Request;
        let requests = [
            Request::Encode {
                code_points: vec![0x61, 0xE9],
                flags: Some(vec![true, false]),
            },
            Request::Encode {
                code_points: vec![0xFFFF_FFFF],
                flags: None,
            },
            Request::Decode(b"a-\"'\\".to_vec()),
            Request::Decode(vec![0xC3, 0xA9, b'-']),
            // Long runs are written as u+XXXX*N, both ways.
            Request::Encode {
                code_points: [0x10_FFFF].into_iter().chain([0x61; 1927]).collect(),
                flags: None,
            },
            Request::Decode(b"a".repeat(600).into_iter().chain(*b"-a").collect()),
        ];
        let mut text = String::new();
        for (k, request) in requests.iter().enumerate() {
            let expected = crate::harness::compare::reference(request).unwrap();
            text += &case_to_toml(
                Codec::Punycode,
                &format!("r{k}"),
                request,
                &expected,
                "test",
            );
        }
        assert!(text.contains("u+10FFFF u+0061*1927"), "{text}");
        assert!(text.contains("u+0080 u+0061*600"), "{text}");
        let cases = parse_file("r.toml", &text).unwrap();
        assert_eq!(cases.len(), 6);
        for (case, request) in cases.iter().zip(&requests) {
            assert_eq!(&crate::harness::runner::request_of(case), request);
            assert_eq!(
                Some(case.expected.clone()),
                crate::harness::compare::reference(request)
            );
        }
    }

    #[test]
    fn code_points_print_as_parsed() {
        let cps = CodePoints::parse("U+0050 u+10FFFF u+ffffffff").unwrap();
        assert_eq!(cps.to_string(), "U+0050 u+10FFFF u+FFFFFFFF");
        assert_eq!(parse_hex("c3 a9").unwrap(), [0xC3, 0xA9]);
        assert!(parse_hex("c3a").is_err());
    }
}
