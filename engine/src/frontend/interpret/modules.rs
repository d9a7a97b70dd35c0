//! The namespaces a PySpark program names and what its imports bind: `pyspark.sql.functions`
//! (as `F`, `sf`, or its functions one by one), `pyspark.sql.types` (`StructType`,
//! `LongType()`, ...), `pyspark.sql.streaming.state.GroupStateTimeout`, `Window`, `Row`,
//! `SparkSession.builder...getOrCreate()`, `spark.conf`, and Python's `print`. Modules that
//! are not PySpark's (`pandas`, `time`, `typing`) bind Python names that the state functions'
//! interpreter ([`crate::pyfunc`]) runs.

use std::collections::BTreeSet;

use super::{perr, type_error, Evaluator, Py, R};
use crate::error::{AnalysisError, Error, Span};
use crate::frontend::ParseError;
use crate::pyfunc::parse::StmtKind;
use crate::types::{array_type, timestamp_type, DataType, Field};

/// What an import or definition binds a name to.
pub(super) enum Binding {
    /// A value the query evaluator knows (`F`, `StructType`, `col`, ...).
    Value(Py),
    /// A name the Python code defines or imports (a function, a class, `pd`).
    Python,
    /// `from pyspark.sql.functions import *`.
    StarFunctions,
}

/// The names a top-level statement of the program's Python code binds: imports, `def`,
/// `class`, `NAME = value`. One reader of Python text for the query side and the state
/// functions' side.
pub(super) fn bindings(stmt: &crate::pyfunc::Stmt) -> Vec<(String, Binding)> {
    match &stmt.kind {
        // `@udf(...)` / `@pandas_udf(...)` over a `def`: a Python UDF, which is `udf(f)`; a call
        // of it is a call of `udf`, reported as that function not being modelled.
        StmtKind::Def(f) if f.decorators.iter().any(|d| d.split('(').next().is_some_and(|n| n.ends_with("udf"))) => {
            vec![(f.name.clone(), Binding::Value(Py::Method(Box::new(Py::Module("F")), "udf".into())))]
        }
        StmtKind::Def(f) => vec![(f.name.clone(), Binding::Python)],
        StmtKind::Class { name, .. } => vec![(name.clone(), Binding::Python)],
        StmtKind::Assign { targets, .. } => targets
            .iter()
            .filter_map(|t| match t {
                crate::pyfunc::parse::Target::Name(n) => Some((n.clone(), Binding::Python)),
                _ => None,
            })
            .collect(),
        StmtKind::Import(names) => names
            .iter()
            .map(|(module, bound)| {
                // `import pyspark.sql.functions as F` binds F to the module; `import
                // pyspark.sql.functions` binds `pyspark`.
                let value = if bound.contains('.') || module == bound || !module.contains('.') { top_module(module) } else { module_value(module) };
                (bound.split('.').next().unwrap_or(bound).to_string(), value.map_or(Binding::Python, Binding::Value))
            })
            .collect(),
        // `from pyspark.sql.types import *`: every public name of the module, as Python binds
        // them (its `__all__`), each as `from module import name` would.
        StmtKind::FromImport(module, names) if names.iter().any(|(n, _)| n == "*") && module != "pyspark.sql.functions" && module_value(module).is_some() => {
            let Some(Py::Module(m)) = module_value(module) else { return Vec::new() };
            star_names(m).iter().map(|name| ((*name).to_string(), attribute(m, name).map_or(Binding::Python, Binding::Value))).collect()
        }
        StmtKind::FromImport(module, names) => names
            .iter()
            .flat_map(|(name, bound)| {
                if name == "*" {
                    return vec![(bound.clone(), if module == "pyspark.sql.functions" { Binding::StarFunctions } else { Binding::Python })];
                }
                let value = module_value(module).and_then(|m| match m {
                    Py::Module(m) => attribute(m, name),
                    _ => None,
                });
                vec![(bound.clone(), value.map_or(Binding::Python, Binding::Value))]
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `import pyspark`: the top package.
fn top_module(module: &str) -> Option<Py> {
    module_value(module.split('.').next().unwrap_or(module))
}

/// A PySpark module by its dotted path.
fn module_value(path: &str) -> Option<Py> {
    Some(Py::Module(match path {
        "pyspark" => "pyspark",
        "pyspark.sql" => "pyspark.sql",
        "pyspark.sql.functions" => "F",
        "pyspark.sql.types" => "pyspark.sql.types",
        "pyspark.sql.window" => "pyspark.sql.window",
        "pyspark.sql.streaming" | "pyspark.sql.streaming.state" => "pyspark.sql.streaming",
        _ => return None,
    }))
}

/// The names the program's Python code defines at its top level (`def`, `class`, imports that
/// are not PySpark's): the query may pass them around, the state functions' interpreter runs
/// them.
pub(in crate::frontend) fn python_module_names(module: &[crate::pyfunc::Stmt]) -> BTreeSet<String> {
    module.iter().flat_map(bindings).filter(|(_, b)| matches!(b, Binding::Python)).map(|(n, _)| n).collect()
}

/// The names `from <module> import *` binds for the PySpark modules this file knows (the
/// module's `__all__`, as far as the engine has a value for it): the type classes of
/// `pyspark.sql.types`; `SparkSession`, `Row`, `Window` of `pyspark.sql`; `Window` of
/// `pyspark.sql.window`; `GroupStateTimeout` of `pyspark.sql.streaming(.state)`.
fn star_names(module: &'static str) -> &'static [&'static str] {
    match module {
        "pyspark.sql.types" => TYPES,
        "pyspark.sql" => &["SparkSession", "Row", "Window"],
        "pyspark.sql.window" => &["Window"],
        "pyspark.sql.streaming" => &["GroupStateTimeout"],
        _ => &[],
    }
}

/// The type classes of `pyspark.sql.types` the engine has a type for.
const TYPES: &[&str] = &[
    "ArrayType", "BinaryType", "BooleanType", "ByteType", "CharType", "DataType", "DateType", "DayTimeIntervalType", "DecimalType", "DoubleType", "FloatType",
    "IntegerType", "LongType", "MapType", "NullType", "ShortType", "StringType", "StructField", "StructType", "TimestampNTZType", "TimestampType", "VarcharType",
    "VariantType", "YearMonthIntervalType",
];

/// `module.name`, for the namespaces this file knows.
pub(super) fn attribute(module: &'static str, name: &str) -> Option<Py> {
    let m = |m: &'static str| Some(Py::Module(m));
    match (module, name) {
        ("pyspark", "sql") => m("pyspark.sql"),
        ("pyspark.sql", "functions") => m("F"),
        ("pyspark.sql", "types") => m("pyspark.sql.types"),
        ("pyspark.sql", "streaming") => m("pyspark.sql.streaming"),
        ("pyspark.sql", "window") => m("pyspark.sql.window"),
        ("pyspark.sql" | "pyspark.sql.window", "Window") => m("Window"),
        ("pyspark.sql", "SparkSession") => m("SparkSession"),
        ("pyspark.sql", "Row") => m("Row"),
        ("pyspark.sql" | "pyspark.sql.streaming", "DataFrame" | "Column" | "GroupedData" | "StatefulProcessor" | "StatefulProcessorHandle" | "GroupState" | "DataStreamWriter" | "DataStreamReader" | "StreamingQuery") => None,
        ("pyspark.sql.streaming", "GroupStateTimeout") => m("GroupStateTimeout"),
        ("pyspark.sql.types", t) => TYPES.iter().find(|n| **n == t).map(|n| Py::Module(n)),
        // `GroupStateTimeout.NoTimeout` is the string "NoTimeout" (`pyspark.sql.streaming.state`).
        ("GroupStateTimeout", t @ ("NoTimeout" | "ProcessingTimeTimeout" | "EventTimeTimeout")) => Some(Py::Str(t.to_string())),
        ("SparkSession", "builder") => m("SparkSession.builder"),
        ("SparkSession.builder", _) => Some(Py::Method(Box::new(Py::Module("SparkSession.builder")), name.to_string())),
        ("SparkSession", "getActiveSession" | "active") => Some(Py::Method(Box::new(Py::Module("SparkSession")), name.to_string())),
        ("spark", "readStream") => Some(Py::Reader(Box::default())),
        ("spark", "read") => Some(Py::Reader(Box::new(super::stream::ReaderSpec::batch()))),
        ("spark", "conf") => m("spark.conf"),
        ("spark", "sparkContext") => m("spark.sparkContext"),
        ("spark", "streams") => m("spark.streams"),
        ("spark", "version") => Some(Py::Str("4.3.0".into())),
        // `Window.unboundedPreceding` and friends: read by `rowsBetween`/`rangeBetween`.
        ("Window", "unboundedPreceding" | "unboundedFollowing" | "currentRow") => Some(Py::Method(Box::new(Py::Module("Window")), name.to_string())),
        ("Window", _) | ("F", _) | ("spark", _) | ("spark.conf" | "spark.sparkContext" | "spark.streams" | "Row", _) => {
            Some(Py::Method(Box::new(Py::Module(module)), name.to_string()))
        }
        (t, _) if TYPES.contains(&t) => Some(Py::Method(Box::new(Py::Module(module)), name.to_string())),
        _ => None,
    }
}

/// Python's `AttributeError` for `module.name`.
pub(super) fn no_attribute(module: &'static str, name: &str, span: Span) -> Error {
    let owner = match module {
        m if m.starts_with("pyspark") => format!("module '{m}'"),
        "GroupStateTimeout" => "type object 'GroupStateTimeout'".to_string(),
        other => format!("'{other}' object"),
    };
    Error::Analysis(AnalysisError::python("AttributeError", format!("{owner} has no attribute '{name}'"), span))
}

/// A name every program can use without an import: `F`, `Window` and `spark` as the lab
/// binds them (the conformance harness does the same), and Python's `print` and `len`.
pub(super) fn builtin(name: &str) -> Option<Py> {
    Some(Py::Module(match name {
        "F" | "functions" => "F",
        "Window" => "Window",
        "spark" => "spark",
        "print" => "print",
        "len" => "len",
        "type" => "type",
        "repr" => "repr",
        "str" => "str",
        _ => return None,
    }))
}

/// Calls a namespace value: a type constructor (`LongType()`, `StructType([...])`,
/// `StructField('n', LongType())`), `Row(...)`, `print(...)`.
pub(super) fn call(ev: &mut Evaluator, module: &'static str, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Py> {
    if module == "print" {
        let line = print_line(ev.catalog, pos, kw)?;
        ev.printed.push(line);
        return Ok(Py::NoneVal);
    }
    // `repr(x)`, `str(x)`: the text `print` would write, quoted or not.
    if module == "repr" || module == "str" {
        // Python's `str()` with nothing is the empty string.
        if module == "str" && pos.is_empty() && kw.is_empty() {
            return Ok(Py::Str(String::new()));
        }
        let Some((v, _)) = only_arg(&pos, &kw) else {
            return Err(type_error(format!("{module}() takes exactly one argument ({} given)", pos.len() + kw.len()), span));
        };
        let v = ev.as_col_if_column(v.clone());
        return Ok(Py::Str(if module == "repr" { py_repr(ev.catalog, &v)? } else { py_str(ev.catalog, &v)? }));
    }
    // `type(df)`: the class PySpark 4.3 (classic) gives the value.
    if module == "type" {
        let Some((v, _)) = only_arg(&pos, &kw) else {
            return Err(type_error("type() takes 1 or 3 arguments", span));
        };
        return Ok(Py::Class(class_of(&ev.as_col_if_column(v.clone()))));
    }
    // `len(query.recentProgress)`: a list's, a dict's or a string's length, as Python counts
    // it; anything else is Python's TypeError.
    if module == "len" {
        let Some((v, s)) = only_arg(&pos, &kw) else {
            return Err(type_error(format!("len() takes exactly one argument ({} given)", pos.len() + kw.len()), span));
        };
        let n = match v {
            Py::List(items) | Py::Tuple(items) => items.len(),
            Py::Dict(entries) => entries.len(),
            Py::Str(text) => text.chars().count(),
            other => return Err(type_error(format!("object of type '{}' has no len()", other.type_name()), *s)),
        };
        return Ok(Py::Int(i64::try_from(n).unwrap_or(i64::MAX)));
    }
    let simple = |dt: DataType| -> R<Py> {
        if let Some((v, s)) = pos.first() {
            return Err(type_error(format!("{module}() takes no arguments, got a {}", v.type_name()), *s));
        }
        Ok(Py::Type(dt))
    };
    match module {
        "StringType" => simple(DataType::Utf8),
        "LongType" => simple(DataType::Int64),
        "IntegerType" => simple(DataType::Int32),
        "DoubleType" => simple(DataType::Float64),
        "BooleanType" => simple(DataType::Boolean),
        "TimestampType" => simple(timestamp_type()),
        "DateType" => simple(DataType::Date32),
        "BinaryType" => simple(DataType::Binary),
        "NullType" => simple(DataType::Null),
        "ArrayType" => {
            let arg = pos.into_iter().next().or_else(|| kw.into_iter().find(|(k, _, _)| k == "elementType").map(|(_, v, s)| (v, s)));
            match arg {
                Some((Py::Type(t), _)) => Ok(Py::Type(array_type(t))),
                Some((other, s)) => Err(type_error(format!("ArrayType(elementType): elementType should be a DataType, got {}", other.type_name()), s)),
                None => Err(type_error("ArrayType.__init__() missing 1 required positional argument: 'elementType'", span)),
            }
        }
        "StructField" => {
            let mut it = pos.into_iter();
            let name = it.next().or_else(|| kw.iter().find(|(k, _, _)| k == "name").map(|(_, v, s)| (v.clone(), *s)));
            let dt = it.next().or_else(|| kw.iter().find(|(k, _, _)| k == "dataType").map(|(_, v, s)| (v.clone(), *s)));
            // `nullable` (default True), as the field is written; a streaming file source reads
            // every field as nullable whatever the schema says (`analysis::schema`).
            let nullable = match it.next().or_else(|| kw.iter().find(|(k, _, _)| k == "nullable").map(|(_, v, s)| (v.clone(), *s))) {
                None => true,
                Some((v, _)) => super::operators::truthy(&v),
            };
            match (name, dt) {
                (Some((Py::Str(n), _)), Some((Py::Type(t), _))) => Ok(Py::Field(n, t, nullable)),
                (Some((Py::Str(_), _)), Some((other, s))) => Err(type_error(format!("StructField(name, dataType): dataType should be a DataType such as LongType(), got {}", other.type_name()), s)),
                (Some((other, s)), _) => Err(type_error(format!("StructField(name, dataType): name should be a str, got {}", other.type_name()), s)),
                _ => Err(type_error("StructField.__init__() missing required positional arguments: 'name' and 'dataType'", span)),
            }
        }
        "StructType" => {
            let fields = match pos.into_iter().next().or_else(|| kw.into_iter().find(|(k, _, _)| k == "fields").map(|(_, v, s)| (v, s))) {
                None | Some((Py::NoneVal, _)) => Vec::new(),
                Some((Py::List(items), s)) => items
                    .into_iter()
                    .map(|f| match f {
                        Py::Field(n, t, nullable) => Ok(Field::new(n, t, nullable)),
                        other => Err(type_error(format!("StructType(fields): each field should be a StructField, got {}", other.type_name()), s)),
                    })
                    .collect::<R<Vec<_>>>()?,
                Some((other, s)) => return Err(type_error(format!("StructType(fields): fields should be a list of StructField, got {}", other.type_name()), s)),
            };
            Ok(Py::Type(DataType::Struct(fields.into())))
        }
        t if TYPES.contains(&t) => Err(Error::Parse(ParseError::not_modelled(format!("the type {t}"), format!("{t} is not modelled in Streamlab: its columns use string, long, int, double, boolean, timestamp, date, binary, arrays and structs"), span))),
        "Row" => Err(Error::Parse(ParseError::not_modelled("Row objects in the query", "Row(...) is read in Python state functions; in the query, build a struct with F.struct(...)", span))),
        "SparkSession" => Err(type_error("SparkSession(...) is built with SparkSession.builder.getOrCreate(); here `spark` is already there", span)),
        other => Err(type_error(format!("'{other}' object is not callable"), span)),
    }
}

/// A method of a namespace: `spark.sql(...)`, `spark.conf.set(k, v)`, `spark.streams.
/// awaitAnyTermination()`, `SparkSession.builder.appName(...).getOrCreate()`,
/// `StructType.fromDDL`...
pub(super) fn call_method(ev: &mut Evaluator, module: &'static str, name: &str, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Py> {
    use crate::frontend::pyspark_api::ApiKind;
    match (module, name) {
        ("SparkSession.builder", "getOrCreate" | "create") => Ok(Py::Module("spark")),
        ("SparkSession.builder", _) => Ok(Py::Module("SparkSession.builder")),
        ("SparkSession", "getActiveSession" | "active") => Ok(Py::Module("spark")),
        ("spark.conf", "set") => {
            let mut it = pos.into_iter().chain(kw.into_iter().map(|(_, v, s)| (v, s)));
            let (k, v) = (it.next(), it.next());
            match (k, v) {
                (Some((Py::Str(k), _)), Some((v, s))) => {
                    let value = match v {
                        Py::Str(s) => s,
                        Py::Int(i) => i.to_string(),
                        Py::Bool(b) => b.to_string(),
                        Py::Float(f) => f.to_string(),
                        other => return Err(type_error(format!("spark.conf.set(key, value): value should be a str, int or bool, got {}", other.type_name()), s)),
                    };
                    if let Err(e) = crate::streaming::StreamingConf::default().set(&k, &value) {
                        return Err(invalid_conf_value(&k, &value, &e, s).into());
                    }
                    ev.confs.push((k, value));
                    Ok(Py::NoneVal)
                }
                _ => Err(type_error("RuntimeConfig.set() needs a key and a value", span)),
            }
        }
        ("spark.conf", "get" | "unset" | "isModifiable" | "getAll") => Ok(Py::NoneVal),
        ("spark.sparkContext", "setLogLevel" | "setCheckpointDir" | "setJobDescription" | "setLocalProperty") => Ok(Py::NoneVal),
        // `spark.streams.get(query.id)`: the program's query while it is active, else None.
        ("spark.streams", "get") => {
            let active = ev.started.is_some() && !ev.query_stopped;
            let id = crate::streaming::first_start_ids().0;
            Ok(match pos.first() {
                Some((Py::Str(asked), _)) if active && *asked == id => Py::Query,
                _ => Py::NoneVal,
            })
        }
        ("spark.streams", "awaitAnyTermination" | "resetTerminated") => Ok(Py::NoneVal),
        ("spark", _) => {
            let b = ev.bind(ApiKind::SparkSession, name, pos, kw, span)?;
            ev.spark_method(name, b, span)
        }
        ("Row", _) | ("print", _) => Err(type_error(format!("'{module}' has no method {name}()"), span)),
        (t, "fromDDL") if t == "StructType" || t == "DataType" => match pos.into_iter().next() {
            Some((Py::Str(ddl), s)) => {
                let fields = crate::analysis::parse_ddl_schema(&ddl).map_err(|m| perr(m, s))?;
                Ok(Py::Type(DataType::Struct(fields.into_iter().map(|(n, t)| Field::new(n, t, true)).collect::<Vec<_>>().into())))
            }
            _ => Err(type_error(format!("{t}.fromDDL(ddl) takes a DDL string"), span)),
        },
        (m, n) => Err(no_attribute(m, n, span)),
    }
}

/// A method of a type object: `StructType().add('n', LongType())`, `.simpleString()`.
pub(super) fn type_method(dt: DataType, name: &str, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>, span: Span) -> R<Py> {
    match (dt, name) {
        (DataType::Struct(fields), "add") => {
            let mut it = pos.into_iter();
            let first = it.next().or_else(|| kw.iter().find(|(k, _, _)| k == "field").map(|(_, v, s)| (v.clone(), *s)));
            let mut out: Vec<Field> = fields.iter().map(|f| f.as_ref().clone()).collect();
            match first {
                Some((Py::Field(n, t, nullable), _)) => out.push(Field::new(n, t, nullable)),
                Some((Py::Str(n), _)) => {
                    let dt = it.next().or_else(|| kw.iter().find(|(k, _, _)| k == "data_type").map(|(_, v, s)| (v.clone(), *s)));
                    let t = match dt {
                        Some((Py::Type(t), _)) => t,
                        Some((Py::Str(t), s)) => crate::types::parse_type_name(&t).map_err(|m| perr(m, s))?,
                        Some((other, s)) => return Err(type_error(format!("StructType.add(field, data_type): data_type should be a DataType or a type name, got {}", other.type_name()), s)),
                        None => return Err(type_error("StructType.add(field, data_type): a field name needs a data_type", span)),
                    };
                    out.push(Field::new(n, t, true));
                }
                Some((other, s)) => return Err(type_error(format!("StructType.add(field): field should be a StructField or a name, got {}", other.type_name()), s)),
                None => return Err(type_error("StructType.add() missing 1 required positional argument: 'field'", span)),
            }
            Ok(Py::Type(DataType::Struct(out.into())))
        }
        (dt, "simpleString") => Ok(Py::Str(crate::types::spark_type_name(&dt))),
        (DataType::Struct(fields), "fieldNames") => Ok(Py::List(fields.iter().map(|f| Py::Str(f.name().clone())).collect())),
        // `df.schema.treeString()`: what `printSchema()` prints.
        (DataType::Struct(fields), "treeString") => {
            let level = match pos.first().map(|(v, _)| v).or_else(|| kw.iter().find(|(k, _, _)| k == "level").map(|(_, v, _)| v)) {
                Some(Py::Int(n)) => usize::try_from(*n).ok().filter(|n| *n > 0),
                _ => None,
            };
            let fields: Vec<Field> = fields.iter().map(|f| f.as_ref().clone()).collect();
            Ok(Py::Str(crate::analysis::schema::tree_string(&fields, level)))
        }
        (_, other) => Err(Error::Analysis(AnalysisError::python("AttributeError", format!("'DataType' object has no attribute '{other}'"), span))),
    }
}

/// A schema argument as PySpark takes it: a `StructType` or a DDL string
/// (`'user_id string, clicks long'`).
pub(super) fn schema_arg(v: &Py, span: Span, what: &str) -> R<Vec<(String, DataType)>> {
    match v {
        Py::Str(ddl) => crate::analysis::parse_ddl_schema(ddl).map_err(|m| perr(m, span)),
        Py::Type(DataType::Struct(fields)) => Ok(fields.iter().map(|f| (f.name().clone(), f.data_type().clone())).collect()),
        other => Err(type_error(format!("{what} should be a StructType or a DDL string such as 'user_id string, clicks long', got {}", other.type_name()), span)),
    }
}

/// A type as a DDL string, as Spark's `DataType.toDDL` writes it for a struct's fields.
pub(super) fn ddl_of(dt: &DataType) -> String {
    match dt {
        DataType::Struct(fields) => crate::types::ddl_fields(fields.iter().map(|f| (f.name().as_str(), f.data_type()))),
        other => crate::types::spark_type_name(other),
    }
}

/// `spark.conf.set` refusing a value: Spark's `INVALID_CONF_VALUE` (an `IllegalArgumentException`
/// in PySpark), e.g. "The value 'x' in the config \"spark.sql.shuffle.partitions\" is invalid.
/// It should be a/an 'int' value." (`SQLConf`'s type and check conversions). `reason` is the
/// engine's own reading of the value.
fn invalid_conf_value(key: &str, value: &str, reason: &str, span: Span) -> crate::error::AnalysisError {
    if reason.contains(crate::types::tzdb::LOADING) {
        // Not Spark's refusal: the browser has not got the zone database yet.
        return crate::error::AnalysisError { error_class: crate::types::tzdb::LOADING.to_string(), ..crate::error::AnalysisError::python("Streamlab", crate::types::tzdb::loading_text(value), span) };
    }
    let head = format!("The value '{value}' in the config \"{key}\" is invalid.");
    let (condition, tail) = if key == "spark.sql.session.timeZone" {
        ("INVALID_CONF_VALUE.TIME_ZONE", "Cannot resolve the given timezone.".to_string())
    } else if reason.contains("should be a boolean") {
        ("INVALID_CONF_VALUE.TYPE_MISMATCH", "It should be a/an 'boolean' value.".to_string())
    } else if reason.contains("should be an int") {
        ("INVALID_CONF_VALUE.TYPE_MISMATCH", "It should be a/an 'int' value.".to_string())
    } else {
        ("INVALID_CONF_VALUE.REQUIREMENT", reason.to_string())
    };
    crate::error::AnalysisError { error_class: condition.to_string(), ..crate::error::AnalysisError::python("IllegalArgumentException", format!("{head} {tail}"), span) }
}

/// What `print(*args, sep=' ')` writes: each argument's `str()`, joined by `sep` (`end` and
/// `file` change nothing the lab shows).
fn print_line(catalog: &crate::frontend::Catalog, pos: Vec<(Py, Span)>, kw: Vec<(String, Py, Span)>) -> R<String> {
    let mut sep = " ".to_string();
    for (k, v, s) in kw {
        match (k.as_str(), v) {
            ("sep", Py::Str(t)) => sep = t,
            ("sep", Py::NoneVal) | ("end" | "file" | "flush", _) => {}
            ("sep", other) => return Err(type_error(format!("sep must be None or a string, not {}", other.type_name()), s)),
            (other, _) => return Err(type_error(format!("'{other}' is an invalid keyword argument for print()"), s)),
        }
    }
    let mut parts = Vec::new();
    for (v, _) in &pos {
        parts.push(py_str(catalog, v)?);
    }
    Ok(parts.join(&sep))
}

/// Python's `str()` of a value, as `print` writes it.
fn py_str(catalog: &crate::frontend::Catalog, v: &Py) -> R<String> {
    Ok(match v {
        Py::Str(s) => s.clone(),
        other => py_repr(catalog, other)?,
    })
}

/// Python's `repr()` of a value: a DataFrame as PySpark's `DataFrame.__repr__` writes it
/// (`DataFrame[event_id: string, post_id: bigint]`, each column's `simpleString` type), a
/// type as its constructor call (`LongType()`), a Column as PySpark 4 writes it
/// (`Column<'>(post_id, 1)'>`; `Column<'…'>` where the lab does not know Spark's text).
pub(super) fn py_repr(catalog: &crate::frontend::Catalog, v: &Py) -> R<String> {
    let repr = |x: &Py| py_repr(catalog, x);
    Ok(match v {
        Py::Str(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'").replace('\n', "\\n")),
        Py::Int(i) => i.to_string(),
        Py::Float(f) => float_repr(*f),
        Py::Bool(b) => py_bool(*b).to_string(),
        Py::NoneVal => "None".to_string(),
        Py::Ellipsis => "Ellipsis".to_string(),
        Py::List(items) => format!("[{}]", items.iter().map(repr).collect::<R<Vec<_>>>()?.join(", ")),
        // Python writes a one-element tuple with its comma: `('a',)`.
        Py::Tuple(items) if items.len() == 1 => format!("({},)", repr(&items[0])?),
        Py::Tuple(items) => format!("({})", items.iter().map(repr).collect::<R<Vec<_>>>()?.join(", ")),
        Py::Dict(entries) => {
            let mut out = Vec::new();
            for (k, v) in entries {
                out.push(format!("{}: {}", repr(k)?, repr(v)?));
            }
            format!("{{{}}}", out.join(", "))
        }
        Py::Df(plan) => {
            let resolved = crate::analysis::resolve(plan)?;
            let cols: Vec<String> = resolved.output.iter().map(|a| format!("{}: {}", a.name, crate::types::spark_type_name(&a.data_type))).collect();
            format!("DataFrame[{}]", cols.join(", "))
        }
        Py::Type(dt) => type_repr(dt),
        Py::Col(e) if super::errors::column_node_text_known(e) => format!("Column<'{}'>", super::errors::column_node_text(e, catalog)),
        Py::Col(_) => "Column<'…'>".to_string(),
        Py::Query => "<pyspark.sql.streaming.query.StreamingQuery object at 0x…>".to_string(),
        Py::Class(name) => format!("<class '{name}'>"),
        Py::Field(name, dt, nullable) => field_repr(name, dt, *nullable),
        other => format!("<{} object>", other.type_name()),
    })
}

/// The qualified name of a value's class in PySpark 4.3 (classic; checked with `type()` there).
pub(super) fn class_of(v: &Py) -> String {
    match v {
        Py::Df(_) | Py::SinkTable(_) => "pyspark.sql.classic.dataframe.DataFrame".into(),
        Py::Col(_) => "pyspark.sql.classic.column.Column".into(),
        Py::Grouped { .. } => "pyspark.sql.group.GroupedData".into(),
        Py::WriteStream { .. } => "pyspark.sql.streaming.readwriter.DataStreamWriter".into(),
        Py::Reader(_) => "pyspark.sql.streaming.readwriter.DataStreamReader".into(),
        Py::Query => "pyspark.sql.streaming.query.StreamingQuery".into(),
        Py::Module("spark") => "pyspark.sql.session.SparkSession".into(),
        Py::Type(dt) => format!("pyspark.sql.types.{}", type_repr(dt).split('(').next().unwrap_or_default()),
        Py::Field(..) => "pyspark.sql.types.StructField".into(),
        Py::Class(_) => "type".into(),
        other => other.type_name().into(),
    }
}

/// Python's `repr()` of a float: the shortest text that reads back, with an exponent below
/// 1e-4 and from 1e16 (`1e-05`, `1e+16`), as Python writes it.
fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `Debug` switches to an exponent at the same bounds; Python signs it and writes
    // two digits at least.
    let text = format!("{f:?}");
    match text.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => text,
    }
}

/// The one argument of a builtin called with exactly one positional argument.
fn only_arg<'a>(pos: &'a [(Py, Span)], kw: &[(String, Py, Span)]) -> Option<&'a (Py, Span)> {
    (pos.len() == 1 && kw.is_empty()).then(|| &pos[0])
}

/// Python's `True` / `False`.
fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// `repr()` of a `StructField`: `StructField('n', LongType(), True)`.
fn field_repr(name: &str, dt: &DataType, nullable: bool) -> String {
    format!("StructField('{name}', {}, {})", type_repr(dt), py_bool(nullable))
}

/// `repr()` of a `pyspark.sql.types` instance: `LongType()`, `ArrayType(StringType(), True)`,
/// `StructType([StructField('n', LongType(), True)])`.
fn type_repr(dt: &DataType) -> String {
    match dt {
        DataType::Utf8 => "StringType()".into(),
        DataType::Int64 => "LongType()".into(),
        DataType::Int32 => "IntegerType()".into(),
        DataType::Float64 => "DoubleType()".into(),
        DataType::Boolean => "BooleanType()".into(),
        DataType::Timestamp(_, None) => "TimestampNTZType()".into(),
        DataType::Timestamp(..) => "TimestampType()".into(),
        DataType::Date32 => "DateType()".into(),
        DataType::Binary => "BinaryType()".into(),
        DataType::Null => "NullType()".into(),
        DataType::List(f) => format!("ArrayType({}, {})", type_repr(f.data_type()), py_bool(f.is_nullable())),
        DataType::Struct(fields) => format!(
            "StructType([{}])",
            fields.iter().map(|f| field_repr(f.name(), f.data_type(), f.is_nullable())).collect::<Vec<_>>().join(", ")
        ),
        other => crate::types::spark_type_name(other),
    }
}
