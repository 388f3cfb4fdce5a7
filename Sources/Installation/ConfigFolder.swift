import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Onboard's configuration folder (themes, the SSH demo's host key):
/// `$XDG_CONFIG_HOME/onboard`, else `~/.config/onboard`.
public enum ConfigFolder {
    public static func path(environment: [String: String]) -> String {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        return config + "/onboard"
    }
}
