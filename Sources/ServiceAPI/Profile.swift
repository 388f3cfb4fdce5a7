public struct Profile: Equatable, Sendable, Codable {
    /// In `fields` of a guest that has not chosen a display name: the names it was offered.
    public static let nameOptionsField = "name_options"

    public var userID: String
    public var displayName: String?
    public var email: String?
    public var phone: String?
    public var isAnonymous: Bool
    /// Profile fields beyond the account (ABBY's basic and extended profile).
    public var fields: [String: FieldValue]

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", displayName = "display_name", email, phone, isAnonymous = "is_anonymous", fields
    }

    public init(
        userID: String, displayName: String?, email: String? = nil, phone: String? = nil, isAnonymous: Bool,
        fields: [String: FieldValue] = [:]
    ) {
        self.userID = userID
        self.displayName = displayName
        self.email = email
        self.phone = phone
        self.isAnonymous = isAnonymous
        self.fields = fields
    }
}

/// A value in a profile or a record: text, a number, a list of texts, or true/false.
public enum FieldValue: Equatable, Sendable, Codable {
    case text(String)
    case number(Double)
    case list([String])
    case flag(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .list(try container.decode([String].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .list(let list): try container.encode(list)
        case .flag(let flag): try container.encode(flag)
        }
    }
}
