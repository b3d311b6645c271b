//! Shrinking a failing request before it is reported.
//!
//! Greedy delta debugging over runs: a run of equal elements (code points
//! with their flags, or bytes) is one unit. First each run is shortened by
//! bisection of its length, then runs are removed in chunks of halving size
//! down to single runs, then what is left is simplified run by run (code
//! points toward small values, flags cleared, bytes toward `a` and
//! lowercase), keeping each change only if the request still fails the same
//! way. Limits inside Unicode need inputs of thousands of equal elements
//! (`u+0061*3855 u+10FF70`): by runs, such an input costs a few dozen
//! attempts instead of one per element. Bounded by a number of attempts and
//! a deadline, so a slow `exec:` implementation cannot stall a run.

use std::time::Instant;

use super::compare::Request;

/// Limits on one minimization.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// At most this many evaluations of the predicate.
    pub attempts: usize,
    /// And nothing after this instant.
    pub deadline: Instant,
}

struct Search<'a> {
    still_fails: &'a mut dyn FnMut(&Request) -> bool,
    budget: Budget,
    used: usize,
}

impl Search<'_> {
    fn exhausted(&self) -> bool {
        self.used >= self.budget.attempts || Instant::now() >= self.budget.deadline
    }

    fn try_candidate(&mut self, candidate: &Request) -> bool {
        if self.exhausted() {
            return false;
        }
        self.used += 1;
        (self.still_fails)(candidate)
    }
}

/// Shrinks `request`, which fails, while `still_fails` says it does.
/// Returns the smallest failing request found (at worst `request` itself).
pub fn minimize(
    request: &Request,
    still_fails: &mut dyn FnMut(&Request) -> bool,
    budget: Budget,
) -> Request {
    let mut search = Search {
        still_fails,
        budget,
        used: 0,
    };
    let mut best = request.clone();
    loop {
        let before = best.clone();
        best = shorten_runs(&mut search, best);
        best = remove_chunks(&mut search, best);
        best = simplify(&mut search, best);
        if best == before || search.exhausted() {
            return best;
        }
    }
}

fn len(request: &Request) -> usize {
    match request {
        Request::Encode { code_points, .. } => code_points.len(),
        Request::Decode(bytes) => bytes.len(),
    }
}

fn without(request: &Request, start: usize, end: usize) -> Request {
    match request {
        Request::Encode { code_points, flags } => {
            let mut code_points = code_points.clone();
            code_points.drain(start..end);
            let flags = flags.clone().map(|mut f| {
                f.drain(start..end);
                f
            });
            Request::Encode { code_points, flags }
        }
        Request::Decode(bytes) => {
            let mut bytes = bytes.clone();
            bytes.drain(start..end);
            Request::Decode(bytes)
        }
    }
}

/// Whether elements `a` and `b` are equal (code points with their flags).
fn same(request: &Request, a: usize, b: usize) -> bool {
    match request {
        Request::Encode { code_points, flags } => {
            code_points[a] == code_points[b] && flags.as_ref().is_none_or(|f| f[a] == f[b])
        }
        Request::Decode(bytes) => bytes[a] == bytes[b],
    }
}

/// The end of the run of elements equal to the one at `start`.
fn run_end(request: &Request, start: usize) -> usize {
    (start..len(request))
        .find(|&k| !same(request, start, k))
        .unwrap_or(len(request))
}

/// The maximal runs of equal elements, as `start..end` element ranges.
fn runs(request: &Request) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < len(request) {
        let end = run_end(request, start);
        out.push(start..end);
        start = end;
    }
    out
}

/// Each run of more than one element, as short as it can be while the
/// request fails: bisection of its length, assuming (as a limit does) that
/// a longer run fails when a shorter one does. A wrong assumption only
/// leaves the run longer than it could be.
fn shorten_runs(search: &mut Search, mut best: Request) -> Request {
    let mut at = 0;
    while at < len(&best) && !search.exhausted() {
        let run = at..run_end(&best, at);
        // `high` elements are known to fail; fewer than `low` are not tried.
        let (mut low, mut high) = (1, run.len());
        while low < high && !search.exhausted() {
            let keep = low + (high - low) / 2;
            let candidate = without(&best, run.start + keep, run.start + high);
            if search.try_candidate(&candidate) {
                best = candidate;
                high = keep;
            } else {
                low = keep + 1;
            }
        }
        at = run.start + high;
    }
    best
}

fn remove_chunks(search: &mut Search, mut best: Request) -> Request {
    let mut chunk = runs(&best).len().div_ceil(2).max(1);
    loop {
        let mut start = 0;
        while !search.exhausted() {
            let units = runs(&best);
            if start >= units.len() {
                break;
            }
            let end = (start + chunk).min(units.len());
            let candidate = without(&best, units[start].start, units[end - 1].end);
            if search.try_candidate(&candidate) {
                best = candidate;
            } else {
                start += chunk;
            }
        }
        if chunk == 1 || search.exhausted() {
            return best;
        }
        chunk = chunk.div_ceil(2);
    }
}

/// Simpler values for one code point, simplest first: a few typical ones,
/// then steps down by halving distances (so a threshold is found in about
/// 32 rounds, not by walking). A basic code point is simplest as `a`: it
/// is never stepped down toward the control characters, which read worse.
fn simpler_code_points(cp: u32) -> Vec<u32> {
    if cp < 0x80 {
        return if cp == 0x61 { vec![] } else { vec![0x61] };
    }
    let mut out = vec![0x61, 0x80, 0xE9];
    let mut step = 1u32 << 31;
    while step > 0 {
        if let Some(c) = cp.checked_sub(step) {
            out.push(c);
        }
        step >>= 1;
    }
    out.retain(|&c| c < cp);
    out.dedup();
    out
}

fn simplify(search: &mut Search, mut best: Request) -> Request {
    if let Request::Encode {
        flags: Some(_),
        code_points,
    } = &best
    {
        let candidate = Request::Encode {
            code_points: code_points.clone(),
            flags: None,
        };
        if search.try_candidate(&candidate) {
            best = candidate;
        }
    }
    // Run by run: all its elements take the simpler value together.
    let mut at = 0;
    while at < len(&best) {
        let run = at..run_end(&best, at);
        let candidates: Vec<Request> = match &best {
            Request::Encode { code_points, flags } => {
                let mut out: Vec<Request> = simpler_code_points(code_points[at])
                    .into_iter()
                    .map(|cp| {
                        let mut code_points = code_points.clone();
                        code_points[run.clone()].fill(cp);
                        Request::Encode {
                            code_points,
                            flags: flags.clone(),
                        }
                    })
                    .collect();
                if let Some(f) = flags.as_ref().filter(|f| f[at]) {
                    let mut f = f.clone();
                    f[run.clone()].fill(false);
                    out.push(Request::Encode {
                        code_points: code_points.clone(),
                        flags: Some(f),
                    });
                }
                out
            }
            Request::Decode(bytes) => {
                let b = bytes[at];
                [b'a', b.to_ascii_lowercase()]
                    .into_iter()
                    .filter(|&c| c != b && !(b == b'-' && c == b'a'))
                    .map(|c| {
                        let mut bytes = bytes.clone();
                        bytes[run.clone()].fill(c);
                        Request::Decode(bytes)
                    })
                    .collect()
            }
        };
        for candidate in candidates {
            if search.try_candidate(&candidate) {
                best = candidate;
                break;
            }
        }
        at = run.end;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn budget() -> Budget {
        Budget {
            attempts: 10_000,
            deadline: Instant::now() + Duration::from_secs(10),
        }
    }

    #[test]
    fn shrinks_to_the_failing_core() {
        // Fails whenever the text contains "_" after a "-".
        let mut fails = |r: &Request| match r {
            Request::Decode(b) => b
                .iter()
                .position(|&c| c == b'-')
                .is_some_and(|p| b[p..].contains(&b'_')),
            _ => false,
        };
        let start = Request::Decode(b"xyzzy-abc_DEF-ghi".to_vec());
        assert_eq!(
            minimize(&start, &mut fails, budget()),
            Request::Decode(b"-_".to_vec())
        );
    }

    #[test]
    fn shrinks_code_points_and_drops_flags() {
        let mut fails = |r: &Request| match r {
            Request::Encode { code_points, .. } => code_points.iter().any(|&c| c > 0xFFFF),
            _ => false,
        };
        let start = Request::Encode {
            code_points: vec![0x61, 0x4E00, 0x1_F600, 0x62, 0x10_FFFF],
            flags: Some(vec![true; 5]),
        };
        let small = minimize(&start, &mut fails, budget());
        match small {
            Request::Encode { code_points, flags } => {
                assert_eq!(code_points.len(), 1);
                assert!(code_points[0] > 0xFFFF && code_points[0] <= 0x1_F600);
                assert_eq!(flags, None);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_long_run_is_shortened_by_bisection() {
        // A limit: fails from 3855 "a"s followed by U+10FF70 on.
        let mut calls = 0;
        let mut fails = |r: &Request| {
            calls += 1;
            match r {
                Request::Encode { code_points, .. } => {
                    code_points.iter().filter(|&&c| c == 0x61).count() >= 3855
                        && code_points.contains(&0x10_FF70)
                }
                _ => false,
            }
        };
        let mut code_points = vec![0x62; 10];
        code_points.extend([0x61; 4000]);
        code_points.push(0x10_FF70);
        let start = Request::Encode {
            code_points,
            flags: None,
        };
        let mut want = vec![0x61; 3855];
        want.push(0x10_FF70);
        assert_eq!(
            minimize(&start, &mut fails, budget()),
            Request::Encode {
                code_points: want,
                flags: None
            }
        );
        // Element by element this took more than 8,000 attempts.
        assert!(calls < 300, "{calls} attempts");
    }

    #[test]
    fn respects_the_attempt_budget() {
        let mut calls = 0;
        // Fails only while nearly everything is kept: many attempts fail.
        let mut fails = |r: &Request| {
            calls += 1;
            len(r) >= 999
        };
        let start = Request::Decode(vec![b'a'; 1000]);
        let tight = Budget {
            attempts: 5,
            deadline: Instant::now() + Duration::from_secs(10),
        };
        minimize(&start, &mut fails, tight);
        assert_eq!(calls, 5);
    }
}
