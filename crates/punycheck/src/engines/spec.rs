//! Naming an implementation on the command line: a built-in name,
//! `exec:COMMAND` for any program that follows the RFC test wrapper's
//! convention (see [`super::Exec`]), `pipe:COMMAND` for one that answers
//! on a persistent pipe (see [`super::Pipe`]), or
//! `so:PATH[:PREFIX][:lengths=size_t]` for a C library with Appendix C's
//! functions (see [`super::so`]).

use std::time::Duration;

use super::{Declaration, Declared, Engine, Exec, Pipe, So, builtin_names_for, by_name};
use crate::codec::Codec;

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
pub fn from_spec(spec: &str, options: &SpecOptions) -> Result<Box<dyn Engine>, String> {
    if let Some(library) = spec.strip_prefix("so:") {
        if options.codec != Codec::Punycode {
            return Err(format!(
                "so: libraries are Punycode implementations (Appendix C's punycode_encode and punycode_decode), not {}",
                options.codec
            ));
        }
        let worker = std::env::current_exe().map_err(|e| {
            format!("cannot find punycheck's own executable to run so: workers: {e}")
        })?;
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
        return Err(format!("{spec} is not in this build: {}", missing.why));
    }
    let builtin = by_name(options.codec, spec).ok_or_else(|| {
        format!(
            "unknown {} implementation {spec:?}: use one of {}, exec:COMMAND, pipe:COMMAND or so:PATH",
            options.codec,
            builtin_names_for(options.codec).join(", ")
        )
    })?;
    if options.declaration.is_empty() {
        return Ok(builtin);
    }
    Ok(Box::new(Declared::new(
        builtin,
        options.declaration.clone(),
    )))
}
