//! One Korean term per concept: no banned variant of a glossary term appears anywhere in the
//! Korean text the app shows (labels, topics, questions, lessons, presets).

use streamlab_web::glossary::{banned_in, glossary, korean_texts};

#[test]
fn korean_text_uses_one_term_per_concept() {
    let terms = glossary().unwrap_or_else(|e| panic!("{e}"));
    let texts = korean_texts().unwrap_or_else(|e| panic!("{e}"));
    assert!(texts.len() > 500, "only {} Korean texts gathered", texts.len());
    let mut found = Vec::new();
    for (place, text) in &texts {
        for (bad, good) in banned_in(text, &terms) {
            found.push(format!("{place}: '{bad}' (use '{good}')"));
        }
    }
    assert!(found.is_empty(), "{} banned variants:\n{}", found.len(), found.join("\n"));
}

#[test]
fn the_glossary_is_consistent() {
    let terms = glossary().unwrap();
    assert!(terms.len() >= 40, "only {} terms", terms.len());
    let mut en = std::collections::BTreeSet::new();
    let mut ko = std::collections::BTreeSet::new();
    for t in &terms {
        assert!(en.insert(t.en.as_str()), "term '{}' twice", t.en);
        assert!(ko.insert(t.ko.as_str()), "Korean term '{}' twice", t.ko);
        assert!(banned_in(&t.ko, &terms).is_empty(), "the term '{}' is itself flagged", t.ko);
        assert!(banned_in(&t.def_ko, &terms).is_empty(), "the definition of '{}' uses a banned variant", t.en);
    }
    // The terms the study path relies on.
    for (e, k) in [("no-data batch", "데이터 없는 배치"), ("replayable source", "다시 읽을 수 있는 소스"), ("post", "게시글"), ("fault tolerance", "내결함성"), ("watermark", "워터마크"), ("micro-batch", "마이크로 배치")] {
        assert!(terms.iter().any(|t| t.en == e && t.ko == k), "the glossary should map '{e}' to '{k}'");
    }
}
