import Foundation

/// A file Onboard cannot read is never deleted: it is renamed beside itself with the
/// time, so a person (or support) can still look at it, and a fresh one takes its place.
public enum DamagedFile {
    /// The name it was kept under, or nil if it could not be moved.
    public static func setAside(_ path: String) -> String? {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let target = "\(path).corrupt-\(stamp)"
        return rename(path, target) == 0 ? target : nil
    }
}
