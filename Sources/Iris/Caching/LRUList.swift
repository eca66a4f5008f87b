/// A least-recently-used list with O(1) lookup, insertion, touch and removal.
///
/// A hash map finds a key's slot in a node array; the nodes are linked through array indices
/// (no per-node allocation, no reference counting of nodes). Freed slots are reused. Each entry
/// has a cost; the list keeps their sum. Not thread-safe: callers guard it with a lock.
struct LRUList<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        /// Towards the most recent end, or `-1`.
        var previous: Int
        /// Towards the least recent end, or `-1`.
        var next: Int
    }

    /// Slots; `nil` when free (so a removed value is released at once).
    private var nodes: [Node?] = []
    private var freeSlots: [Int] = []
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
        return nodes[slot]!.value
    }

    /// The cost of `key`'s entry, if present.
    func cost(of key: Key) -> Int? {
        guard let slot = slots[key] else { return nil }
        return nodes[slot]!.cost
    }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return nodes[slot]!.value
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
            let old = nodes[slot]!.value
            totalCost += cost - nodes[slot]!.cost
            nodes[slot]!.value = value
            nodes[slot]!.cost = cost
            moveToFront(slot)
            return old
        }
        let node = Node(key: key, value: value, cost: cost, previous: -1, next: head)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if head >= 0 { nodes[head]!.previous = slot }
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
        let node = unlink(slot)
        return (node.value, node.cost)
    }

    /// Removes and returns the least recently used entry.
    mutating func removeLeastRecent() -> (key: Key, value: Value, cost: Int)? {
        guard tail >= 0 else { return nil }
        let slot = tail
        slots.removeValue(forKey: nodes[slot]!.key)
        let node = unlink(slot)
        return (node.key, node.value, node.cost)
    }

    /// The least recently used key, if any.
    var leastRecentKey: Key? { tail >= 0 ? nodes[tail]!.key : nil }

    /// Removes every entry and returns the values (so callers can release them outside a lock).
    mutating func removeAll() -> [Value] {
        let values = nodes.compactMap { $0?.value }
        nodes.removeAll()
        freeSlots.removeAll()
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
            keys.append(nodes[slot]!.key)
            slot = nodes[slot]!.next
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        let previous = nodes[slot]!.previous
        let next = nodes[slot]!.next
        // Detach (slot is not the head, so it has a previous node).
        nodes[previous]!.next = next
        if next >= 0 { nodes[next]!.previous = previous } else { tail = previous }
        // Attach at the front.
        nodes[slot]!.previous = -1
        nodes[slot]!.next = head
        nodes[head]!.previous = slot
        head = slot
    }

    /// Detaches `slot` from the links, frees it and returns its node.
    private mutating func unlink(_ slot: Int) -> Node {
        let node = nodes[slot]!
        if node.previous >= 0 { nodes[node.previous]!.next = node.next } else { head = node.next }
        if node.next >= 0 { nodes[node.next]!.previous = node.previous } else { tail = node.previous }
        nodes[slot] = nil
        freeSlots.append(slot)
        totalCost -= node.cost
        return node
    }
}
