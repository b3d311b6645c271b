//! The implementations a run times: the [`Subject`] trait, the inputs as
//! they take them, prepared before timing ([`EncodeInput`],
//! [`DecodeInput`]), and the built-in ones ([`Builtin`]), each called
//! through its most direct API. A new peer is a [`Builtin`] variant here:
//! its name, its encode and decode calls, its listed deviations, and its
//! place in [`Builtin::ALL`]; an implementation from outside the crate
//! implements [`Subject`] instead.

use crate::c_reference::{self, CError};
#[cfg(any(punycheck_libidn2, punycheck_icu))]
use crate::engines::Engine;
#[cfg(punycheck_icu)]
use crate::engines::Icu;
#[cfg(punycheck_libidn2)]
use crate::engines::Libidn2;
use crate::engines::{Deviation, EngineError};
use crate::punycode;

/// The name of the reference implementation, whose answers the others must
/// give.
pub const REFERENCE: &str = "rfc-c";

/// The name of the implementation that stands in for the reference on the
/// long inputs where the reference is skipped.
pub const STAND_IN: &str = "cleanroom";

/// One input to encode, in each form an implementation may take, prepared
/// before timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeInput {
    /// The code points.
    pub code_points: Vec<u32>,
    /// The same as `char`s, when they are all Unicode scalar values.
    pub chars: Option<Vec<char>>,
}

impl EncodeInput {
    /// Prepares `code_points`.
    pub fn new(code_points: Vec<u32>) -> Self {
        let chars = code_points.iter().map(|&cp| char::from_u32(cp)).collect();
        EncodeInput { code_points, chars }
    }
}

/// One Punycode input to decode, in each form an implementation may take,
/// prepared before timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeInput {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The same as text, when they are UTF-8.
    pub text: Option<String>,
}

impl DecodeInput {
    /// Prepares `bytes`.
    pub fn new(bytes: Vec<u8>) -> Self {
        let text = String::from_utf8(bytes.clone()).ok();
        DecodeInput { bytes, text }
    }
}

/// An implementation as the benchmark calls it.
pub trait Subject {
    /// Its name (that of its engine for the built-in ones).
    fn name(&self) -> &str;
    /// Encodes without case flags.
    fn encode(&self, input: &EncodeInput) -> Result<Vec<u8>, EngineError>;
    /// Decodes, returning the code points.
    fn decode(&self, input: &DecodeInput) -> Result<Vec<u32>, EngineError>;
    /// Its documented departures from RFC 3492: a refusal one of them
    /// explains skips the input set instead of failing the run.
    fn deviations(&self) -> &'static [Deviation] {
        &[]
    }
}

/// The built-in implementations, each called through its most direct API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// RFC 3492 Appendix C: [`crate::c_reference`].
    RfcC,
    /// The clean-room codec: [`crate::punycode`].
    CleanRoom,
    /// `idna::punycode` of the `idna` crate, on `char`s and `&str`.
    Idna,
    /// The system libidn2's `_idn2_punycode_encode`/`_decode`.
    Libidn2,
    /// ICU's `u_strToPunycode`/`u_strFromPunycode`.
    Icu,
    /// ada-url's `ada::idna` Punycode (Node.js's URL parser), a peer for
    /// timing only (`super::ada`, cargo feature `ada`).
    Ada,
}

impl Builtin {
    /// Every one, the reference first.
    pub const ALL: [Builtin; 6] = [
        Builtin::RfcC,
        Builtin::CleanRoom,
        Builtin::Idna,
        Builtin::Libidn2,
        Builtin::Icu,
        Builtin::Ada,
    ];

    /// Those in this build (libidn2, ICU and ada are cargo features).
    pub fn available() -> Vec<Builtin> {
        Self::ALL
            .into_iter()
            .filter(|&b| {
                (b != Builtin::Libidn2 || cfg!(punycheck_libidn2))
                    && (b != Builtin::Icu || cfg!(punycheck_icu))
                    && (b != Builtin::Ada || cfg!(feature = "ada"))
            })
            .collect()
    }
}

/// The answer of a built-in that this build lacks.
#[allow(dead_code)]
fn not_built(name: &str) -> EngineError {
    EngineError::Unsupported(format!(
        "{name} is not in this build (cargo feature `{name}`)"
    ))
}

fn c_error(error: CError) -> EngineError {
    match error {
        CError::Status(kind) => EngineError::Rejected(Some(kind)),
        CError::TooLong { length, limit } => {
            EngineError::Limit(format!("{length} elements exceed its limit of {limit}"))
        }
        CError::FlagsLength => EngineError::Broken("case flags of another length".into()),
        CError::UnknownStatus(code) => EngineError::Broken(format!("returned status {code}")),
    }
}

impl Subject for Builtin {
    fn name(&self) -> &str {
        match self {
            Builtin::RfcC => REFERENCE,
            Builtin::CleanRoom => STAND_IN,
            Builtin::Idna => "idna",
            Builtin::Libidn2 => "libidn2",
            Builtin::Icu => "icu",
            Builtin::Ada => "ada",
        }
    }

    fn encode(&self, input: &EncodeInput) -> Result<Vec<u8>, EngineError> {
        match self {
            Builtin::RfcC => c_reference::encode(&input.code_points, None).map_err(c_error),
            Builtin::CleanRoom => punycode::encode(&input.code_points, None)
                .map_err(|e| EngineError::Rejected(Some(e.kind()))),
            Builtin::Idna => {
                let chars = input.chars.as_deref().ok_or_else(|| {
                    EngineError::Unsupported("a code point is not a Unicode scalar value".into())
                })?;
                ::idna::punycode::encode(chars)
                    .map(String::into_bytes)
                    .ok_or(EngineError::Rejected(None))
            }
            #[cfg(punycheck_libidn2)]
            Builtin::Libidn2 => Libidn2.encode(&input.code_points, None),
            #[cfg(not(punycheck_libidn2))]
            Builtin::Libidn2 => Err(not_built("libidn2")),
            #[cfg(punycheck_icu)]
            Builtin::Icu => Icu.encode(&input.code_points, None),
            #[cfg(not(punycheck_icu))]
            Builtin::Icu => Err(not_built("icu")),
            #[cfg(feature = "ada")]
            Builtin::Ada => super::ada::encode(&input.code_points),
            #[cfg(not(feature = "ada"))]
            Builtin::Ada => Err(not_built("ada")),
        }
    }

    fn decode(&self, input: &DecodeInput) -> Result<Vec<u32>, EngineError> {
        match self {
            Builtin::RfcC => c_reference::decode(&input.bytes)
                .map(|d| d.code_points)
                .map_err(c_error),
            Builtin::CleanRoom => punycode::decode(&input.bytes)
                .map(|d| d.code_points)
                .map_err(|e| EngineError::Rejected(Some(e.kind()))),
            Builtin::Idna => {
                let text = input
                    .text
                    .as_deref()
                    .ok_or_else(|| EngineError::Unsupported("input is not UTF-8".into()))?;
                ::idna::punycode::decode(text)
                    .map(|chars| chars.into_iter().map(u32::from).collect())
                    .ok_or(EngineError::Rejected(None))
            }
            #[cfg(punycheck_libidn2)]
            Builtin::Libidn2 => Libidn2.decode(&input.bytes).map(|d| d.code_points),
            #[cfg(not(punycheck_libidn2))]
            Builtin::Libidn2 => Err(not_built("libidn2")),
            #[cfg(punycheck_icu)]
            Builtin::Icu => Icu.decode(&input.bytes).map(|d| d.code_points),
            #[cfg(not(punycheck_icu))]
            Builtin::Icu => Err(not_built("icu")),
            #[cfg(feature = "ada")]
            Builtin::Ada => super::ada::decode(&input.bytes),
            #[cfg(not(feature = "ada"))]
            Builtin::Ada => Err(not_built("ada")),
        }
    }

    fn deviations(&self) -> &'static [Deviation] {
        match self {
            #[cfg(punycheck_libidn2)]
            Builtin::Libidn2 => Libidn2.capabilities().deviations,
            #[cfg(punycheck_icu)]
            Builtin::Icu => Icu.capabilities().deviations,
            _ => &[],
        }
    }
}
