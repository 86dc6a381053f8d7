#!/usr/bin/env python3
"""A small car-and-home insurer (policies from 2021, extract of 2025-06-30) on MariaDB.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

Drops and rebuilds database dev_insurer, loads seven tables generated deterministically with
random.Random(SEED), and creates (or resets) the read-only login insurer_reader / insurer_reader
(SELECT on dev_insurer only). Idempotent: the same rows on every run.

Naming: PascalCase tables and columns, with abbreviations in some columns (Amt, Dt, Cd, Cnt, Pct,
No, Yr). Primary keys are declared, foreign keys are NOT (links are implied by the *Id names).
Code columns explain their codes only in the column COMMENT.

  UsState       all 50 states + DC with a sales region (we write business in 15 of them)
  Agent         agents / brokers who sell our policies, each working one region (two Kowalskis)
  PolicyHolder  customers: name, birth date, state, date joined, who referred them (self-reference)
  Policy        one row per policy: product line code (A auto / H home / R renters), status
                (Active / Lapsed / Cancelled), start date, end date, ANNUAL premium in USD; policies
                renew every 12 months on the start date's anniversary; AgentId NULL = sold online
  Vehicle       cars on the auto policies (make, model, model year)
  Claim         loss date, reported date, claim type (water damage is typed two ways: 'Water Damage'
                and the old intake form's 'water dmg'), status open / closed / denied, closed date
  ClaimPayment  payouts: several per claim (paid date, amount); denied claims have none
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, USER = "dev_insurer", "insurer_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
SEED = 2021
FIRST_DAY = dt.date(2021, 1, 4)       # the policy system went live: no policy starts earlier
EXTRACT_DAY = dt.date(2025, 6, 30)    # "today" for the data
N_HOLDERS = 21000

DDL = {
    "UsState": """
        StateCd CHAR(2) NOT NULL PRIMARY KEY COMMENT 'two-letter USPS code',
        StateName VARCHAR(30) NOT NULL,
        RegionName VARCHAR(20) NOT NULL COMMENT 'our sales region: Northeast, Southeast, Midwest, Southwest, West'
        """,
    "Agent": """
        AgentId INT NOT NULL PRIMARY KEY,
        FirstName VARCHAR(30) NOT NULL,
        LastName VARCHAR(30) NOT NULL,
        AgencyName VARCHAR(60) NOT NULL COMMENT 'the independent agency or brokerage the agent works for',
        Region VARCHAR(20) NOT NULL COMMENT 'sales region the agent covers (same names as UsState.RegionName)',
        LicenseNo VARCHAR(12) NOT NULL,
        HireDt DATE NOT NULL COMMENT 'date the agent was appointed to sell our policies',
        TermDt DATE NULL COMMENT 'date the appointment ended; NULL = still selling'
        """,
    "PolicyHolder": """
        PolicyHolderId INT NOT NULL PRIMARY KEY,
        FirstName VARCHAR(30) NOT NULL,
        LastName VARCHAR(30) NOT NULL,
        BirthDt DATE NULL,
        StateCd CHAR(2) NOT NULL COMMENT 'state of residence',
        ZipCd CHAR(5) NOT NULL,
        EmailAddr VARCHAR(80) NULL,
        JoinedDt DATE NOT NULL COMMENT 'date of the first policy',
        ReferredById INT NULL COMMENT 'PolicyHolderId of the existing policy holder who referred this one; NULL = no referral'
        """,
    "Policy": """
        PolicyId INT NOT NULL PRIMARY KEY,
        PolicyNo VARCHAR(14) NOT NULL,
        PolicyHolderId INT NOT NULL,
        AgentId INT NULL COMMENT 'selling agent; NULL = bought directly online',
        ProductLine CHAR(1) NOT NULL COMMENT 'A = auto, H = homeowners, R = renters',
        PolicyStatus VARCHAR(10) NOT NULL COMMENT 'Active, Lapsed (not renewed at the end of a term) or Cancelled (ended mid-term)',
        StartDate DATE NOT NULL COMMENT 'inception date; the policy renews every 12 months on this anniversary',
        EndDate DATE NOT NULL COMMENT 'Active: end of the current 12-month term; Lapsed: the term end it was not renewed at; Cancelled: the cancellation date',
        PremiumAmt DECIMAL(9,2) NOT NULL COMMENT 'ANNUAL premium in USD for the current (or last) term, after discounts',
        DiscountPct TINYINT NOT NULL COMMENT 'multi-policy (bundle) discount in percent, 0 if none',
        DeductibleAmt DECIMAL(8,2) NOT NULL COMMENT 'USD per claim',
        CoverageLimitAmt DECIMAL(11,2) NOT NULL COMMENT 'USD; dwelling / contents / liability limit',
        DriverCnt TINYINT NULL COMMENT 'drivers listed on an auto policy; NULL for home and renters',
        KEY ByHolder (PolicyHolderId), KEY ByAgent (AgentId)
        """,
    "Vehicle": """
        VehicleId INT NOT NULL PRIMARY KEY,
        PolicyId INT NOT NULL COMMENT 'the auto policy the car is insured on',
        Vin CHAR(17) NOT NULL,
        MakeName VARCHAR(20) NOT NULL,
        ModelName VARCHAR(30) NOT NULL,
        ModelYr SMALLINT NOT NULL,
        AnnualMiles INT NULL COMMENT 'estimated miles driven per year, as stated by the customer',
        KEY ByPolicy (PolicyId)
        """,
    "Claim": """
        ClaimId INT NOT NULL PRIMARY KEY,
        ClaimNo VARCHAR(16) NOT NULL,
        PolicyId INT NOT NULL,
        VehicleId INT NULL COMMENT 'the car involved (auto claims only); NULL for home and renters claims',
        LossDt DATE NOT NULL COMMENT 'date the loss happened',
        ReportedDt DATE NOT NULL COMMENT 'date the customer reported it to us (first notice of loss)',
        ClaimType VARCHAR(20) NOT NULL COMMENT 'cause of loss as typed at intake',
        ClaimStatus VARCHAR(10) NOT NULL COMMENT 'open, closed (settled) or denied',
        ClosedDt DATE NULL COMMENT 'date the claim was closed or denied; NULL while open',
        KEY ByPolicy (PolicyId)
        """,
    "ClaimPayment": """
        PaymentId INT NOT NULL PRIMARY KEY,
        ClaimId INT NOT NULL,
        PaidDt DATE NOT NULL,
        PaymentAmt DECIMAL(10,2) NOT NULL COMMENT 'USD paid out on the claim',
        PayeeType VARCHAR(20) NOT NULL COMMENT 'who was paid: Insured, Repair Shop, Contractor, Lienholder, Vendor',
        KEY ByClaim (ClaimId)
        """,
}
TABLE_COMMENTS = {
    "UsState": "US states and the sales region each belongs to",
    "Agent": "Agents and brokers appointed to sell our policies",
    "PolicyHolder": "Our customers: one row per policy holder",
    "Policy": "One row per policy (auto, home or renters); renews yearly",
    "Vehicle": "Vehicles insured on auto policies",
    "Claim": "Claims filed against a policy",
    "ClaimPayment": "Payments made on claims (several per claim possible)",
}

# code, name, region, customer weight, auto factor, home factor, hail factor, wind factor
STATES = [
    ("AL", "Alabama", "Southeast"), ("AK", "Alaska", "West"), ("AZ", "Arizona", "Southwest"),
    ("AR", "Arkansas", "Southeast"), ("CA", "California", "West"), ("CO", "Colorado", "West"),
    ("CT", "Connecticut", "Northeast"), ("DE", "Delaware", "Northeast"), ("DC", "District of Columbia", "Northeast"),
    ("FL", "Florida", "Southeast"), ("GA", "Georgia", "Southeast"), ("HI", "Hawaii", "West"),
    ("ID", "Idaho", "West"), ("IL", "Illinois", "Midwest"), ("IN", "Indiana", "Midwest"),
    ("IA", "Iowa", "Midwest"), ("KS", "Kansas", "Midwest"), ("KY", "Kentucky", "Southeast"),
    ("LA", "Louisiana", "Southeast"), ("ME", "Maine", "Northeast"), ("MD", "Maryland", "Northeast"),
    ("MA", "Massachusetts", "Northeast"), ("MI", "Michigan", "Midwest"), ("MN", "Minnesota", "Midwest"),
    ("MS", "Mississippi", "Southeast"), ("MO", "Missouri", "Midwest"), ("MT", "Montana", "West"),
    ("NE", "Nebraska", "Midwest"), ("NV", "Nevada", "West"), ("NH", "New Hampshire", "Northeast"),
    ("NJ", "New Jersey", "Northeast"), ("NM", "New Mexico", "Southwest"), ("NY", "New York", "Northeast"),
    ("NC", "North Carolina", "Southeast"), ("ND", "North Dakota", "Midwest"), ("OH", "Ohio", "Midwest"),
    ("OK", "Oklahoma", "Southwest"), ("OR", "Oregon", "West"), ("PA", "Pennsylvania", "Northeast"),
    ("RI", "Rhode Island", "Northeast"), ("SC", "South Carolina", "Southeast"), ("SD", "South Dakota", "Midwest"),
    ("TN", "Tennessee", "Southeast"), ("TX", "Texas", "Southwest"), ("UT", "Utah", "West"),
    ("VT", "Vermont", "Northeast"), ("VA", "Virginia", "Southeast"), ("WA", "Washington", "West"),
    ("WV", "West Virginia", "Northeast"), ("WI", "Wisconsin", "Midwest"), ("WY", "Wyoming", "West"),
]
# the 15 states we write business in: customer weight, auto premium factor, home premium factor,
# hail frequency factor, wind frequency factor, zip prefix
WRITTEN = {
    "TX": (17, 1.05, 1.45, 3.0, 1.3, "75"), "OK": (5, 1.00, 1.35, 3.2, 1.2, "73"),
    "AZ": (5, 1.05, 0.95, 0.8, 0.6, "85"), "FL": (12, 1.50, 1.70, 0.6, 2.6, "33"),
    "GA": (8, 1.10, 1.05, 1.0, 1.1, "30"), "NC": (6, 0.90, 0.95, 0.9, 1.3, "27"),
    "OH": (7, 0.85, 0.80, 1.2, 0.8, "43"), "IL": (7, 1.00, 0.90, 1.4, 0.9, "60"),
    "MI": (5, 1.45, 0.90, 1.1, 0.8, "48"), "MN": (4, 0.95, 1.00, 1.5, 0.7, "55"),
    "NY": (8, 1.35, 1.10, 0.5, 0.9, "12"), "PA": (6, 1.00, 0.85, 0.6, 0.8, "19"),
    "NJ": (4, 1.30, 1.05, 0.5, 1.0, "07"), "CO": (4, 1.10, 1.20, 3.4, 0.8, "80"),
    "WA": (2, 1.00, 0.90, 0.3, 0.7, "98"),
}
REGION_OF = {s: reg for s, _, reg in STATES}

# id, first, last, agency, region, hire date, term date, selling weight within the region
AGENTS = [
    (1, "Rosa", "Delgado", "Lone Star Insurance Group", "Southwest", dt.date(2016, 3, 14), None, 3.4),
    (2, "Travis", "Whitaker", "Lone Star Insurance Group", "Southwest", dt.date(2019, 8, 5), None, 1.0),
    (3, "Kendra", "Ochoa", "Red River Brokers", "Southwest", dt.date(2021, 2, 1), None, 1.1),
    (4, "Dale", "Haskins", "Sooner Agency Partners", "Southwest", dt.date(2012, 6, 18), dt.date(2023, 9, 30), 1.0),
    (5, "Marisol", "Vega", "Sooner Agency Partners", "Southwest", dt.date(2023, 10, 2), None, 1.0),
    (6, "Grant", "Sorensen", "Gulf Coast Coverage", "Southeast", dt.date(2015, 1, 12), None, 1.3),
    (7, "Dana", "Kowalski", "Great Lakes Insurance Brokers", "Midwest", dt.date(2017, 4, 3), None, 1.2),
    (8, "Tamika", "Brooks", "Peachtree Insurance Agency", "Southeast", dt.date(2018, 9, 24), None, 1.0),
    (9, "Luis", "Ferreira", "Gulf Coast Coverage", "Southeast", dt.date(2020, 11, 2), None, 0.9),
    (10, "Ashley", "Nguyen", "Carolina Shield Agency", "Southeast", dt.date(2014, 5, 19), None, 1.0),
    (11, "Brian", "Mueller", "Buckeye Risk Partners", "Midwest", dt.date(2013, 7, 8), None, 1.0),
    (12, "Heather", "Lindgren", "North Star Brokerage", "Midwest", dt.date(2019, 2, 11), None, 0.9),
    (13, "Samuel", "Osei", "Great Lakes Insurance Brokers", "Midwest", dt.date(2022, 3, 7), None, 1.0),
    (14, "Rachel", "Goldberg", "Empire State Insurance", "Northeast", dt.date(2011, 10, 3), None, 1.1),
    (15, "Mark", "Kowalski", "Keystone Coverage Group", "Northeast", dt.date(2016, 8, 22), None, 1.0),
    (16, "Priya", "Raman", "Empire State Insurance", "Northeast", dt.date(2020, 6, 1), None, 0.9),
    (17, "Anthony", "Russo", "Garden State Brokers", "Northeast", dt.date(2018, 1, 15), dt.date(2024, 4, 30), 1.0),
    (18, "Kevin", "Park", "Front Range Insurance", "West", dt.date(2017, 5, 30), None, 1.0),
    (19, "Megan", "Holt", "Cascade Risk Advisors", "West", dt.date(2021, 9, 13), None, 0.8),
    (20, "Jorge", "Salinas", "Red River Brokers", "Southwest", dt.date(2020, 1, 6), None, 0.9),
    (21, "Olivia", "Grant", "Peachtree Insurance Agency", "Southeast", dt.date(2022, 8, 1), None, 0.9),
    (22, "Derek", "Fontaine", "Buckeye Risk Partners", "Midwest", dt.date(2021, 4, 19), dt.date(2024, 12, 31), 0.8),
]
FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
         "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Christopher", "Karen",
         "Charles", "Lisa", "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Ashley",
         "Donald", "Kimberly", "Steven", "Emily", "Andrew", "Donna", "Joshua", "Michelle", "Kenneth", "Carol",
         "Kevin", "Amanda", "Brian", "Melissa", "Timothy", "Deborah", "Ronald", "Stephanie", "Jason", "Rebecca",
         "Jose", "Maria", "Carlos", "Guadalupe", "Juan", "Rosa", "Luis", "Ana", "Wei", "Mei", "Hiro", "Yuki",
         "Tyrone", "Keisha", "DeShawn", "Latoya", "Raj", "Anita", "Omar", "Fatima", "Liam", "Olivia", "Noah",
         "Emma", "Ethan", "Ava", "Mason", "Sophia", "Logan", "Isabella", "Caleb", "Harper", "Tyler", "Brianna"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
        "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Patel",
        "Shah", "Kim", "Chen", "Wong", "Murphy", "Cook", "Rogers", "Morgan", "Cooper", "Peterson", "Reed",
        "Bailey", "Bell", "Kelly", "Howard", "Ward", "Cox", "Diaz", "Richardson", "Wood", "Watson", "Brooks",
        "Bennett", "Gray", "Hughes", "Price", "Sanders", "Myers", "Long", "Ross", "Foster", "Jimenez"]
MAKES = {  # make: (weight, models, theft factor)
    "Toyota": (16, ["Camry", "Corolla", "RAV4", "Tacoma", "Highlander", "Tundra"], 1.0),
    "Ford": (14, ["F-150", "Escape", "Explorer", "Fusion", "Mustang", "Ranger"], 1.0),
    "Honda": (12, ["Civic", "Accord", "CR-V", "Pilot", "Odyssey"], 1.3),
    "Chevrolet": (12, ["Silverado", "Equinox", "Malibu", "Tahoe", "Traverse"], 1.1),
    "Nissan": (7, ["Altima", "Rogue", "Sentra", "Frontier"], 1.0),
    "Hyundai": (6, ["Elantra", "Sonata", "Tucson", "Santa Fe"], 1.0),
    "Kia": (6, ["Soul", "Optima", "Sportage", "Forte", "Sorento"], 1.0),
    "Subaru": (5, ["Outback", "Forester", "Crosstrek", "Impreza"], 0.6),
    "Jeep": (5, ["Wrangler", "Grand Cherokee", "Cherokee", "Compass"], 1.0),
    "Ram": (4, ["1500", "2500"], 1.3),
    "GMC": (3, ["Sierra", "Acadia", "Terrain"], 1.0),
    "Tesla": (3, ["Model 3", "Model Y"], 0.2),
    "BMW": (3, ["3 Series", "X3", "X5"], 0.8),
    "Mazda": (3, ["CX-5", "Mazda3", "CX-30"], 0.7),
}
# claim type: (annual frequency, severity median USD, severity sigma, median days to settle,
#              denial chance, mean report lag days, payments (min, max), month weights Jan..Dec)
FLAT = [1] * 12
AUTO_PERILS = {
    "Collision": (0.075, 7300, 0.75, 24, 0.05, 2, (1, 3), [1.3, 1.2, 1.0, 0.95, 0.95, 0.9, 0.9, 0.95, 0.95, 1.0, 1.1, 1.35]),
    "Glass": (0.030, 520, 0.30, 6, 0.03, 5, (1, 1), [1.4, 1.3, 1.1, 1.0, 0.9, 0.8, 0.8, 0.8, 0.9, 1.0, 1.1, 1.3]),
    "Theft": (0.009, 15500, 0.55, 38, 0.10, 1, (1, 2), [0.9, 0.85, 0.9, 0.95, 1.0, 1.1, 1.15, 1.15, 1.05, 1.0, 0.95, 0.95]),
    "Hail": (0.015, 5800, 0.50, 30, 0.04, 12, (1, 3), [0.05, 0.1, 0.6, 1.7, 3.4, 2.3, 1.0, 0.6, 0.3, 0.15, 0.05, 0.05]),
}
HOME_PERILS = {
    "Water Damage": (0.052, 10400, 0.80, 52, 0.15, 9, (2, 4), [1.9, 1.6, 1.1, 0.9, 0.8, 0.75, 0.75, 0.75, 0.8, 0.9, 1.1, 1.5]),
    "Wind": (0.024, 10000, 0.80, 45, 0.07, 6, (1, 3), [0.8, 0.8, 1.3, 1.3, 1.0, 0.9, 0.9, 1.5, 1.6, 1.1, 0.8, 0.8]),
    "Hail": (0.018, 15000, 0.55, 40, 0.06, 18, (1, 3), [0.05, 0.1, 0.6, 1.7, 3.4, 2.3, 1.0, 0.6, 0.3, 0.15, 0.05, 0.05]),
    "Fire": (0.005, 52000, 1.00, 105, 0.06, 1, (2, 6), [1.3, 1.2, 1.0, 0.9, 0.9, 0.9, 1.2, 1.0, 0.9, 0.9, 1.0, 1.4]),
    "Theft": (0.013, 4600, 0.70, 30, 0.11, 2, (1, 2), FLAT),
}
RENT_PERILS = {
    "Theft": (0.016, 2900, 0.70, 28, 0.12, 2, (1, 2), FLAT),
    "Water Damage": (0.011, 3400, 0.70, 35, 0.13, 5, (1, 2), [1.9, 1.6, 1.1, 0.9, 0.8, 0.75, 0.75, 0.75, 0.8, 0.9, 1.1, 1.5]),
    "Fire": (0.0016, 12500, 0.80, 80, 0.06, 1, (1, 3), FLAT),
}
PAYEES = {"Collision": ["Repair Shop", "Repair Shop", "Insured", "Vendor"],
          "Glass": ["Vendor"], "Theft": ["Insured", "Insured", "Lienholder"],
          "Hail": ["Repair Shop", "Contractor", "Insured"], "Water Damage": ["Contractor", "Vendor", "Insured"],
          "Wind": ["Contractor", "Insured"], "Fire": ["Insured", "Contractor", "Vendor", "Contractor"]}


def add_years(d: dt.date, n: int) -> dt.date:
    try:
        return d.replace(year=d.year + n)
    except ValueError:  # 29 February
        return d.replace(year=d.year + n, day=28)


def poisson(r: random.Random, lam: float) -> int:
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= r.random()
        if p <= limit:
            return k
        k += 1


def rand_date(r: random.Random, a: dt.date, b: dt.date) -> dt.date:
    return a + dt.timedelta(days=r.randint(0, max(0, (b - a).days)))


def theft_surge(make: str, d: dt.date) -> float:
    """The 2022-2023 'Kia Boys' wave: Kias (and, less, Hyundais) without immobilisers."""
    if dt.date(2022, 7, 1) <= d < dt.date(2024, 7, 1):
        return {"Kia": 11.0, "Hyundai": 5.0}.get(make, 1.0)
    return 1.0


def build():
    r = random.Random(SEED)
    states = [(c, n, reg) for c, n, reg in STATES]
    agents = [(a, f, last, ag, reg, f"{'TX' if reg == 'Southwest' else 'LC'}{r.randint(1000000, 9999999)}", h, t)
              for a, f, last, ag, reg, h, t, _ in AGENTS]
    by_region = {}
    for a in AGENTS:
        by_region.setdefault(a[4], []).append(a)

    def pick_agent(region: str, day: dt.date):
        pool = [a for a in by_region[region] if a[5] <= day and (a[6] is None or a[6] >= day)]
        return r.choices(pool, weights=[a[7] for a in pool])[0][0]

    # ---------------- customers and their policies ----------------
    codes = list(WRITTEN)
    span = (EXTRACT_DAY - FIRST_DAY).days
    holders, policies, vehicles = [], [], []
    policy_info = []   # for claims
    pid = vid = 0
    join_days = []
    for _ in range(N_HOLDERS):
        # growth: more customers join later; spring is the busy season
        while True:
            x = r.random()
            if r.random() < 0.45 + 0.55 * x:
                d = FIRST_DAY + dt.timedelta(days=int(x * span))
                if r.random() < (1.0 + 0.25 * math.cos((d.timetuple().tm_yday - 120) / 365.25 * 2 * math.pi)) / 1.25:
                    break
        join_days.append(d)
    join_days.sort()
    seen_names = {}
    for hid0, joined in enumerate(join_days):
        hid = hid0 + 1
        st = r.choices(codes, weights=[WRITTEN[c][0] for c in codes])[0]
        age_at_join = max(18.0, min(88.0, r.triangular(18, 85, 38)))
        birth = joined - dt.timedelta(days=int(age_at_join * 365.25) + r.randint(0, 364))
        first, last = r.choice(FIRST), r.choice(LAST)
        seen_names[(first, last)] = seen_names.get((first, last), 0) + 1
        email = None if r.random() < 0.07 else \
            f"{first.lower()}.{last.lower()}{seen_names[(first, last)] if seen_names[(first, last)] > 1 else ''}" \
            f"@{r.choice(['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'aol.com', 'hotmail.com'])}"
        holders.append([hid, first, last, None if r.random() < 0.006 else birth, st,
                        WRITTEN[st][5] + f"{r.randint(0, 999):03d}", email, joined, None])
        # product mix by age
        if age_at_join < 28:
            line = r.choices("ARH", weights=[50, 42, 8])[0]
        elif age_at_join < 60:
            line = r.choices("AHR", weights=[56, 34, 10])[0]
        else:
            line = r.choices("AHR", weights=[50, 46, 4])[0]
        lines = [(line, joined)]
        if r.random() < 0.30:  # bundle a second line later
            other = {"A": "H" if age_at_join > 27 and r.random() < 0.75 else "R", "H": "A", "R": "A"}[line]
            when = joined + dt.timedelta(days=int(r.expovariate(1 / 220)))
            if when <= EXTRACT_DAY:
                lines.append((other, when))
        if r.random() < 0.04:  # a second car on its own policy
            when = joined + dt.timedelta(days=r.randint(30, 900))
            if when <= EXTRACT_DAY:
                lines.append(("A", when))
        online_p = 0.03 + 0.025 * (joined.year - 2021)
        direct = r.random() < online_p
        region = REGION_OF[st]
        for k, (ln, start) in enumerate(lines):
            pid += 1
            agent = None if direct else (pick_agent(region, start) if r.random() < 0.96 else
                                         pick_agent(r.choice(list(by_region)), start))
            # life of the policy: renew every year, lapse at a term end or cancel mid-term
            lapse_p = {"A": 0.12, "H": 0.07, "R": 0.24}[ln]
            term_start, status, end = start, None, None
            while True:
                term_end = add_years(term_start, 1)
                if r.random() < 0.03:
                    cancel = rand_date(r, term_start + dt.timedelta(days=10), term_end - dt.timedelta(days=5))
                    if cancel <= EXTRACT_DAY:
                        status, end = "Cancelled", cancel
                        break
                if term_end > EXTRACT_DAY:
                    status, end = "Active", term_end
                    break
                if r.random() < lapse_p + (0.05 if term_start == start else 0.0):
                    status, end = "Lapsed", term_end
                    break
                term_start = term_end
            bundle = len(lines) > 1 and k > 0
            disc = (10 if ln == "A" else 15) if bundle else 0
            sf = WRITTEN[st]
            if ln == "A":
                ndrv = r.choices([1, 2, 3, 4], weights=[45, 40, 11, 4])[0]
                nveh = max(1, min(3, ndrv + r.choice([-1, 0, 0, 0, 1]))) if r.random() < 0.9 else 1
                age_f = 1.7 if age_at_join < 25 else (1.15 if age_at_join > 72 else 1.0)
                base = 1180 * sf[1] * age_f * (1 + 0.55 * (nveh - 1)) * (1 + 0.08 * (ndrv - 1))
                infl = 1.0 + 0.09 * (term_start.year - 2021)
                ded = r.choice([500, 500, 1000, 250])
                limit = r.choice([100000, 300000, 300000, 500000])
            elif ln == "H":
                ndrv = None
                base = 1650 * sf[2]
                infl = 1.0 + 0.07 * (term_start.year - 2021)
                ded = r.choice([1000, 1000, 2500, 500, 5000])
                limit = round(r.lognormvariate(math.log(340000), 0.35), -4)
            else:
                ndrv = None
                base = 185 * (1.1 if sf[2] > 1.2 else 1.0)
                infl = 1.0 + 0.03 * (term_start.year - 2021)
                ded = r.choice([250, 500, 500, 1000])
                limit = r.choice([20000, 30000, 40000, 50000])
            premium = round(base * infl * r.lognormvariate(0, 0.18) * (1 - disc / 100), 2)
            policies.append((pid, f"{ln}{start.year % 100:02d}-{pid:07d}", hid, agent, ln, status, start, end,
                             premium, disc, ded, limit, ndrv if ln == "A" else None))
            veh = []
            if ln == "A":
                for _v in range(nveh):
                    vid += 1
                    make = r.choices(list(MAKES), weights=[m[0] for m in MAKES.values()])[0]
                    model = r.choice(MAKES[make][1])
                    year = min(start.year + 1, max(2003, int(r.triangular(2003, start.year + 1, start.year - 5))))
                    if make == "Tesla":
                        year = max(year, 2018)
                    vin = "".join(r.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17))
                    miles = None if r.random() < 0.05 else int(round(r.lognormvariate(math.log(11000), 0.4), -2))
                    vehicles.append((vid, pid, vin, make, model, year, miles))
                    veh.append((vid, make))
            # in force until the end date, or the extract
            policy_info.append(dict(pid=pid, line=ln, start=start, stop=min(end, EXTRACT_DAY) if status == "Active"
                                    else end - dt.timedelta(days=1), state=st, ded=ded, veh=veh, holder=hid))

    # referrals: a customer names an existing customer; one very active referrer
    star = 4180  # joined 2021: Beatrice Okonkwo, unique name, refers many
    holders[star - 1][1], holders[star - 1][2] = "Beatrice", "Okonkwo"
    holders[star - 1][6] = "b.okonkwo@gmail.com"
    for h in holders:
        if h[0] <= 400:
            continue
        u = r.random()
        if h[0] > star and u < 0.0008:
            h[8] = star
        elif u < 0.09:
            h[8] = r.randint(1, h[0] - 1)

    # ---------------- claims and payments ----------------
    claims, payments = [], []
    cid = payid = 0

    def one_claim(info, ctype, spec, loss, vehicle):
        nonlocal cid, payid
        freq, sev_med, sev_sig, settle, deny, lag, (pmin, pmax), _ = spec
        reported = loss + dt.timedelta(days=int(r.expovariate(1 / lag)) if lag > 0 else 0)
        if reported > EXTRACT_DAY:
            return
        cid += 1
        if ctype == "Water Damage":
            legacy = 0.72 if reported < dt.date(2022, 10, 1) else 0.14
            typed = "water dmg" if r.random() < legacy else "Water Damage"
        else:
            typed = ctype
        pays = []
        if r.random() < deny:
            closed = reported + dt.timedelta(days=r.randint(8, 55))
            status = "denied"
        else:
            days = max(2, int(r.lognormvariate(math.log(settle), 0.55)))
            closed = reported + dt.timedelta(days=days)
            status = "closed"
            loss_amt = r.lognormvariate(math.log(sev_med), sev_sig)
            payout = loss_amt - info["ded"]
            if payout > 50:
                n = r.randint(pmin, pmax)
                cuts = sorted(r.random() for _ in range(n - 1))
                shares = [b - a for a, b in zip([0.0] + cuts, cuts + [1.0])]
                for i, share in enumerate(shares):
                    when = closed if i == n - 1 else \
                        reported + dt.timedelta(days=int((closed - reported).days * r.uniform(0.15, 0.9)))
                    pays.append((when, round(payout * max(share, 0.05), 2), r.choice(PAYEES[ctype])))
                pays.sort()
        if closed > EXTRACT_DAY:
            status, closed = "open", None
            pays = [p for p in pays if p[0] <= EXTRACT_DAY]
        claims.append((cid, f"CLM-{reported.year}-{cid:06d}", info["pid"], vehicle, loss, reported, typed,
                       status, closed))
        for when, amt, payee in pays:
            payid += 1
            payments.append((payid, cid, when, amt, payee))

    def simulate(info, perils, units):
        a, b = info["start"], info["stop"]
        if b < a:
            return
        years = ((b - a).days + 1) / 365.25
        st = WRITTEN[info["state"]]
        for ctype, spec in perils.items():
            months = spec[7]
            peak = max(months) / (sum(months) / 12)
            for vehicle, make in units:
                f = spec[0]
                if ctype == "Hail":
                    f *= st[3]
                elif ctype == "Wind":
                    f *= st[4]
                elif ctype == "Theft" and make:
                    f *= MAKES[make][2]
                surge = 11.0 if ctype == "Theft" and make in ("Kia", "Hyundai") else 1.0
                n = poisson(r, f * years * peak * surge)
                for _ in range(n):
                    loss = rand_date(r, a, b)
                    p = months[loss.month - 1] / max(months)
                    if ctype == "Theft" and make:
                        p *= theft_surge(make, loss) / surge
                    if r.random() < p:
                        one_claim(info, ctype, spec, loss, vehicle)

    # claims are numbered in the order they are simulated; re-number by report date afterwards
    for info in policy_info:
        if info["line"] == "A":
            simulate(info, AUTO_PERILS, info["veh"])
        elif info["line"] == "H":
            simulate(info, HOME_PERILS, [(None, None)])
        else:
            simulate(info, RENT_PERILS, [(None, None)])
    order = sorted(claims, key=lambda c: (c[5], c[4], c[0]))
    new_id = {c[0]: i + 1 for i, c in enumerate(order)}
    claims = [(new_id[c[0]], f"CLM-{c[5].year}-{new_id[c[0]]:06d}", *c[2:]) for c in order]
    payments = sorted(((new_id[p[1]], p[2], p[3], p[4]) for p in payments), key=lambda p: (p[1], p[0]))
    payments = [(i + 1, *p) for i, p in enumerate(payments)]
    return {"UsState": states, "Agent": agents, "PolicyHolder": [tuple(h) for h in holders],
            "Policy": policies, "Vehicle": vehicles, "Claim": claims, "ClaimPayment": payments}


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
            cur.execute(f"CREATE TABLE {table} ({columns}) ENGINE=InnoDB COMMENT=%s", (TABLE_COMMENTS[table],))
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
    print(f"loaded the synthetic car-and-home insurer into MariaDB database {DATABASE} (extract of {EXTRACT_DAY}):")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()
