// Memory floor: the Swift standard library only. Waits for a line, then exits.
print("ready")
_ = readLine()
