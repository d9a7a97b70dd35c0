//! SQL expression strings (`filter("post_id > 0")`, `F.expr(...)`, `selectExpr(...)`) read
//! with `sqlparser`'s Spark SQL dialect and turned into [`Expr`].

use sqlparser::ast::{
    self, BinaryOperator, CastKind, FunctionArg, FunctionArgExpr, FunctionArguments, SelectItem, UnaryOperator,
};
use sqlparser::dialect::{Dialect, SparkSqlDialect};
use sqlparser::parser::{Parser, ParserError};

use super::{ParseError, Span};
use crate::plan::{BinOp, Expr};
use crate::types::{CalendarInterval, DataType, Value};

/// Parses one SQL expression. `span` is where the string sits in the query text, for errors.
///
/// # Errors
/// [`ParseError`] over `span` with sqlparser's message, or naming an unsupported construct.
pub fn parse_sql_expr(sql: &str, span: Span) -> Result<Expr, ParseError> {
    check_sql_nesting(sql, span)?;
    let e = with_dialects(sql, span, |p| p.parse_expr())?;
    convert(&e, span)
}

/// Spark SQL accepts `INTERVAL '1 hour'` without a unit after the string; sqlparser's Spark
/// dialect does not, so a text that fails only there is read again with the unit optional.
#[derive(Debug)]
struct SparkIntervalDialect;

impl Dialect for SparkIntervalDialect {
    fn is_identifier_start(&self, ch: char) -> bool {
        SparkSqlDialect {}.is_identifier_start(ch)
    }
    fn is_identifier_part(&self, ch: char) -> bool {
        SparkSqlDialect {}.is_identifier_part(ch)
    }
    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        SparkSqlDialect {}.is_delimited_identifier_start(ch)
    }
    fn require_interval_qualifier(&self) -> bool {
        false
    }
}

fn with_dialects<T>(sql: &str, span: Span, f: impl Fn(&mut Parser) -> Result<T, ParserError>) -> Result<T, ParseError> {
    let run = |dialect: &dyn Dialect| -> Result<T, String> {
        let mut parser = Parser::new(dialect).try_with_sql(sql).map_err(|e| e.to_string())?;
        let out = f(&mut parser).map_err(|e| e.to_string())?;
        let next = parser.peek_token();
        if next.token != sqlparser::tokenizer::Token::EOF {
            return Err(format!("unexpected '{}' after the expression", next.token));
        }
        Ok(out)
    };
    match run(&SparkSqlDialect {}) {
        Ok(v) => Ok(v),
        Err(first) if first.to_ascii_uppercase().contains("INTERVAL") => {
            run(&SparkIntervalDialect).map_err(|_| sql_error(sql, &first, span))
        }
        Err(first) => Err(sql_error(sql, &first, span)),
    }
}

/// Parses one `selectExpr` item: an expression with an optional `AS alias`.
///
/// # Errors
/// As [`parse_sql_expr`].
pub fn parse_select_item(sql: &str, span: Span) -> Result<Expr, ParseError> {
    check_sql_nesting(sql, span)?;
    let item = with_dialects(sql, span, |p| p.parse_select_item())?;
    match item {
        SelectItem::UnnamedExpr(e) => convert(&e, span),
        SelectItem::ExprWithAlias { expr, alias } => Ok(Expr::Alias(Box::new(convert(&expr, span)?), alias.value)),
        SelectItem::Wildcard(_) => Ok(Expr::Star),
        other => Err(ParseError::new(format!("'{other}' is not supported in selectExpr"), span)),
    }
}

/// Refuses SQL text that could build an expression tree deeper than the Python parser's
/// [`super::python::MAX_DEPTH`]. sqlparser bounds its own recursion (50 nested brackets) but
/// builds a chain such as `a + 1 + 1 + ...` in a loop, as deep as it is long; converting and
/// dropping such a tree recurses once per operator. Every operator, keyword operator and
/// bracket can add one level, so their count bounds the depth.
fn check_sql_nesting(sql: &str, span: Span) -> Result<(), ParseError> {
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

fn sql_error(sql: &str, message: &str, span: Span) -> ParseError {
    let message = message.trim_start_matches("sql parser error: ");
    ParseError::new(format!("in the SQL text \"{sql}\": {message}"), span)
}

fn unsupported(what: &str, span: Span) -> ParseError {
    ParseError::not_modelled(format!("SQL: {what}"), format!("{what} is not supported in Streamlab's SQL expressions"), span)
}

fn convert(e: &ast::Expr, span: Span) -> Result<Expr, ParseError> {
    use ast::Expr as S;
    Ok(match e {
        S::Identifier(id) => Expr::Column(id.value.clone()),
        // `c.post_id` (a relation or alias qualifier) or `window.start` (a struct field):
        // resolved against the input's qualifiers and struct columns.
        S::CompoundIdentifier(ids) => Expr::Column(ids.iter().map(|i| i.value.clone()).collect::<Vec<_>>().join(".")),
        S::Value(v) => Expr::Literal(convert_value(&v.value, span)?),
        S::Nested(inner) => convert(inner, span)?,
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
                other => return Err(unsupported(&format!("the operator {other}"), span)),
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
            other => return Err(unsupported(&format!("the operator {other}"), span)),
        },
        S::IsNull(inner) => Expr::IsNull(Box::new(convert(inner, span)?), false),
        S::IsNotNull(inner) => Expr::IsNull(Box::new(convert(inner, span)?), true),
        S::Like { negated, expr, pattern, escape_char: None, any: false } | S::RLike { negated, expr, pattern, .. } => {
            let name = if matches!(e, S::Like { .. }) { "like" } else { "rlike" };
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
                return Err(unsupported("an empty IN list", span));
            }
            let any = Expr::Function("in".into(), args);
            if *negated {
                Expr::Not(Box::new(any))
            } else {
                any
            }
        }
        S::Cast { kind: CastKind::Cast | CastKind::DoubleColon, expr, data_type, .. } => {
            Expr::Cast(Box::new(convert(expr, span)?), convert_type(data_type, span)?)
        }
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
        S::Interval(iv) => {
            let value = match &*iv.value {
                S::Value(v) => match &v.value {
                    ast::Value::Number(n, _) => n.to_string(),
                    ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => s.clone(),
                    other => return Err(unsupported(&format!("the interval value {other}"), span)),
                },
                other => return Err(unsupported(&format!("the interval value {other}"), span)),
            };
            let text = match &iv.leading_field {
                Some(f) => format!("{value} {f}"),
                None => value,
            };
            let ci = CalendarInterval::parse(&text).map_err(|e| ParseError::new(e.to_string(), span))?;
            Expr::Interval(ci)
        }
        S::Function(f) => convert_function(f, span)?,
        S::Wildcard(_) => Expr::Star,
        other => return Err(unsupported(&format!("'{other}'"), span)),
    })
}

fn convert_value(v: &ast::Value, span: Span) -> Result<Value, ParseError> {
    Ok(match v {
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

/// Reads a SQL type name (`STRING`, `BIGINT`, `INT`, `DOUBLE`, `BOOLEAN`, `TIMESTAMP`).
pub fn convert_type(t: &ast::DataType, span: Span) -> Result<DataType, ParseError> {
    crate::types::parse_type_name(&t.to_string()).map_err(|m| ParseError::new(m, span))
}

fn convert_function(f: &ast::Function, span: Span) -> Result<Expr, ParseError> {
    let name = f.name.to_string().to_ascii_lowercase();
    let (args, distinct) = match &f.args {
        FunctionArguments::None => (Vec::new(), false),
        FunctionArguments::List(list) => {
            let distinct = matches!(list.duplicate_treatment, Some(ast::DuplicateTreatment::Distinct));
            let mut args = Vec::new();
            for a in &list.args {
                match a {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => args.push(convert(e, span)?),
                    FunctionArg::Unnamed(FunctionArgExpr::Wildcard) => args.push(Expr::Star),
                    other => return Err(unsupported(&format!("the argument {other}"), span)),
                }
            }
            (args, distinct)
        }
        FunctionArguments::Subquery(_) => return Err(unsupported("a subquery", span)),
    };
    if let Some(over) = &f.over {
        return convert_over(&name, args, distinct, over, span);
    }
    if let Some(agg) = crate::plan::functions::build_aggregate(&name, args.clone(), distinct).map_err(|m| ParseError::new(m, span))? {
        return Ok(agg);
    }
    super::functions::scalar_function(&name, args, span)
}

/// `f(...) OVER (PARTITION BY ... ORDER BY ... [frame])`: a window function
/// ([`Expr::Over`]); whether it may run is the analyzer's and the checker's business.
fn convert_over(name: &str, args: Vec<Expr>, distinct: bool, over: &ast::WindowType, span: Span) -> Result<Expr, ParseError> {
    let ast::WindowType::WindowSpec(spec) = over else {
        return Err(unsupported("a named window (OVER w)", span));
    };
    let func = match crate::plan::functions::build_aggregate(name, args.clone(), distinct).map_err(|m| ParseError::new(m, span))? {
        Some(agg) => agg,
        None if crate::plan::WINDOW_ONLY_FUNCTIONS.contains(&name) => Expr::Function(name.to_string(), args),
        None => return Err(unsupported(&format!("{name}(...) OVER (...)"), span)),
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
            let bound = |b: &ast::WindowFrameBound| -> Result<crate::plan::FrameBound, ParseError> {
                use crate::plan::FrameBound;
                let n = |e: &ast::Expr| match convert(e, span)? {
                    Expr::Literal(v) => v.as_i64().ok_or_else(|| unsupported(&format!("the frame bound {e}"), span)),
                    other => Err(unsupported(&format!("the frame bound {other}"), span)),
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
                ast::WindowFrameUnits::Groups => return Err(unsupported("a GROUPS frame", span)),
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
        assert_eq!(e.to_string(), "(order_time <= (event_time + INTERVAL '15 minutes'))");
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
        assert_eq!(e.to_string(), "((event_time - INTERVAL '1 hour') < order_time)");
        let e = parse_sql_expr("event_time + interval 15 minutes", Span::default()).unwrap();
        assert_eq!(e.to_string(), "(event_time + INTERVAL '15 minutes')");
    }

    #[test]
    fn errors_cover_the_string() {
        let e = parse_sql_expr("post_id >", Span::new(10, 21)).unwrap_err();
        assert_eq!(e.span, Span::new(10, 21));
        assert!(e.message.contains("post_id >"), "{}", e.message);
        assert!(parse_sql_expr("a b c", Span::default()).is_err());
    }
}
