/// The version every analytics event and `onboard --version` report.
public enum OnboardVersion {
    public static let current = "0.1.0"
}
