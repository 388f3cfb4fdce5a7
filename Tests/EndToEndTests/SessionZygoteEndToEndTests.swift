import DemoSessions
import Foundation
import SessionZygote
import Testing
import TestSupport

extension EndToEnd {
    /// A demo server's sessions forked from its warm `onboard` (DECISIONS 60): each is
    /// its own program, with its own command line, environment and terminal, reaped and
    /// said as one started from nothing is; and a zygote that has gone leaves sessions
    /// starting as before.
    @Suite struct SessionZygoteEndToEndTests {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-zygote-\(UUID().uuidString)").path

        func session(_ name: String, zygote: SessionZygote?, environment extra: [String: String] = [:]) throws -> SessionProcess {
            var environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": folder, "DO_NOT_TRACK": "1"]
            environment.merge(extra) { _, new in new }
            return try SessionProcess(
                executable: Tmux.binary, arguments: ["run", "oklah", "--state-dir", folder + "/" + name], environment: environment,
                rows: 24, columns: 80, zygote: zygote)
        }

        /// What the session's terminal shows until `text` comes (or 10 s pass).
        func read(_ process: SessionProcess, until text: String) -> String {
            var received: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, !String(decoding: received, as: UTF8.self).contains(text) {
                var ready = pollfd(fd: process.leader, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 200) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = Glibc.read(process.leader, &chunk, chunk.count)
                if count <= 0 { break }
                received += chunk[..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }

        /// Whether a select-graphic-rendition sequence sets a colour (30–38, 40–48, 90–107;
        /// 39 and 49 are the terminal's own).
        static func hasColour(_ screen: String) -> Bool {
            screen.matches(of: /\u{1B}\[([0-9;]*)m/).contains { match in
                match.1.split(separator: ";").compactMap { Int($0) }.contains {
                    ![39, 49].contains($0) && ((30...48).contains($0) || (90...107).contains($0))
                }
            }
        }

        /// A line of `/proc/PID/status` (or of one thread's, `PID/task/TID`).
        func status(_ path: String, _ field: String) -> Substring? {
            let status = (try? String(contentsOfFile: "/proc/\(path)/status", encoding: .utf8)) ?? ""
            return status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        }

        /// The signals a process ignores, leaving out glibc's own (32 and 33), which are
        /// whatever the process that started it left them, and SIGTSTP, which ncurses
        /// ignores while each `doupdate` draws (found by CI: read mid-draw, it differed).
        func ignored(by pid: pid_t) -> UInt64? {
            let transient = UInt64(0b11) << 31 | UInt64(1) << (SIGTSTP - 1)
            return status("\(pid)", "SigIgn").flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }.map {
                $0 & ~transient
            }
        }

        /// The signals each of a process's threads blocks.
        func blockedByEachThread(of pid: pid_t) -> Set<Substring> {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return Set(threads.compactMap { status("\(pid)/task/\($0)", "SigBlk") })
        }

        /// `/proc/PID/cmdline` as `ps` shows it: its arguments joined by spaces.
        func commandLine(of pid: pid_t) -> String {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        }

        func parent(of pid: pid_t) -> pid_t? {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
        }

        @Test func eachForkedSessionIsItsOwnProgram() throws {
            let zygote = try #require(SessionZygote(executable: Tmux.binary, warmingUpOn: ["run", "oklah"]))
            let coloured = try session("coloured", zygote: zygote)
            let plain = try session("plain", zygote: zygote, environment: ["NO_COLOR": "1"])
            let colouredScreen = read(coloured, until: "Welcome to OKLah")
            let plainScreen = read(plain, until: "Welcome to OKLah")
            #expect(colouredScreen.contains("Welcome to OKLah") && plainScreen.contains("Welcome to OKLah"))
            #expect(parent(of: coloured.pid) == zygote.pid && parent(of: plain.pid) == zygote.pid, "forked, not started")
            // Its own environment: colour only where NO_COLOR was not given.
            #expect(Self.hasColour(colouredScreen), "coloured")
            #expect(!Self.hasColour(plainScreen), "NO_COLOR")
            // Its own command line: each state folder holds its own session's files, and
            // `ps` shows it (not the zygote's, which a `pkill -f` of the zygote matches).
            #expect(FileManager.default.fileExists(atPath: folder + "/coloured/oklah"))
            #expect(commandLine(of: coloured.pid) == "\(Tmux.binary) run oklah --state-dir \(folder)/coloured")
            #expect(commandLine(of: zygote.pid) == "\(Tmux.binary) \(SessionZygote.flag) run oklah")
            let ps = Subprocess.run("/usr/bin/ps", ["-o", "args=", "-p", "\(plain.pid)"]).output
            #expect(ps.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Tmux.binary) run oklah --state-dir \(folder)/plain", "\(ps)")

            // Signals as one started from nothing has them (the zygote ignores SIGPIPE).
            let started = try session("started", zygote: nil)
            _ = read(started, until: "Welcome to OKLah")
            // (A forked session's program runs on a thread of its own, which blocks what
            // a started one's main thread does; its first thread waits, blocking all.)
            #expect(ignored(by: coloured.pid) == ignored(by: started.pid))
            let startedBlocks = try #require(status("\(started.pid)", "SigBlk"))
            #expect(blockedByEachThread(of: coloured.pid).contains(startedBlocks), "\(blockedByEachThread(of: coloured.pid))")

            // Ended as one started from nothing is, and said the same.
            started.hangUp()
            coloured.hangUp()
            #expect(coloured.waitForExit() == started.waitForExit())
            _ = write(plain.leader, "\u{03}", 1)
            #expect(plain.waitForExit() == 0, "Ctrl-C quits")
        }

        /// A session holds its own terminal and nothing else of the server's: not another
        /// visitor's terminal or connection (a descriptor without close-on-exec, here a pipe).
        @Test func noSessionHoldsTheServersOtherDescriptors() throws {
            var pipe: [Int32] = [-1, -1]
            #expect(Glibc.pipe(&pipe) == 0)
            defer { pipe.forEach { close($0) } }
            let ours = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(pipe[0])")
            let zygote = try #require(SessionZygote(executable: Tmux.binary, warmingUpOn: ["run", "oklah"]))
            for process in [try session("spawned", zygote: nil), try session("forked", zygote: zygote)] {
                _ = read(process, until: "Welcome to OKLah")
                let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd").compactMap {
                    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.pid)/fd/\($0)")
                }
                #expect(!held.contains(ours), "\(held)")
                process.hangUp()
                _ = process.waitForExit()
            }
        }

        @Test func aZygoteThatHasGoneLeavesSessionsStartingAsBefore() throws {
            let zygote = try #require(SessionZygote(executable: Tmux.binary, warmingUpOn: ["run", "oklah"]))
            let before = try session("before", zygote: zygote)
            #expect(read(before, until: "Welcome to OKLah").contains("Welcome to OKLah"))
            kill(zygote.pid, SIGKILL)
            var status: Int32 = 0
            waitpid(zygote.pid, &status, 0)

            let after = try session("after", zygote: zygote)
            #expect(read(after, until: "Welcome to OKLah").contains("Welcome to OKLah"))
            #expect(parent(of: after.pid) == getpid(), "started from nothing")
            #expect(!zygote.isAnswering)
            after.hangUp()
            _ = after.waitForExit()
            // The session forked before is no one's child now: its end is still seen.
            before.hangUp()
            #expect(before.waitForExit() == 128 + Int(SIGHUP))
        }
    }
}
