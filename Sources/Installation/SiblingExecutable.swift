import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Onboard's executables sit side by side (`onboard`, `onboard-ssh`): one finds the other
/// in its own folder, wherever the build or the install put them.
public enum SiblingExecutable {
    public static func path(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = me.lastIndex(of: "/").map { String(me[..<$0]) } ?? ""
        return folder + "/" + name
    }
}
