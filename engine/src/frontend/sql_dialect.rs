//! Spark SQL as sqlparser reads it: sqlparser's `SparkSqlDialect`, plus the forms Spark 4.3's
//! grammar (`SqlBaseParser.g4`) accepts that the dialect lacks, added through sqlparser's
//! [`Dialect`] hooks — never by rewriting the text:
//!
//! - interval literals as Spark writes them (`interval` rule and `INTERVAL stringLit`):
//!   `INTERVAL '1 hour'` (no unit), `INTERVAL 1 HOUR 30 MINUTES` (several value–unit pairs),
//!   `INTERVAL '1:30' MINUTE TO SECOND` (unit to unit), signs before a value;
//! - `struct(*)` / `struct(t.*)`: `STRUCT` is a function call, not a typed struct literal;
//! - `EXTRACT(field FROM source)` with any field name, `TRIM(LEADING FROM s)`;
//! - `exists(array, x -> ...)`: Spark's higher-order function, not `EXISTS (subquery)`;
//! - backslash escapes in string literals (`spark.sql.parser.escapedStringLiterals` off);
//! - the streaming `WATERMARK column DELAY OF interval` clause after a relation (Spark 4.1+:
//!   `relationPrimary ... watermarkClause? tableAlias`), read when sqlparser asks whether the
//!   word `WATERMARK` is the relation's alias.
//!
//! Syntax errors are turned into Spark's `PARSE_SYNTAX_ERROR` shape ("Syntax error at or
//! near 'X'.") by [`syntax_error`].

use std::cell::RefCell;

use sqlparser::ast::{self, Ident};
use sqlparser::dialect::{Dialect, SparkSqlDialect};
use sqlparser::keywords::{self, Keyword};
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Token};

/// A `WATERMARK column [AS name] DELAY OF interval [alias]` clause read after a relation.
/// sqlparser keeps the word `WATERMARK` as the relation's alias (at [`WatermarkClause::at`]);
/// the translator finds the clause by that position.
#[derive(Debug, Clone)]
pub struct WatermarkClause {
    /// Where the word `WATERMARK` starts.
    pub at: Location,
    /// The event-time expression (`namedExpression`: a column or an expression).
    pub column: ast::Expr,
    /// `AS name` after the expression, if written.
    pub column_alias: Option<Ident>,
    /// The `DELAY OF` interval literal.
    pub delay: ast::Expr,
    /// The relation's real alias, written after the clause.
    pub alias: Option<Ident>,
}

/// sqlparser's Spark dialect with Spark 4.3's interval literals, `struct(*)` and the
/// `WATERMARK` clause. Every other answer is `SparkSqlDialect`'s.
#[derive(Debug, Default)]
pub struct SparkDialect {
    watermarks: RefCell<Vec<WatermarkClause>>,
    /// Why the last `WATERMARK ...` clause could not be read (reported if the query fails).
    watermark_error: RefCell<Option<ParserError>>,
}

impl SparkDialect {
    /// The `WATERMARK` clauses read so far.
    pub fn watermarks(&self) -> Vec<WatermarkClause> {
        self.watermarks.borrow().clone()
    }
}

const SPARK: SparkSqlDialect = SparkSqlDialect {};

impl Dialect for SparkDialect {
    fn dialect(&self) -> std::any::TypeId {
        SPARK.dialect()
    }
    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        SPARK.is_delimited_identifier_start(ch)
    }
    fn identifier_quote_style(&self, identifier: &str) -> Option<char> {
        SPARK.identifier_quote_style(identifier)
    }
    fn is_identifier_start(&self, ch: char) -> bool {
        SPARK.is_identifier_start(ch)
    }
    fn is_identifier_part(&self, ch: char) -> bool {
        SPARK.is_identifier_part(ch)
    }
    fn supports_string_literal_column_alias(&self, explicit: bool) -> bool {
        SPARK.supports_string_literal_column_alias(explicit)
    }
    fn supports_string_literal_table_alias(&self, explicit: bool) -> bool {
        SPARK.supports_string_literal_table_alias(explicit)
    }
    fn supports_comparison_in_between_low_bound(&self) -> bool {
        SPARK.supports_comparison_in_between_low_bound()
    }
    fn supports_filter_during_aggregation(&self) -> bool {
        SPARK.supports_filter_during_aggregation()
    }
    fn supports_group_by_expr(&self) -> bool {
        SPARK.supports_group_by_expr()
    }
    fn supports_group_by_with_modifier(&self) -> bool {
        SPARK.supports_group_by_with_modifier()
    }
    fn supports_lambda_functions(&self) -> bool {
        SPARK.supports_lambda_functions()
    }
    /// Spark SQL reads `'\\d'` as `\d` (`spark.sql.parser.escapedStringLiterals` false).
    fn supports_string_literal_backslash_escape(&self) -> bool {
        true
    }
    fn supports_select_wildcard_except(&self) -> bool {
        SPARK.supports_select_wildcard_except()
    }
    /// `struct(a, b)` and `struct(*)` are calls of Spark's `struct` function (`CreateStruct`
    /// over `namedExpression`s, with `*` expanded), not typed `STRUCT<...>(...)` literals.
    fn supports_struct_literal(&self) -> bool {
        false
    }
    fn supports_nested_comments(&self) -> bool {
        SPARK.supports_nested_comments()
    }
    fn supports_long_type_as_bigint(&self) -> bool {
        SPARK.supports_long_type_as_bigint()
    }
    fn supports_values_as_table_factor(&self) -> bool {
        SPARK.supports_values_as_table_factor()
    }
    fn supports_bang_not_operator(&self) -> bool {
        SPARK.supports_bang_not_operator()
    }
    fn supports_select_item_multi_column_alias(&self) -> bool {
        SPARK.supports_select_item_multi_column_alias()
    }
    fn supports_cte_without_as(&self) -> bool {
        SPARK.supports_cte_without_as()
    }
    fn supports_map_literal_with_angle_brackets(&self) -> bool {
        SPARK.supports_map_literal_with_angle_brackets()
    }
    /// `EXTRACT(field FROM source)` takes any identifier as the field (`extract` rule:
    /// `field=identifier`); the function checks it.
    fn allow_extract_custom(&self) -> bool {
        true
    }
    fn parse_infix(&self, parser: &mut Parser, expr: &ast::Expr, precedence: u8) -> Option<Result<ast::Expr, ParserError>> {
        SPARK.parse_infix(parser, expr, precedence)
    }
    /// `INTERVAL ...`: read as Spark's grammar does (`parse_interval`);
    /// `TRIM(BOTH|LEADING|TRAILING FROM s)`: the side without a trim string.
    fn parse_prefix(&self, parser: &mut Parser) -> Option<Result<ast::Expr, ParserError>> {
        if parser.peek_keyword(Keyword::INTERVAL) {
            return Some(parse_interval(parser));
        }
        // `exists(array, x -> ...)` is Spark's higher-order function, not `EXISTS (subquery)`.
        let is_exists = matches!(&parser.peek_nth_token_ref(0).token, Token::Word(w) if w.keyword == Keyword::EXISTS);
        let call = parser.peek_nth_token_ref(1).token == Token::LParen && !matches!(&parser.peek_nth_token_ref(2).token, Token::Word(w) if matches!(w.keyword, Keyword::SELECT | Keyword::WITH));
        if is_exists && call {
            parser.next_token();
            return Some(parser.parse_function(ast::ObjectName::from(vec![Ident::new("exists")])));
        }
        let side = |t: &Token| match t {
            Token::Word(w) => match w.keyword {
                Keyword::BOTH => Some(ast::TrimWhereField::Both),
                Keyword::LEADING => Some(ast::TrimWhereField::Leading),
                Keyword::TRAILING => Some(ast::TrimWhereField::Trailing),
                _ => None,
            },
            _ => None,
        };
        let [trim, open, where_, from] = parser.peek_tokens::<4>();
        let is = |t: &Token, k: Keyword| matches!(t, Token::Word(w) if w.keyword == k);
        if !(is(&trim, Keyword::TRIM) && open == Token::LParen && is(&from, Keyword::FROM)) {
            return None;
        }
        let trim_where = side(&where_)?;
        Some((|| {
            for _ in 0..4 {
                parser.next_token();
            }
            let expr = parser.parse_expr()?;
            parser.expect_token(&Token::RParen)?;
            Ok(ast::Expr::Trim { trim_where: Some(trim_where), trim_what: None, expr: Box::new(expr), trim_characters: None })
        })())
    }
    /// The word `WATERMARK` after a relation starts Spark's watermark clause, not an alias:
    /// the clause is read here and kept ([`SparkDialect::watermarks`]).
    fn is_table_factor_alias(&self, explicit: bool, kw: &Keyword, parser: &mut Parser) -> bool {
        if !explicit {
            parser.prev_token();
            let word = parser.next_token();
            if let Token::Word(w) = &word.token {
                if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("WATERMARK") && !matches!(parser.peek_token_ref().token, Token::EOF | Token::RParen | Token::Comma) {
                    let start = parser.index();
                    return match parse_watermark_clause(parser, word.span.start) {
                        Ok(clause) => {
                            let mut all = self.watermarks.borrow_mut();
                            all.retain(|c| c.at != clause.at);
                            all.push(clause);
                            true
                        }
                        // Not a watermark clause: back to the word, which is then no alias
                        // either; the query fails there and this error is the one reported.
                        Err(e) => {
                            while parser.index() > start {
                                parser.prev_token();
                            }
                            *self.watermark_error.borrow_mut() = Some(e);
                            false
                        }
                    };
                }
            }
        }
        explicit || !keywords::RESERVED_FOR_TABLE_ALIAS.contains(kw)
    }
}

/// `WATERMARK namedExpression DELAY OF interval [[AS] alias]`, after the word `WATERMARK`.
fn parse_watermark_clause(parser: &mut Parser, at: Location) -> Result<WatermarkClause, ParserError> {
    let column = parser.parse_expr()?;
    // `AS name`, or a name alone (`namedExpression`), before `DELAY`.
    let named = parser.parse_keyword(Keyword::AS) || (!parser.peek_keyword(Keyword::DELAY) && matches!(parser.peek_token_ref().token, Token::Word(_)));
    let column_alias = if named { Some(parser.parse_identifier()?) } else { None };
    parser.expect_keyword_is(Keyword::DELAY)?;
    parser.expect_keyword_is(Keyword::OF)?;
    if !parser.peek_keyword(Keyword::INTERVAL) {
        let found = parser.peek_token();
        return Err(ParserError::ParserError(format!("missing 'INTERVAL', found: {}{}", found.token, found.span.start)));
    }
    let delay = parser.parse_prefix()?;
    let alias = if parser.parse_keyword(Keyword::AS) {
        Some(parser.parse_identifier()?)
    } else {
        match &parser.peek_token_ref().token {
            Token::Word(w) if w.quote_style.is_some() || !keywords::RESERVED_FOR_TABLE_ALIAS.contains(&w.keyword) => Some(parser.parse_identifier()?),
            _ => None,
        }
    };
    Ok(WatermarkClause { at, column, column_alias, delay, alias })
}

/// The units of Spark's `unitInMultiUnits` rule (singular and plural).
fn is_interval_unit(kw: Keyword) -> bool {
    use Keyword as K;
    matches!(
        kw,
        K::NANOSECOND | K::NANOSECONDS | K::MICROSECOND | K::MICROSECONDS | K::MILLISECOND | K::MILLISECONDS | K::SECOND | K::SECONDS | K::MINUTE | K::MINUTES | K::HOUR | K::HOURS | K::DAY | K::DAYS | K::WEEK | K::WEEKS | K::MONTH | K::MONTHS | K::YEAR | K::YEARS
    )
}

fn peek_unit(parser: &Parser) -> Option<String> {
    match &parser.peek_token_ref().token {
        Token::Word(w) if w.quote_style.is_none() && is_interval_unit(w.keyword) => Some(w.value.to_ascii_uppercase()),
        _ => None,
    }
}

/// Spark's interval literals (`interval` and `INTERVAL stringLit` in `SqlBaseParser.g4`):
///
/// - `INTERVAL 'text'`: the text holds values and units (`'1 hour 30 minutes'`);
/// - `INTERVAL v unit [v unit ...]` with `v` an optionally signed number or string;
/// - `INTERVAL v unit TO unit` (`'1:30' MINUTE TO SECOND`, `'1-2' YEAR TO MONTH`).
///
/// A unit-to-unit literal keeps its two units in `leading_field` / `last_field`; every other
/// form becomes one `Interval` whose value is the literal's text after `INTERVAL`
/// (`'2' HOUR`, `1 HOUR 30 MINUTES`), read later as Spark reads the whole literal.
fn parse_interval(parser: &mut Parser) -> Result<ast::Expr, ParserError> {
    parser.expect_keyword_is(Keyword::INTERVAL)?;
    let quote = |s: &str| format!("'{}'", s.replace('\'', "\\'"));
    let mut text = Vec::new();
    loop {
        let sign = parser.peek_token_ref().token.clone();
        let signed = matches!(sign, Token::Minus | Token::Plus);
        if signed {
            parser.next_token();
        }
        let negative = sign == Token::Minus;
        let token = parser.next_token();
        let (raw, written) = match &token.token {
            Token::Number(n, _) => (n.clone(), n.clone()),
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => {
                // `INTERVAL '1 hour'` (a typed literal: no unit after the string).
                if text.is_empty() && !negative && peek_unit(parser).is_none() {
                    return Ok(interval(quote(s), None, None));
                }
                (s.clone(), quote(s))
            }
            _ if text.is_empty() => {
                return Err(ParserError::ParserError(format!("Expected: an interval value, found: {}{}", token.token, token.span.start)));
            }
            _ => {
                // The literal ended before this token (and its sign).
                parser.prev_token();
                if signed {
                    parser.prev_token();
                }
                break;
            }
        };
        let Some(unit) = peek_unit(parser) else {
            let found = parser.peek_token();
            return Err(ParserError::ParserError(format!("Expected: an interval unit, found: {}{}", found.token, found.span.start)));
        };
        parser.next_token();
        if text.is_empty() && parser.parse_keyword(Keyword::TO) {
            let to = parser.next_token();
            let to_unit = match &to.token {
                Token::Word(w) if matches!(w.keyword, Keyword::SECOND | Keyword::MINUTE | Keyword::HOUR | Keyword::DAY | Keyword::MONTH | Keyword::YEAR) => w.value.to_ascii_uppercase(),
                _ => return Err(ParserError::ParserError(format!("Expected: SECOND, MINUTE, HOUR, DAY, MONTH or YEAR, found: {}{}", to.token, to.span.start))),
            };
            let field = |u: &str| ast::DateTimeField::Custom(Ident::new(u));
            let raw = if negative { format!("-{raw}") } else { raw };
            return Ok(interval(raw, Some(field(&unit)), Some(field(&to_unit))));
        }
        text.push(format!("{}{written} {unit}", if negative { "-" } else { "" }));
        // Another `value unit` pair follows (a sign belongs to it only if a value and a unit
        // come next: `INTERVAL 1 HOUR - 30 MINUTES`, not `INTERVAL 1 HOUR - x`).
        let value_at = |n: usize| matches!(parser.peek_nth_token(n).token, Token::Number(..) | Token::SingleQuotedString(_) | Token::DoubleQuotedString(_));
        let unit_at = |n: usize| matches!(&parser.peek_nth_token(n).token, Token::Word(w) if w.quote_style.is_none() && is_interval_unit(w.keyword));
        let more = (value_at(0) && unit_at(1)) || (matches!(parser.peek_token_ref().token, Token::Minus | Token::Plus) && value_at(1) && unit_at(2));
        if !more {
            break;
        }
    }
    Ok(interval(text.join(" "), None, None))
}

fn interval(value: String, leading_field: Option<ast::DateTimeField>, last_field: Option<ast::DateTimeField>) -> ast::Expr {
    ast::Expr::Interval(ast::Interval {
        value: Box::new(ast::Expr::Value(ast::Value::SingleQuotedString(value).into())),
        leading_field,
        leading_precision: None,
        last_field,
        fractional_seconds_precision: None,
    })
}

/// A syntax error as Spark's parser reports it: `PARSE_SYNTAX_ERROR`, "Syntax error at or
/// near 'X'." (or "at or near end of input."), with the 1-based line and column sqlparser
/// stopped at, when it said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Spark's message (without `[PARSE_SYNTAX_ERROR]` and the SQLSTATE).
    pub message: String,
    /// sqlparser's own words, for the hint.
    pub detail: String,
    /// (line, column), 1-based.
    pub at: Option<(u64, u64)>,
}

/// Maps sqlparser's error onto Spark's `PARSE_SYNTAX_ERROR` message: the token sqlparser
/// found where it expected something else is the token ANTLR names in "Syntax error at or
/// near".
pub fn syntax_error(e: &ParserError) -> SyntaxError {
    let detail = e.to_string().trim_start_matches("sql parser error: ").to_string();
    let at = detail.rsplit_once(" at Line: ").and_then(|(_, pos)| {
        let (line, col) = pos.split_once(", Column: ")?;
        Some((line.trim().parse().ok()?, col.trim().parse().ok()?))
    });
    let found = detail.split_once("found: ").map(|(_, rest)| rest.rsplit_once(" at Line: ").map_or(rest, |(t, _)| t).trim().to_string());
    let message = match found.as_deref() {
        None | Some("EOF") => "Syntax error at or near end of input.".to_string(),
        Some(t) if detail.starts_with("missing 'INTERVAL'") => format!("Syntax error at or near '{t}': missing 'INTERVAL'."),
        Some(t) => format!("Syntax error at or near '{t}'."),
    };
    SyntaxError { message, detail, at }
}

/// Where sqlparser stopped (`e.at`, 1-based line and column of `sql`), as a span of `source`:
/// the token there (a word, or one character; empty at the end of the text) inside the string
/// literal at `literal`. `None` unless the literal's text between its quotes (after an `r`
/// prefix, `'`, `"` or triple quotes) is `sql` byte for byte: escapes or a formatted string
/// would make the offsets disagree.
pub fn point_in_literal(source: &str, literal: crate::error::Span, sql: &str, e: &SyntaxError) -> Option<crate::error::Span> {
    let lit = source.get(literal.start..literal.end)?;
    let body = lit.trim_start_matches(['r', 'R']);
    let prefix = lit.len() - body.len();
    let quote = if body.starts_with("'''") || body.starts_with(r#"""""#) {
        3
    } else if body.starts_with(['\'', '"']) {
        1
    } else {
        return None;
    };
    let inner = body.get(quote..body.len().checked_sub(quote)?)?;
    if inner != sql {
        return None;
    }
    // sqlparser gives no position when the text ran out: the end of the text.
    let off = match e.at {
        Some((line, col)) => offset(sql, line, col)?,
        None if e.message.ends_with("end of input.") => sql.len(),
        None => return None,
    };
    let rest = sql.get(off..)?;
    let word: usize = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').map(char::len_utf8).sum();
    let len = if word > 0 { word } else { rest.chars().next().map_or(0, char::len_utf8) };
    let start = literal.start + prefix + quote + off;
    Some(crate::error::Span::new(start, start + len))
}

/// The byte offset of a 1-based (line, column in chars) position in `sql`.
fn offset(sql: &str, line: u64, column: u64) -> Option<usize> {
    let start: usize = sql.split_inclusive('\n').take(usize::try_from(line).ok()?.checked_sub(1)?).map(str::len).sum();
    let text = sql.get(start..)?;
    let col = usize::try_from(column).ok()?.checked_sub(1)?;
    Some(start + text.char_indices().nth(col).map_or(text.len(), |(i, _)| i))
}

/// A query sqlparser could not read, as Spark reports it: `(condition, message)`.
///
/// - `SELECT a, FROM t`: Spark reads `FROM` as a column and fails in analysis with
///   `TRAILING_COMMA_IN_SELECT`.
/// - A text that reads once its last word, a keyword, is dropped (`... WHERE a = 1 AND`):
///   ANTLR's single-token deletion, "Syntax error at or near 'AND': extra input 'AND'."
/// - Otherwise `PARSE_SYNTAX_ERROR` at the token sqlparser stopped at.
pub fn query_error(sql: &str, e: &SyntaxError) -> (&'static str, String) {
    let tokens = sqlparser::tokenizer::Tokenizer::new(&SPARK, sql).tokenize_with_location().unwrap_or_default();
    let words: Vec<&Token> = tokens.iter().map(|t| &t.token).filter(|t| !matches!(t, Token::Whitespace(_))).collect();
    if words.windows(2).any(|w| w[0] == &Token::Comma && matches!(w[1], Token::Word(k) if k.keyword == Keyword::FROM && k.quote_style.is_none())) {
        return ("TRAILING_COMMA_IN_SELECT", "Trailing comma detected in SELECT clause. Remove the trailing comma before the FROM clause.".into());
    }
    if let Some(message) = unclosed_bracket(&words, e) {
        return ("PARSE_SYNTAX_ERROR", message);
    }
    if e.at.is_none() {
        let last = tokens.iter().rev().find(|t| !matches!(t.token, Token::Whitespace(_) | Token::EOF | Token::SemiColon));
        // A keyword ANTLR's prediction did not take into the expression before it (`AND`
        // with nothing after); an operator (`a =`) is taken, and the error is at the end.
        if let Some(last) = last.filter(|t| matches!(&t.token, Token::Word(w) if w.quote_style.is_none() && w.keyword != Keyword::NoKeyword)) {
            if let Some(cut) = offset(sql, last.span.start.line, last.span.start.column) {
                if parse_with(&sql[..cut], |p| p.parse_query()).is_ok() {
                    return ("PARSE_SYNTAX_ERROR", format!("Syntax error at or near '{0}': extra input '{0}'.", last.token));
                }
            }
        }
    }
    ("PARSE_SYNTAX_ERROR", e.message.clone())
}

/// A bracket left open when sqlparser gave up, as ANTLR reports it: a call or subquery that
/// a `)` would complete is "missing ')'" at the token after it (`max(x FROM t`, `max(x`,
/// `(SELECT ... ` at the end); a list of several items cut at the end is "extra input end of
/// input" (`IN (1, 2`, `concat(a, 'x'`); any other bracket is left to the plain message.
fn unclosed_bracket(words: &[&Token], e: &SyntaxError) -> Option<String> {
    let mut open = Vec::new();
    for (i, t) in words.iter().enumerate() {
        match t {
            Token::LParen => open.push(i),
            Token::RParen => {
                open.pop();
            }
            _ => {}
        }
    }
    let at = *open.last()?;
    let inside = &words[at + 1..];
    let subquery = matches!(inside.first(), Some(Token::Word(w)) if matches!(w.keyword, Keyword::SELECT | Keyword::WITH));
    let clause = |k: Keyword| {
        use Keyword as K;
        matches!(k, K::IN | K::WHERE | K::AND | K::OR | K::NOT | K::ON | K::HAVING | K::SELECT | K::BY | K::WHEN | K::THEN | K::ELSE | K::FROM | K::JOIN | K::AS | K::EXISTS | K::VALUES | K::USING | K::OVER | K::IS | K::LIKE | K::BETWEEN | K::CASE | K::DISTINCT | K::ALL | K::ANY)
    };
    let call = at > 0 && matches!(words[at - 1], Token::Word(w) if w.quote_style.is_none() && !clause(w.keyword));
    let mut depth = 0usize;
    let mut comma = false;
    for t in inside {
        match t {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Comma if depth == 0 => comma = true,
            _ => {}
        }
    }
    let at_end = e.at.is_none();
    let found = if at_end { "end of input".to_string() } else { e.detail.split_once("found: ").map(|(_, r)| format!("'{}'", r.rsplit_once(" at Line: ").map_or(r, |(t, _)| t).trim()))? };
    if subquery {
        return Some("Syntax error at or near end of input: missing ')'.".into());
    }
    if comma && at_end && e.detail.starts_with("Expected: ), found: EOF") {
        return Some("Syntax error at or near end of input: extra input end of input.".into());
    }
    // `count(*` before another token: ANTLR stops at that token without proposing `)`.
    let star = matches!(inside.first(), Some(Token::Mul));
    if call && !comma && !star && e.detail.starts_with("Expected: ), found:") {
        return Some(format!("Syntax error at or near {found}: missing ')'."));
    }
    None
}

/// Runs `f` over `sql` with a fresh [`SparkDialect`]; the `WATERMARK` clauses read come back
/// with the result. Anything left after `f` is a syntax error at that token.
///
/// # Errors
/// The [`SyntaxError`] of the first token that does not fit.
pub fn parse_with<T>(sql: &str, f: impl FnOnce(&mut Parser) -> Result<T, ParserError>) -> Result<(T, Vec<WatermarkClause>), SyntaxError> {
    let dialect = SparkDialect::default();
    let run = || -> Result<T, ParserError> {
        let mut parser = Parser::new(&dialect).try_with_sql(sql)?;
        let out = f(&mut parser)?;
        // A trailing `;` is allowed (`singleStatement: statement SEMICOLON* EOF`).
        while parser.consume_token(&Token::SemiColon) {}
        let next = parser.peek_token();
        if next.token != Token::EOF {
            return Err(ParserError::ParserError(format!("Expected: end of input, found: {}{}", next.token, next.span.start)));
        }
        Ok(out)
    };
    let out = run().map_err(|e| syntax_error(&dialect.watermark_error.take().unwrap_or(e)))?;
    Ok((out, dialect.watermarks()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(sql: &str) -> String {
        parse_with(sql, |p| p.parse_expr()).map(|(e, _)| format!("{e:?}")).unwrap_or_else(|e| format!("ERR {}", e.message))
    }

    #[test]
    fn interval_literals_in_spark_forms() {
        assert!(expr("INTERVAL '1 hour'").contains("\"'1 hour'\""), "{}", expr("INTERVAL '1 hour'"));
        assert!(expr("INTERVAL 1 HOUR 30 MINUTES").contains("\"1 HOUR 30 MINUTES\""));
        assert!(expr("INTERVAL -2 hours").contains("\"-2 HOURS\""));
        let to = expr("INTERVAL '1:30' MINUTE TO SECOND");
        assert!(to.contains("\"1:30\"") && to.contains("MINUTE") && to.contains("SECOND"), "{to}");
        // The literal ends where its pairs end: `+ 1` is arithmetic.
        assert!(expr("INTERVAL 2 HOUR + 1").starts_with("BinaryOp"));
        assert_eq!(expr("INTERVAL 10"), "ERR Syntax error at or near end of input.");
    }

    #[test]
    fn query_errors_in_sparks_words() {
        // Recorded with Spark 4.3.0.
        let err = |sql: &str| {
            let e = parse_with(sql, |p| p.parse_query()).map(|_| ()).unwrap_err();
            query_error(sql, &e)
        };
        assert_eq!(err("SELEC post_id FROM clicks").1, "Syntax error at or near 'SELEC'.");
        assert_eq!(err("SELECT post_id count(*) FROM clicks GROUP BY post_id").1, "Syntax error at or near '('.");
        assert_eq!(err("SELECT count(* FROM clicks").1, "Syntax error at or near 'FROM'.");
        assert_eq!(err("SELECT post_id FROM clicks WHERE post_id =").1, "Syntax error at or near end of input.");
        assert_eq!(err("SELECT post_id FROM clicks WHERE post_id = 1 AND").1, "Syntax error at or near 'AND': extra input 'AND'.");
        assert_eq!(err("SELECT post_id, FROM clicks").0, "TRAILING_COMMA_IN_SELECT");
        assert_eq!(err("SELECT max(post_id FROM clicks").1, "Syntax error at or near 'FROM': missing ')'.");
        assert_eq!(err("SELECT max(post_id").1, "Syntax error at or near end of input: missing ')'.");
        assert_eq!(err("SELECT * FROM clicks WHERE post_id IN (1, 2").1, "Syntax error at or near end of input: extra input end of input.");
        assert_eq!(err("SELECT * FROM clicks WHERE (post_id = 1").1, "Syntax error at or near end of input.");
        assert_eq!(err("SELECT * FROM (SELECT * FROM clicks").1, "Syntax error at or near end of input: missing ')'.");
        assert_eq!(err("SELECT * FROM clicks WHERE post_id IN (1").1, "Syntax error at or near end of input.");
        assert_eq!(err("SELECT concat(user_id, 'x'").1, "Syntax error at or near end of input: extra input end of input.");
        assert_eq!(err("SELECT * FROM clicks WHERE post_id = 1 OR").1, "Syntax error at or near 'OR': extra input 'OR'.");
    }

    #[test]
    fn trim_side_without_a_string() {
        let e = expr("TRIM(LEADING FROM s)");
        assert!(e.starts_with("Trim") && e.contains("Leading") && e.contains("trim_what: None"), "{e}");
        assert!(expr("TRIM(BOTH ',' FROM s)").contains("trim_what: Some"));
    }

    #[test]
    fn struct_star_is_a_function_call() {
        assert!(expr("to_json(struct(*))").contains("Wildcard"));
        assert!(expr("struct(c.*)").contains("QualifiedWildcard"));
    }

    #[test]
    fn watermark_clause_is_kept_apart() {
        let (_, marks) = parse_with("SELECT * FROM clicks WATERMARK event_time DELAY OF INTERVAL 10 MINUTES AS c", |p| p.parse_query()).unwrap();
        assert_eq!(marks.len(), 1);
        assert_eq!(marks[0].column.to_string(), "event_time");
        assert_eq!(marks[0].alias.as_ref().map(|a| a.value.as_str()), Some("c"));
        let e = parse_with("SELECT * FROM clicks WATERMARK event_time DELAY OF '10 minutes'", |p| p.parse_query()).unwrap_err();
        assert_eq!(e.message, "Syntax error at or near ''10 minutes'': missing 'INTERVAL'.");
        // A table may still be aliased `watermark` after AS.
        let (_, marks) = parse_with("SELECT * FROM clicks AS watermark", |p| p.parse_query()).unwrap();
        assert!(marks.is_empty());
    }
}

#[cfg(test)]
mod pointing {
    use crate::frontend::{compile, Catalog};
    use crate::types::{timestamp_type, DataType};
    use crate::Error;

    /// The text a `spark.sql` syntax error points at, and its hint.
    fn pointed(query: &str) -> (String, String) {
        let mut c = Catalog::default();
        c.streams.insert("clicks".into(), vec![("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())]);
        let text = format!("clicks.createOrReplaceTempView('clicks')\n{query}");
        match compile(&text, &c) {
            Err(Error::Analysis(a)) => {
                let s = a.span.expect("a span");
                (text[s.start..s.end].to_string(), a.hint.unwrap_or_default())
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_sql_syntax_error_points_at_its_token_inside_the_string() {
        // `count(* FROM`: sqlparser reads `*` as count's argument and then expects `)`, finding
        // the keyword FROM, the word the error marks.
        let (at, hint) = pointed("spark.sql(\"SELECT post_id, count(* FROM clicks GROUP BY post_id\")");
        assert_eq!(at, "FROM");
        assert!(!hint.contains("Line:") && !hint.contains("column"), "{hint}");
        // In triple quotes, on the second line: the same rule.
        let (at, _) = pointed("spark.sql('''SELECT post_id\n  FROM clicks WHERE''')");
        assert_eq!(at, "", "the end of the text: an empty mark before the closing quotes");
        // An escape makes the literal differ from the SQL: the whole string is marked and the
        // hint says where in the SQL text.
        let (at, hint) = pointed("spark.sql('SELECT post_id, count(* FROM clicks WHERE post_id = \\'1\\'')");
        assert!(at.starts_with("'SELECT"), "{at}");
        assert!(hint.starts_with("line 1, column "), "{hint}");
    }
}
