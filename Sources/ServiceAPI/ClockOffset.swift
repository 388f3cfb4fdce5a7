/// How far QA may move a clock either way: a century covers every expiry in the specs,
/// and keeps every "now plus a lifetime" well inside 64 bits.
public enum ClockOffset {
    public static let limitSeconds: Int64 = 100 * 366 * 86_400

    public static func isAllowed(_ seconds: Int64) -> Bool {
        (-limitSeconds...limitSeconds).contains(seconds)
    }
}
