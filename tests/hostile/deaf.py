"""Shakes hands (asking for events, as a bot, with ``events``), then never reads its input again."""

import sys
import time

import speak

speak.start(events="events" in sys.argv[1:])
time.sleep(3600)
