/// A path's folder and last part, as text, the way `NSString`'s path methods read them
/// (`/a/b/` is in `/a` and named `b`), for the modules that leave Foundation out.
public enum PathText {
    /// The folder `path` is in: `/a/b` → `/a`, `/a` → `/`, `b` → the empty string.
    public static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last part of `path`: `/a/b/` → `b`, `/` → `/`.
    public static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return trimmed }
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
    }

    /// `name` inside `folder`, with one slash between them.
    public static func joined(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
