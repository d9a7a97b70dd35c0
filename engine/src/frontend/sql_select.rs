//! One `SELECT` block of a SQL query (`querySpecification`): `FROM`, `WHERE`, the select
//! list, `GROUP BY`, `HAVING`, `SELECT DISTINCT` and the block's `ORDER BY`.
//!
//! An aggregating block becomes what Spark's analyzer makes of it: an `Aggregate` keyed by
//! the `GROUP BY` expressions (ordinals, select-list aliases and `GROUP BY ALL` resolved as
//! `ResolveOrdinalInOrderByAndGroupBy`, `ResolveAliases` and `ResolveGroupByAll` do), one
//! buffer per aggregate call in the select list, `HAVING` and `ORDER BY`, then `HAVING` as a
//! `Filter` and `ORDER BY` as a `Sort` over it, and the select list as a `Project` on top that
//! reads the keys and buffers by position. `SELECT DISTINCT` is Spark's `Distinct`, an
//! aggregation over every output column (`ReplaceDistinctWithAggregate`) — which is also how
//! the streaming checker treats it, unlike `DataFrame.distinct()` (streaming deduplication).

use std::cell::RefCell;
use std::rc::Rc;

use sqlparser::ast;

use super::sql_query::{ascending, define_error, distinct, is_position, order_pos_error, output_of, position, Translator, R};
use crate::analysis::resolve::find_column;
use crate::analysis::Attr;
use crate::error::Error;
use crate::plan::{Expr, LogicalPlan};
use crate::types::Value;

/// An item without its alias, and the name Spark gives its column.
fn unalias(e: &Expr) -> (&Expr, String) {
    match e {
        Expr::Alias(inner, name) => (inner, name.clone()),
        other => (other, other.output_name()),
    }
}

/// True if `e` calls an aggregate function outside a window function (`OVER`).
fn has_aggregate(e: &Expr) -> bool {
    e.transform(&|x| matches!(x, Expr::Over(_)).then(|| Expr::Literal(Value::Null))).contains_agg()
}

/// The aggregate calls in `e` not yet in `out`, in order of appearance.
fn collect_aggregates(e: &Expr, out: &mut Vec<Expr>) {
    let stripped = e.transform(&|x| matches!(x, Expr::Over(_)).then(|| Expr::Literal(Value::Null)));
    stripped.visit(&mut |x| {
        if matches!(x, Expr::Agg { .. }) && !out.contains(x) {
            out.push(x.clone());
        }
    });
}

/// An ordinal (`GROUP BY 1`, `ORDER BY 2`): the integer literal, as written.
fn ordinal(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Value(v) => match &v.value {
            ast::Value::Number(n, _) if n.bytes().all(|b| b.is_ascii_digit()) => Some(n.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The `SELECT` block, as [`Translator`] methods (the block's `FROM` is the translator's).
impl Translator<'_> {
    /// `SELECT ... FROM ... [WHERE] [GROUP BY] [HAVING]`, then the block's `ORDER BY`.
    pub(super) fn select(&mut self, sel: &ast::Select, order: Option<&[ast::OrderByExpr]>) -> R<Rc<LogicalPlan>> {
        if sel.top.is_some() || sel.into.is_some() || !sel.lateral_views.is_empty() || sel.prewhere.is_some() || !sel.cluster_by.is_empty() || !sel.distribute_by.is_empty() || !sel.sort_by.is_empty() || !sel.named_window.is_empty() || sel.qualify.is_some() || !sel.connect_by.is_empty() || sel.exclude.is_some() || sel.value_table_mode.is_some() {
            return Err(self.unsupported("this SELECT clause"));
        }
        let is_distinct = match &sel.distinct {
            None | Some(ast::Distinct::All) => false,
            Some(ast::Distinct::Distinct) => true,
            Some(ast::Distinct::On(_)) => return Err(self.unsupported("DISTINCT ON")),
        };
        let mut input = self.from(&sel.from)?;
        if let Some(w) = &sel.selection {
            input = Rc::new(LogicalPlan::Filter { input, predicate: self.expr(w)? });
        }
        let attrs = output_of(&input)?;
        let items = self.items(&sel.projection, &attrs)?;
        let grouped = match &sel.group_by {
            ast::GroupByExpr::All(_) => true,
            ast::GroupByExpr::Expressions(e, _) => !e.is_empty(),
        };
        if grouped || sel.having.is_some() || items.iter().any(has_aggregate) {
            return Aggregation { t: &*self, attrs: &attrs }.build(input, items, sel, order, is_distinct);
        }
        let order = order.unwrap_or_default();
        if is_distinct {
            let plan = distinct(Rc::new(LogicalPlan::Project { input, exprs: items }))?;
            return if order.is_empty() { Ok(plan) } else { sort_distinct(self, plan, order) };
        }
        if order.is_empty() {
            return Ok(Rc::new(LogicalPlan::Project { input, exprs: items }));
        }
        // `ORDER BY` sorts the rows before the projection: an ordinal or a select-list alias
        // stands for its item, anything else reads the input's columns.
        let items = expand_stars(items, attrs.len());
        let mut keys = Vec::new();
        for o in order {
            keys.push((self.order_key(&o.expr, &items, &attrs)?, ascending(o)));
        }
        let sorted = Rc::new(LogicalPlan::Sort { input, order: keys });
        Ok(Rc::new(LogicalPlan::Project { input: sorted, exprs: items }))
    }

    /// An `ORDER BY` key over the block's input.
    fn order_key(&self, e: &ast::Expr, items: &[Expr], attrs: &[Attr]) -> R<Expr> {
        if let Some(n) = ordinal(e) {
            return match n.parse::<usize>() {
                Ok(k) if (1..=items.len()).contains(&k) => Ok(unalias(&items[k - 1]).0.clone()),
                _ => Err(order_pos_error(&n, items.len(), self.span)),
            };
        }
        Ok(substitute_aliases(self.expr(e)?, items, attrs))
    }

    /// The select list: `*` stays for the analyzer to expand, `t.*` becomes `t`'s columns, and
    /// `*` / `t.*` inside a call (`struct(*)`) become the columns they stand for.
    fn items(&self, projection: &[ast::SelectItem], attrs: &[Attr]) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        for item in projection {
            match item {
                ast::SelectItem::UnnamedExpr(e) => out.push(self.expand_call_stars(self.expr(e)?, attrs)?),
                ast::SelectItem::ExprWithAlias { expr, alias } => out.push(Expr::Alias(Box::new(self.expand_call_stars(self.expr(expr)?, attrs)?), alias.value.clone())),
                ast::SelectItem::Wildcard(opts) if wildcard_plain(opts) => out.push(Expr::Star),
                ast::SelectItem::QualifiedWildcard(ast::SelectItemQualifiedWildcardKind::ObjectName(name), opts) if wildcard_plain(opts) => {
                    out.extend(self.qualified_star(&super::sql::object_name(name), attrs)?);
                }
                other => return Err(self.unsupported(&format!("the select item {other}"))),
            }
        }
        Ok(out)
    }

    /// `t.*`: the columns of relation `t`, in input order; the fields of a struct column `t`
    /// are left to the analyzer.
    fn qualified_star(&self, qualifier: &str, attrs: &[Attr]) -> R<Vec<Expr>> {
        let last = qualifier.rsplit('.').next().unwrap_or(qualifier);
        let columns = star_columns(last, attrs);
        if !columns.is_empty() {
            return Ok(columns);
        }
        if attrs.iter().any(|a| a.name.eq_ignore_ascii_case(last) && matches!(a.data_type, crate::types::DataType::Struct(_))) {
            return Ok(vec![Expr::Column(format!("{qualifier}.*"))]);
        }
        let mut names: Vec<String> = attrs.iter().map(|a| format!("`{}`", a.name)).collect();
        names.sort();
        Err(define_error(
            "CANNOT_RESOLVE_STAR_EXPAND",
            Some("42704"),
            format!("Cannot resolve `{qualifier}`.* given input columns {}. Please check that the specified table or struct exists and is accessible in the input columns.", names.join(", ")),
            self.span,
        ))
    }

    /// `struct(*)`, `to_json(struct(c.*))`: a star among a call's arguments stands for the
    /// columns (Spark expands it before resolving the call).
    fn expand_call_stars(&self, e: Expr, attrs: &[Attr]) -> R<Expr> {
        let err = RefCell::new(None);
        let out = e.transform(&|x| match x {
            Expr::Function(name, args) if args.iter().any(|a| matches!(a, Expr::Star) || matches!(a, Expr::Column(n) if n.ends_with(".*"))) => {
                let mut expanded = Vec::new();
                for a in args {
                    match a {
                        Expr::Star => expanded.extend(named_columns(attrs, |_| true)),
                        Expr::Column(n) if n.ends_with(".*") => match self.qualified_star(n.trim_end_matches(".*"), attrs) {
                            Ok(cols) => expanded.extend(cols),
                            Err(e) => {
                                err.borrow_mut().get_or_insert(e);
                            }
                        },
                        other => expanded.push(other.clone()),
                    }
                }
                Some(Expr::Function(name.clone(), expanded))
            }
            _ => None,
        });
        match err.into_inner() {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }
}

/// `ORDER BY` after `SELECT DISTINCT`: output ordinals and names only.
fn sort_distinct(t: &Translator, plan: Rc<LogicalPlan>, order: &[ast::OrderByExpr]) -> R<Rc<LogicalPlan>> {
    let output = output_of(&plan)?;
    let mut keys = Vec::new();
    for o in order {
        let key = match ordinal(&o.expr) {
            Some(n) => match n.parse::<usize>() {
                Ok(k) if (1..=output.len()).contains(&k) => position(k - 1),
                _ => return Err(order_pos_error(&n, output.len(), t.span)),
            },
            None => t.expr(&o.expr)?,
        };
        keys.push((key, ascending(o)));
    }
    Ok(Rc::new(LogicalPlan::Sort { input: plan, order: keys }))
}

fn wildcard_plain(opts: &ast::WildcardAdditionalOptions) -> bool {
    opts.opt_ilike.is_none() && opts.opt_exclude.is_none() && opts.opt_except.is_none() && opts.opt_replace.is_none() && opts.opt_rename.is_none() && opts.opt_alias.is_none()
}

/// The columns of `attrs` that `keep` selects: by name when the name is unique (Spark's
/// column name for `struct(*)` lists them), else by position.
fn named_columns(attrs: &[Attr], keep: impl Fn(&Attr) -> bool) -> Vec<Expr> {
    attrs
        .iter()
        .enumerate()
        .filter(|(_, a)| keep(a))
        .map(|(i, a)| {
            let unique = attrs.iter().filter(|b| b.name.eq_ignore_ascii_case(&a.name)).count() == 1;
            if unique && !a.name.contains('.') {
                Expr::Column(a.name.clone())
            } else {
                position(i)
            }
        })
        .collect()
}

/// The columns qualified by `qualifier` (a relation or an alias).
fn star_columns(qualifier: &str, attrs: &[Attr]) -> Vec<Expr> {
    named_columns(attrs, |a| a.qualifiers.iter().any(|q| q.eq_ignore_ascii_case(qualifier)))
}

/// `*` replaced by the input's columns by position.
fn expand_stars(items: Vec<Expr>, width: usize) -> Vec<Expr> {
    items.into_iter().flat_map(|e| if matches!(e, Expr::Star) { (0..width).map(position).collect() } else { vec![e] }).collect()
}

/// A name that is a select-list alias and no input column stands for the aliased item
/// (`HAVING n > 1`, `ORDER BY n`).
fn substitute_aliases(e: Expr, items: &[Expr], attrs: &[Attr]) -> Expr {
    e.transform(&|x| match x {
        Expr::Column(n) if !n.contains('.') && find_column(n, attrs).is_err() => items.iter().find_map(|i| match i {
            Expr::Alias(inner, a) if a.eq_ignore_ascii_case(n) => Some((**inner).clone()),
            _ => None,
        }),
        _ => None,
    })
}

/// The aggregating form of a `SELECT` block.
struct Aggregation<'t, 'a, 'x> {
    t: &'t Translator<'a>,
    /// The block's input columns (after `WHERE`).
    attrs: &'x [Attr],
}

impl Aggregation<'_, '_, '_> {
    fn build(self, input: Rc<LogicalPlan>, items: Vec<Expr>, sel: &ast::Select, order: Option<&[ast::OrderByExpr]>, is_distinct: bool) -> R<Rc<LogicalPlan>> {
        let span = self.t.span;
        let items = expand_stars(items, self.attrs.len());
        let grouping = self.grouping(&sel.group_by, &items)?;
        let having = match &sel.having {
            Some(h) => Some(substitute_aliases(self.t.expr(h)?, &items, self.attrs)),
            None => None,
        };
        let order = order.unwrap_or_default();
        let mut order_keys = Vec::new();
        if !is_distinct {
            for o in order {
                let key = match ordinal(&o.expr) {
                    Some(n) => match n.parse::<usize>() {
                        Ok(k) if (1..=items.len()).contains(&k) => unalias(&items[k - 1]).0.clone(),
                        _ => return Err(order_pos_error(&n, items.len(), span)),
                    },
                    None => substitute_aliases(self.t.expr(&o.expr)?, &items, self.attrs),
                };
                order_keys.push((key, ascending(o)));
            }
        }
        let mut aggs = Vec::new();
        for e in items.iter().chain(having.iter()).chain(order_keys.iter().map(|(k, _)| k)) {
            collect_aggregates(e, &mut aggs);
        }
        let keys = Keys::new(&grouping, &aggs, self.attrs);
        // Spark reports a column that does not exist before one that is not grouped, the
        // grouping expressions' first (`Aggregate.expressions`: grouping, then aggregates).
        for e in grouping.iter().chain(items.iter()).chain(having.iter()).chain(order_keys.iter().map(|(k, _)| k)) {
            keys.check_resolved(e)?;
        }
        let aggregates = aggs.iter().map(|a| Expr::Alias(Box::new(a.clone()), a.output_name())).collect();
        let mut plan = Rc::new(LogicalPlan::Aggregate { input, grouping: grouping.clone(), aggregates });
        if let Some(h) = &having {
            plan = Rc::new(LogicalPlan::Filter { input: plan, predicate: keys.rewrite(h, span)? });
        }
        if !order_keys.is_empty() {
            let order = order_keys.iter().map(|(k, asc)| Ok((keys.rewrite(k, span)?, *asc))).collect::<R<Vec<_>>>()?;
            plan = Rc::new(LogicalPlan::Sort { input: plan, order });
        }
        let mut exprs = Vec::new();
        for item in &items {
            let (inner, name) = unalias(item);
            let rewritten = keys.rewrite(inner, span)?;
            exprs.push(if is_position(item) { rewritten } else { Expr::Alias(Box::new(rewritten), name) });
        }
        let plan = Rc::new(LogicalPlan::Project { input: plan, exprs });
        if !is_distinct {
            return Ok(plan);
        }
        let plan = distinct(plan)?;
        if order.is_empty() {
            Ok(plan)
        } else {
            sort_distinct(self.t, plan, order)
        }
    }

    /// The `GROUP BY` keys: ordinals and aliases stand for their select-list item.
    fn grouping(&self, group_by: &ast::GroupByExpr, items: &[Expr]) -> R<Vec<Expr>> {
        let span = self.t.span;
        let exprs = match group_by {
            ast::GroupByExpr::All(mods) if mods.is_empty() => {
                return Ok(items.iter().map(|i| unalias(i).0.clone()).filter(|e| !has_aggregate(e)).collect());
            }
            ast::GroupByExpr::Expressions(exprs, mods) if mods.is_empty() => exprs,
            _ => return Err(self.t.unsupported("GROUP BY ... WITH ROLLUP / CUBE / GROUPING SETS")),
        };
        let mut out = Vec::new();
        for g in exprs {
            if let Some(n) = ordinal(g) {
                let k = n.parse::<usize>().ok().filter(|k| (1..=items.len()).contains(k)).ok_or_else(|| {
                    define_error("GROUP_BY_POS_OUT_OF_RANGE", Some("42805"), format!("GROUP BY position {n} is not in select list (valid range is [1, {}]).", items.len()), span)
                })?;
                let (inner, name) = unalias(&items[k - 1]);
                if has_aggregate(inner) {
                    return Err(define_error(
                        "GROUP_BY_POS_AGGREGATE",
                        Some("42903"),
                        format!("GROUP BY {n} refers to an expression {inner} AS {} that contains an aggregate function. Aggregate functions are not allowed in GROUP BY.", quote_if_needed(&name)),
                        span,
                    ));
                }
                out.push(inner.clone());
                continue;
            }
            let e = substitute_aliases(self.t.expr(g)?, items, self.attrs);
            if has_aggregate(&e) {
                return Err(define_error("GROUP_BY_AGGREGATE", Some("42903"), format!("Aggregate functions are not allowed in GROUP BY, but found {e}."), span));
            }
            out.push(e);
        }
        Ok(out)
    }
}

/// The aggregation's keys and buffers, and how an expression over the input reads them.
struct Keys<'x> {
    /// The keys with their columns replaced by input positions, for comparison.
    canonical: Vec<Expr>,
    grouping: &'x [Expr],
    aggs: &'x [Expr],
    attrs: &'x [Attr],
}

impl<'x> Keys<'x> {
    fn new(grouping: &'x [Expr], aggs: &'x [Expr], attrs: &'x [Attr]) -> Self {
        let mut k = Keys { canonical: Vec::new(), grouping, aggs, attrs };
        k.canonical = grouping.iter().map(|g| k.canonical(g)).collect();
        k
    }

    fn index(&self, name: &str) -> Option<usize> {
        match name.strip_prefix("\u{0}col") {
            Some(i) => i.parse().ok(),
            None => find_column(name, self.attrs).ok(),
        }
    }

    /// `e` with every column that names an input column written by position.
    fn canonical(&self, e: &Expr) -> Expr {
        e.transform(&|x| match x {
            Expr::Column(n) => self.index(n).map(position),
            _ => None,
        })
    }

    /// The key `e` is, if any: equal to a `GROUP BY` expression, or the name of a
    /// `window(...)` / `session_window(...)` key (`SELECT window, count(*) ... GROUP BY
    /// window(...)`).
    fn key(&self, e: &Expr) -> Option<usize> {
        if let Expr::Column(n) = e {
            if self.index(n).is_none() {
                return self.grouping.iter().position(|g| key_name(g).is_some_and(|k| k.eq_ignore_ascii_case(n)));
            }
        }
        let c = self.canonical(e);
        self.canonical.iter().position(|g| *g == c)
    }

    /// A column of `e` that names nothing in the input nor a key: the analyzer's error.
    fn check_resolved(&self, e: &Expr) -> R<()> {
        let mut first: Option<String> = None;
        e.visit(&mut |x| {
            if let Expr::Column(n) = x {
                let key_field = n.split_once('.').is_some_and(|(p, _)| self.grouping.iter().any(|g| key_name(g).is_some_and(|k| k.eq_ignore_ascii_case(p))));
                if first.is_none() && self.index(n).is_none() && self.key(x).is_none() && !key_field {
                    first = Some(n.clone());
                }
            }
        });
        match first {
            Some(n) => find_column(&n, self.attrs).map(|_| ()),
            None => Ok(()),
        }
    }

    /// `e` over the aggregation's output: keys and aggregate calls read by position, a field
    /// of a window key (`window.start`) from that key.
    fn rewrite(&self, e: &Expr, span: super::Span) -> R<Expr> {
        let width = self.grouping.len();
        let missing: RefCell<Option<Error>> = RefCell::new(None);
        let out = e.transform(&|x| {
            if let Some(i) = self.key(x) {
                return Some(position(i));
            }
            if let Some(j) = self.aggs.iter().position(|a| a == x) {
                return Some(position(width + j));
            }
            match x {
                Expr::Column(n) if !is_position(x) || self.index(n).is_some() => {
                    if let Some((prefix, fields)) = n.split_once('.') {
                        if let Some(i) = self.grouping.iter().position(|g| key_name(g).is_some_and(|k| k.eq_ignore_ascii_case(prefix))) {
                            let field = fields.split('.').fold(position(i), |acc, f| Expr::Function("get_field".into(), vec![acc, Expr::Literal(Value::str(f))]));
                            return Some(field);
                        }
                    }
                    let shown = x.to_string();
                    missing.borrow_mut().get_or_insert_with(|| {
                        define_error(
                            "MISSING_AGGREGATION",
                            Some("42803"),
                            format!("The non-aggregating expression \"{shown}\" is based on columns which are not participating in the GROUP BY clause.\nAdd the columns or the expression to the GROUP BY, aggregate the expression, or use \"any_value({shown})\" if you do not care which of the values within a group is returned."),
                            span,
                        )
                    });
                    Some(x.clone())
                }
                _ => None,
            }
        });
        match missing.into_inner() {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }
}

/// A name as Spark's SQL text writes it (`QuotingUtils.quoteIfNeeded`): bare when it is
/// letters, digits and `_` (and not only digits), else in backquotes.
fn quote_if_needed(name: &str) -> String {
    let plain = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !name.bytes().all(|b| b.is_ascii_digit());
    if plain {
        name.to_string()
    } else {
        format!("`{}`", name.replace('`', "``"))
    }
}

/// The column name a `window(...)` / `session_window(...)` key gets.
fn key_name(g: &Expr) -> Option<&'static str> {
    match g {
        Expr::TimeWindow { .. } => Some("window"),
        Expr::SessionWindow { .. } => Some("session_window"),
        _ => None,
    }
}
