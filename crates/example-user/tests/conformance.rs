//! This crate's Punycode checked by punycheck, as any crate's tests can:
//! two functions, what they accept, and the whole check.

use std::time::Duration;

use punycheck::engines::{Engine, Functions, Refusal};
use punycheck::harness::check::{CheckSettings, check};
use punycheck::harness::cost::Bounds;

/// This crate's two functions, declared: text in and out (Unicode scalar
/// values only), one error for every failure, no case annotations.
fn this_crate() -> Functions {
    Functions::unicode(
        "punycheck-example-user",
        |text| punycheck_example_user::encode(text).ok_or(Refusal::Failed),
        |text| punycheck_example_user::decode(text).ok_or(Refusal::Failed),
    )
}

/// A bounded check: 300 questions, with the time only a ceiling, and the
/// cost probe up to 4,096 code points (the `idna` crate's encoder follows
/// RFC 3492's quadratic algorithm and is slow from about 16,384).
fn settings() -> CheckSettings {
    let mut settings = CheckSettings::new(Duration::from_secs(900), 1);
    settings.cases = Some(300);
    settings.cost = Some(Bounds {
        max: 4096,
        ..Bounds::default()
    });
    settings
}

#[test]
fn this_crate_conforms_to_rfc_3492() {
    let report = check(&this_crate(), &settings()).expect("the check runs");
    assert!(report.conforming(), "{}", report.to_text());
}

#[test]
fn a_planted_bug_in_this_crate_would_be_found() {
    // The same functions with the first non-ASCII code point of every
    // decoding replaced by `?`: what a regression in this crate would look
    // like to its tests.
    let broken = Functions::unicode(
        "punycheck-example-user, broken",
        |text| punycheck_example_user::encode(text).ok_or(Refusal::Failed),
        |text| {
            punycheck_example_user::decode(text)
                .map(|decoded| decoded.replacen(|c: char| !c.is_ascii(), "?", 1))
                .ok_or(Refusal::Failed)
        },
    );
    assert!(broken.capabilities().directions.encodes());
    let report = check(&broken, &settings()).expect("the check runs");
    assert!(!report.conforming(), "{}", report.to_text());
}
