//! Accepted deviations of an implementation under test: a baseline file.
//!
//! `check --write-baseline FILE` records every cause a run found, with its
//! reproducer. `check --baseline FILE` then reports a cause whose key is
//! recorded as known (not failing), fails on every cause that is not, and
//! fails on every recorded cause that no longer reproduces (asked again,
//! its reproducer no longer shows it), as the built-in implementations'
//! expectations do: a fixed quirk must leave the baseline, so it cannot
//! come back unnoticed.
//!
//! The file is TOML, one `[[cause]]` table per cause:
//!
//! ```toml
//! [[cause]]
//! direction = "decode"
//! kind = "accepts-invalid"
//! reference = "bad_input (not a digit)"
//! got = "success"
//! decode = "ab-c_d"      # or: encode = "u+0061 u+00E9", flags = false
//! note = "accepts _ as a digit; upstream issue 123"
//! ```
//!
//! A reproducer is written as readably as it can be: a decoding's input as
//! its text (`decode`, a TOML string, which escapes what it needs) when it
//! is printable ASCII, and only otherwise as hexadecimal bytes
//! (`decode_hex = "c3a9"`); an encoding's code points as `u+XXXX` tokens,
//! a run of one code point as one `u+XXXX*N` token. A slow cause's
//! reproducer is its family at a size (`encode = "distinct-ascending:4096"`,
//! or `decode_of = "one-run:32768"` for the clean-room encoding of those
//! code points), and it is replayed by the cost probe's rule, not by its
//! one question. All of them are read.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::causes::{Cause, Key, Kind, Witnessed};
use super::compare::{Verdict, ask, evaluate, reference_for};
use super::cost;
use super::errors::DataError;
use super::properties;
use crate::engines::Engine;
use crate::vocabulary::{CodePoints, Request, parse_hex};

/// How many times the questions of a check (`--cases`, and its
/// `--seconds` ceiling) a run that writes a baseline asks: the witnesses
/// of a known cause ([`Entry::vectors`], [`Entry::explained`]) are
/// recorded from more questions than the gate asks, so that the gate
/// meets its known causes among them.
pub const RECORDING_FACTOR: u64 = 10;

/// How long replaying a slow cause of a baseline may take: its families
/// measured again by the cost probe's rule.
const SLOW_REPLAY: Duration = Duration::from_secs(60);

/// One recorded cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// `encode` or `decode`.
    pub direction: String,
    /// The kind, as [`Kind`] names it in kebab case.
    pub kind: Kind,
    /// What the reference answered, in brief.
    pub reference: String,
    /// What the implementation answered, in brief.
    pub got: String,
    /// The reproducer, for an encoding: `u+XXXX` tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encode: Option<String>,
    /// Whether the encoding passes its case flags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<bool>,
    /// The reproducer, for a decoding of printable ASCII: its text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decode: Option<String>,
    /// The reproducer, for a decoding of other bytes: its bytes in
    /// hexadecimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decode_hex: Option<String>,
    /// The reproducer, for a decoding of the clean-room encoding of code
    /// points (a slow cause's: `distinct-shuffled:16384`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decode_of: Option<String>,
    /// The named questions (vectors, small cases) that showed it when it
    /// was recorded; another that shows its class is a new cause. `None`
    /// in a baseline written before witnesses were recorded (its class
    /// alone is then known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vectors: Option<Vec<String>>,
    /// What explained its observations beyond the class when it was
    /// recorded ([`super::witness::explain`]: `the byte 0x2D`, `its largest
    /// value needs 32 bits`; empty when the class says it all); an
    /// observation with another explanation is a new cause. `None` as for
    /// `vectors`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explained: Option<Vec<String>>,
    /// For a cause of the sweep of every code point
    /// ([`super::sweep`]), the code points it was recorded on, as ranges
    /// (`U+A7F1`, `U+13F8..U+13FD`): a later sweep's cause of the same key
    /// and explanation is known on these only, and any other code point
    /// is a new cause beside it. `None` for every other cause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_points: Option<Vec<String>>,
    /// Whether the cause is a property (round trip, uniqueness).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub property: bool,
    /// Why it is accepted: for the reader; punycheck keeps it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A family that the cost probe found growing faster than linear and near
/// the budget when the baseline was recorded: not a cause there, but the
/// same algorithm crosses the margin on a slower machine or at a busier
/// moment, and its slow cause is then this one, not a new one
/// ([`NearBudget::covers`]). Written `[[near-budget]]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NearBudget {
    /// `encode` or `decode`.
    pub direction: String,
    /// The family, as [`cost::Family::name`] names it.
    pub family: String,
    /// Its time at its limit then, in the probe's seconds (CPU time as
    /// the reference machine spends it, [`super::calibration`]), to the
    /// hundredth.
    pub seconds: f64,
    /// Why it is accepted: for the reader; punycheck keeps it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl NearBudget {
    /// The record of `series`, when it grows faster than linear and is
    /// near the budget: at least a third of it at its limit.
    pub fn of(series: &cost::Series, budget: Duration) -> Option<Self> {
        (series.verdict(budget) == cost::Verdict::Near && series.superlinear()).then(|| {
            NearBudget {
                direction: series.direction.name().to_string(),
                family: series.family.name().to_string(),
                // To the hundredth, as a reader takes it.
                seconds: (series.reference_at_limit().unwrap_or_default() * 100.0).round() / 100.0,
                note: String::new(),
            }
        })
    }

    /// Whether this record covers `series` found slow: the same direction
    /// and family, at most [`cost::MARGIN`] times its recorded time at the
    /// limit. A family grown slower than that is a new cause: a steeper
    /// algorithm, not another machine.
    pub fn covers(&self, series: &cost::Series) -> bool {
        self.direction == series.direction.name()
            && self.family == series.family.name()
            && series
                .reference_at_limit()
                .is_some_and(|s| s <= cost::MARGIN * self.seconds)
    }
}

/// A baseline file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The recorded causes.
    #[serde(default)]
    pub cause: Vec<Entry>,
    /// The families near the budget when it was recorded.
    #[serde(default, rename = "near-budget", skip_serializing_if = "Vec::is_empty")]
    pub near_budget: Vec<NearBudget>,
}

impl Entry {
    /// Records `cause`.
    pub fn of(cause: &Cause) -> Self {
        let (mut encode, mut flags, mut decode, mut decode_hex) = (None, None, None, None);
        let mut decode_of = None;
        match &cause.request {
            // A slow cause's input is a family at a size, written so.
            Request::Encode { .. } if cause.key.kind == Kind::Slow => {
                encode = Some(cause.input.clone());
                flags = Some(false);
            }
            Request::Decode(_) if cause.key.kind == Kind::Slow => {
                decode_of = Some(cause.input.clone());
            }
            Request::Encode {
                code_points,
                flags: given,
            } => {
                encode = Some(CodePoints::with_flags(code_points, given.as_deref()).compact());
                flags = Some(given.is_some());
            }
            Request::Decode(bytes) if bytes.iter().all(|b| (0x20..0x7F).contains(b)) => {
                decode = Some(String::from_utf8_lossy(bytes).into_owned());
            }
            Request::Decode(bytes) => {
                decode_hex = Some(bytes.iter().map(|b| format!("{b:02x}")).collect());
            }
        }
        // A slow cause is witnessed by its family alone.
        let slow = cause.key.kind == Kind::Slow;
        let mut vectors = cause.vectors.clone();
        vectors.sort();
        vectors.dedup();
        Entry {
            direction: cause.key.direction.to_string(),
            kind: cause.key.kind,
            reference: cause.key.reference.clone(),
            got: cause.key.got.clone(),
            encode,
            flags,
            decode,
            decode_hex,
            decode_of,
            vectors: (!slow).then_some(vectors),
            explained: (!slow).then(|| cause.explanations.clone()),
            code_points: cause.swept.as_ref().map(|s| s.ranges.strings()),
            property: cause.property.is_some(),
            note: String::new(),
        }
    }

    /// Whether this entry records `cause`: its key, and a cause that is
    /// not new beside a known one ([`Cause::beside`]). A cause of the
    /// sweep of every code point is recorded only by an entry of the sweep
    /// whose explanation is its own and whose ranges hold all its code
    /// points ([`Entry::code_points`]), and such an entry records no other
    /// cause.
    pub fn records(&self, cause: &Cause) -> bool {
        if cause.beside.is_some() || !self.matches(&cause.key) {
            return false;
        }
        match (&cause.swept, &self.code_points) {
            (None, None) => true,
            (Some(swept), Some(recorded)) => {
                let explained = self.explained.iter().flatten();
                super::swept::Ranges::parse(recorded).is_ok_and(|r| swept.ranges.within(&r))
                    && cause
                        .explanations
                        .iter()
                        .all(|e| super::witness::covers(explained.clone(), e))
            }
            _ => false,
        }
    }

    /// Whether it was recorded with its witnesses (a slow cause needs
    /// none: its family is its witness).
    pub fn witnessed(&self) -> bool {
        self.kind == Kind::Slow || self.explained.is_some()
    }

    /// Whether this entry records `key`. A slow cause stands for the slow
    /// cause of its direction, whichever family it names (or none, in a
    /// baseline written before slow causes were keyed by family,
    /// [`cost::SLOW_GOT`]): the probe reports the first family of a
    /// direction that it finds slow, and which one it reaches first within
    /// its share of `--seconds` may depend on the machine's load, when
    /// several families meet the same slow algorithm.
    pub fn matches(&self, key: &Key) -> bool {
        if self.kind == Kind::Slow {
            return key.kind == Kind::Slow && key.direction == self.direction;
        }
        self.key().as_ref() == Some(key)
    }

    /// The key of the cause recorded, when its direction is one.
    pub fn key(&self) -> Option<Key> {
        let direction = match self.direction.as_str() {
            "encode" => "encode",
            "decode" => "decode",
            _ => return None,
        };
        Some(Key {
            direction,
            kind: self.kind,
            reference: self.reference.clone(),
            got: self.got.clone(),
        })
    }

    /// The reproducer.
    pub fn request(&self) -> Result<Request, DataError> {
        if let Some(tokens) = &self.decode_of {
            if self.encode.is_some() || self.decode.is_some() || self.decode_hex.is_some() {
                return Err(DataError::invalid(
                    "baseline",
                    "a baseline cause needs one of encode, decode, decode_hex and decode_of",
                ));
            }
            let cps = CodePoints::parse(tokens).map_err(|e| DataError::invalid("baseline", e))?;
            return crate::punycode::encode(&cps.values, None)
                .map(Request::Decode)
                .map_err(|e| DataError::invalid("baseline", e));
        }
        match (&self.encode, &self.decode, &self.decode_hex) {
            (Some(tokens), None, None) => {
                let cps =
                    CodePoints::parse(tokens).map_err(|e| DataError::invalid("baseline", e))?;
                Ok(Request::Encode {
                    flags: self.flags.unwrap_or(false).then(|| cps.flags.clone()),
                    code_points: cps.values,
                })
            }
            (None, Some(text), None) => Ok(Request::Decode(text.clone().into_bytes())),
            (None, None, Some(hex)) => Ok(Request::Decode(
                parse_hex(hex).map_err(|e| DataError::invalid("baseline", e))?,
            )),
            _ => Err(DataError::invalid(
                "baseline",
                "a baseline cause needs one of encode, decode and decode_hex",
            )),
        }
    }

    /// Whether this run's cost probe measured the family of this slow
    /// cause (any family of its direction, for an entry that names none)
    /// growing faster than linear and near the budget: the same algorithm,
    /// on a faster machine or at a quieter moment, is still there.
    fn near_budget_in(&self, series: &[cost::Series], budget: Duration) -> bool {
        let family = cost::family_of_slow(&self.got);
        self.kind == Kind::Slow
            && series.iter().any(|s| {
                s.direction.name() == self.direction
                    && family.is_none_or(|f| f == s.family)
                    && NearBudget::of(s, budget).is_some()
            })
    }

    /// Whether the reproducer still shows a nonconformance (or a broken
    /// property) in `engine`; for a slow cause, whether its family (every
    /// family of its direction, for an entry of an older baseline) is
    /// still slow by the cost probe's rule under `cost`.
    pub fn still_reproduces(
        &self,
        engine: &dyn Engine,
        cost: cost::Bounds,
    ) -> Result<bool, DataError> {
        let request = self.request()?;
        if self.kind == Kind::Slow {
            let direction = match self.direction.as_str() {
                "encode" => cost::Direction::Encode,
                _ => cost::Direction::Decode,
            };
            let settings = cost::Settings {
                budget: cost.budget,
                max: cost.max,
                until: Instant::now() + SLOW_REPLAY,
            };
            let family = cost::family_of_slow(&self.got);
            return Ok(cost::still_superlinear(
                engine, direction, family, &settings,
            ));
        }
        let answer = ask(engine, &request);
        if self.kind == Kind::EntryPoints {
            return Ok(properties::check_entry_points(engine, &request, &answer).is_some());
        }
        if self.property {
            return Ok(properties::check_all(engine, &request, &answer, true).is_some());
        }
        let Some(reference) = reference_for(engine.codec(), &request) else {
            return Ok(false);
        };
        let verdict = evaluate(
            &engine.capabilities(),
            engine.codec(),
            &request,
            &reference,
            &answer,
            true,
        );
        Ok(matches!(verdict, Verdict::Nonconformance(_)))
    }
}

impl Baseline {
    /// Parses a baseline file.
    pub fn parse(text: &str) -> Result<Self, DataError> {
        let baseline: Baseline =
            toml::from_str(text).map_err(|e| DataError::invalid("baseline", e))?;
        for entry in &baseline.cause {
            entry.request()?;
            if let Some(points) = &entry.code_points {
                super::swept::Ranges::parse(points)
                    .map_err(|e| DataError::invalid("baseline", format!("code_points: {e}")))?;
            }
        }
        Ok(baseline)
    }

    /// The baseline of `causes`, and of the cost probe's `series` near
    /// the `budget` ([`NearBudget::of`]).
    pub fn of(causes: &[Cause], series: &[cost::Series], budget: Duration) -> Self {
        Baseline {
            cause: causes.iter().map(Entry::of).collect(),
            near_budget: series
                .iter()
                .filter_map(|s| NearBudget::of(s, budget))
                .collect(),
        }
    }

    /// Whether it records the slow `series` as near the budget.
    fn covers(&self, series: &cost::Series) -> bool {
        self.near_budget.iter().any(|n| n.covers(series))
    }

    /// The witnesses of every key it records with them, for
    /// [`super::causes::Collector::witnessed`]: the union of its entries'
    /// of that key. A key that an entry records without witnesses (an
    /// older baseline's) is left out: its class alone is known.
    pub fn witnesses(&self) -> BTreeMap<Key, Witnessed> {
        let mut witnesses: BTreeMap<Key, Witnessed> = BTreeMap::new();
        let mut classes_only = Vec::new();
        // A sweep's causes are known by their code points
        // ([`Entry::records`]), not by the witnesses of a check.
        for entry in self.cause.iter().filter(|e| e.code_points.is_none()) {
            let Some(key) = entry.key() else { continue };
            match (&entry.vectors, &entry.explained) {
                (Some(vectors), Some(explained)) => {
                    let w = witnesses.entry(key).or_default();
                    w.names.extend(vectors.iter().cloned());
                    w.explanations.extend(explained.iter().cloned());
                }
                _ => classes_only.push(key),
            }
        }
        witnesses.retain(|key, _| !classes_only.contains(key));
        witnesses
    }

    /// How many of its causes were recorded without witnesses.
    pub fn unwitnessed(&self) -> usize {
        self.cause.iter().filter(|e| !e.witnessed()).count()
    }

    /// The file's text.
    pub fn to_toml(&self) -> String {
        let head = "# punycheck baseline: causes accepted for now (see `punycheck check --baseline`).\n# A cause listed here is reported as known; one that no longer reproduces fails the check.\n\n";
        head.to_string() + &toml::to_string(self).expect("a baseline serializes")
    }
}

/// What a baseline says about a run's causes.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Judgement {
    /// Indexes of the causes the baseline records (known, not failing).
    pub known: Vec<usize>,
    /// Recorded causes this run did not meet whose reproducer still shows
    /// them (known, still there).
    pub still_there: Vec<Entry>,
    /// Recorded causes that no longer reproduce (failing: remove them).
    pub gone: Vec<Entry>,
    /// How many recorded causes have no witnesses (a baseline written
    /// before they were recorded): only their class is known.
    pub unwitnessed: usize,
    /// Recorded causes some of whose recorded witnesses (vectors and
    /// small cases) now pass (failing: record the baseline again).
    pub narrowed: Vec<Narrowed>,
}

/// A recorded cause that some of its recorded witnesses no longer show:
/// they were asked and now pass. The implementation changed where the
/// baseline says it deviates, towards the reference; a regression gate
/// says so rather than keep a record that no longer holds.
#[derive(Clone, Debug, Serialize)]
pub struct Narrowed {
    /// The recorded cause.
    pub entry: Entry,
    /// The names of its witnesses that now pass.
    pub passing: Vec<String>,
}

/// Whether a cause of `kind` is judged by time or by resources (a hang,
/// a slow answer, memory), so that a witness of it may pass on a quieter
/// machine: such witnesses never narrow a cause.
fn judged_by_resources(kind: Kind) -> bool {
    matches!(kind, Kind::Hang | Kind::Slow | Kind::Memory)
}

/// The indexes of the `causes` that `baseline` records: as causes, or, a
/// slow one, as a family near the budget whose `series` this run measured
/// ([`NearBudget::covers`]).
pub fn known(baseline: &Baseline, causes: &[Cause], series: &[cost::Series]) -> Vec<usize> {
    causes
        .iter()
        .enumerate()
        .filter(|(_, cause)| {
            baseline.cause.iter().any(|e| e.records(cause))
                || (cause.key.kind == Kind::Slow
                    && series.iter().any(|s| {
                        s.direction.name() == cause.key.direction
                            && cost::slow_got(s.family) == cause.key.got
                            && baseline.covers(s)
                    }))
        })
        .map(|(k, _)| k)
        .collect()
}

/// Judges `causes` found in `engine` against `baseline`; `passed` holds
/// the names of the vectors and small cases this run asked and found
/// right, which narrow the recorded causes they witnessed unless they
/// showed a cause all the same (entry points that disagree on them).
pub fn judge(
    baseline: &Baseline,
    causes: &[Cause],
    series: &[cost::Series],
    passed: &BTreeSet<&str>,
    engine: &dyn Engine,
    cost: cost::Bounds,
) -> Result<Judgement, DataError> {
    let mut judgement = Judgement {
        known: known(baseline, causes, series),
        unwitnessed: baseline.unwitnessed(),
        ..Judgement::default()
    };
    // A vector right by the reference may still show a cause of its own
    // (another entry point answering it otherwise): it witnesses that.
    let showed = |name: &str| causes.iter().any(|c| c.vectors.iter().any(|v| v == name));
    for entry in &baseline.cause {
        let passing: Vec<String> = entry
            .vectors
            .iter()
            .flatten()
            .filter(|name| passed.contains(name.as_str()) && !showed(name))
            .cloned()
            .collect();
        if !passing.is_empty() && !judged_by_resources(entry.kind) {
            judgement.narrowed.push(Narrowed {
                entry: entry.clone(),
                passing,
            });
        }
    }
    for entry in &baseline.cause {
        if causes.iter().any(|c| entry.records(c)) {
            continue;
        }
        if entry.near_budget_in(series, cost.budget) || entry.still_reproduces(engine, cost)? {
            judgement.still_there.push(entry.clone());
        } else {
            judgement.gone.push(entry.clone());
        }
    }
    // A cause gone is said once, as gone.
    let gone = &judgement.gone;
    judgement.narrowed.retain(|n| !gone.contains(&n.entry));
    Ok(judgement)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_baseline_reads_back_what_it_wrote() {
        let entry = Entry {
            direction: "decode".into(),
            kind: Kind::AcceptsInvalid,
            reference: "bad_input (not a digit)".into(),
            got: "success".into(),
            encode: None,
            flags: None,
            decode: None,
            decode_hex: Some("61622d635f64".into()),
            decode_of: None,
            vectors: None,
            explained: None,
            code_points: None,
            property: false,
            note: "known".into(),
        };
        let baseline = Baseline {
            cause: vec![entry.clone()],
            near_budget: Vec::new(),
        };
        let text = baseline.to_toml();
        assert!(text.contains("kind = \"accepts-invalid\""), "{text}");
        assert_eq!(Baseline::parse(&text).unwrap(), baseline);
        assert_eq!(
            entry.request().unwrap(),
            Request::Decode(b"ab-c_d".to_vec())
        );
        assert!(Baseline::parse("[[cause]]\ndirection = \"decode\"\nkind = \"crash\"\nreference = \"x\"\ngot = \"y\"\n").is_err());
        assert!(Baseline::parse("[[cause]]\nkind = \"nonsense\"").is_err());
    }

    fn cause(request: Request) -> Cause {
        let key = Key {
            direction: super::super::causes::direction(&request),
            kind: Kind::AcceptsInvalid,
            reference: "bad_input (not a digit)".into(),
            got: "success".into(),
        };
        Cause {
            key,
            shape: String::new(),
            count: 1,
            vectors: Vec::new(),
            property: None,
            input: request.to_string(),
            detail: String::new(),
            original: request.to_string(),
            confirmation: super::super::causes::Confirmation::Confirmed,
            request,
            explanations: Vec::new(),
            by_rule: Vec::new(),
            beside: None,
            entry_point: None,
            swept: None,
        }
    }

    /// Decoding inputs are written as text when they are printable ASCII
    /// (TOML escaping what it must), as hexadecimal only otherwise; both
    /// read back, and so do the files written before, with decode_hex.
    #[test]
    fn reproducers_are_written_readably_and_read_back() {
        let requests = [
            Request::Decode(b"ab-c_d".to_vec()),
            Request::Decode(b"a\"b\\c'd ~".to_vec()),
            Request::Decode([vec![b'a'; 1927], b"-x416146o".to_vec()].concat()),
            Request::Decode(b"\xc3\xa9-\x01".to_vec()),
            Request::Decode(Vec::new()),
            Request::Encode {
                code_points: [vec![0x61; 300], vec![0x10FF70]].concat(),
                flags: None,
            },
        ];
        let baseline = Baseline::of(&requests.clone().map(cause), &[], Duration::ZERO);
        let text = baseline.to_toml();
        assert!(text.contains("decode = \"ab-c_d\"\n"), "{text}");
        assert!(text.contains(&format!("decode = \"{}-x416146o\"\n", "a".repeat(1927))));
        assert!(text.contains("decode_hex = \"c3a92d01\"\n"), "{text}");
        assert_eq!(text.matches("decode_hex").count(), 1, "{text}");
        assert!(
            text.contains("encode = \"u+0061*300 u+10FF70\"\n"),
            "{text}"
        );
        let read = Baseline::parse(&text).unwrap();
        assert_eq!(read, baseline);
        for (entry, request) in read.cause.iter().zip(&requests) {
            assert_eq!(&entry.request().unwrap(), request);
        }
        let old = "[[cause]]\ndirection = \"decode\"\nkind = \"crash\"\nreference = \"\"\ngot = \"x\"\ndecode_hex = \"2d61\"\n";
        let old = Baseline::parse(old).unwrap();
        assert_eq!(
            old.cause[0].request().unwrap(),
            Request::Decode(b"-a".to_vec())
        );
        let both = "[[cause]]\ndirection = \"decode\"\nkind = \"crash\"\nreference = \"\"\ngot = \"x\"\ndecode = \"-a\"\ndecode_hex = \"2d61\"\n";
        assert!(Baseline::parse(both).is_err());
    }

    /// A quadratic family: code points doubling from 4,096, each size four
    /// times the last's time, the last `last` seconds (extrapolated to its
    /// limit of 65,536 code points: 16 times it).
    fn quadratic(family: cost::Family, last: f64) -> cost::Series {
        let points = (0..4)
            .map(|k| cost::Point {
                size: 4096 << k,
                code_points: 4096 << k,
                seconds: 0.001 + last / 4f64.powi(3 - k),
                peak_memory: None,
                cut: false,
                factor: 1.0,
            })
            .collect();
        cost::Series {
            family,
            direction: cost::Direction::Decode,
            limit: 65_536,
            points,
            end: cost::End::Extrapolated(32_768),
        }
    }

    /// A family near the budget is recorded with its time at the limit;
    /// the same family found slow later (another machine, a busier
    /// moment) is known while within the margin of that time, and new
    /// beyond it; a family within the budget, or another family, is not
    /// recorded or covered.
    #[test]
    fn a_family_near_the_budget_is_recorded_and_covers_its_slow_cause_within_the_margin() {
        let budget = Duration::from_secs(1);
        let family = cost::Family::CombiningMarks;
        let near = quadratic(family, 0.5);
        assert_eq!(near.verdict(budget), cost::Verdict::Near);
        let within = quadratic(cost::Family::OneRun, 0.01);
        assert_eq!(within.verdict(budget), cost::Verdict::Within);
        let baseline = Baseline::of(&[], &[near.clone(), within], budget);
        assert_eq!(baseline.near_budget.len(), 1, "{baseline:?}");
        let recorded = &baseline.near_budget[0];
        assert_eq!(
            (recorded.direction.as_str(), recorded.family.as_str()),
            ("decode", "combining-marks")
        );
        let text = baseline.to_toml();
        assert!(text.contains("[[near-budget]]"), "{text}");
        assert_eq!(Baseline::parse(&text).unwrap(), baseline);

        let slow = quadratic(family, 1.0);
        assert_eq!(slow.verdict(budget), cost::Verdict::Slow);
        let cause = cost::Slow {
            series: slow.clone(),
            request: Request::Decode(b"xn--a".to_vec()),
            yardsticks: Vec::new(),
        }
        .cause(budget);
        assert_eq!(
            known(&baseline, std::slice::from_ref(&cause), &[slow]),
            vec![0]
        );
        let steeper = quadratic(family, 2.0);
        assert_eq!(
            known(&baseline, std::slice::from_ref(&cause), &[steeper]),
            Vec::<usize>::new()
        );
        let elsewhere = Baseline::of(&[], &[quadratic(cost::Family::OneRun, 0.5)], budget);
        let slow = quadratic(family, 1.0);
        assert_eq!(known(&elsewhere, &[cause], &[slow]), Vec::<usize>::new());
    }
}
