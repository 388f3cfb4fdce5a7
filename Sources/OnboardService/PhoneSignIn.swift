import GRDB
import InputRules
import ServiceAPI



/// Phone sign-in: a 6-digit SMS code, valid 5 minutes, resend after 60 s, at most 5
/// tries, stored only hashed (the outbox keeps it in plain text for QA).
extension OnboardService {
    static let invalidPhone = ServiceError(.invalidInput, "Please enter a valid phone number")

    public func sendPhoneCode(phone: String, client: String = "local") async throws -> PhoneCodeSent {
        let now = clock.now()
        let phone = try Self.e164(phone)
        let settings = self.settings
        let code = sixDigits(Int.random(in: 0...999_999))
        try await write { db in
            if let sentAt = try Int64.fetchOne(db, sql: "SELECT sent_at FROM phone_codes WHERE phone = ?", arguments: [phone]),
               now - sentAt < settings.smsResendAfter {
                let wait = Int(settings.smsResendAfter - (now - sentAt))
                throw ServiceError(.rateLimited, "Please wait \(wait) seconds before requesting a new code.", retryAfter: wait)
            }
            try self.limiter.hit("sms:\(client)", settings.smsPerAddress, now: now)
            try db.execute(
                sql: """
                    INSERT INTO phone_codes (phone, code_hash, sent_at, expires_at, attempts) VALUES (?, ?, ?, ?, 0)
                    ON CONFLICT(phone) DO UPDATE SET code_hash = excluded.code_hash, sent_at = excluded.sent_at,
                        expires_at = excluded.expires_at, attempts = 0
                    """,
                arguments: [phone, Secrets.hash(phone + ":" + code), now, now + settings.smsCodeLifetime])
            try self.recordOutbox(kind: "sms", destination: phone, code: code, in: db, now: now)
        }
        return PhoneCodeSent(phone: phone, expiresIn: settings.smsCodeLifetime, resendAfter: settings.smsResendAfter)
    }

    public func verifyPhoneCode(phone: String, code: String, policy: TokenPolicy, idempotencyKey: String? = nil) async throws -> SignIn {
        try await idempotent(idempotencyKey, operation: "verify_phone_code") {
            let now = clock.now()
            let phone = try Self.e164(phone)
            let maximum = settings.smsAttempts
            let outcome: Result<(id: String, createdAt: Int64, isNew: Bool), ServiceError> = try await write { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT code_hash, expires_at, attempts FROM phone_codes WHERE phone = ?", arguments: [phone])
                else { return .failure(ServiceError(.notFound, "Request a code first.")) }
                let attempts: Int = row["attempts"]
                if attempts >= maximum {
                    return .failure(ServiceError(.rateLimited, "Too many wrong codes. Request a new code."))
                }
                if (row["expires_at"] as Int64) <= now {
                    return .failure(ServiceError(.invalidInput, "This code has expired. Request a new one."))
                }
                guard Secrets.hash(phone + ":" + code.trimmingWhitespace) == (row["code_hash"] as String) else {
                    try db.execute(sql: "UPDATE phone_codes SET attempts = attempts + 1 WHERE phone = ?", arguments: [phone])
                    let left = maximum - attempts - 1
                    return .failure(left > 0
                        ? ServiceError(.invalidInput, "That code is not right. \(left) \(left == 1 ? "try" : "tries") left.")
                        : ServiceError(.rateLimited, "Too many wrong codes. Request a new code."))
                }
                try db.execute(sql: "DELETE FROM phone_codes WHERE phone = ?", arguments: [phone])
                if let existing = try Row.fetchOne(db, sql: "SELECT id, created_at FROM users WHERE phone = ?", arguments: [phone]) {
                    return .success((existing["id"], existing["created_at"], false))
                }
                let userID = Secrets.userID()
                try db.execute(
                    sql: "INSERT INTO users (id, created_at, is_anonymous, phone, auth_provider) VALUES (?, ?, 0, ?, 'phone')",
                    arguments: [userID, now, phone])
                return .success((userID, now, true))
            }
            let user = try outcome.get()
            let session = try await issue(userID: user.id, createdAt: user.createdAt, isAnonymous: false, policy: policy)
            return SignIn(session: session, isNewUser: user.isNew)
        }
    }

    static func e164(_ phone: String) throws -> String {
        guard let number = InputRules.e164(phone) else { throw invalidPhone }
        return number
    }
}

/// Six digits with leading zeros.
func sixDigits(_ number: Int) -> String {
    let digits = Array(String(number))
    return String(repeating: "0", count: max(0, 6 - digits.count)) + String(digits)
}
