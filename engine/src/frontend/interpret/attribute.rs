//! Attribute access on values (`df.col`, `col.field`, `F.name`), as PySpark's `DataFrame.__getattr__` and `Column.__getattr__` answer it, and the qualified column a DataFrame's attribute names.

use super::{modules, stream, unknown_api, Evaluator, Py, WriterSettings, R};
use crate::frontend::pyspark_api::{self, ApiKind};
use crate::frontend::{Catalog, Span};
use crate::error::Error;
use crate::plan::{Expr, LogicalPlan};
use crate::types::Value;

impl Evaluator<'_> {
    pub(super) fn attribute(&mut self, target: Py, name: &str, span: Span) -> R<Py> {
        // `lines.timestamp.alias(...)`: `df.col` is a Column once something is asked of it.
        let target = match target {
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => Py::Col(qualified(self.catalog, &recv, n)),
            t => t,
        };
        Ok(match target {
            Py::Df(p) => match name {
                "writeStream" => {
                    self.writer = WriterSettings::default();
                    Py::WriteStream { df: p }
                }
                "isStreaming" => Py::Bool(p.is_streaming()),
                // `df.schema`: a `StructType` of the columns with Spark's nullability.
                "schema" => Py::Type(crate::types::DataType::Struct(crate::analysis::schema::output_fields(&crate::analysis::resolve(&p)?).into())),
                // `df.dtypes`: (name, `simpleString`) pairs: `('count', 'bigint')`.
                "dtypes" => Py::List(
                    crate::analysis::resolve(&p)?.output.iter().map(|a| Py::Tuple(vec![Py::Str(a.name.clone()), Py::Str(crate::types::spark_type_name(&a.data_type))])).collect(),
                ),
                // `df.columns`: the column names (a property, not a method).
                "columns" => Py::List(crate::analysis::resolve(&p)?.output.iter().map(|a| Py::Str(a.name.clone())).collect()),
                // `df.post_id`: a column, unless it names a method; kept as a method value until
                // it is called or used as a column (`col_ref` / `literal_or_col`). A name that is
                // neither is refused at once, as `DataFrame.__getattr__` does.
                _ if is_df_method(name) => Py::Method(Box::new(Py::Df(p)), name.to_string()),
                _ => {
                    let columns: Option<Vec<String>> = crate::analysis::resolve(&p).ok().map(|r| r.output.iter().map(|a| a.name.clone()).collect());
                    let has_column = columns.as_ref().is_none_or(|cols| cols.iter().any(|c| c.eq_ignore_ascii_case(name)));
                    if !has_column {
                        // PySpark's message names no column; the hint says which there are.
                        let cols = columns.unwrap_or_default().join(", ");
                        return Err(match unknown_api(ApiKind::DataFrame, name, span) {
                            Error::Analysis(a) => {
                                let hint = match a.hint.clone() {
                                    Some(h) => format!("{h}; this DataFrame's columns are {cols}"),
                                    None => format!("this DataFrame's columns are {cols}"),
                                };
                                Error::Analysis(a.with_hint(hint))
                            }
                            other => other,
                        });
                    }
                    Py::Method(Box::new(Py::Df(p)), name.to_string())
                }
            },
            // `F.col('window').start`: an attribute that is no Column method is a struct
            // field (`Column.__getattr__`).
            Py::Col(e) if !is_column_method(name) => Py::Col(Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(name))])),
            // `spark.streams.active`: the query the program started, until it stops it.
            Py::Module("spark.streams") if name == "active" => Py::List(if self.started.is_some() && !self.query_stopped { vec![Py::Query] } else { Vec::new() }),
            Py::Module(m) => modules::attribute(m, name).ok_or_else(|| modules::no_attribute(m, name, span))?,
            // `df.schema.names`, `df.schema.fields`: properties of `StructType`.
            Py::Type(crate::types::DataType::Struct(fields)) if name == "names" => Py::List(fields.iter().map(|f| Py::Str(f.name().clone())).collect()),
            Py::Type(crate::types::DataType::Struct(fields)) if name == "fields" => {
                Py::List(fields.iter().map(|f| Py::Field(f.name().clone(), f.data_type().clone(), f.is_nullable())).collect())
            }
            // A `StructField`'s `name`, `dataType` and `nullable`.
            Py::Field(n, dt, nullable) if matches!(name, "name" | "dataType" | "nullable") => match name {
                "name" => Py::Str(n),
                "dataType" => Py::Type(dt),
                _ => Py::Bool(nullable),
            },
            // `query.lastProgress`, `query.status`: what the lab shows beside the run.
            // Read right after start(), as a program does: active, no progress yet, and the
            // status `StreamExecution.runStream` sets before it creates the sources (PySpark
            // 4.3 printed `{'message': 'Initializing sources', 'isDataAvailable': False,
            // 'isTriggerActive': False}` there).
            Py::Query if stream::is_query_attribute(name) => match name {
                "isActive" => Py::Bool(!self.query_stopped),
                "recentProgress" => Py::List(Vec::new()),
                "name" => self.writer.query_name.clone().map_or(Py::NoneVal, Py::Str),
                // The ids the lab's run of this query has (its listener events say them too).
                "id" => Py::Str(crate::streaming::first_start_ids().0),
                "runId" => Py::Str(crate::streaming::first_start_ids().1),
                "status" => Py::Dict(vec![
                    (Py::Str("message".into()), Py::Str(if self.query_stopped { "Stopped" } else { "Initializing sources" }.into())),
                    (Py::Str("isDataAvailable".into()), Py::Bool(false)),
                    (Py::Str("isTriggerActive".into()), Py::Bool(false)),
                ]),
                _ => Py::NoneVal,
            },
            // `df.na.fill(0)`, `df.na.drop(how='all')`: `DataFrameNaFunctions`, whose methods are
            // the DataFrame's `fillna`, `dropna` and `replace` with the same parameters.
            Py::Method(recv, n) if n == "na" && matches!(*recv, Py::Df(_)) => match name {
                "fill" => Py::Method(recv, "fillna".into()),
                "drop" => Py::Method(recv, "dropna".into()),
                "replace" => Py::Method(recv, "replace".into()),
                _ => return Err(Error::Analysis(crate::error::AnalysisError::python("AttributeError", format!("'DataFrameNaFunctions' object has no attribute '{name}'"), span))),
            },
            other => Py::Method(Box::new(other), name.to_string()),
        })
    }

    /// `df.name` used as a value where a Column is meant.
    pub(super) fn as_col_if_column(&self, v: Py) -> Py {
        match v {
            Py::Method(recv, n) if matches!(*recv, Py::Df(_)) && !is_df_method(&n) => Py::Col(qualified(self.catalog, &recv, n)),
            Py::Method(recv, n) if matches!(*recv, Py::Col(_)) && !is_column_method(&n) => Py::Col(struct_field_of(*recv, n)),
            v => v,
        }
    }
}

/// `df.col` / `df['col']`: a column that remembers its DataFrame when that DataFrame reads a
/// single relation (`clicks.post_id` → `clicks.post_id`), so a join condition can tell two
/// same-named columns apart.
///
/// Such a column is the DataFrame's own attribute, with the metadata it has there: taken from
/// a DataFrame below `withWatermark` (`words.timestamp` in
/// `words.withWatermark("timestamp", ...).groupBy(window(words.timestamp, ...))`, the guide's
/// own example), a stream's timestamp column carries no event-time tag, so the window over it
/// has no watermark (append mode is refused, update mode never evicts). It is marked
/// [`crate::plan::UNWATERMARKED`] and `bind` drops the tag. The mark is set on any column of
/// a stream's DataFrame that does not itself watermark that column: a source column and a
/// column the DataFrame made (`words` = `select(F.col('event_time').alias('timestamp'))`) are
/// the same in Spark, an attribute resolved in a plan whose output has no watermark metadata.
pub(super) fn qualified(catalog: &Catalog, df: &Py, name: String) -> Expr {
    let Py::Df(plan) = df else { return Expr::Column(name) };
    let mut leaves = Vec::new();
    relation_names(plan, &mut leaves);
    let is_stream_timestamp = |relation: &str| {
        catalog.streams.get(relation).is_some_and(|schema| schema.iter().any(|(c, t)| c.eq_ignore_ascii_case(&name) && matches!(t, crate::types::DataType::Timestamp(..))))
    };
    match leaves.as_slice() {
        [only] if catalog.streams.contains_key(only) && !watermarks_column(plan, &name) => Expr::Column(format!("{}{only}.{name}", crate::plan::UNWATERMARKED)),
        [only] => Expr::Column(format!("{only}.{name}")),
        // A joined DataFrame's own timestamp column (`joined.clickTime`).
        several if joins(plan) && several.iter().any(|l| is_stream_timestamp(l)) => Expr::Column(format!("{}{name}", crate::plan::JOINED_DATASET_COLUMN)),
        _ => Expr::Column(name),
    }
}

fn joins(plan: &LogicalPlan) -> bool {
    matches!(plan, LogicalPlan::Join { .. }) || plan.children().into_iter().any(|c| joins(c))
}

/// True if `plan` puts a watermark on `column` (an `EventTimeWatermark` on it, anywhere below).
fn watermarks_column(plan: &LogicalPlan, column: &str) -> bool {
    match plan {
        LogicalPlan::EventTimeWatermark { column: c, .. } if c.eq_ignore_ascii_case(column) => true,
        other => other.children().into_iter().any(|c| watermarks_column(c, column)),
    }
}

fn relation_names(plan: &LogicalPlan, out: &mut Vec<String>) {
    match plan {
        LogicalPlan::SubqueryAlias { alias, .. } => out.push(alias.clone()),
        LogicalPlan::StreamingRelation { source, .. } => out.push(source.clone()),
        LogicalPlan::LocalRelation { name, .. } => out.push(name.clone()),
        other => other.children().into_iter().for_each(|c| relation_names(c, out)),
    }
}

/// `col.field`: `getField('field')` on a Column value.
fn struct_field_of(col: Py, field: String) -> Expr {
    match col {
        Py::Col(e) => Expr::Function("get_field".into(), vec![e, Expr::Literal(Value::str(&field))]),
        _ => Expr::Column(field),
    }
}

/// Column methods PySpark defines (an attribute of a Column with another name is a struct
/// field, `Column.__getattr__`).
fn is_column_method(name: &str) -> bool {
    pyspark_api::lookup(ApiKind::Column, name).is_some_and(|a| a.name == name)
}

/// DataFrame methods and attributes PySpark defines (any other attribute is a column).
fn is_df_method(name: &str) -> bool {
    pyspark_api::lookup(ApiKind::DataFrame, name).is_some_and(|a| a.name == name)
}
