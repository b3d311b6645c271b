//! A Fenwick (binary indexed) tree of 0/1 marks over positions: how many
//! marked positions lie before a position, and where the k-th marked
//! position is, each in O(log n).

/// Marks over positions `0..len`.
pub(super) struct Marks {
    /// `tree[p]` (1-based) counts the marks in `(p - lowbit(p), p]`.
    tree: Vec<u32>,
}

impl Marks {
    /// Positions `0..marked.len()`, marked where `marked` is true, built in O(n).
    pub(super) fn new(marked: impl ExactSizeIterator<Item = bool>) -> Self {
        let mut tree = vec![0u32; marked.len() + 1];
        for (p, mark) in marked.enumerate() {
            tree[p + 1] += u32::from(mark);
        }
        for p in 1..tree.len() {
            let parent = p + (p & p.wrapping_neg());
            if parent < tree.len() {
                tree[parent] += tree[p];
            }
        }
        Marks { tree }
    }

    /// Marks `position` (which must be unmarked).
    pub(super) fn mark(&mut self, position: usize) {
        self.change(position, |count| count + 1);
    }

    /// Unmarks `position` (which must be marked).
    pub(super) fn unmark(&mut self, position: usize) {
        self.change(position, |count| count - 1);
    }

    fn change(&mut self, position: usize, f: impl Fn(u32) -> u32) {
        let mut p = position + 1;
        while p < self.tree.len() {
            self.tree[p] = f(self.tree[p]);
            p += p & p.wrapping_neg();
        }
    }

    /// How many marked positions are below `position`.
    pub(super) fn count_before(&self, position: usize) -> u32 {
        let mut p = position;
        let mut count = 0;
        while p > 0 {
            count += self.tree[p];
            p &= p - 1;
        }
        count
    }

    /// The marked position with exactly `rank` marked positions before it
    /// (`rank` must be below the number of marks).
    pub(super) fn nth(&self, rank: u32) -> usize {
        let mut position = 0;
        let mut remaining = rank;
        let mut step = (self.tree.len() - 1)
            .checked_ilog2()
            .map_or(0, |log| 1 << log);
        while step > 0 {
            let next = position + step;
            if next < self.tree.len() && self.tree[next] <= remaining {
                position = next;
                remaining -= self.tree[next];
            }
            step >>= 1;
        }
        // `position` marked positions (1-based) hold `rank` marks: the next
        // position is the one.
        position
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_counting() {
        let pattern: Vec<bool> = (0..100).map(|p| p % 3 == 0 || p % 7 == 2).collect();
        let mut marks = Marks::new(pattern.iter().copied());
        let mut naive = pattern.clone();
        for step in 0..60 {
            let flip = (step * 37) % 100;
            if naive[flip] {
                marks.unmark(flip);
            } else {
                marks.mark(flip);
            }
            naive[flip] = !naive[flip];
            for p in 0..=100 {
                let count = naive[..p].iter().filter(|&&m| m).count() as u32;
                assert_eq!(marks.count_before(p), count, "before {p}");
            }
            let marked: Vec<usize> = (0..100).filter(|&p| naive[p]).collect();
            for (rank, &p) in marked.iter().enumerate() {
                assert_eq!(marks.nth(rank as u32), p, "rank {rank}");
            }
        }
    }
}
