//! Hash functions (`hash.scala`, `misc.scala`): `md5`, `sha1`/`sha`, `sha2` (hex text of a
//! string's UTF-8 bytes or of bytes), `crc32`, `hash` (Spark's Murmur3 x86 32-bit with seed
//! 42 and its own byte-at-a-time tail, `Murmur3_x86_32.hashUnsafeBytes`), `xxhash64`.

use md5::Digest;

use super::super::context::EvalContext;
use super::{arg, int, to_text};
use crate::types::Value;

pub(super) fn call(name: &str, args: &[Value], cx: &EvalContext) -> Option<Value> {
    match name {
        "hash" => return Some(Value::Int(args.iter().fold(42i32, |h, v| murmur3(v, h)))),
        // Spark's `xxhash64(a, b, ...)`: each argument's hash seeds the next, from 42.
        "xxhash64" => return Some(Value::Long(super::super::hll::spark_xxhash64_all(args) as i64)),
        "md5" | "sha1" | "sha" | "sha2" | "crc32" => {}
        _ => return None,
    }
    let first = arg(args, 0);
    if first.is_null() || (name == "sha2" && arg(args, 1).is_null()) {
        return Some(Value::Null);
    }
    let bytes: Vec<u8> = match first {
        Value::Binary(b) => b.to_vec(),
        other => to_text(other, cx).into_bytes(),
    };
    let hex = |d: &[u8]| Value::str(&d.iter().map(|b| format!("{b:02x}")).collect::<String>());
    Some(match name {
        "md5" => hex(&md5::Md5::digest(&bytes)),
        "sha1" | "sha" => hex(&sha1::Sha1::digest(&bytes)),
        "sha2" => match int(arg(args, 1)) {
            Some(224) => hex(&sha2::Sha224::digest(&bytes)),
            Some(0 | 256) => hex(&sha2::Sha256::digest(&bytes)),
            Some(384) => hex(&sha2::Sha384::digest(&bytes)),
            Some(512) => hex(&sha2::Sha512::digest(&bytes)),
            _ => Value::Null,
        },
        _ => Value::Long(i64::from(crc32fast::hash(&bytes))),
    })
}

const C1: i32 = 0xcc9e_2d51_u32 as i32;
const C2: i32 = 0x1b87_3593;

fn mix_k1(k: i32) -> i32 {
    k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2)
}

fn mix_h1(h: i32, k: i32) -> i32 {
    (h ^ k).rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64_u32 as i32)
}

fn fmix(h: i32, len: i32) -> i32 {
    let mut h = (h ^ len) as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h as i32
}

fn hash_int(v: i32, seed: i32) -> i32 {
    fmix(mix_h1(seed, mix_k1(v)), 4)
}

fn hash_long(v: i64, seed: i32) -> i32 {
    let h = mix_h1(seed, mix_k1(v as i32));
    fmix(mix_h1(h, mix_k1((v >> 32) as i32)), 8)
}

fn hash_bytes(b: &[u8], seed: i32) -> i32 {
    let aligned = b.len() - b.len() % 4;
    let mut h = seed;
    for w in b[..aligned].chunks_exact(4) {
        h = mix_h1(h, mix_k1(i32::from_le_bytes([w[0], w[1], w[2], w[3]])));
    }
    for &byte in &b[aligned..] {
        h = mix_h1(h, mix_k1(i32::from(byte as i8)));
    }
    fmix(h, b.len() as i32)
}

/// Spark's `Murmur3HashFunction.hash(value, seed)`; NULL leaves the seed unchanged.
fn murmur3(v: &Value, seed: i32) -> i32 {
    match v {
        Value::Null => seed,
        Value::Bool(b) => hash_int(i32::from(*b), seed),
        Value::Int(i) | Value::Date(i) => hash_int(*i, seed),
        Value::Long(l) | Value::Timestamp(l) => hash_long(*l, seed),
        Value::Double(d) => hash_long(if *d == 0.0 { 0 } else { d.to_bits() as i64 }, seed),
        Value::Str(s) => hash_bytes(s.as_bytes(), seed),
        Value::Binary(b) => hash_bytes(b, seed),
        Value::Struct(items) | Value::Array(items) => items.iter().fold(seed, |h, x| murmur3(x, h)),
        Value::Map(entries) => entries.iter().fold(seed, |h, (k, x)| murmur3(x, murmur3(k, h))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spark_doc_examples() {
        let cx = EvalContext::default();
        // `SELECT hash('Spark', array(123), 2)` is -1321691492 in Spark's documentation.
        let h = call("hash", &[Value::str("Spark"), Value::Array(vec![Value::Int(123)].into()), Value::Int(2)], &cx);
        assert_eq!(h, Some(Value::Int(-1_321_691_492)));
        assert_eq!(call("md5", &[Value::str("Spark")], &cx), Some(Value::str("8cde774d6f7333752ed72cacddb05126")));
        assert_eq!(call("crc32", &[Value::str("Spark")], &cx), Some(Value::Long(1_557_323_817)));
    }
}
