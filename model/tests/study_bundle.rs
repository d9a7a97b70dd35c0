//! The lessons, the exam lens and the glossary arrive in the browser as one fetched bundle
//! (`prerendered/study.json`, `streamlab_model::data`). Before it comes the app still knows
//! each lesson's id and preset (compiled in), so a lesson's lab opens at once; a bundle that is
//! not this build's is refused and changes nothing.

use streamlab_model::data::{bundle, hide_on_this_thread, install_bundle, is_installed, LOADING};
use streamlab_model::study::{glossary, lens, lesson};

#[test]
fn before_the_bundle_the_lessons_wait_but_their_ids_and_presets_are_known() {
    let compiled = lesson::lessons().expect("the compiled lessons parse");
    hide_on_this_thread(true);
    assert!(!is_installed());
    assert_eq!(lesson::lessons(), Err(LOADING.to_string()));
    assert_eq!(glossary::glossary(), Err(LOADING.to_string()));
    assert_eq!(lens::entries(), Err(LOADING.to_string()));
    // The exam lens in the lab shows nothing meanwhile (it fills in when the bundle comes).
    assert!(lens::for_rules(&["limit"]).is_empty());
    // The index: quizzes/lessons/ has 18 files; 05-watermarks.toml says `preset = "classic"`,
    // 01-input-table.toml `preset = "complete-mode"`.
    let ids = lesson::lesson_ids();
    assert_eq!(ids.len(), 18);
    assert_eq!((ids[0].as_str(), ids[4].as_str()), ("input-table", "watermarks"));
    assert_eq!(lesson::lesson_ref("watermarks").map(|r| r.preset), Some("classic".to_string()));
    assert_eq!(lesson::lesson_ref("input-table").map(|r| r.preset), Some("complete-mode".to_string()));
    assert_eq!(lesson::lesson_ref("no-such-lesson"), None);
    // The index agrees with the lessons themselves.
    assert_eq!(ids, compiled.iter().map(|l| l.id.clone()).collect::<Vec<_>>());
    for l in &compiled {
        assert_eq!(lesson::lesson_ref(&l.id).map(|r| r.preset), Some(l.preset.clone()), "lesson {}", l.id);
    }

    // The fetched text is what the prerenderer wrote: installed, it gives the same lessons.
    install_bundle(bundle()).expect("this build's bundle");
    assert!(is_installed());
    assert_eq!(lesson::lessons().as_ref(), Ok(&compiled));
    assert!(glossary::glossary().is_ok_and(|g| !g.is_empty()));
    assert!(lens::entries().is_ok_and(|e| !e.is_empty()));
    // quizzes/exam-lens.toml's first entry has `rule = "limit"`.
    assert_eq!(lens::for_rules(&["limit"]).first().and_then(|e| e.rule.clone()).as_deref(), Some("limit"));
    hide_on_this_thread(false);
}

#[test]
fn a_bundle_that_is_not_this_build_s_is_refused_and_nothing_is_installed() {
    hide_on_this_thread(true);
    // Not JSON at all (a captive portal's page, a cut-off download).
    let err = install_bundle("<html>sign in</html>").unwrap_err();
    assert!(err.starts_with("prerendered/study.json: "), "{err}");
    // An object without this build's files.
    assert_eq!(install_bundle("{}").unwrap_err(), "prerendered/study.json is not the one this version of the app was built with");
    // One lesson missing (an older build had one fewer).
    let mut files: serde_json::Map<String, serde_json::Value> = serde_json::from_str(bundle()).unwrap();
    files.remove("lessons/18-arbitrary-state").expect("lesson 18 is in the bundle");
    assert!(install_bundle(&serde_json::Value::Object(files.clone()).to_string()).is_err());
    // One lesson too many.
    files.insert("lessons/18-arbitrary-state".into(), serde_json::json!({}));
    files.insert("lessons/19-new".into(), serde_json::json!({}));
    assert!(install_bundle(&serde_json::Value::Object(files).to_string()).is_err());
    assert!(!is_installed());
    assert_eq!(lesson::lessons(), Err(LOADING.to_string()));
    hide_on_this_thread(false);
}

#[test]
fn a_lesson_file_that_does_not_fit_is_named_never_a_panic() {
    hide_on_this_thread(true);
    // The right files, but lesson 5 lost its preset: installed (the paths fit), then reading the
    // lessons names the file and the field.
    let mut files: serde_json::Map<String, serde_json::Value> = serde_json::from_str(bundle()).unwrap();
    files.get_mut("lessons/05-watermarks").and_then(|v| v.as_object_mut()).expect("lesson 5").remove("preset");
    install_bundle(&serde_json::Value::Object(files).to_string()).expect("the paths are this build's");
    let err = lesson::lessons().unwrap_err();
    assert!(err.starts_with("quizzes/lessons/05-watermarks.toml: missing field `preset`"), "{err}");
    hide_on_this_thread(false);
}
