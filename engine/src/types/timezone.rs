//! The session time zone (`spark.sql.session.timeZone`): a region of the IANA database
//! (`America/Los_Angeles`, from [`super::tzdb`]) or a fixed offset (`UTC`, `+09:00`). Spark reads
//! a timestamp's calendar fields, formats it, casts it to a date or a string, and reads a zoneless
//! string in this zone (`DateTimeUtils.getZoneId`, `SQLConf.sessionLocalTimeZone`); time windows
//! stay aligned to UTC.

use std::sync::Arc;

use chrono::NaiveDateTime;

use super::time::MICROS_PER_SECOND;

/// A time zone Spark accepts as `spark.sql.session.timeZone`, with the text it was given
/// (`current_timezone()` returns that text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionTimeZone {
    id: String,
    zone: Zone,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Zone {
    /// Seconds east of UTC.
    Fixed(i32),
    Region(Arc<tz::TimeZone>),
}

impl Default for SessionTimeZone {
    fn default() -> Self {
        SessionTimeZone::utc()
    }
}

/// Java's `ZoneId.SHORT_IDS`, which `DateTimeUtils.getZoneId` passes to `ZoneId.of`: a region,
/// or for `EST`, `HST` and `MST` a fixed offset.
const SHORT_IDS: &[(&str, &str)] = &[
    ("ACT", "Australia/Darwin"),
    ("AET", "Australia/Sydney"),
    ("AGT", "America/Argentina/Buenos_Aires"),
    ("ART", "Africa/Cairo"),
    ("AST", "America/Anchorage"),
    ("BET", "America/Sao_Paulo"),
    ("BST", "Asia/Dhaka"),
    ("CAT", "Africa/Harare"),
    ("CNT", "America/St_Johns"),
    ("CST", "America/Chicago"),
    ("CTT", "Asia/Shanghai"),
    ("EAT", "Africa/Addis_Ababa"),
    ("ECT", "Europe/Paris"),
    ("EST", "-05:00"),
    ("HST", "-10:00"),
    ("IET", "America/Indiana/Indianapolis"),
    ("IST", "Asia/Kolkata"),
    ("JST", "Asia/Tokyo"),
    ("MIT", "Pacific/Apia"),
    ("MST", "-07:00"),
    ("NET", "Asia/Yerevan"),
    ("NST", "Pacific/Auckland"),
    ("PLT", "Asia/Karachi"),
    ("PNT", "America/Phoenix"),
    ("PRT", "America/Puerto_Rico"),
    ("PST", "America/Los_Angeles"),
    ("SST", "Pacific/Guadalcanal"),
    ("VST", "Asia/Ho_Chi_Minh"),
];

impl SessionTimeZone {
    /// UTC, the default here (and in the corpus harness).
    pub fn utc() -> Self {
        SessionTimeZone { id: "UTC".into(), zone: Zone::Fixed(0) }
    }

    /// Reads a zone id as Spark's `DateTimeUtils.getZoneId` does: a region id
    /// (`Europe/Paris`, case as in the database), one of Java's short ids (`PST`), or an offset
    /// (`Z`, `UTC`, `+09:00`, `GMT-8`, `+1:00`).
    ///
    /// # Errors
    /// Spark's message for a zone it cannot read (`INVALID_CONF_VALUE.TIME_ZONE` wording); in
    /// the browser before the database has arrived, [`super::tzdb::loading_message`] for an id
    /// that is not an offset.
    pub fn parse(id: &str) -> Result<Self, String> {
        let trimmed = id.trim();
        let short = SHORT_IDS.iter().find(|(s, _)| *s == trimmed).map_or(trimmed, |(_, r)| *r);
        let zone = if let Some(s) = zone_offset_seconds(short) {
            Zone::Fixed(i32::try_from(s).map_err(|_| bad_zone(id))?)
        } else {
            let db = super::tzdb::database().ok_or_else(|| super::tzdb::loading_message(id))?;
            Zone::Region(db.zone(short).ok_or_else(|| bad_zone(id))?)
        };
        Ok(SessionTimeZone { id: id.to_string(), zone })
    }

    /// The id as given (`current_timezone()`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// True for a zone that is UTC at every instant.
    pub fn is_utc(&self) -> bool {
        self.zone == Zone::Fixed(0)
    }

    /// Seconds east of UTC at the instant `utc_us` (µs since the epoch).
    pub fn offset_seconds_at(&self, utc_us: i64) -> i32 {
        match &self.zone {
            Zone::Fixed(s) => *s,
            Zone::Region(tz) => region_offset(tz, utc_us.div_euclid(MICROS_PER_SECOND)),
        }
    }

    /// The wall-clock time in this zone at `utc_us`, as µs since 1970-01-01T00:00 local time.
    pub fn to_local_us(&self, utc_us: i64) -> i64 {
        utc_us.saturating_add(i64::from(self.offset_seconds_at(utc_us)) * MICROS_PER_SECOND)
    }

    /// The instant of a wall-clock time in this zone (µs since 1970-01-01T00:00 local), as
    /// Java's `LocalDateTime.atZone` resolves it: in a gap (spring forward) the time moves later
    /// by the gap's length, in an overlap (fall back) the earlier instant wins.
    pub fn from_local_us(&self, local_us: i64) -> i64 {
        match &self.zone {
            Zone::Fixed(s) => local_us.saturating_sub(i64::from(*s) * MICROS_PER_SECOND),
            Zone::Region(tz) => {
                let local = local_us.div_euclid(MICROS_PER_SECOND);
                // The offsets in force a day either side (no zone has two transitions a day
                // apart): each that maps the wall-clock time back to itself is a reading of it.
                let before = region_offset(tz, local.saturating_sub(86_400));
                let after = region_offset(tz, local.saturating_add(86_400));
                let fits = |o: i32| region_offset(tz, local.saturating_sub(i64::from(o))) == o;
                let offset = match (fits(before), fits(after)) {
                    // An overlap (fall back): the earlier instant, the larger offset.
                    (true, true) => before.max(after),
                    (true, false) => before,
                    (false, true) => after,
                    // A gap (spring forward): the offset before it, so the time lands after it.
                    (false, false) => before,
                };
                local_us.saturating_sub(i64::from(offset) * MICROS_PER_SECOND)
            }
        }
    }

    /// The zone's short name at `utc_us` as Java's `z` pattern prints it (`PST`, `PDT`, `KST`,
    /// `UTC`); a fixed offset prints as itself (`+09:00`).
    pub fn short_name_at(&self, utc_us: i64) -> String {
        match &self.zone {
            Zone::Fixed(0) => "UTC".into(),
            Zone::Fixed(s) => format_offset(*s, true, false),
            Zone::Region(tz) => match tz.find_local_time_type(utc_us.div_euclid(MICROS_PER_SECOND)) {
                // A zone with no abbreviation of its own has a numeric one (`+09`): the offset.
                Ok(t) if t.time_zone_designation().starts_with(['+', '-']) => format_offset(t.ut_offset(), true, false),
                Ok(t) => t.time_zone_designation().to_string(),
                Err(_) => self.id.clone(),
            },
        }
    }

    /// The local date-time at `utc_us`, `None` past chrono's range.
    pub fn local_datetime(&self, utc_us: i64) -> Option<NaiveDateTime> {
        chrono::DateTime::from_timestamp_micros(self.to_local_us(utc_us)).map(|d| d.naive_utc())
    }
}

/// Seconds east of UTC in `tz` at `utc_seconds` since the epoch (0 past the data's range).
fn region_offset(tz: &tz::TimeZone, utc_seconds: i64) -> i32 {
    tz.find_local_time_type(utc_seconds).map_or(0, |t| t.ut_offset())
}

/// `+09`, `+0930`, `+09:30` (`colon`), seconds kept when not zero; hours only when the minutes
/// are zero and `short`.
pub fn format_offset(seconds: i32, colon: bool, short: bool) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let a = seconds.unsigned_abs();
    let (h, m, s) = (a / 3600, a % 3600 / 60, a % 60);
    let sep = if colon { ":" } else { "" };
    let mut out = format!("{sign}{h:02}");
    if !(short && m == 0 && s == 0) {
        out.push_str(&format!("{sep}{m:02}"));
    }
    if s != 0 {
        out.push_str(&format!("{sep}{s:02}"));
    }
    out
}

/// Seconds east of UTC of a zone text Java's `ZoneId.of` accepts as an offset: `Z`, `UTC`,
/// `GMT`, `UT`, `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, optionally after `UTC`/`GMT`/`UT`.
/// `GMT` itself is removed first by the JSON reader's legacy fallback (`cleanLegacyTimestampStr`).
pub fn zone_offset_seconds(z: &str) -> Option<i64> {
    let z = z.trim();
    if z == "Z" || z == "z" {
        return (z == "Z").then_some(0);
    }
    let upper = z.to_ascii_uppercase();
    let rest = ["UTC", "GMT", "UT"].iter().find_map(|p| upper.strip_prefix(p)).map_or(z, |r| &z[z.len() - r.len()..]);
    if rest.is_empty() {
        return (rest.len() != z.len()).then_some(0);
    }
    let (sign, body) = match rest.as_bytes()[0] {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return None,
    };
    // Spark pads `+1:00` to `+01:00` and `+01:3` to `+01:03` before `ZoneId.of`.
    let parts: Vec<&str> = body.split(':').collect();
    let num = |s: &str| -> Option<i64> { (!s.is_empty() && s.len() <= 2 && s.bytes().all(|c| c.is_ascii_digit())).then(|| s.parse().ok()).flatten() };
    let (h, m, s) = match parts.as_slice() {
        [hm] if hm.len() == 4 && hm.bytes().all(|c| c.is_ascii_digit()) => (hm[..2].parse().ok()?, hm[2..].parse().ok()?, 0),
        [hms] if hms.len() == 6 && hms.bytes().all(|c| c.is_ascii_digit()) => (hms[..2].parse().ok()?, hms[2..4].parse().ok()?, hms[4..].parse().ok()?),
        [h] => (num(h)?, 0, 0),
        [h, m] => (num(h)?, num(m)?, 0),
        [h, m, s] => (num(h)?, num(m)?, num(s)?),
        _ => return None,
    };
    if h > 18 || m > 59 || s > 59 {
        return None;
    }
    Some(sign * (h * 3600 + m * 60 + s))
}

fn bad_zone(id: &str) -> String {
    format!("[INVALID_CONF_VALUE.TIME_ZONE] The value '{id}' in the config \"spark.sql.session.timeZone\" is invalid. Cannot resolve the given timezone.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_timestamp_us;

    #[test]
    fn regions_follow_daylight_saving() {
        let la = SessionTimeZone::parse("America/Los_Angeles").unwrap();
        // January: PST, UTC-8; July: PDT, UTC-7.
        assert_eq!(la.offset_seconds_at(parse_timestamp_us("2026-01-01T05:00:00Z").unwrap()), -8 * 3600);
        assert_eq!(la.offset_seconds_at(parse_timestamp_us("2026-07-01T05:00:00Z").unwrap()), -7 * 3600);
        // 2026-03-08 02:30 does not exist in Los Angeles: Java moves it to 03:30 PDT = 10:30 UTC.
        let local = parse_timestamp_us("2026-03-08T02:30:00Z").unwrap();
        assert_eq!(la.from_local_us(local), parse_timestamp_us("2026-03-08T10:30:00Z").unwrap());
        // 2026-11-01 01:30 happens twice: the earlier (PDT, 08:30 UTC) wins.
        let local = parse_timestamp_us("2026-11-01T01:30:00Z").unwrap();
        assert_eq!(la.from_local_us(local), parse_timestamp_us("2026-11-01T08:30:00Z").unwrap());
        // An ordinary time in each season reads back to its instant.
        for utc in ["2026-01-15T20:00:00Z", "2026-07-15T20:00:00Z"] {
            let t = parse_timestamp_us(utc).unwrap();
            assert_eq!(la.from_local_us(la.to_local_us(t)), t);
        }
        assert_eq!((la.short_name_at(parse_timestamp_us("2026-01-15T20:00:00Z").unwrap()), la.short_name_at(parse_timestamp_us("2026-07-15T20:00:00Z").unwrap())), ("PST".to_string(), "PDT".to_string()));
        // A zone whose abbreviation is numeric (`+04` in the database) prints the offset.
        assert_eq!(SessionTimeZone::parse("Asia/Dubai").unwrap().short_name_at(0), "+04:00");
    }

    #[test]
    fn offsets_and_short_ids() {
        assert_eq!(SessionTimeZone::parse("+09:00").unwrap().offset_seconds_at(0), 9 * 3600);
        assert!(SessionTimeZone::parse("UTC").unwrap().is_utc());
        assert_eq!(SessionTimeZone::parse("PST").unwrap().offset_seconds_at(0), -8 * 3600);
        // Java's SHORT_IDS map EST to the offset -05:00, not to the database's EST (a link to
        // America/Panama, which had its own local mean time before 1908): so 1900 is -05:00 too.
        let est = SessionTimeZone::parse("EST").unwrap();
        assert_eq!(est.offset_seconds_at(parse_timestamp_us("1900-01-01T00:00:00Z").unwrap()), -5 * 3600);
        assert_eq!(est.short_name_at(0), "-05:00");
        assert_eq!(est.id(), "EST");
        assert_eq!(SessionTimeZone::parse("Asia/Seoul").unwrap().id(), "Asia/Seoul");
        assert!(SessionTimeZone::parse("Mars/Olympus").is_err());
    }
}
