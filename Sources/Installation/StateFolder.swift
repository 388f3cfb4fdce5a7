import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a user's Onboard state lives: `--state-dir`, else `$ONBOARD_STATE_DIR`, else
/// `$XDG_STATE_HOME/onboard`, else `~/.local/state/onboard`.
public enum StateFolder {
    public static func path(_ explicit: String?, environment: [String: String]) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = environment["ONBOARD_STATE_DIR"], !fromEnvironment.isEmpty { return fromEnvironment }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/onboard" }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/state/onboard"
    }
}
