import Iris
import CoreMetrics
import IrisServerCore
import Prometheus

/// The service's metrics, recorded through swift-metrics into a Prometheus registry of their
/// own (one per renderer, so tests and several services in one process do not mix), and
/// written in Prometheus's text format by ``exposition(load:)``.
///
/// - `iris_requests_total{status,format}`: image requests answered, by status and format
///   (`none` on errors).
/// - `iris_stage_duration_seconds{stage}`: histograms of fetch, decode, process and encode.
/// - `iris_source_cache_total{outcome}`: remote sources found in the source cache (`hit`),
///   downloaded (`miss`) or joined to a download in flight (`coalesced`);
///   `iris_source_bytes_total`: bytes downloaded.
/// - `iris_downloads_coalesced_total`: requests that joined a download in flight.
/// - `iris_result_cache_total{outcome}`: result cache hits and misses.
/// - `iris_refusals_total{reason}`: refusals and failures by reason (`busy` is the 429 of a
///   full queue); `iris_busy_total`: the 429s alone; `iris_source_host_busy_total`: those of
///   them a source's host had no room for (``HostDownloadGate``).
/// - `iris_renders_in_flight`, `iris_renders_queued`: the work queue at the time of a scrape
///   (queued: admitted requests fetching their source or waiting for a render slot).
public final class ServerMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let inFlight: CoreMetrics.Gauge
    private let queued: CoreMetrics.Gauge
    private let busy: CoreMetrics.Counter
    private let hostBusy: CoreMetrics.Counter
    private let coalesced: CoreMetrics.Counter
    private let sourceBytes: CoreMetrics.Counter

    /// Stages of a render, as named in the histograms and in `Server-Timing`.
    package enum Stage: String, Sendable, CaseIterable {
        case fetch, decode, process, encode
    }

    /// Makes the metrics in a new registry.
    package init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        inFlight = CoreMetrics.Gauge(label: "iris_renders_in_flight", factory: factory)
        queued = CoreMetrics.Gauge(label: "iris_renders_queued", factory: factory)
        busy = CoreMetrics.Counter(label: "iris_busy_total", factory: factory)
        hostBusy = CoreMetrics.Counter(label: "iris_source_host_busy_total", factory: factory)
        coalesced = CoreMetrics.Counter(label: "iris_downloads_coalesced_total", factory: factory)
        sourceBytes = CoreMetrics.Counter(label: "iris_source_bytes_total", factory: factory)
        // Present from the start, at zero, so a scrape shows every series a dashboard reads.
        for outcome in ["hit", "miss", "coalesced"] { _ = counter("iris_source_cache_total", [("outcome", outcome)]) }
        for outcome in ["hit", "miss"] { _ = counter("iris_result_cache_total", [("outcome", outcome)]) }
        for stage in Stage.allCases {
            _ = CoreMetrics.Timer(label: "iris_stage_duration_seconds", dimensions: [("stage", stage.rawValue)], factory: factory)
        }
    }

    /// Counts an answer: its status and format, a render's stages (not a result cache hit's),
    /// a refusal's reason.
    func record(_ result: ServeResult) {
        switch result {
        case .image(let image):
            request(status: 200, format: image.format)
            if image.timings.resultCacheHit != true { stages(image.timings) }
        case .notModified(let prepared):
            request(status: 304, format: prepared.format)
        case .sourceNotModified:
            request(status: 304, format: nil)
        case .failure(let error):
            request(status: error.status, format: nil)
            refusal(error)
        }
    }

    /// Counts an image request answered with `status` in `format` (`nil` on errors).
    package func request(status: Int, format: OutputFormat?) {
        counter("iris_requests_total", [("status", String(status)), ("format", format?.rawValue ?? "none")]).increment()
    }

    /// Records how long a stage took.
    package func stage(_ stage: Stage, _ duration: Duration) {
        CoreMetrics.Timer(label: "iris_stage_duration_seconds", dimensions: [("stage", stage.rawValue)], factory: factory)
            .recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Records every stage of a finished render (a stage another request did counts as zero).
    package func stages(_ timings: RenderTimings) {
        stage(.fetch, timings.fetch)
        stage(.decode, timings.decode)
        stage(.process, timings.process)
        stage(.encode, timings.encode)
    }

    /// Counts a remote source found in the source cache, downloaded (with its bytes) or joined.
    package func source(_ outcome: SourceOutcome, bytes: Int = 0) {
        counter("iris_source_cache_total", [("outcome", outcome.rawValue)]).increment()
        if outcome == .coalesced { coalesced.increment() }
        if outcome == .miss, bytes > 0 { sourceBytes.increment(by: bytes) }
    }

    /// How a remote source was had.
    package enum SourceOutcome: String, Sendable {
        /// From the source cache on disk.
        case hit
        /// Downloaded.
        case miss
        /// Joined to a download already in flight.
        case coalesced
    }

    /// Counts a result cache lookup.
    package func resultCache(hit: Bool) {
        counter("iris_result_cache_total", [("outcome", hit ? "hit" : "miss")]).increment()
    }

    /// Counts a refusal or failure by its reason.
    package func refusal(_ error: ServeError) {
        counter("iris_refusals_total", [("reason", Self.reason(error.status))]).increment()
        if error.status == 429 { busy.increment() }
        if HostDownloadGate.refusals.contains(error) { hostBusy.increment() }
    }

    /// The reason label of a status.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "bad_request"
        case 403: "forbidden"
        case 404: "not_found"
        case 410: "gone"
        case 413: "too_large"
        case 415: "unsupported"
        case 422: "unprocessable"
        case 429: "busy"
        case 502: "source_failed"
        case 503: "unavailable"
        case 504: "timeout"
        default: status < 500 ? "client_error" : "server_error"
        }
    }

    /// Every metric in Prometheus's text format, with the work queue's `load` as of now.
    package func exposition(load: (running: Int, waiting: Int)) -> String {
        inFlight.record(load.running)
        queued.record(load.waiting)
        return registry.emitToString()
    }

    private func counter(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
    }
}
