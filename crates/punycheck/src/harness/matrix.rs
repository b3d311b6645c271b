//! The conformance matrix: every implementation asked the same generated
//! questions, each answer judged against the codec's reference (the C
//! reference for Punycode, the first implementation), and every pair of
//! implementations compared through those verdicts.
//!
//! For a pair (A, B) and one question: if both answered as the reference
//! did, they agree; if either one's difference is explained by a divergence
//! class (or it was not asked, for a declared reason), the pair differs in a
//! classified way; if either one's answer is a nonconformance, the pair
//! differs unexplained.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::classes::Class;
use super::compare::{Verdict, judge_answer, reference_for};
use super::generate::Generator;
use crate::codec::Codec;
use crate::engines::Engine;

/// How one pair of implementations compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Questions both answered as the reference did.
    pub agree: u64,
    /// Questions where they differ for a classified reason, by class.
    pub classified: BTreeMap<Class, u64>,
    /// Questions where they differ and nothing explains it.
    pub unexplained: u64,
}

/// The whole matrix.
#[derive(Clone, Debug, Default)]
pub struct Matrix {
    /// The implementations, in order.
    pub names: Vec<String>,
    /// `cells[a][b]`, for a != b.
    pub cells: Vec<Vec<Cell>>,
    /// Per implementation: verdict counts against the reference.
    pub against_reference: Vec<Cell>,
    /// Per implementation: the first unexplained difference, if any.
    pub examples: Vec<Option<String>>,
    /// Per implementation: how often each of its declared deviations (by
    /// its "id: reason" text) explained a difference.
    pub deviations_hit: Vec<BTreeMap<String, u64>>,
    /// Questions asked.
    pub requests: u64,
}

enum Kind {
    Same,
    Classified(Class),
    Unexplained(String),
}

/// Runs `cases` generated questions from `seed` over `engines`, which all
/// implement the same codec, judged against that codec's reference.
pub fn run(engines: &[Box<dyn Engine>], seed: u64, cases: u64) -> Matrix {
    let codec = engines.first().map_or(Codec::Punycode, |e| e.codec());
    let n = engines.len();
    let mut matrix = Matrix {
        names: engines.iter().map(|e| e.name().to_string()).collect(),
        cells: vec![vec![Cell::default(); n]; n],
        against_reference: vec![Cell::default(); n],
        examples: vec![None; n],
        deviations_hit: vec![BTreeMap::new(); n],
        requests: 0,
    };
    let mut generator = Generator::for_codec(codec, seed);
    for _ in 0..cases {
        let request = generator.next_request();
        let Some(want) = reference_for(codec, &request) else {
            continue;
        };
        matrix.requests += 1;
        let kinds: Vec<Kind> = engines
            .iter()
            .enumerate()
            .map(
                |(k, engine)| match judge_answer(engine.as_ref(), &request, &want, true).0 {
                    Verdict::Same | Verdict::Unfinished => Kind::Same,
                    Verdict::Divergence {
                        class: Class::Listed,
                        detail,
                    } => {
                        *matrix.deviations_hit[k].entry(detail).or_default() += 1;
                        Kind::Classified(Class::Listed)
                    }
                    Verdict::Skip { class, .. } | Verdict::Divergence { class, .. } => {
                        Kind::Classified(class)
                    }
                    Verdict::Nonconformance(detail) => {
                        Kind::Unexplained(format!("{request}: {detail}"))
                    }
                },
            )
            .collect();
        for (a, kind) in kinds.iter().enumerate() {
            tally(&mut matrix.against_reference[a], kind, None);
            if let (Kind::Unexplained(example), None) = (kind, &matrix.examples[a]) {
                matrix.examples[a] = Some(example.clone());
            }
            for (b, other) in kinds.iter().enumerate() {
                if a != b {
                    tally(&mut matrix.cells[a][b], kind, Some(other));
                }
            }
        }
    }
    matrix
}

fn tally(cell: &mut Cell, mine: &Kind, theirs: Option<&Kind>) {
    let pair = [Some(mine), theirs];
    if pair
        .iter()
        .flatten()
        .any(|k| matches!(k, Kind::Unexplained(_)))
    {
        cell.unexplained += 1;
    } else if let Some(class) = pair.iter().flatten().find_map(|k| match k {
        Kind::Classified(c) => Some(*c),
        _ => None,
    }) {
        *cell.classified.entry(class).or_default() += 1;
    } else {
        cell.agree += 1;
    }
}

/// One letter per class, for the matrix cells.
fn letter(class: Class) -> char {
    match class {
        Class::Domain => 'D',
        Class::Annotations => 'A',
        Class::InputForm => 'I',
        Class::LengthLimit => 'L',
        Class::ErrorDetail => 'E',
        Class::Listed => 'K',
        Class::Direction => 'R',
        Class::UnicodeVersion => 'U',
    }
}

fn short(cell: &Cell) -> String {
    if cell.unexplained > 0 {
        format!("FAIL {}", cell.unexplained)
    } else if cell.classified.is_empty() {
        "=".to_string()
    } else {
        let letters: String = cell.classified.keys().map(|&c| letter(c)).collect();
        format!("~{letters}")
    }
}

impl Matrix {
    /// Whether no implementation has an unexplained difference.
    pub fn clean(&self) -> bool {
        self.against_reference.iter().all(|c| c.unexplained == 0)
    }

    /// The matrix as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let width = self
            .names
            .iter()
            .map(String::len)
            .chain(self.cells.iter().flatten().map(|c| short(c).len()))
            .max()
            .unwrap_or(8)
            .max(9)
            + 2;
        let legend: Vec<String> = Class::ALL
            .iter()
            .map(|&c| format!("{} {}", letter(c), c.id()))
            .collect();
        let _ = writeln!(
            out,
            "pairwise, over {} generated questions:\n  = same answers everywhere; ~XY differ only in the classes named ({}); FAIL n = n unexplained differences\n",
            self.requests,
            legend.join(", ")
        );
        let _ = write!(out, "{:width$}", "");
        for name in &self.names {
            let _ = write!(out, "{name:>width$}");
        }
        out.push('\n');
        for (a, name) in self.names.iter().enumerate() {
            let _ = write!(out, "{name:width$}");
            for b in 0..self.names.len() {
                let text = if a == b {
                    "-".to_string()
                } else {
                    short(&self.cells[a][b])
                };
                let _ = write!(out, "{text:>width$}");
            }
            out.push('\n');
        }
        let reference = self.names.first().map_or("none", String::as_str);
        let _ = writeln!(
            out,
            "\nagainst the reference ({reference}), per implementation:"
        );
        for (a, name) in self.names.iter().enumerate() {
            let cell = &self.against_reference[a];
            let classes: Vec<String> = cell
                .classified
                .iter()
                .map(|(c, n)| format!("{} {n}", c.id()))
                .collect();
            let _ = writeln!(
                out,
                "  {name:<12} {} identical, {} classified{}, {} unexplained",
                cell.agree,
                cell.classified.values().sum::<u64>(),
                if classes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", classes.join(", "))
                },
                cell.unexplained
            );
            if let Some(example) = &self.examples[a] {
                let _ = writeln!(out, "      first unexplained: {example}");
            }
            for (deviation, n) in &self.deviations_hit[a] {
                let _ = writeln!(out, "      listed deviation, {n} times: {deviation}");
            }
        }
        out
    }
}
