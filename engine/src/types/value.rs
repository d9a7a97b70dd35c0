//! `Value`: one cell of a row, the engine's row-at-a-time counterpart of an Arrow array slot.
//!
//! Mirrors Spark's internal row values (`InternalRow` fields): timestamps are µs since the
//! epoch (UTC), structs are positional. Values are totally ordered (nulls first, doubles by
//! `f64::total_cmp`) so that state can live in ordered maps (invariant: determinism).

use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

use super::time::{format_timestamp_us, EventTime};

/// One value of a row. `Timestamp` is µs since 1970-01-01T00:00:00Z.
#[derive(Debug, Clone)]
pub enum Value {
    /// SQL NULL, of any type; sorts before every other value.
    Null,
    /// A `boolean`.
    Bool(bool),
    /// An `int` (32-bit, `IntegerType`).
    Int(i32),
    /// A `bigint` (64-bit, `LongType`).
    Long(i64),
    /// A `double` (`DoubleType`); ordered by `f64::total_cmp`.
    Double(f64),
    /// A `string` (UTF-8, `StringType`).
    Str(Rc<str>),
    /// µs since the epoch, UTC.
    Timestamp(i64),
    /// A positional struct, e.g. a `window` column `{start, end}`.
    Struct(Rc<[Value]>),
    /// Bytes (Kafka's `key` and `value`).
    Binary(Rc<[u8]>),
    /// Days since 1970-01-01 (Spark's `DateType`, from `to_date`).
    Date(i32),
    /// An array (`split`, `collect_list`, ...), elements in order.
    Array(Rc<[Value]>),
    /// A map (`MapType`): (key, value) entries in insertion order, keys distinct and not NULL
    /// (`ArrayBasedMapData`).
    Map(Rc<[(Value, Value)]>),
}

/// A row: values in schema order.
pub type Row = Vec<Value>;

impl Value {
    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    /// True for SQL NULL.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value as an i64 when it is an integral number or a timestamp (µs).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(i64::from(*v)),
            Value::Long(v) | Value::Timestamp(v) => Some(*v),
            _ => None,
        }
    }

    /// The value as an f64 when it is numeric.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(f64::from(*v)),
            Value::Long(v) => Some(*v as f64),
            Value::Double(v) => Some(*v),
            _ => None,
        }
    }

    /// The event-time of this value in µs: a timestamp itself, or the `end` of a window struct
    /// (Spark compares windows by their end, `WatermarkSupport` in `statefulOperators.scala`).
    pub fn event_time_us(&self) -> Option<i64> {
        match self {
            Value::Timestamp(t) => Some(*t),
            Value::Struct(fields) if fields.len() == 2 => fields[1].event_time_us(),
            _ => None,
        }
    }

    /// [`Self::event_time_us`] as an [`EventTime`].
    pub fn event_time(&self) -> Option<EventTime> {
        self.event_time_us().map(EventTime::from_micros)
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Int(_) | Value::Long(_) | Value::Double(_) => 2,
            Value::Str(_) => 3,
            Value::Timestamp(_) => 4,
            Value::Struct(_) => 5,
            Value::Binary(_) => 6,
            Value::Date(_) => 7,
            Value::Array(_) => 8,
            Value::Map(_) => 9,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        // Fast paths for the hot case of hash-map keys: same variant, shared allocations.
        match (self, other) {
            (Value::Long(a), Value::Long(b)) | (Value::Timestamp(a), Value::Timestamp(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => Rc::ptr_eq(a, b) || a == b,
            (Value::Struct(a), Value::Struct(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => self.cmp(other) == Ordering::Equal,
        }
    }
}
impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// Numbers compare by value across `Int`, `Long` and `Double` (doubles by `total_cmp`);
    /// values of different kinds by kind (NULL first). State stores are ordered maps keyed by
    /// rows, so this runs in every state lookup: the common same-kind pairs are tried first and
    /// inline, the rest go to `Value::cmp_mixed`.
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Timestamp(a), Timestamp(b)) | (Long(a), Long(b)) => a.cmp(b),
            (Struct(a), Struct(b)) | (Array(a), Array(b)) => a.cmp(b),
            (Str(a), Str(b)) => a.cmp(b),
            (Int(a), Int(b)) | (Date(a), Date(b)) => a.cmp(b),
            _ => self.cmp_mixed(other),
        }
    }
}

impl Value {
    /// [`Ord::cmp`] for the pairs its fast path leaves out.
    #[inline(never)]
    fn cmp_mixed(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Bool(a), Bool(b)) => a.cmp(b),
            (Int(a), Long(b)) => i64::from(*a).cmp(b),
            (Long(a), Int(b)) => a.cmp(&i64::from(*b)),
            (Double(a), Double(b)) => a.total_cmp(b),
            (Double(_), _) | (_, Double(_)) if self.rank() == 2 && other.rank() == 2 => {
                self.as_f64().unwrap_or(0.0).total_cmp(&other.as_f64().unwrap_or(0.0))
            }
            (Binary(a), Binary(b)) => a.cmp(b),
            (Map(a), Map(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// Agrees with `Eq`: values that compare equal hash alike. `Int(1)`, `Long(1)` and
/// `Double(1.0)` compare equal (numbers compare by value), so a whole double hashes as the
/// integer it equals.
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Value::Null => 0u8.hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Int(v) => i64::from(*v).hash(state),
            Value::Long(v) => v.hash(state),
            Value::Double(v) if v.fract() == 0.0 && v.abs() < 9.2e18 => (*v as i64).hash(state),
            Value::Double(v) => v.to_bits().hash(state),
            Value::Str(s) => s.hash(state),
            Value::Timestamp(t) => t.hash(state),
            Value::Struct(f) => f.hash(state),
            Value::Binary(b) => b.hash(state),
            Value::Date(d) => d.hash(state),
            Value::Array(a) => a.hash(state),
            Value::Map(m) => m.hash(state),
        }
    }
}

impl fmt::Display for Value {
    /// Spark's `show()`-like text: `NULL`, numbers, strings unquoted, timestamps in ISO-8601
    /// UTC, windows as `{start, end}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Long(v) => write!(f, "{v}"),
            Value::Double(v) => f.write_str(&format_double(*v)),
            Value::Str(s) => f.write_str(s),
            Value::Timestamp(t) => f.write_str(&format_timestamp_us(*t)),
            // Spark's show(): `[7B 22 6F ...]`.
            Value::Binary(b) => {
                f.write_str("[")?;
                for (i, byte) in b.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{byte:02X}")?;
                }
                f.write_str("]")
            }
            Value::Date(d) => match chrono::DateTime::from_timestamp(i64::from(*d) * 86_400, 0) {
                Some(dt) => write!(f, "{}", dt.format("%Y-%m-%d")),
                None => write!(f, "{d}d"),
            },
            Value::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            // Spark's text of a map: `{a -> 1, b -> 2}`.
            Value::Map(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k} -> {v}")?;
                }
                f.write_str("}")
            }
            Value::Struct(fields) => {
                f.write_str("{")?;
                for (i, v) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A double as JSON/Python prints it: shortest round-trip text, always with a fraction
/// (`60.0`, `21.166666666666668`).
pub fn format_double(v: f64) -> String {
    if v.is_finite() && v == v.trunc() && v.abs() < 1e16 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    fn hash_of(v: &Value) -> u64 {
        // A fixed-key hasher, so two calls are comparable.
        std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(v)
    }

    #[test]
    fn equal_values_hash_alike() {
        // Numbers compare by value, so 1, 1L and 1.0 are one key; they must hash alike.
        let (i, l, d) = (Value::Int(1), Value::Long(1), Value::Double(1.0));
        assert_eq!(l, d);
        assert_eq!(i, l);
        assert_eq!(hash_of(&i), hash_of(&l));
        assert_eq!(hash_of(&l), hash_of(&d));
        assert_ne!(Value::Double(1.5), Value::Long(1));
        let mut set = std::collections::HashSet::new();
        set.insert(Value::Long(7));
        assert!(set.contains(&Value::Double(7.0)));
    }
}
