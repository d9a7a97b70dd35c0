//! Turns the data files under `quizzes/` (questions, lessons, the glossary; TOML, written by
//! hand) into JSON under `$OUT_DIR/quizzes/`, same paths, for `model/src/data.rs` to include.
//! The app then reads them with `serde_json`, which it has anyway, and ships no TOML parser
//! (about 150 KB of wasm). A file that is not valid TOML fails the build, naming it. A quiz
//! file also gets an index under `index/` (its topic and question ids): the app compiles in the
//! index and fetches the questions (`model/src/study/quiz.rs`). The lessons, the exam lens and
//! the glossary go into one more file, `study.json`, which the app fetches too
//! (`model/src/data.rs`), with the lessons' index (`lesson-index.json`: each lesson's file name
//! and preset, in path order) that it compiles in.
#![allow(clippy::disallowed_methods)] // a build script reads and writes files

use std::path::Path;

fn main() {
    // Read when the script runs, not when it was compiled: a build script binary cargo reuses
    // from another checkout (same target dir) must read this checkout's files.
    let root = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("../quizzes");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("quizzes");
    println!("cargo:rerun-if-changed={}", root.display());
    convert_dir(&root, &out, &root);
    write_study_bundle(&root, &out);
}

/// `study.json`: `{"<path>": <the file's JSON>, ...}` for `exam-lens`, `glossary` and every
/// `lessons/<file>`; and `lesson-index.json`: `[{"file": "01-input-table", "preset": "classic"}, ...]`.
fn write_study_bundle(root: &Path, out: &Path) {
    let dir = root.join("lessons");
    let mut lessons: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().expect("a stem").to_string_lossy().into_owned())
        .collect();
    lessons.sort();
    let paths = ["exam-lens".to_string(), "glossary".to_string()].into_iter().chain(lessons.iter().map(|l| format!("lessons/{l}")));
    let read = |path: &str| {
        let file = out.join(format!("{path}.json"));
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
    };
    let entries: Vec<String> = paths.map(|p| format!("{}:{}", serde_json::Value::from(p.as_str()), read(&p))).collect();
    std::fs::write(out.join("study.json"), format!("{{{}}}", entries.join(","))).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let index: Vec<serde_json::Value> = lessons
        .iter()
        .map(|l| {
            let value: serde_json::Value = serde_json::from_str(&read(&format!("lessons/{l}"))).expect("JSON written above");
            let preset = value.get("preset").cloned().unwrap_or_else(|| panic!("quizzes/lessons/{l}.toml has no preset"));
            serde_json::json!({ "file": l, "preset": preset })
        })
        .collect();
    std::fs::write(out.join("lesson-index.json"), serde_json::Value::from(index).to_string()).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

fn convert_dir(dir: &Path, out: &Path, root: &Path) {
    std::fs::create_dir_all(out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.expect("a directory entry").path()).collect();
    entries.sort();
    for path in entries {
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            convert_dir(&path, &out.join(path.file_name().expect("a name")), root);
        } else if path.extension().is_some_and(|x| x == "toml") {
            let name = path.strip_prefix(root).unwrap_or(&path).display().to_string();
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("quizzes/{name}: {e}"));
            let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("quizzes/{name}: {e}"));
            let value = to_json(&table.into(), &name);
            let json = serde_json::to_string(&value).expect("JSON from TOML");
            std::fs::write(out.join(path.file_stem().expect("a stem")).with_extension("json"), json).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
            // A quiz file (it has a `[topic]`): its index too, the topic's names and its
            // question ids, which the app holds while the questions themselves are fetched.
            if let Some(topic) = value.get("topic") {
                let ids: Vec<serde_json::Value> = value.get("question").and_then(|q| q.as_array()).into_iter().flatten().filter_map(|q| q.get("id").cloned()).collect();
                let index = serde_json::json!({ "topic": topic, "ids": ids });
                let dir = out.join("index");
                std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
                std::fs::write(dir.join(path.file_stem().expect("a stem")).with_extension("json"), index.to_string()).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            }
        }
    }
}

/// TOML's value as JSON; a date-time has no JSON form and the data format has none.
fn to_json(v: &toml::Value, file: &str) -> serde_json::Value {
    match v {
        toml::Value::String(s) => s.clone().into(),
        toml::Value::Integer(i) => (*i).into(),
        toml::Value::Float(f) => serde_json::Number::from_f64(*f).unwrap_or_else(|| panic!("quizzes/{file}: {f} has no JSON form")).into(),
        toml::Value::Boolean(b) => (*b).into(),
        toml::Value::Datetime(d) => panic!("quizzes/{file}: the date-time {d} has no place in the data format (write it as a string)"),
        toml::Value::Array(a) => a.iter().map(|x| to_json(x, file)).collect(),
        toml::Value::Table(t) => t.iter().map(|(k, x)| (k.clone(), to_json(x, file))).collect::<serde_json::Map<_, _>>().into(),
    }
}
