//! Asking an implementation one question and judging its answer against a
//! reference answer (a vector's expected value, or the C reference's live
//! answer), at the precision the implementation declares.
//!
//! Every answer ends as one [`Verdict`]: the same, skipped for a declared
//! reason, different in a way a divergence class explains, or a
//! nonconformance. The vector runner, the differential engine and `check`
//! all judge through [`judge`], so they agree on what counts.
//!
//! # Size
//!
//! Over 800 lines only with its unit tests (the code is under 560): each
//! rule of judgement (domains, declared limits, error detail) is tested
//! here, beside the rule, in both directions.

use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, Engine, EngineError, ErrorDetail, check_supported, process,
};
use crate::unicode::UnicodeVersion;
use crate::vocabulary::{CodePoints, Expected, classes::Class, excerpt};
pub use crate::vocabulary::{Request, describe};

/// How an answer compares with the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The same answer, at the implementation's declared precision.
    Same,
    /// Not asked: outside its declared capabilities.
    Skip {
        /// Why, as a class.
        class: Class,
        /// Why, in words.
        reason: String,
    },
    /// A different answer that a divergence class explains.
    Divergence {
        /// The class.
        class: Class,
        /// What differed.
        detail: String,
    },
    /// A different answer that nothing explains.
    Nonconformance(String),
    /// No answer came before the run's time ran out: nothing to judge.
    Unfinished,
}

/// How a refusal at a size limit the implementation does not declare ends
/// its detail (the causes replace it with the limit the probes find).
pub const UNDECLARED_LIMIT: &str =
    "a size limit it does not declare (declare it with --max-encode or --max-decode)";

/// Asks an implementation, without any capability check. After an
/// interruption (Ctrl-C, SIGTERM: [`process::interrupted`]) nothing is
/// asked, and an answer that came back after it (from a program it killed)
/// is no answer: both are [`EngineError::Cancelled`], never a finding.
pub fn ask(engine: &dyn Engine, request: &Request) -> Result<Expected, EngineError> {
    if process::interrupted() {
        return Err(EngineError::Cancelled);
    }
    let answer = match request {
        Request::Encode { code_points, flags } => engine
            .encode(code_points, flags.as_deref())
            .map(Expected::Encoded),
        Request::Decode(bytes) => engine
            .decode(bytes)
            .map(|d| Expected::Decoded(CodePoints::from(d))),
    };
    match answer {
        _ if process::interrupted() => Err(EngineError::Cancelled),
        Err(EngineError::Rejected(Some(kind))) => Ok(Expected::Error(kind)),
        other => other,
    }
}

/// Whether `engine` may be asked `request` at all, by what it declares
/// (a candidate of minimization may leave its domain or its channel; a
/// long input of the cost probe, its limits; a question of `--impl`, what
/// another entry point declares).
pub fn askable(engine: &dyn Engine, request: &Request) -> bool {
    let caps = engine.capabilities();
    match request {
        Request::Encode { code_points, flags } => {
            check_supported(&caps, Some((code_points, flags.is_some())), None).is_ok()
        }
        Request::Decode(bytes) => check_supported(&caps, None, Some(bytes)).is_ok(),
    }
}

pub use crate::c_reference::answer as reference;

/// The answer of `codec`'s reference implementation (the C reference for
/// Punycode, see [`crate::engines::builtin_for`] for the others). `None`
/// when it cannot be asked this question.
pub fn reference_for(codec: Codec, request: &Request) -> Option<Expected> {
    if codec == Codec::Punycode {
        return reference(request);
    }
    let engine = crate::engines::reference_for(codec)?;
    ask(engine.as_ref(), request).ok()
}

/// Asks `engine` and judges its answer against `reference`, flags included.
pub fn judge(engine: &dyn Engine, request: &Request, reference: &Expected) -> Verdict {
    judge_with(engine, request, reference, true)
}

/// [`judge`], comparing decoded case flags only when `flags_matter` (a vector
/// can say that only the code points are expected).
pub fn judge_with(
    engine: &dyn Engine,
    request: &Request,
    reference: &Expected,
    flags_matter: bool,
) -> Verdict {
    judge_answer(engine, request, reference, flags_matter).0
}

/// [`judge_with`], also returning the engine's answer when it was asked.
pub fn judge_answer(
    engine: &dyn Engine,
    request: &Request,
    reference: &Expected,
    flags_matter: bool,
) -> (Verdict, Option<Result<Expected, EngineError>>) {
    let caps = engine.capabilities();
    let supported = match request {
        Request::Encode { code_points, flags } => {
            check_supported(&caps, Some((code_points, flags.is_some())), None)
        }
        Request::Decode(bytes) => check_supported(&caps, None, Some(bytes)),
    };
    if let Err((class, reason)) = supported {
        return (Verdict::Skip { class, reason }, None);
    }
    let got = ask(engine, request);
    let verdict = evaluate(
        &caps,
        engine.codec(),
        request,
        reference,
        &got,
        flags_matter,
    );
    (verdict, Some(got))
}

/// Judges an answer `got` to `request` against `reference` for an
/// implementation that declares `caps`; a difference that one of its
/// declared deviations explains is classified as `listed`.
pub fn evaluate(
    caps: &Capabilities,
    codec: Codec,
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
    flags_matter: bool,
) -> Verdict {
    if let Err(EngineError::Limit(message)) = got {
        return own_limit(caps, request, reference, message);
    }
    if let Some(beyond) = BeyondOwnLimit::of(caps, got) {
        let why = if beyond.binds_a_buffer() {
            "a write past a fixed buffer?"
        } else {
            "it declares that it refuses that"
        };
        return Verdict::Nonconformance(format!(
            "answered {beyond}: {why} (expected {})",
            excerpt(&describe(&Ok(reference.clone())))
        ));
    }
    // A label is refused or not: the reference's refusal has no RFC 3492
    // kind, and neither does any implementation's (the reason is in the
    // report, from the reference).
    if matches!(codec, Codec::Label(_) | Codec::Domain(_))
        && matches!(reference, Expected::Error(_))
        && is_refusal(got)
    {
        return Verdict::Same;
    }
    // A validator's verdict: the text of its answer is never compared.
    if caps.verdict_only {
        let valid = matches!(got, Ok(Expected::Encoded(_) | Expected::Decoded(_)));
        let refuses = matches!(reference, Expected::Error(_));
        if (valid && !refuses) || (is_refusal(got) && refuses) {
            return Verdict::Same;
        }
    }
    // Punycode's digits are case-insensitive (section 5); the other
    // codecs' encoded forms are compared byte for byte.
    let unflagged_encode =
        matches!(request, Request::Encode { flags: None, .. }) && codec == Codec::Punycode;
    match compare_answer(caps, reference, got, flags_matter, unflagged_encode) {
        Verdict::Nonconformance(detail) => {
            if let Some(verdict) = refused_outside_domain(caps, codec, request, reference, got) {
                return verdict;
            }
            if let Some(verdict) = newer_than_declared(caps, codec, request, reference, got) {
                return verdict;
            }
            if is_refusal(got)
                && let Some((size, limit, counts, option)) = caps.name_limits.passed_by(reference)
            {
                return Verdict::Divergence {
                    class: Class::LengthLimit,
                    detail: format!(
                        "refused: the answer has {size} {counts}, beyond its declared \
                         --{option} {limit}"
                    ),
                };
            }
            if let Some(deviation) = caps
                .deviations
                .iter()
                .find(|d| (d.explains)(request, reference, got))
            {
                return Verdict::Divergence {
                    class: Class::Listed,
                    detail: format!("{}: {}", deviation.id, deviation.reason),
                };
            }
            failed_at_declared_limit(caps, request, reference, got).unwrap_or_else(|| {
                let detail = as_a_verdict(caps, reference, got, detail);
                Verdict::Nonconformance(with_label_reason(codec, request, detail))
            })
        }
        other => other,
    }
}

/// What a validator (`--answers verdict`) did wrong, in its own terms:
/// it answered valid where the reference refuses (`detail` otherwise, a
/// refusal of valid input, a crash, a limit, said as for any answer).
fn as_a_verdict(
    caps: &Capabilities,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
    detail: String,
) -> String {
    if caps.verdict_only && matches!(reference, Expected::Error(_)) && !is_refusal(got) {
        format!(
            "answered valid, where the reference refuses ({})",
            excerpt(&describe(&Ok(reference.clone())))
        )
    } else {
        detail
    }
}

/// A difference on a question of the `label` or `domain` codec that holds
/// a code point assigned after the Unicode version the implementation
/// declares (in its text, inside one of its A-labels, or in either
/// answer): answered by another Unicode, so classified
/// (`unicode-version`), not a finding. An answer where the reference
/// refuses is explained only by a mapping that changed after the declared
/// version: a code point its version lacks is disallowed there, so that
/// is no reason to accept, but an older mapping can make a label valid
/// that the newer makes invalid (U+1E9E was `ss` before 15.1, so `Xn--`
/// and a Punycode run ending in U+1E9E was an A-label of ASCII, which the
/// newer `ß` makes an `xn--` label holding non-ASCII: found by the
/// `domain_diff_icu` fuzz target on ICU 72).
fn newer_than_declared(
    caps: &Capabilities,
    codec: Codec,
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> Option<Verdict> {
    let declared = caps.unicode_version?;
    codec.label_profile()?;
    let accepts_a_refusal = matches!(reference, Expected::Error(_)) && !is_refusal(got);
    let mut code_points = question_code_points(request);
    for answer in [Some(reference), got.as_ref().ok()].into_iter().flatten() {
        match answer {
            Expected::Decoded(cps) => code_points.extend(&cps.values),
            Expected::Encoded(ascii) => code_points.extend(a_label_contents(ascii)),
            Expected::Error(_) => {}
        }
    }
    let detail = version_explains(&code_points, declared, accepts_a_refusal)?;
    Some(Verdict::Divergence {
        class: Class::UnicodeVersion,
        detail,
    })
}

/// Why the declared `declared` explains a difference on `code_points`: the
/// first of them whose UTS #46 mapping changed after it, or whose
/// Bidi_Class did (either makes a label valid in one version and not in
/// the other), else (unless `remapped_only`) the first assigned after it;
/// `None` when none is there.
fn version_explains(
    code_points: &[u32],
    declared: UnicodeVersion,
    remapped_only: bool,
) -> Option<String> {
    let reference = crate::unicode::REFERENCE;
    if let Some((cp, change)) =
        crate::unicode::first_remapped_after(code_points.iter().copied(), declared)
    {
        return Some(format!(
            "u+{cp:04X} {change}: a change of Unicode {}, after the {declared} it \
             declares (the references' data is Unicode {reference})",
            change.since
        ));
    }
    if let Some(cp) =
        crate::unicode::first_reclassified_after(code_points.iter().copied(), declared)
    {
        return Some(format!(
            "u+{cp:04X} has Bidi_Class L in the references' Unicode {reference}, NSM up to \
             Unicode 15.1: the {declared} it declares reads the Bidi rule with the old class"
        ));
    }
    if remapped_only {
        return None;
    }
    let cp = crate::unicode::first_assigned_after(code_points.iter().copied(), declared)?;
    let age = crate::unicode::age(cp)?;
    Some(format!(
        "u+{cp:04X} was assigned in Unicode {age}, after the {declared} it declares \
         (the references' data is Unicode {reference})"
    ))
}

/// The code points of `request`, and what each A-label in it holds
/// (ToASCII of a name takes A-labels too).
fn question_code_points(request: &Request) -> Vec<u32> {
    let mut code_points: Vec<u32> = match request {
        Request::Encode { code_points, .. } => code_points.clone(),
        Request::Decode(bytes) => String::from_utf8_lossy(bytes)
            .chars()
            .map(u32::from)
            .collect(),
    };
    let text: String = code_points
        .iter()
        .filter_map(|&cp| char::from_u32(cp))
        .collect();
    code_points.extend(a_label_contents(text.as_bytes()));
    code_points
}

/// Whether `request` holds a code point that `caps`' declared Unicode
/// version explains (assigned after it, or remapped by UTS #46 after it),
/// in its text or inside its A-labels: where a property's round trip may
/// differ as the answers do, as the declaration says.
pub fn beyond_declared_version(caps: &Capabilities, request: &Request) -> bool {
    caps.unicode_version.is_some_and(|declared| {
        crate::unicode::known_otherwise(&question_code_points(request), declared)
    })
}

/// The code points the A-labels of `text` hold, where their Punycode
/// decodes.
fn a_label_contents(text: &[u8]) -> Vec<u32> {
    String::from_utf8_lossy(text)
        .split(crate::domain::SEPARATORS)
        .filter(|label| crate::label::has_ace_prefix(label.as_bytes()))
        .filter_map(|label| crate::punycode::decode(&label.as_bytes()[4..]).ok())
        .flat_map(|decoded| decoded.code_points)
        .collect()
}

/// `detail` with the rule by which the `label` codec's reference refuses
/// `request`, where it does: a label's refusal is one of many rules, and
/// a maintainer reading "expected an error" needs to know which.
fn with_label_reason(codec: Codec, request: &Request, detail: String) -> String {
    let Some(profile) = codec.label_profile() else {
        return detail;
    };
    match crate::domain::refusal(codec, request) {
        Some(why) => format!(
            "{detail}: {}, under {profile}",
            why.explained(profile.rules)
        ),
        None => detail,
    }
}

/// A successful answer longer than one of the implementation's own
/// declared limits that bind its answers ([`crate::engines::BoundAnswers`]):
/// more code points decoded than `--max-encode`, more bytes encoded than
/// `--max-decode`. Whatever the reference answered, right or wrong, the
/// answer is longer than the implementation said it can hold: the mark of
/// a write past a fixed buffer (OpenSSL 3.0.6 answers 513 code points from
/// its 512-entry array, CVE-2022-3602).
///
/// Decoded code points are counted as code points, not UTF-16 units: an
/// implementation whose limit counts code points (OpenSSL's array of
/// `unsigned int`) answers 512 supplementary code points honestly, and a
/// finding must hold under either count; an answer exactly at the limit is
/// within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeyondOwnLimit {
    /// The answer's length: code points decoded, bytes encoded, or a
    /// label's or name's size ([`crate::engines::NameLimits`]).
    pub len: usize,
    /// The limit it is beyond.
    pub limit: usize,
    /// What it counts: `code points`, `bytes`, `code points in a
    /// non-ASCII label` ...
    pub counts: &'static str,
    /// The option that declares the limit, without its dashes.
    pub option: &'static str,
}

impl BeyondOwnLimit {
    /// `got` beyond a limit of `caps` that binds it; `None` for an answer
    /// within its limits, a refusal, or one no declared limit binds.
    pub fn of(caps: &Capabilities, got: &Result<Expected, EngineError>) -> Option<Self> {
        let answer = got.as_ref().ok()?;
        let (len, limit, counts, option) = match answer {
            Expected::Decoded(cps) if caps.bound_answers.decoded => (
                cps.values.len(),
                caps.max_encode_input?,
                "code points",
                "max-encode",
            ),
            Expected::Encoded(bytes) if caps.bound_answers.encoded => {
                (bytes.len(), caps.max_decode_input?, "bytes", "max-decode")
            }
            _ => caps.name_limits.passed_by(answer)?,
        };
        (len > limit).then_some(BeyondOwnLimit {
            len,
            limit,
            counts,
            option,
        })
    }

    /// Whether it is Punycode's limit (`--max-encode`, `--max-decode`),
    /// which bounds a buffer; a label's or a name's is a promise to refuse.
    pub fn binds_a_buffer(&self) -> bool {
        matches!(self.option, "max-encode" | "max-decode")
    }

    /// The unit it counts: `code points` or `bytes` (of a label or a
    /// name, for those limits).
    pub fn unit(&self) -> &'static str {
        self.counts
    }

    /// The declaration whose limit it is beyond, with that limit:
    /// `--max-encode 512`.
    pub fn declared(&self) -> String {
        format!("--{} {}", self.option, self.limit)
    }
}

impl std::fmt::Display for BeyondOwnLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}, beyond its own declared {}",
            self.len,
            self.unit(),
            self.declared()
        )
    }
}

/// A failure of an implementation that does not say why it fails
/// (`--errors failure-only`) where the request, or the reference's answer
/// to it, is beyond a limit it declares: its failure is that limit
/// speaking, as "input or output is too large" is for one that says so
/// ([`own_limit`]). `None` for anything else: a failure within the limits
/// stays a finding, and a success beyond them is judged as any other (and
/// is a finding of its own where the limit binds answers:
/// [`BeyondOwnLimit`]).
fn failed_at_declared_limit(
    caps: &Capabilities,
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> Option<Verdict> {
    let failed = match got {
        Ok(Expected::Error(_)) => true,
        Err(e) => matches!(e, EngineError::Rejected(_) | EngineError::Failed(_)),
        Ok(_) => false,
    };
    if caps.errors != ErrorDetail::FailureOnly || !failed {
        return None;
    }
    let beyond = beyond_declared_limit(caps, request, reference)?;
    Some(Verdict::Skip {
        class: Class::LengthLimit,
        reason: format!("failed without saying why, which its declared limit explains: {beyond}"),
    })
}

/// Whether an answer is a refusal (any failure the implementation reports
/// in the convention).
pub fn is_refusal(got: &Result<Expected, EngineError>) -> bool {
    matches!(
        got,
        Ok(Expected::Error(_))
            | Err(EngineError::Rejected(_)
                | EngineError::Failed(_)
                | EngineError::Unsupported(_)
                | EngineError::Limit(_))
    )
}

/// Where RFC 3492's decoding of `text` leaves `domain` before it fails: the
/// first code point it inserted outside it (`U+1504F616`), or, when it
/// fails computing the next one (`n + i div (length + 1)` past `maxint`),
/// that one, above every domain but u32. `None` when it stays inside, or
/// succeeds.
pub fn leaves_domain_before_failing(text: &[u8], domain: CodePointDomain) -> Option<String> {
    if domain == CodePointDomain::U32 {
        return None;
    }
    let (result, inserted) = crate::punycode::decode_inserted(text);
    let error = result.err()?;
    if let Some(cp) = inserted.iter().find(|&&cp| !domain.contains(cp)) {
        return Some(format!("U+{cp:04X}"));
    }
    matches!(
        error,
        crate::punycode::Error::Overflow {
            check: crate::punycode::OverflowCheck::DecodeCodePoint,
            ..
        }
    )
    .then(|| "a code point above U+FFFFFFFF".to_string())
}

/// A refusal of a decoding that the reference fails only after it has left
/// the declared domain: the refusal the domain declares (the reference
/// would have failed later, maybe with another error kind, but the
/// implementation must not go that far). `None` for anything else.
fn refused_outside_domain(
    caps: &Capabilities,
    codec: Codec,
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> Option<Verdict> {
    let (Request::Decode(text), Expected::Error(kind)) = (request, reference) else {
        return None;
    };
    if codec != Codec::Punycode || !is_refusal(got) {
        return None;
    }
    leaves_domain_before_failing(text, caps.domain)?;
    Some(Verdict::Divergence {
        class: Class::Domain,
        detail: format!(
            "the reference's decoding leaves its domain ({}) before it fails with {kind}; refused, as declared",
            caps.domain.meaning()
        ),
    })
}

/// The UTF-16 length of `code_points`: a limit counted in code points is
/// also met by an implementation that counts UTF-16 units (ICU, the JDK),
/// which reach it with fewer supplementary code points.
fn utf16_len(code_points: &[u32]) -> usize {
    code_points
        .iter()
        .map(|&cp| if cp > 0xFFFF { 2 } else { 1 })
        .sum()
}

/// The declared limit that `request`, or the reference's answer to it, is
/// beyond: `--max-encode` counts code points (to encode, or decoded),
/// `--max-decode` bytes of Punycode (to decode, or encoded). Where the
/// reference fails, what it had written when it failed counts as its
/// answer: an implementation that stops at its limit on the way does not
/// reach the error.
fn beyond_declared_limit(
    caps: &Capabilities,
    request: &Request,
    reference: &Expected,
) -> Option<String> {
    let code_points = |what: &str, units: usize| {
        caps.max_encode_input.filter(|&limit| units > limit).map(|limit| {
            format!("{what} {units} code points (UTF-16 units), beyond its declared --max-encode {limit}")
        })
    };
    let bytes = |what: &str, len: usize| {
        caps.max_decode_input
            .filter(|&limit| len > limit)
            .map(|limit| format!("{what} {len} bytes, beyond its declared --max-decode {limit}"))
    };
    match request {
        Request::Encode {
            code_points: cps,
            flags,
        } => code_points("asked to encode", utf16_len(cps)).or_else(|| {
            let written = match reference {
                Expected::Encoded(out) => out.len(),
                Expected::Error(_) => {
                    let (_, steps) = crate::punycode::encode_traced(cps, flags.as_deref());
                    let basic = cps
                        .iter()
                        .filter(|&&c| crate::punycode::is_basic(c))
                        .count();
                    basic
                        + usize::from(basic > 0)
                        + steps.iter().map(|s| s.digits.len()).sum::<usize>()
                }
                Expected::Decoded(_) => 0,
            };
            bytes("its encoding has", written)
        }),
        Request::Decode(text) => bytes("asked to decode", text.len()).or_else(|| {
            let written = match reference {
                Expected::Decoded(cps) => utf16_len(&cps.values),
                Expected::Error(_) => {
                    let (_, inserted) = crate::punycode::decode_inserted(text);
                    let literal = text
                        .iter()
                        .rposition(|&c| c == crate::punycode::DELIMITER)
                        .unwrap_or(0);
                    literal + utf16_len(&inserted)
                }
                Expected::Encoded(_) => 0,
            };
            code_points("its decoding has", written)
        }),
    }
}

/// Judges an answer "input or output is too large" ([`EngineError::Limit`]):
/// the same answer as a reference that says `big_output`; a declared
/// length limit when the request or its result is beyond one the
/// implementation declares; otherwise a refusal like any other, which the
/// reference's success makes a nonconformance (an undeclared limit is a
/// finding, not a class).
fn own_limit(
    caps: &Capabilities,
    request: &Request,
    reference: &Expected,
    message: &str,
) -> Verdict {
    if *reference == Expected::Error(crate::punycode::ErrorKind::BigOutput) {
        return Verdict::Same;
    }
    if let Some(beyond) = beyond_declared_limit(caps, request, reference) {
        return Verdict::Skip {
            class: Class::LengthLimit,
            reason: format!("stopped at its own size limit ({message}): {beyond}"),
        };
    }
    match reference {
        Expected::Error(want) if caps.errors == ErrorDetail::FailureOnly => Verdict::Divergence {
            class: Class::ErrorDetail,
            detail: format!("failed as too large ({message}) where the reference says {want}"),
        },
        _ => Verdict::Nonconformance(format!(
            "expected {}, got \"{message}\", {UNDECLARED_LIMIT}",
            describe(&Ok(reference.clone()))
        )),
    }
}

/// Whether `got` is the Punycode `want` with its digits (everything after
/// the last delimiter) in another case. Without annotations, RFC 3492
/// section 5 lets an encoder write its digits in uppercase or in lowercase
/// ("only uppercase forms or only lowercase forms"); the literal part keeps
/// the case of the basic code points.
fn same_up_to_digit_case(want: &[u8], got: &[u8]) -> bool {
    let literal = want
        .iter()
        .rposition(|&c| c == crate::punycode::DELIMITER)
        .map_or(0, |p| p + 1);
    want.len() == got.len()
        && want[..literal] == got[..literal]
        && want[literal..].eq_ignore_ascii_case(&got[literal..])
}

fn compare_answer(
    caps: &Capabilities,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
    flags_matter: bool,
    unflagged_encode: bool,
) -> Verdict {
    match got {
        Err(EngineError::Limit(message)) => {
            return Verdict::Nonconformance(format!("stopped at its own size limit ({message})"));
        }
        Err(EngineError::Unsupported(why)) => {
            return Verdict::Nonconformance(format!(
                "refused a request inside its declared capabilities: {why}"
            ));
        }
        Err(EngineError::Broken(why)) => return Verdict::Nonconformance(why.clone()),
        Err(e @ (EngineError::Crashed(_) | EngineError::Hung(_))) => {
            return Verdict::Nonconformance(e.to_string());
        }
        Err(EngineError::Cancelled) => return Verdict::Unfinished,
        _ => {}
    }
    // A result outside its domain must be refused, not returned.
    if let Expected::Decoded(want) = reference
        && want.values.iter().any(|&cp| !caps.domain.contains(cp))
    {
        return match got {
            Ok(Expected::Error(_)) | Err(EngineError::Rejected(_) | EngineError::Failed(_)) => {
                Verdict::Divergence {
                    class: Class::Domain,
                    detail: format!(
                        "decodes to a code point outside its domain ({}), which it refuses as declared",
                        caps.domain.meaning()
                    ),
                }
            }
            other => Verdict::Nonconformance(format!(
                "the result [{want}] is outside its declared domain ({}) and must be refused, got {}",
                caps.domain.meaning(),
                excerpt(&describe(other))
            )),
        };
    }
    let mismatch = || {
        Verdict::Nonconformance(format!(
            "expected {}, got {}",
            describe(&Ok(reference.clone())),
            excerpt(&describe(got))
        ))
    };
    match (reference, got) {
        (Expected::Encoded(want), Ok(Expected::Encoded(answer))) if want == answer => Verdict::Same,
        (Expected::Encoded(want), Ok(Expected::Encoded(answer)))
            if unflagged_encode && same_up_to_digit_case(want, answer) =>
        {
            Verdict::Divergence {
                class: Class::Annotations,
                detail: format!(
                    "digits in another case ({:?}); without annotations their case carries nothing",
                    String::from_utf8_lossy(answer)
                ),
            }
        }
        (Expected::Decoded(want), Ok(Expected::Decoded(answer)))
            if want.values == answer.values =>
        {
            if want.flags == answer.flags || !flags_matter {
                Verdict::Same
            } else if !caps.annotations {
                Verdict::Divergence {
                    class: Class::Annotations,
                    detail: "same code points; the case flags it does not support differ".into(),
                }
            } else {
                mismatch()
            }
        }
        (Expected::Error(want), Ok(Expected::Error(answer))) if want == answer => Verdict::Same,
        (Expected::Error(want), Err(e))
            if e.is_kindless_refusal() && caps.errors == ErrorDetail::FailureOnly =>
        {
            Verdict::Divergence {
                class: Class::ErrorDetail,
                detail: format!("failed without a kind where the reference says {want}"),
            }
        }
        _ => mismatch(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::CleanRoom;
    use crate::punycode::ErrorKind;

    #[test]
    fn a_declared_unicode_version_explains_what_came_after_it() {
        let caps = Capabilities {
            unicode_version: Some("15.0".parse().unwrap()),
            ..CleanRoom.capabilities()
        };
        let decode = |text: &str| Request::Decode(text.as_bytes().to_vec());
        // U+1E9E, remapped in 15.1; U+1351D (in xn--aa-4q7q), assigned in
        // 16.0, inside an A-label of a name to encode.
        assert!(beyond_declared_version(&caps, &decode("\u{1E9E}")));
        let name: Vec<u32> = "a.xn--aa-4q7q".chars().map(u32::from).collect();
        let encode = Request::Encode {
            code_points: name,
            flags: None,
        };
        assert!(beyond_declared_version(&caps, &encode));
        assert!(!beyond_declared_version(&caps, &decode("b\u{FC}cher.de")));
        // Without a declaration, nothing is explained.
        assert!(!beyond_declared_version(&CleanRoom.capabilities(), &encode));
    }

    /// The `domain_diff_icu` fuzz target's `Xn--a-` + 52 `p` + `n` U+1E9E
    /// on ICU 72 (Unicode 15.0): its mapping to `ss` makes an A-label of
    /// ASCII, which it encodes; the reference's (15.1 and later) `ß` makes
    /// an `xn--` label holding non-ASCII (UTS #46 section 4, step 4), which
    /// it refuses. Accepting what the reference refuses is explained by a
    /// mapping changed after the declared version, never by a code point
    /// assigned after it (U+1351D, 16.0, is disallowed in 15.0).
    #[test]
    fn an_older_mapping_explains_an_acceptance_and_a_newer_code_point_does_not() {
        let profile = crate::label::LabelProfile {
            rules: crate::label::LabelRules::Uts46,
            switches: crate::label::Switches::STRICT,
        };
        let codec = Codec::Domain(profile);
        let caps = Capabilities {
            unicode_version: Some("15.0".parse().unwrap()),
            ..CleanRoom.capabilities()
        };
        let encode = |text: &str| Request::Encode {
            code_points: text.chars().map(u32::from).collect(),
            flags: None,
        };
        let refused = Expected::Error(ErrorKind::BadInput);
        let sharp = format!("Xn--a-{}n\u{1E9E}", "p".repeat(52));
        let got = Ok(Expected::Encoded(
            format!("xn--a-{}nss", "p".repeat(52)).into_bytes(),
        ));
        assert!(matches!(
            evaluate(&caps, codec, &encode(&sharp), &refused, &got, true),
            Verdict::Divergence {
                class: Class::UnicodeVersion,
                ..
            }
        ));
        let newer = Ok(Expected::Encoded(b"a.xn--aa-4q7q".to_vec()));
        assert!(matches!(
            evaluate(
                &caps,
                codec,
                &encode("a.\u{1351D}aa"),
                &refused,
                &newer,
                true
            ),
            Verdict::Nonconformance(_)
        ));
    }

    /// The sweep of the PyPI idna package 3.13 (Bidi classes of Unicode
    /// 14.0): U+1B3A between Hebrew letters is NSM there, allowed in an
    /// RTL label, and L in the references' 18.0, refused. Declared 14.0,
    /// its acceptance is the class unicode-version; declared 16.0 (after
    /// the last version known to hold NSM), a cause.
    #[test]
    fn a_bidi_class_changed_after_the_declared_version_explains_an_acceptance() {
        let profile = crate::label::LabelProfile {
            rules: crate::label::LabelRules::Idna2008,
            switches: crate::label::Switches::STRICT,
        };
        let codec = Codec::Label(profile);
        let request = Request::Encode {
            code_points: vec![0x05D0, 0x1B3A, 0x05D0],
            flags: None,
        };
        let reference = reference_for(codec, &request).unwrap();
        assert!(matches!(reference, Expected::Error(_)), "{reference:?}");
        let got = Ok(Expected::Encoded(b"xn--4dba955n".to_vec()));
        let verdict = |version: &str| {
            let caps = Capabilities {
                unicode_version: Some(version.parse().unwrap()),
                ..CleanRoom.capabilities()
            };
            evaluate(&caps, codec, &request, &reference, &got, true)
        };
        assert!(matches!(
            verdict("14.0"),
            Verdict::Divergence {
                class: Class::UnicodeVersion,
                ..
            }
        ));
        assert!(matches!(verdict("16.0"), Verdict::Nonconformance(_)));
    }

    fn declared(domain: CodePointDomain) -> Capabilities {
        Capabilities {
            domain,
            ..CleanRoom.capabilities()
        }
    }

    /// libidn refuses U+1504F616 as soon as it is decoded (bad_input); the
    /// reference, in u32, inserts it and overflows on the next delta. Under
    /// a domain that excludes it, that refusal is the declared one.
    #[test]
    fn a_refusal_after_the_reference_left_the_domain_is_the_domain_refusal() {
        let request = Request::Decode(b"zz8898z8z8z098m".to_vec());
        let reference = Expected::Error(ErrorKind::Overflow);
        let refused = Ok(Expected::Error(ErrorKind::BadInput));
        assert_eq!(
            leaves_domain_before_failing(b"zz8898z8z8z098m", CodePointDomain::UnicodeScalar)
                .as_deref(),
            Some("U+1504F616")
        );
        for domain in [
            CodePointDomain::UnicodeScalar,
            CodePointDomain::UnicodeWithSurrogates,
        ] {
            let verdict = evaluate(
                &declared(domain),
                Codec::Punycode,
                &request,
                &reference,
                &refused,
                true,
            );
            assert!(
                matches!(&verdict, Verdict::Divergence { class: Class::Domain, detail } if detail.contains("leaves its domain")),
                "{domain:?}: {verdict:?}"
            );
        }
        // In a domain that holds it, it is the wrong error kind; and
        // success is never explained by the domain.
        for domain in [CodePointDomain::U31, CodePointDomain::U32] {
            assert!(matches!(
                evaluate(
                    &declared(domain),
                    Codec::Punycode,
                    &request,
                    &reference,
                    &refused,
                    true
                ),
                Verdict::Nonconformance(_)
            ));
        }
        let accepted = Ok(Expected::Decoded(CodePoints::default()));
        assert!(matches!(
            evaluate(
                &declared(CodePointDomain::UnicodeScalar),
                Codec::Punycode,
                &request,
                &reference,
                &accepted,
                true
            ),
            Verdict::Nonconformance(_)
        ));
        // A failure that stays inside the domain is still compared by kind.
        let inside = Request::Decode(b"a-@".to_vec());
        assert!(matches!(
            evaluate(
                &declared(CodePointDomain::UnicodeScalar),
                Codec::Punycode,
                &inside,
                &Expected::Error(ErrorKind::BadInput),
                &Ok(Expected::Error(ErrorKind::Overflow)),
                true
            ),
            Verdict::Nonconformance(_)
        ));
    }

    #[test]
    fn each_domain_holds_what_it_says() {
        let cases = [
            (0xD800, [true, true, true, false]),
            (0x10_FFFF, [true, true, true, true]),
            (0x11_0000, [true, true, false, false]),
            (0x8000_0000, [true, false, false, false]),
        ];
        let domains = [
            CodePointDomain::U32,
            CodePointDomain::U31,
            CodePointDomain::UnicodeWithSurrogates,
            CodePointDomain::UnicodeScalar,
        ];
        for (cp, inside) in cases {
            for (domain, inside) in domains.into_iter().zip(inside) {
                assert_eq!(domain.contains(cp), inside, "{domain:?} U+{cp:04X}");
            }
        }
        // A lone surrogate returned as the reference returns it: the same
        // answer under unicode-with-surrogates, a nonconformance under unicode.
        let request = Request::Decode(b"zy0c".to_vec());
        let surrogate = Expected::Decoded(CodePoints::with_flags(&[0xDFFF], None));
        let got = Ok(surrogate.clone());
        let judge = |domain| {
            evaluate(
                &declared(domain),
                Codec::Punycode,
                &request,
                &surrogate,
                &got,
                true,
            )
        };
        assert_eq!(judge(CodePointDomain::UnicodeWithSurrogates), Verdict::Same);
        assert!(matches!(
            judge(CodePointDomain::UnicodeScalar),
            Verdict::Nonconformance(_)
        ));
    }

    /// "input or output is too large" is excused only by a declared limit
    /// that the request or its result is beyond, or by a reference that
    /// says big_output too.
    #[test]
    fn an_own_limit_counts_only_when_declared() {
        let too_large = Err(EngineError::Limit("input or output is too large".into()));
        let encode = Request::Encode {
            code_points: vec![0xE9; 257],
            flags: None,
        };
        let reference = reference(&encode).unwrap();
        let undeclared = declared(CodePointDomain::U32);
        let limited = |max_encode, max_decode| Capabilities {
            max_encode_input: max_encode,
            max_decode_input: max_decode,
            ..undeclared.clone()
        };
        let verdict = evaluate(
            &undeclared,
            Codec::Punycode,
            &encode,
            &reference,
            &too_large,
            true,
        );
        assert!(
            matches!(&verdict, Verdict::Nonconformance(d) if d.contains("does not declare")),
            "{verdict:?}"
        );
        // 257 code points beyond --max-encode 256; the same count within
        // 300, but its encoding (hundreds of bytes) beyond --max-decode 256.
        for caps in [limited(Some(256), None), limited(Some(300), Some(256))] {
            let verdict = evaluate(
                &caps,
                Codec::Punycode,
                &encode,
                &reference,
                &too_large,
                true,
            );
            assert!(
                matches!(
                    verdict,
                    Verdict::Skip {
                        class: Class::LengthLimit,
                        ..
                    }
                ),
                "{verdict:?}"
            );
        }
        assert!(matches!(
            evaluate(
                &limited(Some(300), Some(100_000)),
                Codec::Punycode,
                &encode,
                &reference,
                &too_large,
                true
            ),
            Verdict::Nonconformance(_)
        ));
        // A limit counted in UTF-16 units: 200 supplementary code points.
        let astral = Request::Encode {
            code_points: vec![0x1_F600; 200],
            flags: None,
        };
        let astral_reference = super::reference(&astral).unwrap();
        assert!(matches!(
            evaluate(
                &limited(Some(256), None),
                Codec::Punycode,
                &astral,
                &astral_reference,
                &too_large,
                true
            ),
            Verdict::Skip { .. }
        ));
        // The reference fails later, but what it wrote on the way (531
        // basic code points) is already beyond the declared 512.
        let long = Request::Decode([vec![b'a'; 531], b"-sj045716a".to_vec()].concat());
        let overflow = Expected::Error(ErrorKind::Overflow);
        assert!(matches!(
            evaluate(
                &limited(Some(512), None),
                Codec::Punycode,
                &long,
                &overflow,
                &too_large,
                true
            ),
            Verdict::Skip { .. }
        ));
        assert!(matches!(
            evaluate(
                &limited(Some(600), None),
                Codec::Punycode,
                &long,
                &overflow,
                &too_large,
                true
            ),
            Verdict::Nonconformance(_)
        ));
        // The reference too large as well: the same answer.
        assert_eq!(
            evaluate(
                &undeclared,
                Codec::Punycode,
                &encode,
                &Expected::Error(ErrorKind::BigOutput),
                &too_large,
                true
            ),
            Verdict::Same
        );
    }

    /// With --errors failure-only, a failure where the request or the
    /// reference's answer is beyond a declared limit is that limit, in both
    /// directions and whatever the failure says; within the limits it is
    /// still a finding, and a success beyond them is judged as ever.
    #[test]
    fn a_failure_without_a_kind_beyond_a_declared_limit_is_the_limit() {
        let failure_only = |max_encode, max_decode| Capabilities {
            errors: ErrorDetail::FailureOnly,
            max_encode_input: max_encode,
            max_decode_input: max_decode,
            ..declared(CodePointDomain::U32)
        };
        let judge = |caps: &Capabilities, request: &Request, got| {
            let reference = reference(request).unwrap();
            evaluate(caps, Codec::Punycode, request, &reference, &got, true)
        };
        let is_limit = |verdict: &Verdict| {
            matches!(
                verdict,
                Verdict::Skip {
                    class: Class::LengthLimit,
                    ..
                }
            )
        };
        // 223 code points (within --max-encode 256) whose encoding has more
        // than 256 bytes; and a decoding of 257 bytes' worth of code points.
        let encode = Request::Encode {
            code_points: (0..223).map(|k| 0x4E00 + k * 7).collect(),
            flags: None,
        };
        let Some(Expected::Encoded(encoded)) = reference(&encode) else {
            panic!("the reference encodes it");
        };
        assert!(encoded.len() > 256, "{}", encoded.len());
        let decode = Request::Decode(encoded.clone());
        let failures = [
            Err(EngineError::Rejected(None)),
            Err(EngineError::Failed("Illegal char found".into())),
            Ok(Expected::Error(crate::punycode::ErrorKind::BadInput)),
        ];
        for got in failures.clone() {
            // Encoding: its output beyond --max-decode.
            let verdict = judge(&failure_only(Some(256), Some(256)), &encode, got.clone());
            assert!(is_limit(&verdict), "{got:?}: {verdict:?}");
            assert!(
                matches!(&verdict, Verdict::Skip { reason, .. } if reason.contains("beyond its declared --max-decode 256")),
                "{verdict:?}"
            );
            // Decoding: its output (223 code points) beyond --max-encode 200.
            let verdict = judge(&failure_only(Some(200), None), &decode, got.clone());
            assert!(is_limit(&verdict), "{got:?}: {verdict:?}");
            // Within the limits, or without any: still a finding.
            for caps in [
                failure_only(None, None),
                failure_only(Some(256), Some(4096)),
            ] {
                let verdict = judge(&caps, &encode, got.clone());
                assert!(matches!(verdict, Verdict::Nonconformance(_)), "{verdict:?}");
            }
            // A program that says which kind is not excused by its limit.
            let kinds = Capabilities {
                errors: ErrorDetail::Kinds,
                ..failure_only(Some(256), Some(256))
            };
            let verdict = judge(&kinds, &encode, got.clone());
            assert!(matches!(verdict, Verdict::Nonconformance(_)), "{verdict:?}");
        }
        // A success beyond a limit that does not bind answers (a library's
        // limit on its input) is judged as ever: right is the same, wrong
        // is wrong.
        let caps = failure_only(Some(256), Some(256));
        assert_eq!(
            judge(&caps, &encode, Ok(Expected::Encoded(encoded))),
            Verdict::Same
        );
        assert!(matches!(
            judge(&caps, &encode, Ok(Expected::Encoded(b"x".to_vec()))),
            Verdict::Nonconformance(_)
        ));
    }

    /// What an implementation says when it fails without a kind is shown,
    /// bounded, in the detail.
    #[test]
    fn a_failure_shows_its_own_words_bounded() {
        let request = Request::Decode(b"a-bga".to_vec());
        let reference = reference(&request).unwrap();
        let caps = Capabilities {
            errors: ErrorDetail::FailureOnly,
            ..declared(CodePointDomain::U32)
        };
        let said = |why: String| {
            evaluate(
                &caps,
                Codec::Punycode,
                &request,
                &reference,
                &Err(EngineError::Failed(why)),
                true,
            )
        };
        assert_eq!(
            said("Illegal char found".into()),
            Verdict::Nonconformance(
                "expected [u+0061 u+00E9], got failed (no error kind given): Illegal char found"
                    .into()
            )
        );
        let Verdict::Nonconformance(long) = said("x".repeat(1 << 20)) else {
            panic!("a finding");
        };
        assert!(
            long.len() < 1000 && long.ends_with("… (1,048,606 bytes in all)"),
            "{long}"
        );
    }

    /// A declared limit binds answers too: a decoding with more code points
    /// than `--max-encode`, an encoding with more bytes than `--max-decode`,
    /// is a finding whatever the reference answered (OpenSSL 3.0.6 answers
    /// the reference's 513 code points from its 512-entry array). At the
    /// limit, refused, counted in UTF-16 units only, or under a built-in
    /// limit on the input alone (ICU's), it is not.
    #[test]
    fn an_answer_beyond_its_own_declared_limit_is_a_finding() {
        use crate::engines::Declaration;
        let limits = |max_encode, max_decode| {
            Declaration {
                max_encode,
                max_decode,
                ..Declaration::default()
            }
            .apply(declared(CodePointDomain::U32))
        };
        let judge =
            |caps: &Capabilities, request: &Request, got: &Result<Expected, EngineError>| {
                let reference = reference(request).unwrap();
                evaluate(caps, Codec::Punycode, request, &reference, got, true)
            };
        let decoding = |n: u32, first: u32| {
            let code_points: Vec<u32> = (first..first + n).collect();
            let Some(Expected::Encoded(text)) = reference(&Request::Encode {
                code_points,
                flags: None,
            }) else {
                panic!("the reference encodes {n} code points");
            };
            Request::Decode(text)
        };
        let right = |request: &Request| Ok(reference(request).unwrap());
        let beyond = |verdict: &Verdict, what: &str| {
            matches!(verdict, Verdict::Nonconformance(d)
                if d.starts_with(&format!("answered {what}, beyond its own declared"))
                    && d.contains("a write past a fixed buffer?"))
        };
        let caps = limits(Some(512), None);
        // The reference's own answer, one code point beyond: a finding.
        let over = decoding(513, 0x4E00);
        let verdict = judge(&caps, &over, &right(&over));
        assert!(beyond(&verdict, "513 code points"), "{verdict:?}");
        // A wrong answer beyond the limit is this finding too.
        let wrong = Ok(Expected::Decoded(CodePoints::with_flags(
            &[0x61; 600],
            None,
        )));
        let verdict = judge(&caps, &over, &wrong);
        assert!(beyond(&verdict, "600 code points"), "{verdict:?}");
        // Exactly at the limit; and 512 supplementary code points (1,024
        // UTF-16 units): within a limit of 512 code points.
        for at in [decoding(512, 0x4E00), decoding(512, 0x1_F000)] {
            assert_eq!(judge(&caps, &at, &right(&at)), Verdict::Same);
        }
        // A refusal beyond it is the limit speaking, as before.
        let too_large = Err(EngineError::Limit("input or output is too large".into()));
        assert!(matches!(
            judge(&caps, &over, &too_large),
            Verdict::Skip {
                class: Class::LengthLimit,
                ..
            }
        ));
        // The same numbers as a built-in limit on the input alone: the
        // answer is judged as ever.
        let input_only = Capabilities {
            max_encode_input: Some(512),
            ..declared(CodePointDomain::U32)
        };
        assert_eq!(judge(&input_only, &over, &right(&over)), Verdict::Same);
        // Where the reference fails, success beyond the limit is still
        // beyond it first.
        let failing = Request::Decode([vec![b'a'; 600], b"-99999999999".to_vec()].concat());
        assert!(matches!(reference(&failing), Some(Expected::Error(_))));
        let verdict = judge(&caps, &failing, &wrong);
        assert!(beyond(&verdict, "600 code points"), "{verdict:?}");

        // Encoding: bytes of Punycode beyond --max-decode.
        let encode = Request::Encode {
            code_points: (0..223).map(|k| 0x4E00 + k * 7).collect(),
            flags: None,
        };
        let Some(Expected::Encoded(encoded)) = reference(&encode) else {
            panic!("the reference encodes it");
        };
        let len = encoded.len();
        let verdict = judge(&limits(None, Some(len - 1)), &encode, &right(&encode));
        assert!(beyond(&verdict, &format!("{len} bytes")), "{verdict:?}");
        assert!(
            matches!(&verdict, Verdict::Nonconformance(d) if d.contains(&format!("--max-decode {}", len - 1))),
            "{verdict:?}"
        );
        assert_eq!(
            judge(&limits(None, Some(len)), &encode, &right(&encode)),
            Verdict::Same
        );
        // --max-encode binds decodings, not encodings; --max-decode the
        // reverse (asked through evaluate alone, past the input checks).
        assert_eq!(
            judge(&limits(Some(1), None), &encode, &right(&encode)),
            Verdict::Same
        );
        assert_eq!(
            judge(&limits(None, Some(1)), &over, &right(&over)),
            Verdict::Same
        );
    }
}
