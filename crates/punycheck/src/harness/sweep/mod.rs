//! The sweep of every code point (`punycheck check --sweep`): a table
//! error on one code point is out of reach of generated questions, which
//! draw their code points from a few classes, so the sweep asks them all.
//!
//! Every code point from U+0000 to U+10FFFF (or the span given) is asked
//! alone and in a few fixed contexts ([`Context`]: at a label's start, in
//! its middle and at its end, between two Hebrew letters, after a
//! Devanagari virama), both ways: ToASCII of the label (or the one-label
//! name, for the `domain` codec), and ToUnicode of the reference's A-label
//! of it, or, where the reference refuses a label that holds non-ASCII,
//! of the `xn--` label its Punycode makes, which ToUnicode must refuse as
//! well. A code point outside the implementation's declared domain (the
//! surrogates, for a program of Unicode scalar values) is not asked.
//!
//! Each answer is judged as a check judges it ([`super::compare::evaluate`]:
//! the declaration, its Unicode version included, explains what it
//! explains), and every difference nothing explains is grouped by its
//! cause: its key (direction, kind, the reference's rule, what the
//! implementation answered) and what explains it beyond the key
//! ([`super::witness::explain`]: which part of a rule, where a wrong output
//! departs). One cause is reported once, with the code points that showed
//! it as ranges ([`Ranges`]) and the contexts it showed in; its reproducer
//! is the first of them, in the first context that showed it, asked again
//! to confirm it.
//!
//! Questions go to the implementation in batches ([`crate::engines::Engine::encode_many`]),
//! a `pipe:` program's many in flight at once, from one thread per worker
//! (`--jobs`), each taking the next block of code points.
//!
//! A baseline records a sweep's cause with its ranges (`code_points`):
//! a later sweep's cause of the same key and explanation is known only on
//! code points the recorded ranges hold, and any others are a cause of
//! their own beside it, whose reproducer is the first of them.
//!
//! # Size
//!
//! About 930 lines, 90 of them tests: asking a block, judging its
//! answers, merging the workers' groups and resolving them into causes
//! (split by a baseline's ranges) share the private `Found` and `Group`,
//! and a sweep's report is built in one place; the ranges, which a
//! baseline reads too, are a module of their own ([`Ranges`]).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use super::swept::{Ranges, SHOWN, Summary, Swept};

use super::baseline::{self, Baseline};
use super::campaign::{self, ClassCount, Stats};
use super::causes::{self, Cause, Confirmation, Key, Kind};
use super::check::{CheckSettings, Phase};
use super::compare::{Verdict, ask, askable, evaluate};
use super::report::{CheckReport, PhaseTimes, VectorSummary};
use crate::codec::Codec;
use crate::engines::{DecodeResult, EncodeResult, Engine, EngineError, process};
use crate::vocabulary::{CodePoints, Expected, Request};

/// A fixed context a code point is asked in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Context {
    /// The code point alone.
    Alone,
    /// At a label's start: the code point, `a`, `b`.
    Start,
    /// In a label's middle: `a`, the code point, `b`.
    Middle,
    /// At a label's end: `a`, `b`, the code point.
    End,
    /// Between two Hebrew letters (U+05D0, R): where the Bidi rule of an
    /// RTL label reads its class.
    Rtl,
    /// After DEVANAGARI LETTER KA and SIGN VIRAMA (U+0915 U+094D): where
    /// RFC 5892's ContextJ rules and a combining mark's place are read.
    Virama,
}

/// U+05D0 HEBREW LETTER ALEF.
const ALEF: u32 = 0x05D0;

impl Context {
    /// Every context, in the order a code point is asked in them.
    pub const ALL: [Context; 6] = [
        Context::Alone,
        Context::Start,
        Context::Middle,
        Context::End,
        Context::Rtl,
        Context::Virama,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Context::Alone => "alone",
            Context::Start => "start",
            Context::Middle => "middle",
            Context::End => "end",
            Context::Rtl => "rtl",
            Context::Virama => "virama",
        }
    }

    /// The label it makes of `cp`.
    pub fn label(self, cp: u32) -> Vec<u32> {
        match self {
            Context::Alone => vec![cp],
            Context::Start => vec![cp, 0x61, 0x62],
            Context::Middle => vec![0x61, cp, 0x62],
            Context::End => vec![0x61, 0x62, cp],
            Context::Rtl => vec![ALEF, cp, ALEF],
            Context::Virama => vec![0x0915, 0x094D, cp],
        }
    }

    /// The label, in words, `X` standing for the code point.
    pub fn described(self) -> &'static str {
        match self {
            Context::Alone => "X",
            Context::Start => "Xab",
            Context::Middle => "aXb",
            Context::End => "abX",
            Context::Rtl => "U+05D0 X U+05D0",
            Context::Virama => "U+0915 U+094D X",
        }
    }
}

/// The code points a sweep asks: `from` to `to`, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The first.
    pub from: u32,
    /// The last.
    pub to: u32,
}

impl Span {
    /// Every code point, U+0000 to U+10FFFF.
    pub const ALL: Span = Span {
        from: 0,
        to: 0x10FFFF,
    };

    /// Parses `U+XXXX..U+YYYY` (or `U+XXXX-U+YYYY`, or one code point).
    pub fn parse(text: &str) -> Result<Span, String> {
        let (from, to) = text
            .split_once("..")
            .or_else(|| text.split_once('-'))
            .unwrap_or((text, text));
        let one = |t: &str| {
            Ranges::parse(&[t.trim().to_string()])
                .map(|r| r.ranges()[0].0)
                .map_err(|e| format!("--sweep-range {text:?}: {e}"))
        };
        let (from, to) = (one(from)?, one(to)?);
        if from > to {
            return Err(format!("--sweep-range {text:?} ends before it begins"));
        }
        Ok(Span { from, to })
    }

    /// How many code points it holds.
    pub fn len(self) -> u64 {
        u64::from(self.to - self.from) + 1
    }

    /// Whether it holds none (never: a span holds its first code point).
    pub fn is_empty(self) -> bool {
        false
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "U+{:04X}..U+{:04X}", self.from, self.to)
    }
}

/// The full stops at which UTS #46 and RFC 3490 break a name into labels
/// (U+002E, and U+3002, U+FF0E and U+FF61, which map to it): the label
/// codec does not ask them, the domain codec does.
const FULL_STOPS: [u32; 4] = [0x002E, 0x3002, 0xFF0E, 0xFF61];

/// Code points a worker takes at a time.
const BLOCK: u32 = 256;

/// Hangs after which the sweep stops asking: each costs its time limit
/// twice.
const MOST_HANGS: u64 = 3;

/// What one cause's observations are grouped by: its key, and what
/// explains it beyond the key.
type GroupKey = (Key, String);

/// One cause's observations.
#[derive(Debug, Default)]
struct Group {
    /// Each code point, with the contexts (a bit each) it showed in.
    code_points: BTreeMap<u32, u8>,
    /// How many answers showed it.
    count: u64,
    /// The first observation: the least code point, then context, then
    /// direction (encode first).
    first: Option<First>,
}

/// An observation that may be a cause's reproducer.
#[derive(Debug)]
struct First {
    order: (u32, usize, u8),
    request: Request,
    detail: String,
}

/// What the workers found, merged.
#[derive(Debug, Default)]
struct Found {
    stats: Stats,
    groups: BTreeMap<GroupKey, Group>,
    /// One bit per code point asked in at least one question.
    asked: Vec<u64>,
    encode: u64,
    decode: u64,
    /// Blocks whose every question was answered.
    done: Vec<u32>,
}

impl Found {
    fn new() -> Self {
        Found {
            asked: vec![0; (0x110000 / 64) as usize],
            ..Found::default()
        }
    }

    fn mark(&mut self, cp: u32) {
        self.asked[(cp / 64) as usize] |= 1 << (cp % 64);
    }

    fn was_asked(&self, cp: u32) -> bool {
        self.asked[(cp / 64) as usize] & (1 << (cp % 64)) != 0
    }

    fn merge(&mut self, other: Found) {
        let s = &mut self.stats;
        let o = other.stats;
        s.requests += o.requests;
        s.same += o.same;
        s.unfinished += o.unfinished;
        s.nonconformances += o.nonconformances;
        for (class, n) in o.skipped {
            *s.skipped.entry(class).or_default() += n;
        }
        for (class, count) in o.divergences {
            add_divergence(s, &class, count.count, &count.example, count.example_len);
        }
        for (key, group) in other.groups {
            let mine = self.groups.entry(key).or_default();
            mine.count += group.count;
            for (cp, bits) in group.code_points {
                *mine.code_points.entry(cp).or_default() |= bits;
            }
            if let Some(first) = group.first {
                take_first(&mut mine.first, first);
            }
        }
        for (mine, theirs) in self.asked.iter_mut().zip(other.asked) {
            *mine |= theirs;
        }
        self.encode += other.encode;
        self.decode += other.decode;
        self.done.extend(other.done);
    }
}

/// Keeps the earlier of two observations.
fn take_first(slot: &mut Option<First>, candidate: First) {
    if slot.as_ref().is_none_or(|f| candidate.order < f.order) {
        *slot = Some(candidate);
    }
}

fn add_divergence(s: &mut Stats, class: &str, count: u64, example: &str, len: usize) {
    let entry = s
        .divergences
        .entry(class.to_string())
        .or_insert_with(|| ClassCount {
            count: 0,
            example: example.to_string(),
            example_len: len,
        });
    entry.count += count;
    if len < entry.example_len {
        entry.example = example.to_string();
        entry.example_len = len;
    }
}

/// One question of a block, and where it came from.
struct Asked {
    cp: u32,
    context: usize,
    request: Request,
    reference: Expected,
}

/// Runs the sweep of `span` on `engine` under `settings` (its time, its
/// reproducer's prefix, its baseline; the generated questions' count and
/// seed are not read), and reports it as a check's report: its causes
/// are [`Cause`]s with [`Cause::swept`] set. `progress` gets the code
/// points done of those to do.
pub fn run(
    engine: &dyn Engine,
    settings: &CheckSettings,
    span: Span,
    progress: &mut dyn FnMut(Phase, u64, Option<u64>),
) -> Result<CheckReport, String> {
    let codec = engine.codec();
    if codec.label_profile().is_none() {
        return Err(format!(
            "--sweep asks every code point of the label and domain codecs (--codec label or \
             --codec domain), not of {codec}"
        ));
    }
    let Some(reference) = crate::engines::reference_for(codec) else {
        return Err(format!(
            "the {codec} codec has no reference to sweep against"
        ));
    };
    let start = Instant::now();
    let started = std::time::SystemTime::now();
    let end = start + settings.time;
    engine.set_deadline(Some(end));
    let blocks = span.len().div_ceil(u64::from(BLOCK)) as u32;
    let next = AtomicU32::new(0);
    let hangs = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let done_points = AtomicU64::new(0);
    let found = Mutex::new(Found::new());
    let workers = engine.workers().max(1);
    let reference: &dyn Engine = reference.as_ref();
    progress(Phase::Sweep, 0, Some(span.len()));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut mine = Found::new();
                loop {
                    let past = Instant::now() >= end;
                    if past || stop.load(Ordering::Relaxed) || process::interrupted() {
                        break;
                    }
                    let block = next.fetch_add(1, Ordering::Relaxed);
                    if block >= blocks {
                        break;
                    }
                    let from = span.from + block * BLOCK;
                    let to = span.to.min(from + BLOCK - 1);
                    let complete = sweep_block(engine, reference, from..=to, &mut mine);
                    if complete {
                        mine.done.push(block);
                    }
                    let hung: u64 = mine
                        .groups
                        .keys()
                        .filter(|(key, _)| key.kind == Kind::Hang)
                        .map(|k| mine.groups[k].count)
                        .sum();
                    hangs.fetch_max(hung, Ordering::Relaxed);
                    if hung >= MOST_HANGS {
                        stop.store(true, Ordering::Relaxed);
                    }
                    done_points.fetch_add(u64::from(to - from) + 1, Ordering::Relaxed);
                }
                found.lock().unwrap_or_else(|e| e.into_inner()).merge(mine);
            });
        }
        // The main thread reports progress while the workers ask.
        loop {
            let done = done_points.load(Ordering::Relaxed);
            progress(Phase::Sweep, done, Some(span.len()));
            if done >= span.len()
                || Instant::now() >= end
                || stop.load(Ordering::Relaxed)
                || process::interrupted()
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    progress(Phase::Causes, 0, None);
    let interrupted = process::interrupted();
    let swept_for = Instant::now();
    let mut causes = resolve(engine, &found, settings.baseline.as_ref(), span);
    causes.sort_by_key(|c| {
        (
            c.key.kind,
            c.swept.as_ref().map_or(0, |s| s.ranges.ranges()[0].0),
        )
    });
    engine.set_deadline(None);
    let causes_time = swept_for.elapsed();
    // What was not reached: the blocks not done.
    let mut done = found.done.clone();
    done.sort_unstable();
    let not_reached: u64 = (0..blocks)
        .filter(|b| done.binary_search(b).is_err())
        .map(|b| {
            let from = span.from + b * BLOCK;
            u64::from(span.to.min(from + BLOCK - 1) - from) + 1
        })
        .sum();
    let first_not_reached = (0..blocks)
        .find(|b| done.binary_search(b).is_err())
        .map(|b| span.from + b * BLOCK);
    let asked_points = (span.from..=span.to)
        .filter(|&cp| found.was_asked(cp))
        .count() as u64;
    let caps = engine.capabilities();
    // Reached and never asked: outside what it declares.
    let outside = span
        .len()
        .saturating_sub(not_reached)
        .saturating_sub(asked_points);
    let mut incomplete = Vec::new();
    let hung_out = hangs.load(Ordering::Relaxed) >= MOST_HANGS;
    if not_reached > 0 && !interrupted && !hung_out {
        incomplete.push(format!(
            "{not_reached} of the sweep's {} code points were not asked in full within --seconds, \
             from U+{:04X} (give it more time)",
            span.len(),
            first_not_reached.unwrap_or(span.from)
        ));
    }
    let judging = Instant::now();
    let baseline = settings.baseline.as_ref().map(|b| {
        if interrupted {
            return Ok(baseline::Judgement {
                known: baseline::known(b, &causes, &[]),
                ..Default::default()
            });
        }
        baseline::judge(
            b,
            &causes,
            &[],
            &Default::default(),
            engine,
            settings.cost.unwrap_or_default(),
        )
    });
    let (baseline, baseline_error) = match baseline {
        Some(Ok(judgement)) => (Some(judgement), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    incomplete.extend(baseline_error.map(|e| e.to_string()));
    let outcome = campaign::Outcome {
        implementation: engine.name().to_string(),
        stats: found.stats.clone(),
        causes,
        aborted: (hung_out && not_reached > 0).then(|| {
            format!(
                "{} gave no answer {MOST_HANGS} times in the sweep; stopped asking it",
                engine.name()
            )
        }),
        timings: campaign::Timings {
            asking: swept_for.duration_since(start),
            causes: causes_time,
            ..Default::default()
        },
    };
    Ok(CheckReport {
        version: super::report::VERSION,
        started,
        vector_results: Vec::new(),
        implementation: settings.spec.clone(),
        entry_points: super::check::entry_point_specs(engine),
        codec: codec.to_string(),
        declared: super::check::declared(engine),
        capabilities: caps,
        declared_options: settings.declared_options.clone(),
        seed: settings.seed,
        seconds: start.elapsed().as_secs_f64(),
        budget_seconds: settings.time.as_secs_f64(),
        vectors: VectorSummary::default(),
        small_cases: VectorSummary::default(),
        campaign: outcome,
        repro_prefix: settings.repro_prefix.clone(),
        incomplete,
        baseline,
        interrupted,
        cost: None,
        long_inputs: None,
        phases: PhaseTimes {
            baseline: judging.elapsed(),
            ..PhaseTimes::default()
        },
        sweep: Some(Summary {
            span: span.to_string(),
            contexts: Context::ALL
                .iter()
                .map(|c| format!("{}: {}", c.name(), c.described()))
                .collect(),
            code_points: asked_points,
            outside,
            not_reached,
            encode: found.encode,
            decode: found.decode,
        }),
    })
}

/// Asks every code point of `block` in every context, both ways, and
/// records what it finds in `found`; whether every question was answered
/// (none cut by the deadline or an interruption).
fn sweep_block(
    engine: &dyn Engine,
    reference: &dyn Engine,
    block: std::ops::RangeInclusive<u32>,
    found: &mut Found,
) -> bool {
    let mut encodes = Vec::new();
    let mut decodes = Vec::new();
    // A label holds no full stop: one makes it two labels, the domain
    // codec's question (the label codec's generator asks none either).
    let label = !engine.codec().is_domain();
    for cp in block.filter(|cp| !(label && FULL_STOPS.contains(cp))) {
        for (context, c) in Context::ALL.iter().enumerate() {
            let label = c.label(cp);
            let request = Request::Encode {
                code_points: label.clone(),
                flags: None,
            };
            if !askable(engine, &request) {
                continue;
            }
            let Ok(answer) = ask(reference, &request) else {
                continue;
            };
            if let Some(text) = to_decode(&label, &answer) {
                let decode = Request::Decode(text);
                if askable(engine, &decode)
                    && let Ok(reference) = ask(reference, &decode)
                {
                    decodes.push(Asked {
                        cp,
                        context,
                        request: decode,
                        reference,
                    });
                }
            }
            encodes.push(Asked {
                cp,
                context,
                request,
                reference: answer,
            });
        }
    }
    let inputs: Vec<Vec<u32>> = encodes
        .iter()
        .map(|a| match &a.request {
            Request::Encode { code_points, .. } => code_points.clone(),
            Request::Decode(_) => Vec::new(),
        })
        .collect();
    let encoded = engine.encode_many(&inputs);
    let inputs: Vec<Vec<u8>> = decodes
        .iter()
        .map(|a| match &a.request {
            Request::Decode(text) => text.clone(),
            Request::Encode { .. } => Vec::new(),
        })
        .collect();
    let decoded = engine.decode_many(&inputs);
    let mut complete = true;
    for (asked, got) in encodes.iter().zip(encoded.into_iter().map(as_encoded)) {
        complete &= judge(engine, asked, got, 0, found);
        found.encode += 1;
    }
    for (asked, got) in decodes.iter().zip(decoded.into_iter().map(as_decoded)) {
        complete &= judge(engine, asked, got, 1, found);
        found.decode += 1;
    }
    complete
}

/// What to ask ToUnicode beside ToASCII of `label`: the reference's
/// ASCII form when it holds an A-label, else, for a label that holds
/// non-ASCII, the `xn--` label of its Punycode (which ToUnicode must
/// refuse where ToASCII does); `None` for an ASCII label the reference
/// leaves without an A-label.
fn to_decode(label: &[u32], reference: &Expected) -> Option<Vec<u8>> {
    if let Expected::Encoded(ascii) = reference
        && ascii.to_ascii_lowercase().windows(4).any(|w| w == b"xn--")
    {
        return Some(ascii.clone());
    }
    if label.iter().all(|&cp| cp < 0x80) {
        return None;
    }
    let punycode = crate::punycode::encode(label, None).ok()?;
    Some([b"xn--".as_slice(), &punycode].concat())
}

/// An encoding's answer as [`ask`] gives it.
fn as_encoded(answer: EncodeResult) -> Result<Expected, EngineError> {
    match answer {
        Ok(text) => Ok(Expected::Encoded(text)),
        Err(EngineError::Rejected(Some(kind))) => Ok(Expected::Error(kind)),
        Err(e) => Err(e),
    }
}

/// A decoding's answer as [`ask`] gives it.
fn as_decoded(answer: DecodeResult) -> Result<Expected, EngineError> {
    match answer {
        Ok(decoded) => Ok(Expected::Decoded(CodePoints::from(decoded))),
        Err(EngineError::Rejected(Some(kind))) => Ok(Expected::Error(kind)),
        Err(e) => Err(e),
    }
}

/// Judges one answer and records it; `false` when it did not come (cut
/// by the deadline or an interruption).
fn judge(
    engine: &dyn Engine,
    asked: &Asked,
    got: Result<Expected, EngineError>,
    direction: u8,
    found: &mut Found,
) -> bool {
    if matches!(got, Err(EngineError::Cancelled)) || process::interrupted() {
        found.stats.unfinished += 1;
        return false;
    }
    found.mark(asked.cp);
    found.stats.requests += 1;
    let codec = engine.codec();
    let caps = engine.capabilities();
    match evaluate(&caps, codec, &asked.request, &asked.reference, &got, true) {
        Verdict::Same => found.stats.same += 1,
        Verdict::Unfinished => found.stats.unfinished += 1,
        Verdict::Skip { class, .. } => {
            *found.stats.skipped.entry(class.id().into()).or_default() += 1
        }
        Verdict::Divergence { class, detail } => {
            let len = causes::request_len(&asked.request);
            add_divergence(&mut found.stats, class.id(), 1, &detail, len);
        }
        Verdict::Nonconformance(detail) => {
            found.stats.nonconformances += 1;
            let key = causes::key_of(&caps, codec, &asked.request, &asked.reference, &got);
            let explanation =
                super::witness::explain(codec, key.class(), &asked.request, got.as_ref().ok());
            let group = found.groups.entry((key, explanation)).or_default();
            group.count += 1;
            *group.code_points.entry(asked.cp).or_default() |= 1 << asked.context;
            take_first(
                &mut group.first,
                First {
                    order: (asked.cp, asked.context, direction),
                    request: asked.request.clone(),
                    detail,
                },
            );
        }
    }
    true
}

/// Code points, each with the contexts (a bit each) it showed in.
type Points = Vec<(u32, u8)>;

/// The causes of what the sweep found: one a group, split where a
/// baseline records its key and explanation on some of its code points
/// only (the others a cause of their own beside the known one), each
/// reproduced by its first code point and confirmed by asking it again.
fn resolve(
    engine: &dyn Engine,
    found: &Found,
    baseline: Option<&Baseline>,
    span: Span,
) -> Vec<Cause> {
    let caps = engine.capabilities();
    // Code points not asked are bridged: a range runs across the
    // surrogates a declaration leaves out.
    let bridged = |cp: u32| !caps.domain.contains(cp) && (span.from..=span.to).contains(&cp);
    let mut causes = Vec::new();
    for ((key, explanation), group) in &found.groups {
        let Some(first) = &group.first else { continue };
        let recorded = baseline.map(|b| recorded_ranges(b, key, explanation));
        let (known, new): (Points, Points) = group
            .code_points
            .iter()
            .map(|(&cp, &bits)| (cp, bits))
            .partition(|(cp, _)| recorded.as_ref().is_some_and(|r| r.contains(*cp)));
        let recorded_any = recorded.as_ref().is_some_and(|r| !r.is_empty());
        let mut parts = Vec::new();
        if !known.is_empty() {
            parts.push((known, None));
        }
        if !new.is_empty() {
            let beside = recorded_any.then(|| {
                format!(
                    "new code points beside a known cause of the sweep (recorded on {}): {}",
                    recorded
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    Ranges::of(new.iter().map(|(cp, _)| *cp), bridged)
                )
            });
            parts.push((new, beside));
        }
        for (points, beside) in parts {
            let ranges = Ranges::of(points.iter().map(|(cp, _)| *cp), bridged);
            let bits = points.iter().fold(0u8, |all, (_, b)| all | b);
            // The reproducer: the group's first observation when it is in
            // this part, else this part's first code point in its first
            // context (asked to encode).
            let (request, detail) = if ranges.contains(first.order.0) {
                (first.request.clone(), first.detail.clone())
            } else {
                let (cp, bits) = points[0];
                let context = Context::ALL[bits.trailing_zeros() as usize];
                let request = question(engine.codec(), key.direction, context, cp)
                    .unwrap_or_else(|| first.request.clone());
                (request, first.detail.clone())
            };
            let (detail, confirmation) = match causes::confirm(engine, key, None, &request) {
                Ok(detail) => (detail, Confirmation::Confirmed),
                Err((confirmation, shown)) => (shown.unwrap_or(detail), confirmation),
            };
            let count = if points.len() == group.code_points.len() {
                group.count
            } else {
                points.iter().map(|(_, b)| u64::from(b.count_ones())).sum()
            };
            causes.push(Cause {
                key: key.clone(),
                shape: causes::shape(&request),
                count,
                vectors: Vec::new(),
                property: None,
                input: request.to_string(),
                original: request.to_string(),
                request,
                detail,
                confirmation,
                explanations: vec![explanation.clone()],
                by_rule: Vec::new(),
                beside,
                entry_point: None,
                swept: Some(Swept {
                    code_points: ranges.len(),
                    ranges,
                    contexts: Context::ALL
                        .iter()
                        .enumerate()
                        .filter(|(k, _)| bits & (1 << k) != 0)
                        .map(|(_, c)| c.name())
                        .collect(),
                }),
            });
        }
    }
    causes
}

/// The sweep's question about `cp` in `context`, in `direction`
/// (`encode` or `decode`), as [`sweep_block`] asks it.
fn question(codec: Codec, direction: &str, context: Context, cp: u32) -> Option<Request> {
    let label = context.label(cp);
    let encode = Request::Encode {
        code_points: label.clone(),
        flags: None,
    };
    if direction == "encode" {
        return Some(encode);
    }
    let reference = crate::engines::reference_for(codec)?;
    let answer = ask(reference.as_ref(), &encode).ok()?;
    to_decode(&label, &answer).map(Request::Decode)
}

/// The code points on which `baseline` records the sweep's cause of `key`
/// and `explanation`.
fn recorded_ranges(baseline: &Baseline, key: &Key, explanation: &str) -> Ranges {
    let mut texts = Vec::new();
    for entry in &baseline.cause {
        let (Some(points), Some(explained)) = (&entry.code_points, &entry.explained) else {
            continue;
        };
        if entry.key().as_ref() == Some(key) && super::witness::covers(explained, explanation) {
            texts.extend(points.iter().cloned());
        }
    }
    Ranges::parse(&texts).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::LabelProfile;

    #[test]
    fn spans_parse_in_either_spelling() {
        assert_eq!(
            Span::parse("U+A700..U+A7FF"),
            Ok(Span {
                from: 0xA700,
                to: 0xA7FF
            })
        );
        assert_eq!(Span::parse("u+0041-u+0041").map(Span::len), Ok(1));
        assert!(Span::parse("U+0042..U+0041").is_err());
        assert!(Span::parse("U+110000").is_err());
        assert_eq!(Span::ALL.to_string(), "U+0000..U+10FFFF");
    }

    /// The label reference itself, with a table error on one code point:
    /// ToASCII refuses `bad` wherever it stands.
    struct Planted {
        reference: Box<dyn Engine>,
        bad: Option<u32>,
    }

    impl Engine for Planted {
        fn name(&self) -> &str {
            "planted"
        }
        fn codec(&self) -> Codec {
            self.reference.codec()
        }
        fn capabilities(&self) -> crate::engines::Capabilities {
            self.reference.capabilities()
        }
        fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
            if self.bad.is_some_and(|b| input.contains(&b)) {
                return Err(EngineError::Rejected(None));
            }
            self.reference.encode(input, flags)
        }
        fn decode(&self, input: &[u8]) -> DecodeResult {
            self.reference.decode(input)
        }
    }

    fn planted(bad: Option<u32>) -> Planted {
        Planted {
            reference: crate::engines::reference_for(Codec::Label(LabelProfile::DEFAULT)).unwrap(),
            bad,
        }
    }

    fn sweep(engine: &dyn Engine, span: Span) -> CheckReport {
        let settings = CheckSettings::new(Duration::from_secs(600), 1);
        run(engine, &settings, span, &mut |_, _, _| {}).unwrap()
    }

    #[test]
    fn a_table_error_on_one_code_point_is_one_range_of_one() {
        let span = Span {
            from: 0xE0,
            to: 0x17F,
        };
        let clean = sweep(&planted(None), span);
        assert!(clean.campaign.causes.is_empty(), "{}", clean.to_text());
        let report = sweep(&planted(Some(0xE9)), span);
        let causes = &report.campaign.causes;
        assert_eq!(causes.len(), 1, "{}", report.to_text());
        let swept = causes[0].swept.as_ref().unwrap();
        assert_eq!(swept.ranges.strings(), ["U+00E9"]);
        assert!(
            swept
                .contexts
                .starts_with(&["alone", "start", "middle", "end"])
        );
        assert_eq!(causes[0].key.kind, Kind::RejectsValid);
        assert_eq!(causes[0].input, "encode [u+00E9] without flags");
    }
}
