import Foundation
import HTMLText
import Hummingbird

/// The server's few HTML pages (a device sign-in's, the development provider's): small,
/// readable on a phone, working without JavaScript, and allowed none by their policy.
/// Every value written into one is escaped.
enum HTMLPage {
    /// `https://host[:port]` of an address: what a policy names (a path's characters have
    /// no place in a header); nil for an address without a scheme or host.
    static func origin(of address: String) -> String? {
        guard let url = URL(string: address), let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// `formTargets`: origins a form here may end up at besides this server. A browser
    /// holds a form's redirects to `form-action` too, and the code form's answer is a
    /// redirect to the provider.
    static func response(
        _ body: String, status: HTTPResponse.Status = .ok, title: String = "Onboard sign-in", headers extra: HTTPFields = [:],
        formTargets: [String] = []
    ) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escaped(title))</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem}
            input,button{font:inherit;padding:.5rem;margin:.25rem 0}input{width:100%;box-sizing:border-box}
            .error{color:#a00}.note{color:#555}</style></head>
            <body>\(body)</body></html>
            """
        var headers = extra
        headers[.contentType] = "text/html; charset=utf-8"
        // Forms post to this server, or (the development provider's answer) go on to the
        // address the relying party registered, by a redirect.
        let targets = (["'self'"] + formTargets).joined(separator: " ")
        headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; form-action \(targets); frame-ancestors 'none'; base-uri 'none'"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// 303 See Other: the browser goes on with a GET.
    static func redirect(to location: String, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }

    /// An `application/x-www-form-urlencoded` body of at most 16 KB, by Hummingbird's
    /// decoder, once the request has said it is one.
    static func form<Form: Decodable>(_ type: Form.Type, _ request: Request) async throws -> Form {
        try UnsupportedBodyType.check(request, is: UnsupportedBodyType.form)
        let body = try await request.body.collect(upTo: 16 * 1024)
        return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
    }

    /// A query string read as the form it is (OAuth's requests and answers come so), by
    /// the same decoder; one that does not decode reads as empty, and is refused as such.
    static func query<Form: Decodable>(_ type: Form.Type, _ request: Request, empty: Form) -> Form {
        (try? URLEncodedFormDecoder().decode(Form.self, from: request.uri.query ?? "")) ?? empty
    }
}
