//! The evaluation context: what an expression may read besides its row, passed explicitly to
//! every evaluation (as DataFusion passes its `ExecutionProps`): the micro-batch's timestamp
//! (`current_timestamp()` is `offsetSeqMetadata.batchTimestampMs` for every row of a batch), the
//! session time zone (`spark.sql.session.timeZone`, which Spark's date and time functions, casts
//! and formats follow), and the slot for the first ANSI-mode error the batch raised.

use std::cell::RefCell;
use std::rc::Rc;

use crate::types::Value;

use crate::types::timezone::SessionTimeZone;

/// One micro-batch's evaluation context. Evaluation is single-threaded; the error slot is a
/// `RefCell` so that evaluation can take `&EvalContext` everywhere.
#[derive(Debug, Default)]
pub struct EvalContext {
    /// The batch's timestamp, ms since the epoch (`batchTimestampMs`).
    pub batch_timestamp_ms: i64,
    /// `spark.sql.session.timeZone` (UTC by default).
    pub time_zone: SessionTimeZone,
    /// The first error raised while evaluating: (error condition, message).
    error: RefCell<Option<(String, String)>>,
    /// The lambda parameters in scope while a higher-order function runs its lambda, innermost
    /// last (`NamedLambdaVariable`s bound to one element each).
    lambda: RefCell<Vec<(Rc<str>, Value)>>,
}

impl EvalContext {
    /// A context for a batch that runs at `batch_timestamp_ms` in `time_zone`.
    pub fn new(batch_timestamp_ms: i64, time_zone: SessionTimeZone) -> Self {
        EvalContext { batch_timestamp_ms, time_zone, error: RefCell::new(None), lambda: RefCell::new(Vec::new()) }
    }

    /// Records an ANSI-mode error raised while evaluating a row (Spark 4 runs in ANSI mode,
    /// where a malformed cast, an integer overflow or a division by zero fails the task, and
    /// with it the micro-batch and the query). The first error of the batch wins; the
    /// expression itself returns NULL and the batch fails when it ends.
    pub fn raise(&self, condition: &str, message: String) {
        let mut e = self.error.borrow_mut();
        if e.is_none() {
            *e = Some((condition.to_string(), message));
        }
    }

    /// True once the batch has raised an error ([`EvalContext::raise`]).
    pub fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }

    /// Takes the error the batch raised, if any (and clears it).
    pub fn take_error(&self) -> Option<(String, String)> {
        self.error.borrow_mut().take()
    }

    /// The value of lambda parameter `name` in the innermost scope binding it (NULL if none).
    pub fn lambda_value(&self, name: &str) -> Value {
        self.lambda.borrow().iter().rev().find(|(n, _)| &**n == name).map_or(Value::Null, |(_, v)| v.clone())
    }

    /// Runs `f` with `params` bound to `values` (a lambda's call), then unbinds them.
    pub fn with_lambda<T>(&self, params: &[Rc<str>], values: Vec<Value>, f: impl FnOnce() -> T) -> T {
        let n = params.len();
        self.lambda.borrow_mut().extend(params.iter().cloned().zip(values.into_iter().chain(std::iter::repeat(Value::Null))).take(n));
        let out = f();
        let mut stack = self.lambda.borrow_mut();
        let keep = stack.len().saturating_sub(n);
        stack.truncate(keep);
        out
    }
}
