/// A code the service sent (an SMS or an invite), kept for QA in plain text.
public struct OutboxEntry: Equatable, Sendable, Codable {
    public var kind: String
    public var destination: String
    public var code: String
    public var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case kind, destination, code, createdAt = "created_at"
    }

    public init(kind: String, destination: String, code: String, createdAt: Int64) {
        self.kind = kind
        self.destination = destination
        self.code = code
        self.createdAt = createdAt
    }
}
