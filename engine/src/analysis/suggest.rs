//! The column names Spark's messages propose and list: `UNRESOLVED_COLUMN.WITH_SUGGESTION`
//! ("Did you mean one of the following? [...]") and `AMBIGUOUS_REFERENCE`.
//!
//! Mirrors `CheckAnalysis.failUnresolvedAttribute` and
//! `StringUtils.orderSuggestedIdentifiersBySimilarity`: every input column is a candidate, in
//! `AttributeSet.toSeq` order (by name, then expression id — here the input position),
//! written with its qualifier (a view name or an alias, [`Attr::sql_qualifier`]) unless all
//! candidates share one, quoted (`` `c`.`post_id` ``), ordered by Levenshtein distance to the
//! name as written (a stable sort), and the first five are shown.

use super::plan::Attr;
use crate::error::{AnalysisError, Error, Stage};

/// How many candidates Spark's message shows (`unresolvedAttributeError`: `take(5)`).
const SHOWN: usize = 5;

/// `` `a`.`b` ``: each part in backquotes (a backquote inside doubled).
fn quote(parts: &[&str]) -> String {
    parts.iter().map(|p| format!("`{}`", p.replace('`', "``"))).collect::<Vec<_>>().join(".")
}

/// The input columns as Spark proposes them for the unresolved `name` (as written, dotted).
fn ordered_candidates(name: &str, input: &[Attr]) -> Vec<String> {
    let name_parts = name.split('.').count();
    let same_qualifier = input.windows(2).all(|w| w[0].sql_qualifier.as_deref().map(str::to_lowercase) == w[1].sql_qualifier.as_deref().map(str::to_lowercase));
    let mut by_name: Vec<(usize, &Attr)> = input.iter().enumerate().collect();
    by_name.sort_by(|(i, a), (j, b)| a.name.cmp(&b.name).then(i.cmp(j)));
    let mut candidates: Vec<String> = by_name
        .into_iter()
        .map(|(_, a)| match (&a.sql_qualifier, name_parts == 1 && same_qualifier) {
            (Some(q), false) => quote(&[q, &a.name]),
            _ => quote(&[&a.name]),
        })
        .collect();
    candidates.sort_by_key(|c| crate::plan::functions::levenshtein(c, name));
    candidates
}

/// `UNRESOLVED_COLUMN.WITH_SUGGESTION` (or `WITHOUT_SUGGESTION` over no columns) for `name`
/// among `input`.
pub fn unresolved_column(name: &str, input: &[Attr]) -> Error {
    let object = quote(&name.split('.').collect::<Vec<_>>());
    let candidates = ordered_candidates(name, input);
    let (class, message) = if candidates.is_empty() {
        ("UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", format!("A column, variable, or function parameter with name {object} cannot be resolved. "))
    } else {
        let shown: Vec<&str> = candidates.iter().take(SHOWN).map(String::as_str).collect();
        ("UNRESOLVED_COLUMN.WITH_SUGGESTION", format!("A column, variable, or function parameter with name {object} cannot be resolved. Did you mean one of the following? [{}].", shown.join(", ")))
    };
    let all: Vec<String> = input.iter().map(|a| format!("`{}`", a.name)).collect();
    // The hint names Spark's first (nearest) suggestion, then every input column; each part
    // is put into the learner's language on its own (`localize`).
    let columns = format!("the input columns here are {}", all.join(", "));
    let hint = match candidates.first() {
        Some(nearest) => format!("the nearest name is {nearest}; {columns}"),
        None => columns,
    };
    Error::Analysis(AnalysisError::new(Stage::Define, class, message).with_sqlstate("42703").with_hint(hint))
}

/// `AMBIGUOUS_REFERENCE` for `name`, which several of `matches` could be.
pub fn ambiguous_reference(name: &str, matches: &[&Attr]) -> Error {
    let refs: Vec<String> = matches.iter().map(|a| a.sql_qualifier.as_ref().map_or_else(|| quote(&[&a.name]), |q| quote(&[q, &a.name]))).collect();
    let object = quote(&name.split('.').collect::<Vec<_>>());
    Error::Analysis(
        AnalysisError::new(Stage::Define, "AMBIGUOUS_REFERENCE", format!("Reference {object} is ambiguous, could be: [{}].", refs.join(", ")))
            .with_sqlstate("42704")
            .with_hint(ambiguous_hint(name, matches)),
    )
}

/// How to tell the candidates apart: by the aliases they have (`c.user_id or o.user_id`), or,
/// when a side has none (a DataFrame read as it is), by giving each side one first.
fn ambiguous_hint(name: &str, matches: &[&Attr]) -> String {
    let column = crate::plan::unmarked(name).rsplit('.').next().unwrap_or(name).to_string();
    let named: Vec<String> = matches.iter().filter_map(|a| a.sql_qualifier.as_ref().map(|q| format!("{q}.{column}"))).collect();
    let distinct = named.iter().collect::<std::collections::BTreeSet<_>>().len() == named.len();
    if named.len() == matches.len() && distinct {
        format!("qualify the column with its relation's name or alias ({})", named.join(" or "))
    } else {
        // Each side by the relation it reads (`clicks`), named by its first letter (`c`), as
        // the guide writes its joins (`impressions.alias("i")`).
        let mut sides: Vec<(String, String)> = Vec::new();
        for a in matches {
            let relation = a.qualifiers.first().cloned().unwrap_or_else(|| "df".into());
            let mut alias: String = relation.chars().next().filter(char::is_ascii_alphabetic).map_or("t".into(), |c| c.to_ascii_lowercase().to_string());
            while sides.iter().any(|(_, a2)| *a2 == alias) {
                alias.push('2');
            }
            sides.push((relation, alias));
        }
        let named: Vec<String> = sides.iter().map(|(r, a)| format!("{r}.alias('{a}')")).collect();
        let qualified: Vec<String> = sides.iter().map(|(_, a)| format!("{a}.{column}")).collect();
        format!("give each side a name first ({}), then qualify the column with it ({})", named.join(", "), qualified.join(" = "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType;

    fn attr(q: Option<&str>, n: &str) -> Attr {
        Attr { sql_qualifier: q.map(String::from), ..Attr::new(n, DataType::Int64) }
    }

    fn message(e: Error) -> String {
        match e {
            Error::Analysis(a) => a.message,
            other => other.to_string(),
        }
    }

    #[test]
    fn one_relation_drops_the_qualifier() {
        // Recorded with Spark 4.3.0: `SELECT post_idd FROM clicks` over a view clicks(event_id,
        // post_id, user_id, event_time).
        let input: Vec<Attr> = ["event_id", "post_id", "user_id", "event_time"].iter().map(|n| attr(Some("clicks"), n)).collect();
        assert_eq!(
            message(unresolved_column("post_idd", &input)),
            "A column, variable, or function parameter with name `post_idd` cannot be resolved. Did you mean one of the following? [`post_id`, `user_id`, `event_id`, `event_time`]."
        );
        // `SELECT c.post_idd FROM clicks c`: a qualified name keeps the qualifiers.
        let input: Vec<Attr> = ["event_id", "post_id", "user_id", "event_time"].iter().map(|n| attr(Some("c"), n)).collect();
        assert_eq!(
            message(unresolved_column("c.post_idd", &input)),
            "A column, variable, or function parameter with name `c`.`post_idd` cannot be resolved. Did you mean one of the following? [`c`.`post_id`, `c`.`user_id`, `c`.`event_id`, `c`.`event_time`]."
        );
    }

    #[test]
    fn five_closest_and_qualified_across_relations() {
        // Recorded: `SELECT post_id FROM wide` over wide(a1, a2, a3, post_idx, post_ix, bbb, ccc).
        let input: Vec<Attr> = ["a1", "a2", "a3", "post_idx", "post_ix", "bbb", "ccc"].iter().map(|n| attr(Some("wide"), n)).collect();
        assert!(message(unresolved_column("post_id", &input)).ends_with("[`post_idx`, `post_ix`, `a1`, `a2`, `a3`]."));
        // Recorded: `SELECT post_idd FROM clicks c JOIN posts p ON c.post_id = p.post_id`.
        let mut input: Vec<Attr> = ["event_id", "post_id", "user_id", "event_time"].iter().map(|n| attr(Some("c"), n)).collect();
        input.extend(["post_id", "board", "author"].iter().map(|n| attr(Some("p"), n)));
        assert!(message(unresolved_column("post_idd", &input)).ends_with("[`c`.`post_id`, `p`.`post_id`, `p`.`board`, `c`.`user_id`, `p`.`author`]."));
        let both: Vec<&Attr> = input.iter().filter(|a| a.name == "post_id").collect();
        assert_eq!(message(ambiguous_reference("post_id", &both)), "Reference `post_id` is ambiguous, could be: [`c`.`post_id`, `p`.`post_id`].");
    }
}
