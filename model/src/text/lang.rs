//! The languages of every label, question and lesson.

/// The two languages of every label and question.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
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
}
