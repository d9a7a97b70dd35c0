//! The name Spark gives a column nobody aliased, resolved against the columns it reads.
//!
//! Mirrors `toPrettySQL` / `usePrettyExpression` (`sql/catalyst/.../catalyst/util/package.scala`),
//! which Spark applies to the *resolved* expression: an attribute prints as its bare name (a
//! `PrettyAttribute`: no qualifier, so `F.col('l.key') + 1` is `(key + 1)` after
//! `alias('l')`), and a struct field (`GetStructField`) as its child's pretty text, a dot and the
//! field name (`F.col('l.window.end').cast('long')` is `CAST(window.end AS BIGINT)`,
//! `F.col('o.amount') * 2` is `(o.amount * 2)`). Which parts of a dotted name are a qualifier
//! and which a struct path is known only once the name is resolved, so the unresolved
//! [`Expr::pretty_name`] is given the resolved paths here. Names keep the spelling the query
//! used (`F.col('KEY') + 1` is `(KEY + 1)` in Spark 4.3).

use super::plan::Attr;
use crate::plan::Expr;
use crate::types::DataType;

/// `toPrettySQL(e)`: the name of an unaliased expression (`(o.amount * 2)`, `sum(o.amount)`,
/// `hour(window.end)`) over the columns `input`.
pub fn pretty_name(e: &Expr, input: &[Attr]) -> String {
    with_struct_paths(e, input).pretty_name()
}

/// [`Expr::output_name`] with struct fields resolved against `input`: a bare column keeps its
/// own name (`F.col('l.window.end')` is `end`, as Spark's `Alias(GetStructField, "end")`);
/// anything else is its [`pretty_name`].
pub fn output_name(e: &Expr, input: &[Attr]) -> String {
    with_struct_paths(e, input).output_name()
}

/// `o.amount`, `j.user.name`, `l.o.amount` (a qualifier first: the relation or alias the
/// column comes from): the struct column a dotted name starts at and the nested fields it
/// walks (column index, field indices from the outside in, the last field). A column whose
/// whole name matches is never a struct path.
pub fn struct_path<'a>(name: &str, input: &'a [Attr]) -> Option<(usize, Vec<usize>, &'a arrow_schema::Field)> {
    fn walk<'a>(input: &'a [Attr], idx: usize, fields: &[&str]) -> Option<(usize, Vec<usize>, &'a arrow_schema::Field)> {
        let mut t = &input[idx].data_type;
        let mut path = Vec::new();
        let mut last = None;
        for f in fields {
            let DataType::Struct(fs) = t else { return None };
            let fi = fs.iter().position(|x| x.name().eq_ignore_ascii_case(f))?;
            path.push(fi);
            last = Some(fs[fi].as_ref());
            t = fs[fi].data_type();
        }
        Some((idx, path, last?))
    }
    if name.starts_with('\u{0}') || input.iter().any(|a| a.name.eq_ignore_ascii_case(name)) {
        return None;
    }
    let parts: Vec<&str> = name.split('.').collect();
    if parts.len() < 2 {
        return None;
    }
    // `r.window.end` after a join: the `window` of the relation or alias `r`.
    if parts.len() >= 3 {
        let qualified = input.iter().position(|a| a.name.eq_ignore_ascii_case(parts[1]) && a.qualifiers.iter().any(|q| q.eq_ignore_ascii_case(parts[0])));
        if let Some(found) = qualified.and_then(|idx| walk(input, idx, &parts[2..])) {
            return Some(found);
        }
    }
    let idx = input.iter().position(|a| a.name.eq_ignore_ascii_case(parts[0]))?;
    walk(input, idx, &parts[1..])
}

/// A copy of `e` where every column name that resolves to a struct field prints as
/// `column.field` (the qualifier dropped) through the verbatim-column marker `\u{2}`.
fn with_struct_paths(e: &Expr, input: &[Attr]) -> Expr {
    e.transform(&|x| match x {
        Expr::Column(n) if !n.starts_with('\u{2}') => {
            let (_, fields, _) = struct_path(n, input)?;
            // The column and its fields as written, the qualifier dropped.
            let parts: Vec<&str> = n.split('.').collect();
            let from = parts.len().saturating_sub(fields.len() + 1);
            Some(Expr::Column(format!("\u{2}{}", parts[from..].join("."))))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::BinOp;
    use crate::types::window_type;

    fn input() -> Vec<Attr> {
        vec![
            Attr { qualifiers: vec!["l".into()], ..Attr::new("key", DataType::Int32) },
            Attr { qualifiers: vec!["l".into()], ..Attr::new("window", window_type()) },
        ]
    }

    // Expected names, as PySpark 4.3.0 reports them on a `select` after `alias('l')`:
    // `['CAST(window.end AS BIGINT)', 'end', '(key + 1)', 'hour(window.end)']`.
    #[test]
    fn qualifier_is_dropped_and_struct_path_kept() {
        let end = Expr::col("l.window.end");
        assert_eq!(pretty_name(&Expr::Cast(Box::new(end.clone()), DataType::Int64), &input()), "CAST(window.end AS BIGINT)");
        assert_eq!(output_name(&end, &input()), "end");
        let plus = Expr::Binary(BinOp::Add, Box::new(Expr::col("l.key")), Box::new(Expr::Literal(crate::types::Value::Int(1))));
        assert_eq!(pretty_name(&plus, &input()), "(key + 1)");
        assert_eq!(pretty_name(&Expr::Function("hour".into(), vec![end]), &input()), "hour(window.end)");
    }

    #[test]
    fn a_qualifier_picks_its_side_of_a_join() {
        let mut input = input();
        input.push(Attr { qualifiers: vec!["r".into()], ..Attr::new("window", window_type()) });
        assert_eq!(struct_path("r.window.end", &input).map(|(i, f, _)| (i, f)), Some((2, vec![1])));
        assert_eq!(struct_path("l.window.end", &input).map(|(i, f, _)| (i, f)), Some((1, vec![1])));
    }

    #[test]
    fn a_column_named_with_a_dot_is_not_a_struct_path() {
        let input = vec![Attr::new("window.end", DataType::Int64), Attr::new("window", window_type())];
        assert!(struct_path("window.end", &input).is_none());
        assert!(struct_path("window.start", &input).is_some());
    }
}
