//! The command line's arguments: every subcommand and option, with clap,
//! and their conversion into the settings of `crate::commands`, which
//! does the work.

use std::ffi::OsString;

use crate::commands::EXIT_STATUS;
use crate::config::{self, Format};
use clap::{Parser, Subcommand};
use punycheck::codec::Codec;
use punycheck::engines::declaration::{AnswersDecl, DirectionsDecl, DomainDecl, ErrorsDecl};
use punycheck::harness::cost;
use punycheck::label::{LabelOptions, LabelRules};
use punycheck::unicode::UnicodeVersion;
use punycheck::utf8;

/// Checks Punycode (RFC 3492) implementations against each other and
/// against the RFC's own C code; and AMC-ACE-Z, LACE and RFC 2279 UTF-8
/// the same way (--codec).
///
/// With no command: every built-in implementation over every vector and a
/// generated differential run, shown as a conformance matrix per codec.
#[derive(Parser)]
#[command(version, about, after_help = EXIT_STATUS)]
pub(crate) struct Cli {
    /// The codec: punycode (default), amc-ace-z, lace, utf8, label
    /// (ToASCII and ToUnicode of one DNS label) or domain (of a whole
    /// domain name). Without a command and without --codec, every codec.
    #[arg(long, global = true, value_enum)]
    pub(crate) codec: Option<Codec>,
    /// With --codec label or domain: the standard a label is judged by
    /// (uts46: UTS #46 revision 36, Nontransitional Processing unless
    /// --transitional-processing true).
    #[arg(long, global = true, value_enum, value_name = "RULES")]
    pub(crate) label_rules: Option<LabelRules>,
    /// With --codec label or domain: UTS #46's CheckHyphens switch (default true;
    /// the URL Standard sets it false).
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) check_hyphens: Option<bool>,
    /// With --codec label or domain: UTS #46's UseSTD3ASCIIRules switch (default
    /// true; the URL Standard sets it false).
    #[arg(long = "std3-rules", global = true, value_name = "BOOL")]
    pub(crate) std3_rules: Option<bool>,
    /// With --codec label or domain: UTS #46's VerifyDnsLength switch (default true;
    /// the URL Standard sets it false).
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) verify_dns_length: Option<bool>,
    /// With --label-rules uts46: UTS #46's CheckBidi switch (default true,
    /// as in the URL Standard).
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) check_bidi: Option<bool>,
    /// With --label-rules uts46: UTS #46's CheckJoiners switch (default
    /// true, as in the URL Standard).
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) check_joiners: Option<bool>,
    /// With --label-rules uts46: UTS #46's Transitional_Processing switch,
    /// deprecated (default false, as in the URL Standard): ß, ς, ZWNJ, ZWJ
    /// and ẞ mapped.
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) transitional_processing: Option<bool>,
    /// With --label-rules uts46: UTS #46's IgnoreInvalidPunycode switch
    /// (default false, as in the URL Standard).
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) ignore_invalid_punycode: Option<bool>,
    /// With --label-rules url: the URL Standard's beStrict (default false),
    /// which sets all three switches.
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) be_strict: Option<bool>,
    /// With --label-rules url: false for the URL Standard as written before
    /// its ASCII fallback of 2026-06-25 (whatwg/url a8d5ca37), which Node
    /// 20, ada 2.x and whatwg-url 16 implement (default true).
    #[arg(long, global = true, value_name = "BOOL")]
    pub(crate) url_ascii_fallback: Option<bool>,
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

impl Cli {
    /// The label options given.
    pub(crate) fn label_options(&self) -> LabelOptions {
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

    /// The codec chosen, with the label profile its options describe; an
    /// error for a label option given without `--codec label` or
    /// `--codec domain`, or one the profile does not take.
    pub(crate) fn chosen_codec(&self) -> Result<Option<Codec>, String> {
        let options = self.label_options();
        match self.codec {
            Some(codec @ (Codec::Label(profile) | Codec::Domain(profile))) => Ok(Some(
                codec.with_profile(options.applied(profile, codec.is_domain())?),
            )),
            _ if options.any() => Err(LABEL_OPTIONS_ALONE.into()),
            other => Ok(other),
        }
    }
}

/// The error for a label option without a codec that takes it.
pub(crate) const LABEL_OPTIONS_ALONE: &str = "--label-rules, --check-hyphens, --std3-rules, \
     --verify-dns-length, --check-bidi, --check-joiners, --transitional-processing, \
     --ignore-invalid-punycode, --be-strict and --url-ascii-fallback go with --codec label or \
     --codec domain";

/// How an implementation is named, with what it is declared to support.
#[derive(clap::Args, Clone)]
pub(crate) struct ImplArgs {
    /// The implementation: a built-in name (see `punycheck list`),
    /// pipe:COMMAND for a program answering punycheck's line protocol (one
    /// process kept per job, the fast way), exec:COMMAND for a program
    /// following RFC 3492 Appendix C's test wrapper convention (one process
    /// per question), or so:PATH[:PREFIX][:lengths=size_t] for a C library
    /// exporting Appendix C's punycode_encode and punycode_decode.
    #[arg(long = "impl", value_name = "SPEC")]
    pub(crate) spec: Option<String>,
    #[command(flatten)]
    pub(crate) declared: DeclArgs,
}

impl ImplArgs {
    /// The implementation these options name and declare.
    pub(crate) fn implementation(&self) -> config::Implementation {
        config::Implementation {
            spec: self.spec.clone(),
            ..self.declared.implementation()
        }
    }
}

/// What the implementation under test supports: each option turns the
/// differences it explains into a declared divergence class. Built-in
/// implementations declare their own; an option given here overrides it.
#[derive(clap::Args, Clone, Default)]
pub(crate) struct DeclArgs {
    /// The code points it takes and returns: unicode (Unicode scalar values
    /// only), unicode-with-surrogates (up to U+10FFFF, surrogates
    /// included), u31 (up to 0x7FFFFFFF) or u32 (any 32-bit value, as RFC
    /// 3492; the default).
    #[arg(long, value_enum, value_name = "DOMAIN")]
    pub(crate) domain: Option<DomainDecl>,
    /// How it reports failures: kinds (says invalid input or overflow; the
    /// default) or failure-only (only says that it failed).
    #[arg(long, value_enum, value_name = "ERRORS")]
    pub(crate) errors: Option<ErrorsDecl>,
    /// It does not do Appendix A annotations (case flags).
    #[arg(long)]
    pub(crate) no_annotations: bool,
    /// It only decodes: it is never asked to encode.
    #[arg(long, conflicts_with = "encode_only")]
    pub(crate) decode_only: bool,
    /// It only encodes: it is never asked to decode.
    #[arg(long)]
    pub(crate) encode_only: bool,
    /// The longest input it encodes, in code points (its own limit).
    #[arg(long, value_name = "N")]
    pub(crate) max_encode: Option<usize>,
    /// The longest input it decodes, in bytes (its own limit).
    #[arg(long, value_name = "N")]
    pub(crate) max_decode: Option<usize>,
    /// With --codec label or domain: the Unicode version of its data (as
    /// 15.1): a difference on a question holding a code point assigned
    /// after it is the divergence class unicode-version, not a finding.
    #[arg(long, value_name = "X.Y")]
    pub(crate) unicode_version: Option<UnicodeVersion>,
    /// With --codec label or domain: the most code points of one label it
    /// takes, an A-label counted decoded (its own limit, as ICU's 1,000):
    /// its refusal of a longer one is the class length-limit.
    #[arg(long, value_name = "N")]
    pub(crate) max_label_code_points: Option<usize>,
    /// With --codec label or domain: the most bytes of one label it takes,
    /// counted in ASCII (a U-label as its A-label).
    #[arg(long, value_name = "N")]
    pub(crate) max_label_bytes: Option<usize>,
    /// With --codec domain: the most code points of a name it takes, dots
    /// included.
    #[arg(long, value_name = "N")]
    pub(crate) max_name_code_points: Option<usize>,
    /// With --codec domain: the most bytes of a name it takes in ASCII,
    /// dots included.
    #[arg(long, value_name = "N")]
    pub(crate) max_name_bytes: Option<usize>,
    /// What its answers are: conversion (encode answers the ASCII form,
    /// decode the code points; the default) or verdict (a validator, such
    /// as JSON Schema's idn-hostname: it answers only valid or invalid,
    /// judged against whether the reference succeeds under the rules
    /// declared, its text never compared).
    #[arg(long, value_enum, value_name = "ANSWERS")]
    pub(crate) answers: Option<AnswersDecl>,
    /// Seconds one question may take (default 5): an exec: program, pipe:
    /// answer or so: call that takes longer is asked once more, with the
    /// same limit, before it counts as a hang; a built-in's answer to
    /// encode or decode is abandoned.
    #[arg(long, value_name = "SECONDS", value_parser = config::parse_timeout, allow_negative_numbers = true)]
    pub(crate) timeout: Option<f64>,
    /// How many questions an exec: or pipe: program is asked at once, each
    /// in a process of its own (default: pipe: one per core, exec: two per
    /// core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) jobs: Option<u16>,
    /// Megabytes of resident memory each process of the implementation
    /// may hold (default 2048, as libFuzzer's -rss_limit_mb; 0: none): one
    /// that holds more is killed, a `memory` cause.
    #[arg(long, value_name = "MB")]
    pub(crate) memory_limit: Option<u64>,
}

impl DeclArgs {
    /// What these options declare, with their time limit and jobs (no
    /// spec).
    pub(crate) fn implementation(&self) -> config::Implementation {
        config::Implementation {
            spec: None,
            entry_points: None,
            domain: self.domain,
            errors: self.errors,
            annotations: self.no_annotations.then_some(false),
            directions: if self.decode_only {
                Some(DirectionsDecl::DecodeOnly)
            } else if self.encode_only {
                Some(DirectionsDecl::EncodeOnly)
            } else {
                None
            },
            max_encode: self.max_encode,
            max_decode: self.max_decode,
            unicode_version: self.unicode_version,
            max_label_code_points: self.max_label_code_points,
            max_label_bytes: self.max_label_bytes,
            max_name_code_points: self.max_name_code_points,
            max_name_bytes: self.max_name_bytes,
            answers: self.answers,
            timeout: self.timeout,
            jobs: self.jobs.map(usize::from),
            memory_limit: self.memory_limit,
        }
    }
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Encodes lines (arguments, or standard input) to Punycode.
    Encode {
        #[command(flatten)]
        implementation: ImplArgs,
        /// Input is u+XXXX/U+XXXX tokens (U = uppercase flag), not UTF-8 text.
        #[arg(long)]
        codepoints: bool,
        /// How input text is read: strict UTF-8, or RFC 2279 (code points
        /// up to 0x7FFFFFFF).
        #[arg(long, value_enum, default_value = "strict")]
        utf8: utf8::Mode,
        /// Lines to encode; standard input when none.
        text: Vec<OsString>,
    },
    /// Decodes Punycode lines (arguments, or standard input).
    Decode {
        #[command(flatten)]
        implementation: ImplArgs,
        /// Output u+XXXX/U+XXXX tokens (with flags), not UTF-8 text.
        #[arg(long)]
        codepoints: bool,
        /// How output text is written: strict UTF-8, or RFC 2279 (code
        /// points up to 0x7FFFFFFF).
        #[arg(long, value_enum, default_value = "strict")]
        utf8: utf8::Mode,
        /// Lines to decode; standard input when none.
        text: Vec<OsString>,
    },
    /// Runs the vector files over implementations.
    Vectors {
        /// Implementations to run (repeatable; default: every built-in one).
        #[arg(long = "impl", value_name = "SPEC")]
        specs: Vec<String>,
        /// More vector files, e.g. regressions saved by `check`.
        #[arg(long = "file", value_name = "FILE")]
        files: Vec<String>,
        #[command(flatten)]
        declared: DeclArgs,
        /// List every skip and known deviation, case by case.
        #[arg(long)]
        verbose: bool,
        /// Run nothing: write every vector of every codec (and of the
        /// --file files) to FILE as one JSON document in the shape of
        /// Wycheproof's test files (docs/vectors.schema.json), for any
        /// project's own tests; `-` for standard output.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["specs", "verbose"])]
        export: Option<String>,
    },
    /// Asks implementations the same generated questions as the C reference
    /// and classifies every difference.
    Diff(DiffArgs),
    /// Everything a conformance gate needs for one implementation: vectors,
    /// properties, and a differential run against the C reference.
    #[command(after_help = EXIT_STATUS)]
    Check(CheckArgs),
    /// Asks one question of an implementation and of the C reference.
    Repro(ReproArgs),
    /// The cost probe's full profile of one implementation beside the C
    /// reference and the clean-room code: per family of long inputs and
    /// direction, the time of every size, the growth per doubling, and the
    /// largest size within the budget. Exits 1 when an answer is slow.
    Cost(CostArgs),
    /// Lists the built-in implementations and what each declares.
    List,
    /// RFC 3492 Appendix C's own test program, compiled in: -e encodes
    /// u+XXXX tokens from standard input, -d decodes a Punycode line. Check
    /// it, or use it as a model, with --impl 'exec:punycheck rfc-wrapper'.
    RfcWrapper {
        /// -e or -d, as the RFC's wrapper takes them.
        #[arg(allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Answers the pipe: protocol on standard input and output with an
    /// implementation (the clean-room code unless --impl names another):
    /// "encode TOKENS" or "decode TEXT" a line, answered "ok RESULT" or
    /// "error MESSAGE", so that programs in any language can ask
    /// punycheck's references.
    Serve {
        #[command(flatten)]
        implementation: ImplArgs,
    },
    /// Replaced by `rfc-wrapper`: says so and exits 2.
    #[command(hide = true)]
    WrapperPath,
    /// Times the built-in implementations on the same inputs, each answer
    /// checked against the C reference first.
    Bench(BenchArgs),
    /// Runs many gates, each as `check --config GATE` runs it, as many at
    /// once as the machine has cores, and writes DIR/survey.json,
    /// DIR/survey.md and DIR/index.html: implementations against rule areas,
    /// each cause with its reproduce line and its baseline's note. Exits 0
    /// when every gate that ran gave the status its baseline expects (a gate
    /// that could not start is shown as not run), 1 otherwise. With
    /// --compare: what changed between two surveys, exit 1 when anything did.
    #[command(after_help = EXIT_STATUS)]
    Survey(SurveyArgs),
}

/// Runs many gates and writes the survey page, or compares two surveys.
#[derive(clap::Args)]
pub(crate) struct SurveyArgs {
    /// The gate files (punycheck.toml); default every adapters/gates/*.toml
    /// that is not a baseline.
    #[arg(value_name = "GATE", conflicts_with = "compare")]
    pub(crate) gates: Vec<String>,
    /// The directory to write survey.json, survey.md and index.html into.
    #[arg(long, value_name = "DIR", required_unless_present_any = ["compare", "docs"])]
    pub(crate) out: Option<String>,
    /// Rewrite the tables between `<!-- survey:begin NAME -->` and
    /// `<!-- survey:end NAME -->` in these files (docs/findings.md) from
    /// the gates' files and baselines instead, running no gate.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with_all = ["out", "jobs", "compare"])]
    pub(crate) docs: Option<Vec<String>>,
    /// With --docs: write nothing, and exit 1 when a file's tables are not
    /// what the gates give (as `cargo fmt --check`).
    #[arg(long, requires = "docs")]
    pub(crate) check: bool,
    /// How many checks at once (default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(crate) jobs: Option<u32>,
    /// Compare two survey.json files instead: gates added or dropped,
    /// statuses moved, causes new, gone or narrowed per implementation.
    #[arg(long, num_args = 2, value_names = ["OLD.json", "NEW.json"], conflicts_with_all = ["out", "jobs"])]
    pub(crate) compare: Option<Vec<String>>,
}

/// Times the built-in implementations on the same inputs, each answer
/// checked against the C reference first.
#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// Fewer sizes (up to 10^4), labels and repetitions, 1 s per case.
    #[arg(long)]
    pub(crate) quick: bool,
    /// The longest long input, in code points (at most 1000000).
    #[arg(long, value_name = "N")]
    pub(crate) max_size: Option<usize>,
    /// Write the log-log plot of time against input length to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub(crate) plot: Option<String>,
    /// Write the results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<String>,
    /// Write a compact Markdown table (as in docs/performance.md) to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) markdown: Option<String>,
    /// Time budget of one implementation on one input set and direction
    /// (default 10, or 1 with --quick); a long input whose extrapolated
    /// time exceeds it is skipped.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub(crate) seconds_per_case: Option<f64>,
}

/// Asks implementations the same generated questions as the C reference
/// and classifies every difference.
#[derive(clap::Args)]
pub(crate) struct DiffArgs {
    /// Implementations to compare (repeatable).
    #[arg(long = "impl", value_name = "SPEC", required = true)]
    pub(crate) specs: Vec<String>,
    /// Generator seed (default: chosen and printed).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Number of generated questions.
    #[arg(long, conflicts_with = "seconds")]
    pub(crate) cases: Option<u64>,
    /// Or: how long to run, in seconds.
    #[arg(long, value_parser = config::parse_seconds, allow_negative_numbers = true)]
    pub(crate) seconds: Option<f64>,
    #[command(flatten)]
    pub(crate) declared: DeclArgs,
}

/// Everything a conformance gate needs for one implementation: vectors,
/// properties, and a differential run against the C reference.
#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    pub(crate) implementation: ImplArgs,
    /// Another entry point of the same implementation (a spec as --impl
    /// takes, declared as it is), asked every question beside it: where
    /// the two answer differently, that is a cause (kind entry-points).
    /// Give it once per entry point.
    #[arg(long = "entry-point", value_name = "SPEC")]
    pub(crate) entry_points: Vec<String>,
    /// Settings from this file (default: punycheck.toml in the working
    /// directory, when there is one); options given here win. Paths and
    /// the command in the file are taken from its root (root = "DIR", from
    /// the file's folder; the check then runs there), or without one from
    /// the working directory, as on the command line.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<String>,
    /// How long to run in all, in seconds (default 30).
    #[arg(long, value_parser = config::parse_seconds, allow_negative_numbers = true)]
    pub(crate) seconds: Option<f64>,
    /// Also stop after this many generated requests (for a run that is
    /// the same on any machine).
    #[arg(long)]
    pub(crate) cases: Option<u64>,
    /// Generator seed (default: chosen and printed).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// The report on standard output (default text).
    #[arg(long, value_enum)]
    pub(crate) format: Option<Format>,
    /// Also write the JSON report (docs/report.schema.json) to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<String>,
    /// Also write the JUnit XML report to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<String>,
    /// Also write the SARIF 2.1.0 report (for code scanning) to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) sarif: Option<String>,
    /// Append each cause's reproducer, as a vector, to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) save_regressions: Option<String>,
    /// More vector files in the gate, e.g. regressions saved earlier.
    #[arg(long = "file", value_name = "FILE")]
    pub(crate) files: Vec<String>,
    /// Causes recorded in this file are known, not failing; a new cause
    /// fails, and so does a recorded cause that no longer reproduces.
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<String>,
    /// Record the causes found in this file (a baseline to accept them).
    /// The run's exit status is its verdict's: 1 when it records causes
    /// (they are still nonconformities; a check with the baseline then
    /// passes on them), 0 when there is nothing to record.
    #[arg(long, value_name = "FILE")]
    pub(crate) write_baseline: Option<String>,
    /// Stop at the first cause (after minimizing it).
    #[arg(long)]
    pub(crate) fail_fast: bool,
    /// Sweep every code point instead of asking vectors and generated
    /// questions (--codec label or domain): each alone and in fixed
    /// contexts, ToASCII and ToUnicode, the differences reported as code
    /// point ranges by cause (default --seconds 3600, a ceiling).
    #[arg(long)]
    pub(crate) sweep: bool,
    /// The code points the sweep asks, U+XXXX..U+YYYY (default
    /// U+0000..U+10FFFF).
    #[arg(long, value_name = "RANGE")]
    pub(crate) sweep_range: Option<String>,
    /// The cost probe's budget: an input inside the declaration answered
    /// after more than this many seconds, twice, is a `slow` cause
    /// (default 1).
    #[arg(long, value_name = "SECONDS", value_parser = config::parse_timeout, allow_negative_numbers = true)]
    pub(crate) cost_budget: Option<f64>,
    /// The cost probe's longest input, in code points (to encode) or bytes
    /// (to decode); sizes double from 64 up to it (default 65536).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(cost::FIRST_SIZE as u64..=cost::LARGEST_MAX as u64))]
    pub(crate) cost_max: Option<u64>,
    /// No cost probe (long inputs are then not timed).
    #[arg(long, conflicts_with_all = ["cost_budget", "cost_max"])]
    pub(crate) no_cost: bool,
    /// Also print where the check's time went, phase by phase, and the
    /// generated questions asked a second, on standard error.
    #[arg(long)]
    pub(crate) timings: bool,
}

/// Asks one question of an implementation and of the C reference.
#[derive(clap::Args)]
pub(crate) struct ReproArgs {
    #[command(flatten)]
    pub(crate) implementation: ImplArgs,
    /// Another entry point of the same implementation (a spec as --impl
    /// takes, declared as it is), asked the question beside it: exits 1
    /// when the two answer differently (the reproducer of a cause of kind
    /// entry-points). Give it once per entry point.
    #[arg(long = "entry-point", value_name = "SPEC")]
    pub(crate) entry_points: Vec<String>,
    /// Code points to encode, as u+XXXX/U+XXXX tokens.
    #[arg(long, group = "question")]
    pub(crate) encode: Option<String>,
    /// Encode without case flags.
    #[arg(long)]
    pub(crate) no_flags: bool,
    /// Also check the round-trip and uniqueness properties that start from
    /// this question (as check does), and exit 1 if one breaks.
    #[arg(long)]
    pub(crate) properties: bool,
    /// Judge the CPU time instead of the answer, with this budget (the
    /// reproducer of a `slow` cause): for a family at a size (`--encode
    /// 'distinct-shuffled:16384'`, `--decode-of ...`), by the cost probe's
    /// rule (sizes doubling up to it, the time at the declared limit or
    /// --cost-max extrapolated, slow from 3 times the budget when growing
    /// faster than linear); any other question asked twice, slow from 3
    /// times the budget. Exits 1 while slow.
    #[arg(long, value_name = "SECONDS", value_parser = config::parse_timeout, allow_negative_numbers = true, conflicts_with = "properties")]
    pub(crate) slower_than: Option<f64>,
    /// With --slower-than: the longest input where the implementation
    /// declares no limit (default 65536).
    #[arg(long, value_name = "N", requires = "slower_than", value_parser = clap::value_parser!(u64).range(cost::FIRST_SIZE as u64..=cost::LARGEST_MAX as u64))]
    pub(crate) cost_max: Option<u64>,
    /// A file holding the code points to encode, as --encode takes them
    /// (a question too long for a report's line).
    #[arg(long, group = "question", value_name = "FILE")]
    pub(crate) encode_file: Option<String>,
    /// A file holding the bytes to decode, as they are.
    #[arg(long, group = "question", value_name = "FILE")]
    pub(crate) decode_file: Option<String>,
    /// Code points (as --encode takes them, `FAMILY:N` included) whose
    /// clean-room Punycode is decoded (behind xn-- for the label codec).
    #[arg(long, group = "question")]
    pub(crate) decode_of: Option<String>,
    /// Punycode text to decode.
    #[arg(long, group = "question")]
    pub(crate) decode: Option<String>,
    /// Bytes to decode, in hexadecimal.
    #[arg(long, group = "question")]
    pub(crate) decode_hex: Option<String>,
    /// Append the question, with the C reference's answer, to this
    /// vector file (e.g. a minimized fuzz crash, to replay in cargo test).
    #[arg(long, value_name = "FILE")]
    pub(crate) save: Option<String>,
    /// With --save: the case's name, unique across the vector files.
    #[arg(long, requires = "save")]
    pub(crate) name: Option<String>,
    /// With --save: where the question comes from.
    #[arg(long, requires = "save")]
    pub(crate) provenance: Option<String>,
}

/// `punycheck cost`.
#[derive(clap::Args)]
pub(crate) struct CostArgs {
    #[command(flatten)]
    pub(crate) implementation: ImplArgs,
    /// A slower answer (asked twice) is slow (default 1).
    #[arg(long, value_name = "SECONDS", value_parser = config::parse_timeout, allow_negative_numbers = true)]
    pub(crate) cost_budget: Option<f64>,
    /// The longest input, in code points (to encode) or bytes (to decode);
    /// sizes double from 64 up to it (default 65536).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(cost::FIRST_SIZE as u64..=cost::LARGEST_MAX as u64))]
    pub(crate) cost_max: Option<u64>,
    /// Also draw the profiles as a log-log SVG in this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) plot: Option<String>,
    /// The whole run, the two yardsticks' profiles included (default 120).
    #[arg(long, default_value = "120", value_parser = config::parse_seconds, allow_negative_numbers = true)]
    pub(crate) seconds: f64,
}

impl CheckArgs {
    /// The command line's layer of the settings, and the configuration
    /// file it names.
    pub(crate) fn layer(self) -> (config::Config, Option<String>) {
        let layer = config::Config {
            // The root is the file's alone: it is taken from the file's folder.
            root: None,
            implementation: config::Implementation {
                entry_points: (!self.entry_points.is_empty()).then_some(self.entry_points),
                ..self.implementation.implementation()
            },
            // The codec and its label options are global options: the
            // caller lays them in.
            check: config::Check {
                codec: None,
                label_rules: None,
                check_hyphens: None,
                std3_rules: None,
                verify_dns_length: None,
                check_bidi: None,
                check_joiners: None,
                transitional_processing: None,
                ignore_invalid_punycode: None,
                be_strict: None,
                url_ascii_fallback: None,
                seconds: self.seconds,
                cases: self.cases,
                seed: self.seed,
                fail_fast: self.fail_fast.then_some(true),
                format: self.format,
                json: self.json,
                junit: self.junit,
                sarif: self.sarif,
                baseline: self.baseline,
                files: self.files,
                cost: self.no_cost.then_some(false),
                cost_budget: self.cost_budget,
                cost_max: self.cost_max.map(|n| n as usize),
                sweep: self.sweep.then_some(true),
                sweep_range: self.sweep_range,
                save_regressions: self.save_regressions,
                write_baseline: self.write_baseline,
            },
        };
        (layer, self.config)
    }
}
