//! The small markup of lesson texts (`quizzes/README.md`, "Lessons"): paragraphs split by
//! blank lines, `- ` list items, and inline `code`, **bold** and *emphasis*. Plain Rust: the
//! lesson page turns [`Block`]s and [`Span`]s into elements (never raw HTML, so no text in a
//! lesson file can inject markup).

/// A run of inline text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// Text in backticks: `code`, shown as code.
    Code(String),
    /// Text in `**`: shown bold.
    Strong(String),
    /// Text in `*`: shown emphasised.
    Em(String),
}

/// A paragraph or a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A paragraph: its lines joined by spaces.
    Para(Vec<Span>),
    /// A list: every line starts with `- `; one item per line.
    List(Vec<Vec<Span>>),
}

/// Splits `text` into paragraphs and lists.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    for para in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let lines: Vec<&str> = para.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        if lines.iter().all(|l| l.starts_with("- ")) {
            out.push(Block::List(lines.iter().map(|l| spans(&l[2..])).collect()));
        } else {
            out.push(Block::Para(spans(&lines.join(" "))));
        }
    }
    out
}

/// Reads inline markup. An opening mark without its closing one is kept as text.
pub fn spans(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let (mark, make): (&str, fn(String) -> Span) = match c {
            '`' => ("`", Span::Code),
            '*' if rest.starts_with("**") => ("**", Span::Strong),
            '*' => ("*", Span::Em),
            _ => {
                plain.push(c);
                rest = &rest[c.len_utf8()..];
                continue;
            }
        };
        let after = &rest[mark.len()..];
        match after.find(mark).filter(|&end| end > 0) {
            Some(end) => {
                if !plain.is_empty() {
                    out.push(Span::Text(std::mem::take(&mut plain)));
                }
                out.push(make(after[..end].to_string()));
                rest = &after[end + mark.len()..];
            }
            None => {
                plain.push_str(mark);
                rest = after;
            }
        }
    }
    if !plain.is_empty() {
        out.push(Span::Text(plain));
    }
    out
}

/// A code span's text cut into its quoted string literals (`'10 minutes'`, `"x"`: `true`, the
/// quotes kept) and the code between them (`false`), in order: a page keeps a literal on one
/// line, so a wrapped query never looks as if a string held a line break. An unclosed quote
/// runs to the end.
pub fn code_pieces(code: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(open) = rest.find(['\'', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('\'');
        let close = rest[open + 1..].find(quote).map_or(rest.len(), |i| open + 1 + i + 1);
        if open > 0 {
            out.push((false, &rest[..open]));
        }
        out.push((true, &rest[open..close]));
        rest = &rest[close..];
    }
    if !rest.is_empty() {
        out.push((false, rest));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_span_keeps_its_string_literals_whole() {
        assert_eq!(
            code_pieces("F.window('event_time', \"10 minutes\")"),
            [(false, "F.window("), (true, "'event_time'"), (false, ", "), (true, "\"10 minutes\""), (false, ")")]
        );
        // No quote: one piece; an unclosed quote runs to the end.
        assert_eq!(code_pieces("count()"), [(false, "count()")]);
        assert_eq!(code_pieces("expr('a b"), [(false, "expr("), (true, "'a b")]);
    }

    fn t(s: &str) -> Span {
        Span::Text(s.into())
    }

    #[test]
    fn inline_marks_become_spans_and_unclosed_marks_stay_text() {
        assert_eq!(
            spans("wm = **max − delay**, see `withWatermark` and *next* batch"),
            vec![t("wm = "), Span::Strong("max − delay".into()), t(", see "), Span::Code("withWatermark".into()), t(" and "), Span::Em("next".into()), t(" batch")]
        );
        // `a * b` has no closing star: kept as written.
        assert_eq!(spans("a * b"), vec![t("a * b")]);
        assert_eq!(spans("**"), vec![t("**")]);
        assert_eq!(spans("워터마크 **9:03**"), vec![t("워터마크 "), Span::Strong("9:03".into())]);
    }

    #[test]
    fn blank_lines_split_paragraphs_and_dash_lines_make_lists() {
        let b = blocks("One\nline.\n\n- a\n- `b`\n\nEnd.");
        assert_eq!(
            b,
            vec![Block::Para(vec![t("One line.")]), Block::List(vec![vec![t("a")], vec![Span::Code("b".into())]]), Block::Para(vec![t("End.")])]
        );
    }


}
