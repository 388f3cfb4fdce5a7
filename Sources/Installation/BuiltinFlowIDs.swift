/// The flows that ship inside Onboard, by id, in the order the picker lists them: here so
/// `onboard-ssh` can check `--flow` without linking the flow table (`ScreenTable`).
public let builtinFlowIDs = ["oklah", "babybasics", "abby", "rucktracker", "miga"]
