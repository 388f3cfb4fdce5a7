import Foundation
import Hummingbird
import ServiceAPI

/// The address people reach the server at (`--public-url`), as `scheme://host[:port]`.
/// Addresses the server hands out (the device page and its QR code, the providers' return
/// address) are built from it rather than from the request's Host header, which a client
/// writes; a request naming any other host than it or this machine's own addresses is
/// refused, 421 (RFC 9110 §15.5.20).
public struct PublicAddress: Sendable, Equatable {
    public let origin: String
    /// `host[:port]` as a Host header carries it, lower-cased.
    let authority: String

    public init?(_ text: String) {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else { return nil }
        authority = (host + (url.port.map { ":\($0)" } ?? "")).lowercased()
        origin = scheme + "://" + authority
    }

    /// Whether a request naming `authority` is for this server.
    func serves(_ authority: String) -> Bool {
        let named = authority.lowercased()
        return named == self.authority || OwnAddresses.contains(authority: named)
    }
}

/// Refuses requests naming a host this server is not (with `--public-url`).
struct PublicAddressMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let address: PublicAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard address.serves(request.head.authority ?? "") else {
            return ErrorEnvelopeMiddleware.response(
                for: ServiceError(.invalidInput, "This server is \(address.origin); the request named another host."),
                status: .misdirectedRequest)
        }
        return try await next(request, context)
    }
}
