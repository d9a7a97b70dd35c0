//! Exam mode: N questions drawn across the topics (seeded, so a seed is a reproducible exam),
//! each with its own choice order, then a score per topic and the list of wrong answers, each
//! with the scenario and batch to open in the lab.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::lab::rng::{fnv1a, permutation};

use crate::study::quiz::{shuffled, Answer, Grade, Kind, Question};

/// One drawn question: its id and the order its choices are shown in (see [`shuffled`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExamItem {
    /// The question's id ([`Question::id`]).
    pub question: String,
    /// `order[k]` is the index, in the file's order, of the choice shown k-th; empty for a value
    /// question.
    pub order: Vec<usize>,
}

/// A drawn exam.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exam {
    /// The seed the exam was drawn with: the same seed and bank draw the same exam.
    pub seed: u64,
    /// The drawn questions, in the order they are asked.
    pub items: Vec<ExamItem>,
}

/// What the learner gave for one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExamAnswer {
    /// The k-th choice as shown (an index into the item's `order`).
    Shown(usize),
    /// A typed value (value questions).
    Typed(String),
    /// No answer given; a missing answer counts as skipped too.
    Skipped,
}

/// Right answers in one topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicScore {
    /// The topic id (the quiz file's name).
    pub topic: String,
    /// Questions of this topic that were asked.
    pub asked: usize,
    /// Of those, how many were answered right.
    pub correct: usize,
}

/// One answer as the review shows it (a wrong or skipped one, or a right one: a lucky guess
/// deserves its explanation too), with what to open in the lab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrongAnswer {
    /// The question's id.
    pub question: String,
    /// The question's topic id.
    pub topic: String,
    /// The choice given (index in the file's order), if a choice was given.
    pub given_choice: Option<usize>,
    /// The text typed, for a value question.
    pub given_text: Option<String>,
    /// The right choice (index in the file's order), for a choice question.
    pub right_choice: Option<usize>,
    /// The right value as the lab shows it, for a value question.
    pub right_value: Option<String>,
    /// The preset to open, with the question's overrides (see [`Question::scenario`]).
    pub scenario: String,
    /// The batch the question is about, to select in the lab.
    pub batch: Option<u64>,
}

/// The result of an exam.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExamReport {
    /// Questions scored (a question no longer in the bank is left out).
    pub asked: usize,
    /// Of those, how many were answered right.
    pub correct: usize,
    /// In the order topics first appear in the exam.
    pub per_topic: Vec<TopicScore>,
    /// The answers that were wrong or skipped, in exam order, for the review.
    pub wrong: Vec<WrongAnswer>,
    /// The questions answered right, in exam order, for the review.
    pub right: Vec<WrongAnswer>,
}

/// The time an exam of `n` questions allows, in seconds: 2 minutes a question, the pace of
/// the Databricks Certified Associate Developer for Apache Spark exam (45 questions in 90
/// minutes). The clock keeps running past it; the page says when it is over.
pub fn time_limit_s(n: usize) -> u64 {
    n as u64 * 120
}

impl ExamReport {
    /// Right answers in percent.
    pub fn percent(&self) -> usize {
        (self.correct * 100).checked_div(self.asked).unwrap_or(0)
    }
}

/// Draws `n` questions (all of them if the bank is smaller) spread over the topics: the
/// topics take turns in a seeded order, each giving its next question in a seeded order, so
/// every topic is asked about as evenly as `n` allows. Each item gets its choice order from
/// [`shuffled`] with the same seed.
pub fn draw(bank: &[Question], n: usize, seed: u64) -> Exam {
    let mut by_topic: BTreeMap<&str, Vec<&Question>> = BTreeMap::new();
    for q in bank {
        by_topic.entry(q.topic.as_str()).or_default().push(q);
    }
    let pools: Vec<Vec<&Question>> = by_topic
        .into_iter()
        .map(|(topic, qs)| {
            let order = permutation(qs.len(), seed ^ fnv1a(topic.as_bytes()));
            order.into_iter().map(|i| qs[i]).collect()
        })
        .collect();
    let topic_order = permutation(pools.len(), seed.rotate_left(17) ^ 0xe8a3);
    let mut items = Vec::new();
    let mut round = 0;
    while items.len() < n.min(bank.len()) {
        for &t in &topic_order {
            if items.len() == n.min(bank.len()) {
                break;
            }
            if let Some(q) = pools[t].get(round) {
                items.push(ExamItem { question: q.id.clone(), order: shuffled(q, seed) });
            }
        }
        round += 1;
        if pools.iter().all(|p| p.len() <= round) {
            break;
        }
    }
    Exam { seed, items }
}

/// Scores an exam. `answers[i]` answers `exam.items[i]` (missing ones count as skipped).
/// A question no longer in the bank is left out of the score.
pub fn score(bank: &[Question], exam: &Exam, answers: &[ExamAnswer]) -> ExamReport {
    let mut per_topic: Vec<TopicScore> = Vec::new();
    let mut wrong = Vec::new();
    let mut rights = Vec::new();
    let (mut asked, mut correct) = (0, 0);
    for (i, item) in exam.items.iter().enumerate() {
        let Some(q) = bank.iter().find(|q| q.id == item.question) else { continue };
        let answer = answers.get(i).cloned().unwrap_or(ExamAnswer::Skipped);
        let given_choice = match &answer {
            ExamAnswer::Shown(k) => item.order.get(*k).copied(),
            _ => None,
        };
        let given_text = match &answer {
            ExamAnswer::Typed(t) => Some(t.clone()),
            _ => None,
        };
        let graded = match &answer {
            ExamAnswer::Shown(_) => given_choice.map(Answer::Choice),
            ExamAnswer::Typed(t) => Some(Answer::Typed(t.clone())),
            _ => None,
        };
        let right = graded.is_some_and(|a| q.grade(&a) == Grade::Right);
        asked += 1;
        correct += usize::from(right);
        match per_topic.iter_mut().find(|t| t.topic == q.topic) {
            Some(t) => {
                t.asked += 1;
                t.correct += usize::from(right);
            }
            None => per_topic.push(TopicScore { topic: q.topic.clone(), asked: 1, correct: usize::from(right) }),
        }
        {
            let entry = WrongAnswer {
                question: q.id.clone(),
                topic: q.topic.clone(),
                given_choice,
                given_text,
                right_choice: (q.kind == Kind::Choice).then_some(q.answer),
                right_value: q.value_of.as_deref().and_then(|k| q.claim_value_text(k)),
                scenario: q.scenario.clone(),
                batch: q.batch(),
            };
            if right { rights.push(entry) } else { wrong.push(entry) }
        }
    }
    ExamReport { asked, correct, per_topic, wrong, right: rights }
}

/// Records every scored answer of an exam in `progress` (exam answers; missed ones join the
/// review queue).
pub fn record(progress: &mut crate::study::progress::Progress, bank: &[Question], exam: &Exam, report: &ExamReport, today: crate::study::progress::Day) {
    for item in &exam.items {
        let Some(q) = bank.iter().find(|q| q.id == item.question) else { continue };
        let missed = report.wrong.iter().any(|w| w.question == q.id);
        progress.record(q, !missed, today, true);
    }
}

/// An exam in progress as kept in browser storage, so a reload does not lose it: the size
/// asked for and the seed (the exam is drawn again from them: [`draw`] is deterministic), the
/// start time (ms since the Unix epoch, read by the page), the question shown and the answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExamInProgress {
    /// How many questions the exam was drawn with.
    pub n: usize,
    /// A mock exam: drawn from the exam-style questions only (`crate::study::track::mock_pool`).
    #[serde(default)]
    pub mock: bool,
    /// Drawn from the questions that stand alone (`crate::study::track::exam_pool`); a record
    /// saved before the exam drew only those (false) is drawn again from the whole bank.
    #[serde(default)]
    pub standalone: bool,
    /// The seed the exam was drawn with.
    pub seed: u64,
    /// When the exam started, ms since the Unix epoch.
    pub started_ms: u64,
    /// The index of the question shown.
    pub index: usize,
    /// One answer per drawn item, in exam order.
    pub answers: Vec<ExamAnswer>,
}

impl ExamInProgress {
    /// The exam, its answers and the question shown, drawn again from `bank`; `None` when
    /// the record does not fit the bank (the bank changed since, or the record is damaged).
    pub fn resume(&self, bank: &[Question]) -> Option<(Exam, Vec<ExamAnswer>, usize)> {
        let exam = if self.mock || self.standalone { draw(&crate::study::track::exam_pool(bank, self.mock), self.n, self.seed) } else { draw(bank, self.n, self.seed) };
        (self.answers.len() == exam.items.len() && self.index < exam.items.len()).then(|| (exam, self.answers.clone(), self.index))
    }
}
