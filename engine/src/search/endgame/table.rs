//! The one transposition table of the alpha-beta searches: the midgame PVS of
//! [`crate::search::alphabeta`] and the exact solver of [`super`] store in the same table, so
//! a solved endgame serves the midgame search above it and a midgame best move orders the
//! solver.
//!
//! Two-slot buckets keyed by the whole position (no false hits), depth-preferred replacement
//! with the entries of older searches given up first. Allocated on the first store, so a
//! search that never stores pays nothing.

/// Entries with at least this depth are exact (the position solved to the end); their depth
/// is this plus the empty squares, so the costlier solves stay.
pub(crate) const EXACT_BASE: u8 = 64;
/// No move (in an entry).
pub(crate) const NO_MOVE: u8 = 64;

/// One entry: 24 bytes. Bounds are in evaluation units ([`crate::eval::SCALE`] a disc).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i16,
    pub upper: i16,
    /// Plies searched below, or [`EXACT_BASE`] + empties for a solve; 0 for an empty slot.
    pub depth: u8,
    /// The best move's square index, or [`NO_MOVE`].
    pub best: u8,
    generation: u8,
}

impl Entry {
    /// Whether the bounds are on the final margin (a solve to the end of the game).
    #[inline]
    pub fn is_exact(&self) -> bool {
        self.depth >= EXACT_BASE
    }
}

/// `n` empty entries in memory taken zeroed from the allocator (calloc): fresh pages come
/// zeroed from the system and stay untouched until a store lands on them, so a search takes
/// only the memory its entries fill. `vec![Entry::default(); n]` wrote every entry, taking the
/// whole table (128 MiB by default) on the first store, and its time (tens of milliseconds
/// natively, more on a phone).
fn zeroed_entries(n: usize) -> Vec<Entry> {
    if n == 0 {
        return Vec::new();
    }
    let layout = std::alloc::Layout::array::<Entry>(n).expect("a table within the address space");
    // SAFETY: the layout is `n` entries, not zero-sized, so the allocator may be asked for it;
    // `Entry` is plain integers, for which all-zero bytes are a valid value (the empty slot,
    // `Entry::default()`); the pointer comes from the global allocator with exactly the
    // layout `Vec<Entry>` of capacity `n` frees with, and all `n` entries are initialised.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Entry>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(ptr, n, n)
    }
}

/// The table; see the module docs.
#[derive(Debug)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    capacity: usize,
    generation: u8,
    used: usize,
}

impl Table {
    /// The largest table (a power of two entries) that fits in `memory` bytes; none below
    /// two entries.
    pub fn new(memory: usize) -> Table {
        Table::with_slots(Table::capacity(memory))
    }

    /// A table of `slots` entries (a power of two, or 0 for none).
    pub fn with_slots(slots: usize) -> Table {
        debug_assert!(slots == 0 || (slots.is_power_of_two() && slots >= 2));
        Table {
            entries: Vec::new(),
            capacity: slots,
            generation: 1,
            used: 0,
        }
    }

    /// Entries in a table of at most `memory` bytes.
    pub fn capacity(memory: usize) -> usize {
        let fit = memory / std::mem::size_of::<Entry>();
        if fit >= 2 { 1 << fit.ilog2() } else { 0 }
    }

    /// Its entries (allocated or not).
    pub fn slots(&self) -> usize {
        self.capacity
    }

    /// The bytes it takes once allocated.
    pub fn bytes(&self) -> usize {
        self.capacity * std::mem::size_of::<Entry>()
    }

    /// Entries filled.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Whether its memory is taken yet (on the first store).
    #[cfg(test)]
    pub fn is_allocated(&self) -> bool {
        !self.entries.is_empty()
    }

    /// Starts a new search: entries stay valid, but the older ones give way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        let mut h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        h ^= h >> 29;
        (h as usize) & (self.capacity - 1) & !1
    }

    #[inline]
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        if self.entries.is_empty() {
            return None;
        }
        let i = self.bucket(p, o);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.depth > 0 && e.player == p && e.opponent == o)
            .copied()
    }

    /// Stores bounds (evaluation units) and the best move of `(p, o)` searched `depth` deep.
    #[inline]
    pub fn store(&mut self, p: u64, o: u64, depth: u8, lower: i32, upper: i32, best: u8) {
        if self.capacity == 0 {
            return;
        }
        if self.entries.is_empty() {
            self.entries = zeroed_entries(self.capacity);
        }
        let i = self.bucket(p, o);
        let generation = self.generation;
        let slot = {
            let pair = &self.entries[i..i + 2];
            if let Some(k) = pair
                .iter()
                .position(|e| e.depth > 0 && e.player == p && e.opponent == o)
            {
                k
            } else {
                // Keep the more valuable: this search's entries, then the deeper.
                let worth = |e: &Entry| {
                    u32::from(e.depth > 0) * 1024
                        + u32::from(e.generation == generation) * 512
                        + u32::from(e.depth)
                };
                usize::from(worth(&pair[1]) < worth(&pair[0]))
            }
        };
        let e = &mut self.entries[i + slot];
        if e.depth == 0 {
            self.used += 1;
        }
        *e = Entry {
            player: p,
            opponent: o,
            lower: lower as i16,
            upper: upper as i16,
            depth,
            best,
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_memory_cap() {
        let t = Table::new(24 * 1000);
        assert_eq!(t.slots(), 512);
        assert!(t.bytes() <= 24 * 1000);
        assert_eq!(Table::new(47).slots(), 0);
        assert!(!t.is_allocated());
    }

    #[test]
    fn stores_probes_and_keeps_the_deeper_entry() {
        let mut t = Table::with_slots(2);
        assert!(t.probe(1, 2).is_none());
        t.store(1, 2, 3, -10, 10, 5);
        assert!(t.is_allocated());
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.depth, e.best), (-10, 10, 3, 5));
        assert!(!e.is_exact());
        // One bucket of two: a third position evicts the shallower of the two others.
        t.store(3, 4, EXACT_BASE + 12, 64, 64, NO_MOVE);
        t.store(5, 6, 1, 0, 0, NO_MOVE);
        assert!(t.probe(3, 4).is_some_and(|e| e.is_exact()));
        assert!(t.probe(1, 2).is_none(), "the shallower entry gives way");
        assert!(t.probe(5, 6).is_some());
        // The same position is updated in place.
        t.store(5, 6, 2, 1, 1, 7);
        assert_eq!(t.probe(5, 6).map(|e| e.best), Some(7));
        assert_eq!(t.used(), 2);
    }
}
