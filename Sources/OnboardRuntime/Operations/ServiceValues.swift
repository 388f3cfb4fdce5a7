import FlowEngine
import Foundation
import ServiceAPI

/// What the service answers, as the flow's context shows it.
extension OperationRunner {
    /// Profile fields as flow context: texts and lists as they are, numbers and flags as text.
    static func profileValues(_ profile: Profile) -> [String: Value] {
        var values: [String: Value] = ["profile_complete": .text("false")]
        if let name = profile.displayName { values["display_name"] = .text(name) }
        for (key, value) in profile.fields {
            values[key] = switch value {
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
        let text = pasted.trimmingCharacters(in: .whitespacesAndNewlines)
        if let range = text.range(of: "code=") {
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
        let distance = Double(request.inputs["distance_km"] ?? "") ?? 0
        let minutes = Double(request.inputs["duration_min"] ?? "") ?? 0
        return describeRuck(kilometres: distance, minutes: minutes) + " · " + stamp
    }

    /// `5.5 km in 60 min`, `10 km in 90 min` (a whole distance has no `.0`); a distance
    /// finer than 0.1 km keeps its digits (0.25, 0.001) rather than showing as 0.0.
    public static func describeRuck(kilometres: Double, minutes: Double) -> String {
        let tenths = (kilometres * 10).rounded() / 10
        let distance = if tenths == tenths.rounded(), abs(tenths - kilometres) < 1e-9, abs(tenths) < 1e15 {
            "\(Int(tenths))"
        } else if abs(tenths - kilometres) < 1e-9 {
            "\(tenths)"
        } else {
            String(format: "%.3f", kilometres).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
        }
        return "\(distance) km in \(Int(minutes.rounded())) min"
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
