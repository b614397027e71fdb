//! Who plays which chunk of a step's games: each thread of the env owns a
//! shard of chunks and takes them from its front; a thread that has run out
//! (or a helper that joins late) takes chunks from the back of the others.
//!
//! Owning a fixed shard keeps each env's games on the core that played them
//! last step: handing chunks out first come, first served moved the games
//! between cores every step, and the misses that cost made two threads
//! barely faster than one. Taking from the back lets a thread that is
//! ahead finish another's work without disturbing the order in which the
//! owner walks its own shard.

use std::sync::atomic::{AtomicU64, Ordering};

/// The chunks `[front, back)` not yet taken of each shard.
pub struct Claims {
    shards: Vec<AtomicU64>,
}

fn pack(front: usize, back: usize) -> u64 {
    (back as u64) << 32 | front as u64
}

fn unpack(v: u64) -> (usize, usize) {
    ((v & 0xFFFF_FFFF) as usize, (v >> 32) as usize)
}

impl Claims {
    /// `chunks` chunks split into `shards` runs of consecutive chunks, as
    /// even as can be (the first ones one longer).
    pub fn new(chunks: usize, shards: usize) -> Self {
        assert!(chunks < 1 << 32, "too many chunks");
        let shards = shards.max(1);
        let (per, extra) = (chunks / shards, chunks % shards);
        let mut start = 0;
        let shards = (0..shards)
            .map(|k| {
                let end = start + per + usize::from(k < extra);
                let range = AtomicU64::new(pack(start, end));
                start = end;
                range
            })
            .collect();
        Self { shards }
    }

    /// Number of shards.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// Always false: there is at least one shard.
    pub fn is_empty(&self) -> bool {
        self.shards.is_empty()
    }

    /// Takes the first chunk left of shard `k` (its owner's way).
    pub fn front(&self, k: usize) -> Option<usize> {
        self.take(k, |f, b| (f, pack(f + 1, b)))
    }

    /// Takes the last chunk left of shard `k` (a thief's way).
    pub fn back(&self, k: usize) -> Option<usize> {
        self.take(k, |f, b| (b - 1, pack(f, b - 1)))
    }

    fn take(&self, k: usize, next: impl Fn(usize, usize) -> (usize, u64)) -> Option<usize> {
        let range = self.shards.get(k)?;
        let mut v = range.load(Ordering::Relaxed);
        loop {
            let (f, b) = unpack(v);
            if f >= b {
                return None;
            }
            let (chunk, after) = next(f, b);
            match range.compare_exchange_weak(v, after, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some(chunk),
                Err(now) => v = now,
            }
        }
    }

    /// Calls `play` on every chunk of shard `k` from its front, then on the
    /// chunks left in the other shards, from their backs (the next shard's
    /// first).
    pub fn owner(&self, k: usize, play: impl Fn(usize)) {
        while let Some(c) = self.front(k) {
            play(c);
        }
        self.thief(k + 1, play);
    }

    /// Calls `play` on the chunks left in every shard, from their backs,
    /// beginning with shard `first` (modulo the count).
    pub fn thief(&self, first: usize, play: impl Fn(usize)) {
        let n = self.shards.len();
        for j in 0..n {
            let k = (first + j) % n;
            while let Some(c) = self.back(k) {
                play(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Mutex;
    use std::thread;

    #[test]
    fn shards_are_even_runs_and_owners_go_front_to_back() {
        let claims = Claims::new(10, 3);
        let order = Mutex::new(Vec::new());
        claims.owner(1, |c| order.lock().unwrap().push(c));
        // Shard 1 is chunks 4..7 from the front, then shards 2 and 0 from the back.
        assert_eq!(*order.lock().unwrap(), vec![4, 5, 6, 9, 8, 7, 3, 2, 1, 0]);
        assert_eq!(claims.front(0), None);
        assert_eq!(claims.back(2), None);
        assert_eq!(Claims::new(0, 2).front(0), None);
    }

    #[test]
    fn owners_and_thieves_take_every_chunk_exactly_once() {
        for (chunks, shards, thieves) in [(64, 2, 1), (33, 4, 3), (5, 8, 2), (1, 1, 4)] {
            let claims = Claims::new(chunks, shards);
            let taken: Vec<AtomicUsize> = (0..chunks).map(|_| AtomicUsize::new(0)).collect();
            let play = |c: usize| {
                taken[c].fetch_add(1, Ordering::Relaxed);
            };
            thread::scope(|s| {
                for k in 0..shards {
                    let (claims, play) = (&claims, &play);
                    s.spawn(move || claims.owner(k, play));
                }
                for t in 0..thieves {
                    let (claims, play) = (&claims, &play);
                    s.spawn(move || claims.thief(t, play));
                }
            });
            assert!(taken.iter().all(|t| t.load(Ordering::Relaxed) == 1));
        }
    }
}
