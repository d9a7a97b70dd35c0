//! Spark's DDL type strings: a data type (`array<string>`, `map<string,int>`,
//! `struct<a:int,b:string>`) and a schema (`a INT, b ARRAY<STRING>`), as `from_json`'s schema,
//! `cast('map<string,int>')` and scenario files write them (`DataType.fromDDL`,
//! `StructType.fromDDL`; the grammar's `dataType` and `colType` rules). Tokens come from
//! sqlparser's tokenizer; the grammar is the few rules above.

use sqlparser::dialect::SparkSqlDialect;
use sqlparser::tokenizer::{Token, Tokenizer};

use super::DataType;

/// Parses one data type.
///
/// # Errors
/// A message naming what is wrong, Spark's `PARSE_SYNTAX_ERROR` in spirit.
pub fn parse_data_type(text: &str) -> Result<DataType, String> {
    let mut p = Ddl::new(text)?;
    let t = p.data_type()?;
    p.end()?;
    Ok(t)
}

/// Parses a schema: `name TYPE` (or `name: TYPE`) pairs separated by commas.
///
/// # Errors
/// As [`parse_data_type`].
pub fn parse_schema(text: &str) -> Result<Vec<(String, DataType)>, String> {
    let mut p = Ddl::new(text)?;
    let fields = p.fields(None)?;
    p.end()?;
    Ok(fields)
}

struct Ddl {
    tokens: Vec<Token>,
    pos: usize,
    text: String,
}

impl Ddl {
    fn new(text: &str) -> Result<Ddl, String> {
        let tokens = Tokenizer::new(&SparkSqlDialect {}, text)
            .tokenize()
            .map_err(|e| format!("cannot read the type '{text}': {e}"))?
            .into_iter()
            .filter(|t| !matches!(t, Token::Whitespace(_)))
            .collect();
        Ok(Ddl { tokens, pos: 0, text: text.to_string() })
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn error(&self, what: &str) -> String {
        let at = self.peek().map_or("the end".to_string(), |t| format!("'{t}'"));
        format!("[PARSE_SYNTAX_ERROR] Syntax error at or near {at} in the type '{}': {what}", self.text)
    }

    fn expect(&mut self, t: &Token) -> Result<(), String> {
        if self.peek() == Some(t) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{t}'")))
        }
    }

    fn end(&self) -> Result<(), String> {
        if self.pos < self.tokens.len() {
            return Err(self.error("unexpected text after the type"));
        }
        Ok(())
    }

    fn ident(&mut self) -> Result<String, String> {
        match self.next() {
            Some(Token::Word(w)) => Ok(w.value),
            _ => {
                self.pos -= 1;
                Err(self.error("expected a name"))
            }
        }
    }

    /// `name [:] type` pairs up to `close` (or the end).
    fn fields(&mut self, close: Option<&Token>) -> Result<Vec<(String, DataType)>, String> {
        let mut out = Vec::new();
        loop {
            if close.is_some() && self.peek() == close {
                break;
            }
            let name = self.ident()?;
            if self.peek() == Some(&Token::Colon) {
                self.pos += 1;
            }
            let t = self.data_type()?;
            // `COMMENT '...'` and `NOT NULL` after a field are accepted and ignored.
            while let Some(Token::Word(w)) = self.peek() {
                match w.value.to_ascii_uppercase().as_str() {
                    "NOT" | "NULL" => self.pos += 1,
                    "COMMENT" => self.pos += 2,
                    _ => break,
                }
            }
            out.push((name, t));
            if self.peek() == Some(&Token::Comma) {
                self.pos += 1;
            } else {
                break;
            }
        }
        Ok(out)
    }

    fn data_type(&mut self) -> Result<DataType, String> {
        let name = self.ident()?.to_ascii_lowercase();
        Ok(match name.as_str() {
            "array" => {
                self.expect(&Token::Lt)?;
                let t = self.data_type()?;
                self.close_angle()?;
                super::array_type(t)
            }
            "map" => {
                self.expect(&Token::Lt)?;
                let k = self.data_type()?;
                self.expect(&Token::Comma)?;
                let v = self.data_type()?;
                self.close_angle()?;
                super::map_type(k, v)
            }
            "struct" => {
                self.expect(&Token::Lt)?;
                let fields = self.fields(Some(&Token::Gt))?;
                self.close_angle()?;
                super::struct_type(fields)
            }
            other => super::parse_type_name(other)?,
        })
    }

    /// `>`; the tokenizer reads `>>` of nested types as one token.
    fn close_angle(&mut self) -> Result<(), String> {
        match self.peek() {
            Some(Token::Gt) => {
                self.pos += 1;
                Ok(())
            }
            Some(Token::ShiftRight) => {
                self.tokens[self.pos] = Token::Gt;
                Ok(())
            }
            _ => Err(self.error("expected '>'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::spark_type_name;

    #[test]
    fn nested_types_read_back_as_spark_prints_them() {
        for t in ["array<string>", "map<string,bigint>", "struct<a:int,b:array<string>>", "map<string,array<map<string,int>>>"] {
            assert_eq!(spark_type_name(&parse_data_type(t).unwrap()), t);
        }
        let s = parse_schema("id INT, tags ARRAY<STRING>, m: MAP<STRING, DOUBLE>").unwrap();
        assert_eq!(s.iter().map(|(n, t)| format!("{n}:{}", spark_type_name(t))).collect::<Vec<_>>(), ["id:int", "tags:array<string>", "m:map<string,double>"]);
        assert!(parse_data_type("array<string").is_err());
        assert!(parse_schema("a").is_err());
    }
}
