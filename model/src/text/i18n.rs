//! The page's words in every language: [`tr`] looks a label up in the language's table
//! (`en.rs`, `ko.rs`: one file per language, the same keys), [`localize`] puts a message the
//! engine or the session wrote in English into the learner's language, [`words`] gives the
//! language's word lists the question bank's rules look for. Spark's own terms
//! (output mode names, API names, error conditions) stay English in every language, as
//! learners meet them in Spark.

use crate::text::{en, ko, Lang, Text};

pub use en::{count_en, rows_en, was_en};
pub use ko::particles;

/// The labels of `lang`: (key, text).
fn table(lang: Lang) -> &'static [(&'static str, &'static str)] {
    match lang {
        Lang::En => en::LABELS,
        Lang::Ko => ko::LABELS,
    }
}

/// The English patterns of the engine's and the session's messages with `lang`'s sentence
/// (`{}` holes in both); empty for English, whose messages need no translation.
fn message_table(lang: Lang) -> &'static [(&'static str, &'static str)] {
    match lang {
        Lang::En => &[],
        Lang::Ko => ko::MESSAGES,
    }
}

/// Matches `text` against `pattern` (`{}` holes match any text, shortest first); the holes'
/// texts when it matches.
fn holes<'a>(pattern: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let parts: Vec<&str> = pattern.split("{}").collect();
    let mut rest = text.strip_prefix(parts[0])?;
    let mut got = Vec::new();
    for (i, lit) in parts.iter().enumerate().skip(1) {
        let last = i == parts.len() - 1;
        let at = if last {
            if lit.is_empty() { Some(rest.len()) } else { rest.strip_suffix(lit).map(str::len) }
        } else if lit.is_empty() {
            None
        } else {
            rest.find(lit)
        }?;
        got.push(&rest[..at]);
        rest = &rest[at + lit.len()..];
    }
    (rest.is_empty()).then_some(got)
}

/// A message from the session or the engine (e.g. a bad event field, a delay that is not an
/// interval) in `lang`. English is returned as it is; for another language, each `; `-separated
/// part, after an optional `column: ` prefix, is matched against the language's known sentences;
/// a part it has no sentence for stays English (so nothing is lost). Never panics.
pub fn localize(lang: Lang, message: &str) -> String {
    if lang == Lang::En {
        return message.to_string();
    }
    // Notes joined by `; ` are put into Korean one by one when each is known; else the whole
    // text may be one sentence that itself holds `; ` (the storage message); else each known
    // part is, and the others stay English.
    let parts: Vec<&str> = message.split("; ").collect();
    let each: Vec<Option<String>> = parts.iter().map(|p| localize_part(lang, p)).collect();
    if parts.len() > 1 && each.iter().all(Option::is_some) {
        return finish(lang, &each.into_iter().flatten().collect::<Vec<_>>().join("; "));
    }
    if let Some(text) = localize_part(lang, message) {
        return finish(lang, &text);
    }
    finish(lang, &parts.iter().zip(each).map(|(p, k)| k.unwrap_or_else(|| p.to_string())).collect::<Vec<_>>().join("; "))
}

fn localize_part(lang: Lang, part: &str) -> Option<String> {
    // `post_id: <sentence>`: a field name (or a path such as `steps[2].clicks[0].post_id`)
    // before the sentence.
    if let Some((field, rest)) = part.split_once(": ") {
        let is_name = !field.is_empty() && field.chars().all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c));
        if is_name {
            if let Some(ko) = localize_sentence(lang, rest, 0) {
                return Some(format!("{field}: {ko}"));
            }
        }
    }
    localize_sentence(lang, part, 0)
}

fn localize_sentence(lang: Lang, text: &str, depth: usize) -> Option<String> {
    if depth > 3 {
        return None;
    }
    message_table(lang).iter().find_map(|(en, ko)| {
        let got = holes(en, text)?;
        let mut out = String::new();
        let mut pieces = ko.split("{}");
        out.push_str(pieces.next().unwrap_or(""));
        for (hole, piece) in got.iter().zip(pieces) {
            out.push_str(&localize_sentence(lang, hole, depth + 1).unwrap_or_else(|| hole.to_string()));
            out.push_str(piece);
        }
        Some(out)
    })
}

/// Every message [`localize`] knows in `lang`: (English pattern, `lang`'s pattern); none for
/// English, whose messages need no translation.
pub fn messages_in(lang: Lang) -> impl Iterator<Item = (&'static str, &'static str)> {
    message_table(lang).iter().copied()
}

/// Every label in `lang`: (key, text), in the English table's order.
pub fn labels_in(lang: Lang) -> impl Iterator<Item = (&'static str, &'static str)> {
    en::LABELS.iter().map(move |(k, _)| (*k, tr(lang, k)))
}

/// The label `key` in `lang`; `⟨missing label⟩` for a key the language's table lacks (so a gap
/// shows, never panics; a test keeps every table's keys the same).
pub fn tr(lang: Lang, key: &str) -> &'static str {
    table(lang).iter().find(|(k, _)| *k == key).map_or("⟨missing label⟩", |(_, text)| text)
}

/// A list of words the question bank's rules look for in a language's text
/// (`study/rules.rs`, `study/strategy.rs`); each language's file holds its own lists. An entry
/// written in lower case matches in any case; one with capitals matches as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// Words that put a reason into a choice ("because", "때문"); the reason belongs in the
    /// explanation.
    Justification,
    /// Words saying the query fails: throws, is rejected, raises an error.
    Failure,
    /// Phrases saying the query runs ("it runs", "실행된다").
    Running,
    /// Words saying the query runs when a choice starts with them ("Runs and emits …").
    RunningFirst,
    /// How a stem starts when it leans on another question ("Same ", "as above", "같은 ").
    AsAboveStart,
    /// Phrases of a stem pointing at what the learner is not shown: another question, the
    /// lab, a preset, a step.
    AsAbovePhrase,
    /// The words for a batch, or a group of input a batch reads, before its id ("batch 3",
    /// "group 0", "배치 3", "묶음 0"): a stem naming one must show its query and events.
    Batch,
    /// Words before a number that numbers a thing rather than counting ("batch 3", "post 2",
    /// "파티션 4").
    Numbered,
    /// Units after a number that make it a duration ("10 minutes", "5분").
    Duration,
    /// The word naming the programming guide ("guide", "가이드").
    Guide,
    /// Words before a number that is the lab's own numbering, which an exam question never
    /// shows ("batch 3", "group 2", "step 1", "배치 3").
    LabIds,
    /// Names of the lab's own examples and places ("the classic query", "in the lab",
    /// "실습에서"): an exam question states its query and data itself.
    LabExamples,
}

/// One language's word lists (see [`Words`]): each language's table file has one, and the
/// compiler checks it has every list.
pub(super) struct WordLists {
    /// Whether the language's words stand apart ([`whole_words`]).
    pub whole_words: bool,
    /// [`Words::Justification`].
    pub justification: &'static [&'static str],
    /// [`Words::Failure`].
    pub failure: &'static [&'static str],
    /// [`Words::Running`].
    pub running: &'static [&'static str],
    /// [`Words::RunningFirst`].
    pub running_first: &'static [&'static str],
    /// [`Words::AsAboveStart`].
    pub as_above_start: &'static [&'static str],
    /// [`Words::AsAbovePhrase`].
    pub as_above_phrase: &'static [&'static str],
    /// [`Words::Batch`].
    pub batch: &'static [&'static str],
    /// [`Words::Numbered`].
    pub numbered: &'static [&'static str],
    /// [`Words::Duration`].
    pub duration: &'static [&'static str],
    /// [`Words::Guide`].
    pub guide: &'static [&'static str],
    /// [`Words::LabIds`].
    pub lab_ids: &'static [&'static str],
    /// [`Words::LabExamples`].
    pub lab_examples: &'static [&'static str],
}

/// `lang`'s word lists.
fn word_lists(lang: Lang) -> &'static WordLists {
    match lang {
        Lang::En => &en::WORDS,
        Lang::Ko => &ko::WORDS,
    }
}

/// The words of `list` in `lang` (see [`Words`]).
pub fn words(lang: Lang, list: Words) -> &'static [&'static str] {
    let w = word_lists(lang);
    match list {
        Words::Justification => w.justification,
        Words::Failure => w.failure,
        Words::Running => w.running,
        Words::RunningFirst => w.running_first,
        Words::AsAboveStart => w.as_above_start,
        Words::AsAbovePhrase => w.as_above_phrase,
        Words::Batch => w.batch,
        Words::Numbered => w.numbered,
        Words::Duration => w.duration,
        Words::Guide => w.guide,
        Words::LabIds => w.lab_ids,
        Words::LabExamples => w.lab_examples,
    }
}

/// Whether `lang`'s words stand apart, so a [`Words::Justification`] word is found only as a
/// whole word (English: "since" is not in "sincere"); Korean glues endings to a stem (때문에,
/// 늦었으므로), so its words are found inside longer words.
pub fn whole_words(lang: Lang) -> bool {
    word_lists(lang).whole_words
}

/// An argument of [`tr_with`]: a hole's name and its value.
pub type Arg<'a> = (&'a str, &'a dyn std::fmt::Display);

/// The label `key` in `lang` with its holes filled from `args`, in the language's finished
/// form (Korean particles chosen, [`particles`]). A hole is `{name}` (the argument's text) or
/// `{name|one|other}`: `one` when the argument reads `1`, else `other` — English plurals
/// ("{n} {n|row|rows} {n|was|were} dropped"). A hole with no argument stays as written.
pub fn tr_with(lang: Lang, key: &str, args: &[Arg]) -> String {
    finish(lang, &fill(tr(lang, key), args))
}

/// [`tr_with`] in every language.
pub fn text(key: &str, args: &[Arg]) -> Text {
    Text::from_fn(|lang| tr_with(lang, key, args))
}

/// `text` as `lang` finishes a sentence whose values were put in at run time: Korean picks the
/// particle each value takes ([`particles`]); English has nothing to do.
pub fn finish(lang: Lang, text: &str) -> String {
    match lang {
        Lang::En => text.to_string(),
        Lang::Ko => particles(text),
    }
}

/// A duration as Spark writes it (`10 minutes`, `1 second`, `2 hours`, `1 day`) read out in
/// `lang` (`10분`), for a screen reader's `aria-valuetext`; text that is not one number and one
/// such unit is returned as it is.
pub fn duration_words(lang: Lang, text: &str) -> String {
    let mut parts = text.split_whitespace();
    let (Some(n), Some(unit), None) = (parts.next(), parts.next(), parts.next()) else { return text.to_string() };
    let Ok(n) = n.parse::<u64>() else { return text.to_string() };
    let key = match unit.trim_end_matches('s') {
        "second" => "duration.seconds",
        "minute" => "duration.minutes",
        "hour" => "duration.hours",
        "day" => "duration.days",
        _ => return text.to_string(),
    };
    tr_with(lang, key, &[("n", &n)])
}

/// `template` with its `{name}` and `{name|one|other}` holes filled from `args` (see
/// [`tr_with`]). Never panics: an unclosed `{` or an unknown name is kept as written.
pub fn fill(template: &str, args: &[Arg]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let hole = &after[..close];
        let mut parts = hole.split('|');
        let name = parts.next().unwrap_or("");
        match args.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => {
                let value = value.to_string();
                match (parts.next(), parts.next()) {
                    (Some(one), Some(other)) => out.push_str(if value == "1" { one } else { other }),
                    _ => out.push_str(&value),
                }
            }
            None => {
                out.push('{');
                out.push_str(hole);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each particle after each kind of word, worked out by reading the word aloud.
    #[test]
    fn particles_follow_the_last_sound() {
        assert_eq!(particles("배치 6이(가) 내보낸 행"), "배치 6이 내보낸 행"); // 육
        assert_eq!(particles("배치 2이(가) 내보낸 행"), "배치 2가 내보낸 행"); // 이
        assert_eq!(particles("12:01에서 09:25(으)로"), "12:01에서 09:25로"); // 오
        assert_eq!(particles("12:11(으)로"), "12:11로"); // 일: ㄹ takes 로
        // The copula's past: 이었 after a final consonant (ㄹ too), 였 after none.
        assert_eq!(particles("09:23(이)었습니다"), "09:23이었습니다"); // 삼
        assert_eq!((duration_words(Lang::Ko, "10 minutes"), duration_words(Lang::En, "1 second")), ("10분".to_string(), "1 second".to_string()));
        assert_eq!(duration_words(Lang::Ko, "ten minutes"), "ten minutes");
        assert_eq!(particles("09:21(이)었습니다"), "09:21이었습니다"); // 일
        assert_eq!(particles("09:25(이)었습니다"), "09:25였습니다"); // 오
        assert_eq!(particles("12:10(으)로"), "12:10으로"); // 십
        assert_eq!(particles("'25:99'은(는) 시각이 아닙니다"), "'25:99'는 시각이 아닙니다"); // 구, past the quote
        assert_eq!(particles("문자열 \"banana\"은(는)"), "문자열 \"banana\"는");
        assert_eq!(particles("빈 문자열은(는)"), "빈 문자열은"); // 열: ㄹ
        assert_eq!(particles("조건 post_id > 3을(를) 만족"), "조건 post_id > 3을 만족"); // 삼
        assert_eq!(particles("windw()은(는)"), "windw()는");
        assert_eq!(particles("sql은(는)"), "sql은");
        assert_eq!(particles("DataFrame counts을(를)"), "DataFrame counts를"); // 카운츠
        assert_eq!(particles("index이(가)"), "index가"); // 인덱스
        assert_eq!(particles("SQL은(는)"), "SQL은"); // 엘
        assert_eq!(particles("\"2026-13-45T00:00:00Z\"은(는)"), "\"2026-13-45T00:00:00Z\"는"); // 지
        assert_eq!(particles("dedupeWithinWatermark이(가)"), "dedupeWithinWatermark가"); // 마크
        assert_eq!(particles("StateStoreSaveExec이(가)"), "StateStoreSaveExec이"); // 섹
        assert_eq!(particles("키과(와) 값"), "키와 값");
        // A back-quoted name, and a silent final e after m, n or l.
        assert_eq!(particles("`event_time`을(를)"), "`event_time`을"); // 타임
        assert_eq!(particles("zone은(는)"), "zone은"); // 존
        assert_eq!(particles("table을(를)"), "table을"); // 테이블: ㄹ
        assert_eq!(particles("code을(를)"), "code를"); // 코드
        assert_eq!(particles("'if'은(는)"), "'if'는"); // 이프
        assert_eq!(particles("no particle here (가)"), "no particle here (가)");
    }

    #[test]
    fn one_row_is_singular() {
        assert_eq!(rows_en(0u64), "0 rows");
        assert_eq!(rows_en(1u64), "1 row");
        assert_eq!(rows_en(2u64), "2 rows");
        assert_eq!(count_en(1u64, "late row"), "1 late row");
        assert_eq!(format!("{} {} dropped", count_en(3u64, "duplicate row"), was_en(3u64)), "3 duplicate rows were dropped");
    }

    #[test]
    fn every_label_has_both_languages_and_unique_keys() {
        // Every language's table has the same keys, each once, none with empty text (a key
        // missing from one would show as `⟨missing label⟩` in that language).
        let keys_of = |t: &[(&str, &str)]| {
            let mut keys = std::collections::BTreeSet::new();
            for (k, text) in t {
                assert!(keys.insert(k.to_string()), "duplicate key {k}");
                assert!(!text.is_empty(), "{k}");
            }
            keys
        };
        let en = keys_of(en::LABELS);
        for lang in Lang::ALL {
            let other = keys_of(table(lang));
            assert_eq!(en.difference(&other).collect::<Vec<_>>(), Vec::<&String>::new(), "keys {lang:?} lacks");
            assert_eq!(other.difference(&en).collect::<Vec<_>>(), Vec::<&String>::new(), "keys only {lang:?} has");
        }
        // Each language's sentence has the same named holes as the English one (a hole one
        // language lacks would drop a value; `{}` and odd braces are text, not holes).
        let names = |text: &str| {
            text.split('{').skip(1).filter_map(|h| h.split_once('}')).map(|(h, _)| h.split('|').next().unwrap_or("").to_string()).filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).collect::<std::collections::BTreeSet<_>>()
        };
        for (k, en_text) in en::LABELS {
            for lang in Lang::ALL {
                assert_eq!(names(tr(lang, k)), names(en_text), "holes of {k} in {lang:?}");
            }
        }
        assert_eq!(tr(Lang::Ko, "state"), "상태 저장소");
        assert_eq!(tr(Lang::En, "no-such-key"), "⟨missing label⟩");
    }

    #[test]
    fn messages_are_put_into_korean_with_their_holes() {
        // A bad long field (engine text, behind the field name) and a time typo.
        let en = "post_id: the string \"seven\" is not a whole number that fits a long: Spark reads NULL; event_time: '25:00' is not a time of day: write 12:07 or 12:07:30";
        assert_eq!(localize(Lang::En, en), en);
        assert_eq!(
            localize(Lang::Ko, en),
            "post_id: 문자열 \"seven\"은 long에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다; event_time: '25:00'은 시각이 아닙니다. 12:07 또는 12:07:30처럼 쓰세요"
        );
        assert_eq!(localize(Lang::Ko, "no source named 'x'"), "'x'라는 소스가 없습니다");
        // A sentence that itself holds `; ` (the engine's crash message), with two holes.
        assert_eq!(
            localize(Lang::Ko, "simulated crash in batch 5 (in the middle of the sink write): the query stopped; restart it on the same checkpoint"),
            "모의 장애, 배치 5 (싱크에 쓰는 도중): 쿼리가 멈췄습니다. 같은 체크포인트로 재시작하세요"
        );
        // Two notes of the same kind stay two notes.
        assert_eq!(
            localize(Lang::Ko, "a: the number 1.5 (with a fraction) is not a whole number that fits a long: Spark reads NULL; b: an empty string is not a whole number that fits a long: Spark reads NULL"),
            "a: 소수가 있는 숫자 1.5는 long에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다; b: 빈 문자열은 long에 들어가는 정수가 아니므로 Spark는 NULL로 읽습니다"
        );
        // Two holes, the first one a number.
        assert_eq!(
            localize(Lang::Ko, "this session (12 KB) could not be saved in the browser (QuotaExceededError); it stays open in this tab, but a reload would bring back the last session that was saved: save it as a file to keep it"),
            "이 세션(12 KB)을 브라우저에 저장하지 못했습니다 (QuotaExceededError). 이 탭에는 그대로 열려 있지만 새로 고침하면 마지막으로 저장된 세션이 돌아옵니다. 남기려면 파일로 저장하세요"
        );
        // Unknown text stays as it is; odd text never panics.
        assert_eq!(localize(Lang::Ko, "something else"), "something else");
        for odd in ["", "{}", "; ;", ": :", "the string \"", "the number "] {
            let _ = localize(Lang::Ko, odd);
        }
        for (en, ko) in messages_in(Lang::Ko) {
            assert_eq!(en.matches("{}").count(), ko.matches("{}").count(), "{en}");
        }
    }

    #[test]
    fn holes_are_filled_with_plurals_and_particles() {
        let n = 1u64;
        let args: [Arg; 2] = [("n", &n), ("t", &"09:25")];
        assert_eq!(fill("{n} {n|row|rows} {n|was|were} dropped at {t}", &args), "1 row was dropped at 09:25");
        let three = 3u64;
        assert_eq!(fill("{n} {n|row|rows} {n|was|were}", &[("n", &three)]), "3 rows were");
        // Unknown names, an unclosed brace and `{}` stay as written.
        assert_eq!(fill("{x} {} {n", &args), "{x} {} {n");
        assert_eq!(fill("", &args), "");
        // Korean picks the particle after the value: 25 is read 오 (no final consonant).
        assert_eq!(finish(Lang::Ko, &fill("{t}(으)로", &args)), "09:25로");
        assert_eq!(finish(Lang::En, "{t}(으)로"), "{t}(으)로");
    }
}
