//! A refusal of valid input, identified by its minimized question.
//!
//! Every refusal of a question the reference answers has one key
//! (`rejects-valid`, `success`, `failure`), and nothing in the answer says
//! which defect refused it: a decoder that refuses the empty name and one
//! that also refuses every name holding a `q` give the same key. So a
//! group of refusals is split by what its questions minimize to
//! ([`super::super::witness::refusal`]): the empty question, a short
//! question, or a size. Two refusals that minimize apart are two causes,
//! each with its own reproducer, in the report, the baseline and the
//! survey; and a refusal is known to a baseline only when its own
//! minimization lands on a recorded witness.
//!
//! Minimizing every refusal would cost a minimization per question, so a
//! bounded sample is minimized: for each length class (empty, then each
//! power of two), the shortest refusal seen in it. A gate asks a prefix of
//! the questions its baseline was recorded from (the same seed, a tenth of
//! them), so its shortest refusal of a class is one that was the shortest
//! so far when the baseline was recorded; a recording therefore minimizes
//! every refusal that was ever the shortest of its class, and its witnesses
//! hold the gate's. The questions of a class are counted with the witness
//! of its shortest.
//!
//! A question to decode that holds Punycode is first minimized through
//! the code points the reference decodes it to (each candidate encoded
//! again by the reference), then, as text, by character: a byte removed
//! from Punycode changes every digit after it, and one removed from
//! UTF-8 leaves no text. Two sizes of one limit, reached from two starts,
//! are one witness, named by the smaller.
//!
//! A minimization keeps what the implementation said: a candidate shows
//! the refusal only when it is refused with the same first words
//! ([`words`]), so a refusal of `aq.b` for its `q` does not shrink into a
//! known refusal of an empty label by dropping `aq`. And a non-empty
//! question is never minimized to the empty one, the refusal that most
//! implementations have of their own, with or without words.

use std::collections::BTreeMap;
use std::time::Instant;

use super::{Group, Key, Kind, Seen, request_len, showing, signature};
use crate::codec::Codec;
use crate::engines::{Engine, EngineError};
use crate::harness::compare::reference_for;
use crate::harness::minimize::{Budget, minimize};
use crate::harness::witness;
use crate::vocabulary::{Expected, Request};

/// How many questions one minimization of a refusal may ask.
const ATTEMPTS: usize = 400;

/// How many refusals of one cause a gate minimizes: one a length class.
const GATE_SAMPLES: usize = 16;

/// How many a recording minimizes: every refusal that was the shortest of
/// its class so far.
const RECORDING_SAMPLES: usize = 96;

/// One refusal kept to be minimized: the shortest of its length class so
/// far when it was seen.
#[derive(Clone, Debug)]
pub(super) struct Sample {
    /// Its length class ([`class_of`]).
    class: u32,
    request: Request,
    detail: String,
    /// What the implementation said ([`words`]).
    words: String,
}

/// The length class of `request`: 0 when empty, else one more than the
/// power of two below its length.
fn class_of(request: &Request) -> u32 {
    match request_len(request) {
        0 => 0,
        n => usize::BITS - n.leading_zeros(),
    }
}

/// The first words of a refusal, as what tells two refusals apart: the
/// kind it names, or up to three words of its message, up to the first
/// that holds a value or a quotation ([`signature`]: the input it
/// quotes, a position, a code point). Empty for a refusal without words.
pub(super) fn words(answer: &Result<Expected, EngineError>) -> String {
    match answer {
        Ok(Expected::Error(kind)) | Err(EngineError::Rejected(Some(kind))) => {
            kind.name().to_string()
        }
        Err(EngineError::Failed(message) | EngineError::Limit(message)) => signature(message)
            .split_whitespace()
            .take_while(|w| {
                !w.chars()
                    .any(|c| matches!(c, '#' | '"' | '\'' | '`' | '…' | '(' | '['))
            })
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

/// The code points the reference decodes `request` to, as a question to
/// encode, when it holds an A-label (or is Punycode) whose reference
/// encoding is `request` again up to ASCII case: a start from which a
/// minimization by code point reaches the same question.
fn through_code_points(codec: Codec, request: &Request) -> Option<Request> {
    let Request::Decode(bytes) = request else {
        return None;
    };
    if codec != Codec::Punycode && !bytes.windows(4).any(|w| w.eq_ignore_ascii_case(b"xn--")) {
        return None;
    }
    let Some(Expected::Decoded(cps)) = reference_for(codec, request) else {
        return None;
    };
    let start = Request::Encode {
        code_points: cps.values,
        flags: None,
    };
    match encoded(codec, &start) {
        Some(Request::Decode(again)) if again.eq_ignore_ascii_case(bytes) => Some(start),
        _ => None,
    }
}

/// The question to decode the reference's encoding of `request`, a
/// question to encode.
fn encoded(codec: Codec, request: &Request) -> Option<Request> {
    match reference_for(codec, request)? {
        Expected::Encoded(bytes) => Some(Request::Decode(bytes)),
        _ => None,
    }
}

/// A question to decode whose bytes are UTF-8 with a character beyond
/// ASCII, as its characters (a question to encode them), to be minimized
/// by character.
fn as_text(request: &Request) -> Option<Request> {
    let Request::Decode(bytes) = request else {
        return None;
    };
    let text = std::str::from_utf8(bytes).ok().filter(|t| !t.is_ascii())?;
    Some(Request::Encode {
        code_points: text.chars().map(u32::from).collect(),
        flags: None,
    })
}

/// The question to decode the characters of `chars` ([`as_text`]).
fn to_bytes(chars: &Request) -> Request {
    match chars {
        Request::Encode { code_points, .. } => Request::Decode(
            code_points
                .iter()
                .filter_map(|&cp| char::from_u32(cp))
                .collect::<String>()
                .into_bytes(),
        ),
        Request::Decode(bytes) => Request::Decode(bytes.clone()),
    }
}

/// Notes one refusal of `group` that no named question asked: kept when
/// it is shorter than every earlier one of its length class.
pub(super) fn sample(group: &mut Group, request: &Request, detail: &str, words: String) {
    let class = class_of(request);
    let shorter = group
        .samples
        .iter()
        .rev()
        .find(|s| s.class == class)
        .is_none_or(|s| request_len(request) < request_len(&s.request));
    if shorter {
        group.samples.push(Sample {
            class,
            request: request.clone(),
            detail: detail.to_string(),
            words,
        });
    }
    *group.classes.entry(class).or_default() += 1;
}

/// Whether the refusals of `key` in `group` are split by their minimized
/// questions: refusals of valid input that nothing else explains (an
/// overflow is explained by its largest value already), some of them
/// generated.
pub(super) fn applies(key: &Key, group: &Group) -> bool {
    key.kind == Kind::RejectsValid
        && !group.samples.is_empty()
        && group.explained.keys().all(String::is_empty)
}

/// Splits `group`, the refusals of `key`, by the witness its sampled
/// refusals minimize to: one group a witness, each with its minimized
/// question, counting the questions of the length classes whose shortest
/// refusal minimized to it. The named questions (vectors and small cases,
/// which a baseline knows by name) go with the witness of the shortest
/// minimized question. `recording` minimizes every sample, a gate the last
/// of each class.
pub(super) fn split(
    engine: &dyn Engine,
    key: &Key,
    group: Group,
    recording: bool,
    deadline: Instant,
) -> Vec<Group> {
    let samples: Vec<&Sample> = if recording {
        group.samples.iter().take(RECORDING_SAMPLES).collect()
    } else {
        // The last sample of a class is its shortest.
        let mut last: BTreeMap<u32, &Sample> = BTreeMap::new();
        for s in &group.samples {
            last.insert(s.class, s);
        }
        last.into_values().take(GATE_SAMPLES).collect()
    };
    // Each witness: its shortest minimized question, and the sample that
    // gave it.
    let mut found: BTreeMap<String, (Request, &Sample, u64)> = BTreeMap::new();
    let mut class_witness: BTreeMap<u32, String> = BTreeMap::new();
    for s in samples {
        let empty = request_len(&s.request) == 0;
        let mut shows = |c: &Request| {
            (empty || request_len(c) > 0)
                && showing(engine, key, None, c).is_some_and(|a| words(&a) == s.words)
        };
        let budget = Budget {
            attempts: ATTEMPTS,
            deadline,
        };
        let codec = engine.codec();
        let through = through_code_points(codec, &s.request)
            .filter(|cps| encoded(codec, cps).is_some_and(|r| shows(&r)));
        let start = match through {
            // Punycode (an A-label, a name of them) is minimized through
            // the code points it decodes to, encoded again by the
            // reference, when that encoding is refused too (not when the
            // refusal is of how the question spelt it, `XN--`): a byte
            // removed from Punycode changes what every later digit means.
            Some(cps) => {
                let encoded = |c: &Request| encoded(codec, c);
                let small = minimize(
                    &cps,
                    &mut |c| encoded(c).is_some_and(|r| shows(&r)),
                    Budget {
                        attempts: ATTEMPTS / 2,
                        deadline,
                    },
                );
                encoded(&small).unwrap_or_else(|| s.request.clone())
            }
            None => s.request.clone(),
        };
        let small = match as_text(&start) {
            // A name or label to decode that is text is minimized by its
            // characters: a byte removed from one leaves no text at all.
            Some(chars) => {
                let small = minimize(&chars, &mut |c| shows(&to_bytes(c)), budget);
                to_bytes(&small)
            }
            None => minimize(&start, &mut shows, budget),
        };
        let mut w = witness::refusal(&small);
        // Two sizes of one limit (minimized from two starts) are one
        // witness: the smaller names it.
        if let Some(same) = found
            .keys()
            .find(|f| *f != &w && (witness::covers([*f], &w) || witness::covers([&w], f)))
            .cloned()
        {
            let (was, sample, n) = found.remove(&same).expect("found");
            let (keep, keep_sample) = if request_len(&small) < request_len(&was) {
                (small.clone(), s)
            } else {
                (was, sample)
            };
            w = witness::refusal(&keep);
            for v in class_witness.values_mut().filter(|v| **v == same) {
                v.clone_from(&w);
            }
            found.insert(w.clone(), (keep, keep_sample, n));
        }
        class_witness.insert(s.class, w.clone());
        let entry = found.entry(w).or_insert_with(|| (small.clone(), s, 0));
        entry.2 += 1;
        if request_len(&small) < request_len(&entry.0) {
            (entry.0, entry.1) = (small, s);
        }
    }
    // The questions of a class count with the witness of its shortest;
    // a witness only an earlier sample gave counts that sample.
    let mut counts: BTreeMap<&String, u64> = BTreeMap::new();
    for (class, w) in &class_witness {
        *counts.entry(w).or_default() += group.classes.get(class).copied().unwrap_or(0);
    }
    let named_to = found
        .iter()
        .min_by_key(|(_, (small, _, _))| request_len(small))
        .map(|(w, _)| w.clone());
    let unnamed = group.count - group.named.len() as u64;
    let mut parts = Vec::new();
    for (w, (small, s, samples)) in &found {
        let mut count = counts.get(w).copied().unwrap_or(*samples).max(1);
        let mut named = Vec::new();
        let mut vectors = Vec::new();
        if named_to.as_ref() == Some(w) {
            named = group.named.clone();
            for n in &mut named {
                n.explanation = w.clone();
            }
            vectors = group.vectors.clone();
            count += group.named.len() as u64;
        }
        count = count.min(unnamed + named.len() as u64);
        parts.push(Group {
            count,
            vectors,
            shortest: s.request.clone(),
            detail: s.detail.clone(),
            property: None,
            first_seen: group.first_seen,
            explained: BTreeMap::from([(
                w.clone(),
                Seen {
                    count,
                    shortest: small.clone(),
                    detail: s.detail.clone(),
                },
            )]),
            named,
            entry_point: None,
            samples: Vec::new(),
            classes: BTreeMap::new(),
            minimized: Some(small.clone()),
        });
    }
    if parts.is_empty() {
        return vec![group];
    }
    parts
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::time::Duration;

    use super::super::{Cause, Collector, Witnessed, key_of};
    use super::*;
    use crate::engines::{Functions, Refusal};
    use crate::harness::compare::{ask, reference};

    /// The clean-room encoder, refusing the empty input, every input
    /// holding a `q` when `q` is set, and every input of more than `limit`
    /// code points; it says only that it failed.
    fn picky(q: bool, limit: usize) -> Functions {
        Functions::unicode(
            "picky",
            move |text| {
                if text.is_empty() || (q && text.contains('q')) || text.chars().count() > limit {
                    return Err(Refusal::Failed);
                }
                crate::punycode::encode_str(text).map_err(|_| Refusal::Failed)
            },
            |text| crate::punycode::decode_to_string(text).map_err(|_| Refusal::Failed),
        )
    }

    fn encode(text: &str) -> Request {
        Request::Encode {
            code_points: text.chars().map(u32::from).collect(),
            flags: None,
        }
    }

    /// Every question of `questions` asked of `engine`, each refusal
    /// observed, resolved with the baseline's `witnesses` of its key.
    fn causes(engine: &Functions, questions: &[Request], known: &[&str]) -> Vec<Cause> {
        let asked: Vec<_> = questions
            .iter()
            .map(|q| {
                let want = reference(q).unwrap();
                let answer = ask(engine, q);
                let key = key_of(&engine.capabilities(), Codec::Punycode, q, &want, &answer);
                assert_eq!(key.kind, Kind::RejectsValid, "{q}");
                (q, key, answer)
            })
            .collect();
        let mut witnesses = BTreeMap::new();
        for (_, key, _) in asked.iter().filter(|_| !known.is_empty()) {
            witnesses.insert(
                key.clone(),
                Witnessed {
                    names: BTreeSet::new(),
                    explanations: known.iter().map(|w| w.to_string()).collect(),
                },
            );
        }
        let mut collector = Collector::accepting(witnesses.keys().cloned().collect())
            .witnessed(Codec::Punycode, witnesses);
        for (q, key, answer) in asked {
            collector.observe_answer(key, q, &answer, "refused", None);
        }
        let deadline = Instant::now() + Duration::from_secs(3600);
        collector.resolve(engine, deadline, Duration::MAX, 2_000, 16)
    }

    fn witnesses(causes: &[Cause]) -> Vec<String> {
        causes.iter().flat_map(|c| c.explanations.clone()).collect()
    }

    /// Issue 46: one key, two defects. A refusal of every input holding a
    /// `q` is its own cause beside the refusal of the empty input, each
    /// minimized; with a baseline that records only the empty one, the `q`
    /// is new beside it, and without the `q` nothing is new.
    #[test]
    fn two_refusals_that_minimize_apart_are_two_causes() {
        let questions = [encode(""), encode("abqd"), encode("xyzqé"), encode("q€rs")];
        let found = causes(&picky(true, 1000), &questions, &[]);
        assert_eq!(
            witnesses(&found),
            [witness::EMPTY_REFUSED, "the shortest refused: \"q\""]
        );
        assert_eq!(found[1].request, encode("q"));
        assert!(found.iter().all(|c| c.beside.is_none()));
        let on_baseline = causes(&picky(true, 1000), &questions, &[witness::EMPTY_REFUSED]);
        let new: Vec<&Cause> = on_baseline.iter().filter(|c| c.beside.is_some()).collect();
        assert_eq!(new.len(), 1, "{on_baseline:?}");
        assert_eq!(new[0].request, encode("q"));
        assert!(
            new[0].beside.as_deref().unwrap().contains("refused: \"q\""),
            "{:?}",
            new[0].beside
        );
        let without_q = [encode(""), encode("")];
        let fine = causes(&picky(true, 1000), &without_q, &[witness::EMPTY_REFUSED]);
        assert!(fine.iter().all(|c| c.beside.is_none()), "{fine:?}");
    }

    /// A refusal that follows the input's size is a limit, with the size
    /// it begins at, never the refusal of a short input; a limit recorded
    /// near the same size is known, one four times larger is not.
    #[test]
    fn a_size_limit_stands_apart_from_a_short_refusal() {
        let long = encode(&"aé".repeat(60));
        let found = causes(&picky(false, 64), &[encode(""), long.clone()], &[]);
        assert_eq!(
            witnesses(&found),
            [
                "a size limit: refused from about 65 code points".to_string(),
                witness::EMPTY_REFUSED.to_string()
            ]
        );
        let known = ["a size limit: refused from about 70 code points"];
        let again = causes(&picky(false, 64), std::slice::from_ref(&long), &known);
        assert!(again.iter().all(|c| c.beside.is_none()), "{again:?}");
        let smaller = causes(&picky(false, 16), &[long], &known);
        assert!(smaller.iter().any(|c| c.beside.is_some()), "{smaller:?}");
    }

    /// What tells refusals apart is their first words, never the values
    /// or quotations after them.
    #[test]
    fn words_stop_at_values_and_quotations() {
        let failed = |m: &str| words(&Err(EngineError::Failed(m.into())));
        assert_eq!(
            failed("IDNAError: Codepoint U+0071 at position 2 of 'aq' not allowed"),
            "IDNAError: Codepoint"
        );
        assert_eq!(failed("IDNAError: Empty domain"), "IDNAError: Empty domain");
        assert_eq!(failed("idna: invalid label \"aq\""), "idna: invalid label");
        assert_eq!(words(&Err(EngineError::Rejected(None))), "");
    }
}
