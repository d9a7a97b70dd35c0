//! URL functions (`urlExpressions.scala`): `parse_url` (a part of a URL as `java.net.URI`
//! splits it, by the RFC 3986 pattern), `url_encode` / `url_decode`
//! (`application/x-www-form-urlencoded`, as `URLEncoder`/`URLDecoder` with UTF-8), and their
//! `try_` forms. Under ANSI mode a malformed URL or escape fails the batch.

use super::super::context::EvalContext;
use super::{any_null, arg, to_text};
use crate::types::Value;

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    if !matches!(name, "parse_url" | "try_parse_url" | "url_encode" | "url_decode" | "try_url_decode") {
        return None;
    }
    if any_null(args) {
        return Some(Value::Null);
    }
    let s = to_text(arg(args, 0), cx);
    Some(match name {
        "url_encode" => Value::str(&form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>()),
        "url_decode" | "try_url_decode" => match decode(&s) {
            Some(d) => Value::str(&d),
            None if name == "url_decode" => {
                cx.raise("CANNOT_DECODE_URL", format!("The provided URL cannot be decoded: {s}. Please ensure that the URL is properly formatted and try again."));
                Value::Null
            }
            None => Value::Null,
        },
        _ => {
            let part = to_text(arg(args, 1), cx);
            match parse_url(&s, &part, args.get(2).map(|k| to_text(k, cx)).as_deref()) {
                Ok(v) => v.map_or(Value::Null, |x| Value::str(&x)),
                Err(()) if name == "parse_url" => {
                    cx.raise("INVALID_URL", format!("The url is invalid: {s}. Use `try_parse_url` to tolerate invalid URL and return NULL instead."));
                    Value::Null
                }
                Err(()) => Value::Null,
            }
        }
    })
}

/// `%XX` escapes and `+` decoded; `None` for a malformed escape.
fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// The part of `url` named `part` (`HOST`, `PATH`, `QUERY`, `REF`, `PROTOCOL`, `FILE`,
/// `AUTHORITY`, `USERINFO`), or with `key` the value of that query parameter. `Ok(None)` for a
/// part the URL lacks; `Err` for text `java.net.URI` refuses.
fn parse_url(url: &str, part: &str, key: Option<&str>) -> Result<Option<String>, ()> {
    if url.chars().any(|c| c.is_whitespace() || "\"<>\\^`{|}".contains(c)) {
        return Err(());
    }
    let re = super::super::like::compiled(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$").ok_or(())?;
    let c = re.captures(url).ok_or(())?;
    let g = |i: usize| c.get(i).map(|m| m.as_str().to_string());
    let authority = g(4);
    let (userinfo, host_port) = match authority.as_deref() {
        Some(a) => match a.rsplit_once('@') {
            Some((u, h)) => (Some(u.to_string()), Some(h.to_string())),
            None => (None, Some(a.to_string())),
        },
        None => (None, None),
    };
    let host = host_port.map(|h| match h.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host.to_string(),
        _ => h,
    });
    let query = g(7);
    Ok(match (part, key) {
        ("QUERY", Some(k)) => query.and_then(|q| q.split('&').find_map(|kv| kv.split_once('=').filter(|(a, _)| *a == k).map(|(_, v)| v.to_string()))),
        ("HOST", _) => host.filter(|h| !h.is_empty()),
        ("PATH", _) => g(5),
        ("QUERY", _) => query,
        ("REF", _) => g(9),
        ("PROTOCOL", _) => g(2),
        ("FILE", _) => Some(format!("{}{}", g(5).unwrap_or_default(), query.map(|q| format!("?{q}")).unwrap_or_default())),
        ("AUTHORITY", _) => authority.filter(|a| !a.is_empty()),
        ("USERINFO", _) => userinfo,
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spark_doc_examples() {
        let url = "http://spark.apache.org/path?query=1";
        assert_eq!(parse_url(url, "HOST", None), Ok(Some("spark.apache.org".into())));
        assert_eq!(parse_url(url, "QUERY", None), Ok(Some("query=1".into())));
        assert_eq!(parse_url(url, "QUERY", Some("query")), Ok(Some("1".into())));
        assert_eq!(parse_url("inva lid://spark.apache.org/path?query=1", "QUERY", None), Err(()));
        assert_eq!(decode("https%3A%2F%2Fspark.apache.org"), Some("https://spark.apache.org".into()));
    }
}
