//! Temporary views and `spark.sql` (`DataFrame.createOrReplaceTempView` and its three
//! siblings, `SparkSession.sql`, `SparkSession.table`): the views live in the evaluator for the rest of the program;
//! the query is translated by [`crate::frontend::sql_query`].

use std::rc::Rc;

use super::{perr, str_method, Evaluator, Py, R};
use crate::error::{Error, ParseError, Span};
use crate::frontend::pyspark_api::Bound;
use crate::frontend::sql_query::{table, translate, ViewScope};
use crate::plan::{Expr, LogicalPlan};

type Args = Bound<Py>;

impl Evaluator<'_> {
    /// `df.createTempView(name)`, `createOrReplaceTempView`, `createGlobalTempView`,
    /// `createOrReplaceGlobalTempView`: registers `plan` under `name`; returns `None`.
    pub(super) fn create_view(&mut self, plan: Rc<LogicalPlan>, method: &str, mut b: Args, span: Span) -> R<Py> {
        let (name, nspan) = match b.take("name") {
            Some((Py::Str(s), sp)) => (s, sp),
            Some((other, sp)) => return Err(perr(format!("{method}() takes the view name as a str, got a {}", other.type_name()), sp)),
            None => return Err(perr(format!("{method}() needs the view name"), span)),
        };
        let scope = if method.contains("Global") { ViewScope::Global } else { ViewScope::Local };
        self.views.create(&name, plan, scope, method.starts_with("createOrReplace"), nspan)?;
        Ok(Py::NoneVal)
    }

    /// `spark.sql(sqlQuery, args=None, **kwargs)`: the query over the temporary views. With
    /// `kwargs`, `{name}` fields are filled first as PySpark's `SQLStringFormatter` does: a
    /// DataFrame becomes a temporary view for this query only, a string a SQL literal, a
    /// column its name, a number its text.
    /// `spark.sql("select * from counts")` after the program started a memory-sink query named
    /// `counts`: in Spark a batch query over the sink's table (what the query has written so
    /// far). The lab runs the streaming query alone and shows that table in its Sink panel: the
    /// view it cannot find is that table ([`Py::SinkTable`]), not Spark's TABLE_OR_VIEW_NOT_FOUND.
    fn memory_table_read(&self, e: Error) -> R<Py> {
        let Some(name) = self.writer.query_name.as_deref().filter(|_| self.started.is_some() && self.writer.sink == Some(crate::streaming::SinkKind::Memory)) else { return Err(e) };
        match &e {
            Error::Analysis(a) if a.error_class == "TABLE_OR_VIEW_NOT_FOUND" && a.message.to_ascii_lowercase().contains(&format!("`{}`", name.to_ascii_lowercase())) => Ok(Py::SinkTable(name.to_string())),
            _ => Err(e),
        }
    }

    pub(super) fn spark_sql(&mut self, mut b: Args, span: Span) -> R<Py> {
        let (sql, sql_span) = match b.take("sqlQuery") {
            Some((Py::Str(s), sp)) => (s, sp),
            Some((other, sp)) => return Err(perr(format!("spark.sql() takes the query as a str, got a {}", other.type_name()), sp)),
            None => return Err(perr("spark.sql() needs a query string", span)),
        };
        if let Some((_, aspan)) = b.take("args").filter(|(v, _)| !matches!(v, Py::NoneVal)) {
            return Err(Error::Parse(ParseError::not_modelled("spark.sql(args=...)", "query parameters (args=...) are not modelled: write the values into the query", aspan)));
        }
        if b.var_kw.is_empty() {
            return match translate(&sql, &self.views, sql_span, self.source) {
                Ok(plan) => Ok(Py::Df(plan)),
                Err(e) => self.memory_table_read(e),
            };
        }
        let mut views = self.views.clone();
        let mut fields = Vec::new();
        for (i, (key, v, vspan)) in std::mem::take(&mut b.var_kw).into_iter().enumerate() {
            let text = match v {
                Py::Df(plan) => {
                    let name = format!("_pyspark_{i}");
                    views.create(&name, plan, ViewScope::Local, true, vspan)?;
                    name
                }
                Py::Str(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
                Py::Int(n) => n.to_string(),
                Py::Float(f) => format!("{f:?}"),
                Py::Bool(t) => if t { "True" } else { "False" }.to_string(),
                Py::Col(Expr::Column(c)) => c,
                other => return Err(perr(format!("spark.sql(): {key}= must be a DataFrame, a str, a number or a column, got a {}", other.type_name()), vspan)),
            };
            fields.push((key, Py::Str(text), vspan));
        }
        let Py::Str(formatted) = str_method(&sql, "format", Vec::new(), fields, sql_span)? else {
            unreachable!("str.format gives a str")
        };
        Ok(Py::Df(translate(&formatted, &views, sql_span, self.source)?))
    }

    /// `spark.table(tableName)`: a temporary view as a DataFrame.
    pub(super) fn spark_table(&mut self, mut b: Args, span: Span) -> R<Py> {
        match b.take("tableName") {
            Some((Py::Str(name), nspan)) => Ok(Py::Df(table(&name, &self.views, nspan)?)),
            Some((other, sp)) => Err(perr(format!("spark.table() takes the view name as a str, got a {}", other.type_name()), sp)),
            None => Err(perr("spark.table() needs a view name", span)),
        }
    }

    /// `spark.range(start, end=None, step=1, numPartitions=None)`: a static DataFrame of one
    /// `id` column (bigint), `start` up to `end` (excluded) by `step`; `spark.range(n)` is 0 to
    /// n. PySpark passes each argument through `int()` (`pyspark/sql/session.py`), and Spark's
    /// `Range` requires a step other than 0 (`basicLogicalOperators.scala`:
    /// `requirement failed: step (0) cannot be 0`, an `IllegalArgumentException`). The lab
    /// holds it as a static table of its rows, up to [`MAX_RANGE_ROWS`].
    pub(super) fn spark_range(&mut self, mut b: Args, span: Span) -> R<Py> {
        let mut int = |name: &str, default: Option<i64>| -> R<Option<i64>> {
            match b.take(name) {
                Some((Py::Int(i), _)) => Ok(Some(i)),
                Some((Py::Bool(v), _)) => Ok(Some(i64::from(v))),
                Some((Py::Float(f), _)) if f.is_finite() && f.abs() < 9.2e18 => Ok(Some(f.trunc() as i64)),
                Some((Py::Str(t), sp)) => match t.trim().parse::<i64>() {
                    Ok(i) => Ok(Some(i)),
                    Err(_) => Err(Error::Analysis(crate::error::AnalysisError::python("ValueError", format!("invalid literal for int() with base 10: '{t}'"), sp))),
                },
                Some((Py::NoneVal, _)) | None => Ok(default),
                Some((other, sp)) => Err(super::type_error(format!("int() argument must be a string, a bytes-like object or a real number, not '{}'", other.type_name()), sp)),
            }
        };
        let first = int("start", None)?.ok_or_else(|| perr("spark.range() needs the end (or the start and the end)", span))?;
        let (start, end) = match int("end", None)? {
            Some(end) => (first, end),
            None => (0, first),
        };
        let step = int("step", Some(1))?.unwrap_or(1);
        let _ = int("numPartitions", None)?;
        if step == 0 {
            return Err(Error::Analysis(crate::error::AnalysisError::new(crate::error::Stage::Define, "", "requirement failed: step (0) cannot be 0").with_span(span)));
        }
        // How many ids: ceil((end - start) / step) when the step goes toward the end, else none.
        let (span_len, step_len) = (i128::from(end) - i128::from(start), i128::from(step));
        let count = if (span_len > 0 && step_len > 0) || (span_len < 0 && step_len < 0) { (span_len.abs() + step_len.abs() - 1) / step_len.abs() } else { 0 };
        if count > i128::from(MAX_RANGE_ROWS) {
            return Err(Error::Parse(ParseError::lab(format!("spark.range() makes {count} rows here; Streamlab holds static tables of up to {MAX_RANGE_ROWS} rows"), span)));
        }
        let rows: Vec<crate::types::Row> = (0..count as i64).map(|i| vec![crate::types::Value::Long(start + i * step)]).collect();
        Ok(Py::Df(Rc::new(LogicalPlan::LocalRelation { name: "range".to_string(), schema: vec![("id".to_string(), crate::types::DataType::Int64)], rows: Rc::new(rows) })))
    }
}

/// The most rows `spark.range(...)` may make in the lab (a static table is held whole).
pub const MAX_RANGE_ROWS: i64 = 100_000;

#[cfg(test)]
mod tests {
    use crate::frontend::{compile, Catalog};
    use crate::plan::LogicalPlan;
    use crate::types::Value;
    use crate::Error;

    /// The ids `spark.range(...)` makes, or the error's (exception, message).
    fn range(args: &str) -> Result<Vec<i64>, (String, String)> {
        match compile(&format!("spark.range({args})"), &Catalog::default()) {
            Ok(e) => match &*e.plan {
                LogicalPlan::LocalRelation { rows, schema, .. } => {
                    assert_eq!(schema.len(), 1);
                    assert_eq!(schema[0].0, "id");
                    Ok(rows.iter().map(|r| match r[0] { Value::Long(i) => i, ref v => panic!("{v:?}") }).collect())
                }
                other => panic!("{other:?}"),
            },
            Err(Error::Analysis(a)) => Err((a.exception_class().to_string(), a.message.clone())),
            Err(Error::Parse(p)) => Err((p.exception().to_string(), p.message.clone())),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn range_counts_from_start_to_end_by_step() {
        // range(n) is 0..n; the end is excluded; a step counts toward the end or makes nothing.
        assert_eq!(range("3"), Ok(vec![0, 1, 2]));
        assert_eq!(range("1, 10, 3"), Ok(vec![1, 4, 7]));
        assert_eq!(range("start=5, end=0, step=-2"), Ok(vec![5, 3, 1]));
        assert_eq!(range("5, 1"), Ok(vec![]));
        assert_eq!(range("0, 4, numPartitions=2"), Ok(vec![0, 1, 2, 3]));
        // PySpark passes each argument through int(): 2.9 is 2.
        assert_eq!(range("2.9"), Ok(vec![0, 1]));
    }

    #[test]
    fn range_refuses_a_zero_step_and_a_table_the_lab_cannot_hold() {
        assert_eq!(range("0, 4, 0"), Err(("IllegalArgumentException".into(), "requirement failed: step (0) cannot be 0".into())));
        let (who, what) = range("10**9").unwrap_err();
        assert_eq!(who, "Streamlab");
        assert!(what.contains("1000000000 rows"), "{what}");
        // int('3') is 3 in Python; int('three') raises.
        assert_eq!(range("'3'"), Ok(vec![0, 1, 2]));
        assert_eq!(range("'three'"), Err(("ValueError".into(), "invalid literal for int() with base 10: 'three'".into())));
        assert_eq!(range("[3]").unwrap_err().0, "TypeError");
    }
}
