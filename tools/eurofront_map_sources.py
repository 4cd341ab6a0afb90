"""Authored geographic inputs of the EuroFront 1936 Spanish Civil War map (data only).

Read by tools/author_map_eurofront.py.  Everything here is *authored* (source =
"authored"): the seed rulebook (../shared/seeds/000_b0dcb9d275dc4eea.txt) has no
map (rules-gaps.md, EuroFront item 1), so these layers approximate the real
geography of 1936 from well-known coordinates at the scale chosen in the tool.
Names are the rulebook's where it names a place (Madrid, Barcelona, Albacete,
Bayonne, Perpignan, Lisbon, Vigo, Porto, Cadiz, Gibraltar, Tangiers, Bilbao,
Malaga, Almeria, Cartagena, Valencia, Mallorca, Melilla: SCW scenario and 15.1),
plain English/ASCII spellings otherwise.  Coordinates are (lon, lat) in degrees.
"""

from __future__ import annotations

Poly = list[tuple[float, float]]
Point = tuple[float, float]

# Natural Earth ADM0_A3 -> map country.  Morocco and the Spanish enclaves are split by
# SPANISH_MOROCCO below (the 1912-1956 protectorate is not a modern country).
COUNTRY_OF: dict[str, str] = {
    "ESP": "SPA", "PRT": "POR", "FRA": "FRA", "AND": "AND", "GIB": "GIB", "MAR": "FMO", "DZA": "ALG",
}

# The northern zone of the Protectorate, 1912-1956 (authored outline: the Atlantic south of
# Larache, the Loukkos-Ouerrha line, the lower Moulouya); it includes Ceuta and Melilla,
# which were Spanish cities but are one theatre with the protectorate in the SCW scenario.
SPANISH_MOROCCO: Poly = [(-6.40, 35.95), (-6.40, 34.98), (-5.90, 34.90), (-5.20, 34.80), (-4.40, 34.78),
                         (-3.70, 34.85), (-2.90, 35.00), (-2.30, 35.05), (-2.30, 35.60), (-5.25, 36.05)]

# Hexes whose country is forced at a point: the Tangier International Zone (15.1 port
# Tangiers, 1923-1956) is a tenth of a hex but is its own territory, out of play in the SCW.
# Gibraltar is not forced: at this scale the Rock (7 km2) and Tarifa share a hex, and that
# hex must stay Spanish so that the Tarifa-Ceuta crossing exists (see STRAITS); Gibraltar is
# an out-of-play British enclave place in it (features.txt, "enclave").
COUNTRY_FORCED: list[tuple[str, Point]] = [("TAN", (-5.80, 35.77))]

# Land hexes whose sea faces are kept even if under the land threshold (ports on slivers).
# Alhucemas (Villa Sanjurjo) keeps the Rif coast land, so Melilla is joined to Tetuan by land;
# Menorca (Mahon) is an island of its own, not a town on Mallorca.
LAND_FORCED: list[Point] = [(-5.35, 36.14), (-5.80, 35.77), (-5.32, 35.89), (-2.94, 35.29), (-3.93, 35.24),
                            (4.0, 39.95)]

# (terrain, name, polygon); the first polygon containing a sample point wins; clear elsewhere.
# Terrain names follow the seed's Terrain Key (1.3): clear, forest and hill (1.32 Forest/Hill:
# one terrain, two names for readability), marsh (1.33), mountain (1.34).
TERRAIN_REGIONS: list[tuple[str, str, Poly]] = [
    ("mountain", "Pyrenees", [(-1.6, 43.15), (0.5, 42.95), (2.2, 42.55), (3.1, 42.45), (3.1, 42.25),
                              (1.9, 42.25), (0.4, 42.45), (-1.0, 42.75), (-1.6, 42.90)]),
    ("mountain", "Cantabrian Mountains and Picos de Europa", [(-6.9, 43.10), (-4.6, 43.25), (-3.6, 43.15),
                                                              (-3.6, 42.85), (-4.8, 42.85), (-6.8, 42.65)]),
    ("mountain", "Sierra de Gredos and Guadarrama", [(-6.0, 40.40), (-5.0, 40.50), (-4.1, 40.95), (-3.4, 41.20),
                                                    (-3.2, 41.00), (-3.9, 40.60), (-5.0, 40.20), (-6.0, 40.15)]),
    ("mountain", "Sierra Nevada", [(-3.9, 37.20), (-2.6, 37.30), (-2.6, 36.95), (-3.7, 36.85)]),
    ("mountain", "Rif", [(-5.2, 35.30), (-3.9, 35.25), (-3.6, 34.90), (-5.1, 34.88)]),
    ("hill", "Basque mountains", [(-3.5, 43.45), (-1.6, 43.40), (-1.6, 42.95), (-3.5, 42.95)]),
    ("hill", "Galicia and Montes de Leon", [(-9.4, 43.80), (-7.0, 43.70), (-6.1, 42.50), (-6.6, 41.85),
                                            (-8.9, 41.85)]),
    ("hill", "Iberian System", [(-3.4, 42.20), (-2.2, 42.05), (-1.2, 41.40), (-0.4, 40.70), (-0.4, 40.00),
                                (-1.4, 39.80), (-2.4, 40.30), (-3.2, 41.10)]),
    ("hill", "Catalan ranges and Pre-Pyrenees", [(0.4, 42.25), (3.2, 42.25), (2.3, 41.35), (1.0, 41.00),
                                                 (0.3, 40.75), (-0.2, 41.40)]),
    ("hill", "Montes de Toledo", [(-5.7, 39.65), (-3.9, 39.75), (-3.9, 39.35), (-5.7, 39.25)]),
    ("hill", "Sierra Morena", [(-7.2, 38.35), (-3.0, 38.55), (-2.5, 38.25), (-5.0, 37.95), (-7.2, 37.85)]),
    ("hill", "Betic ranges", [(-5.8, 36.95), (-2.0, 37.75), (-0.9, 38.65), (-0.1, 38.75), (-1.1, 37.55),
                              (-2.1, 36.75), (-5.4, 36.35)]),
    ("hill", "northern Portugal", [(-8.9, 41.85), (-6.2, 41.90), (-6.8, 40.30), (-8.4, 40.20)]),
    ("forest", "Mallorca Serra de Tramuntana", [(2.3, 39.95), (3.2, 39.95), (3.2, 39.70), (2.3, 39.55)]),
    ("marsh", "Guadalquivir marismas", [(-6.6, 37.20), (-6.0, 37.20), (-6.1, 36.80), (-6.5, 36.80)]),
]

# Rivers as polylines (they follow hexsides, 1.36).  The five great rivers of the Meseta and
# the Ebro, the lines the SCW front ran along (the Ebro 1938, the Tagus at Toledo, the Duero).
RIVERS: list[tuple[str, list[Point]]] = [
    ("Ebro", [(-4.2, 43.0), (-2.95, 42.68), (-2.45, 42.47), (-1.6, 42.06), (-0.88, 41.66), (-0.04, 41.23),
              (0.30, 41.37), (0.55, 41.23), (0.52, 40.81), (0.87, 40.72)]),
    ("Tagus", [(-1.8, 40.35), (-2.4, 40.55), (-3.0, 40.30), (-3.6, 40.03), (-4.03, 39.86), (-4.83, 39.96),
               (-5.7, 39.80), (-6.88, 39.72), (-7.5, 39.65), (-8.2, 39.46), (-8.68, 39.24), (-9.05, 38.80)]),
    ("Duero", [(-2.6, 41.95), (-2.47, 41.77), (-3.69, 41.67), (-5.0, 41.50), (-5.75, 41.50), (-6.5, 41.25),
               (-7.2, 41.10), (-8.62, 41.14)]),
    ("Guadiana", [(-3.0, 38.95), (-3.9, 39.05), (-4.8, 39.05), (-6.35, 38.92), (-6.97, 38.88), (-7.35, 38.40),
                  (-7.55, 37.70), (-7.40, 37.25)]),
    ("Guadalquivir", [(-2.9, 37.90), (-3.6, 37.95), (-4.05, 38.04), (-4.78, 37.88), (-5.5, 37.62),
                      (-6.0, 37.38), (-6.15, 37.05), (-6.36, 36.80)]),
]

# Sea areas (1.37, 15.1): which area a water hex at (lon, lat) lies in.  The 15.1 port lists
# put Malaga to Barcelona on the Alboran Sea, Barcelona also on the Gulf of Lyon, Mallorca on
# three areas; the lines between them are authored.
def sea_area_of(lon: float, lat: float) -> str:
    if lat > 43.2 and lon > -8.0:
        return "bay-of-biscay"
    if lon < -5.45 or (lat > 36.0 and lon < -5.6):
        return "atlantic-ocean"
    if lat > 41.0 or (lon > 2.6 and lat > 39.9):
        return "gulf-of-lyon"
    if lon > 1.8 and lat < 39.4:
        return "western-med"
    return "alboran-sea"


# City records: (name, country, kind, loyal, lat, lon, attrs).  kind: major | minor | town
# (1.41, 1.42, 1.43 and the SCW Free Setup's "major city ... minor city ... town"); loyal:
# nat (black) | rep (red) | - (outside Spain): the SCW loyalty of July 1936 after the rising
# (the scenario: "red cities and towns are loyal to the Republicans and black ... to the
# Nationalists"), authored from the front line of late July 1936.  attrs as written into
# features.txt: pp= (production), port=major|minor (15.1 names the ports; the major/minor
# bold marks are lost, rules-gaps.md item 1: major = the largest 1930s ports), capital=,
# border-rail (the French border rail hexes, SCW historical set-up and rule 3).
# Listed most important first: two places falling in one hex merge into the first.
CITIES: list[tuple[str, str, str, str, float, float, str]] = [
    ("Madrid", "SPA", "major", "rep", 40.417, -3.704, "pp=2 capital=republicans"),
    ("Barcelona", "SPA", "major", "rep", 41.385, 2.173, "pp=1 port=major"),
    ("Lisbon", "POR", "major", "-", 38.722, -9.139, "port=major capital=nationalists"),
    ("Valencia", "SPA", "minor", "rep", 39.470, -0.376, "port=major"),
    ("Seville", "SPA", "minor", "nat", 37.389, -5.984, ""),
    ("Bilbao", "SPA", "minor", "rep", 43.263, -2.935, "port=major"),
    ("Zaragoza", "SPA", "minor", "nat", 41.649, -0.889, ""),
    ("Malaga", "SPA", "minor", "rep", 36.721, -4.421, "port=minor"),
    ("Cadiz", "SPA", "minor", "nat", 36.527, -6.289, "port=major"),
    ("Cartagena", "SPA", "minor", "rep", 37.606, -0.986, "port=minor"),
    ("Almeria", "SPA", "minor", "rep", 36.834, -2.464, "port=minor"),
    ("Mallorca", "SPA", "minor", "nat", 39.570, 2.650, "port=minor"),
    ("Vigo", "SPA", "minor", "nat", 42.240, -8.721, "port=minor"),
    ("Valladolid", "SPA", "minor", "nat", 41.652, -4.724, ""),
    ("Burgos", "SPA", "minor", "nat", 42.344, -3.697, ""),
    ("Oviedo", "SPA", "minor", "nat", 43.362, -5.849, ""),
    ("Santander", "SPA", "minor", "rep", 43.462, -3.810, "port=minor"),
    ("Cordoba", "SPA", "minor", "nat", 37.888, -4.779, ""),
    ("Granada", "SPA", "minor", "nat", 37.177, -3.599, ""),
    ("Murcia", "SPA", "minor", "rep", 37.992, -1.131, ""),
    ("Albacete", "SPA", "minor", "rep", 38.994, -1.858, ""),
    ("La Coruna", "SPA", "minor", "nat", 43.362, -8.411, "port=minor"),
    ("Alicante", "SPA", "town", "rep", 38.345, -0.481, ""),
    ("Salamanca", "SPA", "town", "nat", 40.970, -5.663, ""),
    ("Pamplona", "SPA", "town", "nat", 42.812, -1.646, ""),
    ("San Sebastian", "SPA", "town", "rep", 43.318, -1.981, ""),
    ("Leon", "SPA", "town", "nat", 42.599, -5.567, ""),
    ("Lugo", "SPA", "town", "nat", 43.012, -7.556, ""),
    ("Orense", "SPA", "town", "nat", 42.336, -7.864, ""),
    ("Zamora", "SPA", "town", "nat", 41.503, -5.745, ""),
    ("Caceres", "SPA", "town", "nat", 39.475, -6.372, ""),
    ("Badajoz", "SPA", "town", "rep", 38.879, -6.970, ""),
    ("Merida", "SPA", "town", "rep", 38.916, -6.344, ""),
    ("Huelva", "SPA", "town", "rep", 37.261, -6.945, ""),
    ("Jaen", "SPA", "town", "rep", 37.779, -3.785, ""),
    ("Ciudad Real", "SPA", "town", "rep", 38.985, -3.927, ""),
    ("Toledo", "SPA", "town", "rep", 39.863, -4.027, ""),
    ("Cuenca", "SPA", "town", "rep", 40.070, -2.137, ""),
    ("Guadalajara", "SPA", "town", "rep", 40.633, -3.167, ""),
    ("Teruel", "SPA", "town", "nat", 40.345, -1.106, ""),
    ("Huesca", "SPA", "town", "nat", 42.140, -0.408, ""),
    ("Lerida", "SPA", "town", "rep", 41.614, 0.626, ""),
    ("Tarragona", "SPA", "town", "rep", 41.119, 1.245, ""),
    ("Gerona", "SPA", "town", "rep", 41.979, 2.821, ""),
    ("Castellon", "SPA", "town", "rep", 39.986, -0.051, ""),
    ("Segovia", "SPA", "town", "nat", 40.948, -4.118, ""),
    ("Avila", "SPA", "town", "nat", 40.656, -4.681, ""),
    ("Soria", "SPA", "town", "nat", 41.764, -2.468, ""),
    ("Vitoria", "SPA", "town", "nat", 42.847, -2.673, ""),
    ("Logrono", "SPA", "town", "nat", 42.465, -2.445, ""),
    ("Palencia", "SPA", "town", "nat", 42.010, -4.533, ""),
    ("Algeciras", "SPA", "town", "nat", 36.131, -5.454, ""),
    ("Mahon", "SPA", "town", "rep", 39.889, 4.264, "port=minor"),
    ("Tetuan", "SPM", "minor", "nat", 35.572, -5.368, ""),
    ("Ceuta", "SPM", "minor", "nat", 35.889, -5.316, "port=minor"),
    ("Melilla", "SPM", "minor", "nat", 35.292, -2.938, "port=minor"),
    ("Larache", "SPM", "town", "nat", 35.193, -6.156, "port=minor"),
    ("Gibraltar", "GIB", "minor", "-", 36.140, -5.353, "port=major fortress enclave"),
    ("Tangiers", "TAN", "minor", "-", 35.767, -5.800, "port=minor"),
    ("Porto", "POR", "minor", "-", 41.150, -8.610, "port=minor"),
    ("Bayonne", "FRA", "minor", "-", 43.493, -1.475, "port=minor border-rail"),
    ("Perpignan", "FRA", "minor", "-", 42.699, 2.895, "border-rail"),
]

# Rail lines of 1936 (1.6): waypoints are city names or (lon, lat) junctions; drawn as
# straight hex lines between them.  The main lines of the Norte, MZA and Andaluces companies,
# the Portuguese lines Franco's aid came by, and the two lines into France (the French
# border rail hexes Bayonne and Perpignan, SCW rules 3 and historical set-up).
J_MEDINA = (-4.91, 41.31)  # Medina del Campo
J_ALCAZAR = (-3.21, 39.39)  # Alcazar de San Juan
J_BOBADILLA = (-4.71, 37.04)
J_MIRANDA = (-2.95, 42.68)  # Miranda de Ebro
J_CASTEJON = (-1.69, 42.17)
J_VENTA = (-3.95, 42.83)  # Venta de Banos / Alar junction towards Santander
J_MONFORTE = (-7.51, 42.52)
J_LINARES = (-3.64, 38.09)
J_MORACANTA = (-2.97, 37.37)  # Moreda/Guadix, the Almeria line
J_LA_ENCINA = (-0.96, 38.70)
J_CHINCHILLA = (-1.72, 38.92)
J_VALENCIA_ALCANTARA = (-7.24, 39.41)
J_ELVAS = (-7.16, 38.88)
J_ENTRONCAMENTO = (-8.47, 39.47)
J_FUENTES = (-6.81, 40.62)  # Fuentes de Onoro, the Salamanca-Portugal line
J_TUI = (-8.64, 42.05)
J_PORTBOU = (3.14, 42.43)
J_IRUN = (-1.79, 43.34)
J_CASPE = (-0.04, 41.23)
J_CALATAYUD = (-1.64, 41.35)
J_ZAFRA = (-6.42, 38.42)
J_ALCAZARQUIVIR = (-5.90, 35.00)
J_TORTOSA = (0.52, 40.81)

LINES: list[tuple[str, list[str | Point]]] = [
    ("Norte: Madrid-Irun", ["Madrid", "Avila", J_MEDINA, "Valladolid", "Palencia", "Burgos", J_MIRANDA,
                            "Vitoria", J_IRUN, "San Sebastian", "Bayonne"]),
    ("Venta de Banos-Santander", [J_VENTA, "Santander"]),
    ("Palencia-Leon-Oviedo", ["Palencia", "Leon", "Oviedo"]),
    ("Leon-La Coruna", ["Leon", J_MONFORTE, "Lugo", "La Coruna"]),
    ("Monforte-Vigo", [J_MONFORTE, "Orense", "Vigo"]),
    ("Vigo-Porto", ["Vigo", J_TUI, "Porto"]),
    ("Porto-Lisbon", ["Porto", J_ENTRONCAMENTO, "Lisbon"]),
    ("Miranda-Bilbao", [J_MIRANDA, "Bilbao"]),
    ("Miranda-Castejon-Zaragoza", [J_MIRANDA, "Logrono", J_CASTEJON, "Zaragoza"]),
    ("Castejon-Pamplona", [J_CASTEJON, "Pamplona"]),
    ("MZA: Madrid-Zaragoza-Barcelona", ["Madrid", "Guadalajara", J_CALATAYUD, "Zaragoza", "Lerida",
                                        "Tarragona", "Barcelona"]),
    ("Barcelona-Portbou-Perpignan", ["Barcelona", "Gerona", J_PORTBOU, "Perpignan"]),
    ("Zaragoza-Huesca", ["Zaragoza", "Huesca"]),
    ("Zaragoza-Caspe", ["Zaragoza", J_CASPE]),
    ("Calatayud-Teruel-Valencia", [J_CALATAYUD, "Teruel", "Valencia"]),
    ("Valencia-Tarragona", ["Valencia", "Castellon", J_TORTOSA, "Tarragona"]),
    ("MZA: Madrid-Alcazar-Valencia", ["Madrid", "Toledo", J_ALCAZAR, J_CHINCHILLA, "Albacete",
                                      J_LA_ENCINA, "Valencia"]),
    ("La Encina-Alicante", [J_LA_ENCINA, "Alicante"]),
    ("Chinchilla-Murcia-Cartagena", [J_CHINCHILLA, "Murcia", "Cartagena"]),
    ("Madrid-Cuenca", ["Madrid", "Cuenca"]),
    ("MZA: Alcazar-Cordoba-Seville", [J_ALCAZAR, "Ciudad Real", J_LINARES, "Cordoba", "Seville"]),
    ("Andaluces: Seville-Cadiz", ["Seville", "Cadiz"]),
    ("Seville-Huelva", ["Seville", "Huelva"]),
    ("Cordoba-Bobadilla-Malaga", ["Cordoba", J_BOBADILLA, "Malaga"]),
    ("Bobadilla-Granada-Almeria", [J_BOBADILLA, "Granada", J_MORACANTA, "Almeria"]),
    ("Linares-Jaen", [J_LINARES, "Jaen"]),
    ("Bobadilla-Algeciras", [J_BOBADILLA, "Algeciras"]),
    ("Madrid-Caceres-Lisbon", ["Madrid", "Caceres", J_VALENCIA_ALCANTARA, J_ENTRONCAMENTO]),
    ("Via de la Plata: Seville-Salamanca", ["Seville", J_ZAFRA, "Merida", "Caceres", "Salamanca",
                                            "Zamora", J_MEDINA]),
    ("Merida-Badajoz-Lisbon", ["Merida", "Badajoz", J_ELVAS, "Lisbon"]),
    ("Ciudad Real-Merida", ["Ciudad Real", "Merida"]),
    ("Salamanca-Portugal", ["Salamanca", J_FUENTES]),
    ("Segovia-Medina", ["Segovia", J_MEDINA]),
    ("Soria-Castejon", ["Soria", J_CASTEJON]),
    ("Ceuta-Tetuan", ["Ceuta", "Tetuan"]),
    ("Tangiers-Larache", ["Tangiers", J_ALCAZARQUIVIR, "Larache"]),
]

# Straits (1.371: treated as rivers, cross from a stop on one side to a stop on the other).
# 15.1 names the Cadiz Straits (Cadiz/Tangiers) and the Gibraltar Straits (Gibraltar/Tangiers);
# the Tarifa-Ceuta crossing is authored: the Army of Africa crossed there in August 1936 (the
# airlift and the 5 August convoy), and without it Spanish Morocco would touch Spain only
# through the International Zone, which no unit may enter.  Each is (name, point, point): the
# hexes of the two points must be adjacent land hexes.
STRAITS: list[tuple[str, Point, Point]] = [
    ("Gibraltar Straits", (-5.35, 36.14), (-5.80, 35.77)),
    ("Tarifa-Ceuta", (-5.60, 36.02), (-5.32, 35.89)),
]
# The Cadiz Straits (Cadiz/Tangiers, 15.1) are not a hexside here: Cadiz and Tangiers lie
# two hexes apart on this grid.  They are a sea passage (15.x, the Middle Seaway) and the
# SCW uses no Seapower ("IMPORTANT: No form of Seapower can be used in the SCW scenario").

# Hand corrections of the generated water hexsides (an all-sea edge between two land hexes):
# (op, point, point, why); the points' hexes must be adjacent.  "Interpreting the Map" (1.3):
# small projections of land or sea are ignored where the map departs from the grid.
OVERRIDES: list[tuple[str, Point, Point, str]] = [
    ("-water", (-5.32, 35.89), (-5.03, 35.40),
     "Ceuta-Tetuan: joined by the coast road and the 1918 railway; the edge only cuts a bay"),
]
