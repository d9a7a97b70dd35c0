//! SQL expression strings (`filter("post_id > 0")`, `F.expr(...)`, `selectExpr(...)`) read
//! with `sqlparser` ([`super::sql_dialect`], Spark's dialect with Spark 4.3's interval
//! literals) and turned into [`Expr`]. The SQL-only syntax becomes the function Spark's
//! `AstBuilder` builds: `TRIM(BOTH x FROM s)` is `trim(s, x)`, `POSITION(a IN b)` is
//! `locate(a, b, 1)`, `SUBSTRING(s FROM a FOR b)` is `substring(s, a, b)`,
//! `EXTRACT(f FROM t)` is `extract(f, t)`, `e.field` on any expression is `get_field`.

use sqlparser::ast::{
    self, BinaryOperator, CastKind, FunctionArg, FunctionArgExpr, FunctionArguments, SelectItem, UnaryOperator,
};
use sqlparser::dialect::SparkSqlDialect;

use super::sql_dialect::{parse_with, SyntaxError};
use super::{ParseError, Span};
use crate::error::{AnalysisError, Error, Stage};
use crate::plan::{BinOp, Expr};
use crate::types::{CalendarInterval, DataType, Value};

/// Parses one SQL expression. `span` is where the string sits in the query text, for errors.
///
/// # Errors
/// [`Error::Parse`] over `span` with Spark's syntax-error wording, or naming an unsupported
/// construct; [`Error::Analysis`] for a bad `window(...)` or interval argument.
pub fn parse_sql_expr(sql: &str, span: Span) -> Result<Expr, Error> {
    check_sql_nesting(sql, span)?;
    let (e, _) = parse_with(sql, |p| p.parse_expr()).map_err(|e| sql_error(sql, &e, span))?;
    convert(&e, span)
}

/// Parses one `selectExpr` item: an expression with an optional `AS alias`.
///
/// # Errors
/// As [`parse_sql_expr`].
pub fn parse_select_item(sql: &str, span: Span) -> Result<Expr, Error> {
    check_sql_nesting(sql, span)?;
    let (item, _) = parse_with(sql, |p| p.parse_select_item()).map_err(|e| sql_error(sql, &e, span))?;
    match item {
        SelectItem::UnnamedExpr(e) => convert(&e, span),
        SelectItem::ExprWithAlias { expr, alias } => Ok(Expr::Alias(Box::new(convert(&expr, span)?), alias.value)),
        SelectItem::Wildcard(_) => Ok(Expr::Star),
        // `selectExpr("o.*")`: the fields of struct `o` (or the columns of relation `o`).
        SelectItem::QualifiedWildcard(ast::SelectItemQualifiedWildcardKind::ObjectName(name), _) => Ok(Expr::Column(format!("{}.*", object_name(&name)))),
        other => Err(ParseError::new(format!("'{other}' is not supported in selectExpr"), span).into()),
    }
}

/// `a.b.c` as written, without quotes.
pub(super) fn object_name(name: &ast::ObjectName) -> String {
    name.0.iter().map(|p| p.as_ident().map_or_else(|| p.to_string(), |i| i.value.clone())).collect::<Vec<_>>().join(".")
}

/// Refuses SQL text that could build an expression tree deeper than the Python parser's
/// [`super::python::MAX_DEPTH`]. sqlparser bounds its own recursion (50 nested brackets) but
/// builds a chain such as `a + 1 + 1 + ...` in a loop, as deep as it is long; converting and
/// dropping such a tree recurses once per operator. Every operator, keyword operator and
/// bracket can add one level, so their count bounds the depth.
pub(super) fn check_sql_nesting(sql: &str, span: Span) -> Result<(), ParseError> {
    use sqlparser::keywords::Keyword;
    use sqlparser::tokenizer::{Token, Tokenizer};
    let Ok(tokens) = Tokenizer::new(&SparkSqlDialect {}, sql).tokenize() else {
        return Ok(()); // the parser reports the bad token with its own message
    };
    let levels = tokens
        .iter()
        .filter(|t| match t {
            Token::Whitespace(_) | Token::Comma | Token::RParen | Token::Number(..) | Token::SingleQuotedString(_) | Token::DoubleQuotedString(_) | Token::EOF => false,
            Token::Word(w) => matches!(
                w.keyword,
                Keyword::AND | Keyword::OR | Keyword::NOT | Keyword::IS | Keyword::IN | Keyword::LIKE | Keyword::RLIKE | Keyword::REGEXP | Keyword::BETWEEN | Keyword::CASE | Keyword::WHEN | Keyword::CAST | Keyword::INTERVAL
            ),
            _ => true,
        })
        .count();
    let max = super::python::MAX_DEPTH;
    if levels > max {
        return Err(ParseError::new(
            format!("the SQL text \"{}…\" has {levels} operators and brackets; Streamlab reads SQL expressions with up to {max}", sql.chars().take(40).collect::<String>()),
            span,
        ));
    }
    Ok(())
}

fn sql_error(sql: &str, e: &SyntaxError, span: Span) -> ParseError {
    ParseError::new(format!("[PARSE_SYNTAX_ERROR] in the SQL text \"{sql}\": {}", e.message), span)
}

pub(super) fn unsupported(what: &str, span: Span) -> ParseError {
    ParseError::not_modelled(format!("SQL: {what}"), format!("{what} is not supported in Streamlab's SQL expressions"), span)
}

/// One sqlparser expression as an [`Expr`]; `span` (the SQL string in the query text) is
/// where errors point.
///
/// # Errors
/// [`Error::Parse`] naming a construct Streamlab does not read, or a bad literal;
/// [`Error::Analysis`] for a `window(...)` argument Spark refuses.
pub(super) fn convert(e: &ast::Expr, span: Span) -> Result<Expr, Error> {
    use ast::Expr as S;
    Ok(match e {
        S::Identifier(id) => Expr::Column(id.value.clone()),
        // `c.post_id` (a relation or alias qualifier) or `window.start` (a struct field):
        // resolved against the input's qualifiers and struct columns.
        S::CompoundIdentifier(ids) => Expr::Column(ids.iter().map(|i| i.value.clone()).collect::<Vec<_>>().join(".")),
        S::Value(v) => Expr::Literal(convert_value(&v.value, span)?),
        S::Nested(inner) => convert(inner, span)?,
        // `a || b` is `concat(a, b)` (Spark's parser builds `Concat(Seq(a, b))`).
        S::BinaryOp { left, op: BinaryOperator::StringConcat, right } => {
            Expr::Function("concat".into(), vec![convert(left, span)?, convert(right, span)?])
        }
        S::BinaryOp { left, op, right } => {
            let op = match op {
                BinaryOperator::Plus => BinOp::Add,
                BinaryOperator::Minus => BinOp::Sub,
                BinaryOperator::Multiply => BinOp::Mul,
                BinaryOperator::Divide => BinOp::Div,
                BinaryOperator::Modulo => BinOp::Mod,
                BinaryOperator::Eq => BinOp::Eq,
                BinaryOperator::NotEq => BinOp::NotEq,
                BinaryOperator::Spaceship => BinOp::EqNullSafe,
                BinaryOperator::Lt => BinOp::Lt,
                BinaryOperator::LtEq => BinOp::LtEq,
                BinaryOperator::Gt => BinOp::Gt,
                BinaryOperator::GtEq => BinOp::GtEq,
                BinaryOperator::And => BinOp::And,
                BinaryOperator::Or => BinOp::Or,
                other => return Err(unsupported(&format!("the operator {other}"), span).into()),
            };
            Expr::Binary(op, Box::new(convert(left, span)?), Box::new(convert(right, span)?))
        }
        S::UnaryOp { op, expr } => match op {
            UnaryOperator::Not => Expr::Not(Box::new(convert(expr, span)?)),
            UnaryOperator::Minus => match convert(expr, span)? {
                Expr::Literal(Value::Long(v)) => Expr::Literal(Value::Long(-v)),
                Expr::Literal(Value::Int(v)) => Expr::Literal(Value::Int(-v)),
                Expr::Literal(Value::Double(v)) => Expr::Literal(Value::Double(-v)),
                other => Expr::Negate(Box::new(other)),
            },
            UnaryOperator::Plus => convert(expr, span)?,
            other => return Err(unsupported(&format!("the operator {other}"), span).into()),
        },
        S::IsNull(inner) => Expr::IsNull(Box::new(convert(inner, span)?), false),
        S::IsNotNull(inner) => Expr::IsNull(Box::new(convert(inner, span)?), true),
        S::Like { negated, expr, pattern, escape_char: None, any: false }
        | S::ILike { negated, expr, pattern, escape_char: None, any: false }
        | S::RLike { negated, expr, pattern, .. } => {
            let name = match e {
                S::Like { .. } => "like",
                S::ILike { .. } => "ilike",
                _ => "rlike",
            };
            let call = Expr::Function(name.into(), vec![convert(expr, span)?, convert(pattern, span)?]);
            if *negated {
                Expr::Not(Box::new(call))
            } else {
                call
            }
        }
        S::Between { expr, negated, low, high } => {
            let x = convert(expr, span)?;
            let both = Expr::Binary(
                BinOp::And,
                Box::new(Expr::Binary(BinOp::GtEq, Box::new(x.clone()), Box::new(convert(low, span)?))),
                Box::new(Expr::Binary(BinOp::LtEq, Box::new(x), Box::new(convert(high, span)?))),
            );
            if *negated {
                Expr::Not(Box::new(both))
            } else {
                both
            }
        }
        S::In { expr, target: ast::InTarget::List(list), negated, .. } => {
            let mut args = vec![convert(expr, span)?];
            for item in list {
                args.push(convert(item, span)?);
            }
            if args.len() == 1 {
                return Err(unsupported("an empty IN list", span).into());
            }
            let any = Expr::Function("in".into(), args);
            if *negated {
                Expr::Not(Box::new(any))
            } else {
                any
            }
        }
        S::Cast { kind: CastKind::Cast | CastKind::DoubleColon, expr, data_type, .. } => match (convert(expr, span)?, convert_type(data_type, span)?) {
            // An interval literal as a string is its SQL text (`INTERVAL '01:30' MINUTE TO
            // SECOND`), as Spark casts an ANSI interval (ANSI style).
            (Expr::Alias(iv, text), DataType::Utf8) if matches!(*iv, Expr::Interval(_)) && text.starts_with("INTERVAL '") => Expr::Literal(Value::str(&text)),
            (inner, t) => Expr::Cast(Box::new(inner), t),
        },
        // `try_cast(x AS INT)`: a cast that gives NULL where the ANSI cast would fail the batch.
        S::Cast { kind: CastKind::TryCast, expr, data_type, .. } => Expr::Function("try_cast".into(), vec![Expr::Cast(Box::new(convert(expr, span)?), convert_type(data_type, span)?)]),
        S::Case { operand, conditions, else_result, .. } => {
            let operand = operand.as_ref().map(|o| convert(o, span)).transpose()?;
            let mut branches = Vec::new();
            for cw in conditions {
                let cond = convert(&cw.condition, span)?;
                let cond = match &operand {
                    Some(o) => Expr::Binary(BinOp::Eq, Box::new(o.clone()), Box::new(cond)),
                    None => cond,
                };
                branches.push((cond, convert(&cw.result, span)?));
            }
            let otherwise = else_result.as_ref().map(|e| convert(e, span).map(Box::new)).transpose()?;
            Expr::Case { branches, otherwise }
        }
        // An interval literal keeps Spark's SQL text for it (`INTERVAL '02' HOUR`, the ANSI
        // type's fields) as the name of its value.
        S::Interval(iv) => {
            let value = convert_interval(iv, span)?;
            match interval_fields(iv) {
                Some((start, end)) => Expr::Alias(Box::new(Expr::Interval(value)), crate::types::ansi_interval::ansi_text(&value, start, end)),
                None => Expr::Interval(value),
            }
        }
        S::Trim { trim_where, trim_what, expr, trim_characters: None } => {
            // `TRIM([BOTH|LEADING|TRAILING] [x] FROM s)`: `StringTrim(s, x)` / `StringTrimLeft` /
            // `StringTrimRight`; without `x`, spaces.
            let name = match trim_where {
                Some(ast::TrimWhereField::Leading) => "ltrim",
                Some(ast::TrimWhereField::Trailing) => "rtrim",
                Some(ast::TrimWhereField::Both) | None => "trim",
            };
            let mut args = vec![convert(expr, span)?];
            if let Some(what) = trim_what {
                // A trim string needs the two-argument `trim` of the function table.
                if crate::plan::functions::lookup(name).is_none_or(|d| d.max_args < 2) {
                    return Err(ParseError::not_modelled(format!("the function {name}(str, trimStr)"), format!("TRIM(... {what} FROM ...) with a trim string is not modelled yet"), span).into());
                }
                args.push(convert(what, span)?);
            }
            super::functions::scalar_function(name, args, span)?
        }
        // `POSITION(a IN b)`: `StringLocate(a, b, 1)`, named `locate(a, b, 1)`.
        S::Position { expr, r#in } => super::functions::scalar_function("locate", vec![convert(expr, span)?, convert(r#in, span)?, Expr::Literal(Value::Int(1))], span)?,
        // `SUBSTRING(s FROM a [FOR b])` / `SUBSTR(s, a[, b])`: `Substring(s, a, b)`; the length
        // defaults to `Integer.MAX_VALUE`, which Spark's column name shows.
        S::Substring { expr, substring_from, substring_for, shorthand, .. } => {
            let name = if *shorthand { "substr" } else { "substring" };
            let from = substring_from.as_ref().ok_or_else(|| ParseError::new("SUBSTRING needs a start position (FROM n)", span))?;
            let len = match substring_for {
                Some(l) => convert(l, span)?,
                None => Expr::Literal(Value::Int(i32::MAX)),
            };
            super::functions::scalar_function(name, vec![convert(expr, span)?, convert(from, span)?, len], span)?
        }
        // `EXTRACT(field FROM source)`: Spark's `Extract(field, source)`.
        S::Extract { field, expr, .. } => {
            let field = match field {
                ast::DateTimeField::Custom(id) => id.value.clone(),
                other => other.to_string(),
            };
            super::functions::scalar_function("extract", vec![Expr::Literal(Value::str(&field)), convert(expr, span)?], span)?
        }
        // `from_json(v, 'n INT').n`, `split(s, ',')[0]`, `m['k']`: a field or an element of
        // any expression's value (`UnresolvedExtractValue`).
        S::CompoundFieldAccess { root, access_chain } => {
            let mut out = convert(root, span)?;
            for access in access_chain {
                out = match access {
                    ast::AccessExpr::Dot(S::Identifier(field)) => Expr::Function("get_field".into(), vec![out, Expr::Literal(Value::str(&field.value))]),
                    // `ExtractValue` by the value's type: an array's element, a map's value.
                    ast::AccessExpr::Subscript(ast::Subscript::Index { index }) => Expr::Function("get_item".into(), vec![out, convert(index, span)?]),
                    other => return Err(unsupported(&format!("the access {other}"), span).into()),
                };
            }
            out
        }
        // `TIMESTAMP '2026-01-01 12:00:00'`, `DATE '2026-01-01'`: a typed literal.
        S::TypedString(ts) => {
            let text = match &ts.value.value {
                ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => s.clone(),
                other => return Err(unsupported(&format!("the literal {other}"), span).into()),
            };
            Expr::Cast(Box::new(Expr::Literal(Value::str(&text))), convert_type(&ts.data_type, span)?)
        }
        S::Function(f) => convert_function(f, span)?,
        S::Subquery(_) | S::Exists { .. } | S::In { target: ast::InTarget::Subquery(_), .. } => return Err(unsupported("a subquery expression", span).into()),
        S::Wildcard(_) => Expr::Star,
        // `x -> x + 1`, `(acc, x) -> acc + x`: a higher-order function's argument.
        S::Lambda(l) => {
            let params = match &l.params {
                ast::OneOrManyWithParens::One(p) => vec![p.name.value.clone()],
                ast::OneOrManyWithParens::Many(ps) => ps.iter().map(|p| p.name.value.clone()).collect(),
            };
            Expr::Lambda { params, body: Box::new(convert(&l.body, span)?) }
        }
        S::Ceil { expr, field } | S::Floor { expr, field } => {
            let name = if matches!(e, S::Ceil { .. }) { "ceil" } else { "floor" };
            let mut args = vec![convert(expr, span)?];
            match field {
                ast::CeilFloorKind::Scale(v) => args.push(Expr::Literal(convert_value(&v.value, span)?)),
                ast::CeilFloorKind::DateTimeField(ast::DateTimeField::NoDateTime) => {}
                ast::CeilFloorKind::DateTimeField(f) => return Err(unsupported(&format!("{name}(... TO {f})"), span).into()),
            }
            super::functions::scalar_function(name, args, span)?
        }
        S::Overlay { expr, overlay_what, overlay_from, overlay_for } => {
            let mut args = vec![convert(expr, span)?, convert(overlay_what, span)?, convert(overlay_from, span)?];
            if let Some(f) = overlay_for {
                args.push(convert(f, span)?);
            }
            super::functions::scalar_function("overlay", args, span)?
        }
        other => return Err(unsupported(&format!("'{other}'"), span).into()),
    })
}

fn convert_value(v: &ast::Value, span: Span) -> Result<Value, ParseError> {
    Ok(match v {
        // `1L`: a BIGINT literal.
        ast::Value::Number(n, true) => Value::Long(n.parse().map_err(|_| ParseError::new(format!("'{n}L' is not a BIGINT literal"), span))?),
        ast::Value::Number(n, _) => {
            let s = n.to_string();
            if let Ok(i) = s.parse::<i64>() {
                if i32::try_from(i).is_ok() {
                    Value::Int(i as i32)
                } else {
                    Value::Long(i)
                }
            } else {
                Value::Double(s.parse().map_err(|_| ParseError::new(format!("'{s}' is not a number"), span))?)
            }
        }
        ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => Value::str(s),
        ast::Value::Boolean(b) => Value::Bool(*b),
        ast::Value::Null => Value::Null,
        other => return Err(unsupported(&format!("the literal {other}"), span)),
    })
}

/// Reads a SQL type (`STRING`, `BIGINT`/`LONG`, `INT`, `DOUBLE`, `BOOLEAN`, `TIMESTAMP`,
/// `DATE`, `BINARY`, `ARRAY<t>`, `STRUCT<name: t, ...>`): the types the engine has. Spark's
/// other types (`FLOAT`, `DECIMAL(p, s)`, `SMALLINT`, ...) are reported as not modelled.
///
/// # Errors
/// [`ParseError`] naming the type.
pub fn convert_type(t: &ast::DataType, span: Span) -> Result<DataType, ParseError> {
    use ast::DataType as T;
    Ok(match t {
        T::String(_) | T::Text => DataType::Utf8,
        T::Int(_) | T::Integer(_) => DataType::Int32,
        T::BigInt(_) | T::Int64 => DataType::Int64,
        T::Double(_) | T::DoublePrecision | T::Float64 => DataType::Float64,
        T::Boolean | T::Bool => DataType::Boolean,
        T::Timestamp(_, ast::TimezoneInfo::None) => crate::types::timestamp_type(),
        T::Date => DataType::Date32,
        T::Binary(None) => DataType::Binary,
        T::Array(ast::ArrayElemTypeDef::AngleBracket(inner)) => crate::types::array_type(convert_type(inner, span)?),
        T::Struct(fields, _) => {
            let mut out = Vec::new();
            for f in fields {
                let name = f.field_name.as_ref().map(|n| n.value.clone()).ok_or_else(|| ParseError::new(format!("a field of {t} has no name"), span))?;
                out.push(arrow_schema::Field::new(name, convert_type(&f.field_type, span)?, true));
            }
            DataType::Struct(out.into())
        }
        // Any other name the engine's type table knows (`parse_type_name`), else a Spark type
        // Streamlab does not model.
        other => crate::types::parse_type_name(&other.to_string()).map_err(|_| unsupported(&format!("the type {other}"), span))?,
    })
}

fn convert_function(f: &ast::Function, span: Span) -> Result<Expr, Error> {
    let name = f.name.to_string().to_ascii_lowercase();
    // `timestampadd(HOUR, 2, ts)`, `timestampdiff(DAY, a, b)`: the unit is a keyword.
    if matches!(name.as_str(), "timestampadd" | "timestampdiff" | "timestamp_add" | "timestamp_diff" | "dateadd" | "datediff" | "date_add" | "date_diff") {
        if let FunctionArguments::List(list) = &f.args {
            if list.args.len() == 3 {
                if let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(ast::Expr::Identifier(unit)))) = list.args.first() {
                    let mut args = vec![Expr::Literal(Value::str(&unit.value.to_ascii_uppercase()))];
                    for a in &list.args[1..] {
                        match a {
                            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => args.push(convert(e, span)?),
                            other => return Err(unsupported(&format!("the argument {other}"), span).into()),
                        }
                    }
                    let spark = if name.contains("add") { "timestampadd" } else { "timestampdiff" };
                    return Ok(super::functions::scalar_function(spark, args, span)?);
                }
            }
        }
    }
    let (args, distinct) = match &f.args {
        FunctionArguments::None => (Vec::new(), false),
        FunctionArguments::List(list) => {
            let distinct = matches!(list.duplicate_treatment, Some(ast::DuplicateTreatment::Distinct));
            let mut args = Vec::new();
            for a in &list.args {
                match a {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => args.push(convert(e, span)?),
                    FunctionArg::Unnamed(FunctionArgExpr::Wildcard) => args.push(Expr::Star),
                    // `struct(c.*)`: the columns of relation `c` (or the fields of struct `c`).
                    FunctionArg::Unnamed(FunctionArgExpr::QualifiedWildcard(q)) => args.push(Expr::Column(format!("{}.*", object_name(q)))),
                    other => return Err(unsupported(&format!("the argument {other}"), span).into()),
                }
            }
            (args, distinct)
        }
        FunctionArguments::Subquery(_) => return Err(unsupported("a subquery", span).into()),
    };
    if let Some(over) = &f.over {
        return convert_over(&name, args, distinct, over, span);
    }
    match name.as_str() {
        "window" => {
            // Where the call starts, as Spark's legacy message says it (`line 1 pos 7`).
            let at = f.name.0.first().and_then(|p| p.as_ident()).map(|i| (i.span.start.line, i.span.start.column.saturating_sub(1)));
            return time_window(args, at, span);
        }
        "session_window" => {
            let [time, gap]: [Expr; 2] = args.try_into().map_err(|a: Vec<Expr>| ParseError::new(format!("session_window() takes a time column and a gap duration, got {} arguments", a.len()), span))?;
            // A gap string that is no interval gives NULL per row when the batch runs, as in
            // `F.session_window` (Spark casts it then).
            let gap = match gap {
                Expr::Literal(Value::Str(s)) => CalendarInterval::parse(&s).map_or_else(|_| Expr::Literal(Value::Str(s)), Expr::Interval),
                other => other,
            };
            return Ok(Expr::SessionWindow { time: Box::new(time), gap: Box::new(gap) });
        }
        _ => {}
    }
    if let Some(agg) = crate::plan::functions::build_aggregate(&name, args.clone(), distinct).map_err(|m| ParseError::new(m, span))? {
        return Ok(agg);
    }
    Ok(super::functions::scalar_function(&name, args, span)?)
}

/// `window(time, duration[, slide[, start]])` in SQL (`TimeWindow`): each length a string,
/// read as `F.window` reads its strings ([`super::args::window_arg_us`]), or a number of µs.
fn time_window(args: Vec<Expr>, at: Option<(u64, u64)>, span: Span) -> Result<Expr, Error> {
    if !(2..=4).contains(&args.len()) {
        return Err(ParseError::new(
            format!("[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `window` requires [2, 3, 4] parameters but the actual number is {}.", args.len()),
            span,
        )
        .into());
    }
    let mut it = args.into_iter();
    let time = it.next().expect("checked");
    let mut lengths = Vec::new();
    for a in it {
        lengths.push(match a {
            Expr::Literal(Value::Str(text)) => super::args::window_arg_us(&text, span)?,
            // A number is a length in µs (`TimeWindow.parseExpression`).
            Expr::Literal(Value::Int(n)) => i64::from(n),
            Expr::Literal(Value::Long(n)) => n,
            _ => {
                return Err(Error::Analysis(
                    crate::error::AnalysisError::new(
                        crate::error::Stage::Define,
                        "_LEGACY_ERROR_TEMP_1207",
                        format!("The duration and time inputs to window must be an integer, long or string literal.{}", at.map_or_else(String::new, |(line, pos)| format!("; line {line} pos {pos}"))),
                    )
                        .with_span(span)
                        .with_hint("write the window length as a string: window(event_time, '10 minutes')"),
                ))
            }
        });
    }
    let duration_us = lengths[0];
    let slide_us = lengths.get(1).copied().unwrap_or(duration_us);
    let start_us = lengths.get(2).copied().unwrap_or(0);
    Ok(Expr::TimeWindow { time: Box::new(time), duration_us, slide_us, start_us })
}

/// The ANSI interval type's fields (ranks in `YEAR, MONTH, DAY, HOUR, MINUTE, SECOND`) of a
/// literal: its two units, or its largest and smallest unit.
fn interval_fields(iv: &ast::Interval) -> Option<(usize, usize)> {
    use crate::types::ansi_interval::{literal_fields, unit_rank};
    let field = |f: &ast::DateTimeField| match f {
        ast::DateTimeField::Custom(id) => id.value.clone(),
        other => other.to_string(),
    };
    match (&iv.leading_field, &iv.last_field) {
        (Some(from), Some(to)) => Some((unit_rank(&field(from))?, unit_rank(&field(to))?)),
        (Some(unit), None) => literal_fields(&field(unit)),
        (None, _) => match &*iv.value {
            ast::Expr::Value(v) => match &v.value {
                ast::Value::SingleQuotedString(text) => literal_fields(text),
                _ => None,
            },
            _ => None,
        },
    }
}

/// An interval literal from [`super::sql_dialect`]: `'1:30' MINUTE TO SECOND` (its two units
/// kept), or the literal's text after `INTERVAL` (`'1 hour'`, `2 HOURS 30 MINUTES`), read as
/// Spark reads the whole literal (ANSI: a day-time literal counts µs, a year-month one
/// months; the two may not mix).
pub(super) fn convert_interval(iv: &ast::Interval, span: Span) -> Result<CalendarInterval, Error> {
    let ast::Expr::Value(v) = &*iv.value else {
        return Err(unsupported(&format!("the interval value {}", iv.value), span).into());
    };
    let (ast::Value::SingleQuotedString(text) | ast::Value::DoubleQuotedString(text) | ast::Value::Number(text, _)) = &v.value else {
        return Err(unsupported(&format!("the interval value {}", v.value), span).into());
    };
    let field = |f: &ast::DateTimeField| match f {
        ast::DateTimeField::Custom(id) => id.value.clone(),
        other => other.to_string(),
    };
    let literal = match (&iv.leading_field, &iv.last_field) {
        (Some(from), Some(to)) => {
            return CalendarInterval::from_unit_to_unit(text, &field(from), &field(to)).map_err(|e| match e.condition {
                Some(condition) => Error::Analysis(AnalysisError::new(Stage::Define, condition, e.message).with_sqlstate("22006").with_span(span)),
                // Spark's `ParseException` without a condition (`requirement failed: ...`).
                None => ParseError::new(format!("in INTERVAL '{text}' {} TO {}: {}", field(from), field(to), e.message), span).into(),
            });
        }
        (Some(unit), None) => format!("interval '{text}' {}", field(unit)),
        (None, _) => format!("interval {text}"),
    };
    CalendarInterval::parse(&literal).map_err(|e| ParseError::new(format!("in {literal}: {}", e.detail), span).into())
}

/// `f(...) OVER (PARTITION BY ... ORDER BY ... [frame])`: a window function
/// ([`Expr::Over`]); whether it may run is the analyzer's and the checker's business.
fn convert_over(name: &str, args: Vec<Expr>, distinct: bool, over: &ast::WindowType, span: Span) -> Result<Expr, Error> {
    let ast::WindowType::WindowSpec(spec) = over else {
        return Err(unsupported("a named window (OVER w)", span).into());
    };
    let func = match crate::plan::functions::build_aggregate(name, args.clone(), distinct).map_err(|m| ParseError::new(m, span))? {
        Some(agg) => agg,
        None if crate::plan::WINDOW_ONLY_FUNCTIONS.contains(&name) => Expr::Function(name.to_string(), args),
        None => return Err(unsupported(&format!("{name}(...) OVER (...)"), span).into()),
    };
    let partition = spec.partition_by.iter().map(|e| convert(e, span)).collect::<Result<Vec<_>, _>>()?;
    let mut order = Vec::new();
    for o in &spec.order_by {
        let asc = !matches!(o.options.sort, Some(ast::OrderBySort::Desc));
        order.push((convert(&o.expr, span)?, asc));
    }
    let frame = match &spec.window_frame {
        None => None,
        Some(fr) => {
            let bound = |b: &ast::WindowFrameBound| -> Result<crate::plan::FrameBound, Error> {
                use crate::plan::FrameBound;
                let n = |e: &ast::Expr| -> Result<i64, Error> {
                    match convert(e, span)? {
                    Expr::Literal(v) => v.as_i64().ok_or_else(|| unsupported(&format!("the frame bound {e}"), span).into()),
                    other => Err(unsupported(&format!("the frame bound {other}"), span).into()),
                    }
                };
                Ok(match b {
                    ast::WindowFrameBound::CurrentRow => FrameBound::CurrentRow,
                    ast::WindowFrameBound::Preceding(None) => FrameBound::UnboundedPreceding,
                    ast::WindowFrameBound::Following(None) => FrameBound::UnboundedFollowing,
                    ast::WindowFrameBound::Preceding(Some(e)) => FrameBound::Offset(-n(e)?),
                    ast::WindowFrameBound::Following(Some(e)) => FrameBound::Offset(n(e)?),
                })
            };
            let rows = match fr.units {
                ast::WindowFrameUnits::Rows => true,
                ast::WindowFrameUnits::Range => false,
                ast::WindowFrameUnits::Groups => return Err(unsupported("a GROUPS frame", span).into()),
            };
            let upper = fr.end_bound.as_ref().map_or(Ok(crate::plan::FrameBound::CurrentRow), bound)?;
            Some(crate::plan::WindowFrame { rows, lower: bound(&fr.start_bound)?, upper })
        }
    };
    Ok(Expr::Over(Box::new(crate::plan::WindowOver { func, partition, order, frame })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_comparisons_and_intervals() {
        let e = parse_sql_expr("order_time <= event_time + interval 15 minutes", Span::default()).unwrap();
        // Spark's text: `TimestampAddInterval` prints without brackets, the literal as its ANSI type.
        assert_eq!(e.to_string(), "(order_time <= event_time + INTERVAL '15' MINUTE)");
        let e = parse_sql_expr("post_id = 2 AND user_id IS NOT NULL", Span::default()).unwrap();
        assert_eq!(e.to_string(), "((post_id = 2) AND (user_id IS NOT NULL))");
    }

    #[test]
    fn select_items_keep_aliases() {
        let e = parse_select_item("upper(board) AS b", Span::default()).unwrap();
        assert_eq!(e.output_name(), "b");
    }

    #[test]
    fn interval_strings_need_no_unit() {
        // Spark accepts INTERVAL '1 hour' (SPARK-28424); the unit form works too.
        let e = parse_sql_expr("event_time - interval '1 hour' < order_time", Span::default()).unwrap();
        assert_eq!(e.to_string(), "(event_time - INTERVAL '01' HOUR < order_time)");
        let e = parse_sql_expr("event_time + interval 15 minutes", Span::default()).unwrap();
        assert_eq!(e.to_string(), "event_time + INTERVAL '15' MINUTE");
    }

    #[test]
    fn errors_cover_the_string() {
        let Error::Parse(e) = parse_sql_expr("post_id >", Span::new(10, 21)).unwrap_err() else { panic!("a parse error") };
        assert_eq!(e.span, Span::new(10, 21));
        // Spark: `[PARSE_SYNTAX_ERROR] Syntax error at or near end of input.`
        assert!(e.message.contains("post_id >") && e.message.contains("Syntax error at or near end of input."), "{}", e.message);
        assert!(parse_sql_expr("a b c", Span::default()).is_err());
    }
}
