/// A least-recently-used list with O(1) lookup, insertion, touch and removal.
///
/// A hash map finds a key's slot in a dense entry array; slots are linked through array
/// indices (no per-node allocation, no reference counting of nodes). A removal moves the last
/// entry into the freed slot, so the array never holds a hole: an entry is read where it lies,
/// without unwrapping an optional (which would copy the whole entry, key included, on every
/// hit). Each entry has a cost; the list keeps their sum. Not thread-safe: callers guard it
/// with a lock.
struct LRUList<Key: Hashable, Value> {
    private struct Entry {
        var key: Key
        var value: Value
        var cost: Int
    }

    /// Neighbours of a slot in recency order; kept apart from the entries so relinking touches
    /// only plain integers.
    private struct Link {
        /// Towards the most recent end, or `-1`.
        var previous: Int
        /// Towards the least recent end, or `-1`.
        var next: Int
    }

    /// The entries, densely: slot `i` is `entries[i]`, linked by `links[i]`.
    private var entries: [Entry] = []
    private var links: [Link] = []
    private var slots: [Key: Int] = [:]
    /// The most recently used slot, or `-1`.
    private var head = -1
    /// The least recently used slot, or `-1`.
    private var tail = -1

    /// Sum of the costs of all entries.
    private(set) var totalCost = 0

    /// Makes an empty list.
    init() {}

    /// Number of entries.
    var count: Int { slots.count }

    /// Whether there are no entries.
    var isEmpty: Bool { slots.isEmpty }

    /// Whether `key` is present (does not change the order).
    func contains(_ key: Key) -> Bool { slots[key] != nil }

    /// The value for `key`, without changing the order.
    func peek(_ key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        return entries[slot].value
    }

    /// The cost of `key`'s entry, if present.
    func cost(of key: Key) -> Int? {
        guard let slot = slots[key] else { return nil }
        return entries[slot].cost
    }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        value(for: key) { $0 }
    }

    /// What `project` reads from the value for `key`, which becomes the most recently used; the
    /// entry is read in place, not copied (a cache hit copies only what it hands out).
    mutating func value<T>(for key: Key, _ project: (borrowing Value) -> T) -> T? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        // Through the buffer: its subscript lends the element where it lies.
        return entries.withUnsafeBufferPointer { project($0[slot].value) }
    }

    /// Calls `body` with `key`'s value in place (writable, not copied), without changing the
    /// order; `nil` when `key` is absent.
    mutating func withValue<T>(for key: Key, _ body: (inout Value) -> T) -> T? {
        guard let slot = slots[key] else { return nil }
        return body(&entries[slot].value)
    }

    /// Makes `key` the most recently used. Returns whether it was present.
    @discardableResult
    mutating func touch(_ key: Key) -> Bool {
        guard let slot = slots[key] else { return false }
        moveToFront(slot)
        return true
    }

    /// Inserts or replaces `key`'s entry as the most recently used. Returns the replaced value.
    @discardableResult
    mutating func set(_ value: Value, cost: Int, for key: Key) -> Value? {
        if let slot = slots[key] {
            let old = entries[slot].value
            totalCost += cost - entries[slot].cost
            entries[slot] = Entry(key: key, value: value, cost: cost)
            moveToFront(slot)
            return old
        }
        let slot = entries.count
        entries.append(Entry(key: key, value: value, cost: cost))
        links.append(Link(previous: -1, next: head))
        if head >= 0 { links[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
        slots[key] = slot
        totalCost += cost
        return nil
    }

    /// Removes `key`'s entry and returns its value and cost.
    @discardableResult
    mutating func remove(_ key: Key) -> (value: Value, cost: Int)? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        let entry = unlink(slot)
        return (entry.value, entry.cost)
    }

    /// Removes and returns the least recently used entry.
    mutating func removeLeastRecent() -> (key: Key, value: Value, cost: Int)? {
        guard tail >= 0 else { return nil }
        let slot = tail
        slots.removeValue(forKey: entries[slot].key)
        let entry = unlink(slot)
        return (entry.key, entry.value, entry.cost)
    }

    /// The least recently used key, if any.
    var leastRecentKey: Key? { tail >= 0 ? entries[tail].key : nil }

    /// Removes every entry and returns the values (so callers can release them outside a lock).
    mutating func removeAll() -> [Value] {
        let values = entries.map(\.value)
        entries.removeAll()
        links.removeAll()
        slots.removeAll()
        head = -1
        tail = -1
        totalCost = 0
        return values
    }

    /// Keys from the most to the least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var slot = head
        while slot >= 0 {
            keys.append(entries[slot].key)
            slot = links[slot].next
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        let link = links[slot]
        // Detach (slot is not the head, so it has a previous slot).
        links[link.previous].next = link.next
        if link.next >= 0 { links[link.next].previous = link.previous } else { tail = link.previous }
        // Attach at the front.
        links[slot] = Link(previous: -1, next: head)
        links[head].previous = slot
        head = slot
    }

    /// Detaches `slot` from the links, moves the last entry into it and returns its entry.
    private mutating func unlink(_ slot: Int) -> Entry {
        let link = links[slot]
        if link.previous >= 0 { links[link.previous].next = link.next } else { head = link.next }
        if link.next >= 0 { links[link.next].previous = link.previous } else { tail = link.previous }
        let last = entries.count - 1
        if slot != last { move(last, to: slot) }
        links.removeLast()
        let entry = entries.removeLast()
        totalCost -= entry.cost
        return entry
    }

    /// Moves the entry in slot `from` to the (detached) slot `to`, relinking its neighbours and
    /// its key; `from` is left to be removed.
    private mutating func move(_ from: Int, to: Int) {
        let link = links[from]
        if link.previous >= 0 { links[link.previous].next = to } else { head = to }
        if link.next >= 0 { links[link.next].previous = to } else { tail = to }
        links[to] = link
        entries.swapAt(from, to)
        slots[entries[to].key] = to
    }
}
