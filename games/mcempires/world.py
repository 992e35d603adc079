"""The world as a grid of blocks (rule D-MC-8): terrain letters, x,y addresses and what each
block allows; one Board per distinct terrain, built once and shared."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from gm.core.model import JSONObject

# One character per block in a terrain row. Water is ocean, lake or oasis ("a city adjacent to
# any body of water (lake, oasis, or ocean)"); everything else is land.
GRASS, ROCK, SAND, SNOW, OCEAN, LAKE, OASIS = ".", "^", ":", "*", "~", "=", "o"
TERRAIN_NAMES = {GRASS: "grass", ROCK: "rock", SAND: "sand", SNOW: "snow", OCEAN: "ocean", LAKE: "lake", OASIS: "oasis"}
WATER = OCEAN + LAKE + OASIS
# "Grass/Plains ... 10", "Rock/Mountain ... 8", "Sand/Beach/Desert ... 8", "Snow ... 6".
LAND_LIMITS = {GRASS: 10, ROCK: 8, SAND: 8, SNOW: 6}
FULL_SPEED = 12  # own territory, the Transport bonus, water with the Naval bonus (rule D-MC-3)
FREE = "."  # a block of territory nobody owns

SIDES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def block(x: int, y: int) -> str:
    """A block's address as players write it (rule D-MC-8: 0,0 is the top left)."""
    return f"{x},{y}"


@dataclass(frozen=True)
class Board:
    """What never changes in a world, indexed by block number i = y * width + x.

    width, height: the grid size in blocks.
    terrain: every row joined into one string (terrain[i] is block i's letter).
    water: block i is water.
    limit: block i's own movement limit for troops without a bonus (0 on water).
    neighbours: the blocks side by side with block i (non-diagonal, rule D-MC-8).
    landmass: a number per land block, the same for land joined side by side (-1 on water).
    coastal: block i is land with water beside it.
    """

    width: int
    height: int
    terrain: str
    water: tuple[bool, ...]
    limit: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    landmass: tuple[int, ...]
    coastal: tuple[bool, ...]

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.width, i // self.width

    def on_map(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def name(self, i: int) -> str:
        return block(*self.xy(i))

    def terrain_name(self, i: int) -> str:
        return TERRAIN_NAMES[self.terrain[i]]

    def distance(self, a: int, b: int) -> int:
        """Blocks between two blocks counted in non-diagonal steps (Manhattan distance)."""
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        return abs(ax - bx) + abs(ay - by)

    def around(self, i: int) -> list[int]:
        """Block i and the blocks in a one-block radius (the 3x3 square) that are on the map."""
        x, y = self.xy(i)
        return [self.index(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if self.on_map(x + dx, y + dy)]

    def side(self, i: int, direction: str) -> int | None:
        dx, dy = SIDES[direction]
        x, y = self.xy(i)
        return self.index(x + dx, y + dy) if self.on_map(x + dx, y + dy) else None


def board_of(state: JSONObject) -> Board:
    world = state["world"]
    return make_board(tuple(world["terrain"]))


@lru_cache(maxsize=16)
def make_board(rows: tuple[str, ...]) -> Board:
    """The Board of a terrain. Cached: a world never changes during a game, and a cached
    value is a pure function of the rows, so replays stay identical."""
    height, width = len(rows), len(rows[0])
    terrain = "".join(rows)
    water = tuple(c in WATER for c in terrain)
    limit = tuple(LAND_LIMITS.get(c, 0) for c in terrain)
    neighbours = tuple(_neighbours(i, width, height) for i in range(width * height))
    coastal = tuple(not water[i] and any(water[n] for n in neighbours[i]) for i in range(width * height))
    return Board(width, height, terrain, water, limit, neighbours, _landmasses(water, neighbours), coastal)


def _neighbours(i: int, width: int, height: int) -> tuple[int, ...]:
    x, y = i % width, i // width
    found = []
    if y > 0:
        found.append(i - width)
    if x < width - 1:
        found.append(i + 1)
    if y < height - 1:
        found.append(i + width)
    if x > 0:
        found.append(i - 1)
    return tuple(found)


def _landmasses(water: tuple[bool, ...], neighbours: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    label = [-1] * len(water)
    count = 0
    for start in range(len(water)):
        if water[start] or label[start] >= 0:
            continue
        label[start] = count
        queue = deque([start])
        while queue:
            for n in neighbours[queue.popleft()]:
                if not water[n] and label[n] < 0:
                    label[n] = count
                    queue.append(n)
        count += 1
    return tuple(label)
