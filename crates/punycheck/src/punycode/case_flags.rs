//! [`CaseFlags`]: the case flags of a decoding (RFC 3492 Appendix A), one bit
//! per code point.

use std::fmt;

/// Bits in a word of [`CaseFlags`].
const WORD: usize = 64;

/// One case flag per code point (`true` suggests forcing it to uppercase),
/// stored as bits: the first 64 inline, so that decoding a label allocates
/// nothing for its flags, and the rest in words on the heap.
///
/// Reads like a `[bool]`: `flags[k]`, [`get`](Self::get), [`iter`](Self::iter),
/// [`to_vec`](Self::to_vec), and comparisons with slices of `bool`.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct CaseFlags {
    /// Flags 0 to 63, flag `k` in bit `k`.
    first: u64,
    /// Flags from 64 on, 64 a word; empty while there are at most 64.
    rest: Vec<u64>,
    /// How many flags there are. Every bit from this one on is clear, so
    /// that equal flags have equal fields.
    len: usize,
}

impl CaseFlags {
    /// No flags.
    pub const fn new() -> Self {
        CaseFlags {
            first: 0,
            rest: Vec::new(),
            len: 0,
        }
    }

    /// `len` flags, all `false`.
    pub fn unset(len: usize) -> Self {
        CaseFlags {
            first: 0,
            rest: vec![0; len.saturating_sub(1) / WORD],
            len,
        }
    }

    /// The first `len` bits of `bits` (at most 64), flag `k` from bit `k`.
    ///
    /// # Panics
    ///
    /// If `len` is over 64.
    pub fn from_bits(bits: u64, len: usize) -> Self {
        assert!(len <= WORD, "{len} flags do not fit in one word");
        let mut flags = CaseFlags::new();
        flags.assign_bits(bits, len);
        flags
    }

    /// `len` flags from `words`, 64 a word, flag `k` in bit `k % 64` of
    /// word `k / 64`.
    ///
    /// # Panics
    ///
    /// If there are fewer than `len` bits in `words`.
    pub fn from_words(words: &[u64], len: usize) -> Self {
        let count = len.div_ceil(WORD);
        assert!(words.len() >= count, "{len} flags need {count} words");
        let mut flags = CaseFlags {
            first: words[..count].first().copied().unwrap_or(0),
            rest: words[1.min(count)..count].to_vec(),
            len,
        };
        // Clear the bits past the end.
        if let Some(last) = count.checked_sub(1) {
            *flags.word_mut(last) &= low_bits(len - last * WORD);
        }
        flags
    }

    /// Replaces the flags with [`from_bits`](Self::from_bits)'s, keeping
    /// the heap storage for later use.
    pub(super) fn assign_bits(&mut self, bits: u64, len: usize) {
        debug_assert!(len <= WORD);
        self.rest.clear();
        self.first = bits & low_bits(len);
        self.len = len;
    }

    /// How many flags there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Flag `index`, or `None` past the end.
    pub fn get(&self, index: usize) -> Option<bool> {
        (index < self.len).then(|| (self.word(index / WORD) >> (index % WORD)) & 1 != 0)
    }

    /// Sets flag `index`.
    ///
    /// # Panics
    ///
    /// If `index` is past the end.
    pub fn set(&mut self, index: usize, flag: bool) {
        self.check(index, self.len);
        let shift = index % WORD;
        let word = self.word_mut(index / WORD);
        // Without a branch on the flag, which is no pattern.
        *word = (*word & !(1 << shift)) | (u64::from(flag) << shift);
    }

    /// Appends a flag.
    pub fn push(&mut self, flag: bool) {
        let index = self.len;
        let bit = u64::from(flag) << (index % WORD);
        if index < WORD {
            self.first |= bit;
        } else if index.is_multiple_of(WORD) {
            self.rest.push(bit);
        } else if let Some(last) = self.rest.last_mut() {
            *last |= bit;
        }
        self.len += 1;
    }

    /// Inserts a flag before flag `index`, moving the later ones up by one.
    ///
    /// # Panics
    ///
    /// If `index` is past the end (it may be the end).
    pub fn insert(&mut self, index: usize, flag: bool) {
        self.check(index, self.len + 1);
        // Room for one more; the bits are moved up below.
        self.push(false);
        let words = self.len.div_ceil(WORD);
        // The word of `index` keeps its bits below it, and the rest of the
        // flags move up a bit, each word taking the top bit of the one before.
        let first = index / WORD;
        let below = low_bits(index % WORD);
        let word = self.word_mut(first);
        let mut carry = *word >> (WORD - 1);
        *word = (*word & below) | ((*word & !below) << 1) | (u64::from(flag) << (index % WORD));
        for k in first + 1..words {
            let word = self.word_mut(k);
            let next = *word >> (WORD - 1);
            *word = (*word << 1) | carry;
            carry = next;
        }
    }

    /// Removes every flag, keeping the heap storage.
    pub fn clear(&mut self) {
        self.first = 0;
        self.rest.clear();
        self.len = 0;
    }

    /// The flags in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            flags: self,
            next: 0,
        }
    }

    /// The flags as a vector of `bool`.
    pub fn to_vec(&self) -> Vec<bool> {
        self.iter().collect()
    }

    /// Word `k` of the flags.
    fn word(&self, k: usize) -> u64 {
        match k {
            0 => self.first,
            _ => self.rest[k - 1],
        }
    }

    /// Word `k` of the flags, to change.
    fn word_mut(&mut self, k: usize) -> &mut u64 {
        match k {
            0 => &mut self.first,
            _ => &mut self.rest[k - 1],
        }
    }

    /// Panics unless `index` is below `end`, as a slice's index does.
    fn check(&self, index: usize, end: usize) {
        assert!(
            index < end,
            "flag index {index} out of range for {} flags",
            self.len
        );
    }
}

/// A word's bits below `bits` (all of them at 64).
fn low_bits(bits: usize) -> u64 {
    u64::MAX.checked_shr(WORD as u32 - bits as u32).unwrap_or(0)
}

impl std::ops::Index<usize> for CaseFlags {
    type Output = bool;

    /// Flag `index`.
    ///
    /// # Panics
    ///
    /// If `index` is past the end, as a slice's index does.
    fn index(&self, index: usize) -> &bool {
        self.check(index, self.len);
        if self.get(index) == Some(true) {
            &true
        } else {
            &false
        }
    }
}

impl fmt::Debug for CaseFlags {
    /// As the list of flags, as for a `Vec<bool>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<bool> for CaseFlags {
    fn from_iter<I: IntoIterator<Item = bool>>(flags: I) -> Self {
        let mut all = CaseFlags::new();
        all.extend(flags);
        all
    }
}

impl Extend<bool> for CaseFlags {
    fn extend<I: IntoIterator<Item = bool>>(&mut self, flags: I) {
        for flag in flags {
            self.push(flag);
        }
    }
}

impl From<&[bool]> for CaseFlags {
    fn from(flags: &[bool]) -> Self {
        flags.iter().copied().collect()
    }
}

impl From<Vec<bool>> for CaseFlags {
    fn from(flags: Vec<bool>) -> Self {
        flags.as_slice().into()
    }
}

impl From<&CaseFlags> for Vec<bool> {
    fn from(flags: &CaseFlags) -> Self {
        flags.to_vec()
    }
}

impl PartialEq<[bool]> for CaseFlags {
    fn eq(&self, other: &[bool]) -> bool {
        self.len == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq<Vec<bool>> for CaseFlags {
    fn eq(&self, other: &Vec<bool>) -> bool {
        *self == other[..]
    }
}

impl<const N: usize> PartialEq<[bool; N]> for CaseFlags {
    fn eq(&self, other: &[bool; N]) -> bool {
        *self == other[..]
    }
}

impl PartialEq<CaseFlags> for Vec<bool> {
    fn eq(&self, other: &CaseFlags) -> bool {
        *other == self[..]
    }
}

impl<'a> IntoIterator for &'a CaseFlags {
    type Item = bool;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The flags of a [`CaseFlags`] in order ([`CaseFlags::iter`]).
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    flags: &'a CaseFlags,
    next: usize,
}

impl Iterator for Iter<'_> {
    type Item = bool;

    fn next(&mut self) -> Option<bool> {
        let flag = self.flags.get(self.next)?;
        self.next += 1;
        Some(flag)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.flags.len - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flags from a simple generator, for lengths around the word ends.
    fn pattern(len: usize, seed: u64) -> Vec<bool> {
        let mut state = seed | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state & 1 != 0
            })
            .collect()
    }

    #[test]
    fn behaves_as_a_vector_of_bool() {
        for len in [0, 1, 2, 63, 64, 65, 127, 128, 129, 200] {
            let want = pattern(len, len as u64);
            let flags = CaseFlags::from(want.as_slice());
            assert_eq!(flags.len(), len);
            assert_eq!(flags.to_vec(), want);
            assert_eq!(flags, want);
            assert_eq!(flags.iter().len(), len);
            for (k, &flag) in want.iter().enumerate() {
                assert_eq!(flags[k], flag);
                assert_eq!(flags.get(k), Some(flag));
            }
            assert_eq!(flags.get(len), None);
            assert_eq!(format!("{flags:?}"), format!("{want:?}"));
            assert_eq!(CaseFlags::unset(len), vec![false; len]);
            assert_eq!(CaseFlags::unset(len), CaseFlags::from(vec![false; len]));
        }
    }

    #[test]
    fn insert_and_set_match_a_vector() {
        let mut flags = CaseFlags::new();
        let mut want = Vec::new();
        let positions = pattern(400, 7);
        for (k, &flag) in pattern(200, 3).iter().enumerate() {
            // An index from the pattern's bits, anywhere up to the end.
            let index = positions[2 * k..2 * k + 2]
                .iter()
                .fold(k * 7919, |acc, &bit| acc * 2 + usize::from(bit))
                % (want.len() + 1);
            flags.insert(index, flag);
            want.insert(index, flag);
            assert_eq!(flags, want, "after inserting at {index}");
            if k % 3 == 0 {
                flags.set(index / 2, !want[index / 2]);
                want[index / 2] = !want[index / 2];
                assert_eq!(flags, want, "after setting {}", index / 2);
            }
        }
        // Equal flags are equal however they were made.
        assert_eq!(flags, CaseFlags::from(want.as_slice()));
        flags.clear();
        assert!(flags.is_empty());
        assert_eq!(flags, CaseFlags::new());
    }

    #[test]
    fn from_bits_keeps_the_first_len() {
        let flags = CaseFlags::from_bits(0b1011_0110, 5);
        assert_eq!(flags, vec![false, true, true, false, true]);
        assert_eq!(CaseFlags::from_bits(u64::MAX, 64), vec![true; 64]);
        assert_eq!(CaseFlags::from_bits(u64::MAX, 0), CaseFlags::new());
        for len in [0, 1, 63, 64, 65, 128, 130] {
            let words = [u64::MAX, 0x5555_5555_5555_5555, u64::MAX];
            let want: Vec<bool> = (0..len)
                .map(|k| (words[k / 64] >> (k % 64)) & 1 != 0)
                .collect();
            assert_eq!(CaseFlags::from_words(&words, len), want, "{len}");
            assert_eq!(CaseFlags::from_words(&words, len), CaseFlags::from(want));
        }
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn index_past_the_end_panics_as_a_slice_does() {
        let _ = CaseFlags::unset(3)[3];
    }
}
