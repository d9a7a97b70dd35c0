//! Time: event times, watermarks, delays and batch ids as types, the one place that converts
//! between µs, ms, s and ns, timestamps' text forms, and durations as text. Interval strings
//! are in [`super::interval`].
//!
//! Units follow Spark: an event time is µs since the epoch (what `Value::Timestamp` and
//! Spark's `TimestampType` hold), a watermark and a `withWatermark` delay are ms (as
//! `WatermarkTracker` and `EventTimeWatermark.getDelayMs` hold them), a batch id is
//! `MicroBatchExecution`'s 0-based `batchId`.
//!
//! # Rounding
//! - µs → ms rounds toward −∞ ([`EventTime::floor_millis`]: `floorDiv(µs, 1000)`), the ms
//!   value `EventTimeWatermarkExec` records per row, so `-1 µs` (before 1970) is `-1 ms`.
//! - ms → µs is exact (`watermarkMs * 1000` in `WatermarkSupport`'s predicates) and saturates
//!   at `i64::MIN`/`MAX` instead of wrapping ([`WatermarkMs::as_event_time`]).
//! - A watermark is `max event time (ms) - delay (ms)`, saturating ([`WatermarkMs::from_max`],
//!   `WatermarkTracker.updateWatermark`).
//! - A delay from an interval rounds toward zero (`CalendarInterval::delay_ms`).
//!
//! # Checked arithmetic
//! The `checked_*` methods return [`TimeOverflow`], Spark's `ARITHMETIC_OVERFLOW` with the
//! `try_*` function its message suggests; the `saturating_*` ones keep the engine's recorded
//! behaviour where Spark's `Long` arithmetic would wrap on values no real clock reaches.

use std::fmt;

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};

/// µs in one millisecond.
pub const MICROS_PER_MILLI: i64 = 1_000;
/// µs in one second.
pub const MICROS_PER_SECOND: i64 = 1_000_000;
/// ms in one second (the scenario harness's clock moves one second per step).
pub const MILLIS_PER_SECOND: i64 = 1_000;
/// µs in one day.
pub const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SECOND;

/// ns in one µs (pandas keeps timestamps in ns).
pub const NANOS_PER_MICRO: i64 = 1_000;
/// ns in one millisecond (pandas' `unit='ms'`, `Timedelta(milliseconds=…)`).
pub const NANOS_PER_MILLI: i64 = 1_000_000;
/// ns in one second (pandas' `unit='s'`, `Timedelta(seconds=…)`).
pub const NANOS_PER_SECOND: i64 = 1_000_000_000;

/// µs → ms, rounded toward −∞ (`Math.floorDiv(µs, 1000)`): `1999 → 1`, `-1 → -1`.
pub const fn floor_micros_to_millis(us: i64) -> i64 {
    us.div_euclid(MICROS_PER_MILLI)
}

/// ms → µs, exact, saturating at `i64::MIN`/`MAX` where Spark's `Long` `* 1000` would wrap.
pub const fn millis_to_micros(ms: i64) -> i64 {
    ms.saturating_mul(MICROS_PER_MILLI)
}

/// s → µs, saturating (a number added to a timestamp in a join condition, read as seconds).
pub const fn saturating_seconds_to_micros(s: i64) -> i64 {
    s.saturating_mul(MICROS_PER_SECOND)
}

/// s → µs, checked (`Math.multiplyExact(s, 1000000)`, a cast of a long to a timestamp).
pub const fn checked_seconds_to_micros(s: i64) -> Option<i64> {
    s.checked_mul(MICROS_PER_SECOND)
}

/// µs → whole seconds, rounded toward −∞ (`Math.floorDiv(µs, 1000000)`: a timestamp cast to
/// a long, `unix_timestamp`).
pub const fn floor_micros_to_seconds(us: i64) -> i64 {
    us.div_euclid(MICROS_PER_SECOND)
}

/// ms → whole seconds, rounded toward −∞ (`unix_timestamp()` from the batch clock).
pub const fn floor_millis_to_seconds(ms: i64) -> i64 {
    ms.div_euclid(MILLIS_PER_SECOND)
}

/// An arithmetic overflow on a time: Spark's `ARITHMETIC_OVERFLOW` (SQLSTATE 22003); the
/// field is the ANSI `try_*` function its message suggests (`try_add`, `try_subtract`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeOverflow(pub &'static str);

impl TimeOverflow {
    /// Spark's error condition.
    pub const CONDITION: &'static str = "ARITHMETIC_OVERFLOW";
    /// Spark's SQLSTATE.
    pub const SQLSTATE: &'static str = "22003";

    /// Spark's message, without the `[ARITHMETIC_OVERFLOW]` prefix and the SQLSTATE.
    pub fn message(&self) -> String {
        format!(
            "overflow. Use '{}' to tolerate overflow and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
            self.0
        )
    }
}

impl fmt::Display for TimeOverflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {} SQLSTATE: {}", Self::CONDITION, self.message(), Self::SQLSTATE)
    }
}

impl std::error::Error for TimeOverflow {}

/// An event time: µs since the epoch, UTC (Spark's `TimestampType`, what
/// `Value::Timestamp` holds). Ordered like the µs.
///
/// # Examples
/// ```
/// use streamlab_engine::types::time::{EventTime, WatermarkMs};
/// let t = EventTime::from_micros(1_500);
/// assert_eq!(t.floor_millis(), 1);
/// assert!(t.is_past(WatermarkMs::from_ms(2))); // 1 500 µs <= 2 000 µs
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct EventTime(i64);

impl EventTime {
    /// 1970-01-01T00:00:00Z.
    pub const EPOCH: EventTime = EventTime(0);

    /// The event time `us` µs after the epoch (before it when negative).
    pub const fn from_micros(us: i64) -> EventTime {
        EventTime(us)
    }

    /// The event time at `ms` ms since the epoch (a batch timestamp as `current_timestamp()`
    /// reads it, a `GroupState` timeout), saturating ([`millis_to_micros`]).
    pub const fn from_millis(ms: i64) -> EventTime {
        EventTime(millis_to_micros(ms))
    }

    /// µs since the epoch.
    pub const fn micros(self) -> i64 {
        self.0
    }

    /// ms since the epoch rounded toward −∞: the value `EventTimeWatermarkExec` adds to its
    /// `EventTimeStats` for each row ([`floor_micros_to_millis`]).
    pub const fn floor_millis(self) -> i64 {
        floor_micros_to_millis(self.0)
    }

    /// The late / eviction rule of every stateful operator (`WatermarkSupport`'s
    /// `eventTime <= watermarkMs * 1000`): true when this time is at or below `wm`.
    pub const fn is_past(self, wm: WatermarkMs) -> bool {
        self.0 <= wm.as_event_time().0
    }

    /// This time plus `us` µs.
    ///
    /// # Errors
    /// [`TimeOverflow`] (`try_add`) past `i64::MAX` µs.
    pub const fn checked_add_micros(self, us: i64) -> Result<EventTime, TimeOverflow> {
        match self.0.checked_add(us) {
            Some(t) => Ok(EventTime(t)),
            None => Err(TimeOverflow("try_add")),
        }
    }

    /// This time minus `us` µs.
    ///
    /// # Errors
    /// [`TimeOverflow`] (`try_subtract`) past `i64::MIN` µs.
    pub const fn checked_sub_micros(self, us: i64) -> Result<EventTime, TimeOverflow> {
        match self.0.checked_sub(us) {
            Some(t) => Ok(EventTime(t)),
            None => Err(TimeOverflow("try_subtract")),
        }
    }

    /// This time plus a `withWatermark` delay, saturating: a `dropDuplicatesWithinWatermark`
    /// key's expiry (`StreamingDeduplicateWithinWatermarkExec`: event time + delay).
    pub const fn saturating_add_delay(self, delay: DelayMs) -> EventTime {
        EventTime(self.0.saturating_add(delay.as_micros()))
    }

    /// This time minus `ms` ms, saturating: a time-range join's state watermark for a
    /// buffered row (its event time minus the range offset, `StreamingJoinHelper`).
    pub const fn saturating_sub_millis(self, ms: i64) -> EventTime {
        EventTime(self.0.saturating_sub(millis_to_micros(ms)))
    }

    /// The time as pandas ns (`pd.Timestamp.value`), saturating.
    pub const fn as_nanos(self) -> i64 {
        self.0.saturating_mul(NANOS_PER_MICRO)
    }

    /// A pandas ns timestamp as an event time, rounded toward −∞ to the µs Spark keeps.
    pub const fn from_nanos(ns: i64) -> EventTime {
        EventTime(ns.div_euclid(NANOS_PER_MICRO))
    }
}

impl fmt::Display for EventTime {
    /// As the corpus writes timestamps: `2026-01-01T12:07:00Z` ([`format_timestamp_us`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_timestamp_us(self.0))
    }
}

/// An event-time watermark: ms since the epoch, as Spark's `WatermarkTracker`, the offset log's
/// `batchWatermarkMs` and `eventTimeWatermarkForLateEvents` / `…ForEviction` hold it. A query
/// starts at 0.
///
/// # Examples
/// ```
/// use streamlab_engine::types::time::{DelayMs, EventTime, WatermarkMs};
/// // 12:14 max event time, 10 minutes delay → watermark 12:04.
/// let max_ms = 44_040_000; // 12:14 in ms after midnight
/// let wm = WatermarkMs::from_max(max_ms, DelayMs::from_ms(600_000));
/// assert_eq!(wm.ms(), 43_440_000);
/// assert_eq!(wm.as_event_time(), EventTime::from_micros(43_440_000_000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct WatermarkMs(i64);

impl WatermarkMs {
    /// The watermark every query starts with (and every operator gets while the global one is 0).
    pub const ZERO: WatermarkMs = WatermarkMs(0);

    /// The watermark at `ms` ms since the epoch.
    pub const fn from_ms(ms: i64) -> WatermarkMs {
        WatermarkMs(ms)
    }

    /// `WatermarkTracker.updateWatermark`'s candidate for one `EventTimeWatermarkExec`:
    /// `eventTimeStats.max - delayMs`, saturating at `i64::MIN`.
    pub const fn from_max(max_event_time_ms: i64, delay: DelayMs) -> WatermarkMs {
        WatermarkMs(max_event_time_ms.saturating_sub(delay.ms()))
    }

    /// ms since the epoch.
    pub const fn ms(self) -> i64 {
        self.0
    }

    /// The watermark as an event time (`watermarkMs * 1000`), saturating.
    pub const fn as_event_time(self) -> EventTime {
        EventTime(millis_to_micros(self.0))
    }

    /// µs since the epoch ([`Self::as_event_time`]).
    pub const fn micros(self) -> i64 {
        self.as_event_time().0
    }

    /// This watermark plus `ms` ms, saturating: a time-range join's state watermark
    /// (`w + offset`, `PropagateWatermarkSimulator` for `StreamingSymmetricHashJoinExec`).
    pub const fn saturating_add_ms(self, ms: i64) -> WatermarkMs {
        WatermarkMs(self.0.saturating_add(ms))
    }

    /// This watermark plus `ms` ms.
    ///
    /// # Errors
    /// [`TimeOverflow`] (`try_add`) past `i64::MAX` ms.
    pub const fn checked_add_ms(self, ms: i64) -> Result<WatermarkMs, TimeOverflow> {
        match self.0.checked_add(ms) {
            Some(w) => Ok(WatermarkMs(w)),
            None => Err(TimeOverflow("try_add")),
        }
    }

    /// This watermark minus `ms` ms.
    ///
    /// # Errors
    /// [`TimeOverflow`] (`try_subtract`) past `i64::MIN` ms.
    pub const fn checked_sub_ms(self, ms: i64) -> Result<WatermarkMs, TimeOverflow> {
        match self.0.checked_sub(ms) {
            Some(w) => Ok(WatermarkMs(w)),
            None => Err(TimeOverflow("try_subtract")),
        }
    }
}

impl fmt::Display for WatermarkMs {
    /// As Spark's progress JSON writes it: `2026-01-01T12:04:00.000Z` ([`format_progress_ms`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_progress_ms(self.0))
    }
}

/// A `withWatermark` delay in ms (`EventTimeWatermark.getDelayMs`; from an interval by
/// `CalendarInterval::delay_ms`, a month counted as 31 days). Spark allows no negative delay,
/// the type does not check it (`frontend::args` refuses one with Spark's error).
///
/// # Examples
/// ```
/// use streamlab_engine::types::time::DelayMs;
/// let d = DelayMs::from_ms(600_000);
/// assert_eq!(d.as_micros(), 600_000_000);
/// assert_eq!(d.to_string(), "10 minutes");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct DelayMs(i64);

impl DelayMs {
    /// A delay of `ms` ms.
    pub const fn from_ms(ms: i64) -> DelayMs {
        DelayMs(ms)
    }

    /// The delay in ms (Spark prints it so in an attribute: `event_time#3-T600000ms`).
    pub const fn ms(self) -> i64 {
        self.0
    }

    /// The delay in µs, saturating.
    pub const fn as_micros(self) -> i64 {
        millis_to_micros(self.0)
    }
}

impl fmt::Display for DelayMs {
    /// As a short duration: `10 minutes`, `1 hour 30 minutes` ([`format_duration_us`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration_us(self.as_micros()))
    }
}

/// A micro-batch id: `MicroBatchExecution`'s `batchId`, 0 for the first batch; the offset
/// log, the commit log and the sinks' `addBatch` are keyed by it, and batch N commits state
/// version N + 1.
///
/// # Examples
/// ```
/// use streamlab_engine::types::time::BatchId;
/// let b = BatchId::new(2);
/// assert_eq!(b.next().map(BatchId::get), Some(3));
/// assert_eq!(b.prev().map(BatchId::get), Some(1));
/// assert_eq!(BatchId::FIRST.prev(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct BatchId(u64);

impl BatchId {
    /// Batch 0.
    pub const FIRST: BatchId = BatchId(0);

    /// Batch `id`.
    pub const fn new(id: u64) -> BatchId {
        BatchId(id)
    }

    /// The id as a number.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The batch after this one; `None` past `u64::MAX`.
    pub const fn next(self) -> Option<BatchId> {
        match self.0.checked_add(1) {
            Some(n) => Some(BatchId(n)),
            None => None,
        }
    }

    /// The batch before this one; `None` for batch 0.
    pub const fn prev(self) -> Option<BatchId> {
        match self.0.checked_sub(1) {
            Some(n) => Some(BatchId(n)),
            None => None,
        }
    }
}

impl fmt::Display for BatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Parses an ISO-8601 timestamp (`2026-01-01T12:07:00Z`, `2026-01-01T12:07:00.5+09:00`,
/// `2026-01-01 12:07:00`; no offset means UTC) into µs since the epoch.
///
/// # Errors
/// A message naming the text and the accepted shape.
pub fn parse_timestamp_us(text: &str) -> Result<i64, String> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Ok(dt.with_timezone(&Utc).timestamp_micros());
    }
    for fmt in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"] {
        if let Ok(n) = NaiveDateTime::parse_from_str(t, fmt) {
            return Ok(n.and_utc().timestamp_micros());
        }
    }
    Err(format!(
        "'{t}' is not a timestamp: write it as 2026-01-01T12:07:00Z (UTC)"
    ))
}

/// Formats µs since the epoch as the corpus does: `YYYY-MM-DDTHH:MM:SSZ`, with `.ffffff`
/// only when the µs are non-zero.
pub fn format_timestamp_us(us: i64) -> String {
    match DateTime::<Utc>::from_timestamp_micros(us) {
        Some(dt) if us % MICROS_PER_SECOND == 0 => dt.to_rfc3339_opts(SecondsFormat::Secs, true),
        Some(dt) => dt.to_rfc3339_opts(SecondsFormat::Micros, true),
        None => format!("{us}µs"),
    }
}

/// Formats ms since the epoch as Spark's progress JSON does: `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
pub fn format_progress_ms(ms: i64) -> String {
    match DateTime::<Utc>::from_timestamp_millis(ms) {
        Some(dt) => dt.to_rfc3339_opts(SecondsFormat::Millis, true),
        None => format!("{ms}ms"),
    }
}

/// Formats a duration in µs as a short human text: `10 minutes`, `1 hour 30 minutes`, `0 seconds`.
pub fn format_duration_us(us: i64) -> String {
    if us == 0 {
        return "0 seconds".into();
    }
    let mut rest = us.unsigned_abs();
    let mut parts = Vec::new();
    for (unit, size) in [
        ("day", 86_400_000_000u64),
        ("hour", 3_600_000_000),
        ("minute", 60_000_000),
        ("second", 1_000_000),
        ("millisecond", 1_000),
        ("microsecond", 1),
    ] {
        let n = rest / size;
        if n > 0 {
            parts.push(format!("{n} {unit}{}", if n == 1 { "" } else { "s" }));
            rest %= size;
        }
    }
    let text = parts.join(" ");
    if us < 0 {
        format!("-{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip() {
        let t = parse_timestamp_us("2026-01-01T12:07:00Z").unwrap();
        assert_eq!(format_timestamp_us(t), "2026-01-01T12:07:00Z");
        let t2 = parse_timestamp_us("2026-01-01T12:04:59.999999Z").unwrap();
        assert_eq!(t - t2, 2 * 60 * 1_000_000 + 1);
        assert_eq!(format_timestamp_us(t2), "2026-01-01T12:04:59.999999Z");
        assert_eq!(parse_timestamp_us("2026-01-01 12:07:00").unwrap(), t);
        assert!(parse_timestamp_us("yesterday").is_err());
        assert_eq!(format_progress_ms(0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn micros_to_millis_floors_before_1970() {
        // floorDiv, not Java's `/`: 1 999 µs is 1.999 ms → 1; -1 µs is -0.001 ms → -1 (the
        // ms that contains it starts at -1 ms), -1 000 µs is exactly -1 ms, -1 001 µs → -2.
        assert_eq!(EventTime::from_micros(1_999).floor_millis(), 1);
        assert_eq!(EventTime::from_micros(-1).floor_millis(), -1);
        assert_eq!(EventTime::from_micros(-1_000).floor_millis(), -1);
        assert_eq!(EventTime::from_micros(-1_001).floor_millis(), -2);
        // i64::MIN = -9 223 372 036 854 775 808 µs: floorDiv by 1 000 is
        // -9 223 372 036 854 775.808 rounded down = -9 223 372 036 854 776 (no overflow).
        assert_eq!(EventTime::from_micros(i64::MIN).floor_millis(), -9_223_372_036_854_776);
        assert_eq!(EventTime::from_micros(i64::MAX).floor_millis(), 9_223_372_036_854_775);
        // Seconds likewise: -1 µs is in second -1 (1969-12-31T23:59:59Z).
        assert_eq!(floor_micros_to_seconds(-1), -1);
        assert_eq!(floor_millis_to_seconds(1_999), 1);
        assert_eq!(floor_millis_to_seconds(-1), -1);
    }

    #[test]
    fn millis_to_micros_saturates() {
        // 2 ms is 2 000 µs exactly; i64::MAX ms × 1 000 does not fit, so it stays at
        // i64::MAX µs (and i64::MIN at i64::MIN) instead of wrapping to a time in the past.
        assert_eq!(WatermarkMs::from_ms(2).micros(), 2_000);
        assert_eq!(WatermarkMs::from_ms(-2).micros(), -2_000);
        assert_eq!(WatermarkMs::from_ms(i64::MAX).as_event_time(), EventTime::from_micros(i64::MAX));
        assert_eq!(WatermarkMs::from_ms(i64::MIN).as_event_time(), EventTime::from_micros(i64::MIN));
        assert_eq!(EventTime::from_millis(i64::MAX).micros(), i64::MAX);
        assert_eq!(checked_seconds_to_micros(2), Some(2_000_000));
        // 9 223 372 036 855 s × 10⁶ > i64::MAX (9.22 × 10¹⁸).
        assert_eq!(checked_seconds_to_micros(9_223_372_036_855), None);
    }

    #[test]
    fn late_rule_is_at_or_below() {
        // Watermark 12:04:00.000 = 43 440 000 ms after midnight (epoch day 0 here):
        // an event at exactly 12:04:00 is late (<=), one µs later is not.
        let wm = WatermarkMs::from_ms(43_440_000);
        assert!(EventTime::from_micros(43_440_000_000).is_past(wm));
        assert!(!EventTime::from_micros(43_440_000_001).is_past(wm));
        // Before 1970: watermark -1 ms = -1 000 µs; -1 000 µs is past it, -999 µs is not.
        assert!(EventTime::from_micros(-1_000).is_past(WatermarkMs::from_ms(-1)));
        assert!(!EventTime::from_micros(-999).is_past(WatermarkMs::from_ms(-1)));
        // The saturated watermark i64::MAX ms covers every event time; i64::MIN none but MIN.
        assert!(EventTime::from_micros(i64::MAX).is_past(WatermarkMs::from_ms(i64::MAX)));
        assert!(!EventTime::from_micros(i64::MIN + 1).is_past(WatermarkMs::from_ms(i64::MIN)));
    }

    #[test]
    fn watermark_is_max_minus_delay() {
        // The classic case: max event time 12:14 (44 040 000 ms), delay 10 minutes
        // (600 000 ms) → 12:04 (43 440 000 ms).
        assert_eq!(WatermarkMs::from_max(44_040_000, DelayMs::from_ms(600_000)).ms(), 43_440_000);
        // An event at 1969-12-31T23:59:59.999 (-1 ms) and delay 0 → watermark -1 ms.
        assert_eq!(WatermarkMs::from_max(-1, DelayMs::from_ms(0)).ms(), -1);
        // i64::MIN - 1 would wrap to i64::MAX (a watermark far in the future): it saturates.
        assert_eq!(WatermarkMs::from_max(i64::MIN, DelayMs::from_ms(1)).ms(), i64::MIN);
    }

    #[test]
    fn checked_arithmetic_names_the_try_function() {
        assert_eq!(EventTime::from_micros(1).checked_add_micros(2), Ok(EventTime::from_micros(3)));
        assert_eq!(EventTime::from_micros(i64::MAX).checked_add_micros(1), Err(TimeOverflow("try_add")));
        assert_eq!(EventTime::from_micros(i64::MIN).checked_sub_micros(1), Err(TimeOverflow("try_subtract")));
        assert_eq!(WatermarkMs::from_ms(i64::MAX).checked_add_ms(1), Err(TimeOverflow("try_add")));
        assert_eq!(WatermarkMs::from_ms(5).checked_sub_ms(7), Ok(WatermarkMs::from_ms(-2)));
        assert_eq!(WatermarkMs::from_ms(i64::MIN).checked_sub_ms(1), Err(TimeOverflow("try_subtract")));
        let e = TimeOverflow("try_add").to_string();
        assert!(e.starts_with("[ARITHMETIC_OVERFLOW] overflow. Use 'try_add' to tolerate overflow"), "{e}");
        assert!(e.ends_with("SQLSTATE: 22003"), "{e}");
    }

    #[test]
    fn saturating_offsets() {
        // Dedup within watermark: 12:07 + 10 minutes = 12:17, in µs.
        let t = EventTime::from_micros(43_620_000_000);
        assert_eq!(t.saturating_add_delay(DelayMs::from_ms(600_000)).micros(), 44_220_000_000);
        assert_eq!(EventTime::from_micros(i64::MAX).saturating_add_delay(DelayMs::from_ms(1)).micros(), i64::MAX);
        // Join range offset: event time - 5 000 ms.
        assert_eq!(EventTime::from_micros(10_000_000).saturating_sub_millis(5_000).micros(), 5_000_000);
        assert_eq!(EventTime::from_micros(i64::MIN).saturating_sub_millis(1).micros(), i64::MIN);
        assert_eq!(WatermarkMs::from_ms(i64::MAX).saturating_add_ms(1).ms(), i64::MAX);
        // pandas ns: -1 ns lies in µs -1 (floor); 1 µs is 1 000 ns.
        assert_eq!(EventTime::from_nanos(-1).micros(), -1);
        assert_eq!(EventTime::from_nanos(1_999).micros(), 1);
        assert_eq!(EventTime::from_micros(1).as_nanos(), 1_000);
        assert_eq!(EventTime::from_micros(i64::MIN).as_nanos(), i64::MIN);
    }

    #[test]
    fn batch_ids_and_texts() {
        assert_eq!(BatchId::new(u64::MAX).next(), None);
        assert_eq!(BatchId::new(7).to_string(), "7");
        assert_eq!(DelayMs::from_ms(5_400_000).to_string(), "1 hour 30 minutes");
        assert_eq!(WatermarkMs::from_ms(0).to_string(), "1970-01-01T00:00:00.000Z");
        assert_eq!(WatermarkMs::from_ms(-1).to_string(), "1969-12-31T23:59:59.999Z");
        assert_eq!(EventTime::from_micros(-1).to_string(), "1969-12-31T23:59:59.999999Z");
    }

    #[test]
    fn durations_read_back() {
        assert_eq!(format_duration_us(600_000_000), "10 minutes");
        assert_eq!(format_duration_us(5_400_000_000), "1 hour 30 minutes");
    }
}
