"""Formats: everything written down, read and written on top of the engine.

TOML profiles and their composition into one profile, JSON documents (states, views, moves,
profiles, records) with the checks an untrusted document needs, move notation, and game records.
"""
