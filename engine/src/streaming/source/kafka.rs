//! [`KafkaSource`]: Spark's Kafka source (`KafkaSource.scala`, `KafkaMicroBatchStream`,
//! rows as `KafkaRecordToRowConverter` makes them). Replayable from its offsets: the topic
//! keeps its records, and a restart reads again from the logged offsets. A new query starts
//! where `startingOffsets` says: `"latest"` (Spark's default for streams) skips what the
//! topic already holds, `"earliest"` reads it all.

use std::collections::BTreeMap;

use arrow_schema::DataType;
use serde_json::Value as Json;

use super::{whole_option, Blocks, Source, SourceKind};
use crate::types::{Row, Value};

/// The schema of a Kafka source (`KafkaRecordToRowConverter.kafkaSchema`): `key` and `value`
/// as bytes, `topic`, `partition`, `offset`, `timestamp` (µs), `timestampType`.
pub fn kafka_schema() -> Vec<(String, DataType)> {
    vec![
        ("key".into(), DataType::Binary),
        ("value".into(), DataType::Binary),
        ("topic".into(), DataType::Utf8),
        ("partition".into(), DataType::Int32),
        ("offset".into(), DataType::Int64),
        ("timestamp".into(), crate::types::timestamp_type()),
        ("timestampType".into(), DataType::Int32),
    ]
}

/// A topic with `partitions` partitions. Each `add_rows` call is a producer sending events
/// (rows of the payload schema): the event as JSON in `value`, partitions round-robin,
/// offsets counting up per partition, the event's first timestamp as the record's
/// `timestamp` (CreateTime). The stream offset is the index of the last block of records.
#[derive(Debug, Clone)]
pub struct KafkaSource {
    name: String,
    blocks: Blocks,
    partitions: u32,
    starting_latest: bool,
    /// The events' schema, written as JSON into `value`.
    payload_schema: Vec<(String, DataType)>,
    /// The next offset per partition.
    next_offsets: Vec<i64>,
    /// Records sent so far (for the round-robin partition).
    records: u64,
}

impl KafkaSource {
    /// An empty topic named `name` whose events have `payload_schema`; `partitions` (0 reads
    /// as 1); `starting_latest` is `startingOffsets = "latest"`. Its rows have
    /// [`kafka_schema`].
    pub fn new(name: &str, payload_schema: &[(String, DataType)], partitions: u32, starting_latest: bool) -> KafkaSource {
        KafkaSource {
            name: name.to_string(),
            blocks: Blocks::new(&kafka_schema()),
            partitions,
            starting_latest,
            payload_schema: payload_schema.to_vec(),
            next_offsets: Vec::new(),
            records: 0,
        }
    }

    /// The kind from the reader options: `partitions` (1 to 64, default 1) and
    /// `startingOffsets` (`"earliest"` or `"latest"`, the default).
    ///
    /// # Errors
    /// A partition count out of range or another `startingOffsets`.
    pub fn kind_from_options(options: &BTreeMap<String, Json>) -> Result<SourceKind, String> {
        let partitions = whole_option(options, "partitions", 1, 64)?.unwrap_or(1);
        let starting_latest = match options.get("startingOffsets").and_then(Json::as_str) {
            None | Some("latest") => true,
            Some("earliest") => false,
            Some(other) => return Err(format!("startingOffsets must be \"earliest\" or \"latest\", got \"{other}\"")),
        };
        Ok(SourceKind::Kafka { partitions, starting_latest })
    }

    /// Turns events (rows of `payload_schema`) into Kafka records.
    fn encode_records(&mut self, rows: &[Row]) -> Vec<Row> {
        let partitions = self.partitions.max(1);
        if self.next_offsets.len() != partitions as usize {
            self.next_offsets = vec![0; partitions as usize];
        }
        rows.iter()
            .map(|r| {
                // The JSON keeps the schema's field order, as a producer writes it.
                let fields: Vec<String> = self
                    .payload_schema
                    .iter()
                    .zip(r)
                    .map(|((n, _), v)| format!("{}:{}", serde_json::Value::String(n.clone()), crate::types::json::value_to_json(v)))
                    .collect();
                let text = format!("{{{}}}", fields.join(","));
                let p = (self.records % u64::from(partitions)) as usize;
                self.records += 1;
                let offset = self.next_offsets[p];
                self.next_offsets[p] += 1;
                let ts = r.iter().find_map(|v| if let Value::Timestamp(t) = v { Some(*t) } else { None }).unwrap_or(0);
                vec![
                    Value::Null,
                    Value::Binary(std::rc::Rc::from(text.as_bytes())),
                    Value::str(&self.name),
                    Value::Int(p as i32),
                    Value::Long(offset),
                    Value::Timestamp(ts),
                    Value::Int(0),
                ]
            })
            .collect()
    }
}

impl Source for KafkaSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> SourceKind {
        SourceKind::Kafka { partitions: self.partitions, starting_latest: self.starting_latest }
    }

    fn blocks(&self) -> &Blocks {
        &self.blocks
    }

    fn blocks_mut(&mut self) -> &mut Blocks {
        &mut self.blocks
    }

    /// `rows` are events of the payload schema, sent as one block of records.
    fn add_rows(&mut self, rows: &[Row]) -> Result<i64, String> {
        let records = self.encode_records(rows);
        self.blocks.push_rows(&records)
    }

    /// `startingOffsets = "latest"`: the end of the topic when the query first starts.
    fn initial_offset(&self) -> Option<i64> {
        if self.starting_latest { self.latest_offset() } else { None }
    }

    fn set_payload_schema(&mut self, schema: Vec<(String, DataType)>) {
        self.payload_schema = schema;
    }

    /// `KafkaSourceOffset.json` (`JsonUtils.partitionOffsets`): the topic's partitions in
    /// order, each with the offset of the next record to read, e.g. `{"orders":{"0":2,"1":1}}`
    /// after three records sent round-robin to two partitions. Before the first block every
    /// partition is at 0.
    fn offset_json(&self, offset: Option<i64>) -> Option<serde_json::Value> {
        let records = offset.map_or(0, |o| self.blocks.rows_through(o)) as u64;
        let partitions = u64::from(self.partitions.max(1));
        // Record i went to partition i mod P: partition p holds the i < records with that rest.
        let next: serde_json::Map<String, Json> = (0..partitions).map(|p| (p.to_string(), Json::from((records + partitions - 1 - p) / partitions))).collect();
        Some(serde_json::json!({ self.name.clone(): next }))
    }

    /// `KafkaMicroBatchStream.toString` over a `subscribe` strategy.
    fn description(&self) -> String {
        format!("KafkaV2[Subscribe[{}]]", self.name)
    }

    fn export_note(&self) -> Option<&'static str> {
        Some("a Kafka topic: its records are written as files with Kafka's columns (key, value, topic, partition, offset, timestamp, timestampType); on a cluster read it with spark.readStream.format(\"kafka\")")
    }

    fn exports_made_rows(&self) -> bool {
        true
    }

    fn clone_box(&self) -> Box<dyn Source> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Value;

    /// Records go round-robin: three to two partitions are 0 → p0, 1 → p1, 2 → p0, so the
    /// next offsets are p0: 2, p1: 1; two more (3 → p1, 4 → p0) make them 3 and 2. Before any
    /// block both partitions are at 0.
    #[test]
    fn the_offset_is_the_next_offset_of_every_partition() {
        let payload = [("order_id".to_string(), DataType::Utf8)];
        let mut k = KafkaSource::new("orders", &payload, 2, false);
        assert_eq!(k.offset_json(None).unwrap().to_string(), r#"{"orders":{"0":0,"1":0}}"#);
        let row = |id: &str| vec![Value::str(id)];
        let first = k.add_rows(&[row("o1"), row("o2"), row("o3")]).unwrap();
        assert_eq!(k.offset_json(Some(first)).unwrap().to_string(), r#"{"orders":{"0":2,"1":1}}"#);
        let second = k.add_rows(&[row("o4"), row("o5")]).unwrap();
        assert_eq!(k.offset_json(Some(second)).unwrap().to_string(), r#"{"orders":{"0":3,"1":2}}"#);
        // The earlier offset still reads as it did.
        assert_eq!(k.offset_json(Some(first)).unwrap().to_string(), r#"{"orders":{"0":2,"1":1}}"#);
        assert_eq!(k.description(), "KafkaV2[Subscribe[orders]]");
    }
}
