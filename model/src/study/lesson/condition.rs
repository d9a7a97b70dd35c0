//! A guided step's condition on the lab ([`Condition`]) and what it still waits for
//! ([`Missing`]), said in every language: the hint under an unfinished step names the thing
//! that is missing, in the learner's language. A hint says what the lab shows now; it never
//! prints a count or a row the task asks the learner to find (those are the task's answer).

use serde::Deserialize;
use streamlab_engine::types::parse_timestamp_us;

use crate::lab::persist::parse_trigger;
use crate::text::i18n::{self, Arg};
use crate::text::{Lang, Text};
use crate::lab::session::LabView;

/// What a step's condition still waits for: the first key that does not hold, in every
/// language (the label tables' `cond.*` sentences).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing(pub Text);

impl Missing {
    /// The sentence `key` of the label tables with its holes filled.
    fn new(key: &str, args: &[Arg]) -> Missing {
        Missing(i18n::text(key, args))
    }

    /// The text in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        self.0.get(lang)
    }
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.en)
    }
}

/// A condition on the lab's state; every key given must hold.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// At least this many batches have run.
    pub batches_at_least: Option<usize>,
    /// At least this many no-data batches have run.
    pub no_data_batches_at_least: Option<usize>,
    /// At least this many of the scenario's steps are done.
    pub steps_done_at_least: Option<usize>,
    /// At least this many rows are pending (added, not read by a batch).
    pub pending_at_least: Option<usize>,
    /// The current watermark (the one the next batch runs with), ISO text.
    pub watermark: Option<String>,
    /// The output mode (`append`, `update`, `complete`).
    pub mode: Option<String>,
    /// The sink id (`file`, `kafka`, ...).
    pub sink: Option<String>,
    /// The trigger, as `trigger_kind` in a script (`availableNow`, `processingTime:5000`).
    pub trigger: Option<String>,
    /// The query text contains this.
    pub query_contains: Option<String>,
    /// The lab shows an error with this condition.
    pub error_class: Option<String>,
    /// The lab shows no error.
    pub no_error: Option<bool>,
    /// A row some batch emitted has these cells (in this order, others may sit between).
    pub emitted_row: Option<Vec<String>>,
    /// Rows dropped as late so far (first state operator, all batches).
    pub dropped_at_least: Option<u64>,
    /// The query is active (false after `once`/`availableNow` finished or a crash).
    pub active: Option<bool>,
    /// The checkpoint has been started at least this many times.
    pub runs_at_least: Option<u64>,
    /// Rows a reader of the sink sees twice.
    pub duplicates: Option<usize>,
    /// A source has this kind: `<source> <kind>` (`clicks file`).
    pub source_kind: Option<String>,
    /// The batch the `batch_*` keys talk about.
    pub batch: Option<u64>,
    /// That batch ran with this watermark (ISO text).
    pub batch_watermark: Option<String>,
    /// That batch emitted this many rows.
    pub batch_rows: Option<usize>,
    /// That batch was (not) a no-data batch.
    pub batch_no_data: Option<bool>,
    /// `numRowsDroppedByWatermark` of that batch's first state operator.
    pub batch_dropped: Option<u64>,
    /// `numRowsTotal` of that batch's first state operator.
    pub batch_state_total: Option<u64>,
}

impl Condition {
    /// True when no key is given (a condition that always holds).
    pub fn is_empty(&self) -> bool {
        *self == Condition::default()
    }

    /// Checks every key against the lab's view.
    ///
    /// # Errors
    /// The first key that does not hold, in both languages (for the hint under the step and
    /// for a test message).
    pub fn check(&self, v: &LabView) -> Result<(), Missing> {
        // A count the task asks the learner to find (how many batches availableNow runs) is never
        // printed: the hint says how many there are now and that it is too few.
        let too_few = |what: &str, got: u64| Missing(Text::from_fn(|lang| i18n::tr_with(lang, "cond.too_few", &[("what", &i18n::tr(lang, what)), ("got", &got)])));
        let at_least = |what: &str, want: Option<usize>, got: usize| match want {
            Some(n) if got < n => Err(too_few(what, got as u64)),
            _ => Ok(()),
        };
        at_least("cond.what.batches", self.batches_at_least, v.batches.len())?;
        at_least("cond.what.no_data", self.no_data_batches_at_least, v.batches.iter().filter(|b| b.no_data).count())?;
        at_least("cond.what.steps", self.steps_done_at_least, v.steps_done)?;
        at_least("cond.what.pending", self.pending_at_least, v.pending.len())?;
        // "none" in the learner's language where a watermark is not set. The watermark the lab
        // has is written as the batch list and the picture write it (`09:03` on the
        // scenario's day, not the lesson file's `2026-03-02T09:03:00Z`); Spark's 0 before any
        // event time is seen is "0 (none yet)", not 1970-01-01T00:00:00Z.
        let day = parse_timestamp_us(&format!("{}T00:00:00Z", v.day)).unwrap_or(0);
        let shown = |ms: i64| if ms == 0 { None } else { Some(crate::lab::cells::display_time(ms * 1000, day)) };
        let or_zero = |now: Option<i64>, key: &str, args: &[Arg]| {
            let now = now.map(shown);
            Missing(Text::from_fn(|lang| {
                let now = match &now {
                    Some(Some(t)) => t.clone(),
                    Some(None) => i18n::tr(lang, "cond.wm_zero").to_string(),
                    None => i18n::tr(lang, "cond.none").to_string(),
                };
                let mut all: Vec<Arg> = args.to_vec();
                all.push(("now", &now));
                i18n::tr_with(lang, key, &all)
            }))
        };
        if let Some(wm) = &self.watermark {
            if v.watermark.as_deref() != Some(wm.as_str()) {
                // The wanted watermark is not written: the task asks the learner to find it.
                return Err(or_zero(v.watermark_ms, "cond.watermark", &[]));
            }
        }
        if let Some(m) = &self.mode {
            if v.mode.as_str() != m {
                return Err(Missing::new("cond.mode", &[("now", &v.mode.as_str()), ("want", m)]));
            }
        }
        let rec = v.recovery.as_ref();
        if let Some(sink) = &self.sink {
            if rec.map(|r| r.sink.id()) != Some(sink.as_str()) {
                return Err(Missing::new("cond.sink", &[("want", sink)]));
            }
        }
        if let Some(t) = &self.trigger {
            let want = parse_trigger(t).map(|t| t.describe());
            if rec.map(|r| r.trigger.clone()) != want {
                let want = want.unwrap_or_else(|| t.clone());
                return Err(Missing::new("cond.trigger", &[("want", &want)]));
            }
        }
        if let Some(text) = &self.query_contains {
            if !v.query_text.contains(text.as_str()) {
                return Err(Missing::new("cond.query", &[("text", text)]));
            }
        }
        if let Some(class) = &self.error_class {
            if v.error.as_ref().and_then(|e| e.error_class.as_deref()) != Some(class.as_str()) {
                // The error's name is what the task asks the learner to find.
                return Err(Missing::new("cond.error_class", &[]));
            }
        }
        if let Some(want) = self.no_error {
            if want == v.error.is_some() {
                return Err(if want {
                    Missing::new("cond.error.shown", &[])
                } else {
                    Missing::new("cond.error.none", &[])
                });
            }
        }
        if let Some(cells) = &self.emitted_row {
            let found = v.batches.iter().flat_map(|b| &b.rows).any(|row| {
                let mut it = row.iter();
                cells.iter().all(|c| it.any(|x| x == c))
            });
            if !found {
                // The row's cells are the task's answer: the hint does not print them.
                return Err(Missing::new("cond.row", &[]));
            }
        }
        if let Some(n) = self.dropped_at_least {
            let got: u64 = v.batches.iter().filter_map(|b| b.metrics.first()).map(|m| m.dropped).sum();
            if got < n {
                return Err(too_few("cond.what.dropped", got));
            }
        }
        if let Some(a) = self.active {
            if rec.map(|r| r.active) != Some(a) {
                return Err(if a {
                    Missing::new("cond.inactive", &[])
                } else {
                    Missing::new("cond.active", &[])
                });
            }
        }
        if let Some(n) = self.runs_at_least {
            let runs = rec.map_or(0, |r| r.runs);
            if runs < n {
                return Err(Missing::new("cond.runs", &[("runs", &runs), ("n", &n)]));
            }
        }
        if let Some(n) = self.duplicates {
            let d = rec.map_or(0, |r| r.duplicates);
            if d != n {
                return Err(Missing::new("cond.duplicates", &[("d", &d)]));
            }
        }
        if let Some(sk) = &self.source_kind {
            let (name, kind) = sk.split_once(' ').unwrap_or((sk.as_str(), ""));
            if !v.sources.iter().any(|s| s.name == name && s.kind == kind) {
                return Err(Missing::new("cond.source", &[("name", &name), ("kind", &kind)]));
            }
        }
        let batch_keys = self.batch_watermark.is_some() || self.batch_rows.is_some() || self.batch_no_data.is_some() || self.batch_dropped.is_some() || self.batch_state_total.is_some();
        if let Some(id) = self.batch {
            let b = v.batches.iter().rev().find(|b| b.id == id).ok_or_else(|| Missing::new("cond.batch.not_run", &[("id", &id)]))?;
            if let Some(wm) = &self.batch_watermark {
                let want = parse_timestamp_us(wm).ok().map(|us| us / 1000);
                if b.watermark_ms != want {
                    return Err(or_zero(b.watermark_ms, "cond.batch.watermark", &[("id", &id)]));
                }
            }
            if let Some(n) = self.batch_rows {
                let got = b.rows.len();
                if got != n {
                    return Err(Missing::new("cond.batch.rows", &[("id", &id), ("got", &got)]));
                }
            }
            if let Some(nd) = self.batch_no_data {
                if b.no_data != nd {
                    return Err(if nd {
                        Missing::new("cond.batch.not_no_data", &[("id", &id)])
                    } else {
                        Missing::new("cond.batch.no_data", &[("id", &id)])
                    });
                }
            }
            if let Some(n) = self.batch_dropped {
                let got = b.metrics.first().map(|m| m.dropped);
                if got != Some(n) {
                    return Err(match got {
                        Some(g) => Missing::new("cond.batch.dropped", &[("id", &id), ("got", &g)]),
                        None => Missing::new("cond.batch.no_drop_op", &[("id", &id)]),
                    });
                }
            }
            if let Some(n) = self.batch_state_total {
                let got = b.metrics.first().map(|m| m.total);
                if got != Some(n) {
                    return Err(match got {
                        Some(g) => Missing::new("cond.batch.state", &[("id", &id), ("got", &g)]),
                        None => Missing::new("cond.batch.no_state_op", &[("id", &id)]),
                    });
                }
            }
        } else if batch_keys {
            return Err(Missing::new("cond.batch.needed", &[]));
        }
        Ok(())
    }

    /// True when every key holds.
    pub fn holds(&self, v: &LabView) -> bool {
        self.check(v).is_ok()
    }
}

