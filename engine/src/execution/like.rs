//! `LIKE` and `RLIKE` in time linear in the text: Spark's pattern rules, matched by
//! `regex-lite` (a finite-automaton engine without backtracking blow-up), never by recursion.
//!
//! `LIKE` follows `StringUtils.escapeLikeRegex` (catalyst `util/StringUtils.scala`): `_` is
//! one character, `%` any run of characters (newlines included), `\` escapes `_`, `%` or
//! itself, and the whole text must match. `RLIKE` (`RLike`, `regexpExtract`'s family) finds
//! the pattern anywhere in the text, as Java's `Matcher.find` does. Compiled patterns are
//! kept in a small per-thread cache, since a literal pattern is evaluated once per row.

use std::cell::RefCell;
use std::collections::BTreeMap;

use regex_lite::Regex;

/// Compiled patterns kept per thread (an older entry is dropped when full).
const CACHE_SIZE: usize = 64;

/// The longest pattern compiled, in bytes: longer ones do not match (and the row gets NULL).
const MAX_PATTERN_BYTES: usize = 64 * 1024;

thread_local! {
    static CACHE: RefCell<BTreeMap<(bool, String), Option<Regex>>> = const { RefCell::new(BTreeMap::new()) };
}

/// The Java-flavoured regular expression Spark builds for a `LIKE` pattern, or `None` for a
/// pattern Spark refuses (`\` before a character other than `_`, `%`, `\`, or at the end:
/// `INVALID_FORMAT.ESC_IN_THE_MIDDLE` / `ESC_AT_THE_END`).
fn like_to_regex(pattern: &str) -> Option<String> {
    let mut out = String::with_capacity(pattern.len() + 8);
    out.push_str("(?s)^(?:");
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('_' | '%' | '\\')) => out.push_str(&regex_lite::escape(&e.to_string())),
                _ => return None,
            },
            '_' => out.push('.'),
            // `%%` matches what `%` matches: one `.*` keeps the automaton small.
            '%' if out.ends_with(".*") => {}
            '%' => out.push_str(".*"),
            c => out.push_str(&regex_lite::escape(&c.to_string())),
        }
    }
    out.push_str(")$");
    Some(out)
}

fn with_regex(pattern: &str, is_like: bool, f: impl FnOnce(&Regex) -> bool) -> Option<bool> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return None;
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let key = (is_like, pattern.to_string());
        if !cache.contains_key(&key) {
            let source = if is_like { like_to_regex(pattern) } else { Some(pattern.to_string()) };
            let compiled = source.and_then(|s| Regex::new(&s).ok());
            if cache.len() >= CACHE_SIZE {
                cache.pop_first();
            }
            cache.insert(key.clone(), compiled);
        }
        cache.get(&key).and_then(Option::as_ref).map(f)
    })
}

/// A Java regular expression compiled (from the cache), `None` if `regex-lite` cannot read it.
pub fn compiled(pattern: &str) -> Option<Regex> {
    let mut out = None;
    with_regex(pattern, false, |r| {
        out = Some(r.clone());
        true
    });
    out
}

/// `text LIKE pattern`; `None` when Spark would refuse the pattern.
///
/// # Examples
/// ```
/// use streamlab_engine::execution::like::like;
/// assert_eq!(like("post-17", "post-%"), Some(true));
/// assert_eq!(like("a_b", "a\\_b"), Some(true));
/// assert_eq!(like("axb", "a\\_b"), Some(false));
/// ```
pub fn like(text: &str, pattern: &str) -> Option<bool> {
    with_regex(pattern, true, |r| r.is_match(text))
}

/// `text RLIKE pattern` (found anywhere in the text); `None` when the pattern is not a regular
/// expression `regex-lite` reads (Java's look-around and back-references are not modelled).
pub fn rlike(text: &str, pattern: &str) -> Option<bool> {
    with_regex(pattern, false, |r| r.is_match(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_follows_spark() {
        assert_eq!(like("abc", "a%"), Some(true));
        assert_eq!(like("abc", "a_c"), Some(true));
        assert_eq!(like("abc", "a_"), Some(false));
        // `%` spans newlines ((?s) in escapeLikeRegex).
        assert_eq!(like("a\nc", "a%c"), Some(true));
        // Regex metacharacters are literal.
        assert_eq!(like("a.c", "a.c"), Some(true));
        assert_eq!(like("abc", "a.c"), Some(false));
        assert_eq!(like("50%", "50\\%"), Some(true));
        assert_eq!(like("a\\b", "a\\\\b"), Some(true));
        // Spark refuses a dangling or misplaced escape.
        assert_eq!(like("a", "a\\"), None);
        assert_eq!(like("ab", "a\\b"), None);
    }

    #[test]
    fn like_is_linear_on_many_wildcards() {
        // The old recursive matcher took exponential time on these: it would not finish (the
        // test then hangs, and the CI run's time limit reports it). regex-lite matches in time
        // linear in the text; no clock is read here.
        let text = "a".repeat(5_000);
        assert_eq!(like(&text, &format!("{}b", "%".repeat(20_000))), Some(false));
        assert_eq!(like(&text, &format!("{}b", "%a".repeat(200))), Some(false));
        assert_eq!(like(&text, &format!("{}%", "%a".repeat(200))), Some(true));
    }

    #[test]
    fn rlike_finds_anywhere() {
        assert_eq!(rlike("post-17", "[0-9]+"), Some(true));
        assert_eq!(rlike("post", "^[0-9]+$"), Some(false));
        assert_eq!(rlike("x", "("), None);
    }
}
