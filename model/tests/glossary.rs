//! One Korean term per concept: no banned variant of a glossary term appears anywhere in the
//! Korean text the app shows (labels, topics, questions, lessons, presets).

use streamlab_engine::execution::explain::{JoinSide, RowFate};
use streamlab_engine::types::Value;
use streamlab_model::lab::picture::{fate_text, narrate, KeyColumns};
use streamlab_model::study::glossary::{banned_in, glossary, texts_in};
use streamlab_model::text::Lang;

mod support;
use support::lab;

#[test]
fn korean_text_uses_one_term_per_concept() {
    let terms = glossary().unwrap_or_else(|e| panic!("{e}"));
    let texts = texts_in(Lang::Ko).unwrap_or_else(|e| panic!("{e}"));
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
        assert!(en.insert(t.term.en.as_str()), "term '{}' twice", t.term.en);
        assert!(ko.insert(t.term.ko.as_str()), "Korean term '{}' twice", t.term.ko);
        assert!(banned_in(&t.term.ko, &terms).is_empty(), "the term '{}' is itself flagged", t.term.ko);
        assert!(banned_in(&t.def.ko, &terms).is_empty(), "the definition of '{}' uses a banned variant", t.term.en);
    }
    // The terms the study path relies on.
    for (e, k) in [("no-data batch", "데이터 없는 배치"), ("replayable source", "다시 읽을 수 있는 소스"), ("post", "게시글"), ("fault tolerance", "내결함성"), ("watermark", "워터마크"), ("micro-batch", "마이크로 배치")] {
        assert!(terms.iter().any(|t| t.term.en == e && t.term.ko == k), "the glossary should map '{e}' to '{k}'");
    }
}

/// Every Korean sentence the picture can say, over every preset run to the end, uses the
/// glossary's terms (no banned variant).
#[test]
fn korean_picture_texts_use_the_glossary() {
    let terms = streamlab_model::study::glossary::glossary().unwrap();
    let mut texts = Vec::new();
    for (id, _) in streamlab_model::lab::presets::presets() {
        let mut s = lab(id);
        while s.run_step() {}
        let p = s.picture();
        for (i, b) in p.bands.iter().enumerate() {
            let next = p.bands.get(i + 1).and_then(|n| n.watermark_ms).or(p.next_watermark_ms);
            texts.push(narrate(b, next, Lang::Ko, p.day_us));
        }
        for (_, m) in p.marks() {
            texts.extend(m.fates.iter().map(|f| fate_text(f, Lang::Ko, p.day_us, &p.key_columns)));
        }
    }
    // And every fate kind's sentence, built by hand (the engine may not produce each yet).
    let key = vec![Value::Long(1)];
    for f in [
        RowFate::Filtered { predicate: "(post_id > 0)".into() },
        RowFate::Deduplicated { op_id: 0, key: key.clone(), in_batch: true, expires_at_us: Some(0) },
        RowFate::FirstOfKey { op_id: 0, key: key.clone(), expires_at_us: None },
        RowFate::Joined { op_id: 0, side: JoinSide::Left, partners: 1, evicts_at_us: Some(0) },
        RowFate::Aggregated { op_id: 0, key, window: Some((0, 1)) },
        RowFate::NoStaticMatch,
        RowFate::OverLimit { op_id: 0 },
        RowFate::Emitted { index: 0 },
    ] {
        texts.push(fate_text(&f, Lang::Ko, 0, &KeyColumns::from([(0, vec!["post_id".to_string()])])));
        texts.push(fate_text(&f, Lang::Ko, 0, &KeyColumns::new()));
    }
    for t in &texts {
        assert_eq!(streamlab_model::study::glossary::banned_in(t, &terms), vec![], "in {t}");
    }
    assert!(texts.len() > 20);
}
