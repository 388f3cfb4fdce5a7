import Foundation
import Hummingbird
import ServiceAPI

/// One rule for every body the server reads: the API's are JSON, the HTML forms' are
/// `application/x-www-form-urlencoded`, each said by its Content-Type, or the request is
/// 415 before its body is read. A cross-site page can send a "simple" request (text/plain,
/// a form type, multipart, no type at all) without asking first; a JSON type it cannot
/// send without a CORS preflight, which this server never grants. So no page on another
/// site can send an SMS, make an account or spend a rate limit through a visitor's
/// browser (ASVS 5.0 3.5.2; 4.0.3's 13.1.5). Checked where bodies are read (`BodyDecoder`,
/// `HTMLPage.form`), after routing, so an unknown path is still 404 and a wrong method 405.
struct UnsupportedBodyType: Error {
    static let json = "application/json"
    static let form = "application/x-www-form-urlencoded"

    let expected: String

    var serviceError: ServiceError {
        ServiceError(.invalidInput, "Send this request's body as \(expected), and say so in its Content-Type.")
    }

    /// Throws unless the request says its body is `expected` (parameters such as
    /// `charset=utf-8` aside).
    static func check(_ request: Request, is expected: String) throws {
        guard mediaType(request.headers[.contentType]) == expected else { throw UnsupportedBodyType(expected: expected) }
    }

    /// `application/json; charset=utf-8` → `application/json`; nil without a type.
    static func mediaType(_ header: String?) -> String? {
        header.flatMap { $0.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}
