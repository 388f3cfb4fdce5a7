import OnboardCommands

// `onboard` with the tools that read the files people write (YAML): `onboard` execs this
// on the same command line when a command needs them.
Onboard.main(tools: YAMLFileTools())
