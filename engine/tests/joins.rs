//! Joins through the public API, with values worked out by hand.

use std::rc::Rc;

use streamlab_engine::frontend::Catalog;
use streamlab_engine::streaming::{OutputMode, StreamingConf, StreamingQuery};
use streamlab_engine::types::{timestamp_type, DataType, Value};

fn catalog() -> Catalog {
    let mut c = Catalog::default();
    c.streams.insert("clicks".into(), vec![("post_id".into(), DataType::Int64), ("event_time".into(), timestamp_type())]);
    let posts = vec![vec![Value::Long(1), Value::str("news")], vec![Value::Long(2), Value::str("tech")]];
    c.statics.insert("posts".into(), (vec![("post_id".into(), DataType::Int64), ("board".into(), DataType::Utf8)], Rc::new(posts)));
    c
}

#[test]
fn qualified_columns_tell_the_join_sides_apart() {
    // `clicks.post_id == posts.post_id` names one column on each side, as in PySpark; the
    // output keeps both post_id columns (left then right), like Spark's condition join.
    let mut q = StreamingQuery::start("clicks.join(posts, clicks.post_id == posts.post_id)", &catalog(), OutputMode::Append, StreamingConf::default()).unwrap();
    q.add_data("clicks", &[vec![Value::Long(2), Value::Timestamp(0)], vec![Value::Long(3), Value::Timestamp(0)]]).unwrap();
    let b = q.run_next_batch().unwrap();
    // Post 2 matches "tech"; post 3 has no post and an inner join drops it.
    assert_eq!(b.rows, vec![vec![Value::Long(2), Value::Timestamp(0), Value::Long(2), Value::str("tech")]]);
    let names: Vec<&str> = q.plan().output.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["post_id", "event_time", "post_id", "board"]);
}

#[test]
fn bracket_access_works_like_attribute_access() {
    let mut q = StreamingQuery::start("clicks.join(posts, clicks['post_id'] == posts['post_id'], 'left_outer')", &catalog(), OutputMode::Append, StreamingConf::default()).unwrap();
    q.add_data("clicks", &[vec![Value::Long(3), Value::Timestamp(0)]]).unwrap();
    // No post 3: the left outer join pads the static side with NULLs.
    assert_eq!(q.run_next_batch().unwrap().rows, vec![vec![Value::Long(3), Value::Timestamp(0), Value::Null, Value::Null]]);
}
