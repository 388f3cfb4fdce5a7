import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// Decodes request bodies as JSON (only those that say they are: `UnsupportedBodyType`),
/// and says what was wrong with one in the API's terms (which field, what it must be)
/// rather than Hummingbird's Swift-flavoured text.
struct BodyDecoder: RequestDecoder {
    func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try UnsupportedBodyType.check(request, is: UnsupportedBodyType.json)
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(T.self, from: buffer)
        } catch let error as DecodingError {
            throw ServiceError(.invalidInput, Self.explain(error, body: Data(buffer: buffer)))
        }
    }

    /// What was wrong with a body, in the API's terms: which field, what it must be.
    static func explain(_ error: DecodingError, body: Data = Data()) -> String {
        func field(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (path + (last.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .typeMismatch(let type, let context):
            let expected = jsonKind(of: type)
            return context.codingPath.isEmpty
                ? "The request body must be \(expected)."
                : "The field '\(field(context.codingPath))' must be \(expected)."
        case .valueNotFound(let type, let context):
            return context.codingPath.isEmpty
                ? "The request body must be \(jsonKind(of: type)), not null."
                : "The field '\(field(context.codingPath))' must be \(jsonKind(of: type)), not null."
        case .keyNotFound(let key, let context):
            return "The field '\(field(context.codingPath, key))' is missing."
        case .dataCorrupted(let context):
            guard context.codingPath.isEmpty else {
                return "The field '\(field(context.codingPath))' has a value this endpoint does not take."
            }
            // Foundation says "not valid JSON" for a number that does not fit its field too
            // (1e300 or 1.5 for a whole number): JSON that parses is not called invalid.
            guard let parsed = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
                return "The request body is not valid JSON."
            }
            if let key = (parsed as? [String: Any])?.sorted(by: { $0.key < $1.key }).first(where: {
                !isWholeNumber($0.value) && $0.value is NSNumber && !($0.value is Bool)
            })?.key {
                // The caller's own key, echoed: cut to a name's length, never a whole body back.
                let name = key.count > 64 ? key.prefix(63) + "…" : key
                return "The field '\(name)' must be a whole number between -9223372036854775808 and 9223372036854775807."
            }
            return "The request body has a number this endpoint does not take."
        @unknown default:
            return "The request body is not the JSON this endpoint expects."
        }
    }

    /// A JSON number that fits a 64-bit whole number.
    static func isWholeNumber(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        let double = number.doubleValue
        return double == double.rounded() && abs(double) < 9.2e18
    }

    /// A Swift type as a JSON kind: `Dictionary<String, Any>` is "a JSON object".
    static func jsonKind(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") { return "a JSON object" }
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("String") { return "a string" }
        if name.hasPrefix("Bool") { return "true or false" }
        if name.hasPrefix("Int") || name.hasPrefix("UInt") { return "a whole number" }
        if name.hasPrefix("Double") || name.hasPrefix("Float") { return "a number" }
        return "a value of the right kind"
    }

}
