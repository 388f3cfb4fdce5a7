import CoreMetrics
import Prometheus

/// swift-metrics' factory for Prometheus with each family's `# HELP` line, which
/// `PrometheusMetricsFactory` leaves out (and `promtool check metrics` asks for). The
/// metrics are made where they happen (`Counter(label:)` in the service, the store, the
/// middleware); their descriptions are kept here, one table for the whole scrape.
struct DescribedMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    /// Buckets and unregistering, as Prometheus' own factory does them.
    private let plain: PrometheusMetricsFactory

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        plain = PrometheusMetricsFactory(registry: registry)
    }

    /// Every family the server makes, with what it counts. A test scrapes a server that
    /// made each of them and runs `promtool check metrics` on it.
    static let descriptions = [
        "onboard_http_requests_total": "Requests answered, by matched route, method and status.",
        "onboard_http_request_duration_seconds": "Time to answer a request, by matched route and method.",
        "onboard_sign_ins_total": "Sign-ins by method (anonymous, register, login, phone, social, social_device) and outcome.",
        "onboard_rate_limit_refusals_total": "Requests refused by a rate limit, by limit.",
        "onboard_idempotent_replays_total": "Repeated requests answered with the first call's result, by operation.",
        "onboard_refresh_reuse_detections_total": "Refresh tokens used again after their grace: the token family was ended.",
        "onboard_store_connections_in_use": "PostgreSQL connections leased from the pool.",
        "onboard_store_requests_waiting": "Requests waiting for a PostgreSQL connection.",
        "onboard_store_errors_total": "Store failures: the database out of reach (unavailable) or a query that failed.",
    ]

    /// The label as the whole name (it already ends in its unit), with its description.
    private func described(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: Self.descriptions[label] ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: described(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: described(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: described(label), labels: dimensions) }
        let buckets = plain.valueHistogramBuckets[label] ?? plain.defaultValueHistogramBuckets
        return registry.makeValueHistogram(descriptor: described(label), labels: dimensions, buckets: buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: described(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let buckets = plain.durationHistogramBuckets[label] ?? plain.defaultDurationHistogramBuckets
        return registry.makeDurationHistogram(descriptor: described(label), labels: dimensions, buckets: buckets)
    }

    func destroyCounter(_ handler: any CounterHandler) { plain.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { plain.destroyFloatingPointCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { plain.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { plain.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { plain.destroyTimer(handler) }
}
