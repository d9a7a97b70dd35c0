//! The languages of every label, question and lesson, and [`Text`], a value in each of them.
//!
//! Adding a language starts here: a [`Lang`] variant (with its place in [`Lang::ALL`] and its
//! [`Lang::code`]), a [`Text`] field and its arms in [`Text::get`] and [`Text::from_fn`], then
//! one table file beside `en.rs` and `ko.rs` read by `i18n`. The data files then carry the new
//! field.

use serde::{Deserialize, Serialize};

/// The two languages of every label and question.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub enum Lang {
    /// English, the default.
    #[default]
    En,
    /// Korean.
    Ko,
}

impl Lang {
    /// Every language, in the order the page offers them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ko];

    /// The language's code: its [`Text`] field in the data files, its `lang` attribute on the
    /// page, its suffix on a preset file's keys (`name_ko`; English has none).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
        }
    }

    /// The language after this one in [`Lang::ALL`], back to the first after the last: what
    /// the page's language button switches to (and names, by [`Lang::native_name`]).
    pub fn next(self) -> Lang {
        let i = Lang::ALL.iter().position(|l| *l == self).unwrap_or(0);
        Lang::ALL[(i + 1) % Lang::ALL.len()]
    }

    /// The language's name in itself, as a language picker or a column heading shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ko => "한국어",
        }
    }

    /// The language with `code` ([`Lang::code`]); `None` for any other text.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }
}

/// A value in every language: a sentence (`Text`, the default), or a whole block of text such
/// as a question's prompt and choices (`Text<QuestionText>`). Data files write it as one field
/// per language code (`en = "…"`, `ko = "…"`); code builds it with [`Text::from_fn`] (usually
/// through `i18n::text`, which reads the label tables).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text<T = String> {
    /// English.
    pub en: T,
    /// Korean.
    pub ko: T,
}

impl<T> Text<T> {
    /// The value in `lang`.
    pub fn get(&self, lang: Lang) -> &T {
        match lang {
            Lang::En => &self.en,
            Lang::Ko => &self.ko,
        }
    }

    /// The text whose value in each language is `f(lang)`.
    pub fn from_fn(mut f: impl FnMut(Lang) -> T) -> Text<T> {
        Text { en: f(Lang::En), ko: f(Lang::Ko) }
    }

    /// Each language with its value, in [`Lang::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Lang, &T)> {
        Lang::ALL.into_iter().map(move |l| (l, self.get(l)))
    }

    /// The text with `f` applied in every language.
    pub fn map<U>(&self, mut f: impl FnMut(Lang, &T) -> U) -> Text<U> {
        Text::from_fn(|l| f(l, self.get(l)))
    }
}

impl Text {
    /// The same words in every language (a name Spark gives, a number).
    pub fn same(text: impl Into<String>) -> Text {
        let text = text.into();
        Text::from_fn(|_| text.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_reads_its_own_field_and_code() {
        let t = Text { en: "row".to_string(), ko: "행".to_string() };
        assert_eq!(t.get(Lang::En), "row");
        assert_eq!(t.get(Lang::Ko), "행");
        assert_eq!(t.iter().map(|(l, s)| format!("{}={s}", l.code())).collect::<Vec<_>>(), ["en=row", "ko=행"]);
        assert_eq!(t.map(|l, s| format!("{s}/{}", l.code())).ko, "행/ko");
        for l in Lang::ALL {
            assert_eq!(Lang::from_code(l.code()), Some(l));
        }
        assert_eq!(Lang::from_code("xx"), None);
        // The button walks every language and comes back.
        assert_eq!(Lang::En.next(), Lang::Ko);
        assert_eq!(Lang::Ko.next(), Lang::En);
        // The data files' form: one field per language code.
        let json = serde_json::to_value(&t).unwrap_or_default();
        for l in Lang::ALL {
            assert_eq!(json[l.code()].as_str(), Some(t.get(l).as_str()));
        }
    }
}
