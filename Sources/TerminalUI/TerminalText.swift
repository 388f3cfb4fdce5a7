import FlowEngine
import InputRules

/// What a terminal is given to draw is never something it would execute (issue 31): text
/// from the service, state files, flow and content files, or a paste. One function for
/// both front ends and `--cast`.
public enum TerminalText {
    /// `text` made inert (`String.madeInert`, InputRules): controls shown as visible signs,
    /// bidi controls neutralised, one character for one, so widths measured after are right.
    public static func safe(_ text: String, keepingNewlines: Bool = true) -> String {
        text.madeInert(keepingNewlines: keepingNewlines)
    }
}

extension ScreenView {
    /// Every text of the view made safe for a terminal (`TerminalText.safe`).
    public var terminalSafe: ScreenView {
        func safe(_ text: String) -> String { TerminalText.safe(text) }
        var view = self
        view.logo = logo.map(safe)
        view.title = safe(title)
        view.body = safe(body)
        view.bullets = bullets.map(safe)
        view.items = items.map(safe)
        view.emptyItems = safe(emptyItems)
        view.warnings = warnings.map(safe)
        view.busyLabel = busyLabel.map(safe)
        view.stepLabel = stepLabel.map(safe)
        view.message = message.map { message in
            switch message {
            case .error(let text): .error(safe(text))
            case .notice(let text): .notice(safe(text))
            }
        }
        view.fields = fields.map { field in
            var field = field
            field.label = safe(field.label)
            field.value = TerminalText.safe(field.value, keepingNewlines: false)
            field.placeholder = safe(field.placeholder)
            field.error = field.error.map(safe)
            field.options = field.options.map(safe)
            field.picked = field.picked.map(safe)
            field.hint = field.hint.map(safe)
            return field
        }
        func safeItems(_ list: [ItemView]) -> [ItemView] {
            list.map { item in
                var item = item
                item.label = safe(item.label)
                item.linkPrompt = item.linkPrompt.map(safe)
                return item
            }
        }
        view.options = safeItems(options)
        view.buttons = safeItems(buttons)
        view.checklist = checklist.map { line in
            var line = line
            line.label = safe(line.label)
            line.status = switch line.status {
            case .done(let detail): .done(safe(detail))
            case .fellBack(let detail): .fellBack(safe(detail))
            case .failed(let detail): .failed(safe(detail))
            default: line.status
            }
            return line
        }
        return view
    }
}
