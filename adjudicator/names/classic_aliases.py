"""Hand-written aliases for the Classic board: what players write, keyed by classic.xml names.

The IAAPA's recommended abbreviation map is not available to us, so this table collects the
shortenings seen in league play and in the rule book's own examples ("W Europe", "UK SZ",
"E Can SZ", "Kar", "Novo", "Moscow"), the common English names of the areas, and the
IAAPA map's names of sea zones that classic.xml names differently (GEOGRAPHY: "West Indies"
and "East Panama" are classic.xml's "Carribean Sea Zone"). Word shortenings ("E Europe",
"W Can", "Karelia") and "<land> SZ" forms are generated (see ``places``) and not repeated.
"""

from __future__ import annotations

from collections.abc import Mapping

CLASSIC_ALIASES: Mapping[str, tuple[str, ...]] = {
    # --- land ---
    "Afghanistan": ("Afgh", "Afg", "Afghan"),
    "Algeria": ("Alg",),
    "Anglo Sudan Egypt": (
        "Anglo Egypt",
        "Anglo-Egypt",
        "Anglo Egypt Sudan",
        "Anglo-Egypt/Sudan",
        "Anglo Sudan",
        "Egypt",
        "Sudan",
        "ASE",
        "Anglo",
    ),
    "Angola": ("Ang",),
    "Argentina-Chile": ("Argentina", "Chile", "Arg"),
    "Australia": ("Aus", "Austr", "Oz"),
    "Borneo Celebes": ("Borneo", "Celebes", "Born"),
    "Brazil": ("Braz", "Bra"),
    "Caroline Islands": ("Carolines", "Caroline", "Car Is"),
    "Caucasus": ("Cauc", "Cau", "Caus"),
    "China": ("Chi", "Chn"),
    "Columbia": ("Colombia", "Col"),
    "East Canada": ("ECan",),
    "East Europe": ("EEur", "Poland"),
    "East Indies": ("EI", "Dutch East Indies", "DEI", "Java"),
    "East US": ("EUS", "E.US", "Eastern United States", "ECUS", "Washington"),
    "Eire": ("Ireland",),
    "Evenki National Okrug": ("Evenki", "Eve", "Evenki NO", "ENO", "Evn"),
    "Finland Norway": ("Finland", "Norway", "Fin", "Nor", "Fin/Nor", "FinNor"),
    "French Equatorial Africa": ("FEA", "Fr Eq Africa", "French Eq Africa", "Fr Equatorial Africa"),
    "French Indo China": ("FIC", "Indo China", "Indochina", "French Indochina", "Fr Indo China"),
    "French West Africa": ("FWA", "Fr W Africa", "Fr West Africa"),
    "Germany": ("Ger", "Germ", "Berlin"),
    "Gibraltar": ("Gib",),
    "Hawaiian Islands": ("Hawaii", "Haw", "Hawaiians"),
    "India": ("Ind",),
    "Italian East Africa": ("IEA", "Ital E Africa", "It E Africa", "Ethiopia"),
    "Japan": ("Jap", "Jpn", "Tokyo"),
    "Karelia S.S.R.": ("Kar", "Kare", "Leningrad"),
    "Kazakh S.S.R.": ("Kaz", "Kazakhstan"),
    "Kenya-Rhodesia": ("Kenya", "Rhodesia", "Ken"),
    "Kwangtung": ("Kwang", "Kwa", "Kwt"),
    "Libya": ("Lib",),
    "Madagascar": ("Mad", "Madag"),
    "Manchuria": ("Man", "Manch", "Manc"),
    "Mexico": ("Mex",),
    "Midway": ("Mid", "Midway Island", "Midway Isl", "Midway Is"),
    "Mongolia": ("Mong", "Mon"),
    "Mozambique": ("Moz",),
    "New Guinea": ("NG", "N Guinea"),
    "New Zealand": ("NZ", "N Zealand"),
    "Novosibirsk": ("Novo", "Nov", "Novosib"),
    "Okinawa": ("Oki", "Okin"),
    "Panama": ("Pan",),
    "Persia": ("Pers", "Iran"),
    "Philippines": ("Phil", "Phils", "Philippine Islands"),
    "Rio del Oro": ("Rio", "Rio de Oro", "RdO"),
    "Russia": ("Rus", "Russ", "Moscow", "Mos"),
    "Saudi Arabia": ("Saudi", "Sau", "Arabia"),
    "Sinkiang": ("Sink", "Sin", "Xinjiang"),
    "Solomon Islands": ("Solomons", "Solomon", "Sol"),
    "South Africa": ("SAfr", "SA"),
    "South Europe": ("SEur", "Italy", "Rome"),
    "Soviet Far East": ("SFE", "Sov Far East", "Far East", "Soviet FE", "Vladivostok"),
    "Spain": ("Spa",),
    "Sweden": ("Swe",),
    "Switzerland": ("Swiss", "Switz", "Swi"),
    "Syria Jordan": ("Syria", "Jordan", "Syr", "Syria-Jordan", "Syria/Jordan"),
    "Turkey": ("Tur", "Turk"),
    "Ukraine S.S.R.": ("Ukr", "Ukraine"),
    "United Kingdom": ("UK", "U.K.", "England", "Britain", "Great Britain", "GB", "London"),
    "Wake Island": ("Wake",),
    "West Canada": ("WCan",),
    "West Europe": ("WEur", "France", "Paris"),
    "West US": ("WUS", "W.US", "WCUS"),
    "Yakut S.S.R.": ("Yak", "Yakutsk"),
    # --- sea zones named differently by the IAAPA map (Rules Clarifications, GEOGRAPHY) ---
    "Carribean Sea Zone": (
        "West Indies",
        "West Indies SZ",
        "West Indies Sea Zone",
        "W Indies SZ",
        "East Panama",
        "East Panama SZ",
        "East Panama Sea Zone",
        "E Panama SZ",
        "E Panama",
        "Caribbean",
        "Caribbean SZ",
        "Caribbean Sea",
        "Caribbean Sea Zone",
        "Carib",
        "Carib SZ",
    ),
    "Gulf of Mexico Sea Zone": (
        "Gulf of Mexico",
        "Gulf of Mexico SZ",
        "GoM",
        "GoM SZ",
        "Gulf SZ",
        "Western Gulf of Mexico",
        "Western Gulf of Mexico SZ",
        "W Gulf of Mexico",
    ),
    "West Panama Sea Zone": ("W Pan SZ", "W Panama"),
    "Antartic Sea Zone": ("Antarctic", "Antarctic SZ", "Antarctic Sea", "Antarctic Sea Zone"),
    "Central Mediteranean Sea Zone": ("CMed",),
    "East Mediteranean Sea Zone": ("EMed",),
    "West Mediteranean Sea Zone": ("WMed",),
    # --- waters the rule book names that classic.xml has no zone for (Error Correction II:
    # "There is only 1 German sub on the board (in azo sz), and only 1 UK trn on the board
    # (in lab sz)"). Each was placed by where the water lies on the Classic map: the
    # islands' latitude and longitude, interpolated between coast landmarks of the map's
    # polygons (Cabo da Roca, Estaca de Bares, Gibraltar, Cape Spear, the Rio de Oro coast),
    # then point-in-polygon in data/triplea/world_war_ii_classic/polygons.txt.
    # Labrador: the sea off East Canada (Labrador and Newfoundland are East Canada on the
    # board); every point of the Labrador Sea lies in East Canada Sea Zone.
    "East Canada Sea Zone": (
        "Labrador",
        "Labrador Sea",
        "Labrador SZ",
        "Labrador Sea Zone",
        "Lab SZ",
    ),
    # Azores: every island (Flores to Santa Maria) falls at x 607-646, y 767-820, inside West
    # Spain Sea Zone (x 572-841, y 527-940), well east of its border with East Canada Sea Zone.
    "West Spain Sea Zone": ("Azores", "Azores SZ", "Azores Sea Zone", "Azo SZ"),
    # Canaries: 27.6-29.4N, south of the West Spain / West Africa border (y 940, about 31N
    # on the Moroccan coast), off the coast of French West Africa and Rio del Oro: in West
    # Africa Sea Zone, not West Spain Sea Zone.
    "West Africa Sea Zone": (
        "Canaries",
        "Canary",
        "Canary Islands",
        "Canary SZ",
        "Canaries SZ",
        "Canary Islands SZ",
    ),
}
"""classic.xml name -> hand-written aliases."""
