#!/usr/bin/env python3
"""A synthetic electricity & gas utility (2023-2024) in a DuckDB file, tables under schema `ops`.

    python3 load.py                 # writes /tmp/dev_utility.duckdb (what meta.json points at)
    python3 load.py PATH.duckdb     # or there

Builds the file anew (a new file is written beside it and moved over the old one, so re-running is
safe), thirteen tables generated deterministically with random.Random(23): the same rows every run.
DuckDB has no users: the read-only reader is whoever opens the file read-only (the bot does).

Naming, as exported from Oracle/Snowflake: every table and column name is UPPER_CASE with
underscores and the usual abbreviations (_NO number/identifier, _CD code, _DT date, _TS timestamp,
_AMT money in USD, _QTY quantity, _NM name, _FLG 'Y'/'N'). Primary keys are declared, foreign keys
are NOT (implied by the column names). ACCT_NO and METER_NO are text. Most code columns say what
their codes mean in a column comment; three do not: CUST_ACCT.ACCT_STATUS_CD ('ACTV'/'CLSD'/'SUSP'),
METER_READING.READ_TYPE_CD ('ACT'/'EST') and WORK_ORDER.STATUS_CD ('OPEN'/'CLSD'/'CNCL').

  ops.REGION          6 service regions
  ops.TARIFF_PLAN     10 rate plans (electric or gas); 2024 rates (2023 bills were 6% lower);
                      one retired plan that nobody is on
  ops.CUSTOMER        people and businesses (a business can hold several accounts)
  ops.PREMISE         service addresses, each in one region
  ops.CUST_ACCT       one account = one customer at one premise for a span of time; residential
                      accounts churn (move-out closes it, the next occupant gets a new account)
  ops.METER           one electric meter per premise, a gas meter at many
  ops.METER_READING   one read per meter per billing cycle (route day 18-28 of each month) plus a
                      final read on move-out; KWH_QTY for electric meters, THERM_QTY for gas
  ops.BILL            one per account per read date (electric + gas together), issued 2 days after
  ops.PAYMENT         payments against bills (some bills paid in two parts, some not yet)
  ops.OUTAGE          service interruptions per region with start/end, cause and accounts affected
  ops.OUTAGE_ACCT     the accounts each outage hit (CUST_AFFECTED_QTY = its row count)
  ops.TECHNICIAN      field technicians
  ops.WORK_ORDER      field-service jobs

Data 2023-01-01 .. 2024-12-31 (the extract date: later payments, completions and restorations are
not in it). Built-in signal: Eastern Hills has the most outages, Northshore the longest ones; the
2024-07-16 storm makes July 2024 the worst outage month; Southvale grows fastest (new homes);
commercial customers pay late most often; Marco Diaz closes the most work orders; Dale Whitaker
(supervisor since 2024) and Priya Raman (hired December 2024) closed none in 2024; two technicians
are called Nguyen.
"""

import csv
import datetime as dt
import math
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

SCHEMA = "ops"
DEFAULT_PATH = "/tmp/dev_utility.duckdb"
URL = "duckdb://" + DEFAULT_PATH
SEED = 23
FIRST_DAY, LAST_DAY = dt.date(2023, 1, 1), dt.date(2024, 12, 31)
END_TS = dt.datetime(2024, 12, 31, 23, 59)

DDL = [
    """CREATE TABLE ops.REGION (
        REGION_CD VARCHAR(3) PRIMARY KEY,
        REGION_NM VARCHAR(40) NOT NULL,
        HQ_CITY_NM VARCHAR(40) NOT NULL)""",
    """CREATE TABLE ops.TARIFF_PLAN (
        PLAN_CD VARCHAR(12) PRIMARY KEY,
        PLAN_NM VARCHAR(60) NOT NULL,
        SVC_TYPE_CD VARCHAR(1) NOT NULL,
        CUST_CLASS_CD VARCHAR(3) NOT NULL,
        RATE_TYPE_CD VARCHAR(3) NOT NULL,
        UNIT_RATE_AMT DECIMAL(8, 4) NOT NULL,
        FIXED_CHG_AMT DECIMAL(8, 2) NOT NULL,
        ACTIVE_FLG VARCHAR(1) NOT NULL)""",
    """CREATE TABLE ops.CUSTOMER (
        CUST_ID INTEGER PRIMARY KEY,
        CUST_NM VARCHAR(80) NOT NULL,
        CUST_TYPE_CD VARCHAR(3) NOT NULL,
        EMAIL_ADDR VARCHAR(80),
        CREATED_DT DATE NOT NULL)""",
    """CREATE TABLE ops.PREMISE (
        PREMISE_ID INTEGER PRIMARY KEY,
        ADDR_LINE_1 VARCHAR(80) NOT NULL,
        CITY_NM VARCHAR(40) NOT NULL,
        ZIP_CD VARCHAR(5) NOT NULL,
        REGION_CD VARCHAR(3) NOT NULL,
        PREMISE_TYPE_CD VARCHAR(3) NOT NULL,
        ROUTE_DAY_NO SMALLINT NOT NULL)""",
    """CREATE TABLE ops.CUST_ACCT (
        ACCT_NO VARCHAR(10) PRIMARY KEY,
        CUST_ID INTEGER NOT NULL,
        PREMISE_ID INTEGER NOT NULL,
        ELEC_PLAN_CD VARCHAR(12),
        GAS_PLAN_CD VARCHAR(12),
        OPEN_DT DATE NOT NULL,
        CLOSE_DT DATE,
        ACCT_STATUS_CD VARCHAR(4) NOT NULL,
        AUTOPAY_FLG VARCHAR(1) NOT NULL,
        PAPERLESS_FLG VARCHAR(1) NOT NULL)""",
    """CREATE TABLE ops.METER (
        METER_NO VARCHAR(10) PRIMARY KEY,
        PREMISE_ID INTEGER NOT NULL,
        SVC_TYPE_CD VARCHAR(1) NOT NULL,
        MFR_NM VARCHAR(30) NOT NULL,
        AMI_FLG VARCHAR(1) NOT NULL,
        INSTALL_DT DATE NOT NULL)""",
    """CREATE TABLE ops.METER_READING (
        READ_ID BIGINT PRIMARY KEY,
        METER_NO VARCHAR(10) NOT NULL,
        ACCT_NO VARCHAR(10) NOT NULL,
        READ_DT DATE NOT NULL,
        KWH_QTY DECIMAL(12, 1),
        THERM_QTY DECIMAL(10, 1),
        READ_TYPE_CD VARCHAR(3) NOT NULL)""",
    """CREATE TABLE ops.BILL (
        BILL_NO BIGINT PRIMARY KEY,
        ACCT_NO VARCHAR(10) NOT NULL,
        BILL_DT DATE NOT NULL,
        PERIOD_START_DT DATE NOT NULL,
        PERIOD_END_DT DATE NOT NULL,
        DUE_DT DATE NOT NULL,
        ELEC_AMT DECIMAL(12, 2) NOT NULL,
        GAS_AMT DECIMAL(12, 2) NOT NULL,
        TAX_AMT DECIMAL(12, 2) NOT NULL,
        TOTAL_AMT DECIMAL(12, 2) NOT NULL,
        BILL_STATUS_CD VARCHAR(4) NOT NULL)""",
    """CREATE TABLE ops.PAYMENT (
        PMT_ID BIGINT PRIMARY KEY,
        ACCT_NO VARCHAR(10) NOT NULL,
        BILL_NO BIGINT NOT NULL,
        PMT_DT DATE NOT NULL,
        PMT_AMT DECIMAL(12, 2) NOT NULL,
        PMT_METHOD_CD VARCHAR(5) NOT NULL)""",
    """CREATE TABLE ops.OUTAGE (
        OUTAGE_ID INTEGER PRIMARY KEY,
        REGION_CD VARCHAR(3) NOT NULL,
        FEEDER_ID VARCHAR(8) NOT NULL,
        SVC_TYPE_CD VARCHAR(1) NOT NULL,
        CAUSE_CD VARCHAR(8) NOT NULL,
        START_TS TIMESTAMP NOT NULL,
        END_TS TIMESTAMP,
        CUST_AFFECTED_QTY INTEGER NOT NULL)""",
    """CREATE TABLE ops.OUTAGE_ACCT (
        OUTAGE_ID INTEGER NOT NULL,
        ACCT_NO VARCHAR(10) NOT NULL,
        PRIMARY KEY (OUTAGE_ID, ACCT_NO))""",
    """CREATE TABLE ops.TECHNICIAN (
        TECH_ID INTEGER PRIMARY KEY,
        FIRST_NM VARCHAR(40) NOT NULL,
        LAST_NM VARCHAR(40) NOT NULL,
        HOME_REGION_CD VARCHAR(3) NOT NULL,
        SKILL_CD VARCHAR(4) NOT NULL,
        JOB_TITLE_TXT VARCHAR(40) NOT NULL,
        HIRE_DT DATE NOT NULL)""",
    """CREATE TABLE ops.WORK_ORDER (
        WO_NO VARCHAR(10) PRIMARY KEY,
        WO_TYPE_CD VARCHAR(10) NOT NULL,
        PRIORITY_CD VARCHAR(1) NOT NULL,
        PREMISE_ID INTEGER NOT NULL,
        ACCT_NO VARCHAR(10),
        METER_NO VARCHAR(10),
        OUTAGE_ID INTEGER,
        TECH_ID INTEGER,
        CREATED_TS TIMESTAMP NOT NULL,
        SCHED_DT DATE NOT NULL,
        CMPL_TS TIMESTAMP,
        STATUS_CD VARCHAR(4) NOT NULL,
        LABOR_HRS_QTY DECIMAL(5, 2))""",
]
TABLE_COMMENTS = {
    "REGION": "Service regions",
    "TARIFF_PLAN": "Rate plans; rates as of 2024-01-01",
    "CUSTOMER": "Customers (persons and businesses)",
    "PREMISE": "Service addresses",
    "CUST_ACCT": "Customer accounts (one customer at one premise)",
    "METER": "Meters installed at premises",
    "METER_READING": "Meter reads",
    "BILL": "Bills issued to accounts",
    "PAYMENT": "Payments received",
    "OUTAGE": "Service interruptions",
    "OUTAGE_ACCT": "Accounts affected by each outage",
    "TECHNICIAN": "Field technicians",
    "WORK_ORDER": "Field service work orders",
}
COLUMN_COMMENTS = {  # the three status codes are deliberately left undocumented
    ("TARIFF_PLAN", "SVC_TYPE_CD"): "E = electricity, G = natural gas",
    ("TARIFF_PLAN", "CUST_CLASS_CD"): "RES = residential, COM = commercial, IND = industrial",
    ("TARIFF_PLAN", "RATE_TYPE_CD"): "FIX = flat rate, TOU = time-of-use, DMD = demand, IDX = index-priced",
    ("TARIFF_PLAN", "UNIT_RATE_AMT"): "USD per kWh (electric) or per therm (gas)",
    ("TARIFF_PLAN", "FIXED_CHG_AMT"): "USD per month",
    ("CUSTOMER", "CUST_TYPE_CD"): "RES = residential, COM = commercial, IND = industrial",
    ("PREMISE", "PREMISE_TYPE_CD"): "SFH = single-family home, MFH = apartment, COM = commercial, IND = industrial",
    ("METER", "SVC_TYPE_CD"): "E = electricity, G = natural gas",
    ("METER", "AMI_FLG"): "Y = smart (AMI) meter, read remotely",
    ("METER_READING", "KWH_QTY"): "electricity used in the read period, kWh (electric meters only)",
    ("METER_READING", "THERM_QTY"): "gas used in the read period, therms (gas meters only)",
    ("BILL", "BILL_STATUS_CD"): "PAID = paid in full, PART = partly paid, OPEN = nothing paid yet",
    ("BILL", "TOTAL_AMT"): "ELEC_AMT + GAS_AMT + TAX_AMT, USD",
    ("PAYMENT", "PMT_METHOD_CD"): "ACH = bank debit, CARD = credit/debit card, CHECK, CASH",
    ("OUTAGE", "SVC_TYPE_CD"): "E = electricity, G = natural gas",
    ("OUTAGE", "CAUSE_CD"): ("STORM, VEG = vegetation/trees, EQUIP = equipment failure, ANIMAL, VEHICLE, "
                            "DIGIN = third-party dig-in, PLANNED = planned maintenance, UNKNOWN"),
    ("OUTAGE", "END_TS"): "service restored; NULL while still out",
    ("OUTAGE", "CUST_AFFECTED_QTY"): "accounts that lost service",
    ("TECHNICIAN", "SKILL_CD"): "ELEC, GAS or DUAL (both)",
    ("WORK_ORDER", "PRIORITY_CD"): "1 = emergency, 2 = urgent, 3 = routine",
    ("WORK_ORDER", "LABOR_HRS_QTY"): "hours booked by the technician",
}

# code, name, HQ city, premises, outage weight, restoration-time factor, towns
REGIONS = [
    ("MET", "Metro Central", "Lakeport", 1150, 0.55, 0.75, ["Lakeport", "Lakeport", "Lakeport", "Fairmont"]),
    ("NSH", "Northshore", "Bayfield", 520, 1.45, 1.95, ["Bayfield", "Port Alder", "Gull Harbor"]),
    ("RIV", "Riverside", "Millbrook", 700, 1.0, 1.0, ["Millbrook", "Millbrook", "Ferrisburg"]),
    ("EHL", "Eastern Hills", "Cedar Ridge", 600, 2.3, 1.2, ["Cedar Ridge", "Pine Gap", "Ashby", "Hollins"]),
    ("SVL", "Southvale", "Southvale", 640, 0.9, 1.0, ["Southvale", "Southvale", "Orchard Park"]),
    ("LKS", "Lakeside", "Wexford", 560, 1.0, 0.95, ["Wexford", "Shelby Point"]),
]
ZIP_BASE = {"MET": 40100, "NSH": 40300, "RIV": 40400, "EHL": 40600, "SVL": 40800, "LKS": 40900}

PLANS = [  # code, name, svc, class, rate type, unit rate 2024, fixed, active
    ("E-RES-STD", "Residential Standard", "E", "RES", "FIX", 0.1420, 12.00, "Y"),
    ("E-RES-TOU", "Residential Time-of-Use", "E", "RES", "TOU", 0.1280, 12.00, "Y"),
    ("E-RES-GRN", "Green Choice 100", "E", "RES", "FIX", 0.1580, 12.00, "Y"),
    ("E-RES-LEG", "Residential Legacy Flat", "E", "RES", "FIX", 0.1190, 9.50, "N"),
    ("E-COM-STD", "Small Business General Service", "E", "COM", "FIX", 0.1310, 35.00, "Y"),
    ("E-COM-TOU", "Business Time-of-Use", "E", "COM", "TOU", 0.1190, 35.00, "Y"),
    ("E-IND-LPS", "Large Power Service", "E", "IND", "DMD", 0.0940, 450.00, "Y"),
    ("G-RES-STD", "Residential Gas", "G", "RES", "FIX", 1.3500, 10.50, "Y"),
    ("G-COM-STD", "Commercial Gas", "G", "COM", "FIX", 1.1800, 28.00, "Y"),
    ("G-IND-FRM", "Industrial Firm Gas", "G", "IND", "IDX", 0.9200, 300.00, "Y"),
]
PLAN = {p[0]: p for p in PLANS}
RATE_2023 = 0.94   # 2023 bills used rates 6% below the 2024 ones in TARIFF_PLAN
TAX_RATE = 0.065

CHAINS = [  # business customers holding several accounts
    ("Brightway Grocers", 9), ("QuickFuel Stations", 7), ("Summit Fitness Clubs", 6),
    ("Pinecrest School District", 5), ("Harbor Dental Group", 4), ("Golden Wok Restaurants", 3),
    ("Lakeport Public Library", 3), ("Evergreen Pharmacy", 3), ("Tri-County Credit Union", 2),
    ("Maple Leaf Laundromats", 2),
]
BUSINESS_KINDS = ["Auto Repair", "Bakery", "Hardware", "Dental", "Cafe", "Salon", "Florist", "Bistro",
                  "Insurance Agency", "Law Office", "Pizzeria", "Tailoring", "Veterinary Clinic", "Dry Cleaners",
                  "Printing", "Bookstore", "Brewing Co.", "Yoga Studio", "Pet Supply", "Realty", "Deli",
                  "Barbershop", "Optical", "Music Shop", "Garden Center", "Motel", "Daycare", "Physical Therapy"]
INDUSTRIAL = [("Northshore Paper Mill", "NSH"), ("Riverside Steel Fabricators", "RIV"),
              ("Cedar Ridge Quarry", "EHL"), ("Apex Plastics", "SVL"), ("Consolidated Foods Inc.", "RIV"),
              ("Consolidated Foods Inc.", "SVL"), ("Millbrook Water Treatment", "RIV"),
              ("Lakeport Data Center", "MET"), ("Wexford Cold Storage", "LKS"), ("Southvale Glassworks", "SVL"),
              ("Bayfield Fish Processing", "NSH"), ("Orchard Park Cannery", "SVL"),
              ("Hollins Lumber Co.", "EHL"), ("Fairmont Hospital", "MET"), ("Shelby Point Boatworks", "LKS"),
              ("Ferrisburg Brick Works", "RIV"), ("Metro Transit Depot", "MET"), ("Pine Gap Mining", "EHL")]
FIRST = ["Maria", "James", "Linda", "Robert", "Patricia", "John", "Jennifer", "Michael", "Elizabeth", "David",
         "Barbara", "William", "Susan", "Richard", "Jessica", "Joseph", "Sarah", "Thomas", "Karen", "Chris",
         "Nancy", "Daniel", "Lisa", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Ashley", "Steven",
         "Emily", "Andrew", "Donna", "Joshua", "Michelle", "Kevin", "Carol", "Brian", "Amanda", "George",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Omar",
         "Hannah", "Luis", "Grace", "Ivan", "Mei", "Carlos", "Aisha", "Noah", "Olivia"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
        "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Kowalski",
        "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer", "Singh"]
STREETS = ["Oak", "Maple", "Cedar", "Pine", "Elm", "Birch", "Willow", "Lake", "Hill", "River", "Park", "Main",
           "Church", "Mill", "Spring", "Ridge", "Meadow", "Forest", "Sunset", "Harbor", "Bay", "Orchard",
           "Valley", "Chestnut", "Walnut", "Highland", "Prospect", "Union", "Franklin", "Jefferson"]
SUFFIXES = ["St", "Ave", "Rd", "Ln", "Dr", "Ct", "Way", "Blvd"]

TECHS = [  # first, last, region, skill, title, hire date, work weight
    ("Marco", "Diaz", "EHL", "DUAL", "Field Technician III", dt.date(2012, 4, 2), 2.6),
    ("Linh", "Nguyen", "EHL", "GAS", "Field Technician II", dt.date(2019, 8, 12), 1.0),
    ("Rachel", "Boyd", "EHL", "ELEC", "Field Technician II", dt.date(2016, 3, 7), 1.0),
    ("Tom", "Albright", "EHL", "ELEC", "Field Technician I", dt.date(2022, 6, 20), 0.9),
    ("Sam", "Okoye", "EHL", "DUAL", "Field Technician II", dt.date(2018, 1, 15), 1.0),
    ("Kevin", "Nguyen", "MET", "ELEC", "Field Technician II", dt.date(2017, 10, 2), 1.1),
    ("Angela", "Ruiz", "MET", "DUAL", "Field Technician III", dt.date(2010, 5, 17), 1.2),
    ("Peter", "Lindqvist", "MET", "GAS", "Field Technician II", dt.date(2015, 9, 1), 1.0),
    ("Hassan", "Farah", "MET", "ELEC", "Field Technician I", dt.date(2023, 3, 13), 0.9),
    ("Julie", "Mercer", "MET", "DUAL", "Field Technician II", dt.date(2014, 2, 24), 1.0),
    ("Priya", "Raman", "MET", "ELEC", "Field Technician I", dt.date(2024, 12, 9), 1.0),
    ("Dale", "Whitaker", "NSH", "DUAL", "Field Supervisor", dt.date(2005, 7, 11), 1.1),
    ("Erin", "Kowalczyk", "NSH", "ELEC", "Field Technician II", dt.date(2013, 11, 4), 1.0),
    ("Bruno", "Silva", "NSH", "GAS", "Field Technician II", dt.date(2020, 2, 3), 0.9),
    ("Megan", "Shaw", "NSH", "DUAL", "Field Technician I", dt.date(2021, 9, 27), 1.0),
    ("Victor", "Hale", "NSH", "ELEC", "Field Technician III", dt.date(2009, 6, 8), 1.0),
    ("Owen", "Price", "RIV", "ELEC", "Field Technician II", dt.date(2016, 8, 15), 1.0),
    ("Farah", "Qureshi", "RIV", "GAS", "Field Technician II", dt.date(2018, 4, 9), 1.0),
    ("Gus", "Petrakis", "RIV", "DUAL", "Field Technician III", dt.date(2008, 1, 21), 1.1),
    ("Nora", "Blake", "RIV", "ELEC", "Field Technician I", dt.date(2022, 11, 14), 0.9),
    ("Ray", "Duncan", "RIV", "DUAL", "Field Technician II", dt.date(2015, 5, 4), 1.0),
    ("Carmen", "Ortega", "SVL", "DUAL", "Field Technician II", dt.date(2017, 7, 10), 1.0),
    ("Jon", "Becker", "SVL", "ELEC", "Field Technician II", dt.date(2019, 1, 7), 1.0),
    ("Ahmed", "Saleh", "SVL", "GAS", "Field Technician I", dt.date(2023, 8, 28), 0.9),
    ("Lucy", "Tran", "SVL", "ELEC", "Field Technician III", dt.date(2011, 10, 3), 1.1),
    ("Will", "Harper", "SVL", "DUAL", "Field Technician I", dt.date(2024, 2, 5), 0.9),
    ("Beth", "Coleman", "LKS", "ELEC", "Field Technician II", dt.date(2014, 6, 16), 1.0),
    ("Ian", "Murdoch", "LKS", "DUAL", "Field Technician III", dt.date(2010, 9, 20), 1.1),
    ("Tara", "Quinn", "LKS", "GAS", "Field Technician II", dt.date(2018, 12, 3), 1.0),
    ("Felix", "Brandt", "LKS", "ELEC", "Field Technician I", dt.date(2021, 4, 19), 0.9),
]
WHITAKER_LAST_JOB = dt.date(2023, 11, 30)  # promoted to supervisor; no field jobs after this

E_SEASON = {1: 1.15, 2: 1.05, 3: 0.9, 4: 0.82, 5: 0.88, 6: 1.15, 7: 1.45, 8: 1.42, 9: 1.1, 10: 0.85,
            11: 0.92, 12: 1.12}
G_SEASON = {1: 3.2, 2: 2.8, 3: 2.0, 4: 1.2, 5: 0.6, 6: 0.35, 7: 0.3, 8: 0.3, 9: 0.45, 10: 0.9, 11: 1.8,
            12: 2.7}
E_REGION = {"MET": 0.95, "NSH": 0.9, "RIV": 1.0, "EHL": 1.0, "SVL": 1.12, "LKS": 1.0}
G_REGION = {"MET": 1.0, "NSH": 1.15, "RIV": 1.0, "EHL": 1.1, "SVL": 0.85, "LKS": 1.05}


def days(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def route_date(year: int, month: int, route_day: int) -> dt.date:
    return dt.date(year, month, min(route_day, 28))


def months():
    for y in (2023, 2024):
        for m in range(1, 13):
            yield y, m


def build():
    r = random.Random(SEED)
    tables = {}
    tables["REGION"] = [(c, n, hq) for c, n, hq, *_ in REGIONS]
    tables["TARIFF_PLAN"] = [tuple(p) for p in PLANS]

    # ---------------------------------------------------------------- premises
    premises = []   # dicts
    pid = 100000
    industrial = list(INDUSTRIAL)
    for code, _, _, n, *_rest in REGIONS:
        towns = REGIONS[[x[0] for x in REGIONS].index(code)][6]
        for _i in range(n):
            pid += r.randint(1, 4)
            u = r.random()
            ptype = "SFH" if u < 0.70 else ("MFH" if u < 0.885 else "COM")
            if code == "MET" and u > 0.80 and u < 0.885:
                ptype = "MFH"
            town = r.choice(towns)
            premises.append(dict(id=pid, region=code, type=ptype, town=town, new_on=None,
                                 route=r.randint(18, 28)))
        for name, reg in industrial:
            if reg == code:
                pid += r.randint(1, 4)
                premises.append(dict(id=pid, region=code, type="IND", town=r.choice(towns), new_on=None,
                                     route=r.randint(18, 28), ind_name=name))
    # new construction: homes in Southvale (mostly) and Lakeside, connected during 2023-2024
    for _ in range(230):
        code = "SVL" if r.random() < 0.78 else "LKS"
        towns = REGIONS[[x[0] for x in REGIONS].index(code)][6]
        pid += r.randint(1, 4)
        new_on = FIRST_DAY + dt.timedelta(days=int(r.triangular(20, 720, 560)))
        premises.append(dict(id=pid, region=code, type="SFH", town=towns[-1] if r.random() < 0.6 else towns[0],
                             new_on=new_on, route=r.randint(18, 28)))
    for p in premises:
        num = r.randint(10, 9899)
        street = f"{r.choice(STREETS)} {r.choice(SUFFIXES)}"
        if p["type"] == "MFH":
            street += f" Apt {r.randint(1, 40)}"
        p["addr"] = f"{num} {street}"
        p["zip"] = str(ZIP_BASE[p["region"]] + sum(map(ord, p["town"])) % 60)
    tables["PREMISE"] = [(p["id"], p["addr"], p["town"], p["zip"], p["region"], p["type"], p["route"])
                         for p in premises]

    # ---------------------------------------------------------------- meters
    meters, meter_seq = [], 1000000
    for p in premises:
        gas_p = {"SFH": 0.64, "MFH": 0.38, "COM": 0.52, "IND": 0.8}[p["type"]]
        installed = p["new_on"] or (dt.date(1995, 1, 1) + dt.timedelta(days=r.randint(0, 10000)))
        ami = "Y" if (p["new_on"] or r.random() < 0.72) else "N"
        meter_seq += r.randint(1, 9)
        p["emeter"] = f"E{meter_seq}"
        meters.append((p["emeter"], p["id"], "E", r.choice(["Itron", "Landis+Gyr", "Itron", "Aclara"]), ami,
                       installed))
        p["eami"] = ami == "Y"
        p["gmeter"] = None
        if r.random() < gas_p:
            meter_seq += r.randint(1, 9)
            p["gmeter"] = f"G{meter_seq}"
            gami = "Y" if (p["new_on"] or r.random() < 0.55) else "N"
            meters.append((p["gmeter"], p["id"], "G", r.choice(["Sensus", "Honeywell Elster", "Itron"]), gami,
                           installed + dt.timedelta(days=r.randint(0, 30))))
            p["gami"] = gami == "Y"
    tables["METER"] = meters

    # ---------------------------------------------------------------- customers and accounts
    customers, accounts = [], []
    cust_seq, acct_seq = 500000, 3000000000

    def new_customer(name, ctype, created):
        nonlocal cust_seq
        cust_seq += r.randint(1, 3)
        email = None
        if ctype == "RES" and r.random() < 0.82:
            email = name.split(", ")[1].split()[0].lower() + "." + name.split(", ")[0].lower().replace("'", "") \
                + str(r.randint(1, 99)) + "@" + r.choice(["mailbox.com", "webmail.net", "inbox.org"])
        elif ctype != "RES":
            email = "billing@" + "".join(ch for ch in name.lower() if ch.isalnum())[:18] + ".com"
        customers.append((cust_seq, name, ctype, email, created))
        return cust_seq

    def person():
        return f"{r.choice(LAST).upper()}, {r.choice(FIRST).upper()} {r.choice('ABCDEFGHJKLMNPRSTW')}"

    def new_account(cust, ctype, p, opened, behaviour):
        nonlocal acct_seq
        acct_seq += r.randint(1, 37)
        acct = f"{acct_seq}"
        if ctype == "RES":
            eplan = r.choices(["E-RES-STD", "E-RES-TOU", "E-RES-GRN"], weights=[62, 25, 13])[0]
            gplan = "G-RES-STD" if p["gmeter"] else None
            autopay = r.random() < 0.40
        elif ctype == "COM":
            eplan = r.choices(["E-COM-STD", "E-COM-TOU"], weights=[68, 32])[0]
            gplan = "G-COM-STD" if p["gmeter"] else None
            autopay = r.random() < 0.22
        else:
            eplan, gplan = "E-IND-LPS", ("G-IND-FRM" if p["gmeter"] else None)
            autopay = r.random() < 0.6
        a = dict(no=acct, cust=cust, ctype=ctype, premise=p, eplan=eplan, gplan=gplan, open=opened, close=None,
                 susp=None, autopay=autopay, paperless=r.random() < (0.55 if ctype == "RES" else 0.7),
                 behaviour=behaviour)
        if behaviour == "delinquent":
            a["autopay"] = False
        accounts.append(a)
        return a

    chain_slots = [name for name, k in CHAINS for _ in range(k)]
    com_premises = [p for p in premises if p["type"] == "COM"]
    r.shuffle(com_premises)
    chain_ids = {}
    for p, name in zip(com_premises, chain_slots):
        if name not in chain_ids:
            chain_ids[name] = new_customer(name, "COM", dt.date(2001, 1, 1) + dt.timedelta(days=r.randint(0, 6000)))
        p["chain"] = name
        new_account(chain_ids[name], "COM", p, dt.date(2003, 1, 1) + dt.timedelta(days=r.randint(0, 7000)),
                    "normal")
    used_business = set()
    ind_ids = {}
    for p in premises:
        if p["type"] == "COM" and "chain" not in p:
            while True:
                name = f"{r.choice(LAST)} {r.choice(BUSINESS_KINDS)}"
                if name not in used_business:
                    used_business.add(name)
                    break
            opened = dt.date(2000, 1, 1) + dt.timedelta(days=r.randint(0, 8300))
            new_account(new_customer(name, "COM", opened), "COM", p, opened, "normal")
        elif p["type"] == "IND":
            name = p["ind_name"]
            if name not in ind_ids:
                ind_ids[name] = new_customer(name, "IND", dt.date(1998, 1, 1) + dt.timedelta(days=r.randint(0, 5000)))
            new_account(ind_ids[name], "IND", p, dt.date(1999, 1, 1) + dt.timedelta(days=r.randint(0, 6000)),
                        "normal")
        elif p["type"] in ("SFH", "MFH"):
            move_rate = 0.07 if p["type"] == "SFH" else 0.19
            if p["new_on"]:
                opened = p["new_on"]
            else:
                opened = dt.date(2000, 1, 1) + dt.timedelta(days=int(r.triangular(0, 8360, 8000)))
            while opened <= LAST_DAY:
                behaviour = "delinquent" if r.random() < 0.018 else "normal"
                a = new_account(new_customer(person(), "RES", opened - dt.timedelta(days=r.randint(0, 20))),
                                "RES", p, opened, behaviour)
                # move-out: exponential stay, seen only if it falls inside the data span
                stay = r.expovariate(move_rate)
                close = max(opened, FIRST_DAY) + dt.timedelta(days=int(stay * 365.25))
                if opened < FIRST_DAY:
                    close = FIRST_DAY + dt.timedelta(days=int(r.expovariate(move_rate) * 365.25))
                if close > LAST_DAY:
                    break
                if behaviour == "delinquent" and close.year == 2024 and r.random() < 0.5:
                    break  # suspended instead, below
                a["close"] = close
                opened = close + dt.timedelta(days=int(r.choice([0, 0, 1, 3, 7, 14, 21, 30, 45, 60])
                                                      * (0.5 if p["type"] == "MFH" else 1.0)))
    # delinquent residential accounts still open: about half get suspended (disconnected) in 2024
    for a in accounts:
        if a["behaviour"] == "delinquent" and a["close"] is None and r.random() < 0.55:
            start = max(a["open"] + dt.timedelta(days=120), dt.date(2024, 1, 15))
            if start < dt.date(2024, 11, 30):
                a["susp"] = start + dt.timedelta(days=r.randint(0, (dt.date(2024, 11, 30) - start).days))
    for a in accounts:
        status = "CLSD" if a["close"] else ("SUSP" if a["susp"] else "ACTV")
        a["status"] = status
    tables["CUSTOMER"] = customers
    tables["CUST_ACCT"] = [(a["no"], a["cust"], a["premise"]["id"], a["eplan"], a["gplan"], a["open"], a["close"],
                            a["status"], "Y" if a["autopay"] else "N", "Y" if a["paperless"] else "N")
                           for a in accounts]

    # ---------------------------------------------------------------- reads, bills, payments
    reads, bills, pays = [], [], []
    read_seq, bill_seq, pmt_seq = 880000000, 70000000, 9000000
    for a in accounts:
        p = a["premise"]
        end = a["close"] or a["susp"]
        if end is not None and end < FIRST_DAY:
            continue
        ctype = a["ctype"]
        if ctype == "RES":
            ebase = r.lognormvariate(math.log(27), 0.33) * (0.58 if p["type"] == "MFH" else 1.0)
            ebase *= 0.93 if a["eplan"] == "E-RES-TOU" else 1.0
            gbase = r.lognormvariate(math.log(1.45), 0.3) * (0.6 if p["type"] == "MFH" else 1.0)
            eamp, gamp = 1.0, 1.0
        elif ctype == "COM":
            ebase = r.lognormvariate(math.log(230), 0.55)
            gbase = r.lognormvariate(math.log(8.5), 0.5)
            eamp, gamp = 0.4, 0.6
        else:
            ebase = r.lognormvariate(math.log(6200), 0.35)
            gbase = r.lognormvariate(math.log(150), 0.4)
            eamp, gamp = 0.1, 0.2
        ebase *= E_REGION[p["region"]]
        gbase *= G_REGION[p["region"]]
        # read dates of this account
        dates = []
        for y, m in months():
            d = route_date(y, m, p["route"])
            if a["open"] < d and (end is None or d < end):
                dates.append((d, False))
        if end is not None and FIRST_DAY <= end <= LAST_DAY:
            dates.append((end, True))
        prev = None
        for d, final in dates:
            if prev is None:
                pm = (d.replace(day=1) - dt.timedelta(days=1))
                prev_read = route_date(pm.year, pm.month, p["route"])
                start = max(prev_read + dt.timedelta(days=1), a["open"] + dt.timedelta(days=1))
            else:
                start = prev + dt.timedelta(days=1)
            prev = d
            n_days = (d - start).days + 1
            mid = start + dt.timedelta(days=n_days // 2)
            es = 1 + eamp * (E_SEASON[mid.month] - 1)
            if mid.year == 2024 and mid.month in (6, 7, 8):
                es *= 1.06  # the hotter summer of 2024
            gs = 1 + gamp * (G_SEASON[mid.month] - 1)
            if mid.year == 2024 and mid.month == 1:
                gs *= 1.12  # January 2024 cold snap
            kwh = round(ebase * es * n_days * r.gauss(1, 0.08), 1)
            kwh = max(kwh, 0.0)
            read_seq += 1
            est = (not final) and r.random() < ((0.012 if p["eami"] else (0.14 if d.month in (1, 2, 12) else 0.085)))
            reads.append((read_seq, p["emeter"], a["no"], d, kwh, None, "EST" if est else "ACT"))
            therms = None
            if p["gmeter"]:
                therms = max(round(gbase * gs * n_days * r.gauss(1, 0.1), 1), 0.0)
                read_seq += 1
                gest = (not final) and r.random() < ((0.015 if p["gami"] else (0.15 if d.month in (1, 2, 12) else 0.09)))
                reads.append((read_seq, p["gmeter"], a["no"], d, None, therms, "EST" if gest else "ACT"))
            bill_dt = d + dt.timedelta(days=2)
            if bill_dt > LAST_DAY:
                continue
            yf = RATE_2023 if bill_dt.year == 2023 else 1.0
            prorate = min(1.0, n_days / 30)
            ep = PLAN[a["eplan"]]
            e_c = round((kwh * ep[5] * yf + ep[6] * prorate) * 100)
            g_c = 0
            if therms is not None:
                gp = PLAN[a["gplan"]]
                g_c = round((therms * gp[5] * yf + gp[6] * prorate) * 100)
            t_c = round((e_c + g_c) * TAX_RATE)
            total = e_c + g_c + t_c
            due = bill_dt + dt.timedelta(days=21)
            bill_seq += 1
            # payments
            parts = []
            if a["autopay"]:
                parts = [(due - dt.timedelta(days=r.choice([0, 0, 0, 1, 2])), total, "ACH")]
            else:
                if a["behaviour"] == "delinquent":
                    lag = int(r.uniform(25, 80))
                    first = round(total * r.choice([0.4, 0.5, 0.6, 1.0]))
                    method = r.choice(["CASH", "CARD", "CHECK"])
                    parts = [(bill_dt + dt.timedelta(days=lag), first, method)]
                    if first < total and r.random() < 0.6:
                        parts.append((bill_dt + dt.timedelta(days=lag + r.randint(20, 60)), total - first, method))
                else:
                    mu, sd = {"RES": (12.5, 0.5), "COM": (16.5, 0.5), "IND": (14.0, 0.3)}[ctype]
                    lag = max(1, int(r.lognormvariate(math.log(mu), sd)))
                    if ctype == "RES":
                        method = r.choices(["CARD", "ACH", "CHECK", "CASH"], weights=[46, 22, 24, 8])[0]
                    else:
                        method = r.choices(["ACH", "CHECK", "CARD"], weights=[50, 38, 12])[0]
                    if r.random() < 0.05 and total > 2000:
                        first = round(total * r.uniform(0.3, 0.7))
                        parts = [(bill_dt + dt.timedelta(days=lag), first, method),
                                 (bill_dt + dt.timedelta(days=lag + r.randint(10, 35)), total - first, method)]
                    else:
                        parts = [(bill_dt + dt.timedelta(days=lag), total, method)]
            paid = 0
            for pdate, amount, method in parts:
                if pdate > LAST_DAY or amount <= 0:
                    continue
                pmt_seq += 1
                paid += amount
                pays.append((pmt_seq, a["no"], bill_seq, pdate, amount / 100, method))
            status = "PAID" if paid == total else ("PART" if paid else "OPEN")
            bills.append((bill_seq, a["no"], bill_dt, start, d, due, e_c / 100, g_c / 100, t_c / 100, total / 100,
                          status))
    tables["METER_READING"] = reads
    tables["BILL"] = bills
    tables["PAYMENT"] = sorted(pays, key=lambda x: (x[3], x[0]))
    # payment ids in date order, as a real ledger would number them
    tables["PAYMENT"] = [(9000001 + i, *row[1:]) for i, row in enumerate(tables["PAYMENT"])]

    # ---------------------------------------------------------------- outages
    region_info = {c: dict(w=w, dur=df) for c, _, _, _, w, df, _ in REGIONS}
    acct_by_region = {c: [] for c in region_info}
    for a in accounts:
        acct_by_region[a["premise"]["region"]].append(a)
    for c in acct_by_region:
        acct_by_region[c].sort(key=lambda a: (a["premise"]["id"], a["open"]))

    def active_at(a, ts):
        d = ts.date()
        end = a["close"] or a["susp"]
        return a["open"] <= d and (end is None or d < end)

    events = []  # (region, svc, cause, start, hours)
    causes_e = {"EHL": (["VEG", "STORM", "EQUIP", "ANIMAL", "VEHICLE", "PLANNED", "UNKNOWN"], [31, 22, 20, 10, 5, 7, 5]),
                None: (["EQUIP", "STORM", "VEG", "ANIMAL", "VEHICLE", "PLANNED", "UNKNOWN"], [30, 17, 15, 15, 9, 8, 6])}
    for day in days(FIRST_DAY, LAST_DAY):
        season = {1: 1.2, 2: 1.1, 3: 0.9, 4: 0.9, 5: 1.0, 6: 1.2, 7: 1.3, 8: 1.25, 9: 0.95, 10: 0.85, 11: 0.9,
                  12: 1.15}[day.month]
        for code, info in region_info.items():
            rate = 100 * info["w"] / 365.25 * season
            while rate > 0:
                if r.random() < min(rate, 1.0):
                    names, weights = causes_e.get(code, causes_e[None])
                    cause = r.choices(names, weights=weights)[0]
                    svc = "E"
                    if r.random() < 0.04:
                        svc, cause = "G", r.choice(["DIGIN", "DIGIN", "EQUIP", "PLANNED"])
                    if cause == "PLANNED":
                        start = dt.datetime.combine(day, dt.time(r.choice([8, 9, 10, 13]), 0))
                    else:
                        start = dt.datetime.combine(day, dt.time(0, 0)) + dt.timedelta(minutes=r.randint(0, 1439))
                    events.append((code, svc, cause, start))
                rate -= 1.0
    storm = dt.datetime(2024, 7, 16, 15, 30)
    for code, k in (("EHL", 31), ("RIV", 14), ("NSH", 16), ("LKS", 11), ("SVL", 4)):
        for _ in range(k):
            events.append((code, "E", "STORM", storm + dt.timedelta(minutes=int(r.uniform(0, 600)))))
    events.append(("NSH", "E", "EQUIP", dt.datetime(2024, 12, 31, 18, 42)))   # still out at the extract
    events.append(("EHL", "E", "VEG", dt.datetime(2024, 12, 31, 21, 5)))
    events.sort(key=lambda e: (e[3], e[0]))
    outages, out_accts, out_meta = [], [], []
    oid = 24000
    for code, svc, cause, start in events:
        oid += 1
        big_storm = cause == "STORM" and start.date() == storm.date()
        if cause == "PLANNED":
            hours = r.choice([2, 3, 3, 4, 4, 6]) + r.random() * 0.5
        else:
            f = {"STORM": 2.4, "VEG": 1.4, "EQUIP": 1.0, "ANIMAL": 0.6, "VEHICLE": 1.7, "UNKNOWN": 0.9,
                 "DIGIN": 2.0}[cause]
            hours = r.lognormvariate(math.log(2.1), 0.65) * f * region_info[code]["dur"]
            if big_storm:
                hours *= 2.2
        end = start + dt.timedelta(minutes=max(12, int(hours * 60)))
        end_ts = end if end <= END_TS else None
        if start >= dt.datetime(2024, 12, 31, 18, 0):
            end_ts = None
        pool = [a for a in acct_by_region[code] if active_at(a, start)
                and (svc == "E" or a["premise"]["gmeter"])]
        if cause == "STORM":
            size = r.lognormvariate(math.log(55), 0.8)
        elif cause == "PLANNED":
            size = r.lognormvariate(math.log(22), 0.5)
        else:
            size = r.lognormvariate(math.log(13), 1.0)
        size = max(1, min(len(pool), int(size)))
        i0 = r.randrange(len(pool))
        hit = [pool[(i0 + k) % len(pool)] for k in range(size)]
        feeder = f"{code}-F{(i0 * 24) // len(pool) + 1:02d}"
        outages.append((oid, code, feeder, svc, cause, start, end_ts, len(hit)))
        out_meta.append(dict(id=oid, region=code, svc=svc, cause=cause, start=start, end=end_ts, hit=hit))
        for a in hit:
            out_accts.append((oid, a["no"]))
    tables["OUTAGE"] = outages
    tables["OUTAGE_ACCT"] = out_accts

    # ---------------------------------------------------------------- technicians and work orders
    techs = []
    for i, (first, last, reg, skill, _title, hired, w) in enumerate(TECHS):
        techs.append(dict(id=4101 + i, first=first, last=last, region=reg, skill=skill, hired=hired, w=w))
    tables["TECHNICIAN"] = [(t["id"], t["first"], t["last"], t["region"], t["skill"], TECHS[i][4], t["hired"])
                            for i, t in enumerate(techs)]

    jobs = []  # (type, priority, premise, acct, meter, outage, created ts, svc needed, fixed completion)

    def ts_on(day, lo=7, hi=17):
        return dt.datetime.combine(day, dt.time(0, 0)) + dt.timedelta(minutes=r.randint(lo * 60, hi * 60))

    for a in accounts:
        p = a["premise"]
        if FIRST_DAY <= a["open"] <= LAST_DAY:
            kind = "NEW_SVC" if p["new_on"] == a["open"] else "MOVE_IN"
            created = ts_on(a["open"] - dt.timedelta(days=r.randint(2, 10)))
            if created.date() < FIRST_DAY:
                created = ts_on(FIRST_DAY)
            jobs.append((kind, "3" if kind == "NEW_SVC" else "2", p, a["no"], p["emeter"], None, created, "E",
                         a["open"]))
        if a["close"] and FIRST_DAY <= a["close"] <= LAST_DAY:
            created = ts_on(a["close"] - dt.timedelta(days=r.randint(3, 14)))
            if created.date() < FIRST_DAY:
                created = ts_on(FIRST_DAY)
            jobs.append(("MOVE_OUT", "2", p, a["no"], p["emeter"], None, created, "E", a["close"]))
        if a["susp"]:
            created = ts_on(a["susp"] - dt.timedelta(days=r.randint(5, 12)))
            jobs.append(("DISCONNECT", "2", p, a["no"], p["emeter"], None, created, "E", a["susp"]))
    for o in out_meta:
        if o["cause"] == "PLANNED":
            continue
        p = o["hit"][0]["premise"]
        kind = "REPAIR" if o["svc"] == "E" else "GAS_LEAK"
        meter = None if o["svc"] == "E" else p["gmeter"]
        k = 1 + (r.random() < 0.25) + (o["cause"] == "STORM" and r.random() < 0.5)
        for _ in range(k):
            jobs.append((kind, "1", p, None, meter, o["id"], o["start"] + dt.timedelta(minutes=r.randint(3, 40)),
                         o["svc"], o["end"]))
    gas_premises = [p for p in premises if p["gmeter"]]
    occupant = {}
    for a in accounts:
        occupant.setdefault(a["premise"]["id"], []).append(a)

    def acct_on(p, day):
        for a in occupant.get(p["id"], []):
            end = a["close"] or a["susp"]
            if a["open"] <= day and (end is None or day < end):
                return a["no"]
        return None

    for day in days(FIRST_DAY, LAST_DAY):
        if day.weekday() < 5:
            for kind, prio, per_day, pool in (("INSPECT", "3", 3.6, premises), ("METER_EXCH", "3", 1.9, premises),
                                              ("HIGH_BILL", "3", 1.1, premises)):
                n = int(r.gauss(per_day, 1.0) + 0.5)
                for _ in range(max(0, n)):
                    p = r.choice(pool)
                    if p["new_on"] and p["new_on"] > day:
                        continue
                    svc = "G" if (p["gmeter"] and r.random() < 0.35) else "E"
                    meter = p["gmeter"] if svc == "G" else p["emeter"]
                    acct = acct_on(p, day)
                    if kind == "HIGH_BILL" and acct is None:
                        continue
                    jobs.append((kind, prio, p, acct, meter, None, ts_on(day, 8, 16), svc, None))
        season = 1.6 if day.month in (11, 12, 1, 2, 3) else 0.8
        for _ in range(int(r.random() < 0.75 * season) + int(r.random() < 0.1)):
            p = r.choice(gas_premises)
            if p["new_on"] and p["new_on"] > day:
                continue
            jobs.append(("GAS_LEAK", "1", p, acct_on(p, day), p["gmeter"], None, ts_on(day, 0, 23), "G", None))
    jobs.sort(key=lambda j: (j[6], j[2]["id"], j[0]))

    by_region = {}
    for t in techs:
        by_region.setdefault(t["region"], []).append(t)
    raman = next(t for t in techs if t["last"] == "Raman")
    wos = []
    wo_seq = 0
    for kind, prio, p, acct, meter, outage_id, created, svc, fixed_end in jobs:
        wo_seq += 1
        wo_no = f"WO{created.year % 100:02d}{wo_seq:06d}"
        day = created.date()
        cands = [t for t in by_region[p["region"]]
                 if t["hired"] <= day and t is not raman and (t["skill"] == "DUAL" or t["skill"] == ("ELEC" if svc == "E" else "GAS"))
                 and not (t["last"] == "Whitaker" and day > WHITAKER_LAST_JOB)]
        if not cands:
            cands = [t for t in by_region[p["region"]] if t["hired"] <= day and t["skill"] == "DUAL"
                     and not (t["last"] == "Whitaker" and day > WHITAKER_LAST_JOB)]
        tech = r.choices(cands, weights=[t["w"] for t in cands])[0]
        # completion
        if prio == "1":
            if fixed_end is not None:
                cmpl = fixed_end + dt.timedelta(minutes=r.randint(0, 50))
            elif kind == "REPAIR" or outage_id is not None:
                cmpl = None
            else:
                cmpl = created + dt.timedelta(minutes=int(r.uniform(45, 300)))
            sched = day
        elif prio == "2":
            sched = fixed_end if fixed_end else day + dt.timedelta(days=r.randint(1, 5))
            cmpl = ts_on(sched, 8, 17) if r.random() < 0.97 else ts_on(sched + dt.timedelta(days=r.randint(1, 6)))
        else:
            sched = fixed_end if fixed_end else day + dt.timedelta(days=int(r.triangular(2, 30, 7)))
            cmpl = ts_on(sched + dt.timedelta(days=r.choice([0, 0, 0, 0, 1, 2, 5])), 8, 17)
        status = "CLSD"
        if kind == "MOVE_IN" and cmpl is not None and cmpl.date() < day:
            cmpl = created + dt.timedelta(hours=3)
        if tech["last"] == "Whitaker" and cmpl is not None and cmpl.date() > dt.date(2023, 12, 29):
            tech = r.choice([t for t in cands if t["last"] != "Whitaker"] or cands)
        if prio == "3" and kind in ("INSPECT", "METER_EXCH", "HIGH_BILL") and r.random() < 0.035:
            status, cmpl = "CNCL", None
        elif cmpl is None or cmpl > END_TS:
            status, cmpl = "OPEN", None
        elif prio == "3" and r.random() < 0.008:
            status, cmpl = "OPEN", None   # stuck on hold, never finished
        if day >= raman["hired"] and p["region"] == "MET" and svc == "E" and prio == "3" and r.random() < 0.35:
            tech = raman   # ride-along training jobs, scheduled in January
            status, cmpl = "OPEN", None
            sched = dt.date(2025, 1, 6) + dt.timedelta(days=r.randint(0, 10))
        tech_id = tech["id"]
        if status == "OPEN" and tech is not raman and r.random() < 0.3 and prio == "3":
            tech_id = None   # not yet assigned
        hours = None
        if status == "CLSD":
            base = {"INSPECT": 1.2, "METER_EXCH": 1.6, "HIGH_BILL": 1.0, "MOVE_IN": 0.6, "MOVE_OUT": 0.5,
                    "DISCONNECT": 0.7, "NEW_SVC": 4.5, "REPAIR": 3.0, "GAS_LEAK": 1.8}[kind]
            hours = round(max(0.25, r.lognormvariate(math.log(base), 0.4)) * 4) / 4
        wos.append((wo_no, kind, prio, p["id"], acct, meter, outage_id, tech_id, created, sched, cmpl, status, hours))
    tables["WORK_ORDER"] = wos
    return tables


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        for row in rows:
            w.writerow(["\\N" if v is None else (v.isoformat(sep=" ") if isinstance(v, dt.datetime) else v)
                        for v in row])


def main() -> None:
    _common.ensure_venv()
    import duckdb

    path = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PATH)
    tables = build()
    work = tempfile.mkdtemp(prefix="utility-load-")
    fd, tmp = tempfile.mkstemp(suffix=".duckdb", dir=os.path.dirname(path))
    os.close(fd)
    os.remove(tmp)  # DuckDB wants to create the file itself
    try:
        con = duckdb.connect(tmp)
        con.execute(f"CREATE SCHEMA {SCHEMA}")
        for ddl in DDL:
            con.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            con.execute(f"COMMENT ON TABLE {SCHEMA}.{table} IS '{comment}'")
        for (table, column), comment in COLUMN_COMMENTS.items():
            con.execute(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS '{comment}'")
        counts = {}
        for table, rows in tables.items():
            f = os.path.join(work, table + ".csv")
            write_csv(f, rows)
            con.execute(f"COPY {SCHEMA}.{table} FROM '{f}' (FORMAT csv, HEADER false, NULLSTR '\\N', QUOTE '\"')")
            counts[f"{SCHEMA}.{table}"] = con.execute(f"SELECT count(*) FROM {SCHEMA}.{table}").fetchone()[0]
            assert counts[f"{SCHEMA}.{table}"] == len(rows), table
        con.execute("CHECKPOINT")
        con.close()
        os.replace(tmp, path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        for leftover in (tmp, tmp + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
    print(f"loaded the synthetic utility into DuckDB file {path}, schema {SCHEMA}:")
    _common.print_counts(counts, f"duckdb://{path}",
                         f"(tables are in schema {SCHEMA}, not main: WAREHOUSE_SCHEMAS={SCHEMA} names it; "
                         "DuckDB has no users: the bot opens the file read-only)")


if __name__ == "__main__":
    main()
