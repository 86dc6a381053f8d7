#!/usr/bin/env python3
"""A synthetic residential solar installer in California's Central Valley (2022-2024) on PostgreSQL,
schema `field`, camelCase quoted identifiers, declared primary and foreign keys.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_solar if missing, drops and rebuilds schema "field", loads eight tables
generated deterministically with random.Random(29), and creates (or resets) the read-only login
role solar_reader / solar_reader. Idempotent: the same rows on every run.

  field.crews                8 install crews (two are both called "Valley Crew": Fresno and Modesto;
                             "Sunrise Crew" disbanded 2023-06-30)
  field.equipment            panels and inverters in one table; "ratedOutput" is W for a panel and
                             kW for an inverter
  field.leads                every homeowner who ever enquired (the business says "customers" once
                             they signed); test rows ("isTest") and merged duplicates ("deletedAt")
  field.quotes               one row per quote version; price in CENTS; status code D/S/R/A/L/E
  field."installJobs"        one row per signed contract ("installs", "projects"); status code
                             10/20/30/40/90, cancelled jobs kept
  field.permits              building / electrical / utility permits, first inspection date and result
  field."productionReadings" monthly kWh per energized system; "readingMonth" is the production
                             month, "recordedAt" when the reading landed
  field.referrals            customer-to-homeowner referrals and the reward (USD)

The extract is as of 2025-01-10.
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_solar", "field", "solar_reader"
URL = "postgresql://solar_reader:solar_reader@127.0.0.1:5432/dev_solar"
SEED = 29
EXTRACT_DAY = dt.date(2025, 1, 10)
FIRST_DAY, LAST_DAY = dt.date(2022, 1, 1), dt.date(2024, 12, 31)

DDL = [
    """CREATE TABLE field.crews (
        "crewId" integer PRIMARY KEY,
        "crewName" varchar(40) NOT NULL,
        "homeBase" varchar(40) NOT NULL,
        "leadInstaller" varchar(60) NOT NULL,
        "formedOn" date NOT NULL,
        "disbandedOn" date)""",
    """CREATE TABLE field.equipment (
        "equipmentId" integer PRIMARY KEY,
        "kind" varchar(8) NOT NULL,
        "brand" varchar(30) NOT NULL,
        "model" varchar(30) NOT NULL,
        "ratedOutput" numeric(7, 2) NOT NULL,
        "warrantyYears" smallint NOT NULL)""",
    """CREATE TABLE field.leads (
        "leadId" integer PRIMARY KEY,
        "firstName" varchar(40) NOT NULL,
        "lastName" varchar(40) NOT NULL,
        "email" varchar(80) NOT NULL,
        "city" varchar(40) NOT NULL,
        "leadSource" varchar(4) NOT NULL,
        "createdAt" timestamp NOT NULL,
        "isTest" boolean NOT NULL DEFAULT false,
        "deletedAt" timestamp)""",
    """CREATE TABLE field.quotes (
        "quoteId" integer PRIMARY KEY,
        "leadId" integer NOT NULL REFERENCES field.leads ("leadId"),
        "version" smallint NOT NULL,
        "panelId" integer NOT NULL REFERENCES field.equipment ("equipmentId"),
        "panelCount" smallint NOT NULL,
        "inverterId" integer NOT NULL REFERENCES field.equipment ("equipmentId"),
        "quotedPrice" bigint NOT NULL,
        "status" char(1) NOT NULL,
        "issuedOn" date NOT NULL,
        "decidedOn" date)""",
    """CREATE TABLE field."installJobs" (
        "jobId" integer PRIMARY KEY,
        "quoteId" integer NOT NULL UNIQUE REFERENCES field.quotes ("quoteId"),
        "crewId" integer NOT NULL REFERENCES field.crews ("crewId"),
        "panelId" integer NOT NULL REFERENCES field.equipment ("equipmentId"),
        "panelCount" smallint NOT NULL,
        "inverterId" integer NOT NULL REFERENCES field.equipment ("equipmentId"),
        "status" smallint NOT NULL,
        "soldOn" date NOT NULL,
        "scheduledStart" date,
        "completedOn" date,
        "ptoDate" date,
        "cancelledOn" date)""",
    """CREATE TABLE field.permits (
        "permitId" integer PRIMARY KEY,
        "jobId" integer NOT NULL REFERENCES field."installJobs" ("jobId"),
        "permitType" char(3) NOT NULL,
        "jurisdiction" varchar(40) NOT NULL,
        "submittedOn" date NOT NULL,
        "approvedOn" date,
        "inspectionDate" date,
        "inspectionResult" char(1),
        "fee" numeric(7, 2) NOT NULL)""",
    """CREATE TABLE field."productionReadings" (
        "readingId" integer PRIMARY KEY,
        "jobId" integer NOT NULL REFERENCES field."installJobs" ("jobId"),
        "readingMonth" date NOT NULL,
        "kwhProduced" numeric(8, 1) NOT NULL,
        "source" char(1) NOT NULL,
        "recordedAt" timestamp NOT NULL,
        UNIQUE ("jobId", "readingMonth"))""",
    """CREATE TABLE field.referrals (
        "referralId" integer PRIMARY KEY,
        "referrerLeadId" integer NOT NULL REFERENCES field.leads ("leadId"),
        "referredLeadId" integer NOT NULL UNIQUE REFERENCES field.leads ("leadId"),
        "referredOn" date NOT NULL,
        "rewardStatus" varchar(2) NOT NULL,
        "rewardAmount" numeric(7, 2) NOT NULL)""",
]
TABLE_COMMENTS = {
    "crews": "Install crews; each works out of one home base",
    "equipment": "Catalogue of the panels and inverters we install",
    "leads": "Every homeowner who enquired; a lead with a signed contract is a customer",
    "quotes": "Proposals sent to leads; a lead can get several versions",
    "installJobs": "One row per signed contract (an install / project), including cancelled ones",
    "permits": "Permits pulled for an install job, with the first inspection",
    "productionReadings": "Monthly energy production of each energized system",
    "referrals": "A customer referring another homeowner, and the referral reward",
}
COLUMN_COMMENTS = {
    ("crews", "disbandedOn"): "NULL while the crew is active",
    ("crews", "homeBase"): "city the crew works out of",
    ("equipment", "kind"): "PANEL or INVERTER",
    ("equipment", "ratedOutput"): "PANEL: watts DC per module (W); INVERTER: kilowatts AC (kW)",
    ("leads", "leadSource"): "WEB = website form, DOOR = door-to-door canvassing, REF = customer referral, "
                             "EVT = home show / event, PART = partner marketplace",
    ("leads", "isTest"): "true for QA / training records, not real homeowners",
    ("leads", "deletedAt"): "set when the lead was merged into a duplicate; treat as deleted",
    ("leads", "city"): "city of the homeowner's property",
    ("quotes", "quotedPrice"): "total contract price quoted, in cents (USD x 100)",
    ("quotes", "status"): "D = draft (never sent), S = sent, awaiting answer, R = revised (replaced by a newer "
                          "version), A = accepted, L = lost / declined, E = expired",
    ("quotes", "decidedOn"): "date the homeowner accepted or declined (or the quote expired)",
    ("quotes", "version"): "1 for the first proposal to a lead, 2, 3 ... for revisions",
    ("installJobs", "status"): "10 = scheduled, 20 = install in progress, 30 = installed, awaiting PTO, "
                               "40 = energized (PTO granted, complete), 90 = cancelled",
    ("installJobs", "soldOn"): "date the contract was signed (the quote was accepted)",
    ("installJobs", "completedOn"): "date the crew finished the install on the roof",
    ("installJobs", "ptoDate"): "permission to operate from the utility: the system is switched on",
    ("installJobs", "panelCount"): "number of panel modules actually installed (can differ from the quote)",
    ("permits", "permitType"): "BLD = building, ELE = electrical, UTL = utility interconnection "
                               "(UTL has no city inspection)",
    ("permits", "jurisdiction"): "city / county office that issued the permit",
    ("permits", "inspectionDate"): "date of the first inspection; NULL until inspected",
    ("permits", "inspectionResult"): "result of the first inspection: P = passed, F = failed "
                                     "(a failed one is re-inspected, not recorded here)",
    ("permits", "fee"): "permit fee, USD",
    ("productionReadings", "readingMonth"): "first day of the month the energy was produced in",
    ("productionReadings", "recordedAt"): "when the reading was ingested (early the following month)",
    ("productionReadings", "kwhProduced"): "energy produced in the month, kWh",
    ("productionReadings", "source"): "M = meter reading, E = estimated (monitoring offline)",
    ("referrals", "referrerLeadId"): "the existing customer who made the referral",
    ("referrals", "referredLeadId"): "the homeowner who was referred (a lead with source REF)",
    ("referrals", "rewardStatus"): "PN = pending, PD = paid, NQ = not qualified (referral never installed)",
    ("referrals", "rewardAmount"): "referral reward, USD",
}

CREWS = [  # id, name, base, lead, formed, disbanded
    (1, "Sierra Crew", "Sacramento", "Marco Villanueva", dt.date(2019, 4, 1), None),
    (2, "Capitol Crew", "Sacramento", "Dana Whitlock", dt.date(2021, 2, 15), None),
    (3, "Valley Crew", "Fresno", "Luis Ortega", dt.date(2018, 9, 1), None),
    (4, "Valley Crew", "Modesto", "Kyle Brandt", dt.date(2023, 3, 1), None),
    (5, "Delta Crew", "Stockton", "Tanya Greer", dt.date(2020, 6, 1), None),
    (6, "Kern Crew", "Bakersfield", "Ray Delgado", dt.date(2019, 11, 4), None),
    (7, "Sunrise Crew", "Fresno", "Pete Sorensen", dt.date(2020, 1, 6), dt.date(2023, 6, 30)),
    (8, "Tulare Crew", "Visalia", "Ana Morales", dt.date(2021, 8, 2), None),
]
EQUIPMENT = [  # id, kind, brand, model, rated output (W for panels, kW for inverters), warranty, weight
    (1, "PANEL", "Helion", "H-400", 400, 25, 30),
    (2, "PANEL", "Helion", "H-430", 430, 25, 26),
    (3, "PANEL", "Norvik", "NV-370", 370, 20, 12),
    (4, "PANEL", "Solvance", "SV-455", 455, 30, 14),
    (5, "INVERTER", "Gridwell", "GW-5.0", 5.0, 10, 0),
    (6, "INVERTER", "Voltra", "VT-7.6", 7.6, 12, 0),
    (7, "INVERTER", "Gridwell", "GW-10", 10.0, 10, 0),
    (8, "INVERTER", "Voltra", "VT-11.4", 11.4, 12, 0),
]
CITIES = {  # weight, permit approval days, PTO days, first-inspection fail rate, yield factor, separate ELE
    "Sacramento": (25, 9, 12, 0.08, 0.96, True),
    "Fresno": (22, 14, 30, 0.12, 1.02, True),
    "Modesto": (11, 7, 10, 0.09, 0.99, False),
    "Stockton": (13, 11, 21, 0.10, 0.98, False),
    "Bakersfield": (17, 18, 34, 0.22, 1.06, False),
    "Visalia": (12, 12, 28, 0.11, 1.04, False),
}
SOURCES = {"WEB": (38, 0.21), "DOOR": (22, 0.13), "REF": (14, 0.42), "EVT": (10, 0.26), "PART": (16, 0.11)}
# share of a year's output per month, Central Valley
MONTHLY = [0.045, 0.058, 0.082, 0.096, 0.110, 0.117, 0.119, 0.111, 0.092, 0.072, 0.054, 0.044]
FIRST = ["James", "Maria", "Robert", "Jennifer", "Michael", "Linda", "David", "Patricia", "Jose", "Elizabeth",
         "Daniel", "Susan", "Carlos", "Jessica", "Juan", "Sarah", "Anthony", "Karen", "Kevin", "Nancy",
         "Brian", "Lisa", "Luis", "Angela", "Gary", "Ana", "Eric", "Rosa", "Tuan", "Mai", "Harpreet",
         "Gurpreet", "Ahmed", "Fatima", "Wei", "Priya", "Steven", "Michelle", "Jorge", "Veronica",
         "Thomas", "Emily", "Ryan", "Amanda", "Miguel", "Laura", "Hector", "Brenda", "Scott", "Diana"]
LAST = ["Garcia", "Smith", "Martinez", "Johnson", "Hernandez", "Williams", "Lopez", "Brown", "Gonzalez",
        "Jones", "Rodriguez", "Miller", "Perez", "Davis", "Sanchez", "Wilson", "Ramirez", "Anderson",
        "Torres", "Taylor", "Nguyen", "Thomas", "Flores", "Moore", "Rivera", "Jackson", "Gomez", "White",
        "Singh", "Harris", "Diaz", "Martin", "Cruz", "Thompson", "Reyes", "Lee", "Chavez", "Clark",
        "Vang", "Lewis", "Morales", "Walker", "Ortiz", "Hall", "Castillo", "Young", "Mendoza", "Allen",
        "Xiong", "Patel", "Kaur", "Tran", "Chen", "Ruiz", "Baker", "Nelson", "Gutierrez", "Hill"]
MAIL = ["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "comcast.net", "att.net", "hotmail.com"]


def crews_for(city: str, day: dt.date):
    """Crews that can take a job in `city` signed on `day` (with weights)."""
    if city == "Sacramento":
        return [(1, 1.3), (2, 1.0)]
    if city == "Fresno":
        return [(3, 1.0), (7, 0.9)] if day <= dt.date(2023, 5, 15) else [(3, 1.0)]
    if city == "Modesto":
        return [(4, 1.0)] if day >= dt.date(2023, 3, 1) else [(5, 1.0)]
    if city == "Stockton":
        return [(5, 1.0)] if day < dt.date(2023, 3, 1) else [(5, 1.0), (4, 0.35)]
    if city == "Bakersfield":
        return [(6, 1.0)]
    return [(8, 1.0), (3, 0.25)]  # Visalia: Tulare, helped by Fresno's Valley Crew


def month_start(d: dt.date) -> dt.date:
    return d.replace(day=1)


def add_month(d: dt.date) -> dt.date:
    return (d.replace(day=28) + dt.timedelta(days=5)).replace(day=1)


def build():
    r = random.Random(SEED)
    crews = [c for c in CREWS]
    equipment = [e[:6] for e in EQUIPMENT]
    watts = {e[0]: e[4] for e in EQUIPMENT if e[1] == "PANEL"}
    inverters = sorted((e[4], e[0]) for e in EQUIPMENT if e[1] == "INVERTER")
    city_names = list(CITIES)
    city_w = [CITIES[c][0] for c in city_names]
    src_names = list(SOURCES)
    src_w = [SOURCES[s][0] for s in src_names]

    leads, quotes, jobs, permits, readings, referrals = [], [], [], [], [], []
    lead_info = {}
    energized = []          # (pto date, lead id, weight) of customers who can refer
    lid = qid = jid = pid = 0

    def new_lead(day, source, city=None, test=False, first=None, last=None):
        nonlocal lid
        lid += 1
        first = first or r.choice(FIRST)
        last = last or r.choice(LAST)
        city = city or r.choices(city_names, weights=city_w)[0]
        when = dt.datetime.combine(day, dt.time(0, 0)) + dt.timedelta(minutes=r.randint(7 * 60, 21 * 60))
        if test:
            email = f"qa+{lid}@brightpathsolar.test"
        else:
            email = f"{first.lower()}.{last.lower()}{r.randint(1, 999)}@{r.choice(MAIL)}"
        leads.append([lid, first, last, email, city, source, when, test, None])
        lead_info[lid] = dict(city=city, source=source, day=day, test=test)
        return lid

    def sell(lead, day, close_p, test=False):
        """Quote a lead (1-3 versions); maybe sign; return the accepted quote or None."""
        nonlocal qid
        panel = r.choices([1, 2, 3, 4], weights=[30, 34, 18, 18] if day.year < 2024 else [18, 44, 12, 26])[0]
        count = r.randint(12, 30) if not test else r.choice([1, 99])
        n_versions = r.choices([1, 2, 3], weights=[60, 30, 10])[0]
        issued = day + dt.timedelta(days=r.randint(2, 20))
        accepted = None
        wins = r.random() < close_p
        for v in range(1, n_versions + 1):
            if v > 1:
                count = max(10, min(30, count + r.choice([-4, -2, -2, 2, 3]))) if not test else count
                issued = issued + dt.timedelta(days=r.randint(5, 15))
            if issued > LAST_DAY:
                break
            kw = count * watts[panel] / 1000
            inv = next((i for cap, i in inverters if cap * 1.2 >= kw), inverters[-1][1])
            per_watt = r.uniform(2.7, 3.4) - 0.12 * (issued.year - 2022)
            price = int(round(kw * 1000 * per_watt * 100, -2))
            qid += 1
            last = v == n_versions or (issued + dt.timedelta(days=20) > LAST_DAY)
            decided = None
            if not last:
                status = "R"
            elif r.random() < 0.03:
                status = "D"
            elif wins:
                status, decided = "A", issued + dt.timedelta(days=r.randint(1, 21))
            else:
                decided = issued + dt.timedelta(days=r.randint(3, 45))
                status = "L" if r.random() < 0.55 else "E"
                if status == "E":
                    decided = issued + dt.timedelta(days=30)
            if decided is not None and decided > EXTRACT_DAY:
                status, decided = "S", None
            if status == "A" and decided > LAST_DAY:
                status, decided = "S", None
            quotes.append((qid, lead, v, panel, count, inv, price, status, issued, decided))
            if status == "A":
                accepted = (qid, panel, count, inv, decided)
            if last:
                break
        return accepted

    def make_job(lead, acc, test=False):
        nonlocal jid, pid
        q, panel, count, inv, sold = acc
        info = lead_info[lead]
        city = info["city"]
        _, approve_days, pto_days, fail_rate, _, separate_ele = CITIES[city]
        opts = crews_for(city, sold)
        crew = r.choices([c for c, _ in opts], weights=[w for _, w in opts])[0]
        if r.random() < 0.08:
            count = max(8, count + r.choice([-2, -1, 1, 2]))
        jid += 1
        sched = sold + dt.timedelta(days=r.randint(18, 55))
        cancelled = None
        if test:
            status_pick = r.choice(["10", "30", "90"])
            done = sold + dt.timedelta(days=r.randint(5, 30))
            job = [jid, q, crew, panel, count, inv, 0, sold, sched, None, None, None]
            if status_pick == "10":
                job[6] = 10
            elif status_pick == "30":
                job[6], job[9] = 30, min(done, dt.date(2024, 12, 20))
            else:
                job[6], job[11] = 90, sold + dt.timedelta(days=3)
            jobs.append(job)
            return
        if r.random() < 0.085 + (0.05 if info["source"] == "DOOR" else 0.0):
            cancelled = sold + dt.timedelta(days=r.randint(2, 40))
            if cancelled > EXTRACT_DAY:
                cancelled = None
        if crew == 7 and sched > dt.date(2023, 6, 30):
            crew = 3
        completed = sched + dt.timedelta(days=r.choice([0, 0, 1, 1, 2]))
        # permits
        kinds = ["BLD", "ELE", "UTL"] if separate_ele else ["BLD", "UTL"]
        inspection_pass = completed
        for kind in kinds:
            pid += 1
            sub = sold + dt.timedelta(days=r.randint(1, 5))
            appr = sub + dt.timedelta(days=max(2, int(r.gauss(approve_days, approve_days * 0.3))))
            fee = {"BLD": r.choice([350, 420, 485, 512.5]), "ELE": r.choice([145, 180.75]),
                   "UTL": 145 if city in ("Fresno", "Visalia", "Bakersfield") else 0}[kind]
            insp = res = None
            if cancelled is not None:
                if appr > cancelled:
                    appr = None
            elif kind != "UTL":
                d = completed + dt.timedelta(days=r.randint(2, 10))
                if d <= EXTRACT_DAY:
                    insp = d
                    res = "F" if r.random() < fail_rate else "P"
                    ok = d if res == "P" else d + dt.timedelta(days=r.randint(8, 20))
                    inspection_pass = max(inspection_pass, ok)
                else:
                    inspection_pass = dt.date(2099, 1, 1)
            if appr is not None and appr > EXTRACT_DAY:
                appr = None
            if sub > EXTRACT_DAY:
                pid -= 1
                continue
            permits.append((pid, jid, kind, city, sub, appr, insp, res, fee))
        pto = inspection_pass + dt.timedelta(days=max(3, int(r.gauss(pto_days, pto_days * 0.3))))
        if cancelled is not None:
            status, completed_v, pto_v = 90, None, None
        elif sched > EXTRACT_DAY:
            status, completed_v, pto_v = 10, None, None
        elif completed > EXTRACT_DAY:
            status, completed_v, pto_v = 20, None, None
        elif pto > EXTRACT_DAY:
            status, completed_v, pto_v = 30, completed, None
        else:
            status, completed_v, pto_v = 40, completed, pto
        jobs.append([jid, q, crew, panel, count, inv, status, sold, sched, completed_v, pto_v, cancelled])
        if status == 40:
            kw = count * watts[panel] / 1000
            energized.append((pto, lead, r.paretovariate(1.8)))
            m = add_month(pto)
            weather = {}
            while m <= dt.date(2024, 12, 1):
                if m not in weather:
                    weather[m] = 1.0
                age = (m - pto).days / 365.25
                kwh = kw * 1620 * MONTHLY[m.month - 1] * CITIES[city][4] * (1 - 0.005 * age) * r.uniform(0.88, 1.06)
                src = "M"
                if r.random() < 0.04:
                    src, kwh = "E", round(kwh, -1)
                elif r.random() < 0.004:
                    kwh = 0.0  # inverter outage, metered zero
                rec = dt.datetime.combine(add_month(m), dt.time(2, 0)) + dt.timedelta(
                    days=r.randint(1, 8), minutes=r.randint(0, 300))
                readings.append([jid, m, round(kwh, 1), src, rec])
                m = add_month(m)

    # leads, day by day; referrals come from customers already energized
    day = FIRST_DAY
    while day <= LAST_DAY:
        season = 1.0 + 0.3 * math.sin((day.timetuple().tm_yday - 60) / 365.25 * 2 * math.pi)
        growth = 1.0 + 0.22 * (day.year - 2022)
        mean = 4.2 * season * growth * (0.55 if day.weekday() == 6 else 1.0)
        n = max(0, int(r.gauss(mean, 1.7) + 0.5))
        for _ in range(n):
            src = r.choices(src_names, weights=src_w)[0]
            referrer = None
            if src == "REF":
                pool = [(who, w) for p, who, w in energized if p < day]
                if r.random() > min(1.0, len(pool) / 200):  # few customers yet, few referrals
                    src = "WEB"
                else:
                    referrer = r.choices([who for who, _ in pool], weights=[w for _, w in pool])[0]
            city = None
            if referrer is not None and r.random() < 0.8:
                city = lead_info[referrer]["city"]
            lead = new_lead(day, src, city)
            if referrer is not None:
                referrals.append([referrer, lead, day])
            if r.random() < 0.62:
                acc = sell(lead, day, SOURCES[src][1] / 0.62 * (1.0 + 0.1 * (day.year - 2022)))
                if acc:
                    make_job(lead, acc)
            # duplicate web submissions, merged later (soft-deleted, never quoted)
            if src in ("WEB", "PART") and r.random() < 0.035:
                src_row = leads[-1]
                new_lead(day, src, src_row[4], first=src_row[1], last=src_row[2])
                leads[-1][3] = src_row[3]
                leads[-1][8] = leads[-1][6] + dt.timedelta(days=r.randint(1, 20), hours=r.randint(0, 8))
        # QA records, a handful a year
        if r.random() < 0.013:
            name = r.choice([("Test", "Lead"), ("QA", "Tester"), ("Test", "Customer"), ("Demo", "Homeowner")])
            lead = new_lead(day, r.choice(["WEB", "DOOR"]), test=True, first=name[0], last=name[1])
            acc = sell(lead, day, 0.9, test=True)
            if acc:
                make_job(lead, acc, test=True)
        day += dt.timedelta(days=1)

    # referral rewards
    lead_job = {}
    quote_lead = {q[0]: q[1] for q in quotes}
    for j in jobs:
        lead_job[quote_lead[j[1]]] = j
    ref_rows = []
    for i, (referrer, referred, on) in enumerate(referrals, 1):
        j = lead_job.get(referred)
        if j is not None and j[6] in (30, 40):
            status, amount = "PD", 500.0 if on >= dt.date(2023, 1, 1) else 300.0
            if j[6] == 30:
                status = "PN"
        elif j is not None and j[6] in (10, 20):
            status, amount = "PN", 500.0
        elif (EXTRACT_DAY - on).days < 90:
            status, amount = "PN", 500.0
        else:
            status, amount = "NQ", 0.0
        ref_rows.append((i, referrer, referred, on, status, amount))

    readings.sort(key=lambda x: (x[1], x[0]))
    reading_rows = [(i, *row) for i, row in enumerate(readings, 1)]
    return {"crews": crews, "equipment": equipment, "leads": [tuple(row) for row in leads], "quotes": quotes,
            "installJobs": [tuple(j) for j in jobs], "permits": permits, "productionReadings": reading_rows,
            "referrals": ref_rows}


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
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Residential solar installer: leads, quotes, install jobs, "
                    f"permits, production, referrals, 2022-2024 (extract of 2025-01-10)'")
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
            counts[f'{SCHEMA}."{table}"' if table != table.lower() else f"{SCHEMA}.{table}"] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic solar installer into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()
