//! Share links: a lab session packed into a URL fragment comes back exactly (same batches,
//! sink, checkpoint), and any malformed, truncated, oversized or wrong-version link is a clear
//! error, never a panic.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use proptest::prelude::*;
use streamlab_engine::streaming::{CrashPoint, OutputMode, SinkKind, Trigger};
use streamlab_model::lab::presets::presets;
use streamlab_model::text::Lang;
use streamlab_model::lab::session::LabSession;
use streamlab_model::lab::share::{decode, decode_json, encode, encode_json, ShareError, MAX_JSON_BYTES, MAX_LINK_CHARS};

mod support;
use support::lab;

/// A session with settings and actions of every kind.
fn busy() -> LabSession {
    let mut s = lab("classic");
    s.set_sink(SinkKind::File);
    s.run_step();
    s.run_step();
    s.push_step();
    s.crash(CrashPoint::MidSink).unwrap();
    s.restart();
    s.trigger();
    s.set_delay(0, "5 minutes").unwrap();
    s.run_step();
    s
}

fn pack(json: &[u8]) -> String {
    format!("lab=1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 6)))
}

#[test]
fn a_session_comes_back_exactly() {
    let mut sessions = vec![busy()];
    for (id, _) in presets() {
        let mut s = lab(id);
        s.run_step();
        sessions.push(s);
    }
    let mut t = lab("file-source");
    t.set_trigger(Trigger::AvailableNow);
    t.push_step();
    t.push_step();
    t.trigger();
    sessions.push(t);
    let mut m = lab("update-mode");
    m.set_mode(OutputMode::Complete);
    m.set_checkpoint_location(false);
    m.run_step();
    sessions.push(m);
    for s in sessions {
        let link = encode(&s).unwrap();
        assert!(link.starts_with("lab=1.") && link.len() <= MAX_LINK_CHARS);
        assert!(link.chars().all(|c| c.is_ascii_alphanumeric() || "=._-".contains(c)), "not URL-safe: {link}");
        let back = decode(&link).unwrap();
        assert_eq!(back.view(), s.view(), "{}", s.view().title);
        // With the leading '#' and other keys around it, too.
        assert_eq!(decode(&format!("#lang=ko&{link}&x=1")).unwrap().view(), s.view());
    }
    // A busy session stays small: the classic preset with 8 actions fits in about 1 KB.
    let link = encode(&busy()).unwrap();
    println!("busy classic session: {} characters", link.len());
    assert!(link.len() < 2500, "{} characters", link.len());
}

#[test]
fn bad_links_are_clear_errors() {
    let good = encode(&busy()).unwrap();
    assert_eq!(decode("").unwrap_err(), ShareError::NotALink);
    assert_eq!(decode("#lang=ko").unwrap_err(), ShareError::NotALink);
    assert!(matches!(decode("lab=2.abc").unwrap_err(), ShareError::Version(v) if v == "2"));
    // No version, or one that is not a number: a damaged link, not another version's.
    assert!(matches!(decode("lab=xyz").unwrap_err(), ShareError::Encoding(_)));
    assert!(matches!(decode("lab=%%%%").unwrap_err(), ShareError::Encoding(_)));
    assert!(matches!(decode("lab=").unwrap_err(), ShareError::Encoding(_)));
    assert!(matches!(decode("lab=x1.abc").unwrap_err(), ShareError::Encoding(m) if m.contains("\"x1\" is not a number")));
    assert!(matches!(decode("lab=1.@@@@").unwrap_err(), ShareError::Encoding(_)));
    // Cut short: the DEFLATE stream ends early.
    let cut = &good[..good.len() / 2];
    assert!(matches!(decode(cut).unwrap_err(), ShareError::Compression(_) | ShareError::Encoding(_)), "{cut}");
    // Too long to be a link.
    let long = format!("lab=1.{}", "A".repeat(MAX_LINK_CHARS));
    assert!(matches!(decode(&long).unwrap_err(), ShareError::TooLong { .. }));
    // A small link that inflates to a huge text (a zip bomb).
    let bomb = pack(&vec![b' '; MAX_JSON_BYTES + 10]);
    assert!(bomb.len() < MAX_LINK_CHARS, "{}", bomb.len());
    assert_eq!(decode(&bomb).unwrap_err(), ShareError::TooLarge);
    // Valid packing of something that is not a session, or of a session with bad content.
    assert!(matches!(decode(&pack(b"{\"hello\": 1}")).unwrap_err(), ShareError::Session(_)));
    assert!(matches!(decode(&pack(&[0xff, 0xfe, 0x00])).unwrap_err(), ShareError::Compression(_)));
    let json = decode_json(&good).unwrap();
    assert!(matches!(decode(&pack(json.replace("\"version\":1", "\"version\":9").as_bytes())).unwrap_err(), ShareError::Session(m) if m.contains("version 9")));
    // Every error has a message in both languages.
    for e in [ShareError::NotALink, ShareError::Version("2".into()), ShareError::TooLong { chars: 20_000 }, ShareError::Encoding("x".into()), ShareError::Compression("x".into()), ShareError::TooLarge, ShareError::Session("x".into())] {
        assert!(!e.message(Lang::En).is_empty() && !e.to_string().contains("missing"));
        assert!(e.message(Lang::Ko).chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)), "{e:?}");
    }
    // A session too big for a link is refused when encoding, with its size.
    let mut seed = 12345u64;
    let noise: String = (0..200_000)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            char::from(b'a' + ((seed >> 33) % 26) as u8)
        })
        .collect();
    let huge = format!("{{\"x\":\"{noise}\"}}");
    assert!(matches!(encode_json(&huge).unwrap_err(), ShareError::TooLong { .. }));
}

/// Saved sessions that parse as JSON but carry odd content (wrong row sizes, unknown
/// sources, actions out of order): they must open or fail with a message.
#[test]
fn odd_saved_sessions_do_not_panic() {
    let json = decode_json(&encode(&busy()).unwrap()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    type Change = Box<dyn Fn(&mut serde_json::Value)>;
    let variants: Vec<Change> = vec![
        Box::new(|v| v["actions"][0]["rows"][0] = serde_json::json!(["c1"])),
        Box::new(|v| v["actions"][0]["rows"][0] = serde_json::json!([1, 2, 3, 4, 5, 6, 7])),
        Box::new(|v| v["actions"][0]["rows"][0] = serde_json::json!([null, null, "x", "not a time"])),
        Box::new(|v| v["actions"][0]["source"] = serde_json::json!("nope")),
        Box::new(|v| v["actions"] = serde_json::json!([{"do": "restart", "query": "clicks.groupBy("}, {"do": "trigger"}, {"do": "crash", "at": "mid-sink"}])),
        Box::new(|v| v["actions"] = serde_json::json!([{"do": "crash", "at": "somewhere"}])),
        Box::new(|v| v["next_step"] = serde_json::json!(1_000_000)),
        Box::new(|v| v["query"] = serde_json::json!("")),
        Box::new(|v| v["sink"] = serde_json::json!("parquet")),
        Box::new(|v| v["trigger"] = serde_json::json!("processingTime:-5")),
        Box::new(|v| v["scenario"]["steps"] = serde_json::json!([])),
        Box::new(|v| v["scenario"]["sources"]["clicks"]["schema"] = serde_json::json!([["event_time", "nonsense"]])),
    ];
    for (i, change) in variants.iter().enumerate() {
        let mut w = v.clone();
        change(&mut w);
        let link = pack(w.to_string().as_bytes());
        match decode(&link) {
            Ok(s) => {
                let _ = s.view();
            }
            Err(e) => assert!(!e.message(Lang::En).is_empty(), "variant {i}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_fragment_decodes_or_errs(text in ".{0,200}") {
        let _ = decode(&text);
        let _ = decode(&format!("lab=1.{text}"));
    }

    #[test]
    fn any_base64_payload_decodes_or_errs(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = decode(&format!("lab=1.{}", URL_SAFE_NO_PAD.encode(&bytes)));
        let _ = decode(&pack(&bytes));
    }

    #[test]
    fn a_damaged_link_decodes_or_errs(cut in 0usize..2000, flip in 0usize..2000, with in any::<u8>()) {
        let good = encode(&busy()).unwrap();
        let truncated = &good[..cut.min(good.len())];
        let _ = decode(truncated);
        let mut bytes = good.clone().into_bytes();
        let i = 6 + flip % (bytes.len() - 6);
        bytes[i] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[usize::from(with) % 64];
        if let Ok(s) = std::str::from_utf8(&bytes) {
            let _ = decode(s);
        }
    }
}
