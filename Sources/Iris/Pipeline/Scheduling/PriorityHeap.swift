/// An element of a ``PriorityHeap``: knows which of two comes out first.
protocol Ranked {
    /// Whether `self` comes out of the heap before `other`.
    func outranks(_ other: Self) -> Bool
}

/// A binary heap: `first` is the element that outranks every other. Used by ``WorkQueue`` to
/// pick the next job.
struct PriorityHeap<Element: Ranked> {
    private(set) var elements: [Element] = []

    /// Number of elements.
    var count: Int { elements.count }
    /// Whether the heap is empty.
    var isEmpty: Bool { elements.isEmpty }
    /// The element that outranks every other.
    var first: Element? { elements.first }

    /// Adds `element`. O(log n).
    mutating func insert(_ element: Element) {
        elements.append(element)
        siftUp(from: elements.count - 1)
    }

    /// Removes and returns the element that outranks every other. O(log n).
    mutating func popFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let first = elements.removeLast()
        if !elements.isEmpty { siftDown(from: 0) }
        return first
    }

    /// Keeps only the elements for which `isIncluded` holds, then restores heap order. O(n).
    mutating func retain(where isIncluded: (Element) -> Bool) {
        elements.removeAll { !isIncluded($0) }
        var index = elements.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].outranks(elements[parent]) else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < elements.count && elements[left].outranks(elements[best]) { best = left }
            if right < elements.count && elements[right].outranks(elements[best]) { best = right }
            guard best != parent else { return }
            elements.swapAt(parent, best)
            parent = best
        }
    }
}
