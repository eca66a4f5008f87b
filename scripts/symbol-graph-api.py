#!/usr/bin/env python3
"""Prints a module's public API, one declaration a line, sorted, from symbol graph files (those
swift-symbolgraph-extract writes, or the compiler's -emit-symbol-graph: MODULE.symbols.json and
MODULE@OTHER.symbols.json for its extensions of other modules' types). Synthesized members
(Equatable's ==, default implementations) are left out.

  scripts/symbol-graph-api.py FILE.symbols.json...
"""
import json
import sys

lines = set()
for path in sys.argv[1:]:
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open") or "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
        name = ".".join(symbol["pathComponents"])
        lines.add(f'{symbol["kind"]["identifier"].removeprefix("swift.")} {name}: {" ".join(declaration.split())}')
print("\n".join(sorted(lines)))
