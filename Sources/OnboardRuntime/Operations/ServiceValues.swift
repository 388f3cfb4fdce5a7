import FlowEngine
import FoundationEssentials
import InputRules
import ServiceAPI

/// What the service answers, as the flow's context shows it.
extension OperationRunner {
    /// Profile fields as flow context: texts and lists as they are, numbers and flags as text.
    static func profileValues(_ profile: Profile) -> [String: Value] {
        var values: [String: Value] = ["profile_complete": .text("false")]
        if let name = profile.displayName { values["display_name"] = .text(name) }
        for (key, value) in profile.fields {
            values[key] =
                switch value {
                case .text(let text): .text(text)
                case .list(let items): .list(items)
                case .number(let number): .text(number == number.rounded() ? String(Int(number)) : String(number))
                case .flag(let flag): .text(flag ? "true" : "false")
                }
        }
        return values
    }

    /// The code in a pasted invite: the raw code, or the `code=` of a share link, or its
    /// last path part.
    static func inviteCode(from pasted: String) -> String {
        let text = pasted.trimmingWhitespace
        if let range = text.firstRange(of: "code=") {
            return String(text[range.upperBound...].prefix { $0 != "&" && $0 != "#" })
        }
        if text.contains("/") {
            return String(text.split(separator: "/").last ?? Substring(text))
        }
        return text
    }

    static func list(_ value: FieldValue) -> [String]? {
        if case .list(let items) = value { return items }
        return nil
    }

    /// The ruck a Log a Ruck form describes, stamped with when it was logged.
    static func ruckEntry(_ request: CallRequest, stamp: String) -> String {
        describeRuck(kilometres: request.inputs["distance_km"] ?? "", minutes: request.inputs["duration_min"] ?? "") + " · " + stamp
    }

    /// `5.5 km in 60 min`: the numbers as typed, written plainly (`05.50` is `5.5`, `.5` is
    /// `0.5`), never rounded: a rounded one could show what the form's rules refuse
    /// (`0.4` minutes as `0 min`, `499.9999` km as `500 km`).
    public static func describeRuck(kilometres: String, minutes: String) -> String {
        "\(plainNumber(kilometres)) km in \(plainNumber(minutes)) min"
    }

    /// A decimal as typed, without the zeros that say nothing.
    static func plainNumber(_ typed: String) -> String {
        let text = typed.trimmingWhitespace
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var whole = String(parts[0].drop { $0 == "0" })
        if whole.isEmpty { whole = "0" }
        guard parts.count == 2 else { return whole }
        let fraction = parts[1].reversed().drop { $0 == "0" }.reversed()
        return fraction.isEmpty ? whole : whole + "." + String(fraction)
    }
}

extension Session {
    /// Tokens as they arrived at `receivedAt` (ms, the device's clock): the gap between
    /// that and the service's `issued_at` is the clock skew expiry is judged with.
    init(_ issued: IssuedSession, receivedAt: Int64) {
        self.init(
            userID: issued.userID, accessToken: issued.accessToken, accessExpiresAt: issued.accessExpiresAt,
            refreshToken: issued.refreshToken, refreshExpiresAt: issued.refreshExpiresAt,
            isAnonymous: issued.isAnonymous, createdAt: issued.createdAt, lastAuthenticated: issued.issuedAt)
        clockSkew = receivedAt / 1000 - issued.issuedAt
    }
}
