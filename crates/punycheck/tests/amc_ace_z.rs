//! AMC-ACE-Z 0.3.1 (draft-ietf-idn-amc-ace-z-01): its C sample is the
//! draft's Appendix C token for token; the vectors of
//! `vectors/amc-ace-z.toml` are what that C code computes, and what
//! `punycheck::bootstring` computes with AMC-ACE-Z's parameters; the draft's
//! section 7 examples come out as printed; and the two C samples (RFC 3492's
//! and the draft's) differ exactly where `docs/c-samples.md` says, shown
//! here by running both.
//!
//! `PUNYCHECK_BLESS=1 cargo test -p punycheck amc_ace_z` rewrites
//! `vectors/amc-ace-z.toml` from the draft's text and the edge cases below,
//! with every expected value computed by the draft's C code.

use std::io::Write as _;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use punycheck::bootstring::{BasicCase, Coder, Error, Params};
use punycheck::c_reference::amc_ace_z::{self, DRAFT_TEXT, appendix_c, examples, printed_as};
use punycheck::c_reference::tokens::{self, Kind, Token};
use punycheck::c_reference::{self, CError};
use punycheck::fuzz::amc::{self, amc_c_answer, bootstring_answer};
use punycheck::harness::compare::Request;
use punycheck::harness::runner::request_of;
use punycheck::harness::vectors::{self, CodePoints, Expected, Input};
use punycheck::punycode::{Decoded, ErrorKind};

const C_FILE: &str = include_str!("../csrc/amc_ace_z.c");
const RFC_C_FILE: &str = include_str!("../csrc/punycode.c");
const VECTOR_FILE: &str = "vectors/amc-ace-z.toml";
const RFC_WRAPPER: &str = punycheck::c_reference::WRAPPER;

fn keys(tokens: &[Token]) -> Vec<(Kind, String)> {
    tokens.iter().map(|t| (t.kind, t.text.clone())).collect()
}

// ---------------------------------------------------------------------------
// The C file is the draft's Appendix C.

#[test]
fn c_file_is_appendix_c_token_for_token() {
    let published = tokens::tokenize(appendix_c(DRAFT_TEXT).expect("Appendix C is in the draft"))
        .expect("Appendix C tokenizes");
    let file = tokens::tokenize(C_FILE).expect("csrc/amc_ace_z.c tokenizes");
    let (published, file) = (keys(&published), keys(&file));
    if let Some(k) = (0..published.len().max(file.len())).find(|&k| published.get(k) != file.get(k))
    {
        panic!(
            "csrc/amc_ace_z.c differs from the draft's Appendix C at token {k}: draft {:?}, file {:?}",
            &published[k.saturating_sub(3)..(k + 3).min(published.len())],
            &file[k.saturating_sub(3)..(k + 3).min(file.len())]
        );
    }
    // Comments count: they are compared too, whitespace aside.
    assert_eq!(
        published.iter().filter(|t| t.0 == Kind::Comment).count(),
        129
    );
    assert_eq!(published.len(), 2171);
}

/// The line breaks the draft lost matter only to the preprocessor: each
/// directive is one line, as restored here, and everything else in the
/// file starts where a C programmer would put it (checked by compiling it).
#[test]
fn preprocessor_lines_are_restored_one_per_line() {
    let file = tokens::tokenize(C_FILE).unwrap();
    for t in file.iter().filter(|t| t.text == "#") {
        assert!(t.starts_line, "'#' inside line {}", t.line);
    }
    let directives: Vec<&str> = C_FILE.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        directives,
        [
            "#include <limits.h>",
            "#if UINT_MAX >= (1 << 26) - 1",
            "#else",
            "#endif",
            "#include <string.h>",
            "#define basic(cp) ((amc_ace_z_uint)(cp) < 0x80)",
            "#define delim(cp) ((cp) == delimiter)",
            "#define flagged(bcp) ((amc_ace_z_uint)(bcp) - 65 < 26)",
            "#include <assert.h>",
            "#include <stdio.h>",
            "#include <stdlib.h>",
            "#include <string.h>",
        ]
    );
    // Each directive ends where the draft's next token is a comment or a
    // declaration, never inside a macro body: the next line starts anew.
    let lines: Vec<&str> = C_FILE.lines().collect();
    for (k, line) in lines.iter().enumerate() {
        if line.starts_with("#define") {
            assert!(!line.ends_with('\\'));
            let next = lines[k + 1].trim();
            assert!(next.is_empty() || next.starts_with("/*"), "after {line:?}");
        }
    }
}

#[test]
fn the_section_5_parameters_are_the_c_code_s() {
    let file = keys(&tokens::tokenize(C_FILE).unwrap());
    let value = |name: &str| -> u32 {
        let at = file
            .windows(3)
            .position(|w| w[0].1 == name && w[1].1 == "=")
            .unwrap_or_else(|| panic!("{name} in the enum"));
        let text = &file[at + 2].1;
        match text.strip_prefix("0x") {
            Some(hex) => u32::from_str_radix(hex, 16).unwrap(),
            None => text.parse().unwrap(),
        }
    };
    let p = Params::AMC_ACE_Z;
    assert_eq!(
        [
            value("base"),
            value("tmin"),
            value("tmax"),
            value("skew"),
            value("damp"),
            value("initial_bias"),
            value("initial_n"),
            value("delimiter"),
        ],
        [
            p.base,
            p.tmin,
            p.tmax,
            p.skew,
            p.damp,
            p.initial_bias,
            p.initial_n,
            u32::from(p.delimiter)
        ]
    );
}

// ---------------------------------------------------------------------------
// The two C samples, compared token by token.

/// The RFC's names for the draft's, so that the two files can be compared.
fn rfc_names(mut tokens: Vec<(Kind, String)>) -> Vec<(Kind, String)> {
    for (kind, text) in &mut tokens {
        if *kind == Kind::Identifier {
            *text = match text.as_str() {
                "amc_ace_z_uint" => "punycode_uint".into(),
                "amc_ace_status" => "punycode_status".into(),
                "amc_ace_z_encode" => "punycode_encode".into(),
                "amc_ace_z_decode" => "punycode_decode".into(),
                "uppercase_flags" => "case_flags".into(),
                other => match other.strip_prefix("amc_ace_") {
                    Some(rest) => format!("punycode_{rest}"),
                    None => other.into(),
                },
            };
        }
    }
    tokens
}

fn code_tokens(source: &str) -> Vec<(Kind, String)> {
    keys(&tokens::tokenize(source).unwrap())
        .into_iter()
        .filter(|t| t.0 != Kind::Comment)
        .collect()
}

fn texts(v: &[(Kind, String)]) -> Vec<&str> {
    v.iter().map(|t| t.1.as_str()).collect()
}

/// Replaces the first occurrence of `from` (as token texts) by `to`, and
/// returns how many there were before.
fn replace(tokens: &mut Vec<(Kind, String)>, from: &[&str], to: &[(Kind, &str)]) -> usize {
    let texts: Vec<String> = tokens.iter().map(|t| t.1.clone()).collect();
    let found: Vec<usize> = (0..texts.len())
        .filter(|&k| texts[k..].iter().take(from.len()).eq(from.iter()))
        .collect();
    if let Some(&at) = found.first() {
        tokens.splice(
            at..at + from.len(),
            to.iter().map(|(k, t)| (*k, t.to_string())),
        );
    }
    found.len()
}

/// Apart from comments, the draft's sample is the RFC's with exactly these
/// edits (docs/c-samples.md): no encode_basic() and no call of it, the
/// threshold test written `k - bias >= tmax` in both loops, and the wrapper's
/// usage text. Nothing else differs: not the overflow checks, not the
/// status codes, not basic(), delim(), flagged(), decode_digit(),
/// encode_digit(), adapt(), nor the output length accounting.
#[test]
fn the_samples_differ_only_in_the_documented_tokens() {
    let draft = rfc_names(code_tokens(C_FILE));
    let mut rfc = code_tokens(RFC_C_FILE);
    let p = Kind::Punctuator;
    let i = Kind::Identifier;
    // 1. encode_basic(), defined after flagged() ...
    let start = texts(&rfc)
        .windows(3)
        .position(|w| w == ["static", "char", "encode_basic"])
        .expect("RFC defines encode_basic");
    let end = start + texts(&rfc)[start..].iter().position(|&t| t == "}").unwrap() + 1;
    let removed: Vec<&str> = texts(&rfc)[start..end].to_vec();
    assert_eq!(removed.len(), 44, "{removed:?}");
    rfc.drain(start..end);
    // ... and called on every basic code point when flags are given.
    assert_eq!(
        replace(
            &mut rfc,
            &[
                "case_flags",
                "?",
                "encode_basic",
                "(",
                "input",
                "[",
                "j",
                "]",
                ",",
                "case_flags",
                "[",
                "j",
                "]",
                ")",
                ":",
            ],
            &[],
        ),
        1
    );
    // 2. The threshold, in the encoder and in the decoder.
    for _ in 0..2 {
        replace(
            &mut rfc,
            &["k", ">=", "bias", "+", "tmax"],
            &[(i, "k"), (p, "-"), (i, "bias"), (p, ">="), (i, "tmax")],
        );
    }
    assert_eq!(replace(&mut rfc, &["k", ">=", "bias", "+", "tmax"], &[]), 0);
    // 3. The wrapper's usage text names the codec (and signatures).
    let s = Kind::String;
    replace(
        &mut rfc,
        &[
            "\"%s -e reads code points and writes a Punycode string.\\n\"",
            "\"%s -d reads a Punycode string and writes code points.\\n\"",
        ],
        &[
            (
                s,
                "\"%s -e reads code points and writes an AMC-ACE-Z string.\\n\"",
            ),
            (
                s,
                "\"%s -d reads an AMC-ACE-Z string and writes code points.\\n\"",
            ),
        ],
    );
    replace(
        &mut rfc,
        &["\"Although the specification allows Punycode strings to contain\\n\""],
        &[
            (
                s,
                "\"The AMC-ACE-Z strings do not include any signatures.\\n\"",
            ),
            (
                s,
                "\"Although the specification allows AMC-ACE-Z strings to contain\\n\"",
            ),
        ],
    );
    replace(
        &mut rfc,
        &[
            "\"supports only the printable characters, and needs the Punycode\\n\"",
            "\"string to be followed by a newline.\\n\"",
        ],
        &[
            (
                s,
                "\"supports only the printable characters, and requires the\\n\"",
            ),
            (s, "\"AMC-ACE-Z string to be followed by a newline.\\n\""),
        ],
    );
    assert_eq!(texts(&rfc), texts(&draft));
}

// ---------------------------------------------------------------------------
// The vectors.

/// A hand-written input of the vector file.
struct Edge {
    name: &'static str,
    /// Encode: `u+`/`U+` tokens. Decode: the bytes, or `None` to decode what
    /// the C code encodes from the previous case.
    encode: Option<&'static str>,
    decode: Option<&'static [u8]>,
    annotations: bool,
    why: &'static str,
}

const fn enc(
    name: &'static str,
    input: &'static str,
    annotations: bool,
    why: &'static str,
) -> Edge {
    Edge {
        name,
        encode: Some(input),
        decode: None,
        annotations,
        why,
    }
}

const fn dec(name: &'static str, input: &'static [u8], why: &'static str) -> Edge {
    Edge {
        name,
        encode: None,
        decode: Some(input),
        annotations: true,
        why,
    }
}

/// Decodes what the C code encoded for the case before it.
const fn back(name: &'static str, why: &'static str) -> Edge {
    Edge {
        name,
        encode: None,
        decode: None,
        annotations: true,
        why,
    }
}

const FROM_OVERFLOW: &str = "Input from vectors/overflow.toml (derivation there): AMC-ACE-Z has Punycode's parameters and the same overflow checks (docs/c-samples.md), so the same inputs meet the same 32-bit limits.";

const EDGES: &[Edge] = &[
    enc(
        "amc-ace-z-basic-flag-set-lowercase-kept",
        "U+0061 u+00E9",
        true,
        "Appendix C: 'ASCII code points are always encoded literally, regardless of the corresponding flags'; Appendix B: 'Basic code points are represented literally'. The flag of the basic 'a' does not make it 'A'.",
    ),
    enc(
        "amc-ace-z-basic-flag-clear-uppercase-kept",
        "u+0041 u+00E9",
        true,
        "Appendix C, as above: a clear flag does not lowercase the basic 'A'.",
    ),
    enc(
        "amc-ace-z-basic-flags-mixed",
        "U+0061 u+0042 U+0031 U+002D U+00E9",
        true,
        "Appendix C, as above, on letters, a digit and the delimiter; only the flag of the non-basic U+00E9 shows, in the case of its last digit.",
    ),
    enc(
        "amc-ace-z-basic-flags-clear-as-null",
        "u+0041 u+0062 u+00E9",
        true,
        "Appendix C: a null uppercase_flags 'is equivalent to all zeros'; this case and the next give the same string.",
    ),
    enc(
        "amc-ace-z-basic-flags-null",
        "u+0041 u+0062 u+00E9",
        false,
        "Appendix C: a null uppercase_flags, the same string as with every flag clear (the previous case).",
    ),
    dec(
        "amc-ace-z-decode-mixed-case-literal",
        b"aB-",
        "Appendix C: 'ASCII code points are output already in the proper case, but their flags will be set appropriately'.",
    ),
    dec(
        "amc-ace-z-decode-uppercase-digits",
        b"IHQWCRB4CV8A8DQG056PQJYE",
        "Section 5: 'A decoder must recognize the letters in both uppercase and lowercase forms'; example (B) in uppercase, every delta's last letter uppercase, so every flag is set.",
    ),
    enc(
        "amc-ace-z-encode-empty",
        "",
        true,
        "Section 6.3 on empty input.",
    ),
    dec("amc-ace-z-decode-empty", b"", "Section 6.2 on empty input."),
    enc(
        "amc-ace-z-encode-all-basic",
        "u+0061 u+0062 u+0063",
        false,
        "Section 3.1: basic code points followed by a delimiter.",
    ),
    enc(
        "amc-ace-z-encode-delimiter-only",
        "u+002D",
        false,
        "Section 3.1: the delimiter is basic, copied, then the delimiter.",
    ),
    dec(
        "amc-ace-z-decode-delimiter-only",
        b"-",
        "Section 6.2: a delimiter at position 0 starts no literal part, and is not a digit.",
    ),
    dec(
        "amc-ace-z-decode-two-delimiters",
        b"--",
        "Section 6.2: the last delimiter ends the literal part '-'.",
    ),
    dec(
        "amc-ace-z-decode-trailing-delimiter",
        b"a-",
        "Section 6.2: a literal part and no delta.",
    ),
    dec(
        "amc-ace-z-decode-leading-delimiter",
        b"-a",
        "Section 6.2: the only delimiter is at position 0, so there is no literal part and '-' is read as a digit.",
    ),
    dec(
        "amc-ace-z-decode-non-basic-in-literal",
        b"\xc3\xa9-a",
        "Section 6.2: 'fail on any non-basic code point' before the last delimiter.",
    ),
    dec(
        "amc-ace-z-decode-byte-ff-in-delta",
        b"a\xff",
        "Section 6.2: a byte >= 0x80 has no digit-value.",
    ),
    dec(
        "amc-ace-z-decode-underscore",
        b"ab-c_d",
        "Section 5: '_' has no digit-value.",
    ),
    dec(
        "amc-ace-z-decode-end-inside-delta",
        b"a-b",
        "Section 6.2: 'b' (1) is not below its threshold (1), so a digit must follow.",
    ),
    enc(
        "amc-ace-z-encode-unicode-max",
        "u+10FFFF",
        false,
        "Section 5: the largest code point of AMC-ACE-Z.",
    ),
    back(
        "amc-ace-z-decode-unicode-max",
        "Section 5: the largest code point of AMC-ACE-Z, decoded from what the C code encodes for it.",
    ),
    enc(
        "amc-ace-z-encode-beyond-unicode",
        "u+110000",
        false,
        "Section 5 says code points are 0..10FFFF without D800..DFFF, but Appendix C only says 'the input must be represented as an array of Unicode code points' and checks nothing: it encodes U+110000.",
    ),
    back(
        "amc-ace-z-decode-beyond-unicode",
        "As above: the C code decodes to U+110000 what it encoded from it.",
    ),
    enc(
        "amc-ace-z-encode-surrogates",
        "u+D800 u+DFFF",
        false,
        "Section 5 excludes D800..DFFF; Appendix C does not check.",
    ),
    enc(
        "amc-ace-z-encode-maxint",
        "u+FFFFFFFF",
        false,
        "The largest amc_ace_z_uint; Appendix C takes it (delta 0xFFFFFF7F fits).",
    ),
    back(
        "amc-ace-z-decode-maxint",
        "The C code decodes to U+FFFFFFFF what it encoded from it.",
    ),
    dec(
        "amc-ace-z-overflow-decode-digit-limit",
        b"a-k0902716a",
        FROM_OVERFLOW,
    ),
    dec(
        "amc-ace-z-overflow-decode-digit-trip",
        b"a-k0902716b",
        FROM_OVERFLOW,
    ),
    dec(
        "amc-ace-z-overflow-decode-digit-trip-long",
        b"99999999999999999999",
        FROM_OVERFLOW,
    ),
    dec(
        "amc-ace-z-overflow-decode-code-point-limit",
        b"ww902716a",
        FROM_OVERFLOW,
    ),
    dec(
        "amc-ace-z-overflow-decode-code-point-trip",
        b"xw902716a",
        FROM_OVERFLOW,
    ),
    enc(
        "amc-ace-z-overflow-encode-delta-limit",
        "u+555555D5 u+0061 u+0062",
        false,
        FROM_OVERFLOW,
    ),
    enc(
        "amc-ace-z-overflow-encode-delta-trip",
        "u+555555D6 u+0061 u+0062",
        false,
        FROM_OVERFLOW,
    ),
    enc(
        "amc-ace-z-overflow-encode-delta-trip-second-pass",
        "u+0080 u+FFFFFFFF u+0061",
        false,
        FROM_OVERFLOW,
    ),
    enc(
        "amc-ace-z-overflow-encode-increment-limit",
        "u+0061 u+8000007F",
        false,
        FROM_OVERFLOW,
    ),
    enc(
        "amc-ace-z-overflow-encode-increment-trip",
        "u+0061 u+0062 u+555555D5",
        false,
        FROM_OVERFLOW,
    ),
    enc(
        "amc-ace-z-overflow-roundtrip-asymmetry-encode",
        "u+800000D6 u+00D6",
        false,
        "Input from vectors/overflow.toml: the encoder bounds each delta, the decoder bounds i = oldi + delta, in the draft as in RFC 3492.",
    ),
    back(
        "amc-ace-z-overflow-roundtrip-asymmetry-decode",
        "The C code's own decoder rejects, as an overflow, what its encoder produced for the previous case (the same asymmetry as RFC 3492's).",
    ),
];

fn quote(s: &str) -> String {
    toml_edit::Value::from(s).to_string().trim().to_string()
}

fn c_answer(request: &Request) -> Expected {
    amc_c_answer(request).unwrap_or_else(|e| panic!("{request}: the draft's C code failed: {e:?}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("ASCII")
}

fn case_toml(name: &str, request: &Request, annotations: bool, provenance: &str) -> String {
    let expected = c_answer(request);
    let mut out = format!("\n[[case]]\nname = {}\n", quote(name));
    match request {
        Request::Encode { code_points, flags } => {
            let cps = CodePoints::with_flags(code_points, flags.as_deref());
            // The u/U of every token is the flag even when not passed.
            out += &format!("op = \"encode\"\ninput = {}\n", quote(&cps.to_string()));
        }
        Request::Decode(bytes) => {
            out += "op = \"decode\"\n";
            if bytes.is_ascii() {
                out += &format!("input = {}\n", quote(&text(bytes)));
            } else {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                out += &format!("input_hex = {}\n", quote(&hex));
            }
        }
    }
    out += &format!("annotations = {annotations}\n");
    match &expected {
        Expected::Encoded(bytes) => out += &format!("output = {}\n", quote(&text(bytes))),
        Expected::Decoded(cps) => out += &format!("output = {}\n", quote(&cps.to_string())),
        Expected::Error(kind) => {
            out += &format!("error = {}\n", quote(kind.name()));
            if *kind == ErrorKind::Overflow {
                let check = bootstring_error(request)
                    .and_then(|e| match e {
                        Error::Overflow { check, .. } => check.to_punycode(),
                        _ => None,
                    })
                    .expect("bootstring names the overflow check");
                out += &format!("overflow_check = {}\n", quote(check.name()));
            }
        }
    }
    out += &format!("provenance = {}\n", quote(provenance));
    out
}

fn bootstring_error(request: &Request) -> Option<Error> {
    let coder = Coder::amc_ace_z();
    match request {
        Request::Encode { code_points, flags } => coder.encode(code_points, flags.as_deref()).err(),
        Request::Decode(bytes) => coder.decode(bytes).err(),
    }
}

/// The vector file, computed: section 7's examples from the draft's text,
/// then the edge cases, every expected value by the draft's C code.
fn generated_vector_file() -> String {
    let mut out = String::from(
        "# AMC-ACE-Z 0.3.1 (draft-ietf-idn-amc-ace-z-01) vectors. GENERATED by\n\
         # `PUNYCHECK_BLESS=1 cargo test -p punycheck amc_ace_z`: the inputs are the code\n\
         # points of the draft's section 7 examples (A) to (S), read from\n\
         # vectors/draft-ietf-idn-amc-ace-z-01.txt, and the edge cases listed in\n\
         # tests/amc_ace_z.rs; every expected value is computed by the draft's own C\n\
         # code (its Appendix C, csrc/amc_ace_z.c). The strings printed in the draft\n\
         # are only compared, in each case's provenance.\n\
         #\n\
         # No case carries a signature: the draft's C code neither adds nor expects\n\
         # the IDNA signature prefix (or suffix), section 7 prints the encodings\n\
         # without it, and IDNA had not chosen it yet. Signatures are handled by\n\
         # punycheck::bootstring::Signature and tested in src/bootstring.rs.\n\
         #\n\
         # `overflow_check` names the check that punycheck::bootstring reports (the C\n\
         # code only says \"overflow\"); tests/amc_ace_z.rs checks both.\n\
         \n\
         codec = \"amc-ace-z\"\n",
    );
    for example in examples(DRAFT_TEXT) {
        let values: Vec<u32> = example.code_points.iter().map(|c| c.0).collect();
        let flags: Vec<bool> = example.code_points.iter().map(|c| c.1).collect();
        let annotated = Request::Encode {
            code_points: values.clone(),
            flags: Some(flags.clone()),
        };
        let plain = Request::Encode {
            code_points: values.clone(),
            flags: None,
        };
        let Expected::Encoded(annotated_ace) = c_answer(&annotated) else {
            panic!("({}) encodes", example.id)
        };
        let Expected::Encoded(plain_ace) = c_answer(&plain) else {
            panic!("({}) encodes", example.id)
        };
        let source = format!(
            "draft-ietf-idn-amc-ace-z-01 section 7 ({}) {}: code points from the draft text",
            example.id,
            example.title.trim_end_matches(':')
        );
        let verdict = if printed_as(&example.printed, &text(&annotated_ace)) {
            "the draft's C code computes exactly the string printed in the draft".to_string()
        } else {
            format!(
                "the draft's C code computes {:?}, which differs from what the draft prints, {:?}",
                text(&annotated_ace),
                example.printed
            )
        };
        let plain_verdict = if plain_ace == annotated_ace {
            "without flags the C code computes the same string".to_string()
        } else {
            format!(
                "without flags the C code computes {:?}, the printed string without its annotation",
                text(&plain_ace)
            )
        };
        let id = example.id;
        for (suffix, request, annotations, provenance) in [
            (
                "encode-annotated",
                annotated,
                true,
                format!("{source}; {verdict}."),
            ),
            (
                "encode-plain",
                plain,
                false,
                format!("{source}; {plain_verdict}."),
            ),
            (
                "decode-annotated",
                Request::Decode(annotated_ace.clone()),
                true,
                format!(
                    "{source}; decoding the C code's annotated string, flags compared ({verdict})."
                ),
            ),
            (
                "decode-plain",
                Request::Decode(plain_ace.clone()),
                false,
                format!(
                    "{source}; decoding the C code's string without flags, flags not compared."
                ),
            ),
        ] {
            out += &case_toml(
                &format!("amc-ace-z-7-{id}-{suffix}"),
                &request,
                annotations,
                &provenance,
            );
        }
    }
    let mut previous: Option<Vec<u8>> = None;
    for edge in EDGES {
        let request = match (edge.encode, edge.decode) {
            (Some(tokens), _) => {
                let cps = CodePoints::parse(tokens).expect("edge input parses");
                Request::Encode {
                    flags: edge.annotations.then(|| cps.flags.clone()),
                    code_points: cps.values,
                }
            }
            (None, Some(bytes)) => Request::Decode(bytes.to_vec()),
            (None, None) => Request::Decode(
                previous
                    .clone()
                    .unwrap_or_else(|| panic!("{}: nothing encoded before", edge.name)),
            ),
        };
        previous = match c_answer(&request) {
            Expected::Encoded(bytes) => Some(bytes),
            _ => None,
        };
        let rfc = match &request {
            Request::Encode { code_points, flags } => {
                c_reference::encode(code_points, flags.as_deref())
                    .map(|b| format!("{:?}", text(&b)))
                    .unwrap_or_else(|e| format!("{e:?}"))
            }
            Request::Decode(bytes) => c_reference::decode(bytes)
                .map(|d| format!("{:X?}", d.code_points))
                .unwrap_or_else(|e| format!("{e:?}")),
        };
        let rfc_note = if amc_c_answer(&request).ok().map(|e| format!("{e:?}"))
            == punycheck::harness::compare::reference(&request).map(|e| format!("{e:?}"))
        {
            "RFC 3492's C code gives the same".to_string()
        } else {
            format!("RFC 3492's C code gives {rfc} instead (docs/c-samples.md)")
        };
        let derived = if edge.encode.is_none() && edge.decode.is_none() {
            " Input computed by the draft's C code (the previous case's output)."
        } else {
            ""
        };
        out += &case_toml(
            edge.name,
            &request,
            edge.annotations,
            &format!(
                "{}{derived} Expected value computed by the draft's C code; {rfc_note}.",
                edge.why
            ),
        );
    }
    out
}

#[test]
fn vector_file_is_generated() {
    let generated = generated_vector_file();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/amc-ace-z.toml");
    if std::env::var_os("PUNYCHECK_BLESS").is_some() {
        std::fs::write(path, &generated).expect("vector file is writable");
    }
    let on_disk = std::fs::read_to_string(path).expect("vectors/amc-ace-z.toml exists");
    if let Some(line) = generated
        .lines()
        .zip(on_disk.lines())
        .position(|(a, b)| a != b)
    {
        panic!(
            "{VECTOR_FILE} is out of date at line {}: want {:?}, have {:?}; run PUNYCHECK_BLESS=1 cargo test -p punycheck amc_ace_z",
            line + 1,
            generated.lines().nth(line),
            on_disk.lines().nth(line)
        );
    }
    assert_eq!(generated.lines().count(), on_disk.lines().count());
}

fn vector_cases() -> Vec<vectors::Case> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/vectors/amc-ace-z.toml"
    ))
    .unwrap();
    vectors::parse_file("amc-ace-z.toml", &text).expect("the vector file parses")
}

/// Compares an answer with a case's expectation: decoded flags only when
/// the case says so.
fn agrees(case: &vectors::Case, got: &Expected) -> bool {
    match (&case.expected, got) {
        (Expected::Decoded(want), Expected::Decoded(have)) if !case.annotations => {
            want.values == have.values
        }
        (want, have) => want == have,
    }
}

#[test]
fn every_vector_is_what_the_draft_s_c_code_and_bootstring_compute() {
    let cases = vector_cases();
    assert_eq!(cases.len(), 19 * 4 + EDGES.len());
    let coder = Coder::amc_ace_z();
    for case in &cases {
        assert_eq!(case.codec, punycheck::codec::Codec::AmcAceZ);
        let request = request_of(case);
        let c = c_answer(&request);
        assert!(agrees(case, &c), "{}: the C code gives {c:?}", case.name);
        let ours = bootstring_answer(&coder, &request);
        assert!(
            agrees(case, &ours),
            "{}: bootstring gives {ours:?}",
            case.name
        );
        if let Some(check) = case.overflow_check {
            let Some(Error::Overflow { check: got, .. }) = bootstring_error(&request) else {
                panic!("{}: bootstring reports no overflow", case.name)
            };
            assert_eq!(got.to_punycode(), Some(check), "{}", case.name);
        }
    }
}

/// Section 7: the vectors' inputs are the draft's code points, and what the
/// C code computes is what the draft prints, for all nineteen examples.
#[test]
fn section_7_examples_come_out_as_printed() {
    let cases = vector_cases();
    let examples = examples(DRAFT_TEXT);
    assert_eq!(examples.len(), 19);
    for example in &examples {
        let name = format!("amc-ace-z-7-{}-encode-annotated", example.id);
        let case = cases
            .iter()
            .find(|c| c.name == name)
            .expect("vector present");
        let Input::Encode(cps) = &case.input else {
            panic!("{name} encodes")
        };
        let printed: Vec<(u32, bool)> = cps
            .values
            .iter()
            .copied()
            .zip(cps.flags.iter().copied())
            .collect();
        assert_eq!(printed, example.code_points, "{name}");
        let Expected::Encoded(ace) = &case.expected else {
            panic!("{name} succeeds")
        };
        assert!(
            printed_as(&example.printed, &text(ace)),
            "{name}: the C code computes {:?}, the draft prints {:?}",
            text(ace),
            example.printed
        );
        assert!(case.provenance.contains("exactly the string printed"));
    }
}

/// The draft's nineteen examples are RFC 3492's nineteen samples, with the
/// same code points and flags, in another order: the draft's (J)
/// "Taiwanese" is the RFC's (C) "Chinese (traditional)", and the draft's
/// (C) to (I) are the RFC's (D) to (J). Both C samples give every one the
/// same string, because every flag the examples put on a basic code point
/// agrees with its case: the examples cannot tell the two samples apart.
#[test]
fn the_draft_s_examples_are_the_rfc_s_samples_reordered() {
    let samples = punycheck::rfc_text::samples(punycheck::rfc_text::RFC3492_TEXT);
    let mut order = String::new();
    for example in examples(DRAFT_TEXT) {
        let sample = samples
            .iter()
            .find(|s| s.code_points == example.code_points)
            .unwrap_or_else(|| panic!("({}) is an RFC sample", example.id));
        order.push(sample.id);
        let (values, flags): (Vec<u32>, Vec<bool>) = example.code_points.iter().copied().unzip();
        assert_eq!(rfc(&values, Some(&flags)), draft(&values, Some(&flags)));
        assert_eq!(sample.printed, text(&draft(&values, Some(&flags))));
        for (&cp, &flag) in values.iter().zip(&flags) {
            if let Ok(c) = u8::try_from(cp)
                && c.is_ascii_alphabetic()
            {
                assert_eq!(flag, c.is_ascii_uppercase(), "({})", example.id);
            }
        }
    }
    assert_eq!(order, "ABDEFGHIJCKLMNOPQRS");
}

// ---------------------------------------------------------------------------
// What the two C samples do differently, by running both.

fn rfc(input: &[u32], flags: Option<&[bool]>) -> Vec<u8> {
    c_reference::encode(input, flags).expect("RFC C encodes")
}

fn draft(input: &[u32], flags: Option<&[bool]>) -> Vec<u8> {
    amc_ace_z::encode(input, flags).expect("draft C encodes")
}

/// Difference 1: with flags, the RFC's encoder forces the case of basic
/// letters (encode_basic()); the draft's copies them.
#[test]
fn difference_basic_letters_with_flags() {
    let input = [0x61, 0xE9];
    let flags = [true, false];
    assert_eq!(rfc(&input, Some(&flags)), b"A-bga");
    assert_eq!(draft(&input, Some(&flags)), b"a-bga");
    let input = [0x41, 0xE9];
    let flags = [false, false];
    assert_eq!(rfc(&input, Some(&flags)), b"a-bga");
    assert_eq!(draft(&input, Some(&flags)), b"A-bga");
    // Bootstring follows each with its own parameters, and the other's
    // parameters would give the other answer.
    assert_eq!(
        Coder::punycode().encode(&input, Some(&flags)).unwrap(),
        b"a-bga"
    );
    assert_eq!(
        Coder::amc_ace_z().encode(&input, Some(&flags)).unwrap(),
        b"A-bga"
    );
}

/// Difference 2: the RFC's null flags leave letters alone but all-clear
/// flags lowercase them; the draft's null flags are "equivalent to all
/// zeros".
#[test]
fn difference_null_flags_and_clear_flags() {
    let input = [0x41, 0x62, 0xE9];
    let clear = [false; 3];
    assert_ne!(rfc(&input, None), rfc(&input, Some(&clear)));
    assert_eq!(rfc(&input, None), b"Ab-cja");
    assert_eq!(rfc(&input, Some(&clear)), b"ab-cja");
    assert_eq!(draft(&input, None), draft(&input, Some(&clear)));
    assert_eq!(draft(&input, None), b"Ab-cja");
}

/// Difference 3: so a flag on a basic code point survives a round trip
/// through the RFC's code (the letter takes its case) but not through the
/// draft's (the letter keeps its case, which is what the decoder reports).
#[test]
fn difference_flags_of_basic_code_points_after_a_round_trip() {
    let input = [0x61, 0x42, 0xE9];
    let flags = [true, false, true];
    let through_rfc = c_reference::decode(&rfc(&input, Some(&flags))).unwrap();
    let through_draft = amc_ace_z::decode(&draft(&input, Some(&flags))).unwrap();
    assert_eq!(
        through_rfc,
        Decoded {
            code_points: vec![0x41, 0x62, 0xE9],
            flags: flags[..].into()
        }
    );
    assert_eq!(
        through_draft,
        Decoded {
            code_points: input.to_vec(),
            flags: vec![false, true, true].into()
        }
    );
}

/// Not a difference: the RFC writes the threshold test `k >= bias + tmax`,
/// the draft `k - bias >= tmax`. Both are evaluated only when k > bias, and
/// they differ only if bias + tmax wraps, which needs bias > maxint - 26.
/// Every bias either sample uses is 72 or an adapt() result, at most 215.
#[test]
fn no_difference_in_the_threshold_test() {
    let coder = Coder::amc_ace_z();
    let max_bias = [0u32, 1, 2, 455, 456, 1 << 20, 1 << 31, u32::MAX]
        .into_iter()
        .flat_map(|delta| {
            [1, 2, 100, u32::MAX]
                .into_iter()
                .flat_map(move |n| [(delta, n, true), (delta, n, false)])
        })
        .map(|(d, n, first)| coder.adapt(d, n, first))
        .max()
        .unwrap();
    assert!(max_bias < 216, "{max_bias}");
    for bias in 0..1000u32 {
        for k in (36..=36 * 40).step_by(36) {
            if k <= bias {
                continue;
            }
            let rfc_form = k >= bias + 26;
            let draft_form = k - bias >= 26;
            assert_eq!(rfc_form, draft_form, "k {k} bias {bias}");
        }
    }
    // Where they would part: a bias within tmax of maxint.
    let bias = u32::MAX - 5;
    let k = u32::MAX;
    assert!(k >= bias.wrapping_add(26) && k - bias < 26);
}

fn run(program: &str, flag: &str, stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(program)
        .arg(flag)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the wrapper starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The same difference through both samples' own test programs, which
/// always pass flags (the case of the u in u+hex): and their usage texts.
#[test]
fn difference_through_both_test_wrappers() {
    let (ok, rfc_out, _) = run(RFC_WRAPPER, "-e", "U+0061 u+00E9\n");
    assert!(ok);
    let (ok, draft_out, _) = run(amc_ace_z::WRAPPER, "-e", "U+0061 u+00E9\n");
    assert!(ok);
    assert_eq!(
        (rfc_out.as_str(), draft_out.as_str()),
        ("A-bga\n", "a-bga\n")
    );
    // Decoding is the same.
    for program in [RFC_WRAPPER, amc_ace_z::WRAPPER] {
        assert_eq!(run(program, "-d", "a-bga\n").1, "u+0061\nu+00E9\n");
        assert_eq!(
            run(program, "-d", "a-k0902716b\n").2,
            "arithmetic overflow\n"
        );
    }
    let (ok, _, usage) = run(amc_ace_z::WRAPPER, "-x", "");
    assert!(!ok);
    assert!(usage.contains("The AMC-ACE-Z strings do not include any signatures."));
    let (_, _, usage) = run(RFC_WRAPPER, "-x", "");
    assert!(usage.contains("Punycode string"));
}

/// What the RFC's encoder makes of the draft's output: the literal letters
/// forced to the case of their flags, as encode_basic() does.
fn forced(draft_output: &[u8], input: &[u32], flags: &[bool]) -> Vec<u8> {
    let mut out = draft_output.to_vec();
    let basics = input.iter().zip(flags).filter(|(cp, _)| **cp < 0x80);
    for (byte, (_, &flag)) in out.iter_mut().zip(basics) {
        *byte = if flag {
            byte.to_ascii_uppercase()
        } else {
            byte.to_ascii_lowercase()
        };
    }
    out
}

fn code_point() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 0u32..0x80,
        2 => 0x80u32..0x100,
        4 => 0x100u32..0x1_0000,
        1 => 0x10_FF00u32..0x11_0100,
        1 => 0xFFFF_FF00u32..=u32::MAX,
        1 => 0x7FFF_FF00u32..0x8000_0100,
        1 => 0x5555_5500u32..0x5555_5600,
        1 => any::<u32>(),
    ]
}

fn text_like() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => proptest::sample::select(b"abcdefghijklmnopqrstuvwxyz0123456789".to_vec()),
        2 => proptest::sample::select(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ".to_vec()),
        2 => Just(b'-'),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..48)
}

fn kind(e: CError) -> ErrorKind {
    match e {
        CError::Status(kind) => kind,
        other => panic!("the C code could not run: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Everywhere else the two samples agree: decoding always, encoding
    /// without flags always, and encoding with flags up to the case of the
    /// literal letters.
    #[test]
    fn the_samples_agree_everywhere_else(
        points in proptest::collection::vec((code_point(), any::<bool>()), 0..24),
        bytes in text_like(),
    ) {
        let (input, flags): (Vec<u32>, Vec<bool>) = points.into_iter().unzip();
        prop_assert_eq!(
            c_reference::decode(&bytes).map_err(kind),
            amc_ace_z::decode(&bytes).map_err(kind)
        );
        prop_assert_eq!(
            c_reference::encode(&input, None).map_err(kind),
            amc_ace_z::encode(&input, None).map_err(kind)
        );
        let draft = amc_ace_z::encode(&input, Some(&flags)).map_err(kind);
        prop_assert_eq!(
            c_reference::encode(&input, Some(&flags)).map_err(kind),
            draft.map(|out| forced(&out, &input, &flags))
        );
    }

    /// Bootstring with AMC-ACE-Z's parameters is the draft's C code.
    #[test]
    fn bootstring_is_the_draft_s_c_code(
        points in proptest::collection::vec((code_point(), any::<bool>()), 0..24),
        bytes in text_like(),
    ) {
        let (input, flags): (Vec<u32>, Vec<bool>) = points.into_iter().unzip();
        for request in [
            Request::Decode(bytes),
            Request::Encode { code_points: input.clone(), flags: None },
            Request::Encode { code_points: input, flags: Some(flags) },
        ] {
            prop_assert_eq!(amc::amc_diff_c(&request), Ok(()));
        }
    }
}

/// With the other's parameters, Bootstring gives the other sample's
/// answers: the parameter that differs is the one documented.
#[test]
fn swapping_the_basic_case_swaps_the_samples() {
    let input = [0x61, 0x42, 0x31, 0x2D, 0xE9, 0x4E2D];
    let flags = [true, false, true, true, true, false];
    let as_rfc = Coder::new(Params {
        basic_case: BasicCase::Force,
        ..Params::AMC_ACE_Z
    })
    .unwrap();
    let as_draft = Coder::new(Params {
        basic_case: BasicCase::Literal,
        ..Params::PUNYCODE
    })
    .unwrap();
    assert_eq!(
        as_rfc.encode(&input, Some(&flags)).unwrap(),
        rfc(&input, Some(&flags))
    );
    assert_eq!(
        as_draft.encode(&input, Some(&flags)).unwrap(),
        draft(&input, Some(&flags))
    );
    assert_ne!(rfc(&input, Some(&flags)), draft(&input, Some(&flags)));
}

// ---------------------------------------------------------------------------
// The fuzz oracle.

#[test]
fn amc_diff_c_holds_on_every_vector_and_seed() {
    for case in vector_cases() {
        amc::amc_diff_c(&request_of(&case)).unwrap();
    }
    let seeds = std::fs::read_dir(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/amc_diff_c"
    ))
    .expect("seed folder")
    .map(|e| std::fs::read(e.unwrap().path()).unwrap())
    .collect::<Vec<_>>();
    assert!(seeds.len() >= 10);
    for seed in seeds {
        // A decoding seed: an even first byte, then the bytes.
        assert_eq!(seed.first().map(|b| b % 2), Some(0));
        amc::amc_diff_c(&Request::Decode(seed[1..].to_vec())).unwrap();
    }
}

#[test]
fn amc_diff_c_fails_on_a_wrong_answer() {
    let request = Request::Encode {
        code_points: vec![0x61, 0xE9],
        flags: Some(vec![true, false]),
    };
    // Punycode's answer is the wrong one for AMC-ACE-Z.
    let punycode_like = |r: &Request| bootstring_answer(&Coder::punycode(), r);
    let err = amc::amc_diff_c_of(&request, punycode_like).unwrap_err();
    assert!(err.contains("draft C"), "{err}");
    assert!(
        amc::amc_diff_c_of(&Request::Decode(b"a-".to_vec()), |_| {
            Expected::Error(ErrorKind::BadInput)
        })
        .is_err()
    );
    // Too long for the C interface: nothing to compare, not a failure.
    let flags_mismatch = Request::Encode {
        code_points: vec![0x61],
        flags: Some(vec![]),
    };
    assert_eq!(
        amc::amc_diff_c_of(&flags_mismatch, |_| Expected::Error(ErrorKind::Overflow)),
        Ok(())
    );
}

#[test]
fn bootstring_punycode_oracle_holds_here_too() {
    for case in vector_cases() {
        amc::bootstring_punycode(&request_of(&case)).unwrap();
    }
}
