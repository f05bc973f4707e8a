/// A table that remembers the order in which its entries were last used: lookups, insertions
/// and removals of any entry, and of the least recently used one, are O(1).
///
/// The entries form a doubly linked list threaded through the dictionary by key, newest at
/// the front. Not thread-safe: ``ResponseCache`` guards it with its lock.
struct CacheLRU<Key: Hashable, Value> {
    private struct Node {
        var value: Value
        /// The key of the entry used just after this one (towards the newest).
        var newer: Key?
        /// The key of the entry used just before this one (towards the oldest).
        var older: Key?
    }

    private var nodes: [Key: Node] = [:]
    private var newest: Key?
    private var oldest: Key?

    /// The number of entries.
    var count: Int { nodes.count }

    /// The value for `key`, without counting as a use.
    func peek(_ key: Key) -> Value? {
        nodes[key]?.value
    }

    /// The value for `key`, which becomes the most recently used entry.
    mutating func use(_ key: Key) -> Value? {
        guard let value = nodes[key]?.value else { return nil }
        unlink(key)
        linkAsNewest(key)
        return value
    }

    /// Stores `value` for `key` as the most recently used entry.
    ///
    /// - Returns: The value it replaced, if any.
    @discardableResult
    mutating func set(_ value: Value, for key: Key) -> Value? {
        let old = removeValue(for: key)
        nodes[key] = Node(value: value)
        linkAsNewest(key)
        return old
    }

    /// Removes the entry for `key`.
    ///
    /// - Returns: Its value, if there was one.
    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard nodes[key] != nil else { return nil }
        unlink(key)
        return nodes.removeValue(forKey: key)?.value
    }

    /// Removes the least recently used entry.
    ///
    /// - Returns: Its key and value, or `nil` when empty.
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard let key = oldest, let value = removeValue(for: key) else { return nil }
        return (key, value)
    }

    /// Removes every entry.
    mutating func removeAll() {
        nodes.removeAll()
        newest = nil
        oldest = nil
    }

    /// The keys, most recently used first.
    var keysNewestFirst: [Key] {
        var keys: [Key] = []
        var cursor = newest
        while let key = cursor {
            keys.append(key)
            cursor = nodes[key]?.older
        }
        return keys
    }

    /// Takes `key`'s node out of the list; it stays in `nodes`.
    private mutating func unlink(_ key: Key) {
        let newer = nodes[key]?.newer
        let older = nodes[key]?.older
        if let newer {
            nodes[newer]?.older = older
        } else {
            newest = older
        }
        if let older {
            nodes[older]?.newer = newer
        } else {
            oldest = newer
        }
        nodes[key]?.newer = nil
        nodes[key]?.older = nil
    }

    /// Puts `key`'s node, already in `nodes` and unlinked, at the front of the list.
    private mutating func linkAsNewest(_ key: Key) {
        nodes[key]?.older = newest
        nodes[key]?.newer = nil
        if let newest {
            nodes[newest]?.newer = key
        }
        newest = key
        if oldest == nil {
            oldest = key
        }
    }
}
