"""python -m gm runs the gm command."""

from gm.cli import main

main()
