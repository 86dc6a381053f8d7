#!/usr/bin/env python3
"""A synthetic ride-hailing company (2023-2024) on PostgreSQL, schema `ops`, camelCase quoted names.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_ridehail if missing, drops and rebuilds schema "ops", loads eight tables
generated deterministically with random.Random(11), and creates (or resets) the read-only login
role ridehail_reader / ridehail_reader. Idempotent: the same rows on every run.

Naming: camelCase, quoted ("tripRequests"."requestedAt"); keys are "<entity>Id". Primary keys and
foreign keys are declared. Code columns say what their codes mean only in COMMENT ON COLUMN.

  ops.cities          8 markets (two are called Portland: Oregon and Maine)
  ops.riders          rider accounts; "isTestAccount" marks internal QA accounts
  ops.drivers         one row per driver: home city, onboarding date, status
  ops."promoCodes"    promo codes; "cityId" NULL = valid in every city; kind P percent / A amount
  ops."tripRequests"  one row per ride request: status, who cancelled (1/2/3 code), pickup,
                      drop-off, miles, promo used; times are the city's local time
  ops."tripFares"     what the rider was charged, in CENTS: one 'ride' row per completed trip,
                      one 'cancel_fee' row per late rider cancellation that was charged
  ops."driverPayouts" weekly driver payouts in DOLLARS ("amountUsd"), paid / pending / reversed
  ops."tripRatings"   star ratings after completed trips; "ratedBy" R = rider rated the driver,
                      D = driver rated the rider
"""

import bisect
import datetime as dt
import itertools
import math
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_ridehail", "ops", "ridehail_reader"
URL = "postgresql://ridehail_reader:ridehail_reader@127.0.0.1:5432/dev_ridehail"
SEED = 11
FIRST_DAY, LAST_DAY = dt.date(2023, 1, 1), dt.date(2024, 12, 31)   # extract as of 2024-12-31 end of day

DDL = [
    """CREATE TABLE ops."cities" (
        "cityId" integer PRIMARY KEY,
        "cityName" varchar(40) NOT NULL,
        "stateCode" char(2) NOT NULL,
        "timeZone" varchar(40) NOT NULL,
        "launchedOn" date NOT NULL)""",
    """CREATE TABLE ops."riders" (
        "riderId" integer PRIMARY KEY,
        "firstName" varchar(40) NOT NULL,
        "lastName" varchar(40) NOT NULL,
        "email" varchar(80) NOT NULL UNIQUE,
        "homeCityId" integer NOT NULL REFERENCES ops."cities" ("cityId"),
        "signedUpAt" timestamp NOT NULL,
        "isTestAccount" boolean NOT NULL DEFAULT false)""",
    """CREATE TABLE ops."drivers" (
        "driverId" integer PRIMARY KEY,
        "firstName" varchar(40) NOT NULL,
        "lastName" varchar(40) NOT NULL,
        "homeCityId" integer NOT NULL REFERENCES ops."cities" ("cityId"),
        "onboardedOn" date NOT NULL,
        "vehicleMake" varchar(30) NOT NULL,
        "driverStatus" varchar(12) NOT NULL)""",
    """CREATE TABLE ops."promoCodes" (
        "promoCodeId" integer PRIMARY KEY,
        "promoCode" varchar(20) NOT NULL UNIQUE,
        "description" varchar(80) NOT NULL,
        "discountKind" char(1) NOT NULL,
        "discountValue" numeric(6, 2) NOT NULL,
        "cityId" integer REFERENCES ops."cities" ("cityId"),
        "startsOn" date NOT NULL,
        "endsOn" date NOT NULL)""",
    """CREATE TABLE ops."tripRequests" (
        "tripId" integer PRIMARY KEY,
        "riderId" integer NOT NULL REFERENCES ops."riders" ("riderId"),
        "driverId" integer REFERENCES ops."drivers" ("driverId"),
        "cityId" integer NOT NULL REFERENCES ops."cities" ("cityId"),
        "rideType" varchar(10) NOT NULL,
        "requestedAt" timestamp NOT NULL,
        "tripStatus" varchar(12) NOT NULL,
        "cancelledBy" smallint,
        "pickedUpAt" timestamp,
        "droppedOffAt" timestamp,
        "distanceMiles" numeric(5, 1),
        "promoCodeId" integer REFERENCES ops."promoCodes" ("promoCodeId"))""",
    """CREATE TABLE ops."tripFares" (
        "fareId" integer PRIMARY KEY,
        "tripId" integer NOT NULL REFERENCES ops."tripRequests" ("tripId"),
        "fareType" varchar(12) NOT NULL,
        "fareCents" integer NOT NULL,
        "surgeMultiplier" numeric(3, 2) NOT NULL,
        "discountCents" integer NOT NULL,
        "tipCents" integer NOT NULL,
        "totalChargedCents" integer NOT NULL)""",
    """CREATE TABLE ops."driverPayouts" (
        "payoutId" integer PRIMARY KEY,
        "driverId" integer NOT NULL REFERENCES ops."drivers" ("driverId"),
        "weekStarting" date NOT NULL,
        "tripCount" integer NOT NULL,
        "amountUsd" numeric(10, 2) NOT NULL,
        "payoutStatus" varchar(10) NOT NULL,
        "paidOn" date,
        UNIQUE ("driverId", "weekStarting"))""",
    """CREATE TABLE ops."tripRatings" (
        "ratingId" integer PRIMARY KEY,
        "tripId" integer NOT NULL REFERENCES ops."tripRequests" ("tripId"),
        "ratedBy" char(1) NOT NULL,
        "stars" smallint NOT NULL CHECK ("stars" BETWEEN 1 AND 5),
        "ratedAt" timestamp NOT NULL,
        UNIQUE ("tripId", "ratedBy"))""",
]
TABLE_COMMENTS = {
    "cities": "Markets we operate in",
    "riders": "Rider accounts (the app's customers)",
    "drivers": "Driver partners; each belongs to one home market",
    "promoCodes": "Promotional codes riders can apply to a ride",
    "tripRequests": "One row per ride request made in the app, whatever happened to it",
    "tripFares": "Charges to the rider's card, one row per charge",
    "driverPayouts": "Weekly payout to each driver who drove that week",
    "tripRatings": "Star ratings left after a completed trip (both directions)",
}
COLUMN_COMMENTS = {
    ("riders", "isTestAccount"): "internal QA / test account (not a real customer)",
    ("drivers", "driverStatus"): "account status today: active, paused (temporarily off the platform), deactivated",
    ("promoCodes", "discountKind"): "P = percent off the fare, A = fixed amount off in USD",
    ("promoCodes", "discountValue"): "percent (kind P) or USD (kind A)",
    ("promoCodes", "cityId"): "NULL = valid in every city",
    ("tripRequests", "rideType"): "product: standard, comfort, xl, share",
    ("tripRequests", "requestedAt"): "local time of the city",
    ("tripRequests", "driverId"): "NULL when no driver accepted the request",
    ("tripRequests", "tripStatus"): "completed, cancelled, or no_driver (request expired unmatched)",
    ("tripRequests", "cancelledBy"): "1 = rider, 2 = driver, 3 = support agent; NULL unless cancelled",
    ("tripRequests", "distanceMiles"): "NULL unless completed",
    ("tripFares", "fareType"): "ride = a completed trip; cancel_fee = fee for a late cancellation by the rider",
    ("tripFares", "fareCents"): "fare before discount, after surge, in cents",
    ("tripFares", "discountCents"): "promo discount in cents",
    ("tripFares", "tipCents"): "tip in cents (goes entirely to the driver)",
    ("tripFares", "totalChargedCents"): "charged to the rider in cents = fare - discount + tip",
    ("driverPayouts", "weekStarting"): "Monday of the week the trips were driven",
    ("driverPayouts", "amountUsd"): "earnings for the week incl. tips, USD",
    ("driverPayouts", "payoutStatus"): "paid, pending (not yet sent), reversed (clawed back)",
    ("tripRatings", "ratedBy"): "R = the rider rated the driver, D = the driver rated the rider",
}

CITIES = [  # id, name, state, tz, launched, weight (trips/day at start), growth/yr, driver-cancel factor
    (1, "Austin", "TX", "America/Chicago", dt.date(2021, 3, 1), 12, 0.20, 1.0),
    (2, "Denver", "CO", "America/Denver", dt.date(2021, 9, 1), 9, 0.15, 0.9),
    (3, "Portland", "OR", "America/Los_Angeles", dt.date(2022, 2, 1), 8, 0.10, 1.0),
    (4, "Chicago", "IL", "America/Chicago", dt.date(2022, 6, 1), 17, 0.30, 1.2),
    (5, "Nashville", "TN", "America/Chicago", dt.date(2022, 10, 1), 7, 0.25, 0.8),
    (6, "Phoenix", "AZ", "America/Phoenix", dt.date(2022, 11, 1), 8, 0.20, 2.1),
    (7, "Portland", "ME", "America/New_York", dt.date(2024, 4, 15), 3, 0.0, 0.9),
    (8, "Columbus", "OH", "America/New_York", dt.date(2024, 9, 3), 5, 0.0, 1.0),
]
RIDE_TYPES = {  # weight, base cents, per mile, per minute, minimum
    "standard": (64, 250, 135, 28, 700),
    "comfort": (14, 350, 185, 38, 1000),
    "xl": (10, 450, 240, 45, 1200),
    "share": (12, 200, 100, 20, 550),
}
PROMOS = [  # id, code, description, kind, value, city, starts, ends, popularity
    (1, "WELCOME10", "New riders: 10% off", "P", 10, None, dt.date(2023, 1, 1), dt.date(2024, 12, 31), 5),
    (2, "FIRST5", "$5 off your first ride", "A", 5, None, dt.date(2023, 1, 1), dt.date(2024, 12, 31), 4),
    (3, "SXSW23", "SXSW week 20% off", "P", 20, 1, dt.date(2023, 3, 10), dt.date(2023, 3, 19), 9),
    (4, "SXSW24", "SXSW week 20% off", "P", 20, 1, dt.date(2024, 3, 8), dt.date(2024, 3, 17), 9),
    (5, "MILEHIGH", "Denver: $4 off", "A", 4, 2, dt.date(2023, 5, 1), dt.date(2024, 10, 31), 2),
    (6, "ROSECITY", "Portland OR: 15% off", "P", 15, 3, dt.date(2023, 6, 1), dt.date(2023, 9, 30), 3),
    (7, "WINDY15", "Chicago: 15% off", "P", 15, 4, dt.date(2023, 11, 1), dt.date(2024, 2, 29), 3),
    (8, "MUSICCITY", "Nashville: $6 off", "A", 6, 5, dt.date(2024, 1, 1), dt.date(2024, 12, 31), 2),
    (9, "SUNNY10", "Phoenix: 10% off", "P", 10, 6, dt.date(2024, 2, 1), dt.date(2024, 6, 30), 2),
    (10, "HELLOMAINE", "Portland ME launch: 50% off", "P", 50, 7, dt.date(2024, 4, 15), dt.date(2024, 6, 15), 12),
    (11, "BUCKEYE", "Columbus launch: $8 off", "A", 8, 8, dt.date(2024, 9, 3), dt.date(2024, 12, 31), 10),
    (12, "SUMMER24", "Summer 2024: 15% off", "P", 15, None, dt.date(2024, 6, 1), dt.date(2024, 8, 31), 3),
    (13, "HOLIDAY23", "Holidays 2023: $3 off", "A", 3, None, dt.date(2023, 12, 15), dt.date(2024, 1, 2), 4),
    (14, "HOLIDAY24", "Holidays 2024: $3 off", "A", 3, None, dt.date(2024, 12, 15), dt.date(2024, 12, 31), 4),
    (15, "NYE2024", "New Year's Eve: 25% off", "P", 25, None, dt.date(2023, 12, 31), dt.date(2024, 1, 1), 15),
    (16, "COMFORT20", "20% off Comfort rides", "P", 20, None, dt.date(2023, 4, 1), dt.date(2023, 12, 31), 2),
    (17, "SORRY5", "Support credit: $5 off", "A", 5, None, dt.date(2023, 1, 1), dt.date(2024, 12, 31), 1),
]
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac",
         "Marcus", "Jasmine", "Tyrone", "Ana", "Mohammed", "Keisha", "Luis", "Svetlana", "Bashir", "Rosa"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright",
        "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz",
        "Singh", "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer",
        "Abdi", "Tesfaye", "Mensah", "Reyes", "Cruz", "Flores", "Ramirez", "Sato", "Kowalski", "Ali"]
MAKES = ["Toyota", "Toyota", "Toyota", "Honda", "Honda", "Hyundai", "Kia", "Nissan", "Ford", "Chevrolet",
         "Tesla", "Subaru", "Chrysler"]
HOUR_W = [3, 2, 2, 1, 1, 2, 4, 8, 10, 7, 5, 5, 6, 6, 5, 6, 8, 10, 10, 8, 7, 6, 5, 4]


def weighted_pick(r, pool, regs, cum, day_end):
    k = bisect.bisect_right(regs, day_end)
    if not k:
        return None
    return r.choices(pool[:k], cum_weights=cum[:k], k=1)[0]


def build():
    r = random.Random(SEED)
    cities = [(cid, name, st, tz, launched) for cid, name, st, tz, launched, *_ in CITIES]
    cinfo = {c[0]: dict(launched=c[4], base=c[5], growth=c[6], dcancel=c[7]) for c in CITIES}

    # riders -------------------------------------------------------------------------------
    riders, rpools = [], defaultdict(list)
    emails = set()
    rid = 0
    city_w = {1: 1.4, 2: 1.0, 3: 0.9, 4: 2.0, 5: 0.8, 6: 0.9, 7: 0.35, 8: 0.45}
    for _ in range(9400):
        rid += 1
        cid = r.choices(list(city_w), weights=list(city_w.values()))[0]
        start = max(dt.date(2022, 1, 1), cinfo[cid]["launched"] - dt.timedelta(days=20))
        day = start + dt.timedelta(days=int((dt.date(2024, 12, 31) - start).days * r.random() ** 0.8))
        at = dt.datetime.combine(day, dt.time(r.randint(6, 23), r.randint(0, 59), r.randint(0, 59)))
        first, last = r.choice(FIRST), r.choice(LAST)
        base = f"{first}.{last}".lower().replace("'", "")
        email = f"{base}{r.randint(1, 999)}@{r.choice(['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'proton.me'])}"
        while email in emails:
            email = f"{base}{r.randint(1000, 99999)}@gmail.com"
        emails.add(email)
        riders.append((rid, first, last, email, cid, at, False))
        w = r.paretovariate(1.2) * (0.05 if r.random() < 0.25 else 1.0)
        rpools[cid].append(dict(id=rid, at=at, w=w, test=False))
    # QA accounts: heavy users in Austin (most) and Chicago, real-looking fares
    test_ids = []
    for i in range(36):
        rid += 1
        cid = 1 if i < 26 else 4
        at = dt.datetime(2022, 11, 1, 9, 0) + dt.timedelta(days=r.randint(0, 500), minutes=r.randint(0, 600))
        riders.append((rid, "QA", f"Tester {i + 1:02d}", f"qa.rider{i + 1:02d}@ridehail-internal.com", cid, at, True))
        rpools[cid].append(dict(id=rid, at=at, w=0.0, test=True))
        test_ids.append((rid, cid, at))
    pools = {}
    for cid, pool in rpools.items():
        pool = sorted((p for p in pool if not p["test"]), key=lambda p: (p["at"], p["id"]))
        pools[cid] = (pool, [p["at"] for p in pool], list(itertools.accumulate(p["w"] for p in pool)))

    # drivers ------------------------------------------------------------------------------
    drivers, dpools = [], defaultdict(list)
    did = 0
    dcount = {1: 95, 2: 70, 3: 60, 4: 150, 5: 55, 6: 70, 7: 18, 8: 30}
    for cid, n in dcount.items():
        for _ in range(n):
            did += 1
            start = max(dt.date(2022, 1, 1), cinfo[cid]["launched"] - dt.timedelta(days=30))
            on = start + dt.timedelta(days=int((dt.date(2024, 12, 20) - start).days * r.random() ** 1.3))
            u = r.random()
            status = "active" if u < 0.72 else ("paused" if u < 0.84 else "deactivated")
            # deactivated / paused drivers stopped driving some time ago
            stop = None
            if status == "deactivated":   # stopped driving for good, before the extract
                stop = min(on + dt.timedelta(days=r.randint(20, 600)), LAST_DAY - dt.timedelta(days=r.randint(20, 90)))
                stop = max(stop, on + dt.timedelta(days=5))
            elif status == "paused":        # off the platform since some day in the last four months
                lo = max(on + dt.timedelta(days=10), dt.date(2024, 9, 1))
                stop = lo + dt.timedelta(days=r.randint(0, max(0, (dt.date(2024, 12, 24) - lo).days)))
            drivers.append((did, r.choice(FIRST), r.choice(LAST), cid, on, r.choice(MAKES), status))
            dpools[cid].append(dict(id=did, on=on, stop=stop, w=r.uniform(0.3, 1.6),
                                    dcancel=r.lognormvariate(0, 0.6)))
    # a standout: the busiest driver (Chicago)
    star = next(d for d in dpools[4] if d["on"] < dt.date(2022, 12, 1) and d["stop"] is None)
    star["w"] = 4.5

    # trips --------------------------------------------------------------------------------
    trips, fares, ratings = [], [], []
    tid = fid = ratid = 0
    earnings = defaultdict(lambda: [0, 0])   # (driver, monday) -> [cents, trips]
    for day in (FIRST_DAY + dt.timedelta(days=i) for i in range((LAST_DAY - FIRST_DAY).days + 1)):
        wd = day.weekday()
        years = (day - FIRST_DAY).days / 365.25
        season = 1.0 + 0.12 * math.sin((day.timetuple().tm_yday - 80) / 365.25 * 2 * math.pi)
        live_promos = [p for p in PROMOS if p[6] <= day <= p[7]]
        for cid, info in cinfo.items():
            if day < info["launched"]:
                continue
            mean = info["base"] * (1 + info["growth"]) ** years * season * (1.25 if wd in (4, 5) else 1.0)
            if cid in (7, 8):
                mean *= min(1.0, 0.3 + (day - info["launched"]).days / 60)
            if cid == 1 and dt.date(2024, 3, 8) <= day <= dt.date(2024, 3, 17) or \
                    cid == 1 and dt.date(2023, 3, 10) <= day <= dt.date(2023, 3, 19):
                mean *= 2.2   # SXSW
            n = max(0, int(r.gauss(mean, math.sqrt(mean)) + 0.5))
            # QA test trips (Austin, Chicago): bursts on weekdays
            qa = []
            if wd < 5:
                for trid, tcid, tat in test_ids:
                    if tcid == cid and tat.date() <= day and r.random() < 0.16:
                        qa.append(trid)
            pool, regs, cum = pools[cid]
            day_end = dt.datetime.combine(day, dt.time(23, 59))
            cp = [p for p in live_promos if p[5] in (None, cid)]
            active_drivers = [d for d in dpools[cid] if d["on"] <= day and (d["stop"] is None or day < d["stop"])]
            dw = list(itertools.accumulate(d["w"] for d in active_drivers))
            for k in range(n + len(qa)):
                is_test = k >= n
                if is_test:
                    rider_id = qa[k - n]
                else:
                    p = weighted_pick(r, pool, regs, cum, day_end)
                    if p is None:
                        continue
                    rider_id = p["id"]
                hour = r.choices(range(24), weights=HOUR_W)[0]
                if is_test:
                    hour = r.randint(10, 16)
                at = dt.datetime.combine(day, dt.time(hour, r.randint(0, 59), r.randint(0, 59)))
                if not is_test and rider_id and p["at"] > at:
                    at = p["at"] + dt.timedelta(minutes=r.randint(5, 30))
                    if at.date() != day:
                        continue
                rtype = r.choices(list(RIDE_TYPES), weights=[v[0] for v in RIDE_TYPES.values()])[0]
                tid += 1
                peak = hour in (7, 8, 17, 18) or (wd in (4, 5) and hour in (22, 23, 0, 1))
                # outcome
                driver = None
                if active_drivers and r.random() > (0.035 + (0.05 if peak else 0.0)) * (0.5 if is_test else 1.0):
                    driver = r.choices(active_drivers, cum_weights=dw, k=1)[0]
                status, cancelled_by, pick, drop, miles, promo = "completed", None, None, None, None, None
                if driver is None:
                    status = "no_driver" if r.random() < 0.85 else "cancelled"
                    if status == "cancelled":
                        cancelled_by = 1
                else:
                    u = r.random()
                    p_drv = 0.035 * info["dcancel"] * driver["dcancel"] * (1.3 if peak else 1.0)
                    p_rid = 0.075 * (1.2 if peak else 1.0)
                    p_sup = 0.004
                    if is_test:
                        p_drv, p_rid = 0.0, 0.02
                    if u < p_drv:
                        status, cancelled_by = "cancelled", 2
                    elif u < p_drv + p_rid:
                        status, cancelled_by = "cancelled", 1
                    elif u < p_drv + p_rid + p_sup:
                        status, cancelled_by = "cancelled", 3
                surge = 1.0
                if peak and r.random() < 0.45:
                    surge = round(r.choice([1.2, 1.3, 1.5, 1.5, 1.8, 2.0, 2.4]), 2)
                elif r.random() < 0.06:
                    surge = round(r.choice([1.1, 1.2, 1.3]), 2)
                if cid == 1 and day.month == 3 and 8 <= day.day <= 19 and r.random() < 0.5:
                    surge = max(surge, 1.8)
                if status == "completed":
                    wait = max(2, int(r.lognormvariate(math.log(6), 0.4)))
                    pick = at + dt.timedelta(minutes=wait, seconds=r.randint(0, 59))
                    miles = round(max(0.4, r.lognormvariate(math.log(4.2), 0.65)), 1)
                    if is_test:
                        miles = round(r.uniform(0.4, 1.5), 1)
                    minutes = max(3, int(miles * r.uniform(2.2, 3.6) + r.randint(0, 6)))
                    drop = pick + dt.timedelta(minutes=minutes, seconds=r.randint(0, 59))
                    if cp and not is_test and r.random() < 0.11:
                        promo = r.choices(cp, weights=[x[8] for x in cp])[0]
                        if promo[0] == 16 and rtype != "comfort":
                            promo = None
                    if is_test and r.random() < 0.3:
                        promo = PROMOS[16]   # SORRY5 used by QA
                    _, base, per_mi, per_min, minimum = RIDE_TYPES[rtype]
                    fare = max(minimum, base + per_mi * miles + per_min * minutes)
                    fare = int(round(fare * surge))
                    discount = 0
                    if promo:
                        discount = int(round(fare * promo[4] / 100)) if promo[3] == "P" else int(promo[4] * 100)
                        discount = min(discount, fare - 100)
                    tip = 0
                    if r.random() < 0.38:
                        tip = int(round(fare * r.choice([0.1, 0.15, 0.15, 0.2, 0.2, 0.25]) / 50.0)) * 50
                    fid += 1
                    fares.append((fid, tid, "ride", fare, surge, discount, tip, fare - discount + tip))
                    monday = day - dt.timedelta(days=wd)
                    e = earnings[(driver["id"], monday)]
                    e[0] += int(fare * 0.72) + tip
                    e[1] += 1
                    # ratings
                    if not is_test:
                        if r.random() < 0.55:
                            ratid += 1
                            good = 4.78 - 0.9 * (driver["dcancel"] > 2.2) - 0.25 * (surge >= 1.8)
                            stars = 5 if r.random() < (good - 4) else r.choices([1, 2, 3, 4], weights=[4, 3, 10, 40])[0]
                            ratings.append((ratid, tid, "R", stars, drop + dt.timedelta(minutes=r.randint(1, 600))))
                        if r.random() < 0.68:
                            ratid += 1
                            stars = 5 if r.random() < 0.86 else r.choices([1, 2, 3, 4], weights=[2, 2, 8, 50])[0]
                            ratings.append((ratid, tid, "D", stars, drop + dt.timedelta(minutes=r.randint(1, 30))))
                    if promo:
                        promo = promo[0]
                elif cancelled_by == 1 and driver is not None and r.random() < 0.35:
                    fid += 1
                    fee = 500 if rtype != "xl" else 750
                    fares.append((fid, tid, "cancel_fee", fee, 1.0, 0, 0, fee))
                trips.append((tid, rider_id, driver["id"] if driver else None, cid, rtype, at, status,
                              cancelled_by, pick, drop, miles, promo))
    trips.sort(key=lambda t: (t[5], t[0]))
    # renumber trips in request order (ids grow with time, as in a real system)
    newid = {t[0]: i + 1 for i, t in enumerate(trips)}
    trips = [(newid[t[0]], *t[1:]) for t in trips]
    fares = sorted(((f[0], newid[f[1]], *f[2:]) for f in fares), key=lambda f: (f[1], f[0]))
    fares = [(i + 1, *f[1:]) for i, f in enumerate(fares)]
    ratings = sorted(((x[0], newid[x[1]], *x[2:]) for x in ratings), key=lambda x: (x[1], x[2]))
    ratings = [(i + 1, *x[1:]) for i, x in enumerate(ratings)]

    # payouts ------------------------------------------------------------------------------
    payouts = []
    pid = 0
    for (drv, monday), (cents, n) in sorted(earnings.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        pid += 1
        pay_day = monday + dt.timedelta(days=r.choice([9, 9, 9, 10]))
        status = "paid"
        if pay_day > LAST_DAY:
            status, pay_day = "pending", None
        elif r.random() < 0.006:
            status = "reversed"
        payouts.append((pid, drv, monday, n, round(cents / 100.0, 2), status, pay_day))

    promos = [(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]) for p in PROMOS]
    return {"cities": cities, "riders": riders, "drivers": drivers, "promoCodes": promos,
            "tripRequests": trips, "tripFares": fares, "driverPayouts": payouts, "tripRatings": ratings}


def main() -> None:
    _common.ensure_venv()
    import psycopg
    from psycopg import sql

    tables = build()
    _common.pg_create_database(DATABASE)
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}) as con:  # one transaction
        cur = con.cursor()
        cur.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        cur.execute(f"CREATE SCHEMA {SCHEMA}")
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Ride-hailing operations: requests, fares, payouts, "
                    f"ratings, 2023-2024 (extract of 2024-12-31)'")
        for ddl in DDL:
            cur.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            cur.execute(sql.SQL("COMMENT ON TABLE {}.{} IS {}").format(
                sql.Identifier(SCHEMA), sql.Identifier(table), sql.Literal(comment)))
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL("COMMENT ON COLUMN {}.{}.{} IS {}").format(
                sql.Identifier(SCHEMA), sql.Identifier(table), sql.Identifier(column), sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(sql.SQL("COPY {}.{} FROM STDIN").format(sql.Identifier(SCHEMA), sql.Identifier(table))) as copy:
                for row in rows:
                    copy.write_row(row)
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(sql.SQL("SELECT count(*) FROM {}.{}").format(sql.Identifier(SCHEMA), sql.Identifier(table)))
            counts[f'{SCHEMA}."{table}"'] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic ride-hailing company into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()
