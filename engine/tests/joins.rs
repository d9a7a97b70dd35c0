//! Joins through the public API, with values worked out by hand, as `testStream` scripts
//! (`support`).

mod support;

use std::rc::Rc;

use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::OutputMode;
use streamlab_engine::types::{timestamp_type, DataType, Value};
use support::*;

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert("clicks".into(), vec![("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())]);
    let posts = vec![row![1, "news"], row![2, "tech"]];
    c.statics.insert("posts".into(), (vec![("post_id".into(), DataType::Int64), ("board".into(), DataType::Utf8)], Rc::new(posts)));
    c
}

#[test]
fn qualified_columns_tell_the_join_sides_apart() {
    // `clicks.post_id == posts.post_id` names one column on each side, as in PySpark; the
    // output keeps both post_id columns (left then right), like Spark's condition join.
    test_stream("clicks.join(posts, clicks.post_id == posts.post_id)", OutputMode::Append, catalog()).run(vec![
        AddData("clicks", vec![row![2, ts_us(0)], row![3, ts_us(0)]]),
        RunBatch(Some((0, 2))),
        // Post 2 matches "tech"; post 3 has no post and an inner join drops it.
        CheckLastBatchInOrder(vec![row![2, ts_us(0), 2, "tech"]]),
        assert_on("the output columns", |t| {
            let names: Vec<&str> = t.query().plan().output.iter().map(|a| a.name.as_str()).collect();
            assert_eq!(names, ["post_id", "event_time", "post_id", "board"]);
        }),
    ]);
}

#[test]
fn bracket_access_works_like_attribute_access() {
    test_stream("clicks.join(posts, clicks['post_id'] == posts['post_id'], 'left_outer')", OutputMode::Append, catalog()).run(vec![
        AddData("clicks", vec![row![3, ts_us(0)]]),
        RunBatch(Some((0, 1))),
        // No post 3: the left outer join pads the static side with NULLs.
        CheckLastBatchInOrder(vec![row![3, ts_us(0), Value::Null, Value::Null]]),
    ]);
}
