#!/usr/bin/env python3
"""A synthetic car-rental company (2023-01-01 .. extract 2024-12-15) on PostgreSQL, schemas `core` + `ref`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_rental if missing, drops and rebuilds schemas "core" (facts and entities) and
"ref" (lookups), loads nine tables generated deterministically with random.Random(23), and creates
(or resets) the read-only login role rental_reader / rental_reader. Idempotent: same rows every run.

Naming: terse snake_case abbreviations (cust_id, veh_cls_cd, pu_dt, ret_dt, amt_usd, odo_out, br_cd);
code columns say what their codes mean in COMMENT ON COLUMN. Only some foreign keys are declared
(veh.veh_cls_cd, rntl.veh_id, resv.cust_id, dmg_clm.rntl_id); the others are implied by names only.

  ref.br_rgn     4 regions of branches (NE, SE, MW, WE) with the regional manager
  ref.veh_cls    ACRISS-style vehicle class codes with list daily rate (WCAR has no vehicles)
  core.branch    16 branches: airport (AP) and downtown (DT); a downtown branch reports to an airport
                 hub (parent_br_cd, self-reference); ATL02 closed 2023-09-30, SFO02 opened 2024-03-01;
                 three branches in Chicago (O'Hare, Midway, Loop)
  core.veh       the fleet: make/model/year, class, home branch, acquired / disposed dates
  core.cust      customers: loyalty tier code (NULL = not enrolled), corporate account (NULL = retail)
  core.resv      reservations: channel code, status code (F fulfilled / X cancelled / N no-show /
                 C confirmed, future pickup), scheduled pickup and return
  core.rntl      rental agreements: pickup/return branch, dates, odometer out/in, fuel, LDW, amt_usd;
                 still-open rentals at the extract have NULL return fields; walk-ups have no resv_id
  core.dmg_clm   damage claims on rentals: type code, estimate, settlement, status (O/S/W)
  core.pmt       payments: rental charges, refunds (negative), damage recoveries
"""

import datetime as dt
import bisect
import itertools
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, ROLE = "dev_rental", "rental_reader"
SCHEMAS = ("ref", "core")
URL = "postgresql://rental_reader:rental_reader@127.0.0.1:5432/dev_rental"
SEED = 23
FIRST_DAY = dt.date(2023, 1, 1)
EXTRACT = dt.datetime(2024, 12, 15, 23, 59)     # data as of the end of 2024-12-15
LAST_BOOKED = dt.date(2025, 2, 28)             # reservations for future pickups go this far

DDL = [
    """CREATE TABLE ref.br_rgn (
        rgn_cd char(2) PRIMARY KEY,
        rgn_nm varchar(40) NOT NULL,
        rgn_mgr_nm varchar(60))""",
    """CREATE TABLE ref.veh_cls (
        veh_cls_cd char(4) PRIMARY KEY,
        cls_desc varchar(40) NOT NULL,
        cls_grp varchar(3) NOT NULL,
        seat_cnt smallint NOT NULL,
        list_rt_usd numeric(7, 2) NOT NULL)""",
    """CREATE TABLE core.branch (
        br_cd varchar(5) PRIMARY KEY,
        br_nm varchar(60) NOT NULL,
        city_nm varchar(40) NOT NULL,
        st_cd char(2) NOT NULL,
        rgn_cd char(2) NOT NULL,
        br_typ_cd char(2) NOT NULL,
        parent_br_cd varchar(5),
        open_dt date NOT NULL,
        close_dt date)""",
    """CREATE TABLE core.veh (
        veh_id integer PRIMARY KEY,
        vin char(17) NOT NULL,
        lic_plt varchar(10) NOT NULL,
        make_nm varchar(30) NOT NULL,
        mdl_nm varchar(30) NOT NULL,
        mdl_yr smallint NOT NULL,
        veh_cls_cd char(4) NOT NULL REFERENCES ref.veh_cls (veh_cls_cd),
        home_br_cd varchar(5) NOT NULL,
        acq_dt date NOT NULL,
        disp_dt date,
        odo_acq integer NOT NULL)""",
    """CREATE TABLE core.cust (
        cust_id integer PRIMARY KEY,
        first_nm varchar(40) NOT NULL,
        last_nm varchar(40) NOT NULL,
        email_addr varchar(80),
        birth_dt date,
        dl_st_cd char(2),
        loy_tier_cd char(1),
        corp_acct_cd varchar(8),
        enroll_dt date NOT NULL)""",
    """CREATE TABLE core.resv (
        resv_id integer PRIMARY KEY,
        cust_id integer NOT NULL REFERENCES core.cust (cust_id),
        br_cd varchar(5) NOT NULL,
        ret_br_cd varchar(5) NOT NULL,
        veh_cls_cd char(4) NOT NULL,
        bkd_ts timestamp NOT NULL,
        pu_dt_sched timestamp NOT NULL,
        ret_dt_sched timestamp NOT NULL,
        chnl_cd varchar(3) NOT NULL,
        resv_stat_cd char(1) NOT NULL,
        quote_amt_usd numeric(9, 2) NOT NULL)""",
    """CREATE TABLE core.rntl (
        rntl_id integer PRIMARY KEY,
        resv_id integer,
        cust_id integer NOT NULL,
        veh_id integer NOT NULL REFERENCES core.veh (veh_id),
        pu_br_cd varchar(5) NOT NULL,
        ret_br_cd varchar(5),
        pu_dt timestamp NOT NULL,
        ret_dt timestamp,
        odo_out integer NOT NULL,
        odo_in integer,
        fuel_out smallint NOT NULL,
        fuel_in smallint,
        ldw_ind char(1) NOT NULL,
        day_rt_usd numeric(7, 2) NOT NULL,
        amt_usd numeric(9, 2),
        rntl_stat_cd char(1) NOT NULL)""",
    """CREATE TABLE core.dmg_clm (
        clm_id integer PRIMARY KEY,
        rntl_id integer NOT NULL REFERENCES core.rntl (rntl_id),
        veh_id integer NOT NULL,
        rpt_dt date NOT NULL,
        dmg_typ_cd varchar(3) NOT NULL,
        est_amt_usd numeric(9, 2) NOT NULL,
        sttl_amt_usd numeric(9, 2),
        sttl_dt date,
        clm_stat_cd char(1) NOT NULL)""",
    """CREATE TABLE core.pmt (
        pmt_id integer PRIMARY KEY,
        rntl_id integer NOT NULL,
        pmt_ts timestamp NOT NULL,
        pmt_typ_cd varchar(3) NOT NULL,
        pmt_mthd_cd char(2) NOT NULL,
        amt_usd numeric(9, 2) NOT NULL)""",
]
TABLE_COMMENTS = {
    "ref.br_rgn": "Branch regions",
    "ref.veh_cls": "Vehicle classes (ACRISS-style codes) with the list daily rate",
    "core.branch": "Rental branches (locations)",
    "core.veh": "Fleet vehicles, current and disposed",
    "core.cust": "Customers (renters)",
    "core.resv": "Reservations (bookings) made ahead of a pickup",
    "core.rntl": "Rental agreements: one row per vehicle handed to a customer",
    "core.dmg_clm": "Damage claims raised on a rental at or after return",
    "core.pmt": "Payments received per rental agreement",
}
COLUMN_COMMENTS = {
    ("ref.br_rgn", "rgn_cd"): "region code",
    ("ref.br_rgn", "rgn_mgr_nm"): "regional manager",
    ("ref.veh_cls", "veh_cls_cd"): "ACRISS-style class code, e.g. ECAR economy, IFAR intermediate SUV",
    ("ref.veh_cls", "cls_grp"): "CAR = sedan/hatchback, SUV = sport utility, VAN = minivan",
    ("ref.veh_cls", "list_rt_usd"): "list (rack) daily rate in USD before branch/seasonal pricing",
    ("core.branch", "br_cd"): "branch code",
    ("core.branch", "br_typ_cd"): "AP = airport location, DT = downtown / neighborhood location",
    ("core.branch", "parent_br_cd"): "hub branch this location reports to (br_cd of an airport branch); NULL for hubs",
    ("core.branch", "rgn_cd"): "region, see ref.br_rgn",
    ("core.branch", "close_dt"): "date the branch closed; NULL = open",
    ("core.veh", "veh_cls_cd"): "vehicle class, see ref.veh_cls",
    ("core.veh", "home_br_cd"): "branch the vehicle is assigned to (br_cd)",
    ("core.veh", "acq_dt"): "date acquired into the fleet (in-fleet date)",
    ("core.veh", "disp_dt"): "date disposed/sold out of the fleet; NULL = still in the fleet",
    ("core.veh", "odo_acq"): "odometer miles when acquired",
    ("core.veh", "lic_plt"): "license plate",
    ("core.cust", "loy_tier_cd"): "loyalty program tier: M = member, S = silver, G = gold, P = platinum; NULL = not enrolled",
    ("core.cust", "corp_acct_cd"): "corporate account code; NULL = retail (leisure) customer",
    ("core.cust", "dl_st_cd"): "state of the driver license",
    ("core.cust", "enroll_dt"): "date the customer profile was created",
    ("core.resv", "br_cd"): "pickup branch",
    ("core.resv", "ret_br_cd"): "planned return branch",
    ("core.resv", "veh_cls_cd"): "class booked (the car given may differ)",
    ("core.resv", "bkd_ts"): "when the reservation was made",
    ("core.resv", "pu_dt_sched"): "scheduled pickup date/time",
    ("core.resv", "ret_dt_sched"): "scheduled return date/time",
    ("core.resv", "chnl_cd"): "booking channel: WEB = website, APP = mobile app, CC = call center, OTA = online travel agency / broker",
    ("core.resv", "resv_stat_cd"): "F = fulfilled (picked up, see core.rntl.resv_id), X = cancelled, N = no-show, C = confirmed (pickup still ahead)",
    ("core.resv", "quote_amt_usd"): "estimated total quoted at booking, USD",
    ("core.rntl", "resv_id"): "reservation picked up; NULL = walk-up rental without reservation",
    ("core.rntl", "pu_br_cd"): "pickup branch (br_cd)",
    ("core.rntl", "ret_br_cd"): "return branch; differs from pu_br_cd for one-way rentals; NULL while still out",
    ("core.rntl", "pu_dt"): "pickup date/time",
    ("core.rntl", "ret_dt"): "actual return date/time; NULL while the vehicle is still out",
    ("core.rntl", "odo_out"): "odometer miles at pickup",
    ("core.rntl", "odo_in"): "odometer miles at return; NULL while still out",
    ("core.rntl", "fuel_out"): "fuel level at pickup in eighths of a tank (8 = full)",
    ("core.rntl", "fuel_in"): "fuel level at return in eighths of a tank (8 = full)",
    ("core.rntl", "ldw_ind"): "Y = customer bought the loss damage waiver (LDW), N = declined",
    ("core.rntl", "day_rt_usd"): "daily rate charged, USD",
    ("core.rntl", "amt_usd"): "total billed for the rental in USD (time + one-way fee + LDW + fuel), excl. tax; NULL while open",
    ("core.rntl", "rntl_stat_cd"): "O = open (vehicle out), C = closed (returned)",
    ("core.dmg_clm", "veh_id"): "damaged vehicle (same as the rental's)",
    ("core.dmg_clm", "rpt_dt"): "date the damage was reported",
    ("core.dmg_clm", "dmg_typ_cd"): "SCR = scratch/scuff, DNT = dent, GLS = glass/windshield, TIR = tire/wheel, INT = interior, MEC = mechanical",
    ("core.dmg_clm", "est_amt_usd"): "estimated repair cost USD",
    ("core.dmg_clm", "sttl_amt_usd"): "amount recovered from the customer/insurer at settlement, USD; NULL unless settled",
    ("core.dmg_clm", "sttl_dt"): "settlement date; NULL unless settled",
    ("core.dmg_clm", "clm_stat_cd"): "O = open / under review, S = settled (recovered), W = waived (covered by LDW)",
    ("core.pmt", "pmt_typ_cd"): "CHG = rental charge, RFD = refund (negative amount), DMG = damage recovery",
    ("core.pmt", "pmt_mthd_cd"): "CC = credit card, DC = debit card, CA = cash, IN = invoiced to a corporate account",
    ("core.pmt", "amt_usd"): "payment amount USD (negative for refunds)",
}

REGIONS = [("NE", "Northeast", "Dana Whitlock"), ("SE", "Southeast", "Luis Ferreira"),
           ("MW", "Midwest", "Karen Olsen"), ("WE", "West", None)]
CLASSES = [  # code, desc, group, seats, list rate, miles/day, damage factor, pick weight
    ("ECAR", "Economy", "CAR", 4, 39.00, 70, 0.9, 14),
    ("CCAR", "Compact", "CAR", 5, 45.00, 75, 0.9, 18),
    ("ICAR", "Intermediate", "CAR", 5, 52.00, 80, 1.0, 16),
    ("SCAR", "Standard", "CAR", 5, 58.00, 85, 1.0, 10),
    ("FCAR", "Full-size", "CAR", 5, 64.00, 90, 1.0, 12),
    ("IFAR", "Intermediate SUV", "SUV", 5, 72.00, 95, 1.7, 13),
    ("SFAR", "Standard SUV", "SUV", 7, 84.00, 105, 1.9, 8),
    ("PCAR", "Premium", "CAR", 5, 95.00, 90, 0.8, 4),
    ("LCAR", "Luxury", "CAR", 5, 129.00, 80, 0.6, 3),
    ("MVAR", "Minivan", "VAN", 7, 99.00, 110, 1.4, 4),
    ("WCAR", "Premium Elite", "CAR", 5, 169.00, 80, 0.6, 0),   # on the rate card, never in the fleet
]
MODELS = {
    "ECAR": [("Mitsubishi", "Mirage"), ("Kia", "Rio"), ("Chevrolet", "Spark")],
    "CCAR": [("Nissan", "Versa"), ("Toyota", "Corolla"), ("Hyundai", "Elantra")],
    "ICAR": [("Kia", "Forte"), ("Volkswagen", "Jetta"), ("Toyota", "Corolla Hybrid")],
    "SCAR": [("Volkswagen", "Passat"), ("Hyundai", "Sonata")],
    "FCAR": [("Chevrolet", "Malibu"), ("Toyota", "Camry"), ("Nissan", "Altima")],
    "IFAR": [("Toyota", "RAV4"), ("Nissan", "Rogue"), ("Ford", "Escape")],
    "SFAR": [("Ford", "Explorer"), ("Jeep", "Grand Cherokee")],
    "PCAR": [("Nissan", "Maxima"), ("Chrysler", "300")],
    "LCAR": [("BMW", "5 Series"), ("Cadillac", "CT5"), ("Mercedes-Benz", "E-Class")],
    "MVAR": [("Chrysler", "Pacifica"), ("Toyota", "Sienna")],
}
BRANCHES = [  # code, name, city, state, region, type, parent, opened, closed, pickups/day 2023, growth 2024, damage factor
    ("BOS01", "Boston Logan Airport", "Boston", "MA", "NE", "AP", None, dt.date(2004, 5, 1), None, 6.0, 1.06, 1.0),
    ("BOS02", "Boston Back Bay", "Boston", "MA", "NE", "DT", "BOS01", dt.date(2012, 3, 1), None, 1.8, 1.04, 0.9),
    ("JFK01", "New York JFK Airport", "Queens", "NY", "NE", "AP", None, dt.date(2001, 9, 1), None, 7.5, 1.05, 1.2),
    ("NYC02", "Manhattan Midtown", "New York", "NY", "NE", "DT", "JFK01", dt.date(2010, 6, 1), None, 2.4, 1.02, 1.3),
    ("MIA01", "Miami Intl Airport", "Miami", "FL", "SE", "AP", None, dt.date(2003, 1, 15), None, 7.0, 1.10, 1.6),
    ("MIA02", "Miami Beach", "Miami Beach", "FL", "SE", "DT", "MIA01", dt.date(2015, 11, 1), None, 2.0, 1.12, 1.5),
    ("ATL01", "Atlanta Hartsfield Airport", "Atlanta", "GA", "SE", "AP", None, dt.date(2006, 4, 1), None, 5.5, 1.07, 1.0),
    ("ATL02", "Atlanta Midtown", "Atlanta", "GA", "SE", "DT", "ATL01", dt.date(2016, 8, 1), dt.date(2023, 9, 30), 1.2, 1.0, 1.0),
    ("ORD01", "Chicago O'Hare Airport", "Chicago", "IL", "MW", "AP", None, dt.date(2002, 2, 1), None, 7.2, 1.03, 1.1),
    ("MDW01", "Chicago Midway Airport", "Chicago", "IL", "MW", "AP", None, dt.date(2011, 7, 1), None, 3.5, 0.86, 1.0),
    ("CHI02", "Chicago Loop", "Chicago", "IL", "MW", "DT", "ORD01", dt.date(2013, 5, 1), None, 1.9, 1.05, 1.1),
    ("DEN01", "Denver Intl Airport", "Denver", "CO", "WE", "AP", None, dt.date(2009, 10, 1), None, 4.5, 1.28, 0.9),
    ("LAX01", "Los Angeles LAX Airport", "Los Angeles", "CA", "WE", "AP", None, dt.date(2000, 3, 1), None, 9.0, 1.08, 1.1),
    ("LAX02", "Santa Monica", "Santa Monica", "CA", "WE", "DT", "LAX01", dt.date(2014, 4, 1), None, 1.7, 1.05, 0.9),
    ("SFO01", "San Francisco Intl Airport", "San Francisco", "CA", "WE", "AP", None, dt.date(2005, 6, 1), None, 5.8, 1.04, 0.9),
    ("SFO02", "SF Union Square", "San Francisco", "CA", "WE", "DT", "SFO01", dt.date(2024, 3, 1), None, 1.6, 1.0, 0.9),
]
CHANNELS = {"WEB": (44, 0.035), "APP": (22, 0.025), "CC": (12, 0.05), "OTA": (22, 0.11)}  # weight, no-show rate
DMG_TYPES = [("SCR", 40, 180, 650), ("DNT", 25, 350, 1400), ("GLS", 12, 250, 900), ("TIR", 10, 150, 500),
             ("INT", 8, 120, 600), ("MEC", 5, 800, 3800)]
FIRST = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
         "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Maria",
         "Daniel", "Karen", "Matthew", "Nancy", "Anthony", "Lisa", "Mark", "Betty", "Kevin", "Sandra", "Jose",
         "Ashley", "Wei", "Priya", "Ahmed", "Fatima", "Hiroshi", "Yuki", "Olga", "Ivan", "Aisha", "Kwame"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor",
        "Thomas", "Moore", "Martin", "Jackson", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Hill", "Green", "Adams", "Baker", "Nelson",
        "Lopez", "Hernandez", "Rodriguez", "Martinez", "Gonzalez", "Perez", "Nguyen", "Kim", "Chen", "Patel",
        "Singh", "Cohen", "Murphy", "O'Connor", "Kowalski", "Rossi", "Schmidt", "Tanaka", "Ivanova"]
STATES = ["NY", "CA", "FL", "IL", "MA", "GA", "CO", "TX", "NJ", "WA", "PA", "OH", "MI", "NC", "VA", "AZ", "ON"]
CORPS = ["ACME01", "GLBX02", "INIT03", "UMBR04", "STRK05", "WAYN06", "HOOL07", "SOYL08"]


def month_factor(month: int, state: str) -> float:
    if state == "FL":  # Florida peaks in winter
        return [1.35, 1.4, 1.45, 1.2, 0.95, 0.8, 0.85, 0.8, 0.7, 0.85, 1.0, 1.3][month - 1]
    return [0.72, 0.75, 0.9, 0.95, 1.05, 1.25, 1.4, 1.35, 1.05, 1.0, 0.9, 1.05][month - 1]


def vin(r: random.Random) -> str:
    chars = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    return "".join(r.choice(chars) for _ in range(17))


def build():
    r = random.Random(SEED)
    rgns = list(REGIONS)
    cls_rows = [(c, d, g, s, rt) for c, d, g, s, rt, *_ in CLASSES]
    cls = {c[0]: dict(rate=c[4], miles=c[5], dmg=c[6], w=c[7], grp=c[2]) for c in CLASSES}
    fleet_classes = [c for c in cls if cls[c]["w"] > 0]
    order = [c[0] for c in sorted(CLASSES, key=lambda c: c[4])]  # upgrade order by rate
    branches = [(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8]) for b in BRANCHES]
    br = {b[0]: dict(name=b[1], st=b[3], rgn=b[4], typ=b[5], opened=max(b[7], FIRST_DAY), closed=b[8],
                     base=b[9], growth=b[10], dmg=b[11], parent=b[6]) for b in BRANCHES}

    def class_weights(bcd):
        w = {}
        for c in fleet_classes:
            x = cls[c]["w"]
            if br[bcd]["typ"] == "DT" and c in ("SFAR", "MVAR"):
                x *= 0.5
            if br[bcd]["st"] in ("CO",) and cls[c]["grp"] == "SUV":
                x *= 2.2
            if br[bcd]["st"] == "FL" and c in ("PCAR", "LCAR"):
                x *= 1.8
            w[c] = x
        return w

    # ---------------- customers
    customers, cust_pool = [], []
    n_cust = 9000
    for cid in range(1, n_cust + 1):
        first, last = r.choice(FIRST), r.choice(LAST)
        enroll = dt.date(2014, 1, 1) + dt.timedelta(days=int(r.triangular(0, (dt.date(2024, 12, 10) - dt.date(2014, 1, 1)).days, 3200)))
        birth = dt.date(1950, 1, 1) + dt.timedelta(days=r.randint(0, 365 * 52))
        corp = r.choice(CORPS) if r.random() < 0.12 else None
        w = min(9.0, r.paretovariate(1.6)) * (2.5 if corp else 1.0) * (0.0 if r.random() < 0.13 else 1.0)
        email = None if r.random() < 0.06 else f"{first.lower()}.{last.lower().replace(chr(39), '')}{r.randint(1, 999)}@example.com"
        customers.append([cid, first, last, email, None if r.random() < 0.02 else birth,
                          None if r.random() < 0.03 else r.choice(STATES), None, corp, enroll])
        cust_pool.append(dict(id=cid, enroll=enroll, w=w, corp=corp))
    # loyalty tier follows how often people rent (with noise)
    ranked = sorted(cust_pool, key=lambda c: c["w"] * r.uniform(0.5, 1.5), reverse=True)
    for i, c in enumerate(ranked):
        q = i / n_cust
        tier = "P" if q < 0.03 else "G" if q < 0.10 else "S" if q < 0.25 else "M" if q < 0.58 else None
        if r.random() < 0.08:
            tier = None
        customers[c["id"] - 1][6] = tier
    # three customers called Maria Garcia (the name is otherwise not generated)
    for cid in (1187, 4410, 7702):
        customers[cid - 1][1], customers[cid - 1][2] = "Maria", "Garcia"
        customers[cid - 1][3] = f"maria.garcia{cid % 97}@example.com"
        cust_pool[cid - 1]["w"] = max(cust_pool[cid - 1]["w"], 1.5)
    pool = sorted(cust_pool, key=lambda c: (c["enroll"], c["id"]))
    enrolls = [c["enroll"] for c in pool]
    cum = list(itertools.accumulate(c["w"] for c in pool))

    # ---------------- demand: one event per pickup (reservation and/or walk-up)
    events = []
    day = FIRST_DAY
    while day <= LAST_BOOKED:
        for bcd, b in br.items():
            if day < b["opened"] or (b["closed"] and day > b["closed"]):
                continue
            wd = day.weekday()
            wdf = ([0.9, 0.85, 0.9, 1.1, 1.35, 0.95, 0.95] if b["typ"] == "AP"
                   else [0.8, 0.8, 0.85, 0.95, 1.3, 1.4, 0.9])[wd]
            growth = b["growth"] ** ((day - dt.date(2023, 7, 1)).days / 365.0 + 0.5) if day >= dt.date(2024, 1, 1) else 1.0
            mean = b["base"] * wdf * month_factor(day.month, b["st"]) * growth
            if b["closed"] and (b["closed"] - day).days < 60:
                mean *= 0.6
            n = max(0, int(r.gauss(mean, math.sqrt(mean) + 0.4) + 0.5))
            for _ in range(n):
                hour = r.choices(range(6, 23), weights=[2, 5, 8, 9, 9, 8, 8, 8, 8, 9, 9, 8, 6, 4, 3, 2, 1])[0]
                pu = dt.datetime.combine(day, dt.time(hour, r.choice([0, 10, 15, 20, 30, 40, 45, 50])))
                events.append((pu, bcd))
        day += dt.timedelta(days=1)
    events.sort()

    resvs, rentals = [], []
    # fleet: sized per branch and class from the expected demand, renewed every 14-22 months
    vehicles, fleet = [], {}
    vid = 0
    plates = set()

    def new_vehicle(bcd, c, acq, model_year):
        nonlocal vid
        vid += 1
        make, model = r.choice(MODELS[c])
        while True:
            plate = f"{br[bcd]['st']}{r.randint(1000, 9999)}{r.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{r.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}"
            if plate not in plates:
                plates.add(plate)
                break
        life = r.randint(420, 680)
        v = dict(id=vid, plate=plate, cls=c, br=bcd, acq=acq, disp=acq + dt.timedelta(days=life), free=dt.datetime.combine(acq, dt.time(6)),
                 odo=r.randint(4, 60), make=make, model=model, yr=model_year)
        v["odo_acq"] = v["odo"]
        vehicles.append(v)
        fleet.setdefault((bcd, c), []).append(v)
        return v

    for bcd, b in br.items():
        cw = class_weights(bcd)
        tot = sum(cw.values())
        peak = b["base"] * 1.45 * (b["growth"] ** 1.6) * (3.9 if b["typ"] == "AP" else 2.8)
        for c in fleet_classes:
            need = max(1, int(round(peak * cw[c] / tot * 1.6)))
            for _ in range(need):
                start = b["opened"] if b["opened"] > FIRST_DAY else FIRST_DAY - dt.timedelta(days=r.randint(1, 400))
                v = new_vehicle(bcd, c, start, start.year + r.choice([0, 0, 1]))
                # renew while the data runs
                while v["disp"] < EXTRACT.date() and not (b["closed"] and v["disp"] > b["closed"]):
                    v = new_vehicle(bcd, c, v["disp"], v["disp"].year + 1)
            if b["closed"]:
                for v in fleet[(bcd, c)]:
                    if v["disp"] > b["closed"]:
                        v["disp"] = b["closed"] + dt.timedelta(days=r.randint(3, 20))

    def find_vehicle(bcd, c, pu, ret):
        for cc in [c] + [x for x in order if x in fleet_classes and cls[x]["rate"] > cls[c]["rate"]][:3]:
            ok = [v for v in fleet.get((bcd, cc), []) if v["free"] <= pu and v["acq"] <= pu.date()
                  and v["disp"] > ret.date()]
            if ok:
                return min(ok, key=lambda v: (v["free"], v["id"]))
        return None

    branch_codes = list(br)
    for pu, bcd in events:
        b = br[bcd]
        k = bisect.bisect_right(enrolls, pu.date() - dt.timedelta(days=1))
        cust = r.choices(pool[:k], cum_weights=cum[:k])[0]
        cw = class_weights(bcd)
        c = r.choices(list(cw), weights=list(cw.values()))[0]
        mean_days = 4.2 if b["typ"] == "AP" else 2.6
        if cust["corp"]:
            mean_days *= 0.7
        days = max(1, min(28, int(round(r.lognormvariate(math.log(mean_days), 0.6)))))
        ret_sched = pu + dt.timedelta(days=days, minutes=r.choice([-60, -30, 0, 0, 30, 90, 120]))
        # one-way: mostly to the sister branch in the same metro / region
        ret_br = bcd
        ow = 0.08 if b["typ"] == "AP" else 0.14
        if bcd in ("SFO01", "SFO02"):
            ow = 0.2
        if r.random() < ow:
            same = [x for x in branch_codes if x != bcd and br[x]["rgn"] == b["rgn"] and not br[x]["closed"]]
            if bcd.startswith("SFO"):
                same = ["LAX01", "LAX01", "LAX02"]
            ret_br = r.choice(same if same and r.random() < 0.8 else [x for x in branch_codes if x != bcd and not br[x]["closed"]])
        rate_est = round(cls[c]["rate"] * (1.12 if b["typ"] == "AP" else 1.0) * (0.85 + 0.3 * month_factor(pu.month, b["st"]) / 1.45), 2)
        walkup = r.random() < (0.09 if b["typ"] == "AP" else 0.16)
        resv_id = None
        status = None
        if not walkup:
            chnl = r.choices(list(CHANNELS), weights=[v[0] for v in CHANNELS.values()])[0]
            lead = min(330.0, max(0.02, r.lognormvariate(math.log(12), 1.0)))
            bkd = pu - dt.timedelta(days=lead)
            bkd = bkd.replace(second=0, microsecond=0)
            if bkd > EXTRACT:
                continue  # not booked yet at the extract
            if pu > EXTRACT:
                status = "X" if r.random() < 0.06 else "C"
            else:
                u = r.random()
                cancel = 0.11 + (0.06 if chnl == "OTA" else 0.0)
                status = "X" if u < cancel else "N" if u < cancel + CHANNELS[chnl][1] else "F"
            resv_id = len(resvs) + 1
            quote = round(rate_est * days * r.uniform(0.97, 1.03) + (75 if ret_br != bcd else 0), 2)
            resvs.append([resv_id, cust["id"], bcd, ret_br, c, bkd, pu, ret_sched, chnl, status, quote])
            if status != "F":
                continue
        elif pu > EXTRACT:
            continue
        actual_pu = pu + dt.timedelta(minutes=r.randint(-20, 75))
        actual_ret = ret_sched + dt.timedelta(minutes=r.randint(-240, 200))
        if r.random() < 0.04:
            actual_ret += dt.timedelta(days=r.randint(1, 3))
        if r.random() < 0.03:
            actual_ret -= dt.timedelta(days=min(days - 1, r.randint(1, 2))) if days > 1 else dt.timedelta(0)
        actual_ret = max(actual_ret, actual_pu + dt.timedelta(hours=3))
        v = find_vehicle(bcd, c, actual_pu, actual_ret)
        if v is None:
            if resv_id:
                resvs[-1][9] = "X"  # sold out: the branch cancelled it
            continue
        rid = len(rentals) + 1
        v["odo"] += r.randint(0, 12)
        odo_out = v["odo"]
        is_open = actual_ret > EXTRACT
        charge_days = max(1, math.ceil((actual_ret - actual_pu).total_seconds() / 86400 - 0.04))
        miles = int(charge_days * cls[c if v["cls"] == c else v["cls"]]["miles"] * r.lognormvariate(0, 0.35))
        if ret_br != bcd:
            miles += r.randint(20, 380) if br[ret_br]["rgn"] == b["rgn"] else r.randint(300, 1200)
        fuel_in = r.choices([8, 7, 6, 5, 4, 3], weights=[70, 12, 8, 5, 3, 2])[0]
        ldw = "Y" if r.random() < (0.32 if not cust["corp"] else 0.08) else "N"
        day_rt = round(rate_est * r.uniform(0.9, 1.08) * (0.9 if cust["corp"] else 1.0), 2)
        amt = None
        if not is_open:
            amt = round(day_rt * charge_days + (75 if ret_br != bcd else 0) + (19.99 * charge_days if ldw == "Y" else 0)
                        + (8 - fuel_in) * 9.5, 2)
            v["odo"] = odo_out + miles
            v["free"] = actual_ret + dt.timedelta(hours=r.randint(2, 20))
        else:
            v["free"] = dt.datetime(2099, 1, 1)
        rentals.append(dict(id=rid, resv=resv_id, cust=cust["id"], corp=cust["corp"], veh=v["id"], cls=v["cls"],
                            pu_br=bcd, ret_br=None if is_open else ret_br, pu=actual_pu,
                            ret=None if is_open else actual_ret, odo_out=odo_out,
                            odo_in=None if is_open else odo_out + miles, fuel_out=8, fuel_in=None if is_open else fuel_in,
                            ldw=ldw, day_rt=day_rt, amt=amt, stat="O" if is_open else "C", days=charge_days))

    # ---------------- damage claims and payments
    claims, pmts = [], []
    for x in rentals:
        if x["stat"] != "C":
            continue
        method = "IN" if x["corp"] else r.choices(["CC", "DC", "CA"], weights=[82, 14, 4])[0]
        paid_at = x["ret"] + dt.timedelta(minutes=r.randint(1, 30))
        if method == "IN":
            paid_at = x["ret"] + dt.timedelta(days=r.randint(12, 45), hours=r.randint(0, 8))
        if paid_at <= EXTRACT:
            pmts.append([x["ret"], x["id"], paid_at, "CHG", method, x["amt"]])
        if r.random() < 0.045:
            rf_at = paid_at + dt.timedelta(days=r.randint(2, 20))
            if rf_at <= EXTRACT and paid_at <= EXTRACT:
                pmts.append([x["ret"], x["id"], rf_at, "RFD", method, -round(x["amt"] * r.uniform(0.05, 0.3), 2)])
        p = 0.028 * cls[x["cls"]]["dmg"] * br[x["pu_br"]]["dmg"] * min(2.0, 0.8 + x["days"] * 0.07)
        if r.random() < p:
            t = r.choices(DMG_TYPES, weights=[d[1] for d in DMG_TYPES])[0]
            rpt = x["ret"].date() + dt.timedelta(days=r.choice([0, 0, 0, 1, 2, 4]))
            if rpt > EXTRACT.date():
                continue
            est = round(r.uniform(t[2], t[3]) * (1.4 if x["cls"] in ("LCAR", "PCAR") else 1.0), 2)
            sttl_amt = sttl_dt = None
            if x["ldw"] == "Y":
                status = "W"
            else:
                sttl_dt = rpt + dt.timedelta(days=int(r.lognormvariate(math.log(35), 0.5)))
                if sttl_dt > EXTRACT.date() or r.random() < 0.04:
                    status, sttl_dt = "O", None
                else:
                    status, sttl_amt = "S", round(est * r.uniform(0.6, 1.0), 2)
            claims.append([len(claims) + 1, x["id"], x["veh"], rpt, t[0], est, sttl_amt, sttl_dt, status])
            if status == "S":
                pmts.append([x["ret"], x["id"], dt.datetime.combine(sttl_dt, dt.time(r.randint(9, 17), r.randint(0, 59))),
                             "DMG", "CC" if method == "IN" else method, sttl_amt])
    pmts.sort(key=lambda p: (p[2], p[1]))
    pmt_rows = [(i + 1, p[1], p[2], p[3], p[4], p[5]) for i, p in enumerate(pmts)]

    veh_rows = []
    for v in vehicles:
        disp = v["disp"] if v["disp"] <= EXTRACT.date() else None
        veh_rows.append((v["id"], vin(r), v["plate"], v["make"], v["model"], v["yr"], v["cls"], v["br"], v["acq"], disp,
                         v["odo_acq"]))
    rntl_rows = [(x["id"], x["resv"], x["cust"], x["veh"], x["pu_br"], x["ret_br"], x["pu"], x["ret"], x["odo_out"],
                  x["odo_in"], x["fuel_out"], x["fuel_in"], x["ldw"], x["day_rt"], x["amt"], x["stat"]) for x in rentals]
    return {"ref.br_rgn": rgns, "ref.veh_cls": cls_rows, "core.branch": branches, "core.veh": veh_rows,
            "core.cust": [tuple(c) for c in customers], "core.resv": [tuple(x) for x in resvs],
            "core.rntl": rntl_rows, "core.dmg_clm": [tuple(c) for c in claims], "core.pmt": pmt_rows}


def main() -> None:
    _common.ensure_venv()
    import psycopg
    from psycopg import sql

    tables = build()
    _common.pg_create_database(DATABASE)
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}) as con:  # one transaction
        cur = con.cursor()
        for schema in ("core", "ref"):
            cur.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        for schema in SCHEMAS:
            cur.execute(f"CREATE SCHEMA {schema}")
        cur.execute("COMMENT ON SCHEMA core IS 'Car rental operations: branches, fleet, customers, reservations, "
                    "rentals, damage claims, payments (2023-01-01 .. extract of 2024-12-15)'")
        cur.execute("COMMENT ON SCHEMA ref IS 'Lookups: vehicle classes, branch regions'")
        for ddl in DDL:
            cur.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON TABLE {table} IS {{}}").format(sql.Literal(comment)))
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON COLUMN {table}.{column} IS {{}}").format(sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(f"COPY {table} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        for schema in SCHEMAS:
            _common.pg_reader_role(cur, ROLE, DATABASE, schema)
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {table}")
            counts[table] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic car-rental company into PostgreSQL database {DATABASE}, schemas core + ref:")
    _common.print_counts(counts, URL, "(tables are in schemas core and ref, not public: WAREHOUSE_SCHEMAS=core,ref names them)")


if __name__ == "__main__":
    main()
