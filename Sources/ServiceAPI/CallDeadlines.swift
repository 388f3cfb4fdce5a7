/// How long a client waits for the service, written once. One HTTP request has `answer`
/// (connecting within `connect` of it); an operation, which may renew the session and
/// call again or make two calls (a log-in, then a guest's rucks), has `operation`, after
/// which the flow says the service did not answer in time.
public enum CallDeadlines {
    /// A refused or unreachable address fails within this; the flows have their own Try Again.
    public static let connect: Duration = .seconds(3)
    public static let answer: Duration = .seconds(5)
    public static let operation: Duration = .seconds(10)
}

extension Duration {
    /// Whole milliseconds, for C APIs (libcurl) that count in them.
    public var wholeMilliseconds: Int {
        Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
}
