import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// The whole service under swift-service-lifecycle: the image listener, the metrics listener
/// (when configured) and the drain. On SIGTERM or SIGINT (or ``ServiceGroup/triggerGracefulShutdown()``):
/// `/health` answers 503 (for ``IrisServerConfiguration/drainDelay``), then the listener stops
/// accepting and the requests in flight are answered, then the metrics listener stops; past
/// ``IrisServerConfiguration/drainLimit`` what is left is cancelled. `run()` then returns.
public enum IrisServerService {
    /// The service group; `onRunning` is told the image port, `onMetricsRunning` the metrics port.
    public static func group(
        configuration: IrisServerConfiguration, renderer: ImageRenderer, drain: DrainState = DrainState(),
        logger: Logger = Logger(label: "iris-server"), signals: [UnixSignal] = [.sigterm, .sigint],
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> ServiceGroup {
        var services: [any Service] = []
        // Shut down in reverse order: the drain first, then the images, then the metrics.
        if configuration.metricsPort != nil {
            services.append(
                IrisServerApplication.makeMetrics(
                    configuration: configuration, renderer: renderer, logger: logger,
                    onRunning: onMetricsRunning))
        }
        services.append(
            IrisServerApplication.make(
                configuration: configuration, renderer: renderer, drain: drain, logger: logger,
                onRunning: onRunning))
        services.append(DrainService(drain: drain, delay: configuration.drainDelay))
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: signals,
            cancellationSignals: [], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.drainLimit
        return ServiceGroup(configuration: groupConfiguration)
    }
}

/// Waits for a graceful shutdown, then marks the service draining and holds the listener open
/// for `delay` (so `/health` is seen answering 503) before the group goes on to stop it.
struct DrainService: Service {
    let drain: DrainState
    let delay: Duration

    func run() async throws {
        // Returns when a graceful shutdown begins; throws when cancelled instead.
        try? await gracefulShutdown()
        drain.begin()
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
