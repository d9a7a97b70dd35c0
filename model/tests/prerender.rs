//! The boot screen's static pages (`assets/prerendered/`) are what the lesson data renders now.

#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::path::PathBuf;

use streamlab_model::study::prerender::files;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/prerendered")
}

/// Every lesson and the lesson list, in both languages, are on disk as [`files`] renders them,
/// and nothing else is there. `STREAMLAB_UPDATE_PRERENDER=1` writes them.
#[test]
fn the_prerendered_pages_are_current() {
    let want = files().expect("the lessons parse");
    let lessons = streamlab_model::study::lesson::lessons().unwrap().len();
    // The list and every lesson, in every language, the boot screen's words, and the question
    // bank, the lessons' bundle and the time-zone database the app fetches.
    assert_eq!(want.len(), streamlab_model::text::Lang::ALL.len() * (lessons + 1) + 4);
    if std::env::var_os("STREAMLAB_UPDATE_PRERENDER").is_some() {
        let _ = std::fs::remove_dir_all(dir());
        std::fs::create_dir_all(dir()).unwrap();
        for (name, html) in &want {
            std::fs::write(dir().join(name), html).unwrap();
        }
    }
    let mut stale = Vec::new();
    for (name, html) in &want {
        if std::fs::read_to_string(dir().join(name)).ok().as_deref() != Some(html.as_str()) {
            stale.push(name.clone());
        }
    }
    assert!(stale.is_empty(), "stale or missing in assets/prerendered (run with STREAMLAB_UPDATE_PRERENDER=1): {stale:?}");
    let on_disk = std::fs::read_dir(dir()).unwrap().count();
    assert_eq!(on_disk, want.len(), "assets/prerendered holds files no lesson renders");
}

/// What a page holds, worked by hand from lesson 5's file: its number, its title, its text's
/// markup as elements (inline code), and the sections' headings, in the page's language.
#[test]
fn a_page_is_the_lesson_text_as_html() {
    let all = files().unwrap();
    let page = |name: &str| all.iter().find(|(n, _)| n == name).map(|(_, h)| h.clone()).unwrap_or_else(|| panic!("no {name}"));
    let en = page("lesson-watermarks.en.html");
    assert!(en.starts_with("<article class=\"boot-lesson\" lang=\"en\" data-lesson=\"watermarks\">\n<p class=\"muted\">Lesson 5</p>\n<h2>Watermarks</h2>\n<p><code>withWatermark('event_time', '10 minutes')</code>"), "{en}");
    assert!(en.contains("<h3>What to watch in the lab</h3>") && en.contains("<h3>Programming guide, exam and Spark 4.3</h3>"));
    let ko = page("lesson-watermarks.ko.html");
    assert!(ko.contains("<p class=\"muted\">레슨 5</p>\n<h2>워터마크</h2>") && ko.contains("<h3>실습에서 볼 것</h3>"), "{ko}");
    let list = page("lessons.ko.html");
    assert!(list.contains("<li><a href=\"#/lesson/watermarks\">워터마크</a></li>"), "{list}");
}

/// The boot screen's words are the label tables' `boot.*` entries in
/// every language, as a script `web/index.html` loads first; the page reads nothing else in a
/// language by hand.
#[test]
fn the_boot_words_come_from_the_label_tables() {
    use streamlab_model::text::{i18n::tr, Lang};
    let js = streamlab_model::study::prerender::boot_text_js();
    let json = js.split_once("window.streamlabText = ").and_then(|(_, rest)| rest.trim().strip_suffix(';')).expect("one assignment");
    let all: serde_json::Value = serde_json::from_str(json).expect("the object is JSON");
    for lang in Lang::ALL {
        let words = &all[lang.code()];
        assert_eq!(words["boot.crash.title"], tr(lang, "boot.crash.title"));
        assert_eq!(words["boot.update.reload"], tr(lang, "boot.update.reload"));
        assert!(words.get("glossary.title").is_none(), "only the boot screen's words");
    }
    assert_eq!(all["ko"]["boot.crash.fresh"], "새로 시작");
    // index.html loads the script before its own and names no language's words itself.
    let html = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/index.html")).unwrap();
    let script = html.find("src=\"prerendered/boot-text.js\"").expect("index.html loads boot-text.js");
    assert!(script < html.find("streamlabCrash").unwrap_or(0), "boot-text.js loads after the crash screen's script");
    for (key, _) in streamlab_model::text::i18n::labels_in(Lang::Ko).filter(|(k, _)| k.starts_with("boot.")) {
        for lang in Lang::ALL {
            assert!(!html.contains(tr(lang, key)), "index.html writes {key} in {lang:?} by hand");
        }
    }
}
