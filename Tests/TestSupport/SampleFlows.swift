/// Small flow files the tests share.
public enum SampleFlows {
    /// Two screens, the second reached by nothing: lint turns it down (line 10, column 5),
    /// `onboard graph` still draws it.
    public static let withUnreachableScreen = """
        id: demo
        title: Demo
        entry:
          first_launch: one
        screens:
          - id: one
            kind: info
            title: One
            complete: true
          - id: lost
            kind: info
            title: Lost
            complete: true
        """
}
