//! "One boundary", enforced by Cargo: the page (`streamlab-web`) depends on the page's model
//! (`streamlab-model`) and never on the engine, so no component can call the engine; the model
//! depends on no browser crate, so all of it builds and is tested natively. This test reads both
//! manifests and fails when either lists what it must not.
#![allow(clippy::disallowed_methods)] // a test, bench or example may read files and the clock

use std::path::Path;

/// Crates only a browser page may use: none belongs in the model.
const BROWSER_CRATES: &[&str] = &["leptos", "web-sys", "js-sys", "wasm-bindgen", "gloo-timers", "gloo-storage", "wasm-bindgen-futures", "plotters", "plotters-canvas", "console_error_panic_hook"];

/// The names a manifest's text lists in its dependency tables (normal, build and dev), and in
/// target-specific ones.
fn dependencies(manifest: &str) -> Vec<String> {
    let table: toml::Table = toml::from_str(manifest).expect("a Cargo.toml");
    let mut out = Vec::new();
    let mut read = |t: &toml::Table| {
        for key in ["dependencies", "build-dependencies", "dev-dependencies"] {
            if let Some(deps) = t.get(key).and_then(|d| d.as_table()) {
                out.extend(deps.keys().cloned());
            }
        }
    };
    read(&table);
    for target in table.get("target").and_then(|t| t.as_table()).into_iter().flat_map(|t| t.values()) {
        if let Some(t) = target.as_table() {
            read(t);
        }
    }
    out
}

/// What breaks the boundary in the two manifests, one line each.
fn breaches(web: &str, model: &str) -> Vec<String> {
    let mut out = Vec::new();
    if dependencies(web).iter().any(|d| d == "streamlab-engine") {
        out.push("web/Cargo.toml lists streamlab-engine (take it through streamlab-model)".to_string());
    }
    for d in dependencies(model).iter().filter(|d| BROWSER_CRATES.contains(&d.as_str())) {
        out.push(format!("model/Cargo.toml lists the browser crate {d}"));
    }
    out
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("a readable manifest")
}

#[test]
fn the_page_never_lists_the_engine_and_the_model_no_browser_crate() {
    let web = read("Cargo.toml");
    let model = read("../model/Cargo.toml");
    assert!(dependencies(&web).iter().any(|d| d == "streamlab-model"), "web depends on the model");
    assert_eq!(breaches(&web, &model), Vec::<String>::new());
}

/// The check can fail: manifests with the engine in the page and a browser crate in the model
/// are reported.
#[test]
fn a_planted_breach_is_reported() {
    let web = "[package]\nname = \"w\"\n[dependencies]\nstreamlab-model = { path = \"../model\" }\n[dev-dependencies]\nstreamlab-engine = { path = \"../engine\" }\n";
    let model = "[package]\nname = \"m\"\n[target.'cfg(target_arch = \"wasm32\")'.dependencies]\nweb-sys = \"0.3\"\n";
    assert_eq!(
        breaches(web, model),
        vec!["web/Cargo.toml lists streamlab-engine (take it through streamlab-model)".to_string(), "model/Cargo.toml lists the browser crate web-sys".to_string()]
    );
}
