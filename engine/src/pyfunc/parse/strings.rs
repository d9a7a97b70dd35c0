//! Python string literals: escapes read as Python reads them, and f-strings split into text and `{expr!c:spec}` fields.

use pest::Parser;

use super::build::{pratt, Builder};
use super::{Expr, FPart, PyFuncParser, Rule, R};
use crate::pyfunc::PyError;

impl Builder<'_> {
    /// The parts of an f-string body (escapes already read): text, `{{`/`}}` as braces, and
    /// `{expr[!c][:spec]}` fields parsed as expressions.
    pub(super) fn fstring(&self, body: &str, line: usize) -> R<Vec<FPart>> {
        let mut parts = Vec::new();
        let mut text = String::new();
        let chars: Vec<char> = body.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '{' if chars.get(i + 1) == Some(&'{') => {
                    text.push('{');
                    i += 2;
                }
                '}' if chars.get(i + 1) == Some(&'}') => {
                    text.push('}');
                    i += 2;
                }
                '}' => return Err(PyError::syntax("SyntaxError: f-string: single '}' is not allowed", line)),
                '{' => {
                    // The field runs to the matching `}`; `!c` and `:spec` end the expression at
                    // bracket depth 0, outside quotes.
                    let mut depth = 0usize;
                    let mut quote: Option<char> = None;
                    let mut j = i + 1;
                    let mut expr_end = None;
                    let mut conv_at = None;
                    while j < chars.len() {
                        let c = chars[j];
                        match quote {
                            Some(q) if c == q => quote = None,
                            Some(_) => {}
                            None => match c {
                                '\'' | '"' => quote = Some(c),
                                '(' | '[' | '{' => depth += 1,
                                ')' | ']' => depth = depth.saturating_sub(1),
                                '}' if depth > 0 => depth -= 1,
                                '}' => break,
                                '!' if depth == 0 && expr_end.is_none() && chars.get(j + 1) != Some(&'=') => {
                                    expr_end = Some(j);
                                    conv_at = Some(j + 1);
                                }
                                ':' if depth == 0 => {
                                    if expr_end.is_none() {
                                        expr_end = Some(j);
                                    }
                                    break;
                                }
                                _ => {}
                            },
                        }
                        j += 1;
                    }
                    // `j` is at the closing brace or at the spec's `:`.
                    let mut close = j;
                    while close < chars.len() && chars[close] != '}' {
                        close += 1;
                    }
                    if close >= chars.len() {
                        return Err(PyError::syntax("SyntaxError: f-string: expecting '}'", line));
                    }
                    let end = expr_end.unwrap_or(j);
                    let src: String = chars[i + 1..end].iter().collect();
                    let conversion = conv_at.and_then(|c| chars.get(c).copied()).filter(|c| *c != ':' && *c != '}');
                    let spec: String = if j < close && chars[j] == ':' { chars[j + 1..close].iter().collect() } else { String::new() };
                    if src.trim().is_empty() {
                        return Err(PyError::syntax("SyntaxError: f-string: empty expression not allowed", line));
                    }
                    if !text.is_empty() {
                        parts.push(FPart::Text(std::mem::take(&mut text)));
                    }
                    parts.push(FPart::Value { expr: self.expression_text(src.trim(), line)?, conversion, spec });
                    i = close + 1;
                }
                c => {
                    text.push(c);
                    i += 1;
                }
            }
        }
        if !text.is_empty() {
            parts.push(FPart::Text(text));
        }
        Ok(parts)
    }

    /// One expression written inside an f-string field, at `line`.
    fn expression_text(&self, src: &str, line: usize) -> R<Expr> {
        let mut pairs = PyFuncParser::parse(Rule::test, src).map_err(|_| PyError::syntax(format!("SyntaxError: f-string: invalid expression '{src}'"), line))?;
        if pairs.as_str().len() != src.len() {
            return Err(PyError::syntax(format!("SyntaxError: f-string: invalid expression '{src}'"), line));
        }
        let lines = vec![line; src.len() + 1];
        let b = Builder { lines: &lines, pratt: pratt() };
        b.test(pairs.next().ok_or_else(|| PyError::syntax("SyntaxError: f-string: empty expression not allowed", line))?)
    }
}

/// The text of a Python string literal's body with its escapes read as Python reads them
/// (Python reference, "String and Bytes literals": `\\`, `\'`, `\"`, `\a`, `\b`, `\f`, `\n`, `\r`,
/// `\t`, `\v`, `\ooo` octal, `\xhh`, `\uxxxx`, `\Uxxxxxxxx`, backslash-newline joins lines).
/// An escape Python does not know keeps its backslash (`'\d'` is the two characters `\d`, as in
/// Python), so a regular expression written without `r''` means what it means in PySpark.
/// A malformed `\x`/`\u` (too few hex digits, not a character) is kept as written.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\n' => {}
            '\\' | '\'' | '"' => out.push(e),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '0'..='7' => {
                let mut n = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match it.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            n = n * 8 + d;
                            it.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(n).unwrap_or('\u{fffd}'));
            }
            'x' | 'u' | 'U' => {
                let len = match e { 'x' => 2, 'u' => 4, _ => 8 };
                let digits: String = it.clone().take(len).take_while(char::is_ascii_hexdigit).collect();
                match u32::from_str_radix(&digits, 16).ok().filter(|_| digits.len() == len).and_then(char::from_u32) {
                    Some(ch) => {
                        out.push(ch);
                        for _ in 0..len {
                            it.next();
                        }
                    }
                    None => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn escapes_read_as_python_reads_them() {
        // Python 3.11: '\d' is backslash + d (unknown escape kept), '\n' a newline, '\\' one
        // backslash, '\x41' 'A', '\101' (octal 65) 'A', '\u00e9' 'é', 'a\<newline>b' 'ab'.
        assert_eq!(unescape(r"^u\d+$"), "^u\\d+$");
        assert_eq!(unescape(r"a\nb"), "a\nb");
        assert_eq!(unescape(r"a\\b"), "a\\b");
        assert_eq!(unescape(r"\x41\101\u00e9"), "AAé");
        assert_eq!(unescape("a\\\nb"), "ab");
        assert_eq!(unescape(r"it\'s"), "it's");
        // Malformed hex escapes (a SyntaxError in Python) stay as written, never a panic.
        assert_eq!(unescape(r"\x4"), "\\x4");
        assert_eq!(unescape(r"\U0011FFFF"), "\\U0011FFFF");
        assert_eq!(unescape("end\\"), "end\\");
    }
}
