//! Shrinking a failing request before it is reported.
//!
//! Greedy delta debugging: remove chunks of halving size, then single
//! elements, then simplify what is left (code points toward small values,
//! flags cleared, bytes toward `a` and lowercase), keeping each change only
//! if the request still fails the same way. Bounded by a number of attempts
//! and a deadline, so a slow `exec:` implementation cannot stall a run.

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

fn remove_chunks(search: &mut Search, mut best: Request) -> Request {
    let mut chunk = len(&best).div_ceil(2).max(1);
    loop {
        let mut start = 0;
        while start < len(&best) && !search.exhausted() {
            let end = (start + chunk).min(len(&best));
            let candidate = without(&best, start, end);
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
/// 32 rounds, not by walking).
fn simpler_code_points(cp: u32) -> Vec<u32> {
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
    for at in 0..len(&best) {
        let candidates: Vec<Request> = match &best {
            Request::Encode { code_points, flags } => {
                let mut out: Vec<Request> = simpler_code_points(code_points[at])
                    .into_iter()
                    .map(|cp| {
                        let mut code_points = code_points.clone();
                        code_points[at] = cp;
                        Request::Encode {
                            code_points,
                            flags: flags.clone(),
                        }
                    })
                    .collect();
                if let Some(f) = flags.as_ref().filter(|f| f[at]) {
                    let mut f = f.clone();
                    f[at] = false;
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
                        bytes[at] = c;
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
