#!/usr/bin/env python3
"""A synthetic residential real-estate brokerage around Austin, TX (2022-2025) in DuckDB, schema `brk`.

    python3 load.py                 # writes /tmp/dev_realty.duckdb (from anywhere; uses the shared eval venv)
    python3 load.py PATH.duckdb     # or there

"Bluebonnet Realty": six offices, ~110 agent logins, its own listings with their asking-price history,
showings, offers and closed transactions with commissions. Generated deterministically with
random.Random(29): identical rows on every run. The file is written anew beside the target and then
moved over it, so re-running is safe. DuckDB has no users: the read-only reader is whoever opens the
file read-only (the bot does).

EXTRACT DATE: 2025-04-07 (a Monday). Everything up to and including 2025-04-06 is in the data; "rn" /
"currently" = as of the extract, "this year" = 2025-01-01 .. 2025-04-06, "last month" = March 2025,
"last quarter" = Q1 2025, "last year" = 2024. Data starts 2022-01-03.

Naming: abbreviated snake_case (lst_prc, agt_fnm, cls_dt ...), keys <table>_id. Primary keys declared,
foreign keys NOT declared. Codes are explained only in COMMENT ON COLUMN; the commission split is
defined only in the table comment of brk.cls.

  brk.ofc          6 offices (Dripping Springs opened 2023-06-01)
  brk.agt          agent logins: office, role (AGT/TL/BRK), hire / termination date (NULL = active),
                   is_tst = test / training logins (3) that own fake listings, offers, showings and
                   closings (one of them a $12.5M "sale" in 2024); two different agents are "Chris Nguyen"
  brk.prop         properties (ours and the ones our buyers bought elsewhere): address, city, zip,
                   type code (SF/CO/TH/MF/LT), beds, baths, sqft (NULL for land), year built, lot acres
  brk.lst          our listings: ORIGINAL asking price lst_prc, status code (A/P/S/W/X) and the date it
                   began; a withdrawn or expired listing that comes back is a NEW row (new MLS number)
                   whose prev_lst_id points at the old one
  brk.lst_prc_chg  asking-price changes (the price in force = the latest new_prc, else lst.lst_prc)
  brk.shw          showings of our listings: timestamp, type code (P/O/V), our agent (NULL = outside),
                   feedback 1-5 (NULL = none)
  brk.ofr          offers received on our listings: date as TEXT 'M/D/YYYY', amount, financing
                   (all-cash is 'Cash' from the old intake form, 'CASH' from mid-2023;
                   Georgetown still uses the old form), status code A/R/W/T/O
  brk.cls          closed transactions where we had at least one side: our listings (lst_id set) and
                   buy-side deals on other brokerages' listings (lst_id NULL); contract and closing
                   dates, sale price, listing/buyer agents (NULL = other brokerage; equal = dual agency),
                   side commission percentages
"""

import bisect
import datetime as dt
import math
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

SCHEMA = "brk"
DEFAULT_PATH = os.path.join(tempfile.gettempdir(), "dev_realty.duckdb")
SEED = 29
EXTRACT_DAY = dt.date(2025, 4, 7)            # the extract: data up to and including the day before
CUTOFF = EXTRACT_DAY - dt.timedelta(days=1)
FIRST_DAY = dt.date(2022, 1, 3)
D = dt.date

DDL = [
    f"""CREATE TABLE {SCHEMA}.ofc (
        ofc_id INTEGER PRIMARY KEY,
        ofc_cd VARCHAR(3) NOT NULL,
        ofc_nm VARCHAR(40) NOT NULL,
        ofc_city VARCHAR(40) NOT NULL,
        ofc_st VARCHAR(2) NOT NULL,
        ofc_open_dt DATE NOT NULL,
        mgr_agt_id INTEGER)""",
    f"""CREATE TABLE {SCHEMA}.agt (
        agt_id INTEGER PRIMARY KEY,
        agt_fnm VARCHAR(30) NOT NULL,
        agt_lnm VARCHAR(30) NOT NULL,
        ofc_id INTEGER NOT NULL,
        agt_role VARCHAR(3) NOT NULL,
        agt_lic_no VARCHAR(10),
        agt_hire_dt DATE NOT NULL,
        agt_term_dt DATE,
        is_tst BOOLEAN NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}.prop (
        prop_id INTEGER PRIMARY KEY,
        addr_ln VARCHAR(60) NOT NULL,
        city VARCHAR(30) NOT NULL,
        st VARCHAR(2) NOT NULL,
        zip VARCHAR(5) NOT NULL,
        prop_typ VARCHAR(2) NOT NULL,
        beds SMALLINT,
        baths DECIMAL(3, 1),
        sqft INTEGER,
        yr_blt SMALLINT,
        lot_ac DECIMAL(6, 2))""",
    f"""CREATE TABLE {SCHEMA}.lst (
        lst_id INTEGER PRIMARY KEY,
        mls_no VARCHAR(10) NOT NULL,
        prop_id INTEGER NOT NULL,
        lst_agt_id INTEGER NOT NULL,
        lst_dt DATE NOT NULL,
        lst_prc INTEGER NOT NULL,
        lst_exp_dt DATE NOT NULL,
        lst_stat VARCHAR(1) NOT NULL,
        stat_dt DATE NOT NULL,
        prev_lst_id INTEGER)""",
    f"""CREATE TABLE {SCHEMA}.lst_prc_chg (
        prc_chg_id INTEGER PRIMARY KEY,
        lst_id INTEGER NOT NULL,
        chg_dt DATE NOT NULL,
        new_prc INTEGER NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}.shw (
        shw_id INTEGER PRIMARY KEY,
        lst_id INTEGER NOT NULL,
        shw_ts TIMESTAMP NOT NULL,
        shw_typ VARCHAR(1) NOT NULL,
        shw_agt_id INTEGER,
        fb_rtg SMALLINT)""",
    f"""CREATE TABLE {SCHEMA}.ofr (
        ofr_id INTEGER PRIMARY KEY,
        lst_id INTEGER NOT NULL,
        ofr_dt VARCHAR(10) NOT NULL,
        ofr_amt INTEGER NOT NULL,
        fin_typ VARCHAR(5) NOT NULL,
        byr_agt_id INTEGER,
        ofr_stat VARCHAR(1) NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}.cls (
        cls_id INTEGER PRIMARY KEY,
        lst_id INTEGER,
        ofr_id INTEGER,
        prop_id INTEGER NOT NULL,
        mls_no VARCHAR(10) NOT NULL,
        cntr_dt DATE NOT NULL,
        cls_dt DATE NOT NULL,
        sale_prc INTEGER NOT NULL,
        lst_agt_id INTEGER,
        byr_agt_id INTEGER,
        lst_side_pct DECIMAL(4, 2),
        byr_side_pct DECIMAL(4, 2))""",
]
TABLE_COMMENTS = {
    "ofc": "Brokerage offices (Bluebonnet Realty)",
    "agt": "Agent logins in the CRM, one row per login (current office only)",
    "prop": "Properties we listed or our buyers bought",
    "lst": "Our listing agreements, one row per listing (MLS number). Days on market (DOM) run from lst_dt "
           "to the contract date (cls.cntr_dt)",
    "lst_prc_chg": "Asking-price changes on a listing (one row per change)",
    "shw": "Showings of our listings",
    "ofr": "Offers received on our listings",
    "cls": "Closed transactions in which we represented at least one side; one row per closing (a dual-agency "
           "deal is one row). GCI of a side = sale_prc * side pct / 100, counted only for a side whose agent id "
           "is filled. Split: the agent keeps 70% of the GCI of their side and the brokerage keeps 30% "
           "(company dollar); team leads and managing brokers (agt_role TL / BRK) are on an 80/20 split.",
}
COLUMN_COMMENTS = {
    ("ofc", "mgr_agt_id"): "managing broker (agt.agt_id)",
    ("agt", "agt_role"): "AGT = agent, TL = team lead, BRK = managing broker",
    ("agt", "agt_term_dt"): "date the agent left; NULL = still with us",
    ("agt", "is_tst"): "test / training login",
    ("agt", "agt_lic_no"): "TREC license number",
    ("prop", "prop_typ"): "SF = single-family, CO = condo, TH = townhome, MF = multi-family 2-4 units, LT = lot/land",
    ("prop", "sqft"): "living area; NULL for land",
    ("prop", "lot_ac"): "lot size in acres",
    ("lst", "lst_agt_id"): "listing agent (agt.agt_id)",
    ("lst", "lst_prc"): "asking price when listed, USD",
    ("lst", "lst_exp_dt"): "end of the listing agreement",
    ("lst", "lst_stat"): "A = active, P = pending, S = sold, W = withdrawn, X = expired",
    ("lst", "stat_dt"): "date the current status began",
    ("lst", "prev_lst_id"): "earlier listing of the same property that this one relists (new MLS number)",
    ("lst_prc_chg", "new_prc"): "asking price from chg_dt on, USD",
    ("shw", "shw_typ"): "P = private, O = open house, V = virtual",
    ("shw", "shw_agt_id"): "our agent who showed it; NULL = outside agent or open-house walk-in",
    ("shw", "fb_rtg"): "buyer feedback 1 (poor) .. 5 (great); NULL = none left",
    ("ofr", "ofr_dt"): "date received (M/D/YYYY)",
    ("ofr", "ofr_amt"): "offered price, USD",
    ("ofr", "fin_typ"): "financing: CONV, FHA, VA, JUMBO, CASH",
    ("ofr", "byr_agt_id"): "our agent writing the offer; NULL = buyer's agent from another brokerage",
    ("ofr", "ofr_stat"): "A = accepted, R = rejected, W = withdrawn by buyer, T = terminated after acceptance, "
                         "O = open (no answer yet)",
    ("cls", "lst_id"): "our listing; NULL = buy-side deal on another brokerage's listing",
    ("cls", "ofr_id"): "the accepted offer (our listings only)",
    ("cls", "cntr_dt"): "contract date (went pending)",
    ("cls", "cls_dt"): "closing date",
    ("cls", "sale_prc"): "USD",
    ("cls", "lst_agt_id"): "our listing agent; NULL = other brokerage",
    ("cls", "byr_agt_id"): "our buyer's agent; NULL = other brokerage",
    ("cls", "lst_side_pct"): "listing-side commission, % of sale price",
    ("cls", "byr_side_pct"): "buyer-side commission, % of sale price",
}

OFFICES = [  # id, code, name, city, opened, weight of listings / buy-side deals
    (1, "DTA", "Downtown Austin", "Austin", D(2009, 4, 1), 1.25),
    (2, "RRK", "Round Rock", "Round Rock", D(2012, 8, 15), 1.1),
    (3, "CPK", "Cedar Park", "Cedar Park", D(2014, 2, 3), 0.9),
    (4, "GTN", "Georgetown", "Georgetown", D(2016, 10, 3), 0.75),
    (5, "SAU", "South Austin", "Austin", D(2018, 5, 7), 1.0),
    (6, "DRS", "Dripping Springs", "Dripping Springs", D(2023, 6, 1), 0.55),
]
AREAS = {  # office -> (city, zip, price per sqft at Jan 2022, weight)
    1: [("Austin", "78701", 560, 1.0), ("Austin", "78702", 470, 1.2), ("Austin", "78703", 640, 0.8),
        ("Austin", "78704", 540, 1.4), ("Austin", "78751", 480, 0.8), ("Austin", "78756", 520, 0.6)],
    2: [("Round Rock", "78664", 235, 1.2), ("Round Rock", "78665", 245, 1.0), ("Round Rock", "78681", 250, 1.0),
        ("Pflugerville", "78660", 230, 1.2), ("Hutto", "78634", 210, 0.8)],
    3: [("Cedar Park", "78613", 280, 1.5), ("Leander", "78641", 245, 1.3), ("Austin", "78726", 300, 0.5)],
    4: [("Georgetown", "78626", 245, 1.0), ("Georgetown", "78628", 255, 1.2), ("Georgetown", "78633", 240, 0.9),
        ("Liberty Hill", "78642", 230, 0.8)],
    5: [("Austin", "78745", 345, 1.3), ("Austin", "78748", 310, 1.0), ("Austin", "78749", 335, 0.8),
        ("Buda", "78610", 250, 0.9), ("Kyle", "78640", 225, 1.1)],
    6: [("Dripping Springs", "78620", 330, 1.5), ("Austin", "78737", 335, 0.8), ("Austin", "78738", 380, 0.7)],
}
TYPES = {  # office -> type weights
    1: {"SF": 45, "CO": 35, "TH": 12, "MF": 6, "LT": 2},
    2: {"SF": 80, "TH": 10, "CO": 3, "MF": 3, "LT": 4},
    3: {"SF": 82, "TH": 8, "CO": 4, "LT": 6},
    4: {"SF": 80, "TH": 5, "CO": 2, "LT": 13},
    5: {"SF": 72, "TH": 12, "CO": 10, "MF": 4, "LT": 2},
    6: {"SF": 72, "LT": 25, "TH": 3},
}
STREETS = ["Oak Hollow Dr", "Live Oak St", "Bluebonnet Ln", "Pecan Grove Rd", "Mesquite Trl", "Cypress Creek Rd",
           "Ranch Road 12", "Barton Hills Dr", "Shoal Creek Blvd", "Red Bud Trl", "Lamar Blvd", "Cedar Elm Dr",
           "Hill Country Dr", "Agave Way", "Limestone Ct", "Big Sky Dr", "Brushy Creek Rd", "Sendero Dr",
           "Whitestone Blvd", "Mustang Ridge", "Hidden Valley Dr", "Prairie Dune Way", "Indian Blanket Ln",
           "Granite Shoals Dr", "San Gabriel Pkwy", "River Bend Dr", "Spanish Oak Trl", "Sunfield Pkwy",
           "Windmill Run", "Eagle Rock Dr", "Canyon View Rd", "Rainey St", "Cesar Chavez St", "Congress Ave",
           "Mockingbird Ln", "Juniper Berry Way", "Post Oak Dr", "Blanco River Rd", "Old Settlers Blvd",
           "Palm Valley Blvd", "Wildflower Ln", "Bee Cave Rd", "Arroyo Seco", "Peppergrass Dr", "Prickly Pear Dr",
           "Sweetgum Ln", "Armadillo Rd", "Longhorn Blvd", "Sage Hollow Dr", "Caliche Rd", "Country Club Dr",
           "Hickory Ridge", "Creekside Dr", "Flint Rock Trl", "Lone Star Ln", "Twin Creeks Dr", "Riata Trace Pkwy",
           "Zilker Ave", "Brodie Ln", "Slaughter Ln", "Onion Creek Pkwy", "Kenney Fort Blvd", "Gattis School Rd"]
FIRST = ["Ashley", "Brandon", "Caroline", "Derek", "Emily", "Gabriela", "Heather", "Isaac", "Jasmine", "Kyle",
         "Lauren", "Marcus", "Natalie", "Oscar", "Paige", "Quinn", "Rachel", "Santiago", "Tiffany", "Victor",
         "Whitney", "Xavier", "Yesenia", "Zach", "Amber", "Blake", "Crystal", "Dustin", "Erica", "Garrett",
         "Holly", "Ivan", "Jenna", "Kristen", "Logan", "Megan", "Nolan", "Olivia", "Preston", "Rebecca",
         "Shelby", "Travis", "Vanessa", "Wade", "Alyssa", "Brooke", "Cody", "Dana", "Eli", "Faith", "Grant",
         "Hannah", "Jared", "Kayla", "Luis", "Mia", "Nate", "Priya", "Ramon", "Sofia", "Trent", "Valerie"]
LAST = ["Anderson", "Baker", "Castillo", "Dawson", "Ellis", "Flores", "Garza", "Hughes", "Ibarra", "Jensen",
        "Kowalski", "Lopez", "Mendoza", "Nash", "Ortega", "Patel", "Quintero", "Ramirez", "Sullivan", "Torres",
        "Underwood", "Vasquez", "Walsh", "Young", "Zamora", "Bishop", "Carver", "Delgado", "Fischer", "Gentry",
        "Harmon", "Keller", "Lambert", "Morales", "Novak", "Pruitt", "Reyes", "Salinas", "Tate", "Vaughn",
        "Whitaker", "Aguilar", "Benson", "Cortez", "Duran", "Espinoza", "Ford", "Guerrero", "Holt", "Kerr"]
STAFF = {1: 20, 2: 18, 3: 15, 4: 12, 5: 17, 6: 0}   # agents on board before 2022 (Dripping Springs: 2023)
TEST_AGENTS = [("Test", "Agent"), ("Training", "Account"), ("QA", "Do Not Use")]


def lerp(points, d):
    xs = [p[0].toordinal() for p in points]
    x = d.toordinal()
    if x <= xs[0]:
        return points[0][1]
    if x >= xs[-1]:
        return points[-1][1]
    i = bisect.bisect_right(xs, x)
    f = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
    return points[i - 1][1] + f * (points[i][1] - points[i - 1][1])


HEAT = [(D(2022, 1, 1), 1.0), (D(2022, 4, 20), 1.0), (D(2022, 7, 15), 0.45), (D(2022, 11, 1), 0.1),
        (D(2023, 4, 1), 0.25), (D(2023, 8, 1), 0.1), (D(2024, 4, 1), 0.15), (D(2024, 9, 1), 0.05),
        (D(2025, 4, 7), 0.1)]
INDEX = [(D(2022, 1, 1), 1.0), (D(2022, 5, 15), 1.13), (D(2022, 12, 31), 0.99), (D(2023, 6, 30), 0.97),
         (D(2023, 12, 31), 0.94), (D(2024, 6, 30), 0.95), (D(2024, 12, 31), 0.92), (D(2025, 4, 7), 0.92)]


def heat(d):
    return lerp(HEAT, d)


def index(d):
    return lerp(INDEX, d)


def spring(d):
    return math.cos((d.timetuple().tm_yday - 130) / 365.25 * 2 * math.pi)


def poisson(r, lam):
    if lam <= 0:
        return 0
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= r.random()
        if p <= limit:
            return k
        k += 1


def charm(r, price):
    """An asking price the way agents write them: 424,900 / 425,000 / 1,295,000."""
    step = 25000 if price >= 1_000_000 else 5000
    p = max(step, int(round(price / step)) * step)
    return p - (100 if p < 1_000_000 else 5000) if r.random() < 0.55 else p


def days(n):
    return dt.timedelta(days=n)


class World:
    def __init__(self):
        self.r = random.Random(SEED)
        self.props, self.addrs = [], set()
        self.agents, self.ainfo = [], {}
        self.lst, self.chg, self.shw, self.ofr, self.cls = [], [], [], [], []
        self.mls_seq = 0

    # ------------------------------------------------------------------ people and places
    def make_agents(self):
        r = self.r
        names = [(f, ln) for f in FIRST for ln in LAST]
        r.shuffle(names)
        names = iter(n for n in names if n != ("Chris", "Nguyen"))
        aid = 0

        def add(ofc, role, hired, term=None, name=None, test=False, weight=None):
            nonlocal aid
            aid += 1
            fn, ln = name or next(names)
            lic = None if test else str(r.randint(480000, 790000) if hired.year < 2020 else r.randint(790001, 845000))
            self.agents.append([aid, fn, ln, ofc, role, lic, hired, term, test])
            w = weight if weight is not None else r.lognormvariate(0, 0.75) * {"AGT": 1.0, "TL": 1.9, "BRK": 0.5}[role]
            self.ainfo[aid] = dict(ofc=ofc, role=role, hired=hired, term=term, w=w, test=test)
            return aid

        for ofc, n in STAFF.items():
            for k in range(n):
                role = "BRK" if k == 0 else ("TL" if k <= (2 if ofc in (1, 2, 5) else 1) else "AGT")
                hired = D(2008, 1, 1) + days(r.randint(0, 5000)) if role != "AGT" else D(2012, 1, 1) + days(r.randint(0, 3600))
                name = None
                if (ofc, k) == (2, 7):
                    name = ("Chris", "Nguyen")
                if (ofc, k) == (5, 2):
                    name = ("Chris", "Nguyen")
                add(ofc, role, hired, name=name)
        for fn, ln in TEST_AGENTS:   # set up with the CRM in March 2022
            add(1, "AGT", D(2022, 3, 1), name=(fn, ln), test=True, weight=0.0)
        # Dripping Springs team, hired for the opening
        add(6, "BRK", D(2023, 5, 15))
        add(6, "TL", D(2023, 5, 15))
        for _ in range(6):
            add(6, "AGT", D(2023, 5, 15) + days(r.randint(0, 20)))
        # hires and departures over the period
        for ofc in range(1, 7):
            for _ in range(r.randint(3, 6) if ofc < 6 else 2):
                start = D(2022, 1, 10) if ofc < 6 else D(2023, 8, 1)
                add(ofc, "AGT", start + days(r.randint(0, (D(2025, 3, 20) - start).days)),
                    weight=r.lognormvariate(-0.3, 0.6))
        for a in self.agents:
            info = self.ainfo[a[0]]
            if info["role"] == "BRK" or info["test"] or a[2] == "Nguyen":
                continue
            if r.random() < 0.2:
                lo = max(info["hired"] + days(120), D(2022, 2, 1))
                if lo < D(2025, 3, 1):
                    term = lo + days(r.randint(0, (D(2025, 3, 31) - lo).days))
                    a[7] = info["term"] = term
        self.by_office = {o: [a for a, i in self.ainfo.items() if i["ofc"] == o and not i["test"]] for o in range(1, 7)}
        self.all_real = [a for a, i in self.ainfo.items() if not i["test"]]

    def active(self, aid, d):
        i = self.ainfo[aid]
        return i["hired"] <= d and (i["term"] is None or i["term"] > d)

    def pick_agent(self, pool, d):
        cand = [(a, self.ainfo[a]["w"] * min(1.0, 0.25 + (d - self.ainfo[a]["hired"]).days / 150))
                for a in pool if self.active(a, d)]
        if not cand:
            return None
        return self.r.choices([a for a, _ in cand], weights=[w for _, w in cand])[0]

    def new_address(self, city):
        r = self.r
        while True:
            addr = f"{r.randint(100, 19999)} {r.choice(STREETS)}"
            if (addr, city) not in self.addrs and addr != "1207 Oak Hollow Dr":
                self.addrs.add((addr, city))
                return addr

    def new_prop(self, ofc, area=None, typ=None, addr=None, fixed=None):
        r = self.r
        city, zipc, ppsf, _ = area or r.choices(AREAS[ofc], weights=[a[3] for a in AREAS[ofc]])[0]
        typ = typ or r.choices(list(TYPES[ofc]), weights=list(TYPES[ofc].values()))[0]
        noise = r.lognormvariate(0, 0.12)
        lot = None
        if typ == "LT":
            acres = round(r.triangular(0.25, 12, 1.2 if ofc != 6 else 3), 2)
            value = (95000 * acres ** 0.7 + 40000) * ppsf / 280 * noise
            beds = baths = sqft = yr = None
            lot = acres
        else:
            if typ == "SF":
                sqft = int(r.triangular(1150, 4200, 2000))
                if ofc in (1, 6) and r.random() < 0.04:
                    sqft = int(r.uniform(4300, 7200))
                    noise *= 1.3
                f = 1.0
                lot = round(r.triangular(0.1, 1.0 if ofc != 6 else 5, 0.2), 2)
            elif typ == "CO":
                sqft, f = int(r.triangular(550, 1800, 900)), (1.1 if ofc == 1 else 0.85)
            elif typ == "TH":
                sqft, f = int(r.triangular(1100, 2400, 1600)), 0.95
                lot = round(r.uniform(0.03, 0.08), 2)
            else:
                sqft, f = int(r.triangular(1800, 3800, 2400)), 0.9
                lot = round(r.uniform(0.15, 0.4), 2)
            value = sqft * ppsf * f * noise
            beds = {"SF": max(2, min(6, round(sqft / 560))), "CO": max(1, min(3, round(sqft / 520))),
                    "TH": max(2, min(4, round(sqft / 550))), "MF": max(4, min(8, round(sqft / 450)))}[typ]
            baths = max(1.0, min(5.5, beds - 1 + r.choice([0, 0.5, 1.0, 0.5])))
            yr = (r.randint(1925, 2024) if ofc == 1 else
                  (r.randint(2018, 2024) if r.random() < 0.25 else r.randint(1975, 2017)))
        if fixed:
            beds, baths, sqft, yr, lot, value = fixed
        pid = len(self.props) + 1
        self.props.append((pid, addr or self.new_address(city), city, "TX", zipc, typ, beds, baths, sqft, yr, lot))
        return dict(id=pid, value=value, typ=typ, ofc=ofc)

    def next_mls(self):
        self.mls_seq += 1
        return f"{1200000 + self.mls_seq * 37 + self.r.randint(0, 30)}"

    # ------------------------------------------------------------------ pieces of a listing
    def showings(self, key, prop, d0, end, fresh_price_ratio):
        r = self.r
        mult = {"SF": 1.0, "TH": 0.9, "CO": 0.7, "MF": 0.5, "LT": 0.15}[prop["typ"]]
        d = d0
        while d < end and d <= CUTOFF:
            k = (d - d0).days
            lam = ((0.25 + 2.6 * heat(d)) * math.exp(-k / 25) + 0.12) * mult
            wd = d.weekday()
            if wd >= 5:
                lam *= 1.6
            for _ in range(poisson(r, lam)):
                typ = "O" if (wd >= 5 and k < 20 and r.random() < 0.45) else ("V" if r.random() < 0.08 else "P")
                hh = r.randint(9, 18) if typ != "O" else r.randint(11, 15)
                ts = dt.datetime.combine(d, dt.time(hh, r.choice([0, 15, 30, 45])))
                agent = self.pick_agent(self.all_real, d) if (typ != "O" and r.random() < 0.12) else None
                fb = None
                if typ != "O" and r.random() < 0.62:
                    good = 3.6 - 6 * max(0.0, fresh_price_ratio - 1.0)
                    fb = max(1, min(5, int(round(r.gauss(good, 0.9)))))
                self.shw.append([None, key, ts, typ, agent, fb])
            d += days(1)

    def fin_type(self, d, price, typ, ofc):
        r = self.r
        cash_p = 0.22 + 0.1 * heat(d) + (0.25 if typ == "LT" else 0.0) + (0.12 if typ == "CO" else 0.0)
        u = r.random()
        if u < cash_p:
            old = d < D(2023, 7, 1) if not (D(2023, 5, 15) <= d <= D(2023, 8, 31)) else r.random() < 0.5
            return "Cash" if old or ofc == 4 else "CASH"   # Georgetown still uses the old intake form
        if price < 500000 and r.random() < 0.22:
            return "FHA"
        if r.random() < 0.07:
            return "VA"
        return "JUMBO" if price > 766550 else "CONV"

    def offer(self, key, d, amt, stat, agent, fin):
        self.ofr.append([None, key, d, int(amt), fin, agent, stat])
        return len(self.ofr) - 1

    def commission(self, d, dual):
        r = self.r
        lst_pct = r.choices([3.0, 2.5, 2.75, 2.0], weights=[55, 30, 8, 7])[0]
        if d < D(2024, 8, 17):
            byr_pct = r.choices([3.0, 2.5, 2.0], weights=[52, 38, 10])[0]
        else:
            byr_pct = r.choices([3.0, 2.5, 2.25, 2.0, 1.5], weights=[15, 38, 10, 27, 10])[0]
        if dual and r.random() < 0.5:
            byr_pct = 1.0
        return lst_pct, byr_pct

    # ------------------------------------------------------------------ a listing, start to end
    def listing(self, prop, agent, d0, price=None, prev=None, script=None):
        r = self.r
        key = len(self.lst)
        value = prop["value"] * index(d0)
        h = heat(d0)
        if price is None:
            price = charm(r, value * (r.uniform(0.96, 1.01) if h > 0.6 else r.uniform(0.99, 1.08)))
        row = [key, self.next_mls(), prop["id"], agent, d0, int(price), d0 + days(180), None, None, prev]
        self.lst.append(row)
        med = 5 + (1 - h) * 48 * (1 - 0.2 * spring(d0))
        if prop["typ"] == "LT":
            med *= 2.2
        T = max(1, int(r.lognormvariate(math.log(med), 0.75)))
        p_w = (0.025 + 0.08 * (1 - h)) * (0.6 if prev is not None else 1.0)
        if r.random() < p_w and T > 12:
            end, fate = d0 + days(r.randint(10, min(T - 1, 150))), "W"
        elif T > 180:
            end, fate = d0 + days(180), "X"
        else:
            end, fate = d0 + days(T), "C"
        if script:
            end, fate = script["end"], script["fate"]
        # asking-price changes while on the market
        cur, changes = price, []
        if script:
            changes = script["changes"]
        else:
            if h > 0.85 and T > 5 and r.random() < 0.04:
                changes.append((d0 + days(r.randint(2, 4)), charm(r, cur * 1.03)))
            t = r.randint(14, 28)
            while d0 + days(t) < end and d0 + days(t) <= CUTOFF:
                cd = d0 + days(t)
                if r.random() < (0.55 if heat(cd) < 0.6 else 0.1):
                    cur = charm(r, cur * (1 - r.uniform(0.02, 0.05)))
                    if cur < (changes[-1][1] if changes else price):
                        changes.append((cd, cur))
                t += r.randint(18, 40)
        for cd, p in changes:
            self.chg.append([None, key, cd, int(p)])
        cur = changes[-1][1] if changes else price
        self.showings(key, prop, d0, end, price / value)
        status, stat_dt = "A", d0
        if fate == "C" and end <= CUTOFF:
            stl = r.gauss(0.965 + 0.08 * h, 0.018 + 0.02 * h)
            amt = int(round(cur * stl / 500) * 500)
            inhouse = r.random() < 0.17
            byr = None
            if inhouse:
                byr = agent if r.random() < 0.4 else self.pick_agent(self.all_real, end)
            fin = self.fin_type(end, amt, prop["typ"], prop["ofc"])
            # an earlier contract that fell through
            if T >= 14 and r.random() < 0.07:
                td = end - days(r.randint(8, T - 3))
                self.offer(key, td - days(r.randint(0, 2)), cur * r.uniform(0.97, 1.0) // 500 * 500, "T",
                           self.pick_agent(self.all_real, td) if r.random() < 0.1 else None,
                           self.fin_type(td, cur, prop["typ"], prop["ofc"]))
            for _ in range(poisson(r, 0.4 + 6 * h ** 1.5)):
                od = end - days(r.randint(0, min(T - 1, 6)))
                self.offer(key, od, amt * r.uniform(0.9, 1.0) // 500 * 500, "R" if r.random() < 0.82 else "W",
                           self.pick_agent(self.all_real, od) if r.random() < 0.1 else None,
                           self.fin_type(od, amt, prop["typ"], prop["ofc"]))
            oi = self.offer(key, end - days(r.randint(0, 2)), amt, "A", byr, fin)
            close = end + days(r.randint(10, 25) if fin.upper() == "CASH" else r.randint(21, 45))
            if close <= CUTOFF:
                status, stat_dt = "S", close
                lp, bp = self.commission(close, byr == agent)
                self.cls.append([None, key, oi, prop["id"], row[1], end, close, amt, agent, byr, lp, bp])
            else:
                status, stat_dt = "P", end
        elif fate in ("W", "X") and end <= CUTOFF:
            status, stat_dt = fate, end
            for _ in range(1 if r.random() < 0.3 else 0):
                od = d0 + days(r.randint(3, max(4, (end - d0).days - 1)))
                self.offer(key, od, cur * r.uniform(0.82, 0.93) // 500 * 500, "R", None,
                           self.fin_type(od, cur, prop["typ"], prop["ofc"]))
        else:  # still on the market at the extract
            if fate == "C" and end <= CUTOFF + days(3):
                od = CUTOFF - days(r.randint(0, 1))
                self.offer(key, od, cur * r.uniform(0.95, 0.99) // 500 * 500, "O", None,
                           self.fin_type(od, cur, prop["typ"], prop["ofc"]))
        row[7], row[8] = status, stat_dt
        # withdrawn or expired: often back on the market later as a new listing
        if status in ("W", "X") and prev is None and not script and r.random() < 0.5:
            nd = end + days(r.randint(7, 120))
            if nd <= CUTOFF:
                a2 = agent if self.active(agent, nd) else self.pick_agent(self.by_office[prop["ofc"]], nd)
                if a2:
                    self.listing(prop, a2, nd, price=charm(r, cur * r.uniform(0.94, 0.99)), prev=key)
        return key

    def buy_side(self, ofc, d):
        r = self.r
        agent = self.pick_agent(self.by_office[ofc], d)
        close = d + days(r.randint(14, 45))
        if agent is None or close > CUTOFF:  # still under contract at the extract: not in cls yet
            return
        area = r.choices(AREAS[ofc], weights=[a[3] for a in AREAS[ofc]])[0] if r.random() < 0.8 else \
            r.choice([a for o in AREAS for a in AREAS[o]])
        prop = self.new_prop(ofc, area=area)
        price = int(round(prop["value"] * index(d) * r.gauss(0.975 + 0.07 * heat(d), 0.025) / 500) * 500)
        _, bp = self.commission(close, False)
        self.cls.append([None, None, None, prop["id"], self.next_mls(), d, close, price, None, agent, None, bp])

    # ------------------------------------------------------------------ the whole period
    def run(self):
        r = self.r
        self.make_agents()
        opened = {o[0]: o[4] for o in OFFICES}
        oak = None
        d = FIRST_DAY
        while d <= CUTOFF:
            wd = d.weekday()
            dow = [1.0, 0.9, 1.0, 1.4, 1.5, 0.35, 0.2][wd]
            season = 1 + 0.3 * spring(d)
            for ofc, _, _, _, _, w in OFFICES:
                if d < opened[ofc]:
                    continue
                for _ in range(poisson(r, 0.56 * w * season * dow)):
                    agent = self.pick_agent(self.by_office[ofc], d)
                    if agent:
                        self.listing(self.new_prop(ofc), agent, d)
                for _ in range(poisson(r, 0.21 * w * season * (1.0 if wd < 5 else 0.4))):
                    self.buy_side(ofc, d)
            if d == D(2024, 5, 16):  # the Cedar Park house that got pulled and came back
                oak = self.oak_hollow()
            if d == D(2025, 2, 20):
                self.oak_hollow_relist(oak)
            d += days(1)
        self.test_records()

    def oak_hollow(self):
        area = AREAS[3][0]
        prop = self.new_prop(3, area=area, typ="SF", addr="1207 Oak Hollow Dr",
                             fixed=(4, 2.5, 2480, 2004, 0.22, 640000 / index(D(2024, 5, 16))))
        agent = self.pick_agent(self.by_office[3], D(2024, 5, 16))
        key = self.listing(prop, agent, D(2024, 5, 16), price=625000, script=dict(
            end=D(2024, 9, 3), fate="W", changes=[(D(2024, 6, 20), 599900), (D(2024, 7, 25), 585000)]))
        return prop, agent, key

    def oak_hollow_relist(self, oak):
        prop, agent, key = oak
        if not self.active(agent, D(2025, 2, 20)):
            agent = self.pick_agent(self.by_office[3], D(2025, 2, 20))
        self.listing(prop, agent, D(2025, 2, 20), price=574900, prev=key, script=dict(
            end=D(2025, 6, 1), fate="C", changes=[(D(2025, 3, 21), 559000)]))

    def test_records(self):
        """Fake data the CRM trainers and QA left behind (is_tst logins)."""
        r = self.r
        tests = [a for a, i in self.ainfo.items() if i["test"]]
        fake = [("123 Test St", "CO", 249000), ("1 QA Way", "SF", 12500000), ("999 Sample Rd", "SF", 450000),
                ("42 Training Ln", "TH", 380000), ("100 Demo Dr", "SF", 1000000), ("0 Do Not Use", "LT", 1),
                ("55 Sandbox Ct", "CO", 315000), ("7 Test Listing Blvd", "SF", 725000)]
        plan = [  # fake property, agent, list date, fate, end
            (0, 0, D(2025, 2, 10), "A", None), (1, 1, D(2024, 5, 2), "S", D(2024, 6, 14)),
            (2, 0, D(2022, 4, 4), "S", D(2022, 5, 20)), (3, 2, D(2023, 9, 12), "W", D(2023, 10, 2)),
            (4, 1, D(2024, 10, 1), "W", D(2024, 11, 15)), (5, 2, D(2025, 1, 6), "A", None),
            (6, 0, D(2025, 3, 3), "A", None), (7, 1, D(2025, 1, 15), "S", D(2025, 2, 21)),
            (2, 2, D(2024, 2, 5), "X", D(2024, 8, 3)),
        ]
        made = {}
        for fi, ai, d0, fate, end in plan:
            addr, typ, price = fake[fi]
            if fi not in made:
                made[fi] = self.new_prop(1, area=AREAS[1][0], typ=typ, addr=addr)
            prop, agent = made[fi], tests[ai]
            key = len(self.lst)
            row = [key, self.next_mls(), prop["id"], agent, d0, price, d0 + days(180), fate, end or d0, None]
            self.lst.append(row)
            if fi == 0:
                self.chg.append([None, key, D(2025, 3, 10), 239000])
            for k in range(r.randint(3, 8)):
                sd = min(d0 + days(r.randint(0, 40)), CUTOFF)
                self.shw.append([None, key, dt.datetime.combine(sd, dt.time(10 + k % 8, 0)), "P", agent, 5])
            if fate == "A":
                for k in range(2):
                    od = d0 + days(3 + k)
                    self.offer(key, od, price * 0.95 // 500 * 500, "R", tests[(ai + 1) % 3], "CASH")
            if fate == "S":
                cd = end - days(30)
                oi = self.offer(key, cd, price, "A", tests[(ai + 1) % 3], "CASH" if cd.year > 2023 else "Cash")
                self.cls.append([None, key, oi, prop["id"], row[1], cd, end, price, agent, tests[(ai + 1) % 3],
                                 3.0, 3.0])

    # ------------------------------------------------------------------ ids in time order
    def finish(self):
        order = sorted(range(len(self.lst)), key=lambda k: (self.lst[k][4], k))
        new_id = {k: i + 1 for i, k in enumerate(order)}
        lst = []
        for k in order:
            row = list(self.lst[k])
            row[0] = new_id[k]
            row[9] = new_id[row[9]] if row[9] is not None else None
            lst.append(tuple(row))
        chg = sorted(self.chg, key=lambda c: (c[2], new_id[c[1]]))
        chg = [(i + 1, new_id[c[1]], c[2], c[3]) for i, c in enumerate(chg)]
        shw = sorted(self.shw, key=lambda s: (s[2], new_id[s[1]]))
        shw = [(i + 1, new_id[s[1]], s[2], s[3], s[4], s[5]) for i, s in enumerate(shw)]
        oorder = sorted(range(len(self.ofr)), key=lambda k: (self.ofr[k][2], new_id[self.ofr[k][1]], k))
        oid = {k: i + 1 for i, k in enumerate(oorder)}
        ofr = []
        for k in oorder:
            _, key, d, amt, fin, agent, stat = self.ofr[k]
            ofr.append((oid[k], new_id[key], f"{d.month}/{d.day}/{d.year}", amt, fin, agent, stat))
        cls = sorted(self.cls, key=lambda c: (c[6], c[5], c[3]))
        cls = [(i + 1, new_id[c[1]] if c[1] is not None else None, oid[c[2]] if c[2] is not None else None,
                *c[3:]) for i, c in enumerate(cls)]
        managers = {a[3]: a[0] for a in self.agents if a[4] == "BRK"}
        ofc = [(o[0], o[1], o[2], o[3], "TX", o[4], managers.get(o[0])) for o in OFFICES]
        agt = [tuple(a) for a in self.agents]
        return {"ofc": ofc, "agt": agt, "prop": self.props, "lst": lst, "lst_prc_chg": chg, "shw": shw,
                "ofr": ofr, "cls": cls}


COLUMNS = {
    "ofc": ["ofc_id", "ofc_cd", "ofc_nm", "ofc_city", "ofc_st", "ofc_open_dt", "mgr_agt_id"],
    "agt": ["agt_id", "agt_fnm", "agt_lnm", "ofc_id", "agt_role", "agt_lic_no", "agt_hire_dt", "agt_term_dt", "is_tst"],
    "prop": ["prop_id", "addr_ln", "city", "st", "zip", "prop_typ", "beds", "baths", "sqft", "yr_blt", "lot_ac"],
    "lst": ["lst_id", "mls_no", "prop_id", "lst_agt_id", "lst_dt", "lst_prc", "lst_exp_dt", "lst_stat", "stat_dt",
            "prev_lst_id"],
    "lst_prc_chg": ["prc_chg_id", "lst_id", "chg_dt", "new_prc"],
    "shw": ["shw_id", "lst_id", "shw_ts", "shw_typ", "shw_agt_id", "fb_rtg"],
    "ofr": ["ofr_id", "lst_id", "ofr_dt", "ofr_amt", "fin_typ", "byr_agt_id", "ofr_stat"],
    "cls": ["cls_id", "lst_id", "ofr_id", "prop_id", "mls_no", "cntr_dt", "cls_dt", "sale_prc", "lst_agt_id",
            "byr_agt_id", "lst_side_pct", "byr_side_pct"],
}


def quote(text):
    return "'" + text.replace("'", "''") + "'"


def build():
    w = World()
    w.run()
    return w.finish()


def main() -> None:
    _common.ensure_venv()
    import duckdb
    import pandas as pd

    path = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PATH)
    tables = build()
    fd, tmp = tempfile.mkstemp(suffix=".duckdb", dir=os.path.dirname(path))
    os.close(fd)
    os.remove(tmp)  # DuckDB wants to create the file itself
    try:
        con = duckdb.connect(tmp)
        con.execute(f"CREATE SCHEMA {SCHEMA}")
        for ddl in DDL:
            con.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            con.execute(f"COMMENT ON TABLE {SCHEMA}.{table} IS {quote(comment)}")
        for (table, column), comment in COLUMN_COMMENTS.items():
            con.execute(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS {quote(comment)}")
        for table, rows in tables.items():
            frame = pd.DataFrame(rows, columns=COLUMNS[table], dtype=object)
            con.register("frame", frame)
            con.execute(f"INSERT INTO {SCHEMA}.{table} SELECT * FROM frame")
            con.unregister("frame")
        counts = {f"{SCHEMA}.{t}": con.execute(f"SELECT count(*) FROM {SCHEMA}.{t}").fetchone()[0] for t in tables}
        con.execute("CHECKPOINT")
        con.close()
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
    print(f"loaded the synthetic brokerage into DuckDB file {path}:")
    _common.print_counts(counts, f"duckdb://{path}",
                         f"(tables are in schema {SCHEMA}, not main: WAREHOUSE_SCHEMAS={SCHEMA} names it; "
                         "DuckDB has no users: the bot opens the file read-only)")


if __name__ == "__main__":
    main()
