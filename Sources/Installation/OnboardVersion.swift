/// The version every analytics event, `onboard --version` and `onboard-server --version`
/// report, and the build it came from.
public enum OnboardVersion {
    public static let current = "0.1.0"

    /// `debug` or `release`, the compiler and the platform.
    public static var build: String {
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        #if compiler(>=6.3)
        let compiler = "Swift 6.3"
        #elseif compiler(>=6.2)
        let compiler = "Swift 6.2"
        #else
        let compiler = "Swift 6"
        #endif
        #if arch(x86_64)
        let architecture = "x86_64"
        #elseif arch(arm64)
        let architecture = "arm64"
        #else
        let architecture = "other"
        #endif
        #if os(Linux)
        let system = "Linux"
        #elseif os(macOS)
        let system = "macOS"
        #else
        let system = "other"
        #endif
        return "\(configuration) build, \(compiler), \(system) \(architecture)"
    }

    /// `0.1.0 (release build, Swift 6.3, Linux x86_64)`.
    public static var full: String { "\(current) (\(build))" }
}
