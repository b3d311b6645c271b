//! The class plan: the first questions of a check of the label or domain
//! codec, which ask each Unicode class of [`super::unicode_classes`] both
//! ways, in a question the codec's reference accepts (where a context
//! makes the class valid) and in one it refuses.

use std::collections::VecDeque;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::unicode_classes::{Coverage, draw, table};
use crate::codec::Codec;
use crate::engines::Engine;
use crate::vocabulary::{Expected, Request};

/// The ChaCha stream of the class plan (the generator's others use 0 and
/// 0x3492).
const PLAN_STREAM: u64 = 0x5892;

/// Contexts in which a code point may be valid: alone, between or beside
/// Latin letters, between two `l` (U+00B7), beside Hebrew or Arabic
/// letters (R and AL, the Bidi rule; a dual-joining letter on each side of
/// U+200C), after a Devanagari virama (U+200C, U+200D) or letter (a
/// mark), before a Greek letter (U+0375), after a katakana (U+30FB).
const CONTEXTS: [(&[u32], &[u32]); 13] = [
    (&[0x61], &[0x62]),
    (&[], &[]),
    (&[0x61], &[]),
    (&[], &[0x61]),
    (&[0x6C], &[0x6C]),
    (&[0x05D0], &[0x05D0]),
    (&[0x0628], &[0x0628]),
    (&[0x0628], &[]),
    (&[0x05D0], &[]),
    (&[0x0915, 0x094D], &[0x0915]),
    (&[0x0915], &[]),
    (&[], &[0x03B1]),
    (&[0x30A2], &[]),
];

/// The scheduled questions of a check of the label or domain codec: each
/// class asked in a question the reference accepts (where one is found)
/// and in one it refuses, to encode and to decode, in the class order of
/// [`table`], a class already asked a way by an earlier question not
/// asked that way again.
pub struct Plan {
    /// The questions, in order.
    pub questions: VecDeque<Request>,
    /// For each class, whether a context the reference accepts was found.
    pub accepting: Vec<bool>,
}

impl Plan {
    /// The plan for `codec` (label or domain), from `seed`, asking
    /// `reference`.
    pub fn new(codec: Codec, seed: u64, reference: &dyn Engine) -> Self {
        let table = table();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(PLAN_STREAM);
        let n = table.classes.len();
        let domain = matches!(codec, Codec::Domain(_));
        let accepts = |request: &Request| -> Option<bool> {
            match crate::harness::compare::ask(reference, request) {
                Ok(Expected::Error(_)) => Some(false),
                Ok(_) => Some(true),
                Err(_) => None,
            }
        };
        let mut encoded = Coverage::default();
        let mut decoded = Coverage::default();
        let mut accepting = vec![false; n];
        let mut questions = VecDeque::new();
        let mut ask = |coverage: &mut Coverage, request: Request, accepted: bool| {
            let reference = if accepted {
                Expected::Encoded(Vec::new())
            } else {
                Expected::Error(crate::punycode::ErrorKind::BadInput)
            };
            coverage.observe(&request, &reference);
            questions.push_back(request);
        };
        for (k, class) in table.classes.iter().enumerate() {
            // Candidates: members valid in UTS #46 first, then any.
            let mut members: Vec<u32> = Vec::new();
            if !class.valid_members.is_empty() {
                members.extend((0..6).map(|_| draw(&mut rng, &class.valid_members)));
            }
            members.extend((0..4).map(|_| draw(&mut rng, &class.members)));
            let mut found: Option<Vec<u32>> = None;
            'search: for &m in &members {
                for (before, after) in CONTEXTS {
                    let label: Vec<u32> = before
                        .iter()
                        .copied()
                        .chain(std::iter::once(m))
                        .chain(after.iter().copied())
                        .collect();
                    let request = Request::Encode {
                        code_points: label.clone(),
                        flags: None,
                    };
                    if accepts(&request) == Some(true) {
                        found = Some(label);
                        break 'search;
                    }
                }
            }
            accepting[k] = found.is_some() || encoded.accepted[k];
            if let Some(label) = &found
                && !encoded.accepted[k]
            {
                let request = Request::Encode {
                    code_points: label.clone(),
                    flags: None,
                };
                ask(&mut encoded, request, true);
            }
            // Refused: the member alone, or its valid label spoilt at an
            // end: a combining mark first, a hyphen-minus last, a Hebrew
            // letter after it (the Bidi rule), U+FFFD (disallowed by every
            // rule set).
            let m = found
                .as_ref()
                .and_then(|l| l.iter().copied().find(|&cp| class.contains(cp)))
                .unwrap_or(members[0]);
            let base = found.clone().unwrap_or_else(|| vec![0x61, m]);
            let mut refused: Option<Vec<u32>> = None;
            if !encoded.refused[k] {
                let spoilt: [Vec<u32>; 5] = [
                    vec![m],
                    [&[0x0301][..], &base].concat(),
                    [&base[..], &[0x2D]].concat(),
                    [&base[..], &[0x05D0]].concat(),
                    [&base[..], &[0xFFFD]].concat(),
                ];
                for label in spoilt {
                    let request = Request::Encode {
                        code_points: label.clone(),
                        flags: None,
                    };
                    if accepts(&request) == Some(false) {
                        refused = Some(label);
                        ask(&mut encoded, request, false);
                        break;
                    }
                }
            }
            // To decode: the A-label of the valid label (its code points
            // as they are), or for a name, the U-label as text when that
            // A-label is refused; and the A-label of the refused one.
            if let Some(label) = &found
                && !decoded.accepted[k]
            {
                let ace = Request::Decode(crate::harness::labels::ace_of(label));
                match accepts(&ace) {
                    Some(true) => ask(&mut decoded, ace, true),
                    _ if domain => {
                        let text = Request::Decode(crate::unicode::text_of(label));
                        if accepts(&text) == Some(true) {
                            ask(&mut decoded, text, true);
                        }
                    }
                    _ => {}
                }
            }
            if !decoded.refused[k] {
                let label = refused.unwrap_or_else(|| [&base[..], &[0xFFFD]].concat());
                let ace = Request::Decode(crate::harness::labels::ace_of(&label));
                if accepts(&ace) == Some(false) {
                    ask(&mut decoded, ace, false);
                }
            }
        }
        Plan {
            questions,
            accepting,
        }
    }
}
