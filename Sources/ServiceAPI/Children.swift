public struct Child: Equatable, Sendable, Codable {
    public var id: String
    public var name: String
    /// `YYYY-MM-DD`, or nil.
    public var birthDate: String?

    enum CodingKeys: String, CodingKey {
        case id, name, birthDate = "birth_date"
    }

    public init(id: String, name: String, birthDate: String?) {
        self.id = id
        self.name = name
        self.birthDate = birthDate
    }
}

public struct Invite: Equatable, Sendable, Codable {
    public var code: String
    public var expiresAt: Int64

    enum CodingKeys: String, CodingKey {
        case code, expiresAt = "expires_at"
    }

    public init(code: String, expiresAt: Int64) {
        self.code = code
        self.expiresAt = expiresAt
    }
}

public struct InviteAcceptance: Equatable, Sendable, Codable {
    public var child: Child
    /// The name of who shared it ("Shared by Johnny").
    public var sharedBy: String

    enum CodingKeys: String, CodingKey {
        case child, sharedBy = "shared_by"
    }

    public init(child: Child, sharedBy: String) {
        self.child = child
        self.sharedBy = sharedBy
    }
}
