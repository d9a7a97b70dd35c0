//! The page's routes, kept in the URL fragment (`#/lessons`, `#/lesson/watermarks`, `#/lab`,
//! `#/quiz`, `#/exam`, `#/review`, `#/glossary`, `#/cheatsheet`, `#/exam-track`) so back, forward and reload work. A share
//! link's fragment (`#lab=…`) and the recovery test's `#debug-panic` open the lab and are left
//! as they are; anything else (an empty fragment, an unknown route) opens the lesson list, which
//! names an unknown route ([`Route::unknown_path`]).
//!
//! Plain Rust, no DOM: the page reads `location.hash` and listens to `hashchange`.

/// One page of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The study path: every lesson with its progress (the page the app opens on).
    Lessons,
    /// One lesson beside the lab, by id (`watermarks`).
    Lesson(String),
    /// The free lab.
    Lab,
    /// The question bank, one question at a time.
    Quiz,
    /// Exam mode.
    Exam,
    /// Missed questions due again today.
    Review,
    /// English ↔ Korean terms.
    Glossary,
    /// The exam lens on one printable page: where the guide (the exam) and Spark 4.3 differ.
    CheatSheet,
    /// The lessons the exam needs, in order, the rest marked beyond the exam, and the mock exam.
    ExamTrack,
}

impl Route {
    /// The route of a `location.hash` value (with or without its `#`).
    ///
    /// # Examples
    /// ```
    /// use streamlab_web::route::Route;
    /// assert_eq!(Route::from_hash("#/lesson/watermarks"), Route::Lesson("watermarks".into()));
    /// assert_eq!(Route::from_hash(""), Route::Lessons);
    /// assert_eq!(Route::from_hash("#lab=AbC"), Route::Lab);
    /// ```
    pub fn from_hash(hash: &str) -> Route {
        let h = hash.strip_prefix('#').unwrap_or(hash);
        if h.starts_with("lab=") || h == "debug-panic" {
            return Route::Lab;
        }
        let path = Self::path(h);
        match path.split_once('/') {
            Some(("lesson", id)) if !id.is_empty() && !id.contains('/') => Route::Lesson(id.to_string()),
            _ => match path {
                "lab" => Route::Lab,
                "quiz" => Route::Quiz,
                "exam" => Route::Exam,
                "review" => Route::Review,
                "glossary" => Route::Glossary,
                "cheatsheet" => Route::CheatSheet,
                "exam-track" => Route::ExamTrack,
                _ => Route::Lessons,
            },
        }
    }

    /// The path a fragment names: without `#`, the leading and trailing `/`, and a `?query`
    /// (`#/glossary?x` is the glossary).
    fn path(h: &str) -> &str {
        let h = h.split('?').next().unwrap_or(h);
        h.strip_prefix('/').unwrap_or(h).trim_end_matches('/')
    }

    /// The path of a fragment that names no page (`#/foo`, `#/lesson/a/b`), which opens the
    /// lesson list: the list says so. `None` for a page's fragment, an empty one, a share link.
    pub fn unknown_path(hash: &str) -> Option<String> {
        let h = hash.strip_prefix('#').unwrap_or(hash);
        let path = Self::path(h);
        (Route::from_hash(hash) == Route::Lessons && !path.is_empty() && path != "lessons").then(|| path.to_string())
    }

    /// The fragment for this route, with its `#`.
    pub fn to_hash(&self) -> String {
        match self {
            Route::Lessons => "#/lessons".into(),
            Route::Lesson(id) => format!("#/lesson/{id}"),
            Route::Lab => "#/lab".into(),
            Route::Quiz => "#/quiz".into(),
            Route::Exam => "#/exam".into(),
            Route::Review => "#/review".into(),
            Route::Glossary => "#/glossary".into(),
            Route::CheatSheet => "#/cheatsheet".into(),
            Route::ExamTrack => "#/exam-track".into(),
        }
    }

    /// True for the pages that show the lab's panels (the lab and a lesson).
    pub fn shows_lab(&self) -> bool {
        matches!(self, Route::Lab | Route::Lesson(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_round_trips_through_its_fragment() {
        for r in [Route::Lessons, Route::Lesson("late-data".into()), Route::Lab, Route::Quiz, Route::Exam, Route::Review, Route::Glossary, Route::CheatSheet, Route::ExamTrack] {
            assert_eq!(Route::from_hash(&r.to_hash()), r);
        }
    }

    #[test]
    fn other_fragments_open_the_lesson_list_or_the_lab() {
        // No fragment: the app opens on the study path.
        assert_eq!(Route::from_hash(""), Route::Lessons);
        assert_eq!(Route::from_hash("#"), Route::Lessons);
        assert_eq!(Route::from_hash("#/nowhere"), Route::Lessons);
        assert_eq!(Route::from_hash("#/lesson/"), Route::Lessons);
        assert_eq!(Route::from_hash("#/lesson/a/b"), Route::Lessons);
        // A share link and the recovery test's fragment belong to the lab.
        assert_eq!(Route::from_hash("#lab=eJzLSM3JyQcABiwCFQ"), Route::Lab);
        assert_eq!(Route::from_hash("#debug-panic"), Route::Lab);
        // A trailing slash and a query are forgiven.
        assert_eq!(Route::from_hash("#/quiz/"), Route::Quiz);
        assert_eq!(Route::from_hash("#/glossary?x"), Route::Glossary);
        // The list says when the fragment named no page.
        assert_eq!(Route::unknown_path("#/nowhere").as_deref(), Some("nowhere"));
        assert_eq!(Route::unknown_path("#/lesson/a/b").as_deref(), Some("lesson/a/b"));
        assert_eq!(Route::unknown_path("#/quiz/9999").as_deref(), Some("quiz/9999"));
        for fine in ["", "#", "#/", "#/lessons", "#/lab", "#/lesson/watermarks", "#lab=eJzL", "#/glossary?x"] {
            assert_eq!(Route::unknown_path(fine), None, "{fine}");
        }
        assert!(Route::Lesson("x".into()).shows_lab() && Route::Lab.shows_lab() && !Route::Quiz.shows_lab());
    }
}
