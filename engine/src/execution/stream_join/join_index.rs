//! The indexes a stream-stream join keeps beside one side's buffer, so a batch costs what it
//! brings and what expires, not what the buffer holds:
//!
//! - per join key, the rows' sequence numbers in bucket order and their times in the column
//!   the condition's range conjuncts bound ([`crate::analysis::ProbeRange`]): a probe visits
//!   only the rows in the probing row's time range, in bucket order;
//! - one ordered index of every row by the time its side's state watermark lets it go
//!   ([`super::evicts_at_us`]): eviction pops what expires and touches nothing
//!   else.
//!
//! The buffer ([`StateStore`] of key → rows in arrival order) stays what the state table,
//! the checkpoint and the output read; the index is derived from it, rebuilt whenever it is
//! missing (after a checkpoint load) or was built for another plan.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::{evicts_at_us, Buffered};
use crate::analysis::StateWatermark;
use crate::state::StateStore;
use crate::types::{Row, Value};

/// What a side's index depends on besides its rows: the side's state watermark, its
/// event-time column and the column its range conjuncts bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndexPlan {
    /// Which of the side's buffered rows its state watermark lets go.
    pub state: StateWatermark,
    /// The side's event-time column (index in the side's row), if it has one.
    pub time: Option<usize>,
    /// The side's column that the condition's range conjuncts bound (the probed time), if
    /// any; without one a probe visits every row of the key.
    pub probe_column: Option<usize>,
}

/// One key's rows: their sequence numbers (ascending, as the bucket) and, when the side has a
/// probe column, (time µs, sequence number) of every row whose time there is a timestamp.
#[derive(Debug, Clone)]
struct KeyIndex {
    /// The key, shared with the eviction index's entries of its rows.
    key: Rc<Row>,
    seqs: Vec<u64>,
    by_time: BTreeSet<(i64, u64)>,
    /// A row whose probe column holds neither a timestamp nor NULL: the key is scanned whole.
    untimed: usize,
}

/// The index of one side's buffer.
#[derive(Debug, Clone)]
pub struct SideIndex {
    plan: IndexPlan,
    /// Join key → its rows' index, found by hash (never walked in order).
    keys: hashbrown::HashMap<Row, KeyIndex, rustc_hash::FxBuildHasher>,
    /// (evicts at µs, sequence number) → the row's key (its [`KeyIndex`]'s: no copy per row).
    expiry: BTreeMap<(i64, u64), Rc<Row>>,
    next_seq: u64,
    rows: u64,
}

/// A row's time in the probe column: `Ok(Some)` a timestamp, `Ok(None)` NULL (it meets no
/// range), `Err` anything else.
fn probe_time(plan: &IndexPlan, row: &Row) -> Result<Option<i64>, ()> {
    match plan.probe_column.map(|c| row.get(c)) {
        Some(Some(Value::Timestamp(t))) => Ok(Some(*t)),
        Some(Some(Value::Null) | None) => Ok(None),
        _ => Err(()),
    }
}

impl SideIndex {
    /// The index of `store`'s rows under `plan`.
    pub fn build(plan: IndexPlan, store: &StateStore<Vec<Buffered>>) -> SideIndex {
        let mut ix = SideIndex { plan, keys: hashbrown::HashMap::default(), expiry: BTreeMap::new(), next_seq: 0, rows: 0 };
        for (key, bucket) in store.iter() {
            for b in bucket {
                ix.push(key, &b.row);
            }
        }
        ix
    }

    /// The plan it was built for.
    pub fn plan(&self) -> IndexPlan {
        self.plan
    }

    /// Rows indexed (the side's buffered rows).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Indexes a row appended to the bucket of `key` (or of a stored key equal to it).
    pub fn push(&mut self, key: &Row, row: &Row) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.rows += 1;
        let k = self.keys.entry_ref(key).or_insert_with(|| KeyIndex { key: Rc::new(key.clone()), seqs: Vec::new(), by_time: BTreeSet::new(), untimed: 0 });
        // Keys equal in the store's order read the same eviction time (a key watermark's
        // column is a timestamp, equal only to the same timestamp), so `key` serves for the
        // stored one.
        if let Some(e) = evicts_at_us(self.plan.state, self.plan.time, key, row) {
            self.expiry.insert((e, seq), Rc::clone(&k.key));
        }
        k.seqs.push(seq);
        match probe_time(&self.plan, row) {
            Ok(Some(t)) => {
                k.by_time.insert((t, seq));
            }
            Ok(None) => {}
            Err(()) => k.untimed += 1,
        }
    }

    /// The positions in the bucket of `key` of the rows whose probe-column time lies in
    /// `lo..=hi`, ascending (bucket order); `None` when the key's rows cannot be pruned (no
    /// probe column, or a row holding something other than a timestamp there).
    pub fn in_range(&self, key: &Row, lo: i64, hi: i64) -> Option<Vec<usize>> {
        self.plan.probe_column?;
        let Some(k) = self.keys.get(key) else { return Some(Vec::new()) };
        if k.untimed > 0 {
            return None;
        }
        if lo > hi {
            return Some(Vec::new());
        }
        let mut seqs: Vec<u64> = k.by_time.range((lo, 0)..=(hi, u64::MAX)).map(|(_, s)| *s).collect();
        seqs.sort_unstable();
        Some(positions(&k.seqs, &seqs))
    }

    /// Forgets the rows at `positions` (ascending) of the bucket of `key`, `bucket` being
    /// the bucket before they leave it.
    pub fn remove(&mut self, key: &Row, bucket: &[Buffered], positions: &[usize]) {
        let Some(k) = self.keys.get_mut(key) else { return };
        for &p in positions {
            let (Some(b), Some(&seq)) = (bucket.get(p), k.seqs.get(p)) else { continue };
            match probe_time(&self.plan, &b.row) {
                Ok(Some(t)) => {
                    k.by_time.remove(&(t, seq));
                }
                Ok(None) => {}
                Err(()) => k.untimed -= 1,
            }
            if let Some(e) = evicts_at_us(self.plan.state, self.plan.time, key, &b.row) {
                self.expiry.remove(&(e, seq));
            }
            self.rows -= 1;
        }
        remove_positions(&mut k.seqs, positions);
        if k.seqs.is_empty() {
            self.keys.remove(key);
        }
    }

    /// Takes out of the eviction index every row `expired` says goes (a predicate monotone in
    /// the eviction time), and returns them as (key, positions in its bucket), in key order,
    /// positions ascending. The caller removes them with [`SideIndex::remove`].
    pub fn expired(&mut self, expired: impl Fn(i64) -> bool) -> Vec<(Row, Vec<usize>)> {
        let mut gone: Vec<(Rc<Row>, u64)> = Vec::new();
        while let Some(entry) = self.expiry.first_entry() {
            if !expired(entry.key().0) {
                break;
            }
            let seq = entry.key().1;
            gone.push((entry.remove(), seq));
        }
        gone.sort_unstable();
        let mut out: Vec<(Row, Vec<usize>)> = Vec::new();
        let mut i = 0;
        while i < gone.len() {
            let j = i + gone[i..].iter().take_while(|(k, _)| *k == gone[i].0).count();
            let seqs: Vec<u64> = gone[i..j].iter().map(|(_, s)| *s).collect();
            let key = Row::clone(&gone[i].0);
            let pos = self.keys.get(&key).map(|k| positions(&k.seqs, &seqs)).unwrap_or_default();
            out.push((key, pos));
            i = j;
        }
        out
    }
}

/// The positions of `wanted` (ascending) in `seqs` (ascending).
fn positions(seqs: &[u64], wanted: &[u64]) -> Vec<usize> {
    let mut from = 0;
    wanted
        .iter()
        .filter_map(|s| {
            let p = from + seqs[from..].binary_search(s).ok()?;
            from = p + 1;
            Some(p)
        })
        .collect()
}

/// Removes the elements at `positions` (ascending) from `v`, keeping the others' order: a
/// leading run is drained, else one pass.
pub fn remove_positions<T>(v: &mut Vec<T>, positions: &[usize]) {
    if positions.is_empty() {
        return;
    }
    if positions.iter().enumerate().all(|(i, p)| i == *p) {
        v.drain(..positions.len());
        return;
    }
    let mut next = positions.iter().peekable();
    let mut i = 0;
    v.retain(|_| {
        let drop = next.next_if(|p| **p == i).is_some();
        i += 1;
        !drop
    });
}
