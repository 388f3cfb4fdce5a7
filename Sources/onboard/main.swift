import OnboardCommands

// The client as people start it: no file tools, so Foundation stays off its start; a
// command that reads a flow or theme file is handed on to onboard-files.
Onboard.main(tools: nil)
