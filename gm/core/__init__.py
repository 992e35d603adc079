"""The pure core of gm: model types, seeds, the turn-file envelope and the ruleset contract."""
