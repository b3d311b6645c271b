//! Naming an implementation on the command line: a built-in name, or
//! `exec:COMMAND` for any program that follows the RFC test wrapper's
//! convention (see [`super::Exec`]).

use std::time::Duration;

use super::{Engine, Exec, builtin_names, by_name};

/// Options that apply to implementations named by a spec.
#[derive(Clone, Copy, Debug)]
pub struct SpecOptions {
    /// Whether an `exec:` program does Appendix A annotations.
    pub annotations: bool,
    /// How long one run of an `exec:` program may take.
    pub timeout: Duration,
}

impl Default for SpecOptions {
    fn default() -> Self {
        SpecOptions {
            annotations: true,
            timeout: Duration::from_secs(5),
        }
    }
}

/// Resolves a spec to an implementation. `exec:` programs are probed once,
/// so that one that cannot start or does not speak the convention is a
/// setup error here rather than a failure on every case.
pub fn from_spec(spec: &str, options: SpecOptions) -> Result<Box<dyn Engine>, String> {
    if let Some(command) = spec.strip_prefix("exec:") {
        let exec = Exec::new(command, options.annotations, options.timeout)?;
        exec.probe()?;
        return Ok(Box::new(exec));
    }
    by_name(spec).ok_or_else(|| {
        format!(
            "unknown implementation {spec:?}: use one of {} or exec:COMMAND",
            builtin_names().join(", ")
        )
    })
}
