//! The layout pass before the grammar: indentation to INDENT/DEDENT marks and bracketed lines joined, as Python's tokenizer does.

use super::{DEDENT, INDENT, MAX_BLOCKS, MAX_BRACKETS};
use crate::pyfunc::PyError;

/// Turns indentation into INDENT/DEDENT marks and joins lines inside brackets; `lines[i]` is
/// the source line (1-based) of output byte `i`.
pub(super) fn layout(src: &str) -> Result<(String, Vec<usize>), PyError> {
    let mut out = String::with_capacity(src.len() + 16);
    let mut lines: Vec<usize> = Vec::with_capacity(src.len() + 16);
    let push = |out: &mut String, lines: &mut Vec<usize>, c: char, line: usize| {
        out.push(c);
        lines.extend(std::iter::repeat_n(line, c.len_utf8()));
    };
    let mut stack: Vec<usize> = vec![0];
    let mut depth = 0usize;
    let mut line = 1usize;
    let mut at_line_start = true;
    let mut chars = src.char_indices().peekable();
    while let Some((_, c)) = chars.peek().copied() {
        if at_line_start && depth == 0 {
            // Measure the indentation of this line; blank and comment-only lines do not count.
            let mut width = 0usize;
            while let Some(&(_, c)) = chars.peek() {
                match c {
                    ' ' => width += 1,
                    '\t' => width = (width / 8 + 1) * 8,
                    _ => break,
                }
                chars.next();
            }
            match chars.peek().map(|&(_, c)| c) {
                None => break,
                Some('\n') | Some('\r') | Some('#') => {
                    // Skip to the end of the line.
                    for (_, c) in chars.by_ref() {
                        if c == '\n' {
                            line += 1;
                            break;
                        }
                    }
                    continue;
                }
                _ => {}
            }
            let top = *stack.last().unwrap_or(&0);
            if width > top {
                if stack.len() > MAX_BLOCKS {
                    return Err(PyError::syntax(format!("blocks are nested more than {MAX_BLOCKS} levels deep"), line));
                }
                stack.push(width);
                push(&mut out, &mut lines, INDENT, line);
            } else if width < top {
                while stack.last().is_some_and(|&t| t > width) {
                    stack.pop();
                    push(&mut out, &mut lines, DEDENT, line);
                }
                if stack.last() != Some(&width) {
                    return Err(PyError::syntax("IndentationError: unindent does not match any outer indentation level", line));
                }
            }
            at_line_start = false;
            continue;
        }
        chars.next();
        match c {
            '\n' => {
                if depth == 0 {
                    push(&mut out, &mut lines, '\n', line);
                    at_line_start = true;
                } else {
                    push(&mut out, &mut lines, ' ', line);
                }
                line += 1;
            }
            '\r' => {}
            '\\' if chars.peek().map(|&(_, c)| c) == Some('\n') => {
                chars.next();
                push(&mut out, &mut lines, ' ', line);
                line += 1;
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_BRACKETS {
                    return Err(PyError::syntax(format!("brackets are nested more than {MAX_BRACKETS} levels deep"), line));
                }
                push(&mut out, &mut lines, c, line);
            }
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                push(&mut out, &mut lines, c, line);
            }
            '#' => {
                // A comment runs to the end of the line (kept out of the output).
                while let Some(&(_, c)) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                }
            }
            '\'' | '"' => {
                push(&mut out, &mut lines, c, line);
                let triple = {
                    let mut look = chars.clone();
                    look.next().map(|(_, a)| a) == Some(c) && look.next().map(|(_, b)| b) == Some(c)
                };
                if triple {
                    for _ in 0..2 {
                        chars.next();
                        push(&mut out, &mut lines, c, line);
                    }
                }
                let mut run = 0usize;
                let mut closed = false;
                while let Some((_, d)) = chars.next() {
                    push(&mut out, &mut lines, d, line);
                    if d == '\n' {
                        if !triple {
                            return Err(PyError::syntax("SyntaxError: unterminated string literal", line));
                        }
                        line += 1;
                    }
                    if d == '\\' {
                        if let Some((_, e)) = chars.next() {
                            push(&mut out, &mut lines, e, line);
                            if e == '\n' {
                                line += 1;
                            }
                        }
                        run = 0;
                        continue;
                    }
                    if d == c {
                        run += 1;
                        if !triple || run == 3 {
                            closed = true;
                            break;
                        }
                    } else {
                        run = 0;
                    }
                }
                if !closed {
                    return Err(PyError::syntax("SyntaxError: unterminated string literal", line));
                }
            }
            c => push(&mut out, &mut lines, c, line),
        }
    }
    if depth > 0 {
        return Err(PyError::syntax("SyntaxError: a bracket is never closed", line.saturating_sub(1).max(1)));
    }
    if !out.ends_with('\n') {
        push(&mut out, &mut lines, '\n', line);
    }
    while stack.len() > 1 {
        stack.pop();
        push(&mut out, &mut lines, DEDENT, line);
    }
    Ok((out, lines))
}
