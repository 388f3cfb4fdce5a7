// Memory floor: Swift with FoundationEssentials (JSON, Data, dates; no ICU).
import FoundationEssentials
print(String(decoding: try! JSONEncoder().encode(["ready": true]), as: UTF8.self))
_ = readLine()
