"""Tools: the programs built on the engine, the formats and the bots.

The ``unoengine`` command line, many-game simulations and tournaments, the rule-conformance
runner, and the terminal game against bots.
"""
