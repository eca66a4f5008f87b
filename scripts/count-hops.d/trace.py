"""lldb command `hops_trace EXE TREE OUT`: runs the count-hops driver and records every entry
into a function of the Iris module between the driver's `hopsBegin()` and `hopsEnd()` markers.

How: at `hopsBegin()` one breakpoint is set at the first instruction of every function whose
code lies in TREE/Sources/Iris/ (by its line table). Compiler-generated code (thunks,
partial-apply forwarders, value witnesses: file `<compiler-generated>`) and the resume parts of
async functions (`(n) await resume partial function`, mangled `TY…_`/`TQ…_`) are not entries and
get none. At each stop the stopped thread's whole backtrace is recorded, with lldb's Swift
async unwinding, so an async function's caller is the async function that awaited it. At
`hopsEnd()` the breakpoints are removed and the process runs to its end.

Writes OUT as JSON: a list of events in stop order, markers (`{"mark": name}`) and entries
(`{"tid", "fn", "file", "line", "depth", "stack": [[function, iris_file_or_null], ...]}`, files
relative to Sources/Iris/, the stack from the caller outwards).
"""
import json
import os
import re
import time

import lldb

FUNCLET = re.compile(r'(TY|TQ)\d*_$')
MARKERS = ("hopsBegin", "hopsReturned", "hopsEnd")


def _iris_file(address, sources):
    entry = address.GetLineEntry()
    if not entry.IsValid():
        return None, 0
    path = entry.GetFileSpec().fullpath
    if not path or not path.startswith(sources):
        return None, entry.GetLine()
    return path[len(sources):], entry.GetLine()


def _iris_functions(module, target, sources):
    """(load address, name, file) of every Iris function entry."""
    found = []
    for symbol in module:
        if symbol.GetType() != lldb.eSymbolTypeCode:
            continue
        mangled = symbol.GetMangledName() or symbol.GetName() or ''
        if FUNCLET.search(mangled):
            continue
        start = symbol.GetStartAddress()
        file, _ = _iris_file(start, sources)
        if file is None:
            continue
        found.append((start.GetLoadAddress(target), symbol.GetName(), file))
    return found


def hops_trace(debugger, command, result, internal_dict):
    exe, tree, out = command.split()
    sources = os.path.realpath(tree) + "/Sources/Iris/"
    debugger.SetAsync(False)
    target = debugger.CreateTarget(exe)
    if not target.IsValid():
        result.SetError("cannot load %s" % exe)
        return
    markers = {}
    for name in MARKERS:
        breakpoint = target.BreakpointCreateByName(name)
        if breakpoint.GetNumLocations() != 1:
            result.SetError("marker %s: %d locations, expected 1" % (name, breakpoint.GetNumLocations()))
            return
        markers[breakpoint.GetID()] = name
    launch = target.GetLaunchInfo()
    launch.SetWorkingDirectory(os.getcwd())
    error = lldb.SBError()
    process = target.Launch(launch, error)
    if not error.Success():
        result.SetError("launch failed: %s" % error)
        return
    module = target.GetModuleAtIndex(0)
    entries = {}
    traced = 0
    events = []
    seen_markers = []
    started = time.time()
    while process.GetState() == lldb.eStateStopped:
        # Threads in index order, so several threads stopped at once are read in the same order.
        for thread in sorted(process, key=lambda t: t.GetIndexID()):
            if thread.GetStopReason() != lldb.eStopReasonBreakpoint:
                continue
            breakpoint_id = thread.GetStopReasonDataAtIndex(0)
            if breakpoint_id in markers:
                name = markers[breakpoint_id]
                seen_markers.append(name)
                events.append({"mark": name, "tid": thread.GetIndexID()})
                if name == "hopsBegin":
                    for address, function, file in _iris_functions(module, target, sources):
                        breakpoint = target.BreakpointCreateByAddress(address)
                        entries[breakpoint.GetID()] = (function, file)
                    traced = len(entries)
                elif name == "hopsEnd":
                    for breakpoint_id in entries:
                        target.BreakpointDelete(breakpoint_id)
                    entries = {}
            elif breakpoint_id in entries:
                function, file = entries[breakpoint_id]
                stack = []
                count = thread.GetNumFrames()
                for index in range(1, count):
                    frame = thread.GetFrameAtIndex(index)
                    name = frame.GetDisplayFunctionName() or frame.GetFunctionName() or frame.GetSymbol().GetName() or "?"
                    caller_file, _ = _iris_file(frame.GetPCAddress(), sources)
                    stack.append([name, caller_file])
                _, line = _iris_file(thread.GetFrameAtIndex(0).GetPCAddress(), sources)
                events.append({"tid": thread.GetIndexID(), "fn": function, "file": file, "line": line,
                               "depth": count, "stack": stack})
        process.Continue()
    status = process.GetExitStatus()
    with open(out, "w") as handle:
        json.dump({"exit": status, "markers": seen_markers, "functions_traced": traced,
                   "seconds": round(time.time() - started, 2), "events": events}, handle)
    if status != 0:
        result.SetError("the driver exited with status %d" % status)
    elif seen_markers != list(MARKERS):
        result.SetError("markers seen: %s" % seen_markers)


def __lldb_init_module(debugger, internal_dict):
    debugger.HandleCommand("command script add -f %s.hops_trace hops_trace" % __name__)
