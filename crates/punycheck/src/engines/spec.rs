//! Naming an implementation on the command line: a built-in name,
//! `exec:COMMAND` for any program that follows the RFC test wrapper's
//! convention (see [`super::Exec`]), `pipe:COMMAND` for one that answers
//! on a persistent pipe (see [`super::Pipe`]), or
//! `so:PATH[:PREFIX][:lengths=size_t]` for a C library with Appendix C's
//! functions (see [`super::so`]).

use std::fmt;
use std::time::Duration;

use super::external::StartError;
use super::{Declaration, Declared, Engine, Exec, Pipe, So, builtin_names_for, by_name};
use crate::codec::Codec;

/// Why a spec names no implementation punycheck can use. The words are
/// what the command line says.
#[derive(Debug)]
pub enum SpecError {
    /// A `so:` library for a codec other than Punycode.
    SoNotPunycode {
        /// The codec asked for.
        codec: Codec,
    },
    /// punycheck's own executable, which runs `so:` workers, cannot be
    /// found.
    OwnExecutable(std::io::Error),
    /// An `exec:`, `pipe:` or `so:` implementation that cannot be used.
    Start(StartError),
    /// A built-in implementation that this build lacks.
    NotInBuild {
        /// Its name.
        name: String,
        /// Why it is not here, and how to get it.
        why: &'static str,
    },
    /// A name that is no built-in implementation of the codec.
    Unknown {
        /// The codec.
        codec: Codec,
        /// The name given.
        name: String,
        /// The built-in implementations of the codec.
        builtins: Vec<String>,
    },
    /// An entry point (`--entry-point`) of another codec than the
    /// implementation's.
    EntryPointCodec {
        /// The entry point's spec.
        spec: String,
        /// Its codec.
        codec: Codec,
        /// The implementation's.
        main: Codec,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::SoNotPunycode { codec } => write!(
                f,
                "so: libraries are Punycode implementations (Appendix C's punycode_encode and punycode_decode), not {codec}"
            ),
            SpecError::OwnExecutable(e) => write!(
                f,
                "cannot find punycheck's own executable to run so: workers: {e}"
            ),
            SpecError::Start(e) => e.fmt(f),
            SpecError::NotInBuild { name, why } => write!(f, "{name} is not in this build: {why}"),
            SpecError::Unknown {
                codec,
                name,
                builtins,
            } => write!(
                f,
                "unknown {codec} implementation {name:?}: use one of {}, exec:COMMAND, pipe:COMMAND or so:PATH",
                builtins.join(", ")
            ),
            SpecError::EntryPointCodec { spec, codec, main } => write!(
                f,
                "entry point {spec:?} answers the {codec} codec, not the implementation's \
                 {main}: only answers to one question can be compared"
            ),
        }
    }
}

impl std::error::Error for SpecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SpecError::OwnExecutable(e) => Some(e),
            SpecError::Start(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StartError> for SpecError {
    fn from(error: StartError) -> Self {
        SpecError::Start(error)
    }
}

/// Options that apply to implementations named by a spec.
#[derive(Clone, Debug)]
pub struct SpecOptions {
    /// The codec the implementation is for: built-in names are looked up
    /// among its implementations, and an `exec:` program speaks its form
    /// of the convention.
    pub codec: Codec,
    /// What the user declares the implementation supports.
    pub declaration: Declaration,
    /// How long one run of an `exec:` program, or one answer of a `pipe:`
    /// program, may take.
    pub timeout: Duration,
    /// How many questions an `exec:` or `pipe:` program is asked at once
    /// (processes running side by side); `None` for its default.
    pub jobs: Option<usize>,
}

impl Default for SpecOptions {
    fn default() -> Self {
        SpecOptions {
            codec: Codec::Punycode,
            declaration: Declaration::default(),
            timeout: Duration::from_secs(5),
            jobs: None,
        }
    }
}

/// Resolves a spec to an implementation, with the declaration laid over
/// what it declares itself. `exec:` programs and `so:` libraries are
/// probed once (only in the directions they declare), so that one that
/// cannot start, cannot be loaded or does not follow the convention is a
/// setup error here rather than a failure on every case. A `so:` library
/// is called in workers that run this very executable
/// (`std::env::current_exe()`), whose `main` must call
/// [`super::so::worker_entry`] first, as punycheck's does.
pub fn from_spec(spec: &str, options: &SpecOptions) -> Result<Box<dyn Engine>, SpecError> {
    if let Some(library) = spec.strip_prefix("so:") {
        if options.codec != Codec::Punycode {
            return Err(SpecError::SoNotPunycode {
                codec: options.codec,
            });
        }
        let worker = std::env::current_exe().map_err(SpecError::OwnExecutable)?;
        let so = So::new(
            library,
            options.declaration.clone(),
            options.timeout,
            worker,
        )?;
        so.probe()?;
        return Ok(Box::new(so));
    }
    if let Some(command) = spec.strip_prefix("exec:") {
        let exec = Exec::new(command, options.declaration.clone(), options.timeout)?
            .for_codec(options.codec)
            .with_jobs(options.jobs);
        exec.probe()?;
        return Ok(Box::new(exec));
    }
    if let Some(command) = spec.strip_prefix("pipe:") {
        let pipe = Pipe::new(
            command,
            options.declaration.clone(),
            options.timeout,
            options.jobs,
        )?
        .for_codec(options.codec);
        pipe.probe()?;
        return Ok(Box::new(pipe));
    }
    if let Some(missing) = super::missing_for(options.codec)
        .into_iter()
        .find(|m| m.name == spec)
    {
        return Err(SpecError::NotInBuild {
            name: spec.to_string(),
            why: missing.why,
        });
    }
    let builtin = by_name(options.codec, spec).ok_or_else(|| SpecError::Unknown {
        codec: options.codec,
        name: spec.to_string(),
        builtins: builtin_names_for(options.codec),
    })?;
    if options.declaration.is_empty() {
        return Ok(builtin);
    }
    Ok(Box::new(Declared::new(
        builtin,
        options.declaration.clone(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::EngineError;
    use crate::engines::so::LengthType;

    fn error(spec: &str, codec: Codec) -> SpecError {
        let options = SpecOptions {
            codec,
            timeout: Duration::from_secs(20),
            ..SpecOptions::default()
        };
        match from_spec(spec, &options) {
            Ok(engine) => panic!("{spec} resolved to {}", engine.name()),
            Err(e) => e,
        }
    }

    /// Each way a spec fails is a variant to match, and says what it said
    /// when it was a `String`, word for word.
    #[test]
    fn spec_errors_are_typed_and_keep_their_words() {
        let punycode = |spec| error(spec, Codec::Punycode);
        let e = punycode("exec:");
        assert!(
            matches!(
                e,
                SpecError::Start(StartError::NoCommand { scheme: "exec", .. })
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "exec: needs a command, e.g. exec:./my-punycode"
        );
        assert_eq!(
            punycode("pipe:  ").to_string(),
            "pipe: needs a command, e.g. pipe:python3 my_adapter.py"
        );
        let e = punycode("exec:'unterminated");
        assert!(
            matches!(&e, SpecError::Start(StartError::Unsplittable { command, .. }) if command == "'unterminated"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "cannot split the command \"'unterminated\": missing closing quote"
        );
        let e = punycode("so:");
        assert!(
            matches!(e, SpecError::Start(StartError::NoLibrary)),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "so: needs the path of a shared library, e.g. so:./libmypuny.so or so:libidn.so.12:lengths=size_t"
        );
        assert_eq!(
            punycode("so:lib.so:lengths=int").to_string(),
            "so:lib.so:lengths=int: unknown length type \"int\" (lengths=uint32, the RFC's punycode_uint, or lengths=size_t, as GNU libidn 1.x)"
        );
        assert_eq!(
            punycode("so:lib.so:lengths=size_t:lengths=uint32").to_string(),
            "so:lib.so:lengths=size_t:lengths=uint32: lengths= is given twice"
        );
        let e = error("so:lib.so", Codec::Lace);
        assert!(
            matches!(e, SpecError::SoNotPunycode { codec: Codec::Lace }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "so: libraries are Punycode implementations (Appendix C's punycode_encode and punycode_decode), not lace"
        );
        let e = error("nope", Codec::Utf8);
        assert!(
            matches!(&e, SpecError::Unknown { name, .. } if name == "nope"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "unknown utf8 implementation \"nope\": use one of cleanroom, std, exec:COMMAND, pipe:COMMAND or so:PATH"
        );
    }

    /// A program that cannot be asked the probe, or refuses it, is a
    /// typed setup error that names the question.
    #[test]
    fn probe_failures_are_typed_and_keep_their_words() {
        let e = error("exec:/nonexistent/prog", Codec::Punycode);
        assert!(
            matches!(
                &e,
                SpecError::Start(StartError::ProbeFailed {
                    verb: "encode",
                    error: EngineError::Broken(_),
                    ..
                })
            ),
            "{e:?}"
        );
        assert!(
            e.to_string().starts_with(
                "exec:/nonexistent/prog cannot encode: broken: cannot start \"/nonexistent/prog\": "
            ),
            "{e}"
        );
        let refusing = "exec:sh -c 'echo invalid input >&2; exit 1' sh";
        let e = error(refusing, Codec::Punycode);
        assert!(
            matches!(&e, SpecError::Start(StartError::Refused { why, .. }) if why == "bad_input"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{refusing} refused the probe to encode u+0061 u+00E9 (bad_input), which every implementation accepts: does it follow the RFC 3492 test wrapper's convention (-e/-d, u+XXXX tokens)?"
            )
        );
        let library = StartError::LibraryRefused {
            name: "so:./lib.so".into(),
            question: "to decode a-bga",
            error: EngineError::Rejected(None),
            lengths: LengthType::SizeT,
        };
        assert!(
            library
                .to_string()
                .ends_with("check that it has Appendix C's signatures with size_t lengths (so:PATH:lengths=size_t for size_t, as GNU libidn 1.x)"),
            "{library}"
        );
    }
}
