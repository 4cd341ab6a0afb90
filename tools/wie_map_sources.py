"""Authored geographic inputs of the War in Europe 1945 map (data only).

Read by tools/author_map_wie.py.  Everything here is *authored* (source = "authored"):
the seed booklet (../shared/seeds/003_a5d2870354bebb58.txt) assumes the nine printed map
sections of War in the West / War in the East and contains none of them (rules-gaps.md,
WiE item 1).  What the booklet does give is used as anchors: the hex numbers of the German
Placement Centers (77.7) and of every set-up hex of 76.2, so the booklet's hex numbers name
the right places on this map.  Coordinates are (lon, lat) in degrees, approximations of the
real geography of December 1944 from well-known places.
"""

from __future__ import annotations

Poly = list[tuple[float, float]]
Point = tuple[float, float]

# Natural Earth ADM0_A3 -> map country (codes of map.txt).  Austria is part of the Reich
# (the Wehrkreise of Vienna and Salzburg, 77.7); the Czech lands are the Protectorate and the
# Sudetenland (Prague is a Wehrkreis); the Yugoslav successor states are Yugoslavia.
COUNTRY_OF: dict[str, str] = {
    "DEU": "GER", "AUT": "GER", "CZE": "BOH", "SVK": "SLK", "POL": "POL", "HUN": "HUN", "ROU": "RUM",
    "BGR": "BUL", "SVN": "YUG", "HRV": "YUG", "BIH": "YUG", "SRB": "YUG", "MNE": "YUG", "MKD": "YUG",
    "KOS": "YUG", "ALB": "ALB", "GRC": "GRE", "ITA": "ITA", "SMR": "ITA", "VAT": "ITA", "CHE": "SUI",
    "LIE": "SUI", "FRA": "FRA", "MCO": "FRA", "BEL": "BEL", "NLD": "NET", "LUX": "LUX", "DNK": "DEN",
    "SWE": "SWE", "NOR": "NOR", "GBR": "GBR", "JEY": "GBR", "GGY": "GBR", "RUS": "SOV", "BLR": "SOV",
    "UKR": "SOV", "LTU": "SOV", "LVA": "SOV", "EST": "SOV", "MDA": "SOV", "TUR": "TUR", "FIN": "FIN",
    "ALD": "FIN",
}

# The Reich's eastern lands of 1937 now in Poland, Russia and Lithuania (Pomerania, East
# Brandenburg, Silesia, East Prussia, the Memel territory) and the Free City of Danzig
# (annexed 1939; Danzig is a Wehrkreis, 77.7): land inside becomes GER.  The 1939 annexed
# Polish districts stay POL: 75.91 counts Posen and Cracow as the two "Polish" Wehrkreis hexes.
REICH_EAST: Poly = [
    (14.1, 54.2), (16.0, 54.7), (17.6, 54.9), (17.5, 54.2), (17.3, 53.9), (16.9, 53.6), (16.4, 53.2),
    (15.9, 52.8), (15.7, 52.5), (15.9, 52.2), (16.3, 51.8), (17.2, 51.6), (17.8, 51.3), (18.1, 50.9),
    (18.5, 50.5), (18.9, 50.3), (18.6, 49.9), (17.8, 49.95), (17.0, 50.2), (16.3, 50.5), (15.0, 50.8),
    (14.5, 51.0), (14.1, 51.4), (14.3, 53.2), (14.1, 53.8)]
EAST_PRUSSIA: Poly = [
    (18.9, 55.6), (21.05, 56.05), (21.6, 55.95), (21.7, 55.6), (22.2, 55.05), (22.8, 54.9), (22.8, 54.35),
    (22.5, 53.85), (21.8, 53.55), (20.9, 53.2), (20.2, 53.15), (19.4, 53.4), (18.9, 53.75), (18.6, 54.15),
    (18.45, 54.35), (18.75, 54.6)]

# Who holds the land in the third week of December 1944 (76.11: the scenario starts 3/13/44).
# ALLIED_WEST: France, Belgium, Luxembourg and the Netherlands south of the Maas, the Aachen
# corner (the front before the Ardennes offensive); the Colmar pocket and the Atlantic
# fortresses stay Axis (AXIS_POCKETS).  ALLIED_ITALY: Italy south of the Gothic Line.
ALLIED_WEST: Poly = [
    (-6.0, 42.0), (-6.0, 51.2), (1.5, 51.2), (3.3, 51.75), (4.2, 51.72), (5.0, 51.78), (5.7, 51.85),
    (5.95, 51.93), (6.05, 51.6), (5.95, 51.4), (6.0, 51.1), (6.15, 50.97), (6.35, 50.92), (6.45, 50.7),
    (6.25, 50.5), (6.1, 50.25), (6.15, 50.0), (6.4, 49.6), (6.6, 49.45), (6.75, 49.3), (7.1, 49.15),
    (7.6, 49.1), (8.2, 48.97), (7.8, 48.6), (7.6, 48.35), (7.2, 48.3), (7.1, 48.0), (7.3, 47.8),
    (7.55, 47.58), (7.0, 46.4), (6.8, 45.8), (7.0, 45.0), (7.5, 43.78), (7.5, 41.0)]
ALLIED_ITALY: Poly = [
    (9.5, 43.9), (10.25, 43.98), (10.6, 44.1), (11.2, 44.25), (11.6, 44.3), (12.0, 44.35), (12.2, 44.45),
    (12.4, 44.55), (14.5, 43.5), (19.0, 40.3), (19.0, 36.0), (8.0, 36.0), (8.0, 41.5)]
# The Atlantic and Channel fortresses, Dunkirk and the Colmar pocket: Axis inside ALLIED_WEST.
# The Atlantic fortresses (Lorient, St Nazaire, La Rochelle, Royan) are the hexes the booklet's
# set-up puts Axis units in (C0903, C1006, C0909, C0811), held by the Axis because of that.
AXIS_POCKETS: list[tuple[str, Point, float]] = [("Dunkirk", (2.38, 51.03), 20.0), ("Colmar", (7.36, 48.08), 40.0)]

# Authored country fixes, printed hex -> (country, why).  The grid puts the booklet's C2823 (two
# Axis 6-5s of 76.21 on the Alpine front) in Ticino, forced Italian as a set-up hex but ringed
# by Swiss hexes: no supply line ([WiE-base 11.3]) or move could leave it.  C2824 joins it to
# Italy (C2825), as on the printed map, where C2823 is Italian ground.
COUNTRY_FIXES: dict[str, tuple[str, str]] = {
    "C2824": ("ITA", "joins the set-up hex C2823 to Italy: supply and movement out of an Italian enclave"),
}

# The 1945 Start Line (76.2, 76.3 steps 4-5): the printed line is not in the seed.  Authored as
# the Eastern Front of mid-December 1944, north to south: the Courland and Memel fronts, the
# East Prussian border, the Narew, the Vistula at Warsaw with the Magnuszew, Pulawy and
# Baranow bridgeheads, the Carpathians, eastern Slovakia, Miskolc, the Danube bend north of
# Budapest, Lake Velence and Lake Balaton, the Drava, the Syrmian front, the Drina and the
# Montenegrin coast.  SOVIET_SIDE is the land on or east of it (the polygon closes far east);
# COURLAND and MEMEL are the German pockets behind it (76.3 step 4: Army Group North).
SOVIET_SIDE: Poly = [
    (21.0, 60.5), (21.0, 57.9), (23.3, 57.6), (23.2, 57.05), (22.8, 56.55), (22.2, 56.35), (21.5, 56.3),
    (21.0, 56.15), (20.5, 56.15),
    (20.5, 55.95), (21.35, 55.9), (21.4, 55.55), (21.3, 55.3), (21.9, 55.08), (22.5, 54.7), (22.6, 54.4),
    (22.8, 54.0), (22.2, 53.5), (21.7, 53.1), (21.5, 53.0), (21.0, 52.7), (20.8, 52.45), (21.05, 52.25),
    (21.1, 51.75), (21.6, 51.45), (21.6, 50.9), (21.0, 50.6), (20.85, 50.45), (21.4, 50.2), (21.2, 49.8),
    (21.6, 49.4), (22.1, 49.0), (21.4, 48.7), (20.5, 48.35), (19.8, 48.1), (19.05, 47.8), (18.6, 47.55),
    (18.3, 47.35), (18.55, 47.15), (18.1, 46.95), (17.4, 46.6), (17.35, 46.0), (18.7, 45.5), (19.05, 45.1),
    (19.35, 44.5), (19.6, 43.5), (19.3, 42.7), (19.2, 42.0), (19.0, 41.0), (20.5, 39.6), (21.0, 40.0),
    (22.0, 41.1), (22.9, 41.35), (24.0, 41.6), (26.5, 41.7), (29.0, 41.5), (34.0, 42.0), (34.0, 60.5)]
COURLAND: Poly = [(20.8, 57.3), (23.25, 57.15), (22.75, 56.5), (22.2, 56.3), (21.5, 56.25), (21.0, 56.1), (20.8, 56.1)]

# Hexes named by the booklet's set-up that come out as sea on this grid are forced to land
# (the tool reports them): the coastal pockets are a fraction of a hex.
LAND_FORCED: list[Point] = []

# (terrain, name, polygon); the first polygon containing a sample point wins; clear elsewhere.
# Terrain names are those of docs/wie-base-rules.md [WiE-base 5.1]: clear, rough (broken
# ground and forest), forest, mountain, marsh.
TERRAIN_REGIONS: list[tuple[str, str, Poly]] = [
    ("mountain", "Alps", [(5.8, 44.2), (7.0, 44.1), (7.7, 45.5), (9.0, 45.9), (10.5, 45.8), (12.0, 46.0),
                          (13.5, 46.2), (14.8, 46.3), (16.0, 47.4), (15.0, 47.8), (13.0, 47.75), (11.0, 47.5),
                          (9.5, 47.35), (7.5, 46.9), (6.8, 46.5), (5.9, 45.7)]),
    ("mountain", "Carpathians and Tatra", [(17.8, 49.2), (19.0, 49.6), (20.5, 49.45), (22.0, 49.3), (23.5, 49.1),
                                           (24.8, 48.3), (24.5, 47.6), (23.0, 48.0), (21.6, 48.6), (20.0, 48.7),
                                           (18.8, 48.8)]),
    ("mountain", "Transylvanian Alps", [(22.0, 45.6), (25.5, 45.6), (26.5, 46.5), (25.5, 47.6), (24.5, 47.2),
                                        (23.0, 46.5), (22.0, 46.0)]),
    ("mountain", "Dinaric Alps", [(14.2, 45.6), (15.5, 45.2), (17.0, 44.5), (18.5, 43.8), (19.5, 43.0), (20.2, 42.3),
                                  (19.3, 41.8), (18.3, 42.5), (16.5, 43.5), (15.0, 44.3), (14.2, 45.0)]),
    ("mountain", "Balkan and Rhodope", [(22.5, 42.9), (25.5, 42.9), (25.5, 41.6), (23.0, 41.6)]),
    ("mountain", "Pindus and Albanian mountains", [(19.6, 42.2), (20.8, 42.0), (22.0, 40.5), (22.3, 38.8),
                                                   (21.5, 38.5), (20.3, 39.8), (19.9, 40.8)]),
    ("rough", "Ardennes and Eifel", [(4.6, 50.3), (5.6, 50.7), (6.9, 50.6), (7.1, 50.0), (6.3, 49.6), (5.2, 49.7),
                                     (4.4, 49.9)]),
    ("rough", "Vosges", [(6.7, 48.7), (7.4, 48.6), (7.3, 47.8), (6.8, 47.8)]),
    ("rough", "Black Forest and Swabian Jura", [(7.8, 48.8), (8.6, 48.7), (9.8, 48.6), (9.6, 48.2), (8.4, 47.6),
                                                 (7.7, 47.6)]),
    ("rough", "Hunsruck and Taunus", [(6.8, 49.6), (8.5, 50.2), (8.5, 50.4), (7.6, 50.3), (6.6, 49.9)]),
    ("rough", "Harz", [(10.3, 51.9), (11.3, 51.8), (11.2, 51.6), (10.3, 51.65)]),
    ("forest", "Thuringian Forest", [(10.0, 50.8), (11.5, 50.6), (11.5, 50.4), (10.2, 50.5)]),
    ("rough", "Bohemian ring: Ore Mountains, Sudetes, Bohemian Forest",
     [(12.0, 50.5), (13.5, 50.8), (15.0, 50.95), (16.5, 50.6), (17.5, 50.2), (16.8, 49.9), (15.5, 50.3),
      (14.0, 50.55), (12.6, 50.1), (12.9, 49.3), (13.9, 48.75), (13.0, 48.6), (12.1, 49.6)]),
    ("rough", "Apennines", [(8.0, 44.45), (10.0, 44.6), (11.5, 44.25), (12.6, 43.6), (13.6, 42.6), (14.9, 41.4),
                            (16.2, 40.3), (16.4, 38.8), (15.8, 38.8), (15.3, 40.2), (14.0, 41.5), (12.8, 42.6),
                            (11.8, 43.5), (10.2, 44.1), (8.0, 44.2)]),
    ("forest", "Masurian lakes and forests", [(20.3, 54.0), (22.5, 54.1), (22.4, 53.4), (20.5, 53.4)]),
    ("marsh", "Pripet marshes", [(24.0, 52.3), (28.0, 52.4), (28.0, 51.3), (24.0, 51.5)]),
    ("marsh", "Peel and Biesbosch", [(5.6, 51.55), (6.0, 51.5), (5.9, 51.25), (5.5, 51.3)]),
]

# Rivers as polylines (they follow hexsides, [WiE-base 5.2]).  The great rivers of the 1945
# campaign: the Rhine and the Maas in the west, the Oder, Neisse and Vistula in the east, the
# Danube, the Po and the Yugoslav rivers in the south.
RIVERS: list[tuple[str, list[Point]]] = [
    ("Rhine", [(9.6, 47.6), (8.6, 47.6), (7.6, 47.58), (7.55, 48.0), (7.8, 48.6), (8.2, 49.0), (8.45, 49.5),
               (8.3, 50.0), (7.6, 50.35), (7.1, 50.75), (6.95, 50.95), (6.77, 51.22), (6.7, 51.45), (6.2, 51.85),
               (5.9, 51.9), (5.3, 51.8), (4.5, 51.9), (4.1, 51.95)]),
    ("Maas", [(5.6, 48.1), (5.38, 49.16), (4.95, 49.7), (4.85, 50.15), (4.87, 50.46), (5.57, 50.63), (5.69, 50.85),
              (6.17, 51.37), (5.85, 51.75), (5.3, 51.75), (4.6, 51.7)]),
    ("Moselle", [(6.18, 48.69), (6.17, 49.12), (6.36, 49.47), (6.65, 49.75), (7.15, 50.0), (7.6, 50.36)]),
    ("Main", [(11.6, 50.1), (10.9, 49.9), (10.2, 50.0), (9.93, 49.79), (9.5, 49.95), (9.15, 49.97), (8.68, 50.1),
              (8.3, 50.0)]),
    ("Danube", [(8.5, 48.0), (10.0, 48.4), (11.4, 48.75), (12.1, 49.0), (13.46, 48.57), (14.3, 48.3), (15.6, 48.4),
                (16.37, 48.21), (17.1, 48.14), (17.9, 47.75), (18.9, 47.8), (19.05, 47.5), (18.68, 45.99),
                (19.84, 45.25), (20.46, 44.82), (21.5, 44.7), (22.6, 44.6), (23.0, 43.8), (24.5, 43.7),
                (25.95, 43.85), (27.5, 44.1), (28.0, 45.2), (29.6, 45.2)]),
    ("Elbe", [(15.8, 50.2), (15.2, 50.1), (14.45, 50.35), (14.05, 50.66), (13.74, 51.05), (12.65, 51.86),
              (11.95, 51.85), (11.63, 52.13), (11.97, 52.54), (11.4, 53.0), (10.6, 53.35), (10.0, 53.55),
              (9.0, 53.85), (8.7, 53.9)]),
    ("Weser", [(9.65, 51.4), (9.36, 52.1), (8.9, 52.3), (9.2, 52.7), (8.8, 53.08), (8.5, 53.55)]),
    ("Oder", [(18.2, 49.8), (17.9, 50.67), (17.03, 51.11), (16.1, 51.65), (14.75, 52.07), (14.55, 52.35),
              (14.64, 52.59), (14.2, 53.0), (14.55, 53.43), (14.3, 53.75)]),
    ("Neisse", [(15.0, 50.9), (14.99, 51.15), (14.75, 51.6), (14.75, 52.07)]),
    ("Vistula", [(19.0, 49.9), (19.94, 50.05), (21.0, 50.3), (21.75, 50.7), (21.85, 51.55), (21.05, 52.25),
                 (20.6, 52.4), (19.7, 52.6), (18.6, 53.0), (18.1, 53.15), (18.75, 53.5), (18.85, 54.1),
                 (18.95, 54.35)]),
    ("Narew and Bug", [(23.5, 52.9), (22.4, 53.05), (21.5, 53.0), (21.1, 52.8), (20.65, 52.43)]),
    ("Po", [(7.7, 45.05), (8.6, 45.05), (9.7, 45.05), (10.3, 44.98), (11.6, 44.9), (12.5, 44.95)]),
    ("Drava", [(13.85, 46.6), (15.65, 46.56), (16.8, 46.15), (17.5, 45.9), (18.7, 45.55), (18.95, 45.55)]),
    ("Sava", [(14.5, 46.05), (15.9, 45.8), (17.0, 45.2), (18.4, 45.05), (19.3, 44.95), (20.46, 44.82)]),
    ("Tisza", [(22.5, 48.2), (21.5, 48.15), (20.2, 47.17), (20.15, 46.25), (20.2, 45.1)]),
    ("Seine", [(4.1, 48.3), (2.35, 48.85), (1.1, 49.4), (0.1, 49.45)]),
]


def sea_area_of(lon: float, lat: float) -> str:
    """The sea area of a water hex (77.4 the Baltic, 77.5 the North Sea): authored lines."""
    if (lat > 53.9 and lon > 10.5) or (lon > 12.5 and lat > 54.2):
        return "baltic"
    if lat > 51.0 and lon > 2.3:
        return "north-sea"
    if lon < 2.3 and lat > 48.5:
        return "channel"
    if lon < 0.0:
        return "atlantic"
    if lon > 12.0 and lat > 40.0 and lon < 20.0:
        return "adriatic"
    if lon > 20.0:
        return "aegean"
    return "mediterranean"


# Places: (name, country, kind, lat, lon, attrs).  kind: capital | city | town.  Names are the
# booklet's where it names a place (Wehrkreise and their spellings of 77.7, the bombed centers
# of 76.25, the cities of 75.9), plain English/ASCII otherwise.  attrs as written into
# features.txt:
#   wehrkreis=XNNNN  a German Placement Center (77.7): seed, with its printed hex; the place is
#                    put on that hex.  Errata (rules-gaps.md WiE item 3): Stettin and Breslau are
#                    both printed 5421; on the fitted grid Breslau is at C5421 and Stettin at C5412
#                    (a transposition), and Prague "3721" is at C4721 (one digit): printed= keeps
#                    the booklet's text
#   mfg              a German Manufacturing Center (75.91-75.93, 76.4): authored list, the WitW
#                    German production charts are not in the seed; Lille and Brussels are seed (75.91)
#   resource         a German Resource Center (76.4, 76.25): the five bombed centers are seed
#                    (Dulmen, Wesseling, Leuna, Brux, Politz: synthetic oil), the rest authored
#   personnel printed=XNNNN  a Soviet Personnel Center (77.7, seed); placed by geography, since
#                    Riga's printed G1810 is the Gulf of Riga on this grid (G1811 is Riga) and
#                    Minsk (G1923) is east of the map
#   port=major|minor [WiE-base 9.1]; capital=COUNTRY
# Listed most important first: two places in one hex merge into the first (an alias).
CITIES: list[tuple[str, str, str, float, float, str]] = [
    ("Berlin", "GER", "capital", 52.52, 13.40, "wehrkreis=C5013 mfg capital=GER"),
    ("Vienna", "GER", "city", 48.21, 16.37, "wehrkreis=C4728 mfg"),
    ("Prague", "BOH", "city", 50.08, 14.42, "wehrkreis=C4721 printed=C3721 mfg"),
    ("Hamburg", "GER", "city", 53.55, 10.00, "wehrkreis=C4707 mfg port=major"),
    ("Munich", "GER", "city", 48.14, 11.58, "wehrkreis=C3723 mfg"),
    ("Stuttgart", "GER", "city", 48.78, 9.18, "wehrkreis=C3418 mfg"),
    ("Wiesbaden", "GER", "city", 50.08, 8.24, "wehrkreis=C3513"),
    ("Munster", "GER", "city", 51.96, 7.63, "wehrkreis=C3808"),
    ("Nuremberg", "GER", "city", 49.45, 11.08, "wehrkreis=C3919 mfg"),
    ("Salzburg", "GER", "city", 47.80, 13.05, "wehrkreis=C4025"),
    ("Kassel", "GER", "city", 51.32, 9.50, "wehrkreis=C4112 mfg"),
    ("Dresden", "GER", "city", 51.05, 13.74, "wehrkreis=C4718 mfg"),
    ("Stettin", "GER", "city", 53.43, 14.55, "wehrkreis=C5412 printed=C5421 mfg port=major"),
    ("Breslau", "GER", "city", 51.11, 17.03, "wehrkreis=C5421 mfg"),
    ("Posen", "POL", "city", 52.41, 16.93, "wehrkreis=C5617"),
    ("Cracow", "POL", "city", 50.06, 19.94, "wehrkreis=C5827"),
    ("Danzig", "GER", "city", 54.35, 18.65, "wehrkreis=G0314 port=major"),
    ("Konigsberg", "GER", "city", 54.71, 20.51, "wehrkreis=G0714 mfg port=minor"),
    ("Essen", "GER", "city", 51.46, 7.01, "mfg"),
    ("Dortmund", "GER", "city", 51.51, 7.47, "mfg"),
    ("Duisburg", "GER", "city", 51.43, 6.76, "mfg"),
    ("Cologne", "GER", "city", 50.94, 6.96, "mfg"),
    ("Dusseldorf", "GER", "city", 51.23, 6.78, "mfg"),
    ("Frankfurt", "GER", "city", 50.11, 8.68, "mfg"),
    ("Mannheim", "GER", "city", 49.49, 8.47, "mfg"),
    ("Augsburg", "GER", "city", 48.37, 10.90, "mfg"),
    ("Leipzig", "GER", "city", 51.34, 12.37, "mfg"),
    ("Chemnitz", "GER", "city", 50.83, 12.92, "mfg"),
    ("Bremen", "GER", "city", 53.08, 8.80, "mfg port=major"),
    ("Hannover", "GER", "city", 52.37, 9.73, "mfg"),
    ("Magdeburg", "GER", "city", 52.13, 11.63, "mfg"),
    ("Brunswick", "GER", "city", 52.27, 10.52, "mfg"),
    ("Linz", "GER", "city", 48.31, 14.29, "mfg"),
    ("Pilsen", "BOH", "city", 49.75, 13.38, "mfg"),
    ("Lille", "FRA", "city", 50.63, 3.06, "mfg"),
    ("Brussels", "BEL", "capital", 50.85, 4.35, "mfg capital=BEL"),
    ("Dulmen", "GER", "town", 51.83, 7.28, "resource"),
    ("Wesseling", "GER", "town", 50.82, 6.98, "resource"),
    ("Leuna", "GER", "town", 51.32, 12.02, "resource"),
    ("Brux", "BOH", "town", 50.50, 13.64, "resource"),
    ("Politz", "GER", "town", 53.57, 14.60, "resource"),
    ("Gelsenkirchen", "GER", "town", 51.52, 7.09, "resource"),
    ("Bohlen", "GER", "town", 51.20, 12.38, "resource"),
    ("Ruhland", "GER", "town", 51.46, 13.87, "resource"),
    ("Blechhammer", "GER", "town", 50.35, 18.33, "resource"),
    ("Zistersdorf", "GER", "town", 48.54, 16.76, "resource"),
    ("Paris", "FRA", "capital", 48.86, 2.35, "capital=FRA"),
    ("Amsterdam", "NET", "capital", 52.37, 4.90, "port=major capital=NET"),
    ("Rotterdam", "NET", "city", 51.92, 4.48, "port=major"),
    ("Antwerp", "BEL", "city", 51.22, 4.40, "port=major"),
    ("Le Havre", "FRA", "city", 49.49, 0.11, "port=major"),
    ("Cherbourg", "FRA", "city", 49.64, -1.62, "port=major"),
    ("Brest", "FRA", "city", 48.39, -4.49, "port=minor"),
    ("Lorient", "FRA", "town", 47.75, -3.37, "port=minor"),
    ("St Nazaire", "FRA", "town", 47.28, -2.21, "port=minor"),
    ("La Rochelle", "FRA", "town", 46.16, -1.15, "port=minor"),
    ("Dunkirk", "FRA", "town", 51.03, 2.38, "port=minor"),
    ("Calais", "FRA", "town", 50.95, 1.86, "port=minor"),
    ("Ostend", "BEL", "town", 51.23, 2.92, "port=minor"),
    ("Marseilles", "FRA", "city", 43.30, 5.37, "port=major"),
    ("Toulon", "FRA", "town", 43.12, 5.93, "port=minor"),
    ("Lyon", "FRA", "city", 45.76, 4.84, ""),
    ("Reims", "FRA", "city", 49.26, 4.03, ""),
    ("Nancy", "FRA", "city", 48.69, 6.18, ""),
    ("Metz", "FRA", "city", 49.12, 6.18, ""),
    ("Strasbourg", "FRA", "city", 48.58, 7.75, ""),
    ("Dijon", "FRA", "city", 47.32, 5.04, ""),
    ("Orleans", "FRA", "city", 47.90, 1.91, ""),
    ("Rouen", "FRA", "city", 49.44, 1.10, "port=minor"),
    ("Liege", "BEL", "city", 50.63, 5.57, ""),
    ("Luxembourg", "LUX", "capital", 49.61, 6.13, "capital=LUX"),
    ("Aachen", "GER", "town", 50.78, 6.08, ""),
    ("Nijmegen", "NET", "town", 51.84, 5.86, ""),
    ("Arnhem", "NET", "town", 51.98, 5.91, ""),
    ("Emden", "GER", "town", 53.37, 7.21, "port=minor"),
    ("Wilhelmshaven", "GER", "town", 53.52, 8.13, "port=minor"),
    ("Kiel", "GER", "city", 54.32, 10.14, "port=major"),
    ("Lubeck", "GER", "city", 53.87, 10.69, "port=minor"),
    ("Rostock", "GER", "city", 54.09, 12.10, "port=minor"),
    ("Copenhagen", "DEN", "capital", 55.68, 12.57, "port=major capital=DEN"),
    ("Karlsruhe", "GER", "city", 49.01, 8.40, ""),
    ("Saarbrucken", "GER", "city", 49.23, 7.00, ""),
    ("Koblenz", "GER", "city", 50.36, 7.59, ""),
    ("Wurzburg", "GER", "city", 49.79, 9.93, ""),
    ("Regensburg", "GER", "city", 49.01, 12.10, ""),
    ("Ulm", "GER", "city", 48.40, 9.99, ""),
    ("Erfurt", "GER", "city", 50.98, 11.03, ""),
    ("Frankfurt an der Oder", "GER", "town", 52.35, 14.55, ""),
    ("Kustrin", "GER", "town", 52.58, 14.64, ""),
    ("Graz", "GER", "city", 47.07, 15.44, ""),
    ("Innsbruck", "GER", "city", 47.27, 11.39, ""),
    ("Brunn", "BOH", "city", 49.20, 16.61, ""),
    ("Ostrau", "BOH", "city", 49.83, 18.29, ""),
    ("Bratislava", "SLK", "capital", 48.15, 17.11, "capital=SLK"),
    ("Kosice", "SLK", "town", 48.72, 21.26, ""),
    ("Budapest", "HUN", "capital", 47.50, 19.04, "capital=HUN"),
    ("Warsaw", "POL", "capital", 52.23, 21.01, "capital=POL"),
    ("Lodz", "POL", "city", 51.76, 19.46, ""),
    ("Bromberg", "POL", "city", 53.12, 18.01, ""),
    ("Thorn", "POL", "town", 53.01, 18.60, ""),
    ("Gdynia", "POL", "town", 54.52, 18.53, "port=minor"),
    ("Kattowitz", "POL", "city", 50.26, 19.02, "mfg"),
    ("Oswiecim", "POL", "town", 50.04, 19.22, "resource"),
    ("Radom", "POL", "town", 51.40, 21.15, ""),
    ("Lublin", "POL", "city", 51.25, 22.57, ""),
    ("Bialystok", "POL", "city", 53.13, 23.16, ""),
    ("Lemberg", "SOV", "city", 49.84, 24.03, ""),
    ("Brest-Litovsk", "SOV", "town", 52.10, 23.70, ""),
    ("Vilna", "SOV", "city", 54.69, 25.28, ""),
    ("Kovno", "SOV", "city", 54.90, 23.90, ""),
    ("Memel", "GER", "town", 55.71, 21.13, "port=minor"),
    ("Tilsit", "GER", "town", 55.08, 21.88, ""),
    ("Insterburg", "GER", "town", 54.63, 21.81, ""),
    ("Pillau", "GER", "town", 54.63, 19.90, "port=minor"),
    ("Libau", "SOV", "town", 56.51, 21.01, "port=minor"),
    ("Windau", "SOV", "town", 57.39, 21.56, "port=minor"),
    ("Riga", "SOV", "city", 56.95, 24.11, "printed=G1810 personnel port=major"),
    ("Minsk", "SOV", "city", 53.90, 27.56, "printed=G1923 personnel"),
    ("Mitau", "SOV", "town", 56.65, 23.72, ""),
    ("Rome", "ITA", "capital", 41.90, 12.50, "capital=ITA"),
    ("Milan", "ITA", "city", 45.46, 9.19, ""),
    ("Turin", "ITA", "city", 45.07, 7.69, ""),
    ("Genoa", "ITA", "city", 44.41, 8.93, "port=major"),
    ("La Spezia", "ITA", "town", 44.10, 9.82, "port=minor"),
    ("Bologna", "ITA", "city", 44.49, 11.34, ""),
    ("Florence", "ITA", "city", 43.77, 11.25, ""),
    ("Livorno", "ITA", "town", 43.55, 10.31, "port=minor"),
    ("Ravenna", "ITA", "town", 44.42, 12.20, "port=minor"),
    ("Ancona", "ITA", "town", 43.62, 13.52, "port=minor"),
    ("Venice", "ITA", "city", 45.44, 12.33, "port=major"),
    ("Verona", "ITA", "city", 45.44, 10.99, ""),
    ("Trieste", "ITA", "city", 45.65, 13.78, "port=major"),
    ("Naples", "ITA", "city", 40.85, 14.27, "port=major"),
    ("Bari", "ITA", "city", 41.12, 16.87, "port=major"),
    ("Pescara", "ITA", "town", 42.46, 14.21, "port=minor"),
    ("Zagreb", "YUG", "city", 45.81, 15.98, ""),
    ("Ljubljana", "YUG", "city", 46.06, 14.51, ""),
    ("Sarajevo", "YUG", "city", 43.86, 18.41, ""),
    ("Belgrade", "YUG", "capital", 44.82, 20.46, "capital=YUG"),
    ("Split", "YUG", "town", 43.51, 16.44, "port=minor"),
    ("Fiume", "ITA", "town", 45.33, 14.44, "port=minor"),
    ("Skopje", "YUG", "city", 42.00, 21.43, ""),
    ("Nis", "YUG", "town", 43.32, 21.90, ""),
    ("Sofia", "BUL", "capital", 42.70, 23.32, "capital=BUL"),
    ("Salonika", "GRE", "city", 40.64, 22.94, "port=major"),
    ("Tirana", "ALB", "capital", 41.33, 19.82, "capital=ALB"),
    ("Debrecen", "HUN", "city", 47.53, 21.63, ""),
    ("Szeged", "HUN", "town", 46.25, 20.15, ""),
    ("Cluj", "RUM", "city", 46.77, 23.59, ""),
    ("Timisoara", "RUM", "city", 45.75, 21.23, ""),
    ("Zurich", "SUI", "city", 47.37, 8.54, ""),
    ("Bern", "SUI", "capital", 46.95, 7.45, "capital=SUI"),
    ("London", "GBR", "capital", 51.51, -0.13, "port=major capital=GBR"),
    ("Dover", "GBR", "town", 51.13, 1.31, "port=minor"),
    ("Southampton", "GBR", "city", 50.90, -1.40, "port=major"),
]

# Rail lines of 1944-45 ([WiE-base 8]): waypoints are place names, printed hexes or (lon, lat) junctions,
# drawn as straight hex lines between them.  The main double-track lines of the Reich and its
# approaches, and the lines 76.3 step 1 names (the Allied rail net repaired C1732-C2108).
LINES: list[tuple[str, list[str | Point]]] = [
    ("Paris-Reims-Metz-Saarbrucken", ["Paris", "Reims", "Metz", "Saarbrucken", "Mannheim"]),
    ("Paris-Nancy-Strasbourg", ["Paris", "Nancy", "Strasbourg", "Karlsruhe", "Stuttgart", "Ulm", "Augsburg",
                                "Munich", "Salzburg", "Linz", "Vienna"]),
    ("Marseilles-Lyon-Dijon-Paris", ["Marseilles", "Lyon", "Dijon", "Paris"]),
    ("Dijon-Nancy", ["Dijon", "Nancy"]),
    ("Paris-Lille-Brussels", ["Paris", "Lille", "Brussels", "Antwerp", "Rotterdam", "Amsterdam"]),
    ("Le Havre-Rouen-Paris", ["Le Havre", "Rouen", "C2108", "Paris"]),
    ("Cherbourg-Caen-Rouen", ["Cherbourg", (-1.3, 49.3), (-0.37, 49.1), (0.23, 49.1), "Rouen"]),
    ("Brussels-Liege-Aachen-Cologne", ["Brussels", "Liege", "Aachen", "Cologne", "Dusseldorf", "Duisburg",
                                       "Essen", "Dortmund", "Hannover", "Brunswick", "Magdeburg", "Berlin"]),
    ("Rhine left bank", ["Nijmegen", "Duisburg"]),
    ("Cologne-Koblenz-Mainz-Mannheim", ["Cologne", "Koblenz", "Wiesbaden", "Frankfurt", "Mannheim", "Karlsruhe"]),
    ("Metz-Luxembourg-Koblenz", ["Metz", "Luxembourg", "Koblenz"]),
    ("Frankfurt-Wurzburg-Nuremberg", ["Frankfurt", "Wurzburg", "Nuremberg", "Regensburg", "Linz"]),
    ("Nuremberg-Munich", ["Nuremberg", "Munich"]),
    ("Frankfurt-Kassel-Hannover-Hamburg", ["Frankfurt", "Kassel", "Hannover", "Hamburg", "Kiel"]),
    ("Munster-Bremen-Hamburg", ["Dortmund", "Munster", "Bremen", "Hamburg", "Lubeck", "Rostock", "Stettin"]),
    ("Hamburg-Berlin", ["Hamburg", "Berlin"]),
    ("Berlin-Leipzig-Nuremberg", ["Berlin", "Leipzig", "Erfurt", "Kassel"]),
    ("Leipzig-Dresden-Breslau", ["Leipzig", "Chemnitz", "Dresden", "Breslau", "Kattowitz", "Cracow"]),
    ("Berlin-Dresden-Prague-Vienna", ["Berlin", "Dresden", "Prague", "Brunn", "Vienna", "Budapest"]),
    ("Nuremberg-Pilsen-Prague", ["Nuremberg", "Pilsen", "Prague"]),
    ("Berlin-Frankfurt an der Oder-Posen-Warsaw", ["Berlin", "Frankfurt an der Oder", "Posen", "Lodz", "Warsaw"]),
    ("Berlin-Stettin-Danzig-Konigsberg", ["Berlin", "Stettin", "Danzig", (19.4, 54.1), (20.1, 54.3), "Konigsberg",
                                          "Insterburg", "Kovno",
                                          "Vilna"]),
    ("Kustrin-Bromberg-Danzig", ["Berlin", "Kustrin", "Bromberg", "Danzig"]),
    ("Posen-Breslau", ["Posen", "Breslau"]),
    ("Thorn-Warsaw-Brest", ["Bromberg", "Thorn", "Warsaw", "Brest-Litovsk"]),
    ("Warsaw-Radom-Cracow", ["Warsaw", "Radom", "Cracow", "Lemberg"]),
    ("Warsaw-Lublin", ["Warsaw", "Lublin", "Lemberg"]),
    ("Warsaw-Bialystok-Vilna", ["Warsaw", "Bialystok", "Vilna"]),
    ("Konigsberg-Tilsit-Memel", ["Konigsberg", (21.2, 54.65), "Tilsit", "Memel", "Libau"]),
    ("Libau-Mitau-Riga", ["Libau", "Mitau", "Riga"]),
    ("Windau-Mitau", ["Windau", "Mitau"]),
    ("Vienna-Graz-Ljubljana-Trieste", ["Vienna", "Graz", "Ljubljana", "Trieste", (13.2, 45.9),
                                       (12.6, 45.75), "Venice"]),
    ("Budapest-Belgrade-Nis-Sofia", ["Budapest", "Szeged", "Belgrade", "Nis", "Sofia"]),
    ("Nis-Skopje-Salonika", ["Nis", "Skopje", "Salonika"]),
    ("Zagreb-Belgrade", ["Ljubljana", "Zagreb", "Belgrade"]),
    ("Budapest-Zagreb-Fiume", ["Budapest", "Zagreb", "Fiume"]),
    ("Munich-Innsbruck-Verona", ["Munich", "Innsbruck", "Verona", "Bologna", "Florence", "Rome",
                                 (13.3, 41.65), (13.9, 41.3), "Naples"]),
    ("Turin-Milan-Verona-Venice", ["Turin", "Milan", "Verona", "Venice"]),
    ("Milan-Bologna-Ancona-Bari", ["Milan", "Bologna", (11.9, 44.15), (12.5, 43.8), (13.2, 43.45),
                                    (13.8, 42.8), (14.2, 42.2), (15.0, 41.6), (16.2, 41.1), "Bari"]),
    ("Genoa-Milan", ["Genoa", "Milan"]),
    ("Genoa-La Spezia-Livorno-Rome", ["Genoa", "La Spezia", "Livorno", "Rome"]),
    ("Marseilles-Genoa", ["Marseilles", "Toulon", (7.26, 43.70), "Genoa"]),
    ("Budapest-Debrecen", ["Budapest", "Debrecen"]),
    ("Ostrau-Cracow", ["Brunn", "Ostrau", "Kattowitz"]),
    ("Bratislava-Kosice", ["Bratislava", "Kosice"]),
    # Lines to the Soviet supply edge ([WiE-base 11.1]: column 84 of map G, the east edge of map D)
    # as they ran in 1944-45, so the Soviet fronts of the 1945 Start Line trace supply to it: the
    # Warsaw-Moscow main line (Brest-Baranovichi-Minsk-Orsha), Vilna-Molodechno-Minsk, Riga-Dvinsk-
    # Polotsk, Lemberg-Rovno-Kiev; in the south Debrecen-Oradea-Cluj (to Brasov and Bucharest),
    # Belgrade-Timisoara-Orsova-Craiova (to Bucharest), Sofia-Gorna Oryahovitsa (to Ruse) and
    # Sofia-Plovdiv-Stara Zagora (to the Black Sea).  Each ends on the edge hex nearest its course.
    ("Brest-Baranovichi-Minsk", ["Brest-Litovsk", (26.0, 53.13), "Minsk", "G2422"]),
    ("Vilna-Molodechno-Minsk", ["Vilna", (26.85, 54.31), "Minsk"]),
    ("Riga-Dvinsk-Polotsk", ["Riga", (26.52, 55.87), "G2418"]),
    ("Lemberg-Rovno-Kiev", ["Lemberg", (26.25, 50.62), "G2432"]),
    ("Debrecen-Oradea-Cluj", ["Debrecen", (21.92, 47.05), "Cluj"]),
    ("Belgrade-Timisoara-Craiova", ["Belgrade", "Timisoara", (22.4, 44.72), (23.8, 44.32), "D6016"]),
    ("Sofia-Gorna Oryahovitsa", ["Sofia", (24.6, 43.0), (25.7, 43.13), "D6019"]),
    ("Sofia-Plovdiv-Stara Zagora", ["Sofia", (24.75, 42.15), (25.6, 42.42), "D6021"]),
    # Axis lines of Army Groups E/F and the Italian front: Brod-Sarajevo-Mostar and Sarajevo-
    # Visegrad-Uzice (the Bosnian lines), Trieste-Pola (Istria), Turin-Ivrea-Aosta and
    # Milan-Domodossola (the Alpine front).  And the Allied Paris-Le Mans-Rennes-Nantes line
    # that served the siege of the Brittany pockets.
    ("Brod-Sarajevo-Mostar", [(18.01, 45.16), "Sarajevo", (17.81, 43.34)]),
    ("Sarajevo-Visegrad-Uzice", ["Sarajevo", (19.29, 43.78), (19.84, 43.86)]),
    ("Trieste-Pola", ["Trieste", (13.85, 44.87)]),
    ("Turin-Ivrea-Aosta", ["Turin", (7.87, 45.47), (7.32, 45.74)]),
    ("Milan-Domodossola", ["Milan", (8.29, 46.12)]),
    ("Paris-Le Mans-Rennes-Nantes", ["Paris", (0.2, 48.0), (-1.68, 48.11), (-1.55, 47.22)]),
]


# --- the set-up of 76.2, transcribed (seed) --------------------------------------------------
# One line per booklet line (an indented line continues it): SIDE NATION TYPE PER-HEX HEX...
# (hexes as printed, section letter first; "[5]-1" is the booklet's bracketed strength).  The
# tool checks every hex is on the map and land, and writes one unit record per unit (units.txt).
SETUP_BY_HEX = """\
axis GER 6-5 3 C3114
axis GER 6-5 2 C3311 C3211 C3113 C2823 C3133 C2933
axis GER 6-5 1 C3607 C3608 C3509 C3317 C3118 C3017 C2917 C2918 C3215 C3316 C3706 C3708 C3411 C3213
  C3313 C3410 C2732 C3032 C2631 C2531 C2026 C2224 C3232 C3531 C3732 C3533 C2932 C3132 C2731 C2630
axis GER [5]-1 1 C3204 C3506 C3405 C3306 C3608 C3317 C3409 C3410 C3113 C3213 C3217 C2028
axis GER 8-8 2 C3511 C3312
axis GER 13-8 1 C3610
axis GER 11-8 1 C3133
axis GER 10-8 2 C3212
axis GER 10-8 1 C3211 C3510 C3315 C2932
axis GER 8-8 2 C3213 C3214 C3610 C3313 C2832
axis GER 3-8 1 C3017 C2326
axis GER 7-5 1 C3311 C3305 C3606 C2832
axis GER 11-8KG 1 C2917
axis GER 10-8KG 1 C3214
axis GER 8-8KG 1 C3316
axis GER 6-5KG 1 C0811 C0903 C1006 C0909 C2704 C3608 C3509 C3214 C3217 C2319 C3409 C3215 C3410 C3311
  C3211 C3113 C3114 C2831 C2326 C3531 C2933 C2428 C3331 C2631
axis RSI 2-4 1 C2631 C2732 C2323
allied US 8-10 4 C2733
allied US 8-10 3 C3310 C3309 C3013
allied US 8-10 2 C3210 C3111 C3012 C3014 C3115 C3216 C1426 C3116
allied US 8-10 1 C3009 C3112 C1002 C3008 C2914 C2318 C3117 C2004 C3016 C2532 C2632
allied US 11-8 1 C3208 C3109
allied US 9-8 1 C3208 C3109 C3011 C3014 C3115 C2913 C1107 C3117 C3216
allied US 9-10 2 C2610
allied CW 8-10 2 C3507 C3508 C3408 C2833
allied CW 8-10 3 C3033
allied CW 8-10 1 C3105 C3205 C3306 C3406 C2633
allied CW 3-10 2 C3105
allied CW 3-10 1 C2705 C3107 C3106
allied CW 9-8 1 C3507 C3508 C3408 C3205 C3306 C3406 C2533
allied CW 3-8 1 C3507 C3508 C3408 C3406 C3205 C2633 C3033
allied US 8-10 1 D2601 D2401
allied US 11-8 1 D2701
allied CW 8-10 2 D2901
allied CW 8-10 1 D3101 D3203
allied CW 9-8 1 D3101 D2801 D3212
allied CW 3-10 2 D2801
allied CW 3-10 1 D3001 D2701 D2607 D2608
allied CW 3-8 2 D3101
allied CW 3-8 1 D2802 D2606 D2901
allied ITA 2-4 1 D3002 D2601
allied ITA 1-6 1 D2802
"""

# The one hex the set-up gives to both sides: 76.21 prints an Axis [5]-1 in C3306, which 76.2
# also gives a Commonwealth 8-10 and 9-8.  Authored: the fortress unit moves to the adjacent
# Axis hex C3305 (which holds a single 7-5); (side, type, printed hex) -> hex.
SETUP_MOVED: dict[tuple[str, str, str], tuple[str, str]] = {
    ("axis", "[5]-1", "C3306"): ("C3305", "76.2 also puts a CW 8-10 and 9-8 in C3306: the Axis fortress unit "
                                           "goes to the adjacent Axis hex C3305"),
}

# Formations placed by area (76.21 army groups, placed at 76.3 step 4; 76.2 Soviet, Bulgarian,
# Rumanian and Yugoslav forces, placed at step 5): (side, nation, type, count, area).
SETUP_BY_AREA: list[tuple[str, str, str, int, str]] = [
    *[("axis", n, t, c, "ag-a") for n, t, c in (("GER", "10-8", 6), ("GER", "6-5", 16), ("GER", "6-5KG", 16),
                                               ("HUN", "2-4", 1))],
    *[("axis", "GER", t, c, "ag-north") for t, c in (("11-8", 1), ("10-8", 2), ("6-5", 15), ("6-5KG", 16))],
    *[("axis", "GER", t, c, "ag-center") for t, c in (("13-8", 2), ("10-8", 6), ("8-8", 3), ("3-8", 2),
                                                      ("6-5", 23), ("2-3", 1), ("6-5KG", 20))],
    *[("axis", n, t, c, "ag-south") for n, t, c in (("GER", "11-8", 2), ("GER", "10-8", 4), ("GER", "6-5", 4),
                                                   ("GER", "2-3", 2), ("GER", "8-8KG", 1), ("GER", "6-5KG", 5),
                                                   ("HUN", "1-6", 5), ("HUN", "2-4", 13), ("HUN", "1-3", 3))],
    *[("axis", "GER", t, c, "ag-f") for t, c in (("8-8", 1), ("6-5", 6), ("[5]-1", 4), ("6-5KG", 9))],
    *[("axis", "GER", t, c, "central-reserve") for t, c in (("6-5", 6), ("6-5KG", 8))],
    ("axis", "GER", "6-5", 1, "independent"),
    *[("soviet", "SOV", t, c, "soviet-east") for t, c in (
        ("9-6", 5), ("8-6", 7), ("2-3", 20), ("5-5", 40), ("4-4", 31), ("1-4", 30), ("0-1-10", 32),
        ("10-1-10", 18), ("SUP", 6), ("RR", 6), ("9-6BG", 4), ("8-6BG", 8), ("4-4BG", 19))],
    ("soviet", "BUL", "2-4", 7, "soviet-east"), ("soviet", "BUL", "1-3", 1, "soviet-east"),
    ("soviet", "RUM", "2-4", 3, "soviet-east"),
    ("soviet", "YUG", "2-5", 19, "yugoslavia-east"), ("soviet", "YUG", "5-0", 6, "yugoslavia-west"),
]

# 76.21 also prints "Independent: One 6-5 in hex: G1002", which is Baltic sea on this grid;
# 76.3 step 4 says "Must deploy in hex G1012" (Memel): G1002 is read as a misprint of G1012.
# Army Group boundaries of 76.3 step 4, as printed (section letter and hex).  "D4S02" is
# garbled: read as D4502, next to Army Group F's d4503 (rules-gaps.md WiE item 3).
AREA_LINES: dict[str, tuple[tuple[str, str], tuple[str, str]] | tuple[str, str]] = {
    "ag-a": (("G0225", "C4419"), ("C5131", "C4026")),
    "ag-center": (("G1014", "C5406"), ("G0325", "C4919")),
    "ag-south": (("C5132", "C3926"), ("D4502", "C3932")),
    "ag-f": ("D4503", "C3732"),  # "south of the line"
}
AG_NORTH_CENTRE, AG_NORTH_RANGE = "G1409", 3  # "within three hexes (inclusive) of 1409": on map G
INDEPENDENT_HEX = "G1012"
FORTS = ["C3509", "C3608", "C3607", "C2707", "C0903"]  # 76.21, besides every West Wall hex
