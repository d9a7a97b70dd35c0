//! Test-wise strategies: how well a learner who knows no Spark scores by picking a choice from
//! its looks alone — the longest, the shortest, the one that says "it fails", the only one
//! naming an error class or a Spark term, the one that repeats the stem's words. The question
//! bank must not reward any of them (`model/tests/quiz_bank.rs` holds each under 35% in both
//! languages), and "what happens?" items must not be keyed to a failure most of the time.
//!
//! Scores are expectations with ties broken at random: a strategy that leaves k choices to pick
//! from scores 1/k on a question when the key is among them. A strategy with nothing to go on
//! (no choice names an error class) picks among all choices.

use crate::study::quiz::{Kind, Question};

use crate::text::i18n::{words as words_of, Words};
use crate::text::Lang;

/// A way to pick a choice without knowing the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The longest choice, in characters (ties share the pick).
    Longest,
    /// The shortest choice, in characters (ties share the pick).
    Shortest,
    /// A choice that says the query fails (throws, is rejected, raises an error).
    Failure,
    /// The only choice naming an error class (`STREAMING_OUTPUT_MODE...`, `AnalysisException`).
    OnlyErrorClass,
    /// The only choice naming a Spark term (code in backticks, an API name such as
    /// `withWatermark` or `numRowsTotal`).
    OnlySparkTerm,
    /// The choice sharing the most words with the stem.
    StemWords,
}

impl Strategy {
    /// Every strategy, in the order the table lists them.
    pub const ALL: [Strategy; 6] = [Strategy::Longest, Strategy::Shortest, Strategy::Failure, Strategy::OnlyErrorClass, Strategy::OnlySparkTerm, Strategy::StemWords];

    /// A short name for the printed table.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Longest => "always the longest",
            Strategy::Shortest => "always the shortest",
            Strategy::Failure => "always the failure",
            Strategy::OnlyErrorClass => "the only error class",
            Strategy::OnlySparkTerm => "the only Spark term",
            Strategy::StemWords => "the stem's words",
        }
    }
}

/// Whether `text` (and `lower`, the same text in lower case) holds an entry of a word list:
/// an entry in lower case in any case, one with capitals as written (`Exception`).
fn holds(text: &str, lower: &str, word: &str) -> bool {
    if word.chars().any(char::is_uppercase) {
        text.contains(word)
    } else {
        lower.contains(word)
    }
}

/// True when a choice says the query fails (in any stage): [`Words::Failure`].
pub fn names_failure(choice: &str, lang: Lang) -> bool {
    let lower = choice.to_lowercase();
    words_of(lang, Words::Failure).iter().any(|w| holds(choice, &lower, w))
}

/// True when a choice says the query runs (and so is an outcome choice, not a failure):
/// [`Words::Running`] anywhere, or [`Words::RunningFirst`] at its start.
pub fn names_running(choice: &str, lang: Lang) -> bool {
    let lower = choice.to_lowercase();
    words_of(lang, Words::Running).iter().any(|w| holds(choice, &lower, w)) || words_of(lang, Words::RunningFirst).iter().any(|w| lower.starts_with(w))
}

/// True when a choice names an error class: an upper-case condition with an underscore
/// (`NOT_EXPECTED_TYPE`, `_LEGACY_ERROR_TEMP_3102`) or a Java/Python exception name.
pub fn names_error_class(choice: &str) -> bool {
    choice.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).any(|w| {
        let w = w.trim_matches('.');
        let condition = w.contains('_') && w.len() >= 6 && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '.');
        let exception = w.ends_with("Exception") || w.ends_with("Error") && w.chars().next().is_some_and(|c| c.is_ascii_uppercase());
        condition || exception
    })
}

/// True when a choice names a Spark term: code in backticks, or an identifier written as an API
/// name (`withWatermark`, `numRowsTotal`, `dropDuplicates(...)`).
pub fn names_spark_term(choice: &str) -> bool {
    choice.contains('`')
        || choice.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| {
            let camel = w.len() >= 5 && w.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && w.chars().any(|c| c.is_ascii_uppercase());
            camel
        })
}

/// Lower-case words of 3+ letters (any script), without the most common English ones.
fn words(text: &str) -> Vec<String> {
    const STOP: &[&str] = &["the", "and", "for", "with", "its", "that", "this", "are", "was", "has", "not", "from", "what", "which", "does", "into", "each", "one", "all", "any", "when", "how", "only", "then"];
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 3 && !STOP.contains(&w.as_str()))
        .collect()
}

/// The choices (indices) `s` would pick among for `q` in `lang`.
pub fn candidates(q: &Question, lang: Lang, s: Strategy) -> Vec<usize> {
    let t = q.text(lang);
    let all: Vec<usize> = (0..t.choices.len()).collect();
    let best_by = |score: &dyn Fn(&str) -> i64| -> Vec<usize> {
        let scores: Vec<i64> = t.choices.iter().map(|c| score(c)).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        all.iter().copied().filter(|&i| scores[i] == best).collect()
    };
    let only = |pred: &dyn Fn(&str) -> bool| -> Vec<usize> {
        let hits: Vec<usize> = all.iter().copied().filter(|&i| pred(&t.choices[i])).collect();
        if hits.len() == 1 {
            hits
        } else {
            all.clone()
        }
    };
    match s {
        Strategy::Longest => best_by(&|c| c.chars().count() as i64),
        Strategy::Shortest => best_by(&|c| -(c.chars().count() as i64)),
        Strategy::Failure => {
            let hits: Vec<usize> = all.iter().copied().filter(|&i| names_failure(&t.choices[i], lang)).collect();
            if hits.is_empty() {
                all.clone()
            } else {
                hits
            }
        }
        Strategy::OnlyErrorClass => only(&names_error_class),
        Strategy::OnlySparkTerm => only(&names_spark_term),
        Strategy::StemWords => {
            let stem = words(&t.prompt);
            best_by(&|c| words(c).iter().filter(|w| stem.contains(w)).count() as i64)
        }
    }
}

/// The expected share of choice questions `s` answers right in `lang` (0.0 to 1.0).
pub fn score(bank: &[Question], lang: Lang, s: Strategy) -> f64 {
    let choice: Vec<&Question> = bank.iter().filter(|q| q.kind == Kind::Choice).collect();
    let total: f64 = choice
        .iter()
        .map(|q| {
            let c = candidates(q, lang, s);
            if c.contains(&q.answer) {
                1.0 / c.len() as f64
            } else {
                0.0
            }
        })
        .sum();
    total / choice.len().max(1) as f64
}

/// "What happens?" items: choice questions with at least one choice saying the query fails
/// and one saying it runs.
pub fn outcome_items(bank: &[Question], lang: Lang) -> Vec<&Question> {
    bank.iter()
        .filter(|q| q.kind == Kind::Choice)
        .filter(|q| {
            let cs = &q.text(lang).choices;
            cs.iter().any(|c| names_failure(c, lang)) && cs.iter().any(|c| names_running(c, lang))
        })
        .collect()
}

/// (outcome items keyed to a failure, outcome items) in `lang`.
pub fn failure_keys(bank: &[Question], lang: Lang) -> (usize, usize) {
    let items = outcome_items(bank, lang);
    let failing = items.iter().filter(|q| names_failure(&q.text(lang).choices[q.answer], lang)).count();
    (failing, items.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Text;

    #[test]
    fn failure_running_and_error_classes_are_recognised() {
        assert!(names_failure("`start()` throws an AnalysisException", Lang::En));
        assert!(names_failure("The first micro-batch fails", Lang::En));
        assert!(!names_failure("It runs and emits 3 rows", Lang::En));
        assert!(names_running("It runs and emits 3 rows", Lang::En));
        assert!(Text::from_fn(|l| names_failure("start()가 AnalysisException을 던진다", l)).ko);
        assert!(Text::from_fn(|l| names_running("실행되며 3개 행을 낸다", l)).ko);
        assert!(names_error_class("fails with STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION"));
        assert!(names_error_class("throws an AnalysisException"));
        assert!(names_error_class("_LEGACY_ERROR_TEMP_3102"));
        assert!(!names_error_class("It runs in UPDATE mode"));
        assert!(names_spark_term("`dropDuplicates(['id'])`"));
        assert!(names_spark_term("numRowsTotal grows"));
        assert!(!names_spark_term("The state grows"));
    }
}
