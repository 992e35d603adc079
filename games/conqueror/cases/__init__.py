"""Packaged cases of the Conqueror! ruleset (data files read through importlib.resources)."""
