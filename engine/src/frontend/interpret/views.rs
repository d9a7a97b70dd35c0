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
            return Ok(Py::Df(translate(&sql, &self.views, sql_span)?));
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
        Ok(Py::Df(translate(&formatted, &views, sql_span)?))
    }

    /// `spark.table(tableName)`: a temporary view as a DataFrame.
    pub(super) fn spark_table(&mut self, mut b: Args, span: Span) -> R<Py> {
        match b.take("tableName") {
            Some((Py::Str(name), nspan)) => Ok(Py::Df(table(&name, &self.views, nspan)?)),
            Some((other, sp)) => Err(perr(format!("spark.table() takes the view name as a str, got a {}", other.type_name()), sp)),
            None => Err(perr("spark.table() needs a view name", span)),
        }
    }
}
