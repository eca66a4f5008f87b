import Foundation
import Synchronization

/// Tells how each request had its remote source, for the metrics: the first request for a
/// source in flight leads, and learns whether the loader downloaded it during its fetch (a
/// miss) or not (a hit in the source cache); requests that come while it is in flight join it
/// (coalesced: the pipeline makes one download for all of them).
final class SourceTracker: Sendable {
    private struct Flight {
        var requests = 0
        var downloaded = false
    }

    private let flights = Mutex<[String: Flight]>([:])

    /// Whether a request leads its source's fetch or joined one in flight.
    enum Role { case leader, joined }

    /// A request for `url` starts fetching.
    func begin(_ url: String) -> Role {
        flights.withLock { flights in
            let role: Role = flights[url] == nil ? .leader : .joined
            flights[url, default: Flight()].requests += 1
            return role
        }
    }

    /// Requests for `url` whose fetch is open now.
    func requests(for url: String) -> Int { flights.withLock { $0[url]?.requests ?? 0 } }

    /// The loader is downloading `url` (called by the loader before it connects).
    func didDownload(_ url: String) {
        flights.withLock { flights in flights[url]?.downloaded = true }
    }

    /// A request for `url` has its bytes (or failed); returns whether a download happened
    /// while its flight was open.
    func end(_ url: String) -> Bool {
        flights.withLock { flights in
            guard var flight = flights[url] else { return false }
            flight.requests -= 1
            flights[url] = flight.requests == 0 ? nil : flight
            return flight.downloaded
        }
    }
}
