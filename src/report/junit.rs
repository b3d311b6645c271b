//! The JUnit XML report of `check`, in the shape the common JUnit schemas
//! (Jenkins' and Ant's) and CI systems accept: `<testsuites>` holding one
//! `<testsuite>` with `name`, `tests`, `failures`, `errors`, `skipped`,
//! `time`, `timestamp` and `hostname`; each `<testcase>` with `name`,
//! `classname` and `time`; each `<failure>` and `<error>` with `message`
//! and `type`.
//!
//! One test case per vector (named by the vector, classed by its file),
//! one per cause (named by the cause, which is the same from run to run),
//! one for the generated questions, one for the properties and one for the
//! time: so the names and their number depend on the vector files and on
//! what is found, never on the run.

use std::time::Duration;

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use quick_xml::events::{BytesStart, Event};

use punycheck::harness::report::json::rfc3339;
use punycheck::harness::report::{CheckReport, VectorStatus};
use punycheck::vocabulary::excerpt;

/// The class of the test cases about the check as a whole.
const CLASSNAME: &str = "punycheck.check";

fn seconds(s: f64) -> Duration {
    Duration::try_from_secs_f64(s).unwrap_or_default()
}

fn failure(kind: NonSuccessKind, ty: &str, message: &str, description: &str) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(kind);
    status.set_message(message.to_string());
    status.set_type(ty.to_string());
    if !description.is_empty() {
        status.set_description(description.to_string());
    }
    status
}

fn skipped(message: &str) -> TestCaseStatus {
    let mut status = TestCaseStatus::skipped();
    status.set_message(message.to_string());
    status
}

fn case(name: String, classname: &str, status: TestCaseStatus, time: f64) -> TestCase {
    let mut case = TestCase::new(name, status);
    case.set_classname(classname.to_string());
    case.set_time(seconds(time));
    case
}

/// The machine's name, for the suite's `hostname`.
fn hostname() -> String {
    let mut buffer = [0u8; 256];
    // SAFETY: gethostname writes at most `buffer.len()` bytes into the
    // buffer, which lives through the call.
    let status = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) };
    if status != 0 {
        return "localhost".into();
    }
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    String::from_utf8_lossy(&buffer[..end]).into_owned()
}

/// The suite of a check of `spec`, without its test cases.
fn suite(spec: &str) -> TestSuite {
    let mut suite = TestSuite::new(format!("punycheck check {spec}"));
    suite.extra.insert("hostname".into(), hostname().into());
    suite
}

/// The document: `suite` with `cases`, inside `<testsuites>`.
fn document(
    mut suite: TestSuite,
    cases: Vec<TestCase>,
    started: std::time::SystemTime,
    time: f64,
) -> String {
    let timestamp = chrono::DateTime::parse_from_rfc3339(&rfc3339(started)).ok();
    suite.add_test_cases(cases);
    suite.set_time(seconds(time));
    let mut report = quick_junit::Report::new("punycheck");
    report.set_time(seconds(time));
    if let Some(timestamp) = timestamp {
        suite.set_timestamp(timestamp);
        report.set_timestamp(timestamp);
    }
    report.add_test_suite(suite);
    let xml = report.to_string().unwrap_or_default();
    without_skipped_on_testsuites(&xml).unwrap_or(xml)
}

/// The Jenkins schema allows no `skipped` on `<testsuites>`, which
/// quick-junit always writes: the document again, without it.
fn without_skipped_on_testsuites(xml: &str) -> Option<String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut writer = quick_xml::Writer::new(Vec::new());
    loop {
        match reader.read_event().ok()? {
            Event::Eof => break,
            Event::Start(start) if start.name().as_ref() == b"testsuites" => {
                let mut tag = BytesStart::new("testsuites");
                for attribute in start.attributes() {
                    let attribute = attribute.ok()?;
                    if attribute.key.as_ref() != b"skipped" {
                        tag.push_attribute(attribute);
                    }
                }
                writer.write_event(Event::Start(tag)).ok()?;
            }
            event => writer.write_event(event).ok()?,
        }
    }
    String::from_utf8(writer.into_inner()).ok()
}

/// The vector file's name without its folder and extension.
fn topic(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.strip_suffix(".toml").unwrap_or(name)
}

/// The JUnit report of `report`.
pub fn report(report: &CheckReport) -> String {
    let mut cases = Vec::new();
    for r in &report.vector_results {
        let classname = format!("punycheck.vectors.{}", topic(&r.file));
        let status = match &r.status {
            VectorStatus::Pass => TestCaseStatus::success(),
            VectorStatus::KnownDeviation(why) => {
                let mut status = TestCaseStatus::success();
                status.set_description(format!("known deviation: {why}"));
                status
            }
            VectorStatus::Skip(why) => skipped(&format!("not asked: {why}")),
            VectorStatus::Unrun(why) => skipped(why),
            VectorStatus::Fail(detail) => {
                let cause = report
                    .cause_of_vector(&r.name)
                    .map(|k| format!("\ncause: {}", report.campaign.causes[k].key))
                    .unwrap_or_default();
                let known = report
                    .cause_of_vector(&r.name)
                    .is_some_and(|k| report.known(k));
                let description = format!(
                    "question: {}\n{detail}{cause}\nreproduce: {}",
                    excerpt(&r.request.to_string()),
                    report.repro_of_request(&r.request)
                );
                if known {
                    let mut status = skipped("known: its cause is recorded in the baseline");
                    status.set_description(description);
                    status
                } else {
                    failure(
                        NonSuccessKind::Failure,
                        "nonconformance",
                        detail,
                        &description,
                    )
                }
            }
        };
        let mut case = case(r.name.clone(), &classname, status, r.seconds);
        // Each vector's question and expected answer in excerpts: a long
        // vector is named by its case, and its reproducer (for a failure)
        // asks it whole, so that a gate's file stays small.
        case.set_system_out(format!(
            "{}\nexpected: {}",
            excerpt(&r.request.to_string()),
            excerpt(&describe(&r.expected))
        ));
        cases.push(case);
    }
    let s = &report.campaign.stats;
    let new_generated = report
        .campaign
        .causes
        .iter()
        .enumerate()
        .filter(|(k, c)| !report.known(*k) && c.count > c.vectors.len() as u64)
        .count();
    let summary = format!(
        "{} questions, {} identical, {} nonconforming; classified: {}",
        s.requests,
        s.same,
        s.nonconformances,
        punycheck::harness::campaign::class_summary(s)
    );
    let status = if new_generated > 0 {
        failure(
            NonSuccessKind::Failure,
            "nonconformance",
            &format!("{new_generated} causes seen in generated questions: see their test cases"),
            &summary,
        )
    } else {
        TestCaseStatus::success()
    };
    let mut generated = case("generated questions".into(), CLASSNAME, status, 0.0);
    generated.set_system_out(summary);
    cases.push(generated);
    // Like every other test case, the properties fail only for a cause the
    // baseline does not record: broken checks whose causes are all known
    // are skipped as known.
    let property_causes = |known: bool| {
        report
            .campaign
            .causes
            .iter()
            .enumerate()
            .filter(|(k, c)| c.property.is_some() && report.known(*k) == known)
            .count()
    };
    let broken = format!(
        "{} of {} property checks broken",
        s.property_violations, s.property_checks
    );
    let properties = if property_causes(false) > 0 {
        failure(
            NonSuccessKind::Failure,
            "nonconformance",
            &format!(
                "{broken}: {} new causes, see their test cases",
                property_causes(false)
            ),
            "",
        )
    } else if s.property_violations > 0 || property_causes(true) > 0 {
        skipped(&format!(
            "known: {broken}, all of them by causes recorded in the baseline"
        ))
    } else {
        TestCaseStatus::success()
    };
    cases.push(case(
        "round trip and uniqueness".into(),
        CLASSNAME,
        properties,
        0.0,
    ));
    for (k, cause) in report.campaign.causes.iter().enumerate() {
        let description = format!(
            "{}\ninput: {}\nreproduce: {}\nseen {} times{}{}",
            cause.detail,
            cause.input,
            report.repro_command(cause),
            cause.count,
            if cause.vectors.is_empty() {
                String::new()
            } else {
                format!(" (vectors {})", cause.vectors.join(", "))
            },
            swept_line(cause)
        );
        let status = if report.known(k) {
            let mut status = skipped("known: recorded in the baseline");
            status.set_description(description);
            status
        } else {
            failure(
                NonSuccessKind::Failure,
                "nonconformance",
                &cause.detail,
                &description,
            )
        };
        cases.push(case(
            format!("cause {}", cause.key),
            "punycheck.causes",
            status,
            0.0,
        ));
    }
    // The baseline's own findings: a recorded cause gone, or narrowed.
    let gone = report.baseline.iter().flat_map(|b| &b.gone).map(|entry| {
        (
            entry,
            "fixed",
            "no longer reproduces: remove it from the baseline".to_string(),
        )
    });
    let narrowed = report.baseline.iter().flat_map(|b| &b.narrowed).map(|n| {
        (
            &n.entry,
            "narrowed",
            format!(
                "its recorded witnesses {} now pass: record the baseline again",
                n.passing.join(", ")
            ),
        )
    });
    for (entry, kind, message) in gone.chain(narrowed) {
        let name = format!(
            "baseline {}: {} (reference: {}; implementation: {})",
            entry.direction, entry.kind, entry.reference, entry.got
        );
        cases.push(case(
            name,
            "punycheck.baseline",
            failure(NonSuccessKind::Failure, kind, &message, ""),
            0.0,
        ));
    }
    // Not everything ran: an error, as the exit status (3, or 130 when
    // interrupted) is one, so that the CI page and the job agree.
    let complete = if report.interrupted {
        failure(
            NonSuccessKind::Error,
            "interrupted",
            &report.verdict(),
            &report.incomplete.join("\n"),
        )
    } else if report.incomplete.is_empty() {
        TestCaseStatus::success()
    } else {
        failure(
            NonSuccessKind::Error,
            "incomplete",
            &report.incomplete.join("; "),
            "",
        )
    };
    cases.push(case(
        "everything ran within --seconds".into(),
        CLASSNAME,
        complete,
        0.0,
    ));
    let mut suite = suite(&report.implementation);
    suite.set_system_out(format!(
        "seed {}, codec {}, declared: {}\n{}",
        report.seed,
        report.codec,
        report.declared,
        report.verdict()
    ));
    document(suite, cases, report.started, report.seconds)
}

fn describe(expected: &punycheck::vocabulary::Expected) -> String {
    punycheck::vocabulary::describe(&Ok(expected.clone()))
}

/// The JUnit report of a check that could not start: one test case,
/// `setup`, in error (of type `setup`, or `interrupted` when Ctrl-C or
/// SIGTERM stopped it first), with the message.
pub fn setup_error_junit(spec: &str, message: &str, interrupted: bool) -> String {
    let kind = if interrupted { "interrupted" } else { "setup" };
    let status = failure(NonSuccessKind::Error, kind, message, "");
    let cases = vec![case("setup".into(), CLASSNAME, status, 0.0)];
    document(suite(spec), cases, std::time::SystemTime::now(), 0.0)
}

/// Where the sweep of every code point met `cause`, as a line of its
/// description: its code points as ranges, and the contexts; nothing for a
/// cause of any other check.
pub(crate) fn swept_line(cause: &punycheck::harness::causes::Cause) -> String {
    cause.swept.as_ref().map_or(String::new(), |swept| {
        format!(
            "\ncode points ({} in {} ranges): {}; in contexts {}",
            swept.code_points,
            swept.ranges.ranges().len(),
            swept.ranges,
            swept.contexts.join(", ")
        )
    })
}
