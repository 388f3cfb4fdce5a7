import CivilCalendar
import FlowFiles
import ScreenTable
import Suggestion
import Testing

@Suite struct LintTests {
    func problems(_ yaml: String) -> [String] {
        switch FlowLoader.load(yaml: yaml, file: "f.yaml") {
        case .success: []
        case .failure(let error): error.problems.map(\.description)
        }
    }

    static let valid = """
        id: demo
        title: Demo
        entry:
          first_launch: one
        screens:
          - id: one
            kind: info
            title: One
            actions:
              - label: Next
                go: two
          - id: two
            kind: info
            title: Two
            complete: true
        """

    @Test(arguments: BuiltinFlows.ids)
    func everyBuiltinFlowLintsClean(id: String) throws {
        let flow = try BuiltinFlows.load(id)
        #expect(!flow.screens.isEmpty)
    }

    @Test func aValidFileLoads() {
        #expect(problems(Self.valid).isEmpty)
    }

    @Test func anUnknownScreenIsReportedWhereItIsNamed() {
        let yaml = Self.valid.replacingOccurrences(of: "go: two", with: "go: three")
        #expect(problems(yaml).contains("f.yaml:11:13: error: unknown screen 'three'"))
    }

    @Test func anUnreachableScreenIsReported() {
        let yaml = Self.valid.replacingOccurrences(of: "go: two", with: "go: one")
        #expect(problems(yaml) == ["f.yaml:12:5: error: screen 'two' is unreachable: no entry, action or outcome leads to it"])
    }

    @Test func unknownOperationsRulesAndKindsAreNamedWithTheKnownOnes() {
        let yaml = """
            id: demo
            title: Demo
            entry:
              first_launch: one
            screens:
              - id: one
                kind: form
                fields:
                  - id: name
                    label: Name
                    rules:
                      - rule: shouty
                        message: Loud.
                actions:
                  - label: Go
                    call: teleport
                    on:
                      success: one
              - id: two
                kind: carousel
            """
        let found = problems(yaml)
        #expect(found.contains { $0.hasPrefix("f.yaml:12:19: error: unknown validation rule 'shouty'; known: required, min_length") })
        #expect(found.contains { $0.hasPrefix("f.yaml:16:15: error: unknown operation 'teleport'; known: health, sign_in_anonymously") })
        #expect(found.contains { $0.hasPrefix("f.yaml:20:11: error: unknown screen kind 'carousel'") })
    }

    /// Issue 32: lint listed the whole vocabulary (27 keys, 30 operations) for a slip of
    /// the keyboard. A near miss is named, as git and cargo do; problems come in file order.
    @Test func aSlipIsAnsweredWithTheWordItWasMeantToBeAndProblemsComeInFileOrder() {
        let yaml = Self.valid
            .replacingOccurrences(of: "title: One", with: "titel: One")
            .replacingOccurrences(of: "kind: info\n    title: Two", with: "kind: inof\n    title: Two")
            .replacingOccurrences(of: "go: two", with: "go: tow")
        let found = problems(yaml)
        #expect(found.contains("f.yaml:8:5: error: unknown key 'titel' in a screen; did you mean 'title'?"), "\(found)")
        #expect(found.contains("f.yaml:11:13: error: unknown screen 'tow'; did you mean 'two'?"), "\(found)")
        #expect(
            found.contains { $0.hasPrefix("f.yaml:13:11: error: unknown screen kind 'inof'") && $0.hasSuffix("did you mean 'info'?") },
            "\(found)")
        let lines = found.compactMap { Int($0.split(separator: ":")[1]) }
        #expect(lines == lines.sorted() && lines.count == found.count, "\(found)")
        #expect(Suggestion.closest(to: "sign_in_anonymosly", in: Operation.allCases.map(\.rawValue)) == "sign_in_anonymously")
        #expect(Suggestion.closest(to: "teleport", in: Operation.allCases.map(\.rawValue)) == nil)
    }

    @Test func aMissingLabelAndAStepThatSaysNothingAreReported() {
        let yaml = Self.valid.replacingOccurrences(of: "label: Next\n        go: two", with: "go: two\n      - label: Idle")
        let found = problems(yaml)
        #expect(found.contains("f.yaml:10:9: error: an action of screen 'one' has no 'label'"))
        #expect(found.contains { $0.contains("action 'Idle' of screen 'one' says nothing it does") })
    }

    @Test func aTypoInAKeyIsReported() {
        let yaml = Self.valid.replacingOccurrences(of: "title: One", with: "titel: One")
        #expect(problems(yaml).contains { $0.hasPrefix("f.yaml:8:5: error: unknown key 'titel' in a screen") })
    }

    @Test func aCallWithoutASuccessOutcomeIsReported() {
        let yaml = Self.valid.replacingOccurrences(of: "go: two", with: "call: health\n        on:\n          network: two")
        #expect(problems(yaml).contains { $0.contains("the call 'health' in action 'Next' of screen 'one' has no 'success' outcome") })
    }

    @Test func brokenYAMLGivesItsLineAndColumn() {
        let found = problems("id: demo\nscreens: [one\n")
        #expect(found.count == 1)
        #expect(found[0].hasPrefix("f.yaml:3:1: error: not valid YAML"))
    }

    @Test func anEmptyFileIsReported() {
        #expect(problems("") == ["f.yaml:1:1: error: the file is empty"])
    }

    @Test func durationsReadAsPeopleWriteThem() {
        #expect(DurationText.seconds("25h") == 90_000)
        #expect(DurationText.seconds("-90m") == -5400)
        #expect(DurationText.seconds("2d") == 172_800)
        #expect(DurationText.seconds("soon") == nil)
        #expect(DurationText.seconds("9999999999999999d") == nil)
        #expect(DurationText.seconds("23h56m") == 86_160)
        #expect(DurationText.seconds("1d2h30m") == 95_400)
        #expect(DurationText.seconds("-1h30m") == -5400)
        #expect(DurationText.seconds("1d2") == nil)
        #expect(DurationText.seconds("h") == nil)
        #expect(DurationText.seconds("-") == nil)
        #expect(DurationText.seconds("9223372036854775807s") == 9_223_372_036_854_775_807, "fits; the clock bounds it")
    }

    /// A flow whose first screen is `screen` (indented as a list item's body) and which
    /// ends on a screen `two`.
    static func flow(screen: String, extra: String = "") -> String {
        let body = screen.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        return """
            id: demo
            title: Demo
            \(extra)
            entry:
              first_launch: one
            screens:
              - id: one
            \(body)
              - id: two
                kind: info
                title: Two
                complete: true
            """
    }

    /// Every problem in one pass: a bad field kind, a bad operation and an unknown `go:`
    /// target together, and no false "unknown screen" for a screen that had a problem.
    @Test func everyProblemIsReportedAtOnce() {
        let found = problems(
            Self.flow(
                screen: """
                    kind: form
                    title: One
                    fields:
                      - id: a
                        kind: wibble
                        label: A
                    actions:
                      - label: Go
                        call: no_such_op
                      - label: Next
                        go: nowhere
                      - label: Two
                        go: two
                    """))
        #expect(found.count == 3, "\(found)")
        #expect(found.contains { $0.contains("unknown field kind 'wibble'") })
        #expect(found.contains { $0.contains("unknown operation 'no_such_op'") })
        #expect(found.contains { $0.hasSuffix("unknown screen 'nowhere'") })
        let brokenTarget = problems(
            Self.flow(
                screen: """
                    kind: nonsense
                    title: One
                    """, extra: ""))
        #expect(!brokenTarget.contains { $0.contains("unknown screen 'one'") }, "\(brokenTarget)")
    }

    /// Each mistake a flow author can make gets its own plain message.
    @Test(arguments: [
        ("", "the file is empty"),
        ("id: [", "not valid YAML"),
        (
            """
            id: a
            id: b
            title: T
            """, "duplicate keys: id"
        ),
        (
            """
            id: demo
            title: Demo
            entry:
              first_launch: one

            """, "the flow has no 'screens'"
        ),
        (
            """
            id: demo
            title: Demo
            entry:
              first_launch: one
            screens: []

            """, "'screens' must be a list with at least one screen"
        ),
        (
            """
            id: demo
            title: Demo
            screens:
              - id: one
                kind: info
                complete: true

            """, "the flow has no 'entry'"
        ),
        (
            flow(
                screen: """
                    kind: progress
                    title: One
                    actions:
                      - label: Next
                        go: two
                    """), "needs a 'call'"
        ),
        (
            flow(
                screen: """
                    kind: choice
                    title: One
                    """), "needs a 'choice'"
        ),
        (
            flow(
                screen: """
                    kind: form
                    title: One
                    actions:
                      - label: Next
                        go: two
                    """), "needs at least one field"
        ),
        (flow(screen: "kind: route"), "needs a 'route' list"),
        (
            flow(
                screen: """
                    kind: checklist
                    actions:
                      - label: Next
                        go: two
                    """), "needs 'tasks'"
        ),
        (
            flow(
                screen: """
                    kind: info
                    tasks:
                      - label: A
                        call: health
                    actions:
                      - label: Next
                        go: two
                    """), "'tasks' belongs to checklist screens"
        ),
        (
            flow(
                screen: """
                    kind: info
                    title: One
                    """), "has no actions, so nothing leads away from it"
        ),
        (
            flow(
                screen: """
                    kind: info
                    actions:
                      - label: Next
                        key: ab
                        go: two
                    """), "'key' must be one character, not 'ab'"
        ),
        (
            flow(
                screen: """
                    kind: info
                    actions:
                      - label: Next
                        go: two
                        on:
                          success: two
                    """), "'on' goes with 'call' only"
        ),
        (
            flow(
                screen: """
                    kind: info
                    actions:
                      - label: Next
                        branch:
                          - when: is_signed_in
                            go: two
                    """), "the last branch"
        ),
        (
            flow(
                screen: """
                    kind: info
                    actions:
                      - label: Next
                        branch:
                          - when: is_happy
                            go: two
                          - go: two
                    """), "unknown guard 'is_happy'"
        ),
        (
            flow(
                screen: """
                    kind: info
                    back: maybe
                    actions:
                      - label: Next
                        go: two
                    """), "'back' must be true or false"
        ),
        (
            flow(
                screen: """
                    kind: info
                    step: 1
                    actions:
                      - label: Next
                        go: two
                    """), "has a 'step' but the flow does not say how many"
        ),
        (
            flow(
                screen: """
                    kind: info
                    step: 9
                    actions:
                      - label: Next
                        go: two
                    """, extra: "steps: 2"), "is step 9, but the flow has 2"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: pick
                        label: Pick
                        kind: select
                    actions:
                      - label: Next
                        go: two
                    """), "needs 'options' or 'options_from'"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: pick
                        label: Pick
                        kind: multi
                        options: [A, B]
                        exclusive: C
                    actions:
                      - label: Next
                        go: two
                    """), "'exclusive' of field 'pick' must be one of its options"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: level
                        label: Level
                        kind: slider
                        min: 5
                        max: 5
                    actions:
                      - label: Next
                        go: two
                    """), "needs 'min' below 'max'"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: name
                        label: Name
                        options: [A]
                    actions:
                      - label: Next
                        go: two
                    """), "'options' belongs to select and multi fields"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: name
                        label: Name
                        max_length: many
                    actions:
                      - label: Next
                        go: two
                    """), "'max_length' must be a whole number"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: name
                        label: Name
                        rules:
                          - rule: min_length
                            message: Longer.
                    actions:
                      - label: Next
                        go: two
                    """), "needs a whole number 'value'"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: name
                        label: Name
                        rules:
                          - rule: matches
                            message: Same.
                    actions:
                      - label: Next
                        go: two
                    """), "needs the 'field' it must match"
        ),
        (
            flow(
                screen: """
                    kind: form
                    fields:
                      - id: name
                        label: Name
                        rules:
                          - rule: matches
                            field: other
                            message: Same.
                    actions:
                      - label: Next
                        go: two
                    """), "names unknown field 'other'"
        ),
        (
            flow(
                screen: """
                    kind: info
                    actions:
                      - label: Next
                        go: two
                    """,
                extra: """
                    tokens:
                      access_ttl: soon
                    """), "'soon' is not a duration like 15m, 24h or 30d"
        ),
        (
            flow(
                screen: """
                    kind: choice
                    choice:
                      store: pick
                      then:
                        go: two
                    """), "needs 'options' or 'options_from'"
        ),
        (
            flow(
                screen: """
                    kind: choice
                    choice:
                      options: [A, B]
                      store: pick
                    """), "needs 'then' (what a pick does)"
        ),
    ])
    func eachMistakeIsReportedInPlainWords(yaml: String, expected: String) {
        let found = problems(yaml)
        #expect(found.contains { $0.contains(expected) }, "expected '\(expected)' in \(found)")
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
