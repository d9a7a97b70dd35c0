//! Errors, one enum per phase, under [`enum@Error`].
//!
//! Analysis errors keep Spark's error condition (`error_class`) and message text so a learner
//! meets the same words in real Spark; our own hint goes in a separate field.

use std::fmt;

use thiserror::Error;

/// A byte range in the query text, for underlining in the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset just past the last byte (exclusive).
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (byte offsets, end exclusive).
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// 1-based line and column of `start` in `text`.
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        let before = &text[..self.start.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

/// The query text could not be read: a syntax error or a construct Streamlab does not model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ParseError {
    /// Who refuses the text: Spark's parser, Python's, or the lab itself.
    pub kind: ParseKind,
    /// Lower-case, no final period.
    pub message: String,
    /// Where in the query text the error is.
    pub span: Span,
    /// Set when the text is valid PySpark/Spark SQL but uses a feature Streamlab does not
    /// model (`GroupedData.transformWithStateInPandas()`): the conformance runner then reports
    /// `unsupported: <feature>` instead of a wrong answer.
    pub unsupported: Option<String>,
}

/// Who refuses a text a [`ParseError`] reports, so that the lab names the exception a learner
/// would meet: Spark's `ParseException`, Python's `SyntaxError`, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseKind {
    /// Spark's parser or a call the evaluator cannot read (`ParseException`).
    Spark,
    /// Python's own parser: a bracket or string never closed, a token where none fits
    /// (`SyntaxError`, raised before PySpark runs a line).
    PythonSyntax,
    /// The lab's own rule, which neither Python nor Spark has: the program must define a query,
    /// and a query has a size and nesting limit.
    Lab,
}

impl ParseError {
    /// A parse error at `span`.
    pub fn new(message: impl Into<String>, span: Span) -> ParseError {
        ParseError { kind: ParseKind::Spark, message: message.into(), span, unsupported: None }
    }

    /// Python's `SyntaxError` at `span`.
    pub fn python_syntax(message: impl Into<String>, span: Span) -> ParseError {
        ParseError { kind: ParseKind::PythonSyntax, ..ParseError::new(message, span) }
    }

    /// The lab's own rule at `span` (see [`ParseKind::Lab`]).
    pub fn lab(message: impl Into<String>, span: Span) -> ParseError {
        ParseError { kind: ParseKind::Lab, ..ParseError::new(message, span) }
    }

    /// A real Spark `feature` that Streamlab does not model, at `span`.
    pub fn not_modelled(feature: impl Into<String>, message: impl Into<String>, span: Span) -> ParseError {
        ParseError { unsupported: Some(feature.into()), ..ParseError::new(message, span) }
    }

    /// The name the lab shows above the message: the exception real PySpark raises for this
    /// text (`ParseException`, `SyntaxError`), `not modelled yet` for a feature Streamlab does
    /// not model, and `Streamlab` for the lab's own rules.
    pub fn exception(&self) -> &'static str {
        match (self.kind, &self.unsupported) {
            (_, Some(_)) => "not modelled yet",
            (ParseKind::Spark, None) => "ParseException",
            (ParseKind::PythonSyntax, None) => "SyntaxError",
            (ParseKind::Lab, None) => "Streamlab",
        }
    }
}

/// When Spark raises an analysis error (conformance `expected.error.stage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// While building the DataFrame (e.g. `clicks.count()`).
    Define,
    /// In `writeStream.start()` (`UnsupportedOperationChecker`).
    Start,
    /// While running a micro-batch (`STREAM_FAILED`).
    Run,
}

/// Spark's `AnalysisException`: an error condition and its message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct AnalysisError {
    /// When Spark raises it: defining the DataFrame, `start()`, or a running batch.
    pub stage: Stage,
    /// Spark's error condition, e.g. `STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION`.
    pub error_class: String,
    /// Spark's message text, without the `[CLASS]` prefix and `SQLSTATE` suffix.
    pub message: String,
    /// Spark's SQLSTATE when the condition has one.
    pub sqlstate: Option<&'static str>,
    /// The offending plan, in Spark's tree style, when Spark prints one.
    pub plan: Option<String>,
    /// Our own words: how to fix it.
    pub hint: Option<String>,
    /// Where in the query text, when known.
    pub span: Option<Span>,
    /// For `STREAM_FAILED`: the error condition and message of the cause.
    pub cause: Option<(String, String)>,
    /// For an exception Python itself raises while the DataFrame is built (no Spark condition):
    /// `TypeError` for arguments that do not fit a signature, `AttributeError` for a name a
    /// PySpark object does not have, `NameError`, `ValueError`.
    pub python_exception: Option<&'static str>,
}

impl AnalysisError {
    /// The exception PySpark raises for this error, as a learner meets it in real Spark (the
    /// corpus records it as `class`): `StreamingQueryException` for a query that died while
    /// running (`STREAM_FAILED`, `StreamingQueryException` in `pyspark/errors/exceptions`),
    /// `ArithmeticException` for the arithmetic conditions (`SparkArithmeticException`),
    /// `IllegalArgumentException` for a failed `require` (no condition) and the conditions
    /// Spark raises as `SparkIllegalArgumentException`, `PySparkTypeError` and
    /// `PySparkValueError` for the argument checks PySpark makes itself
    /// (`DataStreamWriter.trigger`, `withWatermark`), `ParseException` for SQL text that does
    /// not parse, and `AnalysisException` for every other condition.
    pub fn exception_class(&self) -> &'static str {
        if let Some(python) = self.python_exception {
            return python;
        }
        match self.error_class.as_str() {
            "STREAM_FAILED" => "StreamingQueryException",
            c if c.starts_with("INTERVAL_ARITHMETIC_OVERFLOW") || c.starts_with("ARITHMETIC_OVERFLOW") || c == "DIVIDE_BY_ZERO" => "ArithmeticException",
            "" | "_LEGACY_ERROR_TEMP_3231" | "STATEFUL_PROCESSOR_UNKNOWN_TIME_MODE" => "IllegalArgumentException",
            "NOT_EXPECTED_TYPE" | "NOT_INT" | "NOT_TUPLE" | "NOT_ITERABLE" => "PySparkTypeError",
            "ONLY_ALLOW_SINGLE_TRIGGER" | "VALUE_NOT_NON_EMPTY_STR" | "VALUE_NOT_ALLOWED" | "VALUE_NOT_POSITIVE" => "PySparkValueError",
            "PARSE_SYNTAX_ERROR" => "ParseException",
            // A SQL interval literal Spark's parser cannot read (`AstBuilder`).
            c if c.starts_with("INVALID_INTERVAL_FORMAT") && self.stage == Stage::Define => "ParseException",
            _ => "AnalysisException",
        }
    }

    /// An error of `error_class` raised at `stage`.
    pub fn new(stage: Stage, error_class: &str, message: impl Into<String>) -> AnalysisError {
        AnalysisError {
            stage,
            error_class: error_class.to_string(),
            message: message.into(),
            sqlstate: None,
            plan: None,
            hint: None,
            span: None,
            cause: None,
            python_exception: None,
        }
    }

    /// An exception Python raises while the DataFrame is built (`TypeError`, `AttributeError`,
    /// ...): no Spark condition, stage `define`, Python's own message.
    pub fn python(exception: &'static str, message: impl Into<String>, span: Span) -> AnalysisError {
        AnalysisError { python_exception: Some(exception), ..AnalysisError::new(Stage::Define, "", message).with_span(span) }
    }

    /// An error PySpark itself raises while the program builds its DataFrame, before Spark sees
    /// it: `exception` (`PySparkTypeError`) with its error class (`NOT_SAME_TYPE`) and message
    /// (`pyspark/errors/error-conditions.json`), at `span`.
    pub fn pyspark(exception: &'static str, error_class: &str, message: impl Into<String>, span: Span) -> AnalysisError {
        AnalysisError { python_exception: Some(exception), ..AnalysisError::new(Stage::Define, error_class, message).with_span(span) }
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds the plan Spark prints after the message.
    pub fn with_plan(mut self, plan: impl Into<String>) -> Self {
        self.plan = Some(plan.into());
        self
    }

    /// Adds the SQLSTATE.
    pub fn with_sqlstate(mut self, s: &'static str) -> Self {
        self.sqlstate = Some(s);
        self
    }

    /// Adds a span.
    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// The text as Spark prints it: `[CLASS] message SQLSTATE: x` for named conditions,
    /// `message;` + plan for `_LEGACY_ERROR_TEMP_*`.
    pub fn spark_text(&self) -> String {
        if self.error_class.is_empty() || self.error_class.starts_with("_LEGACY_ERROR_TEMP") {
            match &self.plan {
                Some(p) => format!("{};\n{}", self.message, p),
                None => self.message.clone(),
            }
        } else {
            let mut s = format!("[{}] {}", self.error_class, self.message);
            if let Some(state) = self.sqlstate {
                s.push_str(&format!(" SQLSTATE: {state}"));
            }
            s
        }
    }
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.error_class.is_empty() {
            return f.write_str(&self.message);
        }
        write!(f, "[{}] {}", self.error_class, self.message)
    }
}

/// Something went wrong while running a batch that analysis could not foresee.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExecutionError {
    /// Data was addressed to a source name the query does not have.
    #[error("source '{0}' does not exist in this query")]
    UnknownSource(String),
    /// A row added to a source does not fit the source's schema.
    #[error("row {row} of source '{source_name}': {message}")]
    BadRow {
        /// The source the row was added to.
        source_name: String,
        /// The row's index in the added block (the one caller, `add_data`, always passes
        /// 0).
        row: usize,
        /// What does not fit.
        message: String,
    },
    /// A crash the learner asked for; restart the query on its checkpoint.
    #[error("simulated crash in batch {batch_id} ({words}): the query stopped; restart it on the same checkpoint")]
    Crash {
        /// The batch that was running.
        batch_id: u64,
        /// Where in the batch it stopped (`CrashPoint::id`: `after-offset-log`, `mid-sink`,
        /// `before-commit`).
        point: &'static str,
        /// The same in words, as the message says it (`CrashPoint::describe`).
        words: &'static str,
    },
}

/// Every error the engine returns.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// The query text could not be read.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Spark would raise an error condition (`AnalysisException` and the other exceptions
    /// of [`AnalysisError::exception_class`]), when defining, starting or running.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// A batch failed for a reason outside Spark's semantics (bad input data, a simulated
    /// crash).
    #[error(transparent)]
    Execution(#[from] ExecutionError),
    /// A Spark feature the engine does not model yet (the conformance runner reports it as
    /// `unsupported: <feature>`).
    #[error("{0} is not modelled by Streamlab yet")]
    Unsupported(String),
    /// A scenario file that does not fit the format.
    #[error("scenario: {0}")]
    Scenario(String),
}
