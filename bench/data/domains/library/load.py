#!/usr/bin/env python3
"""A synthetic city public library network (Harbor City Public Library, 2023-2024) on MariaDB.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

Drops and rebuilds database dev_library, loads seven tables generated deterministically with
random.Random(23), and creates (or resets) the read-only login library_reader / library_reader.
Idempotent: the same rows on every run.

Naming: singular PascalCase table names (`Branch`, `Loan`) and PascalCase columns (`LoanDate`,
`BranchId`); keys are <Entity>Id. Primary keys are declared, foreign keys are NOT (implied by the
*Id names). Short code columns say what their codes mean only in the column COMMENT (FormatCode,
AudienceCode, MemberTypeCode, StatusCode, FineTypeCode); nullable date columns whose NULL means
"not yet" / "never" say so in their COMMENT too.

  Branch   9 branches (Central Library downtown + 8 neighbourhood branches; two "Park" branches:
           Highland Park and Lincoln Park; Riverside opened 2024-04-15; Northfield was closed for
           renovation 2023-07-01 .. 2023-09-30); SundayOpen flag
  Member   cardholders: card number, name, birth year, type code (A adult / J juvenile / T teen /
           S senior / N non-resident), home branch, RegisteredOn (back to 2008), CardExpiresOn;
           ~18% never borrowed anything (dormant cards and late-2024 sign-ups)
  Title    catalogue records: title, author, FormatCode (BK book / LP large print / DVD / AB
           audiobook on CD / VG video game), Genre, AudienceCode (A adult / Y young adult /
           C children), PubYear; some titles exist in two formats (BK + AB / LP) under the same name
  Copy     physical items: owning branch, barcode, AcquiredOn, ReplacementCost (USD),
           WithdrawnOn (NULL = still in the collection; lost items are withdrawn too)
  Loan     one row per checkout: copy, member, checkout branch (usually the copy's branch; hold
           pickups can come from another branch), LoanDate, DueDate (final, after renewals),
           RenewalCount, ReturnDate (NULL = still out as of the extract, incl. lost items)
  Hold     reservations on a title: member, pickup branch, PlacedOn, StatusCode (W waiting /
           R ready on the hold shelf / P picked up / C cancelled / X expired, never collected),
           ReadyOn, ClosedOn
  Fine     fines on a loan: FineTypeCode (OD overdue / LS lost item / DM damaged), Amount (USD),
           AssessedOn, PaidOn (NULL = not paid), IsWaived (1 = forgiven); juvenile cards are
           fine-free for overdues (lost / damaged still charged)

Loan periods: BK/LP/AB 21 days, VG 14, DVD 7; up to two renewals (DVD none), each adds a period.
The extract is as of 2024-12-31: loans out on that day have no ReturnDate, holds placed in the last
weeks are still W or R, recent fines are unpaid.
Built-in signal: Central lends by far the most (~31%), Saturday is the busiest day, July the busiest month,
DVDs are returned late most often, "The Lighthouse Keeper's Daughter" is the most borrowed title of 2024.
"""

import bisect
import datetime as dt
import itertools
import math
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, USER = "dev_library", "library_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
SEED = 23
FIRST_DAY, EXTRACT_DAY = dt.date(2023, 1, 2), dt.date(2024, 12, 31)

DDL = {
    "Branch": ("""
        BranchId SMALLINT NOT NULL PRIMARY KEY,
        BranchCode CHAR(3) NOT NULL COMMENT 'three-letter code printed on spine labels',
        BranchName VARCHAR(60) NOT NULL,
        Neighborhood VARCHAR(40) NOT NULL,
        OpenedOn DATE NOT NULL,
        SundayOpen TINYINT(1) NOT NULL COMMENT '1 = open on Sundays (1-5 pm), 0 = closed Sundays',
        SquareFeet INT NOT NULL""",
               "Library branches (locations) of the city library network"),
    "Member": ("""
        MemberId INT NOT NULL PRIMARY KEY,
        CardNumber CHAR(14) NOT NULL,
        FirstName VARCHAR(40) NOT NULL,
        LastName VARCHAR(40) NOT NULL,
        BirthYear SMALLINT NOT NULL,
        MemberTypeCode CHAR(1) NOT NULL COMMENT 'A = adult, J = juvenile (under 13), T = teen (13-17), S = senior (65+), N = non-resident (paid card)',
        HomeBranchId SMALLINT NOT NULL COMMENT 'branch where the card was issued (Branch.BranchId)',
        RegisteredOn DATE NOT NULL,
        CardExpiresOn DATE NOT NULL,
        Email VARCHAR(80) NULL,
        KEY ByHomeBranch (HomeBranchId)""",
               "Library card holders"),
    "Title": ("""
        TitleId INT NOT NULL PRIMARY KEY,
        TitleName VARCHAR(120) NOT NULL,
        AuthorName VARCHAR(80) NULL COMMENT 'author, or director/studio for DVD and VG',
        FormatCode VARCHAR(3) NOT NULL COMMENT 'BK = print book, LP = large print book, DVD = DVD video, AB = audiobook on CD, VG = video game',
        Genre VARCHAR(30) NOT NULL,
        AudienceCode CHAR(1) NOT NULL COMMENT 'A = adult, Y = young adult, C = children',
        PubYear SMALLINT NOT NULL,
        Isbn CHAR(13) NULL""",
              "Catalogue records: one row per title and format"),
    "Copy": ("""
        CopyId INT NOT NULL PRIMARY KEY,
        TitleId INT NOT NULL,
        BranchId SMALLINT NOT NULL COMMENT 'owning branch (Branch.BranchId)',
        Barcode CHAR(14) NOT NULL,
        AcquiredOn DATE NOT NULL,
        ReplacementCost DECIMAL(6,2) NOT NULL COMMENT 'USD charged when the item is lost',
        WithdrawnOn DATE NULL COMMENT 'date removed from the collection (weeded or lost); NULL = still in the collection',
        KEY ByTitle (TitleId), KEY ByBranch (BranchId)""",
             "Physical items: one row per copy of a title owned by a branch"),
    "Loan": ("""
        LoanId INT NOT NULL PRIMARY KEY,
        CopyId INT NOT NULL,
        MemberId INT NOT NULL,
        BranchId SMALLINT NOT NULL COMMENT 'branch where the item was checked out (Branch.BranchId)',
        LoanDate DATE NOT NULL,
        DueDate DATE NOT NULL COMMENT 'final due date, after renewals',
        RenewalCount TINYINT NOT NULL,
        ReturnDate DATE NULL COMMENT 'NULL = not returned as of the extract (2024-12-31)',
        KEY ByCopy (CopyId), KEY ByMember (MemberId), KEY ByDate (LoanDate)""",
             "One row per checkout of a copy by a member"),
    "Hold": ("""
        HoldId INT NOT NULL PRIMARY KEY,
        TitleId INT NOT NULL,
        MemberId INT NOT NULL,
        PickupBranchId SMALLINT NOT NULL COMMENT 'branch where the member collects the item (Branch.BranchId)',
        PlacedOn DATE NOT NULL,
        StatusCode CHAR(1) NOT NULL COMMENT 'W = waiting in the queue, R = ready on the hold shelf, P = picked up, C = cancelled by the member, X = expired (not collected in time)',
        ReadyOn DATE NULL COMMENT 'date a copy was set aside; NULL = not yet / never',
        ClosedOn DATE NULL COMMENT 'date picked up, cancelled or expired; NULL while open (W, R)'""",
             "Requests by members to reserve a title"),
    "Fine": ("""
        FineId INT NOT NULL PRIMARY KEY,
        LoanId INT NOT NULL,
        MemberId INT NOT NULL,
        FineTypeCode CHAR(2) NOT NULL COMMENT 'OD = overdue, LS = lost item (replacement cost + 5.00 fee), DM = damaged item',
        Amount DECIMAL(7,2) NOT NULL COMMENT 'USD',
        AssessedOn DATE NOT NULL,
        PaidOn DATE NULL COMMENT 'NULL = not paid',
        IsWaived TINYINT(1) NOT NULL COMMENT '1 = waived (forgiven by staff, will not be paid)',
        KEY ByMember (MemberId)""",
             "Charges on members' accounts for overdue, lost or damaged items"),
}

BRANCHES = [  # id, code, name, neighbourhood, opened, sunday, sq ft, daily checkouts, member share
    (1, "CEN", "Central Library", "Downtown", dt.date(1962, 9, 10), 1, 98000, 31.0, 2.6),
    (2, "EAS", "Eastside Branch", "Eastside", dt.date(1988, 4, 2), 1, 18500, 14.0, 1.3),
    (3, "WGT", "Westgate Branch", "Westgate", dt.date(1975, 6, 14), 0, 12000, 10.5, 1.0),
    (4, "HPK", "Highland Park Branch", "Highland Park", dt.date(1995, 10, 7), 0, 11000, 9.0, 0.9),
    (5, "LPK", "Lincoln Park Branch", "Lincoln Park", dt.date(2001, 3, 17), 1, 14500, 11.5, 1.1),
    (6, "NFD", "Northfield Branch", "Northfield", dt.date(1981, 1, 20), 0, 9500, 8.0, 0.8),
    (7, "SPT", "Southport Branch", "Southport", dt.date(1969, 5, 3), 0, 8000, 6.5, 0.7),
    (8, "MGV", "Maple Grove Branch", "Maple Grove", dt.date(2010, 8, 28), 1, 13000, 9.5, 0.9),
    (9, "RVS", "Riverside Branch", "Riverside", dt.date(2024, 4, 15), 0, 15000, 10.0, 0.6),
]
RENOVATION = (dt.date(2023, 7, 1), dt.date(2023, 9, 30))   # Northfield closed
HOLIDAYS = {dt.date(2023, 1, 16), dt.date(2023, 5, 29), dt.date(2023, 7, 4), dt.date(2023, 9, 4),
            dt.date(2023, 11, 23), dt.date(2023, 12, 25), dt.date(2024, 1, 1), dt.date(2024, 1, 15),
            dt.date(2024, 5, 27), dt.date(2024, 7, 4), dt.date(2024, 9, 2), dt.date(2024, 11, 28),
            dt.date(2024, 12, 25)}
WEEKDAY = [1.0, 1.06, 1.02, 0.97, 0.86, 1.5, 0.62]          # Mon .. Sun
MONTH = [0.96, 0.98, 1.0, 0.97, 0.95, 1.12, 1.27, 1.14, 0.93, 0.97, 0.94, 0.84]
FORMATS = {  # code: (loan days, max renewals, popularity, late chance, cost range, share of titles)
    "BK": (21, 2, 1.0, 0.10, (14, 32), 0.62),
    "LP": (21, 2, 0.45, 0.07, (24, 40), 0.06),
    "DVD": (7, 0, 1.5, 0.24, (15, 30), 0.15),
    "AB": (21, 2, 0.6, 0.09, (30, 65), 0.09),
    "VG": (14, 1, 1.2, 0.17, (40, 70), 0.08),
}
GENRES = {  # format group -> (genre, weight)
    "book": [("Fiction", 22), ("Mystery", 12), ("Romance", 8), ("Science Fiction", 6), ("Fantasy", 7),
             ("Biography", 6), ("History", 6), ("Self-Help", 5), ("Cooking", 4), ("Travel", 3),
             ("Science", 4), ("Picture Book", 9), ("Graphic Novel", 6), ("Poetry", 2)],
    "DVD": [("Drama", 10), ("Comedy", 8), ("Action", 7), ("Documentary", 6), ("Family", 7), ("Horror", 3)],
    "VG": [("Adventure", 6), ("Sports", 4), ("Puzzle", 3), ("Family", 5), ("Action", 5)],
}
MEMBER_TYPES = [("A", 54), ("J", 15), ("T", 10), ("S", 15), ("N", 6)]
ADJ = ["Silent", "Hidden", "Last", "Broken", "Golden", "Midnight", "Distant", "Lost", "Burning", "Quiet",
       "Forgotten", "Crimson", "Winter", "Summer", "Secret", "Wild", "Glass", "Iron", "Paper", "Hollow",
       "Bright", "Little", "Long", "Northern", "Shattered", "Velvet", "Salt", "Stolen", "Sleeping", "Open"]
NOUN = ["River", "Garden", "House", "Orchard", "Kingdom", "Road", "Harbor", "Letter", "Island", "Mountain",
        "Library", "Promise", "Shadow", "Storm", "Season", "Bridge", "Daughter", "Keeper", "Voyage", "Valley",
        "Clockmaker", "Lantern", "Witness", "Forest", "Tide", "Hour", "Map", "Sky", "Station", "Compass"]
PATTERNS = ["The {a} {n}", "{a} {n}", "The {n} of {a} {n2}s", "A {a} {n}", "The {n}'s {n2}",
            "Beyond the {a} {n}", "{n} at Midnight", "Under a {a} Sky", "The {a} {n} Society", "Letters from the {n}"]
CHILD = ["Max and the {a} {n}", "Penny Finds a {n}", "The Very {a} {n}", "Goodnight, {n}", "Dino {n} Adventures",
         "Pip the {a} Puppy", "Where Is My {n}?", "Captain {n} Saves the Day"]
NONFIC = {"Biography": ["The Life of {f} {l}", "{f} {l}: A Life", "Becoming {f}"],
          "History": ["The {a} War", "A History of the {n}", "Empire of the {n}", "The {n} Years"],
          "Self-Help": ["The {a} Habit", "Small Steps to a {a} Life", "Unlock Your {n}", "The Art of {a} Living"],
          "Cooking": ["{a} Kitchen", "The {n} Cookbook", "Weeknight {a} Dinners", "Salt, Fat and {n}"],
          "Travel": ["Walking the {a} Coast", "A Year in the {n}", "{a} Roads of Portugal", "Rail Journeys: {n}"],
          "Science": ["The {a} Universe", "Why the {n} Matters", "Secrets of the {a} Cell", "The {n} Paradox"],
          "Poetry": ["{a} Verses", "Songs of the {n}", "Poems for a {a} Morning"]}
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac",
         "Margaret", "Robert", "Linda", "George", "Dorothy", "Frank", "Helen", "Walter", "Joan", "Arthur"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright",
        "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz",
        "Singh", "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer", "Sullivan"]
# the hot titles: (name, author, format, genre, audience, pub year, acquired, popularity)
HITS = [
    ("The Lighthouse Keeper's Daughter", "Maren Holloway", "BK", "Fiction", "A", 2023, dt.date(2023, 10, 3), 70),
    ("Fourth Wing", "Rebecca Yarros", "BK", "Fantasy", "A", 2023, dt.date(2023, 5, 2), 48),
    ("Tomorrow, and Tomorrow, and Tomorrow", "Gabrielle Zevin", "BK", "Fiction", "A", 2022, dt.date(2022, 7, 12), 36),
    ("The Woman in Me", "Britney Spears", "BK", "Biography", "A", 2023, dt.date(2023, 10, 24), 33),
    ("Lessons in Chemistry", "Bonnie Garmus", "BK", "Fiction", "A", 2022, dt.date(2022, 4, 5), 31),
    ("Dog Man: The Scarlet Shedder", "Dav Pilkey", "BK", "Graphic Novel", "C", 2024, dt.date(2024, 3, 19), 44),
    ("James", "Percival Everett", "BK", "Fiction", "A", 2024, dt.date(2024, 3, 19), 40),
    ("The Women", "Kristin Hannah", "BK", "Fiction", "A", 2024, dt.date(2024, 2, 6), 46),
    ("Oppenheimer", "Christopher Nolan", "DVD", "Drama", "A", 2023, dt.date(2023, 11, 21), 42),
    ("Barbie", "Greta Gerwig", "DVD", "Comedy", "A", 2023, dt.date(2023, 10, 17), 40),
    ("The Legend of Zelda: Tears of the Kingdom", "Nintendo", "VG", "Adventure", "A", 2023, dt.date(2023, 5, 16), 34),
    ("Funny Story", "Emily Henry", "BK", "Romance", "A", 2024, dt.date(2024, 4, 23), 38),
]


def day_range(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def add_years(d: dt.date, years: int) -> dt.date:
    try:
        return d.replace(year=d.year + years)
    except ValueError:
        return d.replace(year=d.year + years, day=28)


def make_titles(r):
    titles, names = [], set()
    tid = 0

    def add(name, author, fmt, genre, aud, year, weight, acquired=None):
        nonlocal tid
        tid += 1
        isbn = None if fmt in ("DVD", "VG") else "978" + "".join(str(r.randint(0, 9)) for _ in range(10))
        titles.append(dict(id=tid, name=name, author=author, fmt=fmt, genre=genre, aud=aud, year=year,
                           isbn=isbn, w=weight, acquired=acquired))
        names.add(name)
        return titles[-1]

    for name, author, fmt, genre, aud, year, acquired, pop in HITS:
        add(name, author, fmt, genre, aud, year, pop, acquired)
    # a couple of hits also exist as audiobook / large print under the same name
    add("The Lighthouse Keeper's Daughter", "Maren Holloway", "AB", "Fiction", "A", 2023, 9, dt.date(2023, 11, 14))
    add("Fourth Wing", "Rebecca Yarros", "AB", "Fantasy", "A", 2023, 8, dt.date(2023, 6, 6))
    add("The Women", "Kristin Hannah", "LP", "Fiction", "A", 2024, 7, dt.date(2024, 2, 20))

    fmts = list(FORMATS)
    target = 3400
    while len(titles) < target:
        fmt = r.choices(fmts, weights=[FORMATS[f][5] for f in fmts])[0]
        group = fmt if fmt in ("DVD", "VG") else "book"
        genre = r.choices([g for g, _ in GENRES[group]], weights=[w for _, w in GENRES[group]])[0]
        if fmt == "LP" and genre in ("Picture Book", "Graphic Novel"):
            genre = "Fiction"
        a, a2 = r.sample(ADJ, 2)
        n, n2 = r.sample(NOUN, 2)
        f, l_ = r.choice(FIRST), r.choice(LAST)
        if genre == "Picture Book":
            name, aud = r.choice(CHILD).format(a=a, n=n), "C"
        elif genre in NONFIC:
            name, aud = r.choice(NONFIC[genre]).format(a=a, n=n, f=f, l=l_), "A"
        else:
            name = r.choice(PATTERNS).format(a=a, n=n, n2=n2)
            aud = r.choices("AYC", weights=[70, 18, 12])[0]
            if fmt == "VG" or genre == "Family":
                aud = r.choice("AYC")
            if genre == "Graphic Novel":
                aud = r.choice("YCA")
        name = re.sub(r"\b([Aa]) ([AEIOU])", r"\1n \2", name)
        if name in names:
            continue
        if fmt in ("DVD",):
            author = f"{r.choice(FIRST)} {r.choice(LAST)}"
        elif fmt == "VG":
            author = r.choice(["Nintendo", "Ubisoft", "Electronic Arts", "Sega", "Capcom", "Square Enix"])
        else:
            author = f"{r.choice(FIRST)} {r.choice(LAST)}"
        year = r.choices([r.randint(1950, 2010), r.randint(2011, 2022), 2023, 2024], weights=[30, 52, 10, 8])[0]
        w = min(14.0, r.paretovariate(1.6)) * FORMATS[fmt][2] * (1.4 if year >= 2023 else 1.0)
        if r.random() < 0.05:
            w *= 0.01  # shelf-sitters
        add(name, author, fmt, genre, aud, year, w)
        # ~6% of print books also come as audiobook or large print under the same name
        if fmt == "BK" and r.random() < 0.06 and len(titles) < target:
            fmt2 = r.choice(["AB", "LP"])
            add(name, author, fmt2, genre if fmt2 == "AB" or genre not in ("Picture Book", "Graphic Novel") else "Fiction",
                aud, year, w * FORMATS[fmt2][2] * 0.6)
    return titles


def build():
    r = random.Random(SEED)
    branch_rows = [(b[0], b[1], b[2], b[3], b[4], b[5], b[6]) for b in BRANCHES]
    bids = [b[0] for b in BRANCHES]
    opened = {b[0]: b[4] for b in BRANCHES}
    sunday = {b[0]: b[5] for b in BRANCHES}
    daily = {b[0]: b[7] for b in BRANCHES}
    member_share = {b[0]: b[8] for b in BRANCHES}

    # ---------------------------------------------------------------- titles and copies
    titles = make_titles(r)
    copies, copy_rows = [], []
    cid = 0
    branch_copy_share = {1: 2.4, 2: 1.2, 3: 1.0, 4: 0.9, 5: 1.0, 6: 0.8, 7: 0.7, 8: 0.9, 9: 0.9}
    for t in titles:
        lo, hi = FORMATS[t["fmt"]][4]
        if t["acquired"] is not None:
            n = int(min(22, 6 + t["w"] / 3.2))
        else:
            n = max(1, min(9, int(r.gauss(1.2 + 1.5 * math.log1p(t["w"]), 0.8))))
        t["copies"] = []
        for k in range(n):
            cid += 1
            b = 1 if k == 0 and r.random() < 0.45 else r.choices(bids, weights=list(branch_copy_share.values()))[0]
            if t["acquired"] is not None:
                acq = t["acquired"] + dt.timedelta(days=r.randint(0, 20))
            elif t["year"] >= 2023:
                acq = dt.date(t["year"], 1, 10) + dt.timedelta(days=r.randint(0, 330 if t["year"] == 2023 else 300))
            else:
                acq = dt.date(max(t["year"], 2000), 1, 1) + dt.timedelta(
                    days=r.randint(0, (dt.date(2022, 12, 20) - dt.date(max(t["year"], 2000), 1, 1)).days))
            if b == 9:
                acq = max(acq, dt.date(2024, 3, 1) + dt.timedelta(days=r.randint(0, 40)))
            withdrawn = None
            if acq < dt.date(2021, 1, 1) and r.random() < 0.07:
                withdrawn = FIRST_DAY + dt.timedelta(days=r.randint(-400, 700))
                if withdrawn <= acq:
                    withdrawn = None
            cost = round(r.uniform(lo, hi), 2)
            c = dict(id=cid, title=t, branch=b, acq=acq, withdrawn=withdrawn, cost=cost,
                     w=t["w"] / n, busy=dt.date.min)
            copies.append(c)
            t["copies"].append(c)
    by_branch = {b: [c for c in copies if c["branch"] == b] for b in bids}
    cum_branch = {b: list(itertools.accumulate(c["w"] for c in by_branch[b])) for b in bids}
    cum_all = list(itertools.accumulate(c["w"] for c in copies))

    # ---------------------------------------------------------------- members
    members, pools = [], {b: [] for b in bids}
    mid = 0
    for _ in range(9200):
        mid += 1
        home = r.choices(bids, weights=list(member_share.values()))[0]
        mtype = r.choices([m for m, _ in MEMBER_TYPES], weights=[w for _, w in MEMBER_TYPES])[0]
        u = r.random()
        if home == 9:
            reg = dt.date(2024, 4, 15) + dt.timedelta(days=r.randint(0, 255))
        elif u < 0.70:
            reg = dt.date(2008, 1, 1) + dt.timedelta(days=r.randint(0, (dt.date(2022, 12, 31) - dt.date(2008, 1, 1)).days))
        elif u < 0.85:
            reg = dt.date(2023, 1, 2) + dt.timedelta(days=r.randint(0, 363))
        else:
            reg = dt.date(2024, 1, 2) + dt.timedelta(days=r.randint(0, 363))
        age_at_reg = {"A": r.randint(18, 64), "J": r.randint(3, 12), "T": r.randint(13, 17),
                      "S": r.randint(65, 88), "N": r.randint(20, 70)}[mtype]
        if mtype in ("J", "T") and reg.year < 2019:
            reg = dt.date(2019, 1, 1) + dt.timedelta(days=r.randint(0, 1460))
        birth_year = reg.year - age_at_reg
        expires = add_years(reg, 1 if mtype == "N" else 3)
        while expires < dt.date(2022, 6, 1) or (r.random() < 0.6 and expires < dt.date(2025, 1, 1)):
            expires = add_years(expires, 1 if mtype == "N" else 3)
        first, last = r.choice(FIRST), r.choice(LAST)
        email = None if r.random() < 0.18 else f"{first.lower()}.{last.lower().replace(chr(39), '')}{r.randint(1, 999)}@example.com"
        card = "29" + f"{reg.year % 100:02d}" + f"{mid:06d}" + f"{r.randint(0, 9999):04d}"
        members.append((mid, card, first, last, birth_year, mtype, home, reg, expires, email))
        ghost = r.random() < 0.11
        w = 0.0 if ghost else r.paretovariate(1.5) * {"A": 1.0, "J": 1.3, "T": 0.8, "S": 1.2, "N": 0.9}[mtype]
        pools[home].append(dict(id=mid, reg=reg, type=mtype, home=home, w=w))
    all_pool = sorted((p for ps in pools.values() for p in ps if p["w"] > 0), key=lambda p: (p["reg"], p["id"]))
    for b in bids:
        pool = sorted((p for p in pools[b] if p["w"] > 0), key=lambda p: (p["reg"], p["id"]))
        pools[b] = (pool, [p["reg"] for p in pool], list(itertools.accumulate(p["w"] for p in pool)))
    all_regs = [p["reg"] for p in all_pool]
    all_cum = list(itertools.accumulate(p["w"] for p in all_pool))

    # ---------------------------------------------------------------- loans, holds, fines
    loans, holds, fines = [], [], []
    lid = hid = fid = 0
    hit_cut = sorted((t["w"] for t in titles), reverse=True)[120]

    def fine_paid(assessed):
        u = r.random()
        if u < 0.09:
            return None, 1
        if u < 0.78:
            paid = assessed + dt.timedelta(days=int(r.expovariate(1 / 12)))
            return (paid if paid <= EXTRACT_DAY else None), 0
        return None, 0

    for day in day_range(FIRST_DAY, EXTRACT_DAY):
        wd = day.weekday()
        if day in HOLIDAYS:
            continue
        season = MONTH[day.month - 1] * (1.05 if day.year == 2024 else 1.0)
        for b in bids:
            if day < opened[b] or (wd == 6 and not sunday[b]):
                continue
            if b == 6 and RENOVATION[0] <= day <= RENOVATION[1]:
                continue
            boost = 1.25 if (b == 9 and day < dt.date(2024, 6, 1)) else 1.0
            mean = daily[b] * WEEKDAY[wd] * season * boost
            n = max(0, int(r.gauss(mean, math.sqrt(mean) * 1.1) + 0.5))
            pool, regs, cum = pools[b]
            k = bisect.bisect_right(regs, day)
            ka = bisect.bisect_right(all_regs, day)
            for _ in range(n):
                if r.random() < 0.86 and k:
                    m = r.choices(pool[:k], cum_weights=cum[:k])[0]
                elif ka:
                    m = r.choices(all_pool[:ka], cum_weights=all_cum[:ka])[0]
                else:
                    continue
                transit = r.random() < 0.07
                copy = None
                for _try in range(6):
                    if transit:
                        c = r.choices(copies, cum_weights=cum_all)[0]
                    else:
                        c = r.choices(by_branch[b], cum_weights=cum_branch[b])[0]
                    if c["acq"] <= day and (c["withdrawn"] is None or day < c["withdrawn"]) and c["busy"] <= day:
                        copy = c
                        break
                if copy is None:
                    continue
                t = copy["title"]
                period, max_ren, _, late_p, _, _ = FORMATS[t["fmt"]]
                renewals = 0
                if max_ren:
                    renewals = r.choices([0, 1, 2][:max_ren + 1], weights=[72, 19, 9][:max_ren + 1])[0]
                    if t["w"] >= hit_cut:
                        renewals = 0  # items with holds on them cannot be renewed
                due = day + dt.timedelta(days=period * (1 + renewals))
                lost = r.random() < 0.011
                if lost:
                    ret = None
                elif r.random() < late_p * (1.3 if m["type"] == "T" else 1.0):
                    ret = due + dt.timedelta(days=1 + min(60, int(r.expovariate(1 / 6))))
                else:
                    lo = day + dt.timedelta(days=period * renewals + 1) if renewals else day
                    ret = lo + dt.timedelta(days=r.randint(0, (due - lo).days))
                if ret is not None and ret > EXTRACT_DAY:
                    ret = None
                lid += 1
                loans.append((lid, copy["id"], m["id"], b, day, due, renewals, ret))
                copy["busy"] = ret + dt.timedelta(days=1) if ret else dt.date.max
                # hold pickup behind a checkout of a popular title
                if t["w"] >= hit_cut and r.random() < 0.45:
                    placed = day - dt.timedelta(days=r.randint(2, 75))
                    if placed >= max(FIRST_DAY, m["reg"]):
                        ready = day - dt.timedelta(days=r.randint(0, 6))
                        ready = max(ready, placed + dt.timedelta(days=1))
                        hid += 1
                        holds.append((hid, t["id"], m["id"], b, placed, "P", ready, day))
                # fines
                if ret is not None and ret > due and m["type"] != "J":
                    days_late = (ret - due).days
                    rate, cap = (1.0, 10.0) if t["fmt"] in ("DVD", "VG") else (0.25, 5.0)
                    amount = round(min(cap, rate * days_late), 2)
                    paid, waived = fine_paid(ret)
                    fid += 1
                    fines.append((fid, lid, m["id"], "OD", amount, ret, paid, waived))
                if ret is not None and r.random() < 0.005:
                    paid, waived = fine_paid(ret)
                    fid += 1
                    fines.append((fid, lid, m["id"], "DM", round(r.choice([5, 10, 15, 20, 25]) * 1.0, 2), ret, paid, waived))
                if lost:
                    assessed = due + dt.timedelta(days=45)
                    if assessed <= EXTRACT_DAY:
                        paid, waived = fine_paid(assessed)
                        fid += 1
                        fines.append((fid, lid, m["id"], "LS", round(copy["cost"] + 5, 2), assessed, paid, waived))
                        copy["withdrawn"] = assessed

    # holds that did not end in a checkout: cancelled, expired, and the open queue at the extract
    hot = [t for t in titles if t["w"] >= hit_cut]
    hot_w = [t["w"] for t in hot]
    member_by_id = {p["id"]: p for p in all_pool}
    active_ids = [p["id"] for p in all_pool]
    for kind, count in (("C", 520), ("X", 460), ("W", 330), ("R", 95)):
        for _ in range(count):
            t = r.choices(hot, weights=hot_w)[0]
            m = member_by_id[r.choice(active_ids)]
            pickup = m["home"] if r.random() < 0.85 else r.choice(bids[:8])
            first_ok = max(FIRST_DAY, m["reg"], min(c["acq"] for c in t["copies"]) - dt.timedelta(days=30),
                           opened[pickup])
            if kind == "W":
                placed = EXTRACT_DAY - dt.timedelta(days=int(r.expovariate(1 / 20)))
                ready, closed = None, None
            elif kind == "R":
                ready = EXTRACT_DAY - dt.timedelta(days=r.randint(0, 6))
                placed = ready - dt.timedelta(days=r.randint(3, 60))
                closed = None
            else:
                placed = first_ok + dt.timedelta(days=r.randint(0, max(0, (dt.date(2024, 12, 10) - first_ok).days)))
                if kind == "C":
                    ready, closed = None, placed + dt.timedelta(days=r.randint(0, 40))
                else:
                    ready = placed + dt.timedelta(days=r.randint(3, 50))
                    closed = ready + dt.timedelta(days=7)
                if closed > EXTRACT_DAY:
                    continue
            if placed < first_ok:
                continue
            hid += 1
            holds.append((hid, t["id"], m["id"], pickup, placed, kind, ready, closed))
    holds.sort(key=lambda h: (h[4], h[0]))
    holds = [(i + 1, *h[1:]) for i, h in enumerate(holds)]

    title_rows = [(t["id"], t["name"], t["author"], t["fmt"], t["genre"], t["aud"], t["year"], t["isbn"])
                  for t in titles]
    copy_rows = [(c["id"], c["title"]["id"], c["branch"], "3100" + f"{c['branch']:02d}" + f"{c['id']:08d}",
                  c["acq"], c["cost"], c["withdrawn"]) for c in copies]
    return {"Branch": branch_rows, "Member": members, "Title": title_rows, "Copy": copy_rows,
            "Loan": loans, "Hold": holds, "Fine": fines}


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
            cur.execute(f"SELECT count(*) FROM {table}")
            counts[f"{DATABASE}.{table}"] = cur.fetchone()[0]
    finally:
        con.close()
    print(f"loaded the synthetic city library network into MariaDB database {DATABASE}:")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()
