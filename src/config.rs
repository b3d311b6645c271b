//! The settings of the commands, in one type ([`Config`]) laid in layers:
//! the defaults, then `punycheck.toml`, then the command line. The file is
//! this type deserialized; the command line's options (`args.rs`) make one
//! more layer of it; [`Config::over`] lays one layer over another, key by
//! key, and the commands resolve the result against the defaults. The
//! enums it holds (codec, domain, errors, directions, format) are the
//! library's own, parsed by clap and serde alike.
//!
//! `punycheck.toml` keeps a conformance gate's settings in one file, so
//! that a CI job runs `punycheck check` and nothing else.
//!
//! `check` reads `punycheck.toml` from the working directory when it exists,
//! or the file named by `--config FILE`. Every key is optional; an option
//! given on the command line wins over the file. Unknown keys are errors, so
//! a misspelt key cannot be silently ignored.
//!
//! Paths in the file (`baseline`, `files`, `json`, `junit`, `sarif`) and
//! the commands in `spec` and `entry-points` are taken from one folder,
//! since a command cannot be moved: the program it starts runs in a
//! folder, and reads its own paths from there. Without `root`, that folder
//! is the working directory, exactly as for the same options on the command
//! line: a file read with `--config sub/punycheck.toml` names its files as
//! seen from where `punycheck check` runs. With `root = "DIR"` (a key of its
//! own, above the tables), it is DIR, taken from the file's own folder: a
//! gate in `adapters/gates/` says `root = "../.."`, the project's root, and
//! then runs the same from any working directory. The check then runs in
//! the root (its programs, whether named in the file or on the command line,
//! start there), paths given on the command line are still the working
//! directory's, and each reproducer it prints starts with `cd ROOT &&`
//! where the root is not the working directory ([`Config::root_of`]).
//!
//! ```toml
//! root = "."                  # paths and commands are taken from this folder, relative to the file's own
//!
//! [implementation]
//! spec = "exec:python3 adapters/python/cpython_codec.py"   # as --impl
//! # entry-points = ["pipe:..."]   # as --entry-point, once each
//! domain = "unicode-with-surrogates"   # as --domain: "unicode", "unicode-with-surrogates", "u31" or "u32"
//! errors = "failure-only"     # as --errors: "kinds" or "failure-only"
//! annotations = false         # false as --no-annotations
//! directions = "decode-only"  # "both", "decode-only" (--decode-only), "encode-only"
//! max-encode = 1000           # as --max-encode (code points)
//! max-decode = 2000           # as --max-decode (bytes)
//! # unicode-version = "14.0"   # as --unicode-version (label and domain)
//! # max-label-code-points = 1000 # as --max-label-code-points (label and domain)
//! # max-label-bytes = 2004     # as --max-label-bytes (label and domain)
//! # max-name-code-points = 4000 # as --max-name-code-points (domain)
//! # max-name-bytes = 8000      # as --max-name-bytes (domain)
//! # answers = "verdict"        # as --answers: "conversion" or "verdict" (a validator)
//! timeout = 5.0               # as --timeout (seconds per question)
//! memory-limit = 2048         # as --memory-limit (MB per process; 0: none)
//! jobs = 2                    # as --jobs (exec:/pipe: processes at once)
//!
//! [check]
//! codec = "punycode"          # as --codec
//! # label-rules = "uts46"      # with codec = "label" or "domain": as --label-rules,
//! # check-hyphens = false      # --check-hyphens, --std3-rules and
//! # std3-rules = false         # --verify-dns-length
//! # verify-dns-length = false
//! # check-bidi = false         # with label-rules = "uts46": --check-bidi,
//! # check-joiners = false      # --check-joiners, --transitional-processing
//! # transitional-processing = true # and --ignore-invalid-punycode
//! # ignore-invalid-punycode = true
//! # be-strict = true           # with label-rules = "url": as --be-strict,
//! # url-ascii-fallback = false # --url-ascii-fallback
//! seconds = 30.0              # as --seconds
//! cases = 5000                # as --cases
//! seed = 42                   # as --seed
//! fail-fast = false           # as --fail-fast
//! format = "text"             # as --format: "text", "json", "junit" or "sarif"
//! json = "punycheck.json"     # as --json: the JSON report, beside the text
//! junit = "punycheck.xml"     # as --junit: the JUnit report, beside the text
//! sarif = "punycheck.sarif"   # as --sarif: the SARIF report, beside the text
//! baseline = "punycheck-baseline.toml"   # as --baseline
//! files = ["regressions.toml"]           # as --file, repeatable there
//! cost = true                 # false as --no-cost
//! cost-budget = 1.0           # as --cost-budget (seconds)
//! cost-max = 65536            # as --cost-max (code points or bytes)
//! # sweep = true               # as --sweep: every code point, codec "label" or "domain"
//! # sweep-range = "U+0000..U+10FFFF" # as --sweep-range
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use punycheck::codec::Codec;
use punycheck::engines::declaration::{AnswersDecl, DirectionsDecl, DomainDecl, ErrorsDecl};
use punycheck::engines::{Declaration, SpecOptions};
use punycheck::label::{LabelOptions, LabelRules};
use punycheck::unicode::UnicodeVersion;

/// The file `check` reads from the working directory.
pub const DEFAULT_FILE: &str = "punycheck.toml";

/// The default of `--timeout`, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 5.0;

/// The default of `--seconds` for `check`.
pub const DEFAULT_SECONDS: f64 = 30.0;

/// Every setting, each optional: one layer (the file, or the command
/// line), or several laid over each other.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `root = "DIR"` (the file only): the folder, taken from the file's
    /// own, that the file's paths and commands are taken from and the check
    /// runs in ([`Config::root_of`]); without it, the working directory.
    pub root: Option<String>,
    /// The implementation under test and its declarations.
    #[serde(default)]
    pub implementation: Implementation,
    /// How the check runs.
    #[serde(default)]
    pub check: Check,
}

/// `[implementation]`: the implementation a command asks, what it is
/// declared to support, and how long one question may take.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Implementation {
    /// `--impl`.
    pub spec: Option<String>,
    /// `--entry-point`s: other entry points of the same implementation,
    /// declared as it is, each asked every question beside it (a list on
    /// the command line replaces the file's).
    pub entry_points: Option<Vec<String>>,
    /// `--domain`.
    pub domain: Option<DomainDecl>,
    /// `--errors`.
    pub errors: Option<ErrorsDecl>,
    /// `false`: `--no-annotations`.
    pub annotations: Option<bool>,
    /// `--decode-only` or `--encode-only`.
    pub directions: Option<DirectionsDecl>,
    /// `--max-encode`.
    pub max_encode: Option<usize>,
    /// `--max-decode`.
    pub max_decode: Option<usize>,
    /// `--unicode-version`.
    pub unicode_version: Option<UnicodeVersion>,
    /// `--max-label-code-points`.
    pub max_label_code_points: Option<usize>,
    /// `--max-label-bytes`.
    pub max_label_bytes: Option<usize>,
    /// `--max-name-code-points`.
    pub max_name_code_points: Option<usize>,
    /// `--max-name-bytes`.
    pub max_name_bytes: Option<usize>,
    /// `--answers`: a conversion (the default) or a verdict (a validator).
    pub answers: Option<AnswersDecl>,
    /// `--timeout`: seconds one question may take; [`DEFAULT_TIMEOUT`]
    /// when not given.
    pub timeout: Option<f64>,
    /// `--jobs`: how many questions an `exec:` or `pipe:` program is asked
    /// at once; its default when not given.
    pub jobs: Option<usize>,
    /// `--memory-limit`: megabytes of resident memory each process of the
    /// implementation may hold (0: no limit); 2,048 when not given.
    pub memory_limit: Option<u64>,
}

/// `[check]`: how `check` runs and what it writes.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Check {
    /// `--codec`.
    pub codec: Option<Codec>,
    /// `--label-rules` (with `codec = "label"` or `"domain"`).
    pub label_rules: Option<LabelRules>,
    /// `--check-hyphens` (with `codec = "label"`).
    pub check_hyphens: Option<bool>,
    /// `--std3-rules` (with `codec = "label"`).
    pub std3_rules: Option<bool>,
    /// `--verify-dns-length` (with `codec = "label"`).
    pub verify_dns_length: Option<bool>,
    /// `--check-bidi` (with `label-rules = "uts46"`).
    pub check_bidi: Option<bool>,
    /// `--check-joiners` (with `label-rules = "uts46"`).
    pub check_joiners: Option<bool>,
    /// `--transitional-processing` (with `label-rules = "uts46"`).
    pub transitional_processing: Option<bool>,
    /// `--ignore-invalid-punycode` (with `label-rules = "uts46"`).
    pub ignore_invalid_punycode: Option<bool>,
    /// `--be-strict` (with `label-rules = "url"`).
    pub be_strict: Option<bool>,
    /// `--url-ascii-fallback` (with `label-rules = "url"`).
    pub url_ascii_fallback: Option<bool>,
    /// `--seconds`.
    pub seconds: Option<f64>,
    /// `--cases`.
    pub cases: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--fail-fast`.
    pub fail_fast: Option<bool>,
    /// `--format`.
    pub format: Option<Format>,
    /// `--json FILE`.
    pub json: Option<String>,
    /// `--junit FILE`.
    pub junit: Option<String>,
    /// `--sarif FILE`.
    pub sarif: Option<String>,
    /// `--baseline FILE`.
    pub baseline: Option<String>,
    /// `--file FILE`s: every layer's, the lower layer's first.
    #[serde(default)]
    pub files: Vec<String>,
    /// `false`: `--no-cost`.
    pub cost: Option<bool>,
    /// `--cost-budget SECONDS`.
    pub cost_budget: Option<f64>,
    /// `--cost-max N`.
    pub cost_max: Option<usize>,
    /// `--sweep`: ask every code point (the `label` and `domain` codecs)
    /// instead of vectors and generated questions.
    pub sweep: Option<bool>,
    /// `--sweep-range U+XXXX..U+YYYY`: the code points the sweep asks
    /// (default every one).
    pub sweep_range: Option<String>,
    /// `--save-regressions FILE` (command line only: a file a run writes).
    #[serde(skip)]
    pub save_regressions: Option<String>,
    /// `--write-baseline FILE` (command line only: a file a run writes).
    #[serde(skip)]
    pub write_baseline: Option<String>,
}

/// The report on standard output (`--format`, `format = "..."`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Readable text.
    #[default]
    Text,
    /// JSON (see `docs/report.schema.json`).
    Json,
    /// JUnit XML.
    Junit,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
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

    /// The folder `root` names, taken from the folder of `file` (the file
    /// this layer was read from), as an absolute path; `None` without
    /// `root`. A root that is not a folder is an error that says where it
    /// was looked for.
    pub fn root_of(&self, file: &Path) -> Result<Option<PathBuf>, String> {
        let Some(root) = &self.root else {
            return Ok(None);
        };
        let folder = file.parent().filter(|p| !p.as_os_str().is_empty());
        let joined = folder.unwrap_or(Path::new(".")).join(root);
        let named = || {
            format!(
                "the root of {}, root = {root:?} (from its folder: {})",
                file.display(),
                joined.display()
            )
        };
        let resolved = std::fs::canonicalize(&joined)
            .map_err(|e| format!("{}, cannot be used: {e}", named()))?;
        if !resolved.is_dir() {
            return Err(format!("{}, is not a folder", named()));
        }
        Ok(Some(resolved))
    }

    /// This layer laid over `lower`: each key this one gives wins, and the
    /// lists of files are joined.
    pub fn over(self, lower: Config) -> Config {
        Config {
            root: self.root.or(lower.root),
            implementation: self.implementation.over(lower.implementation),
            check: self.check.over(lower.check),
        }
    }
}

impl Implementation {
    /// This layer laid over `lower`: each key this one gives wins.
    pub fn over(self, lower: Implementation) -> Implementation {
        Implementation {
            spec: self.spec.or(lower.spec),
            entry_points: self.entry_points.or(lower.entry_points),
            domain: self.domain.or(lower.domain),
            errors: self.errors.or(lower.errors),
            annotations: self.annotations.or(lower.annotations),
            directions: self.directions.or(lower.directions),
            max_encode: self.max_encode.or(lower.max_encode),
            max_decode: self.max_decode.or(lower.max_decode),
            unicode_version: self.unicode_version.or(lower.unicode_version),
            max_label_code_points: self.max_label_code_points.or(lower.max_label_code_points),
            max_label_bytes: self.max_label_bytes.or(lower.max_label_bytes),
            max_name_code_points: self.max_name_code_points.or(lower.max_name_code_points),
            max_name_bytes: self.max_name_bytes.or(lower.max_name_bytes),
            answers: self.answers.or(lower.answers),
            timeout: self.timeout.or(lower.timeout),
            jobs: self.jobs.or(lower.jobs),
            memory_limit: self.memory_limit.or(lower.memory_limit),
        }
    }

    /// The spec given, or else the clean-room code of `codec` (for the
    /// `label` and `domain` codecs, which have none: their reference).
    pub fn spec_or_cleanroom(&self, codec: Codec) -> String {
        self.spec.clone().unwrap_or_else(|| {
            let cleanroom = punycheck::engines::by_name(codec, "cleanroom");
            match (cleanroom, punycheck::engines::reference_for(codec)) {
                (None, Some(reference)) => reference.name().to_string(),
                _ => "cleanroom".into(),
            }
        })
    }

    /// What it is declared to support.
    pub fn declaration(&self) -> Declaration {
        Declaration {
            domain: self.domain,
            errors: self.errors,
            annotations: self.annotations,
            directions: self.directions,
            max_encode: self.max_encode,
            max_decode: self.max_decode,
            unicode_version: self.unicode_version,
            max_label_code_points: self.max_label_code_points,
            max_label_bytes: self.max_label_bytes,
            max_name_code_points: self.max_name_code_points,
            max_name_bytes: self.max_name_bytes,
            answers: self.answers,
        }
    }

    /// The time one question may take, checked.
    pub fn timeout(&self) -> Result<Duration, String> {
        let seconds = self.timeout.unwrap_or(DEFAULT_TIMEOUT);
        check_seconds(seconds, MAX_TIMEOUT)
            .map(Duration::from_secs_f64)
            .map_err(|e| format!("--timeout {e}"))
    }

    /// What `engines::from_spec` needs for `codec`. Sets the memory limit
    /// of every process started from now on (`--memory-limit`), which is
    /// the process module's, not one engine's.
    pub fn options(&self, codec: Codec) -> Result<SpecOptions, String> {
        if self.unicode_version.is_some() && codec.label_profile().is_none() {
            return Err(format!(
                "--unicode-version (unicode-version) goes with --codec label or --codec domain, \
                 not {codec}: the other codecs hold no Unicode data"
            ));
        }
        let limits = self.declaration().name_limits();
        if let Some((option, _, _)) = limits.each().next()
            && codec.label_profile().is_none()
        {
            return Err(format!(
                "--{option} ({option}) goes with --codec label or --codec domain, not {codec}: \
                 --max-encode and --max-decode are its limits"
            ));
        }
        if let Some((option, _, _)) = limits.each().find(|(o, _, _)| o.starts_with("max-name"))
            && !codec.is_domain()
        {
            return Err(format!(
                "--{option} ({option}) goes with --codec domain, not {codec}: a label's limits \
                 are --max-label-code-points and --max-label-bytes"
            ));
        }
        let megabytes = self
            .memory_limit
            .unwrap_or(punycheck::engines::process::DEFAULT_MEMORY_LIMIT >> 20);
        punycheck::engines::process::set_memory_limit(
            (megabytes > 0).then(|| megabytes.saturating_mul(1 << 20)),
        );
        Ok(SpecOptions {
            codec,
            declaration: self.declaration(),
            timeout: self.timeout()?,
            jobs: match self.jobs {
                Some(jobs) if !(1..=256).contains(&jobs) => {
                    return Err(format!("jobs must be from 1 to 256, not {jobs}"));
                }
                jobs => jobs,
            },
        })
    }

    /// The options as they are to be printed in a reproducer.
    pub fn printed(&self) -> String {
        let mut out = self.declaration().options();
        if let Some(timeout) = self.timeout.filter(|&t| t != DEFAULT_TIMEOUT) {
            out += &format!(" --timeout {timeout}");
        }
        let default = punycheck::engines::process::DEFAULT_MEMORY_LIMIT >> 20;
        if let Some(megabytes) = self.memory_limit.filter(|&m| m != default) {
            out += &format!(" --memory-limit {megabytes}");
        }
        out
    }
}

impl Check {
    /// The codec, Punycode unless one is named, with the label profile the
    /// layers' label settings describe; an error for a label setting
    /// without `codec = "label"`.
    pub fn resolved_codec(&self) -> Result<Codec, String> {
        let options = self.label_options();
        match self.codec.unwrap_or(Codec::Punycode) {
            codec @ (Codec::Label(profile) | Codec::Domain(profile)) => {
                Ok(codec.with_profile(options.applied(profile, codec.is_domain())?))
            }
            _ if options.any() => Err(
                "label-rules, check-hyphens, std3-rules, verify-dns-length, check-bidi, \
                 check-joiners, transitional-processing, ignore-invalid-punycode, be-strict and \
                 url-ascii-fallback go with codec = \"label\" or \"domain\" (--codec label, \
                 --codec domain)"
                    .into(),
            ),
            other => Ok(other),
        }
    }

    /// The label settings of this layer.
    pub fn label_options(&self) -> LabelOptions {
        LabelOptions {
            rules: self.label_rules,
            check_hyphens: self.check_hyphens,
            std3_rules: self.std3_rules,
            verify_dns_length: self.verify_dns_length,
            check_bidi: self.check_bidi,
            check_joiners: self.check_joiners,
            transitional_processing: self.transitional_processing,
            ignore_invalid_punycode: self.ignore_invalid_punycode,
            be_strict: self.be_strict,
            url_ascii_fallback: self.url_ascii_fallback,
        }
    }

    /// This layer laid over `lower`: each key this one gives wins, and the
    /// files of both are asked, `lower`'s first.
    pub fn over(self, lower: Check) -> Check {
        let mut files = lower.files;
        files.extend(self.files);
        Check {
            codec: self.codec.or(lower.codec),
            label_rules: self.label_rules.or(lower.label_rules),
            check_hyphens: self.check_hyphens.or(lower.check_hyphens),
            std3_rules: self.std3_rules.or(lower.std3_rules),
            verify_dns_length: self.verify_dns_length.or(lower.verify_dns_length),
            check_bidi: self.check_bidi.or(lower.check_bidi),
            check_joiners: self.check_joiners.or(lower.check_joiners),
            transitional_processing: self
                .transitional_processing
                .or(lower.transitional_processing),
            ignore_invalid_punycode: self
                .ignore_invalid_punycode
                .or(lower.ignore_invalid_punycode),
            be_strict: self.be_strict.or(lower.be_strict),
            url_ascii_fallback: self.url_ascii_fallback.or(lower.url_ascii_fallback),
            seconds: self.seconds.or(lower.seconds),
            cases: self.cases.or(lower.cases),
            seed: self.seed.or(lower.seed),
            fail_fast: self.fail_fast.or(lower.fail_fast),
            format: self.format.or(lower.format),
            json: self.json.or(lower.json),
            junit: self.junit.or(lower.junit),
            sarif: self.sarif.or(lower.sarif),
            baseline: self.baseline.or(lower.baseline),
            files,
            cost: self.cost.or(lower.cost),
            cost_budget: self.cost_budget.or(lower.cost_budget),
            cost_max: self.cost_max.or(lower.cost_max),
            sweep: self.sweep.or(lower.sweep),
            sweep_range: self.sweep_range.or(lower.sweep_range),
            save_regressions: self.save_regressions.or(lower.save_regressions),
            write_baseline: self.write_baseline.or(lower.write_baseline),
        }
    }
}

/// The longest run `--seconds` may ask for, about 31 years: beyond it a
/// deadline can no longer be computed on every platform.
pub const MAX_SECONDS: f64 = 1e9;

/// Reads a number of seconds for `--seconds`: finite, above 0 and at most
/// [`MAX_SECONDS`]. The message names the option and the text given.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    parse_bounded(text, MAX_SECONDS)
}

/// The longest `--timeout`: a day.
pub const MAX_TIMEOUT: f64 = 86_400.0;

/// Reads a number of seconds for `--timeout`: finite, above 0 and at most
/// [`MAX_TIMEOUT`].
pub fn parse_timeout(text: &str) -> Result<f64, String> {
    parse_bounded(text, MAX_TIMEOUT)
}

fn parse_bounded(text: &str, max: f64) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    check_seconds(value, max)
}

/// Checks a number of seconds (from the command line or the
/// configuration file): finite, above 0, at most `max`.
pub fn check_seconds(value: f64, max: f64) -> Result<f64, String> {
    if value.is_finite() && value > 0.0 && value <= max {
        Ok(value)
    } else {
        Err(format!(
            "must be a number of seconds above 0 and at most {max}, not {}",
            short_number(value)
        ))
    }
}

/// A number as a person would write it: `1e300`, not 301 digits.
fn short_number(value: f64) -> String {
    if value.is_finite() && value.abs() >= 1e15 {
        format!("{value:e}")
    } else {
        value.to_string()
    }
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
        assert_eq!(config.check.codec, Some(Codec::Punycode));
        assert_eq!(config.check.format, Some(Format::Text));
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors() {
        assert!(Config::parse("x", "[implementation]\nspc = \"a\"").is_err());
        assert!(Config::parse("x", "[implementation]\ndomain = \"ascii\"").is_err());
        assert!(Config::parse("x", "[check]\nseconds = \"ten\"").is_err());
        assert!(Config::parse("x", "[check]\ncodec = \"punycod\"").is_err());
        assert!(Config::parse("x", "[check]\nformat = \"xml\"").is_err());
        // Files a run writes are named on the command line only.
        assert!(Config::parse("x", "[check]\nwrite-baseline = \"b.toml\"").is_err());
        assert_eq!(Config::parse("x", "").unwrap(), Config::default());
    }

    #[test]
    fn the_upper_layer_wins_key_by_key_and_files_are_joined() {
        let file = Config::parse(
            "file",
            "[implementation]\ndomain = \"unicode\"\nerrors = \"failure-only\"\n\
             [check]\nseconds = 10.0\ncases = 5\nfiles = [\"a.toml\"]\ncodec = \"lace\"\n",
        )
        .unwrap();
        let mut command_line = Config::default();
        command_line.implementation.domain = Some(DomainDecl::U32);
        command_line.check.seconds = Some(3.0);
        command_line.check.files = vec!["b.toml".into()];
        let merged = command_line.over(file);
        assert_eq!(merged.implementation.domain, Some(DomainDecl::U32));
        assert_eq!(merged.implementation.errors, Some(ErrorsDecl::FailureOnly));
        assert_eq!(merged.check.seconds, Some(3.0));
        assert_eq!(merged.check.cases, Some(5));
        assert_eq!(merged.check.codec, Some(Codec::Lace));
        assert_eq!(merged.check.files, ["a.toml", "b.toml"]);
        assert_eq!(
            merged.implementation.declaration().domain,
            Some(DomainDecl::U32)
        );
    }

    #[test]
    fn the_root_is_taken_from_the_file_s_folder() {
        let here = std::env::current_dir().unwrap().canonicalize().unwrap();
        let config = Config::parse("x", "root = \"..\"\n[check]\ncases = 1\n").unwrap();
        assert_eq!(
            config.root_of(Path::new("src/punycheck.toml")),
            Ok(Some(here.clone()))
        );
        assert_eq!(
            config.root_of(Path::new("punycheck.toml")),
            Ok(here.parent().map(Path::to_path_buf))
        );
        // No root: the working directory, as always.
        assert_eq!(Config::default().root_of(Path::new("src/x.toml")), Ok(None));
        let missing = Config::parse("x", "root = \"nowhere\"").unwrap();
        let err = missing.root_of(Path::new("src/gate.toml")).unwrap_err();
        assert!(
            err.contains("src/gate.toml") && err.contains("\"nowhere\""),
            "{err}"
        );
        // The command line has no root: the file's stays.
        let merged = Config::default().over(config);
        assert_eq!(merged.root.as_deref(), Some(".."));
    }

    #[test]
    fn seconds_are_bounded_and_named() {
        assert_eq!(parse_seconds("2.5"), Ok(2.5));
        for bad in ["0", "-1", "nan", "inf", "1e300", "1e19", "", "x", "-0"] {
            let err = parse_seconds(bad).unwrap_err();
            assert!(err.len() < 120, "{bad}: {err}");
        }
        assert!(parse_seconds("1e300").unwrap_err().contains("1e300"));
        assert!(parse_timeout("86401").is_err());
        assert_eq!(parse_timeout("86400"), Ok(86_400.0));
    }

    #[test]
    fn label_settings_make_the_label_codec_s_profile() {
        use punycheck::label::{LabelProfile, LabelRules};
        let file = Config::parse(
            "x",
            "[check]\ncodec = \"label\"\nlabel-rules = \"idna2008\"\ncheck-hyphens = false\n",
        )
        .unwrap();
        let mut want = LabelProfile::DEFAULT;
        want.rules = LabelRules::Idna2008;
        want.switches.check_hyphens = false;
        assert_eq!(file.check.resolved_codec(), Ok(Codec::Label(want)));
        // The command line's layer wins where it says something.
        let line = Check {
            std3_rules: Some(false),
            ..Check::default()
        };
        want.switches.use_std3_ascii_rules = false;
        assert_eq!(
            line.over(file.check).resolved_codec(),
            Ok(Codec::Label(want))
        );
        // A label setting without the label codec is an error.
        let lone = Config::parse("x", "[check]\nlabel-rules = \"uts46\"\n").unwrap();
        assert!(
            lone.check
                .resolved_codec()
                .unwrap_err()
                .contains("codec = \"label\"")
        );
    }
}
