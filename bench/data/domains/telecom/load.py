#!/usr/bin/env python3
"""A synthetic regional mobile carrier (Ohio, Michigan, Indiana) on MariaDB, database dev_telecom.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

Drops and rebuilds database dev_telecom, loads eight tables generated deterministically with
random.Random(SEED), and creates (or resets) the read-only login telecom_reader / telecom_reader
(SELECT on dev_telecom only). Idempotent: the same rows on every run.

Naming: UPPER_SNAKE_CASE tables and columns with type suffixes (_ID, _CD, _NM, _DT, _TS, _IND,
_NUM, _QTY, _CNT, _AMT_CENTS, _TXT). Primary keys are declared; foreign keys are NOT (implied by
the *_ID names). Codes are explained only in the column COMMENTs.

The warehouse starts with the cut-over to the current billing system on 2022-07-01: lines that
were still active then were converted (plan history row CHG_RSN_CD = 'CNV', ACTV_DT keeps the real
activation date, 2014 onwards); lines cancelled before the cut-over were never loaded. Extract date
2025-06-30: bills exist for the cycles July 2022 .. May 2025 (invoiced on the 1st of the next month),
usage for 202207 .. 202506.

  RTL_LOC        stores and sales channels: company stores (C), authorized dealers (D), the online
                 store (O), telesales (T) and the internal network lab (X); CLS_DT NULL = still open
  RATE_PLN       rate plans; two different plans are both called 'Unlimited Plus' (2019 version,
                 closed to new sales 2023-06-30 but kept by grandfathered lines, and the 2023 one)
  SUBSCR         one row per line (phone number); ACCT_ID groups lines of one paying customer (no
                 account table); TEST_LN_IND = 'Y' marks internal test lines; DEACT_DT NULL = active
  SUB_PLN_HIST   plan periods per line (END_DT NULL = current plan); CHG_RSN_CD says why it started
  INVC_HDR       monthly bills, one per postpaid line and bill cycle, amounts in cents; voided bills
                 (V) were reissued as a new row; prepaid and test lines get no bills
  USG_MO_SUMM    usage per line and month (USG_PRD_NUM = YYYYMM): voice minutes, SMS, data in KB
  CRM_CASE       customer-care tickets ("cases"); DUP_OF_CASE_ID marks duplicates merged into another
  PORT_OUT_REQ   number port-out requests from other carriers (completed, cancelled, rejected, pending)
"""

import calendar
import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, USER = "dev_telecom", "telecom_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
SEED = 23
CUTOVER = dt.date(2022, 7, 1)   # first day in the warehouse (billing-system migration)
EXTRACT = dt.date(2025, 6, 30)  # "today" for the data
PRE_EXISTING_LINES = 5600       # lines still active at the cut-over

DDL = {
    "RTL_LOC": ("""
        LOC_ID SMALLINT NOT NULL PRIMARY KEY,
        LOC_NM VARCHAR(40) NOT NULL COMMENT 'store name as used internally (usually the mall or neighbourhood)',
        LOC_TYP_CD CHAR(1) NOT NULL COMMENT 'C = company-owned store, D = authorized dealer (franchise), O = online store (web), T = telesales call centre, X = internal network lab (not a sales channel)',
        CITY_NM VARCHAR(30) NULL COMMENT 'NULL for the online store, telesales and the lab',
        ST_CD CHAR(2) NULL COMMENT 'US state; NULL for the online store, telesales and the lab',
        OPEN_DT DATE NOT NULL,
        CLS_DT DATE NULL COMMENT 'date the location closed; NULL = still open',
        SQ_FT_NUM SMALLINT NULL COMMENT 'sales floor in square feet; NULL where there is no floor'""",
                "Retail locations and sales channels where lines are activated"),
    "RATE_PLN": ("""
        PLN_ID SMALLINT NOT NULL PRIMARY KEY,
        PLN_CD VARCHAR(8) NOT NULL COMMENT 'short plan code used on bills and in the CRM',
        PLN_NM VARCHAR(40) NOT NULL COMMENT 'marketing name (not unique: a relaunched plan keeps its name)',
        PLN_TYP_CD CHAR(2) NOT NULL COMMENT 'PO = postpaid (billed monthly), PP = prepaid (pays in advance, no bills)',
        MO_FEE_CENTS INT NOT NULL COMMENT 'monthly recurring charge in US cents, before tax',
        DATA_ALWNC_MB INT NULL COMMENT 'high-speed data included per month in MB; NULL = unlimited',
        LNCH_DT DATE NOT NULL COMMENT 'first day the plan could be sold',
        RTRD_DT DATE NULL COMMENT 'last day the plan could be sold; NULL = still on sale. Lines already on a retired plan keep it (grandfathered) unless migrated'""",
                 "Rate plans (price plans) offered to subscribers"),
    "SUBSCR": ("""
        SUB_ID INT NOT NULL PRIMARY KEY,
        ACCT_ID INT NOT NULL COMMENT 'billing account (the paying customer); several lines can share one account',
        MSISDN_NUM CHAR(10) NOT NULL COMMENT 'the phone number',
        FRST_NM VARCHAR(30) NOT NULL,
        LAST_NM VARCHAR(30) NOT NULL,
        BIRTH_DT DATE NULL,
        HOME_ST_CD CHAR(2) NOT NULL COMMENT 'state of the billing address',
        ACTV_DT DATE NOT NULL COMMENT 'activation date of the line (lines activated before 2022-07-01 are only here if still active on that date)',
        ACTV_LOC_ID SMALLINT NOT NULL COMMENT 'RTL_LOC where the line was activated',
        CUR_PLN_ID SMALLINT NOT NULL COMMENT 'current plan (for deactivated lines: the last plan)',
        SUB_STAT_CD CHAR(1) NOT NULL COMMENT 'A = active, S = suspended for non-payment (still a line, service barred), D = deactivated',
        DEACT_DT DATE NULL COMMENT 'deactivation date; NULL = not deactivated (status A or S)',
        DEACT_RSN_CD CHAR(3) NULL COMMENT 'why the line was deactivated: PRT = ported out to another carrier, VOL = customer cancelled, NPY = cut off for non-payment, EXP = prepaid expired (no top-up for 60 days); NULL while active',
        TEST_LN_IND CHAR(1) NOT NULL DEFAULT 'N' COMMENT 'Y = internal test / network lab line, not a customer: exclude from all customer reporting',
        LAST_UPD_TS DATETIME NOT NULL,
        KEY IX_SUBSCR_ACCT (ACCT_ID)""",
               "Subscribers: one row per mobile line (phone number), not per customer"),
    "SUB_PLN_HIST": ("""
        SUB_PLN_HIST_ID INT NOT NULL PRIMARY KEY,
        SUB_ID INT NOT NULL,
        PLN_ID SMALLINT NOT NULL,
        EFF_DT DATE NOT NULL COMMENT 'first day on this plan',
        END_DT DATE NULL COMMENT 'last day on this plan; NULL = current plan',
        CHG_RSN_CD CHAR(3) NOT NULL COMMENT 'why this plan period started: NEW = new activation, CNV = converted from the old billing system on 2022-07-01 (not a change), UPG = upgrade to a pricier plan, DWN = downgrade, LAT = lateral move at the same price level, MIG = forced migration off a retired plan',
        KEY IX_SPH_SUB (SUB_ID)""",
                     "Plan history: one row per line and plan period"),
    "INVC_HDR": ("""
        INVC_ID INT NOT NULL PRIMARY KEY,
        SUB_ID INT NOT NULL,
        ACCT_ID INT NOT NULL,
        PLN_ID SMALLINT NOT NULL COMMENT 'plan billed this cycle',
        BILL_PRD_STRT_DT DATE NOT NULL COMMENT 'first day of the bill cycle (always the 1st of a month)',
        BILL_PRD_END_DT DATE NOT NULL,
        INVC_DT DATE NOT NULL COMMENT 'invoice (bill) date, normally the 1st of the month after the cycle',
        DUE_DT DATE NOT NULL,
        RCR_CHRG_AMT_CENTS INT NOT NULL COMMENT 'recurring plan charge (prorated in partial months), cents',
        OVG_CHRG_AMT_CENTS INT NOT NULL COMMENT 'data overage charges, cents',
        ROAM_CHRG_AMT_CENTS INT NOT NULL COMMENT 'international roaming charges, cents',
        TAX_AMT_CENTS INT NOT NULL COMMENT 'taxes and regulatory fees, cents',
        TOT_AMT_CENTS INT NOT NULL COMMENT 'amount billed = recurring + overage + roaming + tax, cents',
        PAID_DT DATE NULL COMMENT 'date paid in full; NULL = not paid (yet)',
        INVC_STAT_CD CHAR(1) NOT NULL COMMENT 'O = open (unpaid), P = paid, W = written off (bad debt), V = voided (billed in error and reissued as a new invoice; ignore)',
        KEY IX_INVC_SUB (SUB_ID), KEY IX_INVC_DT (INVC_DT)""",
                 "Invoice headers: one per postpaid line and monthly bill cycle (from the July 2022 cycle, when this billing system went live)"),
    "USG_MO_SUMM": ("""
        SUB_ID INT NOT NULL,
        USG_PRD_NUM INT NOT NULL COMMENT 'usage month as YYYYMM',
        VOICE_MIN_QTY INT NOT NULL COMMENT 'voice minutes',
        SMS_CNT INT NOT NULL COMMENT 'text messages sent',
        DATA_KB_QTY BIGINT NOT NULL COMMENT 'mobile data used at home, in kilobytes (KB)',
        ROAM_DATA_KB_QTY BIGINT NOT NULL COMMENT 'data used while roaming abroad, in kilobytes (KB)',
        PRIMARY KEY (SUB_ID, USG_PRD_NUM)""",
                    "Usage records summarised per line and calendar month"),
    "CRM_CASE": ("""
        CASE_ID INT NOT NULL PRIMARY KEY,
        SUB_ID INT NULL COMMENT 'NULL when the contact was not (yet) a subscriber',
        OPEN_TS DATETIME NOT NULL,
        CLSD_TS DATETIME NULL COMMENT 'when the case was closed; NULL = still open',
        CASE_TYP_CD CHAR(3) NOT NULL COMMENT 'BIL = billing / charges, NET = network / coverage, DEV = device / handset, ACT = account or plan change, PRT = number porting, OTH = other',
        CHNL_CD CHAR(1) NOT NULL COMMENT 'how it came in: C = call centre, S = in store, W = web chat',
        LOC_ID SMALLINT NULL COMMENT 'RTL_LOC when raised in a store (CHNL_CD = S)',
        PRIO_NUM TINYINT NOT NULL COMMENT '1 = urgent .. 4 = low',
        CASE_SUBJ_TXT VARCHAR(80) NOT NULL,
        DUP_OF_CASE_ID INT NULL COMMENT 'set when this case is a duplicate merged into that CASE_ID (not a separate issue)',
        KEY IX_CASE_SUB (SUB_ID)""",
                 "Customer care cases logged in the CRM"),
    "PORT_OUT_REQ": ("""
        PORT_REQ_ID INT NOT NULL PRIMARY KEY,
        SUB_ID INT NOT NULL,
        MSISDN_NUM CHAR(10) NOT NULL,
        REQ_TS DATETIME NOT NULL COMMENT 'when the gaining carrier sent the port request',
        RCPNT_CARR_NM VARCHAR(30) NOT NULL COMMENT 'gaining (recipient) carrier the number moves to',
        PORT_STAT_CD CHAR(3) NOT NULL COMMENT 'CMP = completed (number left us), CXL = cancelled by the customer (kept), REJ = rejected (wrong account number or PIN), PND = pending',
        CMPLT_DT DATE NULL COMMENT 'date the port completed; NULL unless CMP',
        KEY IX_PORT_SUB (SUB_ID)""",
                     "Port-out requests: another carrier asking to take over one of our numbers"),
}

# id, name, type, city, state, opened, closed, sq ft, activation weight
LOCS = [
    (1, "Easton Town Center", "C", "Columbus", "OH", dt.date(2014, 4, 1), None, 2400, 15),
    (2, "Polaris Fashion Place", "C", "Columbus", "OH", dt.date(2017, 9, 15), None, 2100, 8),
    (3, "Westland", "D", "Columbus", "OH", dt.date(2015, 5, 1), None, 850, 4),
    (4, "Downtown Cleveland", "C", "Cleveland", "OH", dt.date(2014, 3, 1), None, 1800, 8),
    (5, "Crocker Park", "C", "Westlake", "OH", dt.date(2019, 6, 1), None, 1600, 6),
    (6, "Kenwood", "C", "Cincinnati", "OH", dt.date(2016, 2, 1), None, 2000, 9),
    (7, "Dayton Mall", "D", "Miamisburg", "OH", dt.date(2018, 8, 1), None, 850, 4),
    (8, "Toledo Westgate", "D", "Toledo", "OH", dt.date(2020, 3, 1), dt.date(2024, 3, 31), 800, 3),
    (9, "Somerset Collection", "C", "Troy", "MI", dt.date(2016, 10, 1), None, 2300, 9),
    (10, "Westland", "C", "Westland", "MI", dt.date(2019, 4, 1), None, 1500, 5),
    (11, "Detroit Midtown", "C", "Detroit", "MI", dt.date(2018, 1, 15), None, 1700, 7),
    (12, "Woodland Mall", "D", "Grand Rapids", "MI", dt.date(2017, 5, 1), None, 900, 5),
    (13, "Briarwood", "C", "Ann Arbor", "MI", dt.date(2021, 11, 1), None, 1400, 4),
    (14, "Lansing Eastwood", "D", "Lansing", "MI", dt.date(2023, 5, 1), None, 750, 3),
    (15, "Circle Centre", "C", "Indianapolis", "IN", dt.date(2015, 8, 1), None, 2000, 8),
    (16, "Keystone", "C", "Indianapolis", "IN", dt.date(2022, 10, 1), None, 1800, 6),
    (17, "Glenbrook", "D", "Fort Wayne", "IN", dt.date(2016, 6, 1), None, 800, 3),
    (18, "College Mall", "D", "Bloomington", "IN", dt.date(2019, 9, 1), dt.date(2023, 12, 31), 700, 2),
    (19, "Online Store", "O", None, None, dt.date(2014, 1, 1), None, None, 0),   # weight varies
    (20, "Telesales", "T", None, None, dt.date(2014, 1, 1), None, None, 4),
    (21, "Network Lab", "X", None, None, dt.date(2014, 1, 1), None, None, 0),
]
STATE_TAX = {"OH": 0.112, "MI": 0.098, "IN": 0.105}
AREA_CODES = {"OH": ["614", "216", "513", "937", "419", "440"], "MI": ["313", "248", "616", "734", "517"],
              "IN": ["317", "260", "812"]}

# id, code, name, type, fee cents, data MB (None = unlimited), launched, retired, ladder step
PLANS = [
    (1, "CLS2", "Classic 2GB", "PO", 3500, 2048, dt.date(2014, 1, 1), dt.date(2022, 12, 31), 0),
    (2, "ESS5", "Essentials 5GB", "PO", 4000, 5120, dt.date(2018, 1, 1), None, 1),
    (3, "ESS15", "Essentials 15GB", "PO", 5000, 15360, dt.date(2020, 6, 1), None, 2),
    (4, "UNLS", "Unlimited Start", "PO", 6000, None, dt.date(2019, 1, 1), None, 3),
    (5, "UNLP19", "Unlimited Plus", "PO", 7000, None, dt.date(2019, 1, 1), dt.date(2023, 6, 30), 4),
    (6, "UNLP23", "Unlimited Plus", "PO", 7500, None, dt.date(2023, 7, 1), None, 4),
    (7, "UNLPR", "Unlimited Premium", "PO", 8500, None, dt.date(2021, 3, 1), None, 5),
    (8, "BIZU", "Business Unlimited", "PO", 6500, None, dt.date(2020, 1, 1), None, None),
    (9, "PP3", "Prepaid 3GB", "PP", 2500, 3072, dt.date(2016, 1, 1), None, 1),
    (10, "PP10", "Prepaid 10GB", "PP", 3500, 10240, dt.date(2020, 1, 1), None, 2),
    (11, "PPUNL", "Prepaid Unlimited", "PP", 5000, None, dt.date(2022, 3, 1), None, 3),
    (12, "PAYG", "Pay As You Go", "PP", 1000, 1024, dt.date(2014, 1, 1), dt.date(2024, 1, 31), 0),
]
PLAN = {p[0]: dict(code=p[1], name=p[2], typ=p[3], fee=p[4], mb=p[5], launch=p[6], retired=p[7], step=p[8])
        for p in PLANS}
# forced migrations: (day, from plan, to plan)
MIGRATIONS = [(dt.date(2023, 1, 1), 1, 2), (dt.date(2024, 2, 1), 12, 9)]
PO_LADDER = {1: 2, 2: 3, 3: 4, 4: 6, 5: 7}   # step -> current plan at that step (upgrade targets)
PP_LADDER = {1: 9, 2: 10, 3: 11}

# mix of plans on new sales (postpaid consumer / prepaid), before and after the 2023 relaunch
PO_MIX_OLD = {2: 17, 3: 20, 4: 21, 5: 30, 7: 12}
PO_MIX_NEW = {2: 14, 3: 19, 4: 19, 6: 36, 7: 12}
PP_MIX = {9: 40, 10: 35, 11: 25}
PRE_MIX = {1: 10, 2: 12, 3: 11, 4: 14, 5: 22, 7: 5, 8: 3, 9: 9, 10: 7, 12: 11}  # plans of converted lines

CARRIERS = ["Verity Wireless", "Apex Cellular", "Nimbus Mobile", "BlueJay Telecom", "Kite Mobile"]
CARRIER_W_BASE = [34, 26, 14, 14, 12]
CARRIER_W_PROMO = [22, 18, 46, 8, 6]    # Nimbus Mobile's "switch & save" promo, Apr-Sep 2024

FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
         "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Chris", "Karen",
         "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Ashley", "Mark", "Emily", "Andrew", "Megan",
         "Tyler", "Brittany", "Kevin", "Amanda", "Brian", "Nicole", "Jamal", "Aaliyah", "Hassan", "Layla",
         "Wei", "Mei", "Carlos", "Sofia", "Luis", "Maria", "Dmitri", "Anya", "Kwame", "Ama", "Raj", "Priya"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor",
        "Thomas", "Moore", "Martin", "Jackson", "Thompson", "White", "Harris", "Clark", "Lewis", "Walker",
        "Hall", "Young", "King", "Wright", "Hill", "Scott", "Green", "Adams", "Baker", "Nelson", "Carter",
        "Mitchell", "Roberts", "Turner", "Phillips", "Campbell", "Parker", "Evans", "Edwards", "Collins",
        "Kowalski", "Nowak", "Schmidt", "Mueller", "Hernandez", "Garcia", "Lopez", "Nguyen", "Patel", "Kim",
        "Haddad", "Saleh", "Okafor", "Mensah", "Yoder", "Stoltzfus", "O'Connor", "Murphy"]

SUBJECTS = {
    "BIL": ["Bill higher than expected", "Question about prorated charge", "Autopay failed", "Roaming charges dispute",
            "Overage charge on data", "Late fee waiver request", "Duplicate charge on bill"],
    "NET": ["No signal at home", "Dropped calls", "Slow data speeds", "No service in area", "Calls not connecting",
            "Wi-Fi calling not working"],
    "DEV": ["Phone not activating", "SIM card not recognized", "eSIM transfer help", "Device unlock request",
            "Insurance claim for cracked screen"],
    "ACT": ["Change of plan", "Add a line", "Update billing address", "Change account owner", "Suspend line while abroad"],
    "PRT": ["Port-out PIN request", "Number transfer in progress", "Port-in of old number failed"],
    "OTH": ["General question", "Coverage question before joining", "Complaint about store visit", "Accessibility request"],
}
CASE_HOURS = {"BIL": 22, "NET": 64, "DEV": 30, "ACT": 7, "PRT": 12, "OTH": 14}   # median hours to close
CASE_PRIO = {"BIL": [5, 25, 50, 20], "NET": [20, 40, 30, 10], "DEV": [5, 30, 45, 20], "ACT": [2, 13, 50, 35],
             "PRT": [15, 45, 30, 10], "OTH": [2, 10, 38, 50]}


def month_starts(a: dt.date, b: dt.date):
    d = dt.date(a.year, a.month, 1)
    while d <= b:
        yield d
        d = dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def month_end(d: dt.date) -> dt.date:
    return dt.date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])


def next_month(d: dt.date) -> dt.date:
    return dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def rand_day(r, a: dt.date, b: dt.date) -> dt.date:
    return a + dt.timedelta(days=r.randint(0, (b - a).days))


def pick(r, weights: dict):
    keys = list(weights)
    return r.choices(keys, weights=[weights[k] for k in keys])[0]


def loc_open(loc, day):
    return loc[5] <= day and (loc[6] is None or day <= loc[6])


def build():
    r = random.Random(SEED)
    lines = []          # dict per line
    accounts = {}       # acct id -> dict(lines=[idx], typ, state, last, autopay)
    used_msisdn = set()
    next_acct = [100001]

    def msisdn(state):
        while True:
            n = r.choice(AREA_CODES[state]) + str(r.randint(2, 9)) + f"{r.randint(0, 999999):06d}"
            if n not in used_msisdn:
                used_msisdn.add(n)
                return n

    def store_weights(day, kind):
        w = {}
        for loc in LOCS:
            if loc[2] in "CDT" and loc_open(loc, day):
                w[loc[0]] = loc[8] * (1.6 if kind == "PP" and loc[2] == "D" else 1.0)
        # the online store grows from ~8% to ~22% of activations
        frac = min(1.0, max(0.0, (day - dt.date(2019, 1, 1)).days / (EXTRACT - dt.date(2019, 1, 1)).days))
        w[19] = sum(w.values()) * (0.09 + 0.19 * frac)
        return w

    def home_state(loc_id):
        st = LOCS[loc_id - 1][4]
        if st is None or r.random() < 0.04:
            st = r.choices(["OH", "MI", "IN"], weights=[50, 31, 19])[0]
        return st

    def available(plan_id, day):
        p = PLAN[plan_id]
        return p["launch"] <= day and (p["retired"] is None or day <= p["retired"])

    def new_line(acct, actv, loc_id, plan_id, first_seg_start, reason, test=False):
        a = accounts[acct]
        idx = len(lines)
        age = r.triangular(18, 82, 36)
        birth = actv - dt.timedelta(days=int(age * 365.25)) if r.random() > 0.03 else None
        lines.append(dict(
            idx=idx, acct=acct, msisdn=msisdn(a["state"]),
            first=r.choice(FIRST), last=a["last"] if r.random() < 0.8 else r.choice(LAST),
            birth=birth, state=a["state"], actv=actv, loc=loc_id,
            segs=[[plan_id, first_seg_start, None, reason]], deact=None, reason=None, test=test,
            data_mult=r.lognormvariate(0, 0.55), voice_mult=r.lognormvariate(0, 0.6),
            sms_mult=r.lognormvariate(0, 0.8), roamer=r.random() < 0.12, case_mult=r.lognormvariate(0, 0.6)))
        a["lines"].append(idx)
        return idx

    def new_account(state, typ, autopay=None):
        acct = next_acct[0]
        next_acct[0] += 1
        accounts[acct] = dict(lines=[], state=state, typ=typ, last=r.choice(LAST),
                              autopay=(r.random() < 0.6) if autopay is None else autopay)
        return acct

    def family_size(typ):
        if typ == "PP":
            return 1
        if typ == "BIZ":
            return r.choice([2, 2, 2, 3, 3, 4, 5, 6])
        return r.choices([1, 2, 3, 4, 5], weights=[52, 22, 12, 11, 3])[0]

    # ---- lines still active at the cut-over (converted from the old billing system)
    n = 0
    while n < PRE_EXISTING_LINES:
        # activation dates skewed to recent years
        actv = CUTOVER - dt.timedelta(days=int(r.betavariate(1.2, 2.6) * (CUTOVER - dt.date(2014, 1, 2)).days) + 1)
        plan_id = pick(r, PRE_MIX)
        typ = "BIZ" if plan_id == 8 else PLAN[plan_id]["typ"]
        w = {k: v for k, v in store_weights(actv, typ).items()}
        loc_id = pick(r, w)
        acct = new_account(home_state(loc_id), typ)
        for _ in range(family_size(typ)):
            p = plan_id
            if typ == "PO" and r.random() < 0.25:
                p = pick(r, {k: v for k, v in PRE_MIX.items() if PLAN[k]["typ"] == "PO" and k != 8})
            new_line(acct, actv, loc_id, p, CUTOVER, "CNV")
            n += 1
    # internal test lines (network lab), some from before the cut-over
    for k in range(6):
        acct = new_account("OH", "TEST", autopay=True)
        accounts[acct]["last"] = "Lab"
        for j in range(8):
            actv = dt.date(2019, 3, 4) + dt.timedelta(days=r.randint(0, 2200))
            plan_id = r.choice([7, 7, 6, 11]) if actv >= dt.date(2023, 7, 1) else r.choice([7, 7, 5, 11])
            idx = new_line(acct, actv, 21, plan_id, max(actv, CUTOVER), "NEW" if actv >= CUTOVER else "CNV", test=True)
            lines[idx]["first"] = f"TEST{k + 1}{j + 1:02d}"
            lines[idx]["last"] = "NETWORK LAB"
            lines[idx]["data_mult"] = r.uniform(9, 25)
    test_pending = [ln for ln in lines if ln["test"] and ln["actv"] >= CUTOVER]
    for ln in lines:
        if ln["test"] and ln["actv"] >= CUTOVER:
            ln["pending"] = True

    active = [ln["idx"] for ln in lines if ln["actv"] < CUTOVER]
    carrier_promo = (dt.date(2024, 4, 1), dt.date(2024, 9, 30))

    def cur_plan(ln):
        return ln["segs"][-1][0]

    def change_plan(ln, day, plan_id, reason):
        if ln["segs"][-1][1] >= day:      # already changed on/after that day
            return
        ln["segs"][-1][2] = day - dt.timedelta(days=1)
        ln["segs"].append([plan_id, day, None, reason])

    for m in month_starts(CUTOVER, EXTRACT):
        m_end = month_end(m)
        # forced migrations on the 1st
        for day, src, dst in MIGRATIONS:
            if day == m:
                for i in active:
                    if cur_plan(lines[i]) == src:
                        change_plan(lines[i], day, dst, "MIG")
        # test lines activated this month
        for ln in test_pending:
            if ln.get("pending") and ln["actv"] <= m_end:
                ln["pending"] = False
                active.append(ln["idx"])
        survivors = []
        for i in active:
            ln = lines[i]
            plan_id = cur_plan(ln)
            typ = PLAN[plan_id]["typ"]
            start = max(ln["actv"], m)
            if ln["test"]:
                if r.random() < 0.006:
                    ln["deact"], ln["reason"] = rand_day(r, start, m_end), "VOL"
                else:
                    survivors.append(i)
                continue
            tenure_m = (m - ln["actv"]).days / 30.4
            p = 0.0105 if typ == "PO" else 0.029
            if plan_id == 8:
                p = 0.006
            if tenure_m < 6:
                p *= 1.5
            promo = carrier_promo[0] <= m <= carrier_promo[1]
            reasons = ({"PRT": 45, "VOL": 35, "NPY": 20} if typ == "PO" else {"PRT": 22, "VOL": 10, "EXP": 68})
            if promo:
                reasons = dict(reasons, PRT=reasons["PRT"] * 2.2)
                p *= 1 + 1.2 * reasons["PRT"] / sum(reasons.values()) * 0.9
            if r.random() < p and start <= m_end:
                ln["deact"] = rand_day(r, start, m_end)
                ln["reason"] = pick(r, reasons)
                if ln["deact"] <= ln["segs"][-1][1]:
                    ln["deact"] = ln["segs"][-1][1] + dt.timedelta(days=1)
                    if ln["deact"] > m_end:
                        survivors.append(i)
                        ln["deact"] = ln["reason"] = None
                continue
            survivors.append(i)
            # plan changes
            step = PLAN[plan_id]["step"]
            if step is None or start > m_end - dt.timedelta(days=1):
                continue
            if r.random() < (0.017 if typ == "PO" else 0.012):
                day = rand_day(r, start + dt.timedelta(days=1), m_end)
                ladder = PO_LADDER if typ == "PO" else PP_LADDER
                top = max(ladder)
                u = r.random()
                if plan_id == 5 and u < 0.35:
                    change_plan(ln, day, 6, "LAT")     # move to the relaunched Unlimited Plus
                    continue
                if (u < 0.68 and step < top) or step <= 1:
                    target = ladder[min(top, step + (2 if r.random() < 0.15 else 1))]
                    reason = "UPG"
                else:
                    target = ladder[max(1, step - 1)]
                    reason = "DWN"
                if target != plan_id and available(target, day):
                    change_plan(ln, day, target, reason)
        active = survivors
        # new activations this month
        season = {1: 0.8, 2: 0.85, 3: 0.95, 4: 0.95, 5: 1.0, 6: 1.0, 7: 1.0, 8: 1.05, 9: 1.3, 10: 1.15,
                  11: 1.35, 12: 1.45}[m.month]
        growth = 1.0 + 0.011 * ((m.year - CUTOVER.year) * 12 + m.month - CUTOVER.month)
        events = max(0, int(r.gauss(118 * season * growth, 9) + 0.5))
        for _ in range(events):
            day = rand_day(r, m, m_end)
            if day > EXTRACT:
                continue
            u = r.random()
            if u < 0.10:   # add a line to an existing consumer postpaid account
                cands = [lines[i]["acct"] for i in active[-4000:] if accounts[lines[i]["acct"]]["typ"] == "PO"]
                if cands:
                    acct = r.choice(cands)
                    loc_id = pick(r, store_weights(day, "PO"))
                    mix = PO_MIX_NEW if day >= dt.date(2023, 7, 1) else PO_MIX_OLD
                    idx = new_line(acct, day, loc_id, pick(r, mix), day, "NEW")
                    active.append(idx)
                    continue
            typ = "PP" if u < 0.38 else ("BIZ" if u < 0.415 else "PO")
            loc_id = pick(r, store_weights(day, typ))
            acct = new_account(home_state(loc_id), typ)
            if typ == "PP":
                mix = PP_MIX
            elif typ == "BIZ":
                mix = {8: 1}
            else:
                mix = PO_MIX_NEW if day >= dt.date(2023, 7, 1) else PO_MIX_OLD
            base_plan = pick(r, mix)
            for k in range(family_size(typ)):
                p = base_plan if (k == 0 or r.random() < 0.7 or typ != "PO") else pick(r, mix)
                active.append(new_line(acct, day, loc_id, p, day, "NEW"))

    # close the last plan period at deactivation
    for ln in lines:
        if ln["deact"]:
            ln["segs"][-1][2] = ln["deact"]

    # suspended (non-payment, still lines) at the extract: postpaid consumer lines
    suspended = set()
    for ln in lines:
        if (ln["deact"] is None and not ln["test"] and PLAN[cur_plan(ln)]["typ"] == "PO"
                and ln["actv"] < dt.date(2025, 3, 1) and r.random() < 0.012):
            suspended.add(ln["idx"])

    # ---------------------------------------------------------------- usage, bills, cases, ports
    usage, bills, cases, ports = [], [], [], []
    outage = (dt.date(2023, 8, 14), dt.date(2023, 8, 18))   # Detroit-area outage -> NET cases in MI

    def plan_on(ln, day):
        for seg in ln["segs"]:
            if seg[1] <= day and (seg[2] is None or day <= seg[2]):
                return seg[0]
        return ln["segs"][0][0] if day < ln["segs"][0][1] else ln["segs"][-1][0]

    def new_case(sub, ts, typ, chnl, state, close_hours=None):
        loc_id = None
        if chnl == "S":
            opts = [loc for loc in LOCS if loc[2] in "CD" and loc[4] == state and loc_open(loc, ts.date())]
            loc_id = r.choice(opts)[0] if opts else None
            if loc_id is None:
                chnl = "C"
        hours = close_hours if close_hours is not None else r.lognormvariate(math.log(CASE_HOURS[typ]), 0.8)
        closed = ts + dt.timedelta(minutes=max(3, int(round(hours * 60))))
        if r.random() < 0.004:
            closed = None          # forgotten, never closed
        if closed is not None and closed > dt.datetime.combine(EXTRACT, dt.time(23, 59, 59)):
            closed = None
        prio = r.choices([1, 2, 3, 4], weights=CASE_PRIO[typ])[0]
        case = [None, sub, ts, closed, typ, chnl, loc_id, prio, r.choice(SUBJECTS[typ]), None]
        cases.append(case)
        if r.random() < 0.03:      # a duplicate, merged into the first
            dts = ts + dt.timedelta(minutes=r.randint(5, 300))
            if dts.date() < EXTRACT:
                dup = [None, sub, dts, dts + dt.timedelta(minutes=r.randint(8, 90)), typ, r.choice("CW"), None,
                       prio, case[8], case]
                cases.append(dup)
        return case

    def rand_ts(day, lo=8, hi=21):
        return dt.datetime.combine(day, dt.time(r.randint(lo, hi - 1), r.randint(0, 59)))

    for ln in lines:
        sub = ln["idx"] + 1
        first_day = max(ln["actv"], CUTOVER)
        last_day = ln["deact"] or EXTRACT
        acct = accounts[ln["acct"]]
        growth_per_year = 1.12
        for m in month_starts(first_day, last_day):
            a, b = max(m, first_day), min(month_end(m), last_day)
            days_in = calendar.monthrange(m.year, m.month)[1]
            f = ((b - a).days + 1) / days_in
            plan_id = plan_on(ln, b)
            pl = PLAN[plan_id]
            yrs = (m - CUTOVER).days / 365.25
            # ---- usage
            if pl["mb"] is None:
                base_gb = 15.0 if pl["typ"] == "PO" else 10.0
            else:
                base_gb = pl["mb"] / 1024 * 0.62
            gb = base_gb * ln["data_mult"] * r.lognormvariate(0, 0.25) * growth_per_year ** yrs
            if pl["mb"] is not None:
                gb = min(gb, pl["mb"] / 1024 * r.uniform(1.0, 1.6))   # throttled beyond the cap
            gb *= f
            roam_mb = 0.0
            if ln["roamer"] and r.random() < (0.22 if m.month in (7, 8, 12) else 0.07):
                roam_mb = r.lognormvariate(math.log(350), 0.9) * f
            voice = int(r.lognormvariate(math.log(290), 0.3) * ln["voice_mult"] * f * (0.3 if ln["test"] else 1))
            sms = int(r.lognormvariate(math.log(260), 0.3) * ln["sms_mult"] * f * 0.93 ** yrs * (0.1 if ln["test"] else 1))
            usage.append((sub, m.year * 100 + m.month, voice, sms, int(gb * 1024 * 1024), int(roam_mb * 1024)))
            # ---- bill (postpaid customers only; the cycle is invoiced on the 1st of the next month)
            inv_dt = next_month(m)
            if pl["typ"] == "PO" and not ln["test"] and inv_dt <= EXTRACT:
                rcr = int(round(pl["fee"] * f))
                ovg = 0
                if pl["mb"] is not None and gb * 1024 > pl["mb"]:
                    ovg = 1500 * math.ceil((gb * 1024 - pl["mb"]) / 1024)
                roam = 1000 * math.ceil(roam_mb / 500) if roam_mb > 0 else 0
                tax = int(round((rcr + ovg + roam) * STATE_TAX[ln["state"]]))
                due = inv_dt + dt.timedelta(days=21)
                if acct["autopay"] and r.random() > 0.02:
                    paid = due - dt.timedelta(days=r.randint(0, 2))
                else:
                    paid = inv_dt + dt.timedelta(days=max(1, int(r.lognormvariate(math.log(15), 0.55))))
                status = "P"
                if ln["reason"] == "NPY" and m >= dt.date(ln["deact"].year, ln["deact"].month, 1) - dt.timedelta(days=62):
                    paid, status = None, "W"
                if ln["idx"] in suspended and m >= dt.date(2025, 4, 1):
                    paid, status = None, "O"
                if paid is not None and paid > EXTRACT:
                    paid, status = None, "O"
                if status == "W" and inv_dt > EXTRACT - dt.timedelta(days=45):
                    status = "O"
                row = [sub, ln["acct"], plan_id, m, month_end(m), inv_dt, due, rcr, ovg, roam, tax,
                       rcr + ovg + roam + tax, paid, status]
                if r.random() < 0.007:    # billed in error: voided and reissued a few days later
                    bad_rcr = rcr * 2
                    bad_tax = int(round((bad_rcr + ovg + roam) * STATE_TAX[ln["state"]]))
                    bills.append([sub, ln["acct"], plan_id, m, month_end(m), inv_dt, due, bad_rcr, ovg, roam,
                                  bad_tax, bad_rcr + ovg + roam + bad_tax, None, "V"])
                    shift = dt.timedelta(days=r.randint(2, 6))
                    row[5], row[6] = inv_dt + shift, due + shift
                    if row[12] is not None:
                        row[12] = max(row[12], row[5] + dt.timedelta(days=1))
                        if row[12] > EXTRACT:
                            row[12], row[13] = None, "O"
                    if row[5] > EXTRACT:
                        continue
                bills.append(row)
            # ---- support cases
            if ln["test"]:
                continue
            pc = (0.05 if pl["typ"] == "PO" else 0.03) * ln["case_mult"] * f
            if m <= ln["actv"] < next_month(m):
                pc *= 2.0
            if r.random() < pc:
                typ = pick(r, {"BIL": 34, "NET": 19, "DEV": 17, "ACT": 16, "PRT": 3, "OTH": 11})
                web = 0.18 + 0.14 * yrs / 3
                chnl = r.choices("CSW", weights=[0.82 - web - 0.2, 0.2, web])[0]
                new_case(sub, rand_ts(rand_day(r, a, b)), typ, chnl, ln["state"])
            if ln["state"] == "MI" and m == dt.date(2023, 8, 1) and a <= outage[1] and b >= outage[0] \
                    and r.random() < 0.11:
                day = rand_day(r, max(a, outage[0]), min(b, outage[1]))
                new_case(sub, rand_ts(day, 6, 23), "NET", r.choices("CSW", weights=[60, 15, 25])[0], ln["state"],
                         close_hours=r.uniform(20, 110))
        # ---- port-out requests
        if ln["test"]:
            continue
        carrier_w = CARRIER_W_BASE
        if ln["reason"] == "PRT":
            d = ln["deact"]
            promo = dt.date(2024, 4, 1) <= d <= dt.date(2024, 9, 30)
            if promo:
                carrier_w = CARRIER_W_PROMO
            elif d > dt.date(2024, 9, 30):
                carrier_w = [27, 22, 33, 10, 8]
            carrier = r.choices(CARRIERS, weights=carrier_w)[0]
            req = dt.datetime.combine(d - dt.timedelta(days=r.choice([0, 0, 0, 1, 1, 2])),
                                      dt.time(r.randint(7, 21), r.randint(0, 59)))
            if req.date() < max(ln["actv"], CUTOVER):
                req = dt.datetime.combine(d, dt.time(r.randint(7, 21), r.randint(0, 59)))
            if r.random() < 0.14:
                rej = req - dt.timedelta(days=r.randint(1, 6), hours=r.randint(0, 5))
                if rej.date() >= max(ln["actv"], CUTOVER):
                    ports.append([sub, ln["msisdn"], rej, carrier, "REJ", None])
            ports.append([sub, ln["msisdn"], req, carrier, "CMP", d])
            if r.random() < 0.3:
                new_case(sub, rand_ts(d - dt.timedelta(days=r.randint(1, 20))) if d - dt.timedelta(days=20) >= first_day
                         else rand_ts(d), r.choice(["PRT", "BIL", "BIL", "NET"]), r.choice("CCW"), ln["state"])
        # requests that did not go through (the customer stayed), and pending ones at the extract
        for m in month_starts(first_day, last_day):
            if r.random() < 0.0016:
                day = rand_day(r, max(m, first_day), min(month_end(m), last_day))
                if ln["deact"] and day >= ln["deact"] - dt.timedelta(days=3):
                    continue
                ports.append([sub, ln["msisdn"], rand_ts(day, 7, 22), r.choices(CARRIERS, weights=carrier_w)[0],
                              r.choices(["CXL", "REJ"], weights=[70, 30])[0], None])
        if ln["deact"] is None and r.random() < 0.0025:
            ports.append([sub, ln["msisdn"], rand_ts(rand_day(r, EXTRACT - dt.timedelta(days=2), EXTRACT), 7, 22),
                          r.choices(CARRIERS, weights=[30, 24, 24, 12, 10])[0], "PND", None])

    # prospects' cases (no subscriber)
    for m in month_starts(CUTOVER, EXTRACT):
        for _ in range(r.randint(8, 16)):
            day = rand_day(r, m, min(month_end(m), EXTRACT))
            new_case(None, rand_ts(day), r.choice(["OTH", "OTH", "ACT", "PRT"]), r.choice("SCW"),
                     r.choices(["OH", "MI", "IN"], weights=[50, 31, 19])[0])

    # ---------------------------------------------------------------- rows
    loc_rows = [(i, nm, t, city, st, op, cl, sq) for i, nm, t, city, st, op, cl, sq, _ in LOCS]
    plan_rows = [(i, c, nm, t, fee, mb, lim, rt) for i, c, nm, t, fee, mb, lim, rt, _ in PLANS]
    sub_rows, hist_rows = [], []
    for ln in lines:
        sub = ln["idx"] + 1
        if ln["deact"]:
            stat = "D"
        elif ln["idx"] in suspended:
            stat = "S"
        else:
            stat = "A"
        last_evt = max([ln["actv"], ln["deact"] or ln["actv"]] + [s[1] for s in ln["segs"]])
        upd = dt.datetime.combine(max(last_evt, CUTOVER), dt.time(2, 0)) + dt.timedelta(minutes=r.randint(0, 180))
        sub_rows.append((sub, ln["acct"], ln["msisdn"], ln["first"], ln["last"], ln["birth"], ln["state"],
                         ln["actv"], ln["loc"], ln["segs"][-1][0], stat, ln["deact"], ln["reason"],
                         "Y" if ln["test"] else "N", upd))
        for seg in ln["segs"]:
            hist_rows.append([sub, seg[0], seg[1], seg[2], seg[3]])
    hist_rows.sort(key=lambda h: (h[2], h[0]))
    hist_rows = [(i + 1, *h) for i, h in enumerate(hist_rows)]

    bills.sort(key=lambda b: (b[5], b[0], b[13] != "V"))
    bill_rows = [(i + 1, *b) for i, b in enumerate(bills)]

    cases.sort(key=lambda c: (c[2], c[1] or 0))
    for i, c in enumerate(cases):
        c[0] = i + 1
    case_rows = [(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9][0] if c[9] else None) for c in cases]

    ports.sort(key=lambda p: (p[2], p[0]))
    port_rows = [(i + 1, *p) for i, p in enumerate(ports)]
    usage.sort(key=lambda u: (u[1], u[0]))
    return {"RTL_LOC": loc_rows, "RATE_PLN": plan_rows, "SUBSCR": sub_rows, "SUB_PLN_HIST": hist_rows,
            "INVC_HDR": bill_rows, "USG_MO_SUMM": usage, "CRM_CASE": case_rows, "PORT_OUT_REQ": port_rows}


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
        for table, (columns, comment) in DDL.items():
            cur.execute(f"CREATE TABLE {table} ({columns}) ENGINE=InnoDB COMMENT=%s", (comment,))
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
            cur.execute(f"ANALYZE TABLE {table}")
            cur.fetchall()
            cur.execute(f"SELECT count(*) FROM {table}")
            counts[f"{DATABASE}.{table}"] = cur.fetchone()[0]
    finally:
        con.close()
    print(f"loaded the synthetic mobile carrier into MariaDB database {DATABASE}:")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()
