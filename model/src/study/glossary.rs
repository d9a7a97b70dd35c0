//! One Korean term per concept. `quizzes/glossary.toml` lists each concept's English term,
//! its Korean term, the variants not to use, and a one-line definition in both languages;
//! [`banned_in`] finds those variants, and [`texts_in`] gathers every text the app shows in a
//! language (labels, questions, topics, lessons, presets) so a test can check them all.

use serde::Deserialize;

use crate::text::Text;

/// One concept.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// The term in every language (`en = "…"`: as the programming guide says it; `ko = "…"`:
    /// the one Korean term to use).
    #[serde(flatten)]
    pub term: Text,
    /// Variants that must not appear in Korean text (another spelling or translation).
    #[serde(default)]
    pub banned: Vec<String>,
    /// Spellings the learners' textbooks use that are accepted beside [`Term::ko`]
    /// (`마이크로배치`, `정형화 스트리밍`): shown as "also written", never flagged.
    #[serde(default)]
    pub variants: Vec<String>,
    /// One line: what it is, in every language (`def.en = "…"`, `def.ko = "…"`).
    pub def: Text,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    term: Vec<Term>,
}

/// Every term, in file order.
///
/// # Errors
/// [`crate::data::LOADING`] while the glossary is downloading (in the browser); the file does
/// not parse, a term has an empty field, or a banned variant is part of some
/// term's own Korean text (it could then never be used).
pub fn glossary() -> Result<Vec<Term>, String> {
    let file: File = crate::data::fetched("glossary")?;
    for t in &file.term {
        if t.term.iter().chain(t.def.iter()).any(|(_, s)| s.trim().is_empty()) {
            return Err(format!("quizzes/glossary.toml: term '{}' has an empty field", t.term.en));
        }
        if let Some(b) = t.banned.iter().find(|b| b.trim().is_empty()) {
            return Err(format!("quizzes/glossary.toml: term '{}' has an empty banned variant '{b}'", t.term.en));
        }
    }
    for t in &file.term {
        if let Some((bad, good)) = banned_in(&t.term.ko, &file.term).into_iter().next() {
            return Err(format!("quizzes/glossary.toml: the term '{}' contains '{bad}', a banned variant of '{good}'", t.term.ko));
        }
    }
    Ok(file.term)
}

/// Every banned variant in `text`: (variant, the term to use instead). An occurrence inside
/// a use of some term's own Korean text is not flagged (`윈도` inside `윈도우`).
pub fn banned_in(text: &str, terms: &[Term]) -> Vec<(String, String)> {
    let allowed: Vec<(usize, usize)> = terms.iter().flat_map(|t| text.match_indices(t.term.ko.as_str()).map(|(i, m)| (i, i + m.len()))).collect();
    let mut out = Vec::new();
    for t in terms {
        for b in &t.banned {
            let hit = text.match_indices(b.as_str()).any(|(i, m)| !allowed.iter().any(|(s, e)| *s <= i && i + m.len() <= *e));
            if hit {
                out.push((b.clone(), t.term.ko.clone()));
            }
        }
    }
    out
}

/// Every text the app shows in `lang`: (where, text). Labels, topic names, questions (prompt,
/// choices, explanation), lessons (every text field and step), preset names, titles and
/// notes, and the glossary's own definitions; for a language other than English, the
/// engine's messages as that language writes them.
///
/// # Errors
/// A data file that does not parse.
#[cfg(not(target_arch = "wasm32"))]
pub fn texts_in(lang: crate::text::Lang) -> Result<Vec<(String, String)>, String> {
    use crate::lab::presets::{preset_info, presets};
    use crate::study::quiz::{bank, topics};
    let mut out = Vec::new();
    for (key, text) in crate::text::i18n::labels_in(lang) {
        out.push((format!("i18n '{key}'"), text.to_string()));
    }
    for (en, text) in crate::text::i18n::messages_in(lang) {
        out.push((format!("i18n message '{en}'"), text.to_string()));
    }
    for t in topics()? {
        out.push((format!("topic {}", t.id), t.name(lang).to_string()));
    }
    for q in bank()? {
        let t = q.text(lang);
        out.push((format!("question {} prompt", q.id), t.prompt.clone()));
        out.push((format!("question {} explanation", q.id), t.explanation.clone()));
        // Every kind's listed items (a value question has none).
        for (i, c) in t.choices.iter().enumerate() {
            out.push((format!("question {} choice {i}", q.id), c.clone()));
        }
    }
    for l in crate::study::lesson::lessons()? {
        let t = l.text.get(lang);
        for (field, text) in [("title", &t.title), ("text", &t.text), ("watch", &t.watch), ("speaker", &t.speaker)] {
            out.push((format!("lesson {} {field}", l.id), text.clone()));
        }
        if let Some(e) = &t.exam {
            out.push((format!("lesson {} exam", l.id), e.clone()));
        }
        for (i, s) in l.steps.iter().enumerate() {
            out.push((format!("lesson {} step {i}", l.id), s.text.get(lang).text.clone()));
            out.push((format!("lesson {} step {i} why", l.id), s.text.get(lang).why.clone()));
        }
    }
    for (id, _) in presets() {
        let info = preset_info(id).ok_or_else(|| format!("preset {id} does not parse"))?;
        let code = lang.code();
        out.push((format!("preset {id} name ({code})"), info.name(lang).to_string()));
        out.push((format!("preset {id} title ({code})"), info.title(lang).to_string()));
        out.push((format!("preset {id} notes ({code})"), info.notes(lang).to_string()));
    }
    for t in glossary()? {
        out.push((format!("glossary '{}'", t.term.en), t.def.get(lang).clone()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(ko: &str, banned: &[&str]) -> Term {
        let mut term = Text::same("x");
        term.ko = ko.into();
        Term { term, banned: banned.iter().map(|b| b.to_string()).collect(), variants: Vec::new(), def: Text::same("x") }
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
        assert!(g.iter().any(|t| t.term.ko == "데이터 없는 배치"));
    }
}
