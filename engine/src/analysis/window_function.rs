//! Non-time window functions (`lag(...) OVER (...)`, `F.row_number().over(w)`): the
//! Analyzer's `ExtractWindowExpressions`, which moves them into a `Window` node under the
//! projection, and the texts Spark prints for them.
//!
//! Spark accepts such a query when the DataFrame is defined and `UnsupportedOperationChecker`
//! rejects it at `start()` with `NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING`;
//! the error names the function (`windowFunction.toString`), the column and the window
//! specification (`WindowSpecDefinition.sql`, with the function's default frame), all upper
//! case. Streamlab does not evaluate window functions, so over a static table alone they are
//! reported as not modelled.

use super::plan::{Attr, BoundExpr, Node, Plan, WindowFunctionText};
use super::bind::bind;
use crate::error::Error;
use crate::plan::{AggFunc, Expr, FrameBound, WindowOver};
use crate::types::{DataType, Value};

type R<T> = Result<T, Error>;

/// Moves the window functions of `items` into a `Window` node over `input`; the items then
/// read its appended columns. Without window functions both come back unchanged.
///
/// # Errors
/// Resolution errors of the functions' arguments and specifications;
/// [`Error::Unsupported`] for window functions over a static (batch) input.
pub fn extract(input: Plan, items: Vec<Expr>) -> R<(Plan, Vec<Expr>)> {
    let mut found: Vec<(WindowOver, String)> = Vec::new();
    for item in &items {
        let column = super::naming::output_name(item, &input.output);
        item.visit(&mut |e| {
            if let Expr::Over(w) = e {
                found.push(((**w).clone(), column.clone()));
            }
        });
    }
    if found.is_empty() {
        return Ok((input, items));
    }
    if !input.streaming {
        return Err(Error::Unsupported("window functions (OVER ...) on a static table".into()));
    }
    // One `Window` node per distinct (partition, order), nested in order of first appearance
    // (the first group innermost), as `ExtractWindowExpressions` folds them; the checker
    // meets the innermost first.
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, (w, _)) in found.iter().enumerate() {
        let key = format!("{:?}|{:?}", w.partition, w.order);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let mut column_of = vec![0usize; found.len()];
    let mut plan = input;
    for (_, members) in &groups {
        let mut output = plan.output.clone();
        let mut functions = Vec::new();
        for &i in members {
            let (w, column) = &found[i];
            let (text, data_type) = function_text(&w.func, &w.order, &plan.output)?;
            functions.push(WindowFunctionText { function: text.to_uppercase(), column: format!("`{column}`"), spec: spec_text(w, &plan.output)?.to_uppercase() });
            column_of[i] = output.len();
            output.push(Attr::new(column.clone(), data_type));
        }
        let streaming = plan.streaming;
        plan = Plan { node: Node::Window { input: Box::new(plan), functions }, output, streaming };
    }
    // Each item reads the appended column of its window function(s) instead.
    let next = std::cell::Cell::new(0);
    let items = items.iter().map(|item| replace_over(item, &column_of, &next)).collect();
    Ok((plan, items))
}

/// `item` with each window function (in visiting order) replaced by its appended column.
fn replace_over(item: &Expr, column_of: &[usize], next: &std::cell::Cell<usize>) -> Expr {
    item.transform(&|e| match e {
        Expr::Over(_) => {
            let i = next.get();
            next.set(i + 1);
            Some(Expr::Column(format!("\u{0}col{}", column_of.get(i).copied().unwrap_or(0))))
        }
        _ => None,
    })
}

/// An attribute as `AttributeReference.toString` prints it: `post_id#2L`,
/// `event_time#3-T600000ms` (a long gets `L`, a watermarked column its delay).
fn attr_text(i: usize, a: &Attr) -> String {
    let suffix = if a.data_type == DataType::Int64 { "L" } else { "" };
    let delay = a.watermark_delay_ms.map(|d| format!("-T{}ms", d.ms())).unwrap_or_default();
    format!("{}#{i}{suffix}{delay}", a.name)
}

fn expr_text(e: &Expr, input: &[Attr], with_ids: bool) -> R<String> {
    let (b, _) = bind(e, input)?;
    Ok(match (&b, e) {
        (BoundExpr::Col(i), _) if with_ids => attr_text(*i, &input[*i]),
        (BoundExpr::Col(i), _) => input[*i].name.clone(),
        (BoundExpr::Lit(Value::Null), _) => "null".into(),
        (BoundExpr::Lit(Value::Str(s)), _) => s.to_string(),
        (BoundExpr::Lit(v), _) => v.to_string(),
        (_, e) => e.to_string(),
    })
}

fn int_arg(args: &[Expr], i: usize, default: i64) -> i64 {
    match args.get(i) {
        Some(Expr::Literal(v)) => v.as_i64().unwrap_or(default),
        _ => default,
    }
}

/// `windowFunction.toString` and the result type.
fn function_text(func: &Expr, order: &[(Expr, bool)], input: &[Attr]) -> R<(String, DataType)> {
    let arg = |args: &[Expr], i: usize| -> R<(String, DataType)> {
        match args.get(i) {
            Some(a) => Ok((expr_text(a, input, true)?, bind(a, input)?.1.data_type)),
            None => Ok(("null".into(), DataType::Null)),
        }
    };
    Ok(match func {
        Expr::Function(name, args) => match name.as_str() {
            "lag" | "lead" => {
                let (x, t) = arg(args, 0)?;
                let k = int_arg(args, 1, 1);
                let k = if name == "lag" { -k } else { k };
                let default = arg(args, 2)?.0;
                (format!("{name}({x}, {k}, {default})"), t)
            }
            "row_number" => ("row_number()".into(), DataType::Int32),
            "ntile" => (format!("ntile({})", int_arg(args, 0, 1)), DataType::Int32),
            "nth_value" => {
                let (x, t) = arg(args, 0)?;
                (format!("nth_value({x}, {}, false)", int_arg(args, 1, 1)), t)
            }
            "rank" | "dense_rank" | "percent_rank" | "cume_dist" => {
                let o: Vec<String> = order.iter().map(|(e, _)| expr_text(e, input, true)).collect::<R<_>>()?;
                let t = if matches!(name.as_str(), "percent_rank" | "cume_dist") { DataType::Float64 } else { DataType::Int32 };
                (format!("{name}({})", o.join(", ")), t)
            }
            other => return Err(Error::Unsupported(format!("{other}(...) as a window function"))),
        },
        Expr::Agg { func, arg: a, distinct, .. } => {
            let (x, t) = match a.as_ref() {
                Expr::Star => ("1".to_string(), DataType::Int64),
                a => (expr_text(a, input, true)?, bind(a, input)?.1.data_type),
            };
            let t = match func {
                AggFunc::Count | AggFunc::ApproxCountDistinct { .. } => DataType::Int64,
                AggFunc::Avg => DataType::Float64,
                AggFunc::Sum if t != DataType::Float64 => DataType::Int64,
                _ => t,
            };
            let d = if *distinct { "distinct " } else { "" };
            (format!("{}({d}{x})", func.name()), t)
        }
        other => return Err(Error::Unsupported(format!("{other} as a window function"))),
    })
}

/// `WindowSpecDefinition.sql`, with the frame Spark gives the function when none is written.
fn spec_text(w: &WindowOver, input: &[Attr]) -> R<String> {
    let mut parts = Vec::new();
    if !w.partition.is_empty() {
        let p: Vec<String> = w.partition.iter().map(|e| expr_text(e, input, false)).collect::<R<_>>()?;
        parts.push(format!("PARTITION BY {}", p.join(", ")));
    }
    if !w.order.is_empty() {
        let o: Vec<String> = w
            .order
            .iter()
            .map(|(e, asc)| Ok(format!("{} {}", expr_text(e, input, false)?, if *asc { "ASC NULLS FIRST" } else { "DESC NULLS LAST" })))
            .collect::<R<_>>()?;
        parts.push(format!("ORDER BY {}", o.join(", ")));
    }
    let frame = match (w.frame, &w.func) {
        (Some(f), _) => format!("{} BETWEEN {} AND {}", if f.rows { "ROWS" } else { "RANGE" }, f.lower.sql(), f.upper.sql()),
        (None, Expr::Function(name, args)) if name == "lag" || name == "lead" => {
            let k = int_arg(args, 1, 1);
            let k = if name == "lag" { -k } else { k };
            format!("ROWS BETWEEN {k} FOLLOWING AND {k} FOLLOWING")
        }
        (None, Expr::Function(name, _)) if name != "nth_value" => {
            format!("ROWS BETWEEN {} AND {}", FrameBound::UnboundedPreceding.sql(), FrameBound::CurrentRow.sql())
        }
        (None, _) if w.order.is_empty() => {
            format!("ROWS BETWEEN {} AND {}", FrameBound::UnboundedPreceding.sql(), FrameBound::UnboundedFollowing.sql())
        }
        (None, _) => format!("RANGE BETWEEN {} AND {}", FrameBound::UnboundedPreceding.sql(), FrameBound::CurrentRow.sql()),
    };
    parts.push(frame);
    Ok(format!("({})", parts.join(" ")))
}
