#!/usr/bin/env python3
"""A synthetic chain of fitness clubs in Colorado (2023-2024) on PostgreSQL, schema `fit`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_gym if missing, drops and rebuilds schema "fit", loads eight tables generated
deterministically with random.Random(11), and creates (or resets) the read-only login role
gym_reader / gym_reader. Idempotent: the same rows on every run.

Naming: quoted camelCase identifiers for tables and columns ("checkIns", "memberId", "checkInAt"),
so every name must be double-quoted in SQL. Primary keys are declared; foreign keys are declared on
about half of the relations only (members -> clubs/plans, bookings -> classes, checkIns -> members,
ptSessions -> members, invoices -> ptSessions); the others (classes/checkIns/ptSessions."clubId",
bookings/invoices."memberId", members."referredBy") are implied by the names. Single-letter code
columns say what their codes mean in COMMENT ON COLUMN.

  fit.clubs        6 clubs: 2 in Denver, Boulder, Aurora, Colorado Springs, Fort Collins (opened
                   2024-03-02, so no 2023 activity); pool and 24-hour flags
  fit.plans        6 membership plans: monthly fee (current, i.e. 2024, price), joining fee,
                   access code (S = home club only / A = all clubs), classes included, minimum term
  fit.members      everyone whose membership was live at some point from 2023-01-01 (people who
                   left before 2023 are not in the extract): home club, plan, join date, status
                   (A active / F frozen / C cancelled), cancellation date, "referredBy" (another
                   member, self-reference, not declared)
  fit.classes      the group-class timetable, one row per scheduled class (type, instructor name as
                   text, start, length, capacity), 2023-01-02 .. 2025-01-12
  fit.bookings     class bookings: status B (booked, upcoming: January 2025 only) / A attended /
                   N no-show / C cancelled by the member; only Premium-type plans book classes
  fit."checkIns"   one row per visit (door scan): club, check-in time, check-out time (NULL when
                   the member did not scan out)
  fit."ptSessions" personal-training sessions: trainer name as text (two different trainers are
                   called Chris), club, time, 30 or 60 minutes, status S scheduled / C completed /
                   N no-show (charged) / X cancelled (not charged)
  fit.invoices     what members are billed: kind M monthly dues / J joining fee / T personal
                   training (one per charged session, "ptSessionId" set); status P paid /
                   O open / F failed (card declined, never collected); "paidOn" only when paid.
                   2023 dues were billed at the 2023 price (lower than plans."monthlyFee" for some
                   plans) and January sign-ups got their first month half price.

Extract date 2024-12-31: the only scheduled PT sessions and booked classes are in January 2025.
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_gym", "fit", "gym_reader"
URL = "postgresql://gym_reader:gym_reader@127.0.0.1:5432/dev_gym"
SEED = 11
EXTRACT_DAY = dt.date(2024, 12, 31)   # "today" for the data
FIRST_DAY = dt.date(2023, 1, 1)
SCHEDULE_END = dt.date(2025, 1, 12)   # timetable and PT bookings run a little past the extract

DDL = [
    """CREATE TABLE fit."clubs" (
        "clubId" integer PRIMARY KEY,
        "clubName" varchar(60) NOT NULL,
        "city" varchar(40) NOT NULL,
        "state" char(2) NOT NULL,
        "openedOn" date NOT NULL,
        "hasPool" boolean NOT NULL,
        "is24Hours" boolean NOT NULL)""",
    """CREATE TABLE fit."plans" (
        "planId" integer PRIMARY KEY,
        "planName" varchar(40) NOT NULL,
        "monthlyFee" numeric(6, 2) NOT NULL,
        "joiningFee" numeric(6, 2) NOT NULL,
        "access" char(1) NOT NULL,
        "classesIncluded" boolean NOT NULL,
        "minTermMonths" smallint NOT NULL)""",
    """CREATE TABLE fit."members" (
        "memberId" integer PRIMARY KEY,
        "firstName" varchar(40) NOT NULL,
        "lastName" varchar(40) NOT NULL,
        "birthDate" date NOT NULL,
        "gender" char(1) NOT NULL,
        "homeClubId" integer NOT NULL REFERENCES fit."clubs" ("clubId"),
        "planId" integer NOT NULL REFERENCES fit."plans" ("planId"),
        "joinedOn" date NOT NULL,
        "status" char(1) NOT NULL,
        "cancelledOn" date,
        "referredBy" integer)""",
    """CREATE TABLE fit."classes" (
        "classId" integer PRIMARY KEY,
        "clubId" integer NOT NULL,
        "classType" varchar(20) NOT NULL,
        "instructorName" varchar(60) NOT NULL,
        "startsAt" timestamp NOT NULL,
        "durationMin" smallint NOT NULL,
        "capacity" smallint NOT NULL)""",
    """CREATE TABLE fit."bookings" (
        "bookingId" integer PRIMARY KEY,
        "classId" integer NOT NULL REFERENCES fit."classes" ("classId"),
        "memberId" integer NOT NULL,
        "bookedAt" timestamp NOT NULL,
        "status" char(1) NOT NULL)""",
    """CREATE TABLE fit."checkIns" (
        "checkInId" integer PRIMARY KEY,
        "memberId" integer NOT NULL REFERENCES fit."members" ("memberId"),
        "clubId" integer NOT NULL,
        "checkInAt" timestamp NOT NULL,
        "checkOutAt" timestamp)""",
    """CREATE TABLE fit."ptSessions" (
        "ptSessionId" integer PRIMARY KEY,
        "memberId" integer NOT NULL REFERENCES fit."members" ("memberId"),
        "clubId" integer NOT NULL,
        "trainerName" varchar(60) NOT NULL,
        "sessionAt" timestamp NOT NULL,
        "durationMin" smallint NOT NULL,
        "status" char(1) NOT NULL)""",
    """CREATE TABLE fit."invoices" (
        "invoiceId" integer PRIMARY KEY,
        "memberId" integer NOT NULL,
        "kind" char(1) NOT NULL,
        "ptSessionId" integer REFERENCES fit."ptSessions" ("ptSessionId"),
        "issuedOn" date NOT NULL,
        "amount" numeric(8, 2) NOT NULL,
        "status" char(1) NOT NULL,
        "paidOn" date)""",
]
TABLE_COMMENTS = {
    "clubs": "One row per club (gym location)",
    "plans": "Membership plans; monthlyFee is the current (2024) price",
    "members": "One row per member whose membership was live at any time since 2023-01-01",
    "classes": "Group-class timetable: one row per scheduled class",
    "bookings": "A member's booking of a group class",
    "checkIns": "One row per visit: the member scanned in at a club's front desk",
    "ptSessions": "Personal-training sessions booked with a trainer",
    "invoices": "Charges billed to members (dues, joining fees, personal training)",
}
COLUMN_COMMENTS = {
    ("plans", "access"): "S = home club only, A = all clubs",
    ("plans", "minTermMonths"): "minimum contract length in months; 0 = month-to-month",
    ("members", "gender"): "F = female, M = male, X = other / not stated",
    ("members", "status"): "A = active, F = frozen (membership paused, not billed), C = cancelled",
    ("members", "cancelledOn"): "date the membership ended; NULL unless status = C",
    ("members", "referredBy"): "memberId of the member who referred this one; NULL if not referred",
    ("classes", "instructorName"): "instructor's full name",
    ("bookings", "status"): "B = booked (class still to come), A = attended, N = no-show, C = cancelled by the member",
    ("checkIns", "checkOutAt"): "NULL when the member did not scan out",
    ("ptSessions", "trainerName"): "personal trainer's full name",
    ("ptSessions", "status"): "S = scheduled (upcoming), C = completed, N = no-show (still charged), X = cancelled (not charged)",
    ("invoices", "kind"): "M = monthly membership dues, J = joining fee, T = personal training session",
    ("invoices", "ptSessionId"): "the personal-training session charged (kind T only)",
    ("invoices", "amount"): "amount billed, USD",
    ("invoices", "status"): "P = paid, O = open (not yet paid), F = failed (card declined, not collected)",
    ("invoices", "paidOn"): "date the payment was collected; NULL unless status = P",
}

CLUBS = [  # id, name, city, opened, pool, 24h, size weight
    (1, "Downtown Denver", "Denver", dt.date(2012, 5, 1), True, True, 1.45),
    (2, "Highlands", "Denver", dt.date(2016, 9, 12), False, False, 1.0),
    (3, "Boulder Pearl Street", "Boulder", dt.date(2014, 2, 3), True, False, 1.1),
    (4, "Aurora Southlands", "Aurora", dt.date(2018, 4, 16), False, True, 0.9),
    (5, "Colorado Springs North", "Colorado Springs", dt.date(2019, 10, 7), True, False, 0.85),
    (6, "Fort Collins Old Town", "Fort Collins", dt.date(2024, 3, 2), False, False, 0.9),
]
PLANS = [  # id, name, fee 2024, fee 2023, joining fee, access, classes, min term, weight, monthly churn
    (1, "Basic", 29.99, 27.99, 49.00, "S", False, 0, 30, 0.030),
    (2, "Off-Peak", 19.99, 19.99, 0.00, "S", False, 0, 11, 0.042),
    (3, "Student", 22.99, 22.99, 0.00, "S", False, 0, 9, 0.036),
    (4, "Plus", 44.99, 39.99, 49.00, "A", False, 0, 22, 0.021),
    (5, "Premium", 69.99, 64.99, 0.00, "A", True, 0, 17, 0.017),
    (6, "Premium Annual", 59.99, 59.99, 0.00, "A", True, 12, 11, 0.010),
]
SIGNUP_SEASON = {1: 2.2, 2: 1.3, 3: 1.1, 4: 1.0, 5: 0.95, 6: 0.8, 7: 0.75, 8: 0.9, 9: 1.3, 10: 1.0,
                 11: 0.8, 12: 0.55}
VISIT_SEASON = {1: 1.3, 2: 1.15, 3: 1.05, 4: 1.0, 5: 0.95, 6: 0.88, 7: 0.85, 8: 0.9, 9: 1.05, 10: 1.0,
                11: 0.95, 12: 0.78}
VISIT_WEEKDAY = [1.25, 1.15, 1.1, 1.0, 0.82, 0.78, 0.65]
# class type: capacity, minutes, base demand (share of capacity booked), no-show factor
CLASS_TYPES = {
    "Spin": (20, 45, 0.85, 1.3), "HIIT": (16, 45, 0.8, 1.45), "Yoga": (25, 60, 0.72, 0.7),
    "Pilates": (14, 50, 0.9, 0.6), "Zumba": (30, 55, 0.5, 1.0), "Boxing": (12, 50, 0.75, 1.1),
    "BodyPump": (24, 55, 0.62, 1.0), "Aqua Fit": (15, 45, 0.6, 0.8),
}
SLOT_TIMES = [(0, 6, 0), (2, 6, 0), (4, 6, 0), (1, 6, 15), (3, 6, 15), (0, 12, 15), (2, 12, 15),
              (1, 12, 15), (0, 17, 30), (1, 17, 30), (2, 17, 30), (3, 17, 30), (4, 17, 30), (0, 18, 45),
              (1, 18, 45), (2, 18, 45), (3, 18, 45), (5, 9, 0), (5, 10, 15), (6, 10, 0)]
# club -> (instructors of group classes, personal trainers with their rate for 60 minutes)
STAFF = {
    1: (["Jordan Blake", "Tess Morgan", "Chris Alvarez"], {"Jordan Blake": 95, "Chris Alvarez": 80, "Maya Singh": 85}),
    2: (["Nina Petrova", "Luis Romero"], {"Tyler Brooks": 75, "Nina Petrova": 80}),
    3: (["Lena Ortiz", "Sam Whitaker", "Priya Raman"], {"Sam Whitaker": 90, "Lena Ortiz": 85}),
    4: (["Dev Patel", "Chris Nguyen"], {"Chris Nguyen": 70, "Dev Patel": 72}),
    5: (["Hannah Cole", "Marcus Reed"], {"Hannah Cole": 78, "Marcus Reed": 74}),
    6: (["Ava Lindgren", "Tess Morgan"], {"Ava Lindgren": 80}),
}
TRAINER_DEMAND = {"Jordan Blake": 2.6, "Maya Singh": 1.0, "Chris Alvarez": 0.8, "Tyler Brooks": 1.0,
                  "Nina Petrova": 0.9, "Sam Whitaker": 1.2, "Lena Ortiz": 0.9, "Chris Nguyen": 1.0,
                  "Dev Patel": 0.8, "Hannah Cole": 1.1, "Marcus Reed": 0.8, "Ava Lindgren": 1.0}
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac",
         "Brooke", "Tyler", "Kayla", "Austin", "Megan", "Ryan", "Jasmine", "Cody", "Paige", "Logan"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright",
        "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz",
        "Singh", "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer",
        "Sandoval", "Begay", "Romero", "Vigil", "Archuleta", "Lucero"]


def day_range(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def poisson(r: random.Random, lam: float) -> int:
    limit, k, p = math.exp(-lam), 0, r.random()
    while p > limit:
        k += 1
        p *= r.random()
    return k


def month_add(y: int, m: int, k: int):
    m0 = m - 1 + k
    return y + m0 // 12, m0 % 12 + 1


def build():
    r = random.Random(SEED)
    clubs = [(cid, name, city, "CO", opened, pool, h24) for cid, name, city, opened, pool, h24, _ in CLUBS]
    opened = {c[0]: c[3] for c in CLUBS}
    club_w = {c[0]: c[6] for c in CLUBS}
    h24 = {c[0]: c[5] for c in CLUBS}
    pool_club = {c[0]: c[4] for c in CLUBS}
    plans = [(p[0], p[1], p[2], p[4], p[5], p[6], p[7]) for p in PLANS]
    plan = {p[0]: dict(fee=p[2], fee23=p[3], join=p[4], access=p[5], classes=p[6], term=p[7], w=p[8], churn=p[9])
            for p in PLANS}

    # ---- members: long-standing ones (joined before 2023) and the 2023-2024 sign-ups
    joins = []
    for _ in range(950):
        while True:
            d = dt.date(2016, 1, 1) + dt.timedelta(days=int(r.betavariate(2.6, 1.0) * 2556))
            cands = [c for c in club_w if opened[c] <= d]
            if cands:
                break
        joins.append((d, r.choices(cands, weights=[club_w[c] for c in cands])[0]))
    for day in day_range(FIRST_DAY, EXTRACT_DAY):
        for cid, w in club_w.items():
            if day < opened[cid]:
                continue
            lam = 0.23 * w * SIGNUP_SEASON[day.month] * (0.7 if day.weekday() == 6 else 1.0)
            if cid == 6 and day < opened[6] + dt.timedelta(days=30):
                lam *= 3.5  # opening rush
            for _ in range(poisson(r, lam)):
                joins.append((day, cid))
    joins.sort(key=lambda j: (j[0], j[1]))

    members = []
    for i, (joined, cid) in enumerate(joins, start=1):
        age = r.triangular(18, 72, 29)
        birth = joined - dt.timedelta(days=int(age * 365.25))
        weights = [p[8] for p in PLANS]
        if age < 25:
            weights[2] *= 5
        else:
            weights[2] = 0.0
        if age > 55:
            weights[1] *= 3
        pid = r.choices([p[0] for p in PLANS], weights=weights)[0]
        ghost = r.random() < 0.24
        lam = 0.1 if ghost else r.gammavariate(2.0, 0.42)
        members.append(dict(id=i, first=r.choice(FIRST), last=r.choice(LAST), birth=birth,
                            gender=r.choices("FMX", weights=[49, 49, 2])[0], club=cid, plan=pid, joined=joined,
                            ghost=ghost, lam=lam, ref=None, end=None, status="A", freeze=None,
                            class_w=(0.0 if r.random() < 0.22 else r.paretovariate(2.0)) if plan[pid]["classes"] else 0.0))

    # churn, month by month from the first billing month in the data
    for m in members:
        p = plan[m["plan"]]
        start = max(m["joined"], FIRST_DAY)
        y, mo = start.year, start.month
        while (y, mo) <= (2024, 12):
            months_in = (y - m["joined"].year) * 12 + mo - m["joined"].month
            h = p["churn"] * (1.7 if m["ghost"] else 1.0)
            if m["joined"].month == 1 and m["joined"] >= FIRST_DAY and months_in < 4:
                h *= 2.0  # New Year's resolution sign-ups drop out early
            if m["plan"] == 3 and mo in (5, 6):
                h *= 2.5  # students leave for the summer
            if p["term"] and months_in < p["term"]:
                h = 0.0
            if r.random() < h:
                lo = dt.date(y, mo, 1) if (y, mo) != (start.year, start.month) else start + dt.timedelta(days=10)
                ny, nm = month_add(y, mo, 1)
                hi = dt.date(ny, nm, 1) - dt.timedelta(days=1)
                if lo <= hi:
                    m["end"] = lo + dt.timedelta(days=r.randint(0, (hi - lo).days))
                    m["status"] = "C"
                    break
            y, mo = month_add(y, mo, 1)
    for m in members:
        if m["status"] == "A" and r.random() < 0.05:
            m["status"] = "F"
            m["freeze"] = dt.date(2024, 9, 1) + dt.timedelta(days=r.randint(0, 105))
            if m["freeze"] <= m["joined"]:
                m["status"], m["freeze"] = "A", None

    def last_day(m):
        ends = [EXTRACT_DAY]
        if m["end"]:
            ends.append(m["end"] - dt.timedelta(days=1))
        if m["freeze"]:
            ends.append(m["freeze"] - dt.timedelta(days=1))
        return min(ends)

    for m in members:
        m["first_day"] = max(m["joined"], FIRST_DAY)
        m["last_day"] = last_day(m)
        m["book_until"] = SCHEDULE_END if m["status"] == "A" else m["last_day"]

    # referrals: some 2023-2024 sign-ups were referred by a member of the same club
    ambassadors = []
    by_club = {c: [] for c in club_w}
    for m in members:
        by_club[m["club"]].append(m)
    for c in club_w:
        engaged = [m for m in by_club[c] if not m["ghost"] and m["joined"] < FIRST_DAY and m["status"] != "C"]
        if engaged:
            ambassadors.append(r.choice(engaged)["id"])
    super_ambassador, star = min(ambassadors), 120.0  # one member brings in friends all the time
    for m in members:
        if m["joined"] < FIRST_DAY or r.random() >= 0.13:
            continue
        cands = [o for o in by_club[m["club"]] if o["joined"] < m["joined"] - dt.timedelta(days=30)
                 and (o["end"] is None or o["end"] > m["joined"]) and o["id"] != m["id"]]
        if not cands:
            continue
        w = [(star if o["id"] == super_ambassador else 20.0 if o["id"] in ambassadors else 1.0)
             * (0.2 if o["ghost"] else 1.0) for o in cands]
        m["ref"] = r.choices(cands, weights=w)[0]["id"]

    # ---- check-ins (visits)
    open_clubs = lambda d: [c for c in club_w if opened[c] <= d]  # noqa: E731
    visits = {}  # member id -> {date: (club, in, out)}
    for m in members:
        mv = visits.setdefault(m["id"], {})
        for day in day_range(m["first_day"], m["last_day"]):
            lam = m["lam"] * VISIT_SEASON[day.month] * VISIT_WEEKDAY[day.weekday()]
            if (day - m["joined"]).days < 42:
                lam *= 1.5  # keen at the start
            if m["end"] and (m["end"] - day).days < 75:
                lam *= 0.35  # fading out before cancelling
            if r.random() >= lam / 7:
                continue
            cid = m["club"]
            if plan[m["plan"]]["access"] == "A" and r.random() < 0.16:
                others = [c for c in open_clubs(day) if c != cid]
                cid = r.choices(others, weights=[club_w[c] * (1.8 if c == 1 else 1.0) for c in others])[0]
            if m["plan"] == 2:  # off-peak: 9-16 on weekdays
                hour = r.randint(9, 15) if day.weekday() < 5 else r.randint(8, 17)
            else:
                u = r.random()
                if h24[cid] and u < 0.04:
                    hour = r.choice([22, 23, 0, 1, 4, 5])
                elif u < 0.32:
                    hour = r.choice([5, 6, 6, 7, 7, 8]) if day.weekday() < 5 else r.choice([7, 8, 9, 10])
                elif u < 0.45:
                    hour = r.choice([11, 12, 12, 13])
                elif u < 0.9:
                    hour = r.choice([16, 17, 17, 18, 18, 18, 19, 19, 20])
                else:
                    hour = r.choice([9, 10, 14, 15, 21])
            if hour < 5 and not h24[cid]:
                hour = 6
            t_in = dt.datetime.combine(day, dt.time(hour, r.randint(0, 59), r.randint(0, 59)))
            t_out = None
            if r.random() >= 0.07:
                t_out = t_in + dt.timedelta(minutes=max(12, int(r.gauss(64 if day.weekday() >= 5 else 58, 17))),
                                            seconds=r.randint(0, 59))
            mv[day] = (cid, t_in, t_out)

    # ---- class timetable
    classes = []
    timetable = {}
    for cid in club_w:
        types = [t for t in CLASS_TYPES if t != "Aqua Fit" or pool_club[cid]]
        slots = sorted(r.sample(SLOT_TIMES, 8 if cid in (1, 3) else 6))
        instructors = STAFF[cid][0]
        timetable[cid] = [(wd, hh, mm, r.choice(types), instructors[k % len(instructors)]) for k, (wd, hh, mm) in
                          enumerate(slots)]
    # Spin is the signature class: make sure each club runs some
    for cid in club_w:
        wd, hh, mm, _, ins = timetable[cid][0]
        timetable[cid][0] = (wd, hh, mm, "Spin", ins)
    for day in day_range(dt.date(2023, 1, 2), SCHEDULE_END):
        if (day.month, day.day) in ((12, 25), (1, 1), (7, 4), (11, 28)):
            continue
        for cid in club_w:
            if day < opened[cid]:
                continue
            for wd, hh, mm, ctype, ins in timetable[cid]:
                if wd != day.weekday():
                    continue
                if r.random() < 0.02:
                    ins = r.choice(STAFF[cid][0])  # cover
                cap, dur, _, _ = CLASS_TYPES[ctype]
                classes.append([None, cid, ctype, ins, dt.datetime.combine(day, dt.time(hh, mm)), dur, cap])
    classes.sort(key=lambda c: (c[4], c[1]))
    for k, c in enumerate(classes, start=1):
        c[0] = k

    # ---- bookings
    class_members = {c: [m for m in members if m["class_w"] > 0 and m["club"] == c] for c in club_w}
    travellers = [m for m in members if m["class_w"] > 0]
    bookings = []
    extra_visits = []
    for cls in classes:
        cid_, cid, ctype, ins, starts, dur, cap = cls
        day = starts.date()
        pool = [m for m in class_members[cid] if m["first_day"] <= day <= m["book_until"]]
        if not pool:
            continue
        cap_, dur_, demand, ns = CLASS_TYPES[ctype]
        tf = 0.75 if starts.hour == 6 else (0.6 if starts.hour == 12 else (1.1 if starts.hour >= 17 else 1.0))
        mean = 0.85 * cap * demand * tf * (1.15 if day.month in (1, 2) else (0.85 if day.month in (7, 12) else 1.0))
        n = max(0, min(cap, int(round(r.gauss(mean, cap * 0.12)))))
        n_cancel = poisson(r, 0.12 * n)
        chosen = []
        candidates = list(pool)
        if r.random() < 0.3:
            away = [m for m in travellers if m["club"] != cid and m["first_day"] <= day <= m["book_until"]]
            candidates += r.sample(away, min(3, len(away)))
        weights = [m["class_w"] for m in candidates]
        for _ in range(min(n + n_cancel, len(candidates))):
            k = r.choices(range(len(candidates)), weights=weights)[0]
            chosen.append(candidates[k])
            weights[k] = 0.0
            if not any(weights):
                break
        statuses = ["C"] * min(n_cancel, len(chosen)) + ["?"] * max(0, len(chosen) - n_cancel)
        r.shuffle(statuses)
        for m, st in zip(chosen, statuses):
            booked_at = starts - dt.timedelta(minutes=r.randint(45, 7 * 24 * 60))
            if st == "?":
                if day > EXTRACT_DAY:
                    st = "B"
                else:
                    p_ns = 0.07 * ns * (1.6 if starts.hour == 6 else 1.0) * (1.35 if starts.weekday() == 0 else 1.0)
                    st = "N" if r.random() < p_ns else "A"
            bookings.append((booked_at, cid_, m["id"], st))
            if st == "A":
                extra_visits.append((m["id"], cid, starts, dur))
    bookings.sort(key=lambda b: (b[0], b[1], b[2]))
    bookings = [(k, b[1], b[2], b[0], b[3]) for k, b in enumerate(bookings, start=1)]
    # attended classes are visits too: add the scan-in when the member has none that day
    for mid, cid, starts, dur in extra_visits:
        mv = visits[mid]
        if starts.date() in mv:
            continue
        t_in = starts - dt.timedelta(minutes=r.randint(4, 20), seconds=r.randint(0, 59))
        t_out = starts + dt.timedelta(minutes=dur + r.randint(3, 35)) if r.random() >= 0.07 else None
        mv[starts.date()] = (cid, t_in, t_out)

    # ---- personal training
    pt = []
    for m in members:
        p_client = (0.13 if plan[m["plan"]]["classes"] else 0.06) * (0.3 if m["ghost"] else 1.0)
        blocks = 0
        while r.random() < (p_client if blocks == 0 else 0.3) and blocks < 3:
            blocks += 1
            trainers = list(STAFF[m["club"]][1])
            trainer = r.choices(trainers, weights=[TRAINER_DEMAND[t] for t in trainers])[0]
            span = (m["last_day"] - m["first_day"]).days
            if span < 14:
                break
            start = m["first_day"] + dt.timedelta(days=r.randint(0, span))
            n = r.randint(6, 20)
            step = r.choice([7, 7, 7, 3, 4])
            hour = r.choice([6, 7, 8, 12, 17, 18, 19])
            dur = 60 if r.random() < 0.75 else 30
            day = start
            for _ in range(n):
                if day > SCHEDULE_END or (day > m["last_day"] and day <= EXTRACT_DAY) \
                        or (day > EXTRACT_DAY and m["status"] != "A"):
                    break
                at = dt.datetime.combine(day, dt.time(hour, r.choice([0, 0, 30])))
                if day > EXTRACT_DAY:
                    st = "S"
                else:
                    u = r.random()
                    st = "X" if u < 0.09 else ("N" if u < 0.14 else "C")
                pt.append([None, m["id"], m["club"], trainer, at, dur, st])
                if st == "C" and day not in visits[m["id"]]:
                    t_in = at - dt.timedelta(minutes=r.randint(3, 15))
                    visits[m["id"]][day] = (m["club"], t_in, at + dt.timedelta(minutes=dur + r.randint(5, 30)))
                day += dt.timedelta(days=step + (1 if step == 3 and r.random() < 0.5 else 0))
    pt.sort(key=lambda s: (s[4], s[1]))
    for k, s in enumerate(pt, start=1):
        s[0] = k

    # ---- invoices
    by_id = {m["id"]: m for m in members}
    raw_inv = []

    def pay(m, issued):
        fail = 0.022 * (1.5 if m["ghost"] else 1.0)
        if m["end"] and (m["end"] - issued).days < 70:
            fail *= 5  # declined cards before a cancellation
        lag = r.choices([0, 0, 0, 1, 1, 2, 3, 5], k=1)[0]
        if r.random() < fail:
            return "F", None
        if issued + dt.timedelta(days=lag) > EXTRACT_DAY:
            return "O", None
        return "P", issued + dt.timedelta(days=lag)

    for m in members:
        p = plan[m["plan"]]
        if m["joined"] >= FIRST_DAY and p["join"] > 0 and m["ref"] is None and m["joined"].month not in (1, 9):
            raw_inv.append((m["joined"], m["id"], "J", None, p["join"]))
        bday = min(m["joined"].day, 28)
        y, mo = FIRST_DAY.year, FIRST_DAY.month
        while (y, mo) <= (2024, 12):
            issued = dt.date(y, mo, bday)
            if (y, mo) == (m["joined"].year, m["joined"].month):
                issued = m["joined"]
            if m["joined"] <= issued <= m["last_day"]:
                fee = p["fee"] if y == 2024 else p["fee23"]
                if issued == m["joined"] and m["joined"].month == 1:
                    fee = round(fee / 2, 2)  # New Year promo: first month half price
                raw_inv.append((issued, m["id"], "M", None, fee))
            y, mo = month_add(y, mo, 1)
    for s in pt:
        if s[6] in ("C", "N"):
            rate = STAFF[s[2]][1][s[3]]
            amount = rate if s[5] == 60 else round(rate * 0.55, 2)
            raw_inv.append((s[4].date(), s[1], "T", s[0], amount))
    raw_inv.sort(key=lambda v: (v[0], v[1], v[2], v[3] or 0))
    invoices = []
    for k, (issued, mid, kind, sid, amount) in enumerate(raw_inv, start=1):
        st, paid_on = pay(by_id[mid], issued)
        invoices.append((k, mid, kind, sid, issued, amount, st, paid_on))

    # ---- rows
    member_rows = [(m["id"], m["first"], m["last"], m["birth"], m["gender"], m["club"], m["plan"], m["joined"],
                    m["status"], m["end"], m["ref"]) for m in members]
    all_visits = sorted(((v[1], mid, v[0], v[2]) for mid, mv in visits.items() for v in mv.values()),
                        key=lambda v: (v[0], v[1]))
    checkins = [(k, mid, cid, t_in, t_out) for k, (t_in, mid, cid, t_out) in enumerate(all_visits, start=1)]
    return {"clubs": clubs, "plans": plans, "members": member_rows, "classes": [tuple(c) for c in classes],
            "bookings": bookings, "checkIns": checkins, "ptSessions": [tuple(s) for s in pt],
            "invoices": invoices}


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
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Fitness club chain: members, visits, classes, personal "
                    f"training, billing, 2023-2024 (extract of 2024-12-31)'")
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
    print(f"loaded the synthetic fitness club chain into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it;"
                                      " identifiers are quoted camelCase)")


if __name__ == "__main__":
    main()
