#!/usr/bin/env python3
"""A synthetic network of outpatient clinics (2022-2024) on PostgreSQL, schema `care`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_clinic if missing, drops and rebuilds schema "care", loads seven tables
generated deterministically with random.Random(5), and creates (or resets) the read-only login
role clinic_reader / clinic_reader. Idempotent: the same rows on every run.

Naming: snake_case, every non-key column carries a short table prefix (cln_, doc_, pat_, ins_,
appt_, rx_, clm_); keys are <entity>_id. Primary keys are declared, foreign keys are NOT
(they are implied by the *_id names). Code columns say what their codes mean in COMMENT ON COLUMN.

  care.clinics        6 clinics in 5 Oregon cities (Portland has two; Medford opened 2023-07-01)
  care.doctors        one row per doctor: specialty, home clinic, hire date
  care.insurers       insurers (patients with no insurer pay themselves: no claims)
  care.patients       birth date, sex (F/M/X), city, insurer, registration date
  care.appointments   scheduled time, status code (B/C/X/N), visit type (NP/FU/TH), actual length
                      in minutes (completed visits only); the extract is as of 2024-12-31, so the
                      only 'B' (booked) rows are in January 2025
  care.prescriptions  0-3 per completed visit: drug name and cost (USD)
  care.claims         one per completed visit of an insured patient: claimed, paid, submitted and
                      paid dates, status code (S submitted / P paid / D denied)
"""

import bisect
import datetime as dt
import itertools
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_clinic", "care", "clinic_reader"
URL = "postgresql://clinic_reader:clinic_reader@127.0.0.1:5432/dev_clinic"
SEED = 5
EXTRACT_DAY = dt.date(2024, 12, 31)   # "today" for the data: later visits are still booked
FIRST_DAY, LAST_DAY = dt.date(2022, 1, 3), dt.date(2025, 1, 31)

DDL = [
    """CREATE TABLE care.clinics (
        clinic_id integer PRIMARY KEY,
        cln_name varchar(60) NOT NULL,
        cln_city varchar(40) NOT NULL,
        cln_state char(2) NOT NULL,
        cln_opened_on date NOT NULL,
        cln_saturday_hours boolean NOT NULL)""",
    """CREATE TABLE care.doctors (
        doctor_id integer PRIMARY KEY,
        doc_first_name varchar(40) NOT NULL,
        doc_last_name varchar(40) NOT NULL,
        doc_specialty varchar(40) NOT NULL,
        clinic_id integer NOT NULL,
        doc_hire_date date NOT NULL)""",
    """CREATE TABLE care.insurers (
        insurer_id integer PRIMARY KEY,
        ins_name varchar(60) NOT NULL,
        ins_plan_type varchar(20) NOT NULL)""",
    """CREATE TABLE care.patients (
        patient_id integer PRIMARY KEY,
        pat_first_name varchar(40) NOT NULL,
        pat_last_name varchar(40) NOT NULL,
        pat_birth_date date NOT NULL,
        pat_sex char(1) NOT NULL,
        pat_city varchar(40) NOT NULL,
        insurer_id integer,
        pat_registered_on date NOT NULL)""",
    """CREATE TABLE care.appointments (
        appointment_id integer PRIMARY KEY,
        patient_id integer NOT NULL,
        doctor_id integer NOT NULL,
        appt_scheduled_at timestamp NOT NULL,
        appt_status char(1) NOT NULL,
        appt_visit_type varchar(2) NOT NULL,
        appt_duration_min smallint)""",
    """CREATE TABLE care.prescriptions (
        prescription_id integer PRIMARY KEY,
        appointment_id integer NOT NULL,
        rx_drug_name varchar(40) NOT NULL,
        rx_cost numeric(8, 2) NOT NULL)""",
    """CREATE TABLE care.claims (
        claim_id integer PRIMARY KEY,
        appointment_id integer NOT NULL,
        insurer_id integer NOT NULL,
        clm_amount_claimed numeric(9, 2) NOT NULL,
        clm_amount_paid numeric(9, 2),
        clm_submitted_on date NOT NULL,
        clm_paid_on date,
        clm_status char(1) NOT NULL)""",
]
TABLE_COMMENTS = {
    "clinics": "One row per outpatient clinic",
    "doctors": "One row per doctor; each works at one clinic",
    "insurers": "Health insurers we bill",
    "patients": "One row per registered patient",
    "appointments": "One row per appointment booked with a doctor",
    "prescriptions": "Drugs prescribed during a completed appointment",
    "claims": "Insurance claims, one per completed appointment of an insured patient",
}
COLUMN_COMMENTS = {
    ("patients", "pat_sex"): "F = female, M = male, X = other / not stated",
    ("patients", "insurer_id"): "NULL = self-pay (no insurer)",
    ("appointments", "appt_status"): "B = booked (upcoming), C = completed, X = cancelled, N = no-show",
    ("appointments", "appt_visit_type"): "NP = new patient, FU = follow-up, TH = telehealth",
    ("appointments", "appt_duration_min"): "actual length of the visit in minutes; NULL unless completed",
    ("claims", "clm_status"): "S = submitted (awaiting payment), P = paid, D = denied",
    ("claims", "clm_amount_paid"): "USD paid by the insurer; 0 when denied, NULL while awaiting payment",
    ("prescriptions", "rx_cost"): "cost of the prescription in USD",
}

CLINICS = [  # id, name, city, opened, saturday, no-show factor, patient pool
    (1, "Northside Family Health", "Portland", dt.date(2009, 3, 1), True, 1.0),
    (2, "Eastbank Medical Center", "Portland", dt.date(2014, 9, 15), True, 1.6),
    (3, "Salem Central Clinic", "Salem", dt.date(2011, 5, 2), False, 0.9),
    (4, "Riverfront Clinic Eugene", "Eugene", dt.date(2016, 1, 11), True, 1.2),
    (5, "Pine Ridge Medical", "Bend", dt.date(2018, 6, 4), False, 0.7),
    (6, "Rogue Valley Health", "Medford", dt.date(2023, 7, 1), False, 1.1),
]
NEARBY = {"Portland": ["Portland", "Portland", "Portland", "Beaverton", "Gresham", "Hillsboro", "Vancouver"],
          "Salem": ["Salem", "Salem", "Keizer", "Albany"],
          "Eugene": ["Eugene", "Eugene", "Springfield", "Corvallis"],
          "Bend": ["Bend", "Bend", "Redmond"],
          "Medford": ["Medford", "Medford", "Ashland", "Grants Pass"]}
# specialty: (base visit minutes, fee USD, drugs with (low, high) cost, prescribing chance)
SPECIALTIES = {
    "Family Medicine": (20, 160, [("Amoxicillin", 8, 25), ("Lisinopril", 6, 18), ("Atorvastatin", 9, 30),
                                  ("Metformin", 5, 20), ("Ibuprofen", 4, 12), ("Omeprazole", 10, 28)], 0.65),
    "Pediatrics": (18, 150, [("Amoxicillin", 8, 25), ("Albuterol inhaler", 30, 70), ("Cetirizine", 6, 15),
                             ("Ibuprofen", 4, 12)], 0.5),
    "Cardiology": (32, 340, [("Atorvastatin", 9, 30), ("Metoprolol", 8, 24), ("Apixaban", 420, 560),
                             ("Lisinopril", 6, 18), ("Clopidogrel", 15, 45)], 0.8),
    "Dermatology": (17, 210, [("Tretinoin cream", 60, 140), ("Hydrocortisone cream", 7, 16),
                              ("Doxycycline", 20, 60), ("Adalimumab", 2400, 3200)], 0.6),
    "Orthopedics": (26, 290, [("Ibuprofen", 4, 12), ("Naproxen", 6, 18), ("Cyclobenzaprine", 10, 30),
                              ("Meloxicam", 8, 22)], 0.55),
    "Endocrinology": (28, 260, [("Metformin", 5, 20), ("Insulin glargine", 250, 380), ("Levothyroxine", 10, 25),
                                ("Semaglutide", 850, 1000)], 0.85),
    "Psychiatry": (40, 230, [("Sertraline", 8, 22), ("Escitalopram", 10, 26), ("Bupropion", 20, 55),
                             ("Quetiapine", 15, 48)], 0.75),
}
# clinic -> specialties of its doctors (one doctor each)
STAFF = {
    1: ["Family Medicine", "Family Medicine", "Pediatrics", "Cardiology", "Dermatology", "Endocrinology", "Psychiatry"],
    2: ["Family Medicine", "Family Medicine", "Family Medicine", "Pediatrics", "Orthopedics", "Cardiology"],
    3: ["Family Medicine", "Family Medicine", "Pediatrics", "Orthopedics", "Psychiatry"],
    4: ["Family Medicine", "Pediatrics", "Dermatology", "Orthopedics", "Endocrinology", "Cardiology"],
    5: ["Family Medicine", "Family Medicine", "Orthopedics", "Dermatology"],
    6: ["Family Medicine", "Pediatrics", "Cardiology"],
}
INSURERS = [  # id, name, plan type, paid share of claimed, median days to pay, denial rate
    (1, "Cascade Blue Shield", "commercial", 0.82, 18, 0.05),
    (2, "Evergreen Health Plan", "commercial", 0.76, 27, 0.08),
    (3, "Medicare", "public", 0.64, 14, 0.03),
    (4, "Oregon Health Plan", "public", 0.58, 41, 0.11),
    (5, "Pacific Union Insurance", "commercial", 0.88, 36, 0.09),
    (6, "Summit Care Partners", "commercial", 0.71, 22, 0.06),
]
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright",
        "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz",
        "Singh", "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer"]
DOC_NAMES = [("Amara", "Okafor"), ("Priya", "Patel"), ("Daniel", "Whitfield"), ("Helen", "Cho"),
             ("Marcus", "Reyes"), ("Ingrid", "Solberg"), ("Samuel", "Adeyemi"), ("Laura", "Brennan"),
             ("Victor", "Huang"), ("Nina", "Kowalski"), ("Gabriel", "Moreau"), ("Rachel", "Stein"),
             ("Omar", "Farouk"), ("Julia", "Hartmann"), ("Rohan", "Patel"), ("Claire", "Dubois"),
             ("Ethan", "Park"), ("Sara", "Lindqvist"), ("Tobias", "Meyer"), ("Aisha", "Rahman"),
             ("Kevin", "O'Neill"), ("Maria", "Santos"), ("Paul", "Ivanov"), ("Lena", "Fischer"),
             ("Hiro", "Tanaka"), ("Grace", "Mbeki"), ("Alan", "Brooks"), ("Yara", "Haddad"),
             ("Ben", "Carver"), ("Elif", "Demir"), ("Chris", "Lawson")]


def day_range(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def build():
    r = random.Random(SEED)
    clinics = [(cid, name, city, "OR", opened, sat) for cid, name, city, opened, sat, _ in CLINICS]
    noshow_factor = {c[0]: c[5] for c in CLINICS}
    saturday = {c[0]: c[4] for c in CLINICS}
    opened = {c[0]: c[3] for c in CLINICS}
    city_of = {c[0]: c[2] for c in CLINICS}

    doctors, doc_info = [], {}
    names = iter(DOC_NAMES)
    did = 0
    for cid, specs in STAFF.items():
        for spec in specs:
            did += 1
            first, last = next(names)
            if cid == 6:
                hired = dt.date(2023, 6, 19) + dt.timedelta(days=r.randint(0, 10))
            elif r.random() < 0.2:
                hired = dt.date(2022, 3, 1) + dt.timedelta(days=r.randint(0, 700))
            else:
                hired = dt.date(2004, 1, 1) + dt.timedelta(days=r.randint(0, 6500))
            doctors.append((did, first, last, spec, cid, hired))
            doc_info[did] = dict(clinic=cid, spec=spec, hired=hired, start=max(hired, opened[cid], FIRST_DAY),
                                 load=r.uniform(3.5, 6.0) * (0.8 if spec == "Psychiatry" else 1.0))
    # Whitfield (doctor 3, pediatrics at Northside) is clearly the busiest doctor
    doc_info[3]["load"] = 7.5

    insurers = [(i, n, t) for i, n, t, *_ in INSURERS]
    ins = {i: dict(share=s, days=d, deny=x) for i, _, _, s, d, x in INSURERS}

    # patients: each has a home clinic (by city), an insurer (or none), a visit propensity
    patients, pools = [], {cid: [] for cid in STAFF}
    pid = 0
    clinic_weights = {1: 1.2, 2: 1.3, 3: 1.0, 4: 1.0, 5: 0.7, 6: 0.6}
    for _ in range(12000):
        pid += 1
        cid = r.choices(list(clinic_weights), weights=list(clinic_weights.values()))[0]
        city = r.choice(NEARBY[city_of[cid]])
        age_days = int(r.triangular(0, 92, 45) * 365.25)
        birth = EXTRACT_DAY - dt.timedelta(days=age_days + r.randint(0, 364))
        sex = r.choices("FMX", weights=[52, 46.5, 1.5])[0]
        age = (EXTRACT_DAY - birth).days / 365.25
        if age >= 65:
            insurer = r.choices([3, 1, 2, 5, 6, None], weights=[75, 6, 5, 4, 4, 6])[0]
        else:
            insurer = r.choices([1, 2, 4, 5, 6, None], weights=[24, 20, 17, 12, 14, 13])[0]
        reg_start = max(dt.date(2015, 1, 1), opened[cid] - dt.timedelta(days=60))
        reg = reg_start + dt.timedelta(days=r.randint(0, (dt.date(2024, 12, 20) - reg_start).days))
        patients.append((pid, r.choice(FIRST), r.choice(LAST), birth, sex, city, insurer, reg))
        pools[cid].append(dict(id=pid, reg=reg, age=age, insurer=insurer,
                               w=r.paretovariate(1.3) * (0.06 if r.random() < 0.3 else 1.0), ghost=r.random() < 0.04))

    for cid, pool in pools.items():
        pool = sorted((p for p in pool if not p["ghost"]), key=lambda p: (p["reg"], p["id"]))
        pools[cid] = (pool, [p["reg"] for p in pool], list(itertools.accumulate(p["w"] for p in pool)))

    # appointments: per doctor per working day, patients drawn from the clinic's pool
    appts, rx, claims = [], [], []
    seen_before = set()
    aid = rxid = clid = 0
    for day in day_range(FIRST_DAY, LAST_DAY):
        wd = day.weekday()
        if wd == 6:
            continue
        season = 1.0 + 0.18 * math.cos((day.timetuple().tm_yday - 20) / 365.25 * 2 * math.pi)
        growth = 1.0 + 0.08 * (day.year - 2022)
        for did_, info in doc_info.items():
            cid = info["clinic"]
            if day < info["start"] or (wd == 5 and not saturday[cid]):
                continue
            if r.random() < 0.06:  # leave, conference, ...
                continue
            mean = info["load"] * season * growth * (0.45 if wd == 5 else 1.0)
            if day > EXTRACT_DAY:
                mean *= max(0.0, 1.0 - (day - EXTRACT_DAY).days / 35)  # fewer booked further out
            n = max(0, int(r.gauss(mean, 1.6) + 0.5))
            pool, regs, cum = pools[cid]
            k = bisect.bisect_right(regs, day)
            if not k:
                continue
            picks = r.choices(pool[:k], cum_weights=cum[:k], k=n)
            slots = sorted(r.sample(range(16 if wd < 5 else 8), k=min(n, 16 if wd < 5 else 8)))
            for p, slot in zip(picks, slots):
                aid += 1
                start = dt.datetime.combine(day, dt.time(8, 0)) + dt.timedelta(minutes=30 * slot)
                first_visit = p["id"] not in seen_before
                if first_visit:
                    vtype = "NP"
                else:
                    vtype = "TH" if r.random() < (0.08 + 0.04 * (day.year - 2022)) else "FU"
                if day > EXTRACT_DAY:
                    status = "X" if r.random() < 0.04 else "B"
                else:
                    u = r.random()
                    pns = 0.055 * noshow_factor[cid] * (1.5 if wd == 0 else 1.0) \
                        * (1.4 if 18 <= p["age"] < 35 else 1.0) * (0.5 if vtype == "TH" else 1.0)
                    status = "X" if u < 0.09 else ("N" if u < 0.09 + pns else "C")
                if status in ("C", "B", "N"):
                    seen_before.add(p["id"])
                spec = info["spec"]
                base, fee, drugs, rx_chance = SPECIALTIES[spec]
                duration = None
                if status == "C":
                    factor = {"NP": 1.7, "FU": 1.0, "TH": 0.7}[vtype]
                    duration = max(5, int(round(r.gauss(base * factor, base * 0.22))))
                appts.append((aid, p["id"], did_, start, status, vtype, duration))
                if status != "C":
                    continue
                if r.random() < rx_chance:
                    for _ in range(r.choices([1, 2, 3], weights=[60, 30, 10])[0]):
                        drug, lo, hi = r.choice(drugs)
                        rxid += 1
                        rx.append((rxid, aid, drug, round(r.uniform(lo, hi), 2)))
                if p["insurer"] is None:
                    continue
                i = ins[p["insurer"]]
                claimed = round(fee * {"NP": 1.45, "FU": 1.0, "TH": 0.65}[vtype] * r.uniform(0.9, 1.15), 2)
                submitted = day + dt.timedelta(days=r.choices([0, 1, 2, 3, 5, 8, 12], weights=[30, 25, 15, 10, 10, 6, 4])[0])
                if r.random() < i["deny"]:
                    status_c, paid, paid_on = "D", 0, None
                else:
                    lag = max(3, int(r.lognormvariate(math.log(i["days"]), 0.45)))
                    paid_on = submitted + dt.timedelta(days=lag)
                    paid = round(claimed * i["share"] * r.uniform(0.92, 1.0), 2)
                    status_c = "P"
                    if paid_on > EXTRACT_DAY:
                        status_c, paid, paid_on = "S", None, None
                if submitted > EXTRACT_DAY:
                    continue  # not submitted yet as of the extract
                clid += 1
                claims.append((clid, aid, p["insurer"], claimed, paid, submitted, paid_on, status_c))
    return {"clinics": clinics, "doctors": doctors, "insurers": insurers, "patients": patients,
            "appointments": appts, "prescriptions": rx, "claims": claims}


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
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Outpatient clinic network: visits, prescriptions, "
                    f"insurance claims, 2022-2024 (extract of 2024-12-31)'")
        for ddl in DDL:
            cur.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON TABLE {SCHEMA}.{table} IS {{}}").format(sql.Literal(comment)))
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS {{}}").format(sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(f"COPY {SCHEMA}.{table} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {SCHEMA}.{table}")
            counts[f"{SCHEMA}.{table}"] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic clinic network into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()
