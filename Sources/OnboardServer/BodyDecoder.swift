import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// Decodes request bodies as JSON, and says what was wrong with one in the API's terms
/// (which field, what it must be) rather than Hummingbird's Swift-flavoured text.
struct BodyDecoder: RequestDecoder {
    func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(T.self, from: buffer)
        } catch let error as DecodingError {
            throw ServiceError(.invalidInput, Self.explain(error))
        }
    }

    /// What was wrong with a body, in the API's terms: which field, what it must be.
    static func explain(_ error: DecodingError) -> String {
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
            return "The field '\(field(context.codingPath))' must be \(jsonKind(of: type)), not null."
        case .keyNotFound(let key, let context):
            return "The field '\(field(context.codingPath, key))' is missing."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "The request body is not valid JSON."
                : "The field '\(field(context.codingPath))' has a value this endpoint does not take."
        @unknown default:
            return "The request body is not the JSON this endpoint expects."
        }
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
