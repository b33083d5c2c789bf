"""The moto server with DynamoDB requests answered one at a time.

moto serves each request on its own thread and applies an UpdateItem as read,
change, store without a lock, so two concurrent `ADD`s to one item can lose one
of them; DynamoDB never does. Courier's counters and conditional writes rely on
that atomicity, so every DynamoDB action here holds one lock. Other services
(SQS long polls among them) stay concurrent.

Usage: python serve.py -H 127.0.0.1 -p PORT (the arguments of `moto_server`).
"""

import functools
import sys
import threading

from moto.dynamodb.responses import DynamoHandler
from moto.server import main

_LOCK = threading.Lock()
_call_action = DynamoHandler.call_action


@functools.wraps(_call_action)
def _one_at_a_time(self):
    with _LOCK:
        return _call_action(self)


DynamoHandler.call_action = _one_at_a_time

if __name__ == "__main__":
    main(sys.argv[1:])
