"""Print games/empires/scenarios/europe.toml, the default map: Europe around 1100 in spirit.

Run from the repository: `.venv/bin/python games/empires/tools/make_europe.py >
games/empires/scenarios/europe.toml`. The output is committed; this script only has to be run
again when the data below changes. It writes to standard output only, so that, like every module
of a ruleset, it opens no file. Borders are a
Gabriel graph of the area centres (two areas border when no other centre lies in the circle
over the line between them), kept within each land mass, so seas separate islands.
"""

from __future__ import annotations

import colorsys
import math

from gm.core.model import JSONObject

WIDTH, HEIGHT = 900, 980
LON, LAT = (-12.5, 36.0), (34.0, 66.5)
SPACING = 40  # centres closer than this are pushed apart, so map circles stay readable

# Countries in seating order: the first twelve are spread over the map, so a 12-seat game has
# a country in every corner. Each: code, name, [(area code, name, terrain, lon, lat, population,
# land mass)], the first area being the capital. Land mass "EU" is the mainland.
# (code, name, terrain, lon, lat, population[, land mass])
Area = tuple[str, str, str, float, float, int] | tuple[str, str, str, float, float, int, str]
COUNTRIES: list[tuple[str, str, list[Area]]] = [
    (
        "EN",
        "England",
        [
            ("LON", "London", "towns", -0.1, 51.5, 5, "GB"),
            ("KNT", "Kent", "plains", 1.0, 51.1, 3, "GB"),
            ("WSX", "Wessex", "plains", -2.2, 51.0, 3, "GB"),
            ("MRC", "Mercia", "lowlands", -1.8, 52.6, 3, "GB"),
            ("EAN", "East Anglia", "wetlands", 1.0, 52.6, 2, "GB"),
            ("NUM", "Northumbria", "uplands", -1.7, 54.8, 2, "GB"),
            ("GWY", "Gwynedd", "mountains", -3.9, 52.8, 1, "GB"),
        ],
    ),
    (
        "CA",
        "Castile",
        [
            ("TOL", "Toledo", "towns", -4.0, 39.9, 4),
            ("BUR", "Burgos", "uplands", -3.7, 42.3, 3),
            ("LEN", "Leon", "uplands", -5.6, 42.2, 3),
            ("SEG", "Segovia", "mountains", -4.1, 41.0, 2),
            ("MAN", "La Mancha", "plains", -2.8, 39.0, 2),
            ("AST", "Asturias", "mountains", -6.0, 43.3, 1),
        ],
    ),
    (
        "FR",
        "France",
        [
            ("PAR", "Paris", "towns", 2.35, 48.85, 5),
            ("ORL", "Orleanais", "plains", 1.7, 47.9, 3),
            ("CHA", "Champagne", "plains", 4.1, 49.0, 3),
            ("PIC", "Picardy", "lowlands", 2.3, 50.0, 3),
            ("BER", "Berry", "plains", 2.4, 46.9, 2),
            ("ROU", "Rouen", "towns", 0.9, 49.5, 4),
            ("CAE", "Caen", "plains", -0.5, 49.1, 2),
        ],
    ),
    (
        "SA",
        "Saxony",
        [
            ("MAG", "Magdeburg", "towns", 11.6, 52.1, 4),
            ("MEI", "Meissen", "uplands", 13.6, 51.1, 2),
            ("THU", "Thuringia", "forests", 11.0, 50.9, 2),
            ("BRN", "Brunswick", "lowlands", 10.3, 52.4, 3),
            ("HAM", "Hamburg", "lowlands", 10.0, 53.6, 3),
            ("WES", "Westphalia", "uplands", 7.8, 51.9, 2),
        ],
    ),
    (
        "PO",
        "Poland",
        [
            ("KRA", "Krakow", "towns", 19.9, 50.1, 4),
            ("GPO", "Greater Poland", "plains", 16.9, 52.4, 3),
            ("MAS", "Masovia", "forests", 21.0, 52.3, 2),
            ("POM", "Pomerania", "lowlands", 15.5, 53.9, 2),
            ("SAN", "Sandomierz", "uplands", 21.8, 50.7, 2),
        ],
    ),
    (
        "HU",
        "Hungary",
        [
            ("ESZ", "Esztergom", "towns", 18.7, 47.8, 4),
            ("TRD", "Transdanubia", "plains", 17.4, 46.8, 3),
            ("ALF", "Great Plain", "plains", 20.3, 46.8, 3),
            ("TRN", "Transylvania", "mountains", 24.0, 46.6, 2),
            ("SLV", "Slavonia", "lowlands", 18.0, 45.4, 2),
            ("UPH", "Upper Hungary", "mountains", 20.6, 48.8, 2),
        ],
    ),
    (
        "KI",
        "Kiev",
        [
            ("KIE", "Kiev", "towns", 30.5, 50.4, 5),
            ("CHN", "Chernigov", "forests", 31.3, 51.6, 3),
            ("PRY", "Pereyaslavl", "plains", 33.0, 49.7, 2),
            ("VOL", "Volhynia", "wetlands", 25.3, 50.8, 2),
            ("HLY", "Halych", "uplands", 24.7, 49.0, 2),
            ("SMO", "Smolensk", "forests", 32.0, 54.8, 2),
        ],
    ),
    (
        "BY",
        "Byzantium",
        [
            ("CST", "Constantinople", "towns", 29.0, 41.0, 5),
            ("THR", "Thrace", "plains", 26.5, 41.7, 3),
            ("MAC", "Macedonia", "uplands", 22.9, 40.7, 3),
            ("THS", "Thessaly", "plains", 22.4, 39.5, 2),
            ("ATH", "Athens", "towns", 23.7, 38.0, 3),
            ("PEL", "Morea", "mountains", 22.2, 37.2, 2),
            ("EPI", "Epirus", "mountains", 20.7, 39.7, 1),
            ("CRE", "Crete", "islands", 24.9, 35.3, 2, "CR"),
        ],
    ),
    (
        "VE",
        "Venice",
        [
            ("VEN", "Venice", "towns", 12.3, 45.4, 5),
            ("VER", "Verona", "plains", 11.0, 45.4, 3),
            ("FRU", "Friuli", "uplands", 13.2, 46.2, 2),
            ("IST", "Istria", "uplands", 14.0, 45.2, 1),
            ("DAL", "Dalmatia", "mountains", 16.4, 43.6, 2),
        ],
    ),
    (
        "SW",
        "Sweden",
        [
            ("UPP", "Uppsala", "towns", 17.6, 59.9, 3, "SC"),
            ("GOT", "Gotaland", "plains", 13.8, 58.1, 3, "SC"),
            ("VAR", "Varmland", "forests", 13.3, 59.9, 1, "SC"),
            ("NRL", "Norrland", "tundra", 17.0, 63.2, 1, "SC"),
            ("SMA", "Smaland", "forests", 15.2, 57.0, 2, "SC"),
            ("GTL", "Gotland", "islands", 18.6, 57.5, 1, "GT"),
        ],
    ),
    (
        "PA",
        "Papal States",
        [
            ("ROM", "Rome", "towns", 12.5, 41.9, 4),
            ("TUS", "Tuscany", "uplands", 11.2, 43.6, 3),
            ("SPO", "Spoleto", "mountains", 12.8, 42.8, 2),
            ("ROG", "Romagna", "plains", 11.9, 44.4, 3),
            ("ANC", "Ancona", "uplands", 13.7, 43.4, 2),
            ("COS", "Corsica", "islands", 9.1, 42.2, 1, "CO"),
            ("SAR", "Sardinia", "islands", 9.0, 40.0, 2, "SD"),
        ],
    ),
    (
        "AR",
        "Aragon",
        [
            ("ZAR", "Zaragoza", "towns", -0.9, 41.6, 4),
            ("BAR", "Barcelona", "towns", 2.2, 41.5, 4),
            ("VAL", "Valencia", "plains", -0.4, 39.5, 3),
            ("NAV", "Navarre", "mountains", -1.7, 42.8, 2),
            ("HUE", "Huesca", "mountains", 0.3, 42.3, 1),
        ],
    ),
    (
        "DK",
        "Denmark",
        [
            ("ROS", "Roskilde", "towns", 12.1, 55.6, 3, "ZE"),
            ("JUT", "Jutland", "lowlands", 9.2, 56.2, 2),
            ("SLE", "Schleswig", "lowlands", 9.6, 54.8, 2),
            ("SCA", "Scania", "plains", 13.6, 55.8, 2, "SC"),
            ("FUN", "Funen", "islands", 10.3, 55.3, 1, "FU"),
        ],
    ),
    (
        "NV",
        "Novgorod",
        [
            ("NOV", "Novgorod", "towns", 31.3, 58.5, 4),
            ("PSK", "Pskov", "forests", 28.3, 57.8, 2),
            ("LAD", "Ladoga", "forests", 32.3, 60.6, 1),
            ("KAR", "Karelia", "tundra", 31.0, 63.0, 1),
            ("EST", "Estonia", "lowlands", 25.6, 58.7, 2),
            ("TAV", "Tavastia", "forests", 24.5, 61.6, 1),
        ],
    ),
    (
        "IR",
        "Ireland",
        [
            ("DUB", "Dublin", "towns", -6.3, 53.3, 4, "IE"),
            ("MTH", "Meath", "plains", -7.4, 53.7, 2, "IE"),
            ("MUN", "Munster", "lowlands", -8.6, 52.2, 3, "IE"),
            ("CON", "Connacht", "wetlands", -9.1, 53.7, 2, "IE"),
            ("ULS", "Ulster", "uplands", -6.9, 54.8, 2, "IE"),
        ],
    ),
    (
        "SC",
        "Scotland",
        [
            ("LTH", "Lothian", "towns", -3.2, 55.9, 3, "GB"),
            ("STC", "Strathclyde", "lowlands", -4.8, 55.7, 2, "GB"),
            ("HIG", "Highlands", "mountains", -5.0, 57.2, 1, "GB"),
            ("MOR", "Moray", "uplands", -3.0, 57.5, 2, "GB"),
            ("GAL", "Galloway", "uplands", -4.3, 55.0, 1, "GB"),
        ],
    ),
    (
        "PT",
        "Portugal",
        [
            ("COI", "Coimbra", "towns", -8.4, 40.2, 3),
            ("OPO", "Porto", "lowlands", -8.4, 41.2, 3),
            ("LIS", "Lisbon", "towns", -9.1, 38.8, 4),
            ("ALG", "Algarve", "plains", -8.0, 37.2, 2),
            ("GLC", "Galicia", "uplands", -8.1, 42.8, 2),
        ],
    ),
    (
        "CO",
        "Cordoba",
        [
            ("COR", "Cordoba", "towns", -4.8, 37.9, 5),
            ("SEV", "Seville", "lowlands", -6.0, 37.3, 4),
            ("GRA", "Granada", "mountains", -3.6, 37.1, 3),
            ("MUR", "Murcia", "deserts", -1.2, 38.0, 2),
            ("BAD", "Badajoz", "plains", -6.9, 38.9, 2),
            ("BAL", "Balearics", "islands", 2.9, 39.6, 1, "BA"),
        ],
    ),
    (
        "AQ",
        "Aquitaine",
        [
            ("BOR", "Bordeaux", "towns", -0.6, 44.8, 4),
            ("POI", "Poitou", "plains", 0.3, 46.6, 3),
            ("GAS", "Gascony", "forests", -0.5, 43.7, 2),
            ("LIM", "Limousin", "uplands", 1.3, 45.8, 2),
            ("TLS", "Toulouse", "towns", 1.5, 43.6, 4),
            ("LAN", "Languedoc", "plains", 3.6, 43.6, 3),
        ],
    ),
    (
        "BU",
        "Burgundy",
        [
            ("DIJ", "Dijon", "towns", 5.0, 47.3, 4),
            ("LYO", "Lyonnais", "lowlands", 4.8, 45.8, 3),
            ("FCO", "Franche-Comte", "forests", 6.1, 47.1, 2),
            ("SAV", "Savoy", "mountains", 6.6, 45.5, 1),
            ("NEV", "Nevers", "forests", 3.4, 47.1, 2),
            ("PRV", "Provence", "uplands", 6.0, 43.7, 3),
            ("AUV", "Auvergne", "mountains", 3.0, 45.3, 1),
        ],
    ),
    (
        "FL",
        "Flanders",
        [
            ("BRU", "Bruges", "towns", 3.2, 51.2, 4),
            ("BRB", "Brabant", "lowlands", 4.6, 50.8, 3),
            ("HAI", "Hainaut", "lowlands", 3.9, 50.3, 2),
            ("HOL", "Holland", "wetlands", 4.7, 52.2, 2),
            ("FRS", "Frisia", "wetlands", 6.2, 53.1, 1),
        ],
    ),
    (
        "LT",
        "Lotharingia",
        [
            ("COL", "Cologne", "towns", 6.95, 50.9, 4),
            ("TRI", "Trier", "uplands", 6.6, 49.8, 2),
            ("MNZ", "Mainz", "plains", 8.3, 50.0, 3),
            ("LOR", "Lorraine", "uplands", 6.2, 48.7, 2),
        ],
    ),
    (
        "BA",
        "Bavaria",
        [
            ("REG", "Regensburg", "towns", 12.1, 49.0, 4),
            ("UBV", "Upper Bavaria", "plains", 11.6, 48.0, 3),
            ("SWA", "Swabia", "uplands", 9.7, 48.4, 3),
            ("FRN", "Franconia", "forests", 10.0, 49.8, 2),
            ("TYR", "Tyrol", "mountains", 11.4, 47.1, 1),
        ],
    ),
    (
        "AU",
        "Austria",
        [
            ("VIE", "Vienna", "towns", 16.4, 48.2, 4),
            ("STY", "Styria", "mountains", 15.4, 47.1, 2),
            ("CRT", "Carinthia", "mountains", 14.0, 46.6, 1),
            ("UAU", "Upper Austria", "uplands", 14.2, 48.2, 2),
        ],
    ),
    (
        "BO",
        "Bohemia",
        [
            ("PRG", "Prague", "towns", 14.4, 50.1, 4),
            ("MRV", "Moravia", "uplands", 16.9, 49.4, 3),
            ("SIL", "Silesia", "plains", 17.4, 51.1, 3),
            ("EGR", "Egerland", "forests", 12.5, 50.1, 1),
        ],
    ),
    (
        "NW",
        "Norway",
        [
            ("NID", "Nidaros", "towns", 10.4, 63.4, 2, "SC"),
            ("BGN", "Bergen", "uplands", 5.6, 60.4, 2, "SC"),
            ("VIK", "Viken", "forests", 10.6, 59.6, 2, "SC"),
            ("HAL", "Halogaland", "tundra", 13.5, 65.6, 1, "SC"),
            ("TEL", "Telemark", "mountains", 8.0, 59.4, 1, "SC"),
        ],
    ),
    (
        "LO",
        "Lombardy",
        [
            ("MIL", "Milan", "towns", 9.2, 45.5, 5),
            ("CRM", "Cremona", "plains", 10.1, 45.1, 3),
            ("GEN", "Genoa", "towns", 8.9, 44.4, 3),
            ("PIE", "Piedmont", "uplands", 7.6, 45.0, 2),
            ("COM", "Como", "mountains", 9.2, 46.4, 1),
        ],
    ),
    (
        "SI",
        "Sicily",
        [
            ("PAL", "Palermo", "towns", 13.4, 38.1, 4, "SI"),
            ("SYR", "Syracuse", "islands", 15.0, 37.3, 2, "SI"),
            ("NAP", "Naples", "towns", 14.3, 40.9, 4),
            ("APU", "Apulia", "plains", 16.6, 41.0, 3),
            ("CAL", "Calabria", "mountains", 16.3, 39.1, 2),
        ],
    ),
    (
        "BG",
        "Bulgaria",
        [
            ("TAR", "Tarnovo", "towns", 25.6, 43.1, 3),
            ("MOE", "Moesia", "plains", 23.9, 43.7, 2),
            ("DOB", "Dobruja", "lowlands", 28.2, 44.2, 1),
            ("SOF", "Sofia", "uplands", 23.3, 42.6, 2),
            ("WAL", "Wallachia", "plains", 25.6, 44.6, 2),
        ],
    ),
    (
        "LI",
        "Lithuania",
        [
            ("VIL", "Vilnius", "towns", 25.3, 54.7, 3),
            ("SAM", "Samogitia", "forests", 22.6, 55.6, 1),
            ("PRU", "Prussia", "forests", 20.5, 54.1, 2),
            ("BLR", "Black Ruthenia", "wetlands", 26.2, 53.4, 1),
            ("POT", "Polotsk", "forests", 28.8, 55.6, 1),
            ("LIV", "Livonia", "forests", 25.0, 57.1, 1),
        ],
    ),
    (
        "CU",
        "Cumania",
        [
            ("CUM", "Cumania", "plains", 30.0, 47.0, 2),
            ("CRI", "Crimea", "uplands", 34.1, 45.1, 2),
            ("POD", "Podolia", "plains", 27.5, 48.6, 2),
            ("MLD", "Moldavia", "uplands", 27.4, 47.2, 2),
            ("DON", "Don Steppe", "plains", 35.0, 48.0, 1),
        ],
    ),
    (
        "BT",
        "Brittany",
        [
            ("REN", "Rennes", "towns", -1.7, 48.1, 3),
            ("NAN", "Nantes", "lowlands", -1.5, 47.2, 3),
            ("LEO", "Leon", "uplands", -4.2, 48.4, 1),
            ("VAN", "Vannes", "forests", -2.8, 47.7, 2),
            ("MAI", "Maine", "forests", 0.2, 48.0, 2),
            ("COT", "Cotentin", "lowlands", -1.4, 49.4, 1),
        ],
    ),
]
# Land nobody rules at the start: it defends with its own armies but never acts.
NEUTRAL = [
    ("RAS", "Ras", "towns", 20.5, 43.2, 3, 3),
    ("BOS", "Bosnia", "mountains", 18.0, 44.1, 2, 2),
    ("ZET", "Zeta", "mountains", 19.2, 42.4, 1, 2),
    ("MOV", "Morava", "uplands", 21.3, 44.3, 2, 2),
    ("ICE", "Iceland", "islands", -11.0, 65.0, 1, 1),
    ("CYP", "Cyprus", "islands", 33.0, 35.2, 2, 2),
    ("VOG", "Vologda", "forests", 35.0, 59.5, 1, 1),
    ("RYA", "Ryazan", "forests", 35.5, 54.5, 2, 2),
    ("ANA", "Anatolia", "uplands", 32.0, 39.8, 3, 3),
    ("FIN", "Finland Proper", "forests", 22.3, 60.5, 1, 1),
]
LAND_MASS = {"ICE": "IC", "CYP": "CY", "FIN": "EU"}
SEAS = [
    ("CEL", "Celtic Sea", -7.5, 50.2),
    ("IRS", "Irish Sea", -4.8, 53.9),
    ("ECH", "English Channel", -2.0, 50.2),
    ("NSE", "North Sea", 3.0, 55.0),
    ("NNS", "Northern North Sea", 1.5, 58.8),
    ("NWS", "Norwegian Sea", 4.5, 63.5),
    ("SKA", "Skagerrak", 9.3, 57.9),
    ("BAS", "Baltic Sea", 16.5, 55.4),
    ("BOT", "Gulf of Bothnia", 20.5, 62.0),
    ("GOF", "Gulf of Finland", 26.5, 59.7),
    ("BIS", "Bay of Biscay", -4.5, 45.5),
    ("ATL", "Atlantic Ocean", -11.5, 43.0),
    ("ALS", "Alboran Sea", -3.0, 36.2),
    ("WME", "Balearic Sea", 4.8, 40.5),
    ("GLI", "Gulf of Lion", 5.0, 42.6),
    ("TYS", "Tyrrhenian Sea", 12.0, 39.8),
    ("ADR", "Adriatic Sea", 15.5, 42.8),
    ("ION", "Ionian Sea", 18.7, 37.8),
    ("AEG", "Aegean Sea", 25.5, 38.6),
    ("LEV", "Levantine Sea", 29.0, 35.0),
    ("BLK", "Black Sea", 32.5, 43.5),
    ("RBA", "Gulf of Riga", 21.3, 57.4),
    ("BAE", "Eastern Baltic", 19.0, 55.6),
    ("NWA", "Western Approaches", -9.0, 56.5),
    ("AZO", "Sea of Azov", 36.0, 46.3),
    ("DST", "Danish Straits", 11.2, 55.2),
    ("ISE", "Iceland Sea", -8.0, 62.5),
]


def project(lon: float, lat: float) -> tuple[float, float]:
    x = (lon - LON[0]) / (LON[1] - LON[0]) * (WIDTH - 40) + 20
    y = (LAT[1] - lat) / (LAT[1] - LAT[0]) * (HEIGHT - 40) + 20
    return x, y


def spread(points: dict[str, list[float]]) -> None:
    # A few rounds of pushing close pairs apart, inside the map.
    codes = sorted(points)
    for _ in range(60):
        moved = False
        for i, a in enumerate(codes):
            for b in codes[i + 1 :]:
                (ax, ay), (bx, by) = points[a], points[b]
                d = math.dist((ax, ay), (bx, by)) or 0.1
                if d < SPACING:
                    push = (SPACING - d) / 2 + 0.5
                    ux, uy = (bx - ax) / d, (by - ay) / d
                    points[a] = [ax - ux * push, ay - uy * push]
                    points[b] = [bx + ux * push, by + uy * push]
                    moved = True
        for code in codes:
            x, y = points[code]
            points[code] = [min(max(x, 20), WIDTH - 20), min(max(y, 20), HEIGHT - 20)]
        if not moved:
            return


def borders(points: dict[str, list[float]], mass: dict[str, str]) -> dict[str, set[str]]:
    """Gabriel-graph borders; land borders land only within its land mass."""
    codes = sorted(points)
    links: dict[str, set[str]] = {c: set() for c in codes}
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            if mass[a] != "SEA" and mass[b] != "SEA" and mass[a] != mass[b]:
                continue
            (ax, ay), (bx, by) = points[a], points[b]
            limit = 150 if "SEA" not in (mass[a], mass[b]) else 190
            if math.dist((ax, ay), (bx, by)) > limit:
                continue
            mx, my, r2 = (ax + bx) / 2, (ay + by) / 2, ((ax - bx) ** 2 + (ay - by) ** 2) / 4
            if any((points[c][0] - mx) ** 2 + (points[c][1] - my) ** 2 < r2 for c in codes if c not in (a, b)):
                continue
            links[a].add(b)
            links[b].add(a)
    return links


def colours(n: int) -> list[str]:
    out = []
    for i in range(n):
        hue = (i * 0.618034) % 1
        sat, val = (0.55, 0.92) if i % 3 == 0 else (0.75, 0.78) if i % 3 == 1 else (0.45, 0.65)
        r, g, b = colorsys.hsv_to_rgb(hue, sat, val)
        out.append(f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}")
    return out


def main() -> None:
    rows: dict[str, JSONObject] = {}
    for code, _, areas in COUNTRIES:
        for area in areas:
            rows[area[0]] = {
                "name": area[1],
                "terrain": area[2],
                "lonlat": area[3:5],
                "population": area[5],
                "mass": area[6] if len(area) > 6 else "EU",
                "owner": code,
            }
    for code, name, terrain, lon, lat, pop, armies in NEUTRAL:
        rows[code] = {
            "name": name,
            "terrain": terrain,
            "lonlat": (lon, lat),
            "population": pop,
            "mass": LAND_MASS.get(code, "EU"),
            "owner": None,
            "armies": armies,
        }
    for code, name, lon, lat in SEAS:
        rows[code] = {"name": name, "terrain": "seas", "lonlat": (lon, lat), "mass": "SEA"}
    assert len(rows) == sum(len(c[2]) for c in COUNTRIES) + len(NEUTRAL) + len(SEAS), "a code is used twice"
    points = {code: list(project(*row["lonlat"])) for code, row in rows.items()}
    spread(points)
    links = borders(points, {c: r["mass"] for c, r in rows.items()})
    for code in [
        c
        for c, r in rows.items()
        if r["mass"] != "SEA" and not any(rows[n]["mass"] == "SEA" or rows[n]["mass"] == r["mass"] for n in links[c])
    ]:
        sea = min((c for c, r in rows.items() if r["mass"] == "SEA"), key=lambda c: math.dist(points[c], points[code]))
        links[code].add(sea)
        links[sea].add(code)
    lonely = [c for c, r in rows.items() if not links[c]]
    assert not lonely, f"areas without neighbours: {lonely}"
    capitals = {code: areas[0][0] for code, _, areas in COUNTRIES}
    lines = [
        "# Generated by games/empires/tools/make_europe.py; edit the script, not this file.",
        'name = "europe"',
        'title = "Empires: Europe 1100"',
        "min_seats = 2",
        f"max_seats = {len(COUNTRIES)}",
        f"width = {WIDTH}",
        f"height = {HEIGHT}",
        "",
    ]
    for (code, name, _), colour in zip(COUNTRIES, colours(len(COUNTRIES)), strict=True):
        lines += [
            "[[country]]",
            f'code = "{code}"',
            f'name = "{name}"',
            f'colour = "{colour}"',
            f'capital = "{capitals[code]}"',
            "",
        ]
    for code, row in rows.items():
        x, y = points[code]
        lines += [
            "[[area]]",
            f'code = "{code}"',
            f'name = "{row["name"]}"',
            f'terrain = "{row["terrain"]}"',
            f"x = {round(x)}",
            f"y = {round(y)}",
            "neighbours = [" + ", ".join(f'"{n}"' for n in sorted(links[code])) + "]",
        ]
        if row["terrain"] != "seas":
            capital = row["owner"] is not None and capitals[row["owner"]] == code
            armies = row.get("armies", 4 if capital else max(1, row["population"] // 2 + 1))
            if row["owner"]:
                lines.append(f'owner = "{row["owner"]}"')
            lines += [f"population = {row['population']}", f"armies = {armies}"]
            if capital:
                lines.append("fort = 1")
        lines.append("")
    print("\n".join(lines), end="")


if __name__ == "__main__":
    main()
