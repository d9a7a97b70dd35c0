//! The checks Spark makes on a checkpoint: compatibility when a query restarts on it
//! (`OffsetSeq`, `OperatorStateMetadata`, `StateSchemaCompatibilityChecker`) and whether the
//! sink may resume from it. Where a checkpoint may live is a start-time check
//! ([`crate::analysis::start::checkpoint_location`]).

use super::{Checkpoint, OperatorMetadata};
use crate::analysis::{Node, Plan};
use crate::error::{AnalysisError, Error, Stage};

/// Each stateful operator's id, name and state key schema (what Spark writes under
/// `state/<op>/_metadata` and `_metadata/schema`).
pub fn operator_metadata(plan: &Plan) -> Vec<OperatorMetadata> {
    let mut out = Vec::new();
    plan.walk(&mut |p| {
        let key: Option<Vec<String>> = match &p.node {
            Node::Aggregate { keys, session, .. } => {
                let n = keys.len() + usize::from(session.is_some());
                Some(p.output.iter().take(n).map(|a| format!("{}:{}", a.name, crate::types::spark_type_name(&a.data_type))).collect())
            }
            Node::Dedup { input, keys, .. } => {
                Some(keys.iter().map(|k| format!("{}:{}", input.output[*k].name, crate::types::spark_type_name(&input.output[*k].data_type))).collect())
            }
            Node::StreamJoin { left, join, .. } => Some(
                join.keys.iter().map(|(l, _)| format!("{}:{}", left.output[*l].name, crate::types::spark_type_name(&left.output[*l].data_type))).collect(),
            ),
            Node::Limit { .. } => Some(vec![]),
            Node::FlatMapGroupsWithState { input, keys, .. } | Node::TransformWithState { input, keys, .. } => Some(
                keys.iter()
                    .map(|k| match k {
                        crate::analysis::BoundExpr::Col(c) => format!("{}:{}", input.output[*c].name, crate::types::spark_type_name(&input.output[*c].data_type)),
                        _ => "key".to_string(),
                    })
                    .collect(),
            ),
            _ => None,
        };
        if let Some(key) = key {
            let (id, name) = plan_op(p);
            out.push(OperatorMetadata { id, name: name.to_string(), key_schema: key });
        }
    });
    out
}

fn plan_op(p: &Plan) -> (usize, &'static str) {
    p.stateful_operators().into_iter().next().unwrap_or((0, ""))
}

/// What Spark checks when a query restarts on a checkpoint that has offsets: the
/// number of sources (`OffsetSeq.toStreamProgress`), the stateful operators
/// (id → name, `OperatorStateMetadataV1`) and their state key schemas
/// (`StateSchemaCompatibilityChecker`). A checkpoint with no offsets is a new query.
///
/// # Errors
/// Spark's source-count message (an assertion in `OffsetSeq`, no condition),
/// `STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA`,
/// `STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE`.
pub fn check_compatible(checkpoint: &Checkpoint, plan: &Plan, source_count: usize) -> Result<(), Error> {
    if checkpoint.offsets.is_empty() {
        return Ok(());
    }
    let now = operator_metadata(plan);
    if checkpoint.source_count != source_count {
        return Err(Error::Analysis(
            AnalysisError::new(
                Stage::Start,
                "",
                format!(
                    "There are [{}] sources in the checkpoint offsets and now there are [{}] sources requested by the query. Cannot continue.",
                    checkpoint.source_count,
                    source_count
                ),
            )
            .with_hint("offsets are stored per source position; a query with other sources needs a new checkpoint"),
        ));
    }
    let names = |v: &[OperatorMetadata]| v.iter().map(|m| (m.id, m.name.clone())).collect::<Vec<_>>();
    if names(&checkpoint.operators) != names(&now) {
        return Err(Error::Analysis(
            AnalysisError::new(
                Stage::Start,
                "STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA",
                format!(
                    "Streaming stateful operator name does not match with the operator in state metadata. This likely to happen when user adds/removes/changes stateful operator of existing streaming query. Stateful operators in the metadata: [{}]; Stateful operators in current batch: [{}].",
                    checkpoint.operators.iter().map(|m| format!("({}, {})", m.id, m.name)).collect::<Vec<_>>().join(", "),
                    now.iter().map(|m| format!("({}, {})", m.id, m.name)).collect::<Vec<_>>().join(", ")
                ),
            )
            .with_sqlstate("42K03")
            .with_hint("adding, removing or reordering stateful operators (aggregations, dedup, joins, limit) needs a new checkpoint"),
        ));
    }
    for (old, new) in checkpoint.operators.iter().map(|m| &m.key_schema).zip(now.iter().map(|m| &m.key_schema)) {
        if old != new {
            return Err(Error::Analysis(
                AnalysisError::new(
                    Stage::Start,
                    "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                    format!(
                        "Provided key schema does not match existing state key schema. Please check number and type of fields. Existing key_schema=struct<{}> and new key_schema=struct<{}>. If you want to force running the query without schema validation, please set spark.sql.streaming.stateStore.stateSchemaCheck to false. However, please note that running the query without schema validation can cause non-deterministic results.",
                        old.join(","),
                        new.join(",")
                    ),
                )
                .with_sqlstate("XXKST")
                .with_hint("the state is keyed by the grouping (or dedup/join) columns: changing them needs a new checkpoint"),
            ));
        }
    }
    Ok(())
}

/// Whether a query may resume from a checkpoint that has offsets: a sink that cannot
/// recover (the memory sink outside complete mode, `DataStreamWriter`'s
/// `recoverFromCheckpointLocation`) refuses a used checkpoint.
///
/// # Errors
/// Spark's message telling to delete the offsets.
pub fn check_recoverable(checkpoint: &Checkpoint, sink_recovers: bool) -> Result<(), Error> {
    if checkpoint.offsets.is_empty() || sink_recovers {
        return Ok(());
    }
    Err(Error::Analysis(
        AnalysisError::new(
            Stage::Start,
            "",
            "This query does not support recovering from checkpoint location. Delete <checkpoint>/offsets to start over.",
        )
        .with_hint("the memory sink keeps its rows only in this process, so Spark will not resume it from a checkpoint in append or update mode; use a file or foreachBatch sink to see recovery"),
    ))
}
