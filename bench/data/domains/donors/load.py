#!/usr/bin/env python3
"""A synthetic nonprofit fundraising CRM (a community food bank, 2022-2024) on PostgreSQL, schema `crm`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_donors if missing, drops and rebuilds schema "crm", loads ten tables generated
deterministically with random.Random(11), and creates (or resets) the read-only login role
donors_reader / donors_reader. Idempotent: the same rows on every run.

Naming: a legacy Microsoft Access database upsized to PostgreSQL. Tables are prefixed `tbl` and
columns carry Hungarian type prefixes in camelCase (str text, dt date/time, cur money, int whole
number, dbl floating point, bln yes/no, lng long integer = keys), so every name is mixed case and
must be double-quoted: crm."tblGift"."curAmount". Keys are lng<Entity>ID. Primary keys are declared,
foreign keys are NOT (implied by the lng...ID names). Access Date/Time columns came over as
`timestamp` (always midnight). A few code columns say what their codes mean in COMMENT ON COLUMN;
there are no table comments.

  crm."tblDonor"              donors: individuals (I), businesses (O) and foundations (F); 947
                              records (event sign-ups, volunteers, prospects) have never given
  crm."tblCampaign"           12 campaigns: Annual Fund per year, Giving Tuesday per year, Harvest Gala
                              per year, the Building Hope capital campaign (2023-24), Flood Relief 2023,
                              Backpack Program 2024
  crm."tblAppeal"             solicitations (mailings, emails, phone) under a campaign: channel code,
                              drop date, pieces sent, cost
  crm."tblGift"               one row per gift received (money in): date, amount, payment method code,
                              campaign, appeal (NULL = unsolicited / recurring), pledge (NULL = outright
                              gift), anonymous flag
  crm."tblPledge"             promises to give over time: amount, frequency code, installments, status
  crm."tblPledgeInstallment"  the schedule of each pledge; dtPaid / lngGiftID filled once paid
  crm."tblEvent"              events (gala, golf, 5K, breakfasts ...)
  crm."tblEventAttendee"      registrations of donors for events; blnAttended = checked in
  crm."tblVolunteer"          volunteers (lngDonorID set when the volunteer is also in tblDonor)
  crm."tblVolunteerHours"     one row per volunteer shift: date, hours, activity
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_donors", "crm", "donors_reader"
URL = "postgresql://donors_reader:donors_reader@127.0.0.1:5432/dev_donors"
SEED = 11
START, END = dt.date(2022, 1, 1), dt.date(2024, 12, 31)
YEARS = (2022, 2023, 2024)
GIVING_TUESDAY = {2022: dt.date(2022, 11, 29), 2023: dt.date(2023, 11, 28), 2024: dt.date(2024, 12, 3)}

DDL = [
    """CREATE TABLE crm."tblDonor" (
        "lngDonorID" integer PRIMARY KEY,
        "strDonorType" char(1) NOT NULL,
        "strFirstName" varchar(40),
        "strLastName" varchar(50),
        "strOrgName" varchar(80),
        "strEmail" varchar(80),
        "strCity" varchar(40),
        "strState" char(2),
        "strZip" varchar(10),
        "dtAdded" timestamp NOT NULL,
        "blnDoNotMail" boolean NOT NULL DEFAULT false)""",
    """CREATE TABLE crm."tblCampaign" (
        "lngCampaignID" integer PRIMARY KEY,
        "strCampaignCode" varchar(10) NOT NULL,
        "strCampaignName" varchar(60) NOT NULL,
        "dtStart" timestamp NOT NULL,
        "dtEnd" timestamp,
        "curGoal" numeric(12, 2),
        "intYear" smallint NOT NULL)""",
    """CREATE TABLE crm."tblAppeal" (
        "lngAppealID" integer PRIMARY KEY,
        "lngCampaignID" integer NOT NULL,
        "strAppealName" varchar(60) NOT NULL,
        "strChannel" varchar(2) NOT NULL,
        "dtDropDate" timestamp NOT NULL,
        "intPiecesSent" integer NOT NULL,
        "curCost" numeric(10, 2) NOT NULL)""",
    """CREATE TABLE crm."tblGift" (
        "lngGiftID" integer PRIMARY KEY,
        "lngDonorID" integer NOT NULL,
        "dtGiftDate" timestamp NOT NULL,
        "curAmount" numeric(12, 2) NOT NULL,
        "strPaymentMethod" varchar(3) NOT NULL,
        "strCheckNo" varchar(10),
        "lngCampaignID" integer NOT NULL,
        "lngAppealID" integer,
        "lngPledgeID" integer,
        "blnAnonymous" boolean NOT NULL DEFAULT false)""",
    """CREATE TABLE crm."tblPledge" (
        "lngPledgeID" integer PRIMARY KEY,
        "lngDonorID" integer NOT NULL,
        "lngCampaignID" integer NOT NULL,
        "dtPledgeDate" timestamp NOT NULL,
        "curPledgeAmount" numeric(12, 2) NOT NULL,
        "strFrequency" char(1) NOT NULL,
        "intInstallments" smallint NOT NULL,
        "strStatus" char(1) NOT NULL)""",
    """CREATE TABLE crm."tblPledgeInstallment" (
        "lngInstallmentID" integer PRIMARY KEY,
        "lngPledgeID" integer NOT NULL,
        "intInstallmentNo" smallint NOT NULL,
        "dtDue" timestamp NOT NULL,
        "curAmountDue" numeric(12, 2) NOT NULL,
        "dtPaid" timestamp,
        "lngGiftID" integer)""",
    """CREATE TABLE crm."tblEvent" (
        "lngEventID" integer PRIMARY KEY,
        "strEventName" varchar(60) NOT NULL,
        "dtEventDate" timestamp NOT NULL,
        "strVenue" varchar(60) NOT NULL,
        "intCapacity" integer NOT NULL,
        "curTicketPrice" numeric(8, 2) NOT NULL,
        "lngCampaignID" integer)""",
    """CREATE TABLE crm."tblEventAttendee" (
        "lngEventAttendeeID" integer PRIMARY KEY,
        "lngEventID" integer NOT NULL,
        "lngDonorID" integer NOT NULL,
        "dtRegistered" timestamp NOT NULL,
        "intPartySize" smallint NOT NULL,
        "blnAttended" boolean NOT NULL)""",
    """CREATE TABLE crm."tblVolunteer" (
        "lngVolunteerID" integer PRIMARY KEY,
        "lngDonorID" integer,
        "strFirstName" varchar(40) NOT NULL,
        "strLastName" varchar(50) NOT NULL,
        "strEmail" varchar(80),
        "dtStarted" timestamp NOT NULL,
        "blnActive" boolean NOT NULL)""",
    """CREATE TABLE crm."tblVolunteerHours" (
        "lngVolunteerHoursID" integer PRIMARY KEY,
        "lngVolunteerID" integer NOT NULL,
        "dtShift" timestamp NOT NULL,
        "dblHours" double precision NOT NULL,
        "strActivity" varchar(40) NOT NULL,
        "lngEventID" integer)""",
]
COLUMN_COMMENTS = {
    ("tblDonor", "strDonorType"): "I = individual, O = organization (business), F = foundation",
    ("tblGift", "strPaymentMethod"): "CK = check, CC = credit card, ACH = bank transfer, "
                                     "STK = stock/securities, DAF = donor-advised fund grant",
    ("tblGift", "blnAnonymous"): "donor asked not to be publicly recognized",
    ("tblAppeal", "strChannel"): "DM = direct mail, EM = email, PH = phone",
    ("tblPledge", "strFrequency"): "M = monthly, Q = quarterly, A = annual",
    ("tblPledge", "strStatus"): "O = open, F = fulfilled, X = cancelled",
}

FIRST = ["Mary", "James", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William",
         "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Daniel",
         "Lisa", "Matthew", "Nancy", "Anthony", "Betty", "Mark", "Sandra", "Donald", "Ashley", "Steven",
         "Kimberly", "Paul", "Emily", "Andrew", "Donna", "Joshua", "Michelle", "Kenneth", "Carol", "Kevin",
         "Amanda", "Brian", "Melissa", "George", "Deborah", "Timothy", "Stephanie", "Ronald", "Rebecca",
         "Jason", "Laura", "Edward", "Helen", "Jeffrey", "Sharon", "Ryan", "Cynthia", "Gary", "Kathleen",
         "Nicholas", "Amy", "Eric", "Angela", "Jacob", "Shirley", "Jonathan", "Anna", "Larry", "Ruth",
         "Frank", "Brenda", "Scott", "Pamela", "Justin", "Nicole", "Raymond", "Katherine", "Gregory",
         "Samantha", "Benjamin", "Christine", "Samuel", "Emma", "Patrick", "Catherine", "Alexander", "Debra",
         "Priya", "Wei", "Aisha", "Carlos", "Mei", "Omar", "Sofia", "Hiroshi", "Fatima", "Luis", "Robert"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
        "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Gomez",
        "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes", "Stewart",
        "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper", "Peterson",
        "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson", "Watson", "Brooks",
        "Chavez", "Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes", "Price", "Alvarez",
        "Castillo", "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez", "Schmidt", "Kowalski",
        "O'Connor", "Nakamura", "Okafor", "Haddad", "Larsen", "Brennan", "Chen", "Singh", "Yoder", "Hoffman"]
CITIES = [("Columbus", "OH", "432"), ("Columbus", "OH", "432"), ("Columbus", "OH", "432"), ("Dublin", "OH", "430"),
          ("Westerville", "OH", "430"), ("Worthington", "OH", "430"), ("Upper Arlington", "OH", "432"),
          ("Grove City", "OH", "431"), ("Hilliard", "OH", "430"), ("Gahanna", "OH", "432"), ("Delaware", "OH", "430"),
          ("Newark", "OH", "430"), ("Reynoldsburg", "OH", "430"), ("Lancaster", "OH", "431")]
FAR_CITIES = [("Cincinnati", "OH", "452"), ("Cleveland", "OH", "441"), ("Chicago", "IL", "606"),
              ("Pittsburgh", "PA", "152"), ("Indianapolis", "IN", "462"), ("New York", "NY", "100")]
ORG_WORDS = ["Buckeye", "Scioto", "Olentangy", "Heartland", "Capital City", "Riverside", "German Village",
             "Short North", "Franklin", "Maple", "Summit", "Keystone", "Pioneer", "Liberty", "Harvest",
             "Cardinal", "Lakeview", "Oakwood", "Northstar", "Brookside"]
ORG_KINDS = ["Insurance", "Credit Union", "Dental Group", "Construction", "Realty", "Bank", "Brewing Co.",
             "Law Group", "Hardware", "Auto Group", "Family Dentistry", "Printing", "Logistics", "Grocers",
             "Engineering", "Veterinary Clinic", "Pharmacy", "Landscaping", "Roofing", "Accounting"]
FOUNDATION_WORDS = ["Family Foundation", "Charitable Trust", "Foundation", "Community Fund", "Fund"]
# the five biggest givers (all individuals, unique names): (first, last, CAP pledge, annual outright)
TOP_DONORS = [("Eleanor", "Whitcombe", 300000, 38000), ("Gordon", "Achterberg", 240000, 31000),
              ("Lucinda", "Farraday", 180000, 26000), ("Theodore", "Valcourt", 150000, 22000),
              ("Marguerite", "Delacroix-Hale", 120000, 17000)]

CAMPAIGNS = [  # id, code, name, start, end, goal, year
    (1, "AF22", "Annual Fund 2022", dt.date(2022, 1, 1), dt.date(2022, 12, 31), 1500000, 2022),
    (2, "AF23", "Annual Fund 2023", dt.date(2023, 1, 1), dt.date(2023, 12, 31), 1600000, 2023),
    (3, "AF24", "Annual Fund 2024", dt.date(2024, 1, 1), dt.date(2024, 12, 31), 1700000, 2024),
    (4, "GT22", "Giving Tuesday 2022", dt.date(2022, 11, 22), dt.date(2022, 12, 6), 100000, 2022),
    (5, "GT23", "Giving Tuesday 2023", dt.date(2023, 11, 21), dt.date(2023, 12, 5), 120000, 2023),
    (6, "GT24", "Giving Tuesday 2024", dt.date(2024, 11, 26), dt.date(2024, 12, 10), 150000, 2024),
    (7, "GALA22", "Harvest Gala 2022", dt.date(2022, 8, 1), dt.date(2022, 10, 31), 150000, 2022),
    (8, "GALA23", "Harvest Gala 2023", dt.date(2023, 8, 1), dt.date(2023, 10, 31), 175000, 2023),
    (9, "GALA24", "Harvest Gala 2024", dt.date(2024, 8, 1), dt.date(2024, 10, 31), 200000, 2024),
    (10, "CAP", "Building Hope Capital Campaign", dt.date(2023, 3, 1), dt.date(2025, 6, 30), 3000000, 2023),
    (11, "FLOOD23", "Flood Relief Fund", dt.date(2023, 8, 15), dt.date(2023, 10, 31), 250000, 2023),
    (12, "BKPK24", "Backpack Program 2024", dt.date(2024, 6, 1), dt.date(2024, 9, 30), 80000, 2024),
]
AF = {2022: 1, 2023: 2, 2024: 3}
GT = {2022: 4, 2023: 5, 2024: 6}
GALA = {2022: 7, 2023: 8, 2024: 9}
CAP, FLOOD, BKPK = 10, 11, 12

MONTH_W = [0.55, 0.45, 0.6, 0.75, 0.6, 0.6, 0.45, 0.5, 0.7, 0.85, 1.5, 3.3]


def rand_date(r: random.Random, a: dt.date, b: dt.date) -> dt.date:
    return a + dt.timedelta(days=r.randint(0, (b - a).days))


def add_months(d: dt.date, n: int) -> dt.date:
    y, m = divmod(d.month - 1 + n, 12)
    y, m = d.year + y, m + 1
    last = [31, 29 if y % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    return dt.date(y, m, min(d.day, last))


def ts(d):
    return None if d is None else dt.datetime.combine(d, dt.time(0, 0))


def build():
    r = random.Random(SEED)

    # ------------------------------------------------------------------ donors
    donors = []          # dicts, in id order
    used_emails = {}

    def person_name():
        while True:
            f, surname = r.choice(FIRST), r.choice(LAST)
            if (f, surname) != ("Robert", "Kim"):
                return f, surname

    def email(first, last):
        if r.random() < 0.15:
            return None
        base = f"{first[0]}{last}".lower().replace("'", "").replace(" ", "").replace("-", "")
        n = used_emails.get(base, 0)
        used_emails[base] = n + 1
        dom = r.choice(["gmail.com", "yahoo.com", "outlook.com", "aol.com", "icloud.com", "hotmail.com"])
        return f"{base}{n if n else ''}@{dom}"

    def place():
        c = r.choice(FAR_CITIES) if r.random() < 0.06 else r.choice(CITIES)
        return c[0], c[1], f"{c[2]}{r.randint(1, 99):02d}"

    def add_donor(kind, seg, first=None, last=None, org=None, added=None):
        did = len(donors) + 1
        if kind == "I" and first is None:
            first, last = person_name()
        city, state, zipc = place()
        mail = email(first, last) if kind == "I" else (
            None if r.random() < 0.3 else f"info{did}@{org.split()[0].lower()}.org")
        d = dict(id=did, kind=kind, seg=seg, first=first, last=last, org=org, email=mail, city=city,
                 state=state, zip=zipc, added=added, dnm=r.random() < 0.04, gifts=[])
        donors.append(d)
        return d

    for first, last, _, _ in TOP_DONORS:
        add_donor("I", "top", first, last)
    for _ in range(25):
        add_donor("I", "major")
    for _ in range(600):
        add_donor("I", "sustainer")
    for _ in range(3600):
        add_donor("I", "regular")
    for _ in range(3300):
        add_donor("I", "occasional")
    for _ in range(850):
        add_donor("I", "prospect")
    orgs_seen = set()
    for _ in range(300):
        while True:
            name = f"{r.choice(ORG_WORDS)} {r.choice(ORG_KINDS)}"
            if name not in orgs_seen:
                orgs_seen.add(name)
                break
        add_donor("O", "org" if r.random() < 0.9 else "prospect", org=name)
    for _ in range(80):
        while True:
            name = f"The {r.choice(LAST)} {r.choice(FOUNDATION_WORDS)}"
            if name not in orgs_seen:
                orgs_seen.add(name)
                break
        add_donor("F", "foundation" if r.random() < 0.92 else "prospect", org=name)
    # two different people called Robert Kim (Columbus and Dayton), both regular givers
    kim1 = add_donor("I", "regular", "Robert", "Kim")
    kim1.update(city="Columbus", state="OH", zip="43215")
    kim2 = add_donor("I", "regular", "Robert", "Kim")
    kim2.update(city="Dayton", state="OH", zip="45402")

    # shuffle ids so the segments are not in blocks
    order = list(range(len(donors)))
    r.shuffle(order)
    donors = [donors[i] for i in order]
    for i, d in enumerate(donors, 1):
        d["id"] = i
    by_seg = {}
    for d in donors:
        by_seg.setdefault(d["seg"], []).append(d)
    # the first gift year of each donor (legacy donors gave before 2022)
    for d in donors:
        d["first_year"] = r.choices([2021, 2022, 2023, 2024], weights=[62, 12, 13, 13])[0] \
            if d["seg"] not in ("top", "major", "foundation") else 2021
        if d["seg"] == "occasional":
            d["first_year"] = r.choice([2022, 2023, 2024]) if r.random() < 0.55 else 2021

    # ------------------------------------------------------------------ appeals
    appeals = []   # id, campaign, name, channel, date, pieces, cost

    def add_appeal(camp, name, ch, day, pieces):
        cost = round(pieces * (0.82 if ch == "DM" else 0.015 if ch == "EM" else 1.9) * r.uniform(0.93, 1.07), 2)
        appeals.append((len(appeals) + 1, camp, name, ch, day, pieces, cost))
        return len(appeals)

    for y in YEARS:
        g = 1.0 + 0.05 * (y - 2022)
        add_appeal(AF[y], f"Spring Mailing {y}", "DM", dt.date(y, 4, 5), int(9000 * g))
        add_appeal(AF[y], f"Summer Email Appeal {y}", "EM", dt.date(y, 7, 12), int(5200 * g))
        if y == 2023:
            add_appeal(FLOOD, "Flood Relief Emergency Email", "EM", dt.date(2023, 8, 18), 5600)
            add_appeal(FLOOD, "Flood Relief Mailing", "DM", dt.date(2023, 9, 1), 8800)
            add_appeal(CAP, "Building Hope Launch Mailing", "DM", dt.date(2023, 4, 20), 2500)
        if y == 2024:
            add_appeal(CAP, "Building Hope Progress Mailing", "DM", dt.date(2024, 5, 2), 3000)
            add_appeal(BKPK, "Backpack Program Email", "EM", dt.date(2024, 6, 10), 6000)
        add_appeal(AF[y], f"Fall Mailing {y}", "DM", dt.date(y, 10, 2), int(9500 * g))
        if y in (2022, 2023):
            add_appeal(AF[y], f"Fall Phonathon {y}", "PH", dt.date(y, 10, 18), 1200)
        add_appeal(AF[y], f"Year-End Mailing {y}", "DM", dt.date(y, 11, 14), int(12000 * g))
        add_appeal(GT[y], f"Giving Tuesday Email {y}", "EM", GIVING_TUESDAY[y] - dt.timedelta(days=1), int(5600 * g))
        add_appeal(AF[y], f"Year-End Email {y}", "EM", dt.date(y, 12, 27), int(5800 * g))
    appeals.sort(key=lambda a: (a[4], a[0]))
    appeals = [(i, *a[1:]) for i, a in enumerate(appeals, 1)]
    appeal_by_name = {a[2]: a for a in appeals}

    def pick_appeal(day, camp_hint=None):
        """the most recent appeal in the 75 days before the gift, weighted to mail; or None"""
        cands = [a for a in appeals if 0 <= (day - a[4]).days <= 75 and (camp_hint is None or a[1] == camp_hint)]
        if not cands:
            return None
        w = [(3.0 if a[3] == "DM" else 1.6 if a[3] == "PH" else 1.0) / (1 + (day - a[4]).days / 20) for a in cands]
        return r.choices(cands, weights=w)[0]

    # ------------------------------------------------------------------ gifts
    gifts = []  # dicts: donor, date, amount, method, campaign, appeal, pledge, anon

    def add_gift(d, day, amount, method, camp, appeal=None, pledge=None, anon=None):
        if anon is None:
            base = {"top": 0.2, "major": 0.15, "org": 0.02, "foundation": 0.0}.get(d["seg"], 0.08)
            anon = r.random() < base
        g = dict(donor=d, date=day, amount=round(amount, 2), method=method, camp=camp, appeal=appeal,
                 pledge=pledge, anon=anon)
        gifts.append(g)
        d["gifts"].append(g)
        return g

    def campaign_for(day):
        if GT[day.year] and abs((day - GIVING_TUESDAY[day.year]).days) <= 3 and r.random() < 0.75:
            return GT[day.year]
        return AF[day.year]

    def gift_day(y):
        m = r.choices(range(1, 13), weights=MONTH_W)[0]
        last = (dt.date(y + (m == 12), m % 12 + 1, 1) - dt.timedelta(days=1)).day
        day = dt.date(y, m, r.randint(1, last))
        if m in (11, 12) and r.random() < 0.16:
            day = GIVING_TUESDAY[y]
        elif m == 12 and r.random() < 0.33:
            day = dt.date(y, 12, r.randint(27, 31))
        return day

    def small_amount(median, y):
        a = r.lognormvariate(math.log(median), 0.85) * (1 + 0.06 * (y - 2022))
        if a < 20:
            return float(r.choice([10, 15, 20, 25]))
        for step in (5, 25, 50, 100):
            if a < step * 20:
                return float(round(a / step) * step)
        return float(min(round(a / 250) * 250, 5000))

    def method_small(amount, y):
        cc = 0.42 + 0.06 * (y - 2022)
        if amount >= 500 and r.random() < 0.18:
            return "DAF"
        return r.choices(["CC", "CK", "ACH"], weights=[cc, 1 - cc - 0.05, 0.05])[0]

    def regular_gift(d, y, median):
        day = gift_day(y)
        amt = small_amount(median, y)
        camp, app = campaign_for(day), None
        if r.random() < 0.62:
            a = pick_appeal(day)
            if a is not None:
                app, camp = a[0], a[1]
        add_gift(d, day, amt, method_small(amt, y), camp, app)

    for d in donors:
        seg = d["seg"]
        if seg == "sustainer":
            start = dt.date(d["first_year"], r.randint(1, 12), r.choice([1, 5, 10, 15, 20, 25, 28]))
            if d["first_year"] == 2021:
                start = dt.date(2021, 12, start.day)
            stop = END if r.random() < 0.78 else rand_date(r, max(start, START), END)
            amt = float(r.choices([10, 15, 20, 25, 30, 35, 50, 75, 100], weights=[8, 6, 14, 20, 6, 4, 16, 5, 6])[0])
            meth = "CC" if r.random() < 0.72 else "ACH"
            n = 0
            while True:
                day = add_months(start, n)
                n += 1
                if day > stop:
                    break
                if day < START:
                    continue
                if n % 12 == 0 and r.random() < 0.1:
                    amt += 5
                add_gift(d, day, amt, meth, AF[day.year], anon=False)
            if r.random() < 0.25:  # and an extra year-end gift
                for y in YEARS:
                    if y >= d["first_year"] and r.random() < 0.5:
                        regular_gift(d, y, 60)
        elif seg == "regular":
            med = r.choice([40, 50, 60, 75, 100, 150])
            for y in YEARS:
                if y < d["first_year"]:
                    continue
                if y > d["first_year"] and r.random() > 0.7:
                    continue
                for _ in range(r.choices([1, 2, 3, 4], weights=[55, 28, 12, 5])[0]):
                    regular_gift(d, y, med)
        elif seg == "occasional":
            y = d["first_year"] if d["first_year"] >= 2022 else r.choice(YEARS)
            regular_gift(d, y, 45)
        elif seg == "org":
            for y in YEARS:
                if r.random() > 0.62:
                    continue
                for _ in range(r.choices([1, 2], weights=[75, 25])[0]):
                    amt = float(r.choices([250, 500, 1000, 1500, 2500, 5000, 10000],
                                          weights=[18, 26, 24, 8, 14, 7, 3])[0])
                    day = gift_day(y)
                    camp = campaign_for(day)
                    if r.random() < 0.3:  # gala sponsorship
                        day, camp = rand_date(r, dt.date(y, 8, 1), dt.date(y, 10, 10)), GALA[y]
                    add_gift(d, day, amt, r.choices(["CK", "ACH", "CC"], weights=[60, 32, 8])[0], camp)
        elif seg == "foundation":
            for y in YEARS:
                if r.random() > 0.58:
                    continue
                amt = float(round(r.triangular(3000, 25000, 7500) / 500) * 500)
                day = rand_date(r, dt.date(y, 1, 15), dt.date(y, 12, 15))
                camp = AF[y]
                if y == 2024 and dt.date(2024, 6, 1) <= day <= dt.date(2024, 9, 30) and r.random() < 0.7:
                    camp = BKPK
                add_gift(d, day, amt, r.choice(["CK", "ACH"]), camp)
        elif seg in ("top", "major"):
            annual = TOP_DONORS[[t[1] for t in TOP_DONORS].index(d["last"])][3] if seg == "top" \
                else r.uniform(2500, 14000)
            for y in YEARS:
                parts = r.choices([1, 2, 3], weights=[40, 40, 20])[0]
                for _k in range(parts):
                    amt = annual / parts * r.uniform(0.85, 1.15)
                    amt = float(round(amt / 100) * 100)
                    day = gift_day(y)
                    meth = r.choices(["STK", "DAF", "CK", "ACH"], weights=[35, 25, 30, 10])[0]
                    if meth == "STK":  # stock is valued to the cent on the day it arrives
                        amt = round(amt * r.uniform(0.97, 1.03), 2)
                    camp, app = campaign_for(day), None
                    if r.random() < 0.3:
                        a = pick_appeal(day)
                        if a is not None:
                            app, camp = a[0], a[1]
                    add_gift(d, day, amt, meth, camp, app)

    # Flood Relief 2023: a burst of extra one-off gifts in late summer / autumn 2023
    flood_mail = appeal_by_name["Flood Relief Mailing"]
    flood_email = appeal_by_name["Flood Relief Emergency Email"]
    pool = [d for d in donors if d["seg"] in ("regular", "occasional", "sustainer") and d["first_year"] <= 2023]
    for d in r.sample(pool, 900):
        day = rand_date(r, dt.date(2023, 8, 18), dt.date(2023, 10, 31))
        app = None
        if r.random() < 0.7:
            app = (flood_mail if day >= flood_mail[4] and r.random() < 0.6 else flood_email)[0]
        amt = small_amount(70, 2023)
        add_gift(d, day, amt, method_small(amt, 2023), FLOOD, app)
    for d in r.sample(by_seg["org"], 25):
        add_gift(d, rand_date(r, dt.date(2023, 8, 20), dt.date(2023, 10, 15)),
                 float(r.choice([500, 1000, 2500])), "CK", FLOOD)
    # Backpack Program 2024 email responses
    bk = appeal_by_name["Backpack Program Email"]
    for d in r.sample([d for d in donors if d["seg"] in ("regular", "sustainer")], 260):
        day = rand_date(r, dt.date(2024, 6, 10), dt.date(2024, 8, 31))
        amt = small_amount(50, 2024)
        add_gift(d, day, amt, method_small(amt, 2024), BKPK, bk[0] if r.random() < 0.7 else None)

    # ------------------------------------------------------------------ pledges (mostly the capital campaign)
    pledges, installments = [], []
    cap_launch = appeal_by_name["Building Hope Launch Mailing"]
    cap_update = appeal_by_name["Building Hope Progress Mailing"]

    def add_pledge(d, camp, day, amount, freq, n, reliable=True):
        pid = len(pledges) + 1
        per = round(amount / n, 2)
        amounts = [per] * (n - 1) + [round(amount - per * (n - 1), 2)]
        step = {"M": 1, "Q": 3, "A": 12}[freq]
        first_due = day + dt.timedelta(days=r.randint(0, 30))
        stop_after = n if reliable else r.randint(0, n - 1)
        missed = 0
        rows = []
        for k in range(n):
            due = add_months(first_due, step * k)
            paid = None
            gift = None
            if due <= END and k < stop_after:
                pday = due + dt.timedelta(days=r.choices([0, 2, 5, 9, 14, 25], weights=[30, 25, 20, 12, 8, 5])[0])
                if pday <= END:
                    paid = pday
                    if amounts[k] >= 10000:
                        meth = r.choice(["STK", "CK", "ACH", "DAF"])
                    elif freq == "M":
                        meth = r.choice(["CC", "ACH"])
                    else:
                        meth = r.choice(["CK", "CC", "ACH"])
                    gift = add_gift(d, pday, amounts[k], meth, camp, None, pid)
            elif due <= END:
                missed += 1
            rows.append([k + 1, due, amounts[k], paid, gift])
        status = "F" if all(x[3] for x in rows) else "O"
        if status == "O" and missed >= 2 and r.random() < 0.65:
            status = "X"
        pledges.append(dict(id=pid, donor=d, camp=camp, day=day, amount=amount, freq=freq, n=n, status=status))
        for row in rows:
            installments.append((pid, *row))
        return pid

    tops = sorted(by_seg["top"], key=lambda d: [t[1] for t in TOP_DONORS].index(d["last"]))
    for d, (_, _, cap_amt, _) in zip(tops, TOP_DONORS):
        day = rand_date(r, dt.date(2023, 3, 1), dt.date(2023, 6, 30))
        freq = "Q" if cap_amt < 200000 else "A"
        n = 8 if freq == "Q" else 2
        add_pledge(d, CAP, day, float(cap_amt), freq, n)
    for d in r.sample(by_seg["major"], 20):
        amt = float(round(r.uniform(15000, 60000) / 1000) * 1000)
        freq = r.choice(["Q", "A", "A"])
        add_pledge(d, CAP, rand_date(r, dt.date(2023, 3, 15), dt.date(2024, 3, 31)), amt, freq,
                   {"Q": 8, "A": 3}[freq], r.random() < 0.95)
    for d in r.sample(by_seg["foundation"], 22):
        amt = float(round(r.uniform(20000, 90000) / 5000) * 5000)
        add_pledge(d, CAP, rand_date(r, dt.date(2023, 4, 1), dt.date(2024, 6, 30)), amt, "A", r.choice([2, 3]))
    for d in r.sample(by_seg["org"], 30):
        amt = float(r.choice([5000, 7500, 10000, 15000, 25000]))
        freq = r.choice(["Q", "A"])
        add_pledge(d, CAP, rand_date(r, dt.date(2023, 4, 1), dt.date(2024, 9, 30)), amt, freq,
                   {"Q": 8, "A": 2}[freq], r.random() < 0.9)
    for d in r.sample([d for d in by_seg["regular"] if d["first_year"] <= 2023] + by_seg["sustainer"][:80], 260):
        amt = float(r.choice([500, 600, 1000, 1200, 1500, 2400, 2500, 3000, 5000]))
        freq = r.choices(["M", "Q", "A"], weights=[55, 35, 10])[0]
        n = {"M": r.choice([12, 24]), "Q": r.choice([4, 8]), "A": 2}[freq]
        add_pledge(d, CAP, rand_date(r, dt.date(2023, 4, 20), dt.date(2024, 11, 30)), amt, freq, n,
                   r.random() < 0.86)
    # outright (non-pledge) capital gifts in response to the two capital mailings
    for d in r.sample([d for d in by_seg["regular"] if d["first_year"] <= 2023], 340):
        a = cap_launch if r.random() < 0.55 else cap_update
        day = a[4] + dt.timedelta(days=r.randint(3, 70))
        amt = float(r.choice([100, 250, 250, 500, 500, 1000, 2500]))
        add_gift(d, day, amt, method_small(amt, day.year), CAP, a[0])
    # annual-fund pledges by businesses: four quarterly installments from January
    for y in YEARS:
        for d in r.sample(by_seg["org"], 18):
            amt = float(r.choice([2000, 4000, 6000, 10000]))
            add_pledge(d, AF[y], dt.date(y, 1, r.randint(5, 25)), amt, "Q", 4, r.random() < 0.92)

    # ------------------------------------------------------------------ events and attendees
    events = []
    attendees = []
    venues = {"gala": "Scioto Grand Ballroom", "golf": "Brookside Golf & Country Club", "5k": "Genoa Park",
              "bfast": "Riverbend Food Bank Warehouse", "vol": "Riverbend Food Bank Warehouse",
              "open": "Riverbend Food Bank Warehouse"}
    plan = []
    for y in YEARS:
        plan += [("bfast", f"Donor Appreciation Breakfast {y}", dt.date(y, 3, 9 + (y - 2022) * 2), 120, 0, None),
                 ("golf", f"Swing Fore Hunger Golf Classic {y}", dt.date(y, 6, 10 + (y - 2022)), 144, 175, AF[y]),
                 ("5k", f"Hunger Walk 5K {y}", dt.date(y, 9, 17 - (y - 2022)),
                  600, 35, AF[y]),
                 ("gala", f"Harvest Gala {y}", dt.date(y, 10, 22 - (y - 2022) * 2), 420, 150, GALA[y]),
                 ("vol", f"Volunteer Appreciation Night {y}", dt.date(y, 12, 8 + (y - 2022)), 180, 0, None)]
        if y == 2024:
            plan.append(("open", "Warehouse Open House", dt.date(2024, 5, 18), 250, 0, CAP))
        if y == 2023:
            plan.append(("open", "Building Hope Groundbreaking", dt.date(2023, 9, 30), 300, 0, CAP))
    plan.sort(key=lambda p: p[2])
    ev_info = []
    for i, (kind, name, day, cap, price, camp) in enumerate(plan, 1):
        events.append((i, name, day, venues[kind], cap, float(price), camp))
        ev_info.append(dict(id=i, kind=kind, day=day, cap=cap, camp=camp, y=day.year))
    givers = [d for d in donors if d["seg"] not in ("prospect",)]
    prospects = by_seg["prospect"]
    big = by_seg["top"] + by_seg["major"] + by_seg["org"] + by_seg["foundation"]
    for e in ev_info:
        fill = {"gala": 0.92, "golf": 0.85, "5k": 0.7, "bfast": 0.8, "vol": 0.6, "open": 0.55}[e["kind"]]
        growth = 1 + 0.07 * (e["y"] - 2022)
        n = int(e["cap"] * fill * min(growth, 1.08) / (1.8 if e["kind"] in ("gala", "golf") else 1.2))
        if e["kind"] == "gala":
            chosen = r.sample(big, 60) + r.sample(givers, n - 60)
        elif e["kind"] == "5k":
            chosen = r.sample(givers, n // 2) + r.sample(prospects, n - n // 2)
        else:
            chosen = r.sample(givers, n)
        seen = set()
        for d in chosen:
            if d["id"] in seen:
                continue
            seen.add(d["id"])
            reg = e["day"] - dt.timedelta(days=r.randint(1, 60))
            party = r.choices([1, 2, 3, 4], weights=[35, 50, 8, 7])[0] if e["kind"] != "5k" else \
                r.choices([1, 2, 3, 4], weights=[60, 25, 10, 5])[0]
            attended = r.random() < (0.93 if e["kind"] in ("gala", "golf") else 0.85)
            attendees.append([e["id"], d, reg, party, attended])
            # paddle raise at the gala
            if e["kind"] == "gala" and attended and d["kind"] == "I" and r.random() < 0.45:
                amt = float(r.choice([100, 250, 250, 500, 500, 1000, 1000, 2500]))
                add_gift(d, e["day"], amt, r.choice(["CC", "CC", "CK"]), GALA[e["y"]], anon=False)
    attendees.sort(key=lambda a: (a[2], a[0], a[1]["id"]))

    # ------------------------------------------------------------------ volunteers and hours
    hours = []
    donor_givers = [d for d in donors if d["seg"] in ("regular", "occasional", "sustainer") and d["gifts"]]
    linked = r.sample(donor_givers, 205) + r.sample([d for d in prospects if d["kind"] == "I"], 45)
    vlist = []
    for d in linked:
        vlist.append(dict(donor=d, first=d["first"], last=d["last"], email=d["email"]))
    for _ in range(170):
        f, surname = person_name()
        vlist.append(dict(donor=None, first=f, last=surname, email=email(f, surname)))
    r.shuffle(vlist)
    activities = ["Warehouse sorting", "Warehouse sorting", "Mobile pantry", "Mobile pantry", "Kids meals packing",
                  "Front desk", "Delivery driver", "Garden"]
    for i, v in enumerate(vlist, 1):
        started = rand_date(r, dt.date(2016, 1, 1), dt.date(2024, 10, 31))
        quit_day = END if r.random() < 0.7 else rand_date(r, max(started, START), END)
        v.update(id=i, started=started, active=quit_day == END)
        rate = min(2.0, r.paretovariate(1.6) * 0.15)  # shifts per week
        if i == 37:
            rate, started, quit_day = 3.5, dt.date(2019, 5, 4), END  # the stalwart: most hours by far
            v.update(started=started, active=True)
        fav = r.choice(activities)
        day = max(started, START)
        while True:
            day += dt.timedelta(days=max(1, int(r.expovariate(rate / 7))))
            if day > quit_day:
                break
            act = fav if r.random() < 0.7 else r.choice(activities)
            hrs = r.choices([1.5, 2, 2.5, 3, 3.5, 4, 4.5, 6], weights=[5, 22, 10, 30, 8, 18, 3, 4])[0]
            hours.append([i, day, float(hrs), act, None])
    for e in ev_info:  # event crews
        crew = r.sample(vlist, {"gala": 28, "golf": 16, "5k": 40, "bfast": 8, "vol": 6, "open": 14}[e["kind"]])
        for v in crew:
            if v["started"] > e["day"]:
                continue
            hours.append([v["id"], e["day"], float(r.choice([3, 4, 4, 5, 6])), "Event support", e["id"]])
    hours.sort(key=lambda h: (h[1], h[0]))

    # ------------------------------------------------------------------ finalize: ids and rows
    # the largest gift of each year is never anonymous (so "who gave it" has an answer)
    for y in YEARS:
        top = max((g for g in gifts if g["date"].year == y), key=lambda g: g["amount"])
        top["anon"] = False
    gifts.sort(key=lambda g: (g["date"], g["donor"]["id"], g["amount"]))
    for i, g in enumerate(gifts, 1):
        g["id"] = i
    for d in donors:
        dates = [g["date"] for g in d["gifts"]]
        if d["first_year"] == 2021 or not dates:
            d["added"] = rand_date(r, dt.date(2012, 1, 1), dt.date(2021, 12, 31)) if dates or r.random() < 0.5 \
                else rand_date(r, dt.date(2015, 1, 1), END)
        else:
            d["added"] = min(dates) - dt.timedelta(days=r.randint(0, 20))
    for a in attendees:  # a prospect signed up for an event was added to the CRM then
        d = a[1]
        if not d["gifts"] and a[2] < d["added"]:
            d["added"] = a[2]
    for v in vlist:
        if v["donor"] is not None and not v["donor"]["gifts"] and v["started"] < v["donor"]["added"]:
            v["donor"]["added"] = v["started"]

    donor_rows = [(d["id"], d["kind"], d["first"], d["last"], d["org"], d["email"], d["city"], d["state"], d["zip"],
                   ts(d["added"]), d["dnm"]) for d in donors]
    campaign_rows = [(c[0], c[1], c[2], ts(c[3]), ts(c[4]), float(c[5]), c[6]) for c in CAMPAIGNS]
    appeal_rows = [(a[0], a[1], a[2], a[3], ts(a[4]), a[5], a[6]) for a in appeals]
    check_no = {}
    gift_rows = []
    for g in gifts:
        chk = None
        if g["method"] == "CK":
            check_no[g["donor"]["id"]] = check_no.get(g["donor"]["id"], r.randint(1001, 8800)) + r.randint(1, 30)
            chk = str(check_no[g["donor"]["id"]])
        gift_rows.append((g["id"], g["donor"]["id"], ts(g["date"]), g["amount"], g["method"], chk, g["camp"],
                          g["appeal"], g["pledge"], g["anon"]))
    pledge_rows = [(p["id"], p["donor"]["id"], p["camp"], ts(p["day"]), p["amount"], p["freq"], p["n"], p["status"])
                   for p in pledges]
    inst_rows = [(i, pid, no, ts(due), amt, ts(paid), gift["id"] if gift else None)
                 for i, (pid, no, due, amt, paid, gift) in enumerate(installments, 1)]
    event_rows = [(e[0], e[1], ts(e[2]), e[3], e[4], e[5], e[6]) for e in events]
    attendee_rows = [(i, a[0], a[1]["id"], ts(a[2]), a[3], a[4]) for i, a in enumerate(attendees, 1)]
    volunteer_rows = [(v["id"], v["donor"]["id"] if v["donor"] else None, v["first"], v["last"], v["email"],
                       ts(v["started"]), v["active"]) for v in vlist]
    hours_rows = [(i, h[0], ts(h[1]), h[2], h[3], h[4]) for i, h in enumerate(hours, 1)]
    return {"tblDonor": donor_rows, "tblCampaign": campaign_rows, "tblAppeal": appeal_rows, "tblGift": gift_rows,
            "tblPledge": pledge_rows, "tblPledgeInstallment": inst_rows, "tblEvent": event_rows,
            "tblEventAttendee": attendee_rows, "tblVolunteer": volunteer_rows, "tblVolunteerHours": hours_rows}


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
        for ddl in DDL:
            cur.execute(ddl)
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL(f'COMMENT ON COLUMN {SCHEMA}."{table}"."{column}" IS {{}}').format(
                sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(f'COPY {SCHEMA}."{table}" FROM STDIN') as copy:
                for row in rows:
                    copy.write_row(row)
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(f'SELECT count(*) FROM {SCHEMA}."{table}"')
            counts[f'{SCHEMA}."{table}"'] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic fundraising CRM into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()
