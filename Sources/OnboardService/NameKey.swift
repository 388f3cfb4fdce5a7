import _FoundationICU

/// What two display names are compared by: a person must not be able to take a name that
/// reads as someone else's. Unicode TR39's skeleton (ICU's spoof checker, from the
/// toolchain's own ICU: fullwidth `Ｂｅａｓ`, mathematical `𝐁𝐞𝐚𝐬` and Cyrillic `Веаs` all
/// fold to `Beas`). Case never tells two names apart: the skeleton is taken of the name as
/// written, then of that in upper case (where `I` reads as `l`), then in lower case (where
/// `rn` reads as `m`), so `ANNIE`, `Annie` and `AnnIe` share one key.
public enum NameKey {
    /// ICU's checker is safe to share for skeletons once opened (its check functions are
    /// const; only its settings may not change under it, and none do).
    private final class Checker: @unchecked Sendable {
        let pointer: OpaquePointer?
        init() {
            var status = U_ZERO_ERROR
            pointer = swift_uspoof_open(&status)
        }
    }

    private static let checker = Checker()

    /// The key of a name as people would read it (inner runs of spaces read as one); the
    /// name itself (trimmed, lower-cased) if ICU cannot say.
    public static func of(_ name: String) -> String {
        let trimmed = name.collapsingWhitespace
        guard let read = skeleton(trimmed), let upper = skeleton(read.uppercased()), let lower = skeleton(upper.lowercased())
        else { return trimmed.lowercased() }
        return lower
    }

    private static func skeleton(_ text: String) -> String? {
        guard let checker = checker.pointer else { return nil }
        let units = Array(text.utf16)
        var capacity = max(16, units.count * 4)
        while true {
            var status = U_ZERO_ERROR
            var out = [UChar](repeating: 0, count: capacity)
            let length = swift_uspoof_getSkeleton(checker, 0, units, Int32(units.count), &out, Int32(capacity), &status)
            if status == U_BUFFER_OVERFLOW_ERROR {
                capacity = Int(length) + 1
                continue
            }
            guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
            return String(decoding: out[0..<Int(length)], as: UTF16.self)
        }
    }
}
