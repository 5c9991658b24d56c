"""A correct program that is slow to start: silent for two seconds before it answers ``hello``, as an
interpreter starting on a busy machine is; after that it answers at once."""

import time

import speak

time.sleep(2.0)
speak.start()
speak.serve()
