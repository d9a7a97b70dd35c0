//! The question bank's quality rules (`quizzes/README.md`, "Rules for a fair question"),
//! as plain functions that `model/tests/quiz_bank.rs` runs over the whole bank:
//! no justification inside a choice, the right choice not given away by its length, one
//! question per claim and scenario, explanations with numbers, a tied answer that shows the
//! engine's value, and both readings said where the programming guide and Spark 4.3 differ.

use std::collections::BTreeMap;

use crate::study::quiz::{Kind, Question};

use crate::text::i18n::{whole_words, words, Words};
use crate::text::Lang;

fn word_at(text: &str, start: usize, len: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[start + len..].chars().next();
    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    edge(before) && edge(after)
}

/// The first justification word or mark in a choice, if any ([`Words::Justification`]: in
/// any case; a word of a language whose words stand apart only as a whole word).
pub fn justification_in(choice: &str, lang: Lang) -> Option<&'static str> {
    let lower = choice.to_lowercase();
    let whole = whole_words(lang);
    words(lang, Words::Justification).iter().copied().find(|w| {
        let alpha = w.chars().any(char::is_alphabetic);
        lower.match_indices(w).any(|(i, m)| !(whole && alpha) || word_at(&lower, i, m.len()))
    })
}

/// True when the right choice is strictly longer (in characters) than every other choice: the
/// giveaway a learner can spot without reading. (Equal lengths give nothing away.)
pub fn answer_is_longest(q: &Question, lang: Lang) -> bool {
    let choices = &q.text(lang).choices;
    let Some(answer) = choices.get(q.answer) else { return false };
    let len = |s: &String| s.chars().count();
    choices.iter().enumerate().all(|(i, c)| i == q.answer || len(c) < len(answer))
}

/// (questions whose right choice is the longest, choice questions) in `lang`.
pub fn longest_share(bank: &[Question], lang: Lang) -> (usize, usize) {
    let choice: Vec<&Question> = bank.iter().filter(|q| q.kind == Kind::Choice).collect();
    (choice.iter().filter(|q| answer_is_longest(q, lang)).count(), choice.len())
}

/// What makes two questions the same: the scenario (with its overrides) and the claim.
pub fn claim_key(q: &Question) -> String {
    format!("{}|{:?}|{:?}|{:?}|{:?}", q.scenario, q.query, q.output_mode, q.conf, q.check)
}

/// Questions per topic, in the order topics first appear.
pub fn per_topic(bank: &[Question]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for q in bank {
        match out.iter_mut().find(|(t, _)| *t == q.topic) {
            Some((_, n)) => *n += 1,
            None => out.push((q.topic.clone(), 1)),
        }
    }
    out
}

/// How many questions of each kind (`choice`, `value`).
pub fn per_kind(bank: &[Question]) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for q in bank {
        let kind = match q.kind {
            Kind::Choice => "choice",
            Kind::Value => "value",
        };
        *out.entry(kind).or_insert(0) += 1;
    }
    out
}

/// The first whole number in a text that is not part of a time (`09:03`) or an id (`c8`).
pub fn first_number(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let glued_before = start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b':' || bytes[start - 1] == b'.' || bytes[start - 1] == b'_');
            let glued_after = i < bytes.len() && (bytes[i] == b':' || bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) || bytes[i].is_ascii_alphabetic());
            if !glued_before && !glued_after {
                return text[start..i].parse().ok();
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Whether a choice shows a claim value (`09:03`, or a count as its first number).
fn shows(choice: &str, value: &str) -> bool {
    if value.contains(':') || value.contains('-') {
        choice.contains(value)
    } else {
        first_number(choice).map(|n| n.to_string()).as_deref() == Some(value)
    }
}

/// A choice question with `tie`: the right choice (in both languages) shows the claim's
/// value, and no other choice does.
///
/// # Errors
/// Which choice breaks the tie.
pub fn tie_holds(q: &Question) -> Result<(), String> {
    let Some(key) = &q.tie else { return Ok(()) };
    let value = q.claim_value_text(key).ok_or_else(|| format!("tie '{key}' but the claim has no {key}"))?;
    for lang in Lang::ALL {
        for (i, c) in q.text(lang).choices.iter().enumerate() {
            let right = i == q.answer;
            if shows(c, &value) != right {
                let what = if right { "does not show" } else { "also shows" };
                return Err(format!("tie {key} = {value}: choice {i} ('{c}') {what} it"));
            }
        }
    }
    Ok(())
}

/// The programming guide and Spark 4.3 differ on this question's
/// query: a `limit` or `distinct()` on a stream, or a stream-stream inner join in update mode
/// (outer, semi and anti joins are append-only in both).
pub fn touches_guide_difference(q: &Question) -> bool {
    let Ok(s) = q.scenario() else { return false };
    let text = s.query.replace(' ', "");
    let lower = text.to_lowercase();
    let inner_stream_join = s.sources.len() >= 2 && text.contains(".join(") && !["outer", "semi", "anti"].iter().any(|t| lower.contains(t));
    text.contains(".limit(") || text.contains(".distinct()") || (inner_stream_join && s.output_mode == "update")
}

/// A question with `guide_differs` says both readings: the text in every language names the
/// guide ([`Words::Guide`]: guide, 가이드) and Spark 4.3 (in the prompt or the explanation).
///
/// # Errors
/// What the text does not say.
pub fn guide_rule(q: &Question) -> Result<(), String> {
    if touches_guide_difference(q) && q.guide_differs.is_none() {
        return Err("the query uses limit, distinct() or a stream-stream join in update mode, where the guide and Spark 4.3 differ: set guide_differs (the row of docs/spark-semantics.md §14) and say both".into());
    }
    if q.guide_differs.is_none() {
        return Ok(());
    }
    for lang in Lang::ALL {
        let t = q.text(lang);
        let all = format!("{} {}", t.prompt, t.explanation);
        let guide = words(lang, Words::Guide);
        if !guide.iter().any(|g| all.contains(g)) || !all.contains("4.3") {
            return Err(format!("{lang:?}: guide_differs is set, but the text does not say both what the {} says and what Spark 4.3 does", guide.join("/")));
        }
    }
    Ok(())
}

/// An explanation gives the numbers: at least one digit, and at least 60 characters.
pub fn explanation_has_numbers(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit()) && text.chars().count() >= 60
}

/// The standalone whole numbers of a text outside code (backticks), skipping times (`09:03`),
/// ids (`c8`), decimals, numbered things (`batch 3`, `post 2`, `group 1`: [`Words::Numbered`])
/// and durations (`10 minutes`, `5분`: [`Words::Duration`]), in any language.
pub fn loose_numbers(text: &str) -> Vec<u64> {
    let plain: String = text.split('`').enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, p)| p).collect::<Vec<_>>().join(" ");
    let bytes = plain.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let before = &plain[..start];
        let after = &plain[i..];
        let glued_before = start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || matches!(bytes[start - 1], b':' | b'.' | b'_' | b'-' | b'/'));
        let glued_after = after.starts_with(':') || after.starts_with('.') && after[1..].starts_with(|c: char| c.is_ascii_digit()) || after.starts_with(|c: char| c.is_ascii_alphabetic());
        let word_before = before.trim_end().to_lowercase();
        let batch_id = Lang::ALL.into_iter().flat_map(|l| words(l, Words::Numbered)).any(|w| word_before.ends_with(w));
        let rest = after.trim_start().to_lowercase();
        let duration = Lang::ALL.into_iter().flat_map(|l| words(l, Words::Duration)).any(|u| rest.starts_with(u));
        if !glued_before && !glued_after && !batch_id && !duration {
            if let Ok(n) = plain[start..i].parse() {
                out.push(n);
            }
        }
    }
    out
}

/// Why a stem leans on something the learner is not shown (another question, the lab's steps,
/// a preset's name, a batch of a run it does not show), if it does. A stem that names a batch id
/// or an input group ("group 0") must show its scenario: the query in backticks and at least
/// one event time.
pub fn leans_on_another(prompt: &str, lang: Lang) -> Option<String> {
    let lower = prompt.to_lowercase();
    let (starts, phrases) = (words(lang, Words::AsAboveStart), words(lang, Words::AsAbovePhrase));
    if let Some(s) = starts.iter().find(|s| lower.starts_with(*s)) {
        return Some(format!("starts with '{}', pointing at a question the learner may not have seen", s.trim()));
    }
    if let Some(p) = phrases.iter().find(|p| lower.contains(*p)) {
        return Some(format!("mentions '{p}', which the exam does not show"));
    }
    let batch_word = words(lang, Words::Batch).iter().any(|b| (0..10).any(|n| lower.contains(&format!("{b} {n}"))));
    if batch_word {
        let code = prompt.split('`').enumerate().any(|(i, p)| i % 2 == 1 && p.contains('('));
        let time = prompt.as_bytes().windows(5).any(|w| w[0].is_ascii_digit() && w[1].is_ascii_digit() && w[2] == b':' && w[3].is_ascii_digit() && w[4].is_ascii_digit());
        if !(code && time) {
            return Some("names a batch of a run it does not show: show the query and the events, or ask without batch ids".into());
        }
    }
    None
}

/// Why a stem gives its own answer away, if it does: a typed value, or the tied value of a
/// choice question, stands in the prompt as a number (outside code, times and durations).
pub fn stem_gives_answer(q: &Question, lang: Lang) -> Option<String> {
    let key = match q.kind {
        Kind::Value => q.value_of.as_deref()?,
        Kind::Choice => q.tie.as_deref()?,
    };
    let value = q.claim_value_text(key)?;
    let prompt = &q.text(lang).prompt;
    if value.contains(':') {
        // A time answer: event times in the stem are the scenario, not the answer.
        return None;
    }
    let n: u64 = value.parse().ok()?;
    loose_numbers(prompt).contains(&n).then(|| format!("the prompt shows the answer {n}"))
}

/// Every rule above for one question, as messages (empty when it follows them all).
pub fn violations(q: &Question) -> Vec<String> {
    let mut out = Vec::new();
    for lang in Lang::ALL {
        let t = q.text(lang);
        for (i, c) in t.choices.iter().enumerate() {
            if let Some(w) = justification_in(c, lang) {
                out.push(format!("{lang:?} choice {i} has a justification ('{}'): put the reason in the explanation: {c}", w.trim()));
            }
        }
        if !explanation_has_numbers(&t.explanation) {
            out.push(format!("{lang:?} explanation gives no numbers (or is shorter than 60 characters)"));
        }
    }
    if let Err(m) = tie_holds(q) {
        out.push(m);
    }
    if let Err(m) = guide_rule(q) {
        out.push(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Text;

    #[test]
    fn justification_words_are_found_as_words() {
        assert_eq!(justification_in("Dropped, because it is late", Lang::En), Some("because"));
        assert_eq!(justification_in("start() fails: no watermark", Lang::En), Some(": "));
        assert_eq!(justification_in("Since 09:03", Lang::En), Some("since"));
        assert_eq!(justification_in("09:03", Lang::En), None);
        assert_eq!(justification_in("The sincere answer", Lang::En), None);
        // Korean words are found inside longer words (때문에).
        assert_eq!(Text::from_fn(|l| justification_in("늦었기 때문에 버려진다", l)).ko, Some("때문"));
        assert_eq!(Text::from_fn(|l| justification_in("버려진다", l)).ko, None);
    }

    #[test]
    fn first_number_skips_times_and_ids() {
        assert_eq!(first_number("2 rows"), Some(2));
        assert_eq!(first_number("c8 at 09:03, then 3"), Some(3));
        assert_eq!(first_number("13"), Some(13));
        assert_eq!(first_number("[09:00, 09:10)"), None);
        assert_eq!(first_number("1.5"), None);
    }
}
