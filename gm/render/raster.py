"""What draws a map picture: CairoSVG (with cairocffi) and Pillow, imported with the C libraries found once (gm.render.libraries).

Imported by gm.render.pictures when it draws a map picture and by gm.render.seat_maps when it
turns a map into a PNG, and ahead by the render workers' fork server (worker.WARM_MODULES);
nothing else imports CairoSVG.
"""

from __future__ import annotations

from PIL import Image

from gm.render.libraries import found_once

with found_once():
    # CairoSVG has no types (nor a stub package).
    from cairosvg.parser import Tree  # type: ignore[import-untyped]
    from cairosvg.surface import PNGSurface  # type: ignore[import-untyped]

__all__ = ["Image", "PNGSurface", "Tree"]
