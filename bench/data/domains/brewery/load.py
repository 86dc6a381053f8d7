#!/usr/bin/env python3
"""A synthetic craft brewery (2022-2024) in a DuckDB file, all tables in schema `brew` (not main).

    python3 load.py                  # writes /tmp/dev_brewery.duckdb
    python3 load.py PATH.duckdb      # or there

Builds the file anew with random.Random(11) (identical rows on every run): a new file is written
beside the target and then moved over it, so re-running is safe. DuckDB has no users: the
read-only reader is whoever opens the file read-only (the bot does); there is no brewery_reader.

Naming: snake_case with brewers' abbreviations (btch_id, bev_nm, sty_cd, vol_hl, abv_pct, keg_l).
Primary keys declared, foreign keys NOT declared (implied by the *_id names; tickets point at the
taproom's account through tap_acct_id). Codes are explained only in COMMENT ON COLUMN.

  brew.bev       the beers (brand, style code, ABV, IBU, seasonal flag, launch / retire dates)
  brew.tnk       fermenters (FV) and bright tanks (BBT), capacity in hectolitres
  brew.btch      one row per brew batch: beer, fermenter, brew and packaging dates, brewed and
                 packaged volume in HECTOLITRES, status code (FRM/CND/PKG/DMP: dumped batches stay)
  brew.dist      distributors, including a pseudo-distributor 'SELF' for our own van deliveries
  brew.acct      every account kegs go to: bars, shops, restaurants, our own taprooms (type TR,
                 one of them closed in 2023) and one internal test account (type TST)
  brew.keg_shp   one row per delivery line: date, account, batch (no beer id: via the batch),
                 keg size in LITRES, number of kegs, price per keg in USD (0 = taproom transfer)
  brew.keg_rtn   kegs sent back, with a reason code (SP = spoiled) and the credit given in USD
  brew.dist_inv  weekly invoices to the distributors, amount in CENTS, status O/P/V (V = void,
                 re-issued under a new number)
  brew.tkt       taproom point-of-sale tickets: taproom, time, pours, total USD, status C/V/T
"""

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

SCHEMA = "brew"
DEFAULT_PATH = "/tmp/dev_brewery.duckdb"
URL = "duckdb:////tmp/dev_brewery.duckdb"
SEED = 11
FIRST_DAY, EXTRACT_DAY = dt.date(2022, 1, 3), dt.date(2024, 12, 31)

DDL = [
    """CREATE TABLE brew.bev (
        bev_id INTEGER PRIMARY KEY,
        bev_nm VARCHAR NOT NULL,
        sty_cd VARCHAR NOT NULL,
        abv_pct DECIMAL(3, 1) NOT NULL,
        ibu SMALLINT,
        seasonal_flg BOOLEAN NOT NULL,
        intro_dt DATE NOT NULL,
        retired_dt DATE)""",
    """CREATE TABLE brew.tnk (
        tnk_id INTEGER PRIMARY KEY,
        tnk_cd VARCHAR NOT NULL,
        tnk_typ VARCHAR NOT NULL,
        cap_hl DECIMAL(5, 1) NOT NULL,
        install_dt DATE NOT NULL)""",
    """CREATE TABLE brew.btch (
        btch_id INTEGER PRIMARY KEY,
        btch_no VARCHAR NOT NULL,
        bev_id INTEGER NOT NULL,
        tnk_id INTEGER NOT NULL,
        brew_dt DATE NOT NULL,
        pkg_dt DATE,
        vol_hl DECIMAL(5, 1) NOT NULL,
        pkg_vol_hl DECIMAL(5, 1),
        btch_stat VARCHAR NOT NULL,
        dump_rsn VARCHAR)""",
    """CREATE TABLE brew.dist (
        dist_id INTEGER PRIMARY KEY,
        dist_cd VARCHAR NOT NULL,
        dist_nm VARCHAR NOT NULL,
        terr VARCHAR NOT NULL)""",
    """CREATE TABLE brew.acct (
        acct_id INTEGER PRIMARY KEY,
        acct_nm VARCHAR NOT NULL,
        acct_typ VARCHAR NOT NULL,
        city VARCHAR NOT NULL,
        dist_id INTEGER NOT NULL,
        since_dt DATE NOT NULL,
        closed_dt DATE,
        actv_flg BOOLEAN NOT NULL)""",
    """CREATE TABLE brew.keg_shp (
        shp_ln_id INTEGER PRIMARY KEY,
        shp_no VARCHAR NOT NULL,
        shp_dt DATE NOT NULL,
        acct_id INTEGER NOT NULL,
        btch_id INTEGER NOT NULL,
        keg_l SMALLINT NOT NULL,
        keg_qty SMALLINT NOT NULL,
        px_per_keg DECIMAL(7, 2) NOT NULL)""",
    """CREATE TABLE brew.keg_rtn (
        rtn_id INTEGER PRIMARY KEY,
        shp_ln_id INTEGER NOT NULL,
        rtn_dt DATE NOT NULL,
        keg_qty SMALLINT NOT NULL,
        rsn_cd VARCHAR NOT NULL,
        credit_usd DECIMAL(8, 2) NOT NULL)""",
    """CREATE TABLE brew.dist_inv (
        inv_id INTEGER PRIMARY KEY,
        inv_no VARCHAR NOT NULL,
        dist_id INTEGER NOT NULL,
        inv_dt DATE NOT NULL,
        wk_start_dt DATE NOT NULL,
        amt_cents BIGINT NOT NULL,
        inv_stat VARCHAR NOT NULL,
        paid_dt DATE)""",
    """CREATE TABLE brew.tkt (
        tkt_id INTEGER PRIMARY KEY,
        tap_acct_id INTEGER NOT NULL,
        tkt_ts TIMESTAMP NOT NULL,
        pour_cnt SMALLINT NOT NULL,
        tkt_tot DECIMAL(8, 2) NOT NULL,
        tip_amt DECIMAL(7, 2) NOT NULL,
        pay_typ VARCHAR NOT NULL,
        tkt_stat VARCHAR NOT NULL)""",
]
TABLE_COMMENTS = {
    "bev": "Beer brands we brew (current and retired)",
    "tnk": "Cellar tanks: fermenters and bright tanks",
    "btch": "One row per brew batch (brewhouse log)",
    "dist": "Distributors that deliver our kegs to accounts",
    "acct": "Accounts receiving kegs: bars, shops, restaurants, our own taprooms",
    "keg_shp": "Keg deliveries, one row per delivery line (one batch, one keg size)",
    "keg_rtn": "Kegs returned by accounts, with the credit issued",
    "dist_inv": "Weekly invoices sent to distributors",
    "tkt": "Taproom point-of-sale tickets",
}
COLUMN_COMMENTS = {
    ("bev", "sty_cd"): ("style code: IPA = India pale ale, NEIPA = New England / hazy IPA, DIPA = double IPA, "
                        "SIPA = session IPA, PLS = pilsner, LAG = lager, WHT = wheat beer, AMB = amber/red ale, "
                        "PTR = porter, STT = stout, SAI = saison, SOU = sour, BW = barleywine"),
    ("bev", "abv_pct"): "alcohol by volume, percent",
    ("bev", "ibu"): "bitterness, international bitterness units",
    ("bev", "retired_dt"): "last day the beer was brewed/sold; NULL = still in the line-up",
    ("tnk", "tnk_typ"): "FV = fermentation vessel (fermenter), BBT = bright beer tank",
    ("tnk", "cap_hl"): "working capacity in hectolitres",
    ("btch", "btch_no"): "brewhouse batch number, YY-NNN",
    ("btch", "tnk_id"): "fermenter the batch was fermented in",
    ("btch", "vol_hl"): "volume brewed (knocked out into the fermenter), hectolitres",
    ("btch", "pkg_vol_hl"): "volume packaged into kegs, hectolitres; NULL unless btch_stat = PKG",
    ("btch", "pkg_dt"): "date kegged; NULL unless btch_stat = PKG",
    ("btch", "btch_stat"): ("FRM = fermenting, CND = conditioning, PKG = packaged, "
                            "DMP = dumped (poured away, never packaged)"),
    ("dist", "dist_cd"): "SELF = delivered by our own van (not a real distributor, never invoiced here)",
    ("acct", "acct_typ"): ("BAR = bar/pub, RST = restaurant, SHP = bottle shop / retailer, "
                           "TR = our own taproom (internal transfer), TST = internal test account, ignore"),
    ("acct", "dist_id"): "distributor that delivers to the account (dist_cd SELF = our own van)",
    ("acct", "actv_flg"): "account still open / buying",
    ("acct", "closed_dt"): "date the account closed; NULL = open",
    ("keg_shp", "shp_no"): "delivery note number; a delivery has one or more lines",
    ("keg_shp", "keg_l"): "keg size in litres (20, 30 or 50)",
    ("keg_shp", "keg_qty"): "number of kegs on the line",
    ("keg_shp", "px_per_keg"): "price per keg in USD; 0 for transfers to our own taprooms",
    ("keg_rtn", "rsn_cd"): ("SP = spoiled / off-flavour (quality complaint), DM = damaged or leaking keg, "
                            "OD = out of date, WR = wrong beer delivered"),
    ("keg_rtn", "credit_usd"): "credit note to the account, USD",
    ("dist_inv", "amt_cents"): "invoice total in cents (USD x 100)",
    ("dist_inv", "inv_stat"): "O = open (unpaid), P = paid, V = void (re-issued under a new inv_no)",
    ("dist_inv", "wk_start_dt"): "Monday of the delivery week the invoice covers",
    ("tkt", "tap_acct_id"): "the taproom (acct.acct_id of an account with acct_typ TR)",
    ("tkt", "tkt_tot"): "ticket total in USD incl. sales tax, excl. tip",
    ("tkt", "pour_cnt"): "drinks poured on the ticket",
    ("tkt", "pay_typ"): "CC = card, CSH = cash",
    ("tkt", "tkt_stat"): "C = closed (paid), V = voided, T = training mode (staff practice, not a sale)",
}

# id, name, style, abv, ibu, seasonal, intro, retired, popularity, keg price 30 l, season months
BEERS = [
    (1, "Foundry Porter", "PTR", 5.8, 32, False, dt.date(2016, 4, 1), None, 1.0, 138, None),
    (2, "Harbor Light Lager", "LAG", 4.6, 18, False, dt.date(2016, 4, 1), None, 1.5, 125, None),
    (3, "Tidewater IPA", "IPA", 6.5, 62, False, dt.date(2016, 4, 1), None, 1.9, 145, None),
    (4, "Haze Craze", "NEIPA", 6.8, 35, False, dt.date(2019, 6, 1), None, 2.4, 155, None),
    (5, "Old Pier Pilsner", "PLS", 5.0, 30, False, dt.date(2017, 3, 1), None, 1.2, 130, None),
    (6, "Rivet Red", "AMB", 5.4, 28, False, dt.date(2017, 9, 1), None, 0.6, 132, None),
    (7, "Night Shift Stout", "STT", 7.2, 45, False, dt.date(2018, 10, 1), None, 0.7, 150, None),
    (8, "Double Dockside", "DIPA", 8.4, 85, False, dt.date(2020, 2, 1), None, 0.8, 178, None),
    (9, "Salt Air Saison", "SAI", 5.9, 24, True, dt.date(2019, 5, 1), None, 0.5, 148, (5, 8)),
    (10, "Sour Cherry Gose", "SOU", 4.2, 8, False, dt.date(2023, 4, 3), None, 0.6, 160, None),
    (11, "Anchor Chain Barleywine", "BW", 10.5, 70, True, dt.date(2020, 11, 1), None, 0.3, 210, (11, 3)),
    (12, "Wheat Street", "WHT", 4.9, 14, False, dt.date(2018, 5, 1), None, 0.8, 128, None),
    (13, "West Coast Rye IPA", "IPA", 6.9, 70, False, dt.date(2017, 6, 1), dt.date(2023, 6, 30), 0.7, 146, None),
    (14, "Deckhand Session IPA", "SIPA", 4.4, 40, False, dt.date(2022, 3, 7), None, 0.9, 132, None),
]
LAGERS = {2, 5}
TANKS = [  # id, code, type, capacity hl, installed
    (1, "FV-01", "FV", 30.0, dt.date(2016, 2, 1)), (2, "FV-02", "FV", 30.0, dt.date(2016, 2, 1)),
    (3, "FV-03", "FV", 30.0, dt.date(2016, 2, 1)), (4, "FV-04", "FV", 40.0, dt.date(2018, 1, 15)),
    (5, "FV-05", "FV", 40.0, dt.date(2018, 1, 15)), (6, "FV-06", "FV", 40.0, dt.date(2019, 7, 1)),
    (7, "FV-07", "FV", 60.0, dt.date(2021, 3, 1)), (8, "FV-08", "FV", 60.0, dt.date(2021, 3, 1)),
    (9, "FV-09", "FV", 20.0, dt.date(2019, 7, 1)),
    (10, "BBT-1", "BBT", 30.0, dt.date(2016, 2, 1)), (11, "BBT-2", "BBT", 40.0, dt.date(2018, 1, 15)),
    (12, "BBT-3", "BBT", 60.0, dt.date(2021, 3, 1)),
]
DISTS = [  # id, code, name, territory, account share
    (1, "SELF", "In-house delivery", "Portland metro"),
    (2, "CBC", "Cascade Beverage Co.", "Portland metro"),
    (3, "NTD", "Northern Tap Distributing", "SW Washington"),
    (4, "VCD", "Valley Craft Distributors", "Willamette Valley"),
]
CITIES = {1: ["Portland"], 2: ["Portland", "Beaverton", "Gresham", "Lake Oswego"],
          3: ["Vancouver", "Camas", "Battle Ground"], 4: ["Salem", "Eugene", "Corvallis", "Albany"]}
TAPROOMS = [  # name, city, opened, closed, base tickets per day
    ("Foundry Taproom", "Portland", dt.date(2016, 4, 1), None, 23),
    ("Harborside Taproom", "Portland", dt.date(2020, 6, 12), dt.date(2023, 8, 31), 14),
    ("Eastgate Taproom", "Gresham", dt.date(2023, 5, 12), None, 17),
]
BAR_WORDS = ["Anchor", "Rusty", "Copper", "Lantern", "Crow", "Fox", "Bridge", "Oak", "Salmon", "Timber",
             "Raven", "Stag", "Ember", "Gull", "Thistle", "Barrel", "Pine", "Basalt", "Harbor", "Hop",
             "Iron", "Kettle", "Moss", "North", "Otter", "Pelican", "Quarry", "River", "Cedar", "Tide",
             "Union", "Velvet", "Willow", "Yellow", "Zephyr", "Bramble", "Cinder", "Drift", "Elk", "Fern"]
BAR_KINDS = ["Tavern", "Pub", "Alehouse", "Saloon", "Bar", "Taphouse", "Lounge", "Public House"]
RST_KINDS = ["Kitchen", "Bistro", "Grill", "Eatery", "Pizzeria", "Table", "Diner", "Smokehouse"]
SHP_KINDS = ["Bottle Shop", "Market", "Beer & Wine", "Growler Fill", "Grocery", "Provisions"]


def days(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def build():
    r = random.Random(SEED)
    bev = [(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]) for b in BEERS]
    beer = {b[0]: dict(pop=b[8], px=b[9], season=b[10], intro=b[6], retired=b[7], style=b[2]) for b in BEERS}

    def in_season(bid, day):
        s = beer[bid]["season"]
        if s is None:
            return True
        lo, hi = s
        return lo <= day.month <= hi if lo <= hi else (day.month >= lo or day.month <= hi)

    def available(bid, day):
        b = beer[bid]
        return b["intro"] <= day and (b["retired"] is None or day <= b["retired"]) and in_season(bid, day)

    # ---- batches: brew on weekdays, fill the free fermenters, beers by demand minus stock
    fvs = [t for t in TANKS if t[2] == "FV"]
    free_on = {t[0]: FIRST_DAY - dt.timedelta(days=40) for t in fvs}
    stock_hl = {b: 0.0 for b in beer}
    batches, per_year = [], {}
    brew_start = FIRST_DAY - dt.timedelta(days=35)
    # weekly demand in hl per beer (roughly what the keg orders below draw)
    total_pop = sum(b["pop"] for b in beer.values())
    for day in days(brew_start, EXTRACT_DAY):
        if day.weekday() >= 5:
            continue
        for b in beer:
            if available(b, day + dt.timedelta(days=20)) or available(b, day):
                stock_hl[b] -= 64.0 / 5 * beer[b]["pop"] / total_pop * (1.0 + 0.07 * (day.year - 2022))
        for _ in range(1 if r.random() < 0.78 else 0):
            free = [t for t in fvs if free_on[t[0]] <= day]
            if not free:
                continue
            cands = [b for b in beer if available(b, day + dt.timedelta(days=25))]
            bid = min(cands, key=lambda b: stock_hl[b] + r.uniform(-8, 8))
            if stock_hl[bid] > 12:
                continue  # enough beer in the cold store
            t = r.choice(free)
            if bid == 11:  # the barleywine goes into the small fermenter
                t = next((x for x in free if x[3] <= 30), t)
            vol = round(t[3] * r.uniform(0.86, 0.99), 1)
            days_in = r.randint(24, 34) if bid in LAGERS else (r.randint(40, 55) if bid == 11 else r.randint(12, 19))
            pkg = day + dt.timedelta(days=days_in)
            infected = t[1] == "FV-06" and dt.date(2024, 5, 20) <= day <= dt.date(2024, 8, 15)
            dump_p = 0.4 if infected else (0.08 if bid in (10, 4) else 0.04)
            dumped = r.random() < dump_p
            yy = day.year % 100
            per_year[yy] = per_year.get(yy, 0) + 1
            if dumped:
                rsn = r.choice(["infection (lacto)", "diacetyl, failed VDK", "stuck fermentation",
                                "oxidised in transfer", "infection (brett)"]) if not infected else "infection (lacto)"
                stat, pkg_dt, pkg_vol = "DMP", None, None
                free_on[t[0]] = day + dt.timedelta(days=r.randint(6, 12))
            elif pkg > EXTRACT_DAY:
                stat = "FRM" if (EXTRACT_DAY - day).days < days_in - 5 else "CND"
                pkg_dt, pkg_vol, rsn = None, None, None
                free_on[t[0]] = pkg + dt.timedelta(days=1)
            else:
                stat, pkg_dt, rsn = "PKG", pkg, None
                pkg_vol = round(vol * r.uniform(0.86, 0.94), 1)
                stock_hl[bid] += pkg_vol
                free_on[t[0]] = pkg + dt.timedelta(days=1)
            batches.append(dict(id=len(batches) + 1, no=f"{yy:02d}-{per_year[yy]:03d}", bev=bid, tnk=t[0],
                                brew=day, pkg=pkg_dt, vol=vol, pvol=pkg_vol, stat=stat, rsn=rsn,
                                infected=infected))
    btch = [(b["id"], b["no"], b["bev"], b["tnk"], b["brew"], b["pkg"], b["vol"], b["pvol"], b["stat"], b["rsn"])
            for b in batches]
    packaged = {}
    for b in batches:
        if b["stat"] == "PKG":
            packaged.setdefault(b["bev"], []).append(b)

    def batch_for(bid, day):
        best = None
        for b in packaged.get(bid, []):
            if b["pkg"] <= day - dt.timedelta(days=1):
                best = b
            else:
                break
        if best is None or (day - best["pkg"]).days > 150:
            return None
        return best

    # ---- distributors and accounts
    dist = [d for d in DISTS]
    acct, acct_info = [], []
    aid = 0
    used = set()
    for tname, city, opened, closed, base in TAPROOMS:
        aid += 1
        acct.append((aid, tname, "TR", city, 1, opened, closed, closed is None))
        acct_info.append(dict(id=aid, typ="TR", dist=1, since=opened, closed=closed, base=base, rate=None))
    plan = [(1, 16), (2, 62), (3, 30), (4, 44)]
    for did, n in plan:
        for _ in range(n):
            aid += 1
            typ = r.choices(["BAR", "RST", "SHP"], weights=[45, 30, 25])[0]
            while True:
                word = r.choice(BAR_WORDS)
                kind = r.choice({"BAR": BAR_KINDS, "RST": RST_KINDS, "SHP": SHP_KINDS}[typ])
                name = f"{'The ' if typ == 'BAR' and r.random() < 0.3 else ''}{word} {kind}"
                if name not in used:
                    used.add(name)
                    break
            city = r.choice(CITIES[did])
            if r.random() < 0.7:
                since = dt.date(2017, 1, 1) + dt.timedelta(days=r.randint(0, 1700))
            else:
                since = dt.date(2022, 1, 10) + dt.timedelta(days=r.randint(0, 1000))
            closed = None
            if r.random() < 0.10:
                closed = max(since + dt.timedelta(days=120), FIRST_DAY + dt.timedelta(days=90)) \
                    + dt.timedelta(days=r.randint(0, 500))
                if closed >= EXTRACT_DAY:
                    closed = None
            rate = r.lognormvariate(math.log(0.32), 0.55) * {"BAR": 1.3, "RST": 0.7, "SHP": 0.8}[typ]
            dormant = closed is None and r.random() < 0.06  # still on the books, stopped ordering
            acct.append((aid, name, typ, city, did, since, closed, closed is None))
            acct_info.append(dict(id=aid, typ=typ, dist=did, since=since, closed=closed, rate=min(rate, 0.95),
                                  dormant=dormant, stop=dt.date(2023, 1, 1) + dt.timedelta(days=r.randint(0, 360)),
                                  fav=r.sample(list(beer), 4)))
    aid += 1
    acct.append((aid, "ZZ Test Account - QA (do not ship)", "TST", "Portland", 1, dt.date(2021, 11, 1), None, True))
    test_acct = aid

    # ---- keg deliveries
    shp, lines_info = [], []
    sid = 0
    dno = 0
    weights = {b: beer[b]["pop"] for b in beer}
    for day in days(FIRST_DAY, EXTRACT_DAY):
        wd = day.weekday()
        if wd >= 5:
            continue
        season = 1.0 + 0.22 * math.cos((day.timetuple().tm_yday - 200) / 365.25 * 2 * math.pi)
        growth = 1.0 + 0.07 * (day.year - 2022)
        for a in acct_info:
            if day < a["since"] or (a["closed"] and day > a["closed"]):
                continue
            if a["typ"] == "TR":
                if wd not in (1, 3) or r.random() < 0.1:
                    continue
                nl = r.randint(2, 4)
            else:
                if a.get("dormant") and day >= a["stop"]:
                    continue
                if r.random() > a["rate"] * season * growth / 5:
                    continue
                nl = r.choices([1, 2, 3], weights=[55, 32, 13])[0]
            cands = [b for b in beer if available(b, day)]
            wts = [weights[b] * (2.5 if b in a.get("fav", []) else 1.0) for b in cands]
            picks = []
            for _ in range(nl):
                b = r.choices(cands, weights=wts)[0]
                if b not in picks:
                    picks.append(b)
            dno += 1
            no = f"D{day:%y%m}-{dno:05d}"
            for b in picks:
                bt = batch_for(b, day)
                if bt is None:
                    continue
                if a["typ"] == "TR":
                    kl, q, px = 50, r.randint(1, 4), 0.0
                else:
                    kl = r.choices([20, 30, 50], weights=[25, 50, 25] if a["typ"] != "SHP" else [55, 40, 5])[0]
                    q = r.choices([1, 2, 3, 4, 6], weights=[40, 30, 15, 10, 5])[0]
                    px = round(beer[b]["px"] * {20: 0.7, 30: 1.0, 50: 1.55}[kl] * (1 + 0.04 * (day.year - 2022)), 2)
                sid += 1
                shp.append((sid, no, day, a["id"], bt["id"], kl, q, px))
                lines_info.append(dict(id=sid, day=day, acct=a, batch=bt, q=q, px=px))
    # a few lines shipped to the test account (QA of the ordering app)
    for _ in range(14):
        day = dt.date(2022, 2, 1) + dt.timedelta(days=r.randint(0, 1000))
        while day.weekday() >= 5:
            day += dt.timedelta(days=1)
        b = r.choice([3, 4, 2])
        bt = batch_for(b, day) or packaged[b][5]
        sid += 1
        dno += 1
        shp.append((sid, f"D{day:%y%m}-{dno:05d}", day, test_acct, bt["id"], 30, r.choice([1, 2, 50]), 1.00))
    shp.sort(key=lambda x: (x[2], x[0]))
    # renumber so ids follow the date
    remap = {}
    shp2 = []
    for i, row in enumerate(shp, start=1):
        remap[row[0]] = i
        shp2.append((i,) + row[1:])
    shp = shp2

    # ---- returns
    rtn = []
    for li in lines_info:
        if li["acct"]["typ"] == "TR":
            continue
        bt = li["batch"]
        p_sp = 0.12 if bt["infected"] else (0.02 if bt["bev"] == 10 else 0.006)
        u = r.random()
        rsn = None
        if u < p_sp:
            rsn = "SP"
        elif u < p_sp + 0.005:
            rsn = "DM"
        elif u < p_sp + 0.008:
            rsn = "OD"
        elif u < p_sp + 0.010:
            rsn = "WR"
        if rsn is None:
            continue
        lag = {"SP": r.randint(4, 30), "DM": r.randint(1, 6), "OD": r.randint(60, 120), "WR": r.randint(1, 3)}[rsn]
        rd = li["day"] + dt.timedelta(days=lag)
        if rd > EXTRACT_DAY:
            continue
        q = li["q"] if rsn == "WR" else r.randint(1, li["q"])
        rtn.append([None, remap[li["id"]], rd, q, rsn, round(q * li["px"], 2)])
    rtn.sort(key=lambda x: (x[2], x[1]))
    rtn = [(i, *row[1:]) for i, row in enumerate(rtn, start=1)]

    # ---- weekly distributor invoices (SELF deliveries are billed by the accounts team elsewhere)
    weekly = {}
    for li in lines_info:
        d = li["acct"]["dist"]
        if d == 1 or li["acct"]["typ"] in ("TR", "TST"):
            continue
        wk = li["day"] - dt.timedelta(days=li["day"].weekday())
        weekly[(wk, d)] = weekly.get((wk, d), 0) + round(li["q"] * li["px"] * 100)
    inv = []
    n_inv = 0
    lag_mean = {2: 21, 3: 34, 4: 27}
    for (wk, d) in sorted(weekly):
        amt = weekly[(wk, d)]
        idt = wk + dt.timedelta(days=7)
        if idt > EXTRACT_DAY:
            continue
        n_inv += 1
        no = f"INV-{idt.year}-{n_inv:05d}"
        if r.random() < 0.035:  # wrong invoice voided and re-issued a few days later
            inv.append([no, d, idt, wk, int(amt * r.choice([1.1, 1.25, 2.0])), "V", None])
            idt = idt + dt.timedelta(days=r.randint(2, 6))
            n_inv += 1
            no = f"INV-{idt.year}-{n_inv:05d}"
        paid = idt + dt.timedelta(days=max(7, int(r.gauss(lag_mean[d], 6))))
        if paid > EXTRACT_DAY:
            inv.append([no, d, idt, wk, amt, "O", None])
        else:
            inv.append([no, d, idt, wk, amt, "P", paid])
    dist_inv = [(i, *row) for i, row in enumerate(inv, start=1)]

    # ---- taproom tickets
    tkt = []
    tid = 0
    wd_factor = [0.0, 0.55, 0.75, 1.0, 1.75, 2.0, 1.25]  # Monday closed
    for ti, (_name, _city, opened, closed, base) in enumerate(TAPROOMS, start=1):
        for day in days(max(opened, FIRST_DAY), min(closed or EXTRACT_DAY, EXTRACT_DAY)):
            f = wd_factor[day.weekday()]
            thanksgiving = dt.date(day.year, 11, 22 + (3 - dt.date(day.year, 11, 22).weekday()) % 7)
            if f == 0 or (day.month, day.day) == (12, 25) or day == thanksgiving:
                continue
            season = 1.0 + 0.25 * math.cos((day.timetuple().tm_yday - 195) / 365.25 * 2 * math.pi)
            growth = 1.0 + 0.05 * (day.year - 2022)
            if ti == 2 and day > dt.date(2023, 5, 1):
                growth *= 0.75  # the last months before it closed
            n = max(0, int(r.gauss(base * f * season * growth, 3) + 0.5))
            for _ in range(n):
                tid += 1
                minute = int(r.triangular(14 * 60 if day.weekday() < 5 else 12 * 60, 23 * 60, 19 * 60))
                ts = dt.datetime.combine(day, dt.time(minute // 60, minute % 60, r.randint(0, 59)))
                pours = r.choices([1, 2, 3, 4, 5, 6, 8], weights=[22, 30, 20, 12, 8, 5, 3])[0]
                ppx = (7.0 if day.year == 2022 else 7.5 if day.year == 2023 else 8.0)
                food = r.choice([0, 0, 0, 6.5, 9.0, 12.0, 14.5])
                tot = round((pours * ppx * r.uniform(0.9, 1.15) + food) * 1.0, 2)
                tip = round(tot * r.choice([0, 0.15, 0.18, 0.2, 0.22]), 2)
                u = r.random()
                stat = "V" if u < 0.022 else ("T" if u < 0.026 else "C")
                pay = "CC" if r.random() < (0.88 + 0.02 * (day.year - 2022)) else "CSH"
                tkt.append((ti, ts, pours, tot, tip if stat == "C" else 0.0, pay, stat))
    tkt.sort(key=lambda x: (x[1], x[0]))
    tkt = [(i, *row) for i, row in enumerate(tkt, start=1)]

    return {"bev": bev, "tnk": TANKS, "btch": btch, "dist": dist, "acct": acct, "keg_shp": shp,
            "keg_rtn": rtn, "dist_inv": dist_inv, "tkt": tkt}


def main() -> None:
    _common.ensure_venv()
    import duckdb

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
            con.execute(f"COMMENT ON TABLE {SCHEMA}.{table} IS " + "'" + comment.replace("'", "''") + "'")
        for (table, column), comment in COLUMN_COMMENTS.items():
            con.execute(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS " + "'" + comment.replace("'", "''") + "'")
        for table, rows in tables.items():
            _bulk(con, table, rows)
        counts = {f"{SCHEMA}.{t}": con.execute(f"SELECT count(*) FROM {SCHEMA}.{t}").fetchone()[0] for t in tables}
        con.execute("CHECKPOINT")
        con.close()
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
    print(f"loaded the synthetic brewery into DuckDB file {path}:")
    _common.print_counts(counts, "duckdb:///" + path if path.startswith("/") else "duckdb://" + path,
                         f"(tables are in schema {SCHEMA}, not main: WAREHOUSE_SCHEMAS={SCHEMA} names it; "
                         "DuckDB has no users: the bot opens the file read-only)")


def _bulk(con, table, rows):
    """Large tables through a pandas frame (executemany is slow in DuckDB)."""
    import pandas as pd

    cols = [c[0] for c in con.execute(f"SELECT * FROM {SCHEMA}.{table} LIMIT 0").description]
    frame = pd.DataFrame(rows, columns=cols)
    con.register("frame", frame)
    con.execute(f"INSERT INTO {SCHEMA}.{table} SELECT * FROM frame")
    con.unregister("frame")


if __name__ == "__main__":
    main()
