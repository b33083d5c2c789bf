//! A bounded map from an endpoint and a hash of its settings to what the sender
//! built for them (a TLS client, a token): built when first used, then kept while
//! used. When full, the entry used longest ago makes room, so a process serving
//! many endpoints keeps the busy ones and a change of settings (a new hash)
//! simply stops using the old entry.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// An endpoint (`tenant/endpoint`) and the hash of the settings an entry was made for.
pub(crate) type CacheKey = (String, u64);

/// The key of `settings` for `endpoint` (std's SipHash: the key is never stored
/// or shown).
pub(crate) fn cache_key(endpoint: &str, settings: &impl Hash) -> CacheKey {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    settings.hash(&mut hasher);
    (endpoint.to_owned(), hasher.finish())
}

/// At most `capacity` entries; each `get` marks its entry as just used.
pub(crate) struct BoundedCache<V> {
    capacity: usize,
    inner: Mutex<Entries<V>>,
}

struct Entries<V> {
    map: HashMap<CacheKey, (V, u64)>,
    /// A use counter: the entry with the smallest stamp was used longest ago.
    tick: u64,
}

impl<V: Clone> BoundedCache<V> {
    pub(crate) fn new(capacity: usize) -> Self {
        BoundedCache {
            capacity: capacity.max(1),
            inner: Mutex::new(Entries {
                map: HashMap::new(),
                tick: 0,
            }),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries<V>> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    #[cfg(test)]
    fn get(&self, key: &CacheKey) -> Option<V> {
        let mut entries = self.entries();
        entries.tick += 1;
        let tick = entries.tick;
        let (value, used) = entries.map.get_mut(key)?;
        *used = tick;
        Some(value.clone())
    }

    /// The entry for `key`, made by `make` when there is none (or `make`'s error).
    /// `make` runs under the lock: it must be quick and must not use this cache.
    pub(crate) fn get_or_try_insert<E>(&self, key: &CacheKey, make: impl FnOnce() -> Result<V, E>) -> Result<V, E> {
        let mut entries = self.entries();
        entries.tick += 1;
        let tick = entries.tick;
        if let Some((value, used)) = entries.map.get_mut(key) {
            *used = tick;
            return Ok(value.clone());
        }
        let value = make()?;
        if entries.map.len() >= self.capacity {
            // A scan of at most `capacity` entries, only when a new one comes in.
            let oldest = entries
                .map
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                entries.map.remove(&oldest);
            }
        }
        entries.map.insert(key.clone(), (value.clone(), tick));
        Ok(value)
    }

    pub(crate) fn len(&self) -> usize {
        self.entries().map.len()
    }
}

impl<V> std::fmt::Debug for BoundedCache<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundedCache")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u64) -> CacheKey {
        ("t/e".to_owned(), n)
    }

    #[test]
    fn keeps_the_recently_used_within_its_bound() {
        let cache = BoundedCache::new(2);
        let made = |v: u32| Ok::<_, ()>(v);
        assert_eq!(cache.get_or_try_insert(&key(1), || made(1)), Ok(1));
        assert_eq!(cache.get_or_try_insert(&key(2), || made(2)), Ok(2));
        // Used again: 1 is now the most recent, 2 the one to go.
        assert_eq!(cache.get(&key(1)), Some(1));
        assert_eq!(cache.get_or_try_insert(&key(3), || made(3)), Ok(3));
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get(&key(2)), None);
        assert_eq!(cache.get(&key(1)), Some(1));
        // An entry present is not made again.
        assert_eq!(cache.get_or_try_insert(&key(3), || Err(())), Ok(3));
        // A failed make stores nothing.
        assert_eq!(cache.get_or_try_insert(&key(4), || Err::<u32, _>(())), Err(()));
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn keys_differ_by_settings() {
        assert_eq!(cache_key("t/e", &"a"), cache_key("t/e", &"a"));
        assert_ne!(cache_key("t/e", &"a"), cache_key("t/e", &"b"));
        assert_ne!(cache_key("t/e", &"a"), cache_key("t/f", &"a"));
    }
}
