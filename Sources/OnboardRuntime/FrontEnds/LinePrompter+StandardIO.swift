import Installation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The prompter's ends of a real run: lines from standard input (a secret without echo
/// on a terminal) and text to standard output.
extension LinePrompter {
    @Sendable public static func standardOutput(_ text: String) {
        writeAll(text, to: STDOUT_FILENO)
    }

    /// A line from standard input; a secret one without echo when it is a terminal.
    @Sendable public static func standardInput(secret: Bool) -> String? {
        var saved = termios()
        let hide = secret && isatty(0) == 1 && tcgetattr(0, &saved) == 0
        if hide {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSAFLUSH, &quiet)
        }
        defer { if hide { tcsetattr(0, TCSAFLUSH, &saved) } }
        return Swift.readLine(strippingNewline: true)
    }
}
