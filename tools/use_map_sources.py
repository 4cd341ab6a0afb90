"""Authored geographic inputs of the USE France 1940 map (data only; see author_map_use.py).

Everything here is *authored* (source = "authored"): the seed rulebook has no map, so
these layers approximate the real geography at USE scale (a hex is 35 miles) from
well-known coordinates, and the players who own the boxed game can replace them.
Coordinates are (lon, lat) in degrees except CITIES, which list lat then lon like a gazetteer.
"""

from __future__ import annotations

Poly = list[tuple[float, float]]

# Natural Earth ADM0_A3 -> game country (1940 borders; USE 16.0 codes).
# Austria and Bohemia were German in 1940; Luxembourg has no USE country and is
# folded into Belgium (invaded together, 10 May 1940); micro-states join their neighbour.
COUNTRY_OF: dict[str, str] = {
    "FRA": "FRA", "MCO": "FRA", "DEU": "GER", "AUT": "GER", "CZE": "GER",
    "BEL": "BEL", "LUX": "BEL", "NLD": "NET", "GBR": "UK", "JEY": "UK", "GGY": "UK",
    "IMN": "UK", "CHE": "SWI", "LIE": "SWI", "ITA": "ITA", "SMR": "ITA", "VAT": "ITA",
    "ESP": "SPA", "AND": "SPA", "IRL": "IRE", "DNK": "DEN", "PRT": "POR", "SVN": "ITA",
}

# (name, country, flags, lat, lon); flags as written into features.txt.  A box id in
# place of flags' first word and no coordinates = a city inside that map box.
CITIES: list[tuple[str, str, str, float | None, float | None]] = [
    ("Paris", "FRA", "capital factories=2", 48.857, 2.352),
    ("Lille", "FRA", "factories=1", 50.63, 3.06),
    ("Rouen", "FRA", "factories=1", 49.44, 1.10),
    ("Le Havre", "FRA", "port", 49.49, 0.11),
    ("Cherbourg", "FRA", "port", 49.64, -1.62),
    ("Brest", "FRA", "port", 48.39, -4.49),
    ("Lorient", "FRA", "port", 47.75, -3.37),
    ("Saint-Nazaire", "FRA", "port", 47.27, -2.21),
    ("Nantes", "FRA", "", 47.22, -1.55),
    ("La Rochelle", "FRA", "port", 46.16, -1.15),
    ("Bordeaux", "FRA", "port", 44.84, -0.58),
    ("Bayonne", "FRA", "", 43.49, -1.47),
    ("Toulouse", "FRA", "", 43.60, 1.44),
    ("Montpellier", "FRA", "", 43.61, 3.88),
    ("Perpignan", "FRA", "", 42.70, 2.90),
    ("Marseille", "FRA", "port factories=1", 43.30, 5.37),
    ("Toulon", "FRA", "port", 43.12, 5.93),
    ("Nice", "FRA", "port", 43.70, 7.27),
    ("Lyon", "FRA", "factories=1", 45.76, 4.84),
    ("Saint-Etienne", "FRA", "factories=1", 45.43, 4.39),
    ("Grenoble", "FRA", "", 45.19, 5.72),
    ("Vichy", "FRA", "", 46.13, 3.43),
    ("Clermont-Ferrand", "FRA", "", 45.78, 3.08),
    ("Limoges", "FRA", "", 45.83, 1.26),
    ("Poitiers", "FRA", "", 46.58, 0.34),
    ("Tours", "FRA", "", 47.39, 0.69),
    ("Orleans", "FRA", "", 47.90, 1.90),
    ("Le Mans", "FRA", "", 48.00, 0.20),
    ("Rennes", "FRA", "", 48.11, -1.68),
    ("Caen", "FRA", "", 49.18, -0.37),
    ("Amiens", "FRA", "", 49.89, 2.30),
    ("Dunkirk", "FRA", "port", 51.03, 2.38),
    ("Calais", "FRA", "port", 50.95, 1.86),
    ("Boulogne", "FRA", "port", 50.73, 1.61),
    ("Reims", "FRA", "", 49.26, 4.03),
    ("Sedan", "FRA", "", 49.70, 4.94),
    ("Verdun", "FRA", "", 49.16, 5.38),
    ("Metz", "FRA", "", 49.12, 6.18),
    ("Nancy", "FRA", "factories=1", 48.69, 6.18),
    ("Strasbourg", "FRA", "", 48.58, 7.75),
    ("Mulhouse", "FRA", "", 47.75, 7.34),
    ("Belfort", "FRA", "", 47.64, 6.86),
    ("Dijon", "FRA", "", 47.32, 5.04),
    ("Troyes", "FRA", "", 48.30, 4.08),
    ("London", "UK", "capital port factories=2", 51.507, -0.128),
    ("Dover", "UK", "port", 51.13, 1.31),
    ("Portsmouth", "UK", "port", 50.80, -1.09),
    ("Plymouth", "UK", "port", 50.37, -4.14),
    ("Exeter", "UK", "", 50.72, -3.53),
    ("Bristol", "UK", "factories=1", 51.45, -2.59),
    ("Cardiff", "UK", "port", 51.48, -3.18),
    ("Birmingham", "UK", "factories=2", 52.49, -1.89),
    ("Manchester", "UK", "factories=1", 53.48, -2.24),
    ("Liverpool", "UK", "port factories=1", 53.41, -2.98),
    ("Sheffield", "UK", "factories=1", 53.38, -1.47),
    ("Leeds", "UK", "", 53.80, -1.55),
    ("Hull", "UK", "port", 53.74, -0.33),
    ("Harwich", "UK", "port", 51.94, 1.28),
    ("Norwich", "UK", "", 52.63, 1.30),
    ("Oxford", "UK", "", 51.75, -1.26),
    ("Brussels", "BEL", "capital", 50.85, 4.35),
    ("Antwerp", "BEL", "port", 51.22, 4.40),
    ("Ghent", "BEL", "", 51.05, 3.72),
    ("Ostend", "BEL", "port", 51.23, 2.92),
    ("Liege", "BEL", "factories=1", 50.63, 5.57),
    ("Namur", "BEL", "", 50.47, 4.87),
    ("Charleroi", "BEL", "", 50.41, 4.44),
    ("Luxembourg", "BEL", "", 49.61, 6.13),
    ("Amsterdam", "NET", "capital port", 52.37, 4.90),
    ("The Hague", "NET", "", 52.08, 4.30),
    ("Rotterdam", "NET", "port factories=1", 51.92, 4.48),
    ("Utrecht", "NET", "", 52.09, 5.12),
    ("Arnhem", "NET", "", 51.98, 5.91),
    ("Eindhoven", "NET", "", 51.44, 5.48),
    ("Maastricht", "NET", "", 50.85, 5.69),
    ("Groningen", "NET", "", 53.22, 6.57),
    ("Den Helder", "NET", "port", 52.96, 4.76),
    ("Vlissingen", "NET", "port", 51.44, 3.57),
    ("Berlin", "GER", "REICH capital factories=2", None, None),
    ("Essen", "GER", "factories=3", 51.46, 7.01),
    ("Dortmund", "GER", "factories=1", 51.51, 7.47),
    ("Dusseldorf", "GER", "", 51.23, 6.78),
    ("Cologne", "GER", "factories=1", 50.94, 6.96),
    ("Aachen", "GER", "", 50.78, 6.08),
    ("Koblenz", "GER", "", 50.36, 7.59),
    ("Trier", "GER", "", 49.75, 6.64),
    ("Saarbrucken", "GER", "", 49.23, 7.00),
    ("Kaiserslautern", "GER", "", 49.44, 7.77),
    ("Mannheim", "GER", "factories=1", 49.49, 8.47),
    ("Frankfurt", "GER", "factories=1", 50.11, 8.68),
    ("Mainz", "GER", "", 50.00, 8.27),
    ("Karlsruhe", "GER", "", 49.01, 8.40),
    ("Stuttgart", "GER", "factories=1", 48.78, 9.18),
    ("Freiburg", "GER", "", 47.99, 7.84),
    ("Munich", "GER", "factories=1", 48.14, 11.58),
    ("Augsburg", "GER", "", 48.37, 10.90),
    ("Nuremberg", "GER", "", 49.45, 11.08),
    ("Wurzburg", "GER", "", 49.79, 9.95),
    ("Kassel", "GER", "", 51.31, 9.50),
    ("Hanover", "GER", "factories=1", 52.37, 9.74),
    ("Hamburg", "GER", "port factories=1", 53.55, 9.99),
    ("Bremen", "GER", "port", 53.08, 8.80),
    ("Wilhelmshaven", "GER", "port", 53.52, 8.13),
    ("Emden", "GER", "port", 53.37, 7.21),
    ("Munster", "GER", "", 51.96, 7.63),
    ("Osnabruck", "GER", "", 52.28, 8.05),
    ("Erfurt", "GER", "", 50.98, 11.03),
    ("Leipzig", "GER", "", 51.34, 12.37),
    ("Innsbruck", "GER", "", 47.26, 11.40),
    ("Turin", "ITA", "factories=1", 45.07, 7.69),
    ("Milan", "ITA", "factories=1", 45.46, 9.19),
    ("Genoa", "ITA", "port factories=1", 44.41, 8.93),
    ("Bilbao", "SPA", "port", 43.26, -2.93),
    ("San Sebastian", "SPA", "port", 43.32, -1.98),
]

# Points that are land whatever their land fraction (none needed beyond the cities).
LAND_FORCED: list[tuple[float, float]] = []

# (terrain, name, polygon); first match wins, so mountains come before rough.
TERRAIN_REGIONS: list[tuple[str, str, Poly]] = [
    ("mountain", "Western Alps", [(5.6, 46.4), (6.8, 46.4), (7.8, 45.9), (7.5, 45.4), (7.2, 44.9),
                                  (7.8, 44.1), (7.5, 43.8), (6.9, 43.9), (6.0, 44.2), (5.6, 44.8), (5.7, 45.6)]),
    ("mountain", "Italian Alps", [(7.8, 45.9), (8.7, 46.4), (10.5, 46.6), (12.5, 46.7), (12.7, 46.3),
                                  (11.2, 45.9), (9.9, 45.9), (8.6, 45.8), (7.9, 45.6)]),
    ("mountain", "Swiss Alps", [(6.8, 46.5), (7.7, 46.9), (9.5, 47.2), (10.5, 46.8), (10.3, 46.2),
                                (8.5, 45.9), (7.0, 45.9)]),
    ("mountain", "Bavarian and Tyrol Alps", [(9.7, 47.55), (10.5, 47.55), (12.9, 47.7), (13.2, 47.0),
                                             (12.1, 46.6), (10.4, 46.8), (9.5, 47.1)]),
    ("mountain", "Pyrenees", [(-1.8, 43.25), (0.0, 42.95), (1.5, 42.75), (3.2, 42.45), (3.2, 42.25),
                              (1.0, 42.2), (-1.0, 42.6), (-2.0, 42.9)]),
    ("rough", "Northern Spain", [(-6.5, 43.6), (-1.8, 43.4), (-1.0, 42.6), (1.0, 42.2), (3.5, 42.2),
                                 (3.5, 41.0), (-6.5, 41.0)]),
    ("rough", "Massif Central", [(1.7, 45.4), (2.4, 46.2), (3.7, 46.2), (4.5, 45.6), (4.6, 44.9),
                                 (4.0, 44.1), (3.2, 43.7), (2.3, 43.9), (1.7, 44.6)]),
    ("rough", "Jura", [(5.5, 46.3), (6.1, 46.2), (7.2, 47.4), (6.8, 47.5), (5.8, 47.0)]),
    ("rough", "Vosges", [(6.6, 47.8), (7.2, 47.75), (7.4, 48.4), (7.5, 48.9), (7.1, 49.0), (6.8, 48.5),
                         (6.6, 48.1)]),
    ("rough", "Ardennes", [(4.4, 49.7), (4.6, 50.3), (5.4, 50.45), (6.2, 50.4), (6.4, 50.0), (6.0, 49.7),
                           (5.4, 49.65), (4.8, 49.6)]),
    ("rough", "Eifel", [(6.2, 50.1), (6.2, 50.6), (7.0, 50.65), (7.3, 50.3), (7.0, 50.0)]),
    ("rough", "Hunsruck", [(6.7, 49.6), (6.8, 50.05), (7.6, 50.15), (7.9, 49.9), (7.3, 49.6)]),
    ("rough", "Palatinate Forest", [(7.6, 49.0), (8.1, 49.0), (8.1, 49.6), (7.6, 49.5)]),
    ("rough", "Black Forest", [(7.7, 47.6), (8.5, 47.6), (8.7, 48.2), (8.5, 48.9), (8.2, 48.9),
                               (7.9, 48.3), (7.6, 47.8)]),
    ("rough", "Swabian Jura", [(8.7, 48.1), (9.5, 48.1), (10.3, 48.6), (10.2, 48.9), (9.3, 48.6),
                               (8.7, 48.4)]),
    ("rough", "Sauerland and Westerwald", [(7.4, 50.2), (7.6, 51.4), (8.5, 51.45), (8.8, 51.1),
                                           (8.6, 50.3), (8.0, 50.1)]),
    ("rough", "Hesse and Thuringian uplands", [(9.0, 50.3), (9.3, 51.0), (10.0, 51.0), (11.6, 50.6),
                                               (11.5, 50.3), (10.0, 50.2)]),
    ("rough", "Harz", [(10.2, 51.6), (11.2, 51.6), (11.2, 51.85), (10.3, 51.9)]),
    ("rough", "Bohemian Forest", [(12.0, 48.7), (12.9, 48.6), (13.5, 49.3), (12.5, 50.4), (12.0, 50.2),
                                  (12.3, 49.5)]),
    ("rough", "Ligurian Apennines", [(7.8, 44.0), (8.3, 44.5), (9.5, 44.6), (10.5, 44.35), (10.3, 44.0),
                                     (9.0, 44.2), (8.2, 43.9)]),
    ("rough", "Wales", [(-5.3, 51.6), (-4.9, 52.1), (-4.4, 52.9), (-3.8, 53.3), (-3.0, 53.1), (-3.0, 52.0),
                        (-3.2, 51.6), (-4.2, 51.6)]),
    ("rough", "Pennines", [(-2.6, 53.2), (-1.7, 53.2), (-1.7, 54.6), (-2.6, 54.6)]),
    ("marsh", "Fortress Holland (polders and the Water Line)", [(4.0, 51.95), (4.2, 52.35), (4.6, 52.55),
                                                                (5.1, 52.45), (5.25, 52.05), (5.0, 51.85),
                                                                (4.5, 51.75)]),
    ("marsh", "Zeeland", [(3.4, 51.3), (3.5, 51.75), (4.2, 51.75), (4.3, 51.4), (3.9, 51.3)]),
    ("marsh", "The Fens", [(-0.3, 52.4), (0.5, 52.4), (0.5, 52.9), (-0.3, 52.9)]),
]

# Rivers as (lon, lat) polylines: a hexside between two land hexes is a river
# hexside when the segment joining the two hex centres crosses the polyline.
RIVERS: list[tuple[str, Poly]] = [
    ("Rhine", [(9.17, 47.66), (8.63, 47.70), (8.21, 47.62), (7.59, 47.56), (7.58, 48.03), (7.80, 48.57),
               (8.30, 49.0), (8.44, 49.32), (8.46, 49.49), (8.36, 49.63), (8.27, 50.0), (7.9, 49.97),
               (7.6, 50.36), (7.1, 50.73), (6.96, 50.94), (6.77, 51.23), (6.75, 51.43), (6.62, 51.66),
               (6.25, 51.83), (5.86, 51.85), (5.43, 51.89), (4.97, 51.83), (4.67, 51.81), (4.48, 51.90),
               (4.12, 51.98)]),
    ("Lek", [(6.1, 51.87), (5.9, 51.98), (5.66, 51.96), (5.34, 51.97), (4.9, 51.92), (4.6, 51.9)]),
    ("IJssel", [(6.1, 51.9), (6.2, 52.14), (6.16, 52.25), (6.09, 52.52), (5.9, 52.56)]),
    ("Meuse", [(5.70, 48.35), (5.59, 48.76), (5.54, 48.89), (5.38, 49.16), (5.19, 49.49),
               (4.94, 49.70), (4.72, 49.77), (4.83, 50.14), (4.91, 50.26), (4.87, 50.47), (5.24, 50.52),
               (5.57, 50.63), (5.69, 50.85), (5.99, 51.19), (6.17, 51.37), (5.95, 51.65), (5.74, 51.76),
               (5.3, 51.75), (4.9, 51.72), (4.4, 51.7)]),
    ("Scheldt", [(3.23, 50.18), (3.52, 50.36), (3.39, 50.61), (3.6, 50.85), (3.72, 51.05), (4.1, 51.03),
                 (4.40, 51.22), (4.2, 51.37), (3.57, 51.44)]),
    ("Somme", [(3.3, 49.85), (2.93, 49.93), (2.30, 49.89), (1.83, 50.1), (1.63, 50.18)]),
    ("Seine", [(4.08, 48.3), (3.73, 48.52), (2.95, 48.39), (2.66, 48.54), (2.35, 48.86), (1.72, 48.99),
               (1.48, 49.09), (1.10, 49.44), (0.2, 49.43)]),
    ("Marne", [(4.95, 48.64), (4.58, 48.73), (4.36, 48.96), (3.95, 49.04),
               (3.40, 49.05), (2.88, 48.96), (2.42, 48.82)]),
    ("Aisne", [(4.9, 49.09), (4.70, 49.40), (4.37, 49.51), (3.32, 49.38), (2.83, 49.42)]),
    ("Oise", [(4.08, 49.92), (3.63, 49.90), (3.22, 49.62), (2.83, 49.42), (2.48, 49.26), (2.1, 49.05),
              (2.08, 48.99)]),
    ("Moselle", [(5.89, 48.68), (6.06, 48.9), (6.18, 49.12), (6.17, 49.36), (6.36, 49.47),
                 (6.64, 49.75), (7.07, 49.92), (7.17, 50.15), (7.6, 50.36)]),
    ("Loire", [(4.07, 46.04), (3.98, 46.48), (3.46, 46.83), (3.16, 46.99), (2.93, 47.41),
               (2.63, 47.69), (1.91, 47.90), (1.33, 47.59), (0.69, 47.39), (-0.08, 47.26), (-0.55, 47.40),
               (-1.55, 47.21), (-2.2, 47.27)]),
    ("Garonne", [(1.44, 43.6), (0.62, 44.2), (-0.25, 44.55), (-0.57, 44.84), (-1.0, 45.5)]),
    ("Saone", [(4.85, 46.78), (4.83, 46.31), (4.83, 45.76)]),
    ("Rhone", [(6.14, 46.2), (5.83, 46.1), (4.83, 45.76), (4.89, 44.93), (4.81, 43.95), (4.63, 43.68),
               (4.8, 43.35)]),
    ("Elbe", [(12.24, 51.83), (11.63, 52.13), (11.75, 53.0), (10.57, 53.37), (9.99, 53.55), (8.7, 53.87)]),
    ("Weser", [(9.65, 51.42), (9.36, 52.1), (8.92, 52.29), (9.2, 52.64), (8.8, 53.08), (8.58, 53.54)]),
    ("Main", [(10.9, 49.9), (10.22, 50.05), (9.93, 49.79), (9.5, 49.76), (9.15, 49.97), (8.92, 50.13),
              (8.68, 50.11), (8.3, 50.0)]),
    ("Danube", [(9.99, 48.4), (11.42, 48.76), (12.1, 49.02), (12.6, 48.8)]),
    ("Thames", [(-1.26, 51.75), (-0.97, 51.46), (-0.13, 51.5), (0.6, 51.5)]),
]

# (area, country, polygon): sub-areas of a country (USE 2.2, 16.0, 17.0).  Other French
# hexes are "occupied-france" (north and west of the 1940 demarcation line).
AREAS: list[tuple[str, str, Poly]] = [
    ("alsace-lorraine", "FRA", [(5.85, 49.55), (6.5, 49.48), (7.1, 49.2), (7.7, 49.1), (8.25, 48.98),
                                (7.6, 47.6), (7.1, 47.45), (6.85, 47.55), (6.9, 48.3), (6.5, 48.55),
                                (6.3, 48.75), (6.0, 48.9), (5.9, 49.2)]),
    ("corsica", "FRA", [(8.4, 43.1), (9.7, 43.1), (9.7, 41.3), (8.4, 41.3)]),
    ("vichy", "FRA", [(-1.3, 43.0), (-0.6, 43.7), (-0.2, 44.5), (0.2, 45.0), (0.5, 45.7), (0.75, 46.25),
                      (1.2, 46.75), (2.0, 47.25), (2.7, 46.9), (3.3, 46.6), (4.1, 46.65), (4.85, 46.8),
                      (5.5, 47.05), (5.8, 46.6), (6.1, 46.2), (6.8, 46.4), (7.0, 45.9), (7.3, 45.4),
                      (6.9, 44.9), (7.0, 44.2), (7.7, 43.9), (7.7, 42.0), (-1.8, 42.0), (-1.8, 43.0)]),
]

# (id, name, adjacent zones).  The Strait of Dover is narrower than a hex: the Channel and
# the North Sea meet across the water hexsides of the Kent and Calais hexes, which lie in both.
# Likewise the Irish Sea and the Western Approaches meet off the map round Land's End, and
# the Cornwall hex lies in both.
SEA_ZONES: list[tuple[str, str, str]] = [
    ("NS", "North Sea", "CH"), ("CH", "English Channel", "NS,WA"), ("WA", "Western Approaches", "CH,BB,IS"),
    ("IS", "Irish Sea and Bristol Channel", "WA"), ("BB", "Bay of Biscay", "WA"), ("GL", "Gulf of Lion", ""),
]


def sea_zone_of(lon: float, lat: float) -> str:
    """Authored sea-zone borders for water hexes (by the hex centre)."""
    if lat < 45.0 and lon > 0.0:
        return "GL"
    if lon < -2.6 and lat >= 50.4:
        return "IS"  # north of Cornwall: the Irish Sea with the Bristol Channel
    if lat < 48.2 and lon > -5.0:
        return "BB"
    if lon < -4.6:
        return "WA"
    if lon < 1.5 and lat < 51.1:
        return "CH"
    return "NS"


def weather_zone_of(lon: float, lat: float) -> str:
    """Authored USE 1.3.9 line: Warm south of 44.5 N (Mediterranean and Biscay south), else Mild."""
    return "warm" if lat < 44.5 else "mild"


BOXES: list[str] = [
    'box NAO "North Atlantic Ocean" sea friendly=Western seazones=WA,BB,NS,IS',
    'box REICH "Reich (off-map Germany)" land friendly=Axis edge=2602,2605,2606,2612',
]

# (name, waypoints): city names, "XXYY" hexes, box ids (at an end), or (lon, lat).
LINES: list[tuple[str, list[str | tuple[float, float]]]] = [
    ("Nord", ["Paris", "Amiens", "Lille", "Brussels", "Antwerp", "Rotterdam", "The Hague", "Amsterdam"]),
    ("Paris-Saint-Quentin-Liege", ["Paris", (3.29, 49.85), "Charleroi", "Namur", "Liege"]),
    ("Cologne-Aachen-Brussels", ["Cologne", "Aachen", "Liege", "Brussels"]),
    ("Brussels-Luxembourg-Metz", ["Brussels", "Namur", "Luxembourg", "Metz"]),
    ("Luxembourg-Trier-Koblenz", ["Luxembourg", "Trier", "Koblenz"]),
    ("Flanders", ["Ostend", "Ghent", "Brussels"]),
    ("Lille-Ghent", ["Lille", "Ghent"]),
    ("Lille-Dunkirk", ["Lille", "Dunkirk"]),
    ("Cote d'Opale", ["Calais", "Boulogne", "Amiens"]),
    ("Est", ["Paris", "Reims", "Verdun", "Metz", "Saarbrucken", "Kaiserslautern", "Mannheim"]),
    ("Paris-Strasbourg", ["Paris", (4.36, 48.96), "Nancy", "Strasbourg", "Karlsruhe"]),
    ("Alsace", ["Strasbourg", "Mulhouse", "Belfort", "Dijon"]),
    ("Nancy-Dijon", ["Nancy", "Dijon"]),
    ("PLM", ["Paris", "Troyes", "Dijon", "Lyon", (4.89, 44.93), (4.81, 43.95), "Marseille"]),
    ("Riviera", ["Marseille", "Toulon", "Nice", "Genoa"]),
    ("Midi", ["Bordeaux", "Toulouse", "Montpellier", (4.36, 43.84), (4.81, 43.95), "Marseille"]),
    ("Narbonne-Perpignan", [(3.0, 43.18), "Perpignan"]),
    ("PO-Midi", ["Paris", "Orleans", "Tours", "Poitiers", "Bordeaux", "Bayonne", "San Sebastian", "Bilbao"]),
    ("Ouest", ["Paris", "Le Mans", "Rennes", "Brest"]),
    ("Rennes-Lorient", ["Rennes", "Lorient"]),
    ("Tours-Nantes", ["Tours", "Nantes", "Saint-Nazaire"]),
    ("Nantes-La Rochelle", ["Nantes", "La Rochelle", "Bordeaux"]),
    ("Paris-Le Havre", ["Paris", "Rouen", "Le Havre"]),
    ("Paris-Cherbourg", ["Paris", (1.15, 49.02), "Caen", "Cherbourg"]),
    ("POLT", ["Orleans", "Limoges", "Toulouse"]),
    ("Bourbonnais", ["Paris", (3.16, 46.99), "Vichy", "Clermont-Ferrand"]),
    ("Lyon-Saint-Etienne", ["Lyon", "Saint-Etienne"]),
    ("Lyon-Grenoble", ["Lyon", "Grenoble"]),
    ("Mont Cenis", ["Lyon", (5.92, 45.57), (6.67, 45.2), "Turin"]),
    ("Turin-Milan", ["Turin", "Milan"]),
    ("Turin-Genoa-Milan", ["Turin", "Genoa", "Milan"]),
    ("Rhine", ["Freiburg", "Karlsruhe", "Mannheim", "Mainz", "Koblenz", "Cologne", "Dusseldorf",
               (6.76, 51.43), (6.25, 51.83), "Arnhem", "Utrecht", "Amsterdam"]),
    ("Ruhr-Hanover", ["Dusseldorf", "Essen", "Dortmund", "Hanover"]),
    ("Hamburg-Ruhr", ["Hamburg", "Bremen", "Osnabruck", "Munster", "Dortmund"]),
    ("Hamburg-Hanover", ["Hamburg", "Hanover"]),
    ("Frankfurt-Kassel-Hanover", ["Frankfurt", "Kassel", "Hanover"]),
    ("Frankfurt-Mannheim", ["Frankfurt", "Mannheim"]),
    ("Frankfurt-Nuremberg-Munich", ["Frankfurt", "Wurzburg", "Nuremberg", "Munich"]),
    ("Karlsruhe-Munich", ["Karlsruhe", "Stuttgart", (9.99, 48.4), "Augsburg", "Munich"]),
    ("Frankfurt-Leipzig", ["Frankfurt", (9.68, 50.55), "Erfurt", "Leipzig"]),
    ("Nuremberg-Leipzig", ["Nuremberg", (11.92, 50.31), "Leipzig"]),
    ("Munich-Innsbruck", ["Munich", "Innsbruck"]),
    ("Trier-Saarbrucken", ["Trier", "Saarbrucken"]),
    ("Emden-Munster", ["Emden", "Munster"]),
    ("Wilhelmshaven-Bremen", ["Wilhelmshaven", "Bremen"]),
    ("Amsterdam-Groningen-Bremen", ["Amsterdam", (6.09, 52.52), "Groningen", (7.45, 53.23), "Bremen"]),
    ("Brabant", ["Utrecht", (5.3, 51.69), "Eindhoven", "Maastricht", "Liege"]),
    ("Rotterdam-Vlissingen", ["Rotterdam", "Vlissingen"]),
    ("London-Dover", ["London", "Dover"]),
    ("London-Portsmouth", ["London", "Portsmouth"]),
    ("Great Western", ["London", (-0.97, 51.45), "Bristol", "Cardiff"]),
    ("Bristol-Plymouth", ["Bristol", "Exeter", "Plymouth"]),
    ("West Coast", ["London", "Oxford", "Birmingham", "Manchester", "Liverpool"]),
    ("Midland", ["Birmingham", "Sheffield", "Leeds"]),
    ("East Coast", ["London", (-0.24, 52.57), (-1.13, 53.52), "Leeds"]),
    ("Leeds-Manchester", ["Leeds", "Manchester"]),
    ("Hamburg-Berlin", ["Hamburg", "2602", "REICH"]),
    ("Hanover-Berlin", ["Hanover", (11.63, 52.13), "2605", "REICH"]),
    ("Leipzig-Berlin", ["Leipzig", "REICH"]),
    ("Munich-Vienna", ["Munich", "REICH"]),
    ("London-Harwich", ["London", "Harwich"]),
    ("London-Norwich", ["London", "Norwich"]),
]

# Hand completion, applied after generation (tools/author_map_use.py apply_overrides):
#   "XXYY terrain:T" | "XXYY country:C" | "XXYY +coastal" | "XXYY -coastal" | "XXYY sea=Z,Z" |
#   "XXYY area=A" | "XXYY river:DIR" (both sides) | "XXYY -river:DIR".  Each with its reason.
OVERRIDES: list[tuple[str, str]] = [
    # Full-land ports (1.3.6): up an estuary or a river mouth, within 2 hexes of their sea.
    ("0720 sea=BB", "Bordeaux on the Gironde"),
    ("0806 sea=NS", "London on the Thames (1.3.6 names it)"),
    ("0503 sea=IS", "Liverpool on the Mersey"),
    ("0406 sea=IS", "Cardiff on the Bristol Channel"),
    ("1507 sea=NS", "Antwerp on the Scheldt"),
    ("2202 sea=NS", "Hamburg on the Elbe"),
    ("2103 sea=NS", "Bremen on the Weser"),
    ("1903 sea=NS", "Emden on the Ems"),
    # The Thames estuary is wider than the land fraction shows: it gives London its sea.
    ("1006 terrain:water", "Thames estuary"),
    ("1006 country:-", "Thames estuary"),
    ("1006 -coastal", "Thames estuary"),
    ("1006 sea=NS", "Thames estuary"),
    ("0906 +coastal", "north Kent shore of the estuary"),
    ("0906 sea=NS", "north Kent shore of the estuary"),
    ("0907 +coastal", "Medway shore of the estuary"),
    ("0907 sea=NS", "Medway shore of the estuary"),
]
