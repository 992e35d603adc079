"""Test helpers gm ships for ruleset authors: a plug-in's own tests import them (issue 31).

- `gm.testing.battery`: seeded robot games of a ruleset, every turn checked against the rule
  book's invariants (the ruleset's invariants part) and the contract's generic ones.
"""
