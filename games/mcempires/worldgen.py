"""A seeded world generator: land masses, water, terrain bands and a fair site for every capital.

Pure: all chance comes from the generator it is given (rule D-ALL-1), so a game's world is
made again, block for block, when `gm turn verify` replays the game from its seed."""

from __future__ import annotations

from collections import deque
from random import Random

from gm.core.model import JSONObject

from .world import GRASS, LAKE, OASIS, OCEAN, ROCK, SAND, SNOW, Board, make_board

LAND_SHARE = 0.6  # of the blocks, before the coast is cut into beaches
SITE_ROOM = 5  # a capital site has mostly land within this many blocks
TRIES = 6  # worlds made from the same generator until one seats everybody


def world_side(seats: int, blocks_per_seat: int, low: int = 24, high: int = 160) -> int:
    """The side of a square world with about blocks_per_seat blocks of land for each seat."""
    side = 1
    while side * side * LAND_SHARE < seats * blocks_per_seat:
        side += 1
    return max(low, min(high, side))


def generate_world(width: int, height: int, seats: int, rng: Random) -> JSONObject:
    """{"terrain": rows, "sites": [[x, y], ...]}: one site per seat, spread over the largest
    land mass, each with land around it. Raises ValueError if no try seats everybody."""
    for _ in range(TRIES):
        rows = _terrain(width, height, rng)
        sites = _sites(rows, seats, rng)
        if sites:
            return {"terrain": rows, "sites": sites}
    raise ValueError(f"no {width}x{height} world with room for {seats} capitals was found")


# ----------------------------------------------------------------------------------------------
# Terrain.


def _smooth(t: float) -> float:
    return t * t * (3 - 2 * t)


def _noise(width: int, height: int, spacing: int, rng: Random) -> list[float]:
    """Value noise: random heights on a lattice `spacing` blocks apart, smoothly blended."""
    cols, rows = width // spacing + 2, height // spacing + 2
    lattice = [[rng.random() for _ in range(cols)] for _ in range(rows)]
    across = [(x // spacing, _smooth((x % spacing) / spacing)) for x in range(width)]
    out: list[float] = []
    for y in range(height):
        ty = _smooth((y % spacing) / spacing)
        a, b = lattice[y // spacing], lattice[y // spacing + 1]
        line = [a[i] + (b[i] - a[i]) * ty for i in range(cols)]
        out.extend([line[i] + (line[i + 1] - line[i]) * tx for i, tx in across])
    return out


def _fractal(width: int, height: int, rng: Random, base: int) -> list[float]:
    layers = [(_noise(width, height, max(2, base >> k), rng), 1.0 / (1 << k)) for k in range(3)]
    total = sum(weight for _, weight in layers)
    return [sum(layer[i] * w for layer, w in layers) / total for i in range(width * height)]


def _terrain(width: int, height: int, rng: Random) -> list[str]:
    base = max(4, min(width, height) // 3)
    elevation = _fractal(width, height, rng, base)
    moisture = _fractal(width, height, rng, base)
    margin = max(3.0, min(width, height) * 0.18)
    for i in range(width * height):
        x, y = i % width, i // width
        edge = min(x, y, width - 1 - x, height - 1 - y)
        if edge < margin:  # the world's rim sinks into the ocean
            elevation[i] -= 0.45 * (1 - edge / margin)
    ordered = sorted(elevation)
    sea = ordered[int(len(ordered) * (1 - LAND_SHARE))]
    land = [e >= sea for e in elevation]
    highs = sorted(e for e, dry in zip(elevation, land) if dry)
    peak = highs[int(len(highs) * 0.86)] if highs else 1.0
    cells = []
    for i in range(width * height):
        y = i // width
        cold = y / max(1, height - 1) + (moisture[i] - 0.5) * 0.3  # north is cold (terrain bands)
        cells.append(_land_letter(elevation[i], peak, moisture[i], cold) if land[i] else OCEAN)
    _inland_water(cells, width, height)
    _beaches(cells, width, height, elevation, sea)
    _lakes_and_oases(cells, width, height, rng)
    return ["".join(cells[y * width : (y + 1) * width]) for y in range(height)]


def _land_letter(elevation: float, peak: float, moisture: float, cold: float) -> str:
    if cold < 0.07 or (elevation >= peak and cold < 0.3):
        return SNOW
    if elevation >= peak:
        return ROCK
    if cold > 0.78 and moisture < 0.45:
        return SAND  # the dry south: desert
    return GRASS


def _inland_water(cells: list[str], width: int, height: int) -> None:
    """Water that does not reach the rim is a lake, not ocean."""
    seen = [False] * len(cells)
    queue = deque(i for i in range(len(cells)) if cells[i] == OCEAN and _on_rim(i, width, height))
    for i in queue:
        seen[i] = True
    while queue:
        for n in make_neighbours(queue.popleft(), width, height):
            if cells[n] == OCEAN and not seen[n]:
                seen[n] = True
                queue.append(n)
    for i, cell in enumerate(cells):
        if cell == OCEAN and not seen[i]:
            cells[i] = LAKE


def _on_rim(i: int, width: int, height: int) -> bool:
    x, y = i % width, i // width
    return x in (0, width - 1) or y in (0, height - 1)


def make_neighbours(i: int, width: int, height: int) -> list[int]:
    x, y = i % width, i // width
    return [
        y2 * width + x2
        for x2, y2 in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
        if 0 <= x2 < width and 0 <= y2 < height
    ]


def _beaches(cells: list[str], width: int, height: int, elevation: list[float], sea: float) -> None:
    for i, cell in enumerate(cells):
        if (
            cell == GRASS
            and elevation[i] < sea + 0.025
            and any(cells[n] == OCEAN for n in make_neighbours(i, width, height))
        ):
            cells[i] = SAND


def _lakes_and_oases(cells: list[str], width: int, height: int, rng: Random) -> None:
    """A few small lakes on grass and an oasis or two in the desert, away from the sea."""
    for _ in range(max(1, width * height // 1600)):
        i = rng.randrange(width * height)
        if cells[i] == GRASS and _inland(cells, i, width, height, 3):
            cells[i] = LAKE
            for n in make_neighbours(i, width, height):
                if cells[n] == GRASS and rng.random() < 0.5:
                    cells[n] = LAKE
    for _ in range(max(1, width * height // 3200)):
        i = rng.randrange(width * height)
        if cells[i] == SAND and _inland(cells, i, width, height, 2):
            cells[i] = OASIS


def _inland(cells: list[str], i: int, width: int, height: int, reach: int) -> bool:
    x, y = i % width, i // width
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            x2, y2 = x + dx, y + dy
            if not (0 <= x2 < width and 0 <= y2 < height) or cells[y2 * width + x2] == OCEAN:
                return False
    return True


# ----------------------------------------------------------------------------------------------
# Capital sites: far apart on the largest land mass, each with land to grow into.


def _sites(rows: list[str], seats: int, rng: Random) -> list[list[int]] | None:
    board = make_board(tuple(rows))
    sizes: dict[int, int] = {}
    for mass in board.landmass:
        if mass >= 0:
            sizes[mass] = sizes.get(mass, 0) + 1
    if not sizes:
        return None
    main = max(sorted(sizes), key=lambda m: sizes[m])
    roomy = _roomy_blocks(board)
    candidates = [i for i in range(board.width * board.height) if board.landmass[i] == main and roomy[i]]
    if len(candidates) < seats:
        return None
    xs = {i: board.xy(i) for i in candidates}
    chosen = [rng.choice(candidates)]
    cx, cy = xs[chosen[0]]
    nearest = {i: abs(x - cx) + abs(y - cy) for i, (x, y) in xs.items()}
    while len(chosen) < seats:
        best = max(candidates, key=lambda i: (nearest[i], -i))
        if nearest[best] < 8:  # capitals closer than this leave no room to grow
            return None
        chosen.append(best)
        bx, by = xs[best]
        for i, (x, y) in xs.items():
            d = abs(x - bx) + abs(y - by)
            if d < nearest[i]:
                nearest[i] = d
    rng.shuffle(chosen)
    return [list(board.xy(i)) for i in chosen]


def _roomy_blocks(board: Board) -> list[bool]:
    """Blocks fit for a capital: grass with land all round, and at least four blocks in five
    within SITE_ROOM of it good land (not water, not snow), counted with a summed-area table."""
    width, height = board.width, board.height
    good = [0 if board.water[i] or board.terrain[i] == SNOW else 1 for i in range(width * height)]
    sums = [[0] * (width + 1) for _ in range(height + 1)]
    for y in range(height):
        row, above, here = good[y * width : (y + 1) * width], sums[y], sums[y + 1]
        running = 0
        for x in range(width):
            running += row[x]
            here[x + 1] = above[x + 1] + running
    side = 2 * SITE_ROOM + 1
    out = [False] * (width * height)
    for y in range(SITE_ROOM, height - SITE_ROOM):
        top, bottom = sums[y - SITE_ROOM], sums[y + SITE_ROOM + 1]
        for x in range(SITE_ROOM, width - SITE_ROOM):
            i = y * width + x
            if board.terrain[i] != GRASS:
                continue
            left, right = x - SITE_ROOM, x + SITE_ROOM + 1
            count = bottom[right] - bottom[left] - top[right] + top[left]
            out[i] = count * 10 >= side * side * 8 and not any(board.water[n] for n in board.around(i))
    return out
