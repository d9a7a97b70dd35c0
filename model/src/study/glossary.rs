//! One Korean term per concept. `quizzes/glossary.toml` lists each concept's English term,
//! its Korean term, the variants not to use, and a one-line definition in both languages;
//! [`banned_in`] finds those variants, and [`korean_texts`] gathers every Korean text the app
//! shows (labels, questions, topics, lessons, presets) so a test can check them all.

use serde::Deserialize;

use crate::study::quiz::{bank, topics};

use crate::lab::presets::{preset_info, presets};

const GLOSSARY: &str = crate::data::data!("glossary");

/// One concept.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// The English term (as the programming guide says it).
    pub en: String,
    /// The one Korean term to use.
    pub ko: String,
    /// Variants that must not appear in Korean text (another spelling or translation).
    #[serde(default)]
    pub banned: Vec<String>,
    /// Spellings the learners' textbooks use that are accepted beside [`Term::ko`]
    /// (`마이크로배치`, `정형화 스트리밍`): shown as "also written", never flagged.
    #[serde(default)]
    pub variants: Vec<String>,
    /// One line: what it is, in English.
    pub def_en: String,
    /// The same line in Korean.
    pub def_ko: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    term: Vec<Term>,
}

/// Every term, in file order.
///
/// # Errors
/// The file does not parse, a term has an empty field, or a banned variant is part of some
/// term's own Korean text (it could then never be used).
pub fn glossary() -> Result<Vec<Term>, String> {
    let file: File = crate::data::parse("glossary.toml", GLOSSARY)?;
    for t in &file.term {
        if [&t.en, &t.ko, &t.def_en, &t.def_ko].iter().any(|s| s.trim().is_empty()) {
            return Err(format!("quizzes/glossary.toml: term '{}' has an empty field", t.en));
        }
        if let Some(b) = t.banned.iter().find(|b| b.trim().is_empty()) {
            return Err(format!("quizzes/glossary.toml: term '{}' has an empty banned variant '{b}'", t.en));
        }
    }
    for t in &file.term {
        if let Some((bad, good)) = banned_in(&t.ko, &file.term).into_iter().next() {
            return Err(format!("quizzes/glossary.toml: the term '{}' contains '{bad}', a banned variant of '{good}'", t.ko));
        }
    }
    Ok(file.term)
}

/// Every banned variant in `text`: (variant, the term to use instead). An occurrence inside
/// a use of some term's own Korean text is not flagged (`윈도` inside `윈도우`).
pub fn banned_in(text: &str, terms: &[Term]) -> Vec<(String, String)> {
    let allowed: Vec<(usize, usize)> = terms.iter().flat_map(|t| text.match_indices(t.ko.as_str()).map(|(i, m)| (i, i + m.len()))).collect();
    let mut out = Vec::new();
    for t in terms {
        for b in &t.banned {
            let hit = text.match_indices(b.as_str()).any(|(i, m)| !allowed.iter().any(|(s, e)| *s <= i && i + m.len() <= *e));
            if hit {
                out.push((b.clone(), t.ko.clone()));
            }
        }
    }
    out
}

/// Every Korean text the app shows: (where, text). Labels, topic names, questions (prompt,
/// choices, explanation), lessons (every text field and step), preset names, titles and
/// notes, and the glossary's own definitions.
///
/// # Errors
/// A data file that does not parse.
pub fn korean_texts() -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (key, _, ko) in crate::text::i18n::labels() {
        out.push((format!("i18n '{key}'"), ko.to_string()));
    }
    for (en, ko) in crate::text::i18n::messages() {
        out.push((format!("i18n message '{en}'"), ko.to_string()));
    }
    for t in topics()? {
        out.push((format!("topic {}", t.id), t.ko.clone()));
    }
    for q in bank()? {
        out.push((format!("question {} prompt", q.id), q.ko.prompt.clone()));
        out.push((format!("question {} explanation", q.id), q.ko.explanation.clone()));
        // Every kind's listed items (a value question has none).
        for (i, c) in q.ko.choices.iter().enumerate() {
            out.push((format!("question {} choice {i}", q.id), c.clone()));
        }
    }
    for l in crate::study::lesson::lessons()? {
        let t = &l.ko;
        for (field, text) in [("title", &t.title), ("text", &t.text), ("watch", &t.watch), ("speaker", &t.speaker)] {
            out.push((format!("lesson {} {field}", l.id), text.clone()));
        }
        if let Some(e) = &t.exam {
            out.push((format!("lesson {} exam", l.id), e.clone()));
        }
        for (i, s) in l.steps.iter().enumerate() {
            out.push((format!("lesson {} step {i}", l.id), s.ko.text.clone()));
            out.push((format!("lesson {} step {i} why", l.id), s.ko.why.clone()));
        }
    }
    for (id, _) in presets() {
        let info = preset_info(id).ok_or_else(|| format!("preset {id} does not parse"))?;
        out.push((format!("preset {id} name_ko"), info.name_ko));
        out.push((format!("preset {id} title_ko"), info.title_ko));
        out.push((format!("preset {id} notes_ko"), info.notes_ko));
    }
    for t in glossary()? {
        out.push((format!("glossary '{}'", t.en), t.def_ko.clone()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(ko: &str, banned: &[&str]) -> Term {
        Term { en: "x".into(), ko: ko.into(), banned: banned.iter().map(|b| b.to_string()).collect(), variants: Vec::new(), def_en: "x".into(), def_ko: "x".into() }
    }

    #[test]
    fn a_variant_inside_the_term_itself_is_not_flagged() {
        let terms = [term("윈도우", &["윈도"]), term("데이터 없는 배치", &["no-data 배치"])];
        assert!(banned_in("10분 윈도우", &terms).is_empty());
        assert_eq!(banned_in("10분 윈도", &terms), vec![("윈도".to_string(), "윈도우".to_string())]);
        assert_eq!(banned_in("no-data 배치가 실행된다", &terms).len(), 1);
    }

    #[test]
    fn the_glossary_parses() {
        let g = glossary().unwrap();
        assert!(g.len() >= 20, "only {} terms", g.len());
        assert!(g.iter().any(|t| t.ko == "데이터 없는 배치"));
    }
}
