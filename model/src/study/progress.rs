//! The learner's progress, kept in browser storage: every answer, per-topic scores, the
//! lesson reached, the quiz position, and a review queue of missed questions that come
//! back after 1, 3 and 7 days.
//!
//! The record is versioned JSON ([`PROGRESS_VERSION`]). [`Progress::load`] never panics: a
//! record it cannot read, or one written by a newer version, is reset with a [`Notice`];
//! answers to questions no longer in the bank are dropped (and scores recomputed) with a
//! notice. Nothing here reads the clock: the caller passes today's [`Day`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::text::{i18n, Lang, Text};

use crate::study::quiz::{Question, QuestionKey};

/// The version [`Progress::to_json`] writes.
pub const PROGRESS_VERSION: u32 = 1;

/// At most this many answers are kept (the oldest go first); scores keep counting.
pub const MAX_ANSWERS: usize = 5000;

/// Days a missed question waits before it comes back, per review stage: 1 day after a miss,
/// then 3 days after the first right answer at review, then 7; right at the third review, it
/// leaves the queue.
pub const REVIEW_DAYS: [i64; 3] = [1, 3, 7];

/// A calendar day: days since 1970-01-01 (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Day(pub i64);

impl Day {
    /// The day of a JavaScript `Date.now()` value (ms since the epoch, UTC).
    pub fn from_unix_ms(ms: i64) -> Day {
        Day(ms.div_euclid(86_400_000))
    }

    /// `n` days later.
    pub fn plus(self, n: i64) -> Day {
        Day(self.0.saturating_add(n))
    }
}

/// One answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The question's id.
    pub question: String,
    /// The question's topic id (its quiz file), whose score the answer counted in.
    pub topic: String,
    /// True if the answer was right.
    pub correct: bool,
    /// The day it was given.
    pub day: Day,
    /// Given in exam mode (not practice or review).
    #[serde(default)]
    pub exam: bool,
}

/// Answers and right answers in one topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Score {
    /// Questions answered in the topic.
    pub answered: u32,
    /// Of those, how many were right.
    pub correct: u32,
}

impl Score {
    /// Right answers in percent (0 when nothing was answered).
    pub fn percent(&self) -> u32 {
        let p = (u64::from(self.correct) * 100).checked_div(u64::from(self.answered)).unwrap_or(0);
        u32::try_from(p).unwrap_or(u32::MAX)
    }
}

/// A missed question waiting to come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// The first day it is due again.
    pub due: Day,
    /// 0 after a miss; +1 for each right answer at review (see [`REVIEW_DAYS`]).
    pub stage: u8,
}

/// The whole record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The record's format version ([`PROGRESS_VERSION`] when written).
    pub version: u32,
    /// Every answer, oldest first (at most [`MAX_ANSWERS`]).
    pub answers: Vec<Answer>,
    /// Per topic id.
    pub scores: BTreeMap<String, Score>,
    /// The lesson reached (an id from `quizzes/lessons/`).
    pub lesson: Option<String>,
    /// The guided step reached in that lesson.
    pub lesson_step: usize,
    /// Lessons finished, in the order they were finished.
    pub lessons_done: Vec<String>,
    /// The question shown in the practice quiz (index into the bank).
    pub quiz_position: usize,
    /// Missed questions by id.
    pub review: BTreeMap<String, Review>,
}

impl Default for Progress {
    fn default() -> Progress {
        Progress {
            version: PROGRESS_VERSION,
            answers: Vec::new(),
            scores: BTreeMap::new(),
            lesson: None,
            lesson_step: 0,
            lessons_done: Vec::new(),
            quiz_position: 0,
            review: BTreeMap::new(),
        }
    }
}

/// Why a stored record was changed on load, in every language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice(pub Text);

impl Notice {
    /// The message in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        self.0.get(lang)
    }
}

/// What [`Progress::load`] made of a stored record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The record as read (a fresh one when it was reset).
    pub progress: Progress,
    /// Set when the record was reset or migrated.
    pub notice: Option<Notice>,
}

impl Progress {
    /// Records one answer to `q` on `today`: the answer log, the topic's score, and the review
    /// queue (a miss puts the question back to stage 0, due tomorrow; a right answer on or
    /// after its due day moves it a stage on, or out of the queue after the last stage).
    pub fn record(&mut self, q: &Question, correct: bool, today: Day, exam: bool) {
        self.answers.push(Answer { question: q.id.clone(), topic: q.topic.clone(), correct, day: today, exam });
        if self.answers.len() > MAX_ANSWERS {
            let extra = self.answers.len() - MAX_ANSWERS;
            self.answers.drain(..extra);
        }
        let s = self.scores.entry(q.topic.clone()).or_default();
        s.answered = s.answered.saturating_add(1);
        s.correct = s.correct.saturating_add(u32::from(correct));
        if !correct {
            self.review.insert(q.id.clone(), Review { due: today.plus(REVIEW_DAYS[0]), stage: 0 });
        } else if let Some(r) = self.review.get(&q.id).copied() {
            if r.due <= today {
                let stage = r.stage.saturating_add(1);
                match REVIEW_DAYS.get(usize::from(stage)) {
                    Some(days) => {
                        self.review.insert(q.id.clone(), Review { due: today.plus(*days), stage });
                    }
                    None => {
                        self.review.remove(&q.id);
                    }
                }
            }
        }
    }

    /// The questions due for review on `today`, the longest overdue first (then by id).
    pub fn due(&self, today: Day) -> Vec<String> {
        let mut due: Vec<(&Day, &String)> = self.review.iter().filter(|(_, r)| r.due <= today).map(|(id, r)| (&r.due, id)).collect();
        due.sort();
        due.into_iter().map(|(_, id)| id.clone()).collect()
    }

    /// The score of `topic` (zero when nothing was answered).
    pub fn score(&self, topic: &str) -> Score {
        self.scores.get(topic).copied().unwrap_or_default()
    }

    /// Moves the study path to `lesson`, step `step`.
    pub fn reach_lesson(&mut self, lesson: &str, step: usize) {
        self.lesson = Some(lesson.to_string());
        self.lesson_step = step;
    }

    /// Marks `lesson` finished (once).
    pub fn finish_lesson(&mut self, lesson: &str) {
        if !self.lessons_done.iter().any(|l| l == lesson) {
            self.lessons_done.push(lesson.to_string());
        }
    }

    /// The record as JSON for browser storage.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a stored record. Empty text is a fresh start. Text that is not a record of this
    /// format, or a record from a newer version, is reset with a notice. A readable record is
    /// migrated to the current bank: answers and reviews of questions that no longer exist
    /// are dropped and the scores recomputed from what is left; an unknown lesson is
    /// forgotten; the quiz position is kept inside the bank.
    /// `bank` is the questions, whole or as the app's index ([`QuestionKey`]).
    pub fn load<Q: QuestionKey>(text: &str, bank: &[Q], lesson_ids: &[String]) -> Loaded {
        if text.trim().is_empty() {
            return Loaded { progress: Progress::default(), notice: None };
        }
        let reset = |text: Text| Loaded { progress: Progress::default(), notice: Some(Notice(text)) };
        let json: Json = match serde_json::from_str(text) {
            Ok(j) => j,
            Err(e) => {
                return reset(i18n::text("progress.unreadable", &[("e", &e)]))
            }
        };
        let version = json.get("version").and_then(Json::as_u64);
        match version {
            Some(v) if v == u64::from(PROGRESS_VERSION) => {}
            Some(v) if v > u64::from(PROGRESS_VERSION) => {
                return reset(i18n::text("progress.newer", &[("v", &v)]))
            }
            _ => {
                return reset(i18n::text("progress.unknown", &[]))
            }
        }
        let mut p: Progress = match serde_json::from_value(json) {
            Ok(p) => p,
            Err(e) => {
                return reset(i18n::text("progress.damaged", &[("e", &e)]))
            }
        };
        let known = |id: &str| bank.iter().any(|q| q.id() == id);
        let before = (p.answers.len(), p.review.len());
        p.answers.retain(|a| known(&a.question));
        p.review.retain(|id, _| known(id));
        let dropped = (before.0 - p.answers.len(), before.1 - p.review.len());
        if dropped != (0, 0) {
            // Scores are recomputed from the answers that are left (older answers past
            // MAX_ANSWERS are gone, so this is the best that can be done).
            p.scores.clear();
            for a in &p.answers {
                let topic = bank.iter().find(|q| q.id() == a.question).map_or(a.topic.clone(), |q| q.topic().to_string());
                let s = p.scores.entry(topic).or_default();
                s.answered = s.answered.saturating_add(1);
                s.correct = s.correct.saturating_add(u32::from(a.correct));
            }
        }
        if p.lesson.as_ref().is_some_and(|l| !lesson_ids.contains(l)) {
            p.lesson = None;
            p.lesson_step = 0;
        }
        p.lessons_done.retain(|l| lesson_ids.contains(l));
        if p.quiz_position >= bank.len() {
            p.quiz_position = 0;
        }
        let notice = (dropped != (0, 0)).then(|| Notice(i18n::text("progress.migrated", &[("a", &dropped.0), ("r", &dropped.1)])));
        Loaded { progress: p, notice }
    }
}
