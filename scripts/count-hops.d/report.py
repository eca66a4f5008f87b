"""Counts cross-file hops in traces written by trace.py; see scripts/count-hops for the method.

usage: report.py [--first-job REGEX] [--sequence] [--json OUT] TRACE.json [TRACE.json ...]
Several traces (runs of the same tree) must give the same numbers and the same hop sequences;
otherwise it says where they part and exits 2.
"""
import argparse
import collections
import json
import re
import sys

# Folders the "pipeline" scope hides: leaf libraries the pipeline calls (locks, bitmaps, codecs).
HIDDEN = ("Support/", "Image/", "Codecs/")
SCOPES = {
    "all": lambda file: file is not None,
    "pipeline": lambda file: file is not None and not file.startswith(HIDDEN),
}
TEARDOWN = re.compile(r'deinit')


def short(name):
    """A function's demangled name without argument, generic and result types or module prefixes."""
    out, depth = [], 0
    for char in name.replace("->", "\u2192"):
        if char in "(<":
            if depth == 0 and char == "(":
                out.append("(")
            depth += 1
        elif char in ")>":
            depth -= 1
            if depth == 0 and char == ")":
                out.append(")")
        elif depth == 0:
            out.append(char)
    text = "".join(out)
    text = re.sub(r' \u2192 \S+', '', text)
    text = re.sub(r'\b(Iris|Swift|FoundationEssentials)\.', '', text)
    return re.sub(r'\s+', ' ', text).strip()


def count(trace, scope, first_job):
    visible = SCOPES[scope]
    threads = {}
    hops, seq, starts = 0, [], []
    first = returned = None
    roots = teardown = entries = 0
    for event in trace["events"]:
        if "mark" in event:
            if event["mark"] == "hopsReturned":
                returned = hops
            continue
        if first is None and first_job.search(event["fn"]):
            is_first = True
        else:
            is_first = False
        if not visible(event["file"]):
            if is_first:
                first = hops
            continue
        entries += 1
        if TEARDOWN.search(event["fn"]) or any(f is not None and TEARDOWN.search(n) for n, f in event["stack"]):
            teardown += 1
            continue
        caller = next((f for _, f in event["stack"] if visible(f)), None)
        if caller is None:
            roots += 1
            starts.append({"after_hop": hops, "thread": threads.setdefault(event["tid"], len(threads) + 1),
                           "file": event["file"], "function": short(event["fn"])})
        elif caller != event["file"]:
            hops += 1
            thread = threads.setdefault(event["tid"], len(threads) + 1)
            seq.append({"hop": hops, "thread": thread, "depth": event["depth"], "from": caller,
                        "to": event["file"], "function": short(event["fn"])})
        if is_first:
            first = hops
            if seq and seq[-1]["hop"] == hops:
                seq[-1]["first_job"] = True
    return {"first_job": first, "returned": returned, "round_trip": hops, "entries": entries,
            "roots": roots, "teardown": teardown, "sequence": seq, "starts": starts}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--first-job", default=r'^Iris\.WorkQueue\.enqueue\(',
                        help="regex on the demangled name of the function whose first entry is 'first job queued'")
    parser.add_argument("--sequence", action="store_true", help="print the hop sequences")
    parser.add_argument("--json", help="write the counts and sequences of the first trace here")
    parser.add_argument("traces", nargs="+")
    args = parser.parse_args()
    first_job = re.compile(args.first_job)
    runs = [json.load(open(path)) for path in args.traces]
    results = [{scope: count(run, scope, first_job) for scope in SCOPES} for run in runs]
    base = results[0]
    for scope in SCOPES:
        if base[scope]["first_job"] is None:
            sys.exit("report: no entry matches --first-job %r" % args.first_job)
    print("traced %d Iris functions; %d stops in %.1f s (first run)" % (
        runs[0]["functions_traced"], sum(1 for e in runs[0]["events"] if "mark" not in e), runs[0]["seconds"]))
    for scope in SCOPES:
        r = base[scope]
        print("scope %-8s  first job queued: %3d hops   round trip: %3d hops   "
              "(entries %d, starts %d, teardown %d; %d of the hops before image(for:) returned, which depends on timing)" % (
                  scope, r["first_job"], r["round_trip"], r["entries"], r["roots"], r["teardown"], r["returned"]))
    same = True
    for index, other in enumerate(results[1:], start=2):
        for scope in SCOPES:
            a, b = base[scope], other[scope]
            if (a["first_job"], a["round_trip"]) != (b["first_job"], b["round_trip"]):
                same = False
                print("run %d differs in scope %s: first job %s, round trip %s" % (index, scope, b["first_job"], b["round_trip"]))
            elif [(h["from"], h["to"], h["function"]) for h in a["sequence"]] != [(h["from"], h["to"], h["function"]) for h in b["sequence"]]:
                print("run %d: scope %s, same numbers, hops in another order (threads interleaved differently)" % (index, scope))
    if len(results) > 1 and same:
        print("all %d runs gave the same numbers" % len(results))
    if args.sequence:
        for scope in SCOPES:
            print("\nhop sequence, scope %s (hop, thread, stack depth, from -> to: function entered)" % scope)
            for h in base[scope]["sequence"]:
                print("%4d  t%-2d d%-3d %s -> %s: %s%s" % (h["hop"], h["thread"], h["depth"], h["from"], h["to"],
                                                          h["function"], "   <== first job queued" if h.get("first_job") else ""))
            print("entries with no Iris caller (starts, not hops):")
            for start in base[scope]["starts"]:
                print("      t%-2d after hop %d: %s (%s)" % (start["thread"], start["after_hop"], start["function"], start["file"]))
            print("hops by file pair:")
            pairs = collections.Counter((h["from"], h["to"]) for h in base[scope]["sequence"])
            for (source, destination), number in pairs.most_common():
                print("%6d  %s -> %s" % (number, source, destination))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({scope: base[scope] for scope in SCOPES}, handle, indent=1)
    sys.exit(0 if same else 2)


if __name__ == "__main__":
    main()
