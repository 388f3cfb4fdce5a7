import FlowEngine
import HTMLText
import ScreenTable
import TerminalUI

/// The gallery as one static HTML page: each state drawn as the terminal draws it (the
/// renderer's cells, coloured by the theme) at each size, and as plain lines; its id, the
/// flow file's line, how to reach it and the keys from a fresh start. Readable with no
/// script; a small one filters by text. Everything from the flow is escaped.
public struct GalleryPage {
    public let gallery: Gallery
    public let theme: Theme
    public let sizes: [(width: Int, height: Int)]
    /// The accessible mode's lines for a view.
    public let plainLines: (ScreenView) -> String

    public init(
        gallery: Gallery, theme: Theme, sizes: [(width: Int, height: Int)] = [(80, 24), (40, 12)],
        plainLines: @escaping (ScreenView) -> String
    ) {
        self.gallery = gallery
        self.theme = theme
        self.sizes = sizes
        self.plainLines = plainLines
    }

    public var html: String {
        let flow = gallery.flow
        let drawn = gallery.entries.filter { $0.view != nil }.count
        var page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>\(HTMLText.escaped(flow.title)): every screen and state</title>
            <style>\(css)</style>
            </head>
            <body>
            <header>
            <h1>\(HTMLText.escaped(flow.title)) (\(HTMLText.escaped(flow.id))): every screen and state</h1>
            <p>\(drawn) of \(gallery.entries.count) states drawn, at \(sizes.map { "\($0.width)x\($0.height)" }.joined(separator: " and ")) and in plain-line mode, with the \(HTMLText.escaped(theme.name)) theme. Keys are for <code>onboard run \(HTMLText.escaped(flow.id))</code> from a fresh start (<code>--headless --keys</code> takes them too).</p>
            <p><input id="search" type="search" placeholder="Filter by text on screen, id or message" aria-label="Filter"></p>
            </header>
            <main>

            """
        for entry in gallery.entries {
            page += section(entry)
        }
        page += """
            </main>
            <script>
            document.getElementById("search").addEventListener("input", function (event) {
              var words = event.target.value.toLowerCase();
              document.querySelectorAll("section.state").forEach(function (state) {
                state.hidden = words !== "" && state.textContent.toLowerCase().indexOf(words) < 0;
              });
            });
            </script>
            </body>
            </html>

            """
        return page
    }

    private func section(_ entry: Gallery.Entry) -> String {
        let location = entry.location.map { " · \(HTMLText.escaped($0.file)):\($0.line)" } ?? ""
        var text = """
            <section class="state" id="\(HTMLText.escaped(entry.reach.id.replacing(" ", with: "-")))">
            <h2>\(HTMLText.escaped(entry.title))</h2>
            <p class="meta"><code>\(HTMLText.escaped(entry.reach.id))</code>\(location)</p>
            <p>How: \(HTMLText.escaped(entry.how))</p>

            """
        if !entry.keys.isEmpty {
            text += "<p>Keys to the screen: <code>\(HTMLText.escaped(entry.keys))</code></p>\n"
        }
        guard let view = entry.view else {
            return text + "<p class=\"not-drawn\">Not drawn: \(HTMLText.escaped(entry.notDrawn ?? "unknown"))</p>\n</section>\n"
        }
        text += "<div class=\"drawings\">\n"
        let renderer = Renderer()
        for size in sizes {
            let frame = renderer.render(view, width: size.width, height: size.height)
            text += "<figure><pre class=\"terminal\">\(cells(frame))</pre><figcaption>\(size.width)x\(size.height)</figcaption></figure>\n"
        }
        text +=
            "<figure><pre class=\"plain\">\(HTMLText.escaped(plainLines(view)))</pre><figcaption>plain lines (accessible mode)</figcaption></figure>\n"
        return text + "</div>\n</section>\n"
    }

    /// The frame's rows, each run of cells of one role a span of that role's class.
    private func cells(_ frame: Frame) -> String {
        var rows: [String] = []
        for y in 0..<frame.height {
            var row = ""
            var x = 0
            while x < frame.width {
                let role = frame[x, y].role
                var run = ""
                while x < frame.width, frame[x, y].role == role {
                    run += frame[x, y].text
                    x += 1
                }
                row +=
                    role == .background || role == .text
                    ? HTMLText.escaped(run) : "<span class=\"\(role.rawValue)\">\(HTMLText.escaped(run))</span>"
            }
            rows.append(row)
        }
        return rows.joined(separator: "\n")
    }

    /// The theme's roles as classes; the terminal's own colours are a dark background.
    private var css: String {
        var rules = [
            "body { font: 15px/1.4 sans-serif; margin: 0 2em 2em; color: #222; }",
            "header { position: sticky; top: 0; background: #fff; padding: .5em 0; border-bottom: 1px solid #ccc; }",
            "#search { width: 30em; max-width: 100%; font: inherit; padding: .2em; }",
            "section.state { border-bottom: 1px solid #ddd; padding: .5em 0; }",
            "h2 { font-size: 1.1em; margin: .4em 0 .2em; }",
            ".meta { color: #666; margin: 0; }",
            ".not-drawn { color: #a33; }",
            ".drawings { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }",
            "figure { margin: 0; }",
            "figcaption { color: #666; font-size: .85em; }",
            "pre { margin: 0; font: 13px/1.2 monospace; padding: 4px; }",
            "pre.terminal { background: #1e1e1e; color: #d4d4d4; }",
            "pre.plain { background: #f4f4f4; max-width: 40em; white-space: pre-wrap; }",
        ]
        for role in Role.allCases where role != .background && role != .text {
            let style = theme.style(role)
            var properties: [String] = []
            let foreground = style.foreground.map(Self.colour)
            let background = style.background.map(Self.colour)
            if style.reverse {
                properties += ["color: \(background ?? "#1e1e1e")", "background: \(foreground ?? "#d4d4d4")"]
            } else {
                if let foreground { properties.append("color: \(foreground)") }
                if let background { properties.append("background: \(background)") }
            }
            if style.bold { properties.append("font-weight: bold") }
            if style.underline { properties.append("text-decoration: underline") }
            if style.dim { properties.append("opacity: .6") }
            rules.append(".\(role.rawValue) { \(properties.joined(separator: "; ")) }")
        }
        return rules.joined(separator: "\n")
    }

    /// A terminal colour number (0-255) as xterm draws it.
    static func colour(_ number: Int) -> String {
        let basic = [
            "#000000", "#cd0000", "#00cd00", "#cdcd00", "#4a6fe3", "#cd00cd", "#00cdcd", "#e5e5e5",
            "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
        ]
        if number < 16 { return basic[max(0, number)] }
        if number >= 232 {
            let level = 8 + (number - 232) * 10
            return hex(level, level, level)
        }
        let cube = number - 16
        let steps = [0, 95, 135, 175, 215, 255]
        return hex(steps[cube / 36], steps[cube / 6 % 6], steps[cube % 6])
    }

    private static func hex(_ red: Int, _ green: Int, _ blue: Int) -> String {
        "#"
            + [red, green, blue].map { value in
                let digits = String(value, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

}
