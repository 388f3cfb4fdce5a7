import ScreenTable
import Suggestion
import Yams

/// Reads a flow file (YAML) into a `Flow`, collecting every problem with its place
/// instead of stopping at the first, so `onboard lint` can list them all.
public enum FlowLoader {
    /// The flow, or every problem found in the file.
    public static func load(yaml: String, file: String) -> Result<Flow, FlowFileError> {
        let (flow, problems) = draft(yaml: yaml, file: file)
        if let flow, problems.isEmpty { return .success(flow) }
        return .failure(FlowFileError(problems: problems))
    }

    /// The flow as far as it reads, with every problem found: `onboard graph` draws a
    /// flow lint turns down (its unreachable screens marked). Some problem is always
    /// given when there is no flow.
    public static func draft(yaml: String, file: String) -> (flow: Flow?, problems: [Problem]) {
        var reader = FlowReader(file: file)
        let flow = reader.read(yaml)
        // Every problem at once: the graph is checked even when screens had problems.
        if let flow { reader.checkGraph(flow) }
        if flow == nil, reader.problems.isEmpty {
            return (nil, [Problem("the file holds no flow", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        return (flow, reader.problems)
    }
}

/// Walks the YAML node tree, keeping each node's line and column for messages.
struct FlowReader {
    let file: String
    var problems: [Problem] = []
    /// Screen ids named by steps and outcomes, with where they were named.
    var references: [(id: String, location: SourceLocation)] = []
    /// Every screen id the file declares, including screens dropped for a problem, so
    /// a reference to one is not reported as unknown too.
    var declaredScreens: Set<String> = []

    init(file: String) {
        self.file = file
    }

    mutating func read(_ yaml: String) -> Flow? {
        let root: Node?
        do {
            // The basic resolver: every key lookup compares tags, and the default one
            // resolves a plain scalar's tag with up to seven regular expressions each
            // time (most of a flow's parse). The reader types values itself.
            root = try Yams.compose(yaml: yaml, .basic)
        } catch let error as YamlError {
            report(error)
            return nil
        } catch {
            problems.append(Problem("\(error)", at: start))
            return nil
        }
        guard let root else {
            problems.append(Problem("the file is empty", at: start))
            return nil
        }
        guard let map = mapping(root, "the flow") else { return nil }
        checkKeys(map, allowed: FilePart.flow.names, in: "the flow")
        let id = requiredString(map, "id", in: "the flow") ?? ""
        let title = requiredString(map, "title", in: "the flow") ?? ""
        let summary = string(map, "summary") ?? ""
        let entry = readEntry(map["entry"], parent: root)
        let tokens = readTokens(map["tokens"])
        let analytics = readAnalytics(map["analytics"])
        var screens: [Screen] = []
        if let list = map["screens"] {
            if let sequence = list.sequence, !sequence.isEmpty {
                screens = sequence.compactMap { readScreen($0) }
            } else {
                problems.append(Problem("'screens' must be a list with at least one screen", at: location(list)))
            }
        } else {
            problems.append(Problem("the flow has no 'screens'", at: location(root)))
        }
        guard let entry else { return nil }
        var flow = Flow(id: id, title: title, summary: summary, entry: entry, tokens: tokens, analytics: analytics, screens: screens)
        flow.serviceURLKey = string(map, "service_url")
        flow.stepCount = int(map, "steps")
        flow.secrets = strings(map, "secrets")
        if let count = flow.stepCount {
            for screen in screens {
                if let step = screen.step, !(1...max(1, count)).contains(step) {
                    problems.append(
                        Problem("screen '\(screen.id)' is step \(step), but the flow has \(count) steps", at: screen.location ?? start))
                }
            }
        } else if let numbered = screens.first(where: { $0.step != nil }) {
            problems.append(
                Problem(
                    "screen '\(numbered.id)' has a 'step' but the flow does not say how many 'steps' it has", at: numbered.location ?? start
                ))
        }
        return flow
    }

    // MARK: Whole-flow checks

    /// Screen ids that are unknown, duplicated or unreachable.
    mutating func checkGraph(_ flow: Flow) {
        let earlierProblems = !problems.isEmpty
        var seen: Set<String> = []
        for screen in flow.screens where !seen.insert(screen.id).inserted {
            problems.append(Problem("screen id '\(screen.id)' is used twice", at: screen.location ?? start))
        }
        for reference in references where !declaredScreens.contains(reference.id) {
            let hint = Suggestion.closest(to: reference.id, in: Array(declaredScreens)).map { "; did you mean '\($0)'?" } ?? ""
            problems.append(Problem("unknown screen '\(reference.id)'\(hint)", at: reference.location))
        }
        for screen in flow.screens {
            for field in screen.fields {
                for rule in field.rules where rule.name.parameter == .fieldID || rule.name.parameter == .optionalFieldID {
                    if let other = rule.field, !screen.fields.contains(where: { $0.id == other }) {
                        problems.append(
                            Problem(
                                "rule '\(rule.name.rawValue)' of field '\(field.id)' names unknown field '\(other)'",
                                at: screen.location ?? start))
                    }
                }
            }
        }
        // A screen dropped for a problem leaves gaps in the graph: reachability would
        // only add false alarms then.
        guard !earlierProblems, problems.isEmpty else { return }
        let reachable = Reachability.screens(from: flow)
        for screen in flow.screens where !reachable.contains(screen.id) {
            problems.append(
                Problem("screen '\(screen.id)' is unreachable: no entry, action or outcome leads to it", at: screen.location ?? start))
        }
    }
}
