//! `pyspark.sql.types` as the sandboxed Python sees them: `StructType`, `StructField` and the
//! type classes (`LongType()`, `StringType()`, `ArrayType(...)`, ...), so that a schema can be
//! written as PySpark's documentation writes it —
//! `handle.getValueState("count", StructType([StructField("n", LongType(), True)]))` — as well
//! as a DDL string (`"n LONG"`). PySpark accepts either wherever it takes a schema
//! (`StatefulProcessorHandle.getValueState` / `getListState` / `getMapState` turn a string into
//! a `StructType` with `_parse_datatype_string`); the state operator reads the schema as DDL
//! text, which [`SparkType::ddl`] writes.

use std::rc::Rc;

use super::Val;
use crate::pyfunc::PyError;

/// A Spark SQL data type or field, as a Python value.
#[derive(Debug, Clone, PartialEq)]
pub enum SparkType {
    /// An atomic type by its DDL name: `BIGINT`, `INT`, `STRING`, `DECIMAL(10,0)`, ...
    Atomic(Rc<str>),
    /// `ArrayType(elementType, containsNull)`.
    Array(Rc<SparkType>, bool),
    /// `MapType(keyType, valueType, valueContainsNull)`.
    Map(Rc<SparkType>, Rc<SparkType>, bool),
    /// `StructType(fields)`.
    Struct(Vec<Field>),
    /// `StructField(name, dataType, nullable)`: a field, not a type.
    Field(Field),
}

/// One `StructField`.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The field's name.
    pub name: String,
    /// The field's type.
    pub data_type: Rc<SparkType>,
    /// Whether the field may be null (`StructField`'s third argument, True by default).
    pub nullable: bool,
}

/// The classes `pyspark.sql.types` exports that a schema is built from, with the DDL name of
/// each atomic type (`None` for the classes that take arguments).
const CLASSES: &[(&str, Option<&str>)] = &[
    ("StringType", Some("STRING")),
    ("BinaryType", Some("BINARY")),
    ("BooleanType", Some("BOOLEAN")),
    ("DateType", Some("DATE")),
    ("TimestampType", Some("TIMESTAMP")),
    ("TimestampNTZType", Some("TIMESTAMP_NTZ")),
    ("DoubleType", Some("DOUBLE")),
    ("FloatType", Some("FLOAT")),
    ("ByteType", Some("TINYINT")),
    ("ShortType", Some("SMALLINT")),
    ("IntegerType", Some("INT")),
    ("LongType", Some("BIGINT")),
    ("NullType", Some("VOID")),
    ("DecimalType", None),
    ("ArrayType", None),
    ("MapType", None),
    ("StructField", None),
    ("StructType", None),
];

/// The builtin value a name of `pyspark.sql.types` is bound to (`from pyspark.sql.types
/// import LongType`), if it is one of the type classes.
pub fn class(name: &str) -> Option<Val> {
    CLASSES.iter().find(|(n, _)| *n == name).map(|(n, _)| Val::Builtin(n))
}

/// True for the builtin names [`class`] hands out.
pub fn is_class(name: &str) -> bool {
    CLASSES.iter().any(|(n, _)| *n == name)
}

type R<T> = Result<T, PyError>;

fn type_arg(v: Option<&Val>, what: &str, line: usize) -> R<Rc<SparkType>> {
    match v {
        Some(Val::Spark(t)) if !matches!(**t, SparkType::Field(_)) => Ok(Rc::clone(t)),
        Some(other) => Err(PyError::runtime(format!("TypeError: {what} should be a DataType, got {}", other.type_name()), line)),
        None => Err(PyError::runtime(format!("TypeError: missing required argument: '{what}'"), line)),
    }
}

fn bool_arg(v: Option<&Val>, default: bool) -> bool {
    match v {
        Some(Val::Bool(b)) => *b,
        Some(Val::None) | None => default,
        Some(other) => other.as_int().is_some_and(|i| i != 0),
    }
}

/// Positional argument `i`, or the keyword `name`.
fn arg<'a>(args: &'a [Val], kwargs: &'a [(String, Val)], i: usize, name: &str) -> Option<&'a Val> {
    args.get(i).or_else(|| kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| v))
}

/// Calls the type class `name` (`LongType()`, `StructField("n", LongType(), True)`,
/// `StructType([...])`, `ArrayType(StringType())`, `DecimalType(10, 2)`).
///
/// # Errors
/// Python's `TypeError` for a wrong argument.
pub fn construct(name: &str, args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
    let t = match name {
        "DecimalType" => {
            let p = arg(args, kwargs, 0, "precision").and_then(Val::as_int).unwrap_or(10);
            let s = arg(args, kwargs, 1, "scale").and_then(Val::as_int).unwrap_or(0);
            SparkType::Atomic(Rc::from(format!("DECIMAL({p},{s})")))
        }
        "ArrayType" => SparkType::Array(type_arg(arg(args, kwargs, 0, "elementType"), "elementType", line)?, bool_arg(arg(args, kwargs, 1, "containsNull"), true)),
        "MapType" => SparkType::Map(
            type_arg(arg(args, kwargs, 0, "keyType"), "keyType", line)?,
            type_arg(arg(args, kwargs, 1, "valueType"), "valueType", line)?,
            bool_arg(arg(args, kwargs, 2, "valueContainsNull"), true),
        ),
        "StructField" => {
            let field_name = match arg(args, kwargs, 0, "name") {
                Some(Val::Str(s)) => s.to_string(),
                Some(other) => return Err(PyError::runtime(format!("TypeError: field name should be a string, got {}", other.type_name()), line)),
                None => return Err(PyError::runtime("TypeError: StructField() missing required argument: 'name'", line)),
            };
            SparkType::Field(Field { name: field_name, data_type: type_arg(arg(args, kwargs, 1, "dataType"), "dataType", line)?, nullable: bool_arg(arg(args, kwargs, 2, "nullable"), true) })
        }
        "StructType" => {
            let mut fields = Vec::new();
            match arg(args, kwargs, 0, "fields") {
                None | Some(Val::None) => {}
                Some(Val::List(l)) => fields = l.borrow().iter().map(|f| field_of(f, line)).collect::<R<_>>()?,
                Some(Val::Tuple(t)) => fields = t.iter().map(|f| field_of(f, line)).collect::<R<_>>()?,
                Some(other) => return Err(PyError::runtime(format!("TypeError: StructType() takes a list of StructField, got {}", other.type_name()), line)),
            }
            SparkType::Struct(fields)
        }
        atomic => match CLASSES.iter().find(|(n, _)| *n == atomic) {
            Some((_, Some(ddl))) => SparkType::Atomic(Rc::from(*ddl)),
            _ => return Err(PyError::runtime(format!("NameError: name '{atomic}' is not defined"), line)),
        },
    };
    Ok(Val::Spark(Rc::new(t)))
}

fn field_of(v: &Val, line: usize) -> R<Field> {
    match v {
        Val::Spark(t) => match &**t {
            SparkType::Field(f) => Ok(f.clone()),
            _ => Err(PyError::runtime("TypeError: StructType() takes StructField values, got a DataType", line)),
        },
        other => Err(PyError::runtime(format!("TypeError: StructType() takes StructField values, got {}", other.type_name()), line)),
    }
}

/// A DDL type name written as text (`"long"`, `"string"`), for `StructType.add("n", "long")`.
fn ddl_type_from_text(s: &str) -> SparkType {
    let upper = s.trim().to_ascii_uppercase();
    let name = match upper.as_str() {
        "LONG" => "BIGINT",
        "INTEGER" => "INT",
        "SHORT" => "SMALLINT",
        "BYTE" => "TINYINT",
        "BOOL" => "BOOLEAN",
        other => other,
    };
    SparkType::Atomic(Rc::from(name))
}

impl SparkType {
    /// The type's DDL text (`BIGINT`, `ARRAY<STRING>`, `STRUCT<n: BIGINT>`); a struct at the
    /// top is written as a field list (`n BIGINT, name STRING`), the form a state schema
    /// string takes.
    pub fn ddl(&self) -> String {
        match self {
            SparkType::Struct(fields) => fields.iter().map(|f| format!("{} {}", quote(&f.name), f.data_type.type_ddl())).collect::<Vec<_>>().join(", "),
            other => other.type_ddl(),
        }
    }

    fn type_ddl(&self) -> String {
        match self {
            SparkType::Atomic(n) => n.to_string(),
            SparkType::Array(e, _) => format!("ARRAY<{}>", e.type_ddl()),
            SparkType::Map(k, v, _) => format!("MAP<{}, {}>", k.type_ddl(), v.type_ddl()),
            SparkType::Struct(fields) => format!("STRUCT<{}>", fields.iter().map(|f| format!("{}: {}", quote(&f.name), f.data_type.type_ddl())).collect::<Vec<_>>().join(", ")),
            SparkType::Field(f) => format!("{} {}", quote(&f.name), f.data_type.type_ddl()),
        }
    }

    /// PySpark's class name (`type(x).__name__`).
    pub fn class_name(&self) -> &'static str {
        match self {
            SparkType::Atomic(n) => CLASSES.iter().find(|(_, d)| d.is_some_and(|d| d == &**n)).map_or("DecimalType", |(c, _)| c),
            SparkType::Array(..) => "ArrayType",
            SparkType::Map(..) => "MapType",
            SparkType::Struct(_) => "StructType",
            SparkType::Field(_) => "StructField",
        }
    }

    /// `repr(x)` as PySpark 4 prints it (`LongType()`, `StructField('n', LongType(), True)`).
    pub fn repr(&self) -> String {
        match self {
            SparkType::Atomic(n) if n.starts_with("DECIMAL") => format!("DecimalType{}", &n["DECIMAL".len()..]),
            SparkType::Atomic(_) => format!("{}()", self.class_name()),
            SparkType::Array(e, c) => format!("ArrayType({}, {})", e.repr(), py_bool(*c)),
            SparkType::Map(k, v, c) => format!("MapType({}, {}, {})", k.repr(), v.repr(), py_bool(*c)),
            SparkType::Struct(fields) => format!("StructType([{}])", fields.iter().map(|f| SparkType::Field(f.clone()).repr()).collect::<Vec<_>>().join(", ")),
            SparkType::Field(f) => format!("StructField('{}', {}, {})", f.name, f.data_type.repr(), py_bool(f.nullable)),
        }
    }

    /// `x.name` of a type or field value.
    ///
    /// # Errors
    /// `AttributeError` for a name the value does not have.
    pub fn attr(this: &Rc<SparkType>, name: &str, line: usize) -> R<Val> {
        let s = |x: &str| Val::Str(Rc::from(x));
        let list = |items: Vec<Val>| Val::List(Rc::new(std::cell::RefCell::new(items)));
        Ok(match (&**this, name) {
            (SparkType::Field(f), "name") => s(&f.name),
            (SparkType::Field(f), "dataType") => Val::Spark(Rc::clone(&f.data_type)),
            (SparkType::Field(f), "nullable") => Val::Bool(f.nullable),
            (SparkType::Struct(fields), "fields") => list(fields.iter().map(|f| Val::Spark(Rc::new(SparkType::Field(f.clone())))).collect()),
            (SparkType::Struct(fields), "names") => list(fields.iter().map(|f| s(&f.name)).collect()),
            (SparkType::Array(e, _), "elementType") => Val::Spark(Rc::clone(e)),
            (SparkType::Map(k, _, _), "keyType") => Val::Spark(Rc::clone(k)),
            (SparkType::Map(_, v, _), "valueType") => Val::Spark(Rc::clone(v)),
            (_, "simpleString" | "typeName") | (SparkType::Struct(_), "add" | "fieldNames") => Val::Method(Box::new(Val::Spark(Rc::clone(this))), Rc::from(name)),
            _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", this.class_name()), line)),
        })
    }

    /// `x.name(*args)`: `StructType.add`, `fieldNames`, `simpleString`, `typeName`.
    ///
    /// # Errors
    /// Python's `TypeError` for a wrong argument.
    pub fn call(this: &Rc<SparkType>, name: &str, args: &[Val], kwargs: &[(String, Val)], line: usize) -> R<Val> {
        Ok(match (&**this, name) {
            (SparkType::Struct(fields), "add") => {
                let field = match arg(args, kwargs, 0, "field") {
                    Some(f @ Val::Spark(_)) => field_of(f, line)?,
                    Some(Val::Str(n)) => {
                        let data_type = match arg(args, kwargs, 1, "data_type") {
                            Some(Val::Str(t)) => Rc::new(ddl_type_from_text(t)),
                            other => type_arg(other, "data_type", line)?,
                        };
                        Field { name: n.to_string(), data_type, nullable: bool_arg(arg(args, kwargs, 2, "nullable"), true) }
                    }
                    _ => return Err(PyError::runtime("TypeError: add() takes a StructField or a field name and a data type", line)),
                };
                let mut fields = fields.clone();
                fields.push(field);
                Val::Spark(Rc::new(SparkType::Struct(fields)))
            }
            (SparkType::Struct(fields), "fieldNames") => Val::List(Rc::new(std::cell::RefCell::new(fields.iter().map(|f| Val::Str(Rc::from(f.name.as_str()))).collect()))),
            (_, "simpleString") => Val::Str(Rc::from(this.type_ddl().to_lowercase().replace(": ", ":").replace(", ", ","))),
            (_, "typeName") => Val::Str(Rc::from(this.class_name().trim_end_matches("Type").to_lowercase())),
            _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", this.class_name()), line)),
        })
    }

    /// The fields of a struct, as `iter(struct_type)` yields them.
    pub fn fields(&self) -> Option<&[Field]> {
        match self {
            SparkType::Struct(f) => Some(f),
            _ => None,
        }
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// A field name in DDL: back-ticked unless it is letters, digits and `_`.
fn quote(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        name.to_string()
    } else {
        format!("`{}`", name.replace('`', "``"))
    }
}

/// A state schema argument: a DDL string as it is, a `StructType` as its DDL text.
///
/// # Errors
/// `TypeError` for anything else (PySpark's `_parse_datatype_string` / schema checks).
pub fn schema_text(v: Option<&Val>, line: usize) -> R<String> {
    match v {
        Some(Val::Str(s)) => Ok(s.to_string()),
        Some(Val::Spark(t)) if matches!(**t, SparkType::Struct(_)) => Ok(t.ddl()),
        Some(other) => Err(PyError::runtime(format!("TypeError: a state schema is a StructType or a DDL string such as 'count LONG', not {}", other.type_name()), line)),
        None => Err(PyError::runtime("TypeError: missing the state schema (a StructType or a DDL string such as 'count LONG')", line)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str, args: Vec<Val>) -> Val {
        construct(name, &args, &[], 1).unwrap()
    }

    #[test]
    fn a_struct_type_is_written_as_ddl() {
        let n = c("StructField", vec![Val::Str(Rc::from("n")), c("LongType", vec![]), Val::Bool(true)]);
        let who = c("StructField", vec![Val::Str(Rc::from("user id")), c("StringType", vec![])]);
        let st = c("StructType", vec![Val::List(Rc::new(std::cell::RefCell::new(vec![n, who])))]);
        assert_eq!(schema_text(Some(&st), 1).unwrap(), "n BIGINT, `user id` STRING");
        let Val::Spark(t) = &st else { panic!("a type") };
        assert_eq!(t.repr(), "StructType([StructField('n', LongType(), True), StructField('user id', StringType(), True)])");
        // `.add("x", "long")` reads a type name as DDL does.
        let added = SparkType::call(t, "add", &[Val::Str(Rc::from("x")), Val::Str(Rc::from("long"))], &[], 1).unwrap();
        assert_eq!(schema_text(Some(&added), 1).unwrap(), "n BIGINT, `user id` STRING, x BIGINT");
    }

    #[test]
    fn a_plain_type_is_not_a_schema() {
        assert!(schema_text(Some(&c("LongType", vec![])), 1).is_err());
        assert_eq!(schema_text(Some(&Val::Str(Rc::from("n LONG"))), 1).unwrap(), "n LONG");
    }
}
