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
    /// `--decode-of`: code points whose clean-room encoding is decoded
    /// (behind `xn--` for the label codec).
    pub decode_of: Option<String>,
    /// `--encode-file`: a file of code point tokens to encode.
    pub encode_file: Option<String>,
    /// `--decode-file`: a file of bytes to decode.
    pub decode_file: Option<String>,
}

impl Question {
    /// The request the question asks of `codec`.
    pub fn request(&self, codec: Codec) -> Result<Request, String> {
        let read = |path: &str| std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"));
        if let Some(path) = &self.encode_file {
            let text = String::from_utf8(read(path)?)
                .map_err(|_| format!("{path} is not text (u+XXXX tokens)"))?;
            let question = Question {
                encode: Some(text),
                no_flags: self.no_flags,
                ..Question::default()
            };
            return question.request(codec);
        }
        if let Some(path) = &self.decode_file {
            return Ok(Request::Decode(read(path)?));
        }
        if self.no_flags && self.encode.is_none() {
            return Err("--no-flags goes with --encode or --encode-file".into());
        }
        match (
            &self.encode,
            &self.decode,
            &self.decode_hex,
            &self.decode_of,
        ) {
            (Some(tokens), None, None, None) => {
                let cps = CodePoints::parse(tokens).map_err(|e| e.to_string())?;
                Ok(Request::Encode {
                    flags: (!self.no_flags).then(|| cps.flags.clone()),
                    code_points: cps.values,
                })
            }
            (None, Some(text), None, None) => Ok(Request::Decode(text.clone().into_bytes())),
            (None, None, Some(hex), None) => Ok(Request::Decode(
                vectors::parse_hex(hex).map_err(|e| e.to_string())?,
            )),
            (None, None, None, Some(tokens)) => {
                // A family at a size is the probe's own question (a name
                // of many labels is decoded as itself).
                if let Some((direction, family, n)) = self.family()
                    && let Some((request, _)) = cost::question(codec, family, direction, n)
                {
                    return Ok(request);
                }
                let cps = CodePoints::parse(tokens).map_err(|e| e.to_string())?;
                let mut encoded = punycheck::punycode::encode(&cps.values, None)
                    .map_err(|e| format!("--decode-of: the code points do not encode: {e}"))?;
                if codec.label_profile().is_some() {
                    encoded.splice(0..0, *b"xn--");
                }
                Ok(Request::Decode(encoded))
            }
            _ => Err("give one of --encode, --decode, --decode-hex, --decode-of".into()),
        }
    }

    /// The cost probe's family and size the question names, with its
    /// direction (`--encode 'distinct-shuffled:16384'`, `--decode-of
    /// 'one-run:4096'`): a slow cause's reproducer.
    fn family(&self) -> Option<(cost::Direction, cost::Family, usize)> {
        let (direction, text) = match (&self.encode, &self.decode_of) {
            (Some(text), None) => (cost::Direction::Encode, text),
            (None, Some(text)) => (cost::Direction::Decode, text),
            _ => return None,
        };
        let (name, n) = text.trim().split_once(':')?;
        Some((direction, cost::Family::named(name)?, n.parse().ok()?))
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
    /// `--slower-than SECONDS`: judge the time instead, by the cost
    /// probe's rule with this budget; exits 1 while it is slow.
    pub slower_than: Option<f64>,
    /// `--cost-max N`: with `--slower-than`, the longest input where the
    /// implementation declares no limit.
    pub cost_max: Option<usize>,
    /// Save the question as a vector case.
    pub save: Option<Save>,
}

/// Asks the question, prints both answers and the verdict, and saves it
/// when asked to; nonconforming while the two disagree.
pub fn run(settings: &ReproSettings, out: &mut Output) -> Outcome {
    let codec = settings.codec;
    let request = settings.question.request(codec)?;
    if let Some(save) = &settings.save {
        // A file that cannot take this codec's cases is refused before
        // anything is asked.
        regressions::File::open(&save.path, codec)?;
    }
    let engine = super::engine_of(
        &settings.implementation.spec_or_cleanroom(codec),
        &settings.implementation,
        codec,
    )?;
    // Code points given without an uppercase flag, to an implementation
    // that declares no annotations, are asked without flags: asked with
    // them, it could only answer "not asked".
    let request = match request {
        Request::Encode {
            code_points,
            flags: Some(flags),
        } if !engine.capabilities().annotations && !flags.contains(&true) => Request::Encode {
            code_points,
            flags: None,
        },
        request => request,
    };
    say!(out, "question:        {request}");
    // A slow cause's reproducer: the time is the finding.
    if let Some(budget) = settings.slower_than {
        let budget = std::time::Duration::from_secs_f64(budget);
        let slow = match settings.question.family() {
            Some(named) => slow_by_the_rule(engine.as_ref(), named, budget, settings, out)?,
            None => slow_once(engine.as_ref(), &request, budget, out)?,
        };
        if slow {
            say!(out, "verdict:         SLOW");
        } else {
            say!(out, "verdict:         not slow");
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
    match &answer {
        Some(answer) => say!(out, "{name:<16} {}", excerpt(&compare::describe(answer))),
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
    // Each other entry point asked the same question: they must answer
    // as --impl did.
    if let Some(answer) = answer
        .as_ref()
        .filter(|_| !engine.entry_points().is_empty())
    {
        for other in engine.entry_points() {
            say!(out, "entry point:     {}", other.spec);
            match properties::ask_entry_point(engine.as_ref(), other, &request, answer) {
                Some((theirs, agree)) => {
                    say!(
                        out,
                        "  answered:      {}{}",
                        excerpt(&compare::describe(&theirs)),
                        if agree { "" } else { "  (DIFFERS from --impl)" }
                    );
                    conforming &= agree;
                }
                None => say!(out, "  not asked (what it declares, or no answer in time)"),
            }
        }
    }
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

/// A family named at a size, measured again by the cost probe's rule
/// ([`cost::measure_up_to`]: sizes doubling up to it, the time at the
/// declared limit or `--cost-max` extrapolated along the growth): whether
/// it is slow.
fn slow_by_the_rule(
    engine: &dyn engines::Engine,
    (direction, family, n): (cost::Direction, cost::Family, usize),
    budget: std::time::Duration,
    settings: &ReproSettings,
    out: &mut Output,
) -> Result<bool, Stop> {
    let probe = cost::Settings {
        budget,
        max: settings.cost_max.unwrap_or(cost::DEFAULT_MAX),
        until: std::time::Instant::now() + REPRO_TIME,
    };
    let (series, slow) = cost::measure_up_to(engine, family, direction, &probe, n);
    if engines::process::interrupted() {
        return Err(Stop::Setup("interrupted".into()));
    }
    let sizes: Vec<String> = series
        .points
        .iter()
        .map(|p| format!("{} in {}", p.size, cost::seconds_text(p.seconds)))
        .collect();
    say!(
        out,
        "CPU time:        {} {}: {}",
        direction.name(),
        cost::unit(direction),
        sizes.join(", ")
    );
    if let Some(growth) = series.growth() {
        say!(out, "growth:          {}", cost::growth_words(growth));
    }
    if let Some(at) = series.at_limit() {
        say!(
            out,
            "at its limit:    about {} at {} {} (budget {} s; slow from {} times it with growth faster than linear)",
            cost::seconds_text(at),
            series.verdict_limit(),
            cost::unit(direction),
            budget.as_secs_f64(),
            cost::MARGIN
        );
    }
    if series.verdict(budget) == cost::Verdict::Near {
        say!(out, "near the budget: information, not a cause");
    }
    Ok(slow.is_some())
}

/// Any other question, timed once in CPU time: slow when it took at least
/// [`cost::MARGIN`] times the budget, asked twice.
fn slow_once(
    engine: &dyn engines::Engine,
    request: &Request,
    budget: std::time::Duration,
    out: &mut Output,
) -> Result<bool, Stop> {
    let mut times = Vec::new();
    for _ in 0..2 {
        let (answer, spent) = engines::spent::measure(|| compare::ask(engine, request));
        if matches!(answer, Err(engines::EngineError::Cancelled)) || engines::process::interrupted()
        {
            return Err(Stop::Setup("interrupted".into()));
        }
        times.push(spent.cpu);
    }
    let said: Vec<String> = times
        .iter()
        .map(|t| cost::seconds_text(t.as_secs_f64()))
        .collect();
    say!(
        out,
        "CPU time:        {} (slow from {} times the budget of {} s)",
        said.join(", then "),
        cost::MARGIN,
        budget.as_secs_f64()
    );
    Ok(times
        .iter()
        .all(|t| t.as_secs_f64() >= cost::MARGIN * budget.as_secs_f64()))
}

/// How long a slow cause's reproducer may measure.
const REPRO_TIME: std::time::Duration = std::time::Duration::from_secs(120);
