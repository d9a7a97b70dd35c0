//! The scalar function table, family by family (the families of PySpark's API reference).
//! A row: Spark's name, the fewest and most arguments, which PySpark arguments name columns
//! when given a `str`, and the result-type rule. Aliases (`substr`, `ifnull`, `day`) are rows
//! of their own.

use super::rules as r;
use super::{ColArgs, FunctionDef, Ty, TypeRule};

const fn f(name: &'static str, min_args: usize, max_args: usize, col_args: ColArgs, rule: TypeRule) -> FunctionDef {
    FunctionDef { name, min_args, max_args, col_args, rule }
}

const FIRST: ColArgs = ColArgs::Only(&[0]);
const NONE: ColArgs = ColArgs::Only(&[]);
const ALL: ColArgs = ColArgs::All;
const S: TypeRule = TypeRule::Fixed(Ty::String);
const I: TypeRule = TypeRule::Fixed(Ty::Int);
const L: TypeRule = TypeRule::Fixed(Ty::Long);
const TS: TypeRule = TypeRule::Fixed(Ty::Timestamp);
const NTZ: TypeRule = TypeRule::Fixed(Ty::TimestampNtz);
const DATE: TypeRule = TypeRule::Fixed(Ty::Date);
const B: TypeRule = TypeRule::Fixed(Ty::Boolean);
const D: TypeRule = TypeRule::Fixed(Ty::Double);
const BIN: TypeRule = TypeRule::Fixed(Ty::Binary);
const VOID: TypeRule = TypeRule::Fixed(Ty::Void);
const A0: TypeRule = TypeRule::Arg(0);
const V: usize = usize::MAX;

/// (family, its functions). The family names are PySpark's (`functions/__init__.py`).
pub static FAMILIES: &[(&str, &[FunctionDef])] = &[
    ("String Functions", STRINGS),
    ("Predicate Functions", PREDICATES),
    ("Mathematical Functions", MATH),
    ("Bitwise Functions", BITWISE),
    ("Conditional Functions", CONDITIONALS),
    ("Date and Timestamp Functions", DATETIME),
    ("Hash Functions", HASHES),
    ("Collection Functions", COLLECTIONS),
    ("Array Functions", ARRAYS),
    ("Struct Functions", STRUCTS),
    ("Map Functions", MAPS),
    ("Generator Functions", GENERATORS),
    ("JSON Functions", JSON),
    ("URL Functions", URLS),
    ("Misc Functions", MISC),
];

static STRINGS: &[FunctionDef] = &[
    f("upper", 1, 1, FIRST, S),
    f("ucase", 1, 1, FIRST, S),
    f("lower", 1, 1, FIRST, S),
    f("lcase", 1, 1, FIRST, S),
    f("length", 1, 1, FIRST, I),
    f("char_length", 1, 1, FIRST, I),
    f("character_length", 1, 1, FIRST, I),
    f("bit_length", 1, 1, FIRST, I),
    f("octet_length", 1, 1, FIRST, I),
    f("trim", 1, 2, FIRST, S),
    f("ltrim", 1, 2, FIRST, S),
    f("rtrim", 1, 2, FIRST, S),
    f("btrim", 1, 2, ALL, S),
    f("initcap", 1, 1, FIRST, S),
    f("concat_ws", 1, V, ColArgs::From(1), S),
    f("substring", 2, 3, FIRST, S),
    f("substr", 2, 3, ALL, S),
    f("left", 2, 2, ALL, S),
    f("right", 2, 2, ALL, S),
    f("split", 2, 3, FIRST, TypeRule::Fixed(Ty::StringArray)),
    f("split_part", 3, 3, ALL, S),
    f("substring_index", 3, 3, FIRST, S),
    f("regexp_extract", 2, 3, FIRST, S),
    f("regexp_extract_all", 2, 3, ALL, TypeRule::Fixed(Ty::StringArray)),
    f("regexp_replace", 3, 4, FIRST, S),
    f("regexp_count", 2, 2, ALL, I),
    f("regexp_instr", 2, 3, ALL, I),
    f("regexp_substr", 2, 2, ALL, S),
    f("lpad", 2, 3, FIRST, S),
    f("rpad", 2, 3, FIRST, S),
    f("instr", 2, 2, FIRST, I),
    f("locate", 2, 3, ColArgs::Only(&[1]), I),
    f("position", 2, 3, ALL, I),
    f("repeat", 2, 2, FIRST, S),
    f("contains", 2, 2, ALL, B),
    f("startswith", 2, 2, ALL, B),
    f("endswith", 2, 2, ALL, B),
    f("ascii", 1, 1, FIRST, I),
    f("char", 1, 1, FIRST, S),
    f("chr", 1, 1, FIRST, S),
    f("base64", 1, 1, FIRST, S),
    f("unbase64", 1, 1, FIRST, BIN),
    f("encode", 2, 2, FIRST, BIN),
    f("decode", 2, 2, FIRST, S),
    f("elt", 2, V, ALL, S),
    f("find_in_set", 2, 2, ALL, I),
    f("format_number", 2, 2, FIRST, S),
    f("format_string", 1, V, ColArgs::From(1), S),
    f("printf", 1, V, ALL, S),
    f("levenshtein", 2, 3, ColArgs::Only(&[0, 1]), I),
    f("mask", 1, 5, ALL, S),
    f("overlay", 3, 4, ALL, S),
    f("replace", 2, 3, ALL, S),
    f("soundex", 1, 1, FIRST, S),
    f("translate", 3, 3, FIRST, S),
    f("quote", 1, 1, FIRST, S),
    f("space", 1, 1, FIRST, S),
    f("to_binary", 1, 2, ALL, BIN),
    f("try_to_binary", 1, 2, ALL, BIN),
    f("is_valid_utf8", 1, 1, FIRST, B),
    f("make_valid_utf8", 1, 1, FIRST, S),
    f("validate_utf8", 1, 1, FIRST, S),
    f("try_validate_utf8", 1, 1, FIRST, S),
];

static PREDICATES: &[FunctionDef] = &[
    f("like", 2, 2, FIRST, B),
    f("ilike", 2, 2, FIRST, B),
    f("rlike", 2, 2, FIRST, B),
    f("regexp", 2, 2, ALL, B),
    f("regexp_like", 2, 2, ALL, B),
    f("isnan", 1, 1, FIRST, B),
    f("equal_null", 2, 2, ALL, B),
    // `x IN (a, b)` / `isin`, printed as Spark does.
    f("in", 2, V, ALL, B),
];

static MATH: &[FunctionDef] = &[
    f("abs", 1, 1, FIRST, TypeRule::Numeric(0)),
    f("negative", 1, 1, FIRST, TypeRule::Numeric(0)),
    f("negate", 1, 1, FIRST, TypeRule::Numeric(0)),
    f("positive", 1, 1, FIRST, TypeRule::Numeric(0)),
    f("round", 1, 2, FIRST, A0),
    f("bround", 1, 2, FIRST, A0),
    f("rint", 1, 1, FIRST, D),
    f("ceil", 1, 2, FIRST, TypeRule::Of(r::ceil_floor)),
    f("ceiling", 1, 2, FIRST, TypeRule::Of(r::ceil_floor)),
    f("floor", 1, 2, FIRST, TypeRule::Of(r::ceil_floor)),
    f("greatest", 2, V, ALL, TypeRule::Wider(0)),
    f("least", 2, V, ALL, TypeRule::Wider(0)),
    f("sqrt", 1, 1, FIRST, D),
    f("cbrt", 1, 1, FIRST, D),
    f("exp", 1, 1, FIRST, D),
    f("expm1", 1, 1, FIRST, D),
    f("ln", 1, 1, FIRST, D),
    f("log", 1, 2, ALL, D),
    f("log10", 1, 1, FIRST, D),
    f("log1p", 1, 1, FIRST, D),
    f("log2", 1, 1, FIRST, D),
    f("pow", 2, 2, ALL, D),
    f("power", 2, 2, ALL, D),
    f("signum", 1, 1, FIRST, D),
    f("sign", 1, 1, FIRST, D),
    f("sin", 1, 1, FIRST, D),
    f("cos", 1, 1, FIRST, D),
    f("tan", 1, 1, FIRST, D),
    f("asin", 1, 1, FIRST, D),
    f("acos", 1, 1, FIRST, D),
    f("atan", 1, 1, FIRST, D),
    f("atan2", 2, 2, ALL, D),
    f("sinh", 1, 1, FIRST, D),
    f("cosh", 1, 1, FIRST, D),
    f("tanh", 1, 1, FIRST, D),
    f("asinh", 1, 1, FIRST, D),
    f("acosh", 1, 1, FIRST, D),
    f("atanh", 1, 1, FIRST, D),
    f("cot", 1, 1, FIRST, D),
    f("csc", 1, 1, FIRST, D),
    f("sec", 1, 1, FIRST, D),
    f("degrees", 1, 1, FIRST, D),
    f("radians", 1, 1, FIRST, D),
    f("hypot", 2, 2, ALL, D),
    f("e", 0, 0, NONE, D),
    f("pi", 0, 0, NONE, D),
    f("factorial", 1, 1, FIRST, L),
    f("pmod", 2, 2, ALL, TypeRule::Wider(0)),
    f("bin", 1, 1, FIRST, S),
    f("hex", 1, 1, FIRST, S),
    f("unhex", 1, 1, FIRST, BIN),
    f("conv", 3, 3, FIRST, S),
    f("width_bucket", 4, 4, ALL, L),
    f("try_add", 2, 2, ALL, TypeRule::Of(r::try_arithmetic)),
    f("try_subtract", 2, 2, ALL, TypeRule::Of(r::try_arithmetic)),
    f("try_multiply", 2, 2, ALL, TypeRule::Of(r::try_arithmetic)),
    f("try_divide", 2, 2, ALL, D),
    f("try_mod", 2, 2, ALL, TypeRule::Of(r::try_arithmetic)),
];

static BITWISE: &[FunctionDef] = &[
    f("bit_count", 1, 1, FIRST, I),
    f("bitwise_not", 1, 1, FIRST, TypeRule::Of(r::integral0)),
    f("shiftleft", 2, 2, FIRST, TypeRule::Of(r::integral0)),
    f("shiftright", 2, 2, FIRST, TypeRule::Of(r::integral0)),
    f("shiftrightunsigned", 2, 2, FIRST, TypeRule::Of(r::integral0)),
];

static CONDITIONALS: &[FunctionDef] = &[
    f("coalesce", 1, V, ALL, TypeRule::Wider(0)),
    f("nvl", 2, 2, ALL, TypeRule::Wider(0)),
    f("ifnull", 2, 2, ALL, TypeRule::Wider(0)),
    f("nvl2", 3, 3, ALL, TypeRule::Wider(1)),
    f("if", 3, 3, ALL, TypeRule::Wider(1)),
    f("nullif", 2, 2, ALL, A0),
    f("nanvl", 2, 2, ALL, D),
    f("nullifzero", 1, 1, FIRST, A0),
    f("zeroifnull", 1, 1, FIRST, TypeRule::Of(r::zeroifnull)),
];

static DATETIME: &[FunctionDef] = &[
    f("date_format", 2, 2, FIRST, S),
    f("to_date", 1, 2, FIRST, DATE),
    f("try_to_date", 1, 2, FIRST, DATE),
    f("to_timestamp", 1, 2, FIRST, TS),
    f("try_to_timestamp", 1, 2, ALL, TS),
    f("to_timestamp_ltz", 1, 2, ALL, TS),
    f("to_timestamp_ntz", 1, 2, ALL, NTZ),
    f("unix_timestamp", 0, 2, FIRST, L),
    f("to_unix_timestamp", 1, 2, ALL, L),
    f("from_unixtime", 1, 2, FIRST, S),
    f("timestamp_seconds", 1, 1, FIRST, TS),
    f("timestamp_millis", 1, 1, FIRST, TS),
    f("timestamp_micros", 1, 1, FIRST, TS),
    f("unix_seconds", 1, 1, FIRST, L),
    f("unix_millis", 1, 1, FIRST, L),
    f("unix_micros", 1, 1, FIRST, L),
    f("unix_date", 1, 1, FIRST, I),
    f("date_from_unix_date", 1, 1, FIRST, DATE),
    f("date_trunc", 2, 2, ColArgs::Only(&[1]), TS),
    f("trunc", 2, 2, FIRST, DATE),
    f("year", 1, 1, FIRST, I),
    f("quarter", 1, 1, FIRST, I),
    f("month", 1, 1, FIRST, I),
    f("dayofmonth", 1, 1, FIRST, I),
    f("day", 1, 1, FIRST, I),
    f("dayofweek", 1, 1, FIRST, I),
    f("weekday", 1, 1, FIRST, I),
    f("dayofyear", 1, 1, FIRST, I),
    f("weekofyear", 1, 1, FIRST, I),
    f("hour", 1, 1, FIRST, I),
    f("minute", 1, 1, FIRST, I),
    f("second", 1, 1, FIRST, I),
    f("dayname", 1, 1, FIRST, S),
    f("monthname", 1, 1, FIRST, S),
    f("date_add", 2, 2, FIRST, DATE),
    f("dateadd", 2, 2, FIRST, DATE),
    f("date_sub", 2, 2, FIRST, DATE),
    f("datediff", 2, 2, ALL, I),
    f("date_diff", 2, 2, ALL, I),
    f("add_months", 2, 2, FIRST, DATE),
    f("months_between", 2, 3, ColArgs::Only(&[0, 1]), D),
    f("last_day", 1, 1, FIRST, DATE),
    f("next_day", 2, 2, FIRST, DATE),
    f("make_date", 3, 3, ALL, DATE),
    f("make_timestamp", 6, 7, ALL, TS),
    f("make_timestamp_ltz", 6, 7, ALL, TS),
    f("make_timestamp_ntz", 6, 6, ALL, NTZ),
    f("try_make_timestamp", 6, 7, ALL, TS),
    f("try_make_timestamp_ltz", 6, 7, ALL, TS),
    f("try_make_timestamp_ntz", 6, 6, ALL, NTZ),
    f("from_utc_timestamp", 2, 2, FIRST, TS),
    f("to_utc_timestamp", 2, 2, FIRST, TS),
    f("convert_timezone", 2, 3, ALL, NTZ),
    f("timestamp_add", 3, 3, ColArgs::Only(&[1, 2]), TS),
    f("timestamp_diff", 3, 3, ColArgs::Only(&[1, 2]), L),
    // SQL's spelling, with the unit a keyword (`timestampadd(HOUR, 1, ts)`).
    f("timestampadd", 3, 3, ColArgs::Only(&[1, 2]), TS),
    f("timestampdiff", 3, 3, ColArgs::Only(&[1, 2]), L),
    f("date_part", 2, 2, ALL, TypeRule::Of(r::date_part)),
    f("datepart", 2, 2, ALL, TypeRule::Of(r::date_part)),
    f("extract", 2, 2, ALL, TypeRule::Of(r::date_part)),
    f("current_date", 0, 0, NONE, DATE),
    f("curdate", 0, 0, NONE, DATE),
    f("current_timestamp", 0, 0, NONE, TS),
    f("now", 0, 0, NONE, TS),
    f("localtimestamp", 0, 0, NONE, NTZ),
    f("current_timezone", 0, 0, NONE, S),
];

static HASHES: &[FunctionDef] = &[
    f("md5", 1, 1, FIRST, S),
    f("sha1", 1, 1, FIRST, S),
    f("sha", 1, 1, FIRST, S),
    f("sha2", 2, 2, FIRST, S),
    f("crc32", 1, 1, FIRST, L),
    f("hash", 1, V, ALL, I),
    f("xxhash64", 1, V, ALL, L),
];

static COLLECTIONS: &[FunctionDef] = &[
    f("size", 1, 1, FIRST, I),
    f("cardinality", 1, 1, FIRST, I),
    f("concat", 1, V, ALL, TypeRule::Of(r::concat)),
    f("reverse", 1, 1, FIRST, TypeRule::SameArray(0)),
    f("array_sort", 1, 2, FIRST, TypeRule::SameArray(0)),
    f("element_at", 2, 2, FIRST, TypeRule::Of(r::element_at)),
    f("try_element_at", 2, 2, ALL, TypeRule::Of(r::element_at)),
    // Higher-order functions: typed with their lambda in `analysis::resolve`.
    f("transform", 2, 2, FIRST, A0),
    f("filter", 2, 2, FIRST, A0),
    f("exists", 2, 2, FIRST, B),
    f("forall", 2, 2, FIRST, B),
    f("aggregate", 3, 4, ColArgs::Only(&[0, 1]), A0),
    f("reduce", 3, 4, ColArgs::Only(&[0, 1]), A0),
    f("zip_with", 3, 3, ColArgs::Only(&[0, 1]), A0),
    f("map_filter", 2, 2, FIRST, A0),
    f("map_zip_with", 3, 3, ColArgs::Only(&[0, 1]), A0),
    f("transform_keys", 2, 2, FIRST, A0),
    f("transform_values", 2, 2, FIRST, A0),
];

static ARRAYS: &[FunctionDef] = &[
    f("array", 0, V, ALL, TypeRule::WiderArray),
    f("array_contains", 2, 2, FIRST, B),
    f("array_append", 2, 2, ALL, TypeRule::Of(r::array_with_element)),
    f("array_prepend", 2, 2, ALL, TypeRule::Of(r::array_with_element)),
    f("array_insert", 3, 3, ALL, TypeRule::Of(r::array_insert)),
    f("array_remove", 2, 2, FIRST, TypeRule::SameArray(0)),
    f("array_compact", 1, 1, FIRST, TypeRule::SameArray(0)),
    f("array_distinct", 1, 1, FIRST, TypeRule::SameArray(0)),
    f("array_union", 2, 2, ALL, TypeRule::Of(r::array_pair)),
    f("array_intersect", 2, 2, ALL, TypeRule::Of(r::array_pair)),
    f("array_except", 2, 2, ALL, TypeRule::Of(r::array_pair)),
    f("arrays_overlap", 2, 2, ALL, B),
    f("array_join", 2, 3, FIRST, S),
    f("array_max", 1, 1, FIRST, TypeRule::Element(0)),
    f("array_min", 1, 1, FIRST, TypeRule::Element(0)),
    f("array_position", 2, 2, FIRST, L),
    f("array_repeat", 2, 2, ALL, TypeRule::Of(r::array_of0)),
    f("array_size", 1, 1, FIRST, I),
    f("sort_array", 1, 2, FIRST, TypeRule::SameArray(0)),
    f("slice", 3, 3, ALL, TypeRule::SameArray(0)),
    f("flatten", 1, 1, FIRST, TypeRule::Of(r::flatten)),
    f("sequence", 2, 3, ALL, TypeRule::Of(r::sequence)),
    f("get", 2, 2, ALL, TypeRule::Element(0)),
    // `arrays_zip` is typed in `analysis::resolve` (its fields are named after its arguments).
    f("arrays_zip", 1, V, ALL, A0),
    f("get_item", 2, 2, FIRST, TypeRule::Of(r::element_at)),
];

static STRUCTS: &[FunctionDef] = &[
    // Typed in `analysis::resolve`: the field names come from the arguments.
    f("struct", 1, V, ALL, A0),
    f("named_struct", 2, V, ALL, A0),
    f("get_field", 2, 2, FIRST, A0),
];

static MAPS: &[FunctionDef] = &[
    f("map", 0, V, ALL, TypeRule::Of(r::create_map)),
    f("create_map", 0, V, ALL, TypeRule::Of(r::create_map)),
    f("map_keys", 1, 1, FIRST, TypeRule::Of(r::map_keys)),
    f("map_values", 1, 1, FIRST, TypeRule::Of(r::map_values)),
    f("map_entries", 1, 1, FIRST, TypeRule::Of(r::map_entries)),
    f("map_from_arrays", 2, 2, ALL, TypeRule::Of(r::map_from_arrays)),
    f("map_from_entries", 1, 1, FIRST, TypeRule::Of(r::map_from_entries)),
    f("map_concat", 1, V, ALL, TypeRule::Of(r::map_concat)),
    f("map_contains_key", 2, 2, FIRST, B),
    f("str_to_map", 1, 3, ALL, TypeRule::Fixed(Ty::StringMap)),
];

static GENERATORS: &[FunctionDef] = &[
    // One output row per element, only at the top of a select (`Generate`).
    f("explode", 1, 1, FIRST, TypeRule::Element(0)),
    f("explode_outer", 1, 1, FIRST, TypeRule::Element(0)),
    f("posexplode", 1, 1, FIRST, TypeRule::Element(0)),
    f("posexplode_outer", 1, 1, FIRST, TypeRule::Element(0)),
];

static JSON: &[FunctionDef] = &[
    // Typed in `analysis::resolve`: the schema is the second argument.
    f("from_json", 2, 3, FIRST, A0),
    f("to_json", 1, 2, FIRST, S),
    f("get_json_object", 2, 2, FIRST, S),
    f("json_array_length", 1, 1, FIRST, I),
    f("json_object_keys", 1, 1, FIRST, TypeRule::Fixed(Ty::StringArray)),
    f("schema_of_json", 1, 2, NONE, S),
];

static URLS: &[FunctionDef] = &[
    f("parse_url", 2, 3, ALL, S),
    f("try_parse_url", 2, 3, ALL, S),
    f("url_encode", 1, 1, FIRST, S),
    f("url_decode", 1, 1, FIRST, S),
    f("try_url_decode", 1, 1, FIRST, S),
];

static MISC: &[FunctionDef] = &[
    f("typeof", 1, 1, FIRST, S),
    f("assert_true", 1, 2, ALL, VOID),
    f("raise_error", 1, 1, ALL, VOID),
];
