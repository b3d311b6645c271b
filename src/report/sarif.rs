//! The SARIF 2.1.0 report of `check`, for code-scanning dashboards
//! (GitHub code scanning, and any reader of OASIS SARIF 2.1.0): one run of
//! the tool `punycheck`, one result per cause, the rule being the cause's
//! kind (`crash`, `accepts-invalid`, ... as baselines name them), its
//! level by severity, and its message the cause with its reproducer.
//!
//! - A cause the baseline records is a result with `baselineState`
//!   `unchanged` and an accepted external suppression, so that a
//!   dashboard shows it as known; a new one has
//!   `baselineState` `new`.
//! - A recorded cause that no longer reproduces is a result of the rule
//!   `baseline-gone`, an error: the gate fails on it.
//! - Each result has a `partialFingerprints` entry made of its cause's key
//!   (direction, kind, the reference's and the implementation's answers
//!   in brief), so that the same cause is the same alert from run to run.
//! - A run that did not finish (out of time, interrupted) has
//!   `executionSuccessful` false and says why in a tool notification.
//! - Results are located at the configuration file when one was read
//!   (`punycheck.toml`), since code scanning shows alerts at a file;
//!   otherwise they have no location.

use serde_json::{Value, json};

use punycheck::harness::baseline::Entry;
use punycheck::harness::causes::{Cause, Kind};
use punycheck::harness::report::{self, CheckReport, Status};

/// The `$schema` of the document.
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The SARIF level of a cause's kind: `error` for what breaks the three
/// promises or the process (crashes, hangs, slowness, wrong or broken
/// answers, writes past a buffer, accepted invalid input), `warning` for
/// refusals of valid input and results outside the declared domain, `note`
/// for a failure of the wrong kind.
pub fn level(kind: Kind) -> &'static str {
    match kind {
        Kind::RejectsValid | Kind::OutsideDomain => "warning",
        Kind::WrongErrorKind => "note",
        _ => "error",
    }
}

/// The rule id of a kind: its name in baselines (`accepts-invalid`).
fn rule_id(kind: Kind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| kind.name().to_string())
}

/// A rule of the baseline's own findings: its id, what it says, and the
/// key of its results' fingerprints.
struct BaselineRule {
    id: &'static str,
    description: &'static str,
    fingerprint: &'static str,
}

/// The rule of a stale baseline entry.
const GONE: BaselineRule = BaselineRule {
    id: "baseline-gone",
    description: "a cause the baseline records no longer reproduces",
    fingerprint: "punycheckGone/v1",
};
/// The rule of a recorded cause whose recorded witnesses now pass.
const NARROWED: BaselineRule = BaselineRule {
    id: "baseline-narrowed",
    description: "witnesses of a cause the baseline records now pass",
    fingerprint: "punycheckNarrowed/v1",
};

/// One result of `cause`, number `k` of the report.
fn result(report: &CheckReport, k: usize, cause: &Cause, location: &Option<Value>) -> Value {
    let known = report.known(k);
    let mut text = format!(
        "{}: {}\ninput: {}\nreproduce: {}",
        report.implementation,
        cause.key,
        cause.input,
        report.repro_command(cause)
    );
    if !cause.detail.is_empty() {
        text = format!("{text}\n{}", cause.detail);
    }
    text += &super::junit::swept_line(cause);
    let mut result = json!({
        "ruleId": rule_id(cause.key.kind),
        "level": level(cause.key.kind),
        "message": { "text": text },
        "baselineState": if known { "unchanged" } else { "new" },
        "partialFingerprints": { "punycheckCause/v1": cause.key.to_string() },
        "properties": {
            "direction": cause.key.direction,
            "input": cause.input,
            "reproduce": report.repro_command(cause),
            "seen": cause.count,
            "vectors": cause.vectors,
        },
    });
    if known {
        result["suppressions"] = json!([{
            "kind": "external",
            "status": "accepted",
            "justification": "recorded in the gate's baseline",
        }]);
    }
    if let Some(location) = location {
        result["locations"] = json!([location]);
    }
    result
}

/// The SARIF document of `report`; `config` is the configuration file
/// read, if any, where the results are located.
pub fn report(report: &CheckReport, config: Option<&str>) -> String {
    let location = config.map(|path| {
        json!({
            "physicalLocation": {
                "artifactLocation": { "uri": path },
                "region": { "startLine": 1 },
            }
        })
    });
    let causes = &report.campaign.causes;
    let mut results: Vec<Value> = causes
        .iter()
        .enumerate()
        .map(|(k, cause)| result(report, k, cause, &location))
        .collect();
    let mut kinds: Vec<Kind> = causes.iter().map(|c| c.key.kind).collect();
    kinds.sort();
    kinds.dedup();
    let mut rules: Vec<Value> = kinds
        .iter()
        .map(|&kind| {
            json!({
                "id": rule_id(kind),
                "shortDescription": { "text": kind.name() },
                "defaultConfiguration": { "level": level(kind) },
            })
        })
        .collect();
    if let Some(b) = &report.baseline {
        let gone = b.gone.iter().map(|entry| {
            (
                entry,
                "which no longer reproduces: remove it from the baseline".to_string(),
            )
        });
        let narrowed = b.narrowed.iter().map(|n| {
            (
                &n.entry,
                format!(
                    "which its recorded witnesses {} no longer show: record the baseline again",
                    n.passing.join(", ")
                ),
            )
        });
        let mut push = |rule: BaselineRule, found: Vec<(&Entry, String)>| {
            if found.is_empty() {
                return;
            }
            rules.push(json!({
                "id": rule.id,
                "shortDescription": { "text": rule.description },
                "defaultConfiguration": { "level": "error" },
            }));
            for (entry, said) in found {
                let mut result = json!({
                    "ruleId": rule.id,
                    "level": "error",
                    "message": { "text": format!(
                        "{}: the baseline records {} {} (reference: {}; implementation: {}), {said}",
                        report.implementation, entry.direction, entry.kind, entry.reference, entry.got
                    ) },
                    "partialFingerprints": { (rule.fingerprint): format!(
                        "{}: {} ({}; {})", entry.direction, entry.kind, entry.reference, entry.got
                    ) },
                });
                if let Some(location) = &location {
                    result["locations"] = json!([location]);
                }
                results.push(result);
            }
        };
        push(GONE, gone.collect());
        push(NARROWED, narrowed.collect());
    }
    let status = report.status();
    let mut invocation = json!({
        "executionSuccessful": matches!(status, Status::Conforming | Status::Nonconforming),
        "exitCode": status.code(),
    });
    if !report.incomplete.is_empty() || report.interrupted {
        let mut why = report.incomplete.clone();
        if report.interrupted {
            why.insert(0, "interrupted".into());
        }
        invocation["toolExecutionNotifications"] = json!([{
            "level": "error",
            "message": { "text": format!("{}: {}", report.verdict(), why.join("; ")) },
        }]);
    }
    let document = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "punycheck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            } },
            "invocations": [invocation],
            "results": results,
            "properties": {
                "implementation": report.implementation,
                "codec": report.codec,
                "declared": report.declared,
                "seed": report.seed,
                "verdict": report.verdict(),
            },
        }],
    });
    serde_json::to_string_pretty(&document).unwrap_or_default() + "\n"
}

/// The SARIF document of a check that could not start: no result, and the
/// reason as a tool notification of an unsuccessful invocation.
pub fn setup_error(spec: &str, message: &str, interrupted: bool) -> String {
    // The exit statuses of an interrupted check and of a setup error.
    let exit_code = if interrupted { report::INTERRUPTED } else { 2 };
    let document = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": "punycheck", "version": env!("CARGO_PKG_VERSION") } },
            "invocations": [{
                "executionSuccessful": false,
                "exitCode": exit_code,
                "toolExecutionNotifications": [{
                    "level": "error",
                    "message": { "text": format!("{spec}: {message}") },
                }],
            }],
            "results": [],
        }],
    });
    serde_json::to_string_pretty(&document).unwrap_or_default() + "\n"
}
