#!/usr/bin/env python3
"""What the browser module spends its bytes on, by crate: reads `twiggy top --format csv` of the
linked module (before wasm-bindgen and wasm-opt, whose names it still has) and sums each item's
bytes under the crate its name starts with. The names section and the custom sections that
wasm-bindgen and wasm-opt strip are left out, so the total is the code and data that ship.

    twiggy top -n 1000000 --format csv MODULE.wasm | python3 web/size-report.py [N]
"""
import csv
import re
import sys
from collections import Counter

STRIPPED = ('"function names" subsection', "custom section", "elem[", "type[", "import ", "export ", "table[", "memory[", "global[", "code[", "data[")


def crate_of(name):
    if name.startswith('data segment'):
        return "(data: constants, strings, tables, fonts)"
    # `<A as B>::f` and `<A>::f` belong to A's crate; `_<A as B>` too.
    name = name.lstrip('_')
    while name.startswith('<'):
        name = name[1:]
    name = name.lstrip('&*').removeprefix('mut ').removeprefix('dyn ').removeprefix('[')
    m = re.match(r'([A-Za-z_][A-Za-z0-9_]*)::', name)
    if m:
        return m.group(1)
    return "(other: runtime, unnamed)"


def main():
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    sizes = Counter()
    for row in csv.DictReader(sys.stdin):
        name = row.get("Name") or row.get("Item") or ""
        size = int(row.get("ShallowSize") or row.get("Shallow Bytes") or 0)
        if name.startswith(STRIPPED) or name.startswith("custom section"):
            continue
        sizes[crate_of(name)] += size
    total = sum(sizes.values())
    print(f"{'bytes':>10}  {'share':>6}  crate")
    for crate, size in sizes.most_common(top):
        print(f"{size:>10,}  {100 * size / total:>5.1f}%  {crate}")
    rest = total - sum(s for _, s in sizes.most_common(top))
    print(f"{rest:>10,}  {100 * rest / total:>5.1f}%  ({len(sizes) - top} other crates)")
    print(f"{total:>10,}  100.0%  in all (code and data, before wasm-opt)")


if __name__ == "__main__":
    main()
