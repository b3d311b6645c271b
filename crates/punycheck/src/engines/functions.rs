//! An implementation given as plain Rust functions, for a crate that runs
//! punycheck's check from its own tests (see [`crate::harness::check::check`]).
//!
//! ```
//! use punycheck::engines::{Functions, Refusal};
//! use punycheck::engines::declaration::ErrorsDecl;
//!
//! // Any &str -> String Punycode functions: here the `idna` crate's.
//! let mine = Functions::unicode(
//!     "my punycode",
//!     |text| idna::punycode::encode_str(text).ok_or(Refusal::Failed),
//!     |text| idna::punycode::decode_to_string(text).ok_or(Refusal::Failed),
//! );
//! let caps = punycheck::engines::Engine::capabilities(&mine);
//! assert!(!caps.annotations);
//! ```

use std::fmt;

use super::{
    Capabilities, CodePointDomain, Declaration, DecodeResult, Directions, EncodeResult, Engine,
    EngineError, ErrorDetail, PunycodeInput,
};
use crate::punycode::{CaseFlags, Decoded, ErrorKind};

/// Why a function refused its input, as far as it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Invalid input (RFC 3492's `punycode_bad_input`).
    Invalid,
    /// Arithmetic overflow (`punycode_overflow`).
    Overflow,
    /// Beyond the implementation's own size limit: counted, never failed
    /// when the limit is declared (`max_encode`/`max_decode`).
    TooLarge,
    /// It failed, without saying why (declare `errors = failure-only`,
    /// which [`Functions::unicode`] does).
    Failed,
}

type EncodeFn = dyn Fn(&[u32]) -> Result<String, Refusal> + Send + Sync;
type DecodeFn = dyn Fn(&str) -> Result<Vec<u32>, Refusal> + Send + Sync;

/// An implementation made of an encode and a decode function.
pub struct Functions {
    name: String,
    encode: Option<Box<EncodeFn>>,
    decode: Option<Box<DecodeFn>>,
    declaration: Declaration,
}

impl fmt::Debug for Functions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Functions")
            .field("name", &self.name)
            .field("encodes", &self.encode.is_some())
            .field("decodes", &self.decode.is_some())
            .field("declaration", &self.declaration)
            .finish()
    }
}

impl Functions {
    /// An implementation over code points: `encode` takes any 32-bit code
    /// points, `decode` any printable-ASCII text. It declares nothing: every
    /// RFC 3492 feature but annotations is expected (declare the rest with
    /// [`Functions::declare`]). Either function may be added later, or left
    /// out for an implementation that only goes one way.
    pub fn new(name: &str) -> Self {
        Functions {
            name: name.to_string(),
            encode: None,
            decode: None,
            declaration: Declaration {
                annotations: Some(false),
                ..Declaration::default()
            },
        }
    }

    /// The usual shape of a Rust crate's Punycode: `&str` in, `String` out
    /// both ways, Unicode scalar values only, failures without a kind, no
    /// annotations.
    pub fn unicode(
        name: &str,
        encode: impl Fn(&str) -> Result<String, Refusal> + Send + Sync + 'static,
        decode: impl Fn(&str) -> Result<String, Refusal> + Send + Sync + 'static,
    ) -> Self {
        use super::declaration::{DomainDecl, ErrorsDecl};
        Functions::new(name)
            .encoder(move |code_points| {
                // The declared domain keeps every other value out.
                let text: String = code_points
                    .iter()
                    .filter_map(|&cp| char::from_u32(cp))
                    .collect();
                encode(&text)
            })
            .decoder(move |text| Ok(decode(text)?.chars().map(u32::from).collect()))
            .declare(Declaration {
                domain: Some(DomainDecl::Unicode),
                errors: Some(ErrorsDecl::FailureOnly),
                annotations: Some(false),
                ..Declaration::default()
            })
    }

    /// Sets the encode function: code points to Punycode text.
    pub fn encoder(
        mut self,
        encode: impl Fn(&[u32]) -> Result<String, Refusal> + Send + Sync + 'static,
    ) -> Self {
        self.encode = Some(Box::new(encode));
        self
    }

    /// Sets the decode function: Punycode text to code points.
    pub fn decoder(
        mut self,
        decode: impl Fn(&str) -> Result<Vec<u32>, Refusal> + Send + Sync + 'static,
    ) -> Self {
        self.decode = Some(Box::new(decode));
        self
    }

    /// Declares what it supports, over what is declared already (each fact
    /// `declaration` states wins).
    pub fn declare(mut self, declaration: Declaration) -> Self {
        self.declaration = declaration.over(self.declaration);
        self
    }
}

fn refused(refusal: Refusal) -> EngineError {
    match refusal {
        Refusal::Invalid => EngineError::Rejected(Some(ErrorKind::BadInput)),
        Refusal::Overflow => EngineError::Rejected(Some(ErrorKind::Overflow)),
        Refusal::TooLarge => EngineError::Limit("refused as too large".into()),
        Refusal::Failed => EngineError::Rejected(None),
    }
}

impl Engine for Functions {
    fn name(&self) -> &str {
        &self.name
    }

    fn capabilities(&self) -> Capabilities {
        let directions = match (self.encode.is_some(), self.decode.is_some()) {
            (true, false) => Directions::EncodeOnly,
            (false, true) => Directions::DecodeOnly,
            _ => Directions::Both,
        };
        let own = Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::U32,
            annotations: false,
            errors: ErrorDetail::Kinds,
            // The text is a &str: bytes that are not UTF-8 cannot be passed.
            punycode_input: PunycodeInput::Utf8,
            max_encode_input: None,
            max_decode_input: None,
            bound_answers: Default::default(),
            directions,
            deviations: &[],
            unicode_version: None,
            verdict_only: false,
        };
        self.declaration.apply(own)
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        let Some(encode) = &self.encode else {
            return Err(EngineError::Unsupported("no encode function".into()));
        };
        if case_flags.is_some() {
            return Err(EngineError::Unsupported("no annotation support".into()));
        }
        let kinds = self.capabilities().errors == ErrorDetail::Kinds;
        match encode(input) {
            Ok(text) => Ok(text.into_bytes()),
            Err(refusal) => Err(match refused(refusal) {
                EngineError::Rejected(_) if !kinds => EngineError::Rejected(None),
                error => error,
            }),
        }
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        let Some(decode) = &self.decode else {
            return Err(EngineError::Unsupported("no decode function".into()));
        };
        let text = std::str::from_utf8(input)
            .map_err(|_| EngineError::Unsupported("input is not UTF-8".into()))?;
        let kinds = self.capabilities().errors == ErrorDetail::Kinds;
        match decode(text) {
            Ok(code_points) => Ok(Decoded {
                flags: CaseFlags::unset(code_points.len()),
                code_points,
            }),
            Err(refusal) => Err(match refused(refusal) {
                EngineError::Rejected(_) if !kinds => EngineError::Rejected(None),
                error => error,
            }),
        }
    }
}
