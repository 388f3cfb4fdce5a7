import CurlShim
import FoundationEssentials
import OwnThread
import ServiceAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The remote service over HTTP(S): `onboard-server`'s `/api/v1`, through libcurl
/// (loaded on the first request, so a run on the embedded mock never loads an HTTP
/// stack). An unreachable or silent server becomes `network` or `timeout` within
/// seconds; anything that is not the API's JSON becomes `bad_response`, never a crash.
public final class HTTPTransport: AuthService {
    public let baseURL: String
    /// The PEM file trusted instead of the system's certificates (`--ca-cert`), if any.
    private let certificateFile: String?
    private let timeoutMilliseconds: Int
    /// Largest response body read; a bigger one is a bad response.
    static let maximumResponse = 1 << 20
    static let connectMilliseconds = CallDeadlines.connect.wholeMilliseconds

    public struct AddressError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// `base` is `http(s)://host:port`. Plain HTTP to anything but this machine is
    /// refused unless `insecure`: passwords and tokens would cross the network in clear.
    public init(base: String, insecure: Bool = false, trustRoots: [String] = [], timeout: Duration = CallDeadlines.answer) throws {
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), let host = url.host, ["http", "https"].contains(scheme)
        else {
            throw AddressError(description: "'\(base)' is not a service address like http://127.0.0.1:8080 or https://example.org")
        }
        if scheme == "http", !insecure, !Loopback.contains(host) {
            throw AddressError(
                description:
                    "plain http:// to \(host) would send passwords and tokens unencrypted; use https://, or --insecure if you accept that")
        }
        baseURL = base.hasSuffix("/") ? String(base.dropLast()) : base
        timeoutMilliseconds = max(1000, timeout.wholeMilliseconds)
        certificateFile = try Self.certificateFile(trustRoots)
    }

    /// The trusted certificates as one PEM file (libcurl takes one), checked now so a
    /// wrong `--ca-cert` is said before the first screen.
    static func certificateFile(_ paths: [String]) throws -> String? {
        guard !paths.isEmpty else { return nil }
        var pem = ""
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") else {
                throw AddressError(description: "\(path) is not a readable PEM certificate")
            }
            pem += text.hasSuffix("\n") ? text : text + "\n"
        }
        if paths.count == 1 { return paths[0] }
        let combined = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-trust-\(getpid())-\(UUID().uuidString).pem")
            .path
        try pem.write(toFile: combined, atomically: true, encoding: .utf8)
        return combined
    }

    // MARK: Calls

    public func send<Call: WireCall>(_ call: Call, bearer: String?) async throws -> Call.Answer {
        let endpoint = Call.endpoint
        let body = endpoint.method == .get ? nil : try JSONEncoder().encode(call)
        return try await send(endpoint, parameter: call.pathParameter, body: body, bearer: bearer)
    }

    // MARK: QA controls (`onboard-server --dev`)

    public func outbox() async throws -> [OutboxEntry] {
        try await send(Wire.OutboxCall(), bearer: nil)
    }

    public func reset() async throws {
        _ = try await send(Wire.ResetCall(), bearer: nil)
    }

    public func setClockOffset(seconds: Int64) async throws {
        _ = try await send(Wire.ClockRequest(offsetSeconds: seconds), bearer: nil)
    }

    public func setFaults(_ faults: [Fault]) async throws {
        _ = try await send(Wire.FaultsRequest(faults: faults.map(\.description)), bearer: nil)
    }

    // MARK: The operator's report

    /// `GET /admin/funnel` with the operator's admin token (not a session).
    public func funnel(flow: String, since: String, byVersion: Bool, adminToken: String) async throws -> FunnelReport {
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "flow", value: flow), URLQueryItem(name: "since", value: since)]
        if byVersion { query.queryItems?.append(URLQueryItem(name: "by", value: "version")) }
        let url = baseURL + Endpoint.adminFunnel.address + "?" + (query.percentEncodedQuery ?? "")
        let headers = ["Accept: application/json", "Authorization: Bearer \(adminToken)"]
        let (status, bytes) = try await perform(method: "GET", url: url, headers: headers, body: nil)
        guard (200..<300).contains(status) else { throw Self.failure(status: status, body: bytes, base: baseURL) }
        do {
            return try JSONDecoder().decode(FunnelReport.self, from: bytes)
        } catch {
            throw ServiceError.unreadable(baseURL, status: status)
        }
    }

    // MARK: The wire

    /// Calls `endpoint`; `parameter` fills its one `:name` path part, percent-encoded.
    private func send<Reply: Decodable>(
        _ endpoint: Endpoint, parameter: String?, body payload: Data?, bearer: String?
    ) async throws -> Reply {
        let path = endpoint.path.split(separator: "/").map { part in
            guard part.hasPrefix(":"), let parameter else { return String(part) }
            return Self.pathSegment(parameter)
        }
        let url = baseURL + Endpoint.root + "/" + path.joined(separator: "/")
        var headers = ["Accept: application/json"]
        if let bearer { headers.append("Authorization: Bearer \(bearer)") }
        if let key = CallContext.idempotencyKey { headers.append("Idempotency-Key: \(key)") }
        if let proof = CallContext.idempotencyProof { headers.append("Idempotency-Proof: \(proof)") }
        if let device = CallContext.deviceToken { headers.append("Device-Token: \(device)") }
        if payload != nil { headers.append("Content-Type: application/json") }
        let (status, bytes) = try await perform(method: endpoint.method.rawValue, url: url, headers: headers, body: payload)
        guard (200..<300).contains(status) else {
            throw Self.failure(status: status, body: bytes, base: baseURL)
        }
        if let empty = Wire.Empty() as? Reply { return empty }
        do {
            return try JSONDecoder().decode(Reply.self, from: bytes)
        } catch {
            throw ServiceError.unreadable(baseURL, status: status)
        }
    }

    /// `text` as one path segment: what RFC 3986's `pchar` allows kept, the rest (a `/`
    /// among it) percent-encoded byte by byte.
    static func pathSegment(_ text: String) -> String {
        let kept = Set("-._~!$&'()*+,;=:@".utf8)
        var encoded = ""
        for byte in text.utf8 {
            let ascii = byte < 0x80 ? Character(Unicode.Scalar(byte)) : nil
            if let ascii, ascii.isLetter || ascii.isNumber || kept.contains(byte) {
                encoded.append(ascii)
            } else {
                encoded += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// One request on a thread of its own: libcurl blocks, and neither Swift's cooperative
    /// threads nor Dispatch's global queues (the same few threads on Linux) may.
    private func perform(method: String, url: String, headers: [String], body: Data?) async throws -> (status: Int, body: Data) {
        let certificateFile = certificateFile, timeout = timeoutMilliseconds, base = baseURL
        return try await withCheckedThrowingContinuation { continuation in
            let started = OwnThread.detach {
                continuation.resume(
                    with: Self.request(
                        method: method, url: url, headers: headers, body: body, certificateFile: certificateFile, timeout: timeout,
                        base: base))
            }
            // No thread for the request: failed as a connection that dropped, so it is retried.
            if !started {
                continuation.resume(throwing: ServiceError.unreachable(base, reason: "no thread could be started for the request"))
            }
        }
    }

    /// One blocking request through libcurl, its outcome in the API's terms.
    private static func request(
        method: String, url: String, headers: [String], body: Data?, certificateFile: String?, timeout: Int, base: String
    ) -> Result<(status: Int, body: Data), ServiceError> {
        var response = onboard_http_response()
        defer { onboard_http_free(&response) }
        let lines = headers.map { strdup($0).map { UnsafePointer($0) } }
        defer { lines.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        // NUL-terminated, so even an empty body has an address.
        let payload: [UInt8] = (body.map { Array($0) } ?? []) + [0]
        let outcome = payload.withUnsafeBytes { bytes in
            lines.withUnsafeBufferPointer { headerLines in
                onboard_http_request(
                    method, url, headerLines.baseAddress, Int32(lines.count),
                    body == nil ? nil : bytes.baseAddress?.assumingMemoryBound(to: CChar.self), body?.count ?? 0,
                    certificateFile, connectMilliseconds, timeout, maximumResponse, &response)
            }
        }
        // libcurl's own words for a failure, read only when there is one.
        var reason: String { Swift.withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
        switch Int(outcome) {
        case Int(ONBOARD_HTTP_OK):
            return .success((response.status, response.body.map { Data(bytes: $0, count: response.length) } ?? Data()))
        case Int(ONBOARD_HTTP_TIMEOUT):
            return .failure(.noAnswer(base))
        case Int(ONBOARD_HTTP_TLS):
            return .failure(.insecureHandshake(base, reason: reason))
        case Int(ONBOARD_HTTP_TOO_LARGE):
            return .failure(.tooLarge(base))
        default:
            return .failure(.unreachable(base, reason: Self.plainWords(curlCode: response.curl_code) ?? reason))
        }
    }

    /// Why no connection was made, as a person says it; nil leaves libcurl's own words
    /// ("Failed to connect to … port 1 after 0 ms: Couldn't connect to server").
    static func plainWords(curlCode: Int32) -> String? {
        switch curlCode {
        case 6: "no computer has that name"  // CURLE_COULDNT_RESOLVE_HOST
        case 7: "nothing accepted the connection there"  // CURLE_COULDNT_CONNECT
        case 52: "it closed the connection without answering"  // CURLE_GOT_NOTHING
        case 55, 56: "the connection broke off"  // CURLE_SEND_ERROR, CURLE_RECV_ERROR
        default: nil
        }
    }

    /// The API's error envelope, or a code from the status when there is none.
    static func failure(status: Int, body: Data, base: String) -> ServiceError {
        (try? JSONDecoder().decode(ServiceError.self, from: body)) ?? .fromStatus(status, service: base)
    }
}
