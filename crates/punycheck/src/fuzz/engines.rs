//! Any implementation against the C reference, in this process: the oracle
//! of the `diff_so`, `diff_libidn2` and `diff_icu` targets.
//!
//! The judgement is `check`'s ([`crate::harness::compare::judge_answer`]):
//! the implementation's declared capabilities and listed deviations turn
//! differences into divergence classes, and only a nonconformance is an
//! error. For a `so:` library the round-trip and uniqueness properties are
//! checked too, as `check` does. The built-in libraries are not: two of
//! libidn2's listed deviations (`empty`, `underscore-digit`) break them by
//! design, and `check` reports those.
//!
//! `diff_so` loads the library named by environment variables, once, in
//! [`so_from_env`]:
//!
//! - `PUNYCHECK_SO`: what follows `so:` in a spec,
//!   `PATH[:PREFIX][:lengths=size_t]`. When it is not set, the RFC's own
//!   code built as a shared library by `build.rs` (`librfc3492.so`, or a
//!   copy beside the target's executable), so that the target always does
//!   something sensible.
//! - `PUNYCHECK_SO_DECLARE`: the declaration, as the command line's options
//!   (`--domain unicode --errors failure-only --no-annotations
//!   --decode-only --encode-only --max-encode N --max-decode N`).

use std::fmt;

use crate::engines::declaration::{Declaration, DirectionsDecl, DomainDecl, ErrorsDecl};
use crate::engines::so::InProcess;
use crate::engines::{Capabilities, DecodeResult, EncodeResult, Engine, StartError};
use crate::harness::compare::{Request, Verdict, judge_answer, reference};
use crate::harness::properties;

use super::Outcome;

/// The RFC's code as a shared library, built by `build.rs`.
pub const RFC3492_SO: &str = env!("PUNYCHECK_RFC3492_SO");

/// Judges `engine`'s answer to `request` against the C reference as
/// `check` does, and with `properties` also the round-trip and uniqueness
/// properties that start from it. `replay` is the `punycheck repro`
/// command without the question, for the message.
pub fn diff_engine(
    engine: &dyn Engine,
    request: &Request,
    properties_too: bool,
    replay: &str,
) -> Outcome {
    let Some(want) = reference(request) else {
        return Ok(());
    };
    let (verdict, answer) = judge_answer(engine, request, &want, true);
    let broken = |what: String| {
        Err(format!(
            "{request}: {what}\nreplay: {replay} {}",
            request.repro_args()
        ))
    };
    match (verdict, answer) {
        (Verdict::Nonconformance(detail), _) => broken(detail),
        (Verdict::Same | Verdict::Divergence { .. }, Some(answer)) if properties_too => {
            match properties::check_all(engine, request, &answer, true) {
                Some(v) => broken(format!("{}: {}", v.property.name(), v.detail)),
                None => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// An engine that prints each question before it asks it, as the
/// `punycheck repro` command that asks it: the last line before a crash
/// names the question that crashed (`PUNYCHECK_SO_SHOW=1` in `diff_so`).
pub struct Shown<'a> {
    /// The engine asked.
    pub inner: &'a dyn Engine,
    /// `punycheck repro --impl ...`, without the question.
    pub replay: &'a str,
}

impl Engine for Shown<'_> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn capabilities(&self) -> Capabilities {
        self.inner.capabilities()
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        let request = Request::Encode {
            code_points: input.to_vec(),
            flags: case_flags.map(<[bool]>::to_vec),
        };
        eprintln!("asking: {} {}", self.replay, request.repro_args());
        self.inner.encode(input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        let request = Request::Decode(input.to_vec());
        eprintln!("asking: {} {}", self.replay, request.repro_args());
        self.inner.decode(input)
    }
}

/// `diff_libidn2`: the system's libidn2 against the C reference, its listed
/// deviations applied. With the cargo feature `libidn2` where the build
/// left the library out (not installed), every question is an error
/// saying so: a fuzz target must not pass by asking nothing.
#[cfg(feature = "libidn2")]
pub fn diff_libidn2(request: &Request) -> Outcome {
    #[cfg(punycheck_libidn2)]
    return diff_engine(
        &crate::engines::Libidn2,
        request,
        false,
        "punycheck repro --impl libidn2",
    );
    #[cfg(not(punycheck_libidn2))]
    return Err(format!("{request}: not asked, {}", left_out("libidn2")));
}

/// `diff_icu`: ICU against the C reference, its declared limits and listed
/// deviation applied; like [`diff_libidn2`], an error for every question
/// where the build left ICU out.
#[cfg(feature = "icu")]
pub fn diff_icu(request: &Request) -> Outcome {
    #[cfg(punycheck_icu)]
    return diff_engine(
        &crate::engines::Icu,
        request,
        false,
        "punycheck repro --impl icu",
    );
    #[cfg(not(punycheck_icu))]
    return Err(format!("{request}: not asked, {}", left_out("icu")));
}

/// Why the built-in `name` is not in this build, in words.
#[cfg(any(
    all(feature = "libidn2", not(punycheck_libidn2)),
    all(feature = "icu", not(punycheck_icu))
))]
pub(crate) fn left_out(name: &str) -> String {
    crate::engines::missing_for(crate::codec::Codec::Punycode)
        .into_iter()
        .find(|m| m.name == name)
        .map_or_else(
            || format!("{name} is not in this build"),
            |m| format!("{name}: {}", m.why),
        )
}

/// Why a declaration written as options cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclarationError {
    /// An option without its value (`--domain` last).
    NeedsValue(String),
    /// `--domain` with a value other than `unicode` and `u32`.
    Domain(String),
    /// `--errors` with a value other than `kinds` and `failure-only`.
    Errors(String),
    /// `--max-encode` or `--max-decode` with a value that is not a number.
    NeedsNumber(String),
    /// A word that is no option of a declaration.
    Unknown(String),
}

impl fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeclarationError::NeedsValue(option) => write!(f, "{option} needs a value"),
            DeclarationError::Domain(value) => write!(f, "--domain {value}: unicode or u32"),
            DeclarationError::Errors(value) => {
                write!(f, "--errors {value}: kinds or failure-only")
            }
            DeclarationError::NeedsNumber(option) => write!(f, "{option} needs a number"),
            DeclarationError::Unknown(word) => write!(
                f,
                "unknown declaration {word:?} (--domain, --errors, --no-annotations, --decode-only, --encode-only, --max-encode, --max-decode)"
            ),
        }
    }
}

impl std::error::Error for DeclarationError {}

/// Why [`so_from_env`] has no library.
#[derive(Debug)]
pub enum SoFromEnvError {
    /// `PUNYCHECK_SO_DECLARE` cannot be read.
    Declaration(DeclarationError),
    /// The library of `PUNYCHECK_SO` cannot be loaded.
    Load {
        /// The spec (`PUNYCHECK_SO`, or the RFC's code as a library).
        spec: String,
        /// Why (boxed: it is large, and rare).
        error: Box<StartError>,
    },
}

impl fmt::Display for SoFromEnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoFromEnvError::Declaration(e) => write!(f, "PUNYCHECK_SO_DECLARE: {e}"),
            SoFromEnvError::Load { spec, error } => write!(f, "PUNYCHECK_SO={spec}: {error}"),
        }
    }
}

impl std::error::Error for SoFromEnvError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SoFromEnvError::Declaration(e) => Some(e),
            SoFromEnvError::Load { error, .. } => Some(error.as_ref()),
        }
    }
}

/// Reads a declaration written as the command line's options.
pub fn parse_declaration(text: &str) -> Result<Declaration, DeclarationError> {
    let mut declaration = Declaration::default();
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut k = 0;
    let value = |k: usize| {
        words
            .get(k + 1)
            .copied()
            .ok_or_else(|| DeclarationError::NeedsValue(words[k].to_string()))
    };
    while k < words.len() {
        match words[k] {
            "--domain" => {
                declaration.domain = Some(match value(k)? {
                    "unicode" => DomainDecl::Unicode,
                    "u32" => DomainDecl::U32,
                    other => return Err(DeclarationError::Domain(other.to_string())),
                });
                k += 1;
            }
            "--errors" => {
                declaration.errors = Some(match value(k)? {
                    "kinds" => ErrorsDecl::Kinds,
                    "failure-only" => ErrorsDecl::FailureOnly,
                    other => return Err(DeclarationError::Errors(other.to_string())),
                });
                k += 1;
            }
            "--no-annotations" => declaration.annotations = Some(false),
            "--decode-only" => declaration.directions = Some(DirectionsDecl::DecodeOnly),
            "--encode-only" => declaration.directions = Some(DirectionsDecl::EncodeOnly),
            "--max-encode" | "--max-decode" => {
                let n = value(k)?
                    .parse()
                    .map_err(|_| DeclarationError::NeedsNumber(words[k].to_string()))?;
                if words[k] == "--max-encode" {
                    declaration.max_encode = Some(n);
                } else {
                    declaration.max_decode = Some(n);
                }
                k += 1;
            }
            other => return Err(DeclarationError::Unknown(other.to_string())),
        }
        k += 1;
    }
    Ok(declaration)
}

/// The RFC's code as a library: where `build.rs` put it, or else beside
/// this executable (where a fuzzing service's build copies it with the
/// targets, see `.clusterfuzzlite/build.sh`).
fn rfc3492_so() -> String {
    if std::path::Path::new(RFC3492_SO).exists() {
        return RFC3492_SO.to_string();
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("librfc3492.so")))
        .filter(|beside| beside.exists())
        .map_or_else(
            || RFC3492_SO.to_string(),
            |beside| beside.display().to_string(),
        )
}

/// The library of `PUNYCHECK_SO` (or the RFC's code as a library) under the
/// declaration of `PUNYCHECK_SO_DECLARE`, loaded into this process, with
/// the `punycheck repro` command that replays a question against it.
pub fn so_from_env() -> Result<(InProcess, String), SoFromEnvError> {
    let spec = std::env::var("PUNYCHECK_SO").unwrap_or_else(|_| rfc3492_so());
    let declared = std::env::var("PUNYCHECK_SO_DECLARE").unwrap_or_default();
    let declaration = parse_declaration(&declared).map_err(SoFromEnvError::Declaration)?;
    let engine = match InProcess::load(&spec, declaration.clone()) {
        Ok(engine) => engine,
        Err(error) => {
            return Err(SoFromEnvError::Load {
                spec,
                error: Box::new(error),
            });
        }
    };
    let replay = format!(
        "punycheck repro --impl {}{}",
        shell_words::quote(&format!("so:{spec}")),
        declaration.options()
    );
    Ok((engine, replay))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_read_as_options() {
        let d = parse_declaration(
            "--domain unicode --errors failure-only --no-annotations --decode-only --max-encode 5 --max-decode 6",
        )
        .unwrap();
        assert_eq!(
            d.options(),
            " --domain unicode --errors failure-only --no-annotations --decode-only --max-encode 5 --max-decode 6"
        );
        assert_eq!(parse_declaration("").unwrap(), Declaration::default());
        for bad in [
            "--domain",
            "--domain ascii",
            "--max-encode x",
            "--colour",
            "unicode",
        ] {
            assert!(parse_declaration(bad).is_err(), "{bad}");
        }
        let unknown = parse_declaration("--colour").unwrap_err();
        assert_eq!(unknown, DeclarationError::Unknown("--colour".into()));
        assert_eq!(
            unknown.to_string(),
            "unknown declaration \"--colour\" (--domain, --errors, --no-annotations, --decode-only, --encode-only, --max-encode, --max-decode)"
        );
        assert_eq!(
            parse_declaration("--max-decode x").unwrap_err().to_string(),
            "--max-decode needs a number"
        );
        assert_eq!(
            parse_declaration("--errors").unwrap_err(),
            DeclarationError::NeedsValue("--errors".into())
        );
    }
}
