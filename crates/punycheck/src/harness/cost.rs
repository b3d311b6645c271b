//! The cost probe: inputs that make an implementation slow, the class of
//! CVE-2022-45061 (CPython's IDNA decoder, 70 s on 5,000 characters) and of
//! the caps ICU added after Chrome's fuzzers timed out.
//!
//! RFC 3492's own algorithm is quadratic: its encoder walks the whole input
//! once per distinct code point (section 6.3, the outer loop), and its
//! decoder inserts every code point into an array, moving what follows
//! (section 6.2, "insert n into output at position i"). The clean-room code
//! is O(n log n) (a Fenwick tree on each side), so a yardstick exists.
//!
//! Each [`Family`] of inputs is expensive for one algorithm (its doc says
//! which). Sizes double exactly in code points from [`FIRST_SIZE`] while
//! the question fits the largest size the declaration allows (the
//! declared `--max-encode`/`--max-decode`, else `--cost-max`); a family
//! stops there, at the first size the implementation refuses, when an
//! answer takes half the budget, when the growth says the next would take
//! twice it, or when its share of the time runs out. Decoding is asked the
//! clean-room encodings of the same code points.
//!
//! The label codec is probed with the same families: long U-labels to
//! ToASCII, and long A-labels (`xn--` and the encoding) to ToUnicode, the
//! class of CVE-2022-45061. Where its reference refuses a label too (too
//! long for DNS, or a disallowed code point), the implementation's refusal
//! does not end the family: how long refusing took is the finding.
//!
//! # The same verdict on every machine
//!
//! - What is measured is what the implementation spends: the CPU time of
//!   the process that answers ([`crate::engines::spent`]), never the wall
//!   clock, which a busy machine stretches. Wall-clock time only guards
//!   against a hang ([`hang_guard`]); a question it cuts counts with the
//!   CPU time spent until then, a lower bound.
//! - The budget is the reference machine's CPU time, taken into this
//!   machine's seconds by how fast it runs a fixed workload while the
//!   family is measured ([`super::calibration`], [`Series::budget_here`]);
//!   the times, and the growth read from them, stay as measured.
//! - The verdict is by growth with a margin ([`Series::verdict`]): a family
//!   is slow when it grows faster than linear and its time at its limit,
//!   measured or extrapolated, is at least [`MARGIN`] times the budget; at
//!   most a third of it, it is not; in between it is "near the budget",
//!   information only. A cause is keyed by direction and family, never the
//!   size, and its reproducer names the family and size (`FAMILY:N`).
//! - Growth is read over the last three sizes long enough to say
//!   something, with the first size's time (start-up, channel) taken off;
//!   a long answer is asked twice and the faster kept; a fresh worker's
//!   first answer (its start-up in it) is asked again; fast answers are
//!   timed five times and their median kept.
//! - A slow rating must hold: a family slow but not clearly so
//!   ([`Series::clearly_slow`]) is measured again, up to [`MEASURES`]
//!   times while each measure says slow, and the measure least slow is the
//!   one kept ([`measure_up_to`], which `repro --slower-than` uses too).
//!
//! The C reference and the clean-room code (or the label reference) are
//! timed on the same input, in the same run, as yardsticks.
//!
//! # Size
//!
//! Over 800 lines: the families' questions, the measurement, the verdict
//! rule and the probe are one pipeline whose constants (the margin, the
//! growth floor, the stopping rule) must be read together; a third of the
//! file is the unit tests of the verdict rule.

use std::time::{Duration, Instant};

use super::calibration;
use super::causes::{self, Cause, Confirmation, Key, Kind};
use super::compare::{Request, ask, is_refusal};
use crate::codec::Codec;
use crate::engines::spent::{self, Spent};
use crate::engines::{self, Engine, EngineError, LabelReference};
use crate::vocabulary::Expected;
pub use crate::vocabulary::families::Family;

/// The smallest size asked.
pub const FIRST_SIZE: usize = 64;

/// The default `--cost-max`: the longest input asked, in code points (to
/// encode) or bytes (to decode).
pub const DEFAULT_MAX: usize = 65_536;

/// The largest `--cost-max`: 2^22 code points or bytes.
pub const LARGEST_MAX: usize = 1 << 22;

/// The default `--cost-budget`: an answer slower than this is a finding.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(1);

/// An answer faster than this is timed again, and its median taken.
const REPEAT_BELOW: Duration = Duration::from_millis(20);

/// How many times a fast answer is timed.
const REPEATS: usize = 5;

/// Growth is read only between answers that took at least this long:
/// below it, the clock and the channel's own cost speak, not the algorithm.
const GROWTH_FROM: Duration = Duration::from_micros(500);

/// A direction of the probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Direction {
    /// Encoding the family's code points.
    Encode,
    /// Decoding their (clean-room) encoding.
    Decode,
}

impl Direction {
    /// `encode` or `decode`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Encode => "encode",
            Direction::Decode => "decode",
        }
    }
}

/// Whether the probe asks `codec`: Punycode, the label codec (long
/// labels) and the domain codec (long names); its families and yardsticks
/// are not those of the seed documents' other codecs (AMC-ACE-Z, LACE,
/// UTF-8).
pub fn probes(codec: Codec) -> bool {
    matches!(codec, Codec::Punycode | Codec::Label(_) | Codec::Domain(_))
}

/// The families the probe asks of `codec`: [`Family::ALL`], and for the
/// `domain` codec the work before the split too ([`Family::NAMES`]) and
/// names of many short labels ([`Family::MANY_LABELS`]).
pub fn families_for(codec: Codec) -> Vec<Family> {
    let mut all = Family::ALL.to_vec();
    if codec.is_domain() {
        all.extend(Family::NAMES);
        all.extend(Family::MANY_LABELS);
    }
    all
}

/// The question of `family` at size `n` in `direction` for `codec`, and its
/// size as a limit counts it (code points to encode, bytes to decode).
/// Decoding asks the clean-room encoding of the code points, behind the ACE
/// prefix `xn--` for the label and domain codecs (ToUnicode of a long
/// A-label, the class of CVE-2022-45061); encoding asks the code points
/// (for the label codec, ToASCII of a long U-label; for the domain codec,
/// of a name of that one label, where the work before the split is). A
/// name of many labels ([`Family::is_many_labels`]) is asked as itself
/// both ways: to decode, its text. `None` when the clean-room code cannot
/// encode them (no decoding to ask).
pub fn question(
    codec: Codec,
    family: Family,
    direction: Direction,
    n: usize,
) -> Option<(Request, usize)> {
    let code_points = family.code_points(n);
    match direction {
        Direction::Encode => Some((
            Request::Encode {
                code_points,
                flags: None,
            },
            n,
        )),
        Direction::Decode if family.is_many_labels() => {
            let text: String = code_points
                .iter()
                .filter_map(|&cp| char::from_u32(cp))
                .collect();
            let len = text.len();
            Some((Request::Decode(text.into_bytes()), len))
        }
        Direction::Decode => {
            let mut encoded = crate::punycode::encode(&code_points, None).ok()?;
            if codec.label_profile().is_some() {
                encoded.splice(0..0, *b"xn--");
            }
            let len = encoded.len();
            Some((Request::Decode(encoded), len))
        }
    }
}

/// The question of `family` in `direction` whose size (as [`question`]
/// counts it) is `size`, among the sizes the probe asks, doubling from
/// [`FIRST_SIZE`]; `None` when no size asked is that one.
pub fn question_of_size(
    codec: Codec,
    family: Family,
    direction: Direction,
    size: usize,
) -> Option<Request> {
    let mut n = FIRST_SIZE;
    while n <= LARGEST_MAX {
        let (request, asked) = question(codec, family, direction, n)?;
        if asked == size {
            return Some(request);
        }
        if asked > size {
            return None;
        }
        n *= 2;
    }
    None
}

/// What a check's probe asks: `--cost-budget` and `--cost-max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The budget of CPU time that the verdict's margins are taken from.
    pub budget: Duration,
    /// The longest input asked (code points to encode, bytes to decode),
    /// where the implementation declares no limit of its own.
    pub max: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            budget: DEFAULT_BUDGET,
            max: DEFAULT_MAX,
        }
    }
}

/// How a probe runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The budget of CPU time.
    pub budget: Duration,
    /// The longest input asked (code points to encode, bytes to decode).
    pub max: usize,
    /// When the probe must end.
    pub until: Instant,
}

/// One size of one family, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The size as a limit counts it: code points to encode, bytes to
    /// decode.
    pub size: usize,
    /// The code points of the family at this size (the sizes double in
    /// these, both ways).
    pub code_points: usize,
    /// CPU seconds the answer took ([`crate::engines::spent`]; the median
    /// of several for a fast one), as measured on this machine.
    pub seconds: f64,
    /// Peak resident memory of the answering process during the answer,
    /// in bytes, where it can be read.
    pub peak_memory: Option<u64>,
    /// Whether the answer was cut by the hang guard: `seconds` is then
    /// what it had spent until then, a lower bound.
    pub cut: bool,
    /// How many times slower than the reference machine this one ran
    /// while the answer was timed ([`calibration::factor`]).
    pub factor: f64,
}

/// The median of the `points`' machine factors ([`Point::factor`]);
/// `None` with none.
pub fn median_factor<'a>(points: impl IntoIterator<Item = &'a Point>) -> Option<f64> {
    let mut factors: Vec<f64> = points.into_iter().map(|p| p.factor).collect();
    factors.sort_by(f64::total_cmp);
    let half = factors.len() / 2;
    match factors.len() {
        0 => None,
        n if n % 2 == 1 => Some(factors[half]),
        _ => Some((factors[half - 1] + factors[half]) / 2.0),
    }
}

/// Why a series stopped before `--cost-max`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It reached `--cost-max`.
    Max,
    /// The next size is beyond the limit the implementation declares.
    DeclaredLimit,
    /// The implementation refused this size (the size is given).
    Refused(usize),
    /// This size took long enough (half the budget, or its growth says the
    /// next would take twice the budget, or the hang guard cut it) that
    /// larger sizes are extrapolated along the growth measured (the size
    /// is given).
    Extrapolated(usize),
    /// The probe's share of the time ran out.
    OutOfTime,
}

/// One family in one direction, measured size by size.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The family.
    pub family: Family,
    /// The direction.
    pub direction: Direction,
    /// The largest size the declaration allows in this direction (its
    /// declared limit, else `--cost-max`): where the verdict is taken.
    pub limit: usize,
    /// Every size answered.
    pub points: Vec<Point>,
    /// Why it stopped.
    pub end: End,
}

/// A size whose answer took this many CPU seconds beyond the first size's
/// may decide the verdict ([`Series::deciding`]).
const DECIDING_FROM: f64 = 0.05;

/// Growth per doubling at or above this is faster than linear: n^1.32.
/// An O(n log n) algorithm grows by about 2.1 per doubling at 2^16.
pub const SUPERLINEAR: f64 = 2.5;

/// The margin of the verdict: a family is slow when its time at its limit
/// is at least this many times the budget, and never when it is at most
/// the budget divided by this ("near the budget" in between).
pub const MARGIN: f64 = 3.0;

/// Growth per doubling from which a slow family is clearly faster than
/// linear: n^1.68. Between [`SUPERLINEAR`] and this, the family is
/// measured again ([`MEASURES`]).
pub const CLEARLY_SUPERLINEAR: f64 = 3.2;

/// How far over the margin ([`MARGIN`] times the budget) a slow family's
/// time at its limit must be for its verdict to be clear without being
/// measured again: this many times.
pub const CLEARLY_OVER: f64 = 1.5;

/// How many times in all a family whose slow verdict is not clear
/// ([`Series::clearly_slow`]) is measured: it is slow only when every
/// measure says so, and the report gives the measure least slow.
pub const MEASURES: usize = 3;

/// What the probe says of one series, by the rule of [`Series::verdict`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// At most a third of the budget at its limit, or not measured far
    /// enough to say more.
    Within,
    /// Between a third of the budget and three times it at its limit, or
    /// over it while growing linearly: information, never a cause.
    Near,
    /// Faster than linear, and at least three times the budget at its
    /// limit: a `slow` cause.
    Slow,
}

impl Series {
    /// What every answer costs whatever its size (a process's start-up,
    /// the channel), taken off before growth is read: the least time of
    /// any size, since no answer costs less. Not the first size's alone:
    /// a first answer that warms up (a page of code faulted in, a cache
    /// filled) once took 16 ms where the next took less than 1, and taken
    /// off the sizes after it, it made quadratic growth read as x9.9 per
    /// doubling.
    fn constant(&self) -> f64 {
        self.points
            .iter()
            .map(|p| p.seconds)
            .reduce(f64::min)
            .unwrap_or(0.0)
    }

    /// The growth per doubling of the family's code points (about 2 for
    /// linear code, 4 for quadratic, 8 for cubic; the sizes double exactly
    /// in code points both ways) up to the deciding size
    /// ([`Series::deciding`]).
    pub fn growth(&self) -> Option<f64> {
        let end = self.deciding()?;
        self.growth_of(&self.points[..=end])
    }

    /// The growth read from `points`: from the last three sizes whose time
    /// beyond the first size's is at least [`GROWTH_FROM`] and at least a
    /// quarter of that first time (below, the clock and the start-up's
    /// jitter speak, not the algorithm), the slope of their times over
    /// their code points on a log-log scale, by least squares, so that one
    /// outlier does not decide it.
    fn growth_of(&self, points: &[Point]) -> Option<f64> {
        let timed = self.timed(points);
        let last = &timed[timed.len().saturating_sub(3)..];
        if last.len() < 2 {
            return None;
        }
        let n = last.len() as f64;
        let mean_x = last.iter().map(|p| p.0).sum::<f64>() / n;
        let mean_y = last.iter().map(|p| p.1).sum::<f64>() / n;
        let sxx: f64 = last.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
        let sxy: f64 = last.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
        (sxx > 0.0).then(|| 2f64.powf(sxy / sxx))
    }

    /// The sizes of `points` long enough to read growth from, as the
    /// logarithms of their code points and of their time beyond the first
    /// size's.
    fn timed(&self, points: &[Point]) -> Vec<(f64, f64)> {
        let constant = self.constant();
        let floor = GROWTH_FROM.as_secs_f64().max(constant / 4.0);
        points
            .iter()
            .skip(1)
            .map(|p| (p.code_points as f64, p.seconds - constant))
            .filter(|&(_, net)| net >= floor)
            .map(|(size, net)| (size.log2(), net.log2()))
            .collect()
    }

    /// The time at the limit as `points` predict it: measured when the
    /// last reached it, else extrapolated from the last along their growth
    /// (linear where none could be read: the answers were too fast to
    /// say).
    fn extrapolated(&self, points: &[Point]) -> Option<f64> {
        let last = points.last()?;
        let constant = self.constant();
        let net = (last.seconds - constant).max(0.0);
        let doublings = (self.limit_code_points(last) / last.code_points as f64)
            .log2()
            .max(0.0);
        let growth = self.growth_of(points).unwrap_or(2.0).max(2.0);
        Some(constant + net * growth.powf(doublings))
    }

    /// The index of the size the verdict is taken from: the last size,
    /// unless an earlier one whose answer took at least [`DECIDING_FROM`]
    /// seconds beyond the first size's, with three sizes to read growth
    /// from (times long enough to trust), predicts more than twice the
    /// last's time at the limit (then the one that predicts the most): a
    /// family whose larger sizes the implementation refuses cheaply (and
    /// the reference too, as the label codec's refuses a disallowed code
    /// point) is judged by the sizes it answered.
    pub fn deciding(&self) -> Option<usize> {
        let last = self.points.len().checked_sub(1)?;
        let constant = self.constant();
        let from_last = self.extrapolated(&self.points[..=last])?;
        (0..last)
            .filter(|&k| {
                self.points[k].seconds - constant >= DECIDING_FROM
                    && self.timed(&self.points[..=k]).len() >= 3
            })
            .filter_map(|k| Some((k, self.extrapolated(&self.points[..=k])?)))
            .filter(|&(_, predicted)| predicted > 2.0 * from_last)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(Some(last), |(k, _)| Some(k))
    }

    /// The time at [`Series::limit`], from the deciding size
    /// ([`Series::deciding`]): measured there, or extrapolated along the
    /// growth up to it; `None` with nothing measured.
    pub fn at_limit(&self) -> Option<f64> {
        self.extrapolated(&self.points[..=self.deciding()?])
    }

    /// The family's code points at [`Series::limit`], as `last` measured
    /// them: the limit itself to encode; to decode, the limit in bytes
    /// over the bytes per code point of `last` (which grow slowly with the
    /// size: a little fewer than there are, never more).
    fn limit_code_points(&self, last: &Point) -> f64 {
        self.verdict_limit() as f64 * last.code_points as f64 / last.size.max(1) as f64
    }

    /// Where the verdict is taken: [`Series::limit`], or the size the
    /// implementation refused, when it did (and its reference did not): it
    /// never spends the time of a larger input, and its undeclared limit is
    /// a finding of its own.
    pub fn verdict_limit(&self) -> usize {
        match self.end {
            End::Refused(size) => size.min(self.limit),
            _ => self.limit,
        }
    }

    /// The time the deciding size's growth predicts for a question of
    /// `size` (code points to encode, bytes to decode).
    pub fn predicted(&self, size: usize) -> Option<f64> {
        let end = self.deciding()?;
        let at = &self.points[end];
        let constant = self.constant();
        let net = (at.seconds - constant).max(0.0);
        let code_points = size as f64 * at.code_points as f64 / at.size.max(1) as f64;
        let doublings = (code_points / at.code_points as f64).log2();
        let growth = self.growth().unwrap_or(2.0).max(2.0);
        Some(constant + net * growth.powf(doublings))
    }

    /// How many times slower than the reference machine this one ran
    /// while the family's verdict was measured: the median of the factors
    /// ([`calibration::factor`]) of its sizes that took [`REPEAT_BELOW`]
    /// or more, each taken right after its answer, else of all its sizes
    /// (which share the one taken as the family started); 1 with nothing
    /// measured. The short sizes decide nothing, and counting their shared
    /// factor once per size made one measure the family's, by chance fast
    /// or slow (x0.54 and x0.97 minutes apart on one machine).
    pub fn factor(&self) -> f64 {
        let long = self
            .points
            .iter()
            .filter(|p| p.seconds >= REPEAT_BELOW.as_secs_f64());
        median_factor(long)
            .or_else(|| median_factor(&self.points))
            .unwrap_or(1.0)
    }

    /// `budget` (the reference machine's) in this machine's CPU seconds,
    /// as it ran while the family was measured ([`Series::factor`]).
    pub fn budget_here(&self, budget: Duration) -> f64 {
        budget.as_secs_f64() * self.factor()
    }

    /// The time at the limit as the reference machine would spend it
    /// ([`Series::at_limit`] over [`Series::factor`]): what a baseline
    /// records, comparable across machines.
    pub fn reference_at_limit(&self) -> Option<f64> {
        self.at_limit().map(|s| s / self.factor())
    }

    /// Whether it grows faster than linear ([`SUPERLINEAR`]).
    pub fn superlinear(&self) -> bool {
        self.growth().is_some_and(|g| g >= SUPERLINEAR)
    }

    /// The verdict on this series against `budget`: [`Verdict::Slow`] when
    /// it grows faster than linear ([`SUPERLINEAR`]) and its time at its
    /// limit ([`Series::verdict_limit`]) is at least [`MARGIN`] times the
    /// budget, measured there or extrapolated from an answer of at least
    /// [`DECIDING_FROM`] seconds; [`Verdict::Within`]
    /// when that time is at most the budget divided by [`MARGIN`];
    /// [`Verdict::Near`] otherwise. CPU time, a budget taken in this
    /// machine's seconds ([`Series::budget_here`], [`super::calibration`]),
    /// the margin and a growth read over several sizes (of the times as
    /// measured, which the machine's speed does not bend) keep it the same
    /// on a busy machine and a quiet one, a faster one and a slower one;
    /// what is left (an implementation whose own time moves by half from
    /// run to run, at the margin) a baseline absorbs
    /// ([`super::baseline::NearBudget`]).
    pub fn verdict(&self, budget: Duration) -> Verdict {
        let Some(at_limit) = self.at_limit() else {
            return Verdict::Within;
        };
        let budget = self.budget_here(budget);
        let superlinear = self.superlinear();
        // Extrapolated from answers too short to trust their growth that
        // far, it is no more than near.
        let measured_enough = self.deciding().is_some_and(|k| {
            self.points[k].seconds - self.constant() >= DECIDING_FROM
                || self.points[k].size >= self.verdict_limit()
        });
        if superlinear && at_limit >= MARGIN * budget && measured_enough {
            Verdict::Slow
        } else if at_limit <= budget / MARGIN {
            Verdict::Within
        } else {
            Verdict::Near
        }
    }

    /// Whether the series is slow ([`Series::verdict`]) and clearly so:
    /// its growth at least [`CLEARLY_SUPERLINEAR`] and its time at the
    /// limit at least [`CLEARLY_OVER`] times the margin's edge. A slow
    /// series that is not clearly slow is measured again before it is a
    /// cause ([`MEASURES`]): the same family once read x2.5 per doubling
    /// and then x2.1, under the same load, on an implementation near the
    /// line.
    pub fn clearly_slow(&self, budget: Duration) -> bool {
        self.verdict(budget) == Verdict::Slow
            && self.growth().is_some_and(|g| g >= CLEARLY_SUPERLINEAR)
            && self
                .at_limit()
                .is_some_and(|t| t >= CLEARLY_OVER * MARGIN * self.budget_here(budget))
    }

    /// The largest size measured within the budget.
    pub fn largest_within(&self, budget: Duration) -> Option<usize> {
        let budget = self.budget_here(budget);
        self.points
            .iter()
            .filter(|p| !p.cut && p.seconds <= budget)
            .map(|p| p.size)
            .next_back()
    }

    /// The largest size the growth says stays within `budget`, up to the
    /// limit: measured or extrapolated.
    pub fn largest_size_within(&self, budget: Duration) -> Option<usize> {
        let last = &self.points[self.deciding()?];
        let constant = self.constant();
        let net = last.seconds - constant;
        let room = self.budget_here(budget) - constant;
        if room <= 0.0 {
            return None;
        }
        if net <= 0.0 {
            return Some(self.limit);
        }
        let growth = self.growth().unwrap_or(2.0).max(2.0);
        let doublings = (room / net).log(growth);
        let code_points = last.code_points as f64 * 2f64.powf(doublings);
        let size = code_points * last.size as f64 / last.code_points.max(1) as f64;
        Some((size.min(self.limit as f64)) as usize)
    }

    /// The peak memory's growth per doubling, from the last two sizes
    /// whose peak was read, when it grew measurably (a resident process's
    /// peak includes what it held before).
    pub fn memory_growth(&self) -> Option<f64> {
        let read: Vec<(usize, u64)> = self
            .points
            .iter()
            .filter_map(|p| p.peak_memory.map(|m| (p.size, m)))
            .collect();
        let [.., (s1, m1), (s2, m2)] = read.as_slice() else {
            return None;
        };
        (s2 > s1 && m1 > &0).then(|| {
            let doublings = (*s2 as f64 / *s1 as f64).log2();
            (*m2 as f64 / *m1 as f64).powf(1.0 / doublings)
        })
    }

    /// The peak memory at the largest size measured, in bytes.
    pub fn peak_memory(&self) -> Option<u64> {
        self.points.iter().filter_map(|p| p.peak_memory).max()
    }
}

/// Growth per doubling, in words: `x4.0 per doubling: quadratic`.
pub fn growth_words(growth: f64) -> String {
    let name = if growth < SUPERLINEAR {
        "about linear"
    } else if growth < 5.5 {
        "quadratic"
    } else if growth < 11.0 {
        "cubic"
    } else {
        "worse than cubic"
    };
    format!("x{growth:.1} per doubling: {name}")
}

/// What a slow implementation answered, in the key of a cause of baselines
/// written before the verdict was by growth: such an entry stands for the
/// slow cause of its direction, whatever the family.
pub const SLOW_GOT: &str = "answers slower than the cost budget";

/// What a slow implementation answered, in a cause's key: the family,
/// never the size or the times, so that one slow algorithm is one cause on
/// every machine.
pub fn slow_got(family: Family) -> String {
    format!("grows faster than linear on the {} family", family.name())
}

/// The family named in a slow cause's key ([`slow_got`]), if any.
pub fn family_of_slow(got: &str) -> Option<Family> {
    let name = got
        .strip_prefix("grows faster than linear on the ")?
        .strip_suffix(" family")?;
    Family::named(name)
}

/// A series whose verdict is [`Verdict::Slow`].
#[derive(Clone, Debug, PartialEq)]
pub struct Slow {
    /// The series.
    pub series: Series,
    /// The question of the size the verdict was taken from
    /// ([`Series::deciding`]).
    pub request: Request,
    /// The yardsticks' seconds on the same question: the C reference's
    /// and the clean-room code's, or the label reference's.
    pub yardsticks: Vec<(&'static str, f64)>,
}

impl Slow {
    /// The family's code points at that size.
    pub fn code_points(&self) -> usize {
        self.deciding().map_or(0, |p| p.code_points)
    }

    /// The size the verdict was taken from.
    fn deciding(&self) -> Option<&Point> {
        self.series.deciding().map(|k| &self.series.points[k])
    }

    /// What it found, in one line.
    pub fn detail(&self, budget: Duration) -> String {
        let series = &self.series;
        let timed: Vec<&Point> = series
            .points
            .iter()
            .filter(|p| p.seconds >= GROWTH_FROM.as_secs_f64())
            .collect();
        let sizes: Vec<String> = timed[timed.len().saturating_sub(3)..]
            .iter()
            .map(|p| {
                let cut = if p.cut { " or more (cut)" } else { "" };
                format!("{} in {}{cut}", p.size, seconds_text(p.seconds))
            })
            .collect();
        let growth = series
            .growth()
            .map(|g| format!("; {}", growth_words(g)))
            .unwrap_or_default();
        let within = series
            .largest_size_within(budget)
            .map_or("none".to_string(), |n| format!("about {n}"));
        let yardsticks: Vec<String> = self
            .yardsticks
            .iter()
            .map(|&(name, s)| format!("{name} {}", seconds_text(s)))
            .collect();
        format!(
            "{} of the {} family, CPU time by {} (growth per doubling of the code points): {}{growth}; at its limit of {} {}, {} (the budget is {} s, {} on this machine; slow from {} times it); largest size within the budget: {within}; on the largest input asked: {}",
            series.direction.name(),
            series.family.name(),
            unit(series.direction),
            sizes.join(", "),
            series.verdict_limit(),
            unit(series.direction),
            series
                .at_limit()
                .map_or("unknown".into(), |s| format!("about {}", seconds_text(s))),
            budget.as_secs_f64(),
            seconds_text(series.budget_here(budget)),
            MARGIN,
            yardsticks.join(", ")
        )
    }

    /// The cause it is, for `check`'s report and baseline: keyed by its
    /// direction and family ([`slow_got`]).
    pub fn cause(&self, budget: Duration) -> Cause {
        Cause {
            key: Key {
                direction: self.series.direction.name(),
                kind: Kind::Slow,
                reference: String::new(),
                got: slow_got(self.series.family),
            },
            shape: causes::shape(&self.request),
            count: 1,
            vectors: Vec::new(),
            property: None,
            input: self.notation(),
            detail: self.detail(budget),
            original: self.notation(),
            confirmation: Confirmation::Confirmed,
            request: self.request.clone(),
            explanations: Vec::new(),
            by_rule: Vec::new(),
            beside: None,
            entry_point: None,
            swept: None,
        }
    }

    /// The question in the family notation: `distinct-shuffled:16384`.
    pub fn notation(&self) -> String {
        format!("{}:{}", self.series.family.name(), self.code_points())
    }
}

/// Seconds as a person reads them: `0.31 ms`, `12.4 ms`, `2.05 s`.
pub fn seconds_text(seconds: f64) -> String {
    if seconds < 0.1 {
        format!("{:.2} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.2} s")
    }
}

/// What sizes count in a direction.
pub fn unit(direction: Direction) -> &'static str {
    match direction {
        Direction::Encode => "code points",
        Direction::Decode => "bytes",
    }
}

/// What a probe found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Probe {
    /// Every series measured.
    pub series: Vec<Series>,
    /// At most one slow series per direction with [`probe`] (the first
    /// family found slow), every one with [`probe_all`].
    pub slow: Vec<Slow>,
}

/// How one timed question ended.
enum Timing {
    /// Answered (rightly or not), having spent this.
    Answered(Spent, Result<Expected, EngineError>),
    /// Cut by the hang guard, having spent at least this.
    Cut(Spent),
    /// Stopped by the probe's own time, or an interruption: nothing to
    /// judge.
    Stopped,
}

/// The hang guard of one question of the cost probe: wall-clock time, only
/// to stop a question that would take far longer than the verdict needs.
fn hang_guard(budget: Duration) -> Duration {
    budget * 8
}

/// How many times longer the hang guard is for a question asked again
/// because the guard cut it while it was starved of the CPU.
const STARVED_GUARD: u32 = 3;

/// Asks `request` once, measuring what answering cost, cut by the hang
/// guard or at `until`. A fresh process's answer (its start-up in it) is
/// asked again, and the second taken. A question the guard cut having
/// spent less than the budget of CPU time, but some (a busy machine gave
/// it less than an eighth of a core, and it was working, not asleep: its
/// time is not its own) is asked once more
/// with a guard [`STARVED_GUARD`] times as long, so that the load does
/// not cut a family short, and its verdict with it.
fn timed_question(
    engine: &dyn Engine,
    request: &Request,
    budget: Duration,
    until: Instant,
) -> Timing {
    let mut fresh_again = true;
    let mut guard_for = hang_guard(budget);
    let mut starved_again = true;
    loop {
        let guard = Instant::now() + guard_for;
        engine.set_deadline(Some(guard.min(until)));
        let (answer, spent) = spent::measure(|| ask(engine, request));
        engine.set_deadline(None);
        if crate::engines::process::interrupted() {
            return Timing::Stopped;
        }
        let cut = matches!(answer, Err(EngineError::Hung(_) | EngineError::Cancelled));
        // Working (not asleep: a hang that waits spends nothing) but given
        // less than an eighth of a core.
        let starved = spent.cpu < budget && spent.cpu >= guard_for / 100;
        if cut && Instant::now() < until && starved_again && starved {
            starved_again = false;
            guard_for *= STARVED_GUARD;
            continue;
        }
        match answer {
            Err(EngineError::Hung(_)) => return Timing::Cut(spent),
            Err(EngineError::Cancelled) if Instant::now() >= until => return Timing::Stopped,
            Err(EngineError::Cancelled) => return Timing::Cut(spent),
            // Its start-up was in it: asked again, of the warm process.
            _ if spent.fresh && fresh_again => fresh_again = false,
            answer => return Timing::Answered(spent, answer),
        }
    }
}

/// The median CPU time of [`REPEATS`] answers to a question first answered
/// in `first`, when that was under [`REPEAT_BELOW`]; else `first`.
fn median_time(engine: &dyn Engine, request: &Request, first: Duration) -> Duration {
    if first >= REPEAT_BELOW {
        return first;
    }
    let mut times = vec![first];
    while times.len() < REPEATS {
        let (answer, spent) = spent::measure(|| ask(engine, request));
        if matches!(answer, Err(EngineError::Cancelled)) {
            break;
        }
        times.push(spent.cpu);
    }
    times.sort();
    times[times.len() / 2]
}

/// The largest size `engine` allows in `direction`: its declared limit,
/// else `max`.
pub fn limit_of(engine: &dyn Engine, direction: Direction, max: usize) -> usize {
    let caps = engine.capabilities();
    let declared = match direction {
        Direction::Encode => caps.max_encode_input,
        Direction::Decode => caps.max_decode_input,
    };
    declared.map_or(max, |d| d.min(max))
}

/// Measures one family in one direction: sizes double in code points from
/// [`FIRST_SIZE`] while the question fits the limit
/// ([`limit_of`]), until an answer takes half the budget in CPU time, or
/// the growth measured says the next would take twice the budget, or the
/// hang guard cuts one (each asked twice, the smaller kept: one outlier
/// does not stop a family), and says whether it is slow by the rule of
/// [`Series::verdict`].
pub fn measure(
    engine: &dyn Engine,
    family: Family,
    direction: Direction,
    settings: &Settings,
) -> (Series, Option<Slow>) {
    measure_up_to(engine, family, direction, settings, usize::MAX)
}

/// [`measure`], asking at most `most` code points.
pub fn measure_up_to(
    engine: &dyn Engine,
    family: Family,
    direction: Direction,
    settings: &Settings,
    most: usize,
) -> (Series, Option<Slow>) {
    let limit = limit_of(engine, direction, settings.max);
    let mut series = Series {
        family,
        direction,
        limit,
        points: Vec::new(),
        end: End::Max,
    };
    let half = settings.budget.as_secs_f64() / 2.0;
    // The machine's speed, taken as the family starts and again after
    // each answer long enough to decide the verdict ([`measure_point`]).
    let mut factor = calibration::factor();
    let mut last_request = None;
    let mut n = FIRST_SIZE;
    while n <= most {
        if Instant::now() >= settings.until {
            series.end = End::OutOfTime;
            break;
        }
        let Some((request, size)) = question(engine.codec(), family, direction, n) else {
            break;
        };
        if size > limit {
            if size > settings.max {
                series.end = End::Max;
            } else {
                series.end = End::DeclaredLimit;
            }
            break;
        }
        if !super::compare::askable(engine, &request) {
            series.end = End::DeclaredLimit;
            break;
        }
        let Some(point) = measure_point(engine, &request, size, n, settings, &mut factor) else {
            series.end = End::OutOfTime;
            break;
        };
        let point = match point {
            Ok(point) => point,
            Err(()) => {
                series.end = End::Refused(size);
                break;
            }
        };
        let constant = series.constant();
        let long = point.cut || point.seconds - constant >= half;
        // Long: asked again, the smaller kept (a load spike, a collection
        // or a compilation is not the algorithm).
        let point = if long && !point.cut {
            match measure_point(engine, &request, size, n, settings, &mut factor) {
                Some(Ok(again)) if again.seconds < point.seconds => again,
                _ => point,
            }
        } else {
            point
        };
        let long = point.cut || point.seconds - constant >= half;
        series.points.push(point);
        last_request = Some(request);
        if long {
            series.end = End::Extrapolated(size);
            break;
        }
        // The next size would take twice the budget: extrapolated instead.
        if let (Some(growth), Some(last)) = (series.growth(), series.points.last())
            && (last.seconds - constant) * growth >= 2.0 * settings.budget.as_secs_f64()
        {
            series.end = End::Extrapolated(size);
            break;
        }
        n *= 2;
    }
    let series = held(engine, series, settings, &mut factor);
    // The question of the deciding size (the last one asked, or an earlier
    // one where the implementation then refused cheaply).
    let deciding = series
        .deciding()
        .map(|k| series.points[k].code_points)
        .and_then(|n| question(engine.codec(), family, direction, n))
        .map(|(request, _)| request)
        .or(last_request);
    let slow = match (series.verdict(settings.budget), deciding) {
        (Verdict::Slow, Some(request)) => Some(Slow {
            yardsticks: yardsticks(engine.codec(), &request),
            series: series.clone(),
            request,
        }),
        _ => None,
    };
    (series, slow)
}

/// How severe a verdict is: the least severe of several measures is the
/// one that holds across them.
fn severity(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Within => 0,
        Verdict::Near => 1,
        Verdict::Slow => 2,
    }
}

/// Of several measures of one family, the one whose rating holds across
/// them all: the least severe verdict, and of those the least time at the
/// limit.
fn least_slow(budget: Duration, a: Series, b: Series) -> Series {
    let key = |s: &Series| (severity(s.verdict(budget)), s.at_limit().unwrap_or(0.0));
    let (ka, kb) = (key(&a), key(&b));
    if kb.0 < ka.0 || (kb.0 == ka.0 && kb.1 < ka.1) {
        b
    } else {
        a
    }
}

/// A series slow but not clearly so ([`Series::clearly_slow`]) measured
/// again, up to [`MEASURES`] times in all while each measure says slow:
/// the measure least slow ([`least_slow`]), so that "slow" is a rating
/// that held every time. Where the time runs out first, the measures
/// taken.
fn held(engine: &dyn Engine, series: Series, settings: &Settings, factor: &mut f64) -> Series {
    let mut kept = series;
    for _ in 1..MEASURES {
        if kept.verdict(settings.budget) != Verdict::Slow || kept.clearly_slow(settings.budget) {
            break;
        }
        let Some(again) = measure_again(engine, &kept, settings, factor) else {
            break;
        };
        kept = least_slow(settings.budget, kept, again);
    }
    kept
}

/// The sizes of `series` up to its deciding one measured again, by the
/// same rule (an answer of half the budget or more asked twice, the
/// faster kept); `None` when the probe's time runs out or the
/// implementation now refuses one.
fn measure_again(
    engine: &dyn Engine,
    series: &Series,
    settings: &Settings,
    factor: &mut f64,
) -> Option<Series> {
    let end = series.deciding()?;
    let half = settings.budget.as_secs_f64() / 2.0;
    let mut points = Vec::new();
    for old in &series.points[..=end] {
        let (request, size) = question(
            engine.codec(),
            series.family,
            series.direction,
            old.code_points,
        )?;
        let point =
            measure_point(engine, &request, size, old.code_points, settings, factor)?.ok()?;
        let point = if !point.cut && point.seconds >= half {
            match measure_point(engine, &request, size, old.code_points, settings, factor) {
                Some(Ok(again)) if again.seconds < point.seconds => again,
                _ => point,
            }
        } else {
            point
        };
        points.push(point);
    }
    Some(Series {
        points,
        ..series.clone()
    })
}

/// One size measured: `None` when the probe's time ran out, `Err` when
/// the implementation refused the question (and its reference does not).
/// `factor` is the machine's speed last taken ([`calibration::factor`]):
/// an answer long enough to decide the verdict ([`REPEAT_BELOW`] or more)
/// takes it again after, and records the mean of the two as its factor
/// (the speed may have moved meanwhile); a shorter one records it as it
/// is, which keeps the workload off every fast answer.
fn measure_point(
    engine: &dyn Engine,
    request: &Request,
    size: usize,
    code_points: usize,
    settings: &Settings,
    factor: &mut f64,
) -> Option<Result<Point, ()>> {
    let before = *factor;
    let mut point = |spent: Spent, cut| {
        let factor = if spent.cpu >= REPEAT_BELOW {
            *factor = calibration::factor();
            (before + *factor) / 2.0
        } else {
            before
        };
        Point {
            size,
            code_points,
            seconds: spent.cpu.as_secs_f64(),
            peak_memory: spent.peak_memory,
            cut,
            factor,
        }
    };
    match timed_question(engine, request, settings.budget, settings.until) {
        Timing::Stopped => None,
        Timing::Cut(spent) => Some(Ok(point(spent, true))),
        Timing::Answered(spent, answer) => {
            if is_refusal(&answer) && !reference_refuses(engine.codec(), request) {
                return Some(Err(()));
            }
            let cpu = median_time(engine, request, spent.cpu);
            Some(Ok(point(Spent { cpu, ..spent }, false)))
        }
    }
}

/// Whether the label codec's reference refuses `request` too (a label too
/// long for DNS, or one holding a disallowed code point): then the
/// implementation's refusal is no limit of its own, and how long it took
/// to refuse is what the probe measures, size after size (CPython's
/// encodings.idna checks a label's length only after its quadratic
/// Punycode encoder). Never for Punycode, whose families no reference
/// refuses below 2^16 code points, and whose C reference is quadratic.
fn reference_refuses(codec: Codec, request: &Request) -> bool {
    codec
        .label_profile()
        .is_some_and(|profile| is_refusal(&ask(&LabelReference { profile }, request)))
}

/// The longest input the C reference is timed on as a yardstick: RFC 3492's
/// algorithm is quadratic, and takes seconds beyond it.
const RFC_C_YARDSTICK_MAX: usize = 16_384;

/// The yardsticks' CPU times on `request` of `codec`: for Punycode, the C
/// reference's (only up to [`RFC_C_YARDSTICK_MAX`]) and the clean-room
/// code's; for the label codec, its reference's under the same profile.
pub fn yardsticks(codec: Codec, request: &Request) -> Vec<(&'static str, f64)> {
    let len = causes::request_len(request);
    let label_ref;
    let refs: Vec<(&'static str, &dyn Engine)> = match codec.label_profile() {
        Some(profile) => {
            label_ref = LabelReference { profile };
            vec![("label-ref", &label_ref)]
        }
        None => vec![
            ("rfc-c", &engines::RfcC),
            ("cleanroom", &engines::CleanRoom),
        ],
    };
    refs.into_iter()
        .filter(|(name, _)| *name != "rfc-c" || len <= RFC_C_YARDSTICK_MAX)
        .map(|(name, engine)| {
            let (_, spent) = spent::measure(|| ask(engine, request));
            (name, median_time(engine, request, spent.cpu).as_secs_f64())
        })
        .collect()
}

/// Probes every family in both directions the implementation takes, every
/// slow family found (the full profile of `punycheck cost`), sharing the
/// time evenly.
pub fn probe_all(engine: &dyn Engine, settings: &Settings) -> Probe {
    probe_with(engine, settings, false, None)
}

/// Probes every family in both directions the implementation takes,
/// within `settings.until`: the first slow family of a direction ends that
/// direction (one slow cause each: one slow algorithm shows in several
/// families), and the probe shares its time evenly among what is left.
pub fn probe(engine: &dyn Engine, settings: &Settings) -> Probe {
    probe_with(engine, settings, true, None)
}

/// Measures the families of one direction again, by the same rule
/// ([`probe`]), up to `family` when one is named (the cause's own family
/// comes at its place in the order): whether one is slow. What a slow
/// cause's reproducer and a baseline's replay ask.
pub fn still_slow(
    engine: &dyn Engine,
    direction: Direction,
    family: Option<Family>,
    settings: &Settings,
) -> Option<Slow> {
    let probe = probe_with(engine, settings, true, Some((direction, family)));
    probe.slow.into_iter().next()
}

/// Whether one of the families [`still_slow`] measures is slow, or grows
/// faster than linear near the budget ([`Series::superlinear`]): what a
/// baseline's slow cause needs to be still there on a faster machine than
/// the one it was recorded on.
pub fn still_superlinear(
    engine: &dyn Engine,
    direction: Direction,
    family: Option<Family>,
    settings: &Settings,
) -> bool {
    let probe = probe_with(engine, settings, true, Some((direction, family)));
    !probe.slow.is_empty()
        || probe
            .series
            .iter()
            .any(|s| s.superlinear() && s.verdict(settings.budget) == Verdict::Near)
}

/// [`probe`], or with `first_only` false [`probe_all`]; with `only`, one
/// direction, and in it one family or all.
fn probe_with(
    engine: &dyn Engine,
    settings: &Settings,
    first_only: bool,
    only: Option<(Direction, Option<Family>)>,
) -> Probe {
    let caps = engine.capabilities();
    let mut found = Probe::default();
    let directions: Vec<Direction> = [
        (Direction::Encode, caps.directions.encodes()),
        (Direction::Decode, caps.directions.decodes()),
    ]
    .into_iter()
    .filter_map(|(d, on)| on.then_some(d))
    .filter(|d| only.is_none_or(|(o, _)| o == *d))
    .collect();
    let families: Vec<Family> = match only {
        Some((_, Some(family))) => vec![family],
        _ => families_for(engine.codec()),
    };
    // Series still to measure, this one included.
    let mut left = directions.len() * families.len();
    for direction in directions {
        let mut todo = families.iter();
        for &family in todo.by_ref() {
            let now = Instant::now();
            let share =
                settings.until.saturating_duration_since(now) / u32::try_from(left).unwrap_or(1);
            left -= 1;
            // Enough for two answers at the hang guard.
            let own = Settings {
                until: (now + share.max(hang_guard(settings.budget) * 2)).min(settings.until),
                ..*settings
            };
            let (series, slow) = measure(engine, family, direction, &own);
            found.series.push(series);
            if let Some(slow) = slow {
                found.slow.push(slow);
                if first_only {
                    break;
                }
            }
        }
        // A direction found slow is not measured further.
        left -= todo.len();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_domain_codec_is_probed_with_the_families_before_the_split() {
        use crate::label::LabelProfile;
        assert!(probes(Codec::Domain(LabelProfile::DEFAULT)));
        let families = families_for(Codec::Domain(LabelProfile::DEFAULT));
        assert_eq!(
            families.len(),
            Family::ALL.len() + Family::NAMES.len() + Family::MANY_LABELS.len()
        );
        assert!(families.contains(&Family::ArabicIndicZeros));
        assert!(families.contains(&Family::ManyALabels));
        assert_eq!(
            families_for(Codec::Label(LabelProfile::DEFAULT)),
            Family::ALL
        );
        // Decoding asks an A-label of the run.
        let (request, _) = question(
            Codec::Domain(LabelProfile::DEFAULT),
            Family::ArabicIndicZeros,
            Direction::Decode,
            64,
        )
        .unwrap();
        assert!(matches!(request, Request::Decode(bytes) if bytes.starts_with(b"xn--")));
        // A name of many labels is asked as itself both ways, and every
        // one of them is a name the reference takes under the URL
        // Standard's switches: 32 labels and more at 64 code points.
        let url = LabelProfile {
            rules: crate::label::LabelRules::Uts46,
            switches: crate::label::Switches::URL,
        };
        for family in Family::MANY_LABELS {
            for n in [64, 4096] {
                let (request, size) =
                    question(Codec::Domain(url), family, Direction::Decode, n).unwrap();
                let Request::Decode(text) = request else {
                    panic!("a decode question");
                };
                assert_eq!(size, text.len());
                let name: Vec<u32> = std::str::from_utf8(&text)
                    .unwrap()
                    .chars()
                    .map(u32::from)
                    .collect();
                assert_eq!(name, family.code_points(n), "{family:?}");
                assert!(
                    crate::domain::to_unicode(url, &text).is_ok(),
                    "{family:?} {n}"
                );
                assert!(
                    crate::domain::to_ascii(url, &name).is_ok(),
                    "{family:?} {n}"
                );
                let labels = name
                    .iter()
                    .filter(|&&cp| cp == 0x2E || cp == 0x3002)
                    .count();
                assert!(labels >= n / 10, "{family:?} {n}: {labels}");
            }
        }
    }

    #[test]
    fn families_have_their_sizes_and_stay_in_every_domain() {
        for family in Family::ALL
            .into_iter()
            .chain(Family::NAMES)
            .chain(Family::MANY_LABELS)
        {
            assert_eq!(Family::named(family.name()), Some(family));
            for n in [1, 4, 64, 4096] {
                let cps = family.code_points(n);
                assert_eq!(cps.len(), n, "{family:?}");
                assert!(
                    cps.iter()
                        .all(|&cp| cp <= 0x10FFFF && !(0xD800..=0xDFFF).contains(&cp)),
                    "{family:?}"
                );
            }
        }
        let shuffled = Family::DistinctShuffled.code_points(1000);
        let mut sorted = shuffled.clone();
        sorted.sort();
        assert_eq!(sorted, Family::DistinctAscending.code_points(1000));
        assert_ne!(shuffled, sorted);
    }

    fn series(limit: usize, times: &[(usize, f64)]) -> Series {
        Series {
            family: Family::OneRun,
            direction: Direction::Encode,
            limit,
            points: times
                .iter()
                .map(|&(size, seconds)| Point {
                    size,
                    code_points: size,
                    seconds,
                    peak_memory: None,
                    cut: false,
                    factor: 1.0,
                })
                .collect(),
            end: End::Max,
        }
    }

    #[test]
    fn growth_is_read_per_doubling_beyond_the_constant() {
        let quadratic = series(65536, &[(64, 0.0001), (1024, 0.0101), (2048, 0.0401)]);
        assert!((quadratic.growth().unwrap() - 4.0).abs() < 1e-6);
        assert!(growth_words(4.0).ends_with("quadratic"));
        assert!(growth_words(2.1).ends_with("about linear"));
        // Too fast to say: no growth.
        assert_eq!(series(65536, &[(64, 0.0001), (128, 0.0002)]).growth(), None);
        assert_eq!(quadratic.largest_within(DEFAULT_BUDGET), Some(2048));
        // A start-up of 50 ms in every answer is taken off: linear growth
        // beneath it reads as linear, not as "flat".
        let start_up = series(
            65536,
            &[(64, 0.050), (1024, 0.070), (2048, 0.090), (4096, 0.130)],
        );
        assert!((start_up.growth().unwrap() - 2.0).abs() < 1e-6);
        // One outlier among three sizes moves the slope, not the class.
        let outlier = series(
            65536,
            &[(64, 0.0), (4096, 0.01), (8192, 0.06), (16384, 0.16)],
        );
        let g = outlier.growth().unwrap();
        assert!((3.0..6.0).contains(&g), "{g}");
        // A first answer that warmed up (16 ms) before answers of 0.2 ms
        // whatever their size, then quadratic work: read as quadratic, not
        // as the x9.9 that taking the first answer off the others gave.
        let warm_up = series(
            65536,
            &[
                (16, 0.016),
                (32, 0.0002),
                (4096, 0.0002 + 0.0039),
                (8192, 0.0002 + 0.0156),
                (16384, 0.0002 + 0.0625),
                (32768, 0.0002 + 0.25),
            ],
        );
        let g = warm_up.growth().unwrap();
        assert!((3.5..4.5).contains(&g), "{g}");
    }

    /// Larger sizes refused cheaply (a label the reference refuses too)
    /// do not hide the quadratic growth of the sizes answered before: the
    /// verdict is taken from the size that predicts the most.
    #[test]
    fn a_cheap_refusal_at_the_end_does_not_hide_the_growth() {
        let refused = series(
            65536,
            &[
                (64, 0.0),
                (2048, 0.012),
                (4096, 0.047),
                (8192, 0.184),
                (16384, 0.491),
                (32768, 0.018),
                (65536, 0.052),
            ],
        );
        assert!(matches!(refused.deciding(), Some(3 | 4)), "{refused:?}");
        assert_eq!(refused.verdict(DEFAULT_BUDGET), Verdict::Slow);
        assert!(refused.growth().unwrap() > 3.0);
    }

    /// The verdict's margins: slow from three times the budget at the
    /// limit when faster than linear, never at a third of it, "near" in
    /// between and for linear code over it; the same series measured on a
    /// machine twice as slow (every time doubled) keeps its verdict away
    /// from the edges.
    #[test]
    fn the_verdict_is_taken_at_the_limit_with_a_margin() {
        let budget = DEFAULT_BUDGET;
        // Quadratic, 0.25 s at 8,192: 16 s at 65,536.
        let slow = series(
            65536,
            &[(64, 0.0), (2048, 0.015625), (4096, 0.0625), (8192, 0.25)],
        );
        assert!((slow.at_limit().unwrap() - 16.0).abs() < 1e-6);
        assert_eq!(slow.verdict(budget), Verdict::Slow);
        // The same under a declared limit of 8,192: measured there, within.
        let limited = Series {
            limit: 8192,
            ..slow.clone()
        };
        assert_eq!(limited.verdict(budget), Verdict::Within);
        // Quadratic, 1 s at its limit: near, whatever the machine.
        let near = series(
            65536,
            &[
                (64, 0.0),
                (4096, 0.00390625),
                (8192, 0.015625),
                (16384, 0.0625),
            ],
        );
        assert_eq!(near.verdict(budget), Verdict::Near);
        // Linear, 5 s at its limit: near, never slow.
        let linear = series(
            65536,
            &[(64, 0.0), (4096, 0.3125), (8192, 0.625), (16384, 1.25)],
        );
        assert_eq!(linear.verdict(budget), Verdict::Near);
        for s in [&slow, &near, &linear] {
            let doubled = Series {
                points: s
                    .points
                    .iter()
                    .map(|p| Point {
                        seconds: p.seconds * 2.0,
                        ..p.clone()
                    })
                    .collect(),
                ..s.clone()
            };
            assert_eq!(doubled.verdict(budget), s.verdict(budget), "{s:?}");
        }
        assert_eq!(series(65536, &[]).verdict(budget), Verdict::Within);
    }

    /// A slow series is clearly slow only well above linear and well over
    /// the margin; of several measures, the least slow holds: slow only
    /// when every measure says so.
    #[test]
    fn a_slow_rating_holds_only_when_every_measure_gives_it() {
        let budget = DEFAULT_BUDGET;
        // Quadratic, 16 s at the limit: clear.
        let clear = series(
            65536,
            &[(64, 0.0), (2048, 0.015625), (4096, 0.0625), (8192, 0.25)],
        );
        assert!(clear.clearly_slow(budget));
        // x2.6 per doubling, about 4 s at the limit: slow, but not clearly.
        let border = series(
            65536,
            &[(64, 0.0), (4096, 0.1), (8192, 0.26), (16384, 0.676)],
        );
        assert_eq!(
            border.verdict(budget),
            Verdict::Slow,
            "{:?}",
            border.growth()
        );
        assert!(!border.clearly_slow(budget));
        // Measured again at x2.1: about linear, near. The near one holds,
        // whichever came first.
        let again = series(
            65536,
            &[(64, 0.0), (4096, 0.1), (8192, 0.21), (16384, 0.441)],
        );
        assert_eq!(again.verdict(budget), Verdict::Near);
        for (a, b) in [(&border, &again), (&again, &border)] {
            let held = least_slow(budget, a.clone(), b.clone());
            assert_eq!(held.verdict(budget), Verdict::Near);
            assert!(growth_words(held.growth().unwrap()).ends_with("about linear"));
        }
        // Two slow measures: slow, with the lesser time at the limit.
        let held = least_slow(budget, clear.clone(), border.clone());
        assert_eq!(held, border);
    }

    /// An implementation that refuses the next size is judged there, not
    /// beyond; and growth read from answers of a few milliseconds is not
    /// extrapolated into a slow cause.
    #[test]
    fn a_refusal_and_short_answers_are_not_extrapolated_into_slowness() {
        let mut refused = series(
            65536,
            &[(64, 0.0), (128, 0.0005), (256, 0.0017), (512, 0.0060)],
        );
        assert_eq!(refused.verdict(DEFAULT_BUDGET), Verdict::Near);
        refused.end = End::Refused(1024);
        assert_eq!(refused.verdict_limit(), 1024);
        assert_eq!(refused.verdict(DEFAULT_BUDGET), Verdict::Within);
    }

    /// A decoding's limit counts bytes, its growth code points: the time at
    /// the limit is extrapolated to the code points that fit in it.
    #[test]
    fn a_decodings_limit_is_taken_in_code_points() {
        let mut decode = series(65536, &[]);
        decode.direction = Direction::Decode;
        decode.points = [(1024, 2048, 0.0), (2048, 4096, 0.01), (4096, 8192, 0.04)]
            .iter()
            .map(|&(code_points, size, seconds)| Point {
                size,
                code_points,
                seconds,
                peak_memory: None,
                cut: false,
                factor: 1.0,
            })
            .collect();
        // 32,768 code points fit in 65,536 bytes: three more doublings.
        assert!((decode.at_limit().unwrap() - 0.04 * 64.0).abs() < 1e-6);
        let within = decode.largest_size_within(DEFAULT_BUDGET).unwrap();
        assert!((40950..=40960).contains(&within), "{within}");
    }

    #[test]
    fn a_slow_key_names_its_family_and_reads_back() {
        for family in Family::ALL {
            assert_eq!(family_of_slow(&slow_got(family)), Some(family));
        }
        assert_eq!(family_of_slow(SLOW_GOT), None);
    }

    /// Probes `engine` with ten times the budget and all the time it
    /// needs: no family is slow, and every one reaches the default size.
    fn assert_never_slow(engine: &dyn Engine) {
        let found = probe_all(
            engine,
            &Settings {
                budget: DEFAULT_BUDGET * 10,
                max: DEFAULT_MAX,
                until: Instant::now() + Duration::from_secs(3600),
            },
        );
        assert!(found.slow.is_empty(), "{:?}", found.slow);
        assert_eq!(found.series.len(), 2 * Family::ALL.len());
        for series in &found.series {
            assert_eq!(series.end, End::Max, "{series:?}");
        }
    }

    /// The label reference, with VerifyDnsLength off so that long labels
    /// are processed, is no slower than its Punycode, and every family goes
    /// on to the default size (a label it refuses, for a disallowed code
    /// point, is its own reference's refusal, timed on); decoding asks
    /// A-labels.
    #[test]
    fn the_label_reference_is_never_slow() {
        use crate::label::{LabelProfile, Switches};
        let profile = LabelProfile {
            switches: Switches {
                verify_dns_length: false,
                ..Switches::STRICT
            },
            ..LabelProfile::DEFAULT
        };
        let reference = LabelReference { profile };
        assert_never_slow(&reference);
        let (request, _) =
            question(reference.codec(), Family::OneRun, Direction::Decode, 64).unwrap();
        assert!(matches!(request, Request::Decode(bytes) if bytes.starts_with(b"xn--")));
    }

    /// The clean-room code is O(n log n): no family is slow at the
    /// default size, however loaded the machine (10 ms against 1 s).
    #[test]
    fn the_clean_room_code_is_never_slow() {
        assert_never_slow(&engines::CleanRoom);
    }
}
