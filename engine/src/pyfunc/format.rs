//! Python's format specification mini-language, for f-string fields (`f"{x:.2f}"`,
//! `f"{n:>5}"`, `f"{total:,}"`): `[[fill]align][sign][0][width][,][.precision][type]` with the
//! types `s`, `d`, `f`/`F`, `%` and none. Other types (`e`, `g`, `x`, `b`, ...) are not
//! modelled and say so.

use super::value::Val;
use super::PyError;

struct Spec {
    fill: char,
    align: Option<char>,
    sign: Option<char>,
    width: usize,
    comma: bool,
    precision: Option<usize>,
    kind: Option<char>,
}

fn parse(spec: &str, line: usize) -> Result<Spec, PyError> {
    let bad = || PyError::runtime(format!("ValueError: Invalid format specifier '{spec}'"), line);
    let c: Vec<char> = spec.chars().collect();
    let mut i = 0;
    let mut s = Spec { fill: ' ', align: None, sign: None, width: 0, comma: false, precision: None, kind: None };
    if c.len() >= 2 && matches!(c[1], '<' | '>' | '^' | '=') {
        s.fill = c[0];
        s.align = Some(c[1]);
        i = 2;
    } else if c.first().is_some_and(|a| matches!(a, '<' | '>' | '^' | '=')) {
        s.align = Some(c[0]);
        i = 1;
    }
    if c.get(i).is_some_and(|x| matches!(x, '+' | '-' | ' ')) {
        s.sign = Some(c[i]);
        i += 1;
    }
    if c.get(i) == Some(&'0') {
        s.fill = '0';
        s.align = s.align.or(Some('='));
        i += 1;
    }
    let start = i;
    while c.get(i).is_some_and(char::is_ascii_digit) {
        i += 1;
    }
    if i > start {
        s.width = c[start..i].iter().collect::<String>().parse().map_err(|_| bad())?;
    }
    if c.get(i) == Some(&',') {
        s.comma = true;
        i += 1;
    }
    if c.get(i) == Some(&'.') {
        i += 1;
        let start = i;
        while c.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return Err(PyError::runtime("ValueError: Format specifier missing precision", line));
        }
        s.precision = Some(c[start..i].iter().collect::<String>().parse().map_err(|_| bad())?);
    }
    if let Some(k) = c.get(i) {
        s.kind = Some(*k);
        i += 1;
    }
    if i != c.len() {
        return Err(bad());
    }
    Ok(s)
}

/// Groups the digits of an integer text by thousands (`1234567` → `1,234,567`).
fn group(digits: &str) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `format(v, spec)` for an f-string field; `text` is `str(v)`, used for strings and `s`.
///
/// # Errors
/// Python's `ValueError` for a malformed spec or one that does not apply to the value;
/// `not modelled` for the presentation types the lab does not implement.
pub fn format_value(v: &Val, text: &str, spec: &str, line: usize) -> Result<String, PyError> {
    if spec.is_empty() {
        return Ok(text.to_string());
    }
    let s = parse(spec, line)?;
    let number = matches!(v, Val::Int(_) | Val::Bool(_) | Val::Float(_));
    let (body, negative) = match (s.kind, v) {
        (None | Some('s'), _) if !number || s.kind == Some('s') => {
            if s.kind == Some('s') && number {
                return Err(PyError::runtime(format!("ValueError: Unknown format code 's' for object of type '{}'", v.type_name()), line));
            }
            let t: String = match s.precision {
                Some(p) => text.chars().take(p).collect(),
                None => text.to_string(),
            };
            (t, false)
        }
        (Some('d'), Val::Int(_) | Val::Bool(_)) | (None, Val::Int(_) | Val::Bool(_)) if s.precision.is_none() => {
            let i = v.as_int().unwrap_or(0);
            let digits = i.unsigned_abs().to_string();
            (if s.comma { group(&digits) } else { digits }, i < 0)
        }
        (Some('f' | 'F' | '%') | None, Val::Int(_) | Val::Bool(_) | Val::Float(_)) => {
            let mut x = match v {
                Val::Float(f) => *f,
                other => other.as_int().unwrap_or(0) as f64,
            };
            if s.kind == Some('%') {
                x *= 100.0;
            }
            let p = s.precision.unwrap_or(6);
            let t = if s.kind.is_none() && s.precision.is_none() { text.trim_start_matches('-').to_string() } else { format!("{:.p$}", x.abs()) };
            let t = if s.comma {
                let (int, frac) = t.split_once('.').map_or((t.as_str(), None), |(a, b)| (a, Some(b)));
                match frac {
                    Some(f) => format!("{}.{f}", group(int)),
                    None => group(int),
                }
            } else {
                t
            };
            (if s.kind == Some('%') { format!("{t}%") } else { t }, x.is_sign_negative() && x != 0.0)
        }
        (Some(k), _) if matches!(k, 'e' | 'E' | 'g' | 'G' | 'x' | 'X' | 'o' | 'b' | 'c' | 'n') => {
            return Err(PyError::not_modelled(format!("Python format type '{k}' in an f-string"), line));
        }
        (Some(k), _) => return Err(PyError::runtime(format!("ValueError: Unknown format code '{k}' for object of type '{}'", v.type_name()), line)),
        (None, _) => (text.to_string(), false),
    };
    let sign = if negative {
        "-"
    } else {
        match s.sign {
            Some('+') if number => "+",
            Some(' ') if number => " ",
            _ => "",
        }
    };
    let len = sign.chars().count() + body.chars().count();
    let pad = s.width.saturating_sub(len);
    let fill = |n: usize| std::iter::repeat_n(s.fill, n).collect::<String>();
    let align = s.align.unwrap_or(if number { '>' } else { '<' });
    Ok(match align {
        '<' => format!("{sign}{body}{}", fill(pad)),
        '^' => format!("{}{sign}{body}{}", fill(pad / 2), fill(pad - pad / 2)),
        '=' => format!("{sign}{}{body}", fill(pad)),
        _ => format!("{}{sign}{body}", fill(pad)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: Val, spec: &str) -> String {
        let text = match &v {
            Val::Float(x) => format!("{x:?}"),
            Val::Int(i) => i.to_string(),
            Val::Str(s) => s.to_string(),
            _ => String::new(),
        };
        format_value(&v, &text, spec, 1).unwrap()
    }

    // Each expected text is what CPython 3.11 prints for format(value, spec).
    #[test]
    fn specs_format_as_python_does() {
        assert_eq!(f(Val::Float(1.23456), ".2f"), "1.23");
        assert_eq!(f(Val::Int(42), ">5"), "   42");
        assert_eq!(f(Val::Int(42), "05d"), "00042");
        assert_eq!(f(Val::Int(-42), "05d"), "-0042");
        assert_eq!(f(Val::Int(1234567), ","), "1,234,567");
        assert_eq!(f(Val::Float(1234.5), ",.1f"), "1,234.5");
        assert_eq!(f(Val::Float(0.25), ".0%"), "25%");
        assert_eq!(f(Val::Str("ab".into()), "<4"), "ab  ");
        assert_eq!(f(Val::Str("ab".into()), "*^6"), "**ab**");
        assert_eq!(f(Val::Int(7), "+d"), "+7");
        assert_eq!(f(Val::Int(3), ".2f"), "3.00");
    }

    #[test]
    fn unknown_types_are_named() {
        assert!(format_value(&Val::Float(1.0), "1.0", "e", 1).unwrap_err().is_not_modelled());
        assert!(!format_value(&Val::Str("x".into()), "x", "d", 1).unwrap_err().is_not_modelled());
    }
}
