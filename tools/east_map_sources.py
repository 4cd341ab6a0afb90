"""Authored geographic inputs of the USE East and Mediterranean 1941 map (data only; see
author_map_east.py).

Everything here is *authored* (source = "authored"): the seed rulebook has no map, so these
layers approximate the real geography at USE scale (a hex is 35 miles) from well-known
coordinates, and players who own the boxed game can replace them.  Coordinates are (lon, lat)
in degrees except CITIES, which list lat then lon like a gazetteer.
"""

from __future__ import annotations

Poly = list[tuple[float, float]]

# Natural Earth ADM0_A3 -> game country (April 1941; USE 16.0 codes).  Yugoslavia is one
# country (it was partitioned only after this scenario begins); the German half of Poland (the
# General Government) is Poland (POL, 16.0: "1939 borders"), conquered and Axis-held (13.2.2
# cedes Germany only the Corridor); Slovakia is German-held (no USE country) but for its south
# (Kosice), Hungarian since the First Vienna Award (November 1938); Albania and the
# Dodecanese are Italian; Moldova (Bessarabia, ceded 1940) and eastern Poland are Soviet;
# Cyprus (with the Dhekelia base) is British; Austria and Bohemia-Moravia are German; Syria and
# Lebanon are Vichy French Syria (SYR).
COUNTRY_OF: dict[str, str] = {
    "UKR": "USSR", "RUS": "USSR", "MDA": "USSR", "POL": "POL", "SVK": "GER",
    "ROU": "ROM", "HUN": "HUN", "BGR": "BUL", "GRC": "GRE", "ALB": "ITA", "TUR": "TUR",
    "SRB": "YUG", "HRV": "YUG", "BIH": "YUG", "MNE": "YUG", "KOS": "YUG", "MKD": "YUG",
    "CYP": "UK", "ESB": "UK", "CZE": "GER", "AUT": "GER", "ITA": "ITA", "SYR": "SYR", "LBN": "SYR",
    "BLR": "USSR", "LTU": "USSR", "SVN": "YUG",
}

# (country, polygon): where 1941 differs from the modern borders, the first polygon holding a
# land point re-assigns it (the 1939-1941 annexations at this scale).
REFINE: list[tuple[str, Poly]] = [
    # Eastern Poland, annexed by the USSR in 1939: east of the San-Bug line.
    ("USSR", [(22.6, 51.0), (22.9, 50.2), (22.6, 49.6), (22.6, 49.0), (25.0, 49.0), (25.0, 51.0)]),
    # Southern Slovakia (Kosice), Hungarian since the First Vienna Award (November 1938).
    ("HUN", [(17.2, 47.8), (17.9, 48.2), (18.7, 48.25), (19.5, 48.35), (20.3, 48.55), (21.0, 48.85),
             (21.8, 48.8), (22.0, 48.5), (21.0, 47.9), (18.0, 47.6)]),
    # Carpathian Ruthenia, Hungarian since March 1939.
    ("HUN", [(22.1, 48.3), (22.3, 49.1), (22.9, 49.1), (24.6, 48.1), (24.0, 47.9), (22.8, 47.9)]),
    # Northern Transylvania, Hungarian since the Second Vienna Award (August 1940).
    ("HUN", [(21.9, 47.9), (23.0, 48.1), (24.6, 47.95), (25.3, 47.6), (26.0, 46.7), (25.9, 46.2),
             (25.2, 46.5), (24.2, 46.4), (23.6, 46.5), (22.7, 46.6), (21.9, 46.7)]),
    # The Dodecanese (Rhodes, Kos, Leros), Italian since 1912.
    ("ITA", [(26.7, 37.6), (27.9, 37.3), (28.5, 36.4), (28.2, 35.8), (26.8, 35.9), (26.5, 36.8)]),
]

# (name, country, flags, lat, lon); flags as written into features.txt.  A box id in place of
# flags' first word and no coordinates = a city inside that map box.
CITIES: list[tuple[str, str, str, float | None, float | None]] = [
    # Soviet Union (9 factories: 3 on the map, 6 in Central Russia)
    ("Kiev", "USSR", "factories=1", 50.45, 30.52),
    ("Odessa", "USSR", "port factories=1", 46.48, 30.73),
    ("Nikolaev", "USSR", "port factories=1", 46.97, 31.99),
    ("Dnepropetrovsk", "USSR", "", 48.46, 35.04),
    ("Lvov", "USSR", "", 49.84, 24.03),
    ("Vinnitsa", "USSR", "", 49.23, 28.47),
    ("Zhitomir", "USSR", "", 50.25, 28.66),
    ("Uman", "USSR", "", 48.75, 30.22),
    ("Kishinev", "USSR", "", 47.01, 28.86),
    ("Chernovtsy", "USSR", "", 48.29, 25.94),
    ("Kherson", "USSR", "port", 46.64, 32.62),
    ("Sevastopol", "USSR", "port", 44.62, 33.53),
    ("Kremenchug", "USSR", "", 49.07, 33.42),
    ("Kharkov", "USSR", "factories=1", 49.99, 36.23),
    ("Moscow", "USSR", "CR capital factories=5", None, None),
    # Romania (2)
    ("Bucharest", "ROM", "capital factories=1", 44.43, 26.10),
    ("Ploesti", "ROM", "factories=1", 44.94, 26.02),
    ("Constanta", "ROM", "port", 44.17, 28.65),
    ("Galati", "ROM", "", 45.44, 28.05),
    ("Iasi", "ROM", "", 47.16, 27.59),
    ("Brasov", "ROM", "", 45.65, 25.61),
    ("Timisoara", "ROM", "", 45.75, 21.23),
    ("Craiova", "ROM", "", 44.32, 23.80),
    # Hungary (1)
    ("Budapest", "HUN", "capital factories=1", 47.50, 19.04),
    ("Debrecen", "HUN", "", 47.53, 21.63),
    ("Cluj", "HUN", "", 46.77, 23.60),
    ("Szeged", "HUN", "", 46.25, 20.15),
    # Bulgaria (1)
    ("Sofia", "BUL", "capital factories=1", 42.70, 23.32),
    ("Varna", "BUL", "port", 43.21, 27.91),
    ("Plovdiv", "BUL", "", 42.14, 24.75),
    # Germany (General Government, Slovakia; Berlin and the Reich in the REICH box)
    ("Krakow", "POL", "", 50.06, 19.94),
    ("Kosice", "HUN", "", 48.72, 21.26),
    ("Berlin", "GER", "REICH capital factories=2", None, None),
    # Italy (Rome in the ITALY box; Albania and the Dodecanese are Overseas Areas)
    ("Durazzo", "ITA", "port", 41.32, 19.45),
    ("Valona", "ITA", "port", 40.47, 19.49),
    ("Rhodes", "ITA", "port", 36.43, 28.22),
    ("Otranto", "ITA", "port", 40.15, 18.49),
    ("Rome", "ITA", "ITALY capital factories=2", None, None),
    # Yugoslavia (2: Belgrade 1; Zagreb is off the map)
    ("Belgrade", "YUG", "capital factories=1", 44.79, 20.45),
    ("Nis", "YUG", "", 43.32, 21.90),
    ("Skopje", "YUG", "", 42.00, 21.43),
    ("Sarajevo", "YUG", "", 43.86, 18.41),
    ("Novi Sad", "YUG", "", 45.25, 19.84),
    # Greece (1)
    ("Athens", "GRE", "capital port factories=1", 37.98, 23.73),
    ("Salonika", "GRE", "port", 40.64, 22.94),
    ("Larissa", "GRE", "", 39.64, 22.42),
    ("Ioannina", "GRE", "", 39.66, 20.85),
    ("Patras", "GRE", "port", 38.25, 21.73),
    ("Kalamata", "GRE", "port", 37.04, 22.11),
    ("Kavala", "GRE", "port", 40.94, 24.41),
    ("Heraklion", "GRE", "port", 35.34, 25.13),
    ("Suda", "GRE", "port", 35.49, 24.07),
    # Turkey (3; neutral)
    ("Ankara", "TUR", "capital factories=1", 39.93, 32.86),
    ("Istanbul", "TUR", "port factories=1", 41.01, 28.98),
    ("Izmir", "TUR", "port factories=1", 38.42, 27.14),
    ("Edirne", "TUR", "", 41.68, 26.56),
    ("Bursa", "TUR", "", 40.19, 29.06),
    ("Samsun", "TUR", "port", 41.29, 36.33),
    ("Antalya", "TUR", "port", 36.90, 30.70),
    ("Konya", "TUR", "", 37.87, 32.48),
    # United Kingdom (9 factories, all off the map)
    ("Famagusta", "UK", "port", 35.12, 33.94),
    ("Nicosia", "UK", "", 35.17, 33.36),
]

LAND_FORCED: list[tuple[float, float]] = [
    (24.07, 35.49), (25.13, 35.34),  # Crete's ports: the island is narrower than a hex
    (28.22, 36.43),  # Rhodes
]

# (terrain, name, polygon); first match wins, so mountains come before rough.
TERRAIN_REGIONS: list[tuple[str, str, Poly]] = [
    ("mountain", "Eastern Carpathians", [(22.5, 49.3), (24.0, 48.9), (25.3, 47.8), (26.0, 46.8),
                                         (25.5, 46.4), (24.9, 47.5), (23.5, 48.3), (22.3, 48.9)]),
    ("mountain", "Transylvanian Alps", [(22.0, 45.6), (23.0, 45.6), (24.5, 45.7), (25.9, 45.6),
                                        (26.3, 45.3), (25.0, 45.2), (23.2, 45.1), (22.0, 45.0)]),
    ("mountain", "Dinaric Alps", [(18.0, 44.5), (18.8, 44.3), (19.6, 43.2), (20.3, 42.6), (20.0, 42.3),
                                  (19.2, 42.6), (18.0, 43.4)]),
    ("mountain", "Albanian Alps and Pindus", [(19.9, 42.5), (20.6, 42.2), (20.8, 41.1), (21.4, 40.0),
                                              (21.7, 39.0), (21.2, 38.8), (20.6, 39.8), (20.1, 40.8)]),
    ("mountain", "Rhodope", [(23.5, 42.0), (24.5, 42.1), (25.8, 41.7), (25.6, 41.3), (24.2, 41.3),
                             (23.4, 41.5)]),
    ("mountain", "Taurus", [(29.8, 37.2), (31.0, 37.5), (33.0, 37.2), (35.0, 37.5), (35.0, 36.8),
                            (33.5, 36.5), (31.5, 36.9), (30.0, 36.6)]),
    ("mountain", "Pontic Mountains", [(31.5, 41.1), (33.5, 41.7), (35.0, 41.5), (35.0, 40.9),
                                      (33.5, 41.0), (31.5, 40.7)]),
    ("rough", "Western Carpathians and Tatra", [(18.9, 49.6), (20.5, 49.5), (22.5, 49.3), (22.3, 48.9),
                                                (20.5, 48.6), (18.9, 48.7)]),
    ("rough", "Apuseni Mountains", [(22.2, 46.9), (23.3, 46.9), (23.3, 46.0), (22.4, 46.0)]),
    ("rough", "Bosnian and Serbian uplands", [(18.0, 44.8), (19.3, 44.5), (20.3, 43.8), (22.0, 43.5),
                                              (22.8, 42.5), (21.5, 42.0), (20.3, 42.6), (19.6, 43.2),
                                              (18.0, 43.6)]),
    ("rough", "Balkan Mountains", [(22.4, 43.6), (24.0, 43.0), (26.0, 42.9), (27.7, 42.9), (27.6, 42.5),
                                   (25.5, 42.5), (23.5, 42.5), (22.4, 43.0)]),
    ("rough", "Macedonian and Greek uplands", [(20.8, 41.9), (23.3, 42.2), (23.5, 41.4), (22.6, 40.9),
                                               (22.2, 40.0), (22.0, 38.6), (21.3, 38.4), (20.9, 39.7)]),
    ("rough", "Peloponnese", [(21.2, 38.2), (23.0, 38.0), (23.2, 37.3), (22.9, 36.4), (22.3, 36.5),
                              (21.6, 36.8), (21.1, 37.6)]),
    ("rough", "Crete", [(23.5, 35.7), (26.4, 35.4), (26.3, 34.8), (23.5, 35.1)]),
    ("rough", "Anatolian plateau", [(28.5, 40.3), (31.0, 40.8), (33.0, 40.9), (35.0, 40.7), (35.0, 37.6),
                                    (33.0, 37.3), (30.5, 37.5), (28.5, 38.5)]),
    ("rough", "Crimean Mountains", [(33.4, 44.4), (34.5, 44.7), (35.0, 44.9), (35.0, 44.6), (33.8, 44.35)]),
    ("marsh", "Danube Delta", [(28.6, 45.5), (29.8, 45.5), (29.8, 44.8), (28.8, 44.8)]),
    ("marsh", "Dnieper marshes", [(29.8, 50.6), (30.8, 50.9), (30.9, 50.6), (30.0, 50.3)]),
]

# Rivers as (lon, lat) polylines, laid along hexsides.
RIVERS: list[tuple[str, Poly]] = [
    ("Danube", [(18.9, 47.78), (19.06, 47.5), (18.95, 46.8), (18.9, 45.9), (19.3, 45.25),
                (20.46, 44.82), (21.4, 44.7), (22.5, 44.6), (22.7, 44.2), (23.8, 43.75), (25.4, 43.65),
                (26.6, 44.05), (27.9, 44.1), (28.0, 44.7), (28.05, 45.45), (28.8, 45.3), (29.7, 45.2)]),
    ("Sava", [(18.9, 45.05), (19.6, 44.9), (20.46, 44.82)]),
    ("Tisza", [(22.1, 48.4), (21.4, 48.2), (20.6, 47.5), (20.2, 46.9), (20.1, 46.2), (20.25, 45.2)]),
    ("Morava", [(21.0, 44.7), (21.3, 44.0), (21.9, 43.4), (21.9, 42.7)]),
    ("Prut", [(25.0, 48.4), (26.0, 48.3), (27.0, 47.8), (27.9, 47.0), (28.1, 46.0), (28.2, 45.5)]),
    ("Dniester", [(23.5, 49.5), (25.0, 48.9), (26.5, 48.5), (27.8, 48.2), (28.9, 47.3), (29.6, 46.8),
                  (30.1, 46.4)]),
    ("Southern Bug", [(27.5, 49.8), (28.5, 49.2), (29.8, 48.5), (30.7, 48.0), (31.4, 47.6), (31.9, 47.1),
                      (31.95, 46.8)]),
    ("Dnieper", [(30.3, 51.0), (30.5, 50.45), (31.2, 49.9), (32.1, 49.4), (33.4, 49.07), (34.5, 48.6),
                 (35.0, 48.4)]),
    ("Lower Dnieper", [(35.0, 47.6), (34.3, 47.4), (33.4, 46.8), (32.6, 46.6), (31.9, 46.55)]),
    ("Vardar", [(21.4, 42.0), (21.9, 41.6), (22.5, 41.1), (22.8, 40.6)]),
    ("Aliakmon", [(21.0, 40.5), (21.6, 40.2), (22.2, 40.4), (22.6, 40.5)]),
]

AREAS: list[tuple[str, str, Poly]] = [
    ("albania", "ITA", [(19.0, 42.8), (21.2, 42.8), (21.2, 39.4), (19.0, 39.4)]),
    ("rhodes", "ITA", [(26.5, 37.6), (28.6, 37.6), (28.6, 35.7), (26.5, 35.7)]),
    ("crete", "GRE", [(23.3, 35.8), (26.5, 35.8), (26.5, 34.7), (23.3, 34.7)]),
    ("cyprus", "UK", [(32.0, 35.8), (35.0, 35.8), (35.0, 34.5), (32.0, 34.5)]),
    # Occupied USSR (USE 2.2, 10.3.6, 13.2): AUTHORED.  The seed prints no map; its Disputed border
    # follows the 1918 Brest-Litovsk line, where the German occupation stopped: the Baltic,
    # Belarus and the Ukraine west of Leningrad-Smolensk-Kursk-Rostov, with the Crimea.  On this map
    # that is every USSR hex west of the Kursk (51.7N 36.2E) - Rostov (47.2N 39.7E) line and the
    # Crimea up to the Kerch Strait; the Kuban (Taman) east of the strait stays USSR.  Listed hexes
    # are map.txt's ``area=occupied-ussr`` (the border is active only under the Moscow Treaty).
    ("occupied-ussr", "USSR", [(20.0, 56.0), (32.05, 56.0), (32.05, 54.78), (36.19, 51.73), (39.71, 47.24),
                               (38.5, 46.6), (36.6, 45.3), (36.6, 44.0), (20.0, 44.0)]),
]

# (id, name, adjacent zones).  The Adriatic east of Otranto is part of the Ionian Sea at this
# scale.  The Aegean, the Sea of Marmara, the Black Sea and the Sea of Azov meet at Straits
# (STRAITS): USE 4.2.4 closes a Strait only while an enemy city, fort or unit holds a hex it
# points to, so a neutral Turkey's Straits are open (Montreux is not a rule of the seed), and
# when Turkey joins a faction its cities close them to that faction's enemies.
SEA_ZONES: list[tuple[str, str, str]] = [
    ("IO", "Ionian and southern Adriatic Sea", "AE,EM"), ("AE", "Aegean Sea", "IO,EM,MA"),
    ("EM", "Eastern Mediterranean", "IO,AE"), ("BS", "Black Sea", "MA,AZ"),
    ("AZ", "Sea of Azov", "BS"), ("MA", "Sea of Marmara", "AE,BS"),
]

# (name, zone, zone, land point, land point): a Strait symbol (USE 1.3.3, 4.2.4) where two
# zones meet through water narrower than a hex; it points to the hexes of the two (lon, lat)
# points, two adjacent land hexes that lie in both zones (1.3.6; OVERRIDES puts the
# Dardanelles' shores in both).  Naval movement across pays the Strait cost and is prohibited
# while either hex holds an enemy city, fort or unit.
STRAITS: list[tuple[str, str, str, tuple[float, float], tuple[float, float]]] = [
    ("Dardanelles", "AE", "MA", (26.67, 40.41), (26.41, 40.15)),  # Gallipoli, Canakkale
    ("Bosporus", "MA", "BS", (28.46, 41.14), (28.98, 41.01)),  # Catalca (Thrace), Istanbul
    ("Kerch Strait", "BS", "AZ", (36.47, 45.36), (36.72, 45.21)),  # Kerch (Crimea), Taman (Kuban)
]


def sea_zone_of(lon: float, lat: float) -> str:
    """Authored sea-zone borders for water hexes (by the hex centre)."""
    if lon > 33.5 and lat > 45.3:
        return "AZ"  # the Sea of Azov, beyond the Kerch Strait (STRAITS)
    if 40.2 < lat < 41.1 and 26.6 < lon < 30.0:
        return "MA"  # the Sea of Marmara, between the Dardanelles and the Bosporus (STRAITS)
    if lat > 40.6 and lon > 27.4:
        return "BS"
    if lon < 21.9 or (lat < 38.45 and lon < 22.95 and lat > 36.0):
        return "IO"  # west of Greece, the Gulf of Corinth and the Peloponnese gulfs
    if lat < 35.9 or (lon > 28.3 and lat < 37.0):
        return "EM"  # south of Crete, Rhodes and the Anatolian coast
    return "AE"


def weather_zone_of(lon: float, lat: float) -> str:
    """Authored USE 1.3.9 lines: Cold north of 48N east of the Carpathians, Warm south of 42N
    (the Mediterranean coasts and Anatolia), else Mild."""
    if lat >= 48.0 and lon >= 24.0:
        return "cold"
    return "warm" if lat < 42.0 else "mild"


BOXES: list[str] = [
    'box WIO "Western Indian Ocean" sea friendly=Western seazones=EM',
    'box CR "Central Russia" land friendly=Soviet edge=EDGE_CR',
    'box REICH "Reich (off-map Germany)" land friendly=Axis edge=EDGE_REICH',
    'box ITALY "Italy (across the Strait of Otranto)" land friendly=Axis edge=EDGE_ITALY',
]

# Each land box's edge hexes: the map-edge hexes its transport lines start from (filled in by
# the tool from LINES, so the box and its lines agree).
# (name, waypoints): city names, "XXYY" hexes, box ids (at an end), or (lon, lat).
LINES: list[tuple[str, list[str | tuple[float, float]]]] = [
    ("Kiev-Moscow", ["Kiev", (34.0, 50.6), (37.8, 50.3), "CR"]),
    ("Kiev-Kharkov", ["Kiev", "Kremenchug", "Kharkov", (37.8, 49.9), "CR"]),
    ("Dnepropetrovsk-Stalino", ["Dnepropetrovsk", (37.8, 48.1), "CR"]),
    ("Kharkov-Dnepropetrovsk", ["Kharkov", "Dnepropetrovsk"]),
    ("Lvov-Kiev", ["Lvov", (26.25, 50.62), "Zhitomir", "Kiev"]),
    ("Lvov-Odessa", ["Lvov", (26.0, 49.4), "Vinnitsa", "Uman", "Odessa"]),
    ("Kiev-Vinnitsa", ["Zhitomir", "Vinnitsa"]),
    ("Uman-Dnepropetrovsk", ["Uman", "Kremenchug", "Dnepropetrovsk"]),
    ("Odessa-Nikolaev-Kherson", ["Odessa", "Nikolaev", "Kherson"]),
    ("Crimea", ["Kherson", (33.9, 45.9), "Sevastopol"]),
    ("Kishinev-Odessa", ["Iasi", "Kishinev", "Odessa"]),
    ("Chernovtsy-Lvov", ["Iasi", "Chernovtsy", "Lvov"]),
    ("Krakow-Lvov", ["REICH", (16.6, 50.1), "Krakow", (22.0, 50.0), "Lvov"]),
    ("Budapest-Vienna", ["REICH", (17.2, 48.2), "Budapest"]),
    ("Budapest-Kosice", ["Budapest", "Kosice"]),
    ("Budapest-Debrecen-Cluj", ["Budapest", "Debrecen", "Cluj", "Brasov", "Ploesti", "Bucharest"]),
    ("Budapest-Belgrade", ["Budapest", "Szeged", "Novi Sad", "Belgrade"]),
    ("Szeged-Timisoara", ["Szeged", "Timisoara", "Craiova", "Bucharest"]),
    ("Bucharest-Constanta", ["Bucharest", "Constanta"]),
    ("Bucharest-Galati-Iasi", ["Ploesti", "Galati", "Iasi"]),
    ("Orient Express", ["Belgrade", "Nis", "Sofia", "Plovdiv", "Edirne", "Istanbul"]),
    ("Nis-Salonika", ["Nis", "Skopje", "Salonika", "Larissa", "Athens"]),
    ("Sofia-Varna", ["Sofia", (25.6, 43.1), "Varna"]),
    ("Bucharest-Sofia", ["Bucharest", (25.95, 43.85), (25.6, 43.1), "Sofia"]),
    ("Salonika-Kavala", ["Salonika", "Kavala"]),
    ("Sarajevo-Belgrade", ["Sarajevo", (19.5, 44.3), "Belgrade"]),
    ("Apulia", ["ITALY", "Otranto"]),
    ("Albania", ["Durazzo", "Valona", "Ioannina"]),
    ("Athens-Patras", ["Athens", "Patras"]),
    ("Anatolian", [(29.92, 40.77), "Bursa", (30.5, 39.8), "Ankara", "Konya"]),
    ("Izmir-Bursa", ["Izmir", "Bursa"]),
    ("Ankara-Samsun", ["Ankara", "Samsun"]),
]

# Hand completion ("XXYY op", why); the same operations as use_map_sources.OVERRIDES.
OVERRIDES: list[tuple[str, str]] = [
    ("2408 sea=BS", "Nikolaev: a river port on the Southern Bug estuary, open to the Black Sea (1.3.6)"),
    ("2509 sea=BS", "Kherson: a river port on the Dnieper estuary, open to the Black Sea (1.3.6)"),
    ("0726 sea=IO", "Patras: a port on the Gulf of Patras, which opens on the Ionian Sea (1.3.6)"),
    # The Dardanelles are narrower than a hex: the hexes of Gallipoli and Canakkale, on its two
    # shores, lie in the Aegean and the Marmara both, as the Strait that points to them makes
    # them (1.3.6: a hex a Strait ends at is in more than one Sea Zone).
    ("1621 sea=AE,MA", "Gallipoli: on the Dardanelles, between the Aegean and the Marmara (1.3.6)"),
    ("1621 coastal", "Gallipoli: its shores on the Dardanelles and the Marmara (1.3.3)"),
    ("1522 sea=AE,MA", "Canakkale: on the Dardanelles, between the Aegean and the Marmara (1.3.6)"),
    ("1621 strait:1522", "the Dardanelles: ground units cross Gallipoli-Canakkale at the Strait cost (4.2.4)"),
    ("3111 strait:3211", "the Kerch Strait: ground units cross Kerch-Taman at the Strait cost (4.2.4)"),
    # Rhodes lies 18 km off the Anatolian coast, less than a hex: its hexes touch Turkey's, so the
    # strait is drawn as water hexsides, which makes it the island it is (1.3.3; 7.2's island port).
    ("1728 water:1727", "Rhodes: the strait of Marmaris, no land crossing (1.3.3)"),
    ("1728 water:1827", "Rhodes: the strait of Marmaris, no land crossing (1.3.3)"),
    ("1828 water:1827", "Rhodes: the strait of Marmaris, no land crossing (1.3.3)"),
    ("1828 water:1928", "Rhodes: the strait of Marmaris, no land crossing (1.3.3)"),
    ("1828 water:1929", "Rhodes: the strait of Marmaris, no land crossing (1.3.3)"),
    ("1829 water:1929", "Rhodes: the strait of Marmaris, no land crossing (1.3.3)"),
]
