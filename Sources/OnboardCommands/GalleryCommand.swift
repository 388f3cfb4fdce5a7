import ArgumentParser
import FlowAuthoring
import Installation
import FoundationEssentials
import OnboardRuntime
import ScreenTable
import TerminalUI

/// `onboard gallery`: every screen of a flow in every state the coverage map reaches, as
/// one static page, for copy review and QA sign-off.
struct GalleryCommand: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Write a page with every screen of a flow in every state (errors, faults, messages), as the terminal draws it.",
        discussion: """
            The page (DIR/FLOW.html) is static HTML: open it in any browser, no server. Each \
            state shows at 80x24 and 40x12 and as plain lines, with its id, the flow file's \
            line, how to reach it and the keys from a fresh start; a state the coverage map \
            cannot reach is listed with why.
            """)

    @Argument(help: "A built-in flow id (see 'onboard flows').")
    var flow: String?

    @Option(name: .customLong("flow"), help: "The flow in this file instead of a built-in one.")
    var flowFile: String?

    @Option(help: "The folder the page is written to (made if missing).")
    var out: String

    @Option(help: "Theme: default, light, dark, high-contrast, mono, or a theme file.")
    var theme = "default"

    /// The clock the states are reached at: a fixed day, so the page is the same each run.
    static let day: Int64 = 1_784_116_800_000  // 2026-07-15 12:00 UTC

    var needsFileTools: Bool { flowFile != nil || ThemeChoice.readsAFile(theme) }

    func run() throws {
        let flow = try loadFlow(id: flow, file: flowFile)
        let theme: Theme
        do {
            theme = try ThemeChoice.load(self.theme, environment: ProcessInfo.processInfo.environment)
        } catch {
            printError("onboard gallery: \(error)")
            throw ExitCode(1)
        }
        let gallery = Gallery(flow: flow, now: Self.day)
        let page = GalleryPage(gallery: gallery, theme: theme, plainLines: LinePrompter.describe)
        let path = PathText.joined(out, flow.id + ".html")
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try Data(page.html.utf8).write(to: URL(filePath: path), options: .atomic)
        } catch {
            printError("onboard gallery: cannot write \(path): \(ErrorText.plain(error))")
            throw ExitCode(1)
        }
        let drawn = gallery.entries.filter { $0.view != nil }.count
        print("\(path): \(drawn) of \(gallery.entries.count) states drawn (\(gallery.entries.count - drawn) listed with why).")
    }
}
