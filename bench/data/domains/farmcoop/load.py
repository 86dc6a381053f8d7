#!/usr/bin/env python3
"""A synthetic grain-marketing cooperative (2022-2024) on MariaDB: PascalCase, no declared FKs.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

Drops and recreates database dev_farmcoop, loads eight tables generated deterministically with
random.Random(11), and creates (or resets) the read-only user farmcoop_reader / farmcoop_reader
(SELECT on dev_farmcoop only). Idempotent: the same rows on every run.

Naming: PascalCase tables and columns, keys <Entity>Id. Primary keys are declared, foreign keys
are NOT (they are implied by the *Id names). Code columns say what their codes mean only in the
column COMMENT. The extract is as of 2024-12-31.

  Members          member farms (5 regions): MemberNo, FarmName, ContactName, Region, MemberType
                   (F/A), JoinedOn, ExitedOn (NULL = still a member), IsTest (3 IT test accounts)
  Fields           the members' fields: Hectares, SoilType, Irrigated
  Crops            8 crops the co-op handles, with the moisture standard for each
  IntakeTickets    one weighbridge ticket per truck load delivered at one of 5 silo sites:
                   gross/tare/net weight in kg, moisture %, Grade (A/B/C/R, R = rejected and sent
                   back), VoidedOn/VoidReason for tickets cancelled afterwards (duplicates, wrong
                   member keyed, weighbridge errors, test tickets)
  GradePrices      the posted price per tonne by crop, grade (A/B/C) and month
  MemberPayments   weekly (Friday) payment runs: one line per paid ticket, AmountCents (cents);
                   PaymentType RV lines (negative) reverse a payment for a ticket voided later
  InputPurchases   seed / fertiliser / crop protection bought on the member's credit account:
                   Amount in USD, DueOn, SettledOn (NULL = still owed)
  WeatherReadings  daily readings of the co-op's weather station in each region (some days
                   missing, a few NULL rain gauge readings)
"""

import datetime as dt
import math
import random
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, USER = "dev_farmcoop", "farmcoop_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
SEED = 11
EXTRACT_DAY = dt.date(2024, 12, 31)
FIRST_DAY = dt.date(2022, 1, 1)

DDL = {
    "Members": """
        MemberId INT NOT NULL PRIMARY KEY,
        MemberNo VARCHAR(10) NOT NULL COMMENT 'membership number printed on statements',
        FarmName VARCHAR(80) NOT NULL,
        ContactName VARCHAR(80) NOT NULL,
        Region VARCHAR(30) NOT NULL,
        MemberType CHAR(1) NOT NULL COMMENT 'F = full (voting) member, A = associate (may deliver and buy, no vote)',
        JoinedOn DATE NOT NULL,
        ExitedOn DATE NULL COMMENT 'date the membership ended; NULL = current member',
        IsTest TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = test account set up by IT, not a real farm'
        """,
    "Fields": """
        FieldId INT NOT NULL PRIMARY KEY,
        MemberId INT NOT NULL,
        FieldName VARCHAR(40) NOT NULL,
        Hectares DECIMAL(7,2) NOT NULL,
        SoilType VARCHAR(20) NOT NULL,
        Irrigated TINYINT(1) NOT NULL COMMENT '1 = irrigated (pivot or flood), 0 = dryland',
        KEY ByMember (MemberId)
        """,
    "Crops": """
        CropId INT NOT NULL PRIMARY KEY,
        CropCode CHAR(4) NOT NULL,
        CropName VARCHAR(30) NOT NULL,
        StdMoisturePct DECIMAL(4,1) NOT NULL COMMENT 'moisture standard: loads above this are graded down or rejected'
        """,
    "IntakeTickets": """
        TicketId INT NOT NULL PRIMARY KEY,
        TicketNo VARCHAR(16) NOT NULL COMMENT 'weighbridge ticket number: site prefix, year, sequence',
        MemberId INT NOT NULL,
        FieldId INT NULL COMMENT 'field the load came from; NULL when the driver did not say',
        CropId INT NOT NULL,
        Site VARCHAR(30) NOT NULL COMMENT 'silo site that received the load',
        DeliveredAt DATETIME NOT NULL COMMENT 'time the truck crossed the weighbridge',
        GrossWeightKg INT NOT NULL COMMENT 'truck and load, kg',
        TareWeightKg INT NOT NULL COMMENT 'empty truck, kg',
        NetWeightKg INT NOT NULL COMMENT 'load weight in kg (gross minus tare)',
        MoisturePct DECIMAL(4,1) NOT NULL COMMENT 'moisture measured on the intake sample, %',
        Grade CHAR(1) NOT NULL COMMENT 'A = No. 1 / premium, B = No. 2 / standard, C = feed grade, R = rejected: load refused at intake and sent back to the member (not received, not paid)',
        VoidedOn DATE NULL COMMENT 'set when the ticket was cancelled after the fact; a voided ticket does not count',
        VoidReason VARCHAR(40) NULL,
        KEY ByMember (MemberId), KEY ByDelivered (DeliveredAt)
        """,
    "GradePrices": """
        CropId INT NOT NULL,
        Grade CHAR(1) NOT NULL COMMENT 'A, B or C (see IntakeTickets.Grade); rejected loads have no price',
        PriceMonth DATE NOT NULL COMMENT 'first day of the month the price applies to (by delivery date)',
        PricePerTonne DECIMAL(8,2) NOT NULL COMMENT 'USD per tonne of net weight',
        PRIMARY KEY (CropId, Grade, PriceMonth)
        """,
    "MemberPayments": """
        PaymentId INT NOT NULL PRIMARY KEY,
        MemberId INT NOT NULL,
        TicketId INT NOT NULL,
        PaidOn DATE NOT NULL COMMENT 'date of the payment run (Fridays)',
        PaymentType CHAR(2) NOT NULL COMMENT 'PY = payment for a delivery, RV = reversal of an earlier payment (ticket voided)',
        AmountCents BIGINT NOT NULL COMMENT 'amount in cents (USD x 100); negative for reversals',
        KEY ByTicket (TicketId), KEY ByMember (MemberId)
        """,
    "InputPurchases": """
        PurchaseId INT NOT NULL PRIMARY KEY,
        MemberId INT NOT NULL,
        PurchasedOn DATE NOT NULL,
        ProductType CHAR(2) NOT NULL COMMENT 'SD = seed, FT = fertiliser, CP = crop protection (herbicide, fungicide)',
        ProductName VARCHAR(60) NOT NULL,
        Quantity DECIMAL(10,2) NOT NULL,
        Unit VARCHAR(4) NOT NULL COMMENT 't, kg or L',
        Amount DECIMAL(10,2) NOT NULL COMMENT 'invoice total in USD, charged to the member account (on credit)',
        DueOn DATE NOT NULL,
        SettledOn DATE NULL COMMENT 'date the invoice was paid off; NULL = still owed',
        KEY ByMember (MemberId)
        """,
    "WeatherReadings": """
        ReadingId INT NOT NULL PRIMARY KEY,
        StationCode CHAR(4) NOT NULL,
        Region VARCHAR(30) NOT NULL,
        ReadingDate DATE NOT NULL,
        RainMm DECIMAL(5,1) NULL COMMENT 'rainfall over the day, mm; NULL = gauge fault',
        MinTempC DECIMAL(4,1) NULL,
        MaxTempC DECIMAL(4,1) NULL,
        UNIQUE KEY StationDay (StationCode, ReadingDate)
        """,
}
TABLE_COMMENTS = {
    "Members": "member farms of the cooperative",
    "Fields": "fields farmed by members",
    "Crops": "crops the cooperative receives",
    "IntakeTickets": "grain deliveries: one weighbridge ticket per truck load at a silo site",
    "GradePrices": "posted member price per tonne by crop, grade and month",
    "MemberPayments": "payments to members for delivered grain, one line per ticket paid",
    "InputPurchases": "inputs (seed, fertiliser, chemicals) sold to members on credit",
    "WeatherReadings": "daily weather station readings, one station per region",
}

# region, station, home site, base temperature, rain factor, crop weights
REGIONS = [
    ("North Plains", "NP01", "Ridgeway", 4.5, 0.85, {"SWHT": 30, "DURM": 20, "CANO": 25, "BARL": 15, "OATS": 10}),
    ("River Valley", "RV01", "Millbrook", 10.5, 1.05, {"CORN": 40, "SOYB": 30, "WWHT": 20, "BARL": 10}),
    ("East Ridge", "ER01", "Eastfield", 8.0, 1.0, {"WWHT": 25, "CANO": 20, "CORN": 20, "SOYB": 15, "BARL": 10, "OATS": 10}),
    ("South Flats", "SF01", "Oakdale", 12.5, 0.8, {"CORN": 35, "SOYB": 25, "DURM": 15, "WWHT": 25}),
    ("West Hills", "WH01", "Carver Junction", 6.0, 1.3, {"BARL": 30, "OATS": 20, "SWHT": 20, "CANO": 15, "WWHT": 15}),
]
REGION_WEIGHT = {"North Plains": 1.2, "River Valley": 1.1, "East Ridge": 1.0, "South Flats": 0.9, "West Hills": 0.8}
SITES = {"Ridgeway": "RDG", "Millbrook": "MLB", "Eastfield": "EFD", "Oakdale": "OKD", "Carver Junction": "CVJ"}
# crop code -> sites that take it
TAKES = {
    "WWHT": list(SITES), "BARL": list(SITES), "CANO": list(SITES),
    "SWHT": ["Ridgeway", "Carver Junction", "Eastfield"],
    "DURM": ["Ridgeway", "Oakdale"],
    "CORN": ["Millbrook", "Oakdale", "Eastfield"],
    "SOYB": ["Millbrook", "Oakdale", "Eastfield"],
    "OATS": ["Carver Junction", "Ridgeway", "Eastfield"],
}
# id, code, name, moisture standard, yield t/ha, harvest window (month, day)-(month, day), price USD/t,
# irrigation factor, B discount, seed (name, kg/ha, USD/kg)
CROPS = [
    (1, "WWHT", "Winter Wheat", 14.5, 5.0, (7, 8), (8, 20), 255, 1.15, 0.05, ("Winter wheat seed, certified", 110, 0.62)),
    (2, "SWHT", "Spring Wheat", 14.5, 3.9, (8, 12), (9, 22), 285, 1.15, 0.05, ("Spring wheat seed, certified", 120, 0.66)),
    (3, "DURM", "Durum", 14.5, 3.3, (8, 8), (9, 18), 335, 1.15, 0.07, ("Durum seed, certified", 125, 0.74)),
    (4, "BARL", "Barley", 14.8, 4.5, (7, 18), (8, 28), 215, 1.15, 0.06, ("Malting barley seed", 105, 0.58)),
    (5, "CANO", "Canola", 10.0, 2.4, (8, 20), (10, 2), 565, 1.2, 0.04, ("Canola seed, hybrid", 5, 21.0)),
    (6, "CORN", "Corn", 15.5, 8.0, (9, 24), (11, 28), 195, 1.45, 0.05, ("Corn seed, hybrid", 22, 11.5)),
    (7, "SOYB", "Soybeans", 13.0, 3.1, (9, 18), (10, 30), 470, 1.3, 0.04, ("Soybean seed, treated", 75, 1.55)),
    (8, "OATS", "Oats", 14.0, 3.5, (7, 26), (9, 2), 185, 1.15, 0.06, ("Oat seed, certified", 100, 0.52)),
]
CROP = {c[1]: c for c in CROPS}
FERTILISERS = [("Urea 46-0-0", 610), ("MAP 11-52-0", 760), ("Potash 0-0-60", 470), ("UAN 28%", 385),
               ("Ammonium sulphate 21-0-0-24S", 415)]
FERT_YEAR = {2022: 1.38, 2023: 1.0, 2024: 0.9}
CHEMICALS = [("Glyphosate 540", 6.4), ("2,4-D Amine 600", 8.9), ("Prosaro fungicide", 61.0),
             ("Liberty 200SN", 17.5), ("Axial herbicide", 44.0), ("Lambda-cyhalothrin insecticide", 38.0)]
SOILS = ["Loam", "Loam", "Clay loam", "Clay loam", "Sandy loam", "Silt loam", "Clay"]
FIELD_NAMES = ["Home quarter", "North 80", "South 80", "Creek field", "River flat", "Hill field", "Back 40",
               "East section", "West section", "Schoolhouse", "Airstrip", "Pivot 1", "Pivot 2", "Old Miller place",
               "Church quarter", "Railway field", "Slough field", "Middle field", "Gravel pit", "Windbreak"]
FIRST = ["John", "Mary", "Dale", "Karen", "Wayne", "Linda", "Gordon", "Susan", "Brent", "Donna", "Kyle", "Janet",
         "Trevor", "Heather", "Curtis", "Brenda", "Garth", "Tammy", "Duane", "Shelley", "Ross", "Carla", "Neil",
         "Darlene", "Colin", "Rhonda", "Lyle", "Megan", "Ryan", "Kelsey", "Travis", "Amber", "Jesse", "Erin",
         "Ole", "Ingrid", "Pieter", "Anke", "Jakob", "Marta", "Raj", "Amrit", "Luis", "Rosa"]
LAST = ["Anderson", "Olson", "Peterson", "Johnson", "Nelson", "Larson", "Schmidt", "Miller", "Hoffman", "Becker",
        "Wagner", "Koch", "Klassen", "Friesen", "Penner", "Wiebe", "Thiessen", "Dyck", "Hansen", "Jensen",
        "Lindgren", "Berg", "Carlson", "Halvorson", "McLeod", "McKenzie", "Fraser", "Campbell", "Stewart",
        "Murray", "Bauer", "Weber", "Fischer", "Novak", "Kowalski", "Horvath", "Sandhu", "Gill", "Dhaliwal",
        "Martens", "Reimer", "Toews", "Unger", "Sawatzky", "Boschman", "Voth", "Enns", "Froese"]
PLACE_A = ["Willow", "Prairie", "Cedar", "Maple", "Golden", "Sunny", "Twin", "Stony", "Aspen", "Meadow", "Silver",
           "Red", "Big Sky", "Long", "Windy", "Green", "Pine", "Clear", "Rolling", "Lone", "Spring", "Deer", "Eagle",
           "Elm", "Fox", "Hawk", "Birch", "Oak", "Sand", "Bluebell", "Crescent", "North Star", "Harvest", "Sunrise"]
PLACE_B = ["Creek", "View", "Ridge", "Valley", "Acres", "Hollow", "Springs", "Point", "Coulee", "Meadows",
           "Bend", "Brook", "Lake", "Grove", "Butte", "Plains", "Hills", "Field", "Crossing", "Pines"]
FARM_SUFFIX = ["Farms", "Farms", "Farm", "Grain", "Farms Ltd", "Ag", "Seeds", "Land & Cattle", "Farming Co."]


def next_friday(d: dt.date) -> dt.date:
    return d + dt.timedelta(days=(4 - d.weekday()) % 7)


def days(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def money(x) -> Decimal:
    return Decimal(str(x)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def build():
    r = random.Random(SEED)

    # ------------------------------------------------------------------ members and fields
    members, minfo = [], {}
    used_names = set()

    def farm_name(last):
        while True:
            u = r.random()
            if u < 0.45:
                name = f"{last} {r.choice(FARM_SUFFIX)}"
            elif u < 0.9:
                name = f"{r.choice(PLACE_A)} {r.choice(PLACE_B)} {r.choice(FARM_SUFFIX)}"
            else:
                name = f"{last} Bros. {r.choice(['Farms', 'Grain'])}"
            words = name.split()
            if name not in used_names and words[0] != "Hillcrest" and words[1].rstrip("s") != words[0]:
                used_names.add(name)
                return name

    regions = [g[0] for g in REGIONS]
    mid = 0
    n_members = 452
    hillcrest = {37: "West Hills", 288: "River Valley"}  # two members with the same farm name
    for _ in range(n_members):
        mid += 1
        region = hillcrest.get(mid) or r.choices(regions, weights=[REGION_WEIGHT[g] for g in regions])[0]
        last = r.choice(LAST)
        contact = f"{r.choice(FIRST)} {last}"
        name = "Hillcrest Farms" if mid in hillcrest else farm_name(last)
        if r.random() < 0.06:
            joined = dt.date(2022, 1, 15) + dt.timedelta(days=r.randint(0, 1000))
        else:
            joined = dt.date(1978, 1, 1) + dt.timedelta(days=r.randint(0, 15600))
        exited = None
        if mid not in hillcrest and r.random() < 0.07:
            exited = max(joined + dt.timedelta(days=200), dt.date(2022, 2, 1)) + dt.timedelta(days=r.randint(0, 900))
            if exited > dt.date(2024, 12, 15):
                exited = None
        mtype = "A" if r.random() < 0.14 else "F"
        members.append((mid, f"FC{mid:05d}", name, contact, region, mtype, joined, exited, 0))
        minfo[mid] = dict(region=region, joined=joined, exited=exited, fields=[],
                          store=r.choice([0.0, 0.1, 0.2, 0.3, 0.4]), pay=r.choices("GSB", weights=[80, 15, 5])[0],
                          loyal=r.uniform(0.55, 1.0),
                          dormant=r.choice([2023, 2024]) if mid not in hillcrest and r.random() < 0.05 else 9999)
    test_ids = []
    for name, contact in [("TEST MEMBER - IT", "IT Support"), ("ZZ Test Farm (do not use)", "Weighbridge Test"),
                          ("Training Account", "Training")]:
        mid += 1
        test_ids.append(mid)
        members.append((mid, f"FC9{mid:04d}", name, contact, "North Plains", "F", dt.date(2021, 12, 13), None, 1))

    fields, finfo = [], {}
    fid = 0
    for m in members:
        mid_, region = m[0], m[4]
        if mid_ in test_ids:
            fid += 1
            fields.append((fid, mid_, "TEST FIELD", Decimal("100.00"), "Loam", 0))
            continue
        big = r.random() < 0.08
        n = r.choices([1, 2, 3, 4, 5, 6, 7, 8], weights=[14, 18, 20, 16, 12, 9, 6, 5])[0] + (4 if big else 0)
        irr_p = {"River Valley": 0.3, "South Flats": 0.35, "East Ridge": 0.12}.get(region, 0.04)
        names = r.sample(FIELD_NAMES, k=min(n, len(FIELD_NAMES)))
        for k in range(n):
            fid += 1
            ha = min(650.0, max(4.0, r.lognormvariate(math.log(48 if not big else 120), 0.7)))
            ha = Decimal(str(round(ha, 2)))
            irr = 1 if r.random() < irr_p else 0
            fields.append((fid, mid_, names[k], ha, r.choice(SOILS), irr))
            finfo[fid] = dict(member=mid_, ha=float(ha), irr=irr, prev=None)
            minfo[mid_]["fields"].append(fid)

    crops = [(c[0], c[1], c[2], Decimal(str(c[3]))) for c in CROPS]

    # ------------------------------------------------------------------ prices
    price = {}
    prices = []
    year_factor = {2022: 1.16, 2023: 1.0, 2024: 0.87}
    for c in CROPS:
        cid, code, base, bdisc = c[0], c[1], c[7], c[9]
        walk = 1.0
        for y in (2022, 2023, 2024):
            for mo in range(1, 13):
                walk = min(1.12, max(0.9, walk * math.exp(r.gauss(0, 0.025))))
                a = money(base * year_factor[y] * walk)
                b = money(float(a) * (1 - bdisc))
                cc = money(float(a) * 0.8)
                month = dt.date(y, mo, 1)
                for g, p in (("A", a), ("B", b), ("C", cc)):
                    price[(cid, g, y, mo)] = p
                    prices.append((cid, g, month, p))

    # ------------------------------------------------------------------ deliveries
    region_of = {g[0]: g for g in REGIONS}
    loads = []  # dicts

    def active(mid_, d):
        info = minfo[mid_]
        return info["joined"] <= d and (info["exited"] is None or d < info["exited"])

    def pick_site(region, code):
        home = region_of[region][2]
        ok = TAKES[code]
        if home in ok and r.random() < 0.85:
            return home
        return r.choice(ok)

    def make_load(mid_, fid_, code, when, net, site, big, moisture):
        tare = (r.randint(11200, 15400) if big else r.randint(6800, 9600)) // 20 * 20
        net = int(net) // 20 * 20
        c = CROP[code]
        std = c[3]
        excess = moisture - std
        u = r.random()
        if excess > 2.5:
            grade = "R" if u < 0.75 else "C"
        elif excess > 0.6:
            grade = "C" if u < 0.6 else "B"
        elif excess > 0:
            grade = "B" if u < 0.7 else "C"
        else:
            grade = "A" if u < 0.6 else ("B" if u < 0.88 else ("C" if u < 0.98 else "R"))
        return dict(member=mid_, field=fid_ if r.random() > 0.035 else None, code=code, site=site, at=when,
                    gross=tare + net, tare=tare, net=net, moisture=round(max(6.0, moisture), 1), grade=grade,
                    voided=None, reason=None)

    def work_time(d, early=6, late=20):
        return dt.datetime.combine(d, dt.time(early)) + dt.timedelta(minutes=r.randint(0, (late - early) * 60))

    for year in (2021, 2022, 2023, 2024):
        for mid_, info in minfo.items():
            region = info["region"]
            weights = region_of[region][5]
            total_ha = sum(finfo[f]["ha"] for f in info["fields"])
            big = total_ha > 280
            cap = r.uniform(25000, 30500) if big else r.uniform(11000, 19000)
            if r.random() < 0.06 or year >= info["dormant"]:
                continue  # sold the whole crop elsewhere (or rented the land out) that year
            for f in info["fields"]:
                fi = finfo[f]
                if r.random() < 0.07:
                    fi["prev"] = None
                    continue  # fallow
                code = r.choices(list(weights), weights=list(weights.values()))[0]
                if code == fi["prev"] and r.random() < 0.75:
                    code = r.choices(list(weights), weights=list(weights.values()))[0]
                fi["prev"] = code
                c = CROP[code]
                start = dt.date(year, *c[5]) + dt.timedelta(days={"North Plains": 6, "South Flats": -6}.get(region, 0))
                end = dt.date(year, *c[6])
                if not active(mid_, start):
                    continue
                yf = 1.0
                if region == "South Flats" and year == 2024:
                    yf = 0.55 if not fi["irr"] else 0.9  # the 2024 drought
                elif year == 2023:
                    yf = 1.04
                tonnes = fi["ha"] * c[4] * (c[8] if fi["irr"] else 1.0) * yf * max(0.5, r.gauss(1, 0.13))
                tonnes *= info["loyal"]  # the share of the crop marketed through the co-op
                stored = 0.0 if code == "CORN" else info["store"] * r.uniform(0.6, 1.4)
                harvest_t = tonnes * (1 - stored)
                # harvest loads, over a few consecutive days
                n = max(1, round(harvest_t * 1000 / cap))
                span = max(1, min(n // 3 + 1, 10))
                day0 = start + dt.timedelta(days=r.randint(0, max(0, (end - start).days - span)))
                for k in range(n):
                    d = day0 + dt.timedelta(days=int(k * span / n))
                    if d < FIRST_DAY or d > EXTRACT_DAY or not active(mid_, d):
                        continue
                    m = c[3] - r.uniform(0.3, 2.6) + r.gauss(0, 1.0)
                    if code == "CORN":
                        m += r.gauss(0.9, 1.2) * (1.0 if d.month <= 10 else 0.4)
                    if year == 2023 and dt.date(2023, 9, 1) <= d <= dt.date(2023, 11, 15):
                        m += r.uniform(0.8, 2.4)
                    net = harvest_t * 1000 / n * r.uniform(0.9, 1.08)
                    loads.append(make_load(mid_, f, code, work_time(d), net, pick_site(region, code), big, m))
                # stored grain, hauled over the winter and spring
                st_t = tonnes * stored
                n2 = round(st_t * 1000 / cap)
                for _ in range(n2):
                    d = dt.date(year, 12, 1) + dt.timedelta(days=r.randint(0, 200))
                    if d.weekday() >= 5:
                        d -= dt.timedelta(days=d.weekday() - 4)
                    if d < FIRST_DAY or d > EXTRACT_DAY or not active(mid_, d):
                        continue
                    m = c[3] - r.uniform(1.0, 2.6) + r.gauss(0, 0.45)
                    net = st_t * 1000 / n2 * r.uniform(0.92, 1.06)
                    loads.append(make_load(mid_, f, code, work_time(d, 7, 17), net, pick_site(region, code), big, m))

    # voided tickets: duplicates, wrong member keyed, weighbridge errors, IT test tickets
    by_region = {}
    for mid_, info in minfo.items():
        by_region.setdefault(info["region"], []).append(mid_)
    extra = []
    for ld in loads:
        u = r.random()
        d = ld["at"].date()
        if u < 0.011:
            cp = dict(ld, at=ld["at"] + dt.timedelta(minutes=r.randint(1, 9)), reason="Duplicate ticket",
                      voided=d + dt.timedelta(days=r.choice([0, 0, 1, 1, 2, 3])))
        elif u < 0.016:
            other = r.choice([m for m in by_region[minfo[ld["member"]]["region"]] if m != ld["member"]])
            if not active(other, d):
                continue
            cp = dict(ld, member=other, field=None, reason="Wrong member",
                      voided=d + dt.timedelta(days=r.randint(12, 40)))
            ld["corrected"] = cp["voided"]
        elif u < 0.02:
            bad = int(ld["net"] * r.uniform(0.55, 1.5)) // 20 * 20
            cp = dict(ld, at=ld["at"] - dt.timedelta(minutes=r.randint(4, 25)), net=bad, gross=ld["tare"] + bad,
                      reason="Weighbridge error", voided=d)
        else:
            continue
        if cp["voided"] > EXTRACT_DAY:
            ld.pop("corrected", None)
            continue
        cp.pop("corrected", None)
        extra.append(cp)
    for tid in test_ids:
        for _ in range(4):
            d = dt.date(2022, 1, 4) + dt.timedelta(days=r.randint(0, 20))
            code = r.choice(["SWHT", "CANO", "BARL"])
            ld = make_load(tid, None, code, work_time(d, 9, 16), r.randint(500, 30000), "Ridgeway", True,
                           CROP[code][3] - 1)
            ld.update(voided=d, reason="Test ticket")
            extra.append(ld)
    loads.extend(extra)
    loads.sort(key=lambda x: (x["at"], x["member"], x["net"]))

    tickets, seq = [], {}
    for i, ld in enumerate(loads, start=1):
        ld["id"] = i
        key = (ld["site"], ld["at"].year)
        seq[key] = seq.get(key, 0) + 1
        crop_id = CROP[ld["code"]][0]
        tickets.append((i, f"{SITES[ld['site']]}{ld['at'].year % 100:02d}-{seq[key]:05d}", ld["member"], ld["field"],
                        crop_id, ld["site"], ld["at"], ld["gross"], ld["tare"], ld["net"],
                        Decimal(str(ld["moisture"])), ld["grade"], ld["voided"], ld["reason"]))

    # ------------------------------------------------------------------ payments (weekly runs)
    pay_lines = []
    for ld in loads:
        if ld["grade"] == "R" or ld["reason"] == "Test ticket" or ld["reason"] == "Weighbridge error":
            continue
        d = ld["at"].date()
        p = price[(CROP[ld["code"]][0], ld["grade"], d.year, d.month)]
        cents = int((Decimal(ld["net"]) * p / 10).quantize(Decimal(1), ROUND_HALF_UP))
        lag = r.randint(3, 8) + (r.randint(3, 13) if d.month in (8, 9, 10) else 0)
        paid = next_friday(d + dt.timedelta(days=lag))
        if ld["voided"] is not None and paid >= ld["voided"]:
            continue  # voided before the payment run
        if "corrected" in ld:  # the right member is paid once the mix-up is found
            paid = max(paid, next_friday(ld["corrected"] + dt.timedelta(days=1)))
        if paid > EXTRACT_DAY:
            continue
        pay_lines.append((paid, ld["id"], ld["member"], "PY", cents))
        if ld["voided"] is not None:
            rv = next_friday(ld["voided"] + dt.timedelta(days=1))
            if rv <= EXTRACT_DAY:
                pay_lines.append((rv, ld["id"], ld["member"], "RV", -cents))
    pay_lines.sort()
    payments = [(i, m, t, d, typ, c) for i, (d, t, m, typ, c) in enumerate(pay_lines, start=1)]

    # ------------------------------------------------------------------ input purchases on credit
    purchases = []
    pid = 0
    for year in (2022, 2023, 2024):
        for mid_, info in minfo.items():
            ha = sum(finfo[f]["ha"] for f in info["fields"])
            rows = []
            if r.random() < 0.12:
                continue  # buys elsewhere this year
            for code in sorted({r.choice(list(region_of[info["region"]][5])) for _ in range(2)}):
                if r.random() < 0.55:
                    sname, rate, unit_price = CROP[code][10]
                    qty = round(ha * r.uniform(0.2, 0.5) * rate, 0)
                    d = dt.date(year, 2, 1) + dt.timedelta(days=r.randint(0, 85))
                    rows.append((d, "SD", sname, Decimal(str(qty)), "kg", money(qty * unit_price * r.uniform(0.97, 1.03))))
            for _ in range(r.choice([1, 1, 2, 2, 3])):
                fname, tprice = r.choice(FERTILISERS)
                qty = round(ha * r.uniform(0.03, 0.12), 2)
                d = (dt.date(year, 3, 1) + dt.timedelta(days=r.randint(0, 80)) if r.random() < 0.75
                     else dt.date(year, 9, 10) + dt.timedelta(days=r.randint(0, 45)))
                rows.append((d, "FT", fname, Decimal(str(qty)), "t", money(qty * tprice * FERT_YEAR[year])))
            for _ in range(r.choice([0, 1, 1, 2])):
                cname, lprice = r.choice(CHEMICALS)
                qty = round(ha * r.uniform(0.3, 1.2), 0)
                d = dt.date(year, 4, 20) + dt.timedelta(days=r.randint(0, 75))
                rows.append((d, "CP", cname, Decimal(str(qty)), "L", money(qty * lprice)))
            for d, typ, name, qty, unit, amount in sorted(rows):
                if not active(mid_, d) or d > EXTRACT_DAY or amount <= 0:
                    continue
                due = dt.date(year, 11, 30) if d.month <= 8 else d + dt.timedelta(days=120)
                if info["pay"] == "G":
                    settled = due - dt.timedelta(days=r.randint(-12, 70))
                elif info["pay"] == "S":
                    settled = due + dt.timedelta(days=r.randint(10, 150))
                else:
                    settled = None if r.random() < 0.55 else due + dt.timedelta(days=r.randint(60, 320))
                if settled is not None:
                    settled = max(settled, d + dt.timedelta(days=1))
                    if settled > EXTRACT_DAY:
                        settled = None
                pid += 1
                purchases.append((pid, mid_, d, typ, name, qty, unit, amount, due, settled))
    purchases.sort(key=lambda x: (x[2], x[1], x[0]))
    purchases = [(i, *row[1:]) for i, row in enumerate(purchases, start=1)]

    # ------------------------------------------------------------------ weather
    weather = []
    wid = 0
    outage = (dt.date(2023, 3, 10), dt.date(2023, 3, 31))
    for region, station, _site, base, rain_f, _w in REGIONS:
        for d in days(FIRST_DAY, EXTRACT_DAY):
            if station == "ER01" and outage[0] <= d <= outage[1]:
                continue
            if r.random() < 0.012:
                continue  # no upload that day
            doy = d.timetuple().tm_yday
            mean = base - 13.5 * math.cos((doy - 18) / 365.25 * 2 * math.pi)
            hot = 2.2 if (region == "South Flats" and d.year == 2024 and 6 <= d.month <= 8) else 0.0
            tmax = mean + 6.5 + hot + r.gauss(0, 2.6)
            tmin = mean - 6.0 + hot * 0.5 + r.gauss(0, 2.6)
            p_rain = (0.26 + 0.1 * math.sin((doy - 80) / 365.25 * 2 * math.pi)) * rain_f
            if d.year == 2023 and d.month in (9, 10):
                p_rain *= 1.9
            if region == "South Flats" and d.year == 2024 and 5 <= d.month <= 8:
                p_rain *= 0.3
            rain = round(r.expovariate(1 / 6.5), 1) if r.random() < p_rain else 0.0
            rain = Decimal(str(rain)) if r.random() > 0.006 else None
            wid += 1
            weather.append((wid, station, region, d, rain, Decimal(str(round(tmin, 1))), Decimal(str(round(tmax, 1)))))

    return {"Members": members, "Fields": fields, "Crops": crops, "IntakeTickets": tickets,
            "GradePrices": prices, "MemberPayments": payments, "InputPurchases": purchases,
            "WeatherReadings": weather}


def main() -> None:
    _common.ensure_venv()
    import pymysql

    tables = build()
    con = pymysql.connect(**_common.MYSQL_ADMIN, charset="utf8mb4", autocommit=True)
    try:
        cur = con.cursor()
        cur.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        cur.execute(f"CREATE DATABASE {DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
        cur.execute(f"USE {DATABASE}")
        for table, columns in DDL.items():
            comment = TABLE_COMMENTS[table].replace("'", "''")
            cur.execute(f"CREATE TABLE {table} ({columns}) ENGINE=InnoDB COMMENT='{comment}'")
        con.autocommit(False)
        for table, rows in tables.items():
            marks = ", ".join(["%s"] * len(rows[0]))
            for i in range(0, len(rows), 5000):
                cur.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[i:i + 5000])
        con.commit()
        con.autocommit(True)
        for host in ("%", "localhost"):
            cur.execute(f"CREATE USER IF NOT EXISTS '{USER}'@'{host}' IDENTIFIED BY '{USER}'")
            cur.execute(f"ALTER USER '{USER}'@'{host}' IDENTIFIED BY '{USER}'")
            cur.execute(f"GRANT SELECT ON {DATABASE}.* TO '{USER}'@'{host}'")
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {table}")
            counts[f"{DATABASE}.{table}"] = cur.fetchone()[0]
    finally:
        con.close()
    print(f"loaded the synthetic farm cooperative into MariaDB database {DATABASE}:")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()
