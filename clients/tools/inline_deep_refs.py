"""Copies an OpenAPI document with every `$ref` that points *inside* a component
(for example `#/components/schemas/EventAccepted/properties/deliveries`) replaced by
a copy of what it points at.

openapi-python-client (0.29) resolves only references to whole components and drops
any schema that uses a deeper one, together with the responses that use that schema
("Could not find reference in parsed models or enums"). References to whole
components (`#/components/<kind>/<name>`) are left as they are.

Usage: inline_deep_refs.py IN.json OUT.json
"""

import copy
import json
import sys


def resolve(doc, pointer):
    node = doc
    for part in pointer.lstrip("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def is_deep(ref):
    return ref.startswith("#/components/") and len(ref.lstrip("#/").split("/")) > 3


def inline(doc, node, seen=()):
    if isinstance(node, list):
        return [inline(doc, x, seen) for x in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and is_deep(ref):
        if ref in seen:
            sys.exit(f"inline_deep_refs: {ref} refers to itself")
        target = inline(doc, copy.deepcopy(resolve(doc, ref)), seen + (ref,))
        # Siblings of the `$ref` (a description, say) win over the target's.
        return {**target, **{k: inline(doc, v, seen) for k, v in node.items() if k != "$ref"}}
    return {k: inline(doc, v, seen) for k, v in node.items()}


def main():
    src, dst = sys.argv[1:3]
    with open(src, encoding="utf-8") as f:
        doc = json.load(f)
    out = inline(doc, doc)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
