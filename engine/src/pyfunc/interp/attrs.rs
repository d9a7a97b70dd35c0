//! Attribute access (`obj.name`, Python's `getattr`) and method calls on values: objects, modules, `list`/`dict`/`str` methods, and the pandas and PySpark values.

use std::cell::RefCell;
use std::rc::Rc;

use super::{py_eq, Interpreter, Val, R, MAX_ITEMS};
use crate::pyfunc::PyError;

impl Interpreter {
    pub(super) fn attr(&mut self, o: Val, name: &str, line: usize) -> R<Val> {
        Ok(match (&o, name) {
            (Val::Object(obj), _) => {
                if let Some(v) = obj.attrs.borrow().get(name) {
                    return Ok(v.clone());
                }
                match obj.class.attrs.get(name) {
                    Some(Val::Func(_)) => Val::Method(Box::new(o.clone()), Rc::from(name)),
                    Some(v) => v.clone(),
                    None => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", obj.class.name), line)),
                }
            }
            (Val::Class(c), _) => c.attrs.get(name).cloned().ok_or_else(|| PyError::runtime(format!("AttributeError: type object '{}' has no attribute '{name}'", c.name), line))?,
            (Val::Row(fields), _) => match fields.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None if name == "asDict" => Val::Method(Box::new(o.clone()), Rc::from(name)),
                None => return Err(PyError::runtime(format!("AttributeError: {name}"), line)),
            },
            (Val::Processor(p), _) => p.attr(&o, name, line)?,
            (Val::Spark(t), _) => crate::pyfunc::value::spark_types::SparkType::attr(t, name, line)?,
            (Val::State(s), _) => {
                let is_method = matches!(name, "update" | "remove" | "setTimeoutDuration" | "setTimeoutTimestamp" | "getCurrentWatermarkMs" | "getCurrentProcessingTimeMs");
                if is_method {
                    Val::Method(Box::new(o.clone()), Rc::from(name))
                } else {
                    s.borrow().attr(name, line)?
                }
            }
            (Val::Frame(f), _) => self.frame_attr(f, &o, name, line)?,
            (Val::Series(s), _) => self.series_attr(s, &o, name, line)?,
            (Val::GroupBy(g), _) => self.groupby_attr(g, &o, name, line)?,
            (Val::Accessor(kind, s), _) => crate::pyfunc::value::pandas_time::accessor_attr(*kind, s, &o, name, line)?,
            (Val::Timestamp(ns), _) => crate::pyfunc::value::pandas_time::timestamp_attr(&o, *ns, name, line)?,
            (Val::Timedelta(ns), _) => crate::pyfunc::value::pandas_time::timedelta_attr(&o, *ns, name, line)?,
            (Val::Module(m), _) => match (*m, name) {
                ("pandas", n) if crate::pyfunc::value::pandas::MODULE_FUNCTIONS.contains(&n) => Val::Builtin(pandas_fn(name)),
                ("pandas", n) => return Err(crate::pyfunc::value::pandas::missing_module_fn(n, line)),
                ("time", "time") => Val::Builtin("time.time"),
                ("datetime", "datetime") => Val::Module("datetime.datetime"),
                ("datetime.datetime", "fromtimestamp" | "utcfromtimestamp") => Val::Builtin("datetime.fromtimestamp"),
                ("datetime.datetime", "now" | "utcnow") => Val::Builtin("datetime.now"),
                ("datetime.datetime", _) => Val::Module("typing"),
                ("numpy", "int64" | "float64") => Val::Builtin(if name == "int64" { "int" } else { "float" }),
                ("pyspark.sql.types", _) => crate::pyfunc::value::spark_types::class(name).unwrap_or(Val::Module("typing")),
                ("typing", _) | ("pyspark", _) | ("datetime", _) => Val::Module("typing"),
                _ => return Err(PyError::runtime(format!("AttributeError: module '{m}' has no attribute '{name}' (not in Streamlab's Python)"), line)),
            },
            (Val::List(_) | Val::Dict(_) | Val::Str(_), _) => Val::Method(Box::new(o.clone()), Rc::from(name)),
            _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", o.type_name()), line)),
        })
    }

    pub(super) fn method(&mut self, obj: Val, name: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>, line: usize) -> R<Val> {
        Ok(match (&obj, name) {
            (Val::State(s), _) => s.borrow_mut().call(name, &args, line)?,
            (Val::Object(o), _) => match o.class.attrs.get(name) {
                Some(Val::Func(f)) => {
                    let f = Rc::clone(f);
                    let mut all = vec![obj.clone()];
                    all.extend(args);
                    self.call_func(&f, all, kwargs, line)?
                }
                _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", o.class.name), line)),
            },
            (Val::Row(fields), "asDict") => Val::Dict(Rc::new(RefCell::new(fields.iter().map(|(n, v)| (Val::Str(Rc::from(n.as_str())), v.clone())).collect()))),
            (Val::Processor(p), _) => p.call(name, args, line)?,
            (Val::Spark(t), _) => crate::pyfunc::value::spark_types::SparkType::call(t, name, &args, &kwargs, line)?,
            (Val::Frame(f), _) => self.frame_method(f, &obj, name, args, kwargs, line)?,
            (Val::Series(s), _) => self.series_method(s, &obj, name, args, kwargs, line)?,
            (Val::GroupBy(g), _) => self.groupby_method(g, &obj, name, args, kwargs, line)?,
            (Val::Accessor(kind, s), _) => crate::pyfunc::value::pandas_time::accessor_call(*kind, s, name, &args, &kwargs, line)?,
            (Val::Timestamp(ns), _) => crate::pyfunc::value::pandas_time::timestamp_call(&obj, *ns, name, &args, line)?,
            (Val::Timedelta(ns), "total_seconds") => Val::Float(*ns as f64 / 1e9),
            (Val::List(l), "append") => {
                let mut l = l.borrow_mut();
                if l.len() >= MAX_ITEMS {
                    return Err(PyError::runtime("the list grew past the lab's limit", line));
                }
                l.push(args.into_iter().next().unwrap_or(Val::None));
                Val::None
            }
            (Val::List(l), "extend") => {
                let items = self.iterate(args.first().unwrap_or(&Val::None), line)?;
                let mut l = l.borrow_mut();
                if l.len() + items.len() > MAX_ITEMS {
                    return Err(PyError::runtime("the list grew past the lab's limit", line));
                }
                l.extend(items);
                Val::None
            }
            (Val::List(l), "pop") => l.borrow_mut().pop().ok_or_else(|| PyError::runtime("IndexError: pop from empty list", line))?,
            (Val::Dict(d), "get") => {
                let k = args.first().cloned().unwrap_or(Val::None);
                d.borrow().iter().find(|(x, _)| py_eq(x, &k)).map(|(_, v)| v.clone()).unwrap_or_else(|| args.get(1).cloned().unwrap_or(Val::None))
            }
            (Val::Dict(d), "keys") => Val::List(Rc::new(RefCell::new(d.borrow().iter().map(|(k, _)| k.clone()).collect()))),
            (Val::Dict(d), "values") => Val::List(Rc::new(RefCell::new(d.borrow().iter().map(|(_, v)| v.clone()).collect()))),
            (Val::Dict(d), "items") => Val::List(Rc::new(RefCell::new(d.borrow().iter().map(|(k, v)| Val::Tuple(Rc::new(vec![k.clone(), v.clone()]))).collect()))),
            (Val::Str(s), "upper") => Val::Str(Rc::from(s.to_uppercase())),
            (Val::Str(s), "lower") => Val::Str(Rc::from(s.to_lowercase())),
            (Val::Str(s), "startswith") => Val::Bool(s.starts_with(&args.first().map(Val::str_value).unwrap_or_default())),
            (Val::Str(s), "join") => {
                let items = self.iterate(args.first().unwrap_or(&Val::None), line)?;
                Val::Str(Rc::from(items.iter().map(Val::str_value).collect::<Vec<_>>().join(s)))
            }
            _ => return Err(PyError::runtime(format!("AttributeError: '{}' object has no attribute '{name}'", obj.type_name()), line)),
        })
    }
}

fn pandas_fn(name: &str) -> &'static str {
    match name {
        "DataFrame" => "pd.DataFrame",
        "Timestamp" => "pd.Timestamp",
        "Timedelta" => "pd.Timedelta",
        "concat" => "pd.concat",
        "Series" => "pd.Series",
        "isna" | "isnull" => "pd.isna",
        "notna" | "notnull" => "pd.notna",
        "merge" => "pd.merge",
        _ => "pd.to_datetime",
    }
}
