import Crypto
import Foundation
import InputRules
import ServiceAPI

/// Phone sign-in: a 6-digit SMS code, valid 5 minutes, resend after 60 s, at most 5
/// tries, stored only hashed (the outbox keeps it in plain text for QA).
extension OnboardService {
    static let invalidPhone = ServiceError(.invalidInput, "Please enter a valid phone number")

    /// With the key of a send whose answer was lost (a kill, a dropped connection), the
    /// first answer again: the code is on its way, not "wait 59 seconds" for the person
    /// who is holding it. Resend is a new intent with a new key, and waits.
    public func sendPhoneCode(phone: String, client: String = "local", idempotencyKey: String? = nil) async throws -> PhoneCodeSent {
        try await idempotent(idempotencyKey, operation: "send_phone_code", request: ["phone": phone]) {
            try await sendNewPhoneCode(phone: phone, client: client)
        }
    }

    private func sendNewPhoneCode(phone: String, client: String) async throws -> PhoneCodeSent {
        let now = clock.now()
        let phone = try Self.e164(phone)
        let code = sixDigits(Int.random(in: 0...999_999))
        let stored = PhoneCode(
            phone: phone, hash: codeHash(phone: phone, code: code), sentAt: now, expiresAt: now + settings.smsCodeLifetime)
        let outbox = settings.keepsOutbox ? OutboxEntry(kind: "sms", destination: phone, code: code, createdAt: now) : nil
        switch try await store.storePhoneCode(
            stored, resendAfter: settings.smsResendAfter, limit: RateLimitHit(key: "sms:\(client)", rule: settings.smsPerAddress),
            outbox: outbox)
        {
        case .stored:
            return PhoneCodeSent(phone: phone, expiresIn: settings.smsCodeLifetime, resendAfter: settings.smsResendAfter)
        case .resendIn(let wait):
            throw ServiceError(.rateLimited, "Please wait \(wait) seconds before requesting a new code.", retryAfter: Int(wait))
        case .limited(let wait):
            throw Self.tooMany(wait)
        }
    }

    public func verifyPhoneCode(
        phone: String, code: String, policy: TokenPolicy, flow: String? = nil, idempotencyKey: String? = nil,
        idempotencyProof: String? = nil
    ) async throws -> SignIn {
        try await idempotent(
            idempotencyKey, operation: "verify_phone_code",
            request: ["phone": phone, "code": code, "proof": idempotencyProof ?? "", "flow": flow ?? ""],
            replay: { SignIn(session: try await self.reissued($0.session, policy: policy), isNewUser: $0.isNewUser) }
        ) {
            let now = clock.now()
            let phone = try Self.e164(phone)
            let hashed = codeHash(phone: phone, code: code.trimmingWhitespace)
            let user: SignedInUser
            let refresh = newRefreshToken(for: Secrets.userID(), policy: policy)
            switch try await store.spendPhoneCode(
                phone: phone, codeHash: hashed, now: now, maximumAttempts: settings.smsAttempts, token: refresh.record)
            {
            case .signedIn(let signedIn): user = signedIn
            case .noCode: throw ServiceError(.notFound, "Request a code first.")
            case .tooManyAttempts, .wrong(attemptsLeft: 0):
                // Retry-After: when a new code may be asked for (the resend wait).
                throw ServiceError(.rateLimited, "Too many wrong codes. Request a new code.", retryAfter: Int(settings.smsResendAfter))
            case .expired: throw ServiceError(.invalidInput, "This code has expired. Request a new one.")
            case .wrong(let left): throw ServiceError(.invalidInput, "That code is not right. \(left) \(left == 1 ? "try" : "tries") left.")
            }
            let session = try await session(
                (refresh.token, refresh.record.granted(to: user.userID)), createdAt: user.createdAt, isAnonymous: false)
            return SignIn(session: session, isNewUser: user.isNew)
        }
    }

    /// A code as the store keeps it: keyed, so a copy of the table alone reveals nothing.
    func codeHash(phone: String, code: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Array((phone + ":" + code).utf8), using: codeKey).map { String(format: "%02x", $0) }.joined()
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
