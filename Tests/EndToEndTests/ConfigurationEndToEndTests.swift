import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 36: `onboard-server` read from a configuration file, with flags over the
    /// environment over the file, and `check-config` saying what is wrong and where.
    @Suite struct ConfigurationEndToEndTests {
        let folder: String

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-config-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        func write(_ name: String, _ text: String, mode: Int = 0o644) throws -> String {
            let path = folder + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return path
        }

        /// Issue 46: a configuration file holding the database's password, readable by
        /// every local user, passed `check-config` and started. It is refused as a secret
        /// file others can read, with the chmod that fixes it.
        @Test func aFileHoldingTheDatabasePasswordMustBeTheOwnersAlone() throws {
            let text = "database: postgres://onboard:s3cret@127.0.0.1:1/onboard?sslmode=disable\n"
            let open = try write("open.yaml", text, mode: 0o644)
            let checked = Subprocess.run(ServerProcess.binary, ["check-config", open])
            #expect(checked.status == 1)
            #expect(
                checked.output.contains("\(open):1:11: database: holds the database's password, but \(open) can be read by other users (mode 644): run chmod 600 \(open)"),
                "\(checked.output)")
            #expect(!checked.output.contains("s3cret"), "the password is never said")
            let closed = try write("closed.yaml", text, mode: 0o600)
            #expect(Subprocess.run(ServerProcess.binary, ["check-config", closed]).status == 0)
            let plain = try write("plain.yaml", "database: postgres://onboard@127.0.0.1:1/onboard?sslmode=disable\n", mode: 0o644)
            #expect(Subprocess.run(ServerProcess.binary, ["check-config", plain]).status == 0, "no password, nothing to hide")
        }

        @Test func checkConfigSaysEveryProblemWithItsLineAndColumn() throws {
            let file = try write(
                "onboard.yaml",
                """
                port: 80800
                sign_in_limt: 5
                bcrypt_cost: eleven
                log_format: xml
                trusted_proxy: [10.0.0.0/8, nowhere]
                tls_cert: \(folder)/missing.pem
                """)
            let checked = Subprocess.run(ServerProcess.binary, ["check-config", file])
            #expect(checked.status == 1)
            let expected = [
                "\(file):1:7: port must be between 0 and 65535, not 80800",
                "\(file):2:1: unknown key 'sign_in_limt'; did you mean 'sign_in_limit'?",
                "\(file):3:14: bcrypt_cost must be a whole number, not 'eleven'",
                "\(file):4:13: log_format must be text or json, not 'xml'",
                "\(file):5:16: trusted_proxy: 'nowhere' is not an address or CIDR block like 127.0.0.1 or 10.0.0.0/8",
                "\(file):6:11: tls_cert needs tls_key too (--tls-key)",
                "\(file):6:11: tls_cert: '\(folder)/missing.pem' cannot be read",
            ]
            #expect(checked.output.split(separator: "\n").map(String.init) == expected, "\(checked.output)")
            // The server refuses the same file with the same words, before it listens.
            let served = Subprocess.run(ServerProcess.binary, ["--config", file])
            #expect(served.status == 64)
            #expect(served.output.contains(expected[1]), "\(served.output)")

            let broken = try write("broken.yaml", "port: 8080\n  host: example.org\n")
            let syntax = Subprocess.run(ServerProcess.binary, ["check-config", broken])
            #expect(syntax.status == 1)
            #expect(syntax.output.hasPrefix("\(broken):2:7: not YAML: mapping values are not allowed"), "\(syntax.output)")

            // A key quoting a terminal's escape (a window-title change) is shown, not obeyed.
            let hostile = try write("hostile.yaml", "\"\\e]0;owned\\a\": 1\n")
            let shown = Subprocess.run(ServerProcess.binary, ["check-config", hostile])
            #expect(shown.status == 1)
            #expect(
                shown.output.contains("unknown key") && !shown.output.contains("\u{1B}") && !shown.output.contains("\u{07}"),
                "\(shown.output)")

            let fixed = try write("fixed.yaml", "port: 8443\nsign_in_limit: 5\ntrusted_proxy: [10.0.0.0/8]\n")
            let ok = Subprocess.run(ServerProcess.binary, ["check-config", fixed])
            #expect(ok.status == 0)
            #expect(ok.output == "\(fixed): ok\n")
        }

        /// ASVS 5.0 13.3.1 (secrets from a secret store or the environment, not the
        /// configuration): the providers may be written in place, their secrets may not.
        @Test func theProvidersGoInTheFileTheirSecretsDoNot() throws {
            let secret = try write("google-secret", "s3cret-from-the-console\n", mode: 0o600)
            let inPlace = try write(
                "in-place.yaml",
                """
                identity_providers:
                  google:
                    issuer: https://accounts.google.com
                    client_id: onboard.apps.googleusercontent.com
                    client_secret: s3cret-from-the-console
                """)
            let refused = Subprocess.run(ServerProcess.binary, ["check-config", inPlace])
            #expect(refused.status == 1)
            #expect(
                refused.output
                    == "\(inPlace):2:3: identity_providers: google: a client secret is not written here; give client_secret_env or client_secret_file\n"
            )
            let byFile = try write(
                "by-file.yaml",
                """
                identity_providers:
                  google:
                    issuer: https://accounts.google.com
                    client_id: onboard.apps.googleusercontent.com
                    client_secret_file: \(secret)
                """)
            #expect(Subprocess.run(ServerProcess.binary, ["check-config", byFile]).output == "\(byFile): ok\n")
        }

        /// The file sets four sign-ins a minute; `$ONBOARD_SIGN_IN_LIMIT` wins over it, and
        /// the flag over both. A client sees the limit as the first 429.
        @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() throws {
            let file = try write("limits.yaml", "sign_in_limit: 2\nlog_format: json\n")
            func signInsBeforeRefusal(_ server: ServerProcess) -> Int {
                for count in 0..<10 where ServerProcess.post(server.base + "/api/v1/auth/anonymous", json: "{}") == 429 {
                    return count
                }
                return 10
            }
            let fromFile = try ServerProcess(arguments: ["--config", file])
            #expect(signInsBeforeRefusal(fromFile) == 2)
            // The file's other keys are in force too: the access lines are JSON.
            #expect(
                fromFile.output.split(separator: "\n").contains { $0.hasPrefix("{") && $0.contains(#""status":429"#) }, "\(fromFile.output)"
            )
            let fromEnvironment = try ServerProcess(arguments: ["--config", file], environment: ["ONBOARD_SIGN_IN_LIMIT": "3"])
            #expect(signInsBeforeRefusal(fromEnvironment) == 3)
            let fromFlag = try ServerProcess(
                arguments: ["--config", file, "--sign-in-limit", "4"], environment: ["ONBOARD_SIGN_IN_LIMIT": "3"])
            #expect(signInsBeforeRefusal(fromFlag) == 4)
            let noted = Subprocess.run("/usr/bin/env", ["ONBOARD_SIGN_IN_LIMIT=3", ServerProcess.binary, "check-config", file])
            #expect(
                noted.output.contains("note: $ONBOARD_SIGN_IN_LIMIT is used in place of \(file):1:16: sign_in_limit"), "\(noted.output)")
        }
    }
}
