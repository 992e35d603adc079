"""Use-cases that join the pure core to the store and renderer: the only such place in gm.

One module per use-case family; the CLI, the mail intake and the portal all call these.
A turn run reads as its stages: lock, collect, NMR (robot orders), resolve, commit, render.
"""
