//! The three promises, as properties of one implementation's answers.
//!
//! - **Round trip**: encoding then decoding gives back the code points (and
//!   the flags that survive, for an implementation with annotations); an
//!   accepted Punycode string re-encodes to itself.
//! - **Uniqueness**: no two different Punycode strings decode to the same
//!   code points and flags. Checked as "every accepted string re-encodes to
//!   itself" plus targeted pairs of neighbouring strings.
//! - **Identical overflow behaviour** is checked by the differential run
//!   against the C reference ([`super::compare::judge`]).
//! - **Equivalent spellings agree** (the `domain` codec under UTS #46): a
//!   name and its spelling with U+002E for U+3002, U+FF0E and U+FF61,
//!   lowercase for uppercase ASCII, and ASCII for fullwidth letters and
//!   digits get the same answer (the same name, or both a refusal), since
//!   UTS #46 step 1 maps each of those to the other before anything else
//!   looks at the name. No reference is asked.
//! - **Entry points agree** (an implementation with several,
//!   [`crate::engines::EntryPoints`]): every other entry point answers a
//!   question as the main one does, the same result or a refusal where it
//!   refuses. No reference is asked: the causes say which of the two it
//!   agrees with.
//!
//! "Itself" is up to what carries no information: the case of a delta's
//! non-final digits never does (Appendix A puts the annotation in the last
//! digit, and encoders write the others in lowercase), and without
//! annotations the case of no digit does.
//!
//! # Size
//!
//! About 860 lines, 190 of them tests: every property shares the one way
//! of asking (`ask_or_reference`) and the canonical forms, and the tests
//! keep the traced canonical form as the oracle of the fast one.

use super::compare::{Request, ask, is_refusal};
use super::vectors::{CodePoints, Expected};
use crate::codec::Codec;
use crate::engines::{Capabilities, Engine, EngineError, EntryPoint, check_supported};
use crate::punycode::{self, DELIMITER};

/// Which property failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// decode(encode(x)) == x.
    EncodeDecode,
    /// encode(decode(s)) == s.
    DecodeEncode,
    /// Two different strings decode to the same result.
    Uniqueness,
    /// Two spellings of one name answer differently.
    EquivalentSpellings,
    /// Two entry points of one implementation answer one question
    /// differently.
    EntryPoints,
}

impl Property {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Property::EncodeDecode => "round trip: decode(encode(x)) == x",
            Property::DecodeEncode => "round trip: encode(decode(s)) == s",
            Property::Uniqueness => "uniqueness: different strings decode differently",
            Property::EquivalentSpellings => {
                "equivalent spellings: a name and its UTS #46 spelling answer alike"
            }
            Property::EntryPoints => "entry points: each answers a question as --impl does",
        }
    }
}

/// `text` with the case of digits that carry no annotation removed: every
/// digit after the literal part when `annotations` is false, otherwise every
/// digit but the last of each delta. Delta boundaries come from the
/// clean-room decoder ([`punycode::delta_digits`]: its fast decoder, no
/// trace), and only with annotations; text it cannot decode is lowered
/// whole after the literal part.
pub fn canonical(text: &[u8], annotations: bool) -> Vec<u8> {
    let mut out = text.to_vec();
    if annotations && let Ok(deltas) = punycode::delta_digits(text) {
        for digits in deltas {
            out[digits.start..digits.end - 1].make_ascii_lowercase();
        }
        return out;
    }
    let literal = text
        .iter()
        .rposition(|&c| c == DELIMITER)
        .map_or(0, |p| p + 1);
    out[literal..].make_ascii_lowercase();
    out
}

/// [`canonical`] for any codec. The other codecs have no digits whose case
/// is free (LACE and UTF-8 decoders are strict), so their canonical form is
/// what their reference encodes the decoded text back to, and the text
/// itself when the reference refuses it; for the `label` and `domain`
/// codecs, the decoding when the reference decodes and refuses to encode.
pub fn canonical_for(codec: Codec, text: &[u8], annotations: bool) -> Vec<u8> {
    if codec == Codec::Punycode {
        return canonical(text, annotations);
    }
    let Some(reference) = crate::engines::reference_for(codec) else {
        return text.to_vec();
    };
    match reference.decode(text) {
        Ok(decoded) => {
            let flags = (annotations && codec.has_annotations()).then(|| decoded.flags.to_vec());
            reference
                .encode(&decoded.code_points, flags.as_deref())
                .unwrap_or_else(|_| {
                    // A label or name that ToUnicode takes and ToASCII
                    // refuses by a length rule (an empty label, 64
                    // octets), which ToUnicode does not have: its
                    // decoding, so that its U-label and A-label spellings
                    // are one.
                    if codec.label_profile().is_some() {
                        crate::unicode::text_of(&decoded.code_points)
                    } else {
                        text.to_vec()
                    }
                })
        }
        Err(_) => text.to_vec(),
    }
}

/// Whether `a` and `b` have the same [`canonical_for`] form. Punycode's
/// changes only the case of letters, so two texts that differ otherwise
/// (in length, or in a byte beside its case) never share it, and equal
/// texts always do: only texts that differ in case alone are decoded.
pub fn same_canonical(codec: Codec, a: &[u8], b: &[u8], annotations: bool) -> bool {
    if codec == Codec::Punycode {
        if a == b {
            return true;
        }
        if !a.eq_ignore_ascii_case(b) {
            return false;
        }
    }
    canonical_for(codec, a, annotations) == canonical_for(codec, b, annotations)
}

/// The flags that survive encoding: a flag on a basic code point that is
/// not a letter changes nothing and decodes as clear.
pub fn surviving_flags(code_points: &[u32], flags: &[bool]) -> Vec<bool> {
    code_points
        .iter()
        .zip(flags)
        .map(|(&cp, &flag)| {
            flag && (!punycode::is_basic(cp)
                || u8::try_from(cp).is_ok_and(|b| b.is_ascii_alphabetic()))
        })
        .collect()
}

/// What decoding an encoding with `flags` gives back: Appendix A forces each
/// basic letter to the case of its flag, and leaves everything else alone.
pub fn flagged_code_points(code_points: &[u32], flags: &[bool]) -> Vec<u32> {
    code_points
        .iter()
        .zip(flags)
        .map(|(&cp, &flag)| match u8::try_from(cp) {
            Ok(b) if b.is_ascii_alphabetic() && flag => u32::from(b.to_ascii_uppercase()),
            Ok(b) if b.is_ascii_alphabetic() => u32::from(b.to_ascii_lowercase()),
            _ => cp,
        })
        .collect()
}

/// A broken property: which, on what, and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The property.
    pub property: Property,
    /// What was observed.
    pub detail: String,
    /// The round trip's second question (the encoding of what it decoded,
    /// or the decoding of what it encoded): when the implementation's
    /// answer to it is itself a nonconformance, that is the cause, and the
    /// broken round trip its symptom.
    pub step: Option<Request>,
    /// For [`Property::EntryPoints`], the two answers that differ.
    pub entry_point: Option<Disagreement>,
}

/// Two entry points' different answers to one question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The other entry point's spec.
    pub spec: String,
    /// The main entry point's answer.
    pub main: Result<Expected, EngineError>,
    /// The other's.
    pub other: Result<Expected, EngineError>,
}

/// Asks `engine`, or the reference for a direction the engine declares it
/// does not do (a decoder alone still keeps its round trip through the
/// reference's encoder). `None` when the engine declares it cannot be asked
/// this (a length limit, its domain, its channel): no property then.
fn ask_or_reference(
    engine: &dyn Engine,
    request: &Request,
) -> Option<Result<Expected, EngineError>> {
    let caps = engine.capabilities();
    let (supported, within) = match request {
        Request::Encode { code_points, flags } => (
            caps.directions.encodes(),
            check_supported(&caps, Some((code_points, flags.is_some())), None),
        ),
        Request::Decode(bytes) => (
            caps.directions.decodes(),
            check_supported(&caps, None, Some(bytes)),
        ),
    };
    if !supported {
        return super::compare::reference_for(engine.codec(), request).map(Ok);
    }
    within.ok()?;
    Some(ask(engine, request))
}

/// What a round trip brings `code_points` back as: themselves, or for a
/// label or a name what processing makes of them (UTS #46 maps `A` to `a`), by the
/// reference; `None` when the reference refuses the label (the
/// differential run judges an implementation that encodes it).
fn processed(codec: Codec, code_points: &[u32]) -> Option<std::borrow::Cow<'_, [u32]>> {
    match codec {
        Codec::Label(profile) => crate::label::to_ascii(profile, code_points)
            .and_then(|ascii| crate::label::to_unicode(profile, &ascii))
            .ok()
            .map(std::borrow::Cow::Owned),
        Codec::Domain(profile) => crate::domain::to_ascii(profile, code_points)
            .and_then(|ascii| crate::domain::to_unicode(profile, &ascii))
            .ok()
            .map(std::borrow::Cow::Owned),
        _ => Some(std::borrow::Cow::Borrowed(code_points)),
    }
}

fn decoded(answer: Result<Expected, EngineError>) -> Option<CodePoints> {
    match answer {
        Ok(Expected::Decoded(cps)) => Some(cps),
        _ => None,
    }
}

/// Checks the round-trip properties that start from `request`, given the
/// engine's answer to it. Other calls the engine fails are not this
/// property's business (the differential run judges them).
pub fn check(
    engine: &dyn Engine,
    request: &Request,
    answer: &Result<Expected, EngineError>,
) -> Option<Violation> {
    let annotations = engine.capabilities().annotations;
    match (request, answer) {
        (Request::Encode { code_points, flags }, Ok(Expected::Encoded(text))) => {
            let again = Request::Decode(text.clone());
            let back = match ask_or_reference(engine, &again)? {
                Ok(Expected::Decoded(back)) => back,
                // Cut by the run's deadline or an interruption: no answer,
                // nothing to judge.
                Err(EngineError::Cancelled) => return None,
                // Its own encoding refused: a violation unless RFC 3492's
                // decoder refuses it too (the encoder bounds each delta, the
                // decoder oldi + delta: vector overflow-roundtrip-asymmetry).
                other => {
                    let rfc = super::compare::reference_for(engine.codec(), &again);
                    if matches!(rfc, Some(Expected::Decoded(_))) {
                        return Some(Violation {
                            property: Property::EncodeDecode,
                            step: Some(again.clone()),
                            entry_point: None,
                            detail: format!(
                                "encoded to {:?}, which it then fails to decode ({}) although the reference ({}) decodes it",
                                String::from_utf8_lossy(text),
                                super::compare::describe(&other),
                                engine.codec().specification()
                            ),
                        });
                    }
                    return None;
                }
            };
            let (code_points_ok, flags_ok) = match flags {
                Some(flags) if annotations => (
                    back.values == flagged_code_points(code_points, flags),
                    back.flags == surviving_flags(code_points, flags),
                ),
                _ => (
                    back.values == *processed(engine.codec(), code_points)?,
                    true,
                ),
            };
            (!code_points_ok || !flags_ok).then(|| Violation {
                property: Property::EncodeDecode,
                step: Some(again.clone()),
                entry_point: None,
                detail: format!(
                    "encoded to {:?}, which decodes to [{back}]",
                    String::from_utf8_lossy(text)
                ),
            })
        }
        (Request::Decode(text), Ok(Expected::Decoded(cps))) => {
            let again = Request::Encode {
                code_points: cps.values.clone(),
                flags: annotations.then(|| cps.flags.clone()),
            };
            match ask_or_reference(engine, &again)? {
                Ok(Expected::Encoded(encoded))
                    if same_canonical(engine.codec(), &encoded, text, annotations) =>
                {
                    None
                }
                // A label or name the reference refuses and the engine
                // takes (its listed deviation, or a cause of its own): no
                // canonical spelling to compare with, so the engine's own
                // decoding of what it encoded must give the text back.
                Ok(Expected::Encoded(encoded))
                    if engine.codec().label_profile().is_some()
                        && matches!(
                            super::compare::reference_for(engine.codec(), request),
                            Some(Expected::Error(_))
                        )
                        && matches!(
                            ask(engine, &Request::Decode(encoded.clone())),
                            Ok(Expected::Decoded(back)) if back.values == cps.values
                        ) =>
                {
                    None
                }
                Ok(Expected::Encoded(encoded)) => Some(Violation {
                    property: Property::DecodeEncode,
                    step: Some(again.clone()),
                    entry_point: None,
                    detail: format!(
                        "decoded to [{cps}], which encodes to {:?}",
                        String::from_utf8_lossy(&encoded)
                    ),
                }),
                // Text the engine accepts but cannot produce: a violation
                // unless the reference cannot produce it either (ToUnicode
                // takes a name that ToASCII's length rules refuse, such as
                // one with a trailing dot under VerifyDnsLength), as the
                // encode round trip above allows.
                Ok(other) => {
                    let reference = super::compare::reference_for(engine.codec(), &again);
                    matches!(reference, Some(Expected::Encoded(_))).then(|| Violation {
                        property: Property::DecodeEncode,
                        step: Some(again.clone()),
                        entry_point: None,
                        detail: format!(
                            "decoded to [{cps}], which it then fails to encode ({other:?}) \
                             although the reference ({}) encodes it",
                            engine.codec().specification()
                        ),
                    })
                }
                Err(_) => None,
            }
        }
        _ => None,
    }
}

/// Every property that starts from `request`: the round trips, and, when
/// `uniqueness`, for an accepted string its uniqueness among its neighbours.
pub fn check_all(
    engine: &dyn Engine,
    request: &Request,
    answer: &Result<Expected, EngineError>,
    uniqueness: bool,
) -> Option<Violation> {
    // A question its declared Unicode version explains differences on is
    // not held to properties that compare with the reference's answers,
    // and a validator's answers (`--answers verdict`) have no text to hold.
    let caps = engine.capabilities();
    if caps.verdict_only || super::compare::beyond_declared_version(&caps, request) {
        return None;
    }
    check(engine, request, answer)
        .or_else(|| match request {
            Request::Decode(text) if uniqueness => check_uniqueness(engine, text, answer),
            _ => None,
        })
        .or_else(|| check_spellings(engine, request, answer))
}

/// Whether another entry point's answer `b` to `request` agrees with the
/// main one's, `a`, each beside what its entry point declares: both a
/// refusal (of any kind, in any words), a decoding the main one refuses
/// because it lies outside its declared domain, or else `b` judged
/// against `a` as against the reference, so that what the other declares
/// (its domain, its limits, its listed deviations, its error detail)
/// explains a difference as it would there. Case flags count only where
/// both declare annotations.
pub fn answers_agree(
    codec: Codec,
    request: &Request,
    (a_caps, a): (&Capabilities, &Result<Expected, EngineError>),
    (b_caps, b): (&Capabilities, &Result<Expected, EngineError>),
) -> bool {
    if is_refusal(a) && is_refusal(b) {
        return true;
    }
    let expected = match a {
        Ok(answer) => answer.clone(),
        Err(_) if is_refusal(a) => {
            if let Ok(Expected::Decoded(y)) = b
                && y.values.iter().any(|&cp| !a_caps.domain.contains(cp))
            {
                return true;
            }
            Expected::Error(punycode::ErrorKind::BadInput)
        }
        // No answer of the main one: nothing to compare.
        Err(_) => return true,
    };
    let flags_matter = a_caps.annotations && b_caps.annotations;
    !matches!(
        super::compare::evaluate(b_caps, codec, request, &expected, b, flags_matter),
        super::compare::Verdict::Nonconformance(_)
    )
}

/// `other`'s answer to `request`, which `engine`'s main entry point
/// answered `answer`, and whether the two agree ([`answers_agree`]);
/// `None` when `other` declares it cannot be asked this, or its answer
/// was cut by the run's deadline. A hang is counted on `other`
/// ([`EntryPoint::answered`](crate::engines::EntryPoint::answered)).
pub fn ask_entry_point(
    engine: &dyn Engine,
    other: &EntryPoint,
    request: &Request,
    answer: &Result<Expected, EngineError>,
) -> Option<(Result<Expected, EngineError>, bool)> {
    if !super::compare::askable(other.engine.as_ref(), request) {
        return None;
    }
    let theirs = ask(other.engine.as_ref(), request);
    if matches!(theirs, Err(EngineError::Cancelled)) {
        return None;
    }
    other.answered(matches!(theirs, Err(EngineError::Hung(_))));
    let agree = answers_agree(
        engine.codec(),
        request,
        (&engine.capabilities(), answer),
        (&other.engine.capabilities(), &theirs),
    );
    Some((theirs, agree))
}

/// Entry points agree (the module docs): each other entry point of
/// `engine` ([`Engine::entry_points`]) that may be asked `request` answers
/// it as `answer`, the main one's, by [`answers_agree`]. The first that
/// does not is the violation, with both answers.
/// A main answer that is no answer (a crash, a hang, a cancelled question)
/// is the differential run's to judge; an other's crash, hang or broken
/// answer is a disagreement, since nothing else asks it.
/// Minimizing, reproducing and the baseline ask every entry point: see
/// [`check_entry_points_in_run`] for the run's own questions.
pub fn check_entry_points(
    engine: &dyn Engine,
    request: &Request,
    answer: &Result<Expected, EngineError>,
) -> Option<Violation> {
    entry_point_violation(engine, request, answer, false)
}

/// [`check_entry_points`] for a run's questions (vectors, small cases,
/// generated ones): an entry point that hung
/// [`EntryPoint::MOST_HANGS`](crate::engines::EntryPoint::MOST_HANGS)
/// times in a row is asked no more, since each hang costs the question's
/// time limit twice and its hang is a cause already.
pub fn check_entry_points_in_run(
    engine: &dyn Engine,
    request: &Request,
    answer: &Result<Expected, EngineError>,
) -> Option<Violation> {
    entry_point_violation(engine, request, answer, true)
}

/// The first entry point that disagrees with `answer` on `request`; with
/// `skip_given_up`, those that hung too often are not asked.
fn entry_point_violation(
    engine: &dyn Engine,
    request: &Request,
    answer: &Result<Expected, EngineError>,
    skip_given_up: bool,
) -> Option<Violation> {
    if !(answer.is_ok() || is_refusal(answer)) {
        return None;
    }
    engine.entry_points().iter().find_map(|other| {
        if skip_given_up && other.given_up() {
            return None;
        }
        let (theirs, agree) = ask_entry_point(engine, other, request, answer)?;
        (!agree).then(|| Violation {
            property: Property::EntryPoints,
            detail: format!(
                "--impl answered {}; entry point {} answered {}",
                super::compare::describe(answer),
                other.spec,
                super::compare::describe(&theirs)
            ),
            step: None,
            entry_point: Some(Disagreement {
                spec: other.spec.clone(),
                main: answer.clone(),
                other: theirs,
            }),
        })
    })
}

/// `code_points` as UTS #46 step 1 spells them, where that is plain: the
/// three other full stops as U+002E, ASCII capitals in lowercase,
/// fullwidth letters and digits in ASCII (IdnaMappingTable: each is
/// `mapped` to that).
pub fn respelled(code_points: &[u32]) -> Vec<u32> {
    code_points
        .iter()
        .map(|&cp| match cp {
            0x3002 | 0xFF0E | 0xFF61 => 0x2E,
            0x41..=0x5A => cp + 0x20,
            0xFF21..=0xFF3A => cp - 0xFF21 + 0x61,
            0xFF41..=0xFF5A => cp - 0xFF41 + 0x61,
            0xFF10..=0xFF19 => cp - 0xFF10 + 0x30,
            _ => cp,
        })
        .collect()
}

/// Equivalent spellings (the module docs), for a name of the `domain`
/// codec under UTS #46: the engine's answer to `request` and to its
/// respelling must agree.
fn check_spellings(
    engine: &dyn Engine,
    request: &Request,
    answer: &Result<Expected, EngineError>,
) -> Option<Violation> {
    let Codec::Domain(profile) = engine.codec() else {
        return None;
    };
    if profile.rules != crate::label::LabelRules::Uts46 {
        return None;
    }
    let respelling = match request {
        Request::Encode { code_points, flags } => Request::Encode {
            code_points: respelled(code_points),
            flags: flags.clone(),
        },
        Request::Decode(text) => {
            let text = std::str::from_utf8(text).ok()?;
            let cps: Vec<u32> = text.chars().map(u32::from).collect();
            let again: String = respelled(&cps)
                .into_iter()
                .filter_map(char::from_u32)
                .collect();
            Request::Decode(again.into_bytes())
        }
    };
    if respelling == *request {
        return None;
    }
    // Only answers count: a crash, a hang or a cancelled question is the
    // differential run's to judge.
    let usable = |a: &Result<Expected, EngineError>| a.is_ok() || is_refusal(a);
    if !usable(answer) {
        return None;
    }
    let other = ask_or_reference(engine, &respelling)?;
    if !usable(&other) {
        return None;
    }
    let agree = match (answer, &other) {
        (Ok(Expected::Encoded(a)), Ok(Expected::Encoded(b))) => a == b,
        (Ok(Expected::Decoded(a)), Ok(Expected::Decoded(b))) => a.values == b.values,
        (a, b) => is_refusal(a) && is_refusal(b),
    };
    let declared = || declared_apart(engine, [(request, answer), (&respelling, &other)]);
    (!agree && !declared()).then(|| Violation {
        property: Property::EquivalentSpellings,
        step: Some(respelling.clone()),
        entry_point: None,
        detail: format!(
            "answered {}, and {} to its spelling {} (U+002E for the other full stops, \
             lowercase, ASCII for fullwidth letters and digits: UTS #46 step 1 maps each \
             to the other)",
            super::compare::describe(answer),
            super::compare::describe(&other),
            spelled(&respelling)
        ),
    })
}

/// Whether two answers part only as the implementation's declaration
/// allows: each is the reference's answer or differs from it by a
/// declared divergence class, and one does. The reference answers two
/// spellings alike, so a declared deviation met by one spelling and not
/// by the other is that deviation, not a new cause (ICU keeps the root
/// label of `127\u{3002}\u{AD}`, its `root-label`, but refuses
/// `127.\u{AD}` as the reference does: its ASCII fast path hands the last
/// label alone to `processUnicode`, uts46.cpp, whose `0==labelStart` test
/// then takes the label that mapping empties for an empty name). A wrong
/// answer to either is the differential run's cause.
fn declared_apart<'a>(
    engine: &dyn Engine,
    answers: [(&'a Request, &'a Result<Expected, EngineError>); 2],
) -> bool {
    let caps = engine.capabilities();
    let mut declared = false;
    for (request, answer) in answers {
        let Some(reference) = super::compare::reference_for(engine.codec(), request) else {
            return false;
        };
        match super::compare::evaluate(&caps, engine.codec(), request, &reference, answer, true) {
            super::compare::Verdict::Same => {}
            super::compare::Verdict::Divergence { .. } => declared = true,
            _ => return false,
        }
    }
    declared
}

/// A request in brief, for a violation's words.
fn spelled(request: &Request) -> String {
    match request {
        Request::Encode { code_points, .. } => format!(
            "[{}]",
            code_points
                .iter()
                .map(|cp| format!("u+{cp:04X}"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Request::Decode(text) => format!("{:?}", String::from_utf8_lossy(text)),
    }
}

/// Neighbours of an accepted string that must not decode to the same
/// result: the first and the last digit changed, one digit added or removed
/// at the end, the delimiter removed. Few, because each costs a call (a
/// process, for `exec:`).
pub fn neighbours(text: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let literal = text
        .iter()
        .rposition(|&c| c == DELIMITER)
        .map_or(0, |p| p + 1);
    let ends = [literal, text.len().saturating_sub(1)];
    for at in ends.into_iter().filter(|&at| at < text.len()) {
        if let Some(d) = punycode::digit_value(text[at]) {
            let mut v = text.to_vec();
            v[at] = punycode::digit_char((d + 1) % punycode::BASE, false);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    let mut longer = text.to_vec();
    longer.push(b'a');
    out.push(longer);
    if text.len() > literal {
        out.push(text[..text.len() - 1].to_vec());
    }
    if literal > 1 {
        let mut v = text.to_vec();
        v.remove(literal - 1);
        out.push(v);
    }
    out
}

/// Checks that no neighbour of `text` decodes to what `text` decodes to.
pub fn check_uniqueness(
    engine: &dyn Engine,
    text: &[u8],
    answer: &Result<Expected, EngineError>,
) -> Option<Violation> {
    let annotations = engine.capabilities().annotations;
    let Ok(Expected::Decoded(mine)) = answer else {
        return None;
    };
    for other in neighbours(text) {
        if same_canonical(engine.codec(), &other, text, annotations) {
            continue;
        }
        let asked = ask_or_reference(engine, &Request::Decode(other.clone()));
        if let Some(theirs) = asked.and_then(decoded) {
            let same = theirs.values == mine.values && (!annotations || theirs.flags == mine.flags);
            if same {
                return Some(Violation {
                    property: Property::Uniqueness,
                    step: None,
                    entry_point: None,
                    detail: format!(
                        "{:?} and {:?} both decode to [{mine}]",
                        String::from_utf8_lossy(text),
                        String::from_utf8_lossy(&other)
                    ),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_keeps_only_the_annotating_case() {
        // Sample (B)'s deltas: ihq wc rb 4c v8a 8d qg 056p qjye.
        let upper = b"IHQWCRB4CV8A8DQG056PQJYE";
        assert_eq!(canonical(upper, true), b"ihQwCrB4Cv8A8DqG056PqjyE");
        assert_eq!(canonical(upper, false), b"ihqwcrb4cv8a8dqg056pqjye");
        assert_eq!(canonical(b"AbC-", true), b"AbC-");
    }

    /// [`canonical`] as it was first written, from the RFC-literal
    /// decoder's trace: the oracle of the one that walks the fast
    /// decoder's deltas.
    fn canonical_traced(text: &[u8], annotations: bool) -> Vec<u8> {
        let mut out = text.to_vec();
        let literal = text
            .iter()
            .rposition(|&c| c == DELIMITER)
            .map_or(0, |p| p + 1);
        let (result, steps) = punycode::decode_traced(text);
        if !annotations || result.is_err() {
            out[literal..].make_ascii_lowercase();
            return out;
        }
        let mut at = literal;
        for step in steps {
            let len = step.digits.len();
            out[at..at + len - 1].make_ascii_lowercase();
            at += len;
        }
        out
    }

    /// Every text of the generated questions up to 600 bytes, and the
    /// neighbours of each,
    /// get the same canonical form from the fast decoder's deltas as from
    /// the trace, with and without annotations.
    #[test]
    fn canonical_agrees_with_the_trace() {
        let mut texts: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"-".to_vec(),
            b"--".to_vec(),
            b"-a".to_vec(),
            b"a-".to_vec(),
            b"IHQWCRB4CV8A8DQG056PQJYE".to_vec(),
            b"Hello-Another-Way--fc4qUA05AUXO".to_vec(),
            b"zz8898z8z8z098m".to_vec(),
        ];
        let mut generator = crate::harness::generate::Generator::new(7);
        for _ in 0..4000 {
            let request = generator.next_request();
            let text = match &request {
                Request::Decode(text) => text.clone(),
                Request::Encode { code_points, flags } => {
                    match punycode::encode(code_points, flags.as_deref()) {
                        Ok(text) => text,
                        Err(_) => continue,
                    }
                }
            };
            // The trace copies its output at every insertion: long
            // texts cost it seconds, and the fast decoder's paths past 64
            // bytes are reached well below 600.
            if text.len() <= 600 {
                texts.extend(neighbours(&text));
                texts.push(text);
            }
        }
        let decodable = texts.iter().filter(|t| punycode::decode(t).is_ok()).count();
        assert!(decodable > 1000, "only {decodable} decodable texts");
        for text in &texts {
            for annotations in [false, true] {
                assert_eq!(
                    canonical(text, annotations),
                    canonical_traced(text, annotations),
                    "{:?}, annotations {annotations}",
                    String::from_utf8_lossy(text)
                );
            }
        }
        // And the shortcut of same_canonical, on each text beside its
        // neighbours and its spellings in other cases.
        for text in texts.iter().take(3000) {
            let mut others = neighbours(text);
            others.push(text.to_ascii_uppercase());
            others.push(text.to_ascii_lowercase());
            others.push(text.clone());
            for other in &others {
                for annotations in [false, true] {
                    assert_eq!(
                        same_canonical(Codec::Punycode, text, other, annotations),
                        canonical_traced(text, annotations) == canonical_traced(other, annotations),
                        "{:?} and {:?}, annotations {annotations}",
                        String::from_utf8_lossy(text),
                        String::from_utf8_lossy(other)
                    );
                }
            }
        }
    }

    #[test]
    fn flags_force_the_case_of_basic_letters_only() {
        assert_eq!(
            flagged_code_points(&[0x61, 0x42, 0x31, 0xE9], &[true, false, true, true]),
            [0x41, 0x62, 0x31, 0xE9]
        );
    }

    /// The clean-room encoder, and a decoder whose every answer the run's
    /// deadline (or an interruption) cut.
    struct CutDecoder;

    impl Engine for CutDecoder {
        fn name(&self) -> &str {
            "cut"
        }
        fn capabilities(&self) -> crate::engines::Capabilities {
            crate::engines::CleanRoom.capabilities()
        }
        fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> crate::engines::EncodeResult {
            crate::engines::CleanRoom.encode(input, flags)
        }
        fn decode(&self, _: &[u8]) -> crate::engines::DecodeResult {
            Err(EngineError::Cancelled)
        }
    }

    /// An answer that never came is no answer: its own encoding left
    /// undecoded for want of time is not a broken round trip.
    #[test]
    fn a_round_trip_cut_short_is_not_broken() {
        let request = Request::Encode {
            code_points: vec![0x61, 0xE9],
            flags: None,
        };
        let answer = Ok(Expected::Encoded(b"a-9ba".to_vec()));
        assert_eq!(check(&CutDecoder, &request, &answer), None);
    }

    #[test]
    fn surviving_flags_drop_caseless_basics() {
        assert_eq!(
            surviving_flags(&[0x31, 0x41, 0xE9], &[true, true, true]),
            [false, true, true]
        );
    }
}
