import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file error in plain words, as the system says it ("Permission denied"), where
/// FoundationEssentials' errors print their structure and have no `localizedDescription`.
public enum ErrorText {
    public static func plain(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
                return String(cString: strerror(underlying.code.rawValue))
            }
            return "error \(cocoa.code.rawValue)"
        }
        return "\(error)"
    }
}
