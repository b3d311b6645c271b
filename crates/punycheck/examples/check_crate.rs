//! Checks a Punycode crate from crates.io, `punycode` 0.4.1, from Rust
//! code: two functions, what they support, and punycheck's whole check.
//! The same few lines work in a crate's own `#[test]`.
//!
//! ```sh
//! cargo run --release --example check_crate            # 20 s
//! cargo run --release --example check_crate -- 60      # or any number of seconds
//! ```
//!
//! It exits 1 while the crate does not conform: version 0.4.1 takes a
//! leading `-` for the delimiter, has no overflow check on `delta += 1`,
//! and refuses valid input of more than 3,175 code points (see
//! adapters/FINDINGS.md, section 13, for the lines of its source).

use std::process::ExitCode;
use std::time::Duration;

use punycheck::engines::{Functions, Refusal};
use punycheck::harness::check::{CheckSettings, check};

fn main() -> ExitCode {
    let seconds: f64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 20.0,
        Some(Ok(s)) if s > 0.0 && s < 1e6 => s,
        Some(_) => {
            eprintln!("usage: check_crate [SECONDS]");
            return ExitCode::from(2);
        }
    };
    // &str in, String out, Unicode scalar values only, `Err(())` for every
    // failure, no annotations: what `Functions::unicode` declares.
    let crate_under_test = Functions::unicode(
        "punycode 0.4.1",
        |text| punycode::encode(text).map_err(|()| Refusal::Failed),
        |text| punycode::decode(text).map_err(|()| Refusal::Failed),
    );
    let settings = CheckSettings::new(Duration::from_secs_f64(seconds), 3492);
    let report = match check(&crate_under_test, &settings) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("check_crate: {e}");
            return ExitCode::from(2);
        }
    };
    print!("{}", report.to_text());
    if report.conforming() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
