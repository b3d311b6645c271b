//! `punycheck repro`: one question asked of an implementation and of the
//! codec's reference, optionally saved as a vector case.

use super::{Outcome, Output, Status, Stop, warn};
use crate::config::Implementation;
use punycheck::codec::Codec;
use punycheck::engines;
use punycheck::harness::compare::{self, Request, Verdict};
use punycheck::harness::vectors::{self, CodePoints};
use punycheck::harness::{cost, properties, regressions};
use punycheck::vocabulary::excerpt;

/// The question, as the command line gives it.
#[derive(Clone, Debug, Default)]
pub struct Question {
    /// `--encode`: code points as `u+XXXX`/`U+XXXX` tokens.
    pub encode: Option<String>,
    /// `--no-flags`: encode without case flags.
    pub no_flags: bool,
    /// `--decode`: text to decode.
    pub decode: Option<String>,
    /// `--decode-hex`: bytes to decode, in hexadecimal.
    pub decode_hex: Option<String>,
}

impl Question {
    /// The request the question asks.
    pub fn request(&self) -> Result<Request, String> {
        match (&self.encode, &self.decode, &self.decode_hex) {
            (Some(tokens), None, None) => {
                let cps = CodePoints::parse(tokens).map_err(|e| e.to_string())?;
                Ok(Request::Encode {
                    flags: (!self.no_flags).then(|| cps.flags.clone()),
                    code_points: cps.values,
                })
            }
            (None, Some(text), None) => Ok(Request::Decode(text.clone().into_bytes())),
            (None, None, Some(hex)) => Ok(Request::Decode(
                vectors::parse_hex(hex).map_err(|e| e.to_string())?,
            )),
            _ => Err("give one of --encode, --decode, --decode-hex".into()),
        }
    }
}

/// Where and how to save the question (`--save`, `--name`, `--provenance`).
#[derive(Clone, Debug, Default)]
pub struct Save {
    /// The vector file.
    pub path: String,
    /// The case's name; `regression-<seconds since 1970>` when `None`.
    pub name: Option<String>,
    /// Where the question comes from.
    pub provenance: Option<String>,
}

/// How `repro` runs.
#[derive(Clone, Debug)]
pub struct ReproSettings {
    /// The codec.
    pub codec: Codec,
    /// What is declared about it.
    pub implementation: Implementation,
    /// The question.
    pub question: Question,
    /// Also check the round-trip and uniqueness properties from it.
    pub properties: bool,
    /// `--slower-than SECONDS`: time the answer instead (twice, each cut
    /// at twice this); exits 1 while both are slower.
    pub slower_than: Option<f64>,
    /// Save the question as a vector case.
    pub save: Option<Save>,
}

/// Asks the question, prints both answers and the verdict, and saves it
/// when asked to; nonconforming while the two disagree.
pub fn run(settings: &ReproSettings, out: &mut Output) -> Outcome {
    let codec = settings.codec;
    let request = settings.question.request()?;
    if let Some(save) = &settings.save {
        // A file that cannot take this codec's cases is refused before
        // anything is asked.
        regressions::File::open(&save.path, codec)?;
    }
    let engine = engines::from_spec(
        &settings.implementation.spec_or_cleanroom(),
        &settings.implementation.options(codec)?,
    )?;
    say!(out, "question:        {request}");
    // A slow cause's reproducer: the time is the finding, asked twice.
    if let Some(budget) = settings.slower_than {
        let budget = std::time::Duration::from_secs_f64(budget);
        let Some(times) = cost::timed_twice(engine.as_ref(), &request, budget) else {
            return Err(Stop::Setup("interrupted".into()));
        };
        let slow = times.iter().all(|&(_, over)| over);
        let said: Vec<String> = times
            .iter()
            .map(|&(t, over)| {
                if over {
                    format!("over the budget ({})", cost::seconds_text(t))
                } else {
                    cost::seconds_text(t)
                }
            })
            .collect();
        say!(
            out,
            "time:            {} (each cut at twice the budget of {} s)",
            said.join(", then "),
            budget.as_secs_f64()
        );
        if slow {
            say!(out, "verdict:         SLOW: over the budget both times");
        } else {
            say!(out, "verdict:         within the budget");
        }
        return Ok(Status::of(!slow));
    }
    let Some(want) = compare::reference_for(codec, &request) else {
        return Err(Stop::Setup(format!(
            "{} cannot answer this question (too long, or not expressible)",
            regressions::reference_name(codec)
        )));
    };
    let (verdict, answer) = compare::judge_answer(engine.as_ref(), &request, &want, true);
    let label = if codec == Codec::Punycode {
        "C reference:"
    } else {
        "reference:"
    };
    say!(out, "{label:<16} {}", compare::describe(&Ok(want)));
    let name = format!("{}:", engine.name());
    match answer {
        Some(answer) => say!(out, "{name:<16} {}", excerpt(&compare::describe(&answer))),
        None => say!(out, "{name:<16} not asked"),
    }
    let mut conforming = match verdict {
        Verdict::Same => {
            say!(out, "verdict:         same");
            true
        }
        Verdict::Unfinished => {
            say!(out, "verdict:         no answer (cancelled)");
            true
        }
        Verdict::Skip { class, reason } => {
            say!(out, "verdict:         not asked ({class}: {reason})");
            true
        }
        Verdict::Divergence { class, detail } => {
            say!(
                out,
                "verdict:         classified difference ({class}: {detail})"
            );
            true
        }
        Verdict::Nonconformance(detail) => {
            say!(out, "verdict:         NONCONFORMING: {detail}");
            false
        }
    };
    if settings.properties {
        let answer = compare::ask(engine.as_ref(), &request);
        match properties::check_all(engine.as_ref(), &request, &answer, true) {
            Some(violation) => {
                say!(
                    out,
                    "property:        BROKEN: {}: {}",
                    violation.property.name(),
                    violation.detail
                );
                conforming = false;
            }
            None => say!(out, "property:        round trip and uniqueness hold"),
        }
    }
    if let Some(save) = &settings.save {
        save_case(codec, save, &request)?;
    }
    Ok(Status::of(conforming))
}

/// Saves one question as a vector case, its expected value computed by the
/// codec's reference. Without a name, the case is named after the time; a
/// name already taken gets a suffix, and a question the file already asks
/// is not saved again.
pub fn save_case(codec: Codec, save: &Save, request: &Request) -> Result<(), Stop> {
    let name = save.name.clone().unwrap_or_else(|| {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        format!("regression-{stamp}")
    });
    let provenance = save
        .provenance
        .clone()
        .unwrap_or_else(|| "Saved with punycheck repro --save".into());
    let path = &save.path;
    let mut file = regressions::File::open(path, codec)?;
    match file.add(&name, request, &provenance)? {
        Some(saved) => {
            file.save()?;
            warn(&format!("saved as case {saved:?} in {path}"));
        }
        None => warn(&format!(
            "{path} already asks this question: not saved again"
        )),
    }
    Ok(())
}
