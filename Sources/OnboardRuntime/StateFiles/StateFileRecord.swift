/// A state file's JSON: a value's own fields with one more key beside them, which files
/// written before that key existed lack — `session.json`'s `tokensKeptIn`,
/// `progress.json`'s `sealedContext`.
struct StateFileRecord<Value: Codable, Extra: StateFileExtra>: Codable {
    var value: Value
    var extra: String?

    init(_ value: Value, extra: String?) {
        self.value = value
        self.extra = extra
    }

    private struct Key: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        value = try Value(from: decoder)
        extra = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: Key(stringValue: Extra.key))
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(extra, forKey: Key(stringValue: Extra.key))
    }
}

/// The name of a state file's extra key.
protocol StateFileExtra {
    static var key: String { get }
}

/// Where a session's tokens are kept (the secret store's summary).
enum TokensKeptIn: StateFileExtra { static let key = "tokensKeptIn" }

/// A progress file's context, sealed with the state folder's data key.
enum SealedContext: StateFileExtra { static let key = "sealedContext" }
