//! Printing a plan as an indented tree, as Spark's `TreeNode.treeString` does (`explain()`):
//! one line a node, `:- ` before every child but the last, `+- ` before the last.

use std::fmt;

/// Writes `node` and, below it, its `children` (recursively), one `line` each, indented as
/// Spark's `TreeNode.generateTreeString`: a child's line starts with `:- ` (more children follow)
/// or `+- ` (the last child), and its own children are indented under it with `:  ` or `   `.
///
/// # Errors
/// Only the formatter's.
pub fn write_tree<'a, T>(
    f: &mut fmt::Formatter<'_>,
    node: &'a T,
    line: &dyn Fn(&T) -> String,
    children: &dyn Fn(&'a T) -> Vec<&'a T>,
) -> fmt::Result {
    write_at(f, node, line, children, "", "")
}

fn write_at<'a, T>(
    f: &mut fmt::Formatter<'_>,
    node: &'a T,
    line: &dyn Fn(&T) -> String,
    children: &dyn Fn(&'a T) -> Vec<&'a T>,
    prefix: &str,
    child_prefix: &str,
) -> fmt::Result {
    writeln!(f, "{prefix}{}", line(node))?;
    let kids = children(node);
    for (i, c) in kids.iter().enumerate() {
        let (p, cp) = if i + 1 == kids.len() { ("+- ", "   ") } else { (":- ", ":  ") };
        write_at(f, *c, line, children, &format!("{child_prefix}{p}"), &format!("{child_prefix}{cp}"))?;
    }
    Ok(())
}
