//! Sets of card ids `0..128` as one `u128` bitset.

/// A set of card ids below 128 (bit `i` = card `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct CardSet(pub u128);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// Whether `id` is in the set.
    #[inline]
    pub const fn contains(self, id: u8) -> bool {
        id < 128 && (self.0 >> id) & 1 != 0
    }

    /// Adds `id` (< 128).
    #[inline]
    pub fn insert(&mut self, id: u8) {
        self.0 |= 1u128 << id;
    }

    /// Removes `id` (< 128).
    #[inline]
    pub fn remove(&mut self, id: u8) {
        self.0 &= !(1u128 << id);
    }

    /// Number of ids in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The ids, ascending.
    #[inline]
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

/// Iterator over a [`CardSet`] in ascending order.
#[derive(Clone, Copy, Debug)]
pub struct CardSetIter(u128);

impl Iterator for CardSetIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut s = CardSet::EMPTY;
        for id in [89u8, 0, 64, 63, 5] {
            s.insert(id);
        }
        assert_eq!(s.len(), 5);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 5, 63, 64, 89]);
        s.remove(64);
        assert!(!s.contains(64) && s.contains(63) && !s.contains(200));
        assert!(!s.is_empty());
    }
}
