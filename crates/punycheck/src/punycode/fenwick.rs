//! A Fenwick (binary indexed) tree of 0/1 marks over positions: how many
//! marked positions lie before a position, and where the k-th marked
//! position is, each in O(log n).

/// Marks over positions `0..len`.
pub(super) struct Marks {
    /// `tree[p]` (1-based) counts the marks in `(p - lowbit(p), p]`. Its
    /// size is a power of two (the positions past `len` are never marked),
    /// so that [`Marks::nth`]'s descent needs no bounds test.
    tree: Vec<u32>,
}

/// The trees [`Marks::take_nth`] descends without branches (measured): from
/// this many nodes, below which the processor learns enough of the branches,
/// to [`BRANCH_FREE_MAX`].
const BRANCH_FREE_MIN: usize = 1 << 12;
/// Up to this many nodes (512 KB) the tree stays in the processor's caches.
const BRANCH_FREE_MAX: usize = 1 << 17;

impl Marks {
    /// Positions `0..marked.len()`, marked where `marked` is true, built in O(n).
    pub(super) fn new(marked: impl ExactSizeIterator<Item = bool>) -> Self {
        let mut tree = vec![0u32; marked.len().next_power_of_two() + 1];
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
        let mut p = position + 1;
        while p < self.tree.len() {
            self.tree[p] += 1;
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
        // The size, a power of two: every `next` is inside the tree.
        let mut step = self.tree.len() - 1;
        while step > 0 {
            let next = position + step;
            if self.tree[next] <= remaining {
                position = next;
                remaining -= self.tree[next];
            }
            step >>= 1;
        }
        // `position` marked positions (1-based) hold `rank` marks: the next
        // position is the one.
        position
    }

    /// [`Marks::nth`], and unmarks it. In a tree that stays in the caches,
    /// without branches and in the same descent: the nodes the descent does
    /// not pass are exactly those whose range holds the position.
    pub(super) fn take_nth(&mut self, rank: u32) -> usize {
        let mut position = 0;
        let mut remaining = rank;
        let mut step = self.tree.len() - 1;
        if !(BRANCH_FREE_MIN..=BRANCH_FREE_MAX).contains(&step) {
            // In a tree larger than the processor's caches, [`Marks::nth`]'s
            // branches let it fetch down the path it guesses while the
            // levels above are still on their way from memory, where selects
            // would wait for every level in turn; and the walk back up
            // touches only the nodes to change.
            let position = self.nth(rank);
            let mut p = position + 1;
            while p < self.tree.len() {
                self.tree[p] -= 1;
                p += p & p.wrapping_neg();
            }
            return position;
        }
        while step > 0 {
            let next = position + step;
            let count = self.tree[next];
            // Which way the descent goes is no pattern the processor can
            // learn: select, without a branch per level.
            let down = count <= remaining;
            position = std::hint::select_unpredictable(down, next, position);
            remaining -= std::hint::select_unpredictable(down, count, 0);
            self.tree[next] = count - u32::from(!down);
            step >>= 1;
        }
        position
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_counting() {
        for size in [0, 1, 2, 3, 64, 100, 128, 129] {
            agrees_with_counting_at(size);
        }
    }

    /// Both descents of take_nth(): branching (small trees) and branch-free.
    #[test]
    fn take_nth_takes_the_free_slot_of_each_rank() {
        for size in [100, BRANCH_FREE_MIN + 1, 3 * BRANCH_FREE_MIN] {
            let mut marks = Marks::new(std::iter::repeat_n(true, size));
            let mut rng = 0x9E37_79B9_7F4A_7C15u64;
            super::super::check_takes_each_rank(size, &mut rng, |rank| marks.take_nth(rank));
            assert_eq!(marks.count_before(size), 0);
        }
    }

    fn agrees_with_counting_at(size: usize) {
        let pattern: Vec<bool> = (0..size).map(|p| p % 3 == 0 || p % 7 == 2).collect();
        let mut marks = Marks::new(pattern.iter().copied());
        let mut naive = pattern.clone();
        for step in 0..60.min(size) {
            let flip = (step * 37) % size;
            if naive[flip] {
                let rank = naive[..flip].iter().filter(|&&m| m).count() as u32;
                assert_eq!(marks.take_nth(rank), flip);
            } else {
                marks.mark(flip);
            }
            naive[flip] = !naive[flip];
            for p in 0..=size {
                let count = naive[..p].iter().filter(|&&m| m).count() as u32;
                assert_eq!(marks.count_before(p), count, "before {p}");
            }
            let marked: Vec<usize> = (0..size).filter(|&p| naive[p]).collect();
            for (rank, &p) in marked.iter().enumerate() {
                assert_eq!(marks.nth(rank as u32), p, "rank {rank}");
            }
        }
        // Taking every mark, in an order of ranks that jumps about.
        while let Some(count) = (naive.iter().filter(|&&m| m).count() as u32).checked_sub(1) {
            let rank = (count * 7) % (count + 1);
            let p = (0..size).filter(|&p| naive[p]).nth(rank as usize).unwrap();
            assert_eq!(marks.take_nth(rank), p, "take rank {rank}");
            naive[p] = false;
            for q in 0..=size {
                let count = naive[..q].iter().filter(|&&m| m).count() as u32;
                assert_eq!(marks.count_before(q), count, "before {q} after taking {p}");
            }
        }
    }
}
