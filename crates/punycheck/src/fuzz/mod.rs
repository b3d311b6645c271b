//! The oracles of the cargo-fuzz targets in `fuzz/`, as plain functions so
//! that tests call exactly what the fuzzer calls.
//!
//! Each returns `Err` with what went wrong; a target panics on it so that
//! libFuzzer records a crash. None of them only checks "does not crash":
//! each compares against the C reference, a property, or another
//! implementation with divergence classes applied.
//!
//! Structured inputs derive `arbitrary::Arbitrary` with the `arbitrary`
//! feature; they are built so that every byte string means something close
//! to Punycode's hard regions.

pub mod amc;
pub mod domain;
pub mod engines;
pub mod label;
pub mod lace;
pub mod seeds;

use crate::engines::Idna;
use crate::harness::compare::{Request, Verdict, judge, reference};
use crate::harness::properties::{canonical, flagged_code_points, surviving_flags};
use crate::harness::vectors::{CodePoints, Expected};
use crate::punycode::{self, INITIAL_BIAS, MAXINT};

pub mod utf8;

/// What an oracle found wrong.
pub type Outcome = Result<(), String>;

/// A failure message that ends with the command replaying it against the
/// C reference (`diff_c`, `overflow`, `roundtrip` and `diff_idna` end theirs
/// so; a fuzzing service's crash report carries it in the panic message);
/// add `--save vectors/regressions.toml --name ... --provenance ...` to keep
/// it as a vector that `cargo test` replays.
fn failure(request: &Request, what: String) -> Outcome {
    Err(format!(
        "{what}\nreplay: punycheck repro --impl cleanroom {}",
        request.repro_args()
    ))
}

/// The longest structured input, in code points: keeps executions fast.
pub const MAX_CODE_POINTS: usize = 64;

/// One code point, drawn from a region that matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum CodePointSeed {
    /// A basic code point (0x00-0x7F).
    Basic(u8),
    /// Just above initial_n (0x80 + n).
    Latin(u8),
    /// Anywhere in the BMP.
    Bmp(u16),
    /// Up to U+10FFFF and a little beyond (0x10FF00 + n).
    NearUnicodeMax(u16),
    /// 0xFFFFFFFF - n.
    NearMax(u16),
    /// Where (m - n) * (h + 1) meets maxint for small h: maxint / k + 0x80 + d.
    Overflow {
        /// h + 1, from 1 to 8.
        k: u8,
        /// Offset around the limit.
        d: i8,
    },
    /// Any value at all.
    Any(u32),
}

impl CodePointSeed {
    /// The code point it stands for.
    pub fn value(self) -> u32 {
        match self {
            CodePointSeed::Basic(b) => u32::from(b & 0x7F),
            CodePointSeed::Latin(n) => 0x80 + u32::from(n),
            CodePointSeed::Bmp(n) => u32::from(n),
            CodePointSeed::NearUnicodeMax(n) => 0x10_FF00 + u32::from(n % 0x200),
            CodePointSeed::NearMax(n) => MAXINT - u32::from(n),
            CodePointSeed::Overflow { k, d } => {
                let k = u32::from(k % 8) + 1;
                (MAXINT / k)
                    .wrapping_add(0x80)
                    .wrapping_add_signed(i32::from(d))
            }
            CodePointSeed::Any(v) => v,
        }
    }
}

/// Code points with their flags, for the encoding targets.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CodePointInput {
    /// Each code point and its Appendix A flag.
    pub points: Vec<(CodePointSeed, bool)>,
    /// Whether to pass the flags at all.
    pub with_flags: bool,
}

impl CodePointInput {
    /// The request it stands for (at most [`MAX_CODE_POINTS`] code points).
    pub fn request(&self) -> Request {
        let points = &self.points[..self.points.len().min(MAX_CODE_POINTS)];
        Request::Encode {
            code_points: points.iter().map(|(s, _)| s.value()).collect(),
            flags: self
                .with_flags
                .then(|| points.iter().map(|(_, f)| *f).collect()),
        }
    }
}

/// A request for the differential targets: raw bytes to decode when the
/// first byte is even (so Punycode seeds are a 0 byte and the text), code
/// points to encode when it is odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzRequest(pub Request);

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for FuzzRequest {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let mode: u8 = u.arbitrary()?;
        if mode.is_multiple_of(2) {
            Ok(FuzzRequest(Request::Decode(u.bytes(u.len())?.to_vec())))
        } else {
            Ok(FuzzRequest(CodePointInput::arbitrary(u)?.request()))
        }
    }
}

/// Which limit an [`OverflowInput`] aims at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Limit {
    /// Decoder: i + digit * w reaching maxint.
    DecodeDigit,
    /// Decoder: n + i div (len + 1) reaching maxint.
    DecodeCodePoint,
    /// Encoder: delta + (m - n) * (h + 1) reaching maxint.
    EncodeDelta,
    /// Encoder: the increments of delta after the jump.
    EncodeIncrement,
}

/// An input built right around one of the 32-bit limits.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct OverflowInput {
    /// The limit aimed at.
    pub limit: Limit,
    /// Basic code points around it (their count sets h or the output length).
    pub basics: u8,
    /// How far from the limit, either way.
    pub offset: i16,
    /// Where the non-basic code point goes among the basics (encoding), or
    /// a change to the last digit (decoding).
    pub twist: u8,
    /// More code points after it.
    pub tail: Vec<CodePointSeed>,
}

impl OverflowInput {
    /// The request it stands for.
    pub fn request(&self) -> Request {
        let basics = usize::from(self.basics % 8);
        let offset = i32::from(self.offset);
        match self.limit {
            Limit::DecodeDigit | Limit::DecodeCodePoint => {
                let len = basics as u32;
                let target = match self.limit {
                    Limit::DecodeDigit => MAXINT,
                    _ => (MAXINT - 0x80).saturating_mul(len + 1),
                };
                let mut text: Vec<u8> = vec![b'a'; basics];
                if basics > 0 {
                    text.push(b'-');
                }
                punycode::encode_integer(
                    target.wrapping_add_signed(offset),
                    INITIAL_BIAS,
                    false,
                    &mut text,
                );
                if self.twist % 4 == 1
                    && let Some(last) = text.last_mut()
                {
                    *last = last.saturating_add(1);
                }
                for seed in &self.tail {
                    text.push(b"az09"[seed.value() as usize % 4]);
                }
                Request::Decode(text)
            }
            Limit::EncodeDelta | Limit::EncodeIncrement => {
                let k = basics as u32 + 1;
                let cp = (MAXINT / k).wrapping_add(0x80).wrapping_add_signed(offset);
                let mut code_points = vec![0x61; basics];
                let at = if self.limit == Limit::EncodeIncrement {
                    basics
                } else {
                    usize::from(self.twist) % (basics + 1)
                };
                code_points.insert(at, cp);
                // Only non-basic code points: a basic one would change h.
                code_points.extend(
                    self.tail
                        .iter()
                        .take(8)
                        .map(|s| s.value())
                        .filter(|&cp| !punycode::is_basic(cp)),
                );
                Request::Encode {
                    code_points,
                    flags: None,
                }
            }
        }
    }
}

/// The clean-room code's answer to a request.
pub fn cleanroom_answer(request: &Request) -> Expected {
    match request {
        Request::Encode { code_points, flags } => {
            match punycode::encode(code_points, flags.as_deref()) {
                Ok(bytes) => Expected::Encoded(bytes),
                Err(e) => Expected::Error(e.kind()),
            }
        }
        Request::Decode(bytes) => match punycode::decode(bytes) {
            Ok(d) => Expected::Decoded(CodePoints::from(d)),
            Err(e) => Expected::Error(e.kind()),
        },
    }
}

/// `diff_c`: the clean-room code and the C reference give the same output,
/// flags and error kind.
pub fn diff_c(request: &Request) -> Outcome {
    diff_c_of(request, cleanroom_answer)
}

/// [`diff_c`] for any answering function (tests show it fails on a wrong one).
pub fn diff_c_of(request: &Request, answer: impl Fn(&Request) -> Expected) -> Outcome {
    let Some(reference) = reference(request) else {
        return Ok(());
    };
    let mine = answer(request);
    if mine == reference {
        Ok(())
    } else {
        failure(
            request,
            format!("{request}: C reference {reference:?}, clean-room {mine:?}"),
        )
    }
}

/// `overflow`: inputs at the 32-bit limits, same answers as C.
pub fn overflow(input: &OverflowInput) -> Outcome {
    diff_c(&input.request())
}

/// `roundtrip`: decode(encode(x)) == x, with Appendix A flags (basic
/// letters take the case of their flag), and without.
pub fn roundtrip(input: &CodePointInput) -> Outcome {
    let request = input.request();
    let Request::Encode { code_points, flags } = &request else {
        unreachable!("CodePointInput makes encode requests")
    };
    let (code_points, flags) = (code_points.clone(), flags.clone());
    let Ok(text) = punycode::encode(&code_points, flags.as_deref()) else {
        return Ok(());
    };
    let back = match punycode::decode(&text) {
        Ok(back) => back,
        // RFC 3492's own exception (vector overflow-roundtrip-asymmetry):
        // the encoder bounds each delta, the decoder bounds oldi + delta, so
        // the C reference also fails to decode what it encoded.
        Err(e) if reference(&Request::Decode(text.clone())) == Some(Expected::Error(e.kind())) => {
            return Ok(());
        }
        Err(e) => {
            return failure(
                &request,
                format!(
                    "{code_points:X?} encodes to {:?}, which fails to decode: {e}",
                    String::from_utf8_lossy(&text)
                ),
            );
        }
    };
    let (want_values, want_flags) = match &flags {
        Some(flags) => (
            flagged_code_points(&code_points, flags),
            Some(surviving_flags(&code_points, flags)),
        ),
        None => (code_points.clone(), None),
    };
    if back.code_points != want_values || want_flags.is_some_and(|f| f != back.flags) {
        return failure(
            &request,
            format!(
                "{code_points:X?} (flags {flags:?}) encodes to {:?}, which decodes to {:X?} (flags {:?})",
                String::from_utf8_lossy(&text),
                back.code_points,
                back.flags
            ),
        );
    }
    Ok(())
}

/// `uniqueness`: every string the clean-room code accepts re-encodes to
/// itself (up to the case of non-final digits), so no two strings decode
/// to the same code points and flags.
pub fn uniqueness(text: &[u8]) -> Outcome {
    uniqueness_of(text, punycode::decode, punycode::encode)
}

/// [`uniqueness`] for any decoder and encoder (tests show it fails on a
/// wrong one). A failure ends with the `punycheck repro --properties`
/// command that checks the same property of the clean-room code.
pub fn uniqueness_of(
    text: &[u8],
    decode: impl Fn(&[u8]) -> Result<punycode::Decoded, punycode::Error>,
    encode: impl Fn(&[u32], Option<&[bool]>) -> Result<Vec<u8>, punycode::Error>,
) -> Outcome {
    let Ok(decoded) = decode(text) else {
        return Ok(());
    };
    let replay = || {
        format!(
            "\nreplay: punycheck repro --impl cleanroom --properties {}",
            Request::Decode(text.to_vec()).repro_args()
        )
    };
    let again = encode(&decoded.code_points, Some(&decoded.flags.to_vec())).map_err(|e| {
        format!(
            "{:?} decodes, but its code points fail to encode: {e}{}",
            String::from_utf8_lossy(text),
            replay()
        )
    })?;
    if canonical(&again, true) != canonical(text, true) {
        return Err(format!(
            "{:?} decodes to {:X?}, which encodes to {:?}{}",
            String::from_utf8_lossy(text),
            decoded.code_points,
            String::from_utf8_lossy(&again),
            replay()
        ));
    }
    Ok(())
}

/// `diff_idna`: the idna crate against the clean-room code (which the other
/// targets hold equal to C), with the divergence classes applied: only a
/// nonconformance is an error.
pub fn diff_idna(request: &Request) -> Outcome {
    let reference = cleanroom_answer(request);
    match judge(&Idna, request, &reference) {
        Verdict::Nonconformance(detail) => failure(request, format!("{request}: {detail}")),
        _ => Ok(()),
    }
}
