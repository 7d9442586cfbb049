//! Accounts: the registration rules, password hashes, session tokens and
//! the throttling of failed logins.
//!
//! Passwords are hashed with Argon2id at OWASP's parameters (19 MiB, 2
//! passes, 1 lane: the `argon2` crate's defaults) into PHC strings; a hash
//! with weaker parameters is replaced at the next login. A session token
//! is 128 bits from the operating system's generator; only its SHA-256 is
//! kept, so a copy of the database opens no session.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Argon2, Params};
use sha2::{Digest, Sha256};

/// Usernames: this many characters at least and at most.
pub const USERNAME_LEN: std::ops::RangeInclusive<usize> = 4..=32;
/// Passwords: this many characters at least and at most.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;
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
/// nothing about who exists), kept in memory.
#[derive(Default)]
pub struct Throttle {
    names: HashMap<String, (u32, Instant)>,
}

/// The most names the throttle remembers; past it, the oldest runs are
/// forgotten first.
const REMEMBERED: usize = 100_000;

impl Throttle {
    /// How long `name` must wait before its next try, if at all.
    pub fn wait(&self, name: &str, now: Instant) -> Option<Duration> {
        let (failures, last) = self.names.get(&name.to_lowercase())?;
        if *failures < FREE_FAILURES {
            return None;
        }
        let until = *last + penalty(*failures);
        (until > now).then(|| until - now)
    }

    /// Records a failed login of `name`.
    pub fn fail(&mut self, name: &str, now: Instant) {
        if self.names.len() >= REMEMBERED {
            self.names
                .retain(|_, (n, last)| now.saturating_duration_since(*last) < penalty(*n));
            if self.names.len() >= REMEMBERED {
                self.names.clear();
            }
        }
        let entry = self.names.entry(name.to_lowercase()).or_insert((0, now));
        entry.0 += 1;
        entry.1 = now;
    }

    /// Clears `name`'s failures (a successful login).
    pub fn succeed(&mut self, name: &str) {
        self.names.remove(&name.to_lowercase());
    }
}

/// The wait after `failures` failures in a row: none for the first
/// [`FREE_FAILURES`], then 1 s, doubling, up to [`MAX_WAIT`].
pub fn penalty(failures: u32) -> Duration {
    if failures < FREE_FAILURES {
        return Duration::ZERO;
    }
    let doublings = (failures - FREE_FAILURES).min(20);
    Duration::from_secs(1u64 << doublings).min(MAX_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registration_rules() {
        assert!(check_registration("alice", "12345678", None).is_ok());
        assert!(check_registration("al1ce", "12345678", Some("a@b.org")).is_ok());
        assert!(check_registration("ali", "12345678", None).is_err());
        assert!(check_registration("ali ce", "12345678", None).is_err());
        assert!(check_registration("alice", "1234567", None).is_err());
        assert!(check_registration("alice", &"x".repeat(129), None).is_err());
        assert!(check_registration("alice", "12345678", Some("not an email")).is_err());
        assert!(check_registration("alice", "12345678", Some("a@b@c")).is_err());
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
        t.succeed("Bob");
        assert_eq!(t.wait("bob", now), None);
    }
}
