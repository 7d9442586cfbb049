//! Accounts: the registration rules, password hashes, session tokens and
//! the throttling of failed logins.
//!
//! Passwords are hashed with Argon2id at OWASP's parameters (19 MiB, 2
//! passes, 1 lane: the `argon2` crate's defaults) into PHC strings; a hash
//! with weaker parameters is replaced at the next login. A session token
//! is 128 bits from the operating system's generator; only its SHA-256 is
//! kept, so a copy of the database opens no session.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Argon2, Params};
use sha2::{Digest, Sha256};

/// Usernames: this many characters at least and at most.
pub const USERNAME_LEN: std::ops::RangeInclusive<usize> = 4..=32;
/// Passwords: this many characters at least and at most.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;
/// The least strength a password must have, on zxcvbn's scale of 0 to 4:
/// 2 is about 10^8 guesses or more (`12345678`, `password1` or the
/// username with a digit score 0), out of reach of the login throttle's
/// few guesses a minute. OWASP ASVS 5.0 asks for a check against common
/// passwords; zxcvbn's lists hold those and their variants.
pub const MIN_STRENGTH: u8 = 2;
/// Failures in a row before logins of a name are throttled.
pub const FREE_FAILURES: u32 = 5;
/// The longest wait a run of failures imposes.
pub const MAX_WAIT: Duration = Duration::from_secs(15 * 60);

/// Why a registration is refused, in words for the page.
pub fn check_registration(
    username: &str,
    password: &str,
    email: Option<&str>,
) -> Result<(), String> {
    let n = username.chars().count();
    if !USERNAME_LEN.contains(&n) || !username.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "a username is {} to {} letters and digits",
            USERNAME_LEN.start(),
            USERNAME_LEN.end()
        ));
    }
    if !PASSWORD_LEN.contains(&password.chars().count()) {
        return Err(format!(
            "a password is {} to {} characters",
            PASSWORD_LEN.start(),
            PASSWORD_LEN.end()
        ));
    }
    // The username and email count as known: a password made of them is
    // as weak as a common one.
    let estimate = zxcvbn::zxcvbn(password, &[username, email.unwrap_or("")]);
    if u8::from(estimate.score()) < MIN_STRENGTH {
        let why = estimate
            .feedback()
            .and_then(|f| f.warning())
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        return Err(format!(
            "that password is too easy to guess{why}: use a few words of your own, or a longer one"
        ));
    }
    if let Some(e) = email {
        let valid = e.len() <= 254
            && e.split_once('@')
                .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty() && !b.contains('@'))
            && !e.chars().any(char::is_whitespace);
        if !valid {
            return Err("the email is not of the form name@domain".into());
        }
    }
    Ok(())
}

fn argon2() -> Argon2<'static> {
    // Argon2id, version 19, m = 19 MiB, t = 2, p = 1: OWASP's minimum.
    Argon2::default()
}

/// The Argon2id hash of `password` with a fresh salt, as a PHC string.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers: {e}"))?;
    let salt = SaltString::encode_b64(&bytes).map_err(|e| format!("cannot make a salt: {e}"))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash a password: {e}"))
}

/// Whether `password` matches the PHC string `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
        .unwrap_or(false)
}

/// Whether a stored hash uses weaker parameters than today's, so that the
/// next successful login should store a new one.
pub fn needs_rehash(hash: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return true;
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return true;
    };
    let current = Params::default();
    parsed.algorithm.as_str() != "argon2id"
        || params.m_cost() < current.m_cost()
        || params.t_cost() < current.t_cost()
}

/// A hash to verify against when the user does not exist, so that the
/// answer takes as long as for a wrong password.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("no user has this password").unwrap_or_default())
}

/// A new session token: 128 random bits, as 32 hex digits.
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The SHA-256 of a token, as stored.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The SHA-256 of a text, in hex: the key of a board's text.
pub fn text_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A random seed for a game's shuffles.
pub fn new_seed() -> Result<u64, String> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers: {e}"))?;
    Ok(u64::from_le_bytes(bytes))
}

/// Failed logins per username (known or not, so that the throttle tells
/// nothing about who exists) and per client address (one password tried
/// across many accounts), kept in memory.
///
/// An attempt is counted when it is let through, before its password is
/// hashed ([`Throttle::reserve`]), and the check and the count are one
/// step under the server's lock: guesses sent at once over many
/// connections are each counted, so no more than [`FREE_FAILURES`] of
/// them reach the hash. A success gives its attempt back.
#[derive(Default)]
pub struct Throttle {
    names: Lockouts,
    addresses: Lockouts,
}

/// Failures in a row from one address before its logins are throttled:
/// more than a name's, as a household or a school shares one address.
pub const FREE_ADDRESS_FAILURES: u32 = 20;

/// A run of failures is forgotten after this long without another, so
/// that an address shared by honest people (who mistype now and then)
/// never stays throttled.
const FORGET_AFTER: Duration = Duration::from_secs(3600);

/// The most names (and, apart, addresses) the throttle remembers. At
/// about 100 bytes an entry, 10,000 is a megabyte; an attacker filling it
/// needs that many failures, which the address throttle slows down.
pub const REMEMBERED: usize = 10_000;

/// The throttle keeps at most this many characters of a name: no
/// username is longer, so a longer one is throttled as its prefix.
const KEY_CHARS: usize = *USERNAME_LEN.end();

/// A count of failures in a row, and the time of the last, per key.
#[derive(Default)]
struct Lockouts {
    runs: HashMap<String, (u32, Instant)>,
}

impl Lockouts {
    /// The wait before the next try of `key`, if any.
    fn wait(&self, key: &str, free: u32, now: Instant) -> Option<Duration> {
        let (failures, last) = self.runs.get(key)?;
        if now.saturating_duration_since(*last) >= FORGET_AFTER {
            return None;
        }
        let until = *last + penalty_after(*failures, free);
        (until > now).then(|| until - now)
    }

    /// Counts one more attempt of `key`.
    fn count(&mut self, key: &str, free: u32, now: Instant) {
        if !self.runs.contains_key(key) && self.runs.len() >= REMEMBERED {
            self.make_room(free, now);
        }
        let run = self.runs.entry(key.to_string()).or_insert((0, now));
        if now.saturating_duration_since(run.1) >= FORGET_AFTER {
            run.0 = 0;
        }
        run.0 += 1;
        run.1 = now;
    }

    /// Gives back one attempt of `key` (it succeeded).
    fn uncount(&mut self, key: &str) {
        if let Some(run) = self.runs.get_mut(key) {
            run.0 = run.0.saturating_sub(1);
            if run.0 == 0 {
                self.runs.remove(key);
            }
        }
    }

    fn clear(&mut self, key: &str) {
        self.runs.remove(key);
    }

    /// Room for one more key: the runs that impose no wait go first; if
    /// every run is a lockout, the oldest goes. Never all at once (before,
    /// a flood of names cleared every lockout).
    fn make_room(&mut self, free: u32, now: Instant) {
        self.runs.retain(|_, (n, last)| {
            now.saturating_duration_since(*last) < FORGET_AFTER.min(penalty_after(*n, free))
        });
        if self.runs.len() >= REMEMBERED {
            let oldest = self
                .runs
                .iter()
                .min_by_key(|(_, (_, last))| *last)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.runs.remove(&k);
            }
        }
    }

    fn len(&self) -> usize {
        self.runs.len()
    }
}

/// The throttle's key for a name: lower case, at most [`KEY_CHARS`].
fn name_key(name: &str) -> String {
    name.to_lowercase().chars().take(KEY_CHARS).collect()
}

impl Throttle {
    /// How long `name` must wait before its next try, if at all.
    pub fn wait(&self, name: &str, now: Instant) -> Option<Duration> {
        self.names.wait(&name_key(name), FREE_FAILURES, now)
    }

    /// Lets an attempt of `name` from `address` through and counts it, or
    /// refuses it with the longer of the two waits.
    pub fn reserve(
        &mut self,
        name: &str,
        address: Option<IpAddr>,
        now: Instant,
    ) -> Result<(), Duration> {
        let key = name_key(name);
        let by_name = self.names.wait(&key, FREE_FAILURES, now);
        let by_address = address.and_then(|a| {
            self.addresses
                .wait(&a.to_string(), FREE_ADDRESS_FAILURES, now)
        });
        if let Some(wait) = by_name.max(by_address) {
            return Err(wait);
        }
        self.names.count(&key, FREE_FAILURES, now);
        if let Some(a) = address {
            self.addresses
                .count(&a.to_string(), FREE_ADDRESS_FAILURES, now);
        }
        Ok(())
    }

    /// Records a failed login of `name` (with no attempt reserved: tests).
    pub fn fail(&mut self, name: &str, now: Instant) {
        self.names.count(&name_key(name), FREE_FAILURES, now);
    }

    /// A successful login: the name's failures cleared, and the address's
    /// attempt given back (not its failures: an attacker's own account
    /// must not clear them).
    pub fn succeed(&mut self, name: &str, address: Option<IpAddr>) {
        self.names.clear(&name_key(name));
        if let Some(a) = address {
            self.addresses.uncount(&a.to_string());
        }
    }

    /// The names remembered.
    pub fn names_remembered(&self) -> usize {
        self.names.len()
    }
}

/// The wait after `failures` failures in a row: none for the first
/// [`FREE_FAILURES`], then 1 s, doubling, up to [`MAX_WAIT`].
pub fn penalty(failures: u32) -> Duration {
    penalty_after(failures, FREE_FAILURES)
}

/// The wait after `failures` in a row when the first `free` are free.
fn penalty_after(failures: u32, free: u32) -> Duration {
    if failures < free {
        return Duration::ZERO;
    }
    let doublings = (failures - free).min(20);
    Duration::from_secs(1u64 << doublings).min(MAX_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (Before issue 57, `12345678` was the example of a valid password.)
    #[test]
    fn registration_rules() {
        let good = "plum tractor 42";
        assert!(check_registration("alice", good, None).is_ok());
        assert!(check_registration("al1ce", good, Some("a@b.org")).is_ok());
        assert!(check_registration("ali", good, None).is_err());
        assert!(check_registration("ali ce", good, None).is_err());
        assert!(check_registration("alice", "1234567", None).is_err());
        assert!(check_registration("alice", &"x".repeat(129), None).is_err());
        assert!(check_registration("alice", good, Some("not an email")).is_err());
        assert!(check_registration("alice", good, Some("a@b@c")).is_err());
    }

    /// Issue 57: `12345678` was accepted as a password. Now a password
    /// must reach zxcvbn's score 2; common ones, and the username itself,
    /// are refused, saying why.
    #[test]
    fn weak_passwords_are_refused() {
        for weak in [
            "12345678",
            "password",
            "password1",
            "qwertyuiop",
            "alice2026",
        ] {
            let e = check_registration("alice2026", weak, None).unwrap_err();
            assert!(e.contains("too easy to guess"), "{weak}: {e}");
        }
        assert!(check_registration("alice", "correct horse battery", None).is_ok());
    }

    #[test]
    fn hashes_are_argon2id_phc_strings_at_owasp_parameters() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsE", &h));
        assert!(!needs_rehash(&h));
        let weak = Argon2::new(
            argon2::Algorithm::Argon2id,
            argon2::Version::V0x13,
            Params::new(4096, 1, 1, None).unwrap(),
        )
        .hash_password(b"x", &SaltString::encode_b64(&[7; 16]).unwrap())
        .unwrap()
        .to_string();
        assert!(needs_rehash(&weak));
        assert!(!verify_password("x", "not a hash"));
    }

    #[test]
    fn tokens_are_128_random_bits() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert_ne!(token_hash(&a), token_hash(&b));
    }

    #[test]
    fn throttle_waits_double_after_five_failures_and_a_success_clears() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for _ in 0..5 {
            assert_eq!(t.wait("Bob", now), None);
            t.fail("bob", now);
        }
        assert_eq!(t.wait("BOB", now), Some(Duration::from_secs(1)));
        t.fail("bob", now);
        assert_eq!(t.wait("bob", now), Some(Duration::from_secs(2)));
        assert_eq!(t.wait("bob", now + Duration::from_secs(3)), None);
        assert_eq!(penalty(40), MAX_WAIT);
        t.succeed("Bob", None);
        assert_eq!(t.wait("bob", now), None);
    }

    /// Issue 57: the throttle held up to 100,000 names of any length, and
    /// a flood of names past that cleared every lockout at once. Now it
    /// keeps at most [`REMEMBERED`] names of at most 32 characters, and a
    /// flood evicts the runs that impose no wait first.
    #[test]
    fn a_flood_of_names_is_bounded_and_keeps_the_lockouts() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for _ in 0..6 {
            t.fail("alice", now);
        }
        assert!(t.wait("alice", now).is_some());
        let long = "x".repeat(10_000);
        for i in 0..REMEMBERED + 500 {
            t.fail(&format!("{i}{long}"), now);
        }
        assert!(t.names_remembered() <= REMEMBERED);
        assert!(t.names.runs.keys().all(|k| k.chars().count() <= 32));
        assert!(t.wait("alice", now).is_some(), "alice's lockout survives");
    }

    /// An address is throttled after [`FREE_ADDRESS_FAILURES`] failures
    /// whatever the names; a success gives back its own attempt only.
    #[test]
    fn one_address_trying_many_names_is_throttled() {
        let mut t = Throttle::default();
        let now = Instant::now();
        let here: Option<IpAddr> = "192.0.2.7".parse().ok();
        let there: Option<IpAddr> = "192.0.2.8".parse().ok();
        for i in 0..FREE_ADDRESS_FAILURES {
            assert!(t.reserve(&format!("user{i}"), here, now).is_ok());
        }
        assert!(t.reserve("fresh", here, now).is_err());
        assert!(t.reserve("fresh", there, now).is_ok());
        t.succeed("fresh", there);
        assert!(t.reserve("other", there, now).is_ok());
        assert!(t.reserve("fresh", here, now + FORGET_AFTER).is_ok());
    }
}
