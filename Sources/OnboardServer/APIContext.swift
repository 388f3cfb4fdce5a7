import Hummingbird
import NIOCore

/// Per-request context: the client's address (for per-address rate limits) and a small
/// body limit (a huge body is refused with 413 before it is read).
public struct APIContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address, or the client's behind a trusted proxy (`TrustedProxies`).
    public var clientAddress: String
    /// The peer is a trusted proxy, whose `X-Request-Id` names the request.
    public var viaTrustedProxy = false

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The route the request matched, as declared (`/api/v1/records/{key}`, `/D/{code}`),
    /// never the values in its path; nil when no route did.
    var matchedRoute: String? { endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } }

    /// Every request of the API is small JSON.
    public var maxUploadSize: Int { 64 * 1024 }

    public var requestDecoder: some RequestDecoder { BodyDecoder() }
}
