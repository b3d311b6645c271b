//! The JSON report of `check`, layout version [`VERSION`]: every field
//! named (no positional arrays), questions given as data (code points and
//! flags, or bytes) beside their compact text, a reproducer for every cause
//! (and for each of its rules) and every failed vector. `docs/report.schema.json` is its JSON Schema,
//! and a test validates reports against it.
//!
//! These types are the layout: they are built from the report and never
//! read back, so the internal types can change without changing it.

use serde::Serialize;

use super::{CheckReport, VERSION, VectorStatus};
use crate::engines::{CodePointDomain, Directions, ErrorDetail};
use crate::harness::causes::Confirmation;
use crate::harness::classes::Class;
use crate::vocabulary::{Expected, Request, describe};

/// The whole report.
#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    status: &'static str,
    interrupted: bool,
    conforming: bool,
    verdict: String,
    implementation: &'a str,
    /// Its other entry points (`--entry-point`).
    entry_points: &'a [String],
    codec: &'a str,
    declaration: Declaration,
    seed: u64,
    started: String,
    seconds: f64,
    budget_seconds: f64,
    vectors: Vectors,
    small_cases: SmallCases,
    generated: Generated,
    causes: Vec<CauseJson<'a>>,
    baseline: Option<Baseline>,
    incomplete: &'a [String],
    stopped: Option<&'a str>,
    repro_commands: Vec<String>,
    cost: Option<CostJson>,
    /// Where the check's time went ([`CheckReport::timings`]).
    timings: Vec<TimingJson>,
    /// What the sweep of every code point asked (`check --sweep`); absent
    /// for every other check.
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep: Option<&'a crate::harness::swept::Summary>,
    /// For the label and domain codecs, the Unicode classes the generated
    /// questions asked ([`crate::harness::unicode_classes`]); null for
    /// the other codecs.
    unicode_classes: Option<UnicodeClassesJson>,
}

/// How many Unicode classes were asked both ways.
#[derive(Serialize)]
struct UnicodeClassesJson {
    asked: usize,
    total: usize,
    refused_only: usize,
    not_asked: Vec<String>,
}

/// One phase's time.
#[derive(Serialize)]
struct TimingJson {
    phase: &'static str,
    part_of: Option<&'static str>,
    seconds: f64,
}

/// What the cost probe measured.
#[derive(Serialize)]
struct CostJson {
    budget_seconds: f64,
    max: usize,
    series: Vec<SeriesJson>,
}

#[derive(Serialize)]
struct SeriesJson {
    family: &'static str,
    direction: &'static str,
    /// Sizes answered, with their CPU seconds.
    points: Vec<PointJson>,
    /// `max`, `declared-limit`, `refused`, `extrapolated` or `out-of-time`.
    end: &'static str,
    /// The size that stopped it, for `refused` and `extrapolated`.
    end_size: Option<usize>,
    /// The largest size the declaration allows: where the verdict is taken.
    limit: usize,
    /// CPU seconds at `limit`, measured or extrapolated.
    at_limit: Option<f64>,
    /// `within`, `near` or `slow`.
    verdict: &'static str,
    /// The time ratio per doubling of the size, when it could be read.
    growth: Option<f64>,
}

#[derive(Serialize)]
struct PointJson {
    size: usize,
    code_points: usize,
    seconds: f64,
    peak_memory: Option<u64>,
    cut: bool,
    machine_factor: f64,
}

fn cost_json(cost: &super::CostReport) -> CostJson {
    use crate::harness::cost::End;
    CostJson {
        budget_seconds: cost.bounds.budget.as_secs_f64(),
        max: cost.bounds.max,
        series: cost
            .series
            .iter()
            .map(|s| {
                let (end, end_size) = match s.end {
                    End::Max => ("max", None),
                    End::DeclaredLimit => ("declared-limit", None),
                    End::Refused(n) => ("refused", Some(n)),
                    End::Extrapolated(n) => ("extrapolated", Some(n)),
                    End::OutOfTime => ("out-of-time", None),
                };
                SeriesJson {
                    family: s.family.name(),
                    direction: s.direction.name(),
                    points: s
                        .points
                        .iter()
                        .map(|p| PointJson {
                            size: p.size,
                            code_points: p.code_points,
                            seconds: p.seconds,
                            peak_memory: p.peak_memory,
                            cut: p.cut,
                            machine_factor: p.factor,
                        })
                        .collect(),
                    end,
                    end_size,
                    limit: s.limit,
                    at_limit: s.at_limit(),
                    verdict: match s.verdict(cost.bounds.budget) {
                        crate::harness::cost::Verdict::Within => "within",
                        crate::harness::cost::Verdict::Near => "near",
                        crate::harness::cost::Verdict::Slow => "slow",
                    },
                    growth: s.growth(),
                }
            })
            .collect(),
    }
}

/// What the implementation declares, as the check used it.
#[derive(Serialize)]
struct Declaration {
    domain: &'static str,
    errors: &'static str,
    annotations: bool,
    directions: &'static str,
    max_encode: Option<usize>,
    max_decode: Option<usize>,
    /// The Unicode version it declares (the `label` and `domain` codecs);
    /// `None`: the references' own.
    unicode_version: Option<String>,
    /// Its own limits on labels and names (the `label` and `domain`
    /// codecs), each `None` where it declares none.
    name_limits: NameLimits,
    options: String,
    text: String,
}

/// A label's and a name's declared limits (`--max-label-code-points` and
/// its kin).
#[derive(Serialize)]
struct NameLimits {
    label_code_points: Option<usize>,
    label_bytes: Option<usize>,
    name_code_points: Option<usize>,
    name_bytes: Option<usize>,
}

/// A question, as data and as text.
#[derive(Serialize)]
struct Question {
    direction: &'static str,
    /// Encode: the code points.
    code_points: Option<Vec<u32>>,
    /// Encode: the Appendix A flags, when the question passes them.
    flags: Option<Vec<bool>>,
    /// Decode: the bytes.
    bytes: Option<Vec<u8>>,
    /// The question, written compactly.
    text: String,
}

fn question(request: &Request) -> Question {
    match request {
        Request::Encode { code_points, flags } => Question {
            direction: "encode",
            code_points: Some(code_points.clone()),
            flags: flags.clone(),
            bytes: None,
            text: request.to_string(),
        },
        Request::Decode(bytes) => Question {
            direction: "decode",
            code_points: None,
            flags: None,
            bytes: Some(bytes.clone()),
            text: request.to_string(),
        },
    }
}

/// An expected answer, as data and as text.
#[derive(Serialize)]
struct Answer {
    /// `encoded`, `decoded` or `error`.
    kind: &'static str,
    bytes: Option<Vec<u8>>,
    code_points: Option<Vec<u32>>,
    flags: Option<Vec<bool>>,
    error: Option<String>,
    text: String,
}

fn answer(expected: &Expected) -> Answer {
    let text = describe(&Ok(expected.clone()));
    match expected {
        Expected::Encoded(bytes) => Answer {
            kind: "encoded",
            bytes: Some(bytes.clone()),
            code_points: None,
            flags: None,
            error: None,
            text,
        },
        Expected::Decoded(cps) => Answer {
            kind: "decoded",
            bytes: None,
            code_points: Some(cps.values.clone()),
            flags: Some(cps.flags.clone()),
            error: None,
            text,
        },
        Expected::Error(kind) => Answer {
            kind: "error",
            bytes: None,
            code_points: None,
            flags: None,
            error: Some(kind.to_string()),
            text,
        },
    }
}

#[derive(Serialize)]
struct Vectors {
    cases: usize,
    run: usize,
    passed: usize,
    not_asked: usize,
    known_deviations: usize,
    failed: usize,
    unrun: usize,
    not_asked_reasons: Vec<Reason>,
    results: Vec<VectorJson>,
}

/// The small cases' counts ([`crate::harness::small`]); the ones that
/// failed are named by their causes (`vectors`).
#[derive(Serialize)]
struct SmallCases {
    cases: usize,
    run: usize,
    passed: usize,
    not_asked: usize,
    failed: usize,
    unrun: usize,
    /// Whether those unrun were left out as a sample (a check bounded by
    /// `--seconds` alone), not for want of time.
    sampled: bool,
    not_asked_reasons: Vec<Reason>,
}

#[derive(Serialize)]
struct Reason {
    reason: String,
    count: usize,
}

/// The reasons questions were not asked, with their counts.
fn reasons(skipped: &[super::Skipped]) -> Vec<Reason> {
    skipped
        .iter()
        .map(|s| Reason {
            reason: s.reason.clone(),
            count: s.count,
        })
        .collect()
}

#[derive(Serialize)]
struct VectorJson {
    name: String,
    file: String,
    /// `pass`, `not-asked`, `known-deviation`, `fail` or `unrun`.
    status: &'static str,
    /// The reason (not asked, known deviation) or what was wrong (fail).
    detail: Option<String>,
    /// For a failure: its question and the answer it expects, as data.
    question: Option<Question>,
    expected: Option<Answer>,
    seconds: f64,
    /// For a failure: the index in `causes` of the cause it belongs to.
    cause: Option<usize>,
    /// For a failure: the command that asks its question again.
    reproduce: Option<String>,
}

#[derive(Serialize)]
struct Generated {
    questions: u64,
    identical: u64,
    nonconforming: u64,
    unfinished: u64,
    property_checks: u64,
    property_violations: u64,
    classes: Vec<ClassJson>,
}

#[derive(Serialize)]
struct ClassJson {
    class: &'static str,
    title: String,
    not_asked: u64,
    differing: u64,
    example: Option<String>,
}

#[derive(Serialize)]
struct CauseJson<'a> {
    index: usize,
    direction: &'static str,
    /// The kind, in kebab case (`accepts-invalid`, `wrong-output`, ...).
    kind: String,
    kind_text: &'static str,
    reference: &'a str,
    got: &'a str,
    /// The cause in one line (the same from run to run).
    summary: String,
    question: Question,
    shape: &'a str,
    detail: &'a str,
    original: &'a str,
    count: u64,
    vectors: &'a [String],
    property: Option<&'static str>,
    confirmation: ConfirmationJson<'a>,
    known: bool,
    /// Why it is new although the baseline records its class.
    beside: Option<&'a str>,
    /// What explains it beyond its key, as a baseline records it.
    explanations: &'a [String],
    /// The entry point that answered otherwise (kind `entry-points`).
    entry_point: Option<&'a str>,
    reproduce: String,
    /// Each explanation with the shortest question that showed it and
    /// the line that asks it: a wrong output of several rules is several
    /// defects under one key, each with a reproducer of its own.
    by_rule: Vec<ByRuleJson<'a>>,
    /// For a cause of the sweep of every code point, the code points
    /// (as ranges) and the contexts that showed it; absent for every other.
    #[serde(skip_serializing_if = "Option::is_none")]
    swept: Option<&'a crate::harness::swept::Swept>,
}

/// One rule of a cause ([`crate::harness::causes::Cause::by_rule`]).
#[derive(Serialize)]
struct ByRuleJson<'a> {
    /// The explanation, as in `explanations` (empty: the class alone).
    rule: &'a str,
    /// The shortest question that showed it, as seen (not minimized).
    question: Question,
    /// The command that asks it again (exit status 1 while it differs).
    reproduce: String,
}

#[derive(Serialize)]
struct ConfirmationJson<'a> {
    /// `confirmed`, `flaky` or `unconfirmed`.
    status: &'static str,
    first: Option<&'a str>,
    second: Option<&'a str>,
}

#[derive(Serialize)]
struct Baseline {
    known: Vec<usize>,
    still_there: Vec<BaselineEntry>,
    gone: Vec<BaselineEntry>,
    narrowed: Vec<NarrowedJson>,
    unwitnessed: usize,
}

#[derive(Serialize)]
struct NarrowedJson {
    #[serde(flatten)]
    entry: BaselineEntry,
    passing: Vec<String>,
}

#[derive(Serialize)]
struct BaselineEntry {
    direction: String,
    kind: String,
    reference: String,
    got: String,
    /// The command that shows it again, from its recorded reproducer.
    reproduce: Option<String>,
}

fn kebab<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// A timestamp as RFC 3339, in UTC.
pub fn rfc3339(time: std::time::SystemTime) -> String {
    let since = time
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    chrono::DateTime::from_timestamp(since.as_secs() as i64, since.subsec_nanos())
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The JSON report of `report`.
pub fn report(report: &CheckReport) -> String {
    let caps = &report.capabilities;
    let declaration = Declaration {
        domain: match caps.domain {
            CodePointDomain::U32 => "u32",
            CodePointDomain::U31 => "u31",
            CodePointDomain::UnicodeWithSurrogates => "unicode-with-surrogates",
            CodePointDomain::UnicodeScalar => "unicode",
        },
        errors: match caps.errors {
            ErrorDetail::Kinds => "kinds",
            ErrorDetail::FailureOnly => "failure-only",
        },
        annotations: caps.annotations,
        directions: match caps.directions {
            Directions::Both => "both",
            Directions::EncodeOnly => "encode-only",
            Directions::DecodeOnly => "decode-only",
        },
        max_encode: caps.max_encode_input,
        max_decode: caps.max_decode_input,
        unicode_version: caps.unicode_version.map(|v| v.to_string()),
        name_limits: NameLimits {
            label_code_points: caps.name_limits.label_code_points,
            label_bytes: caps.name_limits.label_bytes,
            name_code_points: caps.name_limits.name_code_points,
            name_bytes: caps.name_limits.name_bytes,
        },
        options: report.declared_options.trim().to_string(),
        text: report.declared.clone(),
    };
    let v = &report.vectors;
    let results: Vec<VectorJson> = report
        .vector_results
        .iter()
        .map(|r| {
            let (status, detail) = match &r.status {
                VectorStatus::Pass => ("pass", None),
                VectorStatus::Skip(why) => ("not-asked", Some(why.clone())),
                VectorStatus::KnownDeviation(why) => ("known-deviation", Some(why.clone())),
                VectorStatus::Fail(detail) => ("fail", Some(detail.clone())),
                VectorStatus::Unrun(_) => ("unrun", None),
            };
            let failed = matches!(r.status, VectorStatus::Fail(_));
            VectorJson {
                name: r.name.clone(),
                file: r.file.clone(),
                status,
                detail,
                question: failed.then(|| question(&r.request)),
                expected: failed.then(|| answer(&r.expected)),
                seconds: r.seconds,
                cause: failed.then(|| report.cause_of_vector(&r.name)).flatten(),
                reproduce: failed.then(|| report.repro_of_request(&r.request)),
            }
        })
        .collect();
    let s = &report.campaign.stats;
    let classes = Class::ALL
        .into_iter()
        .filter_map(|class| {
            let not_asked = s.skipped.get(class.id()).copied().unwrap_or(0);
            let diverged = s.divergences.get(class.id());
            (not_asked > 0 || diverged.is_some()).then(|| ClassJson {
                class: class.id(),
                title: class.entry().title.to_string(),
                not_asked,
                differing: diverged.map_or(0, |d| d.count),
                example: diverged.map(|d| d.example.clone()),
            })
        })
        .collect();
    let causes: Vec<CauseJson> = report
        .campaign
        .causes
        .iter()
        .enumerate()
        .map(|(k, c)| CauseJson {
            index: k,
            direction: c.key.direction,
            kind: kebab(&c.key.kind),
            kind_text: c.key.kind.name(),
            reference: &c.key.reference,
            got: &c.key.got,
            summary: c.key.to_string(),
            question: question(&c.request),
            shape: &c.shape,
            detail: &c.detail,
            original: &c.original,
            count: c.count,
            vectors: &c.vectors,
            property: c.property.map(|p| p.name()),
            confirmation: match &c.confirmation {
                Confirmation::Confirmed => ConfirmationJson {
                    status: "confirmed",
                    first: None,
                    second: None,
                },
                Confirmation::Flaky { first, second } => ConfirmationJson {
                    status: "flaky",
                    first: Some(first),
                    second: Some(second),
                },
                Confirmation::Unconfirmed => ConfirmationJson {
                    status: "unconfirmed",
                    first: None,
                    second: None,
                },
            },
            known: report.known(k),
            beside: c.beside.as_deref(),
            explanations: &c.explanations,
            entry_point: c.entry_point.as_deref(),
            reproduce: report.repro_command(c),
            by_rule: c
                .by_rule
                .iter()
                .map(|(rule, request)| ByRuleJson {
                    rule,
                    question: question(request),
                    reproduce: report.repro_of_rule(c, request),
                })
                .collect(),
            swept: c.swept.as_ref(),
        })
        .collect();
    let mut repro_commands: Vec<String> = causes.iter().map(|c| c.reproduce.clone()).collect();
    for r in &results {
        if let Some(command) = &r.reproduce
            && !repro_commands.contains(command)
        {
            repro_commands.push(command.clone());
        }
    }
    let entry = |e: &crate::harness::baseline::Entry| BaselineEntry {
        direction: e.direction.clone(),
        kind: kebab(&e.kind),
        reference: e.reference.clone(),
        got: e.got.clone(),
        reproduce: report.repro_of_entry(e),
    };
    let json = Report {
        version: VERSION,
        status: report.status().word(),
        interrupted: report.interrupted,
        conforming: report.conforming(),
        verdict: report.verdict(),
        implementation: &report.implementation,
        entry_points: &report.entry_points,
        codec: &report.codec,
        declaration,
        seed: report.seed,
        started: rfc3339(report.started),
        seconds: report.seconds,
        budget_seconds: report.budget_seconds,
        vectors: Vectors {
            cases: v.cases,
            run: v.run,
            passed: v.pass,
            not_asked: v.skipped.iter().map(|s| s.count).sum(),
            known_deviations: v.deviations,
            failed: v.failed,
            unrun: v.unrun,
            not_asked_reasons: reasons(&v.skipped),
            results,
        },
        small_cases: {
            let m = &report.small_cases;
            SmallCases {
                cases: m.cases,
                run: m.run,
                passed: m.pass,
                not_asked: m.skipped.iter().map(|s| s.count).sum(),
                failed: m.failed,
                unrun: m.unrun,
                sampled: m.sampled,
                not_asked_reasons: reasons(&m.skipped),
            }
        },
        generated: Generated {
            questions: s.requests,
            identical: s.same,
            nonconforming: s.nonconformances,
            unfinished: s.unfinished,
            property_checks: s.property_checks,
            property_violations: s.property_violations,
            classes,
        },
        causes,
        baseline: report.baseline.as_ref().map(|b| Baseline {
            known: b.known.clone(),
            still_there: b.still_there.iter().map(entry).collect(),
            gone: b.gone.iter().map(entry).collect(),
            narrowed: b
                .narrowed
                .iter()
                .map(|n| NarrowedJson {
                    entry: entry(&n.entry),
                    passing: n.passing.clone(),
                })
                .collect(),
            unwitnessed: b.unwitnessed,
        }),
        incomplete: &report.incomplete,
        stopped: report.campaign.aborted.as_deref(),
        repro_commands,
        cost: report.cost.as_ref().map(cost_json),
        unicode_classes: s.unicode_classes.as_ref().map(|c| UnicodeClassesJson {
            asked: c.asked,
            total: c.total,
            refused_only: c.refused_only,
            not_asked: c.not_asked.clone(),
        }),
        timings: report
            .timings()
            .into_iter()
            .map(|t| TimingJson {
                phase: t.phase,
                part_of: t.part_of,
                seconds: t.seconds,
            })
            .collect(),
        sweep: report.sweep.as_ref(),
    };
    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
}

/// The JSON report of a check that could not start: `status` `"error"`
/// (or `"interrupted"` when Ctrl-C or SIGTERM stopped it first), with the
/// message; the other fields of a report are absent.
pub fn setup_error_json(spec: &str, message: &str, interrupted: bool) -> String {
    let (status, kind, verdict) = if interrupted {
        (
            "interrupted",
            "interrupted",
            "INTERRUPTED before the check started",
        )
    } else {
        ("error", "setup", "SETUP ERROR")
    };
    let value = serde_json::json!({
        "version": VERSION,
        "status": status,
        "conforming": false,
        "verdict": format!("{verdict}: {message}"),
        "implementation": spec,
        "error": { "kind": kind, "message": message },
    });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}
