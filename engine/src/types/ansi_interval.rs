//! Unit-to-unit interval literals of Spark SQL: `INTERVAL '1:30' MINUTE TO SECOND`,
//! `INTERVAL '1 02:03:04.5' DAY TO SECOND`, `INTERVAL '1-2' YEAR TO MONTH`.
//!
//! Port of the string forms `IntervalUtils.castStringToDTInterval` and
//! `castStringToYMInterval` read for a literal (`AstBuilder.visitUnitToUnitInterval`, ANSI
//! intervals, Spark 3.2+): the string has exactly the fields from the first unit to the last
//! (`[+|-]m:s.n` for MINUTE TO SECOND), the first field is unbounded, the later ones stay in
//! their range (hour 0–23, minute and second 0–59). A day-time literal is a number of µs
//! (`DayTimeIntervalType`), a year-month literal a number of months (`YearMonthIntervalType`).

use super::interval::CalendarInterval;
use super::time::MICROS_PER_DAY;

const MICROS_PER_SECOND: i64 = 1_000_000;
const MICROS_PER_MINUTE: i64 = 60 * MICROS_PER_SECOND;
const MICROS_PER_HOUR: i64 = 60 * MICROS_PER_MINUTE;

/// The day-time fields, in order (`DayTimeIntervalType.DAY` .. `SECOND`).
const DAY_TIME: [&str; 4] = ["DAY", "HOUR", "MINUTE", "SECOND"];

/// Why a unit-to-unit literal's string cannot be read, with Spark's condition and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitToUnitError {
    /// `INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE` (day-time) or
    /// `...UNMATCHED_FORMAT_STRING` (year-month) when the string's form does not fit;
    /// `None` for a field out of its range (Spark's `requirement failed`) or an overflow.
    pub condition: Option<&'static str>,
    /// Spark's message.
    pub message: String,
}

impl UnitToUnitError {
    fn plain(message: impl Into<String>) -> Self {
        UnitToUnitError { condition: None, message: message.into() }
    }
}

impl CalendarInterval {
    /// Reads `value` as an `INTERVAL 'value' from TO to` literal (units case-insensitive).
    ///
    /// # Examples
    /// ```
    /// use streamlab_engine::types::CalendarInterval;
    /// let i = CalendarInterval::from_unit_to_unit("1:30", "MINUTE", "SECOND").unwrap();
    /// assert_eq!(i.micros, 90_000_000);
    /// let y = CalendarInterval::from_unit_to_unit("-1-2", "YEAR", "MONTH").unwrap();
    /// assert_eq!(y.months, -14);
    /// assert!(CalendarInterval::from_unit_to_unit("1:61", "MINUTE", "SECOND").is_err());
    /// ```
    ///
    /// # Errors
    /// Spark's condition and message when the string does not have the fields' form
    /// (`INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE`), a later field is out
    /// of its range, the total overflows, or the pair of units is not one Spark reads.
    pub fn from_unit_to_unit(value: &str, from: &str, to: &str) -> Result<CalendarInterval, UnitToUnitError> {
        let (from, to) = (from.to_ascii_uppercase(), to.to_ascii_uppercase());
        if from == "YEAR" && to == "MONTH" {
            return year_month(value.trim());
        }
        let (Some(start), Some(end)) = (DAY_TIME.iter().position(|f| *f == from), DAY_TIME.iter().position(|f| *f == to)) else {
            return Err(UnitToUnitError::plain(format!("Intervals FROM {from} TO {to} are not supported.")));
        };
        if start >= end {
            return Err(UnitToUnitError::plain(format!("Intervals FROM {from} TO {to} are not supported.")));
        }
        day_time(value.trim(), start, end).map(|micros| CalendarInterval { months: 0, days: 0, micros })
    }
}

fn format_of(start: usize, end: usize) -> String {
    let parts = ["d", "h", "m", "s.n"];
    let mut out = String::from("[+|-]");
    for (i, p) in parts.iter().enumerate().take(end + 1).skip(start) {
        if i > start {
            out.push(if i == 1 { ' ' } else { ':' });
        }
        out.push_str(p);
    }
    out
}

/// `INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE` (`IntervalUtils`'
/// `supportedFormat`).
fn mismatch(value: &str, start: usize, end: usize) -> UnitToUnitError {
    let form = format_of(start, end);
    let units = format!("{} TO {}", DAY_TIME[start], DAY_TIME[end]);
    UnitToUnitError {
        condition: Some("INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE"),
        message: format!(
            "Error parsing '{value}' to interval. Please ensure that the value provided is in a valid format for defining an interval. You can reference the documentation for the correct format. Interval string does not match day-time format of `{form}`, `INTERVAL [+|-]'{form}' {units}` when cast to interval {}: {value}. Set \"spark.sql.legacy.fromDayTimeString.enabled\" to \"true\" to restore the behavior before Spark 3.0.",
            units.to_lowercase()
        ),
    }
}

/// The fields of an ANSI interval type, in Spark's order: `YEAR`, `MONTH` (year-month) and
/// `DAY`, `HOUR`, `MINUTE`, `SECOND` (day-time).
const FIELDS: [&str; 6] = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"];

/// The field a unit word stands for (`WEEKS` is days, `MILLISECOND` seconds), by rank in
/// [`FIELDS`].
fn field_rank(unit: &str) -> Option<usize> {
    let u = unit.to_ascii_uppercase();
    let u = u.strip_suffix('S').unwrap_or(&u);
    Some(match u {
        "YEAR" => 0,
        "MONTH" => 1,
        "WEEK" | "DAY" => 2,
        "HOUR" => 3,
        "MINUTE" => 4,
        "SECOND" | "MILLISECOND" | "MICROSECOND" | "NANOSECOND" => 5,
        _ => return None,
    })
}

/// The ANSI interval type of a literal whose text after `INTERVAL` is `text`
/// (`'2' HOUR`, `1 HOUR 30 MINUTES`, `'1 hour'`): from its largest unit to its smallest
/// (`AstBuilder.visitInterval`, ANSI intervals). `None` without a unit.
pub fn literal_fields(text: &str) -> Option<(usize, usize)> {
    let ranks: Vec<usize> = text.split(|c: char| !c.is_ascii_alphabetic()).filter_map(field_rank).collect();
    Some((*ranks.iter().min()?, *ranks.iter().max()?))
}

/// The rank in `FIELDS` of a unit of a `from TO to` literal.
pub fn unit_rank(unit: &str) -> Option<usize> {
    FIELDS.iter().position(|f| f.eq_ignore_ascii_case(unit))
}

/// Spark's SQL text of an ANSI interval literal of fields `start..=end` (ranks in
/// `FIELDS`): `INTERVAL '02' HOUR`, `INTERVAL '01:30' MINUTE TO SECOND`,
/// `INTERVAL '1-2' YEAR TO MONTH` (`IntervalUtils.toDayTimeIntervalString` and
/// `toYearMonthIntervalString`, ANSI style). A day-time literal counts its days as 24 hours.
///
/// # Examples
/// ```
/// use streamlab_engine::types::{ansi_interval::ansi_text, CalendarInterval};
/// let i = CalendarInterval::from_unit_to_unit("1:30", "MINUTE", "SECOND").unwrap();
/// assert_eq!(ansi_text(&i, 4, 5), "INTERVAL '01:30' MINUTE TO SECOND");
/// ```
pub fn ansi_text(iv: &CalendarInterval, start: usize, end: usize) -> String {
    let (start, end) = (start.min(5), end.clamp(start.min(5), 5));
    let unit = if start == end { FIELDS[start].to_string() } else { format!("{} TO {}", FIELDS[start], FIELDS[end]) };
    if start <= 1 {
        let months = i64::from(iv.months);
        let sign = if months < 0 { "-" } else { "" };
        let abs = months.unsigned_abs();
        let body = match (start, end) {
            (0, 0) => format!("{sign}{}", abs / 12),
            (0, _) => format!("{sign}{}-{}", abs / 12, abs % 12),
            _ => format!("{sign}{abs}"),
        };
        return format!("INTERVAL '{body}' {unit}");
    }
    let micros = i128::from(iv.days) * i128::from(MICROS_PER_DAY) + i128::from(iv.micros);
    let sign = if micros < 0 { "-" } else { "" };
    let mut rest = micros.unsigned_abs();
    let seconds = |rest: u128| {
        let whole = rest / 1_000_000;
        let frac = rest % 1_000_000;
        let lead = if rest < 10_000_000 { "0" } else { "" };
        if frac == 0 {
            format!("{lead}{whole}")
        } else {
            format!("{lead}{whole}.{}", format!("{frac:06}").trim_end_matches('0'))
        }
    };
    let unit_us = [0, 0, MICROS_PER_DAY as u128, MICROS_PER_HOUR as u128, MICROS_PER_MINUTE as u128, 1];
    let mut body = String::new();
    for (field, unit) in unit_us.iter().enumerate().take(end + 1).skip(start) {
        let sep = match field {
            _ if field == start => "",
            3 => " ",
            _ => ":",
        };
        body.push_str(sep);
        if field == 5 {
            body.push_str(&seconds(rest));
        } else {
            let n = rest / unit;
            rest %= unit;
            if field == 2 && field == start {
                body.push_str(&n.to_string());
            } else {
                body.push_str(&format!("{n:02}"));
            }
        }
    }
    format!("INTERVAL '{sign}{body}' {unit}")
}

/// `[+|-]d h:m:s.n` restricted to the fields `start..=end`, in µs.
fn day_time(value: &str, start: usize, end: usize) -> Result<i64, UnitToUnitError> {
    let (negative, body) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    // Split into the fields: a space after the day, colons between the others.
    let mut fields: Vec<&str> = Vec::new();
    let mut rest = body;
    if start == 0 {
        let Some((day, tail)) = rest.split_once(' ') else { return Err(mismatch(value, start, end)) };
        fields.push(day);
        rest = tail;
    }
    fields.extend(rest.split(':'));
    if fields.len() != end - start + 1 {
        return Err(mismatch(value, start, end));
    }
    let unit = [MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND];
    let bound = [i64::MAX, 23, 59, 59];
    let mut total: i64 = 0;
    for (k, text) in fields.iter().enumerate() {
        let field = start + k;
        let (whole, fraction) = match text.split_once('.') {
            Some((w, f)) if field == 3 => (w, Some(f)),
            Some(_) => return Err(mismatch(value, start, end)),
            None => (*text, None),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(mismatch(value, start, end));
        }
        let n: i64 = whole.parse().map_err(|_| UnitToUnitError::plain(format!("requirement failed: {} {whole} outside range.", DAY_TIME[field].to_lowercase())))?;
        if k > 0 && n > bound[field] {
            return Err(UnitToUnitError::plain(format!("requirement failed: {} {n} outside range [0, {}].", DAY_TIME[field].to_lowercase(), bound[field])));
        }
        let overflow = || UnitToUnitError::plain("Interval value overflows");
        let mut micros = n.checked_mul(unit[field]).ok_or_else(overflow)?;
        if let Some(f) = fraction {
            if f.is_empty() || f.len() > 9 || !f.bytes().all(|b| b.is_ascii_digit()) {
                return Err(mismatch(value, start, end));
            }
            // Nanoseconds, truncated to µs.
            let nanos: i64 = format!("{f:0<9}").parse().map_err(|_| mismatch(value, start, end))?;
            micros = micros.checked_add(nanos / 1_000).ok_or_else(overflow)?;
        }
        total = total.checked_add(micros).ok_or_else(overflow)?;
    }
    Ok(if negative { -total } else { total })
}

/// `[+|-]y-m` (month 0–11), in months.
fn year_month(value: &str) -> Result<CalendarInterval, UnitToUnitError> {
    let (negative, body) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    let bad = || UnitToUnitError {
        condition: Some("INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING"),
        message: format!("Error parsing '{value}' to interval. Please ensure that the value provided is in a valid format for defining an interval. You can reference the documentation for the correct format. Interval string does not match year-month format of `[+|-]y-m`, `INTERVAL [+|-]'[+|-]y-m' YEAR TO MONTH` when cast to interval year to month: {value}."),
    };
    let (y, m) = body.split_once('-').ok_or_else(bad)?;
    if y.is_empty() || m.is_empty() || !y.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let years: i32 = y.parse().map_err(|_| UnitToUnitError::plain(format!("requirement failed: year {y} outside range [0, 178956970].")))?;
    let months: i32 = m.parse().map_err(|_| bad())?;
    if months > 11 {
        return Err(UnitToUnitError::plain(format!("requirement failed: month {months} outside range [0, 11].")));
    }
    let total = years.checked_mul(12).and_then(|t| t.checked_add(months)).ok_or_else(|| UnitToUnitError::plain(format!("requirement failed: year {years} outside range [0, 178956970].")))?;
    Ok(CalendarInterval { months: if negative { -total } else { total }, days: 0, micros: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(v: &str, f: &str, t: &str) -> i64 {
        CalendarInterval::from_unit_to_unit(v, f, t).unwrap().micros
    }

    #[test]
    fn day_time_fields() {
        // 1 min 30 s; 1 h 30 min; 1 day 2 h 3 min 4.5 s; 10 days 5 h.
        assert_eq!(us("1:30", "minute", "second"), 90 * MICROS_PER_SECOND);
        assert_eq!(us("01:30", "HOUR", "MINUTE"), 90 * MICROS_PER_MINUTE);
        assert_eq!(us("1 02:03:04.5", "DAY", "SECOND"), MICROS_PER_DAY + 2 * MICROS_PER_HOUR + 3 * MICROS_PER_MINUTE + 4_500_000);
        assert_eq!(us("-10 5", "DAY", "HOUR"), -(10 * MICROS_PER_DAY + 5 * MICROS_PER_HOUR));
        // The first field is unbounded: 90 minutes.
        assert_eq!(us("90:00", "MINUTE", "SECOND"), 90 * MICROS_PER_MINUTE);
    }

    #[test]
    fn later_fields_stay_in_range_and_the_form_must_fit() {
        // Recorded with Spark 4.3.0: INTERVAL '1:60' MINUTE TO SECOND and '1:30:00'.
        assert_eq!(CalendarInterval::from_unit_to_unit("1:60", "MINUTE", "SECOND").unwrap_err().message, "requirement failed: second 60 outside range [0, 59].");
        let e = CalendarInterval::from_unit_to_unit("1:30:00", "MINUTE", "SECOND").unwrap_err();
        assert_eq!(e.condition, Some("INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE"));
        assert!(e.message.contains("does not match day-time format of `[+|-]m:s.n`, `INTERVAL [+|-]'[+|-]m:s.n' MINUTE TO SECOND` when cast to interval minute to second: 1:30:00."), "{}", e.message);
        assert!(CalendarInterval::from_unit_to_unit("1", "SECOND", "MINUTE").is_err());
    }

    #[test]
    fn ansi_texts() {
        // Recorded with Spark 4.3.0 as column names: INTERVAL 10 MINUTES, INTERVAL '2' HOUR,
        // INTERVAL '1:30' MINUTE TO SECOND, INTERVAL 3 DAYS, INTERVAL 1 HOUR 30 MINUTES.
        let dt = |micros: i64| CalendarInterval { months: 0, days: 0, micros };
        assert_eq!(ansi_text(&dt(10 * MICROS_PER_MINUTE), 4, 4), "INTERVAL '10' MINUTE");
        assert_eq!(ansi_text(&dt(2 * MICROS_PER_HOUR), 3, 3), "INTERVAL '02' HOUR");
        assert_eq!(ansi_text(&dt(90 * MICROS_PER_SECOND), 4, 5), "INTERVAL '01:30' MINUTE TO SECOND");
        assert_eq!(ansi_text(&dt(3 * MICROS_PER_DAY), 2, 2), "INTERVAL '3' DAY");
        assert_eq!(ansi_text(&dt(90 * MICROS_PER_MINUTE), 3, 4), "INTERVAL '01:30' HOUR TO MINUTE");
        assert_eq!(ansi_text(&CalendarInterval { months: 14, days: 0, micros: 0 }, 0, 1), "INTERVAL '1-2' YEAR TO MONTH");
        assert_eq!(literal_fields("1 HOUR 30 MINUTES"), Some((3, 4)));
        assert_eq!(literal_fields("'1 hour'"), Some((3, 3)));
    }

    #[test]
    fn year_month_fields() {
        assert_eq!(CalendarInterval::from_unit_to_unit("1-2", "YEAR", "MONTH").unwrap().months, 14);
        assert!(CalendarInterval::from_unit_to_unit("1-12", "YEAR", "MONTH").is_err());
    }
}
