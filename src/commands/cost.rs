//! `punycheck cost`: the cost probe's full profile of one implementation
//! beside the C reference and the clean-room code (for the label codec,
//! beside its reference): per direction and family, the time of every
//! size, the growth per doubling and the largest size within the budget
//! ([`punycheck::harness::cost`]), and with `--plot` as a log-log SVG. It
//! exits 1 when the implementation has a slow answer, as `check` would
//! report it.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::plot;
use super::{Outcome, Output, Status};
use crate::config::Implementation;
use punycheck::codec::Codec;
use punycheck::engines::{self, Engine, LabelReference};
use punycheck::harness::cost::{self, Bounds, Probe, Series};

/// `cost` as the command line gives it.
#[derive(Clone, Debug)]
pub struct CostSettings {
    /// The codec asked (`--codec`, with the label codec's profile).
    pub codec: Codec,
    /// The declaration options and `--timeout`.
    pub implementation: Implementation,
    /// `--cost-budget` and `--cost-max`.
    pub bounds: Bounds,
    /// `--seconds`: the whole run, the yardsticks' profiles included.
    pub seconds: f64,
    /// `--plot FILE`: the profiles as a log-log SVG.
    pub plot: Option<String>,
}

/// Runs `cost`.
pub fn run(settings: &CostSettings, out: &mut Output) -> Outcome {
    if let Some(path) = &settings.plot {
        punycheck::harness::regressions::check_writable(path)?;
    }
    if !cost::probes(settings.codec) {
        return Err(format!(
            "the cost probe asks Punycode and the label and domain codecs, not {}",
            settings.codec
        )
        .into());
    }
    let engine = engines::from_spec(
        &settings.implementation.spec_or_cleanroom(settings.codec),
        &settings.implementation.options(settings.codec)?,
    )?;
    let start = Instant::now();
    let total = Duration::from_secs_f64(settings.seconds);
    // The implementation first, with half the time; the yardsticks share
    // the rest.
    let profile_of = |engine: &dyn Engine, share: f64| {
        let now = Instant::now();
        let left = total.saturating_sub(now - start);
        cost::probe_all(
            engine,
            &cost::Settings {
                budget: settings.bounds.budget,
                max: settings.bounds.max,
                until: now + left.mul_f64(share),
            },
        )
    };
    let mine = profile_of(engine.as_ref(), 0.5);
    // The yardsticks: the C reference and the clean-room code, or the label
    // codec's reference under the same profile.
    let yardsticks: Vec<(&str, Probe)> = match settings.codec.label_profile() {
        Some(profile) => vec![("label-ref", profile_of(&LabelReference { profile }, 1.0))],
        None => vec![
            ("rfc-c", profile_of(&engines::RfcC, 0.5)),
            ("cleanroom", profile_of(&engines::CleanRoom, 1.0)),
        ],
    };
    let profiles: Vec<(&str, &Probe)> = std::iter::once((engine.name(), &mine))
        .chain(yardsticks.iter().map(|(name, probe)| (*name, probe)))
        .collect();
    say!(
        out,
        "punycheck cost {} (budget {} s, sizes from {} to {})",
        settings.implementation.spec_or_cleanroom(settings.codec),
        settings.bounds.budget.as_secs_f64(),
        cost::FIRST_SIZE,
        settings.bounds.max
    );
    for direction in [cost::Direction::Encode, cost::Direction::Decode] {
        let rows = table(direction, &profiles);
        if !rows.is_empty() {
            say!(out);
            say!(out, "{} ({}):", direction.name(), cost::unit(direction));
            for row in rows {
                say!(out, "{row}");
            }
        }
    }
    for slow in &mine.slow {
        say!(out);
        say!(out, "SLOW: {}", slow.detail(settings.bounds.budget));
    }
    if let Some(path) = &settings.plot {
        let svg = plot::log_log_svg(
            &format!(
                "punycheck cost {}: seconds per answer against input size",
                settings.implementation.spec_or_cleanroom(settings.codec)
            ),
            &panels(settings.codec, &profiles, settings.bounds.max),
        )?;
        std::fs::write(path, svg).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(Status::of(mine.slow.is_empty()))
}

/// One panel per family (a row) and direction (encode left, decode
/// right), a line per profile.
fn panels(codec: Codec, profiles: &[(&str, &Probe)], max: usize) -> Vec<plot::Panel> {
    let mut panels = Vec::new();
    for family in cost::families_for(codec) {
        for direction in [cost::Direction::Encode, cost::Direction::Decode] {
            let lines = profiles
                .iter()
                .enumerate()
                .filter_map(|(k, (name, probe))| {
                    let series = probe
                        .series
                        .iter()
                        .find(|s| s.family == family && s.direction == direction)?;
                    let points = series
                        .points
                        .iter()
                        .map(|p| (p.size as f64, p.seconds))
                        .collect();
                    Some((k, name.to_string(), points))
                })
                .collect();
            panels.push(plot::Panel {
                caption: format!("{}, {}", direction.name(), family.name()),
                x_desc: format!("input size ({})", cost::unit(direction)),
                y_desc: "seconds per answer".into(),
                x_range: plot::bounds(
                    [cost::FIRST_SIZE as f64, max as f64].into_iter(),
                    (64.0, 65536.0),
                ),
                lines,
            });
        }
    }
    panels
}

/// The lines of one direction: per family, each profile's times by size,
/// its growth, and what ended it.
fn table(direction: cost::Direction, profiles: &[(&str, &Probe)]) -> Vec<String> {
    let mut lines = Vec::new();
    // Every family any profile has a series of, in the order probed.
    for family in cost::Family::ALL
        .into_iter()
        .chain(cost::Family::NAMES)
        .chain(cost::Family::MANY_LABELS)
    {
        let of = |probe: &Probe| -> Option<Series> {
            probe
                .series
                .iter()
                .find(|s| s.family == family && s.direction == direction)
                .cloned()
        };
        if profiles.iter().all(|(_, p)| of(p).is_none()) {
            continue;
        }
        lines.push(format!("  {}:", family.name()));
        for (name, probe) in profiles {
            let Some(series) = of(probe) else { continue };
            let mut line = format!("    {name:<12}");
            for point in &series.points {
                let _ = write!(
                    line,
                    " {}:{}",
                    point.size,
                    cost::seconds_text(point.seconds)
                );
            }
            if let Some(growth) = series.growth() {
                let _ = write!(line, "; {}", cost::growth_words(growth));
            }
            let end = match series.end {
                cost::End::Max => String::new(),
                cost::End::DeclaredLimit => "; then its declared limit".into(),
                cost::End::Refused(n) => format!("; refused {n}"),
                cost::End::Extrapolated(n) => format!("; extrapolated from {n}"),
                cost::End::OutOfTime => "; out of time".into(),
            };
            line += &end;
            if let Some(at) = series.at_limit() {
                let _ = write!(
                    line,
                    "; about {} at {}",
                    cost::seconds_text(at),
                    series.verdict_limit()
                );
            }
            lines.push(line);
        }
    }
    lines
}
