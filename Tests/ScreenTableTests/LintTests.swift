import ScreenTable
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
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
