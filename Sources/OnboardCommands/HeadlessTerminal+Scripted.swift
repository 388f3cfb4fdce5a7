import ArgumentParser
import CivilCalendar
import FoundationEssentials
import Installation
import OnboardRuntime
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension HeadlessTerminal {
    /// `--headless`: keys from `--keys` (a file, or `-` for standard input), each new frame
    /// printed, or written to `--frames` as frame-0001.txt ….
    static func scripted(_ settings: RunSettings) throws -> HeadlessTerminal {
        let path = settings.keys ?? "-"
        let text: String
        if path == "-" {
            text = String(decoding: readAll(from: STDIN_FILENO), as: UTF8.self)
        } else {
            guard let bytes = readAll(atPath: path) else {
                printError("onboard: cannot read the key script \(path) (\(String(cString: strerror(errno))))")
                throw ExitCode(2)
            }
            text = String(decoding: bytes, as: UTF8.self)
        }
        let script: KeyScript
        do {
            script = try KeyScript.parse(text)
        } catch {
            printError("onboard: \(path): \(error)")
            throw ExitCode(2)
        }
        let size = try settings.headlessSize()
        let folder = settings.frames
        if let folder { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var count = 0
        let device = HeadlessTerminal(
            width: size.width, height: size.height, script: script,
            waitTimeout: .seconds(DurationText.seconds(settings.waitTimeout) ?? 10)
        ) { frame in
            count += 1
            let text = HeadlessTerminal.plainText(frame)
            if let folder {
                let name = "frame-\(String(repeating: "0", count: max(0, 4 - String(count).count)))\(count).txt"
                if !FileManager.default.createFile(atPath: folder + "/" + name, contents: Data((text + "\n").utf8)) {
                    printError("onboard: cannot write \(folder)/\(name)")
                }
            } else {
                // Written at once (not print's buffer), so frames stream into a pipe or file.
                writeAll("── frame \(count) ──\n\(text)\n", to: STDOUT_FILENO)
            }
        }
        return device
    }
}
