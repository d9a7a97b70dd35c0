//! Share links: a whole lab session — scenario, settings and the learner's actions, in the
//! saved-session JSON of [`crate::lab::persist`] — packed into a URL fragment, so an instructor can
//! send a link that opens the lab exactly where they were.
//!
//! Format: `#lab=<version>.<payload>` where the payload is the saved-session JSON, compressed
//! with raw DEFLATE (`miniz_oxide`) and written in unpadded base64url (`base64`). The link is
//! at most [`MAX_LINK_CHARS`] long and unpacks to at most [`MAX_JSON_BYTES`]. [`decode`]
//! never panics: a malformed, truncated, oversized or wrong-version link is a [`ShareError`].

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use crate::text::i18n::{tr, tr_with};
use crate::text::Lang;
use crate::lab::session::LabSession;

/// The link format this version writes and reads.
pub const SHARE_VERSION: u32 = 1;
/// The fragment key.
pub const PREFIX: &str = "lab=";
/// The longest link [`encode`] makes and [`decode`] reads (browsers and chat apps cope with
/// far longer URLs, but a lab that does not fit is better saved as a file).
pub const MAX_LINK_CHARS: usize = 16_000;
/// The most a link may unpack to: a guard against a small link that inflates to a huge text.
pub const MAX_JSON_BYTES: usize = 512 * 1024;

/// Why a link cannot be made or opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The fragment is not a Streamlab lab link (no `lab=`).
    NotALink,
    /// The link's version is not one this Streamlab reads.
    Version(String),
    /// The link (or the link a session would make) is longer than [`MAX_LINK_CHARS`].
    TooLong {
        /// The link's length, in characters.
        chars: usize,
    },
    /// The payload is not base64url (a character was changed or lost).
    Encoding(String),
    /// The payload does not inflate (truncated or damaged).
    Compression(String),
    /// The payload inflates to more than [`MAX_JSON_BYTES`].
    TooLarge,
    /// The payload is not a saved session this version can open.
    Session(String),
}

impl ShareError {
    /// The message in `lang`, for the page.
    pub fn message(&self, lang: Lang) -> String {
        let t = |k: &'static str| tr(lang, k);
        match self {
            ShareError::NotALink => t("share.err.notalink").to_string(),
            ShareError::Version(v) => tr_with(lang, "share.err.version", &[("v", v)]),
            ShareError::TooLong { chars } => tr_with(lang, "share.err.toolong", &[("n", chars), ("max", &MAX_LINK_CHARS)]),
            ShareError::Encoding(m) => format!("{} ({m})", t("share.err.damaged")),
            ShareError::Compression(m) => format!("{} ({m})", t("share.err.damaged")),
            ShareError::TooLarge => tr_with(lang, "share.err.toolarge", &[("max", &(MAX_JSON_BYTES / 1024))]),
            ShareError::Session(m) => format!("{} ({m})", t("share.err.session")),
        }
    }
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

/// Packs saved-session JSON into a fragment (`lab=1.…`, without `#`).
///
/// # Errors
/// [`ShareError::TooLong`] when the link would be longer than [`MAX_LINK_CHARS`];
/// [`ShareError::TooLarge`] when the JSON is larger than [`MAX_JSON_BYTES`].
pub fn encode_json(json: &str) -> Result<String, ShareError> {
    if json.len() > MAX_JSON_BYTES {
        return Err(ShareError::TooLarge);
    }
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    let link = format!("{PREFIX}{SHARE_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed));
    if link.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLong { chars: link.len() });
    }
    Ok(link)
}

/// The fragment that reopens `session` (its scenario, settings and actions).
///
/// # Errors
/// As [`encode_json`].
pub fn encode(session: &LabSession) -> Result<String, ShareError> {
    encode_json(&session.to_saved_json())
}

/// Unpacks a fragment (with or without the leading `#`, and with other `&`-separated keys
/// around it) to the saved-session JSON it carries.
///
/// # Errors
/// A [`ShareError`] saying what is wrong; never panics.
pub fn decode_json(fragment: &str) -> Result<String, ShareError> {
    let fragment = fragment.trim().trim_start_matches('#');
    if fragment.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLong { chars: fragment.len() });
    }
    let value = fragment.split('&').find_map(|part| part.strip_prefix(PREFIX)).ok_or(ShareError::NotALink)?;
    // `lab=<version>.<payload>`: a link without the dot or with a version that is not a
    // number was damaged, not made by another version.
    let (version, payload) = value.split_once('.').ok_or_else(|| ShareError::Encoding("no version before the data".into()))?;
    if version.is_empty() || !version.chars().all(|c| c.is_ascii_digit()) {
        return Err(ShareError::Encoding(format!("the version {:?} is not a number", version.chars().take(8).collect::<String>())));
    }
    if version != SHARE_VERSION.to_string() {
        return Err(ShareError::Version(version.chars().take(8).collect()));
    }
    let packed = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).map_err(|e| ShareError::Encoding(e.to_string()))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON_BYTES).map_err(|e| match e.status {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooLarge,
        status => ShareError::Compression(format!("{status:?}")),
    })?;
    String::from_utf8(bytes).map_err(|_| ShareError::Compression("not UTF-8 text".into()))
}

/// Reopens the session a fragment carries, replaying its actions.
///
/// # Errors
/// As [`decode_json`], or [`ShareError::Session`] when the JSON is not a saved session.
pub fn decode(fragment: &str) -> Result<LabSession, ShareError> {
    let json = decode_json(fragment)?;
    LabSession::from_saved_json(&json).map_err(ShareError::Session)
}

/// What the page does with its address's fragment when it loads: `None` when the fragment
/// is no share link (empty, or a page route such as `#/lab`), else the session it holds or
/// why it cannot be opened. The page asks before opening it (the saved session is kept).
pub fn from_location_hash(hash: &str) -> Option<Result<LabSession, ShareError>> {
    let fragment = hash.trim().trim_start_matches('#');
    if !fragment.split('&').any(|part| part.starts_with(PREFIX)) {
        return None;
    }
    Some(decode(fragment))
}

/// The full address that opens `session`: `base` (the page's address; any fragment it has
/// is replaced) with `#lab=…`.
///
/// # Errors
/// As [`encode`].
pub fn link_for(base: &str, session: &LabSession) -> Result<String, ShareError> {
    let base = base.split('#').next().unwrap_or(base);
    Ok(format!("{base}#{}", encode(session)?))
}
