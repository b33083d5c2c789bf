"""Schemathesis hooks for `make test-conformance` (loaded through SCHEMATHESIS_HOOKS).

An `Idempotency-Key` is remembered for 24 hours with its first body, and the same
key with another body answers 422 `idempotency_key_reused`, as documented. The
generator draws keys from a small space (`0`, `00`, ...) and sends them again with
other bodies, so most schema-valid calls of an idempotent operation would meet that
422 instead of the handler. Each schema-valid call's key gets a suffix counted per
run (deterministic, still 1-255 visible ASCII characters); keys of calls generated
to be refused are left as generated.
"""

import itertools

import schemathesis
from schemathesis.generation import GenerationMode

HEADER = "Idempotency-Key"
_calls = itertools.count(1)


@schemathesis.hook
def before_call(context, case, kwargs):
    key = (case.headers or {}).get(HEADER)
    meta = case.meta
    if not isinstance(key, str) or meta is None or meta.generation.mode is not GenerationMode.POSITIVE:
        return
    suffix = f".{next(_calls)}"
    case.headers[HEADER] = key[: 255 - len(suffix)] + suffix
