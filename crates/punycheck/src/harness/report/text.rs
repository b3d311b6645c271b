//! The readable report of a check: its causes first, each with its
//! reproducer, then what was run, skipped and classified, and the verdict
//! line last.

use super::{CheckReport, CostReport, plural};
use crate::harness::causes::{Cause, Confirmation, Kind};
use crate::harness::classes::Class;
use crate::harness::cost;
use std::fmt::Write as _;

impl CheckReport {
    /// The readable report.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let s = &self.campaign.stats;
        let _ = writeln!(out, "punycheck check {}", self.implementation);
        let _ = writeln!(out, "  declared: {}", self.declared);
        if !self.entry_points.is_empty() {
            let _ = writeln!(
                out,
                "  entry points beside it (asked every question, to answer as it does): {}",
                self.entry_points.join(", ")
            );
        }
        let _ = writeln!(
            out,
            "  seed {}, {:.1} s of {:.1} s",
            self.seed, self.seconds, self.budget_seconds
        );
        let v = &self.vectors;
        let m = &self.small_cases;
        if let Some(sweep) = &self.sweep {
            out += &sweep_text(sweep, s);
        } else {
            let _ = writeln!(
                out,
                "\nvectors: {} of {} run: {} passed, {} not asked, {} known deviations, {} failed",
                v.run,
                v.cases,
                v.pass,
                v.skipped.iter().map(|s| s.count).sum::<usize>(),
                v.deviations,
                v.failed
            );
            if m.cases > 0 {
                let _ = writeln!(
                    out,
                    "small cases (every byte in each place, every code point below 0x100): {} of {} run{}: {} passed, {} not asked, {} failed",
                    m.run,
                    m.cases,
                    if m.sampled {
                        " (a sample in telling order, in their share of --seconds; --cases asks all)"
                    } else {
                        ""
                    },
                    m.pass,
                    m.skipped.iter().map(|s| s.count).sum::<usize>(),
                    m.failed
                );
            }
            let _ = writeln!(
                out,
                "generated: {} questions, {} identical, {} nonconforming",
                s.requests, s.same, s.nonconformances
            );
        }
        if let Some(classes) = &s.unicode_classes {
            let _ = writeln!(out, "{}", classes.line());
        }
        if s.property_checks > 0 {
            let mut properties = if self.codec == "domain" {
                "round trip, uniqueness, equivalent spellings".to_string()
            } else {
                "round trip, uniqueness".to_string()
            };
            if !self.entry_points.is_empty() {
                properties += ", entry points agree";
            }
            let _ = writeln!(
                out,
                "properties ({properties}): {} checks, {} violations",
                s.property_checks, s.property_violations
            );
        }
        if let Some(cost) = &self.cost {
            let speed = cost
                .machine_factor()
                .map(|f| format!("; the budget is the reference machine's: this one ran x{f:.2}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "cost (answers within {} s, inputs up to {}{speed}):",
                cost.bounds.budget.as_secs_f64(),
                cost.bounds.max
            );
            for line in cost.lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        // The causes first: they are what a reader of a failed gate wants.
        if !self.campaign.causes.is_empty() {
            let _ = writeln!(
                out,
                "\ncauses ({}), most severe first:",
                self.campaign.causes.len()
            );
            for (k, cause) in self.campaign.causes.iter().enumerate() {
                out += &self.cause_text(k + 1, cause);
            }
        }
        if let Some(b) = &self.baseline {
            for entry in &b.still_there {
                let _ = writeln!(
                    out,
                    "  baseline cause not met by this run, its reproducer still shows it: {}: {} (reference: {}; implementation: {})",
                    entry.direction, entry.kind, entry.reference, entry.got
                );
            }
            if b.unwitnessed > 0 {
                let _ = writeln!(
                    out,
                    "  the baseline records {} cause{} by class alone (written before witnesses were recorded): a new bug of such a class is taken for the known one until it is recorded again with --write-baseline",
                    b.unwitnessed,
                    plural(b.unwitnessed as u64)
                );
            }
            for entry in &b.gone {
                let _ = writeln!(
                    out,
                    "  FIXED: baseline cause no longer reproduces (remove it from the baseline): {}: {} (reference: {}; implementation: {})",
                    entry.direction, entry.kind, entry.reference, entry.got
                );
            }
            for n in &b.narrowed {
                let (shown, more) = (
                    &n.passing[..n.passing.len().min(8)],
                    n.passing.len().saturating_sub(8),
                );
                let more = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "  NARROWED: baseline cause no longer shown by its recorded witnesses {}{more}, which now pass (record the baseline again): {}: {} (reference: {}; implementation: {})",
                    shown.join(", "),
                    n.entry.direction,
                    n.entry.kind,
                    n.entry.reference,
                    n.entry.got
                );
            }
        }
        let mut classified = String::new();
        for class in Class::ALL {
            let skipped = s.skipped.get(class.id()).copied().unwrap_or(0);
            let diverged = s.divergences.get(class.id());
            if skipped == 0 && diverged.is_none() {
                continue;
            }
            let _ = write!(classified, "  {}: {}", class.id(), class.entry().title);
            if skipped > 0 {
                let _ = write!(classified, "; {skipped} not asked");
            }
            if let Some(d) = diverged {
                let _ = write!(
                    classified,
                    "; {} differing answers, e.g. {}",
                    d.count, d.example
                );
            }
            classified.push('\n');
        }
        for skipped in &v.skipped {
            let _ = writeln!(
                classified,
                "  vectors not asked ({}): {}",
                skipped.count, skipped.reason
            );
        }
        for skipped in &m.skipped {
            let _ = writeln!(
                classified,
                "  small cases not asked ({}): {}",
                skipped.count, skipped.reason
            );
        }
        if !classified.is_empty() {
            let _ = write!(
                out,
                "\nnot asked or classified (not failures):\n{classified}"
            );
        }
        if !self.incomplete.is_empty() {
            let _ = writeln!(out, "\nincomplete:");
            for line in &self.incomplete {
                let _ = writeln!(out, "  {line}");
            }
        }
        if let Some(why) = &self.campaign.aborted {
            let _ = writeln!(out, "\nstopped asking: {why}");
        }
        let _ = writeln!(out, "\n{}", self.verdict());
        out
    }

    fn cause_text(&self, number: usize, cause: &Cause) -> String {
        let mut out = String::new();
        let known = if self.known(number - 1) {
            " [known: in the baseline]"
        } else {
            ""
        };
        let _ = writeln!(out, "  {number}. {}{known}", cause.key);
        if let Some(beside) = &cause.beside {
            let _ = writeln!(out, "     NEW: {beside}");
        }
        if let Some(swept) = &cause.swept {
            let _ = writeln!(
                out,
                "     code points ({} in {} range{}): {}",
                swept.code_points,
                swept.ranges.ranges().len(),
                plural(swept.ranges.ranges().len() as u64),
                swept.ranges
            );
            let _ = writeln!(out, "     in contexts: {}", swept.contexts.join(", "));
        }
        let _ = writeln!(out, "     input: {} ({})", cause.input, cause.shape);
        let _ = writeln!(out, "     {}", cause.detail);
        let generated = cause.count - cause.vectors.len() as u64;
        let mut seen = format!("seen {} time{}", cause.count, plural(cause.count));
        if !cause.vectors.is_empty() {
            // A defect met by hundreds of small cases is named by a few.
            const SHOWN: usize = 8;
            let _ = write!(
                seen,
                ": vectors {}",
                cause.vectors[..cause.vectors.len().min(SHOWN)].join(", ")
            );
            if cause.vectors.len() > SHOWN {
                let _ = write!(seen, " and {} more", cause.vectors.len() - SHOWN);
            }
            if generated > 0 {
                let _ = write!(seen, "; {generated} generated");
            }
        }
        let _ = writeln!(out, "     {seen}");
        // A check run from Rust code has no command that replays it: the
        // input above is the question to ask the function again.
        if !self.repro_prefix.is_empty() {
            let _ = writeln!(out, "     reproduce: {}", self.repro_command(cause));
            // A new wrong output departing from the reference by several
            // rules is several defects under one key: each rule's shortest
            // question is a reproducer of its own.
            if known.is_empty() && cause.key.kind == Kind::WrongOutput && cause.by_rule.len() > 1 {
                let _ = writeln!(
                    out,
                    "     by rule ({}), each its shortest question:",
                    cause.by_rule.len()
                );
                for (rule, request) in &cause.by_rule {
                    let rule = if rule.is_empty() {
                        "the class alone"
                    } else {
                        rule
                    };
                    let _ = writeln!(
                        out,
                        "       {rule}: reproduce: {}",
                        self.repro_of_rule(cause, request)
                    );
                }
            }
        }
        match &cause.confirmation {
            Confirmation::Confirmed => {}
            Confirmation::Flaky { first, second } => {
                let _ = writeln!(
                    out,
                    "     FLAKY: asked again, it answered differently: first {first}, then {second}"
                );
            }
            Confirmation::Unconfirmed if self.interrupted => {
                let _ = writeln!(out, "     (not asked again: the check was interrupted)");
            }
            Confirmation::Unconfirmed => {
                let _ = writeln!(out, "     (not asked again: no time was left)");
            }
        }
        if cause.original != cause.input {
            let _ = writeln!(out, "     (minimized from {})", cause.original);
        }
        out
    }
}

/// The sweep's lines: what it asked, in which contexts, and what it
/// found.
fn sweep_text(
    sweep: &crate::harness::swept::Summary,
    s: &crate::harness::campaign::Stats,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nsweep of every code point in {}: {} code points asked ({} not asked, outside the declaration or the codec; {} not reached), each in {} contexts ({}), both ways",
        sweep.span,
        sweep.code_points,
        sweep.outside,
        sweep.not_reached,
        sweep.contexts.len(),
        sweep.contexts.join(", ")
    );
    let _ = writeln!(
        out,
        "  {} questions ({} ToASCII, {} ToUnicode): {} identical, {} classified, {} nonconforming",
        sweep.encode + sweep.decode,
        sweep.encode,
        sweep.decode,
        s.same,
        s.divergences.values().map(|d| d.count).sum::<u64>(),
        s.nonconformances
    );
    out
}

impl CostReport {
    /// One line per direction: the CPU time of every family at its limit
    /// (measured or extrapolated), the steepest growth, the peak memory,
    /// the families near the budget (information, not a cause), and what
    /// stopped a family early.
    pub fn lines(&self) -> Vec<String> {
        let budget = self.bounds.budget;
        let mut lines = Vec::new();
        for direction in [cost::Direction::Encode, cost::Direction::Decode] {
            let series: Vec<&cost::Series> = self
                .series
                .iter()
                .filter(|s| s.direction == direction)
                .collect();
            if series.is_empty() {
                continue;
            }
            let mut parts = Vec::new();
            let measured = series.iter().filter(|s| !s.points.is_empty()).count();
            let within = series
                .iter()
                .filter(|s| !s.points.is_empty() && s.verdict(budget) == cost::Verdict::Within)
                .count();
            let limit = series.iter().map(|s| s.limit).max().unwrap_or(0);
            if measured == 0 {
                parts.push("no family measured".to_string());
            } else {
                parts.push(format!(
                    "{within} of {measured} families measured within a third of the budget at their limit ({limit} {}; CPU time)",
                    cost::unit(direction)
                ));
            }
            if let Some((growth, family)) = series
                .iter()
                .filter_map(|s| s.growth().map(|g| (g, s.family)))
                .max_by(|a, b| a.0.total_cmp(&b.0))
            {
                parts.push(format!(
                    "steepest {} ({})",
                    cost::growth_words(growth),
                    family.name()
                ));
            }
            if let Some(peak) = series.iter().filter_map(|s| s.peak_memory()).max() {
                let growth = series
                    .iter()
                    .filter_map(|s| s.memory_growth())
                    .max_by(f64::total_cmp)
                    .map(|g| format!(", growing x{g:.1} per doubling at most"))
                    .unwrap_or_default();
                parts.push(format!("peak memory {} MB{growth}", peak >> 20));
            }
            for s in &series {
                let why = match (s.verdict(budget), &s.end) {
                    (cost::Verdict::Slow, _) => "slow: a cause".to_string(),
                    (cost::Verdict::Near, _) => format!(
                        "near the budget (about {} at {}; not a cause)",
                        s.at_limit().map_or("?".into(), cost::seconds_text),
                        s.verdict_limit()
                    ),
                    (_, cost::End::Max | cost::End::Extrapolated(_)) => continue,
                    (_, cost::End::DeclaredLimit) => "stopped by its declared limit".to_string(),
                    (_, cost::End::Refused(n)) => format!("stopped: refused at {n}"),
                    (_, cost::End::OutOfTime) => "stopped: out of time".to_string(),
                };
                parts.push(format!("{} {why}", s.family.name()));
            }
            lines.push(format!("{}: {}", direction.name(), parts.join("; ")));
        }
        lines
    }
}
