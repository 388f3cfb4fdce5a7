import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file Onboard cannot read is never deleted: it is renamed beside itself with the
/// time, so a person (or support) can still look at it, and a fresh one takes its place.
public enum DamagedFile {
    /// The name it was kept under, or nil if it could not be moved.
    public static func setAside(_ path: String) -> String? {
        let stamp = Date().formatted(.iso8601).replacing(":", with: "")
        let target = "\(path).corrupt-\(stamp)"
        return rename(path, target) == 0 ? target : nil
    }
}
