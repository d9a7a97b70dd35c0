//! Spark's checks on the interval arguments of `withWatermark(eventTime, delayThreshold)` and
//! `F.window(timeColumn, windowDuration, slideDuration, startTime)`, in Spark's order and with
//! its error conditions, each pointing at the argument's span.
//!
//! PySpark first refuses an argument that is empty or not a `str` (`NOT_EXPECTED_TYPE`,
//! `pyspark/sql/dataframe.py` and `functions/builtin.py`); the JVM then parses the text
//! (`IntervalUtils.fromIntervalString`: `CANNOT_PARSE_INTERVAL`) and converts it:
//! `Dataset.withWatermark` refuses a negative delay (`requirement failed`, no condition) and an
//! interval whose length overflows (`INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION`);
//! `TimeWindow.getIntervalInMicroSeconds` refuses months (`_LEGACY_ERROR_TEMP_3231`) and a
//! length that overflows a long (the function registry reports `FAILED_FUNCTION_CALL`).
//! The range checks on the resulting numbers (`window_duration > 0`, ...) are analysis checks
//! (`analysis::resolve`).

use super::Span;
use crate::error::{AnalysisError, Error, Stage};
use crate::types::{CalendarInterval, DelayMs, IntervalError, IntervalOverflow, WindowArgError};

fn define(class: &str, message: String, span: Span) -> Error {
    Error::Analysis(AnalysisError::new(Stage::Define, class, message).with_span(span))
}

/// PySpark's `NOT_EXPECTED_TYPE` for an argument that must be a non-empty `str`
/// (`type_name` is the Python type of what was passed: `int`, `NoneType`, `str` for `''`).
pub fn not_str(arg: &str, type_name: &str, span: Span) -> Error {
    let type_name = if type_name == "None" { "NoneType" } else { type_name };
    define("NOT_EXPECTED_TYPE", format!("Argument `{arg}` should be str, got {type_name}."), span)
}

/// `CANNOT_PARSE_INTERVAL` for `e`, with Spark's cause as the hint.
pub fn cannot_parse(e: &IntervalError, span: Span) -> Error {
    Error::Analysis(
        AnalysisError::new(Stage::Define, IntervalError::CONDITION, e.message())
            .with_sqlstate(IntervalError::SQLSTATE)
            .with_hint(e.detail.clone())
            .with_span(span),
    )
}

fn overflow(span: Span) -> Error {
    Error::Analysis(
        AnalysisError::new(Stage::Define, IntervalOverflow::CONDITION, IntervalOverflow::MESSAGE)
            .with_sqlstate(IntervalOverflow::SQLSTATE)
            .with_span(span),
    )
}

/// The delay in ms of `withWatermark(..., text)` (`Dataset.withWatermark`, then
/// `EventTimeWatermark.getDelayMs`: a month is 31 days).
///
/// # Errors
/// `CANNOT_PARSE_INTERVAL`; `INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION` when the length in
/// µs overflows a long (`200000000 days`); Spark's `requirement failed: delay threshold (...)
/// should not be negative.` (an `IllegalArgumentException`, no condition) for a negative one.
pub fn watermark_delay_ms(text: &str, span: Span) -> Result<DelayMs, Error> {
    let interval = CalendarInterval::parse(text).map_err(|e| cannot_parse(&e, span))?;
    if interval.is_negative().map_err(|_| overflow(span))? {
        return Err(define("", format!("requirement failed: delay threshold ({text}) should not be negative."), span));
    }
    interval.delay_ms().map(DelayMs::from_ms).map_err(|_| overflow(span))
}

/// The length in µs of one `F.window` argument (duration, slide or start time).
///
/// # Errors
/// `CANNOT_PARSE_INTERVAL`, `_LEGACY_ERROR_TEMP_3231` for months, `FAILED_FUNCTION_CALL` when
/// the length overflows a long.
pub fn window_arg_us(text: &str, span: Span) -> Result<i64, Error> {
    let interval = CalendarInterval::parse(text).map_err(|e| cannot_parse(&e, span))?;
    interval.window_micros(text).map_err(|e| match e {
        WindowArgError::Months(m) => define("_LEGACY_ERROR_TEMP_3231", m, span),
        WindowArgError::Overflow(cause) => Error::Analysis(
            AnalysisError::new(
                Stage::Define,
                "FAILED_FUNCTION_CALL",
                "Failed preparing of the function `window` for call. Please, double check function's arguments.",
            )
            .with_sqlstate("38000")
            .with_hint(cause)
            .with_span(span),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class_of<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
        match r {
            Err(Error::Analysis(a)) => a.error_class,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn delays_fail_as_spark_does() {
        // Recorded with Spark 4.3.0 (withWatermark on a file stream).
        let s = Span::new(0, 1);
        assert_eq!(watermark_delay_ms("10 minutes", s).unwrap(), DelayMs::from_ms(600_000));
        assert_eq!(watermark_delay_ms("1 hour -30 minutes", s).unwrap(), DelayMs::from_ms(1_800_000));
        assert_eq!(class_of(watermark_delay_ms("ten minutes", s)), "CANNOT_PARSE_INTERVAL");
        assert_eq!(class_of(watermark_delay_ms("200000000 days", s)), "INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION");
        let Err(Error::Analysis(neg)) = watermark_delay_ms("1 month -40 days", s) else { panic!() };
        assert_eq!(neg.error_class, "");
        assert_eq!(neg.message, "requirement failed: delay threshold (1 month -40 days) should not be negative.");
    }

    #[test]
    fn window_lengths_fail_as_spark_does() {
        let s = Span::new(0, 1);
        assert_eq!(window_arg_us("1 day -1 hour", s).unwrap(), 82_800_000_000);
        assert_eq!(class_of(window_arg_us("200000000 days", s)), "FAILED_FUNCTION_CALL");
        assert_eq!(class_of(window_arg_us("1 month -31 days", s)), "_LEGACY_ERROR_TEMP_3231");
        assert_eq!(class_of(window_arg_us("1.5 minutes", s)), "CANNOT_PARSE_INTERVAL");
    }
}
