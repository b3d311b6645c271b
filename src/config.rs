//! `punycheck.toml`: a conformance gate's settings in one file, so that a CI
//! job runs `punycheck check` and nothing else.
//!
//! `check` reads `punycheck.toml` from the working directory when it exists,
//! or the file named by `--config FILE`. Every key is optional; an option
//! given on the command line wins over the file. Unknown keys are errors, so
//! a misspelt key cannot be silently ignored.
//!
//! Paths in the file (`baseline`, `files`, `json`, `junit`) and the command
//! in `spec` are taken from the working directory, exactly as the same
//! options on the command line are, not from the file's own directory: a
//! file read with `--config sub/punycheck.toml` names its files as seen
//! from where `punycheck check` runs (for a CI gate, the project's root).
//! One rule for both, because the command in `spec` cannot be moved: the
//! program it starts runs in the working directory.
//!
//! ```toml
//! [implementation]
//! spec = "exec:python3 adapters/python/cpython_codec.py"   # as --impl
//! domain = "unicode-with-surrogates"   # as --domain: "unicode", "unicode-with-surrogates", "u31" or "u32"
//! errors = "failure-only"     # as --errors: "kinds" or "failure-only"
//! annotations = false         # false as --no-annotations
//! directions = "decode-only"  # "both", "decode-only" (--decode-only), "encode-only"
//! max-encode = 1000           # as --max-encode (code points)
//! max-decode = 2000           # as --max-decode (bytes)
//! timeout = 5.0               # as --timeout (seconds per question)
//! jobs = 2                    # as --jobs (exec:/pipe: processes at once)
//!
//! [check]
//! codec = "punycode"          # as --codec
//! seconds = 30.0              # as --seconds
//! cases = 5000                # as --cases
//! seed = 42                   # as --seed
//! fail-fast = false           # as --fail-fast
//! format = "text"             # as --format: "text", "json" or "junit"
//! json = "punycheck.json"     # as --json: the JSON report, beside the text
//! junit = "punycheck.xml"     # as --junit: the JUnit report, beside the text
//! baseline = "punycheck-baseline.toml"   # as --baseline
//! files = ["regressions.toml"]           # as --file, repeatable there
//! cost = true                 # false as --no-cost
//! cost-budget = 1.0           # as --cost-budget (seconds)
//! cost-max = 65536            # as --cost-max (code points or bytes)
//! ```

use std::path::Path;

use serde::Deserialize;

use punycheck::engines::Declaration;
use punycheck::engines::declaration::{DirectionsDecl, DomainDecl, ErrorsDecl};

/// The file `check` reads from the working directory.
pub const DEFAULT_FILE: &str = "punycheck.toml";

/// The whole file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The implementation under test and its declarations.
    #[serde(default)]
    pub implementation: Implementation,
    /// How the check runs.
    #[serde(default)]
    pub check: Check,
}

/// `[implementation]`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Implementation {
    /// As `--impl`.
    pub spec: Option<String>,
    /// As `--domain`.
    pub domain: Option<DomainDecl>,
    /// As `--errors`.
    pub errors: Option<ErrorsDecl>,
    /// `false` as `--no-annotations`.
    pub annotations: Option<bool>,
    /// As `--decode-only` or `--encode-only`.
    pub directions: Option<DirectionsDecl>,
    /// As `--max-encode`.
    pub max_encode: Option<usize>,
    /// As `--max-decode`.
    pub max_decode: Option<usize>,
    /// As `--timeout`.
    pub timeout: Option<f64>,
    /// As `--jobs`.
    pub jobs: Option<usize>,
}

/// `[check]`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Check {
    /// As `--codec`.
    pub codec: Option<String>,
    /// As `--seconds`.
    pub seconds: Option<f64>,
    /// As `--cases`.
    pub cases: Option<u64>,
    /// As `--seed`.
    pub seed: Option<u64>,
    /// As `--fail-fast`.
    pub fail_fast: Option<bool>,
    /// As `--format`.
    pub format: Option<String>,
    /// As `--json`.
    pub json: Option<String>,
    /// As `--junit`.
    pub junit: Option<String>,
    /// As `--baseline`.
    pub baseline: Option<String>,
    /// As `--file`.
    #[serde(default)]
    pub files: Vec<String>,
    /// `false` as `--no-cost`.
    pub cost: Option<bool>,
    /// As `--cost-budget`.
    pub cost_budget: Option<f64>,
    /// As `--cost-max`.
    pub cost_max: Option<usize>,
}

impl Implementation {
    /// The declaration the file makes.
    pub fn declaration(&self) -> Declaration {
        Declaration {
            domain: self.domain,
            errors: self.errors,
            annotations: self.annotations,
            directions: self.directions,
            max_encode: self.max_encode,
            max_decode: self.max_decode,
        }
    }
}

impl Config {
    /// Parses the file's text; `name` is for messages.
    pub fn parse(name: &str, text: &str) -> Result<Self, String> {
        toml::from_str(text).map_err(|e| format!("{name}: {e}"))
    }

    /// Reads `path`; with `required` false, a missing file is an empty
    /// configuration.
    pub fn load(path: &Path, required: bool) -> Result<Self, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&path.display().to_string(), &text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => Ok(Self::default()),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }
}

/// A declaration on the command line laid over the file's: each fact the
/// command line states wins.
pub fn merge(file: Declaration, command_line: Declaration) -> Declaration {
    command_line.over(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_parses() {
        let docs = include_str!("config.rs");
        let example: String = docs
            .lines()
            .skip_while(|l| !l.starts_with("//! ```toml"))
            .skip(1)
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| {
                l.trim_start_matches("//!")
                    .trim_start_matches(' ')
                    .to_string()
                    + "\n"
            })
            .collect();
        let config = Config::parse("example", &example).unwrap();
        assert_eq!(
            config.implementation.domain,
            Some(DomainDecl::UnicodeWithSurrogates)
        );
        assert_eq!(config.implementation.max_decode, Some(2000));
        assert_eq!(config.check.files, ["regressions.toml"]);
        assert_eq!(config.check.seconds, Some(30.0));
        assert_eq!(config.check.junit.as_deref(), Some("punycheck.xml"));
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors() {
        assert!(Config::parse("x", "[implementation]\nspc = \"a\"").is_err());
        assert!(Config::parse("x", "[implementation]\ndomain = \"ascii\"").is_err());
        assert!(Config::parse("x", "[check]\nseconds = \"ten\"").is_err());
        assert_eq!(Config::parse("x", "").unwrap(), Config::default());
    }

    #[test]
    fn the_command_line_wins() {
        let file = Declaration {
            domain: Some(DomainDecl::Unicode),
            errors: Some(ErrorsDecl::FailureOnly),
            ..Default::default()
        };
        let cli = Declaration {
            domain: Some(DomainDecl::U32),
            ..Default::default()
        };
        let merged = merge(file, cli);
        assert_eq!(merged.domain, Some(DomainDecl::U32));
        assert_eq!(merged.errors, Some(ErrorsDecl::FailureOnly));
    }
}
