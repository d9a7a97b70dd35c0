//! Spark's interval strings: `"10 minutes"`, `"1 hour -30 minutes"`, `"interval 1 day"`.
//!
//! A port of `IntervalUtils.fromIntervalString` (catalyst `util/IntervalUtils.scala`): text that
//! starts with `interval` is an interval literal of Spark's SQL grammar (`multiUnitsInterval`,
//! or a quoted string), anything else goes through `SparkIntervalUtils.stringToInterval`, the
//! byte-level state machine reproduced here state by state, with its checked (`Math.*Exact`)
//! arithmetic. What Spark cannot read fails with `CANNOT_PARSE_INTERVAL`; the cause (Spark's
//! `IllegalArgumentException` text) is kept as [`IntervalError::detail`].
//!
//! The conversions the streaming API makes from an interval are here too, each with Spark's
//! error: a watermark delay ([`CalendarInterval::delay_ms`], `EventTimeWatermark.getDelayMs`,
//! a month is 31 days) and a window length ([`CalendarInterval::window_micros`],
//! `TimeWindow.getIntervalInMicroSeconds`).

use std::fmt;

use super::time::{MICROS_PER_DAY, MICROS_PER_MILLI, MICROS_PER_SECOND};

/// µs in one minute.
const MICROS_PER_MINUTE: i64 = 60 * MICROS_PER_SECOND;
/// µs in one hour.
const MICROS_PER_HOUR: i64 = 60 * MICROS_PER_MINUTE;

/// A calendar interval as Spark keeps it: months, days and µs kept apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CalendarInterval {
    /// Whole months (a year counts 12), added by the calendar: Jan 31 + 1 month = Feb 28.
    pub months: i32,
    /// Whole days, kept apart from `micros` as Spark's `CalendarInterval` keeps them.
    pub days: i32,
    /// The rest of the interval (hours down to microseconds), µs.
    pub micros: i64,
}

/// An interval string Spark cannot read: `CANNOT_PARSE_INTERVAL` (SQLSTATE 22006).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntervalError {
    /// The text as the learner wrote it.
    pub input: String,
    /// Spark's cause: the `IllegalArgumentException` of `stringToInterval`
    /// (`Error parsing 'ten minutes' to interval, unrecognized number 'ten'`) or the SQL
    /// parser's complaint about an `interval ...` literal.
    pub detail: String,
}

impl IntervalError {
    /// Spark's error condition.
    pub const CONDITION: &'static str = "CANNOT_PARSE_INTERVAL";
    /// Spark's SQLSTATE for the condition.
    pub const SQLSTATE: &'static str = "22006";

    /// Spark's message text, without the `[CONDITION]` prefix and the SQLSTATE.
    pub fn message(&self) -> String {
        format!(
            "Unable to parse '{}'. Please ensure that the value provided is in a valid format for defining an interval. You can reference the documentation for the correct format. If the issue persists, please double check that the input value is not null or empty and try again.",
            self.input
        )
    }
}

impl fmt::Display for IntervalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {} SQLSTATE: {}", Self::CONDITION, self.message(), Self::SQLSTATE)
    }
}

impl std::error::Error for IntervalError {}

/// Why an interval is not a usable window length, slide or start (`TimeWindow`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowArgError {
    /// The interval has months or years: `_LEGACY_ERROR_TEMP_3231`, "Intervals greater than a
    /// month is not supported (1 month)."
    Months(String),
    /// `days·86 400 000 000 + µs` does not fit a long: Spark's `Math.multiplyExact` throws and
    /// the function registry reports `FAILED_FUNCTION_CALL`.
    Overflow(String),
}

/// A delay whose length in µs does not fit a long (`IntervalUtils.getDuration`):
/// `INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION` (SQLSTATE 22015).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntervalOverflow;

impl IntervalOverflow {
    /// Spark's error condition.
    pub const CONDITION: &'static str = "INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION";
    /// Spark's SQLSTATE.
    pub const SQLSTATE: &'static str = "22015";
    /// Spark's message text.
    pub const MESSAGE: &'static str = "Integer overflow while operating with intervals. Try devising appropriate values for the interval parameters.";
}

impl CalendarInterval {
    /// Parses an interval string as Spark's `IntervalUtils.fromIntervalString` does:
    /// `"10 minutes"`, `"1 day 3 hours"`, `"-5 seconds"`, `"1.5 seconds"`, `"1 hour -30 minutes"`,
    /// `"interval 1 hour 30 minutes"`, `"interval '10' minute"` (case-insensitive; singular or
    /// plural units; a fraction only on seconds).
    ///
    /// # Examples
    /// ```
    /// use streamlab_engine::types::CalendarInterval;
    /// let i = CalendarInterval::parse("interval 1 hour 30 minutes").unwrap();
    /// assert_eq!(i.micros, 90 * 60 * 1_000_000);
    /// // Spark's unit list keeps days apart from µs; a negative part is allowed.
    /// let j = CalendarInterval::parse("1 day -1 hour").unwrap();
    /// assert_eq!((j.days, j.micros), (1, -3_600_000_000));
    /// assert!(CalendarInterval::parse("ten minutes").is_err());
    /// ```
    ///
    /// # Errors
    /// [`IntervalError`] (`CANNOT_PARSE_INTERVAL`) with Spark's cause in `detail`.
    pub fn parse(input: &str) -> Result<CalendarInterval, IntervalError> {
        let fail = |detail: String| IntervalError { input: input.to_string(), detail };
        // Java's `String.trim` drops chars <= ' ' before the prefix test.
        let java_trimmed = input.trim_matches(|c: char| c <= ' ');
        if java_trimmed.to_lowercase().starts_with("interval") {
            return parse_interval_literal(java_trimmed).map_err(fail);
        }
        string_to_interval(input).map_err(fail)
    }

    /// The interval's length in µs with `days_per_month` days to a month
    /// (`IntervalUtils.getDuration`), or `None` when it does not fit a long.
    pub fn duration_us(&self, days_per_month: i64) -> Option<i64> {
        let months = i64::from(self.months).checked_mul(days_per_month.checked_mul(MICROS_PER_DAY)?)?;
        let days = i64::from(self.days).checked_mul(MICROS_PER_DAY)?;
        self.micros.checked_add(days.checked_add(months)?)
    }

    /// The delay in ms a watermark uses: `(months·31 days + days + µs) / 1000`, rounded toward
    /// zero (`EventTimeWatermark.getDelayMs`; a month counts as 31 days).
    ///
    /// # Errors
    /// [`IntervalOverflow`] when the length in µs does not fit a long (e.g. `200000000 days`).
    pub fn delay_ms(&self) -> Result<i64, IntervalOverflow> {
        self.duration_us(31).map(|us| us / MICROS_PER_MILLI).ok_or(IntervalOverflow)
    }

    /// True when the interval is shorter than zero with 31-day months
    /// (`IntervalUtils.isNegative`).
    ///
    /// # Errors
    /// [`IntervalOverflow`] as [`CalendarInterval::delay_ms`].
    pub fn is_negative(&self) -> Result<bool, IntervalOverflow> {
        self.duration_us(31).map(|us| us < 0).ok_or(IntervalOverflow)
    }

    /// The length in µs a time window, slide or start time uses: `days·86 400 000 000 + µs`
    /// (`TimeWindow.getIntervalInMicroSeconds`). `text` is the argument as written.
    ///
    /// # Errors
    /// [`WindowArgError::Months`] when the interval has months (any sign),
    /// [`WindowArgError::Overflow`] when the length does not fit a long.
    pub fn window_micros(&self, text: &str) -> Result<i64, WindowArgError> {
        if self.months != 0 {
            return Err(WindowArgError::Months(format!("Intervals greater than a month is not supported ({text}).")));
        }
        i64::from(self.days)
            .checked_mul(MICROS_PER_DAY)
            .and_then(|d| self.micros.checked_add(d))
            .ok_or_else(|| WindowArgError::Overflow(format!("long overflow in the length of '{text}'")))
    }

    /// True when the interval adds a positive amount of time (31-day months; saturating).
    pub fn is_positive(&self) -> bool {
        i64::from(self.months)
            .saturating_mul(31 * MICROS_PER_DAY)
            .saturating_add(i64::from(self.days).saturating_mul(MICROS_PER_DAY))
            .saturating_add(self.micros)
            > 0
    }

    /// Adds this interval to a timestamp in µs as Spark's `DateTimeUtils.timestampAddInterval`
    /// does in the session time zone (UTC): calendar months first (the day of the month kept,
    /// or the month's last day: Jan 31 + 1 month is Feb 28), then days, then µs. Saturates
    /// instead of overflowing.
    ///
    /// # Examples
    /// ```
    /// use streamlab_engine::types::{parse_timestamp_us, CalendarInterval};
    /// let t = parse_timestamp_us("2026-01-31T12:00:00Z").unwrap();
    /// let month = CalendarInterval { months: 1, days: 0, micros: 0 };
    /// assert_eq!(month.add_to(t), parse_timestamp_us("2026-02-28T12:00:00Z").unwrap());
    /// ```
    pub fn add_to(&self, ts_us: i64) -> i64 {
        let with_months = if self.months == 0 {
            ts_us
        } else {
            let months = chrono::Months::new(self.months.unsigned_abs());
            chrono::DateTime::from_timestamp_micros(ts_us)
                .and_then(|t| if self.months > 0 { t.checked_add_months(months) } else { t.checked_sub_months(months) })
                .map_or(if self.months > 0 { i64::MAX } else { i64::MIN }, |t| t.timestamp_micros())
        };
        with_months.saturating_add(i64::from(self.days).saturating_mul(MICROS_PER_DAY)).saturating_add(self.micros)
    }
}

/// Java's `Character.isWhitespace` on one byte of UTF-8 (a non-ASCII byte is negative in Java,
/// never whitespace).
fn java_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f)
}

/// The state of `stringToInterval`'s parser (`ParseState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Prefix,
    TrimBeforeSign,
    Sign,
    TrimBeforeValue,
    Value,
    ValueFractionalPart,
    TrimBeforeUnit,
    UnitBegin,
    UnitSuffix,
    UnitEnd,
}

/// `SparkIntervalUtils.stringToInterval`, state by state. Errors are Spark's
/// `IllegalArgumentException` texts.
fn string_to_interval(input: &str) -> Result<CalendarInterval, String> {
    let throw = |msg: String| format!("Error parsing '{input}' to interval, {msg}");
    // `UTF8String.trimAll`: whitespace and ISO control characters at both ends.
    let s = input.trim_matches(|c: char| c.is_whitespace() || c.is_control()).to_lowercase();
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return Err(throw("interval string cannot be empty".into()));
    }
    // The word at byte `i`, for messages (`currentWord`).
    let word_at = |i: usize| -> String {
        let start = s[..i.min(s.len())].rfind(|c: char| c.is_ascii_whitespace()).map_or(0, |p| p + 1);
        s[start..].split_ascii_whitespace().next().unwrap_or("").to_string()
    };
    let matches_at = |word: &str, i: usize| bytes[i..].starts_with(word.as_bytes());
    const INITIAL_FRACTION_SCALE: i32 = 100_000_000; // NANOS_PER_SECOND / 10
    let mut state = State::Prefix;
    let mut i = 0;
    let mut current: i64 = 0;
    let mut negative = false;
    let mut months: i32 = 0;
    let mut days: i32 = 0;
    let mut micros: i64 = 0;
    let mut fraction_scale: i32 = 0;
    let mut fraction: i32 = 0;
    let mut point_prefixed = false;
    let overflow = || "long overflow".to_string();
    let int_overflow = || "integer overflow".to_string();
    while i < bytes.len() {
        let b = bytes[i];
        match state {
            State::Prefix => {
                if s.starts_with("interval") {
                    if s.len() == "interval".len() {
                        return Err(throw("interval string cannot be empty".into()));
                    } else if !java_ws(bytes["interval".len()]) {
                        return Err(throw(format!("invalid interval prefix {}", word_at(i))));
                    } else {
                        i += "interval".len() + 1;
                    }
                }
                state = State::TrimBeforeSign;
            }
            State::TrimBeforeSign => {
                if java_ws(b) {
                    i += 1;
                } else {
                    state = State::Sign;
                }
            }
            State::Sign => {
                current = 0;
                fraction = 0;
                state = State::TrimBeforeValue;
                fraction_scale = -1;
                point_prefixed = false;
                match b {
                    b'-' => {
                        negative = true;
                        i += 1;
                    }
                    b'+' => {
                        negative = false;
                        i += 1;
                    }
                    b'0'..=b'9' => negative = false,
                    b'.' => {
                        negative = false;
                        fraction_scale = INITIAL_FRACTION_SCALE;
                        point_prefixed = true;
                        i += 1;
                        state = State::ValueFractionalPart;
                    }
                    _ => return Err(throw(format!("unrecognized number '{}'", word_at(i)))),
                }
            }
            State::TrimBeforeValue => {
                if java_ws(b) {
                    i += 1;
                } else {
                    state = State::Value;
                }
            }
            State::Value => {
                match b {
                    b'0'..=b'9' => {
                        current = current
                            .checked_mul(10)
                            .and_then(|v| v.checked_add(i64::from(b - b'0')))
                            .ok_or_else(|| throw(overflow()))?;
                    }
                    _ if java_ws(b) => state = State::TrimBeforeUnit,
                    b'.' => {
                        fraction_scale = INITIAL_FRACTION_SCALE;
                        state = State::ValueFractionalPart;
                    }
                    _ => return Err(throw(format!("invalid value '{}'", word_at(i)))),
                }
                i += 1;
            }
            State::ValueFractionalPart => {
                if b.is_ascii_digit() && fraction_scale > 0 {
                    fraction += i32::from(b - b'0') * fraction_scale;
                    fraction_scale /= 10;
                } else if java_ws(b) && (!point_prefixed || fraction_scale < INITIAL_FRACTION_SCALE) {
                    fraction /= 1000; // NANOS_PER_MICROS
                    state = State::TrimBeforeUnit;
                } else if b.is_ascii_digit() {
                    return Err(throw(format!("interval can only support nanosecond precision, '{}' is out of range", word_at(i))));
                } else {
                    return Err(throw(format!("invalid value '{}'", word_at(i))));
                }
                i += 1;
            }
            State::TrimBeforeUnit => {
                if java_ws(b) {
                    i += 1;
                } else {
                    state = State::UnitBegin;
                }
            }
            State::UnitBegin => {
                // Only seconds can have a fractional part.
                if b != b's' && fraction_scale >= 0 {
                    return Err(throw(format!("'{}' cannot have fractional part", word_at(i))));
                }
                if negative {
                    current = -current;
                    fraction = -fraction;
                }
                let to_int = |v: i64| i32::try_from(v).map_err(|_| throw(int_overflow()));
                let add_micros = |acc: i64, v: Option<i64>| v.and_then(|v| acc.checked_add(v)).ok_or_else(|| throw(overflow()));
                match b {
                    b'y' if matches_at("year", i) => {
                        let in_years = current.checked_mul(12).ok_or_else(|| throw(overflow()))?;
                        months = to_int(i64::from(months).checked_add(in_years).ok_or_else(|| throw(overflow()))?)?;
                        i += "year".len();
                    }
                    b'w' if matches_at("week", i) => {
                        let in_weeks = current.checked_mul(7).ok_or_else(|| throw(overflow()))?;
                        days = to_int(i64::from(days).checked_add(in_weeks).ok_or_else(|| throw(overflow()))?)?;
                        i += "week".len();
                    }
                    b'd' if matches_at("day", i) => {
                        days = days.checked_add(to_int(current)?).ok_or_else(|| throw(int_overflow()))?;
                        i += "day".len();
                    }
                    b'h' if matches_at("hour", i) => {
                        micros = add_micros(micros, current.checked_mul(MICROS_PER_HOUR))?;
                        i += "hour".len();
                    }
                    b's' if matches_at("second", i) => {
                        micros = add_micros(micros, current.checked_mul(MICROS_PER_SECOND))?;
                        micros = add_micros(micros, Some(i64::from(fraction)))?;
                        i += "second".len();
                    }
                    b'm' if matches_at("month", i) => {
                        months = months.checked_add(to_int(current)?).ok_or_else(|| throw(int_overflow()))?;
                        i += "month".len();
                    }
                    b'm' if matches_at("minute", i) => {
                        micros = add_micros(micros, current.checked_mul(MICROS_PER_MINUTE))?;
                        i += "minute".len();
                    }
                    b'm' if matches_at("millisecond", i) => {
                        micros = add_micros(micros, current.checked_mul(MICROS_PER_MILLI))?;
                        i += "millisecond".len();
                    }
                    b'm' if matches_at("microsecond", i) => {
                        micros = add_micros(micros, Some(current))?;
                        i += "microsecond".len();
                    }
                    _ => return Err(throw(format!("invalid unit '{}'", word_at(i)))),
                }
                state = State::UnitSuffix;
            }
            State::UnitSuffix => {
                match b {
                    b's' => state = State::UnitEnd,
                    _ if java_ws(b) => state = State::TrimBeforeSign,
                    _ => return Err(throw(format!("invalid unit '{}'", word_at(i)))),
                }
                i += 1;
            }
            State::UnitEnd => {
                if java_ws(b) {
                    i += 1;
                    state = State::TrimBeforeSign;
                } else {
                    return Err(throw(format!("invalid unit '{}'", word_at(i))));
                }
            }
        }
    }
    match state {
        State::UnitSuffix | State::UnitEnd | State::TrimBeforeSign => Ok(CalendarInterval { months, days, micros }),
        State::TrimBeforeValue => Err(throw(format!("expect a number after '{}' but hit EOL", word_at(i)))),
        State::Value | State::ValueFractionalPart => Err(throw(format!("expect a unit name after '{}' but hit EOL", word_at(i)))),
        _ => Err(throw(format!("unknown error when parsing '{}'", word_at(i)))),
    }
}

/// The units of an ANSI year-month interval; every other unit is day-time.
fn is_year_month_unit(unit: &str) -> bool {
    matches!(unit.trim_end_matches('s'), "year" | "month")
}

/// The units Spark's `multiUnitsInterval` accepts, singular or plural (nanoseconds are not
/// read here).
fn is_interval_unit(unit: &str) -> bool {
    let singular = unit.strip_suffix('s').unwrap_or(unit);
    matches!(singular, "year" | "month" | "week" | "day" | "hour" | "minute" | "second" | "millisecond" | "microsecond")
}

/// An `interval ...` literal as Spark's SQL parser reads it (`AstBuilder.visitInterval`, with
/// `spark.sql.legacy.interval.enabled=false`): a quoted interval string, or a list of
/// `[+|-] value unit` pairs whose values may be quoted numbers. Year-month and day-time units
/// may not be mixed; a day-time literal folds its days into µs.
fn parse_interval_literal(text: &str) -> Result<CalendarInterval, String> {
    let rest = &text["interval".len()..];
    let tokens = sql_tokens(rest)?;
    let (interval, units): (CalendarInterval, Vec<String>) = match tokens.as_slice() {
        [] => return Err("at least one time unit should be given for interval literal".into()),
        [Tok::Quoted(s)] => {
            let iv = string_to_interval(s)?;
            let units = s
                .split_whitespace()
                .map(str::to_lowercase)
                .filter(|w| w != "interval" && w.chars().all(|c| c.is_ascii_lowercase()))
                .collect();
            (iv, units)
        }
        _ => {
            if tokens.iter().any(|t| matches!(t, Tok::Word(w) if w.eq_ignore_ascii_case("to"))) {
                return Err("unit-to-unit interval literals ('1 10' DAY TO HOUR) are not read by Streamlab".into());
            }
            let mut text = String::new();
            let mut units = Vec::new();
            let mut it = tokens.iter().peekable();
            while let Some(t) = it.next() {
                let mut minus = false;
                let mut t = t;
                if let Tok::Sign(sign) = t {
                    minus = *sign == '-';
                    t = it.next().ok_or("a value must follow the sign")?;
                }
                let value = match t {
                    Tok::Number(n) => format!("{}{n}", if minus { "-" } else { "" }),
                    Tok::Quoted(v) => {
                        if v.chars().any(char::is_alphabetic) {
                            return Err(format!("Can only use numbers in the interval value part for multiple unit value pairs interval form, but got invalid value: {v}"));
                        }
                        match (minus, v.strip_prefix('-')) {
                            (false, _) => v.clone(),
                            (true, Some(positive)) => positive.to_string(),
                            (true, None) => format!("-{v}"),
                        }
                    }
                    _ => return Err("syntax error in the interval literal".into()),
                };
                let Some(Tok::Word(unit)) = it.next() else { return Err("a unit must follow each value".into()) };
                let unit = unit.to_lowercase();
                if !is_interval_unit(&unit) {
                    return Err(format!("invalid unit '{unit}'"));
                }
                text.push_str(&format!(" {value} {unit}"));
                units.push(unit);
            }
            (string_to_interval(&text)?, units)
        }
    };
    let year_month = units.iter().any(|u| is_year_month_unit(u));
    let day_time = units.iter().any(|u| !is_year_month_unit(u));
    if year_month && day_time {
        return Err(format!("Cannot mix year-month and day-time fields: {text}."));
    }
    if year_month {
        Ok(CalendarInterval { months: interval.months, days: 0, micros: 0 })
    } else {
        let micros = i64::from(interval.days)
            .checked_mul(MICROS_PER_DAY)
            .and_then(|d| d.checked_add(interval.micros))
            .ok_or("Interval value overflows")?;
        Ok(CalendarInterval { months: 0, days: 0, micros })
    }
}

/// One token of an interval literal.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Sign(char),
    Number(String),
    Quoted(String),
    Word(String),
}

/// Splits the text after `interval` into signs, numbers, quoted strings and words.
fn sql_tokens(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '+' || c == '-' {
            chars.next();
            out.push(Tok::Sign(c));
        } else if c == '\'' || c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some(q) if q == c => break,
                    Some(ch) => s.push(ch),
                    None => return Err("unclosed string literal".into()),
                }
            }
            out.push(Tok::Quoted(s));
        } else if c.is_ascii_digit() || c == '.' {
            let mut s = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() || d == '.' {
                    s.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(Tok::Number(s));
        } else if c.is_alphabetic() || c == '_' {
            let mut s = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    s.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(Tok::Word(s));
        } else {
            return Err(format!("syntax error at '{c}'"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(s: &str) -> CalendarInterval {
        CalendarInterval::parse(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))
    }

    const MIN: i64 = 60_000_000;

    #[test]
    fn unit_lists_as_spark_reads_them() {
        // Each expectation was checked against Spark 4.3's `withWatermark` plan text.
        assert_eq!(iv("10 minutes").micros, 10 * MIN);
        assert_eq!(iv("10 MINUTES").micros, 10 * MIN);
        assert_eq!(iv("  10 minutes  ").micros, 10 * MIN);
        assert_eq!(iv("10\tminutes").micros, 10 * MIN);
        assert_eq!(iv("+10 minutes").micros, 10 * MIN);
        assert_eq!(iv("- 10 minutes").micros, -10 * MIN);
        assert_eq!(iv("10 minutes 10 minutes").micros, 20 * MIN);
        assert_eq!(iv("1 hour -30 minutes").micros, 30 * MIN);
        // "1.5 seconds" = 1 500 000 µs; ".5 seconds" = 500 000 µs.
        assert_eq!(iv("1.5 seconds").micros, 1_500_000);
        assert_eq!(iv(".5 seconds").micros, 500_000);
        assert_eq!(iv("1 milliseconds 1.5 seconds").micros, 1_501_000);
        // 2 weeks = 14 days; 1 ms + 3 µs = 1003 µs.
        let w = iv("2 weeks 1 millisecond 3 microseconds");
        assert_eq!((w.days, w.micros), (14, 1003));
        assert_eq!(iv("1 year").months, 12);
        assert_eq!(iv("1 month 1 day"), CalendarInterval { months: 1, days: 1, micros: 0 });
        assert_eq!(iv("9223372036854775807 microseconds").micros, i64::MAX);
    }

    #[test]
    fn unreadable_strings_are_cannot_parse_interval() {
        for bad in [
            "ten minutes",
            "10 minuts",
            "10",
            "10 mins",
            "10 minutes,",
            "10minutes",
            "1.5 minutes",
            "1.0000000001 seconds",
            "9223372036854775808 microseconds",
            "9999999999999 hours",
            "3000000000 days",
            "300000000 years",
            "",
            "   ",
            "interval",
            "interval 1 month 1 day",
            "interval 1.5 hours",
        ] {
            let e = CalendarInterval::parse(bad).expect_err(bad);
            assert!(e.to_string().starts_with("[CANNOT_PARSE_INTERVAL] Unable to parse '"), "{e}");
        }
        assert!(CalendarInterval::parse("ten minutes").unwrap_err().detail.contains("unrecognized number 'ten'"));
    }

    #[test]
    fn interval_literals_fold_day_time_units() {
        assert_eq!(iv("interval 10 minutes").micros, 10 * MIN);
        assert_eq!(iv("INTERVAL 1 hour 30 minutes").micros, 90 * MIN);
        assert_eq!(iv("interval '10' minute").micros, 10 * MIN);
        assert_eq!(iv("interval '10 minutes'").micros, 10 * MIN);
        assert_eq!(iv("interval -10 minutes").micros, -10 * MIN);
        // A day-time literal keeps days as µs: 1 day = 86 400 000 000 µs, days = 0.
        assert_eq!(iv("interval 1 day"), CalendarInterval { months: 0, days: 0, micros: 86_400_000_000 });
        assert_eq!(iv("interval 1 month"), CalendarInterval { months: 1, days: 0, micros: 0 });
    }

    #[test]
    fn delays_and_window_lengths_are_checked() {
        // Spark counts a month of watermark delay as 31 days (`EventTimeWatermark.getDelayMs`).
        assert_eq!(iv("1 month").delay_ms(), Ok(31 * 86_400_000));
        // 200 000 000 days = 1.728e19 µs > i64::MAX: Spark reports an interval overflow.
        assert_eq!(iv("200000000 days").delay_ms(), Err(IntervalOverflow));
        assert_eq!(iv("100000000 months").is_negative(), Err(IntervalOverflow));
        assert_eq!(iv("1 month -40 days").is_negative(), Ok(true));
        assert_eq!(iv("1 hour -30 minutes").is_negative(), Ok(false));
        // Windows: 106 751 991 days fit a long, 106 751 992 do not.
        assert_eq!(iv("106751991 days").window_micros("x"), Ok(106_751_991 * 86_400_000_000));
        assert!(matches!(iv("106751992 days").window_micros("x"), Err(WindowArgError::Overflow(_))));
        assert!(matches!(iv("106751991 days 5 hours").window_micros("x"), Err(WindowArgError::Overflow(_))));
        assert_eq!(
            iv("-1 month").window_micros("-1 month"),
            Err(WindowArgError::Months("Intervals greater than a month is not supported (-1 month).".into()))
        );
        assert_eq!(iv("1 day -1 hour").window_micros("x"), Ok(23 * 60 * MIN));
    }
}
