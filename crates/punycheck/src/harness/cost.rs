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
//! which). Sizes double from [`FIRST_SIZE`] up to `--cost-max`, and a
//! family stops at a declared limit (`--max-encode`/`--max-decode`), at the
//! first size the implementation refuses, at the first answer over the
//! budget, or when its share of the time runs out. Decoding is asked the
//! clean-room encodings of the same code points.
//!
//! The label codec is probed with the same families: long U-labels to
//! ToASCII, and long A-labels (`xn--` and the encoding) to ToUnicode, the
//! class of CVE-2022-45061. Where its reference refuses a label too (too
//! long for DNS, or a disallowed code point), the implementation's refusal
//! does not end the family: how long refusing took is the finding.
//!
//! Honest under load: a fast answer is asked again and its median taken;
//! growth is read from the ratio between successive sizes of one family
//! (a busy machine moves the constant, not the exponent); and an answer
//! over the budget counts only when asking again is over it too. The C
//! reference and the clean-room code are timed on the same input, in the
//! same run, as yardsticks.

use std::time::{Duration, Instant};

use super::causes::{self, Cause, Confirmation, Key, Kind};
use super::compare::{Request, ask, is_refusal};
use crate::codec::Codec;
use crate::engines::{self, Engine, EngineError, LabelReference};
use crate::vocabulary::Expected;

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

/// A family of adversarial inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// Distinct code points, ascending from U+4E00 (CJK): the RFC
    /// encoder's outer loop runs once per distinct code point over the
    /// whole input (quadratic); the decoder's array insertions too.
    DistinctAscending,
    /// The same code points, descending: every insertion of a decoder
    /// that inserts into an array lands at the front, moving everything.
    DistinctDescending,
    /// The same code points, shuffled (a fixed permutation): neither end
    /// is cheap; defeats an insertion that is fast only at the end.
    DistinctShuffled,
    /// Distinct astral code points from U+20000: four UTF-8 bytes and two
    /// UTF-16 units each, for implementations that convert or index in
    /// those units (surrogate-pair handling per code point).
    DistinctAstral,
    /// A long basic run, then four non-basic code points (U+00E9 to
    /// U+4E01): every delta carries
    /// the basic run's length in `i`; an encoder or decoder that rescans
    /// the basic code points per insertion pays for all of them.
    BasicThenFew,
    /// One non-basic code point repeated: the decoder inserts each one
    /// right after the previous, and an array decoder moves the tail each
    /// time.
    OneRun,
    /// Alternating far-apart code points (U+0080 and U+10000): the
    /// largest deltas that no size up to 2^16 makes overflow, so the
    /// longest variable-length integers and the adaptation function's
    /// largest biases, and a surrogate pair every other code point in
    /// UTF-16.
    Alternating,
}

impl Family {
    /// Every family, in the order probed.
    pub const ALL: [Family; 7] = [
        Family::DistinctAscending,
        Family::DistinctDescending,
        Family::DistinctShuffled,
        Family::DistinctAstral,
        Family::BasicThenFew,
        Family::OneRun,
        Family::Alternating,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::DistinctAscending => "distinct-ascending",
            Family::DistinctDescending => "distinct-descending",
            Family::DistinctShuffled => "distinct-shuffled",
            Family::DistinctAstral => "distinct-astral",
            Family::BasicThenFew => "basic-then-few",
            Family::OneRun => "one-run",
            Family::Alternating => "alternating",
        }
    }

    /// Its `n` code points.
    pub fn code_points(self, n: usize) -> Vec<u32> {
        match self {
            Family::DistinctAscending => distinct_bmp(n).collect(),
            Family::DistinctDescending => {
                let mut all: Vec<u32> = distinct_bmp(n).collect();
                all.reverse();
                all
            }
            Family::DistinctShuffled => {
                let mut all: Vec<u32> = distinct_bmp(n).collect();
                // A fixed permutation (xorshift), the same on every run.
                let mut state = 0x9E37_79B9_7F4A_7C15u64;
                for k in (1..all.len()).rev() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    all.swap(k, (state % (k as u64 + 1)) as usize);
                }
                all
            }
            Family::DistinctAstral => (0x2_0000..).take(n).collect(),
            Family::BasicThenFew => {
                let few = n.min(4);
                let mut all = vec![u32::from(b'a'); n - few];
                // High enough for long deltas, low enough that no size up
                // to 2^16 overflows RFC 3492's 32-bit arithmetic.
                all.extend([0xE9, 0x100, 0x4E00, 0x4E01].into_iter().take(few));
                all
            }
            Family::OneRun => vec![0x4E00; n],
            Family::Alternating => (0..n)
                .map(|k| if k % 2 == 0 { 0x80 } else { 0x1_0000 })
                .collect(),
        }
    }
}

/// Distinct code points from U+4E00 up, past the surrogates, so that every
/// domain takes them.
fn distinct_bmp(n: usize) -> impl Iterator<Item = u32> {
    (0x4E00u32..)
        .filter(|cp| !(0xD800..=0xDFFF).contains(cp))
        .take(n)
}

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

/// Whether the probe asks `codec`: Punycode, and the label codec (long
/// labels); its families and yardsticks are not those of the seed
/// documents' other codecs (AMC-ACE-Z, LACE, UTF-8).
pub fn probes(codec: Codec) -> bool {
    matches!(codec, Codec::Punycode | Codec::Label(_))
}

/// The question of `family` at size `n` in `direction` for `codec`, and its
/// size as a limit counts it (code points to encode, bytes to decode).
/// Decoding asks the clean-room encoding of the code points, behind the ACE
/// prefix `xn--` for the label codec (ToUnicode of a long A-label, the
/// class of CVE-2022-45061); encoding asks the code points (for the label
/// codec, ToASCII of a long U-label). `None` when the clean-room code
/// cannot encode them (no decoding to ask).
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

/// What a check's probe asks: `--cost-budget` and `--cost-max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// An answer slower than this is a finding.
    pub budget: Duration,
    /// The longest input asked (code points to encode, bytes to decode).
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
    /// An answer slower than this is a finding.
    pub budget: Duration,
    /// The longest input asked (code points to encode, bytes to decode).
    pub max: usize,
    /// When the probe must end.
    pub until: Instant,
}

/// One size of one family, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The size: code points to encode, bytes to decode.
    pub size: usize,
    /// Seconds the answer took (the median of several for a fast one).
    pub seconds: f64,
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
    /// This size took longer than the budget (the size is given).
    OverBudget(usize),
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
    /// Every size answered within the budget.
    pub points: Vec<Point>,
    /// Why it stopped.
    pub end: End,
}

impl Series {
    /// The ratio between the times of the last two sizes long enough to
    /// say something ([`GROWTH_FROM`]): about 2 per doubling for linear
    /// code, 4 for quadratic, 8 for cubic.
    pub fn growth(&self) -> Option<f64> {
        let timed: Vec<&Point> = self
            .points
            .iter()
            .filter(|p| p.seconds >= GROWTH_FROM.as_secs_f64())
            .collect();
        let [.., a, b] = timed.as_slice() else {
            return None;
        };
        (b.size > a.size).then(|| {
            let doublings = (b.size as f64 / a.size as f64).log2();
            (b.seconds / a.seconds).powf(1.0 / doublings)
        })
    }

    /// The largest size answered within the budget.
    pub fn largest_within(&self) -> Option<usize> {
        self.points.last().map(|p| p.size)
    }
}

/// Growth per doubling, in words: `x4.0 per doubling: quadratic`.
pub fn growth_words(growth: f64) -> String {
    let name = if growth < 2.6 {
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

/// What a slow implementation answered, in a cause's key: the same
/// whatever the family, size and times, so that one slow algorithm is one
/// cause, run after run.
pub const SLOW_GOT: &str = "answers slower than the cost budget";

/// An answer over the budget, confirmed by asking again.
#[derive(Clone, Debug, PartialEq)]
pub struct Slow {
    /// The series it ended.
    pub series: Series,
    /// The question.
    pub request: Request,
    /// Its size.
    pub size: usize,
    /// Seconds the first answer took.
    pub seconds: f64,
    /// Seconds the second took.
    pub again: f64,
    /// The yardsticks' seconds on the same question: the C reference's
    /// and the clean-room code's.
    pub yardsticks: Vec<(&'static str, f64)>,
}

impl Slow {
    /// What it found, in one line.
    pub fn detail(&self, budget: Duration) -> String {
        let growth = self
            .series
            .growth()
            .map(|g| format!("; {}", growth_words(g)))
            .unwrap_or_default();
        let within = self
            .series
            .largest_within()
            .map_or("none".to_string(), |n| n.to_string());
        let yardsticks: Vec<String> = self
            .yardsticks
            .iter()
            .map(|&(name, s)| format!("{name} {}", seconds_text(s)))
            .collect();
        // A time at twice the budget is where the answer was cut.
        let took = |s: f64| {
            if s >= 2.0 * budget.as_secs_f64() {
                format!("no answer within {}", seconds_text(s))
            } else {
                format!("an answer after {}", seconds_text(s))
            }
        };
        format!(
            "{} of the {} family ({} {}): {}, and {} when asked again, over the budget of {} s{growth}; largest size within the budget: {within}; on the same input: {}",
            self.series.direction.name(),
            self.series.family.name(),
            self.size,
            unit(self.series.direction),
            took(self.seconds),
            took(self.again),
            budget.as_secs_f64(),
            yardsticks.join(", ")
        )
    }

    /// The cause it is, confirmed (it was asked twice), for `check`'s
    /// report and baseline.
    pub fn cause(&self, budget: Duration) -> Cause {
        Cause {
            key: Key {
                direction: self.series.direction.name(),
                kind: Kind::Slow,
                reference: String::new(),
                got: SLOW_GOT.into(),
            },
            shape: causes::shape(&self.request),
            count: 1,
            vectors: Vec::new(),
            property: None,
            input: self.request.to_string(),
            detail: self.detail(budget),
            original: self.request.to_string(),
            confirmation: Confirmation::Confirmed,
            request: self.request.clone(),
        }
    }
}

/// How long `engine` took on `request`, twice, each cut at twice the
/// `budget`: the seconds, and whether they were over it. What a slow
/// cause's reproducer and a baseline's replay ask; `None` when an answer
/// was cut before the budget (an interruption).
pub fn timed_twice(
    engine: &dyn Engine,
    request: &Request,
    budget: Duration,
) -> Option<[(f64, bool); 2]> {
    let once = || match timed_question(engine, request, budget, Instant::now() + budget * 3) {
        Timing::Over(t) => Some((t.as_secs_f64(), true)),
        Timing::Within(t, _) => Some((t.as_secs_f64(), false)),
        Timing::Cut => None,
    };
    Some([once()?, once()?])
}

/// Whether `engine` still answers `request` slower than `budget`, twice.
pub fn still_slow(engine: &dyn Engine, request: &Request, budget: Duration) -> bool {
    timed_twice(engine, request, budget).is_some_and(|t| t.iter().all(|&(_, over)| over))
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
    /// At most one slow answer per direction: the first found.
    pub slow: Vec<Slow>,
}

/// Times one answer of `engine` to `request`.
fn timed(engine: &dyn Engine, request: &Request) -> (Duration, Result<Expected, EngineError>) {
    let start = Instant::now();
    let answer = ask(engine, request);
    (start.elapsed(), answer)
}

/// How one timed question ended.
enum Timing {
    /// Answered (rightly or not) within the budget, in this long.
    Within(Duration, Result<Expected, EngineError>),
    /// Answered after the budget, or stopped after it by the question's
    /// own limit, or hung: over the budget, after this long.
    Over(Duration),
    /// Cut before the budget was reached (the probe's time ran out, or an
    /// interruption): nothing to judge.
    Cut,
}

/// Asks `request`, stopping an implementation outside this process at
/// twice the budget (or at `until`): what is over the budget need not be
/// waited for to its end.
fn timed_question(
    engine: &dyn Engine,
    request: &Request,
    budget: Duration,
    until: Instant,
) -> Timing {
    engine.set_deadline(Some((Instant::now() + budget * 2).min(until)));
    let (took, answer) = timed(engine, request);
    engine.set_deadline(None);
    match answer {
        Err(EngineError::Hung(_)) => Timing::Over(took),
        _ if took > budget && !crate::engines::process::interrupted() => Timing::Over(took),
        Err(EngineError::Cancelled) => Timing::Cut,
        answer => Timing::Within(took, answer),
    }
}

/// The median of `REPEATS` timings of an answer that came in under
/// [`REPEAT_BELOW`], else the one timing.
fn median_time(engine: &dyn Engine, request: &Request, first: Duration) -> Duration {
    if first >= REPEAT_BELOW {
        return first;
    }
    let mut times = vec![first];
    while times.len() < REPEATS {
        let (t, answer) = timed(engine, request);
        if matches!(answer, Err(EngineError::Cancelled)) {
            break;
        }
        times.push(t);
    }
    times.sort();
    times[times.len() / 2]
}

/// Measures one family in one direction.
pub fn measure(
    engine: &dyn Engine,
    family: Family,
    direction: Direction,
    settings: &Settings,
) -> (Series, Option<Slow>) {
    let mut series = Series {
        family,
        direction,
        points: Vec::new(),
        end: End::Max,
    };
    let mut n = FIRST_SIZE;
    while n <= settings.max {
        if Instant::now() >= settings.until {
            series.end = End::OutOfTime;
            break;
        }
        let Some((request, size)) = question(engine.codec(), family, direction, n) else {
            break;
        };
        if size > settings.max {
            break;
        }
        if !causes::askable(engine, &request) {
            series.end = End::DeclaredLimit;
            break;
        }
        let (first, answer) =
            match timed_question(engine, &request, settings.budget, settings.until) {
                Timing::Cut => {
                    series.end = End::OutOfTime;
                    break;
                }
                Timing::Over(first) => {
                    series.end = End::OverBudget(size);
                    // Asked again, it must be over the budget again: a load
                    // spike is not the algorithm. Its time is its own, not
                    // the probe's share.
                    let again = match timed_question(
                        engine,
                        &request,
                        settings.budget,
                        Instant::now() + settings.budget * 3,
                    ) {
                        Timing::Over(again) => again,
                        _ => return (series, None),
                    };
                    let yardsticks = yardsticks(engine.codec(), &request);
                    let slow = Slow {
                        series: series.clone(),
                        request,
                        size,
                        seconds: first.as_secs_f64(),
                        again: again.as_secs_f64(),
                        yardsticks,
                    };
                    return (series, Some(slow));
                }
                Timing::Within(first, answer) => (first, answer),
            };
        if is_refusal(&answer) && !reference_refuses(engine.codec(), &request) {
            series.end = End::Refused(size);
            break;
        }
        let seconds = median_time(engine, &request, first).as_secs_f64();
        series.points.push(Point { size, seconds });
        n *= 2;
    }
    (series, None)
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

/// The yardsticks' times on `request` of `codec`: for Punycode, the C
/// reference's (only up to [`RFC_C_YARDSTICK_MAX`]) and the clean-room
/// code's; for the label codec, its reference's under the same profile.
pub fn yardsticks(codec: Codec, request: &Request) -> Vec<(&'static str, f64)> {
    let len = match request {
        Request::Encode { code_points, .. } => code_points.len(),
        Request::Decode(bytes) => bytes.len(),
    };
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
            let (t, _) = timed(engine, request);
            (name, median_time(engine, request, t).as_secs_f64())
        })
        .collect()
}

/// Probes every family in both directions the implementation takes, a
/// slow answer ending only its own family (the full profile of `punycheck
/// cost`), sharing the time evenly.
pub fn probe_all(engine: &dyn Engine, settings: &Settings) -> Probe {
    probe_with(engine, settings, false)
}

/// Probes every family in both directions the implementation takes,
/// within `settings.until`: the first slow answer of a direction ends that
/// direction (one slow cause each, whatever the family), and the probe
/// shares its time evenly among what is left.
pub fn probe(engine: &dyn Engine, settings: &Settings) -> Probe {
    probe_with(engine, settings, true)
}

/// [`probe`], or with `first_only` false [`probe_all`].
fn probe_with(engine: &dyn Engine, settings: &Settings, first_only: bool) -> Probe {
    let caps = engine.capabilities();
    let mut found = Probe::default();
    let directions: Vec<Direction> = [
        (Direction::Encode, caps.directions.encodes()),
        (Direction::Decode, caps.directions.decodes()),
    ]
    .into_iter()
    .filter_map(|(d, on)| on.then_some(d))
    .collect();
    // Series still to measure, this one included.
    let mut left = directions.len() * Family::ALL.len();
    for direction in directions {
        let mut families = Family::ALL.iter();
        for &family in families.by_ref() {
            let now = Instant::now();
            let share =
                settings.until.saturating_duration_since(now) / u32::try_from(left).unwrap_or(1);
            left -= 1;
            // Enough for one answer over the budget and its confirmation.
            let own = Settings {
                until: (now + share.max(settings.budget * 3)).min(settings.until),
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
        left -= families.len();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_have_their_sizes_and_stay_in_every_domain() {
        for family in Family::ALL {
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

    #[test]
    fn growth_is_read_per_doubling() {
        let series = |times: &[(usize, f64)]| Series {
            family: Family::OneRun,
            direction: Direction::Encode,
            points: times
                .iter()
                .map(|&(size, seconds)| Point { size, seconds })
                .collect(),
            end: End::Max,
        };
        let quadratic = series(&[(64, 0.0001), (1024, 0.01), (2048, 0.04)]);
        assert!((quadratic.growth().unwrap() - 4.0).abs() < 1e-9);
        assert!(growth_words(4.0).ends_with("quadratic"));
        assert!(growth_words(2.1).ends_with("about linear"));
        // Too fast to say: no growth.
        assert_eq!(series(&[(64, 0.0001), (128, 0.0002)]).growth(), None);
        assert_eq!(quadratic.largest_within(), Some(2048));
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
        use crate::label::LabelProfile;
        let profile = LabelProfile::DEFAULT.with(None, None, None, Some(false));
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
