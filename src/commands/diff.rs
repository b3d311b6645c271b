//! `punycheck diff`: implementations asked the same generated questions as
//! the reference, every difference classified.

use std::time::Duration;

use super::progress::{Progress, View};
use super::{Outcome, Output, Status, chosen_seed, codec_arg};
use crate::config::Implementation;
use punycheck::codec::Codec;
use punycheck::engines::{self, Engine};
use punycheck::harness::campaign::{self, Settings};
use punycheck::harness::classes;

/// How `diff` runs.
#[derive(Clone, Debug)]
pub struct DiffSettings {
    /// The codec.
    pub codec: Codec,
    /// The implementations, as `--impl` names them.
    pub specs: Vec<String>,
    /// The generator's seed (chosen and printed when `None`).
    pub seed: Option<u64>,
    /// How many questions (10,000 when neither this nor `seconds` is given).
    pub cases: Option<u64>,
    /// Or how long to ask, checked by the caller.
    pub seconds: Option<f64>,
    /// What is declared about every implementation.
    pub implementation: Implementation,
}

/// Runs `diff` and prints what each implementation answered.
pub fn run(settings: &DiffSettings, out: &mut Output) -> Outcome {
    let codec = settings.codec;
    let options = settings.implementation.options(codec)?;
    let engines = settings
        .specs
        .iter()
        .map(|s| engines::from_spec(s, &options))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = chosen_seed(settings.seed);
    let time = settings.seconds.map(Duration::from_secs_f64);
    let cases = settings
        .cases
        .or(if time.is_none() { Some(10_000) } else { None });
    let campaign_settings = Settings {
        seed,
        cases,
        time,
        properties: false,
        max_findings: 5,
        fail_fast: false,
    };
    let refs: Vec<&dyn Engine> = engines.iter().map(|e| e.as_ref()).collect();
    let mut progress = Progress::stderr(true);
    progress.show(&View::new("generated questions", 0, cases));
    let outcomes = campaign::run(&refs, campaign_settings, &mut |n| {
        progress.show(&View::new("generated questions", n, cases))
    });
    progress.finish();
    let reference = engines::reference_for(codec).map_or("none".into(), |e| e.name().to_string());
    say!(
        out,
        "punycheck diff --codec {codec}, seed {seed}: every implementation against the reference ({reference})\n"
    );
    let mut clean = true;
    for outcome in &outcomes {
        let s = &outcome.stats;
        say!(
            out,
            "{}: {} requests, {} identical, {} nonconforming",
            outcome.implementation,
            s.requests,
            s.same,
            s.nonconformances
        );
        for class in classes::Class::ALL {
            let skipped = s.skipped.get(class.id()).copied().unwrap_or(0);
            if skipped > 0 {
                say!(
                    out,
                    "  {}: {skipped} not asked ({})",
                    class.id(),
                    class.entry().title
                );
            }
            if let Some(d) = s.divergences.get(class.id()) {
                say!(
                    out,
                    "  {}: {} classified differences ({}), e.g. {}",
                    class.id(),
                    d.count,
                    class.entry().title,
                    d.example
                );
            }
        }
        for cause in &outcome.causes {
            say!(
                out,
                "  CAUSE {}\n    input: {} ({})\n    {}\n    seen {} times\n    reproduce: punycheck repro{} --impl {}{} {}{}",
                cause.key,
                cause.input,
                cause.shape,
                cause.detail,
                cause.count,
                codec_arg(codec),
                shell_words::quote(&outcome.implementation),
                settings.implementation.printed(),
                cause.request.repro_args(),
                if cause.property.is_some() {
                    " --properties"
                } else {
                    ""
                }
            );
        }
        if let Some(why) = &outcome.aborted {
            say!(out, "  STOPPED: {why}");
        }
        clean &= outcome.conforming();
    }
    Ok(Status::of(clean))
}
