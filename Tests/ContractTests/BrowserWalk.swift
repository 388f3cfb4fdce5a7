import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A browser's walk through the device sign-in's pages, hop by hop as a browser makes
/// them (no redirect followed for it, its cookie kept), so each answer can be read:
/// the code typed on `/device`, the provider's sign-in page, a persona chosen or Deny,
/// and the provider's answer back at `/device/callback`.
struct BrowserWalk {
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    struct Answer {
        var status: Int
        var page: String
        var location: String?
        var cookie: String?
        var headers: [(name: String, value: String)] = []
    }

    var cookies: [String: String] = [:]

    mutating func send(_ url: String, form: [(String, String)]? = nil, headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let form {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: Self.encoded(form)))
        }
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
        let response = try await Self.client.execute(request, timeout: .seconds(20))
        let setCookie = response.headers.first(name: "Set-Cookie")
        if let pair = setCookie?.split(separator: ";").first, let equals = pair.firstIndex(of: "=") {
            cookies[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        // The client's timeout covers the head only; a body that stalls fails the test
        // with where it stood instead of holding the suite.
        let body = try await Self.within(.seconds(20), what: url) { try await response.body.collect(upTo: 1 << 20) }
        return Answer(
            status: Int(response.status.code), page: String(buffer: body), location: response.headers.first(name: "Location"),
            cookie: setCookie, headers: response.headers.map { ($0.name, $0.value) })
    }

    struct Stalled: Error, CustomStringConvertible {
        var description: String
    }

    /// `work`'s result, or `Stalled` once `limit` has passed.
    static func within<T: Sendable>(_ limit: Duration, what: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw Stalled(description: "\(what): no whole answer within \(limit)")
            }
            return result
        }
    }

    /// A code typed on the server's page and its confirmation's Continue pressed: the
    /// answer that sends the browser on to the provider (or the page that refused).
    mutating func enter(_ code: String, base: String, headers: [(String, String)] = []) async throws -> Answer {
        let confirmation = try await send(base + "/device", form: [("user_code", code)], headers: headers)
        guard confirmation.status == 200, confirmation.page.contains("/device/confirm") else { return confirmation }
        return try await send(base + "/device/confirm", form: Self.hiddenFields(confirmation.page), headers: headers)
    }

    /// A code typed on the server's page, then, at the development provider, `account`
    /// chosen (nil: Deny): the page the person ends on.
    static func approve(base: String, code: String, account: String?) async throws -> Answer {
        var browser = BrowserWalk()
        let typed = try await browser.enter(code, base: base)
        guard typed.status == 303, let authorize = typed.location else { return typed }
        let signIn = try await browser.send(authorize)
        guard signIn.status == 200 else { return signIn }
        var form = hiddenFields(signIn.page)
        form += account.map { [("email", $0), ("decision", "allow")] } ?? [("decision", "deny")]
        let chosen = try await browser.send(base + "/dev-idp/authorize", form: form)
        guard chosen.status == 303, let callback = chosen.location else { return chosen }
        return try await browser.landing(try await browser.send(callback), base: base)
    }

    /// Where the callback sends the browser on (Post/Redirect/Get): the page it ends on.
    mutating func landing(_ answer: Answer, base: String) async throws -> Answer {
        guard answer.status == 303, let location = answer.location, location.hasPrefix("/") else { return answer }
        return try await send(base + location)
    }

    /// A page's `<input type="hidden">` fields, as a browser would send them.
    static func hiddenFields(_ page: String) -> [(String, String)] {
        page.matches(of: /<input type="hidden" name="([^"]+)" value="([^"]*)">/).map { match in
            (String(match.1), unescaped(String(match.2)))
        }
    }

    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(
            of: "&lt;", with: "<"
        )
        .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func encoded(_ form: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*")
        return form.map {
            ($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + ($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }
        .joined(separator: "&")
    }
}
