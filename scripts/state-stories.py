#!/usr/bin/env python3
"""Writes each reducer story step's `changes:` (and `effects:` where a step has none)
into the test sources, from what `ONBOARD_RECORD_STORIES=FILE swift test --filter
FlowEngineTests` recorded. For a change to the engine that is meant: read the diff it
makes before committing it, as with snapshot tests.

    ONBOARD_RECORD_STORIES=/tmp/stories.jsonl swift test --filter FlowEngineTests
    python3 scripts/state-stories.py /tmp/stories.jsonl
    swift-format format -i Tests/FlowEngineTests/*.swift   # lists rewritten inline, wrapped again

A call site that ran from more than one state (a loop, a helper called from several
stories) is listed and left alone: state its changes there by hand.
"""
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = 140


def literal(items):
    def quote(text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "[" + ", ".join(quote(i) for i in items) + "]"


def call_span(text, start):
    """The index of the `)` closing the call whose `(` is at `start`; top-level commas
    and argument labels inside it."""
    depth, i, stack = 0, start, []  # stack: 'code' or 'string' contexts
    mode = ["code"]
    paren = [0]
    commas = []
    while i < len(text):
        c = text[i]
        if mode[-1] == "string":
            if c == "\\" and text[i + 1] == "(":
                mode.append("code"); paren.append(1); i += 2; continue
            if c == "\\":
                i += 2; continue
            if c == '"':
                mode.pop()
            i += 1; continue
        if c == '"':
            mode.append("string"); i += 1; continue
        if c in "([{":
            paren[-1] += 1
        elif c in ")]}":
            paren[-1] -= 1
            if paren[-1] == 0 and len(paren) > 1 and c == ")":
                paren.pop(); mode.pop(); i += 1; continue
            if len(paren) == 1 and paren[0] == 0:
                return i, commas
        elif c == "," and len(paren) == 1 and paren[0] == 1:
            commas.append(i)
        i += 1
    raise ValueError("unclosed call")


def main(path):
    records = collections.defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        records[(r["file"], r["line"], r["column"])].append((tuple(r["effects"]), tuple(r["changes"])))
    edits = collections.defaultdict(list)
    skipped = []
    for (file, line, column), seen in records.items():
        if len(set(seen)) > 1:
            skipped.append(f"{file}:{line}")
            continue
        edits[file].append((line, column, seen[0]))
    for file, sites in edits.items():
        full = os.path.join(ROOT, "Tests", file)
        text = open(full).read()
        starts = [0]
        for l in text.split("\n"):
            starts.append(starts[-1] + len(l) + 1)
        # From the end, so earlier offsets stay right.
        for line, column, (effects, changes) in sorted(sites, reverse=True):
            open_at = starts[line - 1] + column - 1
            if text[open_at] != "(":
                # Inside a macro (`#expect(flow.send(…))`) the column is the macro's.
                row = text[starts[line - 1]:starts[line]]
                found = [row.find(f".{name}(") for name in ("send", "press", "type", "key", "answer", "fail", "launch", "focus")]
                found = [f for f in found if f >= 0]
                if not found:
                    skipped.append(f"{file}:{line}")
                    continue
                open_at = starts[line - 1] + min(found) + row[min(found):].find("(")
            close_at, commas = call_span(text, open_at)
            args = text[open_at + 1:close_at]
            name = text[text.rfind(".", 0, open_at) + 1:open_at]
            if name not in ("send", "press", "type", "key", "answer", "fail", "launch", "focus"):
                continue  # a test's own helper: its lists are per answer, said by hand
            # A stated list of effects that is not what the step did is rewritten (only a
            # plain list of plain strings; an expression is left to its author).
            for label, recorded in (("effects", effects), ("changes", changes)):
                bounds = [open_at] + commas + [close_at]
                for a, b in zip(bounds, bounds[1:]):
                    segment = text[a + 1:b]
                    if not segment.strip().startswith(label + ":"):
                        continue
                    value = segment.split(label + ":", 1)[1].strip()
                    try:
                        stated = json.loads(value) if value.startswith("[") and "\\(" not in value else None
                    except ValueError:
                        stated = None
                    if stated is not None and stated != list(recorded):
                        start = a + 1 + segment.index(label + ":") + len(label + ":")
                        text = text[:start] + " " + literal(recorded) + text[b:]
                        close_at, commas = call_span(text, open_at)
                        args = text[open_at + 1:close_at]
                    break
            if "changes:" in args:
                continue
            pieces = [f"changes: {literal(changes)}"]
            if "effects:" not in args:
                pieces.insert(0, f"effects: {literal(effects)}")
            bounds = [open_at] + commas + [close_at]
            insert_at = close_at
            for a, b in zip(bounds, bounds[1:]):
                if text[a + 1:b].strip().startswith("sourceLocation:"):
                    insert_at = a
            empty = text[open_at + 1:close_at].strip() == ""
            line_start = text.rfind("\n", 0, insert_at) + 1
            indent = len(text[line_start:]) - len(text[line_start:].lstrip(" "))
            # A call's own line's indent, for continuation lines.
            call_line_start = text.rfind("\n", 0, open_at) + 1
            base = len(text[call_line_start:]) - len(text[call_line_start:].lstrip(" "))
            inline = ("" if empty else ", ") + ", ".join(pieces)
            line_end = text.find("\n", insert_at)
            current = text[line_start:line_end]
            if insert_at != close_at:
                new = inline.lstrip(", ") + ","
                if len(current) + len(new) + 1 <= LIMIT:
                    text = text[:insert_at + 1] + " " + new + text[insert_at + 1:]
                    continue
                block = "\n" + " " * (base + 4) + new.replace(", changes:", ",\n" + " " * (base + 4) + "changes:")
                text = text[:insert_at + 1] + block + text[insert_at + 1:]
                continue
            if len(current) + len(inline) <= LIMIT:
                text = text[:insert_at] + inline + text[insert_at:]
                continue
            lines = []
            for piece in pieces:
                label, _, value = piece.partition(": ")
                if base + 4 + len(piece) + 1 <= LIMIT:
                    lines.append(" " * (base + 4) + piece)
                else:
                    items = json.loads(json.dumps(list(changes if label == "changes" else effects)))
                    inner = [" " * (base + 8) + literal([i])[1:-1] + "," for i in items]
                    lines.append(" " * (base + 4) + label + ": [\n" + "\n".join(inner) + "\n" + " " * (base + 4) + "]")
            sep = "" if empty else ","
            text = text[:insert_at].rstrip(" ") + sep + "\n" + ",\n".join(lines) + text[insert_at:]
        open(full, "w").write(text)
    for site in sorted(skipped):
        print("ran from more than one state, left alone:", site)


if __name__ == "__main__":
    main(sys.argv[1])
